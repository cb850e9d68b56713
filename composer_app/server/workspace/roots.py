"""Allowed workspace roots and path containment.

Invariants: a workspace is accepted only when its path, with symlinks followed, is an existing
directory inside (or equal to) one of the allowed roots, themselves resolved; a path inside a
workspace is normalized lexically first (``src/../README.md`` is ``README.md``) and then, with
symlinks followed, must still lie inside the resolved workspace. Every refusal is an ``ApiError``
with a stable code (``workspace_not_allowed``, ``path_outside_workspace``).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Sequence
from pathlib import Path

from composer_app.server.errors import ApiError
from composer_app.server.settings import ServerSettings


def workspace_not_allowed(path: str) -> ApiError:
    return ApiError(400, "workspace_not_allowed",
                    f"{path!r} is not a folder inside this server's allowed workspace roots.")


def path_outside_workspace() -> ApiError:
    return ApiError(400, "path_outside_workspace", "The path leaves the thread's workspace.")


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


class WorkspaceRoots:
    """The server's allowed roots (``--workspace-root``), resolved once."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = tuple(Path(os.path.realpath(r)) for r in roots)

    def check(self, path: str) -> Path:
        """The resolved workspace folder of ``path``; ``workspace_not_allowed`` otherwise."""
        if not path or "\x00" in path or not os.path.isabs(path):
            raise workspace_not_allowed(path)
        resolved = Path(os.path.realpath(path))
        if not resolved.is_dir() or not any(_inside(resolved, root) for root in self.roots):
            raise workspace_not_allowed(path)
        return resolved


def normalized_relative(path: str) -> str:
    """``path`` as a normalized relative POSIX path ('' for the top); ``path_outside_workspace``
    for an absolute path or one that climbs above the top."""
    if "\x00" in path or path.startswith(("/", "\\")) or (len(path) > 1 and path[1] == ":"):
        raise path_outside_workspace()
    normal = posixpath.normpath(path.replace("\\", "/")) if path else "."
    if normal == ".":
        return ""
    if normal == ".." or normal.startswith("../"):
        raise path_outside_workspace()
    return normal


def resolve_inside(workspace: Path, path: str) -> tuple[str, Path]:
    """(normalized relative path, resolved absolute path) of ``path`` in ``workspace``."""
    relative = normalized_relative(path)
    resolved = Path(os.path.realpath(workspace / relative))
    if not _inside(resolved, workspace):
        raise path_outside_workspace()
    return relative, resolved


def check_command_workspace(settings: ServerSettings, command: object) -> None:
    """``workspace_not_allowed`` for a command naming a workspace outside the allowed roots
    (checked before the command's transaction, so a refused command changes nothing)."""
    workspace = getattr(command, "workspace", None)
    if workspace is not None:
        WorkspaceRoots(settings.workspace_roots).check(workspace.path)
