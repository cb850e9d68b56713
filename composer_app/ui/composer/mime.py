"""MIME translation of the composer: ``QMimeData`` in and out, and a swappable clipboard port.

Invariants: a copy writes ``text/plain`` (canonical Markdown, never U+FFFC) and, when the selection
references a held record and the fragment encodes, the fragment under ``CLIPBOARD_MIME`` plus the
``text/html`` carrier (never ``text/markdown``); every copy returns a fresh, Qt-created
``QMimeData`` (``fresh_mime_data``: safe to leave on the clipboard at exit), and no
reference to clipboard-owned data outlives the call that read it; reading an offer never touches
the disk (it runs on every drag move), and reading never raises on hostile data.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QClipboard, QGuiApplication, QStandardItem, QStandardItemModel

from composer_app.core.codecs.clipboard import (
    encode_clipboard_html,
    encode_fragment,
    selected_fragment,
)
from composer_app.core.contracts.clipboard import (
    ACCEPTED_CLIPBOARD_MIMES,
    CLIPBOARD_MIME,
    FragmentSource,
)
from composer_app.ui.composer.paste_logic import (
    GNOME_COPIED_FILES,
    MOZ_NATIVE_IMAGE,
    ORIGINAL_IMAGE_MIMES,
    ClipboardOffer,
    decode_gnome_copied_files,
    local_path_of_url,
    normalize_text,
)

_log = logging.getLogger(__name__)
QT_IMAGE_MIME = "application/x-qt-image"


def fresh_mime_data() -> QMimeData:
    """An empty ``QMimeData`` created on the C++ side, safe to hand to the clipboard.

    A ``QMimeData`` constructed from Python is a binding subclass whose destructor calls back
    into the interpreter; the clipboard keeps the last copy until the application is torn down
    and then deletes it after Python has finalized, which crashes the process at exit. One made
    by Qt itself (an item model's drag data, emptied) has no such destructor, so copies stay on
    the clipboard after quitting without taking the process down.
    """
    model = QStandardItemModel()
    model.appendRow(QStandardItem())
    md = model.mimeData([model.index(0, 0)])
    md.clear()
    return md


def copy_mime_data(markdown: str, records: Mapping[str, Any] | Iterable[Any],
                   source: FragmentSource, html: str | None = None) -> QMimeData:
    """The three formats of a copy (docs/contract.md §9.3), as a fresh ``QMimeData``.

    ``html`` is the rendered rich text (the transcript's), used inside the carrier when given.
    """
    markdown = normalize_text(markdown)
    md = fresh_mime_data()
    md.setText(markdown)
    fragment = selected_fragment(markdown, records, source)
    fragment_json = encode_fragment(fragment) if fragment is not None else None
    if fragment_json is not None:
        md.setData(CLIPBOARD_MIME, fragment_json.encode("utf-8"))
        md.setHtml(encode_clipboard_html(markdown, fragment_json, html))
    return md


def _local_paths(md: QMimeData) -> tuple[tuple[str, ...], bool]:
    paths: list[str] = []
    foreign = False
    if md.hasUrls():
        for url in md.urls():
            if url.isLocalFile() and url.toLocalFile():
                paths.append(url.toLocalFile())
            else:
                foreign = True
    if not paths and md.hasFormat(GNOME_COPIED_FILES):
        for text in decode_gnome_copied_files(bytes(md.data(GNOME_COPIED_FILES).data())):
            url = QUrl(text)
            path = url.toLocalFile() if url.isLocalFile() else local_path_of_url(text)
            if path:
                paths.append(path)
    return tuple(paths), foreign


def read_offer(md: QMimeData) -> ClipboardOffer:
    """Everything the paste decision needs, copied out of ``md`` (no disk access)."""
    formats = tuple(md.formats())
    fragment_raw = None
    for name in ACCEPTED_CLIPBOARD_MIMES:
        if name in formats:
            fragment_raw = bytes(md.data(name).data())
            break
    image_bytes = image_mime = None
    for name in ORIGINAL_IMAGE_MIMES:
        if name in formats:
            data = bytes(md.data(name).data())
            if data:
                image_bytes, image_mime = data, name
                break
    paths, foreign = _local_paths(md)
    return ClipboardOffer(
        formats=formats,
        text=md.text() if md.hasText() else None,
        html=md.html() if md.hasHtml() else None,
        fragment_raw=fragment_raw,
        file_paths=paths,
        foreign_urls=foreign,
        image_bytes=image_bytes,
        image_mime=image_mime,
        has_image=md.hasImage() or QT_IMAGE_MIME in formats,
        moz_native_image=MOZ_NATIVE_IMAGE in formats,
    )


def can_accept(md: QMimeData) -> bool:
    """True when the composer can take ``md`` (drag acceptance, Paste enabled); no disk access."""
    formats = md.formats()
    if any(name in formats for name in ACCEPTED_CLIPBOARD_MIMES):
        return True
    if md.hasImage() or any(name in formats for name in ORIGINAL_IMAGE_MIMES):
        return True
    if md.hasUrls():
        return all(url.isLocalFile() for url in md.urls()) or md.hasText()
    return md.hasText() or md.hasHtml() or GNOME_COPIED_FILES in formats


def describe_formats(md: QMimeData) -> str:
    """The formats of ``md`` for the log (pastes that match nothing)."""
    return ", ".join(md.formats()) or "(none)"


class ClipboardPort:
    """The system clipboard behind a tiny interface, so tests can swap it.

    ``put`` hands ownership of ``md`` to the clipboard (never touch it afterwards); ``offer`` reads
    the current content into a plain ``ClipboardOffer`` immediately.
    """

    def __init__(self, clipboard: QClipboard | None = None) -> None:
        self._clipboard = clipboard

    @property
    def clipboard(self) -> QClipboard:
        """The Qt clipboard (the application's unless one was given)."""
        return self._clipboard or QGuiApplication.clipboard()

    def put(self, md: QMimeData) -> None:
        """Give ``md`` to the clipboard (ownership moves with it)."""
        self.clipboard.setMimeData(md)

    def offer(self) -> ClipboardOffer | None:
        """The current clipboard content, read now; ``None`` when it is empty."""
        md = self.clipboard.mimeData()
        if md is None:
            return None
        try:
            return read_offer(md)
        except Exception:  # hostile or vanished data never breaks the composer
            _log.exception("could not read the clipboard")
            return None
