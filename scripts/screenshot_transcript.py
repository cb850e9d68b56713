"""Render a thread with chips of every kind and a sourced answer (tokens, labels, Sources panel
open) offscreen to ``docs/transcript.png`` (and ``docs/transcript_dark.png``), and a thread answered
by the real offline assistant over a small knowledge folder to ``docs/transcript_local.png``.

Usage: ``python scripts/screenshot_transcript.py [output.png]``
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QMainWindow

from composer_app.core.codecs.sources import normalize_sources
from composer_app.server.providers.base import Done, Sources, TurnRequest
from composer_app.server.providers.local import LocalProvider
from composer_app.ui.transcript.samples import chip_message, sourced_message
from composer_app.ui.transcript.sources_dock import SourcesDock
from composer_app.ui.transcript.view import TranscriptView

ROOT = Path(__file__).resolve().parent.parent


def dark_palette() -> QPalette:
    """A plain dark palette for the dark screenshot."""
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#16181d",
        QPalette.ColorRole.Base: "#16181d",
        QPalette.ColorRole.AlternateBase: "#22262e",
        QPalette.ColorRole.Text: "#e5e7eb",
        QPalette.ColorRole.WindowText: "#e5e7eb",
        QPalette.ColorRole.Button: "#22262e",
        QPalette.ColorRole.ButtonText: "#e5e7eb",
        QPalette.ColorRole.Highlight: "#3b82f6",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.PlaceholderText: "#9ca3af",
        QPalette.ColorRole.Link: "#93c5fd",
        QPalette.ColorRole.Mid: "#374151",
        QPalette.ColorRole.BrightText: "#ffffff",
    }
    for role, color in roles.items():
        palette.setColor(role, QColor(color))
    return palette


def light_palette() -> QPalette:
    """The light palette (explicit so the picture does not depend on the platform theme)."""
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#ffffff",
        QPalette.ColorRole.Base: "#ffffff",
        QPalette.ColorRole.AlternateBase: "#f3f4f6",
        QPalette.ColorRole.Text: "#1f2328",
        QPalette.ColorRole.WindowText: "#1f2328",
        QPalette.ColorRole.Button: "#f3f4f6",
        QPalette.ColorRole.ButtonText: "#1f2328",
        QPalette.ColorRole.Highlight: "#2563eb",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.PlaceholderText: "#6b7280",
        QPalette.ColorRole.Link: "#1d4ed8",
        QPalette.ColorRole.Mid: "#e5e7eb",
        QPalette.ColorRole.BrightText: "#1f2937",
    }
    for role, color in roles.items():
        palette.setColor(role, QColor(color))
    return palette


def render(app: QApplication, out: Path, palette: QPalette) -> None:
    """Build the window, open the panel on the answer, select token 1 and save a picture."""
    app.setPalette(palette)
    window = QMainWindow()
    window.setPalette(palette)
    window.resize(1280, 760)
    view = TranscriptView()
    window.setCentralWidget(view)
    dock = SourcesDock(view, window)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.resizeDocks([dock], [420], Qt.Orientation.Horizontal)
    answer = sourced_message()
    view.transcript_model().load([chip_message(), answer])
    window.show()
    for _ in range(5):
        app.processEvents()
    view.citation_activated.emit(answer["messageId"], "src_1")
    view.set_active_source(answer["messageId"], "src_1")
    row = dock.panel.rows["src_1"]
    row.set_details_visible(True)
    dock.panel.rows["src_3"].set_details_visible(True)
    dock.panel.group_buttons["checked"].setChecked(True)
    for _ in range(5):
        app.processEvents()
    window.grab().save(str(out))
    window.close()


KNOWLEDGE = {
    "notes/release-process.md": "# Release process\n\nWe ship a release every second Tuesday. "
    "The release branch is cut on the Friday before.\n\nHotfixes skip the freeze but still need "
    "two approvals.\n",
    "notes/onboarding.md": "# Onboarding\n\n## Expenses\n\nSubmit expense reports through "
    "Expensify within 30 days of purchase. Receipts over $25 must be attached.\n",
    "src/retry.py": '"""Retry helpers."""\n\nimport time\n\nMAX_ATTEMPTS = 5\n\n\n'
    "def backoff_delay(attempt: int) -> float:\n"
    '    """Exponential backoff, capped at 30 s."""\n'
    "    return min(0.5 * 2 ** attempt, 30.0)\n",
}
QUESTIONS = (
    "When is the release branch cut?",
    "How is the backoff delay capped?",
    "What is the capital of France?",
    "List the markdown files",
)


def local_thread(folder: Path, data: Path) -> list[dict[str, object]]:
    """The wire messages of ``QUESTIONS`` answered by the offline assistant over ``folder``."""
    provider = LocalProvider(folder, data)
    messages: list[dict[str, object]] = []
    try:
        for number, question in enumerate(QUESTIONS):
            request = TurnRequest(thread_id="thr_local", turn_id=f"turn_{number}",
                                  message_id=f"msg_a{number}", prompt=question, instructions="")

            async def collect(request: TurnRequest = request) -> list[object]:
                return [event async for event in provider.run_turn(request)]

            events = asyncio.run(collect())
            done = next(e for e in events if isinstance(e, Done))
            sources = next(e for e in events if isinstance(e, Sources))
            messages.append({"messageId": f"msg_u{number}", "role": "user", "text": question})
            messages.append({
                "messageId": f"msg_a{number}", "role": "assistant", "text": done.text,
                "sources": normalize_sources(sources.sources, public=False),
                "metadata": sources.metadata,
            })
    finally:
        provider.close()
    return messages


def settle(app: QApplication, seconds: float = 0.5) -> None:
    """Process events until deferred relayouts have run."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()


def render_local(app: QApplication, out: Path) -> None:
    """The offline assistant's real answers with the Sources panel open on the first one."""
    app.setPalette(light_palette())
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "knowledge"
        for name, text in KNOWLEDGE.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        messages = local_thread(folder, Path(temp) / "data")
    window = QMainWindow()
    window.resize(1280, 900)
    view = TranscriptView()
    window.setCentralWidget(view)
    dock = SourcesDock(view, window)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.resizeDocks([dock], [420], Qt.Orientation.Horizontal)
    view.transcript_model().load(messages)
    window.show()
    settle(app)
    dock.show_sources("msg_a0")
    view.scrollToTop()
    settle(app)
    window.grab().save(str(out))
    window.close()


def main() -> None:
    """Write the light and dark screenshots."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setStyle("Fusion")
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "transcript.png"
    render(app, out, light_palette())
    render(app, out.with_name(out.stem + "_dark.png"), dark_palette())
    render_local(app, out.with_name(out.stem + "_local.png"))
    print(out)


if __name__ == "__main__":
    main()
