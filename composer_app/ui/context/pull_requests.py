"""GitHub pull requests as context (Qt-free, does I/O: run off the GUI thread).

``parse_pull_request_url`` recognises ``https://github.com/OWNER/REPO/pull/N`` (with any trailing
``/files``, query or fragment). ``fetch_pull_request`` gets the metadata from the ``gh`` command
line when it is installed and signed in (``gh pr view N --repo OWNER/REPO --json
number,title,url,headRefName,baseRefName,state,isDraft``), else from GitHub's REST API with the
token kept in the keyring; ``pull_request_record`` makes the contract's ``review-comment`` record
with ``pullRequest`` metadata (a snapshot, never refreshed).

Invariants: ``fetch_pull_request`` never raises: every failure (no ``gh`` and no token, offline,
not found, a malformed answer) comes back as ``PullRequestFailure`` with a sentence for the user;
the token is sent only to the configured API host and never logged.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from composer_app import APP_ID
from composer_app.core.codecs.ids import to_kind_scoped_context_id
from composer_app.core.codecs.labels import pull_request_kind_label
from composer_app.core.contracts.records import (
    PullRequestMetadata,
    ReviewCommentRecord,
    decode_record,
)
from composer_app.core.errors import ContractError
from composer_app.core.limits import SHORT_STRING_MAX_CHARS
from composer_app.core.text import cut_utf16, trim

GITHUB_API = "https://api.github.com"
GITHUB_TOKEN_KEYRING_USER = "github:api.github.com"
GH_TIMEOUT_SECONDS = 20.0
API_TIMEOUT_SECONDS = 15.0
GH_FIELDS = "number,title,url,headRefName,baseRefName,state,isDraft"
NO_ACCESS = ("Sign in with the GitHub command line (gh auth login) or add a GitHub token in "
             "Settings ▸ Accounts to attach pull requests.")

_URL = re.compile(
    r"https?://(?:www\.)?github\.com/([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})"
    r"/pull/([1-9][0-9]{0,9})(?:[/?#][^\s]*)?"
)


@dataclass(frozen=True)
class PullRequestRef:
    """A pull request named by a URL."""

    owner: str
    repo: str
    number: int

    @property
    def slug(self) -> str:
        """``OWNER/REPO``."""
        return f"{self.owner}/{self.repo}"

    @property
    def url(self) -> str:
        """The pull request's canonical web address."""
        return f"https://github.com/{self.slug}/pull/{self.number}"


@dataclass(frozen=True)
class PullRequestFailure:
    """Why a pull request could not be attached (a sentence for the user)."""

    reason: str


def parse_pull_request_url(text: str) -> PullRequestRef | None:
    """The pull request ``text`` (trimmed) is the URL of, or None."""
    match = _URL.fullmatch(trim(text))
    if match is None or match.group(2) in {".", ".."}:
        return None
    return PullRequestRef(match.group(1), match.group(2), int(match.group(3)))


def metadata_from_gh(data: Any) -> PullRequestMetadata:
    """Metadata from ``gh pr view --json`` output; raises ``ValueError`` when malformed."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    state = str(data.get("state", "")).lower()
    return _metadata(data.get("number"), data.get("title"), data.get("url"),
                     data.get("headRefName"), data.get("baseRefName"), state, data.get("isDraft"))


def metadata_from_api(data: Any) -> PullRequestMetadata:
    """Metadata from the REST API's pull request object; raises ``ValueError`` when malformed."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    state = data.get("state")
    if state == "closed" and data.get("merged_at"):
        state = "merged"
    head = data.get("head")
    base = data.get("base")
    head = head if isinstance(head, dict) else {}
    base = base if isinstance(base, dict) else {}
    return _metadata(data.get("number"), data.get("title"), data.get("html_url"),
                     head.get("ref"), base.get("ref"), state, data.get("draft"))


def _metadata(number: Any, title: Any, url: Any, head: Any, base: Any, state: Any,
              draft: Any) -> PullRequestMetadata:
    def short(value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError("missing text field")
        return cut_utf16(value, SHORT_STRING_MAX_CHARS)

    try:
        return PullRequestMetadata.model_validate({
            "number": number, "title": short(title), "url": short(url),
            "headBranch": short(head), "baseBranch": short(base), "state": state,
            "isDraft": draft,
        })
    except Exception as exc:  # pydantic's ValidationError is a ValueError subclass too
        raise ValueError("malformed pull request metadata") from exc


def pull_request_record(ref: PullRequestRef, meta: PullRequestMetadata) -> ReviewCommentRecord:
    """The ``review-comment`` record that attaches the pull request (label ``#N``)."""
    summary = (f"{pull_request_kind_label(meta)} {ref.slug}#{meta.number}: {meta.title}\n"
               f"{meta.url}\n{meta.head_branch} → {meta.base_branch}")
    record = decode_record({
        "version": 1,
        "contextId": to_kind_scoped_context_id("review-comment",
                                               f"pull-request:{ref.slug}#{meta.number}"),
        "kind": "review-comment",
        "label": f"#{meta.number}",
        "sectionId": f"pull-request:{ref.slug}#{meta.number}",
        "sectionTitle": meta.title,
        "filePath": f"PR #{meta.number}",
        "startIndex": 0,
        "endIndex": 0,
        "rangeLabel": f"#{meta.number}",
        "text": cut_utf16(summary, 16_000),
        "diff": "",
        "pullRequest": meta.to_wire(),
    })
    assert isinstance(record, ReviewCommentRecord)
    return record


# -- fetching -----------------------------------------------------------------------------------
def gh_is_ready(gh: str, env: Mapping[str, str]) -> bool:
    """True when ``gh`` runs and is signed in to github.com."""
    try:
        done = subprocess.run([gh, "auth", "status", "--hostname", "github.com"], env=dict(env),
                              capture_output=True, timeout=GH_TIMEOUT_SECONDS, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def fetch_with_gh(ref: PullRequestRef, gh: str, env: Mapping[str, str]) -> PullRequestMetadata:
    """Metadata through ``gh pr view``; raises ``LookupError`` with a reason on failure."""
    try:
        done = subprocess.run(
            [gh, "pr", "view", str(ref.number), "--repo", ref.slug, "--json", GH_FIELDS],
            env=dict(env), capture_output=True, text=True, timeout=GH_TIMEOUT_SECONDS,
            check=False, stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        raise LookupError("GitHub did not answer in time.") from exc
    except OSError as exc:
        raise LookupError("The GitHub command line could not be started.") from exc
    if done.returncode != 0:
        detail = trim(done.stderr or "").splitlines()
        raise LookupError(f"gh could not read {ref.slug}#{ref.number}"
                          + (f": {detail[-1]}" if detail else "."))
    try:
        return metadata_from_gh(json.loads(done.stdout))
    except (ValueError, json.JSONDecodeError) as exc:
        raise LookupError("gh gave an answer that is not a pull request.") from exc


def fetch_with_api(ref: PullRequestRef, token: str, api: str = GITHUB_API,
                   transport: httpx.BaseTransport | None = None) -> PullRequestMetadata:
    """Metadata through the REST API; raises ``LookupError`` with a reason on failure."""
    headers = {"Accept": "application/vnd.github+json", "Authorization": f"Bearer {token}",
               "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "composer-app"}
    url = f"{api.rstrip('/')}/repos/{ref.owner}/{ref.repo}/pulls/{ref.number}"
    try:
        with httpx.Client(timeout=API_TIMEOUT_SECONDS, transport=transport,
                          follow_redirects=False) as client:
            response = client.get(url, headers=headers)
    except httpx.HTTPError as exc:
        raise LookupError("GitHub could not be reached (offline?).") from exc
    if response.status_code == 401:
        raise LookupError("GitHub refused the token in Settings ▸ Accounts (401).")
    if response.status_code in (403, 429):
        raise LookupError("GitHub refused the request (rate limit or missing access).")
    if response.status_code == 404:
        raise LookupError(f"{ref.slug}#{ref.number} was not found, or the token cannot see it.")
    if response.status_code != 200:
        raise LookupError(f"GitHub answered {response.status_code}.")
    try:
        return metadata_from_api(response.json())
    except (ValueError, json.JSONDecodeError) as exc:
        raise LookupError("GitHub gave an answer that is not a pull request.") from exc


def keyring_token() -> str | None:
    """The GitHub token kept in the keyring (None without one or without a keyring)."""
    try:
        import keyring
        from keyring.errors import KeyringError
    except ImportError:  # pragma: no cover - keyring is a dependency
        return None
    with contextlib.suppress(KeyringError, RuntimeError):
        return keyring.get_password(APP_ID, GITHUB_TOKEN_KEYRING_USER) or None
    return None


def fetch_pull_request(
    ref: PullRequestRef,
    *,
    env: Mapping[str, str] | None = None,
    token: Callable[[], str | None] = keyring_token,
    api: str = GITHUB_API,
) -> ReviewCommentRecord | PullRequestFailure:
    """The record for ``ref`` (``gh`` first, then the REST API), or why it failed."""
    environment = dict(os.environ if env is None else env)
    gh = shutil.which("gh", path=environment.get("PATH", os.defpath))
    try:
        if gh is not None and gh_is_ready(gh, environment):
            return pull_request_record(ref, fetch_with_gh(ref, gh, environment))
        secret = token()
        if not secret:
            return PullRequestFailure(NO_ACCESS)
        return pull_request_record(ref, fetch_with_api(ref, secret, api))
    except LookupError as exc:
        return PullRequestFailure(str(exc))
    except ContractError:
        return PullRequestFailure("The pull request's details do not fit a context record.")
