"""Layering: core, sync and server import with PySide6 blocked; only ui may import it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "composer_app"

BLOCKER = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "PySide6" or name.startswith(("PySide6.", "shiboken6")):
            raise ImportError(f"{name} is blocked outside composer_app.ui")
        return None
sys.meta_path.insert(0, Block())
import pkgutil, importlib
pkg = importlib.import_module(sys.argv[1])
for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
    if "__main__" in info.name:
        continue
    importlib.import_module(info.name)
print("ok")
"""


@pytest.mark.parametrize(
    "package", ["composer_app.core", "composer_app.sync", "composer_app.server"]
)
def test_package_imports_without_qt(package: str) -> None:
    if not (PACKAGE / package.split(".")[1]).exists():
        pytest.skip(f"{package} has not landed yet")
    result = subprocess.run(
        [sys.executable, "-c", BLOCKER, package],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]


ALLOWED_CORE_ROOTS = {
    "pydantic",
    "pydantic_core",
    "markdown_it",
    "typing_extensions",
    "composer_app",
}


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_core_imports_only_stdlib_pydantic_and_markdown_it() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    offenders = {}
    for path in (PACKAGE / "core").rglob("*.py"):
        bad = _imported_roots(path) - stdlib - ALLOWED_CORE_ROOTS
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_only_ui_imports_pyside6() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "ui":
            continue
        roots = _imported_roots(path)
        if {"PySide6", "shiboken6"} & roots:
            offenders.append(str(rel))
    assert offenders == []


def test_no_grab_bag_modules() -> None:
    names = {p.name for p in PACKAGE.rglob("*.py")}
    assert not names & {"utils.py", "helpers.py", "misc.py"}
