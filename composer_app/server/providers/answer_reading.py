"""A second reading of a question part's closest sentences, by a model that reads the question
and each sentence together (``cross_encoder``).

The words and the sentence model rank a part's sentences (``answer_ranking``, ``answer_meaning``,
``condition_ranking``); when the first sentence does not clearly lead, the question is often one
they cannot settle (*A friend of mine isn't in the tennis club but would like to play a match
with me. What does she have to pay?*: the court rent of *Non-members who want to rent a court*
shares more words than *Members can bring a guest; the guest fee is 10 euros per hour*).
The first ``READ_CANDIDATES`` distinct sentences are then read again: each is given to the reader
as *title - section: sentence* (a table row as the cells of the group asked about), and they are
ordered again by their score plus ``READ_WEIGHT`` times the reader's score.

The three parameters were chosen on four question sets the reader was not trained on
(``heldout8``, ``heldout14``, ``heldout22``, ``heldout23``), where this ordering put the answer
first for 122 of 160 answerable questions, the words and the sentence model alone for 114
(``docs/benchmarks_providers.md``).

The reader is also asked when the first sentence comes near the threshold without reaching it
(from ``SURE_FLOOR``, in a document that holds the names the question gives): a sentence the
reader is sure of (from ``SURE_LOGIT``, and ``SURE_MARGIN`` above every other sentence read)
answers what the words and the sentence model only come near (*I'm on Business and deleted a
project by mistake about two months ago. Can I still get it out of the bin?*: *On Business and
Enterprise, items stay in the bin for 90 days*). On thirteen question sets the reader was not
trained on, 6 of the 30 answerable questions whose first sentence answered but came short were
answered this way, and 1 of the 65 questions the folders cannot answer got an answer (a question
the folder cannot answer rarely gets a sure reading). Closer to the threshold (from
``PROBABLE_FLOOR``), a likely reading is enough (from ``PROBABLE_LOGIT``, whatever the other
sentences score) when the sentence states a value of the kind asked for: on the thirteen sets
the reader was never trained on, the first sentence of 17 of the 59 answerable questions left
unanswered answered them with such a reading, and that of 2 of the 43 questions the folders
cannot answer had one (the reader scores the near misses of a question the folder cannot answer
near its floor, about −5.5).

Invariants: without a reader, or when the first sentence's score leads the next distinct
sentence's by ``READ_GAP`` or more and its coverage is not from ``SURE_FLOOR`` below the
threshold, the ranking is returned unchanged; only the first ``READ_CANDIDATES`` distinct
sentences can change places, among themselves (every other sentence keeps its position after
them), ties keeping their order, and only when the lead is below ``READ_GAP``; coverages are
unchanged, except that a sentence moved first when the first reached the threshold is raised to
it (the part was answered; the reading only chose which of its close sentences answers it), and
a first sentence from ``SURE_FLOOR`` below the threshold that the reader is sure of, or from
``PROBABLE_FLOOR`` that it finds probable, is raised to it; a reader that fails (``None``)
leaves the ranking unchanged.

The reader also doubts: a sentence that answers only by the meaning of its words (the sentence
model raised it to the threshold, ``answer_meaning``) and that the reader scores below
``DOUBT_LOGIT`` does not answer (``doubted``). A question the folder cannot answer often comes
near a sentence of its topic by meaning alone (*Does Blue Reef Aquatics sell tortoises?*:
*Freshwater fish are settled in our tanks for at least 5 days before sale*); read together with
the question, such a sentence scores far below one that answers. The doubt sits about 0.7 above
the reader's floor, the score of a sentence about something else altogether (−5.5 for the model
shipped, trained on 2,331 question parts; −4.6 for the one before it, whose doubt was −4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from composer_app.server.providers.answer_ranking import Scored, lacks_asked_kind
from composer_app.server.providers.question_parts import Part
from composer_app.server.providers.row_cells import for_the_asked

Reader = Callable[[str, Sequence[str]], list[float] | None]

READ_CANDIDATES = 4
READ_GAP = 0.2  # of score: a first sentence leading by this much is not read again
READ_WEIGHT = 0.05  # of the reader's logit, added to the score
SURE_FLOOR = 0.3  # of coverage: a first sentence this close answers when the reader is sure of it
SURE_LOGIT = 2.0  # the reader's score a sure sentence reaches ...
SURE_MARGIN = 2.0  # ... and by how much it tops every other sentence read
PROBABLE_FLOOR = 0.35  # of coverage: a first sentence this close answers when the reader finds it
PROBABLE_LOGIT = -3.0  # ... at least this likely, whatever the others score
DOUBT_LOGIT = -4.75  # a reader's score below this for a sentence only the meaning found: no answer


def as_read(part: Part, scored: Scored) -> str:
    """The text the reader is given for a sentence: *title - section: sentence*, the sentence
    as its line states it (``Sentence.stated``: after the line's label and the sentence it leans
    on by an opening pronoun)."""
    sentence = scored.sentence
    text = for_the_asked(part.text, sentence.text, title=sentence.title) \
        if sentence.row_entity else sentence.stated()
    lead = sentence.title + (f" - {sentence.section}" if sentence.section else "")
    return f"{lead}: {text}" if lead else text


def doubted(part: Part, scored: Scored, reader: Reader | None) -> bool:
    """Whether the reader scores ``scored`` below ``DOUBT_LOGIT`` for ``part``: the sentence
    does not answer it, whatever the meaning of its words says (a reader that fails doubts
    nothing)."""
    if reader is None:
        return False
    scores = reader(part.text, [as_read(part, scored)])
    return scores is not None and len(scores) > 0 and scores[0] < DOUBT_LOGIT


def reread(part: Part, ranked: Sequence[Scored], reader: Reader | None,
           threshold: float) -> list[Scored]:
    """``ranked`` (best first) with its first distinct sentences ordered again by the reader
    (see the module invariant)."""
    if reader is None or len(ranked) < 2:
        return list(ranked)
    first: dict[str, int] = {}
    for number, scored in enumerate(ranked):
        if len(first) == READ_CANDIDATES:
            break
        first.setdefault(scored.sentence.text, number)
    chosen = list(first.values())
    if len(chosen) < 2:
        return list(ranked)
    close = ranked[0].score - max(ranked[n].score for n in chosen[1:]) < READ_GAP
    if not close and not _near(ranked[0], threshold):
        return list(ranked)
    scores = reader(part.text, [as_read(part, ranked[n]) for n in chosen])
    if scores is None or len(scores) != len(chosen):
        return list(ranked)
    order = sorted(range(len(chosen)),
                   key=lambda i: (-(ranked[chosen[i]].score + READ_WEIGHT * scores[i]), i)) \
        if close else list(range(len(chosen)))
    leading = [ranked[chosen[i]] for i in order]
    moved = order[0] != 0 and ranked[0].coverage >= threshold > leading[0].coverage
    if moved or (_near(leading[0], threshold) and (_sure(scores[order[0]], scores)
                                                   or _probable(part, leading[0],
                                                                scores[order[0]]))):
        leading[0] = replace(leading[0], coverage=threshold)
    taken = set(chosen)
    return leading + [s for n, s in enumerate(ranked) if n not in taken]


def _near(scored: Scored, threshold: float) -> bool:
    """Whether ``scored`` comes near the threshold (from ``SURE_FLOOR``) without reaching it, in
    a document that holds the names the question gives."""
    return SURE_FLOOR <= scored.coverage < threshold and not scored.sentence.elsewhere


def _probable(part: Part, scored: Scored, score: float) -> bool:
    """Whether the reader finds a first sentence from ``PROBABLE_FLOOR`` likely enough to answer
    (from ``PROBABLE_LOGIT``), when it states a value of the kind the part asks for (*How much
    is a summer riding camp?* is not answered by the camp's dates, however likely they read)."""
    return scored.coverage >= PROBABLE_FLOOR and score >= PROBABLE_LOGIT and \
        not lacks_asked_kind(scored, part)


def _sure(best: float, scores: Sequence[float]) -> bool:
    """Whether the reader is sure of the sentence it scores ``best``: from ``SURE_LOGIT``, and
    ``SURE_MARGIN`` above every other of ``scores`` (which hold ``best`` once)."""
    others = sorted(scores)[:-1]
    return best >= SURE_LOGIT and all(best - other >= SURE_MARGIN for other in others)
