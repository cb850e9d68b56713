"""Share links through the sync engine against a real loopback server."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from composer_app.sync.shares import NOT_FOUND, ShareError
from tests.sync.conftest import WAIT, LoopbackServer
from tests.sync.test_uploads import rec_sent


def test_create_list_and_revoke_a_share_link(server: LoopbackServer, make_engine: Any) -> None:
    engine, rec = make_engine(server.base_url, server.token())
    thread_id = engine.create_thread().result(WAIT)
    message_id = engine.send_message(thread_id, "hello there", [], []).result(WAIT)
    rec.wait(lambda: rec_sent(rec, thread_id, message_id))
    link = engine.create_share(thread_id).result(WAIT)
    assert link.url is not None and link.url.startswith(server.base_url + "/s/")
    page = httpx.get(link.url)
    assert page.status_code == 200 and "hello there" in page.text
    listed = engine.list_shares(thread_id).result(WAIT)
    assert [s.share_id for s in listed] == [link.share_id] and listed[0].url is None
    engine.revoke_share(thread_id, link.share_id).result(WAIT)
    assert httpx.get(link.url).status_code == 404
    assert engine.list_shares(thread_id).result(WAIT) == []
    with pytest.raises(ShareError) as failure:
        engine.revoke_share(thread_id, link.share_id).result(WAIT)
    assert failure.value.reason == NOT_FOUND
