"""Clipboard, drag-and-drop and attachments of the composer editor (a collaborator it owns).

Each handler reads the Qt input (``mime.read_offer``), asks a pure function what to do
(``paste_logic.choose_paste``, ``attachments_logic.vet_files``, ``plan_fragment_import``) and
applies the result. Invariants: a paste or drop is one undo step; a dropped or pasted file becomes
a chip (never ``file://`` text); hostile clipboard data ends as plain text or unresolved chips and
never raises out of a Qt virtual; an import that completes after its draft was replaced (thread
switch, send, clear) or whose record left the draft is discarded and its upload released; records
are added to the draft before their chips appear, so chips are born resolved, pending or
unresolved, never missing.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QMimeData, QMimeDatabase, QObject, QPoint, Qt
from PySide6.QtGui import QImage, QTextCursor, QTextDocumentFragment

from composer_app.core.codecs.imports import BinaryFetch, plan_fragment_import
from composer_app.core.contracts.clipboard import FragmentSource
from composer_app.core.document.edits import add_record
from composer_app.core.document.model import Draft, RecordState
from composer_app.core.document.segments import ChipSegment, Segment
from composer_app.core.limits import PROMPT_MAX_CHARS
from composer_app.core.text import utf16_len
from composer_app.sync.assets import NOT_CONNECTED
from composer_app.ui.composer.attachment_uploads import LOCAL_ENVIRONMENT_ID, AttachmentUploads
from composer_app.ui.composer.attachments_logic import (
    FileFacts,
    Notice,
    UploadStatus,
    fetch_failure_notice,
    held_attachments,
    ids_removed_with,
    kind_for_mime,
    new_attachment_record,
    remove_records,
    send_notice,
    vet_files,
)
from composer_app.ui.composer.document_bridge import chip_occurrences, markdown_of
from composer_app.ui.composer.image_paste import StoredFile
from composer_app.ui.composer.mime import can_accept, copy_mime_data, describe_formats, read_offer
from composer_app.ui.composer.paste_logic import (
    FilesPaste,
    FoldedTextPaste,
    FragmentPaste,
    HtmlPaste,
    ImagePaste,
    PasteAction,
    TextPaste,
    choose_paste,
    rewrite_pasted_text,
    text_action,
)

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor

_log = logging.getLogger(__name__)
_LINK_UNITS_PER_CHIP = 800  # upper bound of one canonical link (label 200 + href 200 + syntax)


def new_local_id() -> str:
    """A fresh local attachment id (``local_<32 hex>``)."""
    return "local_" + uuid.uuid4().hex


def file_facts(path: str) -> FileFacts:
    """What the disk says about ``path`` (called on drop/paste, never on drag moves)."""
    name = os.path.basename(path.rstrip("/\\")) or path
    try:
        st = os.stat(path)
    except OSError:
        return FileFacts(path, name, exists=False, readable=False)
    if os.path.isdir(path):
        return FileFacts(path, name, is_dir=True, size=st.st_size)
    readable = os.access(path, os.R_OK)
    mime = QMimeDatabase().mimeTypeForFile(path).name() or "application/octet-stream"
    return FileFacts(path, name, readable=readable, size=st.st_size, mime_type=mime)


class AttachmentInput(QObject):
    """Clipboard, drag-and-drop and attachments of one editor (the editor forwards its virtuals)."""

    def __init__(self, editor: ComposerEditor, environment_id: str | None = None) -> None:
        super().__init__(editor)
        self._editor = editor
        self._uploads: AttachmentUploads | None = None
        self._environment_override = environment_id or None
        self._plain_paste = False
        self.last_upload_ids: tuple[str, ...] = ()

    # -- wiring --------------------------------------------------------------------------------
    @property
    def environment_id(self) -> str:
        """The environment this composer's copies come from and its own pastes resolve in.

        Leave it unset in the app: it then follows the environment the uploads go to (the
        connected server's id), and ``LOCAL_ENVIRONMENT_ID`` while none is known. An explicit
        value (tests, a second window bound to another environment) wins. It never makes a
        paste resolve by accident: a fragment's attachments are fetched as this environment's
        own only when its source id equals the uploads' environment (or is the offline
        placeholder and the attachment is one this app holds); any other id is treated as a
        foreign environment, so an unknown or stale id leaves the chip unresolved with the
        contract's notice rather than binding it to the wrong bytes.
        """
        if self._environment_override:
            return self._environment_override
        own = self._uploads.environment_id if self._uploads is not None else None
        return own or LOCAL_ENVIRONMENT_ID

    @environment_id.setter
    def environment_id(self, value: str | None) -> None:
        self._environment_override = value or None

    @property
    def uploads(self) -> AttachmentUploads:
        """The upload glue (a local one, without a server, until ``use_uploads`` is called)."""
        if self._uploads is None:
            self.use_uploads(AttachmentUploads(environment_id=self._environment_override,
                                               parent=self))
        assert self._uploads is not None
        return self._uploads

    def use_uploads(self, uploads: AttachmentUploads) -> None:
        """Attach through ``uploads`` (one per app; shared by every composer)."""
        if self._uploads is not None:
            self._uploads.status_changed.disconnect(self._on_uploads_status_changed)
            self._editor.records_released.disconnect(self._on_editor_records_released)
        self._uploads = uploads
        uploads.status_changed.connect(self._on_uploads_status_changed)
        self._editor.records_released.connect(self._on_editor_records_released)
        self._editor.draft.keep_shelf_images = True

    def upload_status(self, attachment_id: str) -> UploadStatus | None:
        """The upload state of an attachment (``None`` before any upload glue exists)."""
        return self._uploads.status(attachment_id) if self._uploads is not None else None

    def _on_uploads_status_changed(self, attachment_id: str) -> None:
        if any(getattr(r, "attachment_id", None) == attachment_id
               for r in self._editor.draft.records.values()):
            self._editor.looks.invalidate()
            self._editor.context_changed.emit()

    def _on_editor_records_released(self, records: list[Any]) -> None:
        self.uploads.release(records)

    def notify(self, notice: Notice) -> None:
        """Post a notice (the composer's toast)."""
        self._editor.notice_posted.emit(notice.title, notice.detail)

    # -- copy ----------------------------------------------------------------------------------
    def fragment_source(self) -> FragmentSource:
        """Where a copy from this composer comes from."""
        if self._editor.thread_id:
            return FragmentSource(environment_id=self.environment_id,
                                  thread_id=self._editor.thread_id)
        return FragmentSource(environment_id=self.environment_id)

    def copy_selection(self) -> QMimeData:
        """The clipboard data of the editor's selection (canonical Markdown and the fragment)."""
        cursor = self._editor.textCursor()
        markdown = markdown_of(self._editor.document(), cursor.selectionStart(),
                               cursor.selectionEnd())
        uploads = self.uploads
        records = {cid: uploads.export_record(r) for cid, r in self._editor.draft.records.items()}
        return copy_mime_data(markdown, records, self.fragment_source())

    # -- paste and drop ------------------------------------------------------------------------
    def can_insert(self, source: QMimeData) -> bool:
        """Whether a paste or drop of ``source`` is accepted (no disk access: drag moves)."""
        try:
            return can_accept(source)
        except Exception:
            _log.exception("could not inspect dragged data")
            return False

    def insert_from(self, source: QMimeData) -> None:
        """Paste or drop ``source`` at the caret; never raises."""
        try:
            self._insert_offer(source)
        except Exception:  # never raise out of a Qt virtual
            _log.exception("paste failed (formats: %s)", describe_formats(source))
            self.notify(Notice("Couldn't paste", "The clipboard held data the composer can't use."))

    def _prompt_units(self, incoming: int) -> int:
        doc = self._editor.document()
        bound = doc.characterCount() + len(self._editor.tracker.chips()) * _LINK_UNITS_PER_CHIP
        if bound + incoming <= PROMPT_MAX_CHARS:
            return doc.characterCount()  # cannot overflow: the exact length does not matter
        return utf16_len(self._editor.markdown())

    def _replaced_units(self) -> int:
        cursor = self._editor.textCursor()
        return cursor.selectionEnd() - cursor.selectionStart()

    def _insert_offer(self, source: QMimeData) -> None:
        offer = read_offer(source)
        incoming = len(offer.text or "")
        action: PasteAction = choose_paste(
            offer, plain=self._plain_paste, prompt_units=self._prompt_units(incoming),
            replaced_units=self._replaced_units())
        if isinstance(action, HtmlPaste):
            text = QTextDocumentFragment.fromHtml(action.html).toPlainText()
            action = text_action(text, prompt_units=self._prompt_units(len(text)),
                                 replaced_units=self._replaced_units())
        if isinstance(action, TextPaste):
            self._editor.insert_markdown(action.text)
        elif isinstance(action, FoldedTextPaste):
            self.attach_text(action.text, action.name)
        elif isinstance(action, FragmentPaste):
            self.paste_fragment(action)
        elif isinstance(action, FilesPaste):
            self.attach_paths(action.paths)
        elif isinstance(action, ImagePaste):
            image = None
            if action.data is None:
                data = source.imageData()
                image = data if isinstance(data, QImage) else QImage(data)
            self.attach_image(action.data, action.mime_type, image)
        else:
            _log.info("nothing to paste from formats: %s", describe_formats(source))

    # -- fragments -----------------------------------------------------------------------------
    def paste_fragment(self, action: FragmentPaste) -> None:
        """Import the fragment's records (docs/contract.md §10) and insert its text; binaries are
        fetched."""
        draft = self._editor.draft
        uploads = self.uploads
        connected = uploads.connected_environment_ids() | {self.environment_id}
        if action.fragment.source.environment_id == LOCAL_ENVIRONMENT_ID:
            # Copied here while no environment was known: ``fetch`` re-attaches what this app
            # still holds and reports anything else as not connected (unresolved + notice).
            connected.add(LOCAL_ENVIRONMENT_ID)
        plan = plan_fragment_import(action.fragment, draft.records,
                                    connected_environment_ids=connected, new_id=new_local_id)
        for record in plan.records_to_add:
            add_record(draft, record, RecordState(plan.state_of(record.context_id)))
        self._editor.insert_markdown(rewrite_pasted_text(action.text, plan.id_map))
        for context_id in plan.unresolved_ids:
            held = draft.records.get(context_id) or draft.tombstones.get(context_id)
            if held is not None:
                self.notify(fetch_failure_notice(held.name, NOT_CONNECTED))
        for fetch in plan.binary_fetches:
            self._start_fetch(draft, fetch)
        self._editor.looks.invalidate()

    def _start_fetch(self, draft: Draft, fetch: BinaryFetch) -> None:
        record = draft.records.get(fetch.new_context_id) or draft.tombstones.get(
            fetch.new_context_id)
        if record is None:
            return
        attachment_id = record.attachment_id

        def done(ok: bool, reason: str) -> None:
            current = self._editor.draft is draft and (
                fetch.new_context_id in draft.records or fetch.new_context_id in draft.tombstones)
            if not current:  # the draft was replaced or the record left it: discard
                if ok:
                    self.uploads.release([record])
                return
            if ok:
                self._set_state(draft, fetch.new_context_id, RecordState.RESOLVED)
            else:
                self._set_state(draft, fetch.new_context_id, RecordState.UNRESOLVED)
                self.notify(fetch_failure_notice(fetch.name, reason))

        self.uploads.fetch(fetch, attachment_id, done)

    def _set_state(self, draft: Draft, context_id: str, state: RecordState) -> None:
        if context_id in draft.records:
            self._editor.set_record_state(context_id, state)
        elif state is RecordState.RESOLVED:
            draft.states.pop(context_id, None)
        else:
            draft.states[context_id] = state

    # -- attaching -----------------------------------------------------------------------------
    def _insert_attachment_chips(self, records: list[Any]) -> None:
        segments: list[Segment] = []
        for record in records:
            if segments:
                segments.append(" ")
            segments.append(ChipSegment(record.kind, record.context_id, record.label))
        if segments:
            self._editor.insert_chips(segments)

    def attach_paths(self, paths: tuple[str, ...] | list[str]) -> list[Any]:
        """Attach local files at the caret (one chip each, in order); returns the new records."""
        uploads = self.uploads
        accepted, notices = vet_files([file_facts(p) for p in paths],
                                      held=held_attachments(self._editor.draft),
                                      limits=uploads.limits())
        for notice in notices:
            self.notify(notice)
        records = []
        for facts in accepted:
            local_id = new_local_id()
            record = new_attachment_record(kind_for_mime(facts.mime_type), local_id, facts.name,
                                           facts.mime_type, facts.size)
            add_record(self._editor.draft, record)
            records.append((record, facts))
        self._insert_attachment_chips([r for r, _ in records])
        for record, facts in records:
            uploads.start(record.attachment_id, facts.path, facts.name, facts.mime_type,
                          facts.size)
        return [r for r, _ in records]

    def _admit_one(self, name: str, size: int, mime_type: str) -> bool:
        facts = FileFacts(name, name, size=size, mime_type=mime_type)
        _ok, notices = vet_files([facts], held=held_attachments(self._editor.draft),
                                 limits=self.uploads.limits())
        for notice in notices:
            self.notify(notice)
        return not notices

    def attach_text(self, text: str, name: str) -> Any | None:
        """Fold pasted text into a file attachment (chip now, file written off-thread)."""
        size = len(text.encode("utf-8", "surrogatepass"))
        if not self._admit_one(name, size, "text/plain"):
            return None
        record = new_attachment_record("file", new_local_id(), name, "text/plain", size)
        add_record(self._editor.draft, record)
        self._insert_attachment_chips([record])
        self._editor.a11y.announce(f"Long text attached as {name}")
        self.uploads.files.store_text(text, name, self._stored_callback(self._editor.draft, record))
        return record

    def attach_image(self, data: bytes | None, mime_type: str, image: QImage | None) -> Any | None:
        """Attach pasted image data (original bytes kept, else PNG encoded off-thread)."""
        files = self.uploads.files
        if data is None and (image is None or image.isNull()):
            self.notify(Notice("Couldn't paste the image", "The clipboard image is empty."))
            return None
        pending = data is None
        mime = mime_type if data is not None else "image/png"
        if not self._admit_one("pasted image", len(data or b""), mime):
            return None
        path = files.image_path(data, mime)
        record = new_attachment_record("image", new_local_id(), path.name, mime,
                                       len(data) if data is not None else 0)
        draft = self._editor.draft
        add_record(draft, record, RecordState.PENDING if pending else RecordState.RESOLVED)
        self._insert_attachment_chips([record])
        files.store_image(path, data, mime, image, self._stored_callback(draft, record))
        return record

    def _stored_callback(self, draft: Draft, record: Any) -> Any:
        """What runs (GUI thread) when a pasted file is on disk: upload it, or say why not."""
        def done(result: StoredFile | Exception) -> None:
            cid = record.context_id
            current = self._editor.draft is draft and (
                cid in draft.records or cid in draft.tombstones)
            if isinstance(result, Exception):
                if current:
                    self._set_state(draft, cid, RecordState.UNRESOLVED)
                    self.notify(Notice(f"Couldn't attach {record.name}", str(result)))
                return
            if not current:
                Path(result.path).unlink(missing_ok=True)
                return
            held = draft.records.get(cid) or draft.tombstones.get(cid)
            if held is not None and held.size_bytes != result.size:
                updated = held.model_copy(update={"size_bytes": result.size})
                if cid in draft.records:
                    draft.records[cid] = updated
                else:
                    draft.tombstones[cid] = updated
            self.uploads.start(record.attachment_id, result.path, record.name,
                               record.mime_type, result.size)
            self._set_state(draft, cid, RecordState.RESOLVED)

        return done

    # -- removal (the shelf) -------------------------------------------------------------------
    def remove_context(self, context_id: str) -> list[Any]:
        """Remove an item and every chip pointing at it (one undo step); returns records removed.

        Removing a screenshot also removes the preview annotations that use it.
        """
        ids = set(ids_removed_with(self._editor.draft, context_id))
        doc = self._editor.document()
        positions = [o.position for o in chip_occurrences(doc) if o.context_id in ids]
        if positions:
            cursor = QTextCursor(doc)
            cursor.beginEditBlock()
            for pos in reversed(positions):
                cursor.setPosition(pos)
                cursor.setPosition(pos + 1, QTextCursor.MoveMode.KeepAnchor)
                cursor.removeSelectedText()
            cursor.endEditBlock()
        removed = remove_records(self._editor.draft, ids)
        for record in removed:
            name = getattr(record, "name", record.label)
            self._editor.a11y.announce(f"{name} removed from the message")
        self._editor.looks.invalidate()
        self._editor.context_changed.emit()
        self._editor.draft_changed.emit()
        return removed

    def retry_upload(self, context_id: str) -> bool:
        """Retry a failed upload of an attachment; True when it started again."""
        record = self._editor.draft.records.get(context_id)
        if record is None or record.kind not in ("image", "file"):
            return False
        return self.uploads.retry(record.attachment_id)

    # -- chips: links and retry -----------------------------------------------------------------
    def pull_request_url(self, context_id: str) -> str | None:
        """The web address of the pull request a held record summarizes (http(s) only)."""
        meta = getattr(self._editor.draft.records.get(context_id), "pull_request", None)
        url = getattr(meta, "url", None)
        if not isinstance(url, str) or not url.lower().startswith(("https://", "http://")):
            return None  # a pasted record is untrusted: never hand other schemes to the desktop
        return url

    def activate_chip(self, context_id: str) -> bool:
        """What a click on a chip does: open its pull request, or retry its failed upload."""
        url = self.pull_request_url(context_id)
        if url is not None:
            self._editor.url_opener(url)
            return True
        record = self._editor.draft.records.get(context_id)
        if record is not None and record.kind in ("image", "file"):
            status = self.uploads.status(record.attachment_id)
            if status is not None and status.failed:
                return self.retry_upload(context_id)
        return False

    def click(self, point: QPoint) -> None:
        """A left click without selection at a viewport point: activate the chip there."""
        chip = self._editor.chip_at(point)
        if chip is not None:
            self._editor.activate_chip(chip[1])

    def hover(self, point: QPoint | None) -> None:
        """The pointer moved (``None`` while a button is held): a hand over a linked chip."""
        chip = self._editor.chip_at(point) if point is not None else None
        linked = chip is not None and self.pull_request_url(chip[1]) is not None
        shape = Qt.CursorShape.PointingHandCursor if linked else Qt.CursorShape.IBeamCursor
        viewport = self._editor.viewport()
        if viewport.cursor().shape() != shape:
            viewport.setCursor(shape)

    def paste_plain(self) -> None:
        """Paste as plain text (the flag survives into ``insert_from``)."""
        self._plain_paste = True
        try:
            self._editor.paste()
        finally:
            self._plain_paste = False

    # -- send ----------------------------------------------------------------------------------
    def uploads_allow_send(self) -> bool:
        """False when an upload failed (Send is refused); says so when uploads still run.

        ``last_upload_ids`` then holds the local upload ids the message must wait for.
        """
        referenced = set(self._editor.chip_counts())
        records = [r for cid, r in self._editor.draft.records.items()
                   if cid in referenced or r.kind == "image"]
        pending, failed = self.uploads.unfinished(records)
        ok, notice = send_notice(pending, failed)
        if notice is not None:
            self.notify(notice)
        if not ok:
            return False
        self.last_upload_ids = tuple(self.uploads.upload_ids(records))
        return True
