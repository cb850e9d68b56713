"""The offline assistant answers the question asked: one test per failure it used to have.

The folder is hard-wrapped Markdown, as people write it; every test runs the real provider over
real files (index in a real SQLite file) and reads the answer as the server would persist it.
"""

from __future__ import annotations

import os
import textwrap
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from composer_app.core.contracts.sources import SourceEntry
from composer_app.server.providers.base import ProviderAttachment
from composer_app.server.providers.local import LocalProvider
from composer_app.server.providers.sentence_embeddings import SentenceEmbeddings
from tests.server.providers.support import Outcome, request, run_turn

HANDBOOK = """# Employee handbook

## Time off

All employees receive 25 days of paid vacation per calendar year, and
unused days can be carried over until the end of March.

New employees accrue vacation at two days per month during their first
six months.

## Training

All employees must complete the security awareness training once a
year. New employees must complete it within their first week, before
they receive access to customer data.
"""
DEPLOY = """# Deployment guide

Every merge to the main branch is deployed to staging automatically
within ten minutes. Staging deployments need one approval from any
engineer on the team.

The production rollout happens every Tuesday at 14:00 UTC, after the
release manager has checked the staging results. Production
deployments need two approvals, one of them from the on-call engineer.
"""
DATABASE = """# Database operations

The primary database runs in the Frankfurt data centre on PostgreSQL
16. The secondary database is a streaming replica in the Dublin data
centre.

Full backups of the primary are taken every six hours. The secondary
is backed up once a night, and those backups are kept for seven days.
"""
MEALS_OLD = """# Travel expense policy

Effective date: 1 March 2024

The daily meal allowance on business trips is 40 euros. Receipts are
not needed for the meal allowance.
"""
MEALS_NEW = """# Travel expense policy (revised)

Effective date: 15 September 2025

The daily meal allowance on business trips is 55 euros. Alcohol is
never reimbursed.
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "knowledge"
    root.mkdir()
    for name, text in {"handbook.md": HANDBOOK, "deployment.md": DEPLOY,
                       "database.md": DATABASE}.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def ask(folder: Path, tmp_path: Path) -> Iterator[Callable[..., Outcome]]:
    provider = LocalProvider(folder, tmp_path / "data")

    def run(question: str, **extra: object) -> Outcome:
        return run_turn(provider, request(question, **extra))

    yield run
    provider.close()


def _direct(outcome: Outcome) -> str:
    """The answer's own first paragraph (its direct answer), without Markdown escapes."""
    return outcome.text.split("\n\n")[0].replace("\\", "")


def _answer_from(folder: Path, ask: Callable[..., Outcome], name: str, text: str,
                 question: str) -> str:
    """The direct answer to ``question`` once the file ``name`` holding ``text`` is added."""
    (folder / name).write_text(text, encoding="utf-8")
    return _direct(ask(question))


def _used(outcome: Outcome) -> list[SourceEntry]:
    return outcome.by_usage("used")


def test_new_employees_question_is_not_answered_by_the_all_employees_sentence(ask):
    outcome = ask("By when must new employees finish the security awareness training?")
    assert "within their first week" in _direct(outcome)
    assert "once a year" not in _direct(outcome)
    assert [e.title for e in _used(outcome)] == ["handbook.md"]


def test_all_employees_question_is_not_answered_by_the_new_employees_sentence(ask):
    outcome = ask("How many vacation days do employees get each year?")
    assert "25 days" in _direct(outcome)


def test_production_question_gets_the_production_setting_not_staging(ask):
    outcome = ask("How many approvals does a production deployment need?")
    assert "two approvals" in _direct(outcome)
    assert "one approval" not in _direct(outcome)


def test_secondary_question_gets_the_secondary_case_not_the_primary(ask):
    assert "once a night" in _direct(ask("How often is the secondary backed up?"))
    assert "Dublin" in _direct(ask("Where is the secondary database located?"))


def test_sentences_are_not_cut_at_the_files_line_breaks(ask):
    direct = _direct(ask("When does the production rollout happen?"))
    assert direct == ("The production rollout happens every Tuesday at 14:00 UTC, after the "
                      "release manager has checked the staging results.")


def test_quotes_never_silently_drop_words(ask):
    outcome = ask("How often must all employees complete the security awareness training?")
    quotes = [p for p in outcome.text.split("\n\n") if p.startswith("**handbook.md**")]
    words_of_file = " ".join(HANDBOOK.split())
    for quote in quotes:
        body = quote.split("“", 1)[1].rstrip("”").replace("\\", "")
        for piece in body.split(" … "):
            assert piece in words_of_file  # each run of quoted text is verbatim and whole


def test_two_part_question_is_answered_in_two_sentences(ask):
    outcome = ask("Where does the primary database run, and how often is the secondary "
                  "backed up?")
    direct = _direct(outcome)
    assert "Frankfurt" in direct and "once a night" in direct


def test_a_part_not_found_is_said_without_a_general_knowledge_label(ask):
    outcome = ask("How many approvals do production deployments need, and who pays for the "
                  "team lunch?")
    assert "two approvals" in _direct(outcome)
    blocks = outcome.text.split("\n\n")
    missing = next(i for i, b in enumerate(blocks) if b.startswith("I found nothing in your files"))
    grounding = outcome.grounding()
    assert grounding.grounding_mode == "source-backed"  # so the app shows no section labels
    assert all(not s.block_start <= missing <= s.block_end
               for s in grounding.grounding_segments)


def test_newer_document_wins_over_an_older_one_and_the_conflict_is_named(folder, ask):
    (folder / "expenses-2024.md").write_text(MEALS_OLD, encoding="utf-8")
    (folder / "expenses-2025.md").write_text(MEALS_NEW, encoding="utf-8")
    stamp = 1_767_225_600
    for name in ("expenses-2024.md", "expenses-2025.md"):  # same mtime: the text's date decides
        os.utime(folder / name, (stamp, stamp))
    outcome = ask("What is the daily meal allowance on business trips?")
    assert "55 euros" in _direct(outcome)
    assert [e.title for e in _used(outcome)] == ["expenses-2025.md"]
    assert "expenses-2024.md" in [e.title for e in outcome.by_usage("checked")]
    notes = [p for p in outcome.text.split("\n\n") if "says something different" in p]
    assert len(notes) == 1 and "expenses-2024.md" in notes[0] and "newer" in notes[0]


GYM_TERMS = """# Harbourside Gym: Membership Terms

Last updated: 3 June 2024

## Joining

A one-off joining fee of £20 is charged on all tiers. Members pay by monthly Direct Debit.
"""
GYM_NOTICE = """# Harbourside Gym: Notice of Membership Price Changes

Published: 12 January 2026

## Joining fee

The joining fee rises from £20 to £25 for new members joining from 1 March 2026. It remains
waived for anyone paying for a full year upfront.
"""


def test_a_newer_notice_that_states_the_change_in_other_words_wins_the_conflict(folder, ask):
    """The notice's sentence shares few of the question's words (*rises from £20 to £25*, under
    the topic *Joining fee*), but it changes the very value the older terms state."""
    (folder / "gym_membership_terms.md").write_text(GYM_TERMS, encoding="utf-8")
    (folder / "membership_price_changes_2026.md").write_text(GYM_NOTICE, encoding="utf-8")
    for name in ("gym_membership_terms.md", "membership_price_changes_2026.md"):
        os.utime(folder / name, (1_767_225_600, 1_767_225_600))
    outcome = ask("I'm joining the gym in May 2026 and paying monthly. What's the one-off fee "
                  "I'll be charged when I sign up?")
    assert "£25" in _direct(outcome)
    assert _used(outcome)[0].title == "membership_price_changes_2026.md"
    notes = [p for p in outcome.text.split("\n\n") if "says something different" in p]
    assert len(notes) == 1 and "gym\\_membership\\_terms.md (3 June 2024)" in notes[0]


def test_a_newer_notice_changing_another_value_leaves_the_answer_alone(folder, ask):
    notice = GYM_NOTICE.replace("## Joining fee\n\nThe joining fee rises from £20 to £25",
                                "## Freeze fee\n\nThe freeze fee rises from £5 to £7.50")
    (folder / "gym_membership_terms.md").write_text(GYM_TERMS, encoding="utf-8")
    (folder / "membership_price_changes_2026.md").write_text(notice, encoding="utf-8")
    for name in ("gym_membership_terms.md", "membership_price_changes_2026.md"):
        os.utime(folder / name, (1_767_225_600, 1_767_225_600))
    outcome = ask("What's the one-off fee I'll be charged when I join the gym?")
    assert "£20" in _direct(outcome) and "£7.50" not in _direct(outcome)
    assert _used(outcome)[0].title == "gym_membership_terms.md"


HOTEL_TERMS = """# Harbour Hotel: Guest Terms 2025

These terms apply to all stays at the Harbour Hotel from 1 January
2025 until further notice.

## Cancellation

Bookings on our Flexible rate can be cancelled free of charge up to
48 hours before the arrival date.

## Parking

Residents can use the hotel car park behind the building for £12 per
night, payable at check-out. Non-resident diners in the restaurant may
park for up to three hours for £5. Two electric vehicle chargers are
available at £0.40 per kWh.
"""
HOTEL_NOTICE = """# Harbour Hotel: Changes to Guest Terms from 1 March 2026

This notice updates the Harbour Hotel guest terms for every stay with
an arrival date on or after 1 March 2026.

## What changes

Three values in our guest terms change on 1 March 2026: the overnight
parking charge for residents, the free cancellation window for Flexible
rate bookings, and the nightly charge for dogs. Everything else stays as
it was.

## Parking

Residents parking in the hotel car park now pay £16 per night, payable
at check-out. Over the winter the car park has been resurfaced.

## Dogs

The charge is now £22 per dog per night.
"""


def test_a_notice_listing_what_changes_answers_with_its_new_value(folder, ask):
    """The notice's list of changes names the question's words (*the overnight parking charge
    for residents*) and its *free cancellation window* is no free parking: the sentence that
    states the new charge is the notice's answer, and it wins the conflict."""
    (folder / "hotel_terms.md").write_text(HOTEL_TERMS, encoding="utf-8")
    (folder / "hotel_changes_2026.md").write_text(HOTEL_NOTICE, encoding="utf-8")
    for name in ("hotel_terms.md", "hotel_changes_2026.md"):
        os.utime(folder / name, (1_767_225_600, 1_767_225_600))
    outcome = ask("How much does overnight parking cost for residents at the Harbour Hotel?")
    assert "£16" in _direct(outcome) and "£12" not in _direct(outcome)
    assert _used(outcome)[0].title == "hotel_changes_2026.md"
    assert any("says something different" in p for p in outcome.text.split("\n\n"))


def test_newer_modification_time_decides_when_no_document_has_a_date(folder, ask):
    old = MEALS_OLD.replace("Effective date: 1 March 2024\n\n", "")
    new = MEALS_NEW.replace("Effective date: 15 September 2025\n\n", "")
    (folder / "meals-a.md").write_text(new, encoding="utf-8")
    (folder / "meals-b.md").write_text(old, encoding="utf-8")
    os.utime(folder / "meals-a.md", (1_767_225_600, 1_767_225_600))
    os.utime(folder / "meals-b.md", (1_700_000_000, 1_700_000_000))
    outcome = ask("What is the daily meal allowance on business trips?")
    assert "55 euros" in _direct(outcome)
    assert [e.title for e in _used(outcome)] == ["meals-a.md"]


def test_unanswerable_question_has_no_used_source_and_no_strong_relevance(ask):
    outcome = ask("What is the company's parental leave policy?")
    assert _used(outcome) == []
    assert all(e.confidence is None or e.confidence < 0.75 for e in outcome.entries())
    assert outcome.grounding().grounding_mode == "general-knowledge"
    assert "found nothing" in outcome.text


def test_near_miss_question_is_not_answered_by_a_sentence_missing_its_subject(ask):
    outcome = ask("How many days of vacation do contractors get?")
    assert _used(outcome) == []


def test_paraphrase_gets_the_sentence_that_answers_it_not_an_unrelated_one(ask):
    outcome = ask("How many days off do staff get per year?")
    assert "25 days" in _direct(outcome)
    assert [e.title for e in _used(outcome)] == ["handbook.md"]


def test_relevance_labels_are_calibrated_not_a_word_share(ask):
    exact = ask("How many approvals does a production deployment need?")
    assert _used(exact)[0].confidence is not None and _used(exact)[0].confidence >= 0.75
    checked = [e.confidence for e in exact.by_usage("checked") if e.confidence is not None]
    assert all(value < _used(exact)[0].confidence for value in checked)


def test_files_attached_earlier_in_the_thread_are_searchable_later(ask, tmp_path: Path):
    notes = tmp_path / "stored-blob"
    notes.write_text("The parking garage code for visitors is 4711.\n", encoding="utf-8")
    earlier = ProviderAttachment("att_1", "visitor-notes.txt", "text/plain",
                                 notes.stat().st_size, notes)
    outcome = ask("What is the parking garage code for visitors?",
                  earlier_attachments=(earlier,))
    assert "4711" in _direct(outcome)
    assert [e.title for e in _used(outcome)] == ["visitor-notes.txt"]


def _text_pdf(text: str) -> bytes:
    """A one-page PDF whose content stream shows ``text`` in Helvetica."""
    stream = zlib.compress(f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("latin-1"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
        + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def test_pdfs_in_the_knowledge_folder_are_read_not_skipped_silently(folder, ask):
    (folder / "leave.pdf").write_bytes(_text_pdf("Parental leave lasts sixteen weeks."))
    (folder / "scan.pdf").write_bytes(_text_pdf("").replace(b"() Tj", b""))
    outcome = ask("How long does parental leave last?")
    assert "sixteen weeks" in _direct(outcome)
    assert [e.title for e in _used(outcome)] == ["leave.pdf"]
    scan = [e for e in outcome.entries() if e.title == "scan.pdf"]
    assert scan and scan[0].source_usage == "checked"
    assert scan[0].readiness_hint is not None and "text layer" in scan[0].readiness_hint


def test_word_and_html_documents_are_read(folder, ask):
    import docx

    document = docx.Document()
    document.add_heading("Bicycle policy", 1)
    document.add_paragraph("Employees can lease one bicycle every three years.")
    document.save(str(folder / "bikes.docx"))
    (folder / "lunch.html").write_text(
        "<html><head><style>p{}</style><script>var lunch = 'wrong';</script></head><body>"
        "<h1>Canteen</h1><p>The canteen serves lunch from 11:30\nto 14:00.</p></body></html>",
        encoding="utf-8")
    assert "three years" in _direct(ask("How often can employees lease a bicycle?"))
    outcome = ask("When does the canteen serve lunch?")
    assert _direct(outcome) == "The canteen serves lunch from 11:30 to 14:00."
    assert "wrong" not in outcome.text


def test_an_unreadable_attachment_is_named_with_the_reason(ask, tmp_path: Path):
    broken = tmp_path / "blob"
    broken.write_bytes(b"%PDF-1.4 this is not really a pdf")
    attachment = ProviderAttachment("att_2", "report.pdf", "application/pdf",
                                    broken.stat().st_size, broken)
    outcome = ask("What does the report say about revenue?", attachments=(attachment,))
    entry = next(e for e in outcome.entries() if e.title == "report.pdf")
    assert entry.source_usage == "checked"
    assert entry.readiness_hint is not None and "PDF" in entry.readiness_hint
    assert "report.pdf" in outcome.text


def test_hard_wrapped_plain_text_is_read_as_joined_paragraphs(folder, ask):
    (folder / "parking.txt").write_text(textwrap.fill(
        "Visitors park on level minus two of the garage and get a ticket validated at the "
        "reception before they leave.", 40) + "\n", encoding="utf-8")
    direct = _direct(ask("Where do visitors park?"))
    assert direct.startswith("Visitors park on level minus two") and direct.endswith("leave.")


PLANS_TABLE = [["Plan", "Monthly price", "Included seats", "Support response"],
               ["Starter", "19 EUR", "3", "2 business days"],
               ["Business", "79 EUR", "25", "4 hours"],
               ["Enterprise", "249 EUR", "100", "1 hour"]]


def _table_markdown(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join([lines[0], "|" + " --- |" * len(rows[0]), *lines[1:]])


def _assert_row_with_headers(outcome: Outcome, title: str) -> None:
    direct = _direct(outcome)
    assert "Business" in direct and "25" in direct
    assert "Included seats: 25" in direct  # the cited row says what its value is
    used = _used(outcome)
    assert [e.title for e in used] == [title]
    assert used[0].snippet is not None and "Included seats: 25" in used[0].snippet


def test_a_cited_markdown_table_row_carries_its_column_headers(folder, ask):
    (folder / "plans.md").write_text(
        "# Subscription plans\n\nEvery plan is billed monthly.\n\n"
        + _table_markdown(PLANS_TABLE) + "\n", encoding="utf-8")
    _assert_row_with_headers(ask("How many seats are included in the Business plan?"),
                             "plans.md")


def test_a_cited_html_table_row_carries_its_column_headers(folder, ask):
    head = "".join(f"<th>{cell}</th>" for cell in PLANS_TABLE[0])
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
                   for row in PLANS_TABLE[1:])
    (folder / "plans.html").write_text(
        f"<html><body><h1>Subscription plans</h1><p>Every plan is billed monthly.</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></body></html>",
        encoding="utf-8")
    _assert_row_with_headers(ask("How many seats are included in the Business plan?"),
                             "plans.html")


def test_a_cited_word_table_row_carries_its_column_headers(folder, ask):
    import docx

    document = docx.Document()
    document.add_heading("Subscription plans", 1)
    document.add_paragraph("Every plan is billed monthly.")
    table = document.add_table(rows=len(PLANS_TABLE), cols=len(PLANS_TABLE[0]))
    for r, row in enumerate(PLANS_TABLE):
        for c, cell in enumerate(row):
            table.cell(r, c).text = cell
    document.add_paragraph("Prices exclude VAT.")
    document.save(str(folder / "plans.docx"))
    _assert_row_with_headers(ask("How many seats are included in the Business plan?"),
                             "plans.docx")
    assert "4 hours" in _direct(ask("How fast does support respond on the Business plan?"))


def test_a_table_row_cut_into_a_later_passage_still_carries_its_headers(folder, ask):
    rows = [["Office", "Street address", "Reception phone"]] + [
        [f"Site {n}", f"{n} Harbour Road, building {n}", f"+49 30 5550{n:03d}"]
        for n in range(1, 60)]
    (folder / "offices.md").write_text("# Offices\n\n" + _table_markdown(rows) + "\n",
                                       encoding="utf-8")
    direct = _direct(ask("What is the reception phone number of Site 57?"))
    assert "Reception phone: +49 30 5550057" in direct


LIBRARY = """# Library lending rules

## Cards

A library card is free for residents of the district. Non-residents
pay 18 euros per year for a card.

## Loans

| Item type | Loan period | Renewals |
| --- | --- | --- |
| Books | 4 weeks | 3 |
| DVDs | 1 week | 1 |

Newspapers cannot be borrowed; they may only be read in the reading
room.

## Gifts for staff

Potted plants are not allowed in the building. Please do not bring
food for the staff without asking first.
"""


def test_a_negated_paraphrase_gets_the_non_resident_sentence(folder, ask):
    (folder / "library.md").write_text(LIBRARY, encoding="utf-8")
    outcome = ask("How much does a card cost for someone who does not live in the district?")
    assert "18 euros" in _direct(outcome)
    assert [e.title for e in _used(outcome)][:1] == ["library.md"]


def test_a_phrasal_verb_paraphrase_finds_the_single_verb_sentence(folder, ask):
    (folder / "library.md").write_text(LIBRARY, encoding="utf-8")
    outcome = ask("Can newspapers be taken home from the library?")
    assert "cannot be borrowed" in _direct(outcome)


def test_keeping_an_item_is_answered_by_the_loan_period_row(folder, ask):
    (folder / "library.md").write_text(LIBRARY, encoding="utf-8")
    outcome = ask("How long can I keep a DVD from the library?")
    assert "1 week" in _direct(outcome)


def test_a_permission_question_is_not_answered_by_the_next_sentence(folder, ask):
    (folder / "library.md").write_text(LIBRARY, encoding="utf-8")
    outcome = ask("Can I bring a potted plant for the library staff?")
    assert "not allowed" in _direct(outcome) and "food" not in _direct(outcome)


LEAVING = """# Leaving the company

Employees who resign give one month of notice in writing to their
manager.

Employees who are dismissed receive their final salary within five
working days, together with a written reference.
"""


def test_paraphrase_with_a_synonym_finds_the_sentence_that_uses_the_other_word(folder, ask):
    (folder / "leaving.md").write_text(LEAVING, encoding="utf-8")
    outcome = ask("When are fired employees paid their last salary?")
    assert "five working days" in _direct(outcome)
    assert "one month of notice" not in _direct(outcome)
    assert [e.title for e in _used(outcome)] == ["leaving.md"]


def test_question_the_folder_cannot_answer_stays_not_found_despite_related_words(folder, ask):
    (folder / "leaving.md").write_text(LEAVING, encoding="utf-8")
    outcome = ask("Do fired employees keep their company car?")
    assert _used(outcome) == []
    assert outcome.grounding().grounding_mode == "general-knowledge"


HOTEL = """# Harbour View Hotel: information for guests

## Arrival and departure

Rooms are ready from 15:00 on the day of arrival. Guests who arrive
before then can leave their luggage at the front desk free of charge.

Rooms must be vacated by 11:00 on the day of departure. A late
checkout until 14:00 can be booked at the front desk for 30 euros,
subject to availability.
"""


def test_a_paraphrase_is_answered_by_meaning_and_without_the_model_honestly_not(
        folder: Path, tmp_path: Path) -> None:
    (folder / "hotel-guests.md").write_text(HOTEL, encoding="utf-8")
    question = "By what time must guests leave their room on the last day of their stay?"
    provider = LocalProvider(folder, tmp_path / "data")
    try:
        outcome = run_turn(provider, request(question))
        assert _direct(outcome).startswith("Rooms must be vacated by 11:00")
        used = _used(outcome)
        assert [e.title for e in used] == ["hotel-guests.md"]
        assert used[0].confidence is not None and 0.6 <= used[0].confidence < 0.75  # partial
        unanswerable = run_turn(provider, request("How many days of vacation do contractors get?"))
        assert _used(unanswerable) == []
        provider.embeddings = SentenceEmbeddings(locate=lambda: None)  # the model is missing
        fallback = run_turn(provider, request(question))
        assert _used(fallback) == [] and "found nothing" in fallback.text
    finally:
        provider.close()


def test_the_sentence_model_loads_with_the_first_question_not_with_the_server(folder: Path,
                                                                              tmp_path: Path):
    """A server nobody asks never pays the model's memory; the first question starts it."""
    model = SentenceEmbeddings(locate=lambda: None)
    provider = LocalProvider(folder, tmp_path / "data", embeddings=model)
    try:
        assert not model.started
        run_turn(provider, request("How many vacation days do employees get?"))
        assert model.started
    finally:
        provider.close()


STABLE = """# Reitstall Birkenhof – Riding Lessons

The Birkenhof is a family-run riding stable with 14 school horses.
Riders under 14 can borrow a helmet free of charge.
"""
LAUNDRETTE = """# Waschsalon Blitzblank

Horse rugs and dog blankets may only be washed in machine no. 12.
"""


def test_a_place_the_question_names_is_not_answered_from_another_places_document(folder, ask):
    (folder / "stable.md").write_text(STABLE, encoding="utf-8")
    (folder / "laundrette.md").write_text(LAUNDRETTE, encoding="utf-8")
    outcome = ask("Can I wash my horse rug at the Birkenhof?")
    assert "machine no. 12" not in outcome.text
    assert "laundrette.md" not in [e.title for e in _used(outcome)]
    assert "machine no. 12" in _direct(ask("Can I wash my horse rug at the Blitzblank?"))
    assert "machine no. 12" in _direct(ask("Can I wash my horse rug at Sunnyside?"))


ALLOTMENT = """# Allotment garden rules

## Using the plot

At least one third of every plot must be used to grow fruit or
vegetables. Trees taller than four metres are not permitted. Garden
waste is composted on the plot; it may not be burned.
"""


def test_a_permission_question_is_answered_by_the_rule_that_refuses_it(folder, ask):
    (folder / "allotment-garden.md").write_text(ALLOTMENT, encoding="utf-8")
    outcome = ask("Can I burn leaves and branches in my allotment?")
    assert "it may not be burned" in _direct(outcome)
    assert [e.title for e in _used(outcome)] == ["allotment-garden.md"]


def test_a_permission_question_the_folder_cannot_answer_stays_not_found(folder, ask):
    (folder / "allotment-garden.md").write_text(ALLOTMENT, encoding="utf-8")
    outcome = ask("Can I rent a canoe at the allotment garden?")
    assert _used(outcome) == []


LANGUAGE_SCHOOL = """# Lingua Viva Language School

## Courses

Lingua Viva offers evening courses in English, French, Italian and
Spanish from level A1 to C1.

## Fees

An evening course of 12 lessons costs 189 euros per term. Course books
are not included and cost between 25 and 35 euros.
"""
DENTIST = """# Dental practice

## Prices

Check-ups are covered by public insurance twice a year. Professional
teeth cleaning is not covered and costs 95 euros.
"""


def test_a_price_question_is_not_answered_by_the_price_of_another_thing(folder, ask):
    (folder / "language-school.md").write_text(LANGUAGE_SCHOOL, encoding="utf-8")
    outcome = ask("How much does the official language exam cost at Lingua Viva?")
    assert _used(outcome) == []
    assert "found nothing" in outcome.text
    assert "189 euros" in _direct(ask("How much is an evening course at Lingua Viva?"))


def test_a_price_question_is_answered_by_the_same_thing_in_other_words(folder, ask):
    (folder / "dental-practice.md").write_text(DENTIST, encoding="utf-8")
    outcome = ask("How much is a dental hygiene session?")
    assert "costs 95 euros" in _direct(outcome)
    assert [e.title for e in _used(outcome)] == ["dental-practice.md"]


MUSEUM = """# Harbour Museum of Navigation

## Visit

The Harbour Museum of Navigation is in the old customs house at Pier 3.
It tells the story of the port from the first sailing ships to the
container terminal. All floors of the museum can be reached by lift.
"""


def test_a_sentence_that_names_only_the_topic_does_not_answer_what_is_asked_about_it(
        folder, ask):
    (folder / "harbour-museum.md").write_text(MUSEUM, encoding="utf-8")
    outcome = ask("Is there a café in the Harbour Museum of Navigation?")
    assert _used(outcome) == []
    assert "found nothing" in outcome.text



REGISTRATION = """# Citizens' office

## Registering an address

If you move into a flat in the city, you must register within two weeks
of moving in. Please bring your ID card and the confirmation from your
landlord.
"""


def test_reporting_a_new_address_is_answered_by_the_rule_to_register_it(folder, ask):
    (folder / "citizens-office.md").write_text(REGISTRATION, encoding="utf-8")
    outcome = ask("We moved into our new flat last Saturday. How long do we have to report "
                  "the new address?")
    assert "register within two weeks" in _direct(outcome)


RIDING = """# Birkenhof riding stable

## Safety

A riding helmet is compulsory for every rider. Riders under 14 can
borrow a helmet free of charge; adults must bring their own helmet.
"""
RINK = """# Ice rink

## Safety

Children under 12 must wear a helmet on the ice. We lend helmets to them
at the skate hire counter. Adults can borrow a helmet for 1 euro per
session.
"""


def test_a_place_named_by_what_it_is_keeps_the_answer_in_its_document(folder, ask):
    (folder / "riding-stable.md").write_text(RIDING, encoding="utf-8")
    (folder / "ice-rink.md").write_text(RINK, encoding="utf-8")
    outcome = ask("My son is 10 and we don't own a helmet. Will it cost us anything to get one "
                  "at the rink?")
    assert "riding-stable.md" not in [e.title for e in _used(outcome)]


CAMPS = """# Birkenhof riding stable

## Lessons

Children aged 6 to 11 ride our ponies in lead-rein lessons, in which an
instructor or helper leads the pony.

## Holidays

During the summer holidays, we run five-day riding camps for children
aged 8 to 14 from 9:00 to 16:00.
"""


def test_a_rule_for_the_situation_without_a_price_does_not_answer_a_price_question(
        folder, ask):
    (folder / "riding-stable.md").write_text(CAMPS, encoding="utf-8")
    outcome = ask("How much is a summer riding camp for my 8-year-old daughter?")
    assert "riding camps" not in _direct(outcome)
    assert _used(outcome) == []


BOULDERING = """# Blockhaus bouldering hall

## Prices

| Ticket | Adults | Students | Children (6 to 13) |
|---|---|---|---|
| Day ticket | 14 euros | 11 euros | 8 euros |
| 10-visit card | 125 euros | 105 euros | 70 euros |
"""


def test_a_price_table_row_answers_with_the_price_of_the_group_asked_about(folder, ask):
    (folder / "bouldering.md").write_text(BOULDERING, encoding="utf-8")
    outcome = ask("I'm a student. What does a 10-visit card at Blockhaus cost me?")
    direct = _direct(outcome)
    assert "105 euros" in direct
    assert "125 euros" not in direct and "70 euros" not in direct
    assert "125 euros" in outcome.text  # the whole row stays quoted beneath the answer
    assert [e.title for e in _used(outcome)] == ["bouldering.md"]


BOWLING = """# Pinfall Lanes

Lanes are rented by the hour for up to six players.

## Lane prices per hour

| Time slot | Monday–Thursday | Friday–Sunday |
|---|---|---|
| Day (10:00–17:00) | €20 | €26 |
| Evening (17:00–23:00) | €31 | €39 |

Shoe hire is included in every lane price.
"""


def test_a_table_row_whose_first_cell_holds_clock_times_answers_for_the_day_asked(folder, ask):
    (folder / "bowling.md").write_text(BOWLING, encoding="utf-8")
    direct = _direct(ask("How much is a lane per hour on a Saturday evening at Pinfall?"))
    assert "€39" in direct and "€31" not in direct


NURSERY = """# Acorn Tree Nursery

## Fees

A full-day place costs €620 per month. A half-day place costs €395 per month.
Lunch is included in both.
"""


def test_one_question_about_two_things_is_answered_for_each(folder, ask):
    (folder / "nursery.md").write_text(NURSERY, encoding="utf-8")
    direct = _direct(ask("What are the monthly fees for a full-day place and for a half-day "
                         "place at Acorn Tree?"))
    assert "€620" in direct and "€395" in direct


SETS = Path(__file__).resolve().parents[3] / "benchmarks" / "answers"


def test_a_newer_notice_naming_the_place_under_its_title_wins_the_conflict(tmp_path):
    """The notice names *Stadtbad Ostend* only on the line under its title, so among the
    eleventh evaluation set's documents its new price reaches the threshold only with the
    question's names counted; it must still be found as the newer rule."""
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    for source in (SETS / "heldout11" / "knowledge").iterdir():
        (knowledge / source.name).write_bytes(source.read_bytes())
    provider = LocalProvider(knowledge, tmp_path / "data")
    try:
        outcome = run_turn(provider, request(
            "How much is a 3-hour sauna ticket at Stadtbad Ostend on a Wednesday?"))
    finally:
        provider.close()
    direct = _direct(outcome)
    assert "15.50 euros" in direct and "14 euros" not in direct
    assert next(e.title for e in _used(outcome)) == "sauna_notice_2026.md"
    assert "newer document" in outcome.text  # the conflict is named


def _ask_in(tmp_path: Path, set_name: str, *questions: str, embedded: bool = False
            ) -> list[Outcome]:
    """Each of ``questions`` asked, in its own thread, of a copy of an evaluation set's folder
    whose files share one modification time (as the benchmark gives them: only the dates
    written in the documents tell old from new); ``embedded``: once the folder's sentences are
    embedded, so that sentences are also found by meaning (as for a folder indexed a while
    ago), whatever the machine's speed."""
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    for source in (SETS / set_name / "knowledge").iterdir():
        (knowledge / source.name).write_bytes(source.read_bytes())
        os.utime(knowledge / source.name, (1_767_225_600, 1_767_225_600))
    provider = LocalProvider(knowledge, tmp_path / "data")
    try:
        if embedded:
            provider.answer(request("What is in the folder?"))  # builds the index, embeds it
            assert provider.vectors is not None and provider.vectors.wait(120)
        return [run_turn(provider, request(question)) for question in questions]
    finally:
        provider.close()


def test_a_sentence_that_clearly_leads_answers_below_the_threshold(tmp_path):
    """*access badge* is *key card* in the terms: the price sentence covers the question only
    about half, but every other sentence of the folder covers it less than half as well."""
    (outcome,) = _ask_in(tmp_path, "heldout2",
                         "What does it cost to replace a lost access badge at the coworking space?")
    assert "25 euros" in _direct(outcome)
    assert next(e.title for e in _used(outcome)) == "coworking-membership.txt"


def test_a_notices_sentence_about_the_rule_before_the_change_does_not_answer_for_now(tmp_path):
    """The notice says *Until now, guests had to leave their pitch by 11:00* before the new
    rule; a question about now gets the new rule, a question about the past the old one."""
    now, before = _ask_in(
        tmp_path, "heldout12",
        "By what time do we have to be off our pitch at Birkensee on the day we leave?",
        "Until now, by what time did guests have to leave their pitch at Birkensee?")
    assert "12:00" in _direct(now) and "11:00" not in _direct(now)
    assert "11:00" in _direct(before)


def test_a_question_about_something_also_offered_needs_a_sentence_that_names_it(tmp_path):
    """*Driving lessons are invoiced every month* is similar to the question whatever the answer:
    without *motorcycle* (or a synonym) it cannot say whether motorcycle lessons are offered."""
    offered, tours = _ask_in(tmp_path, "heldout12",
                             "Does Kernberg Driving School also offer motorcycle lessons?",
                             "Does the Riverside choir ever go on concert tours abroad?")
    assert _used(offered) == [] and "found nothing" in offered.text
    assert _used(tours) == []


def test_a_request_of_ones_own_with_also_may_be_answered_in_other_words(tmp_path):
    (outcome,) = _ask_in(tmp_path, "heldout11",
                         "Could we also get the unedited original photos straight from the camera?")
    assert "not handed out" in _direct(outcome)


def test_everyday_words_for_a_policys_terms_find_its_sentence(tmp_path):
    """*text message codes* are the policy's *SMS codes*, and food *within the country* is its
    *domestic* per diem."""
    sms, food = _ask_in(
        tmp_path, "heldout15",
        "Can I use text message codes as my second factor for GitHub?",
        "How much do I get per day for food when I travel within the country?")
    assert "not accepted" in _direct(sms)
    assert "45 euros" in _direct(food) and "70 euros" not in _direct(food)



def test_a_rule_that_holds_only_under_its_condition_answers_whether_it_applies(tmp_path):
    (outcome,) = _ask_in(
        tmp_path, "heldout15",
        "Do we have to write a postmortem for a SEV2 that was fixed within an hour?")
    assert "longer than 4 hours" in _direct(outcome) and "SEV1" not in _direct(outcome)


def test_a_part_without_a_clear_lead_is_answered_by_the_second_reading(tmp_path):
    """Read with the question, *Members can bring a guest; the guest fee is 10 euros per hour*
    answers for a friend who is not in the club, where the words alone chose the court rent of
    non-members who play without a member."""
    (outcome,) = _ask_in(
        tmp_path, "heldout13",
        "A friend of mine isn't in the tennis club but would like to play a match with me. "
        "What does she have to pay?")
    assert "10 euros per hour" in _direct(outcome) and "20 euros" not in _direct(outcome)
    quote = next(b for b in outcome.text.split("\n\n") if b.startswith("**tennis"))
    assert "guest fee" in quote  # quoted at the sentence that answers, not the best by words


def test_a_sentence_only_the_meaning_finds_is_no_answer_when_the_reader_doubts_it(tmp_path):
    """The shop sells no reptiles: by meaning alone, *Freshwater fish are settled in our tanks for
    at least 5 days before sale* came near enough to answer; read with the question, it does
    not answer it, so the folder's answer is an honest "not found"."""
    (outcome,) = _ask_in(tmp_path, "heldout28",
                         "Does Blue Reef Aquatics sell tortoises or other reptiles?")
    assert _used(outcome) == []
    assert "Freshwater fish" not in _direct(outcome)


def test_a_second_thing_asked_about_is_priced_by_the_rule_for_extra_ones(tmp_path):
    """*How much is that each year?* asks a price, so the brown bin's collection days are no
    answer; a *second* bin is an *extra* one, not the *first*."""
    (bin_price, car) = _ask_in(
        tmp_path, "heldout56",
        "We want a second brown bin for garden waste. How much is that each year?",
        "We already have one residents' permit and just bought a second car. What's the extra "
        "on top of the normal price for the second one?")
    assert "£40 a year" in _direct(bin_price) and "£55" not in _direct(bin_price)
    assert "£45" in _direct(car) and "£90" not in _direct(car)


def test_an_income_in_millions_is_held_against_bands_in_millions(tmp_path):
    (outcome,) = _ask_in(tmp_path, "heldout58",
                         "We're a registered charity with an income of about £2.3 million a "
                         "year. How much off would we get?")
    assert "20% off" in _direct(outcome) and "50% off" not in _direct(outcome)


def test_a_price_only_the_meaning_finds_is_no_answer_when_the_reader_doubts_it(tmp_path):
    """The hospital's pages say nothing of bedside TVs: by meaning alone, the car park's weekly
    ticket came near enough to answer what renting one costs; read with the question, it does
    not answer it."""
    (outcome,) = _ask_in(tmp_path, "heldout59",
                         "How much does it cost to rent the bedside TV at Marrowfield General?")
    assert _used(outcome) == []
    assert "Weekly ticket" not in _direct(outcome)


def test_the_clause_for_the_plan_asked_about_is_the_answer(tmp_path):
    """*On Team, … up to 4 times …; on Business there is no limit*: a Team customer reads the
    Team clause only (found by meaning: its words share only *Team* with the question)."""
    (outcome,) = _ask_in(tmp_path, "heldout58",
                         "We're on Team and keep one seat for temps. This year it's already been "
                         "handed to a fifth different person. Is that allowed?", embedded=True)
    assert "up to 4 times" in _direct(outcome) and "no limit" not in _direct(outcome)


ROWING_CLUB = """# Lakeside Rowing Club: Guide for Members

Last updated: 15 January 2025

## Membership fees

Youth members aged 12 to 17 pay an annual fee of 90 euros. Adults pay an
annual fee of 240 euros.
"""
RAILWAY_CLUB = """# Eastfield Model Railway Club

Last updated: 1 January 2026

## Membership fees

Youth members aged 12 to 17 pay an annual fee of 30 euros. Adults pay an
annual fee of 60 euros.
"""


def test_another_clubs_newer_fee_is_no_conflict_and_does_not_answer(folder, ask):
    """Two documents with the same kind of rule are not versions of one another when they are
    about different things: the railway club's 2026 fee does not correct the rowing club's."""
    (folder / "rowing_club.md").write_text(ROWING_CLUB, encoding="utf-8")
    (folder / "model_railway_club.md").write_text(RAILWAY_CLUB, encoding="utf-8")
    for name in ("rowing_club.md", "model_railway_club.md"):
        os.utime(folder / name, (1_767_225_600, 1_767_225_600))
    outcome = ask("My son is 13. What is the annual fee for youth members?")
    assert "says something different" not in outcome.text
    answered = _used(outcome)[0].title
    assert ("90 euros" if answered == "rowing_club.md" else "30 euros") in _direct(outcome)


def test_a_clubs_own_newer_notice_still_corrects_its_guide(folder, ask):
    (folder / "rowing_club.md").write_text(ROWING_CLUB, encoding="utf-8")
    notice = RAILWAY_CLUB.replace("Eastfield Model Railway Club", "Lakeside Rowing Club: Notice")
    (folder / "rowing_club_notice_2026.md").write_text(notice, encoding="utf-8")
    for name in ("rowing_club.md", "rowing_club_notice_2026.md"):
        os.utime(folder / name, (1_767_225_600, 1_767_225_600))
    outcome = ask("What is the annual fee for youth members at the rowing club?")
    assert "30 euros" in _direct(outcome)
    notes = [p for p in outcome.text.split("\n\n") if "says something different" in p]
    assert len(notes) == 1 and "rowing\\_club.md (15 January 2025)" in notes[0]


COWORKING = """# Hive Coworking: Membership and House Rules

## Guests

Members may bring up to 2 guests per day free of charge. Every guest must
be signed in at reception. Further guests pay the day pass price of €25.

## Mail and parcels

Resident members may use Hive as their registered business address.
"""


def test_a_permission_for_the_verb_alone_does_not_answer_for_another_thing(folder, ask):
    """*Can I bring my dog?* shares only its verb with *Members may bring up to 2 guests*: the
    reader doubts that rule for a dog, and the folder says nothing about dogs."""
    (folder / "coworking-membership.md").write_text(COWORKING, encoding="utf-8")
    outcome = ask("Can I bring my dog to work with me at Hive Coworking?")
    assert _used(outcome) == []
    assert outcome.text.startswith("I found nothing")


PET_SHOP = """# Crofton Pet Supplies: Delivery and Returns

## Delivery

- **Standard delivery** (3 to 5 working days): £4.25, or free on orders
  of £50 or more.
- **Next-day delivery**: £6.95 on any order.

## Returns

Unopened items can be sent back within 30 days. Return postage is free
for orders over £50; on smaller orders we take £3.00 off your refund.

## Expenses for staff

Shop managers can approve expense claims up to £200.

## Receipts

- Receipts are required for every expense claim over £15.
- Claims must reach the office by the 5th of the next month.
"""


def test_a_yes_or_no_question_about_an_amount_is_answered_by_the_rules_bound(folder, ask):
    """*Will my £35 order get free standard delivery?* fails the bound of *free on orders of
    £50 or more*: that bound is the answer, not the return-postage rule whose *smaller orders*
    clause holds for £35."""
    (folder / "crofton.md").write_text(PET_SHOP, encoding="utf-8")
    outcome = ask("Will my £35 order from Crofton Pet Supplies get free standard delivery?")
    assert "£50 or more" in _direct(outcome) and "Return postage" not in _direct(outcome)
    receipt = ask("Do I need a receipt to claim a £6 taxi fare on Crofton expenses?")
    assert "over £15" in _direct(receipt)


VETS = """# Elmcroft Vets: Fees

## Consultations

| Appointment | Cats and dogs | Rabbits and small pets | Care Plan members |
|---|---|---|---|
| Standard consultation | £52.00 | £44.00 | Included |
| Extended consultation | £84.00 | £71.00 | £42.00 |

## Paying your bill

Payment is due at the end of each appointment. Care Plan members with
a bill over £300 can spread the cost over three monthly payments. For
other clients the threshold is £700, and a £20 fee applies.
"""


def test_someone_not_on_a_plan_gets_the_price_and_rule_for_everyone_else(folder, ask):
    """*We're not on the Care Plan* names the outsiders: the members' cell and the members'
    rule are another group's."""
    (folder / "vets.md").write_text(VETS, encoding="utf-8")
    price = ask("How much is an extended consultation for a rabbit at Elmcroft Vets if we're not "
                "on the Care Plan?")
    assert "£71.00" in _direct(price) and "£42.00" not in _direct(price)
    instalments = ask("I'm not on the Care Plan and my bill at Elmcroft Vets is £500. Can I pay "
                      "it in monthly instalments?")
    assert "£700" in _direct(instalments)


KENNELS_2025 = """# Oakridge Kennels: Booking Terms 2025

## Opening hours

From Monday to Saturday you can drop off or collect between 8:00 and
11:00. On Sundays we are open for collecting dogs only, from 15:00 to
16:30.
"""
KENNELS_2026 = """# Oakridge Kennels: Changes from 1 April 2026

This notice updates our Booking Terms 2025 for every stay from 1 April
2026.

## What is changing

Two things change: the deposit and our Sunday hours for collection.

### Sunday collection

On Sundays, collection is now between 13:00 and 14:00.
"""


def test_a_notice_stating_the_new_value_with_now_corrects_the_older_terms(folder, ask):
    (folder / "oakridge-terms-2025.md").write_text(KENNELS_2025, encoding="utf-8")
    (folder / "oakridge-changes-2026.md").write_text(KENNELS_2026, encoding="utf-8")
    for name in ("oakridge-terms-2025.md", "oakridge-changes-2026.md"):
        os.utime(folder / name, (1_767_225_600, 1_767_225_600))
    outcome = ask("What times can I collect my dog from Oakridge on a Sunday?")
    assert "13:00 and 14:00" in _direct(outcome)
    assert "says something different" in outcome.text



PUPPY_SCHOOL = """# Hollybank Puppy School

## Our courses

Hollybank Puppy School runs small, reward-based training classes in the
village hall on Tuesday and Thursday evenings.

## Prices

A six-week puppy course costs £90. Do I have to bring treats? You do:
bring soft treats cut small.
"""


def test_whether_a_thing_is_offered_is_not_answered_by_a_document_that_never_names_it(
        folder, ask):
    """*Does Hollybank run agility classes?* shares *runs … training classes* with the school's
    page, which never names agility: nothing answers it."""
    (folder / "puppy-school.md").write_text(PUPPY_SCHOOL, encoding="utf-8")
    outcome = ask("Does Hollybank Puppy School run agility classes?")
    assert _used(outcome) == [] and outcome.text.startswith("I found nothing")
    offered = ask("Does Hollybank Puppy School run training classes?")
    assert "reward-based training classes" in _direct(offered)
    obliged = ask("Do I have to bring treats to Hollybank Puppy School?")
    assert "soft treats" in _direct(obliged)


TRAVEL_CLINIC = """# Millbrook Pharmacy travel clinic

## Vaccines

Our travel clinic gives hepatitis A and typhoid vaccines by appointment.
Each vaccine costs £45 per dose, and a consultation is free.
"""


def test_whether_a_clinic_gives_a_vaccine_it_never_names_is_not_answered(folder, ask):
    """*Does … give the rabies vaccine?* asks whether it is offered, as *offer* does: the
    clinic's page, which names other vaccines, does not answer it."""
    (folder / "travel-clinic.md").write_text(TRAVEL_CLINIC, encoding="utf-8")
    outcome = ask("Does the Millbrook Pharmacy travel clinic give the rabies vaccine?")
    assert _used(outcome) == [] and outcome.text.startswith("I found nothing")
    typhoid = ask("Does the Millbrook Pharmacy travel clinic give the typhoid vaccine?")
    assert "hepatitis A and typhoid vaccines" in _direct(typhoid)


MUSIC_SCHOOL = """# Brookside Music School

## Instrument hire

Beginners can hire violins and violas for £11 per month and cellos for
£17 per month.
"""


def test_the_price_of_hiring_a_thing_the_document_never_names_is_not_found(folder, ask):
    (folder / "music-school.md").write_text(MUSIC_SCHOOL, encoding="utf-8")
    outcome = ask("How much does it cost to hire a trumpet from Brookside Music School?")
    assert _used(outcome) == [] and outcome.text.startswith("I found nothing")
    cello = ask("How much does it cost to hire a cello from Brookside Music School?")
    assert "£17 per month" in _direct(cello)
    charged = ask("How much does Brookside Music School charge to hire saxophones?")
    assert _used(charged) == [] and charged.text.startswith("I found nothing")
    violas = ask("How much does Brookside Music School charge to hire violas?")
    assert "£11 per month" in _direct(violas)


BANK_FEES = """# Linnet Bank: Account Fees

## Everyday Account

The monthly fee for the Everyday Account is 5.00 euros, which you pay on
the first day of each month. We waive the monthly fee in any month in
which at least 1,500 euros is paid into the account.
"""


def test_a_second_part_whose_nearest_sentence_answers_the_first_reads_its_own_words(folder, ask):
    """*…, and can I get out of paying it?* leans on the first part's *monthly fee*, so its
    nearest sentence is the price already said; its own words find the waiver."""
    (folder / "bank-fees.md").write_text(BANK_FEES, encoding="utf-8")
    outcome = ask("How much is the monthly fee on the Everyday Account, and can I get out of "
                  "paying it?")
    assert "5.00 euros" in _direct(outcome)
    assert "1,500 euros is paid" in _direct(outcome)


PARISH_HALL = """# Netherby Parish Hall: Booking Terms

## Bookings

Every booking must be confirmed in writing. You must pay the deposit
within 14 days of booking. If you do not, the hall may be offered to
someone else. Keys are collected from the caretaker on the day.
"""


def test_what_happens_if_the_asker_does_not_is_the_sentence_after_the_rule(folder, ask):
    """*…, and what happens if I don't?* leans on the rule the first part is answered with; the
    sentence right after it that opens *If you do not* states what follows, though it shares
    none of the question's words."""
    (folder / "parish-hall.md").write_text(PARISH_HALL, encoding="utf-8")
    outcome = ask("How long do I have to pay the deposit for Netherby Parish Hall, and what "
                  "happens if I don't?")
    assert "within 14 days of booking" in _direct(outcome)
    assert "offered to someone else" in _direct(outcome)


WARMTH_FUND = """# Kestrelmoor Gas: Discounts and Payments

## Winter discount

Customers receiving Pension Credit can claim a £140 winter discount,
paid between November and February.

## Paying your bill

You can pay by Direct Debit, by card or at a post office.
"""


def test_whether_there_is_any_help_with_a_thing_asks_about_the_thing_not_the_help(folder, ask):
    """*Is there any help with winter bills?* asks about winter bills: a page that never says
    *help* but names a winter discount answers it."""
    (folder / "discounts.md").write_text(WARMTH_FUND, encoding="utf-8")
    outcome = ask("I get Pension Credit. Is there any help with winter bills from Kestrelmoor "
                  "Gas?")
    assert "£140 winter discount" in _direct(outcome)


CRECHE = """# Poppyfield Crèche: Fees

| Age group | Full day | Half day |
|---|---|---|
| Babies (under 2) | £81.00 | £47.00 |
| Toddlers (2 years) | £74.00 | £43.00 |
| Pre-school (3 and 4 years) | £68.00 | £39.00 |
"""


def test_an_age_group_named_with_its_ages_answers_for_a_child_of_that_age(folder, ask):
    """*Toddlers (2 years)* is the row for a two-year-old, *Babies (under 2)* is not."""
    (folder / "creche.md").write_text(CRECHE, encoding="utf-8")
    outcome = ask("How much is a full day at Poppyfield Crèche for my two-year-old?")
    assert "£74.00" in _direct(outcome) and "£81.00" not in _direct(outcome)
    older = ask("What does a full day at Poppyfield Crèche cost for my daughter, she's 4?")
    assert "£68.00" in _direct(older) and "£81.00" not in _direct(older)


UNIFORM_GRANT = """# Marlow Grange School: Uniform

## Help with the cost of uniform

Families who receive free school meals can apply for a uniform grant of
£90 for a pupil starting in Year 7. Pupils who join the school in any
other year group can apply for £45.
"""


def test_a_rule_for_any_other_year_group_answers_a_pupil_joining_later(folder, ask):
    """*… any other year group* is the other side of the Year 7 rule: it is the rule for a
    pupil joining in Year 9."""
    (folder / "uniform.md").write_text(UNIFORM_GRANT, encoding="utf-8")
    outcome = ask("We get free school meals and my son is moving to Marlow Grange School in "
                  "Year 9. How much uniform grant can we apply for?")
    assert "£45" in _direct(outcome) and "£90" not in _direct(outcome)


FIBRE_TERMS = """# Ashwick Fibre: Contract Terms

## Prices

Monthly prices on 24-month contracts rise by a fixed £3 every April.
Prices on 12-month contracts are fixed for the full 12 months.

## Upgrades

On a 24-month contract you can upgrade after 18 monthly payments. On a
36-month contract you can upgrade after 27 monthly payments.
"""


def test_a_contract_named_by_its_length_answers_for_that_length(folder, ask):
    """*My one-year contract* is the *12-month contract*, *a three-year contract* the
    *36-month* one: the rule for another length is its near miss."""
    (folder / "fibre-terms.md").write_text(FIBRE_TERMS, encoding="utf-8")
    outcome = ask("Will the monthly price of my one-year Ashwick Fibre contract rise in "
                  "April?")
    assert "fixed for the full 12 months" in _direct(outcome)
    assert "£3 every April" not in _direct(outcome)
    upgrade = ask("I'm on a three-year Ashwick Fibre contract. How many payments before I can "
                  "upgrade?")
    assert "27 monthly payments" in _direct(upgrade)
    assert "18 monthly payments" not in _direct(upgrade)


COURT_RULES = """# Ashbury Lawn Tennis Club: Court Rules

## On the courts

Only tennis shoes with clay-court soles may be worn on the courts.
After playing, you must drag the court with the net and sweep the lines.
Members may book a court up to 7 days ahead.

## Guests

A guest pays 8 euros per hour and must play with a member.
"""


def test_a_later_part_is_answered_by_the_sentence_next_to_the_earlier_answer(folder, ask):
    """*…, and what do I have to do with the court when we're done?* shares few words with
    *After playing, you must drag the court*, which stands right after the shoes rule that
    answers the first part: the parts of one question ask about one subject."""
    (folder / "court-rules.md").write_text(COURT_RULES, encoding="utf-8")
    outcome = ask("I've never played on clay. What shoes do I need, and what do I have to do "
                  "with the court when we're done?")
    assert "clay-court soles" in _direct(outcome)
    assert "drag the court" in _direct(outcome)



FAMILY_LEAVE = """# Kestrelmere Housing Trust: Family Leave Policy

## Maternity and adoption leave

All employees can take up to 52 weeks of maternity or adoption leave,
whatever their length of service. Tell the People Team by the end of the
15th week before the week your baby is due.

Kestrelmere maternity and adoption pay depends on your service:

- With at least one year's service by the due date: 18 weeks at full
  pay, then 21 weeks at the statutory rate.
- With less than one year's service: statutory pay only, for 39 weeks.

## Paternity leave

Partners can take 2 weeks of paternity leave at full pay.
"""


def test_a_list_is_answered_by_its_item_not_by_the_sentence_that_introduces_it(folder,
                                                                               tmp_path):
    """*… pay depends on your service:* states no pay at all: the item for eight months'
    service (*less than one year's service*) answers (the lead-in is found by meaning, once the
    folder is embedded)."""
    (folder / "family-leave.md").write_text(FAMILY_LEAVE, encoding="utf-8")
    provider = LocalProvider(folder, tmp_path / "data")
    try:
        provider.answer(request("What is in the folder?"))  # builds the index, starts embedding
        assert provider.vectors is not None and provider.vectors.wait(120)
        outcome = run_turn(provider, request(
            "I joined Kestrelmere Housing Trust eight months ago and I'm expecting a baby. What "
            "money will I get while I'm off?"))
    finally:
        provider.close()
    assert "statutory pay only" in _direct(outcome)


OVERTIME_2025 = """# Larkspur Cold Storage: Overtime Rules 2025

Published 3 March 2025.

| When the overtime is worked | Rate |
|---|---|
| Monday to Friday, after 40 hours | Time and a quarter |
| Saturday | Time and a half |
| Sunday | Double time |
"""
OVERTIME_2026 = """# Larkspur Cold Storage: Changes to Overtime from 2026

Published 12 January 2026.

The night shift allowance rises from £1.10 to £1.40 an hour from 1 February 2026.
The overtime rates for weekdays, Saturdays, Sundays and bank holidays are unchanged.
"""


def test_a_newer_notice_that_leaves_a_rule_unchanged_does_not_replace_it(folder, ask):
    """*The overtime rates … are unchanged* states no rate: the older rules still answer."""
    (folder / "larkspur-cold-storage-overtime-2025.md").write_text(OVERTIME_2025,
                                                                   encoding="utf-8")
    (folder / "larkspur-cold-storage-changes-2026.md").write_text(OVERTIME_2026,
                                                                  encoding="utf-8")
    outcome = ask("If I work extra hours on a Sunday at Larkspur Cold Storage, how is that "
                  "overtime paid?")
    assert "Double time" in _direct(outcome)


COACH_RULES = """# Kestrelmoor Coaches: conditions of carriage

## Children and young people

Children under 14 must travel with an adult aged 18 or over. Young people
aged 14 and 15 may travel alone on daytime services if a parent or
guardian completes the unaccompanied travel form when booking. They may
not travel alone on any service departing after 21:00.

## Luggage

Each passenger may bring one suitcase and one small bag.
"""


def test_a_sentence_that_goes_on_from_the_answer_by_a_pronoun_is_quoted_with_it(folder, ask):
    """*They may not travel alone … after 21:00* says who *they* are only through the sentence
    before it, which alone is half the answer for a 15-year-old on the 22:15 coach."""
    direct = _answer_from(folder, ask, "coach-conditions.md", COACH_RULES,
                          "My 15-year-old wants to take the 22:15 Kestrelmoor Coaches service "
                          "on his own. Is that allowed?")
    assert "aged 14 and 15 may travel alone" in direct
    assert "They may not travel alone on any service departing after 21:00" in direct
    assert "suitcase" not in direct


BIKE_CELLAR = """# Harbour Court: the bike cellar

Each flat may keep up to two adult bicycles in the cellar. If your
household needs space for a third adult bike, you can rent an extra rack
space for 6 euros a month from the management office, subject to
availability.

The cellar is covered by CCTV, but the management is not liable for
theft, so please lock your bike to the rack with a good lock. A free
repair stand with tools and a pump is located next to the lift.
"""


def test_a_later_part_is_answered_where_its_own_words_stand_in_the_answering_document(
        folder, ask):
    """*… and where can I find a pump?* borrows *extra rack space for a third bike* from the
    first part, which kept *A free repair stand with tools and a pump …* below the threshold."""
    direct = _answer_from(folder, ask, "bike-cellar.md", BIKE_CELLAR,
                          "How much is an extra rack space for a third bike, and where can I "
                          "find a pump?")
    assert "6 euros a month" in direct
    assert "next to the lift" in direct



VOLUNTEERS = """# Volunteering at Larchfield Valley Railway

Larchfield Valley Railway

This page explains how to become a volunteer on the railway and what we
ask of our volunteers.

Volunteers must be aged 16 or over. Every new volunteer attends a
half-day safety briefing before their first turn on the platform.
"""


TICKETS = """# Tickets on Larchfield Valley Railway

Larchfield Valley Railway

Buy your ticket at a staffed station before you board, or from the
conductor on the train if the station is unstaffed. Railcards can be
used on every service.
"""


def test_a_masthead_or_a_page_about_itself_is_no_answer(folder, ask):
    """The line under each title names the railway the question names, and the page's words about
    itself share *volunteer*; neither says whether one can volunteer."""
    (folder / "volunteering.md").write_text(VOLUNTEERS, encoding="utf-8")
    (folder / "tickets.md").write_text(TICKETS, encoding="utf-8")
    direct = _direct(ask("Can I work as a volunteer with Larchfield Valley Railway?"))
    assert direct.rstrip(".") != "Larchfield Valley Railway"
    assert not direct.startswith("This page explains")
    assert "Larchfield Valley Railway" in _direct(ask("Where is Larchfield Valley Railway?"))


RENTAL_FUEL = """# Ashgrove Car Rental: terms

## Fuel and charging

- Petrol and diesel cars are handed over full and must be returned full.
  If you return a car with less fuel, we charge £2.10 per litre plus a
  £12 refuelling fee.
- Electric cars are handed over with at least 85% charge. Return them
  with at least 60% charge, or pay a £20 charging fee.

## Mileage

Rentals of 3 days or more include unlimited mileage.
"""


def test_a_sentence_that_opens_with_a_pronoun_is_read_after_the_one_it_leans_on(folder, ask):
    """*Return them with at least 60% charge …* says what is charged for an electric car only
    after the sentence before it: read alone, *them* could be anything, and no sentence was
    found to answer."""
    direct = _answer_from(folder, ask, "rental-terms.md", RENTAL_FUEL,
                          "What does Ashgrove Car Rental charge if I bring an electric car back "
                          "with the battery too low?")
    assert "£20 charging fee" in direct
    assert "£12 refuelling fee" not in direct


FERRY = """# Calder Sound ferry timetable

Monday to Friday: ferries leave Port Ellis every 40 minutes from 06:10.
The last ferry back from Kilmory leaves at 21:30.

Sunday: ferries leave Port Ellis every hour from 08:00. The last ferry
back from Kilmory leaves at 18:45.

Cars must be in the boarding lane 10 minutes before departure.
"""


def test_a_line_that_opens_with_a_label_states_the_case_of_all_its_sentences(folder, ask):
    """*Sunday:* rules the whole line, so its second sentence is the last Sunday ferry; read
    without the label, the line's first sentence (which names Sunday) was chosen."""
    direct = _answer_from(folder, ask, "ferry.md", FERRY,
                          "What time does the last Sunday ferry back from Kilmory leave?")
    assert "18:45" in direct
    assert "21:30" not in direct


LETTINGS = """# Brookhaven Lettings: repairs and keys

Report a blocked drain within 24 hours. If you are locked out during
office hours, our locksmith charges £80. Outside office hours, a
lockout call-out costs £150. Replacement keys cost £12 each.
"""


def test_a_night_or_a_sunday_is_outside_office_hours(folder, ask):
    """*late on a Saturday night* names no office hours, but offices are shut then: the
    out-of-hours price answers, not the one that shares *locked out* and *locksmith*."""
    direct = _answer_from(folder, ask, "lettings.md", LETTINGS,
                          "I locked myself out of my Brookhaven Lettings flat late on a Saturday "
                          "night. What will the locksmith cost me?")
    assert "£150" in direct and "£80" not in direct



def test_a_second_part_about_a_thing_never_named_is_not_answered_either(tmp_path):
    """The driving school's document never names motorcycles, so *how much do they cost?* asks
    the price of something it does not offer: its car lesson prices are no answer. A second part
    about a thing the document does name is answered as before."""
    offered, named = _ask_in(
        tmp_path, "heldout12",
        "Does Kernberg Driving School also offer motorcycle lessons, and how much do they cost?",
        "Does Kernberg Driving School offer motorway lessons, and how much do they cost?")
    assert _used(offered) == [] and "found nothing" in offered.text
    assert "euros" not in offered.text
    assert "82 euros" in _direct(named)
