"""Clipboard benchmark: copy then paste of 500 chips, and a 1 MB plain-text paste.

Measures, through the real Qt clipboard (offscreen):
* copy then paste of a selection holding 500 chips that point at 200 distinct records (a
  fragment carries at most 200); copy builds the three formats and hands them to the clipboard,
  paste decodes the fragment, plans the import, adds the records to an empty draft of another
  composer and inserts the chips — budget 200 ms;
* pasting 1 MB of plain text: the time until ``insertFromMimeData`` returns control (the text
  is folded into ``pasted-text.txt``; the file is written by a worker thread) — budget 100 ms.

    ./dev bench clipboard [--repeat N] [--write docs/benchmarks_clipboard.md]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QThreadPool
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from composer_app.core.codecs.references import format_reference
from composer_app.core.contracts.records import decode_record
from composer_app.ui.composer.attachment_uploads import AttachmentUploads
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.image_paste import PastedFiles
from composer_app.ui.composer.mime import fresh_mime_data

CHIPS = 500
RECORDS = 200  # MAX_RECORDS: a fragment carries at most 200 records
TEXT_BYTES = 1_000_000


def records(n: int) -> list[object]:
    """``n`` distinct records of several kinds (terminal, review comment, mention, skill)."""
    out: list[object] = []
    for i in range(n):
        kind = ("terminal", "review-comment", "mention", "skill")[i % 4]
        wire: dict[str, object] = {"version": 1, "contextId": f"{kind}_{i}", "kind": kind,
                                   "label": f"item {i}"}
        if kind == "terminal":
            wire.update(terminalId="t1", terminalLabel="Terminal 1", lineStart=i, lineEnd=i + 3,
                        text=f"$ make test {i}\nok\n")
        elif kind == "review-comment":
            wire.update(sectionId=f"s{i}", sectionTitle="Review", filePath=f"src/m{i}.py",
                        startIndex=1, endIndex=2, rangeLabel="+4", text=f"comment {i}",
                        diff="@@ -1 +1 @@\n-a\n+b")
        elif kind == "mention":
            wire.update(path=f"src/file_{i}.py")
        else:
            wire.update(name=f"skill-{i}")
        out.append(decode_record(wire))
    return out


def make_editor(uploads: AttachmentUploads, thread: str) -> ComposerEditor:
    editor = ComposerEditor(environment_id="env_bench")
    editor.thread_id = thread
    editor.use_uploads(uploads)
    editor.resize(900, 600)
    editor.show()
    return editor


def copy_paste_once(source: ComposerEditor, target: ComposerEditor) -> float:
    target.set_markdown("")
    source.selectAll()
    clipboard = QGuiApplication.clipboard()
    start = time.perf_counter()
    clipboard.setMimeData(source.createMimeDataFromSelection())
    target.insertFromMimeData(clipboard.mimeData())
    elapsed = (time.perf_counter() - start) * 1000
    assert len(target.draft.records) == RECORDS, len(target.draft.records)
    assert target.markdown() == source.markdown()
    return elapsed


def big_paste_once(app: QApplication, target: ComposerEditor, text: str) -> float:
    target.set_markdown("")
    md = fresh_mime_data()  # Qt-made: safe to leave on the clipboard at exit
    md.setText(text)
    QGuiApplication.clipboard().setMimeData(md)
    start = time.perf_counter()
    target.paste()
    elapsed = (time.perf_counter() - start) * 1000
    [record] = target.draft.records.values()
    assert record.name == "pasted-text.txt"
    QThreadPool.globalInstance().waitForDone()
    app.processEvents()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        uploads = AttachmentUploads(files=PastedFiles(Path(tmp) / "pasted"),
                                    environment_id="env_bench")
        source = make_editor(uploads, "thr_a")
        target = make_editor(uploads, "thr_b")
        held: list = records(RECORDS)
        markdown = "".join(
            f"note {n} " + format_reference(held[n % RECORDS].kind, held[n % RECORDS].context_id,
                                            held[n % RECORDS].label)
            + ("\n" if n % 10 == 9 else " ")
            for n in range(CHIPS))
        source.set_markdown(markdown, held)
        copy_ms = statistics.median(copy_paste_once(source, target) for _ in range(args.repeat))
        text = ("lorem ipsum dolor sit amet " * (TEXT_BYTES // 27 + 1))[:TEXT_BYTES]
        paste_ms = statistics.median(big_paste_once(app, target, text)
                                     for _ in range(args.repeat))
    rows = [
        (f"copy then paste, {CHIPS} chips", f"{copy_ms:.1f} ms", "<= 200 ms", copy_ms <= 200),
        ("paste 1 MB of plain text (folded), control back", f"{paste_ms:.1f} ms", "<= 100 ms",
         paste_ms <= 100),
    ]
    lines = [
        "# Clipboard benchmark",
        "",
        f"`./dev bench clipboard` on {platform.system()} {platform.machine()}, Python "
        f"{platform.python_version()}, offscreen, real Qt clipboard; medians of {args.repeat} "
        f"runs. Copy then paste: {CHIPS} chips pointing at {RECORDS} distinct records (the "
        "fragment's maximum; terminal, review comment, mention, skill) in "
        f"{len(markdown.encode()):,} bytes of Markdown, copied from one composer (three formats) "
        "and pasted into an empty composer of another thread (fragment decoded, import planned, "
        f"{RECORDS} records added, {CHIPS} chips inserted). 1 MB paste: time until the paste "
        "returns; the text is folded into `pasted-text.txt`, written by a worker thread.",
        "",
        "| measure | result | budget | ok |",
        "|---|---|---|---|",
        *(f"| {name} | {value} | {budget} | {'yes' if ok else 'NO'} |"
          for name, value, budget, ok in rows),
        "",
    ]
    print("\n".join(lines))
    if args.write:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text("\n".join(lines), encoding="utf-8")
    QGuiApplication.clipboard().clear()


if __name__ == "__main__":
    main()
