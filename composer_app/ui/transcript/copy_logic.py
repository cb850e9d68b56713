"""What a transcript copy writes to the clipboard (docs/contract.md §9.3), Qt-free.

Invariants: ``text/plain`` is always the canonical Markdown of what was copied (chips as their
links, never U+FFFC); the fragment (``CLIPBOARD_MIME``) and its HTML carrier are added only when
the copied Markdown references at least one record the message holds, and only with the records it
references, in first-reference order; if the fragment cannot be encoded only text is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from composer_app.core.codecs.clipboard import (
    encode_clipboard_html,
    encode_fragment,
    selected_fragment,
)
from composer_app.core.contracts.clipboard import CLIPBOARD_MIME, FragmentSource
from composer_app.core.contracts.records import ContextRecord, RecordBase

OBJECT_REPLACEMENT = "\ufffc"


def clipboard_payload(
    markdown: str, records: Mapping[str, RecordBase], source: FragmentSource
) -> dict[str, str]:
    """MIME type → text for one copy (``text/plain`` always first)."""
    payload = {"text/plain": markdown}
    held = cast(Mapping[str, ContextRecord], records)
    fragment = selected_fragment(markdown, held, source)
    if fragment is None:
        return payload
    encoded = encode_fragment(fragment)
    if encoded is None:
        return payload
    payload[CLIPBOARD_MIME] = encoded
    payload["text/html"] = encode_clipboard_html(markdown, encoded, None)
    return payload


def fragment_source(environment_id: str, thread_id: str, message_id: str) -> FragmentSource:
    """The ``source`` of a fragment copied from one transcript message."""
    return FragmentSource.model_validate(
        {
            "environmentId": environment_id or "local",
            "threadId": thread_id or None,
            "messageId": message_id or None,
        }
    )


def plain_selection(text: str) -> str:
    """Rendered answer text as copied: citation pills and other objects removed."""
    return text.replace(OBJECT_REPLACEMENT, "").replace("\u2029", "\n").replace("\u2028", "\n")


def estimate_lines(text: str, chars_per_line: int) -> int:
    """A cheap line-count estimate for rows not yet laid out (exact heights replace it)."""
    per_line = max(8, chars_per_line)
    return sum(max(1, -(-len(line) // per_line)) for line in text.split("\n"))
