import pytest

from composer_app.core.contracts.records import KNOWN_KINDS
from composer_app.core.document.model import RecordState
from composer_app.ui.composer.chip_style import glyph, tone
from composer_app.ui.composer.editor_logic import (
    chip_look,
    clamp_word_move,
    describe_chips,
    enter_action,
    kind_name,
)
from tests.core.document import sample_records as rec


@pytest.mark.parametrize(
    ("shift", "composing", "modified", "expected"),
    [(False, False, False, "send"), (True, False, False, "newline"),
     (False, True, False, "ignore"), (True, True, False, "ignore"),
     (False, False, True, "ignore")],
)
def test_enter_action(shift, composing, modified, expected):
    assert enter_action(shift=shift, composing=composing, modified=modified) == expected


@pytest.mark.parametrize(
    ("pos", "target", "chips", "expected"),
    [(0, 5, [], 5), (0, 5, [0], 1), (0, 5, [3], 3), (0, 5, [3, 4], 3), (6, 0, [5], 5),
     (6, 0, [2], 3), (6, 0, [1, 2], 3), (3, 3, [3], 3)],
)
def test_clamp_word_move(pos, target, chips, expected):
    assert clamp_word_move(pos, target, chips) == expected


def test_describe_chips():
    assert describe_chips([]) == ""
    assert describe_chips(["a (image)"]) == "1 context item: a (image)"
    assert describe_chips(["a", "b"]) == "2 context items: a, b"


def test_every_kind_resolves_with_its_own_tone_and_glyph():
    for record in rec.every_kind()[:-1]:
        look = chip_look(record.kind, record.label, record, RecordState.RESOLVED)
        assert look.state == "resolved" and look.tone == record.kind
        assert look.tooltip.startswith(kind_name(record.kind, record).capitalize())
    tones = {tone(kind, dark=False) for kind in KNOWN_KINDS}
    assert len(tones) == len(KNOWN_KINDS)
    assert {glyph(kind) for kind in KNOWN_KINDS} - {"?"} and glyph("sticker") == "?"


def test_pull_request_tones_follow_display_state():
    for state in ("open", "closed", "merged"):
        record = rec.pull_request(state=state)
        assert chip_look(record.kind, "#42", record, None).tone == f"pr-{state}"
    legacy = rec.review().model_copy(update={"section_id": "pull-request:42"})
    assert chip_look("review-comment", "#42", legacy, None).tone == "pr-neutral"


def test_unresolved_and_expired_looks_say_why():
    missing = chip_look("file", "notes.txt", None, None)
    assert missing.state == "unresolved" and "not part of this draft" in missing.tooltip
    failed = chip_look("file", "notes.txt", rec.file(), RecordState.UNRESOLVED)
    assert "could not be brought" in failed.tooltip
    unknown = chip_look("sticker", "party", rec.unknown(), None)
    assert unknown.state == "unresolved" and "sticker" in unknown.tooltip
    dead = rec.terminal(text="")
    assert chip_look("terminal", dead.label, dead, None).state == "expired"
    pending = chip_look("image", "shot.png", rec.image(), RecordState.PENDING)
    assert pending.state == "pending" and "Still arriving" in pending.tooltip
    assert tone("nope", dark=True) == tone("neutral", dark=True)
