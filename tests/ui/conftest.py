"""Qt tests run offscreen (set before pytest-qt creates the application)."""

import os
from collections.abc import Iterator

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def empty_clipboard(qapp: QApplication) -> Iterator[None]:
    """Every UI test starts and ends with an empty clipboard.

    Mime data a test built in Python and left on the clipboard would be deleted by Qt after the
    interpreter finalized, crashing the run at exit; clearing it here deletes it while Python is
    alive.
    """
    QGuiApplication.clipboard().clear()
    yield
    QGuiApplication.clipboard().clear()
