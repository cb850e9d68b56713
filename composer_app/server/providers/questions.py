"""What the offline assistant reads from a question: its search terms and any listing request.

Invariants: terms are case-folded words in first-occurrence order, without stop words (but
*tell* asking to notify someone: *tell IT*, not *tell me*), at most
``MAX_TERMS`` (a one-letter word counts only as the prefix of a hyphenated word: ``e-bike``; the
first half of a negative contraction, *didn* of *didn't*, is never a term; a number with
thousands separators or decimals is one term: *1,500*; a compound whose hyphen is only spelling
is one term, as documents' words are: *Wi-Fi* is *wifi*; a letter is a term after a word that
names things by letters: *Category B*); a
listing request is recognised only from its leading verb or question form, and its filter never
contains the listing words themselves; a question asks whether (yes or no) only when its last
sentence opens with an auxiliary verb (*Do we have to …?*, *Can I …?*, *Is there …?*); a
question's pieces (``asked_pieces``) cover its asking text in order, except that a piece that
only asks (*On what day*) takes the subject of the next, which opens with its own asking words
(*at what time does the shift change over*), and that a question about two things after one
preposition each asks its head of each (*What are the fees for a full-day place and for a
half-day place*); no piece but the last only asks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from composer_app.server.providers.term_forms import joined

MAX_TERMS = 12
# The longest piece read as one question about two things (the pattern's cost grows with the
# square of the length; a question about two things is a short sentence).
TWO_THINGS_MAX_CHARS = 300
# Words that name a thing by a letter after them: *Category B*, *Zone A*, *Hall C*.
_LABELS = frozenset(["category", "type", "class", "level", "zone", "grade", "row", "block",
                     "plan", "option", "section", "tier", "size", "room", "gate", "platform",
                     "line", "terminal", "building", "wing", "group", "hall", "court", "stage",
                     "phase", "lane", "track", "field", "price", "tariff", "package"])

_STOP_TEXT = """a about above after again all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each else ever
    few for
    from further get gets got had has have having he her here hers him his how i if in into is it
    its itself just let lets me more most my no nor not now of off on once only or other our ours
    out over own please same say says she should so some such tell than that the their theirs them
    then there these they this those through to too under until up us very was we were what whats
    when where which while who whom why will with would you your yours know explain describe find
    give show me many much someone somebody anyone anybody something anything everyone
    everybody still yet even really anymore going want wants wanted like myself yourself ourselves
    yourselves themselves himself herself oneself"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
# A number keeps its thousands separators and decimals (*1,500*, *0.45*), as sentences' words do.
_WORD = re.compile(r"\d+(?:[.,]\d+)+(?![^\W_])|[^\W_]+(?:['’][^\W_]+)?")
_LISTING = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:list|show(?: me)?|enumerate|browse)\b"
    r"[^?]*\b(?:files?|documents?|docs|notes|contents?|folder)\b"
    r"|^\s*(?:what|which)\s+(?:files|documents|docs|notes)\s+(?:are|do|exist|have|is)\b"
    r"|^\s*what(?:'s|’s|\s+is)\s+in\s+(?:the\s+|my\s+)?(?:knowledge\s+)?folder\b",
    re.IGNORECASE,
)
_LISTING_TEXT = (
    "list show enumerate browse files file documents document docs notes contents content folder "
    "knowledge all every my the in are do exist have is what which there available"
)
LISTING_WORDS = frozenset(_LISTING_TEXT.split())
EXTENSION_WORDS = {
    "markdown": (".md", ".markdown"),
    "python": (".py", ".pyi"),
    "text": (".txt",),
    "javascript": (".js", ".mjs", ".cjs"),
    "typescript": (".ts", ".tsx"),
    "json": (".json",),
    "yaml": (".yaml", ".yml"),
    "code": (".py", ".js", ".ts", ".tsx", ".go", ".rs", ".java", ".c", ".cpp", ".h", ".rb", ".sh"),
}


@dataclass(frozen=True, slots=True)
class ListingRequest:
    """A request to list files: optional extension filter and path words."""

    extensions: tuple[str, ...] = ()
    path_words: tuple[str, ...] = ()


# *tell* asks to notify someone (*How quickly do I need to tell IT?*), not *tell me*.
_TOLD = re.compile(r"\s+(?!(?:me|us|you|him|her|them|about|what|how|when|where|which|who|why|if|"
                   r"whether)\b)[^\W\d_]", re.I)


def question_terms(question: str) -> list[str]:
    """The search terms of ``question`` (see the module invariant)."""
    terms: list[str] = []
    previous = ""
    question = joined(question)  # "Wi-Fi" as a document's words read it: "wifi"
    for match in _WORD.finditer(question):
        word = match.group(0).casefold().replace("’", "'")
        labelled, previous = previous in _LABELS, word
        if "'" in word:
            word, ending = word.split("'", 1)
            if ending == "t" and word.endswith("n"):
                continue  # "didn't", "won't": the negation, not a term
        prefix = question[match.end():match.end() + 1] == "-"  # the "e" of "e-bike", "x-ray"
        telling = word == "tell" and _TOLD.match(question, match.end()) is not None
        short = len(word) < 2 and not word.isdigit() and not prefix and not labelled
        if (word in STOP_WORDS and not telling) or short or word in terms:
            continue
        terms.append(word)
    return terms[:MAX_TERMS]


def listing_request(question: str) -> ListingRequest | None:
    """The listing asked for by ``question``, or ``None`` when it asks something else."""
    if _LISTING.search(question) is None:
        return None
    extensions: list[str] = []
    words: list[str] = []
    for term in question_terms(question):
        if term in EXTENSION_WORDS:
            extensions.extend(EXTENSION_WORDS[term])
        elif term not in LISTING_WORDS:
            words.append(term)
    return ListingRequest(tuple(dict.fromkeys(extensions)), tuple(words))


_WHETHER = re.compile(r"^(?:do|does|did|is|are|am|was|were|can|could|may|might|must|should|"
                      r"shall|will|would|have|has|had|need)\b", re.I)


def asks_whether(question: str) -> bool:
    """Whether ``question`` asks yes or no: its last sentence opens with an auxiliary verb (the
    sentences before it state the situation: *My son is 8. Can he …?*)."""
    asked = [c for c in re.split(r"(?<=[.!?])\s+", question.strip()) if c]
    return bool(asked) and _WHETHER.match(asked[-1]) is not None


_PART_SPLIT = re.compile(
    r"(?:\?\s+|[,;]?\s+and\s+(?=(?:(?:by|until|till|since|from|for|at|in|on|to|with)\s+"
    r"(?:when|what|which|whom|how)\b|(?:how|when|what|which|who|where|why|is|are|does|do|did|can|"
    r"must|should|will|would)\b|(?:am|was|were|could|may|might|shall|has|have)\s+(?:i|we|you|he|"
    r"she|they|it|there|my|our|your|the|a|an|this|that)\b)))", re.I)
# A piece that opens with its own asking words and then its verb: *at what time does …*.
_ASKING_THEN_VERB = re.compile(
    r"^(?:(?:on|at|in|by|from|until|till|for|to)\s+)?(?:what|which|when|where|how)"
    r"(?:\s+(?:much|long|many|often|early|late|soon))?(?:\s+(?!(?:is|are|does|do|did|can|will|"
    r"should|must|was|were)\b)[^\W\d_]+)?\s+(?P<rest>(?:is|are|does|do|did|can|will|should|must|"
    r"was|were)\s+.+)$", re.I)
# One question about two things, each after the same preposition: *What are the fees for a
# full-day place and for a half-day place*.
_TWO_THINGS = re.compile(
    r"^(?P<head>(?:what|how|which|when)\b.*?)\s+(?P<prep>for|on|at|in|of|with)\s+(?P<a>[^,;]+?)"
    r",?\s+and\s+(?P=prep)\s+(?P<b>[^,;]+)$", re.I)
# A piece of a question that only asks, with no subject of its own: *On what day*, *When*.
_ONLY_ASKING = re.compile(r"^(?:(?:on|at|in|by|from|until|till|for|to)\s+)?(?:what|which|when|"
                          r"where|how)(?:\s+(?:much|long|many|often|early|late|soon))?"
                          r"(?:\s+[^\W\d_]+)?$", re.I)


def asked_pieces(asked: str) -> list[str]:
    """The pieces of a question's asking sentences: cut after a question mark and at *and*
    before another question (*…, and when must I pay?*, *… and by what date …*), each without its
    question mark; a piece that only asks takes the next one's subject (``_joined``), and one
    that asks the same of two things (*What are the fees for a full-day place and for a half-day
    place?*, at most ``TWO_THINGS_MAX_CHARS`` long) is two pieces (``_shared_head``)."""
    pieces = _joined([p.strip(" ?,;") for p in _PART_SPLIT.split(asked) if p.strip(" ?,;")])
    return [half for piece in pieces for half in _shared_head(piece)]


def _joined(pieces: list[str]) -> list[str]:
    """``pieces`` with one that only asks (*On what day*, *When*) completed by the next one's
    subject, when the next one opens with its own asking words and then a verb (*On what day
    and at what time does the shift change over?*: *On what day does the shift change over*, *at
    what time does the shift change over*), or else joined to it (*When and where is the
    meeting?*); it is never a part of its own, answered by any sentence naming a day."""
    joined: list[str] = []
    for piece in pieces:
        if joined and _ONLY_ASKING.match(joined[-1]):
            asking = _ASKING_THEN_VERB.match(piece)
            if asking:
                joined[-1] = f"{joined[-1]} {asking.group('rest')}"
                joined.append(piece)
            else:
                joined[-1] = f"{joined[-1]} and {piece}"
        else:
            joined.append(piece)
    return joined


def _shared_head(piece: str) -> list[str]:
    """``piece`` as two pieces when it asks the same of two things named after one preposition
    each (*What are the monthly fees for a full-day place and for a half-day place*: the fees
    for each), else ``[piece]``."""
    match = _TWO_THINGS.match(piece) if len(piece) <= TWO_THINGS_MAX_CHARS else None
    if not match:
        return [piece]
    head, preposition = match.group("head"), match.group("prep")
    return [f"{head} {preposition} {match.group('a')}", f"{head} {preposition} {match.group('b')}"]
