"""Decisions about which thread the window shows, kept Qt-free: the thread to open after a list
read, the archived set as stored, and the *Thread ▸ Assistant* choice.

Invariants: every function is pure; ``thread_to_open`` keeps the current thread while it is listed
(or was created here and is not listed yet), else falls back to the remembered one, then to the
newest; the *Assistant* menu checks at most one choice, and only for a thread whose server names
its provider.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

__all__ = ["ASSISTANT_CHOICES", "assistant_choice", "can_choose_assistant", "parse_archived",
           "thread_to_open"]


def parse_archived(value: object) -> frozenset[str]:
    """The archived-thread set from a stored value (a list, a string or nothing)."""
    if isinstance(value, str):
        return frozenset(v for v in value.split(",") if v)
    if isinstance(value, list | tuple):
        return frozenset(str(v) for v in value if v)
    return frozenset()


def thread_to_open(thread_ids: Sequence[str], remembered: str, current: str,
                   awaiting: Collection[str] = ()) -> str:
    """The thread to show: the current one, else the remembered one, else the newest.

    ``awaiting`` holds threads created here that a thread list may not contain yet (it was read
    before the creation landed): a current thread among them stays current, so a stale list never
    takes the user away from the thread they just made.
    """
    if current and current in awaiting:
        return current
    for candidate in (current, remembered):
        if candidate and candidate in thread_ids:
            return candidate
    return thread_ids[0] if thread_ids else ""


ASSISTANT_CHOICES: tuple[tuple[str, str], ...] = (
    ("local", "Local (offline)"),
    ("openai", "OpenAI-compatible"),
)
"""The providers a user picks per thread (*Thread ▸ Assistant*), as (name, menu text)."""


def assistant_choice(provider: str | None) -> str:
    """The *Assistant* entry to check for a thread's provider (``""``: none, e.g. ``echo``)."""
    names = {name for name, _label in ASSISTANT_CHOICES}
    return provider if provider in names else ""


def can_choose_assistant(thread_id: str, provider: str | None) -> bool:
    """Whether the *Assistant* menu applies: a thread is selected and its server names the
    provider it uses (a server with a single provider names none)."""
    return bool(thread_id) and provider is not None
