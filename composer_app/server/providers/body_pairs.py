"""Parts of the body that come in pairs (ears, eyes, knees, …): a question about one of them, and
a rule for one or for both.

Care prices and rules often differ by side: *Microsuction for both ears costs £60. If only one ear
needs treatment, the cost is £45.* A question names one side (*Only my left ear is blocked*,
*my right knee*) or both (*both my eyes*); ``conditions`` holds the count it states against the
count a sentence's rule is for, as the kind ``count``.

Invariants: a question states one only with a side (*left*, *right*) or *only one*, and two only
with *both*; a sentence's rule is for two with *both* and for one with *only one*, *a single* or
*one* before the singular; texts are casefolded by the caller; nothing else is counted here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["bounds", "stated"]

_PARTS = ("ear", "eye", "hand", "foot", "leg", "arm", "knee", "hip", "shoulder", "wrist", "ankle",
          "elbow", "lens")
_SINGULAR = "|".join(_PARTS)
_PLURAL = "|".join([*(p + "s" for p in _PARTS if p not in ("foot", "lens")), "feet", "lenses"])
_ONE_ASKED = re.compile(rf"\b(?:my|his|her|their|the|one|only)\s+(?:left|right)\s+(?:{_SINGULAR})\b"
                        rf"|\bonly\s+one\s+(?:{_SINGULAR})\b")
_BOTH = re.compile(rf"\bboth\s+(?:(?:my|his|her|their|your|the)\s+)?(?:{_PLURAL})\b")
_ONE_RULE = re.compile(rf"\b(?:only\s+one|a\s+single|one)\s+(?:{_SINGULAR})\b")


def stated(text: str) -> Iterator[int]:
    """How many of a pair the question is about, for each mention (1 or 2)."""
    for _ in _ONE_ASKED.finditer(text):
        yield 1
    for _ in _BOTH.finditer(text):
        yield 2


def bounds(text: str) -> Iterator[int]:
    """How many of a pair each rule of the sentence is for (1 or 2)."""
    for _ in _BOTH.finditer(text):
        yield 2
    for _ in _ONE_RULE.finditer(text):
        yield 1
