"""BERT's uncased WordPiece tokenizer, read from a ``vocab.txt`` (one token a line, its id the
line number).

Text is first split the way BERT's basic tokenizer does: control characters dropped, whitespace
normalised, every CJK ideograph a word of its own, lower-cased, accents stripped (NFD, combining
marks removed), every punctuation character a word of its own. Each word is then cut greedily
into the longest vocabulary pieces from its start, continuations written with ``##``; a word
with no such cut, or longer than ``MAX_WORD_CHARS``, is one ``[UNK]``.

Invariants: tokenizing never fails on any string; every id is within the vocabulary; an encoded
sequence is ``[CLS] pieces… [SEP]``, at most ``max_tokens`` long (pieces beyond it are dropped);
the same text always gives the same ids.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

MAX_WORD_CHARS = 100
CONTINUATION = "##"
_SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]")
_CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
               (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _is_cjk(code: int) -> bool:
    return any(low <= code <= high for low, high in _CJK_RANGES)


def _is_punctuation(char: str) -> bool:
    """BERT's rule: ASCII symbols count as punctuation too (``$``, ``^``, ``~``, ...)."""
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_whitespace(char: str) -> bool:
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


def _is_control(char: str) -> bool:
    if char in "\t\n\r":
        return False
    return unicodedata.category(char) in ("Cc", "Cf")


_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ASCII_WORD = re.compile(r"[a-z0-9]+|[!-/:-@\[-`{-~]")


def basic_words(text: str) -> list[str]:
    """The words of ``text`` after BERT's basic tokenization (see the module docstring); ASCII
    text, the usual case, takes a shorter path with the same result."""
    if text.isascii():
        return _ASCII_WORD.findall(_ASCII_CONTROL.sub("", text).lower())
    return general_words(text)


def general_words(text: str) -> list[str]:
    """``basic_words`` for any text, one character at a time."""
    cleaned: list[str] = []
    for char in text:
        code = ord(char)
        if code == 0 or code == 0xFFFD or _is_control(char):
            continue
        if _is_whitespace(char):
            cleaned.append(" ")
        elif _is_cjk(code):
            cleaned.append(f" {char} ")
        else:
            cleaned.append(char)
    words: list[str] = []
    for chunk in "".join(cleaned).split():
        folded = unicodedata.normalize("NFD", chunk.lower())
        plain = "".join(c for c in folded if unicodedata.category(c) != "Mn")
        current: list[str] = []
        for char in plain:
            if _is_punctuation(char):
                if current:
                    words.append("".join(current))
                    current = []
                words.append(char)
            else:
                current.append(char)
        if current:
            words.append("".join(current))
    return words


class WordPieceTokenizer:
    """Text to BERT token ids with one vocabulary (see the module invariant)."""

    def __init__(self, vocabulary: list[str]) -> None:
        missing = [token for token in _SPECIAL if token not in vocabulary]
        if missing:
            raise ValueError(f"the vocabulary lacks {', '.join(missing)}")
        self.tokens = list(vocabulary)
        self.ids: dict[str, int] = {}
        for number, token in enumerate(vocabulary):
            self.ids.setdefault(token, number)
        self.pad_id = self.ids["[PAD]"]
        self.unknown_id = self.ids["[UNK]"]
        self.start_id = self.ids["[CLS]"]
        self.end_id = self.ids["[SEP]"]
        self._longest = max(len(token) for token in vocabulary)

    @classmethod
    def from_file(cls, path: Path) -> WordPieceTokenizer:
        """The tokenizer of a ``vocab.txt`` (UTF-8, one token a line)."""
        lines = path.read_text(encoding="utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return cls([line.rstrip("\r") for line in lines])

    def pieces(self, word: str) -> list[int]:
        """The ids of one basic word's pieces (longest match first), or ``[UNK]`` alone."""
        if len(word) > MAX_WORD_CHARS:
            return [self.unknown_id]
        found: list[int] = []
        start = 0
        while start < len(word):
            end = min(len(word), start + self._longest)
            match = None
            while end > start:
                piece = word[start:end] if start == 0 else CONTINUATION + word[start:end]
                match = self.ids.get(piece)
                if match is not None:
                    break
                end -= 1
            if match is None:
                return [self.unknown_id]
            found.append(match)
            start = end
        return found

    def encode(self, text: str, max_tokens: int = 128) -> list[int]:
        """``[CLS]``, the pieces of ``text`` (cut to fit) and ``[SEP]``: at most ``max_tokens``
        ids (at least 2)."""
        room = max(max_tokens, 2) - 2
        ids: list[int] = []
        for word in basic_words(text):
            if len(ids) >= room:
                break
            ids.extend(self.pieces(word))
        return [self.start_id, *ids[:room], self.end_id]

    def decode(self, ids: list[int]) -> str:
        """The text of ``ids`` as BERT writes it back: pieces joined, ``##`` continuations glued
        to the piece before, special tokens left out."""
        words: list[str] = []
        for number in ids:
            token = self.tokens[number]
            if token in ("[CLS]", "[SEP]", "[PAD]"):
                continue
            if token.startswith(CONTINUATION) and words:
                words[-1] += token[len(CONTINUATION):]
            else:
                words.append(token)
        return " ".join(words)
