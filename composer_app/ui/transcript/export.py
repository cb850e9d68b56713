"""Share/export a thread as Markdown or HTML with private source data stripped.

Invariants: the exported text is produced only by the core's ``export_markdown`` / ``export_html``,
which run every message through ``strip_for_share`` — so raw source metadata, direct source links,
download controls and inline source actions never reach a file; user messages are exported with
their canonical text (legacy messages upgraded in memory); the file dialog is injectable and
nothing is written when the user cancels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from composer_app.core.codecs.sources import export_html, export_markdown, strip_for_share
from composer_app.ui.transcript.transcript_logic import TranscriptMessage, message_to_wire

FORMATS = {"markdown": ("Markdown (*.md)", ".md"), "html": ("HTML page (*.html)", ".html")}
SaveDialog = Callable[[QWidget | None, str, str, str], tuple[str, str]]


def shared_messages(messages: Iterable[TranscriptMessage]) -> list[dict[str, object]]:
    """The thread's messages as shared snapshots (``strip_for_share`` applied to each)."""
    return [strip_for_share(message_to_wire(m)) for m in messages if not m.streaming]


def export_thread(messages: Iterable[TranscriptMessage], fmt: str, *, title: str = "Thread") -> str:
    """The export text of a thread in ``markdown`` or ``html``."""
    wire = shared_messages(messages)
    if fmt == "markdown":
        return export_markdown(wire)
    if fmt == "html":
        return export_html(wire, title=title)
    raise ValueError(f"unknown export format {fmt!r}")


def export_to_file(
    messages: Iterable[TranscriptMessage],
    parent: QWidget | None = None,
    *,
    fmt: str = "markdown",
    title: str = "Thread",
    save_dialog: SaveDialog | None = None,
) -> Path | None:
    """Ask where to save, then write the export; ``None`` when cancelled."""
    name_filter, suffix = FORMATS[fmt]
    dialog = save_dialog or QFileDialog.getSaveFileName
    chosen, _ = dialog(parent, "Export thread", f"{title}{suffix}", name_filter)
    if not chosen:
        return None
    path = Path(chosen)
    if not path.suffix:
        path = path.with_suffix(suffix)
    path.write_text(export_thread(messages, fmt, title=title), encoding="utf-8")
    return path
