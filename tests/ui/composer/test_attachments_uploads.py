"""Attachments upload at attach time through the sync client (a real server on loopback)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl

from composer_app.core.document.segments import ChipSegment
from composer_app.core.limits import LARGE_PASTE_CHARS
from composer_app.ui.composer.document_bridge import read_segments
from composer_app.ui.composer.shelf import AttachmentShelf
from tests.ui.composer.attachment_support import (
    WAIT_MS,
    Connected,
    make_composer,
    make_uploads,
)


def server_copy(qtbot, client, thread_id, message_id):
    """The client's row of a sent message once the server's copy (its event) has replaced the
    local echo: the acceptance and the event travel separately, and until the event arrives the
    echo keeps the upload's local id."""
    for _ in range(WAIT_MS // 20):
        rows, _ = client.call(qtbot, lambda e: e.messages(thread_id))
        [row] = [r for r in rows if r.message_id == message_id]
        if row.local_state is None:
            return row
        qtbot.wait(20)
    raise AssertionError(f"the server's copy of {message_id} never arrived: {row}")


@pytest.fixture
def env(qtbot, tmp_path):
    connected = Connected(qtbot, tmp_path, "a")
    yield connected
    connected.close()


@pytest.fixture
def w(qtbot, tmp_path, env):
    return make_composer(qtbot, make_uploads(tmp_path, bridge=env.bridge, env=None),
                         env=env.environment_id)


def drop_files(w, *paths):
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    w.insertFromMimeData(md)
    return list(w.draft.records.values())


def wait_state(qtbot, w, attachment_id, state):
    qtbot.waitUntil(lambda: (s := w.uploads.status(attachment_id)) is not None
                    and s.state == state, timeout=WAIT_MS)


def chip_ids(w):
    return [s.context_id for s in read_segments(w.document()) if isinstance(s, ChipSegment)]


def test_upload_starts_at_attach_time_and_the_chip_follows_it(qtbot, w, tmp_path):
    shelf = AttachmentShelf(w, confirm=lambda _n: True)
    qtbot.addWidget(shelf)
    path = tmp_path / "notes.txt"
    path.write_text("hello server")
    seen = []
    w.uploads.status_changed.connect(lambda aid: seen.append(w.uploads.status(aid).state))
    [record] = drop_files(w, path)
    assert seen[0] == "queued"
    look = w.looks.look("file", record.context_id, record.label)
    assert look.state == "pending" and "Waiting to upload" in look.tooltip
    wait_state(qtbot, w, record.attachment_id, "uploaded")
    assert w.looks.look("file", record.context_id, record.label).state == "resolved"
    m = shelf.shelf_model
    assert m.data(m.index(0, 0), Qt.ItemDataRole.AccessibleTextRole) == (
        "File notes.txt, 1 reference, uploaded")
    assert "uploading" in seen


def test_failed_upload_blocks_send_and_retries_from_the_chip(qtbot, w, tmp_path, env):
    path = tmp_path / "a.txt"
    path.write_text("retry me")
    [record] = drop_files(w, path)
    wait_state(qtbot, w, record.attachment_id, "uploaded")
    env.bridge.upload_changed.emit(record.attachment_id, "failed", 0)  # as the engine reports it
    look = w.looks.look("file", record.context_id, record.label)
    assert look.state == "unresolved" and "Upload failed" in look.tooltip
    sent = []
    w.send_requested.connect(lambda text, ctx: sent.append(text))
    assert not w.request_send()
    assert sent == [] and w.notices[-1][0] == "Couldn't upload a.txt"
    cursor = w.textCursor()
    cursor.setPosition(0)
    rect = w.cursorRect(cursor)
    qtbot.mouseClick(w.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.left() + 6, rect.center().y()))
    wait_state(qtbot, w, record.attachment_id, "uploaded")


def test_send_waits_for_pending_uploads_with_a_notice(qtbot, w, tmp_path, env):
    path = tmp_path / "big.bin"
    path.write_bytes(b"\x00" * 2_000_000)
    w.insertPlainText("with a file ")
    [record] = drop_files(w, path)
    sent = []
    w.send_requested.connect(lambda text, ctx: sent.append((text, ctx)))
    assert w.uploads.status(record.attachment_id).busy
    assert w.request_send()
    assert w.notices[-1][0] == "Waiting for 1 attachment to finish uploading."
    assert w.last_upload_ids == (record.attachment_id,)
    (text, context), = sent
    thread_id, error = env.call(qtbot, lambda e: e.create_thread("t"))
    assert not error
    outcome = []
    w.uploads.send_message(thread_id, text, context, w.last_upload_ids,
                           lambda result, error: outcome.append((result, error)))
    qtbot.waitUntil(lambda: bool(outcome), timeout=WAIT_MS)
    [(message_id, error)] = outcome
    assert not error
    states = []
    env.bridge.outbox_item_changed.connect(lambda _t, m, s: states.append(s)
                                           if m == message_id else None)
    qtbot.waitUntil(lambda: "sent" in states or "unsent" in states, timeout=WAIT_MS)
    items, _ = env.call(qtbot, lambda e: e.outbox_items())
    assert states[-1] == "sent", (states, items)
    row = server_copy(qtbot, env, thread_id, message_id)
    [bound] = [r for r in row.context["records"] if r["contextId"] == record.context_id]
    [attachment] = row.attachments
    assert bound["attachmentId"] == attachment["attachmentId"]
    assert attachment["attachmentId"].startswith("att_") and attachment["name"] == "big.bin"


def test_last_chip_release_cancels_the_upload_and_removes_generated_files(qtbot, w, env):
    md = QMimeData()
    md.setText("z" * LARGE_PASTE_CHARS)
    w.insertFromMimeData(md)
    [record] = w.draft.records.values()
    assert record.name == "pasted-text.txt"
    generated = Path(w.uploads.source_path(record.attachment_id))
    assert generated.exists()
    wait_state(qtbot, w, record.attachment_id, "uploaded")
    rows, _ = env.call(qtbot, lambda e: e.uploads())
    [row] = [r for r in rows if r.local_id == record.attachment_id]
    url, error = env.call(qtbot, lambda e: e.asset_url(row.server_attachment_id))
    assert url and not error
    w.selectAll()
    w.textCursor().removeSelectedText()  # the last chip goes, but undo could bring it back
    assert chip_ids(w) == [] and record.context_id in w.draft.tombstones
    assert w.uploads.status(record.attachment_id) is not None and generated.exists()
    w.undo()
    assert chip_ids(w) == [record.context_id]
    w.selectAll()
    w.textCursor().removeSelectedText()
    released = []
    w.records_released.connect(released.extend)
    with qtbot.waitSignal(env.bridge.upload_changed, timeout=WAIT_MS,
                          check_params_cb=lambda lid, s, _n: lid == record.attachment_id
                          and s == "cancelled"):
        w.set_markdown("")  # closing the draft collects the tombstones
    assert [r.context_id for r in released] == [record.context_id]
    assert not generated.exists() and w.uploads.status(record.attachment_id) is None
    _url, error = env.call(qtbot, lambda e: e.asset_url(row.server_attachment_id))
    assert "no longer available" in error


def test_the_servers_max_upload_bytes_refuse_oversize_files(qtbot, tmp_path):
    small = Connected(qtbot, tmp_path, "small", file_max_bytes=10)
    try:
        w = make_composer(qtbot, make_uploads(tmp_path, bridge=small.bridge, env=None),
                          env=small.environment_id)
        big = tmp_path / "eleven.txt"
        big.write_text("x" * 11)
        fits = tmp_path / "ten.txt"
        fits.write_text("x" * 10)
        records = drop_files(w, big, fits)
        assert [r.name for r in records] == ["ten.txt"]
        assert w.notices[0] == ("Couldn't attach eleven.txt",
                                "It is larger than the 10 bytes this server accepts.")
        wait_state(qtbot, w, records[0].attachment_id, "uploaded")
    finally:
        small.close()


def test_registering_counts_dropped_files_until_the_client_has_them(qtbot, w, tmp_path, env):
    path = tmp_path / "notes.txt"
    path.write_text("registered once copied\n" * 500)
    [record] = drop_files(w, path)
    assert w.uploads.registering() == 1  # the copy into app data is still running
    qtbot.waitUntil(lambda: w.uploads.registering() == 0, timeout=WAIT_MS)
    uploads, error = env.call(qtbot, lambda e: e.uploads())
    assert not error and record.attachment_id in {u.local_id for u in uploads}
    # A file the client cannot copy stops counting as well (and shows as failed).
    w.uploads.start("local_gone", tmp_path / "gone.txt", "gone.txt", "text/plain", 3)
    assert w.uploads.registering() == 1
    qtbot.waitUntil(lambda: w.uploads.registering() == 0, timeout=WAIT_MS)
    assert w.uploads.status("local_gone").failed


class _Client:
    """One run of the desktop client: engine, client store, uploads glue and a composer."""

    def __init__(self, qtbot, tmp_path, server):
        from composer_app.sync.engine import SyncEngine
        from composer_app.ui.sync_bridge import SyncBridge

        self.bridge = SyncBridge(SyncEngine(server.url, server.token, tmp_path / "client"))
        with qtbot.waitSignal(self.bridge.connection_state_changed, timeout=WAIT_MS,
                              check_params_cb=lambda state, _n: state == "connected"):
            self.bridge.start()
        self.uploads = make_uploads(tmp_path, bridge=self.bridge, env=None)
        self.w = make_composer(qtbot, self.uploads, env=server.environment_id)

    call = Connected.call

    def stop(self):
        self.w.close()
        self.bridge.stop()


def _send_like_the_window(qtbot, client, thread_id):
    """What the window does on Send: bound ids through the uploads glue, then the outbox."""
    sent = []
    client.w.send_requested.connect(lambda text, ctx: sent.append((text, ctx)))
    assert client.w.request_send()
    [(text, context)] = sent
    ids = client.uploads.upload_ids(list(context.records))
    outcome = []
    client.uploads.send_message(thread_id, text, context, ids,
                                lambda result, error: outcome.append((result, error)))
    qtbot.waitUntil(lambda: bool(outcome), timeout=WAIT_MS)
    [(message_id, error)] = outcome
    assert not error
    return message_id


def test_restored_draft_with_file_sends_after_restart(qtbot, tmp_path):
    from composer_app.core.document.store import DraftStore
    from composer_app.server.embedded import start_embedded
    from composer_app.ui.composer.drafts import DraftAutosave

    server = start_embedded(tmp_path / "server")
    drafts = DraftStore(tmp_path / "drafts")
    try:
        first = _Client(qtbot, tmp_path, server)
        thread_id, error = first.call(qtbot, lambda e: e.create_thread("t"))
        assert not error
        autosave = DraftAutosave(first.w, drafts, thread_id)
        path = tmp_path / "report.pdf"
        path.write_bytes(b"%PDF-1.4 quarterly figures")
        first.w.insertPlainText("see ")
        [record] = drop_files(first.w, path)
        wait_state(qtbot, first.w, record.attachment_id, "uploaded")
        autosave.close_draft()  # the app quits: the draft is saved
        first.stop()
        path.unlink()  # only the copy in app data is left

        second = _Client(qtbot, tmp_path, server)  # a fresh start of the whole client
        DraftAutosave(second.w, drafts, thread_id)
        assert record.context_id in second.w.draft.records
        qtbot.waitUntil(lambda: second.uploads.status(record.attachment_id) is not None,
                        timeout=WAIT_MS)  # read back from the client store
        assert second.uploads.status(record.attachment_id).state == "uploaded"
        # Listen before sending: the item can be delivered (and say so) while the send's own
        # answer is still on its way to the UI thread.
        changes = []
        second.bridge.outbox_item_changed.connect(lambda _t, m, s: changes.append((m, s)))
        message_id = _send_like_the_window(qtbot, second, thread_id)

        def states():
            return [s for m, s in changes if m == message_id]
        qtbot.waitUntil(lambda: "sent" in states() or "unsent" in states(), timeout=WAIT_MS)
        items, _ = second.call(qtbot, lambda e: e.outbox_items())
        assert states()[-1] == "sent", (states(), items)
        row = server_copy(qtbot, second, thread_id, message_id)
        [attachment] = row.attachments
        assert attachment["name"] == "report.pdf" and attachment["attachmentId"].startswith("att_")
        second.stop()
    finally:
        server.stop()


def test_stash_keeps_file_uploads(qtbot, w, tmp_path, env):
    path = tmp_path / "report.pdf"
    path.write_bytes(b"%PDF-1.4 stash me")
    w.insertPlainText("keep ")
    [record] = drop_files(w, path)
    wait_state(qtbot, w, record.attachment_id, "uploaded")
    w.toggle_stash()  # Ctrl+S
    assert chip_ids(w) == [] and record.context_id not in w.draft.records
    assert w.uploads.status(record.attachment_id).state == "uploaded"
    w.toggle_stash()  # Ctrl+S in the empty composer restores it
    assert chip_ids(w) == [record.context_id]
    assert w.draft.records[record.context_id].attachment_id == record.attachment_id
    assert w.looks.look("file", record.context_id, record.label).state == "resolved"
    rows, _ = env.call(qtbot, lambda e: e.uploads())
    assert [r.state for r in rows if r.local_id == record.attachment_id] == ["uploaded"]
