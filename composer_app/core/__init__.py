"""Contracts and pure codecs. Imports only the standard library, pydantic and markdown-it-py."""
