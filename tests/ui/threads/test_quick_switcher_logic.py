"""Fuzzy matching of thread titles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.ui.threads.quick_switcher_logic import fuzzy_match, rank


def test_in_order_subsequence_matches_and_out_of_order_does_not() -> None:
    assert fuzzy_match("bdg", "Budget review") is not None
    assert fuzzy_match("gdb", "Budget review") is None
    assert fuzzy_match("BUDGET", "budget review") is not None
    assert fuzzy_match("bud rev", "Budget review") is not None  # spaces ignored


def test_word_starts_and_runs_beat_scattered_matches() -> None:
    ranked = rank("br", ["Fabric", "Budget review", "bright"], lambda t: t)
    assert [t for t, _ in ranked] == ["bright", "Budget review", "Fabric"]
    ranked = rank("rev", ["Server events", "Budget review"], lambda t: t)
    assert [t for t, _ in ranked] == ["Budget review", "Server events"]
    assert rank("plan", ["Q3 plan", "Planning"], lambda t: t)[0][0] == "Planning"


def test_empty_query_keeps_the_given_order_and_limit_applies() -> None:
    titles = ["c", "a", "b"]
    assert [t for t, _ in rank("", titles, lambda t: t)] == titles
    assert [t for t, _ in rank("", titles, lambda t: t, limit=2)] == ["c", "a"]


def test_ties_prefer_shorter_titles_then_given_order() -> None:
    ranked = rank("notes", ["notes archive", "notes", "notes 2"], lambda t: t)
    assert [t for t, _ in ranked] == ["notes", "notes 2", "notes archive"]


@given(st.text(max_size=40), st.text(max_size=8))
def test_match_positions_spell_the_query_in_order(title: str, query: str) -> None:
    found = fuzzy_match(query, title)
    needle = "".join(query.split()).casefold()
    if found is None:
        return
    assert list(found.positions) == sorted(set(found.positions))
    folded = title.casefold() if len(title.casefold()) == len(title) else title.lower()
    assert "".join(folded[i] for i in found.positions) == needle


@given(st.text(max_size=30))
def test_a_title_always_matches_itself(title: str) -> None:
    if len(title.casefold()) == len(title):
        assert fuzzy_match(title, title) is not None


def test_switcher_entries_order_by_last_activity_mark_the_current_and_preview() -> None:
    from composer_app.sync.store import MessageRow, ThreadRow
    from composer_app.ui.threads.quick_switcher_logic import first_line, switcher_entries

    rows = [ThreadRow("t_old", "Old", updated_at="2026-01-02T10:00:00Z"),
            ThreadRow("t_mid", "Mid", updated_at="2026-01-03T10:00:00Z"),
            ThreadRow("t_new", None, updated_at=None)]
    last = {"t_old": MessageRow("m1", "t_old", "user",
                                "\n# Look at [spec.md](t3-context://v1/file/ctx_1) now\nmore",
                                created_at="2026-01-04T09:00:00+00:00")}
    entries = switcher_entries(rows, last, "t_mid", lambda r: r.title or "New thread")
    assert [e.thread_id for e in entries] == ["t_new", "t_old", "t_mid"]
    assert [e.current for e in entries] == [False, False, True]
    assert entries[1].preview == "Look at spec.md now"
    assert entries[1].activity == "2026-01-04T09:00:00+00:00"
    assert entries[2].preview == ""
    assert first_line("x" * 200, 10) == "x" * 9 + "\u2026"
