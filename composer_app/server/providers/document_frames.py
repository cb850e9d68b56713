"""Lines that frame a document instead of stating what it says: its masthead and its words about
itself.

Documents open with a line that says whose they are: *Westmarch Valley Railway*; *Halvergate
Blood Test Clinic, outpatients wing, Halvergate Community Hospital.*; *Quarrendon Fibre Ltd,
full-fibre broadband for homes in Oxfordshire and Buckinghamshire.* And many go on to say what
they are about: *This page explains how marks are given in Aldermoor graded music exams, when
results and certificates arrive, and how to ask for a result to be looked at again.* Such lines
share the names and the topic words a question gives and so rank high, yet they state nothing a
question asks: *How do I apply for a job as a conductor with Westmarch Valley Railway?* is not
answered by **Westmarch Valley Railway.**, nor *I'm 82. Am I too old to take out an Over-50s
Life Plan?* by *This key facts sheet … explains how the Over-50s Life Plan works.*

Invariants: both tests read the sentence alone. ``is_masthead``: the sentence opens with a name of
at least two words (each capitalised, or *of*, *and*, *the*, *for*, *upon*, *&*), with no digit
and no colon, that does not open with a preposition, a determiner or a word of condition (*On
Saturdays*, *The Main Barn*, *If …*), up to its first comma or its end; the words after that comma
are at most ``MAX_TRAILING_WORDS``, none of them a finite auxiliary (*is*, *can*, *must*, …), and
the sentence holds no semicolon. So *Hollis Family House, across the road from the main entrance,
offers free rooms …* (too long to be a byline) and *Students, trainees and people aged 65 …* (a
name of one word) are none. ``describes_itself``: the sentence opens with *This*, *These* or *The*
and a word for a document (*guide*, *page*, *leaflet*, *summary*, *key facts sheet*, …, at most
three words before it) whose verb, within four words, says what the document does (*explains*,
*sets out*, *describes*, *gives*, *summarises*, *covers*, *lists*, *tells you*), or that opens
with *It*, or *These* and a word for rules or a document, and says to whom or from when it applies
(*These rules apply to every team*, *It applies to all exams taken from 1 January 2026*; not *This
discount does not apply to …*, which states a rule).
"""

from __future__ import annotations

import re

__all__ = ["MAX_TRAILING_WORDS", "describes_itself", "is_masthead"]

MAX_TRAILING_WORDS = 12
_NAME_WORD = r"(?:[A-Z][\w'’.-]*|&|of|and|the|for|upon)"
_NAME = re.compile(rf"^{_NAME_WORD}(?:\s+{_NAME_WORD})+$")
_OPENING = re.compile(r"^(?:On|At|Over|In|For|From|During|Before|After|Until|By|Between|Within|"
                      r"Outside|Inside|Every|Each|All|Our|Your|The|This|These|Those|If|When|"
                      r"While)\b")
_FINITE = re.compile(r"\b(?:is|are|was|were|be|been|has|have|had|can|cannot|can['’]t|may|must|"
                     r"will|would|should|shall|do|does|did|don['’]t|doesn['’]t|need|needs)\b",
                     re.IGNORECASE)
_ITSELF = re.compile(
    r"^\s*(?:this|these|the)\s+(?:[\w-]+\s+){0,3}?(?:guide|leaflet|sheet|page|summary|document|"
    r"booklet|handbook|factsheet|overview|faq|faqs|policy|notice|list)\b[\s,]+"
    r"(?:[\w-]+,?\s+){0,4}?(?:explains?|sets?\s+out|describes?|gives?|summari[sz]es?|covers?|"
    r"lists?|outlines?|tells?\s+you)\b", re.IGNORECASE)

# The document's scope: *These rules apply to every team …*, *It applies to all exams taken from
# 1 January 2026*, *These terms apply from 1 April 2025*.
_SCOPE = re.compile(
    r"^\s*(?:it|(?:this|these|the)\s+(?:[\w-]+\s+){0,2}?(?:rules|terms|guidelines|conditions|"
    r"guide|page|leaflet|policy|document|notice|handbook))\s+(?:applies|apply)\s+"
    r"(?:to\s+(?:all|every|everyone|anyone)\b|from\b)", re.IGNORECASE)


def is_masthead(sentence: str) -> bool:
    """Whether ``sentence`` is a masthead line (see the module invariant)."""
    body = sentence.strip().rstrip(".")
    name, _, rest = body.partition(",")
    name = name.strip()
    if not _NAME.match(name) or _OPENING.match(name) or re.search(r"[\d:]", name):
        return False
    return ";" not in body and len(rest.split()) <= MAX_TRAILING_WORDS and \
        not _FINITE.search(rest)


def describes_itself(sentence: str) -> bool:
    """Whether ``sentence`` says what its document is about (see the module invariant)."""
    return _ITSELF.match(sentence) is not None or _SCOPE.match(sentence) is not None
