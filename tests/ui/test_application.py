"""The Qt application: its identity and icon, and the clipboard it leaves behind at exit."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from composer_app import APP_ID
from composer_app.ui.application import create_application, icons_dir, release_clipboard


def test_application_identity_and_icon(qtbot: QtBot) -> None:
    app = create_application()
    assert app is QApplication.instance()
    assert QGuiApplication.desktopFileName() == APP_ID
    assert (icons_dir() / "hicolor" / "48x48" / "apps" / f"{APP_ID}.png").exists()
    assert not app.windowIcon().isNull()


def test_release_clipboard_keeps_the_text_only(qtbot: QtBot) -> None:
    from PySide6.QtCore import QMimeData

    data = QMimeData()
    data.setText("see [notes](context://file/x)")
    data.setData("application/x-example", b"1")
    QGuiApplication.clipboard().setMimeData(data)
    release_clipboard()
    now = QGuiApplication.clipboard().mimeData()
    assert now.text() == "see [notes](context://file/x)"
    assert not now.hasFormat("application/x-example")
