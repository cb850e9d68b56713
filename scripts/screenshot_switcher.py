"""Screenshot of the quick switcher (Ctrl+K) over the real app window to
``docs/switcher.png`` (offscreen, light theme).

It builds the window of ``screenshot_app.py`` (threads, a sourced answer), sends a message in two
more threads so their previews differ, opens the switcher on the thread list and saves the window
with the switcher drawn where it sits.

Usage: ``.venv/bin/python scripts/screenshot_switcher.py [output.png] [--dark]``
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshot_app import _wait, build  # noqa: E402

MESSAGES = {
    "Q3 travel budget": "Can we cap the offsite flights at 400 EUR per person?",
    "Onboarding docs review": "The setup guide still names the old VPN client; who owns it?",
}


def _ask(window: Any, title: str, text: str) -> None:
    thread = next(r.thread_id for r in window.navigator.threads if r.title == title)
    window.open_thread(thread)
    window.editor.insertPlainText(text)
    window.editor.request_send()
    _wait(lambda: any(m.role == "assistant" and not m.streaming
                      for m in window.transcript.messages), f"the answer in {title}")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    dark = "--dark" in sys.argv
    out = Path(args[0]) if args else ROOT / "docs" / "switcher.png"
    from PySide6.QtCore import QEventLoop, QPoint, QTimer
    from PySide6.QtGui import QColor, QPainter

    from composer_app.ui.application import shut_down

    with tempfile.TemporaryDirectory(prefix="composer-shot-") as tmp:
        for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
            os.environ[name] = str(Path(tmp) / name.lower())
        window, started = build(Path(tmp), dark)
        window.window_actions.sources_action.setChecked(False)
        window.editor.clear()
        for title, text in MESSAGES.items():
            _ask(window, title, text)
        staging = next(r.thread_id for r in window.navigator.threads
                       if r.title == "Staging rollback")
        window.open_thread(staging)
        window.window_actions.switcher_action.trigger()
        switcher = window.switcher
        _wait(lambda: sum(bool(e.preview) for e in switcher.entries()) >= 3, "the previews")
        for _ in range(3):  # a grab paints, painting lays out the rows it shows: settle
            window.grab()
            for _ in range(10):
                loop = QEventLoop()
                QTimer.singleShot(30, loop.quit)
                loop.exec()
        shot = window.grab()
        painter = QPainter(shot)
        painter.fillRect(shot.rect(), QColor(0, 0, 0, 60))  # the window behind the popup
        where = QPoint((window.width() - switcher.width()) // 2, 90)
        painter.drawPixmap(where, switcher.grab())
        painter.end()
        out.parent.mkdir(parents=True, exist_ok=True)
        shot.save(str(out))
        switcher.reject()
        shut_down(window, started)
    print(out)


if __name__ == "__main__":
    main()
