"""The OpenAI-compatible provider's reference material: skills in the instructions, file and
thread text within the 200 KB budget, the rest named with a Coverage hint."""

from __future__ import annotations

from composer_app.server.providers.base import TurnRequest
from composer_app.server.providers.openai import build_messages
from composer_app.server.providers.reference_material import ReferenceMaterial
from composer_app.server.providers.reference_prompt import (
    TEXT_BUDGET_BYTES,
    with_reference_entries,
)


def mention(context_id: str, path: str, text: str | None) -> ReferenceMaterial:
    return ReferenceMaterial(context_id, "mention", path, f"ws:{path}", "connector-file",
                             "Workspace", text=text, file_id=f"workspace:{path}")


def skill(name: str, body: str | None) -> ReferenceMaterial:
    return ReferenceMaterial(f"s-{name}", "skill", name, f"skill:{name}", "item", "Skill",
                             instructions=body)


def request(*references: ReferenceMaterial) -> TurnRequest:
    return TurnRequest("thr", "turn", "msg", "question", "Be brief.", references=references)


def test_skills_join_the_system_instructions_and_files_the_user_content() -> None:
    messages = build_messages(request(skill("review", "Check every error path."),
                                      mention("m1", "src/app.py", "print('hi')")))
    assert "Skill review (follow these instructions):\nCheck every error path." in (
        messages[0]["content"])
    texts = [part["text"] for part in messages[-1]["content"]]
    assert texts[0] == "question"
    assert "Workspace file src/app.py:\nprint('hi')" in texts


def test_files_past_the_budget_are_named_and_get_a_coverage_hint() -> None:
    big = "x" * (TEXT_BUDGET_BYTES - 1000)
    refs = (mention("m1", "a.txt", big), mention("m2", "b.txt", "y" * 5000),
            mention("m3", "c.txt", "small"))
    texts = [part["text"] for part in build_messages(request(*refs))[-1]["content"]]
    assert any(t.startswith("Workspace file a.txt") for t in texts)
    assert any(t.startswith("Workspace file c.txt") for t in texts)
    assert not any(t.startswith("Workspace file b.txt") for t in texts)
    assert sum(len(t.encode()) for t in texts[1:-1]) <= TEXT_BUDGET_BYTES
    assert "b.txt" in texts[-1]
    sources = with_reference_entries(None, refs)
    assert [(e["title"], e["sourceUsage"]) for e in sources["entries"]] == [("b.txt", "checked")]
    assert "200 KB" in sources["entries"][0]["readinessHint"]


def test_unknown_skills_are_reported_in_sources() -> None:
    sources = with_reference_entries({"version": 1, "entries": []}, (skill("ghost", None),))
    assert [e["title"] for e in sources["entries"]] == ["ghost"]
