"""The offline retrieval assistant over real files, context records and attachments."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from composer_app.core.codecs.projection import (
    ATTACHMENT_ONLY_BOOTSTRAP_PROMPT,
    project_for_provider,
)
from composer_app.core.codecs.references import format_reference
from composer_app.core.codecs.sources_blocks import enumerate_blocks
from composer_app.core.contracts.records import decode_record
from composer_app.server.providers.base import ProviderAttachment
from composer_app.server.providers.local import LocalProvider
from tests.server.providers.support import request, run_turn, run_turn_in_tasks

DEPLOY_MD = """# Deployment

## Staging

The staging server listens on port 8443 and restarts every night at 02:00 UTC.
Deploys go through the release pipeline.

## Production

Production runs in three regions behind a load balancer.
"""
LUNCH_TXT = """Team lunch is on Fridays at noon in the blue room.
The coffee machine is descaled monthly by the office manager.
"""
RETRY_PY = '''import time


def backoff_delay(attempt: int) -> float:
    """Exponential backoff, capped at thirty seconds."""
    return min(30.0, 0.5 * 2 ** attempt)
'''


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "knowledge"
    (root / "ops").mkdir(parents=True)
    (root / "ops" / "deploy.md").write_text(DEPLOY_MD, encoding="utf-8")
    (root / "lunch.txt").write_text(LUNCH_TXT, encoding="utf-8")
    (root / "retry.py").write_text(RETRY_PY, encoding="utf-8")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00staging server port")
    (root / "blob.dat").write_bytes(b"staging \x00\x01\x02 server")
    return root


@pytest.fixture
def make_provider() -> Iterator[Callable[..., LocalProvider]]:
    made: list[LocalProvider] = []

    def make(*args: Path) -> LocalProvider:
        made.append(LocalProvider(*args))
        return made[-1]

    yield make
    for provider in made:
        provider.close()


@pytest.fixture
def provider(folder: Path, tmp_path: Path, make_provider: Callable[..., LocalProvider]
             ) -> LocalProvider:
    return make_provider(folder, tmp_path / "data")


def _block_text(text: str, index: int) -> str:
    block = enumerate_blocks(text)[index]
    return "\n".join(text.split("\n")[block.start_line : block.end_line])


def test_answer_in_one_markdown_file_is_used_and_cited_on_its_block(provider: LocalProvider):
    outcome = run_turn(provider, request("What port does the staging server listen on?"))
    used = outcome.by_usage("used")
    assert [e.title for e in used] == ["deploy.md"]
    target = used[0].citation_target
    assert target is not None and target.block_type == "paragraph"
    assert "8443" in _block_text(outcome.text, target.block_index)
    metadata = used[0].metadata or {}
    assert (metadata["folderPath"], metadata["mimeType"]) == ("ops", "text/markdown")
    assert metadata["modifiedAt"].endswith("Z")
    assert "8443" in (used[0].snippet or "")
    assert "offline retrieval assistant" in outcome.text


def test_answer_in_source_code_is_quoted_as_code_and_cited(provider: LocalProvider):
    outcome = run_turn(provider, request("How is the backoff delay capped?"))
    used = outcome.by_usage("used")
    assert [e.title for e in used] == ["retry.py"]
    blocks = enumerate_blocks(outcome.text)
    target = used[0].citation_target
    assert target is not None and blocks[target.block_index].type == "paragraph"
    assert blocks[target.block_index + 1].type == "code"
    assert "min(30.0" in _block_text(outcome.text, target.block_index + 1)


def test_answer_reads_direct_answer_then_quote_then_one_short_note(provider: LocalProvider):
    outcome = run_turn(provider, request("When is team lunch?"))
    assert [e.title for e in outcome.by_usage("used")] == ["lunch.txt"]
    paragraphs = outcome.text.split("\n\n")
    assert paragraphs[0] == "Team lunch is on Fridays at noon in the blue room."
    assert paragraphs[-1] == "*I'm an offline retrieval assistant: this answer quotes your files.*"
    grounding = outcome.grounding()
    assert grounding.grounding_mode == "source-backed"
    modes = [(s.block_start, s.block_end, s.grounding_mode) for s in grounding.grounding_segments]
    last = len(enumerate_blocks(outcome.text)) - 1
    assert modes == [(0, last - 1, "source-backed")]  # the closing note is about the assistant
    assert grounding.grounding_segments[0].contributors == ["indexed-documents"]


def test_grounding_marks_quoted_blocks_source_backed_and_notices_general(tmp_path: Path):
    notes = tmp_path / "att_notes"
    notes.write_text("The launch review is scheduled for 3 March in room Atlas.\n")
    image = tmp_path / "att_img"
    image.write_bytes(b"\x89PNG\x00\x00")
    attachments = (
        ProviderAttachment("att_1", "launch.txt", "text/plain", notes.stat().st_size, notes),
        ProviderAttachment("att_2", "chart.png", "image/png", 6, image),
    )
    outcome = run_turn(LocalProvider(), request("When is the launch review?",
                                                attachments=attachments))
    grounding = outcome.grounding()
    assert grounding.grounding_mode == "mixed"
    modes = [(s.block_start, s.block_end, s.grounding_mode) for s in grounding.grounding_segments]
    assert modes == [(0, 0, "source-backed"), (1, 1, "general-knowledge")]
    assert "chart.png" in _block_text(outcome.text, 1)


def test_question_without_an_answer_is_general_knowledge_with_no_used_sources(
    provider: LocalProvider,
):
    outcome = run_turn(provider, request("What is the capital of Australia?"))
    assert outcome.by_usage("used") == []
    assert "I found nothing in the knowledge folder that answers this" in outcome.text
    assert "offline retrieval assistant" in outcome.text
    grounding = outcome.grounding()
    assert grounding.grounding_mode == "general-knowledge"
    assert grounding.grounding_contributors == ["general-knowledge"]


def test_weak_matches_are_checked_not_used(provider: LocalProvider):
    outcome = run_turn(provider, request("Which regions does the billing database replicate to?"))
    assert outcome.by_usage("used") == []
    assert [e.title for e in outcome.by_usage("checked")] == ["deploy.md"]
    assert all(e.citation_target is None for e in outcome.entries())


def test_retrieved_but_uncited_documents_are_checked(provider: LocalProvider, folder: Path):
    (folder / "servers.txt").write_text("The staging server is a small virtual machine.\n")
    outcome = run_turn(provider, request("What port does the staging server listen on?"))
    assert [e.title for e in outcome.by_usage("used")] == ["deploy.md"]
    assert [e.title for e in outcome.by_usage("checked")] == ["servers.txt"]


def test_binary_files_are_never_indexed_or_listed(provider: LocalProvider):
    outcome = run_turn(provider, request("List the files in the knowledge folder"))
    titles = [e.title for e in outcome.by_usage("listed")]
    assert titles == ["lunch.txt", "ops/deploy.md", "retry.py"]
    assert outcome.by_usage("used") == [] and outcome.by_usage("checked") == []
    assert all(e.citation_target is None for e in outcome.entries())
    assert "- ops/deploy.md" in outcome.text


def test_listing_filters_by_kind_and_is_source_backed_browse(provider: LocalProvider):
    outcome = run_turn(provider, request("list the markdown files"))
    assert [e.title for e in outcome.by_usage("listed")] == ["ops/deploy.md"]
    grounding = outcome.grounding()
    assert grounding.grounding_mode == "source-backed"
    assert grounding.grounding_contributors == ["connector-browse"]


def test_changed_file_is_answered_from_its_new_text(provider: LocalProvider, folder: Path):
    run_turn(provider, request("What port does the staging server listen on?"))
    (folder / "ops" / "deploy.md").write_text("Staging moved: the staging server listens on "
                                              "port 9090 now.\n")
    outcome = run_turn(provider, request("What port does the staging server listen on?"))
    assert "9090" in outcome.text and "8443" not in outcome.text


def test_deleted_file_is_no_longer_a_source(provider: LocalProvider, folder: Path):
    run_turn(provider, request("When is team lunch?"))
    (folder / "lunch.txt").unlink()
    outcome = run_turn(provider, request("When is team lunch?"))
    assert outcome.entries() == []
    assert outcome.grounding().grounding_mode == "general-knowledge"


def _records_prompt(text: str, *raw: dict[str, object]) -> str:
    return project_for_provider(text, [decode_record(r) for r in raw])


TERMINAL = {
    "version": 1, "contextId": "ctx_term", "kind": "terminal", "label": "pytest run",
    "terminalId": "terminal-1", "terminalLabel": "Terminal 1", "lineStart": 10, "lineEnd": 12,
    "text": "collected 12 items\nFAILED tests/test_io.py::test_flush - PermissionError\n1 failed",
}


def test_context_records_are_searched_and_cited_as_items(tmp_path: Path):
    text = "Why did " + format_reference("terminal", "ctx_term", "pytest run") + " fail on flush?"
    outcome = run_turn(LocalProvider(), request(_records_prompt(text, TERMINAL)))
    used = outcome.by_usage("used")
    assert [(e.type, e.source_label, e.title) for e in used] == [
        ("item", "Terminal", "pytest run")
    ]
    assert "PermissionError" in _block_text(outcome.text, used[0].citation_target.block_index + 1)


def test_attached_text_file_is_searched_and_binary_attachment_is_reported(tmp_path: Path):
    notes = tmp_path / "att_notes"
    notes.write_text("The launch review is scheduled for 3 March in room Atlas.\n")
    image = tmp_path / "att_img"
    image.write_bytes(b"\x89PNG\x00\x00")
    attachments = (
        ProviderAttachment("att_1", "launch.txt", "text/plain", notes.stat().st_size, notes),
        ProviderAttachment("att_2", "chart.png", "image/png", 6, image),
    )
    outcome = run_turn(LocalProvider(), request("When is the launch review?",
                                                attachments=attachments))
    assert [e.title for e in outcome.by_usage("used")] == ["launch.txt"]
    checked = outcome.by_usage("checked")
    assert [e.title for e in checked] == ["chart.png"]
    assert checked[0].readiness_hint is not None
    assert "chart.png" in outcome.text


def test_attachment_only_message_quotes_the_start_of_each_file(tmp_path: Path):
    notes = tmp_path / "att_notes"
    notes.write_text("Quarterly plan: hire two engineers and ship the importer.\n")
    attachment = ProviderAttachment("att_1", "plan.md", "text/markdown", 10, notes)
    outcome = run_turn(LocalProvider(), request(ATTACHMENT_ONLY_BOOTSTRAP_PROMPT,
                                                attachments=(attachment,)))
    assert [e.title for e in outcome.by_usage("used")] == ["plan.md"]
    assert "hire two engineers" in outcome.text


def test_markdown_in_files_cannot_change_the_answer_structure(
    tmp_path: Path, make_provider: Callable[..., LocalProvider]
):
    root = tmp_path / "kb"
    root.mkdir()
    (root / "tricky.md").write_text(
        "Widgets: the widget factory <b>ships</b> [links](javascript:x) and *stars* | pipes "
        "# hashes\n1. widget factory opens at 9.\n- widget factory list item\n"
    )
    outcome = run_turn(make_provider(root, tmp_path / "data"),
                       request("What does the widget factory ship?"))
    used = outcome.by_usage("used")
    assert len(used) == 1
    blocks = enumerate_blocks(outcome.text)
    assert {b.type for b in blocks} == {"paragraph"}
    assert len(blocks) == len(outcome.text.split("\n\n"))
    assert used[0].citation_target.block_index == 0
    assert "javascript" in _block_text(outcome.text, 0)


def test_closed_index_fails_the_turn_readably(tmp_path: Path):
    provider = LocalProvider(tmp_path / "kb", tmp_path / "data")
    provider.close()
    outcome = run_turn(provider, request("anything at all"))
    assert outcome.failure.message.startswith("The offline assistant could not search")


def test_the_answer_can_be_driven_from_a_new_task_per_event(provider: LocalProvider):
    outcome = run_turn_in_tasks(provider, request("When is team lunch?"))
    assert [e.title for e in outcome.by_usage("used")] == ["lunch.txt"]


def test_long_context_ids_still_give_valid_entry_ids():
    record = dict(TERMINAL, contextId="c" * 128)
    reference = format_reference("terminal", "c" * 128, "pytest run")
    text = "Why " + reference + " flush PermissionError?"
    outcome = run_turn(LocalProvider(), request(_records_prompt(text, record)))
    assert [e.title for e in outcome.by_usage("used")] == ["pytest run"]
