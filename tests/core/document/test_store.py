import json
import os

import pytest

from composer_app.core.codecs.references import format_reference
from composer_app.core.document.edits import add_record
from composer_app.core.document.model import Draft, RecordState, StashEntry
from composer_app.core.document.store import DraftStore
from composer_app.core.errors import StorageError
from tests.core.document import sample_records as rec


def link(record):
    return format_reference(record.kind, record.context_id, record.label)


def full_draft():
    draft = Draft(keep_shelf_images=True)
    for r in (rec.image(), rec.file(), rec.terminal()):
        add_record(draft, r)
    draft.states["file_f1"] = RecordState.PENDING
    draft.prompt = f"hi {link(rec.file())} {link(rec.terminal())}"
    draft.stash.append(StashEntry("old", (rec.review(),)))
    draft.last_sent = "previous"
    return draft


def test_round_trip_keeps_prompt_records_states_shelf_stash(tmp_path):
    store = DraftStore(tmp_path, keep_shelf_images=True)
    store.save("thread/1", full_draft())
    loaded = store.load("thread/1")
    assert loaded.prompt == full_draft().prompt
    assert list(loaded.records) == ["image_a1", "file_f1", "terminal_t1"]
    assert loaded.state_of("file_f1") is RecordState.PENDING
    assert loaded.shelf == ["image_a1"]
    assert loaded.stash == [StashEntry("old", (rec.review(),))]
    assert loaded.last_sent == "previous"
    data = json.loads(store.path_for("thread/1").read_text(encoding="utf-8"))
    assert data["version"] == 2


def test_file_names_are_safe_and_distinct(tmp_path):
    store = DraftStore(tmp_path)
    names = {store.path_for(k).name for k in ("a/b", "a-b", "A/b", "../x")}
    assert len(names) == 4
    assert all(store.path_for(k).parent == tmp_path for k in ("../x", "a/b"))


def test_interrupted_write_never_replaces_the_good_draft(tmp_path, monkeypatch):
    store = DraftStore(tmp_path)
    store.save("t", Draft(prompt="good"))

    def crash(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(StorageError):
        store.save("t", Draft(prompt="new"))
    monkeypatch.undo()
    assert store.load("t").prompt == "good"
    assert [p.name for p in tmp_path.iterdir()] == [store.path_for("t").name]


def test_half_written_temp_file_is_ignored(tmp_path):
    store = DraftStore(tmp_path)
    store.save("t", Draft(prompt="good"))
    (tmp_path / f".{store.path_for('t').name}.abc.tmp").write_text('{"version": 2, "pro')
    assert store.load("t").prompt == "good"


def test_damaged_file_is_moved_aside(tmp_path):
    store = DraftStore(tmp_path)
    store.path_for("t").write_text("{not json", encoding="utf-8")
    assert store.load("t").prompt == ""
    assert store.path_for("t").with_suffix(".corrupt").exists()


def test_empty_draft_removes_the_file(tmp_path):
    store = DraftStore(tmp_path)
    store.save("t", Draft(prompt="x"))
    store.save("t", Draft())
    assert not store.path_for("t").exists()
    assert store.load("missing").prompt == ""


def test_old_format_file_migrates_on_load(tmp_path):
    store = DraftStore(tmp_path)
    old = {"prompt": "see \ufffc", "terminalContexts": [
        {"id": "a", "terminalId": "t1", "terminalLabel": "Terminal 1", "lineStart": 1,
         "lineEnd": 2, "text": "out"}]}
    store.path_for("t").write_text(json.dumps(old), encoding="utf-8")
    draft = store.load("t")
    assert draft.prompt == "see [Terminal 1 lines 1-2](t3-context://v1/terminal/terminal_a)"
    assert list(draft.records) == ["terminal_a"]


def test_bad_records_are_dropped_and_unreferenced_ones_removed(tmp_path):
    store = DraftStore(tmp_path)
    data = {"version": 2, "prompt": f"x {link(rec.mention())}",
            "records": [{"kind": "image"}, *(r.to_wire() for r in (rec.mention(), rec.skill()))],
            "states": {"mention_m1": "bogus"}}
    store.path_for("t").write_text(json.dumps(data), encoding="utf-8")
    draft = store.load("t")
    assert list(draft.records) == ["mention_m1"]
    assert draft.state_of("mention_m1") is RecordState.UNRESOLVED
    store.path_for("u").write_text(json.dumps({"version": 99}), encoding="utf-8")
    assert store.load("u").prompt == ""


def test_append_reference_to_a_stored_draft(tmp_path):
    store = DraftStore(tmp_path)
    store.save("t", Draft(prompt="hello"))
    store.append_reference("t", rec.review())
    draft = store.load("t")
    assert draft.prompt == f"hello {link(rec.review())} "
    assert list(draft.records) == ["review-comment_r1"]


def test_an_unreadable_draft_is_a_storage_error(tmp_path):
    store = DraftStore(tmp_path)
    store.path_for("thr_dir").mkdir(parents=True)  # a folder where the file should be
    with pytest.raises(StorageError, match="cannot read draft"):
        store.load("thr_dir")


def test_a_draft_cannot_be_written_under_a_file(tmp_path):
    blocker = tmp_path / "drafts"
    blocker.write_text("not a folder")
    store = DraftStore(blocker)
    draft = Draft()
    draft.prompt = "keep me"
    with pytest.raises(StorageError, match="cannot write draft"):
        store.save("thr_1", draft)
