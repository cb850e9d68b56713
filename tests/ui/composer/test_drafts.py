from PySide6.QtCore import QTimer

from composer_app.core.codecs.references import format_reference
from composer_app.core.document.store import DraftStore
from composer_app.ui.composer.drafts import DEBOUNCE_MS, DraftAutosave, default_drafts_dir
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.insertion import ContextInsertionRouter
from tests.core.document import sample_records as rec


def link(record):
    return format_reference(record.kind, record.context_id, record.label)


def make(qtbot, store, key="thread-1", router=None):
    editor = ComposerEditor()
    qtbot.addWidget(editor)
    return editor, DraftAutosave(editor, store, key, router=router)


def test_default_directory_is_under_user_data():
    assert default_drafts_dir().name == "drafts"


def test_draft_survives_editor_recreation(qtbot, tmp_path):
    store = DraftStore(tmp_path)
    editor, autosave = make(qtbot, store)
    assert autosave._timer.interval() == DEBOUNCE_MS
    qtbot.keyClicks(editor, "keep me ")
    editor.insert_context(rec.review())
    assert autosave.pending
    with qtbot.waitSignal(autosave._timer.timeout, timeout=2000):
        pass
    assert not autosave.pending
    again, _ = make(qtbot, store)
    assert again.markdown() == f"keep me {link(rec.review())} "
    assert again.records() == {"review-comment_r1": rec.review()}
    assert not again.document().isUndoAvailable()


def test_close_flushes_the_pending_edit(qtbot, tmp_path):
    store = DraftStore(tmp_path)
    editor, autosave = make(qtbot, store)
    editor.show()
    qtbot.keyClicks(editor, "unsaved")
    assert autosave.pending
    editor.close()
    assert store.load("thread-1").prompt == "unsaved"


def test_switching_threads_saves_and_loads(qtbot, tmp_path):
    store = DraftStore(tmp_path)
    editor, autosave = make(qtbot, store)
    qtbot.keyClicks(editor, "first thread")
    autosave.switch_thread("thread-2")
    assert editor.document().isEmpty()
    qtbot.keyClicks(editor, "second")
    autosave.switch_thread("thread-1")
    assert editor.markdown() == "first thread"
    assert store.load("thread-2").prompt == "second"


def test_insertion_goes_to_the_mounted_composer_or_the_stored_draft(qtbot, tmp_path):
    store = DraftStore(tmp_path)
    router = ContextInsertionRouter(store)
    editor, autosave = make(qtbot, store, router=router)
    qtbot.keyClicks(editor, "ab")
    cursor = editor.textCursor()
    cursor.setPosition(1)
    editor.setTextCursor(cursor)
    assert router.insert("thread-1", rec.terminal()) == "editor"
    assert editor.markdown() == f"a {link(rec.terminal())} b"
    assert router.insert("thread-9", rec.review()) == "draft"
    assert store.load("thread-9").prompt == f"{link(rec.review())} "
    autosave.switch_thread("thread-9")
    assert router.editor_for("thread-1") is None and router.editor_for("thread-9") is editor
    assert editor.records() == {"review-comment_r1": rec.review()}


def test_router_without_store_or_composer_refuses(qtbot):
    router = ContextInsertionRouter()
    try:
        router.insert("t", rec.skill())
    except RuntimeError as exc:
        assert "no composer" in str(exc)
    else:
        raise AssertionError("expected RuntimeError")
    QTimer()
