"""``ImageViewer``: an in-app viewer for an image's real bytes (zoom, fit, copy, save).

Invariants: the viewer shows the bytes it was given and saves exactly those bytes (no
re-encoding); bytes that are not an image show a message instead of failing; zoom follows
``viewer_logic.zoom_step`` and the label is resized, never the pixmap copied, so an 8x zoom of a
large image costs no extra memory.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSaveFile, QSize, Qt
from PySide6.QtGui import QGuiApplication, QImage, QKeySequence, QPixmap, QShortcut, QWheelEvent
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from composer_app.ui.viewers.viewer_logic import fit_factor, zoom_step

VIEWER_OBJECT_NAME = "imageViewer"


class _ZoomArea(QScrollArea):
    """A scroll area where Ctrl+wheel zooms."""

    def __init__(self, viewer: ImageViewer) -> None:
        super().__init__(viewer)
        self._viewer = viewer

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self._viewer.zoom_by(1 if event.angleDelta().y() > 0 else -1)
            event.accept()
            return
        super().wheelEvent(event)


class ImageViewer(QDialog):
    """Shows one image; see the module docstring."""

    def __init__(self, data: bytes, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(VIEWER_OBJECT_NAME)
        self.setWindowTitle(name)
        self.setAccessibleName(f"Image {name}")
        self.data = bytes(data)
        self.name = name
        self.image = QImage.fromData(self.data)
        self.zoom = 1.0
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for key, text, slot, tip in (
            ("zoomOut", "−", lambda: self.zoom_by(-1), "Zoom out (Ctrl+-)"),
            ("zoomIn", "+", lambda: self.zoom_by(1), "Zoom in (Ctrl++)"),
            ("fit", "Fit", self.fit, "Fit to the window (F)"),
            ("actualSize", "100 %", lambda: self.set_zoom(1.0), "Actual size (Ctrl+0)"),
            ("copyImage", "Copy", self.copy, "Copy the image (Ctrl+C)"),
            ("saveImage", "Save…", self.save, "Save the image (Ctrl+S)"),
        ):
            button = QPushButton(text, self)
            button.setObjectName(key)
            button.setToolTip(tip)
            button.setAccessibleName(tip.split(" (")[0])
            button.clicked.connect(slot)
            bar.addWidget(button)
            self.buttons[key] = button
        bar.addStretch(1)
        self.scale_label = QLabel(self)
        bar.addWidget(self.scale_label)
        layout.addLayout(bar)
        self.picture = QLabel(self)
        self.picture.setObjectName("imageViewerPicture")
        self.picture.setScaledContents(True)
        self.area = _ZoomArea(self)
        self.area.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.area.setWidget(self.picture)
        layout.addWidget(self.area, 1)
        for sequence, slot in (
            (QKeySequence.StandardKey.ZoomIn, lambda: self.zoom_by(1)),
            (QKeySequence("Ctrl+="), lambda: self.zoom_by(1)),
            (QKeySequence.StandardKey.ZoomOut, lambda: self.zoom_by(-1)),
            (QKeySequence("Ctrl+0"), lambda: self.set_zoom(1.0)),
            (QKeySequence("F"), self.fit),
            (QKeySequence.StandardKey.Copy, self.copy),
            (QKeySequence.StandardKey.Save, self.save),
        ):
            QShortcut(QKeySequence(sequence), self, slot)
        if self.image.isNull():
            self.picture.setScaledContents(False)
            self.picture.setText("This image could not be shown.")
            self.picture.adjustSize()
            for key in ("zoomOut", "zoomIn", "fit", "actualSize", "copyImage"):
                self.buttons[key].setEnabled(False)
        else:
            self.picture.setPixmap(QPixmap.fromImage(self.image))
            self.picture.setAccessibleName(f"{name}, {self.image.width()} by "
                                           f"{self.image.height()} pixels")
        self.resize(900, 700)
        self._apply()

    @property
    def valid(self) -> bool:
        """True when the bytes are an image."""
        return not self.image.isNull()

    def set_zoom(self, factor: float) -> None:
        """Show the image at ``factor`` (1.0 is actual size)."""
        self.zoom = factor
        self._apply()

    def zoom_by(self, direction: int) -> None:
        """One zoom step in (``direction`` > 0) or out."""
        self.set_zoom(zoom_step(self.zoom, direction))

    def fit(self) -> None:
        """Fit the whole image in the window (never above 100 %)."""
        view = self.area.viewport().size()
        self.set_zoom(fit_factor(self.image.width(), self.image.height(), view.width() - 2,
                                 view.height() - 2))

    def _apply(self) -> None:
        if not self.valid:
            return
        size = QSize(max(1, round(self.image.width() * self.zoom)),
                     max(1, round(self.image.height() * self.zoom)))
        self.picture.resize(size)
        self.scale_label.setText(f"{round(self.zoom * 100)} %")

    def copy(self) -> None:
        """Put the image on the clipboard."""
        if self.valid:
            QGuiApplication.clipboard().setImage(self.image)

    def save_to(self, path: str | Path) -> bool:
        """Write the original bytes to ``path`` atomically; False when that failed."""
        target = QSaveFile(str(path))
        if not target.open(QSaveFile.OpenModeFlag.WriteOnly):
            return False
        target.write(self.data)
        return bool(target.commit())

    def save(self) -> bool:
        """Ask where to save, then save the original bytes there."""
        path, _ = QFileDialog.getSaveFileName(self, "Save image", self.name)
        return bool(path) and self.save_to(path)
