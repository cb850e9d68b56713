"""Copy and paste through the real Qt clipboard (offscreen), across threads and environments."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QGuiApplication, QImage, QKeySequence

from composer_app.core.codecs.clipboard import (
    decode_fragment,
    encode_clipboard_html,
    encode_fragment,
)
from composer_app.core.codecs.imports import is_same_payload
from composer_app.core.contracts.clipboard import CLIPBOARD_MIME, ClipboardFragment, FragmentSource
from composer_app.core.document.model import Draft, RecordState
from composer_app.core.document.segments import ChipSegment
from composer_app.sync.assets import NOT_CONNECTED
from composer_app.ui.composer.attachment_uploads import LOCAL_ENVIRONMENT_ID, SourceEnvironment
from composer_app.ui.composer.document_bridge import read_segments
from composer_app.ui.composer.shelf import AttachmentShelf
from tests.core.document import sample_records as rec
from tests.ui.composer.attachment_support import (
    WAIT_MS,
    Connected,
    clear_clipboard,
    link,
    make_composer,
    make_uploads,
)

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _clean_clipboard(qapp):
    clear_clipboard()
    yield
    clear_clipboard()


def chips(w):
    return [s for s in read_segments(w.document()) if isinstance(s, ChipSegment)]


def attach_image(w, tmp_path, name="shot.png"):
    path = tmp_path / name
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    image.fill(0xFF3366CC)
    image.save(str(path))
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(path))])
    w.insertFromMimeData(md)
    return next(r for r in w.draft.records.values() if getattr(r, "name", None) == name), path


def copy_all(qtbot, w):
    clipboard = QGuiApplication.clipboard()
    w.setFocus()
    w.selectAll()
    with qtbot.waitSignal(clipboard.dataChanged, timeout=WAIT_MS):
        qtbot.keySequence(w, QKeySequence.StandardKey.Copy)
    return clipboard


def paste(qtbot, w):
    w.setFocus()
    qtbot.keySequence(w, QKeySequence.StandardKey.Paste)


def test_copy_in_thread_a_paste_in_thread_b(qtbot, tmp_path):
    uploads = make_uploads(tmp_path)
    a = make_composer(qtbot, uploads, thread_id="thr_a")
    b = make_composer(qtbot, uploads, thread_id="thr_b")
    qtbot.keyClicks(a, "hi ")
    a.insert_context(rec.terminal())
    a.insert_context(rec.review())
    image, _path = attach_image(a, tmp_path)
    clipboard = copy_all(qtbot, a)
    md = clipboard.mimeData()
    assert CLIPBOARD_MIME in md.formats()
    assert clipboard.text() == a.markdown() and "\ufffc" not in clipboard.text()
    fragment = decode_fragment(bytes(md.data(CLIPBOARD_MIME).data()))
    assert fragment.source.thread_id == "thr_a"
    assert [r.context_id for r in fragment.records] == ["terminal_t1", "review-comment_r1",
                                                        image.context_id]
    shelf = AttachmentShelf(b)
    qtbot.addWidget(shelf)
    paste(qtbot, b)
    a_chips, b_chips = chips(a), chips(b)
    assert [(c.kind, c.label) for c in b_chips] == [(c.kind, c.label) for c in a_chips]
    assert [c.context_id for c in b_chips[:2]] == ["terminal_t1", "review-comment_r1"]
    new_image = b.draft.records[b_chips[2].context_id]
    assert new_image.context_id != image.context_id  # attached under a fresh local id
    assert new_image.attachment_id.startswith("local_")
    for chip in b_chips:
        assert is_same_payload(b.draft.records[chip.context_id],
                               a.draft.records[next(c.context_id for c in a_chips
                                                    if c.label == chip.label)]) or (
            chip.kind == "image")
        assert b.looks.look(chip.kind, chip.context_id, chip.label).state == "resolved"
    assert b.draft.shelf == [new_image.context_id] and shelf.shelf_model.rowCount() == 3
    assert b.markdown().replace(new_image.context_id, image.context_id) == a.markdown()
    assert a.markdown().startswith("hi ")  # the source draft is untouched
    b.undo()
    assert b.markdown() == "" and chips(b) == []


def test_paste_of_an_html_carrier_from_the_contract_encoder(qtbot, tmp_path):
    w = make_composer(qtbot, make_uploads(tmp_path))
    text = f"from a browser {link(rec.element())} {link(rec.mention())}"
    fragment_json = encode_fragment(ClipboardFragment(
        source=FragmentSource(environment_id="env_web"), records=[rec.element(), rec.mention()]))
    md = QMimeData()
    md.setText(text)
    md.setHtml(encode_clipboard_html(text, fragment_json, "<p>from a browser</p>"))
    QGuiApplication.clipboard().setMimeData(md)
    paste(qtbot, w)
    assert w.markdown() == text
    assert w.draft.records == {"element_e1": rec.element(), "mention_m1": rec.mention()}


@pytest.fixture
def servers(qtbot, tmp_path):
    a = Connected(qtbot, tmp_path, "a")
    b = Connected(qtbot, tmp_path, "b")
    yield a, b
    a.close()
    b.close()


def uploaded_source(qtbot, tmp_path, a):
    """A composer on environment A holding an uploaded image, copied to the clipboard."""
    w = make_composer(qtbot, make_uploads(tmp_path / "ua", bridge=a.bridge, env=None),
                      env=a.environment_id, thread_id="thr_a")
    image, path = attach_image(w, tmp_path)
    qtbot.waitUntil(lambda: w.uploads.export_record(image).attachment_id.startswith("att_"),
                    timeout=WAIT_MS)
    copy_all(qtbot, w)
    return w, image, path


def test_cross_environment_paste_refetches_the_binary(qtbot, tmp_path, servers):
    a, b = servers
    _source, image, path = uploaded_source(qtbot, tmp_path, a)
    sources = {a.environment_id: SourceEnvironment(a.environment_id, a.server.url, a.server.token)}
    w = make_composer(qtbot, make_uploads(tmp_path / "ub", bridge=b.bridge, env=None,
                                          sources=sources), env=b.environment_id)
    paste(qtbot, w)
    [chip] = chips(w)
    record = w.draft.records[chip.context_id]
    assert record.attachment_id != image.attachment_id and record.name == "shot.png"
    assert w.draft.state_of(chip.context_id) is RecordState.PENDING
    assert w.looks.look("image", chip.context_id, chip.label).state == "pending"
    qtbot.waitUntil(lambda: w.draft.state_of(chip.context_id) is RecordState.RESOLVED,
                    timeout=WAIT_MS)
    qtbot.waitUntil(lambda: w.uploads.status(record.attachment_id).state == "uploaded",
                    timeout=WAIT_MS)
    rows, _ = b.call(qtbot, lambda e: e.uploads())
    [row] = [r for r in rows if r.local_id == record.attachment_id]
    assert row.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert w.notices == []


@pytest.mark.parametrize("how", ["stopped", "unknown"])
def test_disconnected_source_leaves_the_chip_unresolved_with_a_notice(qtbot, tmp_path, servers,
                                                                      how):
    a, b = servers
    uploaded_source(qtbot, tmp_path, a)
    sources = {a.environment_id: SourceEnvironment(a.environment_id, a.server.url, a.server.token)}
    if how == "stopped":
        a.server.stop()
    else:
        sources = {}
    w = make_composer(qtbot, make_uploads(tmp_path / "ub", bridge=b.bridge, env=None,
                                          sources=sources), env=b.environment_id)
    paste(qtbot, w)
    [chip] = chips(w)
    qtbot.waitUntil(lambda: w.draft.state_of(chip.context_id) is RecordState.UNRESOLVED,
                    timeout=WAIT_MS)
    assert w.looks.look("image", chip.context_id, chip.label).state == "unresolved"
    assert w.notices == [("Couldn't bring shot.png into this message", NOT_CONNECTED)]


def test_a_slow_import_never_touches_a_replaced_draft(qtbot, tmp_path, servers):
    a, b = servers
    uploaded_source(qtbot, tmp_path, a)
    sources = {a.environment_id: SourceEnvironment(a.environment_id, a.server.url, a.server.token)}
    w = make_composer(qtbot, make_uploads(tmp_path / "ub", bridge=b.bridge, env=None,
                                          sources=sources), env=b.environment_id)
    paste(qtbot, w)
    [chip] = chips(w)
    pasted = w.draft.records[chip.context_id]
    other = Draft(prompt="another thread's draft")
    w.load_draft(other)  # a thread switch before the bytes arrive
    with qtbot.waitSignal(b.bridge.upload_changed, timeout=WAIT_MS,
                          check_params_cb=lambda lid, s, _n: lid == pasted.attachment_id
                          and s == "cancelled"):
        pass
    assert w.draft is other and not other.records and other.states == {}
    assert w.markdown() == "another thread's draft" and w.notices == []


def test_unset_environment_id_follows_the_uploads_environment(qtbot, tmp_path):
    w = make_composer(qtbot, make_uploads(tmp_path, env="env_x"), env=None, thread_id="thr_a")
    assert w.environment_id == "env_x"
    w.insert_context(rec.terminal())
    clipboard = copy_all(qtbot, w)
    fragment = decode_fragment(bytes(clipboard.mimeData().data(CLIPBOARD_MIME).data()))
    assert fragment.source.environment_id == "env_x"
    w.environment_id = "env_explicit"
    assert w.environment_id == "env_explicit"
    w.environment_id = None
    assert w.environment_id == "env_x"


def test_same_app_paste_without_a_known_environment_resolves(qtbot, tmp_path):
    uploads = make_uploads(tmp_path, env=None)
    a = make_composer(qtbot, uploads, env=None, thread_id="thr_a")
    b = make_composer(qtbot, uploads, env=None, thread_id="thr_b")
    assert a.environment_id == LOCAL_ENVIRONMENT_ID
    image, _path = attach_image(a, tmp_path)
    copy_all(qtbot, a)
    paste(qtbot, b)
    (chip,) = chips(b)
    assert chip.context_id != image.context_id
    assert b.looks.look(chip.kind, chip.context_id, chip.label).state == "resolved"
    assert b.notices == []


def test_a_local_fragment_naming_an_attachment_this_app_lacks_stays_unresolved(qtbot, tmp_path):
    w = make_composer(qtbot, make_uploads(tmp_path, env="env_x"), env=None)
    foreign = rec.image("image_zz9", "elsewhere.png")
    fragment_json = encode_fragment(ClipboardFragment(
        source=FragmentSource(environment_id=LOCAL_ENVIRONMENT_ID), records=[foreign]))
    md = QMimeData()
    md.setText(link(foreign))
    md.setData(CLIPBOARD_MIME, fragment_json.encode())
    QGuiApplication.clipboard().setMimeData(md)
    paste(qtbot, w)
    (chip,) = chips(w)
    assert w.draft.state_of(chip.context_id) is RecordState.UNRESOLVED
    assert w.notices == [("Couldn't bring elsewhere.png into this message", NOT_CONNECTED)]


def test_a_stale_explicit_environment_id_fails_safe(qtbot, tmp_path):
    uploads = make_uploads(tmp_path, env="env_x")
    a = make_composer(qtbot, uploads, env="env_stale", thread_id="thr_a")
    b = make_composer(qtbot, uploads, env=None, thread_id="thr_b")
    attach_image(a, tmp_path)
    copy_all(qtbot, a)
    paste(qtbot, b)
    (chip,) = chips(b)
    assert b.draft.state_of(chip.context_id) is RecordState.UNRESOLVED  # never bound by guess
    assert b.notices == [("Couldn't bring shot.png into this message", NOT_CONNECTED)]


def test_copied_chips_left_on_the_clipboard_do_not_crash_at_exit(tmp_path):
    script = tmp_path / "copy_and_quit.py"
    script.write_text(
        "import os, sys\n"
        "os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from composer_app.ui.composer.editor import ComposerEditor\n"
        "from tests.core.document import sample_records as rec\n"
        "w = ComposerEditor()\n"
        "w.insert_context(rec.terminal())\n"
        "w.selectAll()\n"
        "w.copy()\n"
        "assert 'application/x-t3-context-fragment+json' in app.clipboard().mimeData().formats()\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
