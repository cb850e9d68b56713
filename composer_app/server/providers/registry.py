"""Provider selection by name (``local`` by default, ``openai``, ``echo``), per server and thread.

Invariants: ``ProviderRouter`` is itself a ``Provider``; for each turn it uses the request's own
``provider`` attribute when present, else the thread's choice, else the server default; every turn
it routes ends with exactly one ``Done`` or ``Failed`` (an unknown name, a provider that cannot be
built, a provider that raises or one whose stream ends without an outcome all give a readable
``Failed``), so a provider never hangs a thread; per-thread choices are names only: served by a
thread server they live in its database (written in each command's transaction, loaded at start,
an older ``provider_choices.json`` imported once), standalone in that file of the data directory;
API keys are never part of the options, the choices or any message.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import keyring
from keyring.errors import KeyringError

from composer_app import APP_ID
from composer_app.server.providers.base import Done, Failed, Provider, ProviderEvent, TurnRequest
from composer_app.server.providers.echo import EchoProvider
from composer_app.server.providers.local import LocalProvider
from composer_app.server.providers.openai import OpenAIProvider, OpenAISettings

logger = logging.getLogger(__name__)

PROVIDER_NAMES = ("local", "openai", "echo")
DEFAULT_PROVIDER = "local"
DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
KEY_ENV = "COMPOSER_OPENAI_API_KEY"
FALLBACK_KEY_ENV = "OPENAI_API_KEY"
CHOICES_FILE = "provider_choices.json"


@dataclass(frozen=True)
class ProviderOptions:
    """How to build providers (no secrets: the key is looked up per turn)."""

    data_dir: Path
    provider: str = DEFAULT_PROVIDER
    knowledge_dir: Path | None = None
    openai_base_url: str = DEFAULT_OPENAI_BASE_URL
    openai_model: str | None = None
    openai_key_env: str = KEY_ENV
    openai_web_search: bool = False


def keyring_user(base_url: str) -> str:
    """The keyring user name under service ``APP_ID`` that holds the key for ``base_url``."""
    return f"provider:openai:{base_url.rstrip('/')}"


def api_key_source(base_url: str, env_name: str = KEY_ENV) -> Callable[[], str | None]:
    """A lookup of the endpoint's key: the keyring first, then ``env_name``, then
    ``OPENAI_API_KEY``. The key is read at call time and never cached."""

    def lookup() -> str | None:
        with contextlib.suppress(KeyringError, RuntimeError):
            stored = keyring.get_password(APP_ID, keyring_user(base_url))
            if stored:
                return stored
        return os.environ.get(env_name) or os.environ.get(FALLBACK_KEY_ENV) or None

    return lookup


def build_provider(name: str, options: ProviderOptions) -> Provider:
    """A new provider named ``name``; ``ValueError`` with a readable reason when impossible."""
    if name == "local":
        return LocalProvider(options.knowledge_dir, options.data_dir)
    if name == "echo":
        return EchoProvider()
    if name == "openai":
        if not options.openai_model:
            raise ValueError("The openai provider needs a model name (--openai-model).")
        settings = OpenAISettings(options.openai_base_url, options.openai_model,
                                  web_search=options.openai_web_search)
        return OpenAIProvider(settings, api_key_source(options.openai_base_url,
                                                       options.openai_key_env))
    raise ValueError(f"Unknown assistant provider {name!r}; choose one of "
                     f"{', '.join(PROVIDER_NAMES)}.")


class ProviderRouter:
    """Routes each turn to the provider chosen for its thread (see the module invariant)."""

    def __init__(self, options: ProviderOptions,
                 factory: Callable[[str, ProviderOptions], Provider] = build_provider) -> None:
        if options.provider not in PROVIDER_NAMES:
            raise ValueError(f"Unknown assistant provider {options.provider!r}.")
        self.options = options
        self._factory = factory
        self._providers: dict[str, Provider] = {}
        self._path = options.data_dir / CHOICES_FILE
        self._choices = self._load()
        self._in_database = False

    def use_database(self, stored: Mapping[str, str]) -> dict[str, str]:
        """Take the choices from the database from now on (``select`` no longer writes the
        file; called again, it reloads them); the first call returns the file's choices, for the
        caller to import (keyed by thread id alone, where the database's keys are the server's
        ``choice_key``s) and to hand back with a later call."""
        legacy = {} if self._in_database else dict(self._choices)
        self._choices = {k: v for k, v in stored.items() if v in PROVIDER_NAMES}
        self._in_database = True
        return legacy

    def retire_file(self) -> None:
        """Rename the imported choices file so it is never read again."""
        with contextlib.suppress(OSError):
            self._path.replace(self._path.with_suffix(".json.imported"))

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, Mapping):
            return {}
        return {str(k): v for k, v in data.items() if v in PROVIDER_NAMES}

    def _save(self) -> None:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self._path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self._choices, sort_keys=True), encoding="utf-8")
        temporary.replace(self._path)

    def select(self, thread_id: str, name: str | None) -> None:
        """Choose ``name`` for ``thread_id`` (``None``: back to the server default)."""
        if name is not None and name not in PROVIDER_NAMES:
            raise ValueError(f"Unknown assistant provider {name!r}.")
        if name is None:
            self._choices.pop(thread_id, None)
        else:
            self._choices[thread_id] = name
        if not self._in_database:
            self._save()

    def name_for(self, thread_id: str) -> str:
        """The provider name a turn of ``thread_id`` uses."""
        return self._choices.get(thread_id, self.options.provider)

    def provider(self, name: str) -> Provider:
        """The (cached) provider named ``name``."""
        if name not in self._providers:
            self._providers[name] = self._factory(name, self.options)
        return self._providers[name]

    def resolve_file(self, file_id: str) -> Path | None:
        """A file behind a source's ``fileId``, from the providers built so far (see
        ``LocalProvider.resolve_file``)."""
        for provider in list(self._providers.values()):
            resolve = getattr(provider, "resolve_file", None)
            found = resolve(file_id) if callable(resolve) else None
            if isinstance(found, Path):
                return found
        return None

    def close(self) -> None:
        """Close the providers built so far that hold resources (the local index database)."""
        for provider in self._providers.values():
            close = getattr(provider, "close", None)
            if callable(close):
                close()
        self._providers.clear()

    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        name = getattr(request, "provider", None) or self.name_for(request.thread_id)
        try:
            provider = self.provider(name)
        except ValueError as exc:
            yield Failed("provider_unavailable", str(exc))
            return
        try:
            async for event in provider.run_turn(request):
                yield event
                if isinstance(event, Done | Failed):
                    return
        except Exception as exc:  # a provider bug must not hang the thread
            logger.warning("assistant provider %s raised %s", name, type(exc).__name__)
            yield Failed("provider_failed", f"The {name} assistant failed unexpectedly.")
            return
        yield Failed("provider_failed", f"The {name} assistant stopped without an answer.")


def add_provider_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` options that choose and configure the assistant provider."""
    env = os.environ.get
    parser.add_argument("--provider", choices=PROVIDER_NAMES,
                        default=env("COMPOSER_PROVIDER", DEFAULT_PROVIDER),
                        help="assistant provider for new threads (default: local, offline)")
    parser.add_argument("--knowledge-dir", type=Path, default=env("COMPOSER_KNOWLEDGE_DIR"),
                        help="folder of documents the local assistant searches")
    parser.add_argument("--openai-base-url",
                        default=env("COMPOSER_OPENAI_BASE_URL", DEFAULT_OPENAI_BASE_URL),
                        help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1")
    parser.add_argument("--openai-model", default=env("COMPOSER_OPENAI_MODEL"),
                        help="model name for the openai provider")
    parser.add_argument("--openai-web-search", action="store_true",
                        default=env("COMPOSER_OPENAI_WEB_SEARCH", "") in ("1", "true", "yes"),
                        help="ask the endpoint to search the web (for endpoints that support "
                             "web_search_options); its cited pages become web sources")
    parser.add_argument("--openai-key-env", default=KEY_ENV,
                        help=f"environment variable holding the key (default {KEY_ENV}; the "
                             "system keyring is checked first)")


def options_from_args(args: argparse.Namespace, data_dir: Path) -> ProviderOptions:
    """``ProviderOptions`` from parsed ``add_provider_arguments`` options."""
    knowledge = args.knowledge_dir
    return ProviderOptions(
        data_dir=data_dir,
        provider=args.provider,
        knowledge_dir=Path(knowledge) if knowledge else None,
        openai_base_url=args.openai_base_url,
        openai_model=args.openai_model,
        openai_key_env=args.openai_key_env,
        openai_web_search=bool(getattr(args, "openai_web_search", False)),
    )
