"""Image paste, large-text folding, plain paste and hostile clipboard data, on real files."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QMimeData, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QGuiApplication, QImage
from PySide6.QtWidgets import QApplication, QMenu

from composer_app.core.contracts.clipboard import CLIPBOARD_MIME
from composer_app.core.document.model import RecordState
from composer_app.core.document.segments import ChipSegment
from composer_app.core.limits import LARGE_PASTE_CHARS
from composer_app.ui.composer.document_bridge import read_segments
from composer_app.ui.composer.image_paste import (
    PastedFiles,
    default_pasted_dir,
    encode_png,
)
from composer_app.ui.composer.shelf import AttachmentShelf
from composer_app.ui.workers import BackgroundRunner
from tests.core.document import sample_records as rec
from tests.ui.composer.attachment_support import (
    clear_clipboard,
    link,
    make_composer,
    make_uploads,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def _clean_clipboard(qapp):
    clear_clipboard()
    yield
    clear_clipboard()


@pytest.fixture
def w(qtbot, tmp_path):
    return make_composer(qtbot, make_uploads(tmp_path))


def chips(w):
    return [s for s in read_segments(w.document()) if isinstance(s, ChipSegment)]


def image_mime(*, png_bytes: bytes | None = None) -> QMimeData:
    md = QMimeData()
    image = QImage(4, 4, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.red)
    md.setImageData(image)
    if png_bytes is not None:
        md.setData("image/png", png_bytes)
    return md


def test_image_data_is_encoded_as_png_with_a_neutral_name(w, qtbot):
    shelf = AttachmentShelf(w)
    qtbot.addWidget(shelf)
    QGuiApplication.clipboard().setMimeData(image_mime())
    w.paste()
    [chip] = chips(w)
    record = w.draft.records[chip.context_id]
    assert record.kind == "image" and record.name == "pasted-image-1.png"
    assert record.mime_type == "image/png"
    path = Path(w.uploads.source_path(record.attachment_id))
    assert path.parent == w.uploads.files.directory
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC) and record.size_bytes == len(data)
    assert w.draft.state_of(chip.context_id) is RecordState.RESOLVED
    assert w.markdown().strip() == link(record)  # no stray text
    assert shelf.shelf_model.rowCount() == 1


def test_original_png_bytes_are_kept_as_they_came(w):
    original = encode_png(QImage(7, 3, QImage.Format.Format_RGB32)) + b"trailing-marker"
    QGuiApplication.clipboard().setMimeData(image_mime(png_bytes=original))
    w.paste()
    [record] = w.draft.records.values()
    assert Path(w.uploads.source_path(record.attachment_id)).read_bytes() == original
    assert record.size_bytes == len(original)


def test_original_jpeg_bytes_keep_their_type(w):
    md = QMimeData()
    md.setData("image/jpeg", b"\xff\xd8\xff\xe0jpeg-bytes")
    w.insertFromMimeData(md)
    [record] = w.draft.records.values()
    assert record.mime_type == "image/jpeg" and record.name.endswith(".jpg")


def test_encoding_runs_on_a_worker_thread_and_the_chip_waits(qtbot, tmp_path):
    runner = BackgroundRunner()
    seen_threads = []

    def spy(job, done):
        def wrapped():
            seen_threads.append(threading.current_thread() is threading.main_thread())
            return job()
        runner(wrapped, done)

    w = make_composer(qtbot, make_uploads(tmp_path, runner=spy))
    w.insertFromMimeData(image_mime())
    [chip] = chips(w)
    assert w.draft.state_of(chip.context_id) is RecordState.PENDING
    qtbot.waitUntil(lambda: w.draft.state_of(chip.context_id) is RecordState.RESOLVED,
                    timeout=5000)
    assert seen_threads == [False]
    record = w.draft.records[chip.context_id]
    assert Path(w.uploads.source_path(record.attachment_id)).read_bytes().startswith(PNG_MAGIC)


def test_generated_names_never_repeat(tmp_path):
    files = PastedFiles(tmp_path / "p", runner=lambda job, done: done(job()))
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "pasted-image-1.png").write_bytes(b"taken")
    assert files.image_path(None, "image/png").name == "pasted-image-2.png"
    assert files.image_path(None, "image/png").name == "pasted-image-3.png"
    assert files.image_path(b"x", "image/jpeg").name == "pasted-image-4.jpg"


def test_pasted_files_live_under_the_cache_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_pasted_dir() == tmp_path / "xdg" / "ComposerApp" / "pasted"


def test_large_text_is_folded_into_pasted_text_txt(w):
    w.insertPlainText("before ")
    text = "line\r\n" * (LARGE_PASTE_CHARS // 4)
    md = QMimeData()
    md.setText(text)
    w.insertFromMimeData(md)
    [chip] = chips(w)
    record = w.draft.records[chip.context_id]
    assert (record.kind, record.name, record.mime_type) == ("file", "pasted-text.txt",
                                                            "text/plain")
    stored = Path(w.uploads.source_path(record.attachment_id))
    assert stored.read_text() == text.replace("\r\n", "\n")
    assert record.size_bytes == stored.stat().st_size
    assert w.markdown().startswith("before [pasted-text.txt](t3-context://v1/file/")
    w.undo()
    assert w.markdown() == "before "


def test_ctrl_shift_v_pastes_plain_text_only(w, qtbot):
    md = QMimeData()
    md.setText(f"plain {link(rec.terminal())}")
    md.setData(CLIPBOARD_MIME, b'{"version":1,"source":{"environmentId":"e"},"records":[]}')
    md.setImageData(QImage(4, 4, QImage.Format.Format_ARGB32))
    QGuiApplication.clipboard().setMimeData(md)
    qtbot.keyClick(w, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert w.markdown() == f"plain {link(rec.terminal())}"
    assert not w.draft.records and not w.draft.shelf


def test_plain_paste_of_large_text_also_folds(w):
    md = QMimeData()
    md.setText("y" * LARGE_PASTE_CHARS)
    QGuiApplication.clipboard().setMimeData(md)
    w.attachments.paste_plain()
    assert [r.name for r in w.draft.records.values()] == ["pasted-text.txt"]


HOSTILE_FRAGMENTS = [
    b"not json",
    b"\xff\xfe\x00",
    b'{"version": 2, "source": {"environmentId": "e"}, "records": []}',
    b'{"version": 1, "source": {"environmentId": "e"}, "records": "x"}',
    json.dumps({"version": 1, "source": {"environmentId": "e"},
                "records": [{"version": 1, "contextId": "image_x", "kind": "image",
                             "label": "forged"}] * 3}).encode(),
    json.dumps({"version": 1, "source": {"environmentId": "e"},
                "records": [{}] * 201}).encode(),
    json.dumps({"version": 1, "source": {"environmentId": "e"}, "records": [
        {"version": 1, "contextId": "ctx_u", "kind": "sticker", "label": "s", "payload": 1}]}
    ).encode(),
    b"NaN",
    b"[" * 5000,
]


@pytest.mark.parametrize("raw", HOSTILE_FRAGMENTS)
def test_hostile_fragments_fall_back_to_text_or_unresolved_chips(w, raw):
    text = f"t {link(rec.image('image_x', 'forged'))} \ufffc [s](t3-context://v1/sticker/ctx_u)"
    md = QMimeData()
    md.setText(text)
    md.setData(CLIPBOARD_MIME, raw)
    md.setHtml('<pre data-t3-context-fragment="%7B">x</pre>')
    w.insertFromMimeData(md)
    assert "\ufffc" not in w.markdown()
    assert len(chips(w)) == 2
    for chip in chips(w):
        look = w.looks.look(chip.kind, chip.context_id, chip.label)
        record = w.draft.records.get(chip.context_id)
        assert look.state in ("unresolved", "resolved")
        if chip.kind == "image":
            assert record is None and look.state == "unresolved"


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=st.text(max_size=80), raw=st.binary(max_size=80), html=st.text(max_size=80))
def test_random_clipboard_data_never_crashes_or_leaks_ufffc(w, text, raw, html):
    w.set_markdown("")
    md = QMimeData()
    md.setText(text)
    md.setData(CLIPBOARD_MIME, raw)
    md.setHtml(html)
    w.insertFromMimeData(md)
    assert "\ufffc" not in w.markdown()


def test_pasted_data_over_the_limits_is_refused_with_a_notice(w, monkeypatch):
    from composer_app.ui.composer.attachments_logic import UploadLimits

    monkeypatch.setattr(w.uploads, "limits", lambda: UploadLimits(image_bytes=4, file_bytes=10))
    md = QMimeData()
    md.setData("image/png", b"\x89PNG-more-than-four")
    w.insertFromMimeData(md)
    assert not w.draft.records
    assert w.notices[-1] == ("Couldn't attach pasted image",
                             "It is larger than the 4 bytes this server accepts.")
    text = QMimeData()
    text.setText("q" * LARGE_PASTE_CHARS)
    w.insertFromMimeData(text)
    assert not w.draft.records and w.markdown() == ""
    assert w.notices[-1][0] == "Couldn't attach pasted-text.txt"


def run_context_menu(w, qtbot, action_text):
    """Open the composer's context menu and trigger ``action_text``; returns its actions."""
    seen = {}

    def pick():
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        seen["actions"] = [(a.text(), a.isEnabled()) for a in menu.actions() if a.text()]
        action = next(a for a in menu.actions() if a.text() == action_text)
        menu.close()
        action.trigger()

    QTimer.singleShot(0, pick)
    point = w.viewport().rect().center()
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point,
                              w.viewport().mapToGlobal(point))
    QApplication.sendEvent(w.viewport(), event)
    qtbot.waitUntil(lambda: "actions" in seen)
    return seen["actions"]


def test_context_menu_paste_as_plain_text(w, qtbot):
    md = QMimeData()
    md.setText(f"plain {link(rec.terminal())}")
    md.setData(CLIPBOARD_MIME, json.dumps({
        "version": 1, "source": {"environmentId": "env_other"},
        "records": [{"version": 1, "kind": "terminal", "contextId": "terminal_t1",
                     "label": "Terminal 1 lines 3-4", "terminalId": "t1",
                     "terminalLabel": "Terminal 1", "lineStart": 3, "lineEnd": 4,
                     "text": "$ ls"}]}).encode())
    md.setImageData(QImage(4, 4, QImage.Format.Format_ARGB32))
    QGuiApplication.clipboard().setMimeData(md)
    actions = run_context_menu(w, qtbot, "Paste as plain text")
    names = [name for name, _enabled in actions]
    plain_at = names.index("Paste as plain text")
    assert names[plain_at - 1].replace("&", "").startswith("Paste")  # right after Paste
    assert dict(actions)["Paste as plain text"]
    # Text only: the fragment's record is not imported, the image is not attached.
    assert w.markdown() == f"plain {link(rec.terminal())}"
    assert not w.draft.records and not w.draft.shelf
    w.undo()
    assert w.markdown() == ""  # one undo step


def test_context_menu_plain_paste_is_disabled_without_text(w, qtbot):
    QGuiApplication.clipboard().clear()
    actions = run_context_menu(w, qtbot, "Paste as plain text")
    assert dict(actions)["Paste as plain text"] is False
    assert w.markdown() == ""
