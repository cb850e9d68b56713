"""Text every store and every peer can hold: no lone UTF-16 surrogates, no NUL characters.

Invariants: a string passes when it encodes as UTF-8 and holds no U+0000; the checks walk JSON
values (dict keys included) iteratively, so any depth is safe; the message names what is wrong and
where, in words a user can act on.
"""

from __future__ import annotations

from collections.abc import Iterable

from composer_app.core.errors import ContractError


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored (or None when it can)."""
    if "\x00" in text:
        return f"contains a NUL character at position {text.index(chr(0))}"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (f"contains a lone UTF-16 surrogate (U+{ord(text[exc.start]):04X}) at position "
                f"{exc.start}")
    return None


def check_storable_text(text: str, what: str) -> None:
    """Raise ``ContractError`` when ``text`` (named ``what`` in the message) cannot be stored."""
    problem = text_problem(text)
    if problem is not None:
        raise ContractError(f"The {what} {problem}; remove that character and try again.")


def value_problem(value: object) -> str | None:
    """The first unstorable string of a JSON value (keys included), described; or None."""
    pending: list[object] = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            strings: Iterable[str] = (item,)
        elif isinstance(item, dict):
            strings = [k for k in item if isinstance(k, str)]
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
            continue
        else:
            continue
        for text in strings:
            problem = text_problem(text)
            if problem is not None:
                return f"a text {problem}"
    return None


def check_storable_value(value: object, what: str) -> None:
    """Raise ``ContractError`` when a string anywhere in ``value`` cannot be stored."""
    problem = value_problem(value)
    if problem is not None:
        raise ContractError(f"The {what} has {problem}; remove that character and try again.")
