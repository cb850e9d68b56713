"""``EngineGate``: the window's actions that need a running sync engine, disabled with the reason
while the open thread's server has none (it was signed out and no engine answers for it).

Invariants: while ``reason()`` is not empty every guarded action is disabled and its tooltip and
status tip say why, whatever its owner sets meanwhile (an owner enabling it is remembered, not
shown); once the reason is gone every action gets back the enabled state and tips its owner last
gave it. The gate never calls the engine; ``update`` is cheap and idempotent.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

__all__ = ["EngineGate"]


class EngineGate(QObject):
    """Disables the guarded actions while ``reason()`` names why no engine answers."""

    def __init__(self, reason: Callable[[], str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.reason = reason
        self._actions: list[QAction] = []
        self._wanted: dict[int, tuple[bool, str, str]] = {}  # id(action): enabled, tips
        self._blocked = ""
        self._applying = False

    @property
    def blocked(self) -> str:
        """Why the guarded actions are disabled ("" while an engine answers)."""
        return self._blocked

    def guard(self, *actions: QAction) -> None:
        """Guard ``actions`` from now on (each once)."""
        for action in actions:
            if any(a is action for a in self._actions):
                continue
            self._actions.append(action)
            action.enabledChanged.connect(
                lambda enabled, a=action: self._on_enabled_changed(a, enabled))
            if self._blocked:
                self._block(action)

    def update(self) -> None:
        """Read ``reason()`` again and apply it."""
        reason = self.reason()
        if reason == self._blocked:
            return
        was_blocked = bool(self._blocked)
        self._blocked = reason
        for action in self._actions:
            if reason:
                self._block(action, remember=not was_blocked)
            else:
                self._release(action)

    def _block(self, action: QAction, remember: bool = True) -> None:
        if remember:
            self._wanted[id(action)] = (action.isEnabled(), action.toolTip(),
                                        action.statusTip())
        self._applying = True
        try:
            action.setEnabled(False)
            action.setToolTip(self._blocked)
            action.setStatusTip(self._blocked)
        finally:
            self._applying = False

    def _release(self, action: QAction) -> None:
        enabled, tip, status = self._wanted.pop(id(action), (action.isEnabled(), "", ""))
        self._applying = True
        try:
            action.setToolTip(tip)
            action.setStatusTip(status)
            action.setEnabled(enabled)
        finally:
            self._applying = False

    def _on_enabled_changed(self, action: QAction, enabled: bool) -> None:
        if self._applying or not self._blocked:
            return
        _was, tip, status = self._wanted.get(id(action), (False, "", ""))
        self._wanted[id(action)] = (enabled, tip, status)
        if enabled:
            self._applying = True
            try:
                action.setEnabled(False)
            finally:
                self._applying = False
