"""Fixtures of the server tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.harness import Harness, harness


@pytest.fixture
def h(tmp_path: Path) -> Iterator[Harness]:
    """An in-process app on SQLite with users alice (two devices) and bob."""
    with harness(tmp_path) as running:
        yield running


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
