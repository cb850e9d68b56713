"""Legacy messages (docs/contract.md §7): upgrade on read, fold for peers without inline context.

Messages written before inline context references carry their context in the text: trailing
``<terminal_context>``, ``<element_context>`` and ``<preview_annotation>`` blocks, inline or
trailing ``<review_comment>`` blocks, and U+FFFC or ``@slug:range`` terminal placeholders.

* ``upgrade_legacy_message(text)`` turns such a text into canonical prose plus records, in memory.
  It is pure, deterministic (ids ``legacy_<kind>_<n>``), never raises for any ``str``, and atomic:
  either every record decodes and the list passes the message-context rules, or the original text
  comes back with no records.
* ``serialize_legacy_message(text, records)`` writes the legacy form for a destination that does
  not advertise inline context; upgrading its output restores what the legacy formats can carry.
"""

from __future__ import annotations

from composer_app.core.codecs.legacy._serialize import serialize_legacy_message
from composer_app.core.codecs.legacy._upgrade import upgrade_legacy_message

__all__ = ["serialize_legacy_message", "upgrade_legacy_message"]
