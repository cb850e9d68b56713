from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, QMimeData, Qt
from PySide6.QtGui import QAccessible, QHelpEvent, QTextCursor
from PySide6.QtWidgets import QApplication, QToolTip

from composer_app.core.codecs.references import format_reference
from composer_app.core.document.segments import join_segments, split_markdown
from composer_app.ui.composer.editor import ComposerEditor
from tests.core.document import sample_records as rec
from tests.core.document.test_segments import TEXT, chip


def link(record):
    return format_reference(record.kind, record.context_id, record.label)


def test_chips_of_missing_records_and_unknown_kinds_render_unresolved(composer):
    composer.set_markdown(f"{link(rec.file())} {link(rec.unknown())}", [rec.unknown()])
    assert composer.markdown() == f"{link(rec.file())} {link(rec.unknown())}"
    missing = composer.looks.look("file", "file_f1", "notes.txt")
    unknown = composer.looks.look("sticker", "ctx_u1", "party")
    assert missing.state == unknown.state == "unresolved"
    assert "Context unavailable" in missing.tooltip and "sticker" in unknown.tooltip
    assert composer.records() == {"ctx_u1": rec.unknown()}
    composer.grab()


def test_chip_kind_mismatch_is_unresolved(composer):
    composer.set_markdown("[x](t3-context://v1/mention/skill_s1)", [rec.skill()])
    assert composer.looks.look("mention", "skill_s1", "x").state == "unresolved"


def test_every_kind_has_a_tooltip_and_description(composer):
    for record in [*rec.every_kind(), rec.pull_request()]:
        composer.insert_context(record)
    summary = composer.accessibleDescription()
    assert summary.startswith("11 context items: shot.png (image), notes.txt (file)")
    assert "#42 (open pull request)" in summary
    tip = composer.chip_tooltip("review-comment", "review-comment_pr42", "#42")
    assert tip.startswith("Open pull request: #42") and "chips → main" in tip
    assert composer.looks.look("review-comment", "review-comment_pr42", "#42").tone == "pr-open"


def test_chip_insert_and_remove_are_announced(composer, qtbot):
    QAccessible.setActive(True)
    try:
        composer.insert_context(rec.review())
        qtbot.keyClick(composer, Qt.Key.Key_Backspace)
        qtbot.keyClick(composer, Qt.Key.Key_Backspace)
    finally:
        QAccessible.setActive(False)
    assert composer.a11y.history == ["a.ts L4 (review comment) added",
                                     "a.ts L4 (review comment) removed"]
    assert composer.accessibleDescription() == ""


def test_copy_writes_canonical_markdown_and_paste_makes_chips(composer):
    composer.set_markdown(f"a {link(rec.mention())} b", [rec.mention()])
    composer.selectAll()
    md = composer.createMimeDataFromSelection()
    assert md.text() == f"a {link(rec.mention())} b"
    assert "\ufffc" not in md.text()
    composer.moveCursor(QTextCursor.MoveOperation.End)
    pasted = QMimeData()
    pasted.setText(f"\r\nx {link(rec.skill())}")
    assert composer.canInsertFromMimeData(pasted)
    composer.insertFromMimeData(pasted)
    assert composer.markdown() == f"a {link(rec.mention())} b\nx {link(rec.skill())}"
    assert composer.document().toRawText().count("\ufffc") == 2
    composer.undo()
    assert composer.markdown() == f"a {link(rec.mention())} b"


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(parts=st.lists(st.one_of(TEXT, chip()), max_size=10))
def test_set_markdown_markdown_round_trip(qapp, parts):
    text = join_segments(parts)
    canonical = join_segments(split_markdown(text))
    editor = ComposerEditor()
    try:
        editor.set_markdown(canonical, [*rec.every_kind()])
        expected = canonical.replace("\r\n", "\n").replace("\r", "\n").replace("\u2029", "\n")
        assert editor.markdown() == expected
    finally:
        editor.deleteLater()


def test_an_exclamation_mark_typed_before_a_file_chip_survives_a_reload(composer):
    composer.set_markdown("", [])
    composer.insert_context(rec.file())
    composer.moveCursor(QTextCursor.MoveOperation.Start)
    composer.insertPlainText("Found it!")
    saved = composer.markdown()
    assert saved == f"Found it!{link(rec.file())} "
    composer.set_markdown(saved, [rec.file()])
    assert composer.markdown() == saved
    assert composer.document().toRawText().count("\ufffc") == 1


def test_chip_under_the_pointer_has_the_state_aware_tooltip(composer):
    composer.set_markdown(f"{link(rec.file())} tail", [])
    probe = QTextCursor(composer.document())
    left = composer.cursorRect(probe)
    probe.setPosition(1)
    right = composer.cursorRect(probe)
    middle = left.center()
    middle.setX((left.left() + right.left()) // 2)
    assert composer.chip_at(middle) == ("file", "file_f1", "notes.txt")
    assert "Context unavailable" in composer.chip_tooltip(*composer.chip_at(middle))
    probe.setPosition(4)
    assert composer.chip_at(composer.cursorRect(probe).center()) is None


def test_hovering_a_chip_shows_its_state_aware_tooltip(composer):
    composer.set_markdown(f"{link(rec.file())} tail", [])
    composer.show()
    probe = QTextCursor(composer.document())
    left = composer.cursorRect(probe)
    probe.setPosition(1)
    middle = left.center()
    middle.setX((left.left() + composer.cursorRect(probe).left()) // 2)
    viewport = composer.viewport()
    QToolTip.hideText()
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, middle,
                                                viewport.mapToGlobal(middle)))
    assert "Context unavailable" in QToolTip.text() and "notes.txt" in QToolTip.text()
    QToolTip.hideText()


def chip_point(editor, position):
    probe = QTextCursor(editor.document())
    probe.setPosition(position)
    left = editor.cursorRect(probe)
    probe.setPosition(position + 1)
    right = editor.cursorRect(probe)
    point = left.center()
    point.setX((left.left() + right.left()) // 2)
    return point


def test_clicking_a_pull_request_chip_opens_its_url(composer, qtbot):
    opened = []
    composer.url_opener = opened.append
    pr = rec.pull_request()
    composer.set_markdown(f"{link(pr)} and {link(rec.terminal())}", [pr, rec.terminal()])
    point = chip_point(composer, 0)
    qtbot.mouseClick(composer.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert opened == ["https://example.com/pr/42"]
    qtbot.mouseMove(composer.viewport(), point)
    assert composer.viewport().cursor().shape() == Qt.CursorShape.PointingHandCursor
    qtbot.mouseClick(composer.viewport(), Qt.MouseButton.LeftButton,
                     pos=chip_point(composer, len("x and ")))  # the terminal chip: nothing opens
    qtbot.mouseClick(composer.viewport(), Qt.MouseButton.RightButton, pos=point)
    assert opened == ["https://example.com/pr/42"]


def test_a_pasted_pull_request_with_another_scheme_is_never_opened(composer, qtbot):
    opened = []
    composer.url_opener = opened.append
    base = rec.pull_request()
    forged = base.model_copy(update={"pull_request": base.pull_request.model_copy(
        update={"url": "file:///etc/passwd"})})
    composer.set_markdown(f"{link(forged)} tail", [forged])
    assert composer.attachments.pull_request_url(forged.context_id) is None
    assert not composer.activate_chip(forged.context_id)
    assert opened == []


def test_the_default_opener_is_the_apps_external_opener(composer):
    from composer_app.ui.external_open import open_url_externally

    assert type(composer).url_opener is open_url_externally
