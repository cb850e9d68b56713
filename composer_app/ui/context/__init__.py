"""Inserting context from the composer: typed-trigger completion, command mode, pull requests."""
