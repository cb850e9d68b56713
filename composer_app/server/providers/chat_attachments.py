"""A turn's attached files as chat content parts for an OpenAI-compatible endpoint.

Invariants: an image goes as an ``image_url`` part (a ``data:`` URL) when it is at most
``IMAGE_MAX_BYTES``; any other file goes as a ``text`` part with its document text (plain text,
PDF, .docx, HTML through ``document_text``), cut to ``TEXT_MAX_CHARS`` characters at a line
boundary when longer; every file that was cut, skipped or unreadable yields a ``checked``
``connector-file`` source whose Coverage hint (``readinessHint``) says what the assistant did not
see, so nothing is dropped silently; the model never sees the server's storage path.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from composer_app.server.providers.base import ProviderAttachment
from composer_app.server.providers.document_text import read_document

IMAGE_MAX_BYTES = 5 * 1024 * 1024
FILE_READ_MAX_BYTES = 8 * 1024 * 1024
TEXT_MAX_CHARS = 100_000


@dataclass
class ChatAttachments:
    """Content parts for the model and the sources that explain what it did not get."""

    parts: list[dict[str, Any]] = field(default_factory=list)
    sources: list[dict[str, Any]] = field(default_factory=list)


def _size(units: int) -> str:
    return f"{units / 1024 / 1024:.1f} MB" if units >= 1024 * 1024 else f"{units // 1024} KB"


def _source(attachment: ProviderAttachment, hint: str) -> dict[str, Any]:
    return {
        "id": f"att:{attachment.attachment_id}"[:128], "type": "connector-file",
        "sourceLabel": "Attached file", "sourceUsage": "checked", "availableActions": ["download"],
        "title": attachment.name[:300] or "Attached file", "fileId": attachment.attachment_id,
        "readinessHint": hint[:280], "toolName": "attachment.read",
    }


def _cut(text: str, limit: int) -> str:
    head = text[:limit]
    newline = head.rfind("\n")
    return head[:newline] if newline > limit // 2 else head


def chat_attachments(attachments: Sequence[ProviderAttachment]) -> ChatAttachments:
    """The parts and coverage sources of ``attachments`` (see the module invariant)."""
    out = ChatAttachments()
    for attachment in attachments:
        name = attachment.name or "Attached file"
        if attachment.mime_type.startswith("image/"):
            if attachment.size_bytes > IMAGE_MAX_BYTES:
                out.sources.append(_source(attachment, (
                    f"Not sent: the image is larger than the {_size(IMAGE_MAX_BYTES)} the "
                    "assistant accepts.")))
                continue
            try:
                data = attachment.path.read_bytes()
            except OSError:
                out.sources.append(_source(attachment, "Not sent: the stored image could not "
                                                       "be read."))
                continue
            url = f"data:{attachment.mime_type};base64,{base64.b64encode(data).decode('ascii')}"
            out.parts.append({"type": "image_url", "image_url": {"url": url}})
            continue
        try:
            with attachment.path.open("rb") as handle:
                data = handle.read(FILE_READ_MAX_BYTES + 1)
        except OSError:
            out.sources.append(_source(attachment, "Not sent: the stored file could not be "
                                                   "read."))
            continue
        if len(data) > FILE_READ_MAX_BYTES:
            out.sources.append(_source(attachment, (
                f"Not sent: the file is larger than the {_size(FILE_READ_MAX_BYTES)} read for "
                "the assistant.")))
            continue
        document = read_document(name, data)
        if document.text is None:
            reason = document.problem or "It isn't a text file or document."
            out.sources.append(_source(attachment, f"Not sent: {reason}"))
            continue
        text = document.text
        if len(text) > TEXT_MAX_CHARS:
            sent = _cut(text, TEXT_MAX_CHARS)
            out.sources.append(_source(attachment, (
                f"Only the first {len(sent):,} of {len(text):,} characters were sent to the "
                "assistant; the rest was not read.")))
            text = sent + "\n[… the rest of the file was cut]"
        out.parts.append({"type": "text", "text": f"Attached file {name}:\n{text}"})
    return out
