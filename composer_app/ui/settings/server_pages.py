"""``ServerPages``: the Settings dialog's *Servers* section — a page per server with its name,
address, live connection state and what can be done with it.

Invariants: the pages render ``server_pages_logic.server_pages`` for the window's servers and are
rebuilt whenever a server is added, removed, renamed, signed in or out, or its connection changes,
so the dialog always shows what is connected; every change goes through the window's
``ServerAccounts`` at once (no *OK* needed) and never touches another server.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from composer_app.ui.settings.server_pages_logic import ServerPage, server_pages
from composer_app.ui.threads.thread_list import dot_icon
from composer_app.ui.window.server_accounts import ServerAccounts

__all__ = ["ServerPages"]


class ServerPages(QWidget):
    """A list of servers beside the chosen server's page."""

    def __init__(self, servers: ServerAccounts, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("serverPages")
        self._servers = servers
        self._pages: list[ServerPage] = []
        self.list = QListWidget(self)
        self.list.setAccessibleName("Servers")
        self.list.setMaximumWidth(180)
        self.name = QLineEdit(self)
        self.name.setAccessibleName("Server name")
        self.address = QLabel(self)
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status = QLabel(self)
        self.status.setObjectName("serverStatus")
        self.status.setWordWrap(True)
        self.sign_in = QPushButton("Sign in…", self)
        self.sign_out = QPushButton("Sign out", self)
        self.remove = QPushButton("Remove…", self)
        self.start = QPushButton("Start", self)
        self.add = QPushButton("Add server…", self)
        self.opens_at_start = QCheckBox("Composer opens on this server", self)
        self.opens_at_start.setObjectName("opensAtStart")
        self.opens_at_start.setToolTip("The server whose threads show first when Composer "
                                       "starts; every signed-in server connects too")
        form = QFormLayout()
        form.addRow("Name:", self.name)
        form.addRow("Address:", self.address)
        form.addRow("Status:", self.status)
        form.addRow("", self.opens_at_start)
        buttons = QHBoxLayout()
        for button in (self.sign_in, self.sign_out, self.start, self.remove):
            buttons.addWidget(button)
        buttons.addStretch(1)
        page = QVBoxLayout()
        page.addLayout(form)
        page.addLayout(buttons)
        page.addStretch(1)
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        left.addWidget(self.add)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(left)
        layout.addLayout(page, 1)
        self.list.currentRowChanged.connect(self._show_page)
        self.name.editingFinished.connect(self._on_name_edited)
        self.sign_in.clicked.connect(lambda: servers.sign_in_interactive(self.current()))
        self.sign_out.clicked.connect(lambda: servers.sign_out_interactive(self.current()))
        self.remove.clicked.connect(lambda: servers.remove_interactive(self.current()))
        self.start.clicked.connect(self._on_start_clicked)
        self.opens_at_start.clicked.connect(self._on_opens_at_start_clicked)
        self.add.clicked.connect(servers.add_server_interactive)
        servers.accounts_changed.connect(self.refresh)
        servers.bridge.account_state_changed.connect(self._on_account_state_changed)
        self.refresh()
        self.select(servers.current())

    def pages(self) -> list[ServerPage]:
        return list(self._pages)

    def current(self) -> str:
        row = self.list.currentRow()
        return self._pages[row].account_id if 0 <= row < len(self._pages) else ""

    def select(self, account_id: str) -> None:
        row = next((i for i, p in enumerate(self._pages) if p.account_id == account_id), 0)
        self.list.setCurrentRow(row)

    def refresh(self) -> None:
        """Rebuild the pages from the servers' live state, keeping the chosen one."""
        keep = self.current()
        servers = self._servers
        bridge = servers.bridge
        running = bridge.account_ids()
        listed = {a for a, _name in servers.listed()}
        accounts = [a for a in servers.book if a.account_id in listed]
        self._pages = server_pages(accounts, {a: bridge.state_of(a)[0] for a in running},
                                   running, embedded_startable=servers.embedded_starter
                                   is not None, start_account=servers.book.start_account)
        blocked = self.list.blockSignals(True)
        try:
            self.list.clear()
            for page in self._pages:
                item = QListWidgetItem(dot_icon(page.color), page.name)
                item.setToolTip(page.status)
                self.list.addItem(item)
        finally:
            self.list.blockSignals(blocked)
        self.select(keep)
        self._show_page(self.list.currentRow())

    def _on_account_state_changed(self, _account_id: str, _state: str, _next: int) -> None:
        self.refresh()

    def _show_page(self, row: int) -> None:
        page = self._pages[row] if 0 <= row < len(self._pages) else None
        for widget in (self.name, self.sign_in, self.sign_out, self.remove, self.start,
                       self.opens_at_start):
            widget.setEnabled(page is not None)
        if page is None:
            return
        if not self.name.hasFocus():
            self.name.setText(page.name)
        self.address.setText(page.address)
        self.status.setText(page.status)
        self.sign_in.setVisible(page.can_sign_in)
        self.sign_out.setVisible(page.can_sign_out)
        self.remove.setVisible(page.can_remove)
        self.start.setVisible(page.can_start)
        self.opens_at_start.setChecked(page.opens_at_start)
        self.opens_at_start.setEnabled(not page.opens_at_start)  # choose another one instead

    def _on_name_edited(self) -> None:
        account_id = self.current()
        page = next((p for p in self._pages if p.account_id == account_id), None)
        if page is not None and self.name.text().strip() and self.name.text() != page.name:
            self._servers.rename(account_id, self.name.text())

    def _on_opens_at_start_clicked(self, checked: bool) -> None:
        account_id = self.current()
        if checked and account_id:
            self._servers.set_start_server(account_id)

    def _on_start_clicked(self) -> None:
        starter = self._servers.embedded_starter
        if starter is not None:
            starter()
