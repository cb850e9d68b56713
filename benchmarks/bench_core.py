"""Core codec benchmark: prints a table of medians over the deterministic benchmark input.

Input: ``benchmarks/gen_core_bench_input.py`` (a 1 MB message with 2,000 references to 200 records
of four kinds, and a legacy message with 200 terminal entries). Reference figures are the contract's
TypeScript implementation on Node on the same 2-core machine class.

    ./dev bench core [--repeat N]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from composer_app.core.codecs.clipboard import decode_fragment, encode_fragment
from composer_app.core.codecs.legacy import upgrade_legacy_message
from composer_app.core.codecs.projection import project_for_provider
from composer_app.core.codecs.references import collect_references
from composer_app.core.contracts.clipboard import ClipboardFragment, FragmentSource
from composer_app.core.contracts.messages import decode_message_context
from composer_app.core.contracts.records import decode_record

HERE = Path(__file__).resolve().parent

# name -> (reference median in ms, target in ms)
TARGETS = {
    "collect_references": (20.7, 20.7),
    "project_for_provider": (50.6, 50.6),
    "decode_message_context": (3.8, 3.8),
    "upgrade_legacy_message": (3.8, 3.8),
}


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm up (regex compilation, adapters)
    samples = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def load_input() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench_in.json"
        subprocess.run(
            [sys.executable, str(HERE / "gen_core_bench_input.py"), str(out)],
            check=True,
            capture_output=True,
        )
        data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
        return data


def big_fragment_json() -> str:
    """A fragment of just under 16,000,000 characters: 200 terminal records of 63,500 units whose
    quotes double in JSON, so the compact JSON comes close to the limit."""
    records = []
    for i in range(200):
        text = 'ab"c' * 15_875
        records.append(
            decode_record(
                {
                    "version": 1,
                    "contextId": f"ctx_{i}",
                    "kind": "terminal",
                    "label": f"Terminal {i}",
                    "terminalId": f"t{i}",
                    "terminalLabel": f"Terminal {i}",
                    "lineStart": 1,
                    "lineEnd": 1,
                    "text": text,
                }
            )
        )
    fragment = ClipboardFragment(
        version=1, source=FragmentSource(environment_id="env_bench"), records=records
    )
    encoded = encode_fragment(fragment)
    assert encoded is not None
    return encoded


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    data = load_input()
    text, wire_records, legacy = data["text"], data["records"], data["legacy"]
    records = [decode_record(r) for r in wire_records]
    context_obj = {"version": 1, "records": wire_records}

    results = {
        "collect_references": median_ms(lambda: collect_references(text), args.repeat),
        "project_for_provider": median_ms(
            lambda: project_for_provider(text, records), args.repeat
        ),
        "decode_message_context": median_ms(
            lambda: decode_message_context(context_obj), args.repeat
        ),
        "upgrade_legacy_message": median_ms(lambda: upgrade_legacy_message(legacy), args.repeat),
    }
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"message: {len(text):,} chars, {len(collect_references(text)):,} references")
    print()
    print(f"{'function':<26}{'median ms':>12}{'Node ref ms':>14}{'verdict':>10}")
    failed = False
    for name, value in results.items():
        ref, target = TARGETS[name]
        ok = value <= target
        failed |= not ok
        print(f"{name:<26}{value:>12.2f}{ref:>14.1f}{'ok' if ok else 'SLOW':>10}")

    fragment_json = big_fragment_json()
    size = len(fragment_json)
    samples = []
    peak = 0
    for _ in range(3):
        gc.collect()
        tracemalloc.start()
        start = time.perf_counter()
        fragment = decode_fragment(fragment_json)
        samples.append(time.perf_counter() - start)
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert fragment is not None and len(fragment.records) == 200
        del fragment
    seconds = statistics.median(samples)
    ratio = peak / size
    ok = seconds <= 1.5 and ratio <= 6
    failed |= not ok
    print(f"{'decode_fragment 16 MB':<26}{seconds * 1000:>12.0f}{'<=1500':>14}"
          f"{'ok' if ok else 'SLOW':>10}   ({size:,} chars, peak {ratio:.2f}x its size)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
