"""Download from the Sources panel: the owner's cited file is saved and the progress bar ends."""

from __future__ import annotations

import time
from pathlib import Path

from pytestqt.qtbot import QtBot

from composer_app.core.contracts.sources import decode_sources
from composer_app.server.providers.local import LocalProvider
from composer_app.sync.engine import SyncEngine
from composer_app.sync.source_downloads import NOT_AVAILABLE
from composer_app.ui.transcript.source_download import SourceDownloader
from composer_app.ui.transcript.sources_panel import SourcesPanel
from tests.sync.conftest import WAIT, LoopbackServer

WAIT_MS = int(WAIT * 1000)


def test_download_saves_the_file_and_the_progress_bar_ends(tmp_path: Path, qtbot: QtBot):
    folder = tmp_path / "knowledge"
    folder.mkdir()
    (folder / "garage.md").write_text("The garage code for visitors is 4711.\n", encoding="utf-8")
    provider = LocalProvider(folder, tmp_path / "index")
    server = LoopbackServer(tmp_path / "server", provider=provider).start()
    engine = SyncEngine(server.base_url, server.token(), tmp_path / "client")
    engine.start()
    try:
        thread_id = engine.create_thread().result(WAIT)
        engine.send_message(thread_id, "What is the garage code for visitors?", [], []
                            ).result(WAIT)
        deadline = time.monotonic() + WAIT
        answer = None
        while answer is None and time.monotonic() < deadline:
            messages = server.get(f"/api/threads/{thread_id}", server.token(),
                                  missing={"messages": []})["messages"]
            answer = next((m for m in messages if m["role"] == "assistant"
                           and not m["isStreaming"]), None)
            time.sleep(0.05)
        assert answer is not None
        entries = decode_sources(answer["sources"])
        saved_to = tmp_path / "Downloads"
        panel = SourcesPanel(downloader=SourceDownloader(engine, saved_to))
        qtbot.addWidget(panel)
        panel.show_message(answer["messageId"], thread_id, entries, {}, None)
        entry = next(e for e in entries if e.title == "garage.md")
        row = panel.rows[entry.id]
        assert panel.download_entry(entry) is not None
        assert not row.progress.isHidden()
        qtbot.waitUntil(lambda: row.progress.isHidden(), timeout=WAIT_MS)  # the bar ends
        assert row.status.text().startswith("Saved as garage.md")
        assert (saved_to / "garage.md").read_bytes() == (folder / "garage.md").read_bytes()
        panel.show_message(answer["messageId"], "thr_" + "0" * 32, entries, {}, None)
        row = panel.rows[entry.id]
        assert panel.download_entry(entry) is not None  # not their thread: 404, with a reason
        qtbot.waitUntil(lambda: row.progress.isHidden(), timeout=WAIT_MS)
        assert row.status.text() == NOT_AVAILABLE
        assert sorted(p.name for p in saved_to.iterdir()) == ["garage.md"]  # nothing left over
    finally:
        engine.stop()
        server.stop()
        provider.close()
