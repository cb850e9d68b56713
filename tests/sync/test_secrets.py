"""Token storage: keyring first, an explicit visible fallback otherwise."""

from __future__ import annotations

import stat
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null
from keyring.errors import KeyringLocked, PasswordDeleteError

from composer_app import APP_ID
from composer_app.sync.secrets import (
    KEYRING_UNAVAILABLE_BANNER,
    UNENCRYPTED_NOTICE,
    TokenStore,
    is_usable_backend,
)

URL = "http://127.0.0.1:8765"


class MemoryKeyring(KeyringBackend):
    """A real backend object that keeps secrets in a dict (tests only)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.secrets: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.secrets:
            raise PasswordDeleteError(username)
        del self.secrets[(service, username)]


class LockedKeyring(MemoryKeyring):
    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringLocked("locked")


class PlaintextKeyring(MemoryKeyring):
    pass


def test_token_goes_to_the_keyring_under_the_app_id(tmp_path: Path) -> None:
    backend = MemoryKeyring()
    tokens = TokenStore(tmp_path, backend)
    tokens.set(URL, "tok")
    assert backend.secrets == {(APP_ID, URL): "tok"}
    assert tokens.get(URL) == "tok"
    assert tokens.banner is None and tokens.notice is None
    tokens.delete(URL)
    assert tokens.get(URL) is None
    assert not (tmp_path / "credentials.json").exists()


def test_fail_backend_means_memory_with_a_banner(tmp_path: Path) -> None:
    tokens = TokenStore(tmp_path, fail.Keyring())
    assert not tokens.uses_keyring
    tokens.set(URL, "tok")
    assert tokens.get(URL) == "tok"
    assert tokens.banner == KEYRING_UNAVAILABLE_BANNER
    assert tokens.notice is None
    assert list(tmp_path.iterdir()) == []
    assert TokenStore(tmp_path, fail.Keyring()).get(URL) is None  # gone next time


def test_remember_on_device_writes_a_0600_file_and_a_lasting_notice(tmp_path: Path) -> None:
    tokens = TokenStore(tmp_path / "cfg", null.Keyring())
    tokens.set(URL, "tok")
    tokens.remember_on_device()
    path = tmp_path / "cfg" / "credentials.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert tokens.banner is None
    later = TokenStore(tmp_path / "cfg", fail.Keyring())
    assert later.get(URL) == "tok"
    assert later.notice == UNENCRYPTED_NOTICE
    later.set("http://other", "t2")
    assert TokenStore(tmp_path / "cfg", fail.Keyring()).get("http://other") == "t2"
    later.delete(URL)
    later.delete("http://other")
    assert TokenStore(tmp_path / "cfg", fail.Keyring()).get(URL) is None


def test_locked_keyring_falls_back_to_memory(tmp_path: Path) -> None:
    tokens = TokenStore(tmp_path, LockedKeyring())
    tokens.set(URL, "tok")
    assert tokens.get(URL) == "tok"
    assert tokens.banner == KEYRING_UNAVAILABLE_BANNER


def test_unusable_backends_are_rejected() -> None:
    assert not is_usable_backend(fail.Keyring())
    assert not is_usable_backend(null.Keyring())
    assert not is_usable_backend(PlaintextKeyring())
    assert is_usable_backend(MemoryKeyring())
    empty_chain = chainer.ChainerBackend()
    assert is_usable_backend(empty_chain) == any(
        is_usable_backend(b) for b in empty_chain.backends)
