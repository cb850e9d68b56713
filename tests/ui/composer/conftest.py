import pytest
from PySide6.QtGui import QGuiApplication

from composer_app.ui.composer.editor import ComposerEditor


@pytest.fixture(autouse=True)
def empty_clipboard(qapp):
    """Every test starts and ends with an empty clipboard.

    Mime data a test built in Python and left on the clipboard would be deleted by Qt after the
    interpreter finalized, crashing the run at exit; clearing it here deletes it while Python is
    alive.
    """
    QGuiApplication.clipboard().clear()
    yield
    QGuiApplication.clipboard().clear()


@pytest.fixture
def composer(qtbot):
    w = ComposerEditor()
    qtbot.addWidget(w)
    w.resize(640, 240)
    w.show()
    qtbot.waitExposed(w)
    w.setFocus()
    return w
