"""Shared test support (vector harness)."""
