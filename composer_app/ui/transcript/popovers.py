"""Details popovers (terminal excerpts, elements, review comments, preview annotations) and the
media viewer for image and video chips.

Invariants: a popover shows exactly the ``Details`` the presentation registry produced — nothing is
fetched; it closes on Escape or a click outside; a pull-request link opens only through the opener
the view supplies. The media viewer shows bytes the app already holds (obtained through the app's
signed-asset callback) and never loads a URL itself.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFont, QFontDatabase, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QFrame,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from composer_app.ui.composer.chip_style import tone
from composer_app.ui.transcript.presentation import Details


class DetailsPopover(QFrame):
    """A small popup card with a title, labelled rows and a read-only body."""

    def __init__(
        self,
        details: Details,
        parent: QWidget | None = None,
        *,
        dark: bool = False,
        open_link: Callable[[str], object] | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.details = details
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("detailsPopover")
        fill, border, text = tone(details.tone, dark=dark)
        self.setStyleSheet(
            f"#detailsPopover {{ border: 1px solid {border}; border-radius: 8px; }}"
            f" #popoverTitle {{ color: {text}; background: {fill};"
            " padding: 6px 8px; border-radius: 6px; font-weight: 600; }"
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        self.title = QLabel(details.title)
        self.title.setObjectName("popoverTitle")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        if details.rows:
            form = QFormLayout()
            form.setHorizontalSpacing(12)
            for label, value in details.rows:
                field = QLabel(value)
                field.setWordWrap(True)
                field.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                form.addRow(f"{label}:", field)
            layout.addLayout(form)
        self.body: QPlainTextEdit | None = None
        if details.body:
            self.body = QPlainTextEdit(details.body)
            self.body.setReadOnly(True)
            if details.monospace:
                self.body.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
            self.body.setMaximumHeight(220)
            layout.addWidget(self.body)
        self.link_button: QPushButton | None = None
        if details.link and open_link is not None:
            self.link_button = QPushButton("Open pull request")
            link = details.link
            self.link_button.clicked.connect(lambda: open_link(link))
            layout.addWidget(self.link_button, alignment=Qt.AlignmentFlag.AlignRight)
        self.setMinimumWidth(320)
        self.setMaximumWidth(560)

    def show_at(self, global_pos: QPoint) -> None:
        """Show the card just below ``global_pos``."""
        self.adjustSize()
        self.move(global_pos + QPoint(0, 8))
        self.show()


class MediaViewer(QDialog):
    """Shows one image (or a video's name with an Open button) from bytes the app supplied."""

    def __init__(
        self,
        name: str,
        data: bytes | None,
        parent: QWidget | None = None,
        *,
        open_asset: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(name)
        layout = QVBoxLayout(self)
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        pixmap = QPixmap()
        self.loaded = bool(data) and pixmap.loadFromData(data or b"")
        if self.loaded:
            screen = self.screen().availableGeometry().size() * 0.8
            self.picture.setPixmap(
                pixmap.scaled(
                    screen,
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
                if pixmap.width() > screen.width() or pixmap.height() > screen.height()
                else pixmap
            )
        else:
            self.picture.setText(f"{name}\nThis preview is not available here.")
            font = QFont(self.picture.font())
            font.setPointSizeF(max(8.0, font.pointSizeF() * 1.1))
            self.picture.setFont(font)
        layout.addWidget(self.picture)
        self.open_button: QPushButton | None = None
        if open_asset is not None:
            self.open_button = QPushButton("Open")
            self.open_button.clicked.connect(open_asset)
            layout.addWidget(self.open_button, alignment=Qt.AlignmentFlag.AlignRight)
