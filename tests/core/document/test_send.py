from composer_app.core.codecs.references import format_reference
from composer_app.core.document.edits import add_record
from composer_app.core.document.model import Draft, RecordState
from composer_app.core.document.send import SendBlocked, SendPayload, build_send_payload, is_expired
from composer_app.core.limits import PROMPT_MAX_CHARS
from tests.core.document import sample_records as rec


def link(record):
    return format_reference(record.kind, record.context_id, record.label)


def draft_of(prompt_records, extra=()):
    draft = Draft(keep_shelf_images=True)
    for r in [*prompt_records, *extra]:
        add_record(draft, r)
    draft.prompt = " ".join(link(r) for r in prompt_records)
    return draft


def test_records_follow_the_contract_order():
    shot = rec.image("image_shot", "shot.png")
    records = [rec.file("file_f1"), rec.unknown(), rec.skill(), rec.mention(), rec.element(),
               rec.image("image_a1"), rec.annotation(shot="image_shot"), rec.review(),
               rec.terminal(), rec.thread(), shot, rec.file("file_f2")]
    outcome = build_send_payload(draft_of(records))
    assert isinstance(outcome, SendPayload)
    assert [r.context_id for r in outcome.records] == [
        "terminal_t1", "review-comment_r1", "preview-annotation_p1", "image_shot", "element_e1",
        "mention_m1", "skill_s1", "thread_th1", "ctx_u1", "file_f1", "image_a1", "file_f2",
    ]


def test_unreferenced_shelf_images_are_sent_after_the_rest():
    outcome = build_send_payload(draft_of([rec.mention()], extra=[rec.image()]))
    assert isinstance(outcome, SendPayload)
    assert [r.kind for r in outcome.records] == ["mention", "image"]


def test_text_is_trimmed_canonical_prose():
    draft = draft_of([rec.mention()])
    draft.prompt = "  look at " + link(rec.mention()) + " \n"
    outcome = build_send_payload(draft)
    assert outcome == SendPayload("look at " + link(rec.mention()), (rec.mention(),))


def test_expired_terminal_is_dropped_from_text_and_records():
    dead = rec.terminal("terminal_dead", text="  \n ")
    assert is_expired(dead) and not is_expired(rec.terminal())
    draft = draft_of([dead, rec.mention()])
    draft.prompt = f"see {link(dead)} and {link(rec.mention())}"
    outcome = build_send_payload(draft)
    assert isinstance(outcome, SendPayload)
    assert outcome.text == f"see and {link(rec.mention())}"
    assert [r.context_id for r in outcome.records] == ["mention_m1"]


def test_message_of_only_expired_excerpts_is_not_sent():
    dead = rec.terminal("terminal_dead", text="")
    outcome = build_send_payload(draft_of([dead]))
    assert isinstance(outcome, SendBlocked) and outcome.reason == "expired" and outcome.title


def test_pending_record_blocks_send_with_the_contract_toast():
    draft = draft_of([rec.file()])
    draft.states["file_f1"] = RecordState.PENDING
    outcome = build_send_payload(draft)
    assert outcome == SendBlocked(
        "pending",
        "Still bringing a pasted attachment into this message.",
        "Send again once its chip resolves.",
    )


def test_unresolved_records_do_not_travel_but_their_links_stay():
    draft = draft_of([rec.file()])
    draft.states["file_f1"] = RecordState.UNRESOLVED
    outcome = build_send_payload(draft)
    assert outcome == SendPayload(link(rec.file()), ())


def test_empty_and_too_long_prompts():
    assert build_send_payload(Draft(prompt=" \n")) == SendBlocked("empty")
    outcome = build_send_payload(Draft(prompt="x" * (PROMPT_MAX_CHARS + 1)))
    assert isinstance(outcome, SendBlocked) and outcome.reason == "too-long"
    assert isinstance(build_send_payload(Draft(prompt="x" * PROMPT_MAX_CHARS)), SendPayload)


def test_the_expired_tooltip_names_the_excerpt() -> None:
    from composer_app.core.document.send import expired_tooltip

    assert expired_tooltip("Terminal 1 lines 3-4") == (
        "Terminal context expired. Remove and re-add Terminal 1 lines 3-4 to include it in your "
        "message.")
