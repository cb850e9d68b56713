"""A turn's earlier material is gathered by its own ``thread.turn.start`` transaction: the newest
``EARLIER_MESSAGES`` user messages of the user's thread before this one, oldest first, never
another user's thread of the same id, and a message whose context cannot be decoded is skipped."""

from __future__ import annotations

from pathlib import Path

from composer_app.core.contracts.wire import decode_command
from composer_app.server.earlier_material import EARLIER_MESSAGES, EarlierMaterial, gather_material
from composer_app.server.ledger import CommandOutcome, TurnPlan, execute_command
from composer_app.server.store.base import Device, MessageRow
from composer_app.server.store.sqlite import SqliteStore
from tests.server.harness import create_thread, skill, turn_start


def _send(store: SqliteStore, device: Device, body: dict[str, object]) -> CommandOutcome:
    return store.write_sync(lambda tx: execute_command(tx, device, decode_command(body), "h"))


def _mention(n: int) -> tuple[str, dict[str, object]]:
    return (f"use [s{n}](t3-context://v1/skill/ctx_{n})",
            {"version": 1, "records": [skill(f"ctx_{n}", f"skill{n}")]})


def test_a_turn_gets_the_newest_earlier_user_messages_of_its_own_thread(tmp_path: Path) -> None:
    store = SqliteStore.in_dir(tmp_path)
    store.open()
    try:
        alice = store.create_token("alice", "laptop")[1]
        bob = store.create_token("bob", "laptop")[1]
        for device in (alice, bob):
            _send(store, device, create_thread("thr_same"))
        text, context = _mention(999)
        _send(store, bob, turn_start("thr_same", text, context=context))
        first = _send(store, alice, turn_start("thr_same", "hello")).turn
        assert isinstance(first, TurnPlan) and first.earlier == EarlierMaterial()
        for n in range(EARLIER_MESSAGES + 5):
            text, context = _mention(n)
            _send(store, alice, turn_start("thr_same", text, context=context))
        plan = _send(store, alice, turn_start("thr_same", "and now?")).turn
        assert isinstance(plan, TurnPlan) and plan.earlier is not None
        prompts = plan.earlier.prompts
        assert len(prompts) == EARLIER_MESSAGES
        assert [("skill" + str(n)) in p for n, p in zip(range(5, EARLIER_MESSAGES + 5), prompts,
                                                         strict=True)] == [True] * len(prompts)
        assert not any("skill999" in p for p in prompts)  # bob's thread of the same id
    finally:
        store.close()


def test_unreadable_context_and_other_roles_add_nothing() -> None:
    def row(message_id: str, role: str, context: dict[str, object] | None) -> MessageRow:
        return MessageRow(message_id, "thr", None, role, "text", False, context=context,
                          user_id="u1")

    text, context = _mention(1)
    good = MessageRow("m_ok", "thr", None, "user", text, False, context=context, user_id="u1")
    material = gather_material(
        [row("m_bad", "user", {"version": 99, "records": "nope"}),
         row("m_reply", "assistant", context), good, row("m_self", "user", context)],
        "u1", lambda _: None, exclude="m_self")
    assert len(material.prompts) == 1 and "skill1" in material.prompts[0]
    assert material.attachments == ()
