"""Resolving a turn's ``mention``, ``skill`` and ``thread`` records into reference material.

Invariants: a mention is read only inside the thread's workspace (the same containment rules as
the workspace routes: normalized, symlinks followed, allowed roots re-checked); a file is read as
text up to the file route's limits and a folder is listed (at most ``FOLDER_LIST_MAX`` entries); a
skill is looked up in the workspace's and the server's skills folders; a thread is read only when it
is a live thread of the same user and of this server (its last ``THREAD_MESSAGES`` messages);
anything that cannot be read becomes material without text and with a user-safe reason, never an
error of the turn; records of other kinds are left to the provider input.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from composer_app.core.contracts.messages import decode_message_context
from composer_app.core.contracts.records import MentionRecord, SkillRecord, ThreadRecord
from composer_app.core.errors import ComposerError
from composer_app.server.errors import ApiError
from composer_app.server.ledger import TurnPlan
from composer_app.server.providers.reference_material import ReferenceMaterial
from composer_app.server.settings import ServerSettings
from composer_app.server.store.base import Reader, ThreadStore
from composer_app.server.workspace.file_reader import MAX_FILE_BYTES, is_binary
from composer_app.server.workspace.roots import WorkspaceRoots, resolve_inside
from composer_app.server.workspace.skills import list_skills, workspace_skills_dir

_log = logging.getLogger(__name__)

THREAD_MESSAGES = 50
FOLDER_LIST_MAX = 500
_ID_OK = re.compile(r"[A-Za-z0-9_.:-]+")


def source_id(prefix: str, value: str) -> str:
    """A sources-contract entry id: ``prefix:value`` when it fits, else a hash of ``value``."""
    candidate = f"{prefix}:{value}"
    if len(candidate) <= 128 and _ID_OK.fullmatch(candidate):
        return candidate
    return f"{prefix}:{hashlib.sha256(value.encode('utf-8')).hexdigest()[:32]}"


def _rfc3339(mtime: float) -> str:
    return datetime.fromtimestamp(mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _listing(folder: Path) -> str:
    names = []
    try:
        for item in sorted(os.scandir(folder), key=lambda i: i.name)[:FOLDER_LIST_MAX]:
            if item.name == ".git":
                continue
            names.append(item.name + ("/" if item.is_dir(follow_symlinks=False) else ""))
    except OSError:
        return ""
    return "\n".join(names)


def read_mention(workspace: Path | None, record: MentionRecord) -> ReferenceMaterial:
    """The workspace file (or folder listing) a mention points at."""
    name = PurePosixPath(record.path).name or record.path
    base = ReferenceMaterial(
        record.context_id, "mention", name[:300] or "Workspace file",
        source_id("ws", record.path), "connector-file", "Workspace",
        file_id=f"workspace:{record.path}"[:512], tool_name="workspace.read")
    if workspace is None:
        return _unread(base, f"I couldn't read {name} because this thread has no workspace.",
                       "The thread has no workspace folder, so the file was not read.")
    try:
        relative, resolved = resolve_inside(workspace, record.path)
        info = resolved.stat()
    except (ApiError, OSError):
        return _unread(base, f"I couldn't read {name} in the thread's workspace.",
                       "The file is not in the thread's workspace, so it was not read.")
    metadata: dict[str, object] = {"modifiedAt": _rfc3339(info.st_mtime)}
    folder = str(PurePosixPath(relative).parent)
    if folder not in ("", "."):
        metadata["folderPath"] = folder[:300]
    if resolved.is_dir():
        return _with(base, text=_listing(resolved), title=(relative or name)[:300],
                     metadata=metadata | {"mimeType": "inode/directory"})
    if info.st_size > MAX_FILE_BYTES:
        return _unread(base, f"I couldn't read {name} because it is over 2 MB.",
                       "The file is over 2 MB, so its contents were not checked.")
    try:
        data = resolved.read_bytes()
    except OSError:
        return _unread(base, f"I couldn't read {name} in the thread's workspace.",
                       "The file could not be read, so its contents were not checked.")
    if is_binary(data):
        return _unread(base, f"I couldn't read {name} because it isn't a text file.",
                       "Not a text file, so its contents were not checked.")
    return _with(base, text=data.decode("utf-8", errors="replace"), metadata=metadata)


def _with(base: ReferenceMaterial, **changes: Any) -> ReferenceMaterial:
    return replace(base, **changes)


def _unread(base: ReferenceMaterial, notice: str, hint: str) -> ReferenceMaterial:
    return _with(base, text=None, notice=notice, readiness_hint=hint)


def read_skills(workspace: Path | None, records: list[SkillRecord],
                server_dir: Path) -> list[ReferenceMaterial]:
    """One material per skill record: its body as instructions, or a notice when unknown."""
    skills = {s.name: s for s in list_skills(
        [workspace_skills_dir(workspace) if workspace is not None else None, server_dir])}
    found = []
    for record in records:
        base = ReferenceMaterial(record.context_id, "skill", record.name[:300] or "Skill",
                                 source_id("skill", record.name), "item", "Skill",
                                 tool_name="skills.read")
        skill = skills.get(record.name)
        if skill is None:
            found.append(_unread(base, f"I couldn't find the skill {record.name} on this server.",
                                 "No skill of this name was found, so it was not applied."))
        else:
            found.append(_with(base, instructions=skill.body, notice=(
                f"I can't follow skill instructions, so the skill {record.name} was not "
                "applied."), readiness_hint="The offline assistant reads skills but cannot "
                "follow their instructions."))
    return found


def read_thread(reader: Reader, user_id: str, environment_id: str,
                record: ThreadRecord) -> ReferenceMaterial:
    """A referenced thread's last messages as one document (nothing for another user's)."""
    title = record.title.strip() or "Thread"
    base = ReferenceMaterial(record.context_id, "thread", title[:300],
                             source_id("thread", record.thread_id), "item", "Thread",
                             tool_name="threads.read")
    row = reader.thread(user_id, record.thread_id)
    if (row is None or row.user_id != user_id or row.deleted_at is not None
            or (record.environment_id and record.environment_id != environment_id)):
        return _unread(base, f"I couldn't read the thread {title}.",
                       "The referenced thread could not be read, so it was not checked.")
    messages, _ = reader.messages_of(user_id, record.thread_id, limit=THREAD_MESSAGES)
    parts = [f"{'You' if m.role == 'user' else 'Assistant'}: {m.text.strip()}"
             for m in messages if m.text.strip() and not m.is_streaming]
    return _with(base, title=(row.title or title)[:300], text="\n\n".join(parts))


class ReferenceResolver:
    """Resolves the references of a turn (see the module invariants)."""

    def __init__(self, store: ThreadStore, settings: ServerSettings) -> None:
        self.store = store
        self.settings = settings

    async def resolve(self, plan: TurnPlan) -> tuple[ReferenceMaterial, ...]:
        if not plan.context:
            return ()
        try:
            records = decode_message_context(plan.context).records
        except ComposerError:
            return ()
        mentions = [r for r in records if isinstance(r, MentionRecord)]
        skills = [r for r in records if isinstance(r, SkillRecord)]
        threads = [r for r in records if isinstance(r, ThreadRecord)]
        if not (mentions or skills or threads):
            return ()
        row = await self.store.read(lambda r: r.thread(plan.user_id, plan.thread_id))
        if row is None:
            return ()
        workspace = self._workspace(row.workspace)
        found: dict[str, ReferenceMaterial] = {}
        if mentions or skills:
            def read_files() -> list[ReferenceMaterial]:
                return [read_mention(workspace, m) for m in mentions] + read_skills(
                    workspace, skills, self.settings.server_skills_dir)

            for material in await asyncio.to_thread(read_files):
                found[material.context_id] = material
        if threads:
            env = self.store.environment_id
            for material in await self.store.read(lambda r: [
                    read_thread(r, row.user_id, env, t) for t in threads]):
                found[material.context_id] = material
        return tuple(found[r.context_id] for r in records if r.context_id in found)

    def _workspace(self, workspace: dict[str, object] | None) -> Path | None:
        path = (workspace or {}).get("path")
        if not isinstance(path, str):
            return None
        try:
            return WorkspaceRoots(self.settings.workspace_roots).check(path)
        except ApiError:
            _log.info("a thread's workspace is no longer allowed: %s", path)
            return None
