"""Skills: folders holding a ``SKILL.md`` whose YAML front matter names and describes them.

Invariants: a skill is ``<dir>/<folder>/SKILL.md`` opening with a ``---`` front matter block whose
YAML is a mapping with non-empty string ``name`` and ``description``; anything else (no front
matter, bad YAML, missing fields, an unreadable or oversize file) is skipped and logged, never
fatal; a skill folder or file that resolves outside its skills directory is skipped; when two
directories hold a skill of the same name the first directory wins (the thread's workspace comes
before the server's folder); the list is sorted by name.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

_log = logging.getLogger(__name__)

SKILL_FILE = "SKILL.md"
SKILL_MAX_BYTES = 256 * 1024
WORKSPACE_SKILLS = (".composer", "skills")


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    body: str
    path: Path

    def to_wire(self) -> dict[str, str]:
        return {"name": self.name, "description": self.description}


def parse_skill(text: str) -> tuple[str, str, str] | None:
    """(name, description, body) of a ``SKILL.md`` text, or None when it is malformed."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() in ("---", "..."))
    except StopIteration:
        return None
    try:
        meta = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.YAMLError:
        return None
    if not isinstance(meta, dict):
        return None
    name, description = meta.get("name"), meta.get("description")
    if not isinstance(name, str) or not name.strip():
        return None
    if not isinstance(description, str) or not description.strip():
        return None
    return name.strip(), description.strip(), "\n".join(lines[end + 1:]).strip()


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def skills_in(directory: Path) -> list[Skill]:
    """The well-formed skills of one directory (see the module invariants)."""
    try:
        root = Path(os.path.realpath(directory))
        folders = sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return []
    found = []
    for folder in folders:
        file = Path(os.path.realpath(folder / SKILL_FILE))
        if not _inside(file, root):
            _log.warning("skill %s points outside %s; skipped", folder.name, root)
            continue
        try:
            if not file.is_file():
                continue
            if file.stat().st_size > SKILL_MAX_BYTES:
                _log.warning("skill file %s is over %d bytes; skipped", file, SKILL_MAX_BYTES)
                continue
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            _log.warning("skill file %s could not be read: %s", file, exc)
            continue
        parsed = parse_skill(text)
        if parsed is None:
            _log.warning("skill file %s has no valid front matter (name, description); skipped",
                         file)
            continue
        found.append(Skill(parsed[0], parsed[1], parsed[2], file))
    return found


def workspace_skills_dir(workspace: Path) -> Path | None:
    """``<workspace>/.composer/skills`` when it exists inside the workspace."""
    candidate = Path(os.path.realpath(workspace.joinpath(*WORKSPACE_SKILLS)))
    if not _inside(candidate, workspace) or not candidate.is_dir():
        return None
    return candidate


def list_skills(directories: Sequence[Path | None]) -> list[Skill]:
    """The skills of ``directories`` (first wins per name), sorted by name."""
    chosen: dict[str, Skill] = {}
    for directory in directories:
        if directory is None:
            continue
        for skill in skills_in(directory):
            chosen.setdefault(skill.name, skill)
    return sorted(chosen.values(), key=lambda s: s.name)
