"""Judging by meaning the sentences that the question's words alone could not confirm.

When no sentence's word coverage (``answer_ranking.score``) reaches the threshold for ``used``, the
question may be a paraphrase (*By what time must guests leave their room?* — *Rooms must be
vacated by 11:00*). The best ``MAX_CANDIDATES`` sentences by their words are then compared with
the question by a sentence model (cosine similarity of their embeddings):

* each candidate is read twice, bare and as *title - section: sentence* (``in_context``: a
  term the document's title or heading carries, *the dentist* of ``dental-practice.md``, is
  then present), and its *meaning* is the mean of the bare similarity and the better of the
  two; a sentence that leans on its line, by a pronoun in its first words on the sentence
  before it (*Electric cars are supplied with at least 80% charge. Return them with …*) or on
  the label the line opens with (*Saturday: … The last bus …*), is read in context after them
  (``Sentence.stated``), whatever its bare similarity, and that reading stands for its bare
  one, which cannot say what *them* is;
* a key term the sentence lacks (an informative term, weighing at least ``INFORMATIVE_SHARE``
  of the heaviest; at most ``MAX_SHORTENED`` of them, those most candidates lack first) whose
  removal makes the question clearly
  *more* similar (``CONTRADICTION_RISE``) marks a sentence about something else (*contractors*
  asked, *employees* answered): unless its in-context reading clears it, that sentence keeps its
  word coverage and is never raised;
* a yes-or-no question about something *also* or *ever* offered (*Does the driving school also
  offer motorcycle lessons?*) asks about a thing that must be named: a sentence that lacks the
  question's heaviest key term altogether (no synonym, not in its headings) keeps its word
  coverage, since a sentence about the rest of the question (*Driving lessons are invoiced every
  month*) is similar to it whatever the answer;
* sentences found by meaning (``nearby``: ``sentence_vectors``) are judged too, and one that is
  not among the first candidates by words needs ``MEANING_ONLY_MARGIN`` more;
* a candidate that introduces a list (*Kestrelmere maternity pay depends on your service:*)
  states none of its items' rules: its items (at most ``MAX_ITEMS``) are judged too, each read
  after it (``in_context``), as relevant as their words and that reading make them, with no
  margin (*With less than one year's service: statutory pay only* for *I joined eight months
  ago*; the situation then tells the items apart: ``condition_ranking``);
* a sentence that holds only the question's topic words (``topic_only``: the names its title
  and headings hold too) is similar to a question about that topic whatever it says, so what
  it says beyond the topic is compared with what the question asks beyond it, both without the
  topic words (*The is in the old customs house at Pier 3* with *Is there a café in the of*):
  below ``TOPIC_REMAINDER_FLOOR`` it keeps its word coverage and is never raised;
* for a price question, the clause naming what a sentence prices (``priced_things``) is compared
  with the question in the same call: from ``PRICED_AS_ASKED`` up it is the thing asked about in
  other words (*professional teeth cleaning* for *a dental hygiene session*), and the sentence is
  not a near miss for pricing something else;
* the coverage is the meaning mapped linearly from ``SIMILARITY_FLOOR`` (0) to
  ``SIMILARITY_FULL`` (1), at most ``MEANING_CEILING``, and ``CONTRAST_FACTOR`` of that for a
  sentence about another group than the one asked about (``qualifiers``); a sentence whose
  condition holds for the situation the question states (``conditions.read``: *On Sundays …*
  for *on a Sunday afternoon*) keeps its word coverage when that is higher, since the model sees
  neither the situation nor the rule. On the assistant's
  question sets, a word coverage added to the meaning made the ranking worse (the words already
  failed), and a meaning of 0.5 separated answers from near misses best; answers confirmed by
  meaning are labelled ``partial``, never ``strong``; the ranking uses the uncapped value.

Invariants: sentences are only re-judged when none reaches ``threshold`` by its words, so an
answer the words already give never changes; only sentences within the first ``MAX_CANDIDATES``
distinct texts, the sentences found by meaning and at most ``MAX_ITEMS`` items of the lists
those introduce are re-judged, against the question and at most ``MAX_SHORTENED`` shortened
forms of it, in one call of the model per question part (its cost is bounded); a re-judged
coverage stays in [0, ``MEANING_CEILING``] and keeps its meaning as calibrated confidence; ties
keep the words' order; without a model (``similarity`` is ``None``) the ranking is returned
unchanged.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

from composer_app.server.providers.answer_kinds import ANSWER_WORDS, MEASURE_WORDS
from composer_app.server.providers.answer_ranking import (
    Scored,
    Sentence,
    answer_factor,
    term_credits,
    topic_only,
    topic_words,
)
from composer_app.server.providers.conditions import read as read_conditions
from composer_app.server.providers.priced_things import priced_clauses
from composer_app.server.providers.question_parts import Part, Term

Similarity = Callable[[Sequence[str], Sequence[str]], list[list[float]] | None]

MAX_CANDIDATES = 4
INFORMATIVE_SHARE = 0.5  # of the part's highest term weight
MAX_SHORTENED = 3
CONTRADICTION_RISE = 0.05
LACKING_CREDIT = 0.5  # a term with less word credit than this counts as lacking
SIMILARITY_FLOOR = 0.2
SIMILARITY_FULL = 0.7
MEANING_ONLY_MARGIN = 0.05  # a sentence found by meaning alone needs this much more
CONTEXT_FLOOR = 0.3  # below this bare similarity, a sentence is not read again in context
MAX_ITEMS = 8  # list items re-judged with the sentences that introduce their lists, at most
MEANING_CEILING = 0.74  # below 0.75, the band labelled strong
PRICED_AS_ASKED = 0.3  # the question's similarity to what a sentence prices, to be the same
TOPIC_REMAINDER_FLOOR = 0.35  # what a topic-only sentence says beyond the topic, to what is asked
MAX_TOPIC_REPEATS = 4  # occurrences of one topic word left out of a text at most


def without_term(text: str, term: Term) -> str | None:
    """``text`` with the first word that is ``term`` (else the first word starting with its
    stem) left out, or ``None`` when the text has no such word."""
    for pattern in (rf"\b{re.escape(term.word)}\b", rf"\b{re.escape(term.stem)}\w*"):
        shorter, count = re.subn(pattern, " ", text, count=1, flags=re.IGNORECASE)
        if count:
            return re.sub(r"\s+", " ", shorter).strip(" ,;")
    return None


def rejudge(part: Part, ranked: Sequence[Scored], similarity: Similarity | None,
            threshold: float, *, nearby: Collection[str] = (),
            candidates: int = MAX_CANDIDATES) -> list[Scored]:
    """``ranked`` (best first) with its leading sentences re-judged by meaning when none
    reaches ``threshold`` by its words (see the module invariant), best first again; the
    sentences whose text is in ``nearby`` (found by meaning: ``sentence_vectors``) are re-judged
    too, beyond the first ``candidates``."""
    if similarity is None or not ranked or ranked[0].coverage >= threshold:
        return list(ranked)
    chosen: dict[str, int] = {}
    for number, scored in enumerate(ranked):
        if len(chosen) < candidates:
            chosen.setdefault(scored.sentence.text, number)
    by_words = set(chosen)
    for number, scored in enumerate(ranked):
        if scored.sentence.text in nearby:
            chosen.setdefault(scored.sentence.text, number)
    openers = {ranked[number].sentence.text for number in chosen.values()
               if ranked[number].sentence.leads_in}
    items = set(list(dict.fromkeys(s.sentence.text for s in ranked
                                   if s.sentence.opener in openers))[:MAX_ITEMS])
    for number, scored in enumerate(ranked):
        if scored.sentence.text in items:
            chosen.setdefault(scored.sentence.text, number)
    texts = list(chosen)
    shortened = _shortened(part, [ranked[number] for number in chosen.values()])
    remainders = {text: remainder for text, number in chosen.items()
                  if (remainder := _remainder(part, ranked[number])) is not None}
    queries = list(dict.fromkeys([part.meaning, *(s for s in shortened if s),
                                  *(asked for asked, _ in remainders.values())]))
    priced = _priced_clauses(part, texts)
    extra = [t for t in dict.fromkeys([*(c for cs in priced.values() for c in cs),
                                       *(rest for _, rest in remainders.values())])
             if t not in texts]
    rows = similarity(queries, texts + extra)
    if rows is None:
        return list(ranked)
    columns = {text: column for column, text in enumerate(texts + extra)}
    full = dict(zip(queries, rows, strict=True))
    by_query = {query: row[:len(texts)] for query, row in full.items()}
    whole = by_query[part.meaning]
    as_asked = {text for text, clauses in priced.items()
                if any(full[part.meaning][columns[c]] >= PRICED_AS_ASKED for c in clauses)}
    off_topic = {text for text, (asked, rest) in remainders.items()
                 if full[asked][columns[rest]] < TOPIC_REMAINDER_FLOOR}
    drops = {text: [None if s is None else whole[column] - by_query[s][column]
                    for s in shortened] for column, text in enumerate(texts)}
    reread = [ranked[number] for column, (text, number) in enumerate(chosen.items())
              if whole[column] >= CONTEXT_FLOOR or text in items
              or ranked[number].sentence.stated() != text  # "Return them …" alone says nothing
              or _contradicted(part, ranked[number], drops[text])]
    contexts = _in_context(part, reread, queries, shortened, similarity)
    cleared = {text for text, (_, contradicted) in contexts.items() if not contradicted}
    judged = list(ranked)
    for column, (text, number) in enumerate(chosen.items()):
        in_context_similarity = contexts.get(text, (whole[column], True))[0]
        meaning = (whole[column] + max(whole[column], in_context_similarity)) / 2
        for other in range(number, len(ranked)):  # the same text in another passage too
            if other == number or ranked[other].sentence.text == text:
                judged[other] = ranked[other] if text in off_topic else _judged(
                    part, ranked[other], meaning, drops[text], veto=text not in cleared,
                    margin=0.0 if text in by_words or text in items else MEANING_ONLY_MARGIN,
                    priced_as_asked=text in as_asked)
    order = sorted(range(len(judged)), key=lambda i: (-judged[i].score, i))
    return [judged[i] for i in order]


_IN_ADDITION = re.compile(r"^\s*(?:does|do|did|is|are|can|could|will|would|has|have)\s+"
                          r"(?!(?:i|we)\b)[^?]*\b(?:also|ever|as well)\b", re.IGNORECASE)
# "Does Saltmarsh Cycle Tours sell gift vouchers?": whether a place offers a thing at all.
_OFFERS = re.compile(r"^\s*(?:does|do)\s+(?!(?:i|we)\b)[^?]*?\b(?:sell|offer|run|provide|stock|"
                     r"hire\s+out|rent\s+out|lend|organise|organize|arrange)\b", re.IGNORECASE)


def _asks_in_addition(part: Part) -> bool:
    """Whether the part is a yes-or-no question about something beyond what the documents are
    known for (*Does the driving school also offer motorcycle lessons?*, *Does the choir ever
    go on tours abroad?*); a request of the asker's own (*Could we also get the unedited
    photos?*) is no such question: its answer may name the thing in other words (*Raw files are
    not handed out*)."""
    asking = re.split(r"(?<=[.!])\s+", part.text)[-1]
    return bool(_IN_ADDITION.search(asking) or _OFFERS.search(asking))


def _lacks_heaviest(part: Part, scored: Scored) -> bool:
    """Whether the sentence, its title and headings lack the part's heaviest key term (the
    thing asked about) altogether: not even a synonym or a related form."""
    number, _ = max(enumerate(part.terms), key=lambda pair: pair[1].weight)
    return term_credits(scored.sentence, part)[number] == 0.0


def _remainder(part: Part, scored: Scored) -> tuple[str, str] | None:
    """For a sentence that holds only the question's topic words (``topic_only``) while the
    question asks about more (a key term that neither names the topic nor only the kind of
    answer): the question and the sentence, each without the topic words (*Is there a café* of
    *Is there a café in the Harbour Museum?*, *The is in the old customs house* of *The Harbour
    Museum is in the old customs house*), else None."""
    if not topic_only(scored.sentence, part):
        return None
    topic = [t for t in topic_words(scored.sentence, part) if not _kind_word(t)]
    if all(t in topic or _kind_word(t) for t in part.terms):
        return None
    return _without(part.meaning, topic), _without(scored.sentence.text, topic)


def _kind_word(term: Term) -> bool:
    """Whether ``term`` only names the kind of answer asked for (*time*, *price*)."""
    return term.word in ANSWER_WORDS or term.word in MEASURE_WORDS


def _without(text: str, terms: Sequence[Term]) -> str:
    """``text`` without each word of ``terms`` (``without_term``, every occurrence)."""
    for term in terms:
        for _ in range(MAX_TOPIC_REPEATS):
            shorter = without_term(text, term)
            if shorter is None:
                break
            text = shorter
    return text


def _priced_clauses(part: Part, texts: Sequence[str]) -> dict[str, list[str]]:
    """For a price question, each of ``texts`` with the clauses that name what it prices
    (``priced_things``; none for another question)."""
    if part.wants != "amount":
        return {}
    return {text: clauses for text in texts
            if (clauses := [clause for clause, _ in priced_clauses(text)])}


def _shortened(part: Part, candidates: Sequence[Scored]) -> list[str | None]:
    """Per term of ``part``: the question without it, for at most ``MAX_SHORTENED`` of the
    informative terms that some candidate lacks, those most candidates lack first, then the
    heaviest (``None`` for the others)."""
    heaviest = max(term.weight for term in part.terms)
    lacking = Counter(number for scored in candidates
                      for number, credit in enumerate(term_credits(scored.sentence, part))
                      if credit < 1.0)
    chosen = sorted((n for n in lacking
                     if part.terms[n].weight >= INFORMATIVE_SHARE * heaviest),
                    key=lambda n: (-lacking[n], -part.terms[n].weight, n))[:MAX_SHORTENED]
    return [without_term(part.meaning, term) if number in chosen else None
            for number, term in enumerate(part.terms)]


def _contradicted(part: Part, scored: Scored, drops: Sequence[float | None]) -> bool:
    """Whether a key term the sentence lacks makes the question clearly less similar to it
    (the sentence is about something else)."""
    credits = term_credits(scored.sentence, part)
    lacking = [d for c, d in zip(credits, drops, strict=True) if c < LACKING_CREDIT
               and d is not None]
    return bool(lacking) and min(lacking) <= -CONTRADICTION_RISE


def in_context(sentence: Sentence) -> str:
    """The sentence preceded by its document's title and its section's heading (a file name
    read as words: ``dental-practice.md`` is *dental practice*), and a list item by the sentence
    that introduces its list (*… pay depends on your service: With less than one year's
    service: statutory pay only*)."""
    title = re.sub(r"[-_]+", " ", sentence.title.rsplit(".", 1)[0]).strip()
    heads = [h for h in (title, sentence.section) if h]
    text = f"{sentence.opener} {sentence.text}" if sentence.opener else sentence.stated()
    return f"{' - '.join(heads)}: {text}" if heads else text


def _in_context(part: Part, candidates: Sequence[Scored], queries: Sequence[str],
                shortened: Sequence[str | None], similarity: Similarity
                ) -> dict[str, tuple[float, bool]]:
    """Per text of ``candidates`` read under its title and heading (``in_context``; a sentence
    with neither is left out): its similarity to the question, and whether a key term it lacks
    still contradicts it there (a term the heading carries, *the dentist* of a dental
    practice's page, no longer does)."""
    read = [c for c in candidates if in_context(c.sentence) != c.sentence.text]
    if not read:
        return {}
    rows = similarity(queries, [in_context(c.sentence) for c in read])
    if rows is None:
        return {}
    by_query = dict(zip(queries, rows, strict=True))
    whole = by_query[part.meaning]
    found = {}
    for column, candidate in enumerate(read):
        drops = [None if s is None else whole[column] - by_query[s][column] for s in shortened]
        found[candidate.sentence.text] = (whole[column], _contradicted(part, candidate, drops))
    return found


def _judged(part: Part, scored: Scored, similarity: float,
            drops: Sequence[float | None], *, veto: bool = True, margin: float = 0.0,
            priced_as_asked: bool = False) -> Scored:
    """``scored`` with its coverage re-judged from its similarity to the question and the
    similarity drops of the question without each term (left as it is when ``veto`` and a term
    it lacks contradicts it)."""
    if veto and _contradicted(part, scored, drops):
        return scored
    if _asks_in_addition(part) and _lacks_heaviest(part, scored):
        return scored
    closeness = min(1.0, max(0.0, (similarity - SIMILARITY_FLOOR)
                             / (SIMILARITY_FULL - SIMILARITY_FLOOR)))
    coverage = closeness - margin
    coverage *= answer_factor(scored.sentence, part, priced_as_asked=priced_as_asked)
    if coverage < scored.coverage and read_conditions(part.text, scored.sentence.text).met:
        coverage = scored.coverage  # its condition holds for the situation: its words tell more
    return replace(scored, coverage=min(coverage, MEANING_CEILING),
                   score=scored.score - scored.coverage + coverage)
