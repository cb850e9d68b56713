"""Composer editor benchmark: ratios to a plain ``QTextEdit`` holding the same text, in one run.

Two inputs: 2,000 chips of mixed kinds in about 280 KB of Markdown, and 20,000 chips in about
2 MB. The plain editor holds the same prose with each chip's label as plain text. Everything is
measured in the same process and interleaved between the two editors, so the ratios hold on any
machine (absolute times move with load, ratios much less). Times are CPU time of the GUI thread
(``time.thread_time``), so waiting for a core on a busy machine does not count; the stall is also
given as wall-clock time.

* ``load``: ``set_markdown`` vs ``setPlainText``, each until the whole document is laid out and the
  events it causes are processed.
* ``serialize``: ``markdown()`` vs ``toPlainText()``.
* ``keystroke, type and delete``: median time per key while typing ``x`` and deleting it with
  Backspace in turn, at the middle of the document (a key press and release plus every event they
  cause, repaint included).
* ``keystroke, typing alone``: total time of a run of typed keys.
* ``chip handler calls``: how often Qt calls into the Python chip handler per key
  (``intrinsicSize``, ``drawObject``), counted untimed in an editor of its own typing as above.
* ``longest stall``: the longest single stretch the GUI thread is busy (a keystroke, or one pass of
  the event loop between keys) while typing bursts at ~50 keys/s into the composer with its draft
  autosave attached as in the app, pausing between bursts so the autosave fires.

The composer is wired as the app wires it (attachment shelf and debounced draft autosave attached).
Targets: keystroke <= 1.2x plain at 2,000 chips and <= 1.5x at 20,000; set_markdown <= 4x
setPlainText; markdown() <= 5x toPlainText(); no stall over 16 ms at 2,000 chips.

    ./dev bench editor [--rounds N] [--keys N] [--only 2000|20000] [--write FILE]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QEvent, QRect, QRectF, QSizeF, Qt
from PySide6.QtGui import QKeyEvent, QPainter, QTextFormat
from PySide6.QtWidgets import QApplication, QTextEdit

from composer_app.core.codecs.references import format_reference
from composer_app.core.document.store import DraftStore
from composer_app.ui.composer import editor as editor_module
from composer_app.ui.composer.chips import ChipRenderer
from composer_app.ui.composer.drafts import DraftAutosave
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.shelf import AttachmentShelf
from tests.core.document import sample_records as rec

WORDS = [
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "a",
    "lazy",
    "dog",
    "while",
    "context",
    "chips",
    "keep",
    "their",
    "place",
    "in",
    "long",
    "prompts",
    "about",
    "refactoring",
    "modules",
    "and",
    "reviewing",
    "diffs",
]

SCALES = {
    # chips: (words per chip paragraph range, minimum Markdown bytes)
    2_000: ((8, 22), 200_000),
    20_000: ((4, 10), 2_000_000),
}


def build_input(chips: int, seed: int = 7) -> tuple[str, str, list[object]]:
    """(Markdown with ``chips`` chips, the same text with labels instead of chips, records)."""
    (low, high), min_bytes = SCALES[chips]
    rng = random.Random(seed)
    records = rec.every_kind()
    parts: list[str] = []
    plain: list[str] = []
    for n in range(chips):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))
        sep = "\n" if n % 6 == 5 else " "
        record = records[n % len(records)]
        parts.append(
            words + " " + format_reference(record.kind, record.context_id, record.label) + sep
        )
        plain.append(words + " " + record.label + sep)
    size = sum(len(p.encode()) for p in parts)
    n = 0
    while size < min_bytes:
        word = WORDS[n % len(WORDS)] + " "
        parts.append(word)
        plain.append(word)
        size += len(word)
        n += 1
    return "".join(parts), "".join(plain), records


CLOCK = time.thread_time
"""GUI-thread CPU time: what the editor costs, without the waits of a shared, loaded machine."""


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = CLOCK()
        fn()
        samples.append(CLOCK() - start)
    return statistics.median(samples) * 1000


_X = (Qt.Key.Key_X, "x")
_BACKSPACE = (Qt.Key.Key_Backspace, "\b")


def key(app: QApplication, widget: QTextEdit, which: tuple[Qt.Key, str]) -> float:
    """Milliseconds for one key press and release and every event they cause."""
    code, text = which
    press = QKeyEvent(QEvent.Type.KeyPress, code, Qt.KeyboardModifier.NoModifier, text)
    release = QKeyEvent(QEvent.Type.KeyRelease, code, Qt.KeyboardModifier.NoModifier, text)
    start = CLOCK()
    app.sendEvent(widget, press)
    app.sendEvent(widget, release)
    app.processEvents()
    return (CLOCK() - start) * 1000


def settle(app: QApplication, widget: QTextEdit) -> None:
    """Lay the whole document out and process what that causes (the editor is then ready)."""
    doc = widget.document()
    doc.documentLayout().blockBoundingRect(doc.lastBlock())
    app.processEvents()


def place_middle(widget: QTextEdit) -> None:
    cursor = widget.textCursor()
    cursor.setPosition(widget.document().characterCount() // 2)
    widget.setTextCursor(cursor)
    widget.ensureCursorVisible()


def type_and_delete(app: QApplication, widget: QTextEdit, keys: int) -> list[float]:
    return [key(app, widget, _X if n % 2 == 0 else _BACKSPACE) for n in range(keys)]


def typing_alone(app: QApplication, widget: QTextEdit, keys: int) -> float:
    total = sum(key(app, widget, _X) for _ in range(keys))
    for _ in range(keys):
        key(app, widget, _BACKSPACE)
    return total


def longest_stall(app: QApplication, widget: QTextEdit, bursts: int,
                  pause_s: float) -> tuple[float, float]:
    """The longest busy stretch of the GUI thread while typing bursts (50 keys/s) and pausing.

    Every keystroke and every pass of the event loop between keys is one stretch; returns its
    longest GUI-thread CPU time and its longest wall-clock time (ms).
    """
    longest_cpu = longest_wall = 0.0

    def stretch(fn: Callable[[], object]) -> None:
        nonlocal longest_cpu, longest_wall
        wall, cpu = time.perf_counter(), CLOCK()
        fn()
        longest_cpu = max(longest_cpu, (CLOCK() - cpu) * 1000)
        longest_wall = max(longest_wall, (time.perf_counter() - wall) * 1000)

    def pump(seconds: float) -> None:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            stretch(app.processEvents)
            time.sleep(0.001)

    for _ in range(bursts):
        for n in range(40):
            stretch(lambda n=n: key(app, widget, _X if n % 4 != 3 else _BACKSPACE))
            pump(0.02)
        pump(pause_s)
    return longest_cpu, longest_wall


def handler_calls(app: QApplication, markdown: str, records: list[object],
                  keys: int) -> tuple[float, float]:
    """Calls into the chip handler per key, ``(intrinsicSize, drawObject)``, typing and deleting
    in turn at the middle as the timed runs do.

    Counted in an editor of its own built with a counting renderer, so the timed editors run
    the product's renderer untouched.
    """
    calls = [0, 0]

    class CountingRenderer(ChipRenderer):
        def intrinsicSize(self, doc: object, pos: int, fmt: QTextFormat) -> QSizeF:
            calls[0] += 1
            return super().intrinsicSize(doc, pos, fmt)

        def drawObject(self, painter: QPainter, area: QRectF | QRect, doc: object, pos: int,
                       fmt: QTextFormat) -> None:
            calls[1] += 1
            super().drawObject(painter, area, doc, pos, fmt)

    editor_module.ChipRenderer = CountingRenderer  # type: ignore[attr-defined]
    try:
        editor = ComposerEditor()
    finally:
        editor_module.ChipRenderer = ChipRenderer  # type: ignore[attr-defined]
    editor.resize(900, 600)
    editor.show()
    editor.set_markdown(markdown, records)
    settle(app, editor)
    place_middle(editor)
    app.processEvents()
    type_and_delete(app, editor, 20)
    calls[:] = [0, 0]
    type_and_delete(app, editor, keys)
    editor.deleteLater()
    app.processEvents()
    return calls[0] / keys, calls[1] / keys


def measure(app: QApplication, chips: int, args: argparse.Namespace) -> dict[str, object]:
    markdown, plain_text, records = build_input(chips)
    drafts = tempfile.TemporaryDirectory()
    editor = ComposerEditor()
    editor.resize(900, 600)
    editor.show()
    shelf = AttachmentShelf(editor)
    plain = QTextEdit()
    plain.setAcceptRichText(False)
    plain.resize(900, 600)
    plain.show()
    repeat = args.repeat if chips <= 2_000 else max(3, args.repeat // 2)

    def load_ours() -> None:
        editor.set_markdown(markdown, records)
        settle(app, editor)

    def load_plain() -> None:
        plain.setPlainText(plain_text)
        settle(app, plain)

    load = [(median_ms(load_ours, 1), median_ms(load_plain, 1)) for _ in range(repeat)]
    load_ms = statistics.median(a for a, _ in load), statistics.median(b for _, b in load)
    assert editor.markdown() == markdown, "set_markdown/markdown() round trip changed the text"
    ser = [(median_ms(editor.markdown, 1), median_ms(plain.toPlainText, 1))
           for _ in range(repeat * 3)]
    ser_ms = statistics.median(a for a, _ in ser), statistics.median(b for _, b in ser)
    # Autosave is attached once loading is measured: a debounced save must not land inside the
    # plain editor's timed runs. Between turns it is flushed untimed for the same reason.
    autosave = DraftAutosave(editor, DraftStore(Path(drafts.name)), "bench-thread")
    editor.set_markdown(markdown, records)
    settle(app, editor)
    autosave.flush()
    for widget in (editor, plain):
        settle(app, widget)
        place_middle(widget)
        app.processEvents()
    for _ in range(args.warmup):
        type_and_delete(app, editor, 2)
        type_and_delete(app, plain, 2)
    autosave.flush()
    # Rounds interleave the editors; each gives a ratio of medians and the figure is the median
    # round (a shared machine's load drifts between rounds, not within one).
    rounds = []
    for _ in range(args.rounds):
        ours = type_and_delete(app, editor, args.keys)
        autosave.flush()
        theirs = type_and_delete(app, plain, args.keys)
        rounds.append((statistics.median(ours), statistics.median(theirs)))
    rounds.sort(key=lambda r: r[0] / r[1])
    mixed = rounds[len(rounds) // 2]
    alone = []
    for _ in range(args.rounds):
        ours_total = typing_alone(app, editor, args.keys // 2)
        autosave.flush()
        alone.append((ours_total, typing_alone(app, plain, args.keys // 2)))
    alone.sort(key=lambda r: r[0] / r[1])
    typed = alone[len(alone) // 2]
    autosave.flush()
    stall = longest_stall(app, editor, bursts=3, pause_s=0.5)
    stall_plain = longest_stall(app, plain, bursts=2, pause_s=0.1)
    assert editor.markdown() != "", "the composer lost its text"
    autosave.flush()
    calls = handler_calls(app, markdown, records, args.keys)  # untimed, after every timed run
    shelf.deleteLater()
    editor.deleteLater()
    plain.deleteLater()
    app.processEvents()
    drafts.cleanup()
    return {
        "chips": chips,
        "bytes": len(markdown.encode()),
        "load": load_ms,
        "serialize": ser_ms,
        "mixed": mixed,
        "mixed_spread": (rounds[0][0] / rounds[0][1], rounds[-1][0] / rounds[-1][1]),
        "alone": typed,
        "stall": (stall, stall_plain),
        "calls": calls,
    }


def rows_for(result: dict[str, object]) -> list[tuple[str, str, str, str, str, bool]]:
    chips = int(result["chips"])  # type: ignore[call-overload]
    key_target = 1.2 if chips <= 2_000 else 1.5
    rows = []

    def row(name: str, pair: object, target: float | None, fmt: str = "{:.2f} ms") -> None:
        ours, theirs = pair  # type: ignore[attr-defined]
        ratio = ours / theirs
        rows.append((name, fmt.format(ours), fmt.format(theirs), f"{ratio:.2f}x",
                     f"<= {target}x" if target else "reported",
                     target is None or ratio <= target))

    row("load: set_markdown vs setPlainText", result["load"], 4)
    row("serialize: markdown() vs toPlainText()", result["serialize"], 5)
    row("keystroke, type and delete in turn (median per key)", result["mixed"], key_target,
        "{:.3f} ms")
    lo, hi = result["mixed_spread"]  # type: ignore[attr-defined]
    rows.append(("keystroke ratio, best and worst round", "", "", f"{lo:.2f}x to {hi:.2f}x",
                 "", True))
    row("keystroke, typing alone (total)", result["alone"], None, "{:.1f} ms")
    sizes, draws = result["calls"]  # type: ignore[attr-defined]
    rows.append(("chip handler calls per key (intrinsicSize; drawObject)",
                 f"{sizes:.1f}; {draws:.1f}", "", "", "reported", True))
    (stall, stall_wall), (plain_stall, plain_wall) = result["stall"]  # type: ignore[attr-defined]
    limit = 16.0 if chips <= 2_000 else None
    rows.append(("longest GUI-thread stall, typing with autosave (CPU; wall)",
                 f"{stall:.1f} ms; {stall_wall:.1f} ms",
                 f"{plain_stall:.1f} ms; {plain_wall:.1f} ms",
                 "", "<= 16 ms" if limit else "reported", limit is None or stall <= limit))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", type=int, choices=sorted(SCALES))
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    scales = [args.only] if args.only else sorted(SCALES)
    lines = [
        "# Editor benchmark",
        "",
        f"`./dev bench editor` on {platform.system()} {platform.machine()}, Python "
        f"{platform.python_version()}, offscreen. The plain editor is a `QTextEdit` holding the "
        f"same text with each chip's label as plain text; {args.rounds} rounds of {args.keys} "
        f"keys alternating between the editors after {args.warmup} untimed ones each; loads and "
        f"serializations are medians of interleaved runs.",
        "",
    ]
    for chips in scales:
        result = measure(app, chips, args)
        lines += [
            f"## {chips:,} chips, {int(result['bytes']):,} bytes of Markdown",  # type: ignore[call-overload]
            "",
            "| measure | composer | plain | ratio | target | ok |",
            "|---|---:|---:|---:|---|---|",
            *(f"| {n} | {a} | {b} | {r} | {t} | {'yes' if ok else 'NO'} |"
              for n, a, b, r, t, ok in rows_for(result)),
            "",
        ]
        print("\n".join(lines[-(len(rows_for(result)) + 5):]), flush=True)
    if args.write:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
