"""Costs that stay flat as threads, messages and events grow: each measured at 1x and 10x.

    ./dev bench server_scale [--store sqlite|postgres|both] [--scale 1.0] [--output FILE]

Cases (sizes at ``--scale 1``; 10x is ten times each):

* thread list: the shell snapshot of a user with 1,000 threads (its cost per listed thread);
* long thread: one page (50 turns) of a thread with 10,000 messages, newest and oldest pages;
* resume: a client of one thread resuming after 10,000 events of that thread (over the replay
  limit, so it gets a snapshot, not a replay);
* event log: one command appended, and the newest 100 events replayed, on a log of 1,000,000 rows.

The big cases are built with bulk SQL inserts (``generate_series`` / a recursive CTE), then
measured through the store's own read and write paths. Times are medians of repeated runs.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from composer_app.server.hub import Subscription  # noqa: E402
from composer_app.server.routes.threads import shell_snapshot, thread_snapshot  # noqa: E402
from composer_app.server.store.base import Transaction  # noqa: E402
from composer_app.server.store.executor import ExecutorStore  # noqa: E402
from composer_app.server.store.postgres import PostgresStore  # noqa: E402
from composer_app.server.store.sqlite import SqliteStore  # noqa: E402
from composer_app.server.ws import _catch_up  # noqa: E402
from tests.support.postgres import throwaway_cluster  # noqa: E402

AT = "2026-12-01T00:00:00.000Z"


def median_ms(fn: Callable[[], Any], repeat: int = 7) -> float:
    fn()
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def bulk(store: ExecutorStore, sql: str) -> None:
    """Run one bulk statement in a write transaction (``?``-free SQL)."""
    store.write_sync(lambda tx: tx._x(sql, ()))  # type: ignore[attr-defined]


def analyze(store: ExecutorStore) -> None:
    """Refresh PostgreSQL's planner statistics after a bulk build, as autovacuum would."""
    if isinstance(store, PostgresStore):
        import psycopg

        with psycopg.connect(store.conninfo, autocommit=True) as conn:
            conn.execute("ANALYZE")


def series(store: ExecutorStore, n: int) -> str:
    """A row source of ``i`` = 1..n in the store's dialect."""
    if isinstance(store, PostgresStore):
        return f"generate_series(1, {n}) AS g(i)"
    return (f"(WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < {n}) "
            "SELECT i FROM s)")


def make_threads(store: ExecutorStore, user: str, prefix: str, n: int) -> None:
    cat = "'" + prefix + "_' || i"
    bulk(store, f"INSERT INTO threads (thread_id, user_id, title, created_at, updated_at, "
                f"last_sequence, deleted_at) SELECT {cat}, '{user}', 'T ' || i, '{AT}', '{AT}', "
                f"0, NULL FROM {series(store, n)}")


def make_events(store: ExecutorStore, user: str, thread: str, n: int,
                kind: str = "thread.meta-updated", start_version: int = 0) -> None:
    top = store.read_sync(lambda r: r.max_sequence())
    extra = "OVERRIDING SYSTEM VALUE " if isinstance(store, PostgresStore) else ""
    bulk(store, f"INSERT INTO events (sequence, event_id, user_id, thread_id, stream_version, "
                f"event_type, occurred_at, device_id, command_id, payload_json) {extra}"
                f"SELECT {top} + i, 'evt_{thread}_' || i, '{user}', '{thread}', "
                f"{start_version} + i, '{kind}', '{AT}', "
                f"NULL, NULL, "
                f"'{{\"title\":\"x\"}}' FROM {series(store, n)}")
    if isinstance(store, PostgresStore):
        bulk(store, "SELECT setval(pg_get_serial_sequence('events', 'sequence'), "
                    "(SELECT MAX(sequence) FROM events))")
        bulk(store, f"UPDATE threads SET stream_version = {start_version + n} "
                    f"WHERE user_id = '{user}' AND thread_id = '{thread}'")


def make_messages(store: ExecutorStore, user: str, thread: str, n: int) -> None:
    bulk(store, f"INSERT INTO messages (user_id, message_id, thread_id, turn_id, role, text, "
                f"is_streaming, attachments_json, context_json, sources_json, metadata_json, "
                f"created_at, updated_at, completed_at, created_sequence) "
                f"SELECT '{user}', 'msg_{thread}_' || i, "
                f"'{thread}', NULL, CASE WHEN mod(i, 2) = 0 THEN 'assistant' ELSE 'user' END, "
                f"'message ' || i, 0, '[]', NULL, NULL, NULL, '{AT}', '{AT}', '{AT}', i "
                f"FROM {series(store, n)}")


def measure_store(store: ExecutorStore, scale: float) -> dict[str, tuple[float, float]]:
    """{case: (1x ms, 10x ms)}."""
    out: dict[str, tuple[float, float]] = {}
    sizes = {"threads": 1000, "messages": 10_000, "resume": 10_000, "log": 1_000_000}
    sizes = {k: max(10, int(v * scale)) for k, v in sizes.items()}
    results: dict[str, list[float]] = {k: [] for k in
                                       ("list", "list_per_thread", "page_new", "page_old",
                                        "resume", "append", "replay")}
    for factor in (1, 10):
        tag = f"x{factor}"
        n = sizes["threads"] * factor
        make_threads(store, f"lister{tag}", f"thr_list{tag}", n)
        analyze(store)
        list_ms = median_ms(lambda t=tag: store.read_sync(
            lambda r: shell_snapshot(r, f"lister{t}")), 5)
        results["list"].append(list_ms)
        results["list_per_thread"].append(list_ms / n * 1000)  # microseconds per thread

        thread = f"thr_long{tag}"
        make_threads(store, "reader", f"thr_long{tag}", 1)
        bulk(store, f"UPDATE threads SET thread_id = '{thread}' WHERE thread_id = '{thread}_1'")
        make_messages(store, "reader", thread, sizes["messages"] * factor)
        analyze(store)
        results["page_new"].append(median_ms(lambda t=thread: store.read_sync(
            lambda r: thread_snapshot(r, "reader", t, limit=100))))
        results["page_old"].append(median_ms(lambda t=thread: store.read_sync(
            lambda r: thread_snapshot(r, "reader", t, limit=100, before_sequence=200))))

        mine = f"thr_mine{tag}"
        store.write_sync(lambda tx, m=mine: (tx.insert_thread(m, "resumer", "T", AT),
                                             tx.append_event("resumer", m, "thread.created",
                                                             {})))
        after = store.read_sync(lambda r: r.max_sequence())
        make_events(store, "resumer", mine, sizes["resume"] * factor, start_version=1)
        analyze(store)
        sub = Subscription("s", "resumer", mine)
        results["resume"].append(median_ms(lambda s=sub, a=after: store.read_sync(
            lambda r: _catch_up(r, s, a, 1000))))

        log = f"thr_log{tag}"
        make_threads(store, "logger", log, 1)
        have = store.read_sync(lambda r: r.max_sequence())
        make_events(store, "logger", f"{log}_1", max(1, sizes["log"] * factor - have))
        analyze(store)

        def append(t: str = f"{log}_1") -> None:
            def one(tx: Transaction) -> None:
                tx.append_event("logger", t, "thread.meta-updated", {"title": "y"})
            store.write_sync(one)

        results["append"].append(median_ms(append, 15))
        results["replay"].append(median_ms(lambda: store.read_sync(
            lambda r: r.events_after(r.max_sequence() - 100, "logger"))))
    for key, values in results.items():
        out[key] = (values[0], values[1])
    out["_sizes"] = (float(sizes["log"]), float(sizes["threads"]))
    return out


LABELS = {
    "list": "thread list (1,000 / 10,000 threads): whole list",
    "list_per_thread": "thread list: per listed thread (µs)",
    "page_new": "thread of 10,000 / 100,000 messages: newest page (50 turns)",
    "page_old": "same thread: oldest page (50 turns)",
    "resume": "resume after 10,000 / 100,000 events of its thread: snapshot",
    "append": "event log of 1 M / 10 M rows: append one event",
    "replay": "event log of 1 M / 10 M rows: replay the newest 100 events",
}


def table(rows: dict[str, dict[str, tuple[float, float]]], scale: float) -> str:
    lines = [f"Scale {scale:g} (1x sizes as named at scale 1).", "",
             "| case | store | 1x | 10x | growth |", "|---|---|---:|---:|---:|"]
    for key, label in LABELS.items():
        for name, result in rows.items():
            one, ten = result[key]
            unit = "µs" if key == "list_per_thread" else "ms"
            lines.append(f"| {label} | {name} | {one:.2f} {unit} | {ten:.2f} {unit} | "
                         f"{ten / one if one else float('nan'):.2f}x |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--output", type=Path, default=None)
    opts = parser.parse_args()
    rows: dict[str, dict[str, tuple[float, float]]] = {}
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-scale-")))
        stores: list[tuple[str, ExecutorStore]] = []
        if opts.store in ("sqlite", "both"):
            stores.append(("SQLite", SqliteStore.in_dir(tmp / "sqlite")))
        if opts.store in ("postgres", "both"):
            cluster = stack.enter_context(throwaway_cluster())
            if cluster is not None:
                stores.append(("PostgreSQL", PostgresStore(cluster.new_database())))
        for name, store in stores:
            store.open()
            try:
                began = time.perf_counter()
                rows[name] = measure_store(store, opts.scale)
                print(f"{name}: built and measured in {time.perf_counter() - began:.0f} s",
                      flush=True)
            finally:
                store.close()
    report = table(rows, opts.scale)
    print(report)
    if opts.output:
        opts.output.write_text(report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    asyncio.set_event_loop_policy(None)
    sys.exit(main())
