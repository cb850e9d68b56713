"""Provider selection per server and per thread, and the router's never-hang guarantee."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend

from composer_app import APP_ID
from composer_app.server.providers.base import (
    Done,
    Failed,
    Provider,
    ProviderEvent,
    ScriptedProvider,
    TextDelta,
    TurnRequest,
)
from composer_app.server.providers.echo import EchoProvider
from composer_app.server.providers.local import LocalProvider
from composer_app.server.providers.openai import OpenAIProvider
from composer_app.server.providers.registry import (
    KEY_ENV,
    ProviderOptions,
    ProviderRouter,
    add_provider_arguments,
    api_key_source,
    build_provider,
    keyring_user,
    options_from_args,
)
from tests.server.providers.support import request, run_turn


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.values.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.values[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.values.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@dataclass
class Named:
    """A provider that answers with its own name."""

    name: str

    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        yield TextDelta(self.name)
        yield Done(self.name)


def _factory(name: str, options: ProviderOptions) -> Provider:
    return Named(name)


def test_local_is_the_default_and_builds_offline(tmp_path: Path):
    options = ProviderOptions(data_dir=tmp_path)
    assert options.provider == "local"
    provider = build_provider("local", options)
    assert isinstance(provider, LocalProvider) and provider.index is None
    assert isinstance(build_provider("echo", options), EchoProvider)


def test_openai_needs_a_model_and_unknown_names_are_refused(tmp_path: Path):
    options = ProviderOptions(data_dir=tmp_path)
    with pytest.raises(ValueError, match="model"):
        build_provider("openai", options)
    assert isinstance(build_provider("openai", replace(options, openai_model="m")), OpenAIProvider)
    with pytest.raises(ValueError, match="Unknown assistant provider"):
        build_provider("gpt", options)


def test_threads_use_their_own_choice_and_it_persists(tmp_path: Path):
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path), _factory)
    router.select("thr_a", "echo")
    assert run_turn(router, replace(request("q"), thread_id="thr_a")).text == "echo"
    assert run_turn(router, replace(request("q"), thread_id="thr_b")).text == "local"
    reopened = ProviderRouter(ProviderOptions(data_dir=tmp_path), _factory)
    assert reopened.name_for("thr_a") == "echo"
    reopened.select("thr_a", None)
    assert reopened.name_for("thr_a") == "local"
    with pytest.raises(ValueError):
        reopened.select("thr_a", "nope")


def test_server_default_comes_from_the_command_line(tmp_path: Path):
    parser = argparse.ArgumentParser()
    add_provider_arguments(parser)
    args = parser.parse_args(["--provider", "openai", "--openai-model", "llama3",
                              "--openai-base-url", "http://127.0.0.1:11434/v1",
                              "--knowledge-dir", str(tmp_path / "kb")])
    options = options_from_args(args, tmp_path)
    assert (options.provider, options.openai_model, options.knowledge_dir) == (
        "openai", "llama3", tmp_path / "kb")
    router = ProviderRouter(options, _factory)
    assert run_turn(router, request("q")).text == "openai"
    defaults = options_from_args(parser.parse_args([]), tmp_path)
    assert defaults.provider == "local" and defaults.knowledge_dir is None


def test_a_provider_that_cannot_be_built_fails_the_turn(tmp_path: Path):
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path, provider="openai"))
    failure = run_turn(router, request("q")).failure
    assert failure.code == "provider_unavailable" and "model" in failure.message


class Exploding:
    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        yield TextDelta("partial")
        raise RuntimeError(f"secret detail {request.prompt}")


@pytest.mark.parametrize(
    ("provider", "message"),
    [
        (Exploding(), "The local assistant failed unexpectedly."),
        (ScriptedProvider([TextDelta("no outcome")]), "The local assistant stopped without"),
    ],
)
def test_a_misbehaving_provider_never_hangs_the_turn(tmp_path: Path, provider: Provider,
                                                      message: str):
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path), lambda n, o: provider)
    outcome = run_turn(router, request("q"))
    assert outcome.failure.message.startswith(message)
    assert "secret" not in outcome.failure.message


def test_events_after_the_outcome_are_not_forwarded(tmp_path: Path):
    scripted = ScriptedProvider([Done("a"), Failed(), TextDelta("late")])
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path), lambda n, o: scripted)
    assert run_turn(router, request("q")).events == [Done("a")]


def test_key_comes_from_the_keyring_first_then_the_environment(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
):
    base = "https://llm.example.com/v1"
    lookup = api_key_source(base)
    monkeypatch.delenv(KEY_ENV, raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert lookup() is None
    monkeypatch.setenv("OPENAI_API_KEY", "from-openai-env")
    assert lookup() == "from-openai-env"
    monkeypatch.setenv(KEY_ENV, "from-env")
    assert lookup() == "from-env"
    memory_keyring.set_password(APP_ID, keyring_user(base + "/"), "from-keyring")
    assert lookup() == "from-keyring"


def test_choices_file_holds_names_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(KEY_ENV, "sk-never-stored")
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path, openai_model="m"), _factory)
    router.select("thr_a", "openai")
    stored = (tmp_path / "provider_choices.json").read_text()
    assert stored == '{"thr_a": "openai"}'


def test_close_releases_the_local_index(tmp_path: Path):
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path, knowledge_dir=tmp_path / "kb"))
    local = router.provider("local")
    assert isinstance(local, LocalProvider) and local.index is not None
    router.close()
    assert run_turn(local, request("anything")).failure.code == "provider_failed"
