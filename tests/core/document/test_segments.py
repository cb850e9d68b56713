from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.references import format_reference
from composer_app.core.contracts.records import KNOWN_KINDS
from composer_app.core.document.segments import ChipSegment, join_segments, split_markdown

KINDS = st.sampled_from([*KNOWN_KINDS, "sticker"])
IDS = st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True)
LABELS = st.from_regex(r"[a-zA-Z0-9.#@ ]{0,12}", fullmatch=True)
TEXT = st.text(
    st.characters(blacklist_characters="\ufffc\ufffe\uffff[]", blacklist_categories=("Cs",)),
    min_size=1,
    max_size=20,
)


@st.composite
def chip(draw):
    kind = draw(KINDS)
    ref = format_reference(kind, draw(IDS), draw(LABELS))
    return split_markdown(ref)[0]


def test_split_and_join():
    text = "a ![x](t3-context://v1/image/i1) b \ufffc[y](t3-context://v1/mention/m)"
    segments = split_markdown(text)
    assert segments == ["a ", ChipSegment("image", "i1", "x"), " b ",
                        ChipSegment("mention", "m", "y")]
    assert join_segments(segments) == text.replace("\ufffc", "")


@given(st.lists(st.one_of(TEXT, chip()), max_size=12))
def test_canonical_markdown_round_trips(parts):
    text = join_segments(parts)
    assert join_segments(split_markdown(text)) == text


@given(st.lists(st.one_of(TEXT, chip()), max_size=12))
def test_segments_survive_a_round_trip_through_markdown(parts):
    merged = split_markdown(join_segments(parts))
    assert split_markdown(join_segments(merged)) == merged


def test_an_exclamation_mark_before_a_file_chip_stays_text():
    link = format_reference("file", "file_f1", "notes.txt")
    text = f"Look at this!{link} and this!!{link}"
    assert split_markdown(text) == ["Look at this!", ChipSegment("file", "file_f1", "notes.txt"),
                                    " and this!!", ChipSegment("file", "file_f1", "notes.txt")]
    assert join_segments(split_markdown(text)) == text


def test_an_image_link_owns_its_exclamation_mark():
    link = format_reference("image", "image_i1", "shot.png")
    assert split_markdown(f"wow!{link}") == ["wow!", ChipSegment("image", "image_i1", "shot.png")]


def test_object_replacement_characters_alone_leave_no_empty_runs() -> None:
    link = format_reference("skill", "skill_a", "deploy")
    segments = split_markdown(f"\ufffc{link}\ufffc{link}\ufffc")
    assert segments == [ChipSegment("skill", "skill_a", "deploy")] * 2
    assert segments[0] is segments[1]  # one record, one label: one shared segment


def test_a_tail_after_the_last_chip_is_kept_without_replacement_characters() -> None:
    link = format_reference("skill", "skill_a", "deploy")
    assert split_markdown(f"{link} then\ufffc") == [ChipSegment("skill", "skill_a", "deploy"),
                                                   " then"]
