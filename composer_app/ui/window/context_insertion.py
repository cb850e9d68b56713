"""``ContextInsertion``: the window's ways of adding context to the composer.

A part of the main window (it knows the composer area, the engine calls and the navigator, never
the window's other parts). It owns:

- ``insert_actions`` (``InsertActions``): the *Insert* menu (``insert_menu``) and the composer's
  ``+`` button (``add_button``), each entry connected to what it does;
- the thread's workspace: *Thread ▸ Workspace folder…* (``workspace_action``, object name
  ``chooseWorkspace``), *Thread ▸ Clear workspace* (``clear_workspace_action``,
  ``clearWorkspace``) and the label under the composer (``workspace_label``,
  ``workspaceLabel``);
- ``changes_dock`` (``ChangesDock``): refreshed when the window is activated and on demand; a
  comment becomes a chip at the composer's caret through ``ContextInsertionRouter``;
- the composer's context catalog and command runner (``EngineCatalog``, ``EngineCommandRunner``).

Invariants: the workspace entries (files, commands, changes) are enabled exactly while the open
thread has a workspace folder; every dialog goes through a replaceable callable
(``choose_files``, ``choose_folder``, ``ask_text``) so the paths run without a modal loop in tests;
nothing here blocks the GUI thread on the network.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLabel, QLineEdit, QMainWindow, QWidget

from composer_app.sync.workspace import WorkspaceChanges
from composer_app.ui.capture.screen_capture import ScreenCapture
from composer_app.ui.changes.changes_pane import ChangesDock
from composer_app.ui.composer.attachments_logic import Notice
from composer_app.ui.context.engine_catalog import EngineCatalog, EngineCommandRunner
from composer_app.ui.context.insert_actions import InsertActions, type_trigger
from composer_app.ui.context.pull_requests import parse_pull_request_url
from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.threads.navigation import ThreadNavigator
from composer_app.ui.window.composer_area import ComposerArea

__all__ = ["ContextInsertion", "folder_name"]

NO_FOLDER = "No workspace folder: Thread ▸ Workspace folder… chooses one"


def folder_name(path: str) -> str:
    """The last part of a folder path, as the label under the composer shows it (the whole path
    is its tooltip)."""
    trimmed = path.rstrip("/\\")
    return trimmed.replace("\\", "/").rsplit("/", 1)[-1] or path


def _choose_files(parent: QWidget) -> list[str]:
    paths, _filter = QFileDialog.getOpenFileNames(parent, "Attach files", str(Path.home()))
    return list(paths)


def _choose_folder(parent: QWidget, start: str) -> str:
    return QFileDialog.getExistingDirectory(parent, "Workspace folder", start or str(Path.home()))


def _ask_text(parent: QWidget, title: str, label: str, text: str) -> str | None:
    value, ok = QInputDialog.getText(parent, title, label, QLineEdit.EchoMode.Normal, text)
    return value if ok else None


class ContextInsertion(QObject):
    """The Insert entries, the thread's workspace and the Changes pane of one window."""

    status_message = Signal(str)

    choose_files: Callable[[QWidget], list[str]] = staticmethod(_choose_files)
    choose_folder: Callable[[QWidget, str], str] = staticmethod(_choose_folder)
    ask_text: Callable[[QWidget, str, str, str], str | None] = staticmethod(_ask_text)

    def __init__(self, window: QMainWindow, area: ComposerArea, calls: EngineCalls,
                 navigator: ThreadNavigator, *, embedded: bool) -> None:
        super().__init__(window)
        self._window = window
        self._area = area
        self._calls = calls
        self._navigator = navigator
        self._embedded = embedded
        self._workspace: str | None = None
        self.insert_actions = InsertActions(window)
        for action in self.insert_actions.actions.values():
            window.addAction(action)
        self.insert_menu = self.insert_actions.menu(window.menuBar())
        self.add_button = self.insert_actions.add_context_button(area)
        self.add_button.setStyleSheet("QToolButton { font-weight: bold; padding: 2px 8px; }"
                                      "QToolButton::menu-indicator { image: none; width: 0; }")
        self.workspace_action = self._action("&Workspace folder…", "chooseWorkspace",
                                             "Choose the folder this thread works in")
        self.clear_workspace_action = self._action("&Clear workspace", "clearWorkspace",
                                                   "Stop using a workspace folder in this thread")
        self.workspace_label = QLabel(area)
        self.workspace_label.setObjectName("workspaceLabel")
        self.workspace_label.setEnabled(False)
        self.changes_dock = ChangesDock(window)
        self.changes_dock.hide()
        self.capture = ScreenCapture(self)
        self.catalog = EngineCatalog(calls, lambda: navigator.current_thread)
        self.runner = EngineCommandRunner(calls, lambda: navigator.current_thread, self)
        editor = area.editor
        editor.set_context_catalog(self.catalog)
        area.add_context_widgets(self.add_button, self.workspace_label,
                                 editor.context_input.command_mode.indicator,
                                 editor.context_input.pull_requests.indicator)
        self._connect()
        self._show_workspace(None)
        window.installEventFilter(self)

    def _action(self, text: str, name: str, tip: str) -> QAction:
        action = QAction(text, self._window)
        action.setObjectName(name)
        action.setStatusTip(tip)
        action.setToolTip(tip)
        self._window.addAction(action)
        return action

    def _connect(self) -> None:
        acts = self.insert_actions.actions
        acts["attachFiles"].triggered.connect(self.attach_files)
        acts["captureScreenshot"].triggered.connect(self.capture_screenshot)
        for name in ("insertMention", "insertSkill", "insertThread"):
            acts[name].triggered.connect(lambda _c=False, n=name: self.type_trigger(n))
        acts["runCommand"].triggered.connect(self.run_command)
        acts["insertPullRequest"].triggered.connect(self.insert_pull_request)
        acts["showChanges"].triggered.connect(self.toggle_changes)
        self.workspace_action.triggered.connect(self.choose_workspace)
        self.clear_workspace_action.triggered.connect(self.clear_workspace)
        self.capture.captured.connect(self._on_captured)
        self.capture.failed.connect(lambda reason: self._notice("No screenshot", reason))
        self.changes_dock.refresh_requested.connect(self.refresh_changes)
        self.changes_dock.comment_created.connect(self._on_comment_created)
        self.changes_dock.visibilityChanged.connect(self._on_changes_visibility)
        self._navigator.thread_opened.connect(lambda _t: self.update_workspace())
        self._navigator.thread_state_changed.connect(lambda *_: self.update_workspace())

    def thread_menu_actions(self) -> list[QAction]:
        """The *Thread* menu's workspace entries."""
        return [self.workspace_action, self.clear_workspace_action]

    # -- the thread's workspace ------------------------------------------------------------------
    @property
    def workspace(self) -> str | None:
        """The open thread's workspace folder (None: it has none)."""
        return self._workspace

    def update_workspace(self) -> None:
        """Show the open thread's workspace as the thread list last read it."""
        row = self._navigator.thread_row(self._navigator.current_thread)
        self._show_workspace(row.workspace if row is not None else None)

    def _show_workspace(self, folder: str | None) -> None:
        changed = folder != self._workspace
        self._workspace = folder
        has_thread = bool(self._navigator.current_thread)
        self.workspace_action.setEnabled(has_thread)
        self.clear_workspace_action.setEnabled(has_thread and folder is not None)
        self.insert_actions.set_workspace_available(folder is not None)
        self._area.editor.context_input.set_command_runner(
            self.runner if folder is not None else None)
        self.workspace_label.setText(f"Workspace: {folder_name(folder)}" if folder else NO_FOLDER)
        self.workspace_label.setToolTip(folder or "")
        self.workspace_label.setAccessibleName(
            f"Workspace folder {folder}" if folder else NO_FOLDER)
        if folder is None:
            self.changes_dock.set_unavailable("This thread has no workspace folder.")
        elif changed and self.changes_dock.isVisible():
            self.refresh_changes()

    def choose_workspace(self) -> None:
        """*Thread ▸ Workspace folder…*: a folder chooser (embedded server) or a typed path."""
        thread = self._navigator.current_thread
        if not thread:
            return
        folder: str | None
        if self._embedded:
            folder = self.choose_folder(self._window, self._workspace or "")
        else:
            folder = self.ask_text(self._window, "Workspace folder",
                                   "Folder on the server for this thread:", self._workspace or "")
        folder = (folder or "").strip()
        if folder:
            self._calls.set_thread_workspace(thread, folder)
            self.status_message.emit(f"Workspace folder set to {folder_name(folder)}")

    def clear_workspace(self) -> None:
        """*Thread ▸ Clear workspace*."""
        thread = self._navigator.current_thread
        if thread and self._workspace is not None:
            self._calls.set_thread_workspace(thread, None)
            self.status_message.emit("Workspace folder cleared")

    # -- the Insert entries ----------------------------------------------------------------------
    def attach_files(self) -> None:
        """*Attach files…*: the chosen files attach as a drop would."""
        paths = self.choose_files(self._window)
        if paths:
            self._area.editor.setFocus()
            self._area.editor.attach_paths(paths)

    def capture_screenshot(self) -> None:
        """*Screenshot…*: hide the window, pick a region, attach the image."""
        if not self.capture.capture(self._window):
            self._notice("A screenshot is already being taken.")

    def _on_captured(self, data: bytes) -> None:
        self._area.editor.attachments.attach_image(data, "image/png", None)

    def type_trigger(self, name: str) -> None:
        """*File from workspace…*, *Skill…*, *Thread…*: type the trigger in the composer."""
        type_trigger(self._area.editor, name)

    def run_command(self) -> None:
        """*Run a command…*: switch the (empty) composer to command mode."""
        editor = self._area.editor
        if not editor.context_input.command_mode.start():
            editor.setFocus()
            self._notice("Clear the composer first",
                         "Command mode starts in an empty composer (type ! there).")

    def insert_pull_request(self) -> None:
        """*Pull request…*: ask for the URL, then attach it like an accepted offer."""
        url = self.ask_text(self._window, "Attach pull request",
                            "GitHub pull request URL:", "")
        if url is None or not url.strip():
            return
        ref = parse_pull_request_url(url)
        if ref is None:
            self._notice("Not a pull request URL",
                         "Use https://github.com/OWNER/REPO/pull/NUMBER.")
            return
        self._area.editor.setFocus()
        self._area.editor.context_input.pull_requests.attach(ref)

    # -- Changes ---------------------------------------------------------------------------------
    def toggle_changes(self) -> None:
        """*Changes*: show (and refresh) or hide the Changes pane."""
        visible = not self.changes_dock.isVisible()
        self.changes_dock.setVisible(visible)
        if visible:
            self.changes_dock.raise_()
            self.changes_dock.view.setFocus()

    def _on_changes_visibility(self, visible: bool) -> None:
        if visible:
            self.refresh_changes()

    def refresh_changes(self) -> None:
        """Ask the engine for the workspace's changes."""
        thread = self._navigator.current_thread
        if not thread or self._workspace is None:
            self.changes_dock.set_unavailable("This thread has no workspace folder.")
            return

        def then(changes: WorkspaceChanges | None, error: str) -> None:
            if thread != self._navigator.current_thread:
                return
            if error or changes is None:
                self.changes_dock.set_unavailable(error or "The changes could not be read.")
                return
            self.changes_dock.set_changes({"revision": changes.revision,
                                           "files": [f.to_wire() for f in changes.files]})

        self._calls.changes(thread, then)

    def _on_comment_created(self, record: Any) -> None:
        thread = self._navigator.current_thread
        if thread:
            self._area.router.insert(thread, record)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Refresh the Changes pane when the window is activated."""
        if (watched is self._window and event.type() == QEvent.Type.WindowActivate
                and self.changes_dock.isVisible()):
            self.refresh_changes()
        return False

    def _notice(self, title: str, detail: str = "") -> None:
        self._area.editor.notify(Notice(title, detail))
