"""Every data file of the ``composer_app`` source tree is package data of the wheel (the bundle's
spec takes them from the source tree; an installed wheel must have them too)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "composer_app"


def _patterns() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["setuptools"]["package-data"]["composer_app"])


def test_every_data_file_of_the_package_is_listed_as_package_data() -> None:
    patterns = _patterns()
    data = [path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
            and path.suffix not in {".py", ".pyc", ".pyi"}]
    assert "server/providers/wordnet/lexicon.txt" in data
    assert "server/providers/wordnet/LICENSE" in data
    missing = [name for name in data if not any(fnmatch(name, p) for p in patterns)]
    assert missing == []
