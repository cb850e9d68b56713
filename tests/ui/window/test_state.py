"""What the window remembers between runs: geometry, the Sources dock, the splitters and the last
thread survive re-creating the window; missing or empty saved values give the defaults."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget
from pytestqt.qtbot import QtBot

from composer_app.ui.window.main_window import MainWindow
from composer_app.ui.window.state import DEFAULT_SIZE, WINDOW_SETTINGS, WindowState
from tests.ui.window.window_support import WAIT_MS, Backend, new_thread, running_backend


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


def _saved(backend: Backend) -> QSettings:
    return QSettings(str(backend.paths.config_dir / WINDOW_SETTINGS), QSettings.Format.IniFormat)


def _has_default_size(window: QWidget) -> bool:
    """``DEFAULT_SIZE`` where the screen holds it, else (frame included) all the screen holds."""
    area, frame = window.screen().availableGeometry(), window.frameGeometry()
    return area.contains(frame) and all(
        inner == default or outer == room for inner, default, outer, room in (
            (window.width(), DEFAULT_SIZE[0], frame.width(), area.width()),
            (window.height(), DEFAULT_SIZE[1], frame.height(), area.height())))


def _resize(window: MainWindow, qtbot: QtBot, size: tuple[int, int]) -> None:
    window.resize(*size)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size, timeout=WAIT_MS)


def test_a_first_window_has_the_default_size(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    assert _has_default_size(window)


def test_empty_saved_values_give_the_defaults(backend: Backend, qtbot: QtBot) -> None:
    saved = _saved(backend)
    for key in ("window/geometry", "window/state", "window/splitter", "window/centre"):
        saved.setValue(key, QByteArray())
    saved.sync()
    window = backend.window(qtbot)
    assert _has_default_size(window)
    assert not window.sources_dock.isVisible()


def test_the_sources_dock_survives_a_new_window(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.window_actions.sources_action.setChecked(True)
    window.close()
    again = backend.window(qtbot)
    assert again.sources_dock.isVisible()
    assert again.window_actions.sources_action.isChecked()  # the menu entry agrees


def test_the_splitters_survive_a_new_window(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    _resize(window, qtbot, (780, 700))  # a size the screen holds: restoring keeps it
    window.splitter.setSizes([330, 450])
    window.centre.setSizes([400, 250])
    list_width = window.splitter.sizes()[0]
    composer_height = window.centre.sizes()[1]
    window.close()
    again = backend.window(qtbot)
    assert again.splitter.sizes()[0] == list_width
    assert again.centre.sizes()[1] == composer_height


def test_saving_writes_the_open_thread_through_at_once(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    second = new_thread(window, qtbot)
    window.open_thread(first)
    window.save_window()  # the window stays open: the file is already written
    assert _saved(backend).value("threads/last") == first != second
    assert not QByteArray(_saved(backend).value("window/geometry")).isEmpty()


def test_a_remembered_thread_that_is_gone_opens_the_newest(backend: Backend,
                                                           qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    newest = new_thread(window, qtbot)
    window.close()
    saved = _saved(backend)
    saved.setValue("threads/last", "thr_deleted_elsewhere")
    saved.sync()
    again = backend.window(qtbot)
    qtbot.waitUntil(lambda: len(again.thread_pane.threads()) == 2, timeout=WAIT_MS)
    assert again.current_thread == newest


def test_alone_defaults_apply_until_something_was_saved(qtbot: QtBot, tmp_path: Path) -> None:
    state = WindowState(tmp_path)
    host = QMainWindow()
    qtbot.addWidget(host)
    splitter, centre = QSplitter(host), QSplitter(Qt.Orientation.Vertical, host)
    for s in (splitter, centre):
        s.addWidget(QWidget())
        s.addWidget(QWidget())
    state.restore(host, splitter, centre)
    assert _has_default_size(host)
    assert state.last_thread() == "" and state.archived() == frozenset()
    state.set_archived(frozenset({"thr_b", "thr_a"}))
    host.resize(700, 500)
    state.save(host, splitter, centre, "thr_a")
    assert "thr_a, thr_b" in (tmp_path / WINDOW_SETTINGS).read_text()
    again = WindowState(tmp_path)
    assert again.last_thread() == "thr_a"
    assert again.archived() == frozenset({"thr_a", "thr_b"})
    other = QMainWindow()
    qtbot.addWidget(other)
    again.restore(other, splitter, centre)
    assert (other.width(), other.height()) == (700, 500)


def test_restored_window_is_on_screen_at_2x(backend: Backend, qtbot: QtBot) -> None:
    """A geometry saved on a screen twice as large in logical pixels (the same monitor at 1x)
    — far right, larger than this screen — comes back wholly inside the available area."""
    window = backend.window(qtbot)
    area = window.screen().availableGeometry()
    window.setGeometry(area.x() + area.width() * 2 - 900, area.y() + area.height() * 2 - 700,
                       min(area.width() * 2, 1800), min(area.height() * 2, 1400))
    window.close()
    again = backend.window(qtbot)
    frame = again.frameGeometry()
    assert area.contains(frame), (frame, area)
    assert frame.width() > area.width() // 2 and frame.height() > area.height() // 2


def test_fit_on_screen_moves_then_shrinks() -> None:
    from composer_app.ui.window.main_window_logic import fit_on_screen

    screen = (0, 30, 1000, 700)
    assert fit_on_screen((100, 100, 400, 300), screen) == (100, 100, 400, 300)
    assert fit_on_screen((900, 650, 400, 300), screen) == (600, 430, 400, 300)
    assert fit_on_screen((-50, -50, 2000, 1400), screen) == (0, 30, 1000, 700)
