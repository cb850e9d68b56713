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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QByteArray,
    QCoreApplication,
    QDeadlineTimer,
    QEvent,
    QEventLoop,
    QObject,
    QSettings,
    Qt,
    QTimer,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QFont,
    QKeyEvent,
    QKeySequence,
    QPalette,
)
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from composer_app.core.contracts.messages import decode_message_context
from composer_app.core.document.store import DraftStore
from composer_app.sync.secrets import TokenStore
from composer_app.sync.store import MessageRow, ThreadRow
from composer_app.ui import main_window_logic as logic
from composer_app.ui.composer.attachment_uploads import AttachmentUploads
from composer_app.ui.composer.drafts import DraftAutosave
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.insertion import ContextInsertionRouter
from composer_app.ui.composer.notices import NoticeBar
from composer_app.ui.composer.shelf import AttachmentShelf
from composer_app.ui.connection_status import ConnectionStatus
from composer_app.ui.external_open import open_url_externally
from composer_app.ui.quick_switcher import QuickSwitcher
from composer_app.ui.settings_logic import AppPaths, AppSettings
from composer_app.ui.sync_bridge import SyncBridge
from composer_app.ui.thread_list import ThreadListPane
from composer_app.ui.thread_list_model import thread_title
from composer_app.ui.transcript.sources_dock import SourcesDock
from composer_app.ui.transcript.view import TranscriptView

WINDOW_SETTINGS = "window.ini"
REFRESH_DELAY_MS = 30
DEFAULT_SIZE = (1280, 800)
SHUTDOWN_WAIT_MS = 5000
SHUTDOWN_POLL_MS = 50
_SOURCES_KEY = "Ctrl+Shift+S"
EMPTY_TITLE = "No messages yet"
EMPTY_HINT = ("Write below and press Enter. Paste or drop files and images to attach them as "
              "context; the assistant answers with its sources.")
COMPOSER_HINT = ("Paste or drop files to attach them · Ctrl+S stashes the prompt · "
                 "Ctrl+K switches threads")
EMPTY_TEXT_WIDTH = 440


@dataclass
class Session:
    """What one run of the window is connected to."""

    bridge: SyncBridge
    paths: AppPaths
    settings: AppSettings
    tokens: TokenStore
    embedded: bool
    server_url: str


class MainWindow(QMainWindow):
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

    # -- building -------------------------------------------------------------------------------
    def _build_panes(self) -> None:
        self.thread_pane = ThreadListPane(self)
        self.transcript = TranscriptView(self)
        self.transcript.setAccessibleName("Transcript")
        model = self.transcript.transcript_model()
        model.modelReset.connect(self._on_transcript_rows_changed)
        model.rowsInserted.connect(self._on_transcript_rows_changed)
        self.transcript.url_opener = open_url_externally
        self.transcript.asset_opener = self._open_asset
        self.editor = ComposerEditor(self)
        self.editor.setMinimumHeight(72)
        self.send_button = QPushButton("Send", self)
        self.send_button.setToolTip("Send (Enter)")
        self.send_button.setDefault(False)
        self.composer_hint = QLabel(COMPOSER_HINT, self)  # the editor's placeholder has Enter
        self.composer_hint.setObjectName("composerHint")
        self.composer_hint.setEnabled(False)
        self.draft_store = DraftStore(self.session.paths.drafts_dir)
        self.router = ContextInsertionRouter(self.draft_store)
        self.autosave: DraftAutosave | None = None
        self.uploads = AttachmentUploads(self.bridge, parent=self)
        self.editor.use_uploads(self.uploads)
        self.shelf = AttachmentShelf(self.editor, self)
        composer = QWidget(self)
        composer.setObjectName("composerArea")
        column = QVBoxLayout(composer)
        column.setContentsMargins(10, 6, 10, 8)
        column.setSpacing(4)
        row = QHBoxLayout()
        row.setSpacing(8)
        row.addWidget(self.editor, 1)
        row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        column.addLayout(row, 1)
        column.addWidget(self.shelf)
        self.notices = NoticeBar(self)
        column.addWidget(self.notices)
        column.addWidget(self.composer_hint)
        self.centre = QSplitter(Qt.Orientation.Vertical, self)
        self.centre.setObjectName("centreSplitter")
        self._build_empty_page()
        self.transcript_stack = QStackedWidget(self)
        self.transcript_stack.addWidget(self.empty_page)
        self.transcript_stack.addWidget(self.transcript)
        self.centre.addWidget(self.transcript_stack)
        self.centre.addWidget(composer)
        self.centre.setStretchFactor(0, 4)
        self.centre.setStretchFactor(1, 1)
        self.centre.setChildrenCollapsible(False)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.thread_pane)
        self.splitter.addWidget(self.centre)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([250, 900])
        self.setCentralWidget(self.splitter)
        self.sources_dock = SourcesDock(self.transcript, self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.sources_dock)
        self.sources_dock.hide()
        self._set_editor_enabled(False)


    def _build_empty_page(self) -> None:
        """What the centre shows for a thread without messages: a short, centred explanation."""
        self.empty_page = QWidget(self)
        self.empty_page.setObjectName("emptyThreadPage")
        self.empty_page.setAutoFillBackground(True)
        self.empty_page.setBackgroundRole(QPalette.ColorRole.Base)
        self.empty_title = QLabel(EMPTY_TITLE, self.empty_page)
        font = self.empty_title.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setWeight(QFont.Weight.DemiBold)
        self.empty_title.setFont(font)
        self.empty_hint = QLabel(EMPTY_HINT, self.empty_page)
        self.empty_hint.setObjectName("emptyThreadHint")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.empty_hint.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # F6 lands here when empty
        self.empty_hint.setAccessibleName(EMPTY_TITLE)
        self.empty_hint.setAccessibleDescription(EMPTY_HINT)
        text = QVBoxLayout()
        text.setSpacing(6)
        for label in (self.empty_title, self.empty_hint):
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            label.setMaximumWidth(EMPTY_TEXT_WIDTH)
            label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
            text.addWidget(label)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addLayout(text, 100)
        row.addStretch(1)
        column = QVBoxLayout(self.empty_page)
        column.setContentsMargins(24, 24, 24, 24)
        column.addStretch(2)
        column.addLayout(row)
        column.addStretch(3)

    def _action(self, text: str, slot: Callable[..., Any], shortcut: str | None = None, *,
                checkable: bool = False, name: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setCheckable(checkable)
        action.setObjectName(name or text)
        (action.toggled if checkable else action.triggered).connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        a = self._action
        self.new_thread_action = a("&New thread", self.new_thread, "Ctrl+N", name="newThread")
        self.switcher_action = a("&Switch to thread…", self.open_switcher, "Ctrl+K",
                                 name="quickSwitcher")
        self.find_action = a("&Find thread by title", self.focus_search, "Ctrl+F",
                             name="findThread")
        self.settings_action = a("Se&ttings…", self.open_settings, "Ctrl+,", name="settings")
        self.quit_action = a("&Quit", self.close, "Ctrl+Q", name="quit")
        self.send_action = a("S&end message", self._on_send_triggered, name="send")
        self.stash_action = a("&Stash prompt", self.stash_prompt, "Ctrl+S", name="stash")
        self.restore_stash_action = a("&Restore stashed prompt", self.restore_stash,
                                      name="restoreStash")
        self.plain_paste_action = a("Paste as &plain text", self.paste_plain, "Ctrl+Shift+V",
                                    name="plainPaste")
        self.rename_action = a("&Rename thread…", self.rename_current, "F2", name="rename")
        self.archive_action = a("&Archive thread", self.toggle_archive_current, name="archive")
        self.show_archived_action = a("Show a&rchived threads", self._on_show_archived_toggled,
                                      checkable=True, name="showArchived")
        self.unsent_action = a("&Unsent messages…", self.open_unsent, name="unsent")
        self.retry_action = a("Retry &connection now", self._on_retry_now, name="retryNow")
        self.sources_action = a("&Sources panel", self.set_sources_visible, _SOURCES_KEY,
                                checkable=True, name="toggleSources")
        self.next_pane_action = a("&Next pane", self.focus_next_pane, "F6", name="nextPane")
        self.previous_pane_action = a("&Previous pane", self.focus_previous_pane, "Shift+F6",
                                      name="previousPane")
        self.about_action = a("&About Composer", self.show_about, name="about")

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_thread_action, self.switcher_action, self.find_action])
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = bar.addMenu("&Edit")
        edit_menu.addActions([self.send_action, self.stash_action, self.restore_stash_action,
                              self.plain_paste_action])
        thread_menu = bar.addMenu("&Thread")
        thread_menu.addActions([self.rename_action, self.archive_action,
                                self.show_archived_action])
        self._build_assistant_menu(thread_menu)
        thread_menu.addSeparator()
        thread_menu.addActions([self.unsent_action, self.retry_action])
        view_menu = bar.addMenu("&View")
        view_menu.addActions([self.sources_action, self.next_pane_action,
                              self.previous_pane_action])
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.about_action)

    def _build_assistant_menu(self, thread_menu: QMenu) -> None:
        """*Thread ▸ Assistant*: one checkable entry per provider a thread can use."""
        self.assistant_menu = thread_menu.addMenu("A&ssistant")
        self.assistant_menu.setObjectName("assistantMenu")
        self.assistant_group = QActionGroup(self)
        self.assistant_group.setExclusionPolicy(
            QActionGroup.ExclusionPolicy.ExclusiveOptional)  # none checked for other providers
        self.assistant_actions: dict[str, QAction] = {}
        for name, label in logic.ASSISTANT_CHOICES:
            action = QAction(label, self)
            action.setCheckable(True)
            action.setObjectName(f"assistant:{name}")
            action.triggered.connect(lambda _checked=False, n=name: self._on_assistant_chosen(n))
            self.assistant_group.addAction(action)
            self.assistant_menu.addAction(action)
            self.assistant_actions[name] = action

    def _connect_signals(self) -> None:
        b = self.bridge
        b.thread_list_changed.connect(self._on_bridge_thread_list_changed)
        b.thread_changed.connect(self._on_bridge_thread_changed)
        b.message_upserted.connect(self._on_bridge_message_changed)
        b.message_removed.connect(self._on_bridge_message_changed)
        b.request_finished.connect(self._on_bridge_request_finished)
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

    # -- engine calls -----------------------------------------------------------------------------
    def call(self, method: str, *args: Any, then: Callable[[Any, str], None] | None = None,
             **kwargs: Any) -> int:
        """Call an engine method off the GUI thread; ``then(result, error)`` runs on it.

        A closed window makes no more calls (the engine may already be stopped)."""
        if self._closed:
            return -1
        try:
            request_id = self.bridge.request(method, *args, **kwargs)
        except RuntimeError as exc:  # the engine is not running
            if then is not None:
                then(None, str(exc))
            return -1
        if then is not None:
            self._callbacks[request_id] = then
        return request_id

    @Slot(int, object, str)
    def _on_bridge_request_finished(self, request_id: int, result: Any, error: str) -> None:
        then = self._callbacks.pop(request_id, None)
        if then is not None:
            then(result, error)

    # -- threads --------------------------------------------------------------------------------
    def reload_threads(self) -> None:
        """Ask the cache for the thread list."""
        self.call("threads", then=self._on_threads)

    def _on_threads(self, rows: Any, error: str) -> None:
        if error:
            self.status.showMessage(f"Could not read the thread list: {error}", 8000)
            return
        self._threads = list(rows or [])
        self.thread_pane.set_threads(self._threads, self.archived)
        ids = [r.thread_id for r in self.thread_pane.model_rows(all_rows=True)]
        remembered = str(self.window_settings.value("threads/last", "") or "")
        target = logic.thread_to_open(ids, remembered, self.current_thread)
        if target and target != self.current_thread:
            self.open_thread(target)
        elif (not target and not self._threads and self.session.embedded
              and not self._creating_first):
            self._creating_first = True
            self.new_thread()
        self._update_thread_actions()

    def new_thread(self, title: str | None = None) -> None:
        """Create a thread and show it (Ctrl+N)."""
        self.call("create_thread", title or None, then=self._on_thread_created)

    def _on_thread_created(self, thread_id: Any, error: str) -> None:
        if error:
            self.status.showMessage(f"Could not create a thread: {error}", 8000)
            return
        self.current_thread = ""
        self.window_settings.setValue("threads/last", str(thread_id))
        self.open_thread(str(thread_id))
        self.reload_threads()
        self.editor.setFocus()

    def open_thread(self, thread_id: str) -> None:
        """Show a thread: its transcript and its draft in the composer."""
        if not thread_id or thread_id == self.current_thread:
            return
        self.current_thread = thread_id
        self.window_settings.setValue("threads/last", thread_id)
        self.thread_pane.select_thread(thread_id)
        if self.autosave is None:
            self.autosave = DraftAutosave(self.editor, self.draft_store, thread_id,
                                          router=self.router)
        else:
            self.autosave.switch_thread(thread_id)
        self.editor.thread_id = thread_id
        self._set_editor_enabled(True)
        self._shown.clear()
        self.transcript.transcript_model().load([])
        if self.sources_dock.panel.message_id:
            self.sources_dock.hide()
        self._update_title()
        self._update_thread_actions()
        self._refresh_transcript()

    def thread_row(self, thread_id: str) -> ThreadRow | None:
        return next((r for r in self._threads if r.thread_id == thread_id), None)

    def _thread_title(self, thread_id: str) -> str:
        row = self.thread_row(thread_id)
        return thread_title(row) if row is not None else "Thread"

    def rename_thread(self, thread_id: str, title: str) -> None:
        """Rename a thread (queued like every command)."""
        title = " ".join(title.split())
        if thread_id and title:
            self.call("rename_thread", thread_id, title, then=self._on_command_done)

    def rename_thread_interactive(self, thread_id: str) -> None:
        row = self.thread_row(thread_id)
        current = thread_title(row) if row is not None else ""
        title, ok = QInputDialog.getText(self, "Rename thread", "Title:", text=current)
        if ok:
            self.rename_thread(thread_id, title)

    def rename_current(self) -> None:
        if self.current_thread:
            self.rename_thread_interactive(self.current_thread)

    def set_thread_provider(self, thread_id: str, provider: str) -> None:
        """Choose the assistant provider of a thread's next turns (queued like a rename)."""
        if thread_id and provider:
            self.call("set_thread_provider", thread_id, provider, then=self._on_command_done)

    def _on_assistant_chosen(self, provider: str) -> None:
        row = self.thread_row(self.current_thread)
        if row is not None and row.provider != provider:
            self.set_thread_provider(row.thread_id, provider)
        self._update_assistant_menu(provider if row is not None else None)

    def _update_assistant_menu(self, provider: str | None = None) -> None:
        """Check the current thread's provider (``provider``: a choice not in the cache yet)."""
        row = self.thread_row(self.current_thread)
        current = provider or (row.provider if row is not None else None)
        self.assistant_menu.setEnabled(logic.can_choose_assistant(
            self.current_thread if row is not None else "", current))
        checked = logic.assistant_choice(current)
        for name, action in self.assistant_actions.items():
            action.setChecked(name == checked)

    def set_archived(self, thread_id: str, archived: bool) -> None:
        """Archive (hide from the list) or unarchive a thread; kept on this device."""
        changed = set(self.archived)
        (changed.add if archived else changed.discard)(thread_id)
        self.archived = frozenset(changed)
        self.window_settings.setValue("threads/archived", sorted(self.archived))
        self.thread_pane.set_threads(self._threads, self.archived)
        self._update_thread_actions()

    def toggle_archive_current(self) -> None:
        if self.current_thread:
            self.set_archived(self.current_thread, self.current_thread not in self.archived)

    def _on_show_archived_toggled(self, checked: bool) -> None:
        self.thread_pane.show_archived.setChecked(checked)

    def _on_command_done(self, _result: Any, error: str) -> None:
        if error:
            self.status.showMessage(error, 8000)

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

    # -- transcript -------------------------------------------------------------------------------
    def _refresh_transcript(self) -> None:
        thread_id = self.current_thread
        if thread_id:
            self.call("messages", thread_id,
                      then=lambda rows, error: self._on_messages(thread_id, rows, error))

    def _on_transcript_rows_changed(self, *_: Any) -> None:
        empty = self.transcript.transcript_model().rowCount() == 0
        self.transcript_stack.setCurrentIndex(0 if empty else 1)

    def _on_messages(self, thread_id: str, rows: Any, error: str) -> None:
        if error or thread_id != self.current_thread:
            return
        rows = list(rows or [])
        plan = logic.plan_refresh(self._shown, rows)
        model = self.transcript.transcript_model()
        if plan.reload:
            model.load([logic.message_wire(r) for r in rows])
            self._shown = {r.message_id: r for r in rows}
        else:
            for row in plan.upserts:
                model.add_message(logic.message_wire(row))
                self._shown[row.message_id] = row
        if plan.upserts and self.transcript.verticalScrollBar().value() >= 0:
            self.transcript.scrollToBottom()

    def _open_asset(self, record: Any) -> None:
        attachment = getattr(record, "attachment_id", None)
        if attachment:
            self.call("asset_url", attachment, "attachment",
                      then=lambda url, error: self._on_asset_url(url, error))

    def _on_asset_url(self, url: Any, error: str) -> None:
        if error or not url or not open_url_externally(str(url)):
            self.status.showMessage(error or "Could not open the attachment.", 8000)

    # -- composer ---------------------------------------------------------------------------------
    def _set_editor_enabled(self, enabled: bool) -> None:
        self.editor.setEnabled(enabled)
        self.send_button.setEnabled(enabled)

    def _on_send_triggered(self) -> None:
        self.editor.request_send()

    def _on_editor_send_requested(self, text: str, context: Any) -> None:
        records = list(context.records) if context is not None else []
        ids = self.uploads.upload_ids(records)
        self._pending_sends += 1
        # Through the uploads, so a send waits for files still being registered with the client.
        self.uploads.send_message(self.current_thread, text, context, ids, self._on_sent)

    def _on_sent(self, result: Any, error: str) -> None:
        self._pending_sends -= 1
        self._on_command_done(result, error)

    @property
    def pending_sends(self) -> int:
        """Messages the user sent that the sync client has not queued yet."""
        return self._pending_sends

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
                and QKeySequence(event.keyCombination()).toString() == _SOURCES_KEY):
            event.ignore()
            if event.type() == QEvent.Type.KeyPress:
                self.sources_action.toggle()
                return True
            return True
        return super().eventFilter(watched, event)

    # -- sources ----------------------------------------------------------------------------------
    def set_sources_visible(self, visible: bool) -> None:
        """Ctrl+Shift+S: show or hide the Sources panel (opening it on the latest answer)."""
        if visible and not self.sources_dock.isVisible():
            latest = self._latest_sourced_message()
            if latest and self.sources_dock.panel.message_id != latest:
                self.sources_dock.show_sources(latest)
            self.sources_dock.show()
        elif not visible:
            self.sources_dock.hide()

    def _latest_sourced_message(self) -> str:
        for message in reversed(self.transcript.messages):
            if message.role == "assistant" and message.sources is not None:
                return message.message_id
        return ""

    def _on_sources_visibility_changed(self, visible: bool) -> None:
        if self.sources_action.isChecked() != visible:
            self.sources_action.blockSignals(True)
            self.sources_action.setChecked(visible)
            self.sources_action.blockSignals(False)

    # -- focus ------------------------------------------------------------------------------------
    def panes(self) -> list[QWidget]:
        """The panes F6 cycles through, in order."""
        return [self.thread_pane.list, self.transcript_stack.currentWidget(), self.editor,
                self.sources_dock.panel]

    def _focused_pane(self) -> int:
        focus = QApplication.focusWidget()
        for index, pane in enumerate(self.panes()):
            if focus is not None and (focus is pane or pane.isAncestorOf(focus)):
                return index
        return -1

    def _cycle(self, step: int) -> None:
        panes = self.panes()
        visible = [p.isVisible() and p.isEnabled() for p in panes]
        index = logic.next_pane(visible, self._focused_pane(), step)
        if index >= 0:
            self._focus(panes[index])

    @staticmethod
    def _focus(pane: QWidget) -> None:
        if pane.focusPolicy() != Qt.FocusPolicy.NoFocus:
            pane.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
        for child in pane.findChildren(QWidget):
            if child.isVisible() and child.focusPolicy() != Qt.FocusPolicy.NoFocus:
                child.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return
        pane.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_next_pane(self) -> None:
        """F6."""
        self._cycle(1)

    def focus_previous_pane(self) -> None:
        """Shift+F6."""
        self._cycle(-1)

    def focus_search(self) -> None:
        self.thread_pane.search.setFocus()
        self.thread_pane.search.selectAll()

    # -- switcher, settings, about ----------------------------------------------------------------
    def open_switcher(self) -> None:
        """Ctrl+K."""
        self.switcher.set_threads([(r.thread_id, thread_title(r))
                                   for r in self.thread_pane.model_rows(all_rows=True)])
        self.switcher.open_switcher()

    def open_settings(self) -> None:
        from composer_app.ui.app import apply_settings_result
        from composer_app.ui.settings_dialog import SettingsDialog

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

    # -- status ---------------------------------------------------------------------------------
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

    # -- window state -----------------------------------------------------------------------------
    def _update_title(self) -> None:
        row = self.thread_row(self.current_thread)
        self.setWindowTitle(f"{thread_title(row)} — Composer" if row is not None else "Composer")

    def _update_thread_actions(self) -> None:
        has = bool(self.current_thread)
        self.rename_action.setEnabled(has)
        self.archive_action.setEnabled(has)
        self.archive_action.setText("Un&archive thread" if self.current_thread in self.archived
                                    else "&Archive thread")
        self._update_assistant_menu()
        self._update_title()

    def _restore_window(self) -> None:
        geometry = self.window_settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(*DEFAULT_SIZE)
        state = self.window_settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        sizes = self.window_settings.value("window/splitter")
        if isinstance(sizes, QByteArray) and not sizes.isEmpty():
            self.splitter.restoreState(sizes)
        centre = self.window_settings.value("window/centre")
        if isinstance(centre, QByteArray) and not centre.isEmpty():
            self.centre.restoreState(centre)
        else:
            self.centre.setSizes([640, 120])

    def save_window(self) -> None:
        """Remember geometry, dock state, splitters and the last thread."""
        self.window_settings.setValue("window/geometry", self.saveGeometry())
        self.window_settings.setValue("window/state", self.saveState())
        self.window_settings.setValue("window/splitter", self.splitter.saveState())
        self.window_settings.setValue("window/centre", self.centre.saveState())
        if self.current_thread:
            self.window_settings.setValue("threads/last", self.current_thread)
        self.window_settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closed = True
        self._refresh_timer.stop()
        self.save_window()
        if self.autosave is not None:
            self.autosave.flush()
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
        deadline = QDeadlineTimer(timeout_ms)
        while self._busy() and not deadline.hasExpired():
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents,
                                           SHUTDOWN_POLL_MS)
        return not self._busy()

    def _busy(self) -> bool:
        return self._pending_sends > 0 or self.uploads.registering() > 0
