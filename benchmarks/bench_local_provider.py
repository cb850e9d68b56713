"""Offline provider benchmark: index build, incremental re-index and answer latency.

Generates a deterministic knowledge folder (default 2,000 files, 50 MB: Markdown, plain text and
Python with a Zipf-distributed synthetic vocabulary and one unique fact per 100 files), then
measures:

* index build: the first ``KnowledgeIndex.refresh()`` of the folder (target <= 60 s);
* incremental re-index: ``refresh()`` after one file changed (median; target <= 200 ms);
* answer with sources: ``LocalProvider.answer()`` for a question whose answer is in one file,
  including the per-turn refresh scan (median; target <= 300 ms);
* paraphrased questions, which no sentence answers by its words, so the sentence model judges
  the best candidates (``answer_meaning``): each asked once (nothing cached), alternately with
  and without the model in the same process, wall and thread CPU time (median; target <= 300 ms).

    .venv/bin/python benchmarks/bench_local_provider.py [--files N] [--megabytes M] [--repeat R]
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from composer_app.server.providers.base import TurnRequest
from composer_app.server.providers.knowledge_index import KnowledgeIndex
from composer_app.server.providers.local import LocalProvider
from composer_app.server.providers.sentence_embeddings import SentenceEmbeddings

SYLLABLES = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "de", "va", "zu", "be", "xo", "fi"]
EXTENSIONS = (".md", ".txt", ".py")


def vocabulary(rng: random.Random, size: int = 20_000) -> list[str]:
    words = {"".join(rng.choices(SYLLABLES, k=rng.randint(2, 4))) for _ in range(size * 2)}
    return sorted(words)[:size]


def fact(number: int) -> tuple[str, str]:
    """A unique sentence planted in one file and the question it answers."""
    return (
        f"The project codename for initiative {number} is Aurora{number} and its budget owner "
        f"is Quinlan{number}.",
        f"Who is the budget owner of initiative {number}?",
    )


def unanswered(rng: random.Random, words: list[str]) -> str:
    """A question made of three of the folder's words that no sentence answers by its words, so
    the sentence model judges the best candidates (long synthetic lines: about the most tokens a
    candidate can have)."""
    first, second, third = rng.sample(words[200:5_000], 3)
    return f"What does the guide say about {first} and {second} during the {third} review?"


FOOTPRINT = """
import time
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
import composer_app.server.app, composer_app.server.providers.local
base = rss()
from composer_app.server.providers.sentence_embeddings import SentenceEmbeddings
model = SentenceEmbeddings()
begin = time.perf_counter()
ready = model.available()
loaded = time.perf_counter() - begin
grown = rss() - base
texts = [f"Sentence {n} is about rooms, tickets and the staging deploy." for n in range(200)]
model.similarities(["When is the staging deploy?"], texts)
state = "loaded" if ready else "unavailable"
print(f"{state} in {loaded * 1000:.0f} ms (NumPy's import and a warm-up included), resident"
      f" memory +{grown:.0f} MB, +{rss() - base:.0f} MB with 200 sentences cached")
"""


def model_footprint() -> str:
    """The sentence model's load time and memory, measured in a fresh process (Linux)."""
    result = subprocess.run([sys.executable, "-c", FOOTPRINT], capture_output=True, text=True,
                            timeout=120, check=False)
    return result.stdout.strip() or result.stderr.strip()[-200:]


def generate(root: Path, files: int, total_bytes: int, seed: int = 7) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    words = vocabulary(rng)
    weights = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(words))))
    per_file = total_bytes // files
    questions = []
    for number in range(files):
        ext = EXTENSIONS[number % len(EXTENSIONS)]
        folder = root / f"area{number % 20:02d}" / f"topic{number % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        lines: list[str] = []
        size = 0
        if number % 100 == 0:
            sentence, question = fact(number)
            lines.append(sentence if ext != ".py" else f"# {sentence}")
            questions.append((f"doc{number:04d}{ext}", question))
        while size < per_file:
            line = " ".join(rng.choices(words, cum_weights=weights, k=rng.randint(8, 16)))
            if ext == ".md" and rng.random() < 0.05:
                line = "## " + line
            elif ext == ".py":
                head = line.split()[0]
                line = f"    value = compute('{line}')" if rng.random() < 0.8 else f"def {head}():"
            elif rng.random() < 0.1:
                line = ""
            lines.append(line)
            size += len(line) + 1
        (folder / f"doc{number:04d}{ext}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return questions


def folder_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=2_000)
    parser.add_argument("--megabytes", type=float, default=50.0)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root, data = Path(tmp) / "knowledge", Path(tmp) / "data"
        started = time.perf_counter()
        questions = generate(root, args.files, int(args.megabytes * 1024 * 1024))
        generated = time.perf_counter() - started
        size = folder_bytes(root)
        print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
              f"Python {platform.python_version()}")
        print(f"folder: {args.files:,} files, {size / 1e6:.1f} MB (generated in {generated:.1f} s)")

        index = KnowledgeIndex.in_data_dir(root, data)
        stats = index.refresh()
        build = stats.seconds
        print(f"index build: {build:.2f} s, {stats.indexed:,} files, "
              f"{index.store.passage_count():,} passages")

        paths = sorted(root.rglob("*.md"))
        reindex = []
        for number, path in enumerate(paths[: args.repeat]):
            with path.open("a", encoding="utf-8") as handle:
                handle.write(f"Appended note {number} about the zebra crossing.\n")
            result = index.refresh()
            assert result.indexed == 1, result
            reindex.append(result.seconds * 1000)
        index.close()

        provider = LocalProvider(root, data)
        answers = []
        for name, question in itertools.islice(itertools.cycle(questions), args.repeat):
            request = TurnRequest("thr_bench", "turn", "msg", question, "")
            begin = time.perf_counter()
            answer = provider.answer(request)
            answers.append((time.perf_counter() - begin) * 1000)
            used = [e for e in (answer.sources or {}).get("entries", [])
                    if e["sourceUsage"] == "used"]
            assert [e["title"] for e in used] == [name], (question, used)
        model = SentenceEmbeddings(capacity=0)  # nothing cached: every question encoded anew
        model_ready = model.available()
        logging.getLogger(SentenceEmbeddings.__module__).setLevel(logging.ERROR)
        without = SentenceEmbeddings(locate=lambda: None)
        without.available()
        judged: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        rng = random.Random(11)
        words = vocabulary(random.Random(7))
        for turn in range(args.repeat):
            question = unanswered(rng, words)
            for use_model in ((True, False) if turn % 2 else (False, True)):
                provider.embeddings = model if use_model else without
                request = TurnRequest("thr_bench", "turn", "msg", question, "")
                begin, cpu = time.perf_counter(), time.thread_time()
                provider.answer(request)
                judged[use_model].append(((time.perf_counter() - begin) * 1000,
                                          (time.thread_time() - cpu) * 1000))
        provider.close()

    rows = [
        ("index build (once)", f"{build:.1f} s", "≤ 60 s", build <= 60),
        ("incremental re-index, one changed file (median)",
         f"{statistics.median(reindex):.0f} ms", "≤ 200 ms", statistics.median(reindex) <= 200),
        ("answer with sources (median)", f"{statistics.median(answers):.0f} ms", "≤ 300 ms",
         statistics.median(answers) <= 300),
    ]
    print(f"first answer (reads the lexicon once): {answers[0]:.0f} ms; 90th percentile "
          f"answer: {statistics.quantiles(answers, n=10)[-1]:.0f} ms")
    print()
    print("| measure | result | target | verdict |")
    print("|---|---:|---|---|")
    for name, value, target, ok in rows:
        print(f"| {name} | {value} | {target} | {'ok' if ok else 'SLOW'} |")
    print(f"\nre-index p90 {statistics.quantiles(reindex, n=10)[-1]:.0f} ms; "
          f"answer p90 {statistics.quantiles(answers, n=10)[-1]:.0f} ms")
    print(f"\nsentence model, in a fresh process: {model_footprint()}")
    if not model_ready:
        print(f"the sentence model is unavailable here ({model.problem}): both rows are words only")
    print("| question no sentence answers by its words | median wall | p90 wall "
          "| median thread CPU |")
    print("|---|---:|---:|---:|")
    for use_model in (False, True):
        walls = [w for w, _ in judged[use_model]]
        cpus = [c for _, c in judged[use_model]]
        print(f"| {'with the model' if use_model else 'words only'} | "
              f"{statistics.median(walls):.0f} ms | {statistics.quantiles(walls, n=10)[-1]:.0f} ms"
              f" | {statistics.median(cpus):.0f} ms |")
    slow = statistics.median(w for w, _ in judged[True]) > 300
    return 0 if all(ok for *_, ok in rows) and not slow else 1


if __name__ == "__main__":
    sys.exit(main())
