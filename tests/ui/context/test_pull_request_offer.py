"""The inline pull-request offer on a real editor (the fetch is the GitHub boundary)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QTextEdit
from pytestqt.qtbot import QtBot

from composer_app.core.contracts.records import PullRequestMetadata
from composer_app.ui.context.pull_request_offer import PullRequestOffer
from composer_app.ui.context.pull_requests import (
    PullRequestFailure,
    PullRequestRef,
    pull_request_record,
)

URL = "https://github.com/octo/app/pull/42"


def fetched(ref: PullRequestRef) -> Any:
    meta = PullRequestMetadata.model_validate({
        "number": ref.number, "title": "T", "url": ref.url, "headBranch": "h",
        "baseBranch": "main", "state": "open", "isDraft": False})
    return pull_request_record(ref, meta)


class OfferEditor(QTextEdit):
    def __init__(self, fetch: Any) -> None:
        super().__init__()
        self.offer = PullRequestOffer(self, fetch=fetch)
        self.offer.record_ready.connect(
            lambda record: self.textCursor().insertText(f"[{record.label}]"))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.offer.handle_key(event):
            super().keyPressEvent(event)


@pytest.fixture
def make(qtbot: QtBot) -> Any:
    def build(fetch: Any = fetched) -> OfferEditor:
        editor = OfferEditor(fetch)
        qtbot.addWidget(editor)
        qtbot.addWidget(editor.offer.indicator)
        editor.show()
        editor.setFocus()
        return editor

    return build


def paste(editor: OfferEditor, text: str) -> bool:
    start = editor.textCursor().position()
    editor.insertPlainText(text)
    return editor.offer.offer_range(start, editor.textCursor().position())


def test_enter_attaches_and_replaces_the_url(qtbot: QtBot, make: Any) -> None:
    editor = make()
    editor.insertPlainText("see ")
    assert paste(editor, URL)
    assert editor.offer.indicator.objectName() == "pullRequestOffer"
    assert "Attach pull request #42" in editor.offer.label.text()
    with qtbot.waitSignal(editor.offer.record_ready) as ready:
        qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert ready.args[0].pull_request.number == 42
    assert editor.toPlainText() == "see [#42]"
    editor.undo()
    assert editor.toPlainText() == "see " + URL


def test_escape_keeps_the_url(qtbot: QtBot, make: Any) -> None:
    editor = make()
    paste(editor, URL)
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert editor.offer.offered is None and editor.offer.indicator.isHidden()
    assert editor.toPlainText() == URL
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert editor.toPlainText() == URL + "\n"


def test_typing_leaves_the_offer(qtbot: QtBot, make: Any) -> None:
    editor = make()
    paste(editor, URL)
    qtbot.keyClick(editor, Qt.Key.Key_Shift)  # a modifier alone keeps the offer
    assert editor.offer.offered is not None
    qtbot.keyClicks(editor, "x")
    assert editor.offer.offered is None
    assert editor.toPlainText() == URL + "x"


def test_other_text_is_not_offered(make: Any) -> None:
    editor = make()
    assert not paste(editor, "https://github.com/octo/app/issues/1")
    assert editor.offer.indicator.isHidden()


def test_failure_says_why_and_keeps_text(qtbot: QtBot, make: Any) -> None:
    editor = make(lambda ref: PullRequestFailure("GitHub could not be reached (offline?)."))
    paste(editor, URL)
    with qtbot.waitSignal(editor.offer.notice) as notice:
        qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert notice.args == ["GitHub could not be reached (offline?)."]
    assert editor.toPlainText() == URL


def test_fetch_runs_off_the_gui_thread_and_attach_inserts_at_caret(qtbot: QtBot,
                                                                   make: Any) -> None:
    threads: list[str] = []

    def fetch(ref: PullRequestRef) -> Any:
        threads.append(threading.current_thread().name)
        return fetched(ref)

    editor = make(fetch)
    editor.insertPlainText("a ")
    with qtbot.waitSignal(editor.offer.record_ready):
        editor.offer.attach(PullRequestRef("o", "r", 5))
    assert threads == ["composer-pull-request"]
    assert editor.toPlainText() == "a [#5]"
