"""Bad input is a 4xx with the spec's error body, never a 500, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from composer_app.server.errors import ApiError
from composer_app.server.json_body import MAX_JSON_DEPTH, parse_json
from composer_app.server.store.executor import ExecutorStore
from tests.server.harness import Harness, cid, create_thread, harness, mid, tid, turn_start


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Harness]:
    store: ExecutorStore | None = None
    if request.param == "postgres":
        from composer_app.server.store.postgres import PostgresStore

        store = PostgresStore(request.getfixturevalue("postgres_dsn"))
    with harness(tmp_path, store) as running:
        yield running


def _error(response: Any, status: int = 400, code: str = "invalid_command") -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code and error["retryable"] is False
    return str(error["message"])


def _raw(h: Harness, body: str) -> Any:
    return h.client.post("/api/commands", headers={**h.alice, "content-type": "application/json"},
                         content=body.encode("utf-8"))


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "\\u0000"])
def test_surrogates_and_nul_are_400_in_text_title_and_keys(any_store: Harness,
                                                           escape: str) -> None:
    h = any_store
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    text = json.dumps(turn_start(thread, "TEXT")).replace("TEXT", f"a{escape}b")
    message = _error(_raw(h, text))
    assert "NUL" in message or "surrogate" in message
    title = json.dumps(create_thread(tid(), "TITLE")).replace("TITLE", escape)
    _error(_raw(h, title))
    keyed = json.dumps({**create_thread(tid()), "KEY": 1}).replace("KEY", f"k{escape}")
    _error(_raw(h, keyed))
    snapshot = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()
    assert [m["role"] for m in snapshot["messages"]] == []  # nothing half-stored
    pair = json.dumps(turn_start(thread, "TEXT")).replace("TEXT", "smile \\ud83d\\ude00")
    assert _raw(h, pair).status_code == 200  # a valid surrogate pair is an emoji


def test_deep_json_and_huge_numbers_are_400_before_parsing(h: Harness) -> None:
    _error(_raw(h, "[" * 100_000 + "]" * 100_000))
    _error(_raw(h, '{"a":' * 100_000 + "1" + "}" * 100_000))
    body = turn_start(tid(), "x")
    body["message"]["attachments"] = [{"attachmentId": "att_" + "0" * 32, "name": "n",
                                       "mimeType": "a/b", "sizeBytes": 10**30}]
    assert "digits" in _error(_raw(h, json.dumps(body)))
    _error(_raw(h, '{"type": "thread.create", "n": ' + "9" * 5000 + "}"))
    _error(_raw(h, '{"type": "thread.create", "n": NaN}'))
    for route in ("/api/attachments", "/api/assets/url"):
        response = h.client.post(route, headers={**h.alice, "content-type": "application/json"},
                                 content=b"[" * 50_000)
        _error(response)


def test_parse_json_bounds() -> None:
    assert parse_json(b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH) is not None
    with pytest.raises(ApiError):
        parse_json(b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1))
    assert parse_json(b'"[[[[' + b"[" * 500 + b'"') == "[[[[" + "[" * 500
    assert parse_json(b"123456789012345678") == 123456789012345678
    with pytest.raises(ApiError):
        parse_json(b"1234567890123456789")


@pytest.mark.parametrize("query", ["turnLimit=%C2%B2", "turnLimit=-1", "turnLimit=1e3",
                                   "beforeSequence=" + "1" * 31, "beforeSequence=%EF%BC%91",
                                   "beforeSequence=99999999999999999999"])
def test_bad_query_parameters_are_400(h: Harness, query: str) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    _error(h.client.get(f"/api/threads/{thread}?{query}", headers=h.alice))


def test_big_query_parameters_within_range_work(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    response = h.client.get(f"/api/threads/{thread}?turnLimit=9223372036854775807"
                            "&beforeSequence=9223372036854775807", headers=h.alice)
    assert response.status_code == 200


def test_odd_thread_ids_in_paths_are_404(any_store: Harness) -> None:
    h = any_store
    for thread in ("a%00b", "%ED%A0%80", "x" * 5000):
        response = h.client.get(f"/api/threads/{thread}", headers=h.alice)
        assert response.status_code == 404, response.text


@pytest.mark.parametrize("mime", ["text/plain\r\nX-Evil: 1", "image/png\x00", "png", "/",
                                  "a/b c", "text/html; charset"])
def test_mime_type_must_be_a_media_type(h: Harness, mime: str) -> None:
    response = h.client.post("/api/attachments", headers=h.alice, json={
        "name": "a.txt", "mimeType": mime, "sizeBytes": 1, "sha256": "0" * 64})
    assert "media type" in _error(response) or "cannot be stored" in _error(response)


def test_a_command_body_over_its_limit_is_413_at_once(tmp_path: Path) -> None:
    with harness(tmp_path) as h:
        limit = h.settings.max_command_bytes
        assert limit < h.settings.file_max_bytes  # commands far below attachments
        response = h.client.post("/api/commands", headers=h.alice,
                                 content=b"{}" * (limit // 2 + 1))
        _error(response, 413, "too_large")


def test_message_ids_and_bodies_still_work_after_bad_input(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    _error(_raw(h, "[" * 1000))
    h.ok(h.alice, turn_start(thread, "fine", message_id=mid(), command_id=cid()))
