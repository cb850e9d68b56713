"""The servers this app is signed in to: the embedded one and any number of remote ones.

An ``Account`` is a display name and a server URL (empty for the embedded server); its token lives
in the keyring under the URL (``TokenStore``), never here. ``AccountBook`` keeps the list in
``accounts.json`` in the config folder, in the order the user sees them.

Invariants: the embedded account (id ``EMBEDDED_ID``) is always first and cannot be removed;
remote URLs are normalized (trimmed, no trailing slash) and unique, so adding a known URL selects
the existing account instead of making a second; an account id never changes once made (it is
derived from the URL, so it is the same on every machine for the same server) and names the
account's client folder; names are one line of at most ``NAME_MAX_CHARS`` characters, never
empty (the URL's host stands in); the file is written atomically, and an unreadable, partly
invalid or hostile file never stops the app: bad entries are dropped, the embedded account is
restored; ``for_this_run`` adds a ``--server`` URL for one run without touching the file;
``start_account`` (saved as ``selected``) is the server the next plain start opens on — always a
listed, saved account, the embedded one when its account is removed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

ACCOUNTS_FILE = "accounts.json"
EMBEDDED_ID = "embedded"
EMBEDDED_NAME = "This computer"
NAME_MAX_CHARS = 64
MAX_ACCOUNTS = 32


class AccountError(ValueError):
    """An account change that cannot be made, with a sentence a person can read."""


def normalize_server_url(url: str) -> str:
    """A server URL as used for ids, keys and connections (trimmed, no trailing slash)."""
    return url.strip().rstrip("/")


def is_server_url(url: str) -> bool:
    """True for an absolute ``http``/``https`` URL with a host and no credentials in it."""
    parts = urlsplit(url.strip())
    return (parts.scheme in ("http", "https") and bool(parts.hostname)
            and parts.username is None and parts.password is None)


def account_id_for(url: str) -> str:
    """The stable id of the account for ``url`` (``EMBEDDED_ID`` for the embedded server)."""
    if not url:
        return EMBEDDED_ID
    digest = hashlib.sha256(normalize_server_url(url).encode("utf-8")).hexdigest()[:16]
    return f"srv-{digest}"


def clean_name(name: str, url: str) -> str:
    """A display name: one line, collapsed, cut to ``NAME_MAX_CHARS``; the host when blank."""
    text = " ".join(name.split())[:NAME_MAX_CHARS].strip()
    if text:
        return text
    if not url:
        return EMBEDDED_NAME
    return urlsplit(url).hostname or url


@dataclass(frozen=True)
class Account:
    """One server the app talks to."""

    account_id: str
    name: str
    url: str = ""

    @property
    def embedded(self) -> bool:
        return not self.url


EMBEDDED = Account(EMBEDDED_ID, EMBEDDED_NAME)


class AccountBook:
    """The ordered list of accounts and which one was used last (see the module invariants)."""

    def __init__(self, path: Path | None, accounts: list[Account] | None = None,
                 selected: str = EMBEDDED_ID) -> None:
        self.path = path
        self._accounts: list[Account] = [EMBEDDED]
        for account in accounts or ():
            if not account.embedded and self._find(account.account_id) is None:
                self._accounts.append(account)
            elif account.embedded:
                self._accounts[0] = replace(EMBEDDED, name=clean_name(account.name, ""))
        self._run_only: set[str] = set()
        self.selected = selected if self._find(selected) is not None else EMBEDDED_ID
        self._default = self.selected  # what the next plain start selects

    # -- reading ---------------------------------------------------------------------------------
    @classmethod
    def load(cls, config_dir: Path) -> AccountBook:
        """The stored book; just the embedded account when the file is missing or unreadable."""
        path = config_dir / ACCOUNTS_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            return cls(path)
        if not isinstance(data, dict):
            return cls(path)
        accounts: list[Account] = []
        raw_accounts = data.get("accounts")
        for item in raw_accounts if isinstance(raw_accounts, list) else ():
            account = _decode(item)
            if account is not None and len(accounts) < MAX_ACCOUNTS:
                accounts.append(account)
        selected = data.get("selected")
        return cls(path, accounts, selected if isinstance(selected, str) else EMBEDDED_ID)

    def __iter__(self) -> Iterator[Account]:
        return iter(list(self._accounts))

    def __len__(self) -> int:
        return len(self._accounts)

    def get(self, account_id: str) -> Account | None:
        return self._find(account_id)

    def by_url(self, url: str) -> Account | None:
        return self._find(account_id_for(normalize_server_url(url)) if url else EMBEDDED_ID)

    def index(self, account_id: str) -> int:
        """The account's position (``Ctrl+1`` is 0); ``-1`` when unknown."""
        for i, account in enumerate(self._accounts):
            if account.account_id == account_id:
                return i
        return -1

    # -- changes ---------------------------------------------------------------------------------
    def add(self, url: str, name: str = "", *, save: bool = True) -> Account:
        """Add a remote server (or return the one already known for ``url``) and select it."""
        if not is_server_url(url):
            raise AccountError("Enter the server address as an http:// or https:// URL.")
        url = normalize_server_url(url)
        existing = self.by_url(url)
        if existing is not None:
            self._run_only.discard(existing.account_id)
            self.selected = existing.account_id
            if save:
                self._default = existing.account_id
                self.save()
            return existing
        if len(self._accounts) >= MAX_ACCOUNTS:
            raise AccountError(f"Composer keeps at most {MAX_ACCOUNTS} servers.")
        account = Account(account_id_for(url), clean_name(name, url), url)
        self._accounts.append(account)
        self.selected = account.account_id
        if save:
            self._default = account.account_id
            self.save()
        return account

    def for_this_run(self, url: str) -> Account:
        """``--server URL``: the account for ``url``, added for this run only when unknown; the
        saved list and default stay as they were."""
        existing = self.by_url(url)
        if existing is not None:
            self.selected = existing.account_id
            return existing
        account = self.add(url, save=False)
        self._run_only.add(account.account_id)
        return account

    def rename(self, account_id: str, name: str) -> Account:
        account = self._require(account_id)
        renamed = replace(account, name=clean_name(name, account.url))
        self._accounts[self.index(account_id)] = renamed
        self.save()
        return renamed

    def remove(self, account_id: str) -> Account:
        """Forget a remote server (its token and client folder are the caller's to delete)."""
        account = self._require(account_id)
        if account.embedded:
            raise AccountError("The embedded server cannot be removed.")
        self._accounts.remove(account)
        self._run_only.discard(account_id)
        if self.selected == account_id:
            self.selected = EMBEDDED_ID
        if self._default == account_id:
            self._default = EMBEDDED_ID
        self.save()
        return account

    @property
    def start_account(self) -> str:
        """The server the next plain start opens on (what the file saves as ``selected``)."""
        return self._default if self._default not in self._run_only else EMBEDDED_ID

    def set_start_account(self, account_id: str) -> None:
        """Open on ``account_id`` from the next start (this run's selection stays)."""
        self._require(account_id)
        self._run_only.discard(account_id)
        self._default = account_id
        self.save()

    def select(self, account_id: str) -> None:
        self._require(account_id)
        self.selected = account_id
        if account_id not in self._run_only:
            self._default = account_id
        self.save()

    def save(self) -> None:
        """Write the book atomically (accounts added for this run only are left out)."""
        if self.path is None:
            return
        kept = [a for a in self._accounts if a.account_id not in self._run_only]
        data = {
            "version": 1,
            "selected": self._default if self._default not in self._run_only else EMBEDDED_ID,
            "accounts": [{"id": a.account_id, "name": a.name, "url": a.url} for a in kept],
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                             encoding="utf-8")
        os.replace(temporary, self.path)

    # -- internals -------------------------------------------------------------------------------
    def _find(self, account_id: str) -> Account | None:
        return next((a for a in self._accounts if a.account_id == account_id), None)

    def _require(self, account_id: str) -> Account:
        account = self._find(account_id)
        if account is None:
            raise AccountError("That server is not in the list any more.")
        return account


def _decode(item: object) -> Account | None:
    if not isinstance(item, dict):
        return None
    url, name = item.get("url", ""), item.get("name", "")
    if not isinstance(url, str) or not isinstance(name, str):
        return None
    if not url:
        return Account(EMBEDDED_ID, clean_name(name, ""))
    if not is_server_url(url):
        return None
    url = normalize_server_url(url)
    return Account(account_id_for(url), clean_name(name, url), url)
