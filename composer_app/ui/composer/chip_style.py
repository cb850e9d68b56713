"""How each chip kind looks: tones for light and dark themes, and the kind glyph.

Invariants: every known kind, every pull-request display state, the unresolved state and the
expired-terminal warning have a tone in both themes; an unknown key falls back to the neutral tone.
A tone is ``(fill, border, text)`` as ``#rrggbb`` strings; glyphs are short ASCII strings drawn in a
bold font, or the name of a vector icon the renderer draws (``@image``, ``@file``).
"""

from __future__ import annotations

Tone = tuple[str, str, str]

_LIGHT: dict[str, Tone] = {
    "image": ("#e0f2fe", "#7dd3fc", "#075985"),
    "file": ("#e0e7ff", "#a5b4fc", "#3730a3"),
    "terminal": ("#e7e5e4", "#a8a29e", "#292524"),
    "element": ("#fae8ff", "#e879f9", "#86198f"),
    "preview-annotation": ("#fce7f3", "#f9a8d4", "#9d174d"),
    "review-comment": ("#fef3c7", "#fcd34d", "#92400e"),
    "mention": ("#dcfce7", "#86efac", "#166534"),
    "skill": ("#ccfbf1", "#5eead4", "#115e59"),
    "thread": ("#ede9fe", "#c4b5fd", "#5b21b6"),
    "pr-open": ("#dcfce7", "#4ade80", "#166534"),
    "pr-draft": ("#f1f5f9", "#94a3b8", "#334155"),
    "pr-merged": ("#f3e8ff", "#c084fc", "#6b21a8"),
    "pr-closed": ("#fee2e2", "#f87171", "#991b1b"),
    "pr-neutral": ("#f1f5f9", "#cbd5e1", "#334155"),
    "neutral": ("#f1f5f9", "#cbd5e1", "#334155"),
    "unresolved": ("#ffffff", "#94a3b8", "#64748b"),
    "expired": ("#fff7ed", "#f97316", "#9a3412"),
}

_DARK: dict[str, Tone] = {
    "image": ("#0c3a53", "#0369a1", "#bae6fd"),
    "file": ("#25265e", "#4f46e5", "#c7d2fe"),
    "terminal": ("#33302e", "#78716c", "#e7e5e4"),
    "element": ("#4a1650", "#a21caf", "#f5d0fe"),
    "preview-annotation": ("#4c1430", "#be185d", "#fbcfe8"),
    "review-comment": ("#45300a", "#b45309", "#fde68a"),
    "mention": ("#10391f", "#15803d", "#bbf7d0"),
    "skill": ("#0c3b38", "#0f766e", "#99f6e4"),
    "thread": ("#2e1d5c", "#6d28d9", "#ddd6fe"),
    "pr-open": ("#10391f", "#16a34a", "#bbf7d0"),
    "pr-draft": ("#1e293b", "#64748b", "#cbd5e1"),
    "pr-merged": ("#3b1a5c", "#9333ea", "#e9d5ff"),
    "pr-closed": ("#4c1515", "#dc2626", "#fecaca"),
    "pr-neutral": ("#1e293b", "#475569", "#cbd5e1"),
    "neutral": ("#1e293b", "#475569", "#cbd5e1"),
    "unresolved": ("#1a1d23", "#64748b", "#94a3b8"),
    "expired": ("#3b1d0b", "#ea580c", "#fed7aa"),
}

_GLYPHS: dict[str, str] = {
    "image": "@image",
    "file": "@file",
    "terminal": ">_",
    "element": "</>",
    "preview-annotation": "@pen",
    "review-comment": "@bubble",
    "mention": "@",
    "skill": "$",
    "thread": "@thread",
    "pull-request": "@pr",
}


def tone(key: str, *, dark: bool) -> Tone:
    """The tone of ``key`` (a kind, ``pr-<state>``, ``unresolved`` or ``expired``)."""
    table = _DARK if dark else _LIGHT
    return table.get(key, table["neutral"])


def glyph(kind: str) -> str:
    """The glyph of a kind (``?`` for kinds this app does not know)."""
    return _GLYPHS.get(kind, "?")
