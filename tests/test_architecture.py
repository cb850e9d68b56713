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


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_level_imports(path: Path, modules: set[str]) -> set[str]:
    """The package's modules ``path`` imports when it is imported: statements at module level
    (inside ``if``/``try``/``with`` too), not in functions or ``if TYPE_CHECKING:`` blocks.
    ``from package import module`` counts as importing the module alone."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                submodules = {f"{node.module}.{a.name}" for a in node.names} & modules
                found.update(submodules or ({node.module} & modules))
            elif isinstance(node, ast.If | ast.With):
                visit(node.body)
                visit(getattr(node, "orelse", []))
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def test_no_module_level_import_cycles() -> None:
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {name: _module_level_imports(path, set(paths)) for name, path in paths.items()}
    cycles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def walk(name: str, path: list[str]) -> None:
        state[name] = 1
        for imported in sorted(graph[name]):
            if state.get(imported) == 1:
                cycles.append([*path[path.index(imported):], imported])
            elif imported not in state:
                walk(imported, [*path, imported])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [name])
    assert cycles == []


def test_the_entry_point_self_test_and_window_do_not_import_each_other() -> None:
    """``app`` starts the self-test and the window; neither imports ``app`` back, even late."""
    ui = PACKAGE / "ui"
    for path in (ui / "self_test.py", ui / "window" / "main_window.py"):
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
        assert "composer_app.ui.app" not in imported, path.name
