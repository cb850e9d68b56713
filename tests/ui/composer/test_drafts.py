import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QVBoxLayout, QWidget

from composer_app.core.codecs.references import format_reference
from composer_app.core.document.store import DraftStore
from composer_app.ui.composer.drafts import DEBOUNCE_MS, DraftAutosave, default_drafts_dir
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.insertion import ContextInsertionRouter
from tests.core.document import sample_records as rec
from tests.ui.composer.attachment_support import make_composer, make_uploads


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
    assert autosave.delay_ms == DEBOUNCE_MS
    qtbot.keyClicks(editor, "keep me ")
    editor.insert_context(rec.review())
    assert autosave.pending
    qtbot.waitUntil(lambda: not autosave.pending, timeout=2000)
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


def test_closing_or_minimizing_the_window_around_the_editor_flushes(qtbot, tmp_path):
    store = DraftStore(tmp_path)
    window = QWidget()
    qtbot.addWidget(window)
    editor = ComposerEditor(window)
    QVBoxLayout(window).addWidget(editor)
    autosave = DraftAutosave(editor, store, "thread-1")  # made before the window is shown
    window.show()
    qtbot.keyClicks(editor, "first")
    assert autosave.pending
    window.showMinimized()
    assert not autosave.pending and store.load("thread-1").prompt == "first"
    window.showNormal()
    qtbot.keyClicks(editor, " second")
    window.close()
    assert not autosave.pending and store.load("thread-1").prompt == "first second"


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


def test_debounce_writes_once_after_the_last_edit(qtbot, tmp_path):
    store = DraftStore(tmp_path)
    editor = ComposerEditor()
    qtbot.addWidget(editor)
    autosave = DraftAutosave(editor, store, "thread-1", delay_ms=800)
    saves = []
    real_save = store.save
    store.save = lambda key, draft: (saves.append(draft.prompt), real_save(key, draft))
    started = time.monotonic()
    qtbot.keyClicks(editor, "a")
    qtbot.wait(300)  # typing goes on inside the window: no write yet
    # A loaded machine can stall that wait past the whole delay; the quiet draft may then
    # rightly be written already. Timers only fire in the event loop, so the time measured
    # here bounds the quiet before "b" (a coarse timer fires up to 5 % early).
    quiet = time.monotonic() - started
    qtbot.keyClicks(editor, "b")
    if quiet < 0.95 * autosave.delay_ms / 1000:
        assert saves == [] and autosave.pending
    qtbot.waitUntil(lambda: not autosave.pending, timeout=5000)
    assert saves == ["ab"] or (quiet >= 0.95 * autosave.delay_ms / 1000 and saves == ["a", "ab"])


def test_close_draft_releases_what_only_undo_kept(qtbot, tmp_path):
    store = DraftStore(tmp_path)
    editor, autosave = make(qtbot, store)
    released = []
    editor.records_released.connect(released.extend)
    editor.insert_context(rec.file())
    editor.insert_context(rec.terminal())
    editor.undo()  # the terminal chip goes: its record waits for a redo
    assert "terminal_t1" in editor.draft.tombstones
    autosave.close_draft()
    assert [r.context_id for r in released] == ["terminal_t1"]
    assert not editor.draft.tombstones and "file_f1" in editor.draft.records
    assert not editor.document().isUndoAvailable()
    assert store.load("thread-1").records == {"file_f1": rec.file()}


def test_quitting_releases_an_attachment_whose_last_chip_was_just_deleted(qtbot, tmp_path):
    editor = make_composer(qtbot, make_uploads(tmp_path))
    autosave = DraftAutosave(editor, DraftStore(tmp_path / "drafts"), "thread-1")
    record = editor.attachments.attach_text("x" * 40_000, "pasted-text.txt")
    path = editor.uploads.source_path(record.attachment_id)
    assert path is not None and Path(path).exists()
    editor.selectAll()
    editor.textCursor().removeSelectedText()  # the last chip goes; undo could still bring it back
    assert record.context_id in editor.draft.tombstones and Path(path).exists()
    autosave.close_draft()  # what the application's aboutToQuit runs
    assert not Path(path).exists()  # released (a server upload would be cancelled too)
    assert editor.uploads.status(record.attachment_id) is None
    assert autosave.pending is False


def test_a_debounced_save_is_written_off_the_gui_thread_in_order(qtbot, tmp_path):
    store = DraftStore(tmp_path)
    editor = ComposerEditor()
    qtbot.addWidget(editor)
    jobs = []
    autosave = DraftAutosave(editor, store, "thread-1", delay_ms=10,
                             runner=lambda job, done: jobs.append((job, done)))
    qtbot.keyClicks(editor, "old")
    qtbot.waitUntil(lambda: bool(jobs), timeout=2000)
    assert autosave.pending and store.load("thread-1").prompt == ""  # handed over, not written
    qtbot.keyClicks(editor, " new")
    autosave.flush()  # writes the save in flight, then the newest edit
    assert store.load("thread-1").prompt == "old new" and not autosave.pending
    job, done = jobs[0]
    done(job())  # the stale save runs late: it must not overwrite the newer one
    assert store.load("thread-1").prompt == "old new"
