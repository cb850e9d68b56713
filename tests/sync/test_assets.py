"""Bringing an attachment over from a source environment (paste import)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from composer_app.sync.assets import NO_LONGER_AVAILABLE, NOT_CONNECTED, AssetFetchError
from tests.sync.conftest import WAIT, LoopbackServer, free_port
from tests.sync.test_uploads import PNG, _image, rec_sent


def test_import_asset_from_a_source_environment(tmp_path: Path, server: LoopbackServer,
                                                make_engine: Any) -> None:
    source = LoopbackServer(tmp_path / "source").start()
    try:
        src_token = source.token("ada", "desktop")
        src, src_rec = make_engine(source.base_url, src_token, "src")
        thread_id = src.create_thread().result(WAIT)
        original = tmp_path / "shot.png"
        original.write_bytes(PNG)
        row = src.attach_file(original, mime_type="image/png").result(WAIT)
        message_id = src.send_message(thread_id, "img", [_image(row.local_id)],
                                      [row.local_id]).result(WAIT)
        src_rec.wait(lambda: rec_sent(src_rec, thread_id, message_id))
        stored = source.get(f"/api/threads/{thread_id}", src_token)["messages"][0]
        attachment_id = stored["attachments"][0]["attachmentId"]

        home, home_rec = make_engine(server.base_url, server.token(), "home")
        imported = home.import_asset(attachment_id, "shot.png", "image/png",
                                     source_url=source.base_url,
                                     source_token=src_token).result(WAIT)
        assert Path(imported.path).read_bytes() == PNG
        home_rec.wait(lambda: home_rec.saw("upload", imported.local_id, "uploaded", len(PNG)))

        def reason(**kw: Any) -> str:
            try:
                home.import_asset(kw.pop("attachment_id", attachment_id), "shot.png",
                                  "image/png", **kw).result(WAIT)
            except AssetFetchError as exc:
                return exc.reason
            raise AssertionError("import should have failed")

        assert reason(attachment_id="att_missing", source_url=source.base_url,
                      source_token=src_token) == NO_LONGER_AVAILABLE
        assert reason(source_url=f"http://127.0.0.1:{free_port()}",
                      source_token=src_token) == NOT_CONNECTED
        # another user's attachment is not theirs to read
        assert reason(source_url=source.base_url,
                      source_token=source.token("eve", "laptop")) == NO_LONGER_AVAILABLE
    finally:
        source.stop()
