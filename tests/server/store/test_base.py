"""Identifiers made by the store: ``<prefix>_<32 hex>``; event ids sort by when they were made."""

from __future__ import annotations

import re
import time

from composer_app.server.store.base import new_id, new_ordered_id

ID = re.compile(r"^evt_[0-9a-f]{32}$")


def test_ids_have_the_prefix_and_32_hex_digits() -> None:
    assert ID.match(new_id("evt")) and ID.match(new_ordered_id("evt"))
    assert len({new_ordered_id("evt") for _ in range(10_000)}) == 10_000


def test_ordered_ids_of_later_milliseconds_sort_later() -> None:
    made = []
    for _ in range(5):
        made.append(new_ordered_id("evt"))
        time.sleep(0.002)
    assert made == sorted(made)
    stamp = int(made[0][4:16], 16)
    assert abs(stamp - time.time() * 1000) < 60_000  # the first 12 digits are the time in ms
