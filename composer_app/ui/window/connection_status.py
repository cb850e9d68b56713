"""``ConnectionStatus``: keeps the status bar and the *Unsent messages* dialog in step with the
sync engine.

Invariants: the connection text and the unsent count always reflect the last state and outbox
snapshot the engine reported (the outbox is re-read whenever an item changes or the socket
connects); an engine error (``Cannot save messages``, ``Connection problem``) stays in the bar
until the connection is back; the keyring banner shows only for a remote server whose token has
no safe place to live; Retry / Delete go to the engine, Edit hands the removed item back through
``edit_ready`` (or says the message is no longer waiting: it went out meanwhile); *Sign in
again* (shown while the server refuses the token) asks for a token, keeps it in the token store
and hands it to the engine, which reconnects without a restart; the
controller reads the connection state only from the bridge (its snapshot, then its signal) and
talks to the engine only through ``EngineCalls`` (never blocking). With several servers the
connection text names the open thread's server, the unsent count and the dialog cover every
server's outbox (each line named with its server, its Retry / Edit / Delete going to that
server's engine), and a token typed in *Sign in again* also becomes the one a paste from that
server fetches with (``use_token``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot

from composer_app.sync.outbox import EditedMessage
from composer_app.sync.secrets import REMEMBER_ACTION, TokenStore
from composer_app.sync.store import OutboxRow
from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.sign_in import ask_token
from composer_app.ui.sync_bridge import SyncBridge
from composer_app.ui.window import main_window_logic as logic
from composer_app.ui.window.status_bar import (
    AppStatusBar,
    UnsentDialog,
    outbox_html,
    outbox_line,
)

__all__ = ["MESSAGE_MS", "ConnectionStatus"]

MESSAGE_MS = 8000


class ConnectionStatus(QObject):
    """Status bar, unsent count and dialog for one window."""

    edit_ready = Signal(object)  # EditedMessage: text and context back for the composer
    unsent_changed = Signal(int)
    connected = Signal()

    def __init__(self, bar: AppStatusBar, dialog: UnsentDialog, bridge: SyncBridge,
                 calls: EngineCalls, tokens: TokenStore, *, embedded: bool,
                 title_of: Callable[[str], str], server_url: str = "",
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bar = bar
        self.dialog = dialog
        self._bridge = bridge
        self._tokens = tokens
        self._embedded = embedded
        self._calls = calls
        self._title_of = title_of
        self._server_url = server_url
        self.ask_token: Callable[[str], str | None] = ask_token
        self.use_token: Callable[[str], bool] | None = None
        """Hands a token typed in *Sign in again* to the open thread's server (its engine and
        what a paste from it fetches with); True when it took it. Set by a window with several
        servers; else the token goes to the engine through ``EngineCalls.set_token``."""
        self.sign_in_signed_out: Callable[[], None] | None = None
        """*Sign in* for a server that was signed out (its engine stopped): set by the window
        with several servers; the bar then offers it while the open thread's server is signed
        out."""
        self._state = (bridge.connection_state[0], 0)
        self._outbox: list[OutboxRow] = []
        self.outbox_accounts: Callable[[], list[tuple[str, str]]] | None = None
        """``(account id, server name)`` of every running engine, the active one among them:
        set by a window with several servers; the unsent count and the dialog then cover
        every server, each line naming its server."""
        self.active_account: Callable[[], str] = lambda: ""
        self._outboxes: dict[str, list[OutboxRow]] = {}
        self._names: dict[str, str] = {}
        self._account_of_message: dict[str, str] = {}
        self._sticky_error = False
        self._connect_signals()
        self.update_banner()
        self._render()
        self.refresh_outbox()

    def _connect_signals(self) -> None:
        self._bridge.outbox_item_changed.connect(self._on_bridge_outbox_item_changed)
        self._bridge.connection_state_changed.connect(self._on_bridge_connection_state_changed)
        self._bridge.toast_requested.connect(self._on_bridge_toast_requested)
        self.bar.retry_now_requested.connect(self.retry_now)
        self.bar.unsent_requested.connect(self.open_unsent)
        self.bar.remember_requested.connect(self._on_bar_remember_requested)
        self.bar.sign_in_requested.connect(self.sign_in_again)
        self.dialog.retry_requested.connect(self._on_dialog_retry_requested)
        self.dialog.edit_requested.connect(self._on_dialog_edit_requested)
        self.dialog.delete_requested.connect(self._on_dialog_delete_requested)

    # -- state ----------------------------------------------------------------------------------
    def set_server(self, embedded: bool, server_url: str) -> None:
        """The open thread's server changed (several servers in one window): its connection,
        its outbox and its token from now on."""
        self._embedded = embedded
        self._server_url = server_url
        self._state = (self._bridge.connection_state[0], 0)
        self._sticky_error = False
        self.update_banner()
        self._render()
        self.refresh_outbox()

    def refresh_outbox(self) -> None:
        """Re-read the queued items (of every server's engine when there are several)."""
        accounts = self.outbox_accounts() if self.outbox_accounts is not None else []
        if not accounts:
            self._outboxes, self._names = {}, {}
            self._calls.outbox_items(self._on_outbox_items)
            return
        self._names = dict(accounts)
        self._outboxes = {a: r for a, r in self._outboxes.items() if a in self._names}
        for account_id, _name in accounts:
            self._calls.outbox_items_of(account_id, functools.partial(self._on_account_outbox,
                                                                      account_id))

    def _on_account_outbox(self, account_id: str, rows: list[OutboxRow] | None,
                           error: str) -> None:
        if account_id not in self._names:
            return  # signed out meanwhile
        self._outboxes[account_id] = [] if error else list(rows or [])
        self._account_of_message = {r.message_id: a for a, rs in self._outboxes.items()
                                    for r in rs if r.message_id}
        self._outbox = list(self._outboxes.get(self.active_account(), []))
        self._render()
        if self.dialog.isVisible():
            self._fill_dialog()

    def _on_outbox_items(self, rows: list[OutboxRow] | None, error: str) -> None:
        if error:
            return
        self._outbox = list(rows or [])
        self._render()
        if self.dialog.isVisible():
            self._fill_dialog()

    def _render(self) -> None:
        summary = logic.summarize_outbox(self._outbox)
        state, next_try = self._state
        text = logic.connection_text(state, next_try, embedded=self._embedded,
                                     syncing=summary.sending)
        if len(self._names) > 1:  # several servers: say whose connection this is
            name = self._names.get(self.active_account(), "")
            text = f"{name}: {text}" if name else text
        self.bar.set_connection(
            text,
            logic.can_retry_now(state),
            logic.connection_tone(state, syncing=summary.sending),
            logic.can_sign_in_again(state)
            or (state == "signed-out" and self.sign_in_signed_out is not None))
        if self._outboxes:
            summaries = [(self._names.get(a, a), logic.summarize_outbox(rows))
                         for a, rows in self._outboxes.items()]
            text, tip = logic.unsent_by_server(summaries)
            self.bar.set_unsent(text, tip)
            self.unsent_changed.emit(sum(s.unsent for _, s in summaries))
            return
        self.bar.set_unsent(logic.unsent_text(summary))
        self.unsent_changed.emit(summary.unsent)

    def update_banner(self) -> None:
        """Show the keyring fallback banner when it applies (remote server, no keyring)."""
        banner = None if self._embedded else self._tokens.banner
        self.bar.set_banner(banner, REMEMBER_ACTION)

    def show_message(self, text: str, ms: int = MESSAGE_MS) -> None:
        self.bar.showMessage(text, ms)

    # -- actions --------------------------------------------------------------------------------
    def retry_now(self) -> None:
        """*Retry now*: wake the socket backoff and the queues."""
        self._calls.retry_now()

    def sign_in_again(self) -> None:
        """*Sign in again*: ask for a token, keep it, and reconnect with it (no restart); a
        signed-out server is signed in through ``sign_in_signed_out``."""
        if self._state[0] == "signed-out" and self.sign_in_signed_out is not None:
            self.sign_in_signed_out()
            return
        token = self.ask_token(self._server_url or "this server")
        if not token:
            return
        if self._server_url and not self._embedded:
            self._tokens.set(self._server_url, token)
            self.update_banner()
        if self.use_token is None or not self.use_token(token):
            self._calls.set_token(token)
        self.show_message("Signing in with the new token…")

    def open_unsent(self) -> None:
        """Show the queued messages."""
        self._fill_dialog()
        self.dialog.show()
        self.dialog.raise_()

    def _fill_dialog(self) -> None:
        lines = []
        several = len(self._outboxes) > 1
        rows = ([(a, r) for a, rs in self._outboxes.items() for r in rs] if self._outboxes
                else [("", r) for r in self._outbox])
        for account_id, row in rows:
            if row.message_id:
                text = str(row.payload.get("message", {}).get("text", ""))
                title = self._title_of(row.thread_id)
                if several:
                    title = f"{self._names.get(account_id, account_id)} · {title}"
                lines.append((row.message_id, row.state, outbox_line(row, title, text),
                              outbox_html(row, title, text)))
        self.dialog.set_items(lines)

    def _on_edited(self, edited: EditedMessage | None, error: str) -> None:
        if error:
            self.show_message(error)
        elif edited is not None:
            self.edit_ready.emit(edited)
        else:  # delivered while Edit waited for its attempt, or removed elsewhere
            self.show_message("That message is no longer waiting to be sent.")

    # -- handlers -------------------------------------------------------------------------------
    @Slot(str, int)
    def _on_bridge_connection_state_changed(self, state: str, next_try: int) -> None:
        self._state = (state, next_try)
        self._render()
        if state == "connected":
            if self._sticky_error:
                self._sticky_error = False
                self.bar.clearMessage()
            self.connected.emit()
            self.refresh_outbox()

    @Slot(str, str, str)
    def _on_bridge_outbox_item_changed(self, _thread: str, _message: str, _state: str) -> None:
        self.refresh_outbox()

    @Slot(str, str, str)
    def _on_bridge_toast_requested(self, level: str, title: str, body: str) -> None:
        text = f"{title}: {body}" if title and body else title or body
        if level == "error":  # stays until the connection is back (or another message)
            self._sticky_error = True
            self.show_message(text, 0)
        else:
            self.show_message(text, 10000)

    def _on_bar_remember_requested(self) -> None:
        self._tokens.remember_on_device()
        self.update_banner()
        self.show_message("Token stored unencrypted on this device.")

    def _on_dialog_retry_requested(self, message_id: str) -> None:
        self._calls.retry(message_id, self._account_of_message.get(message_id))

    def _on_dialog_delete_requested(self, message_id: str) -> None:
        self._calls.delete(message_id, self._account_of_message.get(message_id))

    def _on_dialog_edit_requested(self, message_id: str) -> None:
        self._calls.edit(message_id, self._on_edited, self._account_of_message.get(message_id))
