"""Composer: a desktop chat composer whose messages point at typed context."""

__version__ = "0.1.0"
APP_ID = "io.github.composerapp.Composer"
