"""The sign-in prompt (one password field for a server's token) and, when it is cancelled, the
offer of the embedded server.

Invariants: the prompt's answer is the trimmed token, or ``None`` when the user cancelled or typed
nothing; the offer is ``True`` only when the user chose the embedded server.
"""

from __future__ import annotations

__all__ = ["ask_token", "offer_embedded"]


def ask_token(url: str) -> str | None:
    """Prompt for a sign-in token (None when cancelled)."""
    from PySide6.QtWidgets import QInputDialog, QLineEdit

    token, ok = QInputDialog.getText(None, "Sign in to Composer",
                                     f"Token for {url}:", QLineEdit.EchoMode.Password)
    return token.strip() if ok and token.strip() else None


def offer_embedded(url: str) -> bool:
    """After a cancelled sign-in: ``True`` when the user chooses this computer's embedded server
    over quitting."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(QMessageBox.Icon.Question, "Composer",
                      f"You did not sign in to {url}.\n\nStart with the embedded server on this "
                      "computer instead? Your threads there are kept apart from the remote "
                      "server's.")
    embedded = box.addButton("Use the embedded server", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Quit", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(embedded)
    box.exec()
    return box.clickedButton() is embedded
