"""Composer editor benchmark: a 200 KB draft with 2,000 chips of mixed kinds.

Measures ``set_markdown`` and ``markdown()`` on the draft, and one keystroke in the middle of the
document (key press + release delivered and every resulting event, paint included, processed) in the
composer and in a plain ``QTextEdit`` holding the same text without chips, side by side in one run.
The composer is wired as the app wires it (attachment shelf and debounced draft autosave attached),
so the keystroke covers the whole typing path: leak guard, chip tracker, chip layout and painting,
accessibility bookkeeping and the autosave debounce. Both editors first take ``--warmup`` untimed
keystrokes (caches of a live session are warm).
Budgets: set_markdown <= 300 ms, markdown() <= 50 ms, keystroke <= 1.5x the plain editor.

    ./dev bench editor [--repeat N] [--write docs/benchmarks_editor.md]
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
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QTextEdit

from composer_app.core.codecs.prompt import strip_inline_context_references
from composer_app.core.codecs.references import format_reference
from composer_app.core.document.store import DraftStore
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


def build_input(seed: int = 7) -> tuple[str, str, list[object]]:
    """(markdown with 2,000 chips, the same text with labels instead of chips, records)."""
    rng = random.Random(seed)
    records = rec.every_kind()
    parts: list[str] = []
    plain: list[str] = []
    for n in range(2_000):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 22)))
        sep = "\n" if n % 6 == 5 else " "
        record = records[n % len(records)]
        parts.append(
            words + " " + format_reference(record.kind, record.context_id, record.label) + sep
        )
        plain.append(words + " " + record.label + sep)
    markdown = "".join(parts)
    while len(markdown.encode()) < 200_000:
        markdown += WORDS[len(markdown) % len(WORDS)] + " "
        plain.append(WORDS[len(markdown) % len(WORDS)] + " ")
    return markdown, "".join(plain), records


def timed(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def keystroke(app: QApplication, widget: QTextEdit) -> float:
    press = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_X, Qt.KeyboardModifier.NoModifier, "x")
    release = QKeyEvent(QEvent.Type.KeyRelease, Qt.Key.Key_X, Qt.KeyboardModifier.NoModifier, "x")
    start = time.perf_counter()
    app.sendEvent(widget, press)
    app.sendEvent(widget, release)
    app.processEvents()
    return (time.perf_counter() - start) * 1000


def place_middle(widget: QTextEdit) -> None:
    cursor = widget.textCursor()
    cursor.setPosition(widget.document().characterCount() // 2)
    widget.setTextCursor(cursor)
    widget.ensureCursorVisible()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--keys", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    markdown, plain_text, records = build_input()
    editor = ComposerEditor()
    editor.resize(900, 600)
    editor.show()
    drafts = tempfile.TemporaryDirectory()
    shelf = AttachmentShelf(editor)
    autosave = DraftAutosave(editor, DraftStore(Path(drafts.name)), "bench-thread")
    set_ms = timed(lambda: editor.set_markdown(markdown, records), args.repeat)
    assert editor.markdown() == markdown
    md_ms = timed(editor.markdown, args.repeat)
    plain = QTextEdit()
    plain.setAcceptRichText(False)
    plain.resize(900, 600)
    plain.show()
    plain.setPlainText(plain_text)
    for widget in (editor, plain):
        place_middle(widget)
        app.processEvents()
    for _ in range(args.warmup):
        keystroke(app, editor)
        keystroke(app, plain)
    # Rounds of alternating keystrokes; each round gives a ratio of medians, and the figure is
    # the median round (a shared machine's load drifts between rounds, not within one).
    rounds = []
    for _ in range(args.rounds):
        ours, theirs = [], []
        for _ in range(args.keys):
            ours.append(keystroke(app, editor))
            theirs.append(keystroke(app, plain))
        rounds.append((statistics.median(ours), statistics.median(theirs)))
    rounds.sort(key=lambda r: r[0] / r[1])
    key_ms, plain_ms = rounds[len(rounds) // 2]
    ratios = [r[0] / r[1] for r in rounds]
    autosave.flush()
    shelf.deleteLater()
    drafts.cleanup()
    ratio = key_ms / plain_ms
    rows = [
        ("set_markdown (200 KB, 2,000 chips)", f"{set_ms:.1f} ms", "<= 300 ms", set_ms <= 300),
        ("markdown()", f"{md_ms:.1f} ms", "<= 50 ms", md_ms <= 50),
        ("keystroke, composer (median)", f"{key_ms:.3f} ms", "", True),
        ("keystroke, plain QTextEdit (median)", f"{plain_ms:.3f} ms", "", True),
        ("keystroke ratio (median round)", f"{ratio:.2f}x", "<= 1.5x", ratio <= 1.5),
        ("keystroke ratio, best and worst round", f"{ratios[0]:.2f}x to {ratios[-1]:.2f}x", "",
         True),
    ]
    lines = [
        "# Editor benchmark",
        "",
        f"`./dev bench editor` on {platform.system()} {platform.machine()}, Python "
        f"{platform.python_version()}, offscreen; input: {len(markdown.encode()):,} bytes of "
        f"Markdown ({len(strip_inline_context_references(markdown).encode()):,} bytes of prose "
        f"besides the links) with 2,000 chips of {len(records)} kinds; medians of {args.repeat} "
        f"runs; {args.rounds} rounds of {args.keys} keystrokes alternating between the two "
        f"editors, after {args.warmup} untimed ones each. A keystroke is a key press and release "
        "sent to the editor plus every event they cause, repaint included; the composer has its "
        "attachment shelf and draft autosave attached as in the app; the plain editor holds the "
        "same text with each chip's label as plain text.",
        "",
        "| measure | result | budget | ok |",
        "|---|---|---|---|",
        *(
            f"| {name} | {value} | {budget} | {'yes' if ok else 'NO'} |"
            for name, value, budget, ok in rows
        ),
        "",
    ]
    print("\n".join(lines))
    if args.write:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
