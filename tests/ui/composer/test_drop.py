"""Drag and drop of local files onto the composer, with synthetic events on the viewport."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QImage
from PySide6.QtWidgets import QApplication

from composer_app.core.document.segments import ChipSegment
from composer_app.core.limits import MAX_ATTACHMENTS
from composer_app.ui.composer.attachments_logic import UploadLimits
from composer_app.ui.composer.document_bridge import read_segments
from tests.ui.composer.attachment_support import make_composer, make_uploads

COPY = Qt.DropAction.CopyAction
LEFT = Qt.MouseButton.LeftButton
NONE = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def w(qtbot, tmp_path):
    return make_composer(qtbot, make_uploads(tmp_path))


CORNER = QPointF(5, 5)


def drop(w, md, point=CORNER):
    """Enter, move and drop on the viewport; returns (enter accepted, move accepted)."""
    viewport = w.viewport()
    enter = QDragEnterEvent(point, COPY, md, LEFT, NONE)
    QApplication.sendEvent(viewport, enter)
    move = QDragMoveEvent(point, COPY, md, LEFT, NONE)
    QApplication.sendEvent(viewport, move)
    accepted = (enter.isAccepted(), move.isAccepted())
    if all(accepted):
        QApplication.sendEvent(viewport, QDropEvent(point, COPY, md, LEFT, NONE))
    return accepted


def urls(*paths):
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return md


def test_dropped_files_become_chips_in_order_never_file_urls(w, tmp_path):
    a = tmp_path / "notes.txt"
    a.write_text("hello")
    b = tmp_path / "shot.png"
    QImage(4, 4, QImage.Format.Format_ARGB32).save(str(b))
    assert drop(w, urls(a, b)) == (True, True)
    segs = [s for s in read_segments(w.document()) if isinstance(s, ChipSegment)]
    assert [(s.kind, s.label) for s in segs] == [("file", "notes.txt"), ("image", "shot.png")]
    assert "file://" not in w.toPlainText() and "file://" not in w.markdown()
    assert list(w.draft.shelf) == [segs[1].context_id]
    w.undo()  # one drop is one undo step
    assert w.markdown() == ""


def test_drop_lands_at_the_drop_point(w, tmp_path):
    w.set_markdown("first line\nsecond line")
    f = tmp_path / "x.txt"
    f.write_text("x")
    rect = w.cursorRect(w.textCursor())  # the caret is at the end after loading
    assert drop(w, urls(f), QPointF(rect.center())) == (True, True)
    assert w.markdown().startswith("first line\nsecond line ")
    assert w.markdown().endswith("](t3-context://v1/file/" + next(iter(w.draft.records)) + ") ")


def test_folders_and_unreadable_files_are_refused_with_a_notice(w, tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    missing = tmp_path / "gone.txt"
    ok = tmp_path / "ok.txt"
    ok.write_text("ok")
    assert drop(w, urls(folder, missing, ok)) == (True, True)
    assert [r.name for r in w.draft.records.values()] == ["ok.txt"]
    assert [t for t, _ in w.notices] == ["Couldn't attach folder", "Couldn't attach gone.txt"]


def test_size_limit_and_attachment_cap(w, tmp_path, monkeypatch):
    monkeypatch.setattr(w.uploads, "limits", lambda: UploadLimits(file_bytes=3))
    big = tmp_path / "big.txt"
    big.write_text("four")
    assert drop(w, urls(big)) == (True, True)
    assert not w.draft.records
    assert w.notices[-1] == ("Couldn't attach big.txt",
                             "It is larger than the 3 bytes this server accepts.")
    monkeypatch.undo()
    files = []
    for n in range(MAX_ATTACHMENTS + 2):
        p = tmp_path / f"f{n}.txt"
        p.write_text("x")
        files.append(p)
    drop(w, urls(*files))
    assert len(w.draft.records) == MAX_ATTACHMENTS
    assert w.notices[-1][0] == "A message holds at most 8 attachments"


def test_remote_urls_are_never_fetched_as_files(w):
    md = QMimeData()
    md.setUrls([QUrl("https://example.com/a.png")])
    assert drop(w, md) == (True, True)
    assert not w.draft.records
    assert w.markdown() == "https://example.com/a.png"
