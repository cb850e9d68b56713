"""The engine's thread settings and shutdown against the real server on loopback: per-thread
assistant providers, and stopping while an upload is in flight."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

from composer_app.core.errors import ContractError
from composer_app.server.providers.registry import ProviderOptions, ProviderRouter
from composer_app.server.snapshots import choice_key
from composer_app.server.store.executor import token_hash
from composer_app.sync.engine import SyncEngine
from tests.sync.conftest import WAIT, Fault, LoopbackServer, Recorder

Make = Callable[..., tuple[SyncEngine, Recorder]]


@pytest.fixture
def routed(tmp_path: Path) -> Iterator[tuple[LoopbackServer, ProviderRouter]]:
    """A server whose turns go through a ``ProviderRouter`` (default ``local``)."""
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path / "server"))
    srv = LoopbackServer(tmp_path / "server", provider=router).start()
    yield srv, router
    srv.stop()
    router.close()


def _threads(engine: SyncEngine) -> dict[str, tuple[str | None, str | None]]:
    return {t.thread_id: (t.title, t.provider) for t in engine.threads().result(WAIT)}


def _chosen(server: LoopbackServer, router: ProviderRouter, token: str, thread_id: str) -> str:
    """The provider the server routes the token's user's thread to (choices are per user)."""
    digest = token_hash(token)
    device = server._store.read_sync(lambda r: r.device_by_token_hash(digest))
    assert device is not None
    return router.name_for(choice_key(device.user_id, thread_id))


def _settled(engine: SyncEngine) -> bool:
    return not engine.outbox_items().result(WAIT)


def test_thread_providers_are_chosen_kept_and_synced(
        routed: tuple[LoopbackServer, ProviderRouter], make_engine: Make) -> None:
    server, router = routed
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    echo = engine.create_thread("Echo", provider="echo").result(WAIT)
    plain = engine.create_thread("Plain").result(WAIT)
    assert _threads(engine)[echo] == ("Echo", "echo")  # shown at once, before the server has it
    rec.wait(lambda: _settled(engine)
             and _threads(engine) == {echo: ("Echo", "echo"), plain: ("Plain", "local")})
    chosen = partial(_chosen, server, router, token)
    assert chosen(echo) == "echo"

    # A rename still queued is not undone by the provider change queued behind it.
    engine.rename_thread(plain, "Renamed").result(WAIT)
    engine.set_thread_provider(plain, "echo").result(WAIT)
    assert _threads(engine)[plain][1] == "echo"
    rec.wait(lambda: _settled(engine) and _threads(engine)[plain] == ("Renamed", "echo"))
    assert chosen(plain) == "echo"
    remote = {t["threadId"]: (t.get("title"), t.get("provider"))
              for t in server.get("/api/threads", token)["threads"]}
    assert remote == {echo: ("Echo", "echo"), plain: ("Renamed", "echo")}

    # A rename alone keeps the provider; another device learns every choice from the server.
    engine.rename_thread(echo, "Echo again").result(WAIT)
    rec.wait(lambda: _settled(engine) and _threads(engine)[echo] == ("Echo again", "echo"))
    other, rec2 = make_engine(server.base_url, server.token(device="phone"), name="phone")
    rec2.wait(lambda: _threads(other) == {echo: ("Echo again", "echo"),
                                          plain: ("Renamed", "echo")})


def test_an_unknown_provider_is_refused_before_queueing(
        routed: tuple[LoopbackServer, ProviderRouter], make_engine: Make) -> None:
    server, _router = routed
    engine, rec = make_engine(server.base_url, server.token())
    thread_id = engine.create_thread("T").result(WAIT)
    rec.wait(lambda: _settled(engine))
    for future in (engine.set_thread_provider(thread_id, "Not A Name"),
                   engine.create_thread("x", provider="Bad!")):
        # Refused in plain words (the status bar shows it), never pydantic's multi-line text.
        with pytest.raises(ContractError, match="not an assistant provider name") as info:
            future.result(WAIT)
        assert "\n" not in str(info.value)
    assert _settled(engine)


def test_stopping_mid_upload_ends_the_upload_task_before_the_store_closes(
        tmp_path: Path, server: LoopbackServer, make_engine: Make,
        caplog: pytest.LogCaptureFixture) -> None:
    hold = threading.Event()
    held = Fault(method="PUT", path="/api/uploads/", prefix=True, hold=hold)
    server.faults.rules.append(held)
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    rec.wait(lambda: engine.connection_state[0] == "connected")
    source = tmp_path / "notes.txt"
    source.write_bytes(b"some notes\n" * 100)
    try:
        row = engine.attach_file(source).result(WAIT)
        assert held.reached.wait(WAIT)  # the bytes are on their way when the engine stops
        with caplog.at_level(logging.ERROR):
            engine.stop()
        assert engine._thread is not None and not engine._thread.is_alive()
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    finally:
        hold.set()
    # The row kept its state, so the next run resumes the upload and finishes it.
    again, rec2 = make_engine(server.base_url, token)
    rec2.wait(lambda: any(u.local_id == row.local_id and u.state == "uploaded"
                          for u in again.uploads().result(WAIT)))



def test_an_accepted_creation_dates_the_thread_so_an_older_list_keeps_it(
        routed: tuple[LoopbackServer, ProviderRouter], make_engine: Make) -> None:
    server, _router = routed
    engine, rec = make_engine(server.base_url, server.token())
    thread_id = engine.create_thread("Fresh").result(WAIT)
    rec.wait(lambda: _settled(engine))
    row = next(t for t in engine.threads().result(WAIT) if t.thread_id == thread_id)
    assert row.local_state is None and (row.last_sequence or 0) >= 1
    # a shell snapshot the server read before the creation, delivered after the acceptance
    engine._store.replace_threads([], as_of=(row.last_sequence or 0) - 1)
    assert thread_id in _threads(engine)
