import pytest

from composer_app.ui.composer.editor import ComposerEditor


@pytest.fixture
def composer(qtbot):
    w = ComposerEditor()
    qtbot.addWidget(w)
    w.resize(640, 240)
    w.show()
    qtbot.waitExposed(w)
    w.setFocus()
    return w
