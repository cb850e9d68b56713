"""``ServerAccounts``: the servers of one window — adding, signing in and out, renaming and
removing them, Ctrl+1…Ctrl+9, and what a paste may fetch from each.

Invariants: every account's engine is its own (``AccountEngines``); signing out or removing one
stops only its engine and takes only its threads out of the list — the others keep their
connections, threads and outboxes, and its own outbox stays on disk until it signs in again
(remove also forgets its token, never its files); the embedded server can be neither signed out
nor removed; a token typed in *Add server…* goes to the token store (the keyring) before the
engine starts; ``sources`` (what a paste from another server fetches through) always names every
other signed-in server with a known environment, with the token its engine uses (a token typed
again — *Sign in again*, Settings — replaces it at once through ``use_token``); adding a server
never changes the server Composer opens on (``set_start_server`` does).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QPoint, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from composer_app.sync.accounts import (
    Account,
    AccountBook,
    AccountError,
    is_server_url,
    normalize_server_url,
)
from composer_app.sync.secrets import TokenStore
from composer_app.ui.account_engines import AccountEngines
from composer_app.ui.active_bridge import ActiveBridge
from composer_app.ui.composer.attachment_uploads import SourceEnvironment
from composer_app.ui.threads.server_groups_logic import MAX_JUMP

__all__ = ["TOKEN_HINT", "AddServerDialog", "ServerAccounts"]

TOKEN_HINT = ("Tokens come from the server: run <code>composer-server create-token</code> on it "
              "and paste the token it prints.")


class AddServerDialog(QDialog):
    """*File ▸ Add server…*: the address, an optional name and the token."""

    def __init__(self, parent: QWidget | None = None, url: str = "", name: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("addServerDialog")
        self.setWindowTitle("Add server")
        self.url = QLineEdit(url, self)
        self.url.setPlaceholderText("https://composer.example.org")
        self.url.setAccessibleName("Server address")
        self.name = QLineEdit(name, self)
        self.name.setPlaceholderText("Shown in the thread list (optional)")
        self.name.setAccessibleName("Server name")
        self.token = QLineEdit(self)
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setAccessibleName("Token")
        self.hint = QLabel(TOKEN_HINT, self)
        self.hint.setObjectName("tokenHint")
        self.hint.setWordWrap(True)
        self.error = QLabel(self)
        self.error.setObjectName("addServerError")
        self.error.setStyleSheet("color: #dc2626")
        self.error.hide()
        form = QFormLayout()
        form.addRow("Address:", self.url)
        form.addRow("Name:", self.name)
        form.addRow("Token:", self.token)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setText("Sign in")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.hint)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def problem(self) -> str:
        """Why the dialog cannot be accepted ("" when it can)."""
        if not is_server_url(self.url.text()):
            return "Enter the server address as an http:// or https:// URL."
        if not self.token.text().strip():
            return "Enter the token (see below where it comes from)."
        return ""

    def _accept(self) -> None:
        problem = self.problem()
        if problem:
            self.error.setText(problem)
            self.error.show()
            return
        self.accept()


class ServerAccounts(QObject):
    """The window's servers (see the module invariants)."""

    status_message = Signal(str)
    accounts_changed = Signal()  # added, removed, renamed, signed in or out

    def __init__(self, book: AccountBook, engines: AccountEngines, bridge: ActiveBridge,
                 tokens: TokenStore, *, dialog_parent: QWidget | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.book = book
        self.engines = engines
        self.bridge = bridge
        self.tokens = tokens
        self._dialog_parent = dialog_parent
        self.jump: Callable[[int], None] = _ignore
        """What Ctrl+digit does (the navigator's ``jump_to_server``)."""
        self.add_action = QAction("Add server…", self)
        self.add_action.setObjectName("addServerAction")
        self.add_action.triggered.connect(self.add_server_interactive)
        self.rename_action = QAction("Rename server…", self)
        self.rename_action.triggered.connect(lambda: self.rename_interactive(self.current()))
        self.sign_out_action = QAction("Sign out of server", self)
        self.sign_out_action.triggered.connect(lambda: self.sign_out_interactive(self.current()))
        self.remove_action = QAction("Remove server…", self)
        self.remove_action.triggered.connect(lambda: self.remove_interactive(self.current()))
        self.jump_actions: list[QAction] = []
        for number in range(1, MAX_JUMP + 1):
            action = QAction(f"Server {number}", self)
            action.setObjectName(f"jumpToServer{number}")
            action.setShortcut(QKeySequence(f"Ctrl+{number}"))
            action.triggered.connect(lambda _=False, n=number: self.jump(n))
            self.jump_actions.append(action)
        bridge.active_changed.connect(self._update_actions)
        bridge.active_changed.connect(lambda _a: self.refresh_sources())
        bridge.account_environment_changed.connect(lambda _a: self.refresh_sources())
        self.sources_changed: Callable[[dict[str, SourceEnvironment]], None] = _ignore_sources
        self.embedded_starter: Callable[[], None] | None = None
        """Starts the embedded server when it is not running (set by the app; the list then
        shows the embedded server even while it is not running)."""
        self._update_actions()

    # -- menus -----------------------------------------------------------------------------------
    def add_to_menu(self, menu: QMenu, before: QAction | None = None) -> None:
        """The server entries and *Go to server* (Ctrl+1…Ctrl+9) in the File menu (before
        ``before``)."""
        self.go_menu = QMenu("Go to server", menu)
        self.go_menu.setObjectName("goToServerMenu")
        self.go_menu.addActions(self.jump_actions)
        entries = [self.add_action, self.rename_action, self.sign_out_action,
                   self.remove_action]
        for action in entries:
            if before is not None:
                menu.insertAction(before, action)
            else:
                menu.addAction(action)
        if before is not None:
            menu.insertMenu(before, self.go_menu)
            menu.insertSeparator(before)
        else:
            menu.addMenu(self.go_menu)
        self.name_jumps()

    def name_jumps(self) -> None:
        """Each Ctrl+digit entry names its server; the ones past the list are hidden."""
        listed = self.listed()
        for position, action in enumerate(self.jump_actions):
            if position < len(listed):
                action.setText(listed[position][1].replace("&", "&&"))
                action.setVisible(True)
            else:
                action.setVisible(False)

    def header_menu(self, account_id: str) -> QMenu:
        """A server header's context menu."""
        account = self.book.get(account_id)
        menu = QMenu(self._dialog_parent)
        if account is None:
            return menu
        menu.addAction("Rename…", lambda: self.rename_interactive(account_id))
        starter = self.embedded_starter
        if account.embedded and starter is not None and self.engines.bridge(account_id) is None:
            menu.addAction("Start the embedded server", starter)
        if not account.embedded:
            if self.engines.bridge(account_id) is None:
                menu.addAction("Sign in…", lambda: self.sign_in_interactive(account_id))
            else:
                menu.addAction("Sign out", lambda: self.sign_out_interactive(account_id))
            menu.addAction("Remove…", lambda: self.remove_interactive(account_id))
        return menu

    def show_header_menu(self, account_id: str, pos: QPoint) -> None:
        self.header_menu(account_id).exec(pos)

    def listed(self) -> list[tuple[str, str]]:
        """``(account id, name)`` of the servers the thread list shows, in order: every
        signed-in one and every remote one (a signed-out server offers *Sign in…* there); the
        embedded server when it runs."""
        running = set(self.bridge.account_ids())
        idle_embedded = self.embedded_starter is not None
        return [(a.account_id, a.name) for a in self.book
                if a.account_id in running or not a.embedded or idle_embedded]

    def current(self) -> str:
        return self.bridge.active_account

    def _update_actions(self, *_: object) -> None:
        account = self.book.get(self.current())
        remote = account is not None and not account.embedded
        self.sign_out_action.setEnabled(remote and self.engines.bridge(self.current()) is not None)
        self.remove_action.setEnabled(remote)
        self.rename_action.setEnabled(account is not None)

    # -- what a paste may fetch from -------------------------------------------------------------
    def sources(self) -> dict[str, SourceEnvironment]:
        """Every other signed-in server with a known environment, by environment id."""
        found: dict[str, SourceEnvironment] = {}
        for run in self.engines.runs():
            if run.account.account_id == self.current() or run.bridge is None:
                continue
            environment = run.bridge.environment
            if environment is not None:
                found[environment.environment_id] = SourceEnvironment(
                    environment.environment_id, run.url, run.token)
        return found

    def use_token(self, account_id: str, token: str) -> bool:
        """``account_id``'s engine signs in again with ``token`` (no restart) and a paste from
        that server fetches with it from now on; False when its engine does not run."""
        run = self.engines.run(account_id)
        if run is None or run.bridge is None or run.stopped or not token:
            return False
        run.token = token
        try:
            self.bridge.submit_to(account_id, lambda engine: engine.set_token(token))
        except RuntimeError:  # signed out meanwhile
            return False
        self.refresh_sources()
        return True

    def use_token_for_url(self, url: str, token: str) -> bool:
        """``use_token`` for the signed-in server at ``url`` (False when none is)."""
        wanted = normalize_server_url(url)
        for run in self.engines.runs():
            if not run.account.embedded and normalize_server_url(run.url) == wanted:
                return self.use_token(run.account.account_id, token)
        return False

    def refresh_sources(self) -> None:
        self.sources_changed(self.sources())

    # -- changes ---------------------------------------------------------------------------------
    def add_server(self, url: str, token: str, name: str = "") -> Account:
        """Add (or select the known) server, keep its token and start its engine (the server
        the app opens on stays the one chosen in Settings)."""
        start = self.book.start_account
        account = self.book.add(url, name)
        if self.book.start_account != start:
            self.book.set_start_account(start)
        self.tokens.set(account.url, token.strip())
        self._start(account, token.strip())
        return account

    def sign_in(self, account_id: str, token: str) -> None:
        account = self.book.get(account_id)
        if account is None or account.embedded:
            return
        self.tokens.set(account.url, token.strip())
        self._start(account, token.strip())

    def start_saved(self, account: Account, url: str, token: str) -> None:
        """Connect a saved server at start (its token from the token store, or the embedded
        server's own)."""
        self._start(account, token, url)

    def _start(self, account: Account, token: str, url: str = "") -> None:
        run = self.engines.start(account, url or account.url, token)
        if run.bridge is not None:
            self.bridge.add_account(account.account_id, run.bridge)
            self.status_message.emit(f"Connecting to {account.name}…")
        else:
            self.status_message.emit(f"Could not start {account.name}: {run.error}")
        self._changed()

    def sign_out(self, account_id: str) -> None:
        """Stop the server's engine and forget its token; its outbox stays on disk."""
        account = self.book.get(account_id)
        if account is None or account.embedded:
            return
        self.bridge.remove_account(account_id)
        self.engines.stop(account_id)
        self.tokens.delete(account.url)
        self._leave(account_id)
        self._changed()

    def remove(self, account_id: str) -> None:
        """Sign out and take the server off the list."""
        self.sign_out(account_id)
        try:
            self.book.remove(account_id)
        except AccountError as exc:
            self.status_message.emit(str(exc))
        self._changed()

    def set_start_server(self, account_id: str) -> None:
        """Open the app on ``account_id`` from the next start (Settings ▸ Servers)."""
        try:
            self.book.set_start_account(account_id)
        except AccountError as exc:
            self.status_message.emit(str(exc))
        self._changed()

    def rename(self, account_id: str, name: str) -> None:
        try:
            self.book.rename(account_id, name)
        except AccountError as exc:
            self.status_message.emit(str(exc))
        self._changed()

    def _leave(self, account_id: str) -> None:
        """The active server went away: the first signed-in one takes over."""
        if self.bridge.active_account == account_id:
            remaining = self.bridge.account_ids()
            if remaining:
                self.bridge.set_active(remaining[0])

    def _changed(self) -> None:
        self._update_actions()
        if hasattr(self, "go_menu"):
            self.name_jumps()
        self.refresh_sources()
        self.accounts_changed.emit()

    # -- dialogs ---------------------------------------------------------------------------------
    def add_server_interactive(self) -> None:
        dialog = AddServerDialog(self._dialog_parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        try:
            account = self.add_server(dialog.url.text(), dialog.token.text(), dialog.name.text())
        except AccountError as exc:
            QMessageBox.warning(self._dialog_parent, "Add server", str(exc))
            return
        self.status_message.emit(f"Added {account.name}.")

    def sign_in_interactive(self, account_id: str) -> None:
        account = self.book.get(account_id)
        if account is None:
            return
        dialog = AddServerDialog(self._dialog_parent, account.url, account.name)
        dialog.setWindowTitle(f"Sign in to {account.name}")
        dialog.url.setReadOnly(True)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.sign_in(account_id, dialog.token.text())

    def rename_interactive(self, account_id: str) -> None:
        account = self.book.get(account_id)
        if account is None:
            return
        name, ok = QInputDialog.getText(self._dialog_parent, "Rename server", "Name:",
                                        text=account.name)
        if ok:
            self.rename(account_id, name)

    def sign_out_interactive(self, account_id: str) -> None:
        account = self.book.get(account_id)
        if account is None or account.embedded:
            return
        answer = QMessageBox.question(
            self._dialog_parent, "Sign out",
            f"Sign out of {account.name}? Its threads leave the list until you sign in again; "
            "messages not sent yet are kept on this computer.")
        if answer == QMessageBox.StandardButton.Yes:
            self.sign_out(account_id)

    def remove_interactive(self, account_id: str) -> None:
        account = self.book.get(account_id)
        if account is None or account.embedded:
            return
        answer = QMessageBox.question(
            self._dialog_parent, "Remove server",
            f"Remove {account.name} from Composer? Its token is forgotten; its cached threads "
            "and unsent messages stay on this computer and come back if you add it again.")
        if answer == QMessageBox.StandardButton.Yes:
            self.remove(account_id)


def _ignore(_number: int) -> None:
    return None


def _ignore_sources(_sources: dict[str, SourceEnvironment]) -> None:
    return None
