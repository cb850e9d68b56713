"""The sign-in prompt: one password field for a server's token.

Invariant: the answer is the trimmed token, or ``None`` when the user cancelled or typed nothing.
"""

from __future__ import annotations

__all__ = ["ask_token"]


def ask_token(url: str) -> str | None:
    """Prompt for a sign-in token (None when cancelled)."""
    from PySide6.QtWidgets import QInputDialog, QLineEdit

    token, ok = QInputDialog.getText(None, "Sign in to Composer",
                                     f"Token for {url}:", QLineEdit.EchoMode.Password)
    return token.strip() if ok and token.strip() else None
