"""The share dialog's state and texts."""

from __future__ import annotations

from composer_app.sync.shares import ShareLink
from composer_app.ui.transcript.share_logic import COPY_ONCE, NO_LINKS, ShareState, link_label


def test_a_created_link_is_shown_until_it_is_revoked():
    state = ShareState()
    state.loaded([ShareLink("shr_1", "2026-11-30T10:00:00Z")])
    assert state.hint() == ""
    state.created(ShareLink("shr_2", "2026-12-01T09:00:00Z", "https://h/s/abc"))
    assert state.created_url == "https://h/s/abc" and state.hint() == COPY_ONCE
    assert [link.url for link in state.links] == [None, None]  # the list keeps no token
    state.revoked("shr_1")
    assert state.created_url == "https://h/s/abc"
    state.revoked("shr_2")
    assert state.created_url is None and state.links == [] and state.hint() == NO_LINKS
    state.failed("The server could not be reached.")
    assert state.hint() == "The server could not be reached." and not state.busy


def test_link_labels_use_a_readable_date():
    assert link_label(ShareLink("shr_1", "2026-12-01T09:00:00Z")) == "Link created 1 Dec 2026"
    assert link_label(ShareLink("shr_1", "")) == "Link"
