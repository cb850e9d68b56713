"""What a thread's earlier user messages give a new turn: their attachments and provider prompts.

Invariants: at most ``EARLIER_MESSAGES`` user messages are considered, the newest ones before the
turn's own message, oldest first; an attachment counts only while it is the thread owner's; a
message whose context cannot be decoded adds no prompt and is never fatal. The material is
gathered inside the ``thread.turn.start`` transaction itself
(``Transaction.recent_material_messages``: only those of the messages that carry attachments or a
context are read back), so a turn needs no read of its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from composer_app.core.codecs.projection import project_for_provider
from composer_app.core.contracts.messages import decode_message_context
from composer_app.core.errors import ComposerError
from composer_app.server.store.base import AttachmentRow, MessageRow

EARLIER_MESSAGES = 20  # how many earlier user messages' material a turn can still search


@dataclass(frozen=True)
class EarlierMaterial:
    """The attachments and provider prompts of a thread's earlier user messages, oldest first."""

    attachments: tuple[AttachmentRow, ...] = ()
    prompts: tuple[str, ...] = ()


def gather_material(messages: Iterable[MessageRow], owner: str | None,
                    attachment: Callable[[str], AttachmentRow | None], *,
                    exclude: str | None = None) -> EarlierMaterial:
    """The material of ``messages`` (oldest first): user messages other than ``exclude`` only,
    attachments looked up with ``attachment`` and kept when ``owner`` owns them."""
    attachments: list[AttachmentRow] = []
    prompts: list[str] = []
    for message in messages:
        if message.role != "user" or message.message_id == exclude:
            continue
        for ref in message.attachments:
            row = attachment(str(ref.get("attachmentId", "")))
            if row is not None and owner is not None and row.user_id == owner:
                attachments.append(row)
        if message.context:
            with contextlib.suppress(ComposerError, ValueError):
                records = decode_message_context(message.context).records
                prompts.append(project_for_provider(message.text, records))
    return EarlierMaterial(tuple(attachments), tuple(prompts))
