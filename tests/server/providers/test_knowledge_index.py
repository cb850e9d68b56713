"""The knowledge folder index: persisted in the data directory, refreshed incrementally."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from composer_app.server.providers.knowledge_index import (
    MAX_FILE_BYTES,
    KnowledgeIndex,
    index_path_for,
)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    (root / "guides").mkdir(parents=True)
    (root / "guides" / "setup.md").write_text("# Setup\n\nInstall the toolchain with rustup.\n")
    (root / "faq.txt").write_text("Refunds are processed within five business days.\n")
    (root / "main.go").write_text("package main\n\nfunc main() { println(\"gopher\") }\n")
    (root / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0 rustup")
    (root / ".hidden.txt").write_text("rustup secret\n")
    return root


@pytest.fixture
def index(folder: Path, tmp_path: Path) -> Iterator[KnowledgeIndex]:
    opened = KnowledgeIndex.in_data_dir(folder, tmp_path / "data")
    yield opened
    opened.close()


def _keys(index: KnowledgeIndex, *terms: str) -> list[str]:
    return [hit.key for hit in index.search(list(terms))]


def test_index_lives_in_the_data_directory_not_the_folder(folder: Path, tmp_path: Path,
                                                          index: KnowledgeIndex):
    index.refresh()
    path = index_path_for(tmp_path / "data", folder)
    assert path.is_file() and path.parent == tmp_path / "data" / "knowledge"
    assert not any(p.suffix == ".sqlite3" for p in folder.rglob("*"))


def test_first_refresh_indexes_text_files_and_skips_binary_and_hidden(index: KnowledgeIndex):
    stats = index.refresh()
    assert (stats.scanned, stats.indexed, stats.skipped) == (4, 3, 1)
    assert [f.path for f in index.files()] == ["faq.txt", "guides/setup.md", "main.go"]
    assert _keys(index, "rustup") == ["guides/setup.md"]


def test_search_uses_stemming_and_reports_term_coverage(index: KnowledgeIndex):
    index.refresh()
    hits = index.search(["refund", "processing", "weeks"])
    assert [(h.key, h.matched) for h in hits] == [("faq.txt", 2)]
    assert "\x01Refunds\x02" in hits[0].marked


def test_query_syntax_in_terms_is_quoted_not_interpreted(index: KnowledgeIndex):
    index.refresh()
    assert index.search(['NEAR("x"', "refunds*", "OR", ")"]) != []


def test_unchanged_folder_reads_no_file(index: KnowledgeIndex):
    index.refresh()
    stats = index.refresh()
    assert (stats.indexed, stats.unchanged, stats.deleted) == (0, 4, 0)


def test_changed_file_is_reindexed_alone(index: KnowledgeIndex, folder: Path):
    index.refresh()
    (folder / "faq.txt").write_text("Refunds now take ten business days.\n")
    stats = index.refresh()
    assert (stats.indexed, stats.unchanged) == (1, 3)
    assert [h.text for h in index.search(["refunds"])] == ["Refunds now take ten business days."]


def test_touched_file_with_same_content_is_not_reindexed(index: KnowledgeIndex, folder: Path):
    index.refresh()
    path = folder / "faq.txt"
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 5_000_000_000))
    stats = index.refresh()
    assert (stats.indexed, stats.unchanged) == (0, 4)
    assert index.refresh().unchanged == 4


def test_deleted_and_added_files_follow_the_folder(index: KnowledgeIndex, folder: Path):
    index.refresh()
    (folder / "faq.txt").unlink()
    (folder / "guides" / "billing.md").write_text("Invoices are sent on the first of the month.\n")
    stats = index.refresh()
    assert (stats.deleted, stats.indexed) == (1, 1)
    assert _keys(index, "refunds") == []
    assert _keys(index, "invoices") == ["guides/billing.md"]


def test_file_turning_binary_leaves_the_index(index: KnowledgeIndex, folder: Path):
    index.refresh()
    (folder / "faq.txt").write_bytes(b"Refunds\x00\x00\x00")
    index.refresh()
    assert _keys(index, "refunds") == []
    assert "faq.txt" not in [f.path for f in index.files()]


def test_oversized_file_is_skipped(index: KnowledgeIndex, folder: Path):
    (folder / "huge.txt").write_text("zebra " * (MAX_FILE_BYTES // 6 + 10))
    stats = index.refresh()
    assert stats.skipped == 2
    assert _keys(index, "zebra") == []


def test_index_persists_across_reopen(folder: Path, tmp_path: Path):
    first = KnowledgeIndex.in_data_dir(folder, tmp_path / "data")
    first.refresh()
    first.close()
    second = KnowledgeIndex.in_data_dir(folder, tmp_path / "data")
    try:
        assert _keys(second, "rustup") == ["guides/setup.md"]
        assert second.refresh().indexed == 0
    finally:
        second.close()


def test_missing_folder_empties_the_index(index: KnowledgeIndex, folder: Path):
    index.refresh()
    for path in sorted(folder.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    folder.rmdir()
    stats = index.refresh()
    assert stats.deleted == 4 and index.files() == []
