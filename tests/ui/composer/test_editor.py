import gc

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QKeySequence, QTextCursor, QTextDocument

from composer_app.core.codecs.references import format_reference
from composer_app.ui.composer.chips import CHIP_OBJECT_TYPE, KIND
from composer_app.ui.composer.document_bridge import chip_occurrences
from composer_app.ui.composer.editor import ComposerEditor
from tests.core.document import sample_records as rec


def link(record, label=None):
    text = record.label if label is None else label
    return format_reference(record.kind, record.context_id, text)


def chars(w):
    return w.document().toRawText().rstrip("\u2029")


def test_handler_is_registered_and_survives_gc_and_set_document(composer):
    layout = composer.document().documentLayout()
    assert layout.handlerForObject(CHIP_OBJECT_TYPE) is not None
    gc.collect()
    assert layout.handlerForObject(CHIP_OBJECT_TYPE) is not None
    composer.setDocument(QTextDocument(composer))
    assert composer.document().documentLayout().handlerForObject(CHIP_OBJECT_TYPE) is not None
    composer.insert_context(rec.mention())
    before = composer.chip_renderer.paint_count
    composer.grab()
    assert composer.chip_renderer.paint_count > before
    assert composer.records() == {"mention_m1": rec.mention()}


def test_insert_context_at_caret_with_spacing_and_one_undo_step(composer, qtbot):
    qtbot.keyClicks(composer, "ab")
    composer.moveCursor(QTextCursor.MoveOperation.Left)
    composer.insert_context(rec.terminal())
    assert composer.markdown() == f"a {link(rec.terminal())} b"
    assert chars(composer) == "a \ufffc b"
    assert composer.textCursor().position() == 4
    composer.undo()
    assert composer.markdown() == "ab" and composer.records() == {}
    composer.redo()
    assert composer.records() == {"terminal_t1": rec.terminal()}


def test_insert_context_label_override_and_held_record_wins(composer):
    composer.insert_context(rec.mention(), label="my [file]")
    composer.insert_context(rec.mention(path="other.py"))
    md = composer.markdown()
    assert md == f"{link(rec.mention(), 'my file')} {link(rec.mention())} "
    assert composer.records()["mention_m1"].path == "src/app.py"


def test_insert_lands_at_last_known_caret_without_focus(composer, qtbot):
    qtbot.keyClicks(composer, "hello world")
    cursor = composer.textCursor()
    cursor.setPosition(5)
    composer.setTextCursor(cursor)
    composer.clearFocus()
    composer.insert_context(rec.skill())
    assert composer.markdown() == f"hello {link(rec.skill())} world"


def test_typed_text_never_inherits_chip_properties(composer, qtbot):
    composer.insert_context(rec.file())
    composer.moveCursor(QTextCursor.MoveOperation.Left)
    qtbot.keyClicks(composer, "xy")
    cursor = QTextCursor(composer.document())
    for pos in (1, 2):
        cursor.setPosition(pos)
        cursor.setPosition(pos + 1, QTextCursor.MoveMode.KeepAnchor)
        assert cursor.selectedText() in "xy"
        assert not cursor.charFormat().hasProperty(KIND)
    assert composer.markdown() == f"{link(rec.file())}xy "


def test_leaked_properties_are_cleared_from_foreign_insertions(composer):
    composer.insert_context(rec.file())
    cursor = QTextCursor(composer.document())
    cursor.setPosition(1)
    leaky = QTextCursor(composer.document())
    leaky.setPosition(0)
    leaky.setPosition(1, QTextCursor.MoveMode.KeepAnchor)
    fmt = leaky.charFormat()
    fmt.setObjectType(0)
    cursor.insertText("zz", fmt)
    probe = QTextCursor(composer.document())
    probe.setPosition(2)
    assert not probe.charFormat().hasProperty(KIND)
    assert composer.markdown() == f"{link(rec.file())}zz "
    for _ in range(3):
        if composer.markdown() == f"{link(rec.file())} ":
            break
        composer.undo()
    assert composer.markdown() == f"{link(rec.file())} "
    assert composer.records() == {"file_f1": rec.file()}


def test_arrows_step_over_a_chip_and_shift_selects_it(composer, qtbot):
    composer.set_markdown(f"a{link(rec.image())}b", [rec.image()])
    composer.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(composer, Qt.Key.Key_Left)
    qtbot.keyClick(composer, Qt.Key.Key_Left)
    assert composer.textCursor().position() == 1
    qtbot.keyClick(composer, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert composer.textCursor().selectedText() == "\ufffc"
    assert composer.looks.is_selected(1) and not composer.looks.is_selected(2)
    assert composer.markdown() == f"a{link(rec.image())}b"


def test_selected_chip_is_painted_in_the_highlight_colour(composer):
    composer.set_markdown(link(rec.mention()) + " x", [rec.mention()])
    cursor = composer.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(1, QTextCursor.MoveMode.KeepAnchor)
    composer.setTextCursor(cursor)
    image = composer.viewport().grab().toImage()
    highlight = composer.palette().highlight().color().rgb()
    rect = composer.cursorRect(QTextCursor(composer.document()))
    row = rect.center().y()
    colours = {image.pixel(x, row) for x in range(rect.x() + 4, rect.x() + 30)}
    assert highlight in colours
    assert composer.markdown() == link(rec.mention()) + " x"


def test_backspace_and_delete_remove_the_chip_whole(composer, qtbot):
    composer.insert_context(rec.review())
    qtbot.keyClick(composer, Qt.Key.Key_Backspace)
    qtbot.keyClick(composer, Qt.Key.Key_Backspace)
    assert composer.document().isEmpty() and composer.records() == {}
    composer.set_markdown(f"{link(rec.review())}x", [rec.review()])
    composer.moveCursor(QTextCursor.MoveOperation.Start)
    qtbot.keyClick(composer, Qt.Key.Key_Delete)
    assert composer.markdown() == "x" and composer.records() == {}


def test_undo_brings_the_chip_back_with_its_record(composer, qtbot):
    composer.set_markdown(f"see {link(rec.file())} now", [rec.file()])
    composer.moveCursor(QTextCursor.MoveOperation.Start)
    for _ in range(4):
        qtbot.keyClick(composer, Qt.Key.Key_Right)
    qtbot.keyClick(composer, Qt.Key.Key_Delete)
    assert composer.records() == {} and composer.draft.records == {}
    composer.undo()
    assert composer.records() == {"file_f1": rec.file()}
    assert composer.markdown() == f"see {link(rec.file())} now"
    composer.redo()
    assert composer.records() == {}


def test_word_moves_stop_at_chip_boundaries(composer, qtbot):
    composer.set_markdown(f"hello{link(rec.mention())}world", [rec.mention()])
    composer.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keySequence(composer, QKeySequence.StandardKey.MoveToPreviousWord)
    assert composer.textCursor().position() == 6
    qtbot.keySequence(composer, QKeySequence.StandardKey.MoveToPreviousWord)
    assert composer.textCursor().position() == 5
    qtbot.keySequence(composer, QKeySequence.StandardKey.MoveToNextWord)
    assert composer.textCursor().position() == 6
    composer.moveCursor(QTextCursor.MoveOperation.Start)
    qtbot.keySequence(composer, QKeySequence.StandardKey.SelectNextWord)
    assert composer.textCursor().selectedText() == "hello"


def test_ctrl_backspace_deletes_the_word_then_the_chip_alone(composer, qtbot):
    composer.set_markdown(f"a {link(rec.mention())}word", [rec.mention()])
    composer.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keySequence(composer, QKeySequence.StandardKey.DeleteStartOfWord)
    assert composer.markdown() == f"a {link(rec.mention())}"
    qtbot.keySequence(composer, QKeySequence.StandardKey.DeleteStartOfWord)
    assert composer.markdown() == "a " and composer.records() == {}


def test_two_identical_adjacent_chips_stay_two(composer):
    composer.set_markdown(link(rec.skill()) * 2, [rec.skill()])
    chips = chip_occurrences(composer.document())
    assert [c.position for c in chips] == [0, 1]
    assert chips[0].reference_id != chips[1].reference_id
    assert composer.markdown() == link(rec.skill()) * 2


def test_set_markdown_reparses_links_and_clears_history(composer):
    text = f"x {link(rec.image())}\n\n{link(rec.terminal())} y"
    composer.set_markdown(text, {r.context_id: r for r in (rec.image(), rec.terminal(),
                                                             rec.skill())})
    assert composer.markdown() == text
    assert list(composer.records()) == ["image_a1", "terminal_t1"]
    assert not composer.document().isUndoAvailable()


def test_records_kept_for_undo_are_released_when_history_goes(composer, qtbot):
    composer.insert_context(rec.file())
    qtbot.keyClick(composer, Qt.Key.Key_Backspace)
    qtbot.keyClick(composer, Qt.Key.Key_Backspace)
    assert composer.draft.tombstones == {"file_f1": rec.file()}
    with qtbot.waitSignal(composer.records_released) as blocker:
        composer.set_markdown("fresh", ())
    assert blocker.args == [[rec.file()]]


def test_astral_characters_around_chips_keep_positions_right(composer, qtbot):
    text = f"🙂🙂{link(rec.skill())}🙂 x{link(rec.mention())}"
    composer.set_markdown(text, [rec.skill(), rec.mention()])
    assert composer.markdown() == text
    assert [c.position for c in chip_occurrences(composer.document())] == [4, 9]
    composer.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keySequence(composer, QKeySequence.StandardKey.MoveToPreviousWord)
    assert composer.textCursor().position() == 9
    composer.insert_markdown("🙂")  # QTest cannot type astral characters
    assert composer.markdown() == f"🙂🙂{link(rec.skill())}🙂 x🙂{link(rec.mention())}"


def test_chips_of_one_load_each_get_their_own_reference_id(composer):
    text = " and ".join([link(rec.file())] * 5 + [link(rec.skill())] * 2)
    composer.set_markdown(text, [rec.file(), rec.skill()])
    chips = chip_occurrences(composer.document())
    assert [c.context_id for c in chips] == ["file_f1"] * 5 + [rec.skill().context_id] * 2
    assert len({c.reference_id for c in chips}) == 7
    assert all(c.reference_id.startswith("ref_") and len(c.reference_id) == 36 for c in chips)
    assert composer.markdown() == text


def test_a_long_draft_is_laid_out_whole_at_the_final_width(composer):
    composer.set_markdown("short", [])
    assert not composer.verticalScrollBar().isVisible()
    line = f"{link(rec.file())} some words around the chip {link(rec.mention())} and more\n"
    composer.set_markdown(line * 80, [rec.file(), rec.mention()])
    doc = composer.document()
    assert composer.verticalScrollBar().isVisible()
    assert doc.pageSize().width() == composer.viewport().width()
    block = doc.begin()
    while block.isValid():
        layout = block.layout()
        assert layout.lineCount() > 0
        for n in range(layout.lineCount()):
            assert layout.lineAt(n).naturalTextWidth() <= doc.textWidth()
        block = block.next()
    assert composer.textCursor().position() == doc.characterCount() - 1
    assert composer.markdown() == line * 80


def test_a_font_change_lays_chips_out_in_the_new_font(composer, qtbot):
    text = f"{link(rec.mention(), 'a fairly long chip label')} after"
    composer.set_markdown(text, [rec.mention()])
    big = QFont(composer.font())
    big.setPixelSize(30)
    composer.setFont(big)
    fresh = ComposerEditor()
    qtbot.addWidget(fresh)
    fresh.resize(composer.size())
    fresh.setFont(big)
    fresh.show()
    fresh.set_markdown(text, [rec.mention()])

    def width(editor):
        return editor.document().firstBlock().layout().lineAt(0).naturalTextWidth()

    try:
        assert width(composer) == width(fresh)
    finally:
        fresh.close()  # a window left open would take the next tests' pointer events


def test_the_edited_paragraph_keeps_its_shaped_layout_and_paints_as_a_fresh_one(composer, qtbot):
    text = f"one {link(rec.file())} two\nthree {link(rec.mention())} four"
    composer.set_markdown(text, [rec.file(), rec.mention()])
    doc = composer.document()
    cursor = composer.textCursor()
    cursor.setPosition(doc.firstBlock().length() - 1)  # after "two"
    composer.setTextCursor(cursor)
    qtbot.keyClicks(composer, " typed")
    qtbot.keyClick(composer, Qt.Key.Key_Backspace)
    assert doc.firstBlock().layout().cacheEnabled()
    assert not doc.lastBlock().layout().cacheEnabled()  # only edited paragraphs keep theirs
    composer.clearFocus()  # no caret in either picture
    fresh = ComposerEditor()
    qtbot.addWidget(fresh)
    fresh.resize(composer.size())
    fresh.show()
    fresh.set_markdown(composer.markdown(), [rec.file(), rec.mention()])
    assert composer.markdown() == text.replace(" two\n", " two type\n")
    try:
        assert fresh.viewport().grab().toImage() == composer.viewport().grab().toImage()
    finally:
        fresh.close()
