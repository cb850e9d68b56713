"""Assistant Markdown to the rich-text HTML the transcript paints (markdown-it-py, no hand parsing).

Invariants: the token stream is the core's ``parse_markdown`` — the same one ``enumerate_blocks``
counts — so a token group and a section label land on exactly the block the contract addresses;
raw HTML in answer text is shown as text, never interpreted; Markdown images become plain links (the
transcript loads nothing from the network); inline citation tokens are anchors ``cite:<entry id>``
around a ``token:<n>`` image placed after the block's last character (after the whole table for a
table); while streaming, only the closed prefix is rendered as Markdown and the open tail as plain
text followed by a muted caret, so text that is already shown never reflows backwards. A closing
paragraph written wholly in emphasis (an assistant's one-line note about itself) is painted as a
small muted footnote.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from composer_app.core.codecs.sources_blocks import counted_tokens, parse_markdown

CITE_SCHEME = "cite:"
TOKEN_IMAGE = "token:"
STREAMING_CARET = "\u258d"


@dataclass(frozen=True, slots=True)
class MarkdownTheme:
    """Colours the HTML uses (``#rrggbb``)."""

    text: str = "#1f2328"
    muted: str = "#6b7280"
    link: str = "#2563eb"
    code_bg: str = "#f3f4f6"
    highlight: str = "#dbeafe"
    rule: str = "#d1d5db"


_RENDERER = MarkdownIt("commonmark").enable("table")


def _escaped(_r: object, tokens: Sequence[Token], idx: int, *_: Any) -> str:
    return html.escape(tokens[idx].content).replace("\n", "<br>")


def _raw(_r: object, tokens: Sequence[Token], idx: int, *_: Any) -> str:
    return tokens[idx].content


def _code_box(body: str) -> str:
    """Code in a one-cell table, so its shaded box has inner padding (Qt blocks have none)."""
    return (
        '<table class="code" width="100%" cellspacing="0" cellpadding="8" border="0">'
        f"<tr><td><pre>{body}</pre></td></tr></table>\n"
    )


def _fence(_r: object, tokens: Sequence[Token], idx: int, *_: Any) -> str:
    return _code_box(html.escape(tokens[idx].content.rstrip("\n")))


def _image(_r: object, tokens: Sequence[Token], idx: int, *_: Any) -> str:
    token = tokens[idx]
    alt = html.escape(token.content or str(token.attrGet("alt") or "") or "image")
    src = html.escape(str(token.attrGet("src") or ""), quote=True)
    return f'<a href="{src}">{alt}</a>'


_RENDERER.add_render_rule("html_block", _escaped)
_RENDERER.add_render_rule("html_inline", _escaped)
_RENDERER.add_render_rule("image", _image)
_RENDERER.add_render_rule("fence", _fence)
_RENDERER.add_render_rule("code_block", _fence)
_RENDERER.add_render_rule("t3_raw", _raw)


def _raw_token(content: str, *, block: bool) -> Token:
    token = Token("t3_raw", "", 0, block=block)
    token.content = content
    return token


def token_markup(group: Sequence[tuple[int, str]]) -> str:
    """The quiet pills of one token group (number order), each an anchor to its entry."""
    pills = "&#8202;".join(
        f'<a href="{CITE_SCHEME}{html.escape(entry_id, quote=True)}">'
        f'<img src="{TOKEN_IMAGE}{number}" style="vertical-align: middle"></a>'
        for number, entry_id in group
    )
    return "&#8201;" + pills


def label_markup(label: str, theme: MarkdownTheme) -> str:
    """A compact muted section label (``Source-backed`` / ``General knowledge``)."""
    return (
        f'<p style="margin-top:10px; margin-bottom:2px;"><span style="color:{theme.muted};'
        f' font-size:small; font-weight:600;">{html.escape(label)}</span></p>\n'
    )


def _style_open(token: Token, style: str) -> None:
    current = token.attrGet("style")
    token.attrSet("style", f"{current}; {style}" if current else style)


def _decorate(
    tokens: list[Token],
    tokens_by_block: Mapping[int, Sequence[tuple[int, str]]],
    labels: Mapping[int, str],
    highlight: Collection[int],
    theme: MarkdownTheme,
    limit: int,
) -> list[Token]:
    before: dict[int, Token] = {}
    after: dict[int, Token] = {}
    for index, (position, kind) in enumerate(counted_tokens(tokens)):
        if index >= limit:
            break
        opener = tokens[position]
        if index in labels:
            before[position] = _raw_token(label_markup(labels[index], theme), block=True)
        if index in highlight and kind != "code":
            target = tokens[position - 1] if kind == "list-item" else opener
            _style_open(target, f"background-color:{theme.highlight}")
        group = tokens_by_block.get(index)
        if not group or kind == "code":
            continue
        if kind == "table":
            close = next(p for p in range(position, len(tokens)) if tokens[p].type == "table_close")
            after[close] = _raw_token(f"<p>{token_markup(group)}</p>\n", block=True)
        else:
            inline = tokens[position + 1]
            inline.children = [
                *(inline.children or []),
                _raw_token(token_markup(group), block=False),
            ]
    _mute_closing_note(tokens, theme, limit)
    stream: list[Token] = []
    for position, token in enumerate(tokens):
        if position in before:
            stream.append(before[position])
        stream.append(token)
        if position in after:
            stream.append(after[position])
    return stream


def _mute_closing_note(tokens: list[Token], theme: MarkdownTheme, limit: int) -> None:
    """Style the last block as a muted footnote when it is a top-level paragraph in emphasis."""
    counted = counted_tokens(tokens)
    if not counted or len(counted) > limit:
        return
    position, kind = counted[-1]
    opener = tokens[position]
    if kind != "paragraph" or opener.level != 0 or position + 1 >= len(tokens):
        return
    children = tokens[position + 1].children or []
    if len(children) < 3 or children[0].type != "em_open" or children[-1].type != "em_close":
        return
    depth = 0
    for child in children[:-1]:  # the first emphasis must stay open until the last child
        depth += {"em_open": 1, "em_close": -1}.get(child.type, 0)
        if depth == 0:
            return
    _style_open(opener, f"color:{theme.muted}; font-size:small; margin-top:10px")


def _tail_start(tokens: Sequence[Token]) -> tuple[int, int] | None:
    """``(counted index, first source line)`` of the last counted block, if any."""
    counted = counted_tokens(tokens)
    if not counted:
        return None
    position, _ = counted[-1]
    lines = tokens[position].map or (0, 0)
    return len(counted) - 1, lines[0]


def answer_html(
    text: str,
    *,
    tokens: Mapping[int, Sequence[tuple[int, str]]] | None = None,
    labels: Mapping[int, str] | None = None,
    highlight: Collection[int] = (),
    streaming: bool = False,
    theme: MarkdownTheme | None = None,
) -> str:
    """The HTML body of an assistant message with its tokens, labels and highlighted blocks."""
    theme = theme or MarkdownTheme()
    parsed = parse_markdown(text)
    limit = len(counted_tokens(parsed))
    tail = ""
    if streaming:
        start = _tail_start(parsed)
        if start is not None:
            limit, first_line = start
            lines = text.split("\n")
            tail = "\n".join(lines[first_line:])
            parsed = parse_markdown("\n".join(lines[:first_line]))
    stream = _decorate(parsed, tokens or {}, labels or {}, highlight, theme, limit)
    body = str(_RENDERER.renderer.render(stream, _RENDERER.options, {}))
    if streaming:  # a quiet caret says the answer is still being written
        caret = f'<span style="color:{theme.muted};">{STREAMING_CARET}</span>'
        body += f'<p style="white-space: pre-wrap;">{html.escape(tail)}{caret}</p>'
    return body


def document_css(theme: MarkdownTheme) -> str:
    """The default style sheet of a rendered answer."""
    return (
        f"a {{ color: {theme.link}; text-decoration: none; }}"
        f" code {{ background-color: {theme.code_bg}; }}"
        f" table.code {{ background-color: {theme.code_bg}; margin-top: 4px; margin-bottom: 8px; }}"
        f" pre {{ margin: 0px; }}"
        f" table {{ border-color: {theme.rule}; }}"
        f" th, td {{ padding: 3px 6px; }}"
    )
