"""Uploads and asset URLs: limits, signed and expiring URLs, user scope, server-chosen names."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

from tests.server.harness import Harness, create_thread, harness, image, tid, turn_start

PNG = b"\x89PNG"


def announce(h: Harness, who: dict[str, str], data: bytes, **extra: object) -> dict[str, str]:
    body = {"name": "a.png", "mimeType": "image/png", "sizeBytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(), **extra}
    response = h.client.post("/api/attachments", headers=who, json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def attach(h: Harness, data: bytes = PNG, name: str = "a.png") -> tuple[str, str]:
    """(thread id, persisted attachment id) of a sent message with one image."""
    pending = h.upload(h.alice, data, name=name)
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    text = f"see ![{name}](t3-context://v1/image/img1)"
    h.ok(h.alice, turn_start(thread, text, context={"version": 1, "records": [
        image("img1", pending, name)]}, attachments=[{"attachmentId": pending, "name": name,
                                                      "mimeType": "image/png", "sizeBytes": 4}]))
    h.wait_turns()
    user = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()["messages"][0]
    return thread, user["attachments"][0]["attachmentId"]


def test_create_upload_answers_a_pending_id_and_signed_url(h: Harness) -> None:
    created = announce(h, h.alice, PNG)
    assert created["attachmentId"].startswith("att_")
    assert created["uploadUrl"].startswith("/api/uploads/")
    assert created["expiresAt"].endswith("Z")


def test_size_limits_come_from_capabilities(tmp_path: Path) -> None:
    with harness(tmp_path, image_max_bytes=10, file_max_bytes=20) as h:
        caps = h.client.get("/api/environment").json()["capabilities"]
        assert caps["imageAttachments"] == {"maxUploadBytes": 10}
        assert caps["fileAttachments"] == {"maxUploadBytes": 20}
        for mime, size, status in (("image/png", 11, 413), ("image/png", 10, 201),
                                   ("text/plain", 20, 201), ("text/plain", 21, 413)):
            response = h.client.post("/api/attachments", headers=h.alice, json={
                "name": "f", "mimeType": mime, "sizeBytes": size, "sha256": "0" * 64})
            assert response.status_code == status, (mime, size)
            if status == 413:
                assert response.json()["error"]["code"] == "too_large"


def test_upload_bigger_than_announced_is_413_and_mismatch_is_400(h: Harness) -> None:
    created = announce(h, h.alice, PNG)
    assert h.client.put(created["uploadUrl"], content=PNG + b"more").status_code == 413
    assert h.client.put(created["uploadUrl"], content=b"XXXX").status_code == 400
    assert h.client.put(created["uploadUrl"], content=PNG).status_code == 204
    stored = [p.name for p in h.settings.attachments_dir.iterdir()]
    assert stored == [created["attachmentId"]]  # no .part files left behind


def test_bad_upload_requests_are_400(h: Harness) -> None:
    for body in ({"name": "a"}, {"name": "a", "mimeType": "x/y", "sizeBytes": -1,
                                  "sha256": "0" * 64}, {"name": "", "mimeType": "x/y",
                                                        "sizeBytes": 1, "sha256": "0" * 64}):
        response = h.client.post("/api/attachments", headers=h.alice, json=body)
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid_command"


def test_expired_upload_url_is_410(tmp_path: Path) -> None:
    with harness(tmp_path, upload_url_ttl=-1.0) as h:
        created = announce(h, h.alice, PNG)
        response = h.client.put(created["uploadUrl"], content=PNG)
        assert response.status_code == 410
        assert response.json()["error"] == {"code": "url_expired", "retryable": False,
                                             "message": response.json()["error"]["message"]}


def test_forged_upload_url_is_404(h: Harness) -> None:
    created = announce(h, h.alice, PNG)
    token = created["uploadUrl"].rsplit("/", 1)[1]
    head, mac = token.split(".")
    assert h.client.put(f"/api/uploads/{head}.{mac[::-1]}", content=PNG).status_code == 404
    assert h.client.put("/api/uploads/garbage", content=PNG).status_code == 404


def test_file_names_never_reach_the_filesystem(h: Harness) -> None:
    evil = "../../escape.png"
    pending = h.upload(h.alice, PNG, name=evil)
    names = sorted(p.name for p in h.settings.attachments_dir.iterdir())
    assert names == [pending]
    assert not (h.settings.data_dir.parent / "escape.png").exists()


def test_normalizer_rewrites_pending_ids_to_persisted_ids(h: Harness) -> None:
    pending = h.upload(h.alice, PNG, name="a.png")
    thread, persisted = attach_with(h, pending)
    assert persisted != pending and persisted.startswith("att_")
    user = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()["messages"][0]
    assert user["attachments"] == [{"attachmentId": persisted, "name": "a.png",
                                    "mimeType": "image/png", "sizeBytes": 4}]
    record = user["context"]["records"][0]
    assert (record["contextId"], record["attachmentId"]) == ("img1", persisted)
    assert user["text"] == "see ![a.png](t3-context://v1/image/img1)"  # references unchanged
    # the pending id is spent: releasing it now fails
    assert h.client.delete(f"/api/attachments/{pending}", headers=h.alice).status_code == 404


def attach_with(h: Harness, pending: str) -> tuple[str, str]:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    h.ok(h.alice, turn_start(thread, "see ![a.png](t3-context://v1/image/img1)",
                             context={"version": 1, "records": [image("img1", pending, "a.png")]},
                             attachments=[{"attachmentId": pending, "name": "a.png",
                                           "mimeType": "image/png", "sizeBytes": 4}]))
    h.wait_turns()
    user = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()["messages"][0]
    return thread, user["attachments"][0]["attachmentId"]


def test_record_naming_no_attachment_of_the_message_is_422(h: Harness) -> None:
    pending = h.upload(h.alice, PNG)
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    response = h.command(h.alice, turn_start(
        thread, "x", context={"version": 1, "records": [image("img1", "att_other")]},
        attachments=[{"attachmentId": pending, "name": "a.png", "mimeType": "image/png",
                      "sizeBytes": 4}]))
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "unknown_attachment"
    # nothing was bound: the upload can still be used
    assert attach_with(h, pending)[1] != pending


def test_attachment_must_be_an_uploaded_upload_of_this_device(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    announced = announce(h, h.alice, PNG)["attachmentId"]  # never uploaded
    other_device = h.upload(h.alice2, PNG)
    other_user = h.upload(h.bob, PNG)
    for attachment_id in (announced, other_device, other_user, "att_missing"):
        response = h.command(h.alice, turn_start(thread, "x", attachments=[{
            "attachmentId": attachment_id, "name": "a.png", "mimeType": "image/png",
            "sizeBytes": 4}]))
        assert response.status_code == 422, attachment_id
        assert response.json()["error"]["code"] == "unknown_attachment"


def test_delete_releases_a_pending_upload(h: Harness) -> None:
    pending = h.upload(h.alice, PNG)
    assert h.client.delete(f"/api/attachments/{pending}", headers=h.bob).status_code == 404
    assert h.client.delete(f"/api/attachments/{pending}", headers=h.alice).status_code == 204
    assert list(h.settings.attachments_dir.iterdir()) == []


def test_asset_url_serves_the_bytes_without_a_header(h: Harness) -> None:
    _, persisted = attach(h, name="Résumé \"final\".png")
    response = h.client.post("/api/assets/url", headers=h.alice2,
                             json={"attachmentId": persisted, "disposition": "attachment"})
    assert response.status_code == 200
    url = response.json()["url"]
    asset = h.client.get(url)
    assert asset.status_code == 200 and asset.content == PNG
    assert asset.headers["content-type"] == "image/png"
    disposition = asset.headers["content-disposition"]
    assert disposition.startswith("attachment; filename=")
    assert "filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.png" in disposition


def test_asset_urls_are_user_scoped(h: Harness) -> None:
    _, persisted = attach(h)
    response = h.client.post("/api/assets/url", headers=h.bob,
                             json={"attachmentId": persisted, "disposition": "inline"})
    assert response.status_code == 404


def test_asset_urls_expire(tmp_path: Path) -> None:
    with harness(tmp_path, asset_url_ttl=-1.0) as h:
        _, persisted = attach(h)
        url = h.client.post("/api/assets/url", headers=h.alice,
                            json={"attachmentId": persisted}).json()["url"]
        response = h.client.get(url)
        assert response.status_code == 410
        assert response.json()["error"]["code"] == "url_expired"


def test_upload_token_is_not_an_asset_token(h: Harness) -> None:
    created = announce(h, h.alice, PNG)
    token = created["uploadUrl"].rsplit("/", 1)[1]
    assert h.client.get(f"/api/assets/{token}").status_code == 404


def test_uploads_never_attached_are_swept_after_their_lifetime(h: Harness) -> None:
    import time

    from composer_app.server.routes.attachments import sweep_uploads

    kept = h.upload(h.alice, PNG)
    assert h.client.portal.call(sweep_uploads, h.store, h.settings.attachments_dir) == 0
    _, attached = attach(h)
    later = time.time() + h.settings.pending_upload_ttl + 1
    swept = h.client.portal.call(sweep_uploads, h.store, h.settings.attachments_dir, later)
    assert swept == 1
    assert h.client.delete(f"/api/attachments/{kept}", headers=h.alice).status_code == 404
    assert [p.name for p in h.settings.attachments_dir.iterdir()] != []  # the attached one stays
    url = h.client.post("/api/assets/url", headers=h.alice,
                        json={"attachmentId": attached}).json()["url"]
    assert h.client.get(url).content == PNG


def test_a_deleted_threads_attachments_stop_being_served_and_are_deleted(h: Harness) -> None:
    thread, persisted = attach(h)
    url = h.client.post("/api/assets/url", headers=h.alice,
                        json={"attachmentId": persisted}).json()["url"]
    assert h.client.get(url).status_code == 200
    h.ok(h.alice, {"type": "thread.delete", "commandId": f"cmd_{'d' * 32}", "threadId": thread,
                   "createdAt": "2026-11-30T14:02:11Z"})
    assert h.client.get(url).status_code == 404
    assert h.client.post("/api/assets/url", headers=h.alice,
                         json={"attachmentId": persisted}).status_code == 404
    assert list(h.settings.attachments_dir.iterdir()) == []


def test_an_upload_cancelled_while_its_bytes_arrive_leaves_nothing(h: Harness) -> None:
    created = announce(h, h.alice, PNG)
    pending = created["attachmentId"]

    def body() -> Iterator[bytes]:  # runs on the server's loop: release it as DELETE does
        yield PNG[:2]
        h.store.write_sync(lambda tx: tx.set_attachment(pending, state="deleted"))
        yield PNG[2:]

    response = h.client.put(created["uploadUrl"], content=body())
    assert response.status_code == 404
    assert list(h.settings.attachments_dir.iterdir()) == []


def test_the_sweep_deletes_files_no_attachment_names(h: Harness) -> None:
    import os
    import time

    from composer_app.server.routes.attachments import sweep_uploads

    _, persisted = attach(h)
    folder = h.settings.attachments_dir
    stray = folder / f"att_{'1' * 32}"
    stray.write_bytes(b"left by a crash")
    old_part = folder / f"att_{'2' * 32}.123.p_{'3' * 32}.part"
    old_part.write_bytes(b"half")
    os.utime(old_part, (time.time() - 7200, time.time() - 7200))
    fresh_part = folder / f"att_{'4' * 32}.123.p_{'5' * 32}.part"
    fresh_part.write_bytes(b"arriving")
    other = folder / "notes.txt"
    other.write_bytes(b"not ours")
    h.client.portal.call(sweep_uploads, h.store, folder)  # type: ignore[union-attr]
    assert not stray.exists() and not old_part.exists()
    assert fresh_part.exists() and other.exists()
    url = h.client.post("/api/assets/url", headers=h.alice,
                        json={"attachmentId": persisted}).json()["url"]
    assert h.client.get(url).content == PNG


def test_a_full_disk_is_503_with_retry_after(h: Harness, tmp_path: Path) -> None:
    from composer_app.server.errors import error_response

    try:
        with open("/dev/full", "wb") as full:
            full.write(b"x")
            full.flush()
        raise AssertionError("/dev/full accepted a write")
    except OSError as exc:
        response = error_response(exc)
    assert response.status_code == 503
    assert response.headers["retry-after"]
    assert json.loads(response.body)["error"] == {
        "code": "unavailable", "message": "The server's disk is full; try again later.",
        "retryable": True}
    db = h.store._writer_conn.raw  # the database file cannot grow: SQLite reports it full
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    try:
        data = PNG * 20_000
        created = h.client.post("/api/attachments", headers=h.alice, json={
            "name": "a.png", "mimeType": "image/png", "sizeBytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest()})
        thread = tid()
        responses = [created] + [h.command(h.alice, create_thread(tid(), "x" * 2000))
                                 for _ in range(200)]
        failed = [r for r in responses if r.status_code >= 500]
        assert failed, "the database never filled up"
        assert {r.status_code for r in failed} == {503}
        assert all(r.json()["error"]["retryable"] for r in failed)
        assert thread
    finally:
        db.execute("PRAGMA max_page_count = 1073741823")


def test_assets_are_served_under_a_sandbox_policy(h: Harness) -> None:
    html = b"<script>alert(document.cookie)</script>"
    for mime in ("text/html", "image/svg+xml", "application/xhtml+xml"):
        pending = h.upload(h.alice, html, name="page.html", mime=mime)
        url = h.client.post("/api/assets/url", headers=h.alice,
                            json={"attachmentId": pending}).json()["url"]
        asset = h.client.get(url)
        assert asset.status_code == 200
        assert asset.headers["content-security-policy"] == "sandbox"
        assert asset.headers["x-content-type-options"] == "nosniff"
