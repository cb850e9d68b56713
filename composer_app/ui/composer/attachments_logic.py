"""Pure decisions about the composer's attachments: vetting files, records, shelf rows, removal.

Invariants: nothing here imports Qt or touches the disk (file facts are gathered by the caller);
a folder, an unreadable file, a file over the size limit, and every file past ``MAX_ATTACHMENTS``
are refused with a notice that names it; ``image/*`` becomes an image record, anything else a file
record, both bound to the local attachment id ``local_<hex>`` and identified by
``to_kind_scoped_context_id(kind, local_id)``; the shelf lists every image of the draft first
(referenced or not), then one compact row for every other record that has chips; removing a
referenced item asks first, and removing a preview-annotation screenshot also removes the
annotation. Removed records go to the draft's tombstones, so undo can bring them back and their
uploads are released only when the tombstones are collected.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from composer_app.core.codecs.ids import to_kind_scoped_context_id
from composer_app.core.contracts.records import decode_record
from composer_app.core.document.model import Draft
from composer_app.core.limits import (
    FILE_MAX_BYTES_DEFAULT,
    IMAGE_MAX_BYTES,
    LABEL_MAX_CHARS,
    MAX_ATTACHMENTS,
    NAME_MAX_CHARS,
)
from composer_app.core.text import cut_utf16, trim

ATTACHMENT_KINDS = ("image", "file")
UPLOAD_LOCAL = "local"
"""State of an attachment that has no upload (no server connected)."""


@dataclass(frozen=True)
class FileFacts:
    """What the caller found on disk for one dropped or pasted path."""

    path: str
    name: str
    exists: bool = True
    is_dir: bool = False
    readable: bool = True
    size: int = 0
    mime_type: str = "application/octet-stream"


@dataclass(frozen=True)
class Notice:
    """A short user-facing notice: a title and one detail line."""

    title: str
    detail: str = ""


@dataclass(frozen=True)
class UploadLimits:
    """Byte limits per kind (the server's ``maxUploadBytes``) and the attachment cap."""

    image_bytes: int = IMAGE_MAX_BYTES
    file_bytes: int = FILE_MAX_BYTES_DEFAULT
    max_attachments: int = MAX_ATTACHMENTS


def kind_for_mime(mime_type: str) -> str:
    """``image`` for ``image/*``, else ``file``."""
    return "image" if mime_type.lower().startswith("image/") else "file"


def format_bytes(size: int) -> str:
    """``512 bytes``, ``1.5 KB``, ``10 MB`` (binary multiples, one decimal when needed)."""
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            if unit == "bytes":
                return f"{size} bytes"
            text = f"{value:.1f}".removesuffix(".0")
            return f"{text} {unit}"
        value /= 1024
    return f"{size} bytes"  # pragma: no cover - loop always returns


def vet_files(
    files: Sequence[FileFacts], *, held: int, limits: UploadLimits = UploadLimits()
) -> tuple[list[FileFacts], list[Notice]]:
    """Which files may be attached (in order) and a notice for each refusal.

    ``held`` is the number of attachments the draft already holds.
    """
    accepted: list[FileFacts] = []
    notices: list[Notice] = []
    over: list[str] = []
    for facts in files:
        name = facts.name or facts.path
        if facts.is_dir:
            notices.append(Notice(f"Couldn't attach {name}",
                                  "Folders can't be attached. Attach the files inside it instead."))
            continue
        if not facts.exists or not facts.readable:
            notices.append(Notice(f"Couldn't attach {name}", "The file could not be read."))
            continue
        limit = limits.image_bytes if kind_for_mime(facts.mime_type) == "image" else (
            limits.file_bytes)
        if facts.size > limit:
            notices.append(Notice(f"Couldn't attach {name}",
                                  f"It is larger than the {format_bytes(limit)} this server "
                                  "accepts."))
            continue
        if held + len(accepted) >= limits.max_attachments:
            over.append(name)
            continue
        accepted.append(facts)
    if over:
        noun = "file was" if len(over) == 1 else "files were"
        notices.append(Notice(f"A message holds at most {limits.max_attachments} attachments",
                              f"{len(over)} {noun} not attached: {', '.join(over)}."))
    return accepted, notices


def attachment_name(name: str) -> str:
    """A record-safe file name (trimmed, at most 255 units, never empty)."""
    cleaned = trim(name.replace("\n", " ").replace("\r", " ")) or "attachment"
    return cut_utf16(cleaned, NAME_MAX_CHARS)


def new_attachment_record(kind: str, local_id: str, name: str, mime_type: str,
                          size_bytes: int) -> Any:
    """The image or file record of a new local attachment."""
    name = attachment_name(name)
    mime = trim(mime_type)[:100] or "application/octet-stream"
    return decode_record({
        "version": 1,
        "contextId": to_kind_scoped_context_id(kind, local_id),
        "kind": kind,
        "label": cut_utf16(name, LABEL_MAX_CHARS),
        "attachmentId": local_id,
        "name": name,
        "mimeType": mime,
        "sizeBytes": max(0, int(size_bytes)),
    })


def held_attachments(draft: Draft) -> int:
    """How many image and file records the draft holds (its attachment count)."""
    return sum(1 for r in draft.records.values() if r.kind in ATTACHMENT_KINDS)


@dataclass(frozen=True)
class UploadStatus:
    """An attachment's upload as the composer shows it."""

    state: str
    sent_bytes: int = 0
    size: int = 0

    @property
    def progress(self) -> float:
        """Fraction uploaded, 0..1."""
        if self.state == "uploaded":
            return 1.0
        return min(1.0, self.sent_bytes / self.size) if self.size > 0 else 0.0

    @property
    def busy(self) -> bool:
        """True while the upload has not finished (queued or uploading)."""
        return self.state in ("queued", "uploading")

    @property
    def failed(self) -> bool:
        """True when the upload failed (retry is offered)."""
        return self.state == "failed"


def upload_phrase(status: UploadStatus | None) -> str:
    """``waiting to upload``, ``uploading``, ``uploading 40%``, ``upload failed``, ``uploaded``
    or ``""``.

    A percentage is shown only when the sync client reported bytes sent (it reports a whole-body
    upload as started and finished, so most uploads show ``uploading`` until they are done).
    """
    if status is None or status.state in (UPLOAD_LOCAL, "cancelled"):
        return ""
    if status.state == "queued":
        return "waiting to upload"
    if status.busy:
        percent = round(status.progress * 100)
        return f"uploading {percent}%" if 0 < percent < 100 else "uploading"
    if status.failed:
        return "upload failed"
    return "uploaded" if status.state == "uploaded" else status.state


@dataclass(frozen=True)
class ShelfRow:
    """One shelf item: an image of the draft, or a mirrored context item that has chips."""

    context_id: str
    kind: str
    name: str
    references: int
    is_image: bool
    upload: UploadStatus | None
    state: str

    @property
    def accessible_name(self) -> str:
        """``Image shot.png, 2 references`` (+ upload or availability state)."""
        noun = "reference" if self.references == 1 else "references"
        count = f"{self.references} {noun}" if self.references else "no references"
        title = "Image" if self.is_image else _row_kind(self.kind)
        parts = [f"{title} {self.name}", count]
        phrase = upload_phrase(self.upload)
        if phrase:
            parts.append(phrase)
        if self.state != "resolved":
            parts.append("unavailable" if self.state == "unresolved" else "still arriving")
        return ", ".join(parts)


_ROW_KINDS = {
    "file": "File",
    "terminal": "Terminal output",
    "element": "Page element",
    "preview-annotation": "Preview annotation",
    "review-comment": "Review comment",
    "mention": "File mention",
    "skill": "Skill",
    "thread": "Thread",
}


def _row_kind(kind: str) -> str:
    return _ROW_KINDS.get(kind, "Context")


def row_detail(row: ShelfRow) -> str:
    """The second line of a shelf card: the kind, then the upload state when there is one."""
    phrase = upload_phrase(row.upload)
    return f"{_row_kind(row.kind)} · {phrase}" if phrase else _row_kind(row.kind)


def _display_name(record: Any) -> str:
    name = getattr(record, "name", None)
    return str(name) if name else str(record.label or record.kind)


def shelf_rows(draft: Draft, chip_counts: Mapping[str, int],
               uploads: Mapping[str, UploadStatus]) -> list[ShelfRow]:
    """Images in shelf order, then every other held record that has chips (attachment order)."""
    rows: list[ShelfRow] = []
    for cid in draft.shelf:
        record = draft.records.get(cid)
        if record is None:
            continue
        rows.append(ShelfRow(cid, "image", _display_name(record), chip_counts.get(cid, 0), True,
                             uploads.get(record.attachment_id), str(draft.state_of(cid))))
    for cid, record in draft.records.items():
        if record.kind == "image" or chip_counts.get(cid, 0) == 0:
            continue
        upload = uploads.get(record.attachment_id) if record.kind == "file" else None
        rows.append(ShelfRow(cid, record.kind, _display_name(record), chip_counts[cid], False,
                             upload, str(draft.state_of(cid))))
    return rows


def removal_confirmation(row: ShelfRow) -> Notice | None:
    """The question to ask before removing ``row``, or ``None`` when it has no references."""
    if row.references == 0:
        return None
    return Notice(f"Remove {row.name} from the message?",
                  "Removing it also removes every reference.")


def ids_removed_with(draft: Draft, context_id: str) -> list[str]:
    """``context_id`` plus every preview annotation whose screenshot it is."""
    ids = [context_id]
    for cid, record in draft.records.items():
        if record.kind == "preview-annotation" and record.screenshot_context_id == context_id:
            ids.append(cid)
    return ids


def remove_records(draft: Draft, ids: Iterable[str]) -> list[Any]:
    """Move the records ``ids`` out of the draft into its tombstones; returns the records moved."""
    moved: list[Any] = []
    for cid in ids:
        record = draft.records.pop(cid, None)
        if record is None:
            continue
        draft.tombstones[cid] = record
        if cid in draft.shelf:
            draft.shelf.remove(cid)
        moved.append(record)
    return moved


def attachment_ids_of(records: Iterable[Any]) -> list[str]:
    """The attachment ids bound by the image and file records among ``records``."""
    return [r.attachment_id for r in records if r.kind in ATTACHMENT_KINDS]


def send_notice(pending: Sequence[str], failed: Sequence[str]) -> tuple[bool, Notice | None]:
    """Whether Send may go ahead given upload names still pending or failed, and what to say.

    Failed uploads block the send; pending ones do not (the message waits in the outbox until
    they are uploaded), but the user is told.
    """
    if failed:
        names = ", ".join(failed)
        return False, Notice(f"Couldn't upload {names}",
                             "Retry it from its chip or remove it, then send again.")
    if pending:
        noun = "attachment" if len(pending) == 1 else "attachments"
        return True, Notice(f"Waiting for {len(pending)} {noun} to finish uploading.",
                            "The message is sent as soon as the upload completes.")
    return True, None


def fetch_failure_notice(name: str, reason: str) -> Notice:
    """The paste-import failure toast (docs/contract.md §10)."""
    return Notice(f"Couldn't bring {name} into this message", reason)
