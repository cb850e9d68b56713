"""Word forms the offline assistant treats as the same term: light stems, related forms, synonyms.

Invariants: ``stem`` is deterministic, case-folded and idempotent on its own output for the suffixes
it strips, and stems an American spelling of general English as its British form (*tires*: *tyres*;
``spelling_variants`` widens a search to the other form); ``term_credit`` is 1.0 for the same stem,
``SYNONYM_CREDIT`` for a word of the same synonym group, a shared stem prefix of at least
``PREFIX_MIN`` characters or the same stem after a prefix (*surcharge* for *charge*, a stem of at
least ``COMPOUND_MIN``), else 0.0, so an exact word always beats a paraphrase; the synonym groups
are general English vocabulary (workplace documents, rules and price lists), never phrases of a
particular folder; an irregular form is stemmed through its base form; ``single_verbs`` replaces a
phrasal verb (``take home``, ``bring … back``, with at most ``PHRASAL_GAP`` words between verb and
particle; the noun ``pick-up`` too) by the one verb that means the same (``borrow``, ``return``;
*take out* by what is taken out: money is withdrawn, a plan, a policy or a person keeps its words;
*get back* is *return* only from somewhere or home), a few set phrases by the words documents use
for them (*up front*: *in advance*; *on hold*: *paused*; *hang on to*: *keep*; *my third go*: *my
third attempt*; *a text message*: *an SMS*; *within the country*: *domestically*; *the cut-off
time*: *the time limit*, a bare *cut-off*: *deadline*; *take my own photos*: *photograph*; *a couple
of*: *a few*) and leaves every other word as it was (*cut off* as a verb, *a couple*), and
``phrasal_sources`` says which phrasal verb each such single verb stands for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

SYNONYM_CREDIT = 0.75
PREFIX_MIN = 6
COMPOUND_MIN = 4  # the shortest stem a prefixed word (*surcharge*: *charge*) is credited for
# Prefixes that make a word a kind of the word they lead (*surcharge* is a charge).
_PREFIX_TEXT = "sur over under re pre sub super co extra counter out up down mis inter multi"
_PREFIXES = frozenset(_PREFIX_TEXT.split())
PHRASAL_GAP = 3

_WORD = re.compile(r"[^\W_]+(?:[.,][0-9]+)*")
_IRREGULAR = {
    "paid": "pay", "payment": "pay", "payments": "pay", "pays": "pay", "paying": "pay",
    "took": "take", "taken": "take", "takes": "take", "made": "make", "gave": "give",
    "given": "give", "kept": "keep", "held": "hold", "ran": "run", "began": "begin",
    "begun": "begin", "sent": "send", "met": "meet", "left": "leave", "chose": "choose",
    "chosen": "choose", "written": "write", "wrote": "write", "built": "build", "spent": "spend",
    "bought": "buy", "brought": "bring", "got": "get", "gotten": "get", "men": "man",
    "women": "woman", "people": "person", "children": "child", "data": "data",
    "sold": "sell", "told": "tell", "found": "find", "lost": "lose", "seen": "see", "saw": "see",
    "broken": "break", "broke": "break", "known": "know", "thought": "think", "caught": "catch",
    "taught": "teach", "driven": "drive", "drove": "drive", "ridden": "ride", "rode": "ride",
    "rang": "ring", "rung": "ring", "worn": "wear", "torn": "tear", "won": "win", "fed": "feed",
    "sat": "sit", "stood": "stand", "understood": "understand", "hung": "hang", "shut": "shut",
    "forgot": "forget", "forgotten": "forget",
}
_NUMBER_TEXT = """zero one two three four five six seven eight nine ten eleven twelve thirteen
    fourteen fifteen sixteen seventeen eighteen nineteen twenty"""
NUMBER_VALUES = {word: value for value, word in enumerate(_NUMBER_TEXT.split())}  # "eight": 8


def number_value(word: str) -> int | None:
    """The whole number ``word`` writes in digits or in words (*8*, *eight*), else None."""
    word = word.strip()
    return int(word) if word.isdigit() else NUMBER_VALUES.get(word)

_SYNONYM_TEXT = """
employee employees staff worker workers colleague colleagues personnel
new newly hire hires hired joiner joiners starter starters
vacation holiday holidays leave pto
finish complete completed done
need needs needed require requires required requirement must mandatory
start starts started begin begins beginning commence
end ends ended stop stops stopping expire expires finish quit quits quitting
cost costs price prices fee fees charge charges pay pays
pay salary wage compensation
report notify register tell tells told inform informs informed
big large size maximum max limit limited cap capped
small minimum min
fast quickly quick soon speed
often frequency frequently
rule rules policy policies
meeting meetings meet
office offices building
car vehicle driving
open opening hours
location located where site
approval approvals approve approved sign-off okay okayed
deploy deploys deployed deployment deployments release rollout
allowed permitted permit may can
respond response responses reply answer
team teams group
boss manager lead
phone call
document documents doc docs
laptop laptops computer computers notebook
illness sick sickness ill
password passwords passphrase
remote remotely home telework teleworking
trip trips travel travelling traveling journey
resident residents live lives living inhabitant inhabitants
day days daily
week weeks weekly
month months monthly
year years yearly annual annually
late overdue delayed
rest remainder remaining balance
quiet silence rest
included include includes free pay fee
due payable owed owing pay paid
leave leaves depart departs departure departures checkout checkouts
borrow borrows borrowed lend lends loan loans keep
keep keeps kept hold holds retain retains retained retention
join joins joined enrol enrols enroll enrolled admit admits admitted accept accepts
steal steals stole stolen theft thefts nicked
child children kid kids daughter daughters son sons
company companies business businesses firm firms
phone call ring rings
see sees spot spots spotted
wifi wireless wlan
inside indoor indoors
outside outdoor outdoors
kg kilo kilos kilogram kilograms
warranty warranties guarantee guarantees
barbecue barbecues barbeque grill grills grilling
town towns city cities
bike bikes bicycle bicycles
whole full entire
tall high height
rent rents rented rental lease leases leased leasing
claw claws nail nails
clip clips clipped clipping trim trims trimmed trimming
closed close closes shut shuts
deposit deposits security
id identity
delete deletes deleted deleting deletion erase erases erased wipe wipes wiped
carer carers caregiver caregivers
international abroad overseas
doctor doctors gp gps physician physicians
cancel cancels cancelled cancelling cancellation cancellations terminate terminated termination
contract contracts agreement agreements
notice warning
"""


# Phrasal verbs of general English and the single verb documents use for them: "verb particle".
_PHRASAL_TEXT = """
take home: borrow
take out: borrow
bring back: return
give back: return
hand back: return
take back: return
hand in: submit
turn in: submit
call off: cancel
put off: postpone
sign up: register
pick up: collect
drop off: deliver
fill in: complete
fill out: complete
pay back: refund
give up: quit
back out: withdraw
leave behind: forget
go home: leave
"""
_VERB_FORMS = {
    "take": "take takes taking took taken", "check": "check checks checking checked",
    "bring": "bring brings bringing brought", "give": "give gives giving gave given",
    "hand": "hand hands handing handed", "turn": "turn turns turning turned",
    "call": "call calls calling called", "put": "put puts putting",
    "sign": "sign signs signing signed", "pick": "pick picks picking picked",
    "drop": "drop drops dropping dropped", "fill": "fill fills filling filled",
    "pay": "pay pays paying paid", "back": "back backs backing backed",
    "leave": "leave leaves leaving left", "go": "go goes going went gone",
}


def _phrasal() -> re.Pattern[str]:
    verbs = "|".join(sorted({f for forms in _VERB_FORMS.values() for f in forms.split()}))
    return re.compile(rf"\b(?P<verb>{verbs})\b(?P<gap>(?:\s+[^\W_]+){{0,{PHRASAL_GAP}}}?)[\s-]+"
                      r"(?P<particle>home|out|back|in|off|up|behind)\b", re.IGNORECASE)


_PHRASAL = _phrasal()
_PHRASAL_VERBS = {
    tuple(head.split()): verb.strip()
    for head, verb in (line.split(":") for line in _PHRASAL_TEXT.strip().split("\n"))
}
_BASE_FORM = {form: base for base, forms in _VERB_FORMS.items() for form in forms.split()}


# What is taken out decides the verb: money is withdrawn (*take money out*, *take out £200*), a
# plan or policy is bought and a person taken on an outing (*took out a HomeHeat plan*, *take my
# aunt out*: no single verb, the words stay), and anything else is borrowed (*take out a boat*,
# *take out a loan*).
_MONEY_TAKEN = re.compile(r"\b(?:money|cash|savings|funds)\b|[£€$]\s?\d", re.IGNORECASE)
_PRODUCT_TAKEN = re.compile(r"^(?:\s+[\w'’-]+){0,6}?\s+(?:plan|plans|policy|policies|cover|"
                            r"insurance|subscription|subscriptions|membership|memberships|"
                            r"contract|contracts|mortgage|mortgages)\b", re.IGNORECASE)


_PERSON_TAKEN = re.compile(r"\b(?:him|her|them|us|me|aunt|uncle|mum|mom|dad|mother|father|gran|"
                           r"granny|grandma|grandmother|grandad|grandpa|grandfather|nan|son|"
                           r"daughter|child|children|kids|wife|husband|partner|friends?|"
                           r"residents?|patients?|guests?|clients?)\b", re.IGNORECASE)


def _single_verb(match: re.Match[str]) -> str | None:
    """The single verb for a phrasal verb ``_PHRASAL`` matched, or ``None`` to keep its words."""
    base = _BASE_FORM[match.group("verb").casefold()]
    particle = match.group("particle").casefold()
    verb = _PHRASAL_VERBS.get((base, particle))
    if (base, particle) != ("take", "out") or verb is None:
        return verb
    after = match.string[match.end():match.end() + 60]
    before = match.string[max(0, match.start() - 30):match.start()]
    if _MONEY_TAKEN.search(match.group("gap")) or _MONEY_TAKEN.match(after.lstrip()) or (
            _MONEY_TAKEN.search(before)):  # "take £50 out", "how much cash can I take out"
        return "withdraw"
    if _PRODUCT_TAKEN.match(after) or _PERSON_TAKEN.search(match.group("gap")):
        return None  # "took out a HomeHeat plan", "take my aunt out for lunch"
    return verb


# Coming back from somewhere is returning (*we got back from Portugal*); *get my money back* and
# *get back to us* are not.
_GOT_BACK = re.compile(r"\b(?:get|gets|getting|got|gotten)\s+back(?=\s+(?:from|home)\b)",
                       re.IGNORECASE)


def single_verbs(text: str) -> str:
    """``text`` with its phrasal verbs replaced by single verbs (see the module invariant)."""

    def swap(match: re.Match[str]) -> str:
        verb = _single_verb(match)
        if verb is None:
            return match.group(0)
        return f"{verb}{match.group('gap')}"

    text = _GOT_BACK.sub("return", text)
    return _SET_PHRASE.sub(_set_phrase, _PHRASAL.sub(swap, text))


# Set phrases of general English and the words documents use for them.
_SET_PHRASES = {"up front": "in advance", "upfront": "in advance", "on hold": "paused",
                "hang on to": "keep", "hold on to": "keep", "text message": "SMS",
                "text messages": "SMS", "within the country": "domestically",
                "inside the country": "domestically", "another country": "abroad",
                "pr": "pull request", "prs": "pull requests", "a couple of": "a few",
                "at most": "maximum"}
# A bound from above is a maximum: *no more than five*, *never larger than five dogs*.
_AT_MOST = r"\bat\s+most\b|\b(?:no|not|never)\s+(?:more|larger|bigger|greater|longer)\s+than\b"
# A cut-off time is a time limit, a bare cut-off a deadline; *cut off* as a verb is neither.
_CUT_OFF = r"\bcut(?:-|\s+)?off\s+(?:times?|dates?|points?)\b|\bcut-?offs?\b"
_ORDINAL_GO = re.compile(r"(first|second|third|fourth|fifth|last|next) (?:go|try)")
# "take my own photos": photograph
_PHOTOS = (r"\b(?:take|takes|taking|took|taken)\s+(?:(?:a|my|our|your|some|own)\s+){0,2}"
           r"(?:photos?|pictures?|photographs?)\b")
_SET_PHRASE = re.compile(rf"{_PHOTOS}|\bup[\s-]front\b|\bupfront\b|\bon\s+hold\b|"
                         r"\b(?:hang|hold)\s+on\s+to\b|\ba\s+couple\s+of\b|"
                         r"\b(?:first|second|third|fourth|fifth|last|next)\s+(?:go|try)\b|"
                         r"\btext\s+messages?\b|\b(?:within|inside)\s+the\s+country\b|"
                         rf"\banother\s+country\b|\bPRs?\b|{_CUT_OFF}|{_AT_MOST}", re.IGNORECASE)


def _set_phrase(match: re.Match[str]) -> str:
    said = re.sub(r"[\s-]+", " ", match.group(0).casefold())
    if (ordinal := _ORDINAL_GO.fullmatch(said)) is not None:  # "my third go": a third attempt
        return f"{ordinal.group(1)} attempt"
    if said.startswith(("take", "took")):
        return "photograph"
    if said.startswith("cut"):  # the latest time allowed: "the time limit for the marathon"
        return "time limit" if said.endswith(("time", "times")) else "deadline"
    if said.startswith(("no ", "not ", "never ")):  # "no more than five": at most five
        return "maximum"
    return _SET_PHRASES.get(said, match.group(0))


def phrasal_sources(text: str) -> dict[str, tuple[str, str]]:
    """The stem of each single verb ``single_verbs`` puts into ``text``, mapped to the stems of
    the verb and particle it replaced (``borrow`` → ``tak``, ``hom``), so a document that uses the
    phrasal verb itself (*Keys can be picked up at the desk*) still matches."""
    found: dict[str, tuple[str, str]] = {}
    for match in _PHRASAL.finditer(text):
        verb = _single_verb(match)
        if verb is not None:
            found[stem(verb)] = (stem(match.group("verb")), stem(match.group("particle")))
    for match in _GOT_BACK.finditer(text):
        found[stem("return")] = (stem(match.group(0).split()[0]), stem("back"))
    return found


def _groups() -> dict[str, frozenset[str]]:
    by_word: dict[str, set[str]] = {}
    for line in _SYNONYM_TEXT.strip().split("\n"):
        group = {stem(word) for word in line.split()}
        for member in group:
            by_word.setdefault(member, set()).update(group)
    return {word: frozenset(group) for word, group in by_word.items()}


# American spellings of general English and their British forms (the documents' usual ones): a
# word stems as its British form does, so *tires* is *tyres* and *canceled* is *cancelled*.
_SPELLING_TEXT = """
tire tyre
curb kerb
color colour
favor favour
favorite favourite
flavor flavour
honor honour
labor labour
neighbor neighbour
neighborhood neighbourhood
behavior behaviour
harbor harbour
odor odour
center centre
meter metre
kilometer kilometre
centimeter centimetre
millimeter millimetre
liter litre
theater theatre
fiber fibre
gray grey
plow plough
mold mould
catalog catalogue
dialog dialogue
aluminum aluminium
jewelry jewellery
pajamas pyjamas
license licence
defense defence
offense offence
canceled cancelled
canceling cancelling
traveled travelled
traveling travelling
traveler traveller
labeled labelled
fueled fuelled
enroll enrol
enrollment enrolment
fulfill fulfil
installment instalment
skillful skilful
program programme
organize organise
organization organisation
realize realise
recognize recognise
authorize authorise
authorization authorisation
apologize apologise
customize customise
minimize minimise
maximize maximise
analyze analyse
paralyze paralyse
"""


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A light English stem of ``word`` (plurals, -ing, -ed, -ly and a few derivations), an
    American spelling stemmed as its British form (``_SPELLING_TEXT``)."""
    base = _plain_stem(word)
    return _british_stems().get(base, base)


@lru_cache(maxsize=1)
def _british_stems() -> dict[str, str]:
    """The plain stem of each American spelling to that of its British form."""
    pairs = (line.split() for line in _SPELLING_TEXT.strip().split("\n"))
    found = {_plain_stem(us): _plain_stem(uk) for us, uk in pairs}
    return {us: uk for us, uk in found.items() if us != uk}


@lru_cache(maxsize=8_192)
def spelling_variants(word: str) -> tuple[str, ...]:
    """The other spellings of ``word`` in ``_SPELLING_TEXT`` (*tyres* for *tires*), for widening
    a search whose index does not fold them."""
    own = stem(word)
    found = (w for line in _SPELLING_TEXT.strip().split("\n") for w in line.split()
             if stem(w) == own and w.casefold() != word.casefold())
    return tuple(dict.fromkeys(found))


def _plain_stem(word: str) -> str:
    word = word.casefold().replace("’", "'")
    if "'" in word:
        word = word.split("'")[0]
    if word in _IRREGULAR:  # its base form, stemmed like any other word (takes -> take -> tak)
        word = _IRREGULAR[word]
    if len(word) <= 3 or not word.isalpha():
        return word
    base = word
    for suffix, replacement in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""),
                                ("es", "e"), ("ly", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith(
                ("ss", "eed", "us", "is")):
            base = word[: len(word) - len(suffix)] + replacement
            if suffix in ("ing", "ed") and len(base) > 3 and base[-1] == base[-2] \
                    and base[-1] not in "lsz":
                base = base[:-1]  # stopped -> stop, planned -> plan
            break
    return base[:-1] if base.endswith("e") and len(base) > 3 else base


def irregular_base(word: str) -> str | None:
    """The base form of an irregular inflection (``took`` → ``take``, ``children`` → ``child``),
    or ``None`` for any other word."""
    return _IRREGULAR.get(word.casefold())


def words(text: str) -> list[str]:
    """The words of ``text`` in order (numbers keep their inner separators: 2,000 or 0.30; a
    compound whose hyphen is only spelling is one word: *Wi-Fi* is *wifi*, *e-mail* *email*; a
    whole amount of money is written without its cents: *£16.00* is *£16*)."""
    return [m.group(0) for m in _WORD.finditer(whole_amounts(joined(text)))]


_WHOLE_AMOUNT = re.compile(r"(?<=[£$€¥])(\d+(?:,\d{3})*)\.00?\b")


def whole_amounts(text: str) -> str:
    """``text`` with each whole amount after a currency sign written without its cents (*£16.00*
    is *£16*, as a question writes it); a bare *8.00* may be a time of day and stays."""
    return _WHOLE_AMOUNT.sub(r"\1", text)


_JOINED = re.compile(r"\b(?:wi-fi|e-mail|log-in|web-site)\b", re.IGNORECASE)


def _join(match: re.Match[str]) -> str:
    return match.group(0).replace("-", "")


def joined(text: str) -> str:
    """``text`` with each compound whose hyphen is only spelling written as one word (*Wi-Fi*
    is *WiFi*), as ``words`` reads documents and questions alike."""
    return _JOINED.sub(_join, text)


def stems(text: str) -> list[str]:
    """``stem`` of every word of ``text``, in order."""
    return [stem(w) for w in words(text)]


_SYNONYMS: dict[str, frozenset[str]] = {}


def related(term_stem: str) -> frozenset[str]:
    """The stems of ``term_stem``'s synonym group (empty when it has none)."""
    if not _SYNONYMS:
        _SYNONYMS.update(_groups())
    return _SYNONYMS.get(term_stem, frozenset())


@lru_cache(maxsize=4_096)
def synonyms_of(word: str) -> tuple[str, ...]:
    """Plain words related to ``word`` (for widening a search), excluding ``word`` itself: its
    other spellings first, then its synonym groups."""
    own = stem(word)
    found: list[str] = list(spelling_variants(word))
    for line in _SYNONYM_TEXT.strip().split("\n"):
        members = line.split()
        if any(stem(m) == own for m in members):
            found.extend(m for m in members if stem(m) != own and "-" not in m)
    return tuple(dict.fromkeys(found))


def term_credit(term_stem: str, present: Iterable[str]) -> float:
    """How well the stems in ``present`` contain ``term_stem`` (see the module invariant)."""
    bag = present if isinstance(present, (set, frozenset)) else set(present)
    if term_stem in bag:
        return 1.0
    group = related(term_stem)
    if group and not group.isdisjoint(bag):
        return SYNONYM_CREDIT
    if len(term_stem) >= PREFIX_MIN and term_stem.isalpha():
        head = term_stem[:PREFIX_MIN]
        if any(len(s) >= PREFIX_MIN and s.startswith(head) for s in bag):
            return SYNONYM_CREDIT
    if len(term_stem) >= COMPOUND_MIN and not bag.isdisjoint(_prefixed(term_stem)):
        return SYNONYM_CREDIT
    return 0.0


@lru_cache(maxsize=8192)
def _prefixed(term_stem: str) -> frozenset[str]:
    """The stems of ``term_stem`` after each prefix (*surcharg* for *charg*)."""
    return frozenset(prefix + term_stem for prefix in _PREFIXES)
