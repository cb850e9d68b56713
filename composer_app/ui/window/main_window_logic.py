"""Decisions of the main window, kept Qt-free: status-bar texts, focus cycling, the transcript
refresh plan and the message → wire conversion (the thread decisions are in
``threads.navigation_logic``).

Invariants: every function is pure; the status text names exactly one of the states the user can
see (``Embedded server``, ``Connected``, ``Syncing…``, ``Connecting…``, ``Reconnecting…``,
``Offline``, ``The server did not accept the token``, ``Connection error``); ``plan_refresh``
never asks to re-add a message whose row and delivery error are unchanged and asks for a full
reload only when a row disappeared.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from composer_app.sync.store import MessageRow, OutboxRow

REJECTED_TOKEN_TEXT = "The server did not accept the token"


def can_sign_in_again(state: str) -> bool:
    """Whether *Sign in again* applies (the server refused the token)."""
    return state == "unauthorized"


def connection_text(state: str, next_try: int, *, embedded: bool, syncing: bool) -> str:
    """The status-bar text for the connection."""
    if state == "connected":
        if syncing:
            return "Syncing…"
        return "Embedded server" if embedded else "Connected"
    if state == "connecting":
        return "Starting the embedded server…" if embedded else "Connecting…"
    if state == "reconnecting":
        return f"Reconnecting (next try in {next_try} s)" if next_try > 0 else "Reconnecting…"
    if state == "offline":
        return "Offline"
    if state == "unauthorized":
        return REJECTED_TOKEN_TEXT
    if state == "error":
        return "Connection error"
    if state == "signed-out":
        return "Signed out"
    return state.capitalize() if state else "Connecting…"


def connection_tone(state: str, *, syncing: bool) -> str:
    """The colour class of the status dot: ``ok`` (usable, nothing pending), ``busy``
    (connecting, reconnecting or syncing), ``down`` (offline) or ``error``."""
    if state == "connected":
        return "busy" if syncing else "ok"
    if state in ("offline", "error", "unauthorized", "signed-out"):
        return "down" if state in ("offline", "signed-out") else "error"
    return "busy"


def can_retry_now(state: str) -> bool:
    """Whether *Retry now* makes sense (the socket is waiting for its next try)."""
    return state in ("reconnecting", "offline", "error")


@dataclass(frozen=True)
class OutboxSummary:
    """What the status bar shows about queued messages."""

    unsent: int
    failed: int
    sending: bool


def summarize_outbox(rows: Iterable[OutboxRow]) -> OutboxSummary:
    """Count queued messages (commands without a message are not counted)."""
    unsent = failed = 0
    sending = False
    for row in rows:
        if row.state == "sending":
            sending = True
        if not row.message_id or row.state == "sent":
            continue
        unsent += 1
        failed += row.state == "unsent"
    return OutboxSummary(unsent, failed, sending)


def unsent_text(summary: OutboxSummary) -> str:
    """``""`` when nothing waits, else e.g. ``2 unsent (1 not sent)``."""
    if not summary.unsent:
        return ""
    text = f"{summary.unsent} unsent"
    if summary.failed:
        text += f" ({summary.failed} not sent)"
    return text


def unsent_by_server(summaries: Sequence[tuple[str, OutboxSummary]]) -> tuple[str, str]:
    """The unsent button's text and tooltip over several servers (``(server name, summary)``
    each): the total, and the server's name when all of it waits on one server (``""`` when
    nothing waits); the tooltip counts per server."""
    waiting = [(name, s) for name, s in summaries if s.unsent]
    if not waiting:
        return "", ""
    total = OutboxSummary(sum(s.unsent for _, s in waiting), sum(s.failed for _, s in waiting),
                          any(s.sending for _, s in waiting))
    text = unsent_text(total)
    if len(waiting) == 1 and len(summaries) > 1:
        text = text.replace(" unsent", f" unsent on {waiting[0][0]}", 1)
    tip = "; ".join(f"{name}: {unsent_text(s)}" for name, s in waiting)
    return text, tip


def next_pane(visible: Sequence[bool], current: int, step: int = 1) -> int:
    """The index of the next visible pane after ``current`` (``-1``: none focused), wrapping."""
    count = len(visible)
    if not any(visible):
        return -1
    index = current
    for _ in range(count):
        index = (index + step) % count if index >= 0 else (0 if step > 0 else count - 1)
        if visible[index]:
            return index
    return -1


def message_wire(row: MessageRow, error: str = "") -> dict[str, Any]:
    """A cached message as the transcript's wire dict (camelCase keys); a local echo also
    carries ``localState`` and its outbox ``error`` as ``localError``."""
    wire: dict[str, Any] = {
        "messageId": row.message_id,
        "threadId": row.thread_id,
        "role": row.role,
        "text": row.text,
        "isStreaming": row.is_streaming,
        "createdAt": row.created_at or "",
    }
    if row.context is not None:
        wire["context"] = row.context
    if row.sources is not None:
        wire["sources"] = row.sources
    if row.metadata is not None:
        wire["metadata"] = row.metadata
    if row.attachments:
        wire["attachments"] = list(row.attachments)
    if row.local_state:
        wire["localState"] = row.local_state
        if error:
            wire["localError"] = error
    return wire


def outbox_errors(rows: Iterable[OutboxRow]) -> dict[str, str]:
    """The last error of every queued message that has one, by message id."""
    return {r.message_id: r.last_error for r in rows if r.message_id and r.last_error}


@dataclass(frozen=True)
class RefreshPlan:
    """How to bring the transcript up to date: reload everything, or upsert some rows."""

    reload: bool
    upserts: tuple[MessageRow, ...]


def plan_refresh(shown: Mapping[str, MessageRow], rows: Sequence[MessageRow],
                 changed: Iterable[str] = ()) -> RefreshPlan:
    """Compare what the transcript shows with the cache's current rows (``changed``: ids
    whose delivery error changed, re-added even when their row did not)."""
    current = {r.message_id for r in rows}
    if any(message_id not in current for message_id in shown):
        return RefreshPlan(True, tuple(rows))
    again = set(changed)
    return RefreshPlan(False, tuple(r for r in rows
                                    if shown.get(r.message_id) != r or r.message_id in again))


def sent_here(upserts: Iterable[MessageRow]) -> bool:
    """Whether a refresh brings a message the user is sending (its local echo): the transcript
    then goes to the bottom even for a reader who had scrolled up."""
    return any(r.role == "user" and r.local_state == "sending" for r in upserts)


Rect = tuple[int, int, int, int]
"""``(x, y, width, height)``."""


def fit_on_screen(window: Rect, available: Rect) -> Rect:
    """``window`` moved and, where it must, shrunk to lie wholly inside ``available`` (a screen's
    area without panels): a geometry saved on a larger or less scaled screen is never restored
    partly off-screen."""
    ax, ay, aw, ah = available
    x, y, w, h = window
    w, h = min(w, aw), min(h, ah)
    x = min(max(x, ax), ax + aw - w)
    y = min(max(y, ay), ay + ah - h)
    return x, y, w, h
