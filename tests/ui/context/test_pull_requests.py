"""Pull-request URLs and metadata: a fake `gh` on PATH and a loopback stub of GitHub's API."""

from __future__ import annotations

import json
import socket
import stat
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from composer_app.core.codecs.labels import review_comment_label
from composer_app.core.contracts.records import decode_record, encode_record
from composer_app.ui.context.pull_requests import (
    NO_ACCESS,
    PullRequestFailure,
    PullRequestRef,
    fetch_pull_request,
    parse_pull_request_url,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://github.com/octo/app/pull/42", PullRequestRef("octo", "app", 42)),
        ("  http://www.github.com/o-1/r.js/pull/7/files#diff-1 \n",
         PullRequestRef("o-1", "r.js", 7)),
        ("https://github.com/o/r/pull/9?w=1", PullRequestRef("o", "r", 9)),
    ],
)
def test_recognises_pull_request_urls(text: str, expected: PullRequestRef) -> None:
    assert parse_pull_request_url(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "https://github.com/o/r/issues/42",
        "https://github.com/o/r/pull/0",
        "https://gitlab.com/o/r/pull/4",
        "https://github.com.evil.example/o/r/pull/4",
        "see https://github.com/o/r/pull/4",
        "https://github.com/o/../pull/4",
        "https://github.com/o/r/pull/4 and more",
        "",
    ],
)
def test_rejects_other_text(text: str) -> None:
    assert parse_pull_request_url(text) is None


GH_SCRIPT = """#!/bin/sh
echo "$@" >> "{log}"
if [ "$1" = "auth" ]; then exit {auth_rc}; fi
if [ "$1" = "pr" ] && [ "$3" = "404" ]; then
  echo "GraphQL: Could not resolve to a PullRequest with the number of 404." >&2; exit 1
fi
cat <<'JSON'
{answer}
JSON
"""


def fake_gh(tmp_path: Path, answer: str, auth_rc: int = 0) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    gh = bin_dir / "gh"
    gh.write_text(GH_SCRIPT.format(log=tmp_path / "gh.log", auth_rc=auth_rc, answer=answer))
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)
    return {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}


GH_ANSWER = json.dumps({"number": 42, "title": "Add the Changes pane",
                        "url": "https://github.com/octo/app/pull/42", "headRefName": "changes",
                        "baseRefName": "main", "state": "OPEN", "isDraft": True})


def no_token() -> str | None:
    return None


def test_gh_signed_in_gives_a_pull_request_record(tmp_path: Path) -> None:
    env = fake_gh(tmp_path, GH_ANSWER)
    ref = PullRequestRef("octo", "app", 42)
    record = fetch_pull_request(ref, env=env, token=no_token)
    assert not isinstance(record, PullRequestFailure)
    calls = (tmp_path / "gh.log").read_text().splitlines()
    assert calls == ["auth status --hostname github.com",
                     "pr view 42 --repo octo/app --json "
                     "number,title,url,headRefName,baseRefName,state,isDraft"]
    wire = encode_record(record)
    assert decode_record(wire) == record
    assert wire["pullRequest"] == {"number": 42, "title": "Add the Changes pane",
                                   "url": "https://github.com/octo/app/pull/42",
                                   "headBranch": "changes", "baseBranch": "main",
                                   "state": "open", "isDraft": True}
    assert wire["label"] == "#42" == review_comment_label(record)
    assert wire["sectionId"] == "pull-request:octo/app#42"
    assert wire["sectionTitle"] == "Add the Changes pane"
    assert "Draft pull request octo/app#42" in wire["text"]


def test_gh_error_is_a_reason(tmp_path: Path) -> None:
    env = fake_gh(tmp_path, GH_ANSWER)
    failure = fetch_pull_request(PullRequestRef("octo", "app", 404), env=env, token=no_token)
    assert isinstance(failure, PullRequestFailure)
    assert failure.reason.startswith("gh could not read octo/app#404: GraphQL: Could not resolve")


def test_gh_malformed_answer_is_a_reason(tmp_path: Path) -> None:
    env = fake_gh(tmp_path, '{"number": "x"}')
    failure = fetch_pull_request(PullRequestRef("o", "r", 1), env=env, token=no_token)
    assert failure == PullRequestFailure("gh gave an answer that is not a pull request.")


class Api(BaseHTTPRequestHandler):
    answers: ClassVar[dict[str, tuple[int, Any]]] = {}
    seen: ClassVar[list[tuple[str, str | None]]] = []

    def do_GET(self) -> None:
        Api.seen.append((self.path, self.headers.get("Authorization")))
        status, body = Api.answers.get(self.path, (404, {"message": "Not Found"}))
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def api() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Api)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Api.seen = []
    Api.answers = {
        "/repos/octo/app/pulls/7": (200, {
            "number": 7, "title": "Fix it", "html_url": "https://github.com/octo/app/pull/7",
            "state": "closed", "merged_at": "2026-01-01T00:00:00Z", "draft": False,
            "head": {"ref": "fix"}, "base": {"ref": "main"}}),
        "/repos/octo/app/pulls/8": (200, "not json"),
        "/repos/octo/app/pulls/9": (401, {"message": "Bad credentials"}),
    }
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def without_gh(tmp_path: Path) -> dict[str, str]:
    empty = tmp_path / "nobin"
    empty.mkdir(exist_ok=True)
    return {"PATH": str(empty)}


def test_api_with_keyring_token_when_gh_is_missing(tmp_path: Path, api: str) -> None:
    record = fetch_pull_request(PullRequestRef("octo", "app", 7), env=without_gh(tmp_path),
                                token=lambda: "tok_123", api=api)
    assert not isinstance(record, PullRequestFailure)
    assert Api.seen == [("/repos/octo/app/pulls/7", "Bearer tok_123")]
    assert record.pull_request is not None
    assert (record.pull_request.state, record.pull_request.head_branch) == ("merged", "fix")


def test_api_used_when_gh_is_signed_out(tmp_path: Path, api: str) -> None:
    env = fake_gh(tmp_path, GH_ANSWER, auth_rc=1)
    record = fetch_pull_request(PullRequestRef("octo", "app", 7), env=env,
                                token=lambda: "tok", api=api)
    assert not isinstance(record, PullRequestFailure)
    assert (tmp_path / "gh.log").read_text().splitlines() == ["auth status --hostname github.com"]


@pytest.mark.parametrize(
    ("number", "reason"),
    [
        (8, "GitHub gave an answer that is not a pull request."),
        (9, "GitHub refused the token in Settings ▸ Accounts (401)."),
        (10, "octo/app#10 was not found, or the token cannot see it."),
    ],
)
def test_api_errors_are_reasons(tmp_path: Path, api: str, number: int, reason: str) -> None:
    failure = fetch_pull_request(PullRequestRef("octo", "app", number),
                                 env=without_gh(tmp_path), token=lambda: "tok", api=api)
    assert failure == PullRequestFailure(reason)


def test_neither_gh_nor_token(tmp_path: Path) -> None:
    failure = fetch_pull_request(PullRequestRef("o", "r", 1), env=without_gh(tmp_path),
                                 token=no_token)
    assert failure == PullRequestFailure(NO_ACCESS)


def test_offline(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    failure = fetch_pull_request(PullRequestRef("o", "r", 1), env=without_gh(tmp_path),
                                 token=lambda: "tok", api=f"http://127.0.0.1:{port}")
    assert failure == PullRequestFailure("GitHub could not be reached (offline?).")
