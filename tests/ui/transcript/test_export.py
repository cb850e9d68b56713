"""Share/export strips raw metadata, direct links, download controls and inline actions."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from composer_app.ui.transcript.export import export_thread, export_to_file, shared_messages
from composer_app.ui.transcript.samples import chip_message, sourced_message
from composer_app.ui.transcript.transcript_logic import message_from_wire
from composer_app.ui.transcript.view import TranscriptView

PRIVATE = (
    "conn_7f3a9",
    "1AbCdEfGhIjKlMnOpQrStUvWxYz0123",
    "docs.example.com",
    "mail.example.com",
    "alice@example.com",
    "Travel: 48,000",
    "drive.search",
    "/download",
    "cite:",
)


def _thread() -> list:
    return [message_from_wire(chip_message()), message_from_wire(sourced_message())]


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_exports_strip_private_source_data(fmt: str) -> None:
    text = export_thread(_thread(), fmt)
    for secret in PRIVATE:
        assert secret not in text
    assert "Q3 budget plan.xlsx" in text and "Corporate travel trends 2026" in text


def test_shared_messages_keep_titles_only() -> None:
    entry = shared_messages(_thread())[1]["sources"]["entries"][0]  # type: ignore[index]
    assert entry["availableActions"] == [] and "webViewLink" not in entry and "fileId" not in entry


def test_export_to_file_uses_the_dialog_and_writes_nothing_when_cancelled(tmp_path: Path) -> None:
    target = tmp_path / "thread"
    written = export_to_file(
        _thread(), fmt="html", save_dialog=lambda *_: (str(target), "HTML page (*.html)")
    )
    assert written == tmp_path / "thread.html" and "<html" in written.read_text()
    assert export_to_file(_thread(), save_dialog=lambda *_: ("", "")) is None


def test_view_exports_its_thread(tmp_path: Path, qtbot: QtBot) -> None:
    view = TranscriptView()
    qtbot.addWidget(view)
    view.transcript_model().load([chip_message(), sourced_message()])
    view.save_dialog = lambda *_: (str(tmp_path / "t.md"), "")
    path = view.export_thread("markdown")
    assert path is not None and "Q3 budget plan.xlsx" in path.read_text()
    assert "docs.example.com" not in path.read_text()
