"""Layering and public surfaces.

Core, sync and server import with PySide6 blocked and only ui may import it; core imports only the
standard library, pydantic and markdown-it-py; every package of the layout exists; every curated
``__all__`` is sorted (constants, then classes, then functions) and complete.
"""

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
    assert (PACKAGE / package.split(".")[1] / "__init__.py").is_file(), f"{package} is missing"
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
LAYOUT = ("core", "sync", "server", "ui", "ui/composer", "ui/transcript", "ui/window", "ui/threads",
          "ui/settings")


@pytest.mark.parametrize("package", LAYOUT)
def test_every_package_of_the_layout_exists(package: str) -> None:
    assert (PACKAGE / package / "__init__.py").is_file(), f"composer_app/{package} is missing"


def _all_order(name: str) -> tuple[int, str]:
    """Ruff's isort-style order: SCREAMING_CASE constants, then CamelCase classes, then the rest."""
    group = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return group, name


def _curated_all(path: Path) -> tuple[list[str], set[str], list[str]] | None:
    """``__all__``, the names the module binds, and its public top-level classes and functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    listed: list[str] | None = None
    bound: set[str] = set()
    public: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
            if not node.name.startswith("_"):
                public.append(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            bound |= names
            if "__all__" in names and isinstance(node.value, ast.List | ast.Tuple):
                listed = [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return None if listed is None else (listed, bound, public)


CURATED = sorted(
    str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py") if _curated_all(p) is not None
)


def test_curated_surfaces_are_found() -> None:
    assert "composer_app/core/codecs/references.py" in CURATED
    assert "composer_app/ui/server_process.py" in CURATED


@pytest.mark.parametrize("module", CURATED)
def test_curated_all_is_sorted_and_complete(module: str) -> None:
    found = _curated_all(ROOT / module)
    assert found is not None
    listed, bound, public = found
    assert listed == sorted(listed, key=_all_order), "__all__ is not sorted"
    assert len(set(listed)) == len(listed), "__all__ lists a name twice"
    assert [name for name in listed if name not in bound] == [], "__all__ names unbound names"
    assert [name for name in public if name not in listed] == [], "public names missing"


def test_curated_all_names_import() -> None:
    import importlib

    for module in CURATED:
        if "/ui/" in module:
            continue  # ui modules need a Qt application; their names are checked statically
        name = module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        loaded = importlib.import_module(name)
        missing = [n for n in loaded.__all__ if not hasattr(loaded, n)]
        assert missing == [], f"{name}: {missing}"
