"""File names of cited downloads: plain, never a path, never hidden, never overwriting."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from composer_app.sync.source_downloads import file_name, free_path


def test_file_name_prefers_the_utf8_name_and_drops_folders():
    header = "attachment; filename=\"_ber.md\"; filename*=UTF-8''%C3%BCber%20uns.md"
    assert file_name(header) == "über uns.md"
    assert file_name('attachment; filename="../../etc/passwd"') == "passwd"
    assert file_name('attachment; filename=".bashrc"') == "bashrc"
    assert file_name("attachment") == "download"


def test_free_path_never_overwrites(tmp_path: Path):
    (tmp_path / "a.md").write_text("x")
    (tmp_path / "a (2).md").write_text("x")
    assert free_path(tmp_path, "a.md") == tmp_path / "a (3).md"
    assert free_path(tmp_path, "b.md") == tmp_path / "b.md"


@given(st.text(max_size=80))
def test_any_header_gives_a_plain_visible_name(header: str):
    name = file_name(header)
    assert name and "/" not in name and "\\" not in name and not name.startswith(".")
    assert len(name) <= 200 and all(c.isprintable() for c in name)
