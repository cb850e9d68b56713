"""``MainWindow``: thread list on the left, transcript in the centre, composer (with its shelf) at
the bottom, Sources docked on the right, connection state in the status bar.

Invariants: the window renders the sync client's cache and sends the user's intents to the engine
through ``SyncBridge`` (never blocking the GUI thread on the network); every action has a menu entry
and the shortcuts of the issue (Ctrl+N, Ctrl+K, Ctrl+S, Ctrl+Shift+V, Ctrl+Shift+S, F6); window
geometry, dock state, the last thread and the archived threads are remembered in ``window.ini`` of
the config directory; the composer always shows the draft of the thread the list selects; a send
goes through ``AttachmentUploads.send_message`` (it waits for dropped files still being registered)
and ``shutdown`` keeps the loop running until every send is queued and every dropped file is
registered with the engine, before the engine may stop; *Thread ▸ Assistant* checks the selected
thread's provider and changes it through the engine (queued like a rename).

This module is the composition root: it holds the window's state, connects every signal in
``_connect_signals`` and takes each concern from one sibling module — ``window_layout`` (panes),
``window_actions`` (actions and menus), ``thread_navigation`` (threads, switcher, archive,
assistant), ``transcript_feed`` (transcript and Sources), ``pane_focus`` (F6),
``send_coordinator`` (sends and shutdown), ``engine_calls`` and ``window_state``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSettings, QTimer, Slot
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox, QWidget

from composer_app.core.contracts.messages import decode_message_context
from composer_app.sync.secrets import TokenStore
from composer_app.sync.store import MessageRow, ThreadRow
from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.settings.settings_logic import AppPaths, AppSettings
from composer_app.ui.sync_bridge import SyncBridge
from composer_app.ui.threads.navigation import ThreadNavigation
from composer_app.ui.threads.quick_switcher import QuickSwitcher
from composer_app.ui.window import main_window_logic as logic
from composer_app.ui.window.actions import SOURCES_KEY, WindowActions
from composer_app.ui.window.connection_status import ConnectionStatus
from composer_app.ui.window.layout import WindowLayout
from composer_app.ui.window.pane_focus import PaneFocus
from composer_app.ui.window.send_coordinator import (
    SHUTDOWN_POLL_MS,
    SHUTDOWN_WAIT_MS,
    SendCoordinator,
)
from composer_app.ui.window.state import DEFAULT_SIZE, WINDOW_SETTINGS, WindowState
from composer_app.ui.window.transcript_feed import TranscriptFeed

__all__ = ["DEFAULT_SIZE", "REFRESH_DELAY_MS", "SHUTDOWN_POLL_MS", "SHUTDOWN_WAIT_MS",
           "WINDOW_SETTINGS", "MainWindow", "Session"]

REFRESH_DELAY_MS = 30


@dataclass
class Session:
    """What one run of the window is connected to."""

    bridge: SyncBridge
    paths: AppPaths
    settings: AppSettings
    tokens: TokenStore
    embedded: bool
    server_url: str


class MainWindow(WindowLayout, WindowActions, ThreadNavigation, TranscriptFeed, PaneFocus,
                 SendCoordinator, EngineCalls, WindowState, QMainWindow):
    """The Composer main window."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.bridge = session.bridge
        self.setWindowTitle("Composer")
        self.setObjectName("composerMainWindow")
        self.window_settings = QSettings(str(session.paths.config_dir / WINDOW_SETTINGS),
                                         QSettings.Format.IniFormat)
        self.archived = logic.parse_archived(self.window_settings.value("threads/archived"))
        self.current_thread = ""
        self._threads: list[ThreadRow] = []
        self._shown: dict[str, MessageRow] = {}
        self._callbacks: dict[int, Callable[[Any, str], None]] = {}
        self._creating_first = False
        self._awaiting_listing: set[str] = set()  # created here, not in a thread list yet
        self._closed = False
        self._pending_sends = 0
        self._build_panes()
        self._build_actions()
        self._build_menus()
        self.connection = ConnectionStatus(self, self.bridge, session.tokens,
                                           embedded=session.embedded, call=self.call,
                                           title_of=self._thread_title)
        self.status = self.connection.bar
        self.unsent_dialog = self.connection.dialog
        self.switcher = QuickSwitcher(self)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(REFRESH_DELAY_MS)
        self._connect_signals()
        self._restore_window()
        self._sync_environment()
        self.reload_threads()

    def _connect_signals(self) -> None:
        b = self.bridge
        b.thread_list_changed.connect(self._on_bridge_thread_list_changed)
        b.thread_changed.connect(self._on_bridge_thread_changed)
        b.message_upserted.connect(self._on_bridge_message_changed)
        b.message_removed.connect(self._on_bridge_message_changed)
        b.request_finished.connect(self._on_bridge_request_finished)
        model = self.transcript.transcript_model()
        model.modelReset.connect(self._on_transcript_rows_changed)
        model.rowsInserted.connect(self._on_transcript_rows_changed)
        self.thread_pane.thread_selected.connect(self.open_thread)
        self.thread_pane.new_requested.connect(self.new_thread)
        self.thread_pane.rename_requested.connect(self.rename_thread_interactive)
        self.thread_pane.archive_requested.connect(self.set_archived)
        self.thread_pane.show_archived.toggled.connect(self.show_archived_action.setChecked)
        self.editor.send_requested.connect(self._on_editor_send_requested)
        self.editor.notice_posted.connect(self.notices.post)
        self.uploads.notice_posted.connect(self.notices.post)
        self.editor.installEventFilter(self)
        self.send_button.clicked.connect(self._on_send_triggered)
        self.sources_dock.visibilityChanged.connect(self._on_sources_visibility_changed)
        self.switcher.thread_chosen.connect(self.open_thread)
        self.connection.connected.connect(self._sync_environment)
        self.connection.unsent_changed.connect(self._on_unsent_changed)
        self.connection.edit_ready.connect(self._on_edit_ready)
        self._refresh_timer.timeout.connect(self._refresh_transcript)

    # -- engine notifications -----------------------------------------------------------------
    @Slot()
    def _on_bridge_thread_list_changed(self) -> None:
        self.reload_threads()

    @Slot(str)
    def _on_bridge_thread_changed(self, thread_id: str) -> None:
        if thread_id == self.current_thread:
            self._refresh_timer.start()

    @Slot(str, str)
    def _on_bridge_message_changed(self, thread_id: str, _message_id: str) -> None:
        if thread_id == self.current_thread:
            self._refresh_timer.start()

    # -- composer commands --------------------------------------------------------------------
    def stash_prompt(self) -> None:
        """Ctrl+S: stash the prompt (or restore the newest stash into an empty composer)."""
        self.editor.toggle_stash()

    def restore_stash(self) -> None:
        self.editor.restore_stash()

    def paste_plain(self) -> None:
        """Ctrl+Shift+V: paste into the composer as plain text."""
        self.editor.setFocus()
        self.editor.paste_plain()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # The editor claims Ctrl+Shift+S for itself; in this window it toggles Sources.
        if (watched is self.editor and isinstance(event, QKeyEvent)
                and event.type() in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress)
                and QKeySequence(event.keyCombination()).toString() == SOURCES_KEY):
            event.ignore()
            if event.type() == QEvent.Type.KeyPress:
                self.sources_action.toggle()
                return True
            return True
        return super().eventFilter(watched, event)

    # -- settings, about, connection ------------------------------------------------------------
    def open_settings(self) -> None:
        from composer_app.ui.app import apply_settings_result
        from composer_app.ui.settings.dialog import SettingsDialog

        tokens = self.session.tokens
        dialog = SettingsDialog(self.session.settings, self,
                                keyring_available=tokens.uses_keyring,
                                token_notice=tokens.notice)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            message = apply_settings_result(self.session, dialog.result_value())
            if message:
                self.status.showMessage(message, 10000)

    def show_about(self) -> None:
        from composer_app import __version__

        where = "the embedded server" if self.session.embedded else self.session.server_url
        QMessageBox.about(self, "About Composer",
                          f"Composer {__version__}\n\nA chat composer whose messages point at "
                          f"typed context.\nConnected to {where}.")

    def _sync_environment(self) -> None:
        """Chips and copies name the environment this window is connected to."""
        environment = self.bridge.engine.environment
        if environment is not None:
            self.editor.environment_id = environment.environment_id
            self.transcript.environment_id = environment.environment_id

    def open_unsent(self) -> None:
        """Show the messages that have not reached the server."""
        self.connection.open_unsent()

    def _on_retry_now(self) -> None:
        self.connection.retry_now()

    def _on_unsent_changed(self, count: int) -> None:
        self.unsent_action.setEnabled(count > 0)

    def _on_edit_ready(self, edited: Any) -> None:
        self.open_thread(edited.thread_id)
        context = decode_message_context(edited.context) if edited.context else None
        self.editor.set_markdown(edited.text, list(context.records) if context else [])
        self.editor.setFocus()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closed = True
        self._refresh_timer.stop()
        self.save_window()
        if self.autosave is not None:
            self.autosave.flush()
        super().closeEvent(event)
