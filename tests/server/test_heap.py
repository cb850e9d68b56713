"""The serving process's heap after startup: garbage collected first, the survivors frozen."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from composer_app.server import heap


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_settle_collects_startup_garbage_before_freezing_survivors() -> None:
    garbage, kept = Node(), Node()
    garbage.other = Node()
    garbage.other.other = garbage  # a cycle only the collector can free
    gone = weakref.ref(garbage)
    del garbage
    frozen = heap.settle()
    assert gone() is None  # collected, not frozen for ever
    assert frozen == gc.get_freeze_count() > 0
    assert id(kept) not in {id(o) for o in gc.get_objects()}  # frozen: out of every generation


def test_a_full_collection_after_settling_traverses_only_what_came_since() -> None:
    startup = [Node() for _ in range(50_000)]  # what startup leaves behind
    heap.settle()
    seen = {id(o) for o in gc.get_objects(generation=2)}
    assert not any(id(o) in seen for o in startup[:100])
    fresh = [Node() for _ in range(10)]
    gc.collect()
    later = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(o) in later for o in fresh)
