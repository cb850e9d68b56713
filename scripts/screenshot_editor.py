"""Renders the composer with chips of every kind and its attachment shelf to ``docs/editor.png``
(offscreen, light theme).

.venv/bin/python scripts/screenshot_editor.py [output.png]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtGui import (  # noqa: E402
    QColor,
    QFont,
    QGuiApplication,
    QImage,
    QLinearGradient,
    QPainter,
    QPalette,
    QTextCursor,
)
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget  # noqa: E402

from composer_app.core.codecs.references import format_reference  # noqa: E402
from composer_app.core.document.model import RecordState  # noqa: E402
from composer_app.ui.composer.document_bridge import chip_occurrences  # noqa: E402
from composer_app.ui.composer.editor import ComposerEditor  # noqa: E402
from composer_app.ui.composer.shelf import AttachmentShelf  # noqa: E402
from tests.core.document import sample_records as rec  # noqa: E402


def link(record, label=None):
    return format_reference(record.kind, record.context_id, label or record.label)


def build() -> ComposerEditor:
    editor = ComposerEditor()
    font = QFont()
    font.setPixelSize(15)
    editor.setFont(font)
    palette = editor.palette()
    palette.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    palette.setColor(QPalette.ColorRole.Text, QColor("#0f172a"))
    editor.setPalette(palette)
    editor.document().setDocumentMargin(14)
    editor.resize(760, 236)
    pending = rec.image("image_b2", "mockup-v2.png")
    dead = rec.terminal("terminal_old", text="", label="Terminal 2 lines 8-9")
    merged = rec.pull_request("review-comment_pr41", "merged").model_copy(update={"label": "#41"})
    records = [*rec.every_kind(), rec.pull_request(), merged, pending, dead]
    text = (
        f"Compare {link(rec.image())} with {link(pending)} and fix the overflow in "
        f"{link(rec.mention())} as noted in {link(rec.review())} and "
        f"{link(rec.annotation())}. The failing run is {link(rec.terminal())}; "
        f"{link(dead)} is stale.\n"
        f"See {link(rec.element())}, {link(rec.file())}, {link(rec.thread())}, "
        f"{link(rec.pull_request())} after {link(merged)}, run {link(rec.skill())} and keep "
        f"{link(rec.unknown())} plus {link(rec.file('file_gone', 'missing.log'))} in mind."
    )
    editor.set_markdown(text, records)
    editor.set_record_state("image_b2", RecordState.PENDING)
    selected = next(c for c in chip_occurrences(editor.document()) if c.context_id == "file_f1")
    cursor = editor.textCursor()
    cursor.setPosition(selected.position)
    cursor.setPosition(selected.position + 1, QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    return editor


def sample_image(folder: Path, name: str, top: str, bottom: str, size: tuple[int, int]) -> Path:
    """A small gradient picture standing in for a screenshot."""
    image = QImage(size[0], size[1], QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    gradient = QLinearGradient(0, 0, size[0], size[1])
    gradient.setColorAt(0, QColor(top))
    gradient.setColorAt(1, QColor(bottom))
    painter.fillRect(image.rect(), gradient)
    painter.setPen(QColor(255, 255, 255, 170))
    for n in range(4):
        painter.drawRoundedRect(20 + n * 30, 24 + n * 22, size[0] // 2, size[1] // 4, 6, 6)
    painter.end()
    path = folder / name
    image.save(str(path))
    return path


def with_shelf(editor: ComposerEditor, folder: Path) -> QWidget:
    """The editor above its attachment shelf, laid out as in the window."""
    box = QWidget()
    box.setPalette(editor.palette())
    box.setAutoFillBackground(True)
    column = QVBoxLayout(box)
    column.setContentsMargins(0, 0, 0, 6)
    column.setSpacing(2)
    column.addWidget(editor)
    shelf = AttachmentShelf(editor, box)
    column.addWidget(shelf)
    pictures = [sample_image(folder, "wireframe.png", "#38bdf8", "#6366f1", (320, 220)),
                sample_image(folder, "error-dialog.png", "#fb7185", "#f59e0b", (220, 320))]
    cursor = editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    editor.setTextCursor(cursor)
    editor.attach_paths([str(p) for p in pictures])
    box.resize(760, 236 + shelf.height() + 8)
    return box


def main() -> None:
    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    editor = build()
    with tempfile.TemporaryDirectory() as folder:
        box = with_shelf(editor, Path(folder))
        box.show()
        for _ in range(3):
            app.processEvents()
        out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "editor.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        box.grab().save(str(out))
        QGuiApplication.clipboard().clear()
    print(out)


if __name__ == "__main__":
    main()
