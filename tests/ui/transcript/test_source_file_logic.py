"""Which file a knowledge-folder or workspace source names, and that it never leaves its folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from composer_app.core.contracts.sources import decode_sources
from composer_app.ui.transcript.source_file_logic import (
    SourceFile,
    resolve_inside,
    safe_relative,
    source_file,
)


def _entry(file_id: str, metadata: dict[str, Any] | None = None, kind: str = "connector-file"
           ) -> Any:
    raw: dict[str, Any] = {"id": "kb:1", "type": kind, "sourceLabel": "Knowledge folder",
                           "sourceUsage": "used", "availableActions": ["download"],
                           "title": "handbook.md", "fileId": file_id}
    if metadata is not None:
        raw["metadata"] = metadata
    return decode_sources({"version": 1, "entries": [raw]})[0]


def test_knowledge_and_workspace_sources_name_their_file_and_cited_lines() -> None:
    found = source_file(_entry("knowledge:policies/handbook.md",
                               {"lineStart": 12, "lineEnd": 15}))
    assert found == SourceFile("knowledge", "policies/handbook.md", 12, 15)
    assert found.name == "handbook.md" and found.where == "lines 12–15"
    assert source_file(_entry("workspace:src/app.py", {"lineStart": 4})) == SourceFile(
        "workspace", "src/app.py", 4, 4)
    assert source_file(_entry("workspace:README.md")) == SourceFile("workspace", "README.md")


@pytest.mark.parametrize("metadata", [{"lineStart": 0}, {"lineStart": -3}, {"lineStart": 2.5},
                                      {"lineStart": "7"}, {"lineStart": True}])
def test_bad_cited_lines_are_ignored(metadata: dict[str, Any]) -> None:
    assert source_file(_entry("knowledge:a.md", metadata)) == SourceFile("knowledge", "a.md")


def test_an_end_before_the_start_is_the_start() -> None:
    found = source_file(_entry("knowledge:a.md", {"lineStart": 9, "lineEnd": 3}))
    assert found is not None and (found.line_start, found.line_end) == (9, 9)


@pytest.mark.parametrize("file_id", [
    "knowledge:../secret.txt", "knowledge:a/../../secret.txt", "knowledge:/etc/passwd",
    "knowledge:", "knowledge:a//b", "knowledge:./a.md", "knowledge:C:/Windows/win.ini",
    "knowledge:a\\..\\b", "knowledge:a\x00b", "knowledge:a\nb", "att_123", "drive:abc",
    "workspace:..",
])
def test_hostile_or_foreign_file_ids_name_no_file(file_id: str) -> None:
    assert source_file(_entry(file_id)) is None


def test_only_files_are_opened_here() -> None:
    assert source_file(_entry("knowledge:a.md", kind="item")) is None


def test_resolve_inside_finds_the_file_and_refuses_escapes(tmp_path: Path) -> None:
    root = tmp_path / "knowledge"
    (root / "policies").mkdir(parents=True)
    (root / "policies" / "handbook.md").write_text("# Handbook\n", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("do not show", encoding="utf-8")
    os.symlink(secret, root / "link.txt")
    os.symlink(tmp_path, root / "up")
    inside = root / "policies" / "handbook.md"
    os.symlink(inside, root / "alias.md")
    assert resolve_inside(root, "policies/handbook.md") == inside.resolve()
    assert resolve_inside(root, "alias.md") == inside.resolve()  # a link that stays inside
    assert resolve_inside(root, "link.txt") is None
    assert resolve_inside(root, "up/secret.txt") is None
    assert resolve_inside(root, "../secret.txt") is None
    assert resolve_inside(root, str(secret)) is None
    assert resolve_inside(root, "policies") is None  # a folder is not a file
    assert resolve_inside(root, "missing.md") is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["..", ".", "", "a", "b.md", "/", "\\", "C:", "x\x00"]),
                min_size=1, max_size=6))
def test_no_path_resolves_outside_its_root(tmp_path_factory: pytest.TempPathFactory,
                                           parts: list[str]) -> None:
    base = tmp_path_factory.getbasetemp() / "prop"
    root = base / "root"
    (root / "a").mkdir(parents=True, exist_ok=True)
    (root / "b.md").write_text("in", encoding="utf-8")
    (base / "b.md").write_text("out", encoding="utf-8")
    path = "/".join(parts)
    resolved = resolve_inside(root, path)
    if resolved is not None:
        assert resolved.is_relative_to(root.resolve())
        assert safe_relative(path) == path
