"""Key dispatch: interceptors see keys first; the composer's own keys follow."""

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QMenu

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


def test_the_undo_and_redo_keys_go_through_the_editor_which_marks_them(composer, qtbot):
    qtbot.keyClicks(composer, "hello")
    marked: list[bool] = []
    composer.document().contentsChange.connect(
        lambda *_: marked.append(composer.performing_undo_redo))
    qtbot.keySequence(composer, QKeySequence.StandardKey.Undo)
    assert composer.toPlainText() == ""
    qtbot.keySequence(composer, QKeySequence.StandardKey.Redo)
    assert composer.toPlainText() == "hello"
    qtbot.keySequence(composer, QKeySequence.StandardKey.Undo)
    qtbot.keyClick(composer, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)  # as on Windows
    assert composer.toPlainText() == "hello"
    assert marked and all(marked)
    assert not composer.performing_undo_redo


def test_the_context_menus_undo_goes_through_the_editor(composer, qtbot):
    qtbot.keyClicks(composer, "hello")
    marked: list[bool] = []
    composer.document().contentsChange.connect(
        lambda *_: marked.append(composer.performing_undo_redo))

    def choose_undo() -> None:
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        undo = next(a for a in menu.actions() if a.objectName() == "edit-undo")
        menu.close()
        undo.trigger()

    QTimer.singleShot(50, choose_undo)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, QPoint(5, 5),
                              composer.mapToGlobal(QPoint(5, 5)))
    composer.contextMenuEvent(event)
    assert composer.toPlainText() == ""
    assert marked and all(marked)
