"""``MainWindow``: thread list on the left, transcript in the centre, composer (with its shelf) at
the bottom, Sources docked on the right, connection state in the status bar.

The window is the composition root: ``__init__`` creates every part and ``_connect_parts`` wires
them, in one place. Each part keeps its own state and is reached only through its methods and
signals; no part knows the window:

- ``engine_calls`` (``EngineCalls``): typed, non-blocking requests to the sync engine;
- ``navigator`` (``ThreadNavigator``): the open thread, the thread list, search, the quick
  switcher, rename, archive and the assistant choice;
- ``feed`` (``TranscriptFeed``): the open thread's transcript and its Sources panel;
- ``composer_area`` (``ComposerArea``): the composer, its shelf and notices, and the sends;
- ``connection`` (``ConnectionStatus``): the status bar and the *Unsent messages* dialog;
- ``window_actions`` (``WindowActions``): the actions, their shortcuts and the menu bar;
- ``context`` (``ContextInsertion``): the *Insert* menu and ``+`` button, the thread's
  workspace folder and the Changes pane;
- ``chip_opener`` (``ChipOpener``): a chip in the composer or the transcript opens what it
  points at;
- ``drop_relay`` (``DropRelay``): drops on the transcript or the empty page attach to the
  composer, which is outlined while dragging;
- ``pane_focus`` (``PaneFocus``): F6 / Shift+F6;
- ``state`` (``WindowState``): what ``window.ini`` remembers.

Invariants: the window renders the sync client's cache and sends the user's intents to the engine
through ``SyncBridge`` (never blocking the GUI thread on the network) and reads engine state only
from the bridge's signals and snapshots; every action has a menu entry and the shortcuts of the
issue (Ctrl+N, Ctrl+K, Ctrl+S, Ctrl+Shift+V, Ctrl+Shift+S, F6); the composer always shows the draft
of the thread the list selects; ``shutdown`` keeps the loop running until every send is queued and
every dropped file is registered with the engine, before the engine may stop.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QUrl
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu, QMessageBox, QSplitter, QWidget

from composer_app.core.contracts.environment import Environment
from composer_app.core.document.store import DraftStore
from composer_app.sync.accounts import EMBEDDED_ID, AccountBook, account_id_for
from composer_app.sync.outbox import EditedMessage
from composer_app.ui.account_engines import AccountEngines
from composer_app.ui.active_bridge import ActiveBridge
from composer_app.ui.composer.attachment_uploads import AttachmentUploads, SourceEnvironment
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.external_open import open_url_externally
from composer_app.ui.session import Session
from composer_app.ui.sync_bridge import SyncBridge
from composer_app.ui.threads.navigation import ThreadNavigator
from composer_app.ui.threads.quick_switcher import QuickSwitcher
from composer_app.ui.threads.thread_list import ThreadListPane
from composer_app.ui.transcript.source_download import SourceDownloader
from composer_app.ui.transcript.sources_dock import SourcesDock
from composer_app.ui.transcript.view import TranscriptView
from composer_app.ui.viewers.source_file_opener import SourceFileOpener
from composer_app.ui.window.actions import SOURCES_KEY, WindowActions
from composer_app.ui.window.chip_opener import ChipOpener
from composer_app.ui.window.composer_area import (
    SHUTDOWN_POLL_MS,
    SHUTDOWN_WAIT_MS,
    ComposerArea,
)
from composer_app.ui.window.connection_status import MESSAGE_MS, ConnectionStatus
from composer_app.ui.window.context_insertion import ContextInsertion
from composer_app.ui.window.drop_relay import DropRelay
from composer_app.ui.window.engine_gate import EngineGate
from composer_app.ui.window.layout import CentreStack
from composer_app.ui.window.pane_focus import PaneFocus
from composer_app.ui.window.server_accounts import ServerAccounts
from composer_app.ui.window.state import (
    DEFAULT_SIZE,
    WINDOW_SETTINGS,
    WindowState,
    fit_window_on_screen,
)
from composer_app.ui.window.status_bar import AppStatusBar, UnsentDialog

if TYPE_CHECKING:  # loaded when the user first shares a thread, not at start-up
    from composer_app.ui.transcript.share_dialog import ShareDialog
from composer_app.ui.window.transcript_feed import TranscriptFeed

__all__ = ["DEFAULT_SIZE", "SHUTDOWN_POLL_MS", "SHUTDOWN_WAIT_MS", "WINDOW_SETTINGS",
           "MainWindow", "Session"]

SETTINGS_MESSAGE_MS = 10000


class MainWindow(QMainWindow):
    """The Composer main window: creates its parts and connects them."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        # one engine per server; the parts talk to the one of the open thread's server
        self.accounts_bridge = ActiveBridge(self)
        self.bridge: SyncBridge = self.accounts_bridge
        book = session.book
        if book is None:
            book = AccountBook(None)
            if not session.embedded:
                book.add(session.server_url, save=False)
        primary_id = EMBEDDED_ID if session.embedded else account_id_for(session.server_url)
        engines = session.engines or AccountEngines(session.paths)
        primary = book.get(primary_id)
        if primary is not None and engines.run(primary_id) is None:
            engines.adopt(primary, session.server_url, session.token, session.bridge)
        self.accounts_bridge.add_account(primary_id, session.bridge)
        for run in engines.runs():
            if run.bridge is not None and run.account.account_id != primary_id:
                self.accounts_bridge.add_account(run.account.account_id, run.bridge)
        self.setWindowTitle("Composer")
        self.setObjectName("composerMainWindow")
        self._closed = False
        self.reopen_requested = False
        self._shown_once = False
        # parts that hold state
        self.state = WindowState(session.paths.config_dir, self)
        self.engine_calls = EngineCalls(self.bridge, self)
        self.uploads = AttachmentUploads(self.bridge, parent=self)
        # widgets
        self.thread_pane = ThreadListPane(self)
        self.transcript = TranscriptView(self)
        self.transcript.setAccessibleName("Transcript")
        self.transcript_stack = CentreStack(self.transcript, self)
        self.composer_area = ComposerArea(self.uploads, DraftStore(session.paths.drafts_dir), self)
        self.sources_dock = SourcesDock(self.transcript, self)
        # the active server's engine at the time of each download (it may sign in again)
        self.sources_dock.panel.downloader = SourceDownloader(self.accounts_bridge)
        self.share_dialog: ShareDialog | None = None  # the last one opened
        self._share_dialogs: dict[str, ShareDialog] = {}
        self.switcher = QuickSwitcher(self)
        self.status = AppStatusBar(self)
        self.unsent_dialog = UnsentDialog(self)
        self.centre = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self._arrange()
        # parts that coordinate
        self.navigator = ThreadNavigator(self.thread_pane, self.switcher, self.engine_calls,
                                         self.state, embedded=session.embedded,
                                         dialog_parent=self, parent=self)
        self.feed = TranscriptFeed(self.transcript, self.sources_dock, self.engine_calls, self)
        self.connection = ConnectionStatus(self.status, self.unsent_dialog, self.bridge,
                                           self.engine_calls, session.tokens,
                                           embedded=session.embedded,
                                           title_of=self.navigator.thread_title,
                                           server_url=session.server_url, parent=self)
        self.window_actions = WindowActions(self)
        self.window_actions.build_menus(self.menuBar())
        self.servers = ServerAccounts(book, engines, self.accounts_bridge, session.tokens,
                                      dialog_parent=self, parent=self)
        self._add_server_menu()
        self.context = ContextInsertion(self, self.composer_area, self.engine_calls,
                                        self.navigator, embedded=session.embedded)
        self.chip_opener = ChipOpener(self, self.engine_calls, self.uploads,
                                      thread_of=lambda: self.navigator.current_thread,
                                      workspace_of=lambda: self.context.workspace,
                                      open_thread=self.navigator.open_thread,
                                      local_workspace=session.embedded,
                                      editor_command=lambda: self.session.settings.editor_command)
        self.source_files = SourceFileOpener(
            self, knowledge_root=self._local_knowledge_folder,
            workspace_root=self._local_workspace_folder,
            fetch=lambda route, folder: self.accounts_bridge.download_source(route, folder),
            read_workspace=self.engine_calls.read_file)
        self.sources_dock.panel.file_opener = self.source_files
        self.drop_relay = DropRelay(self.editor, [self.transcript.viewport(),
                                                  self.transcript_stack.empty_page], self)
        self._add_context_menus()
        self.pane_focus = PaneFocus(self._panes, self)
        self.engine_gate = EngineGate(self.engine_missing_reason, self)
        self._guard_engine_actions()
        self._connect_parts()
        self.state.restore(self, self.splitter, self.centre)
        if self.bridge.environment is not None:
            self._on_environment_changed(self.bridge.environment)
        self._on_engine_availability_changed()
        self.navigator.reload_threads()

    def _arrange(self) -> None:
        """Thread list | (centre stack over the composer), Sources docked on the right."""
        self.centre.setObjectName("centreSplitter")
        self.centre.addWidget(self.transcript_stack)
        self.centre.addWidget(self.composer_area)
        self.centre.setStretchFactor(0, 4)
        self.centre.setStretchFactor(1, 1)
        self.centre.setChildrenCollapsible(False)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.thread_pane)
        self.splitter.addWidget(self.centre)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([250, 900])
        self.setCentralWidget(self.splitter)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.sources_dock)
        self.sources_dock.hide()
        self.setStatusBar(self.status)

    def _connect_parts(self) -> None:
        b, nav, feed, area = self.bridge, self.navigator, self.feed, self.composer_area
        acts, conn = self.window_actions, self.connection
        # the engine's notifications
        b.thread_list_changed.connect(nav.reload_threads)
        b.thread_changed.connect(feed.thread_changed)
        b.message_upserted.connect(self._on_bridge_message_changed)
        b.message_removed.connect(self._on_bridge_message_changed)
        b.environment_changed.connect(self._on_environment_changed)
        # the open thread
        nav.thread_opened.connect(area.show_thread)
        nav.thread_opened.connect(feed.show_thread)
        nav.thread_created.connect(area.focus_editor)
        nav.empty_thread_kept.connect(area.focus_editor)
        nav.thread_opened.connect(self._focus_composer_after_switch)
        nav.open_thread_is_empty = self._open_thread_is_empty
        nav.message_revealed.connect(feed.reveal_message)
        # several servers: the list is grouped, the open thread's server answers the requests
        servers, active = self.servers, self.accounts_bridge
        nav.servers = servers.listed
        nav.running = active.account_ids
        nav.state_of = lambda account_id: active.state_of(account_id)[0]
        nav.current_account = active.active_account
        nav.account_changed.connect(active.set_active)
        active.account_state_changed.connect(lambda *_: nav.refresh_groups())
        active.account_message_upserted.connect(
            lambda account, thread, _m: nav.message_arrived(account, thread))
        active.active_changed.connect(self._on_active_account_changed)
        active.engine_availability_changed.connect(self._on_engine_availability_changed)
        servers.accounts_changed.connect(self._on_engine_availability_changed)
        conn.sign_in_signed_out = lambda: servers.sign_in_interactive(active.active_account)
        conn.use_token = lambda token: servers.use_token(active.active_account, token)
        conn.outbox_accounts = self._running_servers
        conn.active_account = lambda: active.active_account
        servers.accounts_changed.connect(conn.refresh_outbox)
        servers.accounts_changed.connect(self._save_start_server)
        conn.refresh_outbox()
        servers.jump = nav.jump_to_server
        servers.accounts_changed.connect(nav.reload_threads)
        servers.status_message.connect(self._show_message)
        servers.sources_changed = self._set_sources
        self.thread_pane.header_menu_requested.connect(servers.show_header_menu)
        self.thread_pane.list.activated.connect(lambda _index: area.focus_editor())
        nav.title_changed.connect(self.setWindowTitle)
        nav.thread_state_changed.connect(acts.set_thread_state)
        nav.assistant_changed.connect(acts.set_assistant)
        acts.assistant_chosen.connect(nav.choose_assistant)
        # errors and notes for the status bar
        for part in (nav, feed, area):
            part.status_message.connect(self._show_message)
        self.engine_calls.failed.connect(self._show_message)
        # connection
        conn.unsent_changed.connect(self._on_unsent_changed)
        conn.edit_ready.connect(self._on_edit_ready)
        feed.edit_ready.connect(self._on_edit_ready)
        b.outbox_item_changed.connect(lambda thread, _m, _s: feed.thread_changed(thread))
        # Sources
        feed.sources_visibility_changed.connect(acts.set_sources_checked)
        acts.sources_action.toggled.connect(feed.set_sources_visible)
        # the thread list's archive switch and its menu entry show the same state
        self.thread_pane.show_archived.toggled.connect(acts.show_archived_action.setChecked)
        acts.show_archived_action.toggled.connect(self.thread_pane.show_archived.setChecked)
        # actions
        acts.new_thread_action.triggered.connect(nav.request_new_thread)
        acts.switcher_action.triggered.connect(nav.open_switcher)
        acts.find_action.triggered.connect(nav.focus_search)
        acts.settings_action.triggered.connect(self.open_settings)
        acts.quit_action.triggered.connect(self.close)
        acts.send_action.triggered.connect(area.send)
        acts.stash_action.triggered.connect(area.stash_prompt)
        acts.restore_stash_action.triggered.connect(area.restore_stash)
        acts.plain_paste_action.triggered.connect(area.paste_plain)
        acts.rename_action.triggered.connect(nav.rename_current)
        acts.archive_action.triggered.connect(nav.toggle_archive_current)
        acts.unsent_action.triggered.connect(conn.open_unsent)
        acts.retry_action.triggered.connect(conn.retry_now)
        acts.next_pane_action.triggered.connect(self.pane_focus.focus_next_pane)
        acts.previous_pane_action.triggered.connect(self.pane_focus.focus_previous_pane)
        acts.about_action.triggered.connect(self.show_about)
        acts.share_action.triggered.connect(self.open_share)
        acts.log_folder_action.triggered.connect(self.open_log_folder)
        # the editor claims Ctrl+Shift+S for itself; in this window it toggles Sources
        self.editor.installEventFilter(self)

    def _add_server_menu(self) -> None:
        """*File ▸ Add server…* and the other server entries; Ctrl+1…Ctrl+9."""
        file_menu = next((a.menu() for a in self.menuBar().actions()
                          if a.text().replace("&", "") == "File"), None)
        if isinstance(file_menu, QMenu):
            before = next((a for a in file_menu.actions()
                           if a is self.window_actions.settings_action), None)
            self.servers.add_to_menu(file_menu, before)
        self.addActions(self.servers.jump_actions)

    def _on_active_account_changed(self, account_id: str) -> None:
        """The open thread is on another server: its connection and outbox in the status bar,
        its uploads, and what a paste fetches from."""
        account = self.servers.book.get(account_id)
        run = self.servers.engines.run(account_id)
        if account is not None:
            self.connection.set_server(account.embedded, run.url if run is not None and
                                       not account.embedded else account.url)
        self.uploads.restore()

    def _guard_engine_actions(self) -> None:
        """The actions that need the open thread's server's engine (see ``EngineGate``)."""
        acts, context = self.window_actions, self.context
        self.engine_gate.guard(acts.new_thread_action, acts.send_action, acts.share_action,
                               acts.rename_action, acts.archive_action, acts.retry_action,
                               *acts.assistant_actions.values(),
                               *context.insert_actions.actions.values(),
                               *context.thread_menu_actions())

    def _save_start_server(self) -> None:
        """The settings file names the server the account book opens on (they always agree)."""
        from composer_app.ui.settings.settings_logic import save_settings, settings_for_start

        session, book = self.session, self.servers.book
        if book.path is None:
            return  # a window without a saved book (tests, a single server given)
        start = book.get(book.start_account)
        wanted = settings_for_start(session.settings,
                                    "" if start is None or start.embedded else start.url)
        if wanted != session.settings:
            session.settings = wanted
            save_settings(session.paths.settings_file, wanted)

    def _running_servers(self) -> list[tuple[str, str]]:
        """``(account id, name)`` of every server whose engine runs, in the list's order."""
        running = self.accounts_bridge.account_ids()
        named = [(a.account_id, a.name) for a in self.servers.book if a.account_id in running]
        known = {a for a, _ in named}
        return named + [(a, a) for a in running if a not in known]

    def engine_missing_reason(self) -> str:
        """Why the open thread's server cannot be asked anything ("" when its engine runs)."""
        active = self.accounts_bridge
        if active.has_engine:
            return ""
        account = self.servers.book.get(active.active_account) if hasattr(
            self, "servers") else None
        name = account.name if account is not None else "This server"
        return (f"{name} is signed out. Sign in to it again (Sign in in the status bar or on "
                "its header in the thread list), or open a thread of another server.")

    def _on_engine_availability_changed(self) -> None:
        """Disable (or enable again) what needs an engine; say why once."""
        before = self.engine_gate.blocked
        self.engine_gate.update()
        reason = self.engine_gate.blocked
        self.composer_area.set_send_blocked(reason)
        if reason and reason != before:
            self._show_message(reason)

    def _set_sources(self, sources: dict[str, SourceEnvironment]) -> None:
        self.uploads.sources = dict(sources)

    def _add_context_menus(self) -> None:
        """*Insert* before *View*, the workspace entries in *Thread*, the Changes dock."""
        bar, context = self.menuBar(), self.context
        menus = {a.text().replace("&", ""): a for a in bar.actions()}
        view = menus.get("View")
        if view is not None:
            bar.insertMenu(view, context.insert_menu)
        else:
            bar.addMenu(context.insert_menu)
        thread = menus.get("Thread")
        thread_menu = thread.menu() if thread is not None else None
        if isinstance(thread_menu, QMenu):
            thread_menu.addSeparator()
            thread_menu.addActions(context.thread_menu_actions())
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, context.changes_dock)
        context.changes_dock.hide()
        context.status_message.connect(self._show_message)
        self.chip_opener.status_message.connect(self._show_message)
        self.source_files.status_message.connect(self._show_message)
        self.editor.chip_opener = self.chip_opener.open_record
        self.transcript.chip_opener = self.chip_opener.open_record

    def _local_knowledge_folder(self) -> Path | None:
        """The embedded server's knowledge folder (on this computer), else None."""
        folder = self.session.settings.knowledge_dir
        return Path(folder).expanduser() if self.session.embedded and folder else None

    def _local_workspace_folder(self, thread_id: str) -> Path | None:
        """The open thread's workspace when the server runs on this computer, else None."""
        folder = self.context.workspace
        if not self.session.embedded or not folder or thread_id != self.navigator.current_thread:
            return None
        return Path(folder)

    # -- the parts, for callers that drive the window (the app, its self-test) -------------------
    @property
    def editor(self) -> ComposerEditor:
        return self.composer_area.editor

    @property
    def current_thread(self) -> str:
        """The thread the window shows ("" before the first one is open)."""
        return self.navigator.current_thread

    @property
    def pending_sends(self) -> int:
        """Messages the user sent that the sync client has not queued yet."""
        return self.composer_area.pending_sends

    def new_thread(self, title: str | None = None) -> None:
        """Create a thread and show it (Ctrl+N)."""
        self.navigator.new_thread(title)

    def open_thread(self, thread_id: str) -> None:
        """Show a thread: its transcript and its draft in the composer."""
        self.navigator.open_thread(thread_id)

    def is_ready(self) -> bool:
        """Shown, connected, and the open thread is in the list (what ``report_ready`` waits
        for)."""
        listed = self.thread_pane.model.row_of(self.current_thread) >= 0
        return self.bridge.connection_state[0] == "connected" and listed and self.isVisible()

    # -- wiring ----------------------------------------------------------------------------------
    def _panes(self) -> list[QWidget]:
        """The panes F6 cycles through, in order."""
        centre = self.transcript_stack.currentWidget() or self.transcript_stack
        return [self.thread_pane.list, centre, self.editor, self.sources_dock.panel]

    def _open_thread_is_empty(self) -> bool:
        """No message in the open thread and nothing in the composer (Ctrl+N keeps it)."""
        return self.feed.shows_empty_thread() and not self.editor.toPlainText().strip()

    def _focus_composer_after_switch(self, _thread_id: str) -> None:
        """A switched-to thread is ready for typing, unless the user is walking the thread list
        with the arrow keys (Enter there, or a click, still lands in the composer)."""
        walking = (self.thread_pane.list.hasFocus()
                   and QApplication.mouseButtons() == Qt.MouseButton.NoButton)
        if not walking:
            self.composer_area.focus_editor()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            fit_window_on_screen(self)  # again, now that the frame's size is known
            self.composer_area.focus_editor()

    def _show_message(self, text: str) -> None:
        self.status.showMessage(text, MESSAGE_MS)

    def _on_bridge_message_changed(self, thread_id: str, _message_id: str) -> None:
        self.feed.thread_changed(thread_id)

    def _on_environment_changed(self, environment: Environment | None) -> None:
        """Chips and copies name the environment this window is connected to."""
        if environment is not None:
            self.composer_area.set_environment_id(environment.environment_id)
            self.feed.set_environment_id(environment.environment_id)

    def _on_unsent_changed(self, count: int) -> None:
        self.window_actions.unsent_action.setEnabled(count > 0)

    def _on_edit_ready(self, edited: EditedMessage) -> None:
        self.navigator.open_thread(edited.thread_id)
        self.composer_area.load_edited(edited)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.editor and isinstance(event, QKeyEvent)
                and event.type() in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress)
                and QKeySequence(event.keyCombination()).toString() == SOURCES_KEY):
            event.ignore()
            if event.type() == QEvent.Type.KeyPress:
                self.window_actions.sources_action.toggle()
            return True
        return super().eventFilter(watched, event)

    # -- dialogs ---------------------------------------------------------------------------------
    def open_settings(self) -> None:
        from composer_app.ui.context.pull_requests import keyring_token
        from composer_app.ui.settings.dialog import SettingsDialog, apply_settings_result
        from composer_app.ui.settings.settings_logic import connected_text, restart_reasons

        tokens, session = self.session.tokens, self.session
        dialog = SettingsDialog(session.settings, self, keyring_available=tokens.uses_keyring,
                                token_notice=tokens.notice, connected=connected_text(
                                    session.embedded, session.server_url, session.settings),
                                github_token_stored=tokens.uses_keyring
                                and keyring_token() is not None)
        from composer_app.ui.settings.server_pages import ServerPages

        dialog.add_servers_page(ServerPages(self.servers, dialog))
        before = session.settings
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            message = apply_settings_result(session, dialog.result_value(),
                                            use_token=self.servers.use_token_for_url)
            reasons = restart_reasons(before, session.settings)
            self._save_start_server()  # Settings ▸ Servers chose it; the file follows the book
            if reasons and self.ask_reopen(reasons):
                self.request_reopen()
            elif message:
                self.status.showMessage(message, SETTINGS_MESSAGE_MS)

    def ask_reopen(self, reasons: list[str]) -> bool:
        """Whether to reconnect now with the new server or assistant."""
        answer = QMessageBox.question(
            self, "Apply the new settings",
            f"Reconnect now to use {' and '.join(reasons)}? The window reopens; drafts and "
            "unsent messages are kept.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes)
        return answer == QMessageBox.StandardButton.Yes

    def request_reopen(self) -> None:
        """Leave the event loop so the app starts the window again on the saved settings
        (``reopen_requested``), without quitting."""
        self.reopen_requested = True
        QApplication.quit()

    def show_about(self) -> None:
        QMessageBox.about(self, "About Composer", self.about_text())

    def about_text(self) -> str:
        """*Help ▸ About*: the version, the server and the folders this app keeps files in."""
        from composer_app import __version__

        running = set(self.accounts_bridge.account_ids())
        servers = [("the embedded server" if a.embedded else a.url) + f" ({a.name})"
                   for a in self.servers.book if a.account_id in running]
        where = ", ".join(servers) or "no server"
        return (f"Composer {__version__}\n\nA chat composer whose messages point at typed "
                f"context.\nConnected to {where}.\n\nFolders:\n"
                f"{self.session.paths.folders_text()}")

    def open_share(self) -> None:
        """*Thread ▸ Share…*: share links of the open thread. A thread's dialog is kept (hidden)
        once made: an answer of the engine may still arrive for it after it closed."""
        thread_id = self.current_thread
        if not thread_id:
            return
        if not self.accounts_bridge.has_engine:
            self._show_message(self.engine_missing_reason())
            return
        from composer_app.ui.transcript.share_dialog import ShareDialog

        engine = self.accounts_bridge.engine
        dialog = self._share_dialogs.get(thread_id)
        if dialog is None or dialog.service is not engine:  # signed in again: a new engine
            dialog = ShareDialog(engine, thread_id,
                                 self.navigator.thread_title(thread_id), parent=self)
            self._share_dialogs[thread_id] = dialog
        self.share_dialog = dialog
        dialog.open()

    def open_log_folder(self) -> None:
        """*Help ▸ Open log folder* in the desktop's file manager."""
        folder = self.session.paths.log_dir
        folder.mkdir(parents=True, exist_ok=True)
        if not open_url_externally(QUrl.fromLocalFile(str(folder)).toString()):
            self._show_message(f"Could not open the log folder: {folder}")

    # -- closing ---------------------------------------------------------------------------------
    def save_window(self) -> None:
        """Remember geometry, dock state, splitters and the last thread."""
        self.state.save(self, self.splitter, self.centre, self.current_thread)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closed = True
        self.feed.stop()
        self.save_window()
        self.composer_area.flush_draft()
        self.engine_calls.close()
        super().closeEvent(event)

    def shutdown(self, timeout_ms: int = SHUTDOWN_WAIT_MS) -> bool:
        """Get ready for the sync engine to stop; True when nothing was left behind.

        Closes the window if it is open (geometry and draft saved), then keeps the event loop
        running until every message the user sent is queued in the client's outbox — a send that
        waits for a dropped file still being registered would otherwise be lost — and every
        dropped file is registered with the engine (its copy in app data then survives the quit
        and its upload resumes on the next start), or until ``timeout_ms`` passes. Idempotent;
        must run before ``SyncBridge.stop``.
        """
        if not self._closed:
            self.close()
        return self.composer_area.wait_until_idle(timeout_ms)
