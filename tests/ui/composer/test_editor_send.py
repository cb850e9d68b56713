from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent

from composer_app.core.codecs.references import format_reference
from composer_app.core.contracts.messages import MessageContext
from composer_app.core.document.model import RecordState
from tests.core.document import sample_records as rec


def link(record):
    return format_reference(record.kind, record.context_id, record.label)


def test_enter_sends_text_and_context_in_contract_order(composer, qtbot):
    qtbot.keyClicks(composer, "check")
    composer.insert_context(rec.file())
    composer.insert_context(rec.terminal())
    with qtbot.waitSignal(composer.send_requested) as blocker:
        qtbot.keyClick(composer, Qt.Key.Key_Return)
    text, context = blocker.args
    assert text == f"check {link(rec.file())} {link(rec.terminal())}"
    assert isinstance(context, MessageContext)
    assert [r.context_id for r in context.records] == ["terminal_t1", "file_f1"]
    assert composer.document().isEmpty() and composer.draft.records == {}


def test_send_without_records_carries_none(composer, qtbot):
    qtbot.keyClicks(composer, "just text")
    with qtbot.waitSignal(composer.send_requested) as blocker:
        qtbot.keyClick(composer, Qt.Key.Key_Enter)
    assert blocker.args == ["just text", None]


def test_shift_enter_inserts_a_newline_and_does_not_send(composer, qtbot):
    sent = []
    composer.send_requested.connect(lambda *a: sent.append(a))
    qtbot.keyClicks(composer, "a")
    qtbot.keyClick(composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(composer, "b")
    assert composer.markdown() == "a\nb" and sent == []


def test_enter_during_ime_composition_never_sends(composer, qtbot):
    sent = []
    composer.send_requested.connect(lambda *a: sent.append(a))
    qtbot.keyClicks(composer, "x")
    composer.inputMethodEvent(QInputMethodEvent("ni", []))
    qtbot.keyClick(composer, Qt.Key.Key_Return)
    commit = QInputMethodEvent()
    commit.setCommitString("你")
    composer.inputMethodEvent(commit)
    qtbot.keyClick(composer, Qt.Key.Key_Return)
    assert sent == [] and composer.markdown() == "x你"
    composer.keys.commit_settled()
    qtbot.keyClick(composer, Qt.Key.Key_Return)
    assert sent == [("x你", None)]


def test_empty_composer_does_not_send(composer, qtbot):
    sent = []
    composer.send_requested.connect(lambda *a: sent.append(a))
    qtbot.keyClicks(composer, "   ")
    qtbot.keyClick(composer, Qt.Key.Key_Return)
    assert sent == []


def test_expired_terminal_shows_invalid_and_is_dropped_at_send(composer, qtbot):
    dead = rec.terminal("terminal_dead", text=" ")
    composer.set_markdown(f"look {link(dead)} {link(rec.mention())}", [dead, rec.mention()])
    look = composer.looks.look("terminal", "terminal_dead", dead.label)
    assert look.state == "expired"
    assert composer.chip_tooltip("terminal", "terminal_dead", dead.label) == (
        f"Terminal context expired. Remove and re-add {dead.label} to include it in your message."
    )
    with qtbot.waitSignal(composer.send_requested) as blocker:
        composer.request_send()
    assert blocker.args[0] == f"look {link(rec.mention())}"
    assert [r.kind for r in blocker.args[1].records] == ["mention"]


def test_only_expired_excerpts_post_a_notice_instead_of_sending(composer, qtbot):
    dead = rec.terminal("terminal_dead", text="")
    composer.set_markdown(link(dead), [dead])
    sent = []
    composer.send_requested.connect(lambda *a: sent.append(a))
    with qtbot.waitSignal(composer.notice_posted) as blocker:
        qtbot.keyClick(composer, Qt.Key.Key_Return)
    assert sent == [] and "expired" in blocker.args[0]
    assert composer.markdown() == link(dead)


def test_pending_attachment_blocks_send(composer, qtbot):
    composer.set_markdown(link(rec.file()), [rec.file()])
    composer.set_record_state("file_f1", RecordState.PENDING)
    assert composer.looks.look("file", "file_f1", "notes.txt").state == "pending"
    with qtbot.waitSignal(composer.notice_posted) as blocker:
        assert not composer.request_send()
    assert blocker.args[0] == "Still bringing a pasted attachment into this message."
    composer.set_record_state("file_f1", RecordState.RESOLVED)
    assert composer.request_send()


def test_up_in_an_empty_composer_recalls_the_last_sent_prompt(composer, qtbot):
    qtbot.keyClicks(composer, "first ")
    composer.insert_context(rec.skill())
    composer.request_send()
    qtbot.keyClick(composer, Qt.Key.Key_Up)
    assert composer.markdown() == f"first {link(rec.skill())}"
    assert composer.records() == {}
    composer.undo()
    assert composer.document().isEmpty()
    qtbot.keyClicks(composer, "x")
    qtbot.keyClick(composer, Qt.Key.Key_Up)
    assert composer.markdown() == "x"


def test_alt_enter_opens_the_chip_at_the_caret_and_enter_still_sends(composer, qtbot):
    opened = []
    composer.chip_opener = lambda record: opened.append(record.context_id) or True
    sent = []
    composer.send_requested.connect(lambda *a: sent.append(a))
    qtbot.keyClicks(composer, "see")
    composer.insert_context(rec.file())  # the caret now follows the chip and its space
    qtbot.keyClick(composer, Qt.Key.Key_Return, Qt.KeyboardModifier.AltModifier)
    assert opened == ["file_f1"] and sent == []
    assert composer.markdown() == f"see {link(rec.file())} "  # nothing typed, nothing sent
    composer.moveCursor(composer.textCursor().MoveOperation.Start)
    qtbot.keyClick(composer, Qt.Key.Key_Return, Qt.KeyboardModifier.AltModifier)
    assert opened == ["file_f1"]  # "see" touches no chip: nothing opens
    cursor = composer.textCursor()
    cursor.setPosition(4)  # right before the chip
    composer.setTextCursor(cursor)
    assert composer.chip_at_caret() == "file_f1"
    cursor.setPosition(4)
    cursor.setPosition(5, cursor.MoveMode.KeepAnchor)  # the chip selected (Shift+Right)
    composer.setTextCursor(cursor)
    qtbot.keyClick(composer, Qt.Key.Key_Enter, Qt.KeyboardModifier.AltModifier)
    assert opened == ["file_f1", "file_f1"] and sent == []
    with qtbot.waitSignal(composer.send_requested):
        qtbot.keyClick(composer, Qt.Key.Key_Return)
