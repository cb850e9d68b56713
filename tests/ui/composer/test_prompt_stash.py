"""The stash of prompts (Ctrl+S), the editor's ``PromptStash`` part."""

from PySide6.QtCore import Qt

from composer_app.core.codecs.references import format_reference
from composer_app.core.document.model import STASH_MAX_ENTRIES
from tests.core.document import sample_records as rec


def link(record):
    return format_reference(record.kind, record.context_id, record.label)


def test_ctrl_s_stashes_and_restores(composer, qtbot):
    qtbot.keyClicks(composer, "draft one ")
    composer.insert_context(rec.terminal())
    qtbot.keyClick(composer, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert composer.document().isEmpty() and composer.draft.records == {}
    assert len(composer.draft.stash) == 1
    qtbot.keyClicks(composer, "other")
    qtbot.keyClick(composer, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert composer.markdown() == f"other\n\ndraft one {link(rec.terminal())} "
    assert composer.records() == {"terminal_t1": rec.terminal()}
    composer.set_markdown("", ())
    qtbot.keyClick(composer, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert composer.document().isEmpty()


def test_stash_eviction_posts_a_notice(composer, qtbot):
    notices = []
    composer.notice_posted.connect(lambda title, detail: notices.append(title))
    for n in range(STASH_MAX_ENTRIES + 1):
        composer.set_markdown(f"prompt {n}", ())
        assert composer.stash()
    assert len(composer.draft.stash) == STASH_MAX_ENTRIES
    assert any("oldest stashed prompt" in n for n in notices)


def test_restore_dedupes_against_the_draft(composer):
    composer.set_markdown(link(rec.terminal()), [rec.terminal()])
    composer.stash()
    twin = rec.terminal("terminal_twin").model_copy(update={"label": "Twin"})
    composer.insert_context(twin)
    composer.restore_stash()
    assert list(composer.records()) == ["terminal_twin"]
    relabelled = "[Terminal 1 lines 3-4](t3-context://v1/terminal/terminal_twin)"
    assert composer.markdown() == f"{link(twin)}\n\n{relabelled}"


def test_a_restore_is_one_undo_step_that_takes_the_entry_back_out(composer, qtbot):
    composer.set_markdown(f"kept {link(rec.terminal())}", [rec.terminal()])
    assert composer.prompt_stash.stash()
    qtbot.keyClicks(composer, "typed after")
    before = composer.markdown()
    assert composer.prompt_stash.restore()
    assert composer.markdown() == f"typed after\n\nkept {link(rec.terminal())}"
    composer.undo()
    assert composer.markdown() == before
    assert "terminal_t1" not in composer.records()


def test_restoring_from_an_empty_stash_changes_nothing(composer):
    composer.set_markdown("as it was", ())
    assert not composer.prompt_stash.restore()
    assert composer.markdown() == "as it was"
