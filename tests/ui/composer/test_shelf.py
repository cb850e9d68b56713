"""The attachment shelf: a real list view over the draft's images and context items."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QMimeData, QPoint, QSize, Qt, QTimer, QUrl
from PySide6.QtGui import QColor, QImage, QKeyEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QVBoxLayout, QWidget

from composer_app.core.document.segments import ChipSegment
from composer_app.ui.composer.attachments_logic import Notice, ShelfRow, UploadStatus
from composer_app.ui.composer.document_bridge import read_segments
from composer_app.ui.composer.shelf import (
    SPACING,
    THUMBNAIL_SIZE,
    AttachmentShelf,
    ask,
    badge_text,
    confirmation_box,
    remove_rect,
    transit_progress,
)
from composer_app.ui.composer.shelf_model import CONTEXT_ID_ROLE
from tests.core.document import sample_records as rec
from tests.ui.composer.attachment_support import link, make_composer, make_uploads


@pytest.fixture
def w(qtbot, tmp_path):
    return make_composer(qtbot, make_uploads(tmp_path))


@pytest.fixture
def shelf(w, qtbot):
    questions = []
    answers = []

    def confirm(notice):
        questions.append(notice)
        return answers.pop(0) if answers else False

    view = AttachmentShelf(w, confirm=confirm)
    view.questions, view.answers = questions, answers
    qtbot.addWidget(view)
    return view


def paste_image(w, tmp_path, name="shot.png"):
    path = tmp_path / name
    QImage(6, 6, QImage.Format.Format_ARGB32).save(str(path))
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(path))])
    w.insertFromMimeData(md)
    return next(r for r in w.draft.records.values() if getattr(r, "name", None) == name)


def chip_ids(w):
    return [s.context_id for s in read_segments(w.document()) if isinstance(s, ChipSegment)]


def names(shelf):
    m = shelf.shelf_model
    return [m.data(m.index(n, 0), Qt.ItemDataRole.AccessibleTextRole) for n in range(m.rowCount())]


def test_shelf_shows_images_with_names_then_mirrored_items(w, shelf, tmp_path, qtbot):
    assert shelf.isHidden()
    image = paste_image(w, tmp_path)
    w.insert_context(rec.terminal())
    assert shelf.isVisible()
    assert names(shelf) == ["Image shot.png, 1 reference",
                            f"Terminal output {rec.terminal().label or 'terminal'}, 1 reference"]
    index = shelf.shelf_model.index(0, 0)
    assert shelf.shelf_model.data(index, CONTEXT_ID_ROLE) == image.context_id
    assert shelf.shelf_model.data(index, Qt.ItemDataRole.DisplayRole) == "shot.png"
    qtbot.waitUntil(lambda: shelf.shelf_model.has_thumbnail(image.context_id), timeout=5000)
    icon = shelf.shelf_model.data(index, Qt.ItemDataRole.DecorationRole)
    assert not icon.isNull()
    assert shelf.accessibleName() == "Attachments"
    assert shelf.focusPolicy() == Qt.FocusPolicy.StrongFocus
    shelf.grab()


def test_deleting_an_image_chip_keeps_the_image_on_the_shelf(w, shelf, tmp_path):
    image = paste_image(w, tmp_path)
    w.selectAll()
    w.textCursor().removeSelectedText()
    assert chip_ids(w) == []
    assert image.context_id in w.draft.records
    assert names(shelf) == ["Image shot.png, no references"]
    shelf.setCurrentIndex(shelf.shelf_model.index(0, 0))
    shelf.setFocus()
    QApplication.sendEvent(shelf, _key(Qt.Key.Key_Delete))
    assert shelf.questions == []  # unreferenced: removed without asking
    assert image.context_id not in w.draft.records and shelf.isHidden()


def _key(key):
    return QKeyEvent(QEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier)


def test_removing_a_referenced_image_asks_then_removes_every_chip(w, shelf, tmp_path):
    image = paste_image(w, tmp_path)
    w.insertPlainText("text ")
    w.insert_context(image)  # a second chip for the same image
    w.insert_context(rec.skill())
    assert chip_ids(w).count(image.context_id) == 2
    shelf.setCurrentIndex(shelf.shelf_model.index(0, 0))
    QApplication.sendEvent(shelf, _key(Qt.Key.Key_Delete))  # answered "no"
    assert shelf.questions == [Notice("Remove shot.png from the message?",
                                      "Removing it also removes every reference.")]
    assert chip_ids(w).count(image.context_id) == 2
    shelf.answers.append(True)
    QApplication.sendEvent(shelf, _key(Qt.Key.Key_Backspace))
    assert chip_ids(w) == ["skill_s1"] and image.context_id not in w.draft.records
    assert "shot.png" not in " ".join(names(shelf))
    assert any("shot.png removed" in a for a in w.a11y.history)
    w.undo()  # the removal is one undo step: chips and the image come back
    assert chip_ids(w).count(image.context_id) == 2 and image.context_id in w.draft.records
    assert names(shelf)[0] == "Image shot.png, 2 references"


def test_removing_a_mirrored_row_removes_its_chips(w, shelf):
    w.insert_context(rec.review())
    shelf.answers.append(True)
    assert shelf.request_removal(0)
    assert chip_ids(w) == [] and not w.draft.records


def test_removing_a_screenshot_removes_its_annotation(w, shelf):
    shot = rec.image("image_shot", "shot.png")
    note = rec.annotation(shot="image_shot")
    w.insert_context(note)
    w.insert_context(shot)
    shelf.answers.append(True)
    assert shelf.request_removal(0)
    assert chip_ids(w) == [] and not w.draft.records


def test_remove_button_on_the_item(w, shelf, tmp_path, qtbot):
    paste_image(w, tmp_path)
    shelf.answers.append(True)
    rect = shelf.visualRect(shelf.shelf_model.index(0, 0))
    qtbot.mouseClick(shelf.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.right() - 8, rect.top() + 8))
    assert len(shelf.questions) == 1 and not w.draft.records


def test_confirmation_box_texts_and_default(qtbot):
    box = confirmation_box(None, Notice("Remove shot.png from the message?",
                                        "Removing it also removes every reference."))
    qtbot.addWidget(box)
    assert box.text() == "Remove shot.png from the message?"
    assert box.informativeText() == "Removing it also removes every reference."
    assert box.defaultButton() is box.escapeButton()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)


def test_ask_returns_the_users_choice(qtbot):
    def click(name):
        def run():
            box = QApplication.activeModalWidget()
            assert isinstance(box, QMessageBox)
            target = next(b for b in box.buttons() if b.objectName() == name) if name else (
                box.button(QMessageBox.StandardButton.Cancel))
            target.click()
        QTimer.singleShot(0, run)

    notice = Notice("Remove a from the message?", "Removing it also removes every reference.")
    click("remove")
    assert ask(None, notice) is True
    click("")
    assert ask(None, notice) is False


def test_old_drafts_do_not_gain_image_chips(w, shelf):
    w.set_markdown("plain old text", [rec.image()])
    assert chip_ids(w) == [] and names(shelf) == ["Image shot.png, no references"]


def test_shelf_is_reachable_with_tab(w, shelf, qtbot):
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.addWidget(w)
    layout.addWidget(shelf)
    qtbot.addWidget(box)
    w.insert_context(rec.skill())
    box.show()
    w.show()  # reparenting hid it
    qtbot.waitExposed(box)
    chain = w.nextInFocusChain()
    while chain is not shelf and not chain.focusPolicy() & Qt.FocusPolicy.TabFocus:
        chain = chain.nextInFocusChain()
    assert chain is shelf  # Tab from the composer (tab changes focus) lands on the shelf
    assert w.tabChangesFocus() and shelf.isVisibleTo(box)
    w.setParent(None)  # qtbot owns the composer and the shelf
    shelf.setParent(None)
    assert link(rec.skill()) in w.markdown()


@pytest.fixture
def boxed(w, shelf, qtbot):
    """The composer above its shelf in one window (as the app lays them out)."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.addWidget(w)
    layout.addWidget(shelf)
    box.resize(640, 300)
    box.show()
    w.show()
    qtbot.waitExposed(box)
    yield box
    w.setParent(None)  # qtbot owns the composer and the shelf
    shelf.setParent(None)
    box.deleteLater()


def test_shelf_is_one_compact_row_of_thumbnails(w, shelf, boxed, tmp_path, qtbot):
    box = boxed
    paste_image(w, tmp_path)
    assert shelf.isVisible()
    assert shelf.height() == THUMBNAIL_SIZE + 2 * SPACING  # no blank band above or below
    tile = shelf.visualRect(shelf.shelf_model.index(0, 0))
    assert tile.size() == QSize(THUMBNAIL_SIZE, THUMBNAIL_SIZE)
    assert shelf.viewport().rect().contains(tile)
    button = remove_rect(tile)
    assert tile.contains(button)  # anchored inside the tile's top-right corner
    assert tile.right() - button.right() <= 4 and button.top() - tile.top() <= 4
    w.insert_context(rec.terminal())
    card = shelf.visualRect(shelf.shelf_model.index(1, 0))
    assert card.top() == tile.top() and card.height() == THUMBNAIL_SIZE
    assert card.left() > tile.right()
    for n in range(5):
        paste_image(w, tmp_path, f"more-{n}.png")
    box.resize(260, 300)  # overflow: a scroll bar appears below the full-height tiles
    qtbot.waitUntil(lambda: shelf.height() > THUMBNAIL_SIZE + 2 * SPACING)
    assert shelf.visualRect(shelf.shelf_model.index(0, 0)).height() == THUMBNAIL_SIZE
    assert shelf.viewport().height() >= THUMBNAIL_SIZE + SPACING
    w.set_markdown("", [])
    assert shelf.isHidden()


def test_shelf_paints_the_remove_button_on_each_tile(w, shelf, boxed, tmp_path, qtbot):
    path = tmp_path / "white.png"
    white = QImage(40, 40, QImage.Format.Format_ARGB32)
    white.fill(0xFFFFFFFF)
    white.save(str(path))
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(path))])
    w.insertFromMimeData(md)
    record = next(iter(w.draft.records.values()))
    qtbot.waitUntil(lambda: shelf.shelf_model.has_thumbnail(record.context_id), timeout=5000)
    image = shelf.viewport().grab().toImage()
    tile = shelf.visualRect(shelf.shelf_model.index(0, 0))
    centre = remove_rect(tile).center()
    assert QColor(image.pixel(centre)).lightness() > 200  # the white cross
    ring = centre + QPoint(0, 5)
    assert QColor(image.pixel(ring)).lightness() < 100  # the dark disc around it
    assert QColor(image.pixel(tile.center())).lightness() > 200  # the thumbnail itself


def row(upload=None, state="resolved"):
    return ShelfRow("image_a1", "image", "shot.png", 1, True, upload, state)


def test_badges_say_the_upload_state():
    assert badge_text(row()) == "" and transit_progress(row()) is None
    done = row(UploadStatus("uploaded", 10, 10))
    assert badge_text(done) == "" and transit_progress(done) is None
    assert transit_progress(row(UploadStatus("queued", 0, 10))) == 0.0
    assert transit_progress(row(UploadStatus("uploading", 0, 10))) == 0.0
    assert transit_progress(row(UploadStatus("uploading", 4, 10))) == 0.4
    assert transit_progress(row(state="pending")) == 0.0
    failed = row(UploadStatus("failed", 0, 10))
    assert badge_text(failed) == "Retry" and transit_progress(failed) is None
    assert badge_text(row(state="unresolved")) == "Missing"
    assert row(UploadStatus("uploading", 4, 10)).accessible_name.endswith("uploading 40%")


def test_enter_on_a_failed_thumbnail_retries_and_delete_removes(w, shelf, tmp_path):
    image = paste_image(w, tmp_path)
    w.uploads._set(image.attachment_id, UploadStatus("failed", 0, 10))
    shelf.setCurrentIndex(shelf.shelf_model.index(0, 0))
    assert shelf.shelf_model.row_at(0).upload.failed
    QApplication.sendEvent(shelf, _key(Qt.Key.Key_Return))
    assert w.uploads.status(image.attachment_id).state == "local"  # started again
    shelf.answers.append(True)
    QApplication.sendEvent(shelf, _key(Qt.Key.Key_Delete))
    assert image.context_id not in w.draft.records and shelf.isHidden()


def test_upload_spinner_leaves_the_file_name_visible():
    from PySide6.QtCore import QRectF

    from composer_app.ui.composer.shelf import card_text_left, progress_ring_rect

    tile = QRectF(0, 0, 220, 56)
    ring = progress_ring_rect(False, tile)
    assert ring.right() < card_text_left(tile)  # beside the name, in the icon's place
    assert tile.contains(ring)
    image_ring = progress_ring_rect(True, QRectF(0, 0, 72, 72))
    assert image_ring.center() == QRectF(0, 0, 72, 72).center()  # an image: in its middle


def test_enter_or_space_on_a_shelf_item_opens_it_like_a_click(w, shelf, qtbot):
    opened = []
    w.chip_opener = lambda record: opened.append(record.context_id) or True
    w.insert_context(rec.skill())
    shelf.refresh()
    shelf.setCurrentIndex(shelf.model().index(0, 0))
    qtbot.keyClick(shelf, Qt.Key.Key_Return)
    qtbot.keyClick(shelf, Qt.Key.Key_Space)
    assert opened == [rec.skill().context_id] * 2
    assert link(rec.skill()) in w.markdown()  # opening changed nothing
