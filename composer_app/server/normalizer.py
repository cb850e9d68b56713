"""The Normalizer: binds a turn's message to persisted attachments inside the command transaction.

Invariants: every attachment of the message must be an upload of the sending device in state
``uploaded``; each gets a fresh persisted id (never assumed equal to the pending id) and is marked
attached to the message; every image and file record's ``attachmentId`` is rewritten from the
pending to the persisted id, and one naming none of the message's attachments is ``422
unknown_attachment``. Context ids and the text are never changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from composer_app.core.contracts.messages import MessageContext, encode_message_context
from composer_app.core.contracts.wire import UserMessageInput
from composer_app.core.limits import MAX_ATTACHMENTS
from composer_app.server.errors import ApiError, invalid
from composer_app.server.store.base import AttachmentRow, Device, JsonObject, Transaction, new_id

BOUND_KINDS = ("image", "file")


@dataclass(frozen=True)
class NormalizedMessage:
    """The message as it will be stored: persisted attachment refs and rewritten records."""

    attachments: list[JsonObject]
    context: JsonObject | None
    rows: list[AttachmentRow]


def unknown_attachment(attachment_id: str) -> ApiError:
    return ApiError(422, "unknown_attachment", f"Unknown attachment {attachment_id}.")


def normalize_message(tx: Transaction, device: Device, message: UserMessageInput
                      ) -> NormalizedMessage:
    """Check and bind the attachments, rewrite the records (writes only when all checks pass)."""
    if len(message.attachments) > MAX_ATTACHMENTS:
        raise invalid(f"A message may carry at most {MAX_ATTACHMENTS} attachments.")
    rows: list[AttachmentRow] = []
    for ref in message.attachments:
        row = tx.attachment(ref.attachment_id)
        if row is None or row.device_id != device.device_id or row.state != "uploaded":
            raise unknown_attachment(ref.attachment_id)
        if any(r.attachment_id == row.attachment_id for r in rows):
            raise invalid(f"Attachment {ref.attachment_id} is listed twice.")
        rows.append(row)
    persisted = {row.attachment_id: new_id("att") for row in rows}
    context = _rewrite(message.context, persisted)
    for row in rows:
        tx.set_attachment(row.attachment_id, state="attached",
                          new_id=persisted[row.attachment_id], message_id=message.message_id)
    refs = [{"attachmentId": persisted[row.attachment_id], "name": row.name,
             "mimeType": row.mime_type, "sizeBytes": row.size_bytes} for row in rows]
    return NormalizedMessage(refs, context, rows)


def _rewrite(context: MessageContext | None, persisted: dict[str, str]) -> JsonObject | None:
    if context is None:
        return None
    records = []
    for record in context.records:
        if record.kind in BOUND_KINDS:
            pending = getattr(record, "attachment_id", None)
            if pending not in persisted:
                raise unknown_attachment(str(pending))
            record = record.model_copy(update={"attachment_id": persisted[pending]})
        records.append(record)
    return encode_message_context(MessageContext.model_construct(version=1, records=records))
