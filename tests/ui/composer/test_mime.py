"""MIME translation and the paste priority table, driven through the editor's Qt virtuals."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QImage

from composer_app.core.codecs.clipboard import (
    decode_clipboard_html,
    decode_fragment,
    encode_clipboard_html,
    encode_fragment,
)
from composer_app.core.contracts.clipboard import CLIPBOARD_MIME, ClipboardFragment, FragmentSource
from composer_app.core.document.segments import ChipSegment, split_markdown
from composer_app.ui.composer.document_bridge import read_segments
from composer_app.ui.composer.mime import ClipboardPort, can_accept, copy_mime_data, read_offer
from tests.core.document import sample_records as rec
from tests.ui.composer.attachment_support import (
    ENV,
    clear_clipboard,
    link,
    make_composer,
    make_uploads,
)

SOURCE = FragmentSource(environment_id="env_other", thread_id="thr_9")


@pytest.fixture(autouse=True)
def _clean_clipboard(qapp):
    clear_clipboard()
    yield
    clear_clipboard()


@pytest.fixture
def w(qtbot, tmp_path):
    return make_composer(qtbot, make_uploads(tmp_path), thread_id="thr_1")


def fragment_md(records, text, *, name=CLIPBOARD_MIME, html=True):
    fragment_json = encode_fragment(ClipboardFragment(source=SOURCE, records=records))
    md = QMimeData()
    md.setText(text)
    md.setData(name, fragment_json.encode())
    if html:
        md.setHtml(encode_clipboard_html(text, fragment_json))
    return md


def chips(w):
    return [s for s in read_segments(w.document()) if isinstance(s, ChipSegment)]


def test_copy_writes_markdown_fragment_and_carrier_without_markdown_format(w):
    w.set_markdown(f"see {link(rec.terminal())} and {link(rec.review())}",
                   [rec.terminal(), rec.review(), rec.skill()])
    w.selectAll()
    md = w.createMimeDataFromSelection()
    assert "text/markdown" not in md.formats()
    assert md.text() == w.markdown() and "\ufffc" not in md.text()
    fragment = decode_fragment(bytes(md.data(CLIPBOARD_MIME).data()))
    assert fragment is not None
    assert [r.context_id for r in fragment.records] == ["terminal_t1", "review-comment_r1"]
    assert fragment.source.environment_id == ENV and fragment.source.thread_id == "thr_1"
    assert decode_clipboard_html(md.html()) == fragment
    raw = json.loads(bytes(md.data(CLIPBOARD_MIME).data()))
    assert "url" not in json.dumps(raw).lower().replace("pageurl", "")


def test_copying_prose_next_to_a_chip_writes_text_only(w):
    w.set_markdown(f"hello {link(rec.terminal())}", [rec.terminal()])
    cursor = w.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(5, cursor.MoveMode.KeepAnchor)
    w.setTextCursor(cursor)
    md = w.createMimeDataFromSelection()
    assert md.formats() == ["text/plain"] and md.text() == "hello"


def test_copy_mime_data_with_rich_html_wraps_it_in_a_div():
    md = copy_mime_data(link(rec.skill()), [rec.skill()], SOURCE, "<p>x</p>")
    assert md.html().startswith('<div data-t3-context-fragment="') and "<p>x</p>" in md.html()
    assert copy_mime_data("plain", [rec.skill()], SOURCE).formats() == ["text/plain"]


def test_own_fragment_imports_records_and_makes_chips(w):
    text = f"look {link(rec.terminal())} {link(rec.review())}"
    w.insertFromMimeData(fragment_md([rec.terminal(), rec.review()], text))
    assert w.markdown() == text
    assert set(w.draft.records) == {"terminal_t1", "review-comment_r1"}
    assert all(w.looks.look(c.kind, c.context_id, c.label).state == "resolved" for c in chips(w))
    w.undo()
    assert w.markdown() == "" and not w.draft.records


def test_web_format_name_and_carrier_only_are_accepted(w):
    text = link(rec.skill())
    md = fragment_md([rec.skill()], text, name="web " + CLIPBOARD_MIME, html=False)
    assert can_accept(md)
    w.insertFromMimeData(md)
    assert "skill_s1" in w.draft.records
    w.set_markdown("")
    carrier = QMimeData()
    carrier.setText(text)
    carrier.setHtml(encode_clipboard_html(text, encode_fragment(
        ClipboardFragment(source=SOURCE, records=[rec.skill()]))))
    w.insertFromMimeData(carrier)
    assert "skill_s1" in w.draft.records and w.markdown() == text


def test_malformed_fragment_falls_back_to_text_with_unresolved_chips(w):
    text = f"x {link(rec.terminal())}"
    md = QMimeData()
    md.setText(text)
    md.setData(CLIPBOARD_MIME, b'{"version": 2, "source": {}, "records": []}')
    md.setHtml("<pre data-t3-context-fragment=\"%ZZ\">x</pre>")
    w.insertFromMimeData(md)
    assert w.markdown() == text and not w.draft.records
    [chip] = chips(w)
    assert w.looks.look(chip.kind, chip.context_id, chip.label).state == "unresolved"
    assert "\ufffc" not in w.markdown()


def test_urls_and_image_attach_the_file(w, tmp_path):
    path = tmp_path / "photo.png"
    QImage(3, 3, QImage.Format.Format_ARGB32).save(str(path))
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(path))])
    md.setImageData(QImage(5, 5, QImage.Format.Format_ARGB32))
    w.insertFromMimeData(md)
    [record] = w.draft.records.values()
    assert record.kind == "image" and record.name == "photo.png"
    assert record.size_bytes == path.stat().st_size
    assert "file://" not in w.markdown()


def test_browser_copy_image_prefers_the_image_data(w, tmp_path):
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(tmp_path / "tmp-browser.png"))])
    md.setImageData(QImage(5, 5, QImage.Format.Format_ARGB32))
    md.setData("application/x-moz-nativeimage", b"\x00")
    w.insertFromMimeData(md)
    [record] = w.draft.records.values()
    assert record.kind == "image" and record.name.startswith("pasted-image-")


def test_html_only_pastes_plain_text(w):
    md = QMimeData()
    md.setHtml("<p>Hello <b>world</b></p>")
    w.insertFromMimeData(md)
    assert w.markdown() == "Hello world" and not w.draft.records


def test_gnome_copied_files_paste_as_attachments(w, tmp_path):
    path = tmp_path / "a b.txt"
    path.write_text("hi")
    md = QMimeData()
    url = QUrl.fromLocalFile(str(path)).toString(QUrl.ComponentFormattingOption.FullyEncoded)
    md.setData("x-special/gnome-copied-files", f"copy\n{url}".encode())
    assert can_accept(md)
    w.insertFromMimeData(md)
    [record] = w.draft.records.values()
    assert (record.kind, record.name, record.mime_type) == ("file", "a b.txt", "text/plain")


def test_read_offer_and_can_accept_do_not_touch_the_disk(tmp_path):
    md = QMimeData()
    missing = tmp_path / "never" / "there.bin"
    md.setUrls([QUrl.fromLocalFile(str(missing))])
    assert can_accept(md)
    offer = read_offer(md)
    assert offer.file_paths == (str(missing),) and not offer.foreign_urls
    remote = QMimeData()
    remote.setUrls([QUrl("https://example.com/x.png")])
    assert read_offer(remote).foreign_urls
    assert can_accept(remote) == remote.hasText()  # a web link pastes as its text
    assert not can_accept(QMimeData())


def test_clipboard_port_round_trips_and_never_keeps_the_mime_data(qapp):
    port = ClipboardPort()
    port.put(copy_mime_data(link(rec.skill()), [rec.skill()], SOURCE))
    offer = port.offer()
    assert offer is not None and offer.text == link(rec.skill())
    assert decode_fragment(offer.fragment_raw) is not None
    port.put(QMimeData())  # the old object is deleted by Qt; our offer is plain data
    assert offer.text == link(rec.skill())


def test_pasted_text_links_become_chips(w):
    md = QMimeData()
    md.setText(f"a\r\n{link(rec.file())}\ufffc")
    w.insertFromMimeData(md)
    assert split_markdown(w.markdown()) == ["a\n", ChipSegment("file", "file_f1", "notes.txt")]
