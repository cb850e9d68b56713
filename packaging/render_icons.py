"""Render the scalable app icon to the PNG sizes of the hicolor theme.

Invariants: the SVG under ``resources/icons/hicolor/scalable/apps`` is the only source; every
PNG is a square, transparent, anti-aliased render of it at exactly ``size`` x ``size`` pixels,
written to ``resources/icons/hicolor/<size>x<size>/apps/<APP_ID>.png``. Run it again after
editing the SVG:

    python packaging/render_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

APP_ID = "io.github.composerapp.Composer"
SIZES = (16, 32, 48, 64, 128, 256)
ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons" / "hicolor"


def render(svg: Path, size: int) -> QImage:
    """The SVG drawn onto a transparent ``size`` x ``size`` image."""
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"cannot read {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    svg = ICONS / "scalable" / "apps" / f"{APP_ID}.svg"
    for size in SIZES:
        target = ICONS / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not render(svg, size).save(str(target), "PNG"):
            raise SystemExit(f"cannot write {target}")
        print(target.relative_to(ICONS.parent.parent.parent))
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
