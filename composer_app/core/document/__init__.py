"""The composer's draft model, Qt-free (docs/contract.md §11).

A draft is the canonical prompt Markdown plus an ordered record map, a per-record state and the
image shelf order. The editor is a rendering of it: rebuilding the editor from the prompt restores
equivalent chips. Persistence (``store``), the old-format migration (``migration``), the prompt
stash (``stash``) and the send payload (``send``) all work on this model.
"""

from composer_app.core.document.edits import (
    add_record,
    append_reference,
    forget_tombstones,
    reconcile,
    referenced_ids,
)
from composer_app.core.document.model import Draft, ReconcileResult, RecordState
from composer_app.core.document.send import SendBlocked, SendPayload, build_send_payload, is_expired

__all__ = [
    "Draft",
    "ReconcileResult",
    "RecordState",
    "SendBlocked",
    "SendPayload",
    "add_record",
    "append_reference",
    "build_send_payload",
    "forget_tombstones",
    "is_expired",
    "reconcile",
    "referenced_ids",
]
