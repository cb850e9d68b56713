"""The delegate: sizes without laying out, idle prefetch next to the viewport."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from composer_app.ui.transcript.delegate import prefetch_rows
from composer_app.ui.transcript.samples import long_thread
from composer_app.ui.transcript.view import TranscriptView


def test_prefetch_lays_out_rows_around_the_viewport_only(qtbot: QtBot) -> None:
    view = TranscriptView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.transcript_model().load(long_thread(400))
    view.show()
    qtbot.waitExposed(view)
    view.grab()
    painted = view.renderer.layout_count
    while not prefetch_rows(view):
        pass
    assert 0 < view.renderer.layout_count - painted <= 24
    key = view.renderer.size_key(view.row_width())
    assert not any(m.size_cache.get(key, (0, False))[1] for m in view.messages[:100])
