"""*Settings ▸ Accounts*: the GitHub token used for pull requests (kept in the system keyring).

Invariants: the token never appears in the field or the settings file; the field is empty and
its placeholder says whether a token is stored; ``token()`` is what was typed (None: keep the
stored one); *Forget* removes the stored token (``forget_requested`` on ``forgotten()``); without
a keyring the field is disabled and says why. Used when ``gh`` is not installed or not signed in
(``pull_requests.fetch_pull_request``).
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

TOKEN_OBJECT_NAME = "githubToken"


class AccountsSection(QGroupBox):
    """The *Accounts* group of the settings dialog."""

    def __init__(self, parent: QWidget | None = None, *, keyring_available: bool = True,
                 token_stored: bool = False) -> None:
        super().__init__("Accounts", parent)
        self.setObjectName("accountsSection")
        self._forget = False
        self.github_token = QLineEdit(self)
        self.github_token.setObjectName(TOKEN_OBJECT_NAME)
        self.github_token.setEchoMode(QLineEdit.EchoMode.Password)
        self.github_token.setAccessibleName("GitHub token")
        self.forget_button = QPushButton("Forget", self)
        self.forget_button.setToolTip("Remove the stored GitHub token from the keyring")
        self.forget_button.clicked.connect(self._on_forget_clicked)
        row = QHBoxLayout()
        row.addWidget(self.github_token, 1)
        row.addWidget(self.forget_button)
        form = QFormLayout()
        form.addRow("GitHub token", row)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.hint)
        self._show_state(keyring_available, token_stored)

    def _show_state(self, keyring_available: bool, stored: bool) -> None:
        self.github_token.setEnabled(keyring_available)
        self.forget_button.setEnabled(keyring_available and stored)
        if not keyring_available:
            self.github_token.setPlaceholderText("no system keyring on this computer")
            self.hint.setText("Pull requests need the GitHub command line (gh auth login) here: "
                              "without a system keyring no token can be kept.")
            return
        self.github_token.setPlaceholderText(
            "a token is stored; type to replace it" if stored else "ghp_… or github_pat_…")
        self.hint.setText("Used to attach pull requests when the GitHub command line (gh) is "
                          "not signed in. Kept in the system keyring, sent only to GitHub.")

    def _on_forget_clicked(self) -> None:
        self._forget = True
        self.github_token.clear()
        self._show_state(self.github_token.isEnabled(), False)
        self.hint.setText("The stored token is removed when you press OK.")

    def token(self) -> str | None:
        """The token typed in (None: keep what is stored)."""
        return self.github_token.text().strip() or None

    def forgotten(self) -> bool:
        """True when *Forget* was pressed and no new token was typed."""
        return self._forget and self.token() is None
