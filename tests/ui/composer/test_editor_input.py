"""Key dispatch: interceptors see keys first; the composer's own keys follow."""

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

NO_MODIFIER = Qt.KeyboardModifier.NoModifier


class Popup:
    """A stand-in for a completion popup: takes Enter, Escape and ``@`` while open."""

    def __init__(self) -> None:
        self.open = True
        self.seen: list[int] = []

    def intercept_key(self, event: QKeyEvent) -> bool:
        self.seen.append(event.key())
        return self.open and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Escape, Qt.Key.Key_At)

    def wants_shortcut(self, event: QKeyEvent) -> bool:
        return self.open and event.key() == Qt.Key.Key_Escape


def test_an_interceptor_takes_keys_before_the_composer(composer, qtbot):
    popup = Popup()
    composer.add_key_interceptor(popup)
    sent = []
    composer.send_requested.connect(lambda text, _ctx: sent.append(text))
    qtbot.keyClicks(composer, "hi")
    qtbot.keyClicks(composer, "@")
    qtbot.keyClick(composer, Qt.Key.Key_Return)
    assert composer.markdown() == "hi" and sent == []
    assert popup.seen[-2:] == [Qt.Key.Key_At, Qt.Key.Key_Return]
    popup.open = False
    qtbot.keyClick(composer, Qt.Key.Key_Return)
    assert sent == ["hi"]


def test_an_interceptor_can_keep_a_window_shortcut(composer):
    popup = Popup()
    escape = QKeyEvent(QEvent.Type.ShortcutOverride, Qt.Key.Key_Escape, NO_MODIFIER)
    QApplication.sendEvent(composer, escape)
    assert not escape.isAccepted()
    composer.add_key_interceptor(popup)
    escape = QKeyEvent(QEvent.Type.ShortcutOverride, Qt.Key.Key_Escape, NO_MODIFIER)
    QApplication.sendEvent(composer, escape)
    assert escape.isAccepted()


def test_a_removed_interceptor_sees_nothing(composer, qtbot):
    popup = Popup()
    composer.add_key_interceptor(popup)
    composer.add_key_interceptor(popup)  # added once
    composer.remove_key_interceptor(popup)
    qtbot.keyClicks(composer, "@")
    assert popup.seen == [] and composer.markdown() == "@"
