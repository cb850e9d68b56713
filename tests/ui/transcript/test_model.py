"""TranscriptModel: one insert or one change per event, rows never move."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from composer_app.ui.transcript.model import MessageRole, TranscriptModel
from composer_app.ui.transcript.samples import chip_message, sourced_message


def test_events_become_inserts_and_changes(qtbot: QtBot) -> None:
    model = TranscriptModel()
    with qtbot.waitSignal(model.rowsInserted):
        model.apply_event(
            {"type": "thread.message-sent", "payload": {"message": chip_message("u1")}}
        )
    with qtbot.waitSignal(model.rowsInserted):
        model.apply_event(
            {
                "type": "thread.assistant.delta",
                "payload": {"messageId": "a1", "turnId": "t", "textDelta": "Hi"},
            }
        )
    with qtbot.waitSignal(model.dataChanged) as blocker:
        model.apply_event(
            {
                "type": "thread.assistant.completed",
                "payload": {
                    "messageId": "a1",
                    "turnId": "t",
                    "text": "Hi there",
                    "completedAt": "2026-11-30T14:02:19Z",
                },
            }
        )
    assert blocker.args[0].row() == 1
    assert model.rowCount() == 2
    assert model.data(model.index(1), MessageRole).text == "Hi there"
    assert model.data(model.index(0)) == chip_message()["text"]


def test_load_replaces_rows_and_keeps_public_flag(qtbot: QtBot) -> None:
    model = TranscriptModel(public=True)
    with qtbot.waitSignal(model.modelReset):
        model.load([chip_message("u1"), sourced_message("a1")])
    assert model.rowCount() == 2 and model.public
    assert model.message(5) is None
