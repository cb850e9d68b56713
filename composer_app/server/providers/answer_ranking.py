"""Choosing the sentence that answers a question, from retrieved passages.

A question is read into one or two parts (``question_parts``). Every sentence of every retrieved
prose passage is scored against each part:

* ``coverage`` (0..1) is the weighted share of the part's terms the sentence contains: a term in the
  sentence counts fully (a synonym or related form counts ``SYNONYM_CREDIT``, a word the WordNet
  lexicon relates to it ``lexicon.lexicon_credit``: a derived form as much, a synonym less; two
  adjacent terms also count when the sentence has them as one compound word: *roll back*,
  *rollback*; a part of the day the question names counts ``SYNONYM_CREDIT`` in a rule for the whole
  day that holds for it: *on a Sunday afternoon*, *On Sundays …*), a term found only in the
  section's heading or the document's title counts ``HEADING_CREDIT``, and a term found only in the
  previous sentence of the same paragraph counts ``CARRY_CREDIT`` (``BACK_REFERENCE_CREDIT`` when
  the sentence refers back with *it*, *they*, *this*, ...; a table row's previous sentence is the
  one that introduces its table, and a list item's the one that introduces its list, ending with
  a colon, up to a heading or a block of more than ``ITEM_SENTENCES`` sentences, and with the
  items' words when it refers to them together: *these small jobs*; a later sentence of a line
  that opens with a label has the label's words too: *Saturday: buses leave every 15 minutes.
  The last bus leaves at 19:15.*, whose label also names the case its qualifiers are read in,
  ``Sentence.labelled``); a term the
  question denies (*not live in*) that the sentence
  affirms counts ``POLARITY_FACTOR`` of its credit, a term the sentence holds only as its ``non-``
  opposite counts nothing (``term_polarity``); the verb of a permission question (*Can I bring …?*)
  counts ``SYNONYM_CREDIT`` in a sentence that grants or refuses permission; a number the question
  counts a thing with counts nothing in a sentence that counts that thing with other numbers only
  (``counted_things``: *a 2-bedroom house*, not *3-bedroom house; … 2 vans*); a number of the
  question missing from the sentence halves the coverage unless the sentence states a range that
  holds it (*my
  15-year-old*: *aged 14 to 17*; ``within_range``) or a condition on the value it states, held or
  not (*three months old*: *at least 16 weeks old*; ``conditions.addressed``), or a bound on the
  age it states that holds, or that fails for a question that asks for no value, which earns the
  number ``FAILED_AGE_CREDIT`` (*Am I too old …? I'm 82*: *aged 50 to 80*; ``ages.age_bound``),
  and so does (by
  ``MISSING_FOCUS_FACTOR``) a sentence that lacks, even in its headings, a word of the thing asked
  for (the *focus*: ``phone number`` in *What is the phone number of the main reception?*,
  ``electricity`` in *How much electricity …?*, ``lesson`` in *How much is a riding lesson?*; *the
  deadline* is held by a date, ``answer_kinds.TIME_NOUNS``), and so does (by
  ``TOPIC_ONLY_FACTOR``) a sentence that holds none of the question's key terms beyond its
  document's title and headings (*Is there a café in the Harbour Museum?*: *The Harbour Museum is
  at Pier 3* names only the topic), and so does
  (by ``SUBJECT_FOLLOWS_FACTOR``) a sentence that lacks the question's heaviest key term, even by
  heading or carry, when the next sentence of its paragraph opens with it (in its first
  ``OPENING_WORDS`` words): the paragraph turns to the subject asked about only after it (*When do
  the tenors have their section rehearsal?*: *Sopranos and altos have their section rehearsal on the
  first Monday. Tenors and basses meet on the second Monday.*);
* ``answer_factor`` marks near misses by their kind: a sentence about another group than the one the
  question's qualifiers name (``qualifiers``: *adults* asked, *children* answered), or about the
  alternative the question turns down (*I'd rather use my own glazier than your repairer*:
  ``alternatives``), or about the case without a thing the question states (*they're on their own
  rims*: *Storing four tyres without rims costs 35 euros*; ``without_objects``), keeps
  ``CONTRAST_FACTOR`` of its coverage, a qualifier
  the sentence answers for through a wider or narrower class counts as a synonym (*Saturday*: *at
  weekends*), a sentence without an amount of money (or *free*, *included*; a percentage for *how
  much extra*) for a price question keeps ``MISSING_AMOUNT_FACTOR``, a sentence that states no time,
  day, date or duration for a time question (*how long*, *when*, *by when*) keeps
  ``MISSING_TIME_FACTOR``, one without a phone number for *What number do I ring?* keeps
  ``MISSING_PHONE_FACTOR``, a sentence that prices only something the question does not name keeps
  ``PRICED_ELSEWHERE_FACTOR`` (``priced_things``: *How much does the language exam cost?* is not
  answered by *Course books cost 25 euros*), and a sentence of a document that lacks a name the
  question gives (``question_names``: *at the Birkenhof*, when another document's title names it)
  keeps ``ELSEWHERE_FACTOR``, and a sentence that introduces a list (*Maternity pay depends on
  your service:*) keeps ``LEAD_IN_FACTOR``: its items state the rules;
* ``score`` adds small bonuses to ``coverage`` for the question's subject pairs found together in
  the sentence (not a pair its title and headings hold both words of: that names the document's
  topic, not the sentence's), for a sentence holding the kind of value asked for (a number or
  date for *how many*, *how long*, *when*, and for *what* a measurement or an amount is: *What night
  temperature…*, *What is the deposit…*; a name for *who* and *where*), for a table row whose
  first cell names a term of the question (``ROW_BONUS``: the lettuce row, not the sentence about
  every crop), for a sentence whose main clause opens with the thing asked for (``SUBJECT_BONUS``:
  *The rent is £1,150 per month* for *What is the rent?*, not *The holding deposit … is taken off
  your first month's rent*), and for a better retrieval rank.

Invariants: ``coverage`` is the calibrated relevance of a sentence (``confidence`` of its source
and the threshold for ``used``), never a raw word share; scoring is deterministic and ties keep
retrieval order; a sentence is always a whole sentence of its passage's text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from composer_app.server.providers.ages import age_bound
from composer_app.server.providers.alternatives import turned_down
from composer_app.server.providers.answer_kinds import (
    ANSWER_WORDS,
    DIGITS,
    MEASURE_WORDS,
    NUMBER_WORDS,
    TIME_NOUNS,
    UNIT_WORDS,
    answer_words,
    holds_kind,
    kind_nouns,
    lacks_kind,
)
from composer_app.server.providers.conditions import (
    addressed,
    rules_the_day_part,
    same_duration,
    states_hours,
)
from composer_app.server.providers.counted_things import counts_other
from composer_app.server.providers.excerpts import sentences
from composer_app.server.providers.former_rules import asks_former, states_former
from composer_app.server.providers.lexicon import derived_stems, lexicon_credit, synonym_stems
from composer_app.server.providers.passage_store import unmark
from composer_app.server.providers.priced_things import priced_elsewhere
from composer_app.server.providers.qualifiers import read as read_qualifiers
from composer_app.server.providers.question_parts import Part, Term
from composer_app.server.providers.questions import (
    STOP_WORDS,
)
from composer_app.server.providers.term_forms import (
    SYNONYM_CREDIT,
    related,
    single_verbs,
    stems,
    term_credit,
    whole_amounts,
)
from composer_app.server.providers.term_polarity import (
    PERMISSION_STEMS,
    negated_stems,
    prefixed_stems,
    unprefixed,
    without_objects,
    without_stems,
)
from composer_app.server.providers.written_ranges import within_range

HEADING_CREDIT = 0.6
CARRY_CREDIT = 0.45
BACK_REFERENCE_CREDIT = 0.9
PAIR_BONUS = 0.12
TYPE_BONUS = 0.06
RANK_BONUS = 0.02
ROW_BONUS = 0.06
QUALIFIER_BONUS = 0.12
SUBJECT_BONUS = 0.08
POLARITY_FACTOR = 0.5
MISSING_NUMBER_FACTOR = 0.5
FAILED_AGE_CREDIT = 0.5  # a stated age an age bound of the sentence excludes (*I'm 82*)
MISSING_FOCUS_FACTOR = 0.6
MISSING_AMOUNT_FACTOR = 0.6
MISSING_TIME_FACTOR = 0.6
MISSING_PHONE_FACTOR = 0.6
MISSING_COUNT_FACTOR = 0.6
PRICED_ELSEWHERE_FACTOR = 0.6
CONTRAST_FACTOR = 0.5
ELSEWHERE_FACTOR = 0.5
TOPIC_ONLY_FACTOR = 0.6
SUBJECT_FOLLOWS_FACTOR = 0.6
LEAD_IN_FACTOR = 0.6
ITEM_SENTENCES = 2  # a list item is at most this long: a longer block ends the list
OPENING_WORDS = 3  # the words of a sentence that name what it is about
SAME_SUBJECT_SHARE = 0.5
QUOTE_MAX_CHARS = 600

_BACK_REFERENCE_TEXT = "it its they them their this these those such there he she"
_BACK_REFERENCE = frozenset(_BACK_REFERENCE_TEXT.split())
_LIST_REFERENCE = frozenset(["these", "those", "such", "them", "they"])  # a list, together
# a line that opens with a short label (*Saturday:*) states the case of all its sentences
_LINE_LABEL = re.compile(r"^(?:[^\W\d_][\w'&/-]*\s){0,3}[^\W\d_][\w'&/-]*:\s")
# a sentence that leans on the one before it names what it is about by a pronoun in its first words
_LEANS_BACK = re.compile(r"^\W*(?:\w+\W+){0,2}?(?:it|its|they|them|their|this|these|those|such)\b",
                         re.IGNORECASE)
_LEADING_PHRASE = re.compile(r"^(?:from|on|at|in|for|after|before|during|until|since|as\s+of|if|"
                             r"when|once|unless)\b[^,]{0,40},\s*", re.I)
_ROW = re.compile(r"^[^:;]{1,60}: (?P<value>(?:[^:;]|(?<=\d):(?=\d)){1,80}); [^:;]{1,60}: ")


@dataclass(frozen=True, slots=True)
class Sentence:
    """A whole sentence of a retrieved passage and what surrounds it."""

    key: str  # the document it belongs to
    rank: int  # the passage's retrieval rank (0 = best)
    passage: int  # index of the passage among the retrieved ones
    block: int  # the block (line) of the passage
    index: int  # position among the passage's sentences
    text: str
    stems: tuple[str, ...]
    heading: frozenset[str]
    previous: frozenset[str]
    back_reference: bool
    negated: frozenset[str] = frozenset()  # stems the sentence denies (term_polarity)
    prefixed: frozenset[str] = frozenset()  # stems written with "non-"
    row_entity: frozenset[str] = frozenset()  # stems of a table row's first cell value
    section: str = ""  # the text of the nearest heading above it in the passage, if any
    title: str = ""  # its document's title
    lacking: frozenset[str] = frozenset()  # stems it holds only after "without"
    elsewhere: bool = False  # its document lacks a name the question gives (*the Birkenhof*)
    following: tuple[str, ...] = ()  # the first stems of the next sentence of its line
    leads_in: bool = False  # it ends with a colon and blocks follow it: it introduces a list
    opener: str = ""  # for a list item, the sentence that introduces its list
    before: str = ""  # the sentence of its line it leans on by an opening pronoun (*Return them*)
    label: str = ""  # the label its line opens with, for a later sentence (*Saturday:*)

    def labelled(self) -> str:
        """The sentence after the label of its line: the case it states (*Saturday: The last bus
        back from the Guildhall leaves at 19:15.*)."""
        return f"{self.label} {self.text}" if self.label else self.text

    def stated(self) -> str:
        """The sentence as its line states it: after its line's label and the sentence it leans
        on (*Electric cars are supplied with at least 80% charge. Return them with …*)."""
        if not self.before:
            return self.labelled()
        lead = self.before if self.before.startswith(self.label) else f"{self.label} {self.before}"
        return f"{lead.strip()} {self.text}"


@dataclass(frozen=True, slots=True)
class Scored:
    """A sentence scored against one question part."""

    sentence: Sentence
    coverage: float
    score: float


def passage_sentences(key: str, rank: int, passage: int, title: str, marked: str
                      ) -> list[Sentence]:
    """Every sentence of a retrieved prose passage (one block per line, headings with ``#``);
    a table row's previous sentence is the last prose sentence before it in the passage (the
    sentence that introduces the table), and the first sentence of each block after a block
    ending with a colon is an item of the list that sentence introduces (``leads_in``), with it
    as its previous sentence and ``opener``, up to a heading or a longer block; such a first
    sentence that refers to the items together (*these*, *those*, *such*, *them*, *they*: *…
    can ask us to do these small jobs for them*) has the items' words too."""
    found: list[Sentence] = []
    title_stems = frozenset(stems(title.rsplit(".", 1)[0]))
    heading = title_stems
    section = ""
    lead: frozenset[str] = frozenset()
    listed: frozenset[str] = frozenset()  # the stems of the sentence that opens the list
    opening = ""  # and its text
    opener: int | None = None  # the last block's sentence when it ends with a colon
    items: frozenset[str] = frozenset()  # the stems of the list's items so far
    for block, raw in enumerate(unmark(marked).split("\n")):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            section = line.lstrip("#").strip()
            heading = heading | frozenset(stems(section))
            lead = listed = frozenset()
            opener, opening = None, ""
            continue
        if opener is not None:  # the block before ended with a colon: it opens this list
            found[opener] = replace(found[opener], leads_in=True)
            listed, opening = frozenset(found[opener].stems), found[opener].text
            items = frozenset()
        previous: frozenset[str] = listed
        first = len(found)
        labelled = _LINE_LABEL.match(line)  # "Saturday: buses leave … . The last bus …"
        label = labelled.group(0).strip() if labelled and not _row_entity(line) else ""
        for sentence in sentences(line):
            words = tuple(stems(sentence))
            single = single_verbs(sentence)  # "We do not take back ..." also says "return"
            if single != sentence:
                words += tuple(s for s in dict.fromkeys(stems(single)) if s not in words)
            lowered = {w.casefold() for w in re.findall(r"[^\W_]+", sentence)}
            entity = _row_entity(sentence)
            if previous is listed and listed and not lowered.isdisjoint(_LIST_REFERENCE):
                previous = listed | items  # "… can ask us to do these small jobs for them"
            later = len(found) > first
            if later and label:
                previous = previous | frozenset(stems(label))
            found.append(Sentence(key, rank, passage, block, len(found), sentence, words,
                                  heading, previous or (lead if entity else frozenset()),
                                  not lowered.isdisjoint(_BACK_REFERENCE),
                                  negated_stems(sentence), prefixed_stems(sentence), entity,
                                  section, title, without_stems(sentence),
                                  opener=opening if len(found) == first else "",
                                  before=found[-1].text if later and _LEANS_BACK.match(sentence)
                                  else "", label=label if later else ""))
            if len(found) - 1 > first:
                found[-2] = replace(found[-2], following=words[:OPENING_WORDS])
            previous = frozenset(words)
            if not entity:
                lead = previous
        items = items.union(*(f.stems for f in found[first:]))
        if len(found) - first > ITEM_SENTENCES:  # a paragraph of its own, not a list item
            listed, opening = frozenset(), ""
        opener = len(found) - 1 if len(found) > first and found[-1].text.endswith(":") else None
    return found


def _own_stems(sentence: Sentence, part: Part) -> set[str]:
    """The sentence's stems, with both words of a question's compound the sentence writes as
    one word (*rolls back* answered by *rollback*)."""
    own = set(sentence.stems)
    for first, second, joined in part.compounds:
        if joined in own:
            own.update((first, second))
    return own


def term_credits(sentence: Sentence, part: Part) -> list[float]:
    """The credit (0..1) ``sentence`` earns for each of ``part``'s terms, in order, before the
    coverage's factors (see the module docstring)."""
    own = _own_stems(sentence, part)
    carry = BACK_REFERENCE_CREDIT if sentence.back_reference else CARRY_CREDIT
    qualified = read_qualifiers(part.text, sentence.labelled()).matched
    kind_words = kind_nouns(part.wants, part.text, sentence.text)
    kind_held = bool(kind_words) and holds_kind(sentence.text, part.wants or "", asked=part.text,
                                                row=bool(sentence.row_entity))
    credits = []
    for term in part.terms:
        credit = _credit(term, own)
        if term.number and credit > 0.0 and counts_other(part.text, term.word, sentence.text):
            credit = 0.0  # "a 2-bedroom house": not in "3-bedroom house; Crew: 4 movers, 2 vans"
        if credit < SYNONYM_CREDIT and (term.word in qualified or (  # "Saturday": "at weekends"
                rules_the_day_part(part.text, term.word, sentence.text)) or (
                term.word in kind_words and kind_held) or (  # "what time": "until 16:30"
                part.wants == "time" and states_hours(term.word, sentence.text))):
            credit = SYNONYM_CREDIT  # "on a Sunday afternoon": "On Sundays, …" rules all of it
        if term.number and credit < 1.0 and (_in_range(term.word, sentence)
                                             or addressed(part.text, term.word, sentence.text)):
            credit = 1.0  # "my 15-year-old": "aged 14 to 17"; "3 months old": "16 weeks old"
        if term.number and credit < 1.0 and (
                held := age_bound(part.text, term.word, sentence.text)) is not None and (
                held or part.wants is None):  # a price for my 4-year-old: not the 2-year-olds'
            credit = 1.0 if held else max(credit, FAILED_AGE_CREDIT)  # "I'm 82": "aged 50 to 80"
        if credit < 1.0 and term.word in UNIT_WORDS and same_duration(part.text, term.word,
                                                                        sentence.text):
            credit = 1.0  # "a whole year": "12 months"
        if credit < 1.0 and term.stem in part.negated and unprefixed(term.stem, own):
            credit = 1.0  # "the rolls we didn't sell": "unsold goods"
        polarity = _polarity(term, sentence, part) if credit > 0.0 else 1.0
        credit *= polarity
        for single, verb, particle in part.phrasal:  # "picked up" answers "pick up" too
            if term.stem == single and verb in own and particle in own:
                credit = 1.0
        if term.stem == part.permission and not PERMISSION_STEMS.isdisjoint(own):
            credit = max(credit, SYNONYM_CREDIT)  # "Can I bring X?" - "X is not allowed"
        if credit < 1.0 and polarity > 0.0:  # a "non-" opposite is not about the term at all
            credit = max(credit, HEADING_CREDIT * _credit(term, sentence.heading),
                         carry * _credit(term, sentence.previous))
        credits.append(credit)
    return credits


def score(sentence: Sentence, part: Part, meaning: Sequence[float] | None = None) -> Scored:
    """``sentence`` scored against ``part`` (see the module docstring); ``meaning``, when given,
    is a credit per term that the sentence earns by what it means rather than by its words
    (``answer_meaning``), used where it is higher than the words' credit."""
    credits = term_credits(sentence, part)
    if meaning is not None:
        credits = [max(c, m) for c, m in zip(credits, meaning, strict=True)]
    own = _own_stems(sentence, part)
    total = sum(t.weight for t in part.terms) or 1.0
    coverage = sum(t.weight * c for t, c in zip(part.terms, credits, strict=True)) / total
    if any(t.number and t.stem not in own and t.stem not in sentence.heading
           and not _in_range(t.word, sentence)
           and not addressed(part.text, t.word, sentence.text)
           and _age_unanswered(part, t.word, sentence) for t in part.terms):
        coverage *= MISSING_NUMBER_FACTOR
    kinds = {t.stem for t, c in zip(part.terms, credits, strict=True)  # "the deadline": "by 30 …"
             if c > 0.0 and t.word in TIME_NOUNS}
    if part.focus and any(term_credit(f, own) == 0.0 and term_credit(f, sentence.heading) == 0.0
                          and f not in kinds for f in part.focus):
        coverage *= MISSING_FOCUS_FACTOR
    if _topic_only(sentence, part, credits):  # only the document's topic: "the museum", no café
        coverage *= TOPIC_ONLY_FACTOR
    if _subject_follows(sentence, part, credits):  # "Sopranos and altos …", tenors asked
        coverage *= SUBJECT_FOLLOWS_FACTOR
    coverage *= answer_factor(sentence, part)
    bonus = 0.0
    if part.pairs:
        together = sum(1 for a, b in part.pairs if _adjacent(sentence.stems, a, b)
                       and not {a, b} <= sentence.heading)  # the topic's name tells no sentence
        bonus += PAIR_BONUS * together / len(part.pairs)
    if part.wants is not None and holds_kind(sentence.text, part.wants,
                                             row=bool(sentence.row_entity), asked=part.text):
        bonus += TYPE_BONUS
    if sentence.row_entity and any(term_credit(t.stem, sentence.row_entity) == 1.0
                                   for t in part.terms if t.word not in ANSWER_WORDS):
        bonus += ROW_BONUS  # the row about the thing asked for, not a general sentence
    if read_qualifiers(part.text, sentence.labelled()).matched:
        bonus += QUALIFIER_BONUS  # the rule for the group asked about, not the general one
    if not part.focus.isdisjoint(sentence.stems) and part.focus.intersection(
            _opening(sentence.text)):
        bonus += SUBJECT_BONUS  # "The rent is £1,150": what is asked for is what it is about
    bonus += RANK_BONUS / (1 + sentence.rank)
    return Scored(sentence, min(coverage, 1.0), coverage + bonus)


def _age_unanswered(part: Part, number: str, sentence: Sentence) -> bool:
    """Whether ``sentence`` leaves the age the part's ``number`` states unanswered: it sets no
    bound on it, or (for a question that asks for a value) only bounds it fails."""
    held = age_bound(part.text, number, sentence.text)
    return held is None or (not held and part.wants is not None)


def _opening(text: str) -> list[str]:
    """The first ``OPENING_WORDS`` stems (stop words aside) of ``text``'s main clause, after a
    phrase of time or condition it opens with (*From 1 April 2026, you pay an excess …*)."""
    main = _LEADING_PHRASE.sub("", text, count=1)
    return [w for w in stems(main) if w not in STOP_WORDS][:OPENING_WORDS]


def _in_range(number: str, sentence: Sentence) -> bool:
    """Whether the sentence, or the heading of its section, states a range that holds
    ``number`` (*12*: a list item under *Children and teenagers under 18*)."""
    return within_range(number, sentence.text) or within_range(number, sentence.section)


def topic_only(sentence: Sentence, part: Part) -> bool:
    """Whether ``sentence`` holds, of the question's key terms, only those its document's title
    and headings hold too (*Is there a café in the Harbour Museum?*: *The Harbour Museum is at
    Pier 3* names only the topic)."""
    return _topic_only(sentence, part, term_credits(sentence, part))


def topic_words(sentence: Sentence, part: Part) -> list[Term]:
    """The question's key terms that the title and headings of ``sentence`` hold."""
    return [t for t in part.terms if term_credit(t.stem, sentence.heading) > 0.0]


def _topic_only(sentence: Sentence, part: Part, credits: Sequence[float]) -> bool:
    kind = answer_words(part.text)  # nor are a second part's words of the first its topic
    beyond = [c for t, c in zip(part.terms, credits, strict=True)  # the title's synonym of a
              if t.word not in kind and not t.inherited and term_credit(
                  t.stem, sentence.heading) < max(c, 1e-9)]  # word the sentence holds is beyond
    return bool(beyond) and max(beyond) == 0.0


def _subject_follows(sentence: Sentence, part: Part, credits: Sequence[float]) -> bool:
    heaviest = max((t.weight for t in part.terms), default=0.0)
    return any(c == 0.0 and t.weight >= heaviest and t.stem in sentence.following
               and t.word not in ANSWER_WORDS and t.word not in MEASURE_WORDS
               for t, c in zip(part.terms, credits, strict=True))


def lacks_asked_kind(scored: Scored, part: Part) -> bool:
    """Whether the sentence states no value of the kind the part asks for (an amount for *How
    much is a riding lesson?*; ``answer_kinds.lacks_kind``): it cannot answer, however well its
    condition fits or however likely a reader finds it."""
    return part.wants is not None and lacks_kind(scored.sentence.text, part.text, part.wants,
                                                 row=bool(scored.sentence.row_entity))


def answer_factor(sentence: Sentence, part: Part, *, priced_as_asked: bool = False) -> float:
    """What the coverage of ``sentence`` keeps for being a near miss by its kind: about another
    group than the one asked about (``CONTRAST_FACTOR``: *adults* asked, *children* answered; or
    about the alternative the question turns down: ``alternatives``; or
    about the case without a thing the question states: *on their own rims*, *without rims*; or
    about the rule before a change, for a question about now: ``former_rules``),
    or without an amount of money for a price question (``MISSING_AMOUNT_FACTOR``; a percentage
    is an amount when the question asks for a difference: *how much extra*), or without
    a time, day, date or duration for a time question (``MISSING_TIME_FACTOR``: *How long does it
    take?* is not answered by *It costs 13 euros*), or without a phone number for a phone
    question (``MISSING_PHONE_FACTOR``), or without a number for a question how many
    (``MISSING_COUNT_FACTOR``; *unlimited* or *no limit* answers it too), or pricing only
    something else than the question asks the price of (``PRICED_ELSEWHERE_FACTOR``, unless
    ``priced_as_asked``: the sentence model found it the same thing in other words), or from a
    document that lacks a name the question gives (``ELSEWHERE_FACTOR``: *Can I keep my horse at
    the Birkenhof?* is not answered
    by the laundrette's rule for horse rugs), or a question itself (``CONTRAST_FACTOR``: *Lost
    something on one of our trams?* opens the page that answers it), or the sentence that
    introduces a list (``LEAD_IN_FACTOR``: *Maternity pay depends on your service:* states none
    of the rules its items give)."""
    factor = ELSEWHERE_FACTOR if sentence.elsewhere else 1.0
    if sentence.text.rstrip().endswith("?"):  # the document asks it too; what follows answers
        factor *= CONTRAST_FACTOR
    if sentence.leads_in:  # "Maternity pay depends on your service:": its list items answer
        factor *= LEAD_IN_FACTOR
    if read_qualifiers(part.text, sentence.labelled()).contrasted \
            or _without_stated(sentence, part) \
            or (states_former(sentence.text) and not asks_former(part.text)) \
            or turned_down(part.text, sentence.text, sentence.title):
        factor *= CONTRAST_FACTOR
    if part.wants == "amount" and lacks_kind(sentence.text, part.text, "amount",
                                                 row=bool(sentence.row_entity)):
        factor *= MISSING_AMOUNT_FACTOR
    elif part.wants == "amount" and not priced_as_asked and \
            priced_elsewhere(sentence.text, [t.stem for t in part.terms], sentence.section):
        factor *= PRICED_ELSEWHERE_FACTOR
    if part.wants == "time" and lacks_kind(sentence.text, part.text, "time"):
        factor *= MISSING_TIME_FACTOR
    if part.wants == "phone" and lacks_kind(sentence.text, part.text, "phone"):
        factor *= MISSING_PHONE_FACTOR
    if part.wants == "quantity" and lacks_kind(sentence.text, part.text, "quantity"):
        factor *= MISSING_COUNT_FACTOR
    return factor


def _credit(term: Term, present: set[str] | frozenset[str]) -> float:
    """``term_credit`` of the term's stem or, when ``present`` holds only a word the lexicon
    relates to the question's word (*dismissed* for *fired*), ``lexicon_credit`` if higher."""
    credit = term_credit(term.stem, present)
    if credit >= 1.0 or term.number:
        return credit
    return max(credit, lexicon_credit(term.word, present))


def _without_stated(sentence: Sentence, part: Part) -> bool:
    if not sentence.lacking:
        return False
    own = set(sentence.stems)
    lacked = without_objects(sentence.text)
    return any(t.stem not in part.negated and t.word not in ANSWER_WORDS
               and (forms := ({t.stem} | related(t.stem) | synonym_stems(t.word)) & own)
               and forms <= lacked for t in part.terms)


def _polarity(term: Term, sentence: Sentence, part: Part) -> float:
    """The factor on a term's credit for the sentence's forms of it: ``POLARITY_FACTOR`` when the
    question denies the term and the sentence affirms every form of it it holds, ``0.0`` when the
    sentence holds it only as its ``non-`` opposite and the question does not deny it (``not live
    in`` matches ``Non-residents`` rather than ``residents``; ``residents`` never matches
    ``Non-residents``), ``POLARITY_FACTOR`` when the sentence holds it only after *without* and
    the question does not deny it (*on their own rims*: *without rims*), else ``1.0``."""
    forms = ({term.stem} | related(term.stem) | synonym_stems(term.word)
             | derived_stems(term.word)) & set(sentence.stems)
    if not forms:
        return 1.0
    if term.stem in part.negated:
        return 1.0 if not forms.isdisjoint(sentence.negated) else POLARITY_FACTOR
    if forms <= sentence.prefixed:
        return 0.0
    return POLARITY_FACTOR if forms <= sentence.lacking else 1.0  # "on rims": "without rims"


def _row_entity(text: str) -> frozenset[str]:
    """The stems of a table row's first cell value (``Lettuce`` of ``Crop: Lettuce; Day
    temperature: 18 °C``; ``Evening (18:00–23:00)``), empty for a sentence not a table row."""
    match = _ROW.match(text)
    return frozenset(stems(match.group("value"))) if match else frozenset()


def shares_subject(first: Sentence, second: Sentence, part: Part) -> bool:
    """True unless ``first`` holds some of the question's subject pairs together and ``second``
    holds none of them (``Item type: E-readers`` is not about the ``e-bike`` a price row names)."""
    held = [(a, b) for a, b in part.pairs if _adjacent(first.stems, a, b)]
    return not held or any(_adjacent(second.stems, a, b) for a, b in held)


def _adjacent(words: Sequence[str], a: str, b: str) -> bool:
    """True when ``a`` and ``b`` stand within two words of each other, in either order (``new
    employees``, ``new hire employees``; ``Business plan`` and a table row's ``Plan: Business``,
    ``production deployment`` and ``deploy to production``)."""
    return any((word == a and b in words[i + 1 : i + 3])
               or (word == b and a in words[i + 1 : i + 3]) for i, word in enumerate(words))


def idf(passages: int, frequency: int) -> float:
    """Inverse document frequency of a term found in ``frequency`` of ``passages`` passages
    (a term found nowhere weighs as if found in half a passage)."""
    return math.log(1.0 + max(passages, 1) / max(frequency, 0.5))


def numbers_of(text: str) -> frozenset[str]:
    """The numbers and number words of a sentence (to tell disagreeing statements apart)."""
    found = {w.casefold() for w in re.findall(r"[^\W_]+(?:[.,:][0-9]+)*", whole_amounts(text))
             if DIGITS.search(w) or w.casefold() in NUMBER_WORDS}
    return frozenset(found)


def same_subject(first: str, second: str) -> bool:
    """True when two sentences share at least half of the shorter one's content words (they
    state something about the same thing)."""
    a = {w for w in stems(first) if w not in STOP_WORDS and not DIGITS.search(w)}
    b = {w for w in stems(second) if w not in STOP_WORDS and not DIGITS.search(w)}
    if not a or not b:
        return False
    return len(a & b) >= SAME_SUBJECT_SHARE * min(len(a), len(b))


def context_quote(sentence: Sentence, marked: str, max_chars: int = QUOTE_MAX_CHARS) -> str:
    """The paragraph around ``sentence``: whole sentences of its own block, grown from the
    sentence itself to both sides while they fit in ``max_chars`` (the sentence always stays)."""
    lines = unmark(marked).split("\n")
    if sentence.block >= len(lines):
        return sentence.text
    own = sentences(lines[sentence.block].strip())
    if sentence.text not in own:
        return sentence.text
    first = last = own.index(sentence.text)
    size = len(sentence.text)
    while True:
        grown = False
        for candidate in (first - 1, last + 1):
            if 0 <= candidate < len(own) and size + len(own[candidate]) + 1 <= max_chars:
                size += len(own[candidate]) + 1
                first, last = min(first, candidate), max(last, candidate)
                grown = True
        if not grown:
            return " ".join(own[first : last + 1])
