"""The error tree of Composer.

    ComposerError
    ├── ContractError        invalid wire data (names the field and the rule it broke)
    ├── StorageError         a store could not read or write (server or client database)
    ├── TransportError       the network or the peer failed (sync client)
    │   └── AuthError        the peer refused our credentials
    └── ConfigError          settings that cannot work

Foreign exceptions (sqlite3, psycopg, httpx, websockets, pydantic's ValidationError) are translated
at the boundary into one of these; they never reach callers.
"""

from __future__ import annotations


class ComposerError(Exception):
    """Root of every error Composer raises on purpose."""


class ContractError(ComposerError):
    """Wire data that breaks the context or sources contract."""


class StorageError(ComposerError):
    """A store failed to read or write."""


class TransportError(ComposerError):
    """The network or the peer failed."""


class AuthError(TransportError):
    """The peer refused our credentials."""


class ConfigError(ComposerError):
    """Settings that cannot work."""
