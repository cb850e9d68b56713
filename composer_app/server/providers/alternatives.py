"""The alternative a question turns down: *I'd rather use my local garage than your partner*,
*Can I return it to a shop instead of posting it?*

A document often gives one rule per alternative (*the excess is £115 when you use our approved
glass partner*; *if you choose another supplier, the excess is £250*), and the question names the
one it turns down as well as, in its own words, the one it takes. A sentence about the alternative
turned down is a near miss however many of the question's words it holds.

Invariants: the alternative turned down is the words after *rather than*, *instead of*, or *than*
after *rather* or *prefer* in the same sentence, up to punctuation, a conjunction or a preposition,
at most ``WORDS`` words; the one taken is the last ``TAKEN_WORDS`` words (stop words aside) before
*rather than*, *instead of* or *than*, its head word. ``turned_down`` holds for a sentence that
holds a word of the alternative turned down that the one taken does not share and that the
sentence's document title does not hold (the organisation's name is no alternative), and no word of
the one taken. Only the texts given are read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from composer_app.server.providers.questions import STOP_WORDS
from composer_app.server.providers.term_forms import stem

__all__ = ["turned_down"]

WORDS = 5
TAKEN_WORDS = 1  # the head word of the alternative taken (*my own glazier*)
_TURN = re.compile(r"\b(?:rather\s+than|instead\s+of)\s+|\b(?:rather|prefer)\b[^.?!;]*?\bthan\s+",
                   re.IGNORECASE)
_END = re.compile(r"[.,;:?!()]|\b(?:and|but|or|so|because|as|to|for|on|at|in|with|if|when|"
                  r"since|while)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d[\w:.-]*")


def _stems(text: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(text.casefold()) if w not in STOP_WORDS}


def _pairs(question: str) -> Iterator[tuple[set[str], set[str]]]:
    """(taken, turned down) stems for each alternative the question turns down."""
    for match in _TURN.finditer(question):
        rest = question[match.end():]
        end = _END.search(rest)
        down = " ".join(_WORD.findall(rest[:end.start() if end else len(rest)])[:WORDS])
        head = question[:match.start()]
        if re.search(r"\bthan\s+$", question[:match.end()], re.IGNORECASE):
            head = question[:match.end() - len(match.group(0).split()[-1]) - 1]
        before = [w for w in _WORD.findall(re.split(r"[.?!;]", head)[-1].casefold())
                  if w not in STOP_WORDS and w not in ("rather", "prefer", "would", "d")]
        taken = {stem(w) for w in before[-TAKEN_WORDS:]}
        down_stems = _stems(down) - taken
        if down_stems and taken:
            yield taken, down_stems


def turned_down(question: str, sentence: str, title: str = "") -> bool:
    """Whether ``sentence`` is about an alternative the question turns down (see the module
    invariant); ``title`` is the sentence's document title."""
    if not _TURN.search(question):
        return False
    held = _stems(sentence)
    named = _stems(re.sub(r"[-_.]", " ", title))
    return any((down - named) & held and not taken & held for taken, down in _pairs(question))
