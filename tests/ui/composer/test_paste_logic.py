"""Paste decisions: source order, folding, GNOME copied files, hostile data (Qt-free)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.clipboard import encode_clipboard_html, encode_fragment
from composer_app.core.contracts.clipboard import ClipboardFragment, FragmentSource
from composer_app.core.limits import LARGE_PASTE_CHARS, PROMPT_MAX_CHARS
from composer_app.ui.composer.paste_logic import (
    ClipboardOffer,
    FilesPaste,
    FoldedTextPaste,
    FragmentPaste,
    HtmlPaste,
    ImagePaste,
    NothingToPaste,
    TextPaste,
    choose_paste,
    decode_gnome_copied_files,
    local_path_of_url,
    normalize_text,
    rewrite_pasted_text,
    should_fold,
)
from tests.core.document import sample_records as rec

SOURCE = FragmentSource(environment_id="env_a", thread_id="thr_a")


def fragment_json(*records):
    return encode_fragment(ClipboardFragment(source=SOURCE, records=list(records)))


def test_fragment_with_text_wins_over_everything():
    raw = fragment_json(rec.terminal()).encode()
    offer = ClipboardOffer(text="see [x](t3-context://v1/terminal/terminal_t1)", fragment_raw=raw,
                           html="<b>x</b>", file_paths=("/tmp/a",), has_image=True)
    action = choose_paste(offer, plain=False)
    assert isinstance(action, FragmentPaste)
    assert [r.context_id for r in action.fragment.records] == ["terminal_t1"]
    assert action.text.startswith("see ")


def test_fragment_without_text_is_ignored():
    offer = ClipboardOffer(fragment_raw=fragment_json(rec.terminal()).encode())
    assert isinstance(choose_paste(offer, plain=False), NothingToPaste)


def test_html_carrier_is_read_when_the_fragment_format_is_missing_or_broken():
    carrier = encode_clipboard_html("t", fragment_json(rec.skill()))
    for raw in (None, b"{not json", b"\xff\xfe"):
        action = choose_paste(ClipboardOffer(text="t", html=carrier, fragment_raw=raw), plain=False)
        assert isinstance(action, FragmentPaste)
        assert action.fragment.records[0].context_id == "skill_s1"


def test_files_win_over_image_data_unless_a_browser_copied_the_image():
    offer = ClipboardOffer(file_paths=("/tmp/a.png",), has_image=True)
    assert choose_paste(offer, plain=False) == FilesPaste(("/tmp/a.png",))
    browser = ClipboardOffer(file_paths=("/tmp/a.png",), has_image=True, moz_native_image=True)
    assert choose_paste(browser, plain=False) == ImagePaste(None, "image/png")


def test_original_image_bytes_are_kept():
    offer = ClipboardOffer(image_bytes=b"\x89PNG", image_mime="image/png", has_image=True)
    assert choose_paste(offer, plain=False) == ImagePaste(b"\x89PNG", "image/png")
    jpeg = ClipboardOffer(image_bytes=b"\xff\xd8", image_mime="image/jpeg")
    assert choose_paste(jpeg, plain=False) == ImagePaste(b"\xff\xd8", "image/jpeg")


def test_html_without_carrier_pastes_text_only():
    assert choose_paste(ClipboardOffer(html="<b>bold</b>"), plain=False) == HtmlPaste("<b>bold</b>")
    with_text = ClipboardOffer(html="<b>bold</b>", text="bold")
    assert choose_paste(with_text, plain=False) == TextPaste("bold")


def test_plain_flag_takes_text_only():
    raw = fragment_json(rec.terminal()).encode()
    offer = ClipboardOffer(text="a\r\nb", fragment_raw=raw, file_paths=("/x",), has_image=True)
    assert choose_paste(offer, plain=True) == TextPaste("a\nb")
    assert isinstance(choose_paste(ClipboardOffer(has_image=True), plain=True), NothingToPaste)


def test_large_text_folds_into_a_file_and_plain_paste_follows_the_rule():
    big = "x" * LARGE_PASTE_CHARS
    assert choose_paste(ClipboardOffer(text=big), plain=False) == FoldedTextPaste(big)
    assert choose_paste(ClipboardOffer(text=big), plain=True) == FoldedTextPaste(big)
    small = "x" * (LARGE_PASTE_CHARS - 1)
    assert choose_paste(ClipboardOffer(text=small), plain=False) == TextPaste(small)
    assert FoldedTextPaste(big).name == "pasted-text.txt"


def test_folding_counts_utf16_units_and_the_prompt_length():
    astral = "\U0001f600" * (LARGE_PASTE_CHARS // 2)  # 32,768 units in 16,384 code points
    assert should_fold(astral, prompt_units=0)
    assert not should_fold("abc", prompt_units=PROMPT_MAX_CHARS - 3)
    assert should_fold("abcd", prompt_units=PROMPT_MAX_CHARS - 3)
    assert not should_fold("abcd", prompt_units=PROMPT_MAX_CHARS - 3, replaced_units=1)


def test_text_never_keeps_object_replacement_or_crlf():
    assert normalize_text("a\ufffcb\r\nc\rd") == "ab\nc\nd"
    offer = ClipboardOffer(text="\ufffc\ufffc")
    assert choose_paste(offer, plain=False) == TextPaste("")


def test_rewrite_points_references_through_the_id_map():
    text = "a [x](t3-context://v1/file/file_1) b ![y](t3-context://v1/image/image_2)"
    out = rewrite_pasted_text(text, {"file_1": "file_local_9"})
    assert out == "a [x](t3-context://v1/file/file_local_9) b ![y](t3-context://v1/image/image_2)"
    assert rewrite_pasted_text(text, {}) == text


def test_gnome_copied_files():
    data = b"copy\nfile:///home/u/a%20b.png\nfile:///home/u/c.txt\n"
    assert decode_gnome_copied_files(data) == ["file:///home/u/a%20b.png", "file:///home/u/c.txt"]
    assert decode_gnome_copied_files(b"cut\r\nfile:///x\r\n") == ["file:///x"]
    for bad in (None, b"", b"\xff", b"file:///x", b"move\nfile:///x"):
        assert decode_gnome_copied_files(bad) == []
    assert local_path_of_url("file:///home/u/a%20b.png") == "/home/u/a b.png"
    assert local_path_of_url("https://x/y") is None
    assert local_path_of_url("file://server/share") is None


@given(
    text=st.one_of(st.none(), st.text(max_size=200)),
    html=st.one_of(st.none(), st.text(max_size=200)),
    raw=st.one_of(st.none(), st.binary(max_size=200)),
    paths=st.lists(st.text(min_size=1, max_size=10), max_size=3),
    image=st.booleans(),
    plain=st.booleans(),
)
def test_hostile_offers_never_raise_and_text_never_holds_ufffc(text, html, raw, paths, image,
                                                               plain):
    offer = ClipboardOffer(text=text, html=html, fragment_raw=raw, file_paths=tuple(paths),
                           has_image=image)
    action = choose_paste(offer, plain=plain)
    if isinstance(action, (TextPaste, FoldedTextPaste, FragmentPaste)):
        assert "\ufffc" not in action.text and "\r" not in action.text
