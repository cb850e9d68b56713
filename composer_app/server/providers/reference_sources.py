"""How the offline assistant shows and searches reference material (workspace files, skills,
threads).

Invariants: a workspace file is a ``connector-file`` entry labelled ``Workspace``; a thread is an
``item`` named by its title; a skill is an ``item`` labelled ``Skill``; material with searchable
text is added like an attached file, material without becomes one ``Notice`` (its one-line reason
in the answer and a ``checked`` entry with the Coverage hint).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from composer_app.server.providers.extractive import Notice, SourceRef
from composer_app.server.providers.passages import is_code_name, mime_type_for
from composer_app.server.providers.reference_material import ReferenceMaterial


def reference_ref(material: ReferenceMaterial) -> SourceRef:
    """The source description of one piece of reference material."""
    title = material.title or material.source_label
    metadata = material.metadata
    if material.source_type == "connector-file" and metadata and "mimeType" not in metadata:
        metadata = metadata | {"mimeType": mime_type_for(PurePosixPath(title).name)}
    return SourceRef(
        id=material.source_id, type=material.source_type, source_label=material.source_label,
        title=title[:300], code=material.kind == "mention" and is_code_name(title),
        tool_name=material.tool_name, file_id=material.file_id, metadata=metadata,
    )


def reference_notice(material: ReferenceMaterial) -> Notice | None:
    """The notice of material the assistant could not search (None when it has text)."""
    if material.text is not None and material.text.strip() and material.kind != "skill":
        return None
    sentence = material.notice or f"I couldn't read {material.title}."
    hint = material.readiness_hint or "It could not be read, so it was not checked."
    return Notice(sentence, reference_ref(material), hint[:280])
