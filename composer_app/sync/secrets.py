"""Where sign-in tokens live: the system keyring, or an explicit, visible fallback.

Invariants: a token is stored under service ``composer_app.APP_ID`` and user = the server base
URL; a backend that cannot keep a secret safely (``fail``, ``null``, any plaintext backend such as
those of ``keyrings.alt``) counts as *no keyring*; without a keyring the token stays in memory (and
``banner`` says so) unless the user opts in with ``remember_on_device()``, which writes
``credentials.json`` created with mode 0600 and raises a lasting ``notice``. Nothing here selects a
backend by entry-point auto-discovery when one is given explicitly, and discovery (which loads
every installed backend plugin) runs on the first use of the keyring, not at construction: a
session with only the embedded server never pays for it at start-up.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from composer_app import APP_ID

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

KEYRING_UNAVAILABLE_BANNER = (
    "Your system keyring is unavailable. You will need to sign in again next time."
)
REMEMBER_ACTION = "Remember on this device (unencrypted)"
UNENCRYPTED_NOTICE = "Token stored unencrypted"
CREDENTIALS_FILE = "credentials.json"



def _keyring_errors() -> tuple[type[Exception], ...]:
    """What a keyring call may raise (keyring itself loads on the first such call)."""
    from keyring.errors import InitError, KeyringError, KeyringLocked, NoKeyringError

    return (NoKeyringError, KeyringLocked, InitError, KeyringError, RuntimeError)


def is_usable_backend(backend: KeyringBackend) -> bool:
    """True when ``backend`` keeps secrets in a real, encrypted store."""
    from keyring.backends import chainer, fail, null

    if isinstance(backend, fail.Keyring | null.Keyring):
        return False
    if isinstance(backend, chainer.ChainerBackend):
        return any(is_usable_backend(b) for b in backend.backends)
    module = type(backend).__module__
    name = type(backend).__name__.lower()
    if module.startswith("keyrings.alt") or "plaintext" in name or "unencrypted" in name:
        return False
    try:
        return float(backend.priority) > 0
    except _keyring_errors():
        return False


class TokenStore:
    """Tokens per server URL, in the keyring or in the visible fallback."""

    def __init__(self, config_dir: Path, backend: KeyringBackend | None = None) -> None:
        self._dir = config_dir
        self._memory: dict[str, str] = {}
        self._given = backend
        self._resolved = False
        self._usable: KeyringBackend | None = None

    def _keyring(self) -> KeyringBackend | None:
        """The usable keyring backend, found on first use; None once it has failed."""
        if not self._resolved:
            self._resolved = True
            backend = self._given
            if backend is None:
                import keyring
                from keyring.backends import fail

                try:
                    backend = keyring.get_keyring()
                except _keyring_errors():
                    backend = fail.Keyring()  # type: ignore[no-untyped-call]
            self._usable = backend if is_usable_backend(backend) else None
        return self._usable

    def _keyring_failed(self) -> None:
        self._resolved = True
        self._usable = None

    @property
    def credentials_path(self) -> Path:
        """The opt-in plaintext file."""
        return self._dir / CREDENTIALS_FILE

    @property
    def uses_keyring(self) -> bool:
        """True while tokens go to the system keyring."""
        return self._keyring() is not None

    @property
    def banner(self) -> str | None:
        """The fallback banner text while tokens are only kept in memory, else None."""
        if self._keyring() is None and not self.credentials_path.exists():
            return KEYRING_UNAVAILABLE_BANNER
        return None

    @property
    def notice(self) -> str | None:
        """The lasting notice while any token is stored unencrypted on disk, else None."""
        return UNENCRYPTED_NOTICE if self.credentials_path.exists() else None

    def get(self, server_url: str) -> str | None:
        """The token for ``server_url``, or None."""
        if (backend := self._keyring()) is not None:
            try:
                token = backend.get_password(APP_ID, server_url)
            except _keyring_errors():
                self._keyring_failed()
            else:
                if token is not None:
                    return str(token)
        file_tokens = self._read_file()
        if server_url in file_tokens:
            return file_tokens[server_url]
        return self._memory.get(server_url)

    def set(self, server_url: str, token: str) -> None:
        """Store ``token``: keyring if usable, the opted-in file if present, else memory."""
        if (backend := self._keyring()) is not None:
            try:
                backend.set_password(APP_ID, server_url, token)
            except _keyring_errors():
                self._keyring_failed()
            else:
                return
        if self.credentials_path.exists():
            tokens = self._read_file()
            tokens[server_url] = token
            self._write_file(tokens)
            return
        self._memory[server_url] = token

    def delete(self, server_url: str) -> None:
        """Forget the token for ``server_url`` everywhere it may be."""
        self._memory.pop(server_url, None)
        if (backend := self._keyring()) is not None:
            with contextlib.suppress(*_keyring_errors()):
                backend.delete_password(APP_ID, server_url)
        tokens = self._read_file()
        if server_url in tokens:
            del tokens[server_url]
            self._write_file(tokens)

    def remember_on_device(self) -> None:
        """The user's explicit opt-in: write the in-memory tokens to ``credentials.json`` (0600)."""
        tokens = self._read_file()
        tokens.update(self._memory)
        self._write_file(tokens)
        self._memory.clear()

    def _read_file(self) -> dict[str, str]:
        try:
            data = json.loads(self.credentials_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}

    def _write_file(self, tokens: dict[str, str]) -> None:
        self._dir.mkdir(parents=True, exist_ok=True)
        tmp = self._dir / (CREDENTIALS_FILE + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(tokens, out)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.credentials_path)
