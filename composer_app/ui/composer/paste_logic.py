"""Pure decisions of a composer paste or drop: which clipboard source wins and what it becomes.

The Qt side (``mime.py``) reads a ``QMimeData`` into a ``ClipboardOffer``; ``choose_paste`` picks
one action in the order of docs/architecture.md §4: plain-paste flag, our fragment (either MIME
name) with its text, the HTML carrier with the text, local files, image bytes, HTML as plain text,
plain text. Invariants: nothing here imports Qt or touches the disk; the clipboard is untrusted, so
every branch that cannot use its data falls through to the next one and the result is never an
exception; text handed on never holds U+FFFC or ``\\r\\n``; a text of at least
``LARGE_PASTE_CHARS`` units, or one that would push the prompt past ``PROMPT_MAX_CHARS``, is folded
into a ``pasted-text.txt`` file instead of being inserted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from composer_app.core.codecs.clipboard import decode_clipboard_html, decode_fragment
from composer_app.core.codecs.references import format_reference, replace_references
from composer_app.core.contracts.clipboard import ClipboardFragment
from composer_app.core.limits import LARGE_PASTE_CHARS, PROMPT_MAX_CHARS
from composer_app.core.text import utf16_len

OBJECT_REPLACEMENT = "\ufffc"
PASTED_TEXT_NAME = "pasted-text.txt"
GNOME_COPIED_FILES = "x-special/gnome-copied-files"
MOZ_NATIVE_IMAGE = "application/x-moz-nativeimage"
ORIGINAL_IMAGE_MIMES = ("image/png", "image/jpeg")


@dataclass(frozen=True)
class ClipboardOffer:
    """What a clipboard or drop offers, read once from Qt (no live ``QMimeData``).

    ``fragment_raw`` holds the bytes of the first accepted fragment format present;
    ``file_paths`` are local paths (URL lists and GNOME copied files); ``foreign_urls`` is true
    when some URL is not a local file; ``image_bytes`` keeps original PNG/JPEG bytes when offered;
    ``has_image`` is true for any image data (Qt's own image format included).
    """

    formats: tuple[str, ...] = ()
    text: str | None = None
    html: str | None = None
    fragment_raw: bytes | None = None
    file_paths: tuple[str, ...] = ()
    foreign_urls: bool = False
    image_bytes: bytes | None = None
    image_mime: str | None = None
    has_image: bool = False
    moz_native_image: bool = False


@dataclass(frozen=True)
class FragmentPaste:
    """Import ``fragment`` and insert ``text`` (its references become chips)."""

    fragment: ClipboardFragment
    text: str


@dataclass(frozen=True)
class FilesPaste:
    """Attach each local file, in order."""

    paths: tuple[str, ...]


@dataclass(frozen=True)
class ImagePaste:
    """Attach image data: ``data`` is the original encoded bytes, or ``None`` to encode PNG."""

    data: bytes | None
    mime_type: str


@dataclass(frozen=True)
class HtmlPaste:
    """HTML without our carrier and without text: its plain text is pasted (Qt converts it)."""

    html: str


@dataclass(frozen=True)
class TextPaste:
    """Insert ``text`` (canonical links in it become chips)."""

    text: str


@dataclass(frozen=True)
class FoldedTextPaste:
    """Attach ``text`` as a ``pasted-text.txt`` file instead of inserting it."""

    text: str
    name: str = PASTED_TEXT_NAME


@dataclass(frozen=True)
class NothingToPaste:
    """No source applied (the formats are logged)."""

    formats: tuple[str, ...]


PasteAction = (
    FragmentPaste | FilesPaste | ImagePaste | HtmlPaste | TextPaste | FoldedTextPaste
    | NothingToPaste
)


def normalize_text(text: str) -> str:
    """Pasted text as the editor takes it: ``\\r\\n`` and lone ``\\r`` become ``\\n``; no U+FFFC."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if OBJECT_REPLACEMENT in text:
        text = text.replace(OBJECT_REPLACEMENT, "")
    return text


def should_fold(text: str, *, prompt_units: int, replaced_units: int = 0) -> bool:
    """True when ``text`` is folded into a file (large, or the prompt would grow too long)."""
    if len(text) >= LARGE_PASTE_CHARS:
        return True  # at least as many UTF-16 units as code points
    units = utf16_len(text)
    if units >= LARGE_PASTE_CHARS:
        return True
    return prompt_units - replaced_units + units > PROMPT_MAX_CHARS


def text_action(
    text: str, *, prompt_units: int, replaced_units: int = 0
) -> TextPaste | FoldedTextPaste:
    """The action for plain text: insert it, or fold it into ``pasted-text.txt``."""
    text = normalize_text(text)
    if should_fold(text, prompt_units=prompt_units, replaced_units=replaced_units):
        return FoldedTextPaste(text)
    return TextPaste(text)


def choose_paste(
    offer: ClipboardOffer, *, plain: bool, prompt_units: int = 0, replaced_units: int = 0
) -> PasteAction:
    """The first source, in the order of docs/architecture.md §4, that applies to ``offer``."""
    fold = {"prompt_units": prompt_units, "replaced_units": replaced_units}
    if plain:
        if offer.text is not None:
            return text_action(offer.text, **fold)
        return NothingToPaste(offer.formats)
    if offer.text is not None:
        fragment = decode_fragment(offer.fragment_raw) if offer.fragment_raw is not None else None
        if fragment is None and offer.html:
            fragment = decode_clipboard_html(offer.html)
        if fragment is not None:
            return FragmentPaste(fragment, normalize_text(offer.text))
    images_win = offer.moz_native_image and (offer.has_image or offer.image_bytes is not None)
    if offer.file_paths and not images_win:
        return FilesPaste(offer.file_paths)
    if offer.image_bytes is not None and offer.image_mime in ORIGINAL_IMAGE_MIMES:
        return ImagePaste(offer.image_bytes, offer.image_mime)
    if offer.has_image:
        return ImagePaste(None, "image/png")
    if offer.text is not None:
        return text_action(offer.text, **fold)
    if offer.html:
        return HtmlPaste(offer.html)
    return NothingToPaste(offer.formats)


def rewrite_pasted_text(text: str, id_map: Mapping[str, str]) -> str:
    """``text`` with every reference pointed through ``id_map`` (labels re-sanitized)."""
    if not id_map:
        return text
    return replace_references(
        text,
        lambda ref: format_reference(ref.kind, id_map.get(ref.context_id, ref.context_id),
                                     ref.label),
    )


def decode_gnome_copied_files(data: bytes | None) -> list[str]:
    """The ``file:`` URLs of an ``x-special/gnome-copied-files`` payload (``copy``/``cut`` first).

    Untrusted: undecodable bytes or a payload without the action line give ``[]``.
    """
    if not data:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return []
    lines = [line.strip("\r") for line in text.split("\n")]
    if not lines or lines[0] not in ("copy", "cut"):
        return []
    return [line for line in lines[1:] if line.startswith("file:")]


def local_path_of_url(url: str) -> str | None:
    """The local path of a ``file:`` URL (``file:///a%20b`` -> ``/a b``), else ``None``."""
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost") or not parts.path:
        return None
    return unquote(parts.path)
