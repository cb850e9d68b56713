"""Thread server throughput: 50 concurrent clients on loopback, each sending 100 messages.

Every client has its own device token and thread, subscribes to its thread over the WebSocket, then
sends ``thread.turn.start`` commands one after another (each message also runs an EchoProvider turn,
so the server writes the message, the turn start, the reply delta and the completion). Reported:
messages per second end to end (first send to last ``thread.message-sent`` event) and the p50/p99
latency from starting the HTTP send to receiving that message's ``thread.message-sent`` event.

    ./dev bench server [--clients 50] [--messages 100] [--store sqlite|postgres|both]
                       [--processes N] [--output docs/benchmarks_server.md]

The server runs in its own process (``composer-server serve``); PostgreSQL is a throwaway cluster.
With ``--processes N`` (PostgreSQL) N server processes share the database and the client sends its
commands round-robin across them (each client's WebSocket stays on one process, so events cross
processes through the database's notifications). ``--store both`` measures SQLite, PostgreSQL with
one process and, when N > 1, PostgreSQL with N processes, in one run. Server CPU time per message is
the user + system time of the server processes during the run divided by the messages; database CPU
per message (PostgreSQL) is that of the database's backend processes; client CPU per message is the
benchmark client's own process time, on the same CPUs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.live import ServerProcess  # noqa: E402
from tests.support.postgres import throwaway_cluster  # noqa: E402

DOC_HEAD = """# Thread server benchmark

`./dev bench server` (`benchmarks/bench_server.py`). Each client has its own device token and
thread, subscribes to that thread over the WebSocket, then sends `thread.turn.start` commands one
after another; every message also runs an EchoProvider turn, so per message the server commits the
command (receipt, `thread.message-sent`, `thread.turn-started`, both message rows) and the reply
(`thread.assistant.delta` and `thread.assistant.completed`), and pushes four WebSocket frames.
*messages/s* counts messages from the first send to the last `thread.message-sent` event;
*send-to-event* is the time from starting the HTTP send to receiving that message's
`thread.message-sent` event on the socket. The server runs in its own process
(`composer-server serve`, uvicorn with `httptools`); PostgreSQL is a throwaway local cluster
(fsync off). *server CPU/message* is the user + system CPU time of the server processes during
the run divided by the messages; *database CPU/message* (PostgreSQL) is that of the database's
backend processes serving the server's connections; *client CPU/message* is the benchmark
client's own (all clients run in its one process), which shares the machine with both.

"""
DOC_NOTES = """
Notes:

* Clients wait for each message's event before sending the next one, so with 50 clients the
  latency is about 50 / throughput (Little's law): the p99 target needs spare capacity.
* SQLite writes run on the event loop thread (one writer connection; a command commits in well
  under a millisecond), so there is no thread hand-off per command.
* PostgreSQL runs each command as one transaction of two round trips on a pooled async
  connection (prepared statements of that connection sent together in one pipeline, the
  appends' sequence numbers reserved with the first reads) and its reply's transaction two more;
  commands and replies of different threads that arrive while a process's two group
  transactions are in flight commit together in one group transaction (the same two round
  trips, one `NOTIFY`, one `COMMIT`; SQLite likewise groups the writes of one event-loop step).
  No lock is shared by all writers, and publication order is kept by a high-water mark
  (docs/architecture.md). With `--processes N`, commands go round-robin over N processes, and a
  commit's notification carries its events to the other processes.
* The machine is shared; figures vary by about +/-20 % between runs.
"""

TARGET_RATE = 500.0
TARGET_P99_MS = 100.0


def _tokens(args: list[str], count: int) -> list[str]:
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from composer_app.server.store import open_store\n"
        "data, url, n = sys.argv[1], sys.argv[2] or None, int(sys.argv[3])\n"
        "store = open_store(Path(data), url)\n"
        "store.open()\n"
        "print('\\n'.join(store.create_token(f'user{i}', 'bench')[0] for i in range(n)))\n"
        "store.close()\n"
    )
    data = args[args.index("--data-dir") + 1]
    url = args[args.index("--database-url") + 1] if "--database-url" in args else ""
    out = subprocess.run([sys.executable, "-c", script, data, url, str(count)], check=True,
                         capture_output=True, text=True, cwd=ROOT)
    return out.stdout.split()


class _Http:
    """A minimal keep-alive HTTP/1.1 JSON client, so the client side costs little CPU."""

    def __init__(self, url: str, token: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.host, self.port, self.token = host, int(port), token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, object]) -> dict[str, object]:
        try:
            return await self._post(path, body)
        except (asyncio.IncompleteReadError, ConnectionError):
            # the server closed an idle keep-alive connection: reconnect and resend (commands
            # are idempotent by commandId)
            self.writer = None
            return await self._post(path, body)

    async def _post(self, path: str, body: dict[str, object]) -> dict[str, object]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = json.dumps(body).encode()
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nAuthorization: Bearer {self.token}"
            f"\r\nContent-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
            .encode() + payload)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        data = json.loads(await self.reader.readexactly(length))
        if status != 200:
            raise RuntimeError(f"{status}: {data}")
        return data  # type: ignore[no-any-return]

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


async def _client(urls: list[str], token: str, messages: int, latencies: list[float],
                  ready: asyncio.Semaphore, start: asyncio.Event) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    thread = f"thr_{uuid.uuid4().hex}"
    url = urls[0]
    https = [_Http(u, token) for u in urls]  # commands go round-robin over the processes
    http = https[0]
    await http.post("/api/commands", {
        "type": "thread.create", "commandId": f"cmd_{uuid.uuid4().hex}", "threadId": thread})
    ws_url = url.replace("http://", "ws://") + "/api/ws"
    async with connect(ws_url, additional_headers=headers, max_size=None,
                       compression=None) as ws:
        await ws.send(json.dumps({"type": "subscribe", "subscriptionId": "t",
                                  "stream": {"kind": "thread", "threadId": thread},
                                  "afterSequence": None}))
        while json.loads(await ws.recv())["type"] != "synchronized":
            pass
        sent_at: dict[str, float] = {}
        arrived: dict[str, asyncio.Event] = {}

        async def reader() -> None:
            async for raw in ws:
                if '"thread.message-sent"' not in raw:
                    continue
                event = json.loads(raw)["event"]
                message_id = event["payload"]["message"]["messageId"]
                latencies.append(time.perf_counter() - sent_at[message_id])
                arrived[message_id].set()

        task = asyncio.create_task(reader())
        ready.release()
        await start.wait()
        for n in range(messages):
            message_id = f"msg_{uuid.uuid4().hex}"
            arrived[message_id] = asyncio.Event()
            sent_at[message_id] = time.perf_counter()
            await https[n % len(https)].post("/api/commands", {
                "type": "thread.turn.start", "commandId": f"cmd_{uuid.uuid4().hex}",
                "threadId": thread, "message": {"messageId": message_id, "role": "user",
                                                "text": f"message {n}", "attachments": []}})
            await arrived[message_id].wait()
        task.cancel()
    for each in https:
        await each.close()


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of the processes ``pids`` so far (Linux ``/proc``), else 0."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def cpu_by_pid(pids: list[int]) -> dict[int, float]:
    return {pid: cpu_seconds([pid]) for pid in pids}


def backend_pids(dsn: str | None) -> list[int]:
    """The PostgreSQL backends connected to ``dsn``'s database (other than the asking one)."""
    if dsn is None:
        return []
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                            "AND pid <> pg_backend_pid()").fetchall()
    return [int(r[0]) for r in rows]


async def _run(urls: list[str], tokens: list[str], messages: int, pids: list[int],
               dsn: str | None = None) -> tuple[float, float, float, float, list[float]]:
    latencies: list[float] = []
    ready = asyncio.Semaphore(0)
    start = asyncio.Event()
    clients = [asyncio.create_task(_client(urls[i % len(urls):] + urls[:i % len(urls)], t,
                                           messages, latencies, ready, start))
               for i, t in enumerate(tokens)]
    for _ in tokens:  # every client is connected and subscribed before the clock starts
        await ready.acquire()
    backends = cpu_by_pid(await asyncio.to_thread(backend_pids, dsn))
    began, cpu, own = time.perf_counter(), cpu_seconds(pids), time.process_time()
    start.set()
    await asyncio.gather(*clients)
    elapsed, cpu = time.perf_counter() - began, cpu_seconds(pids) - cpu
    own = time.process_time() - own
    after = cpu_by_pid(await asyncio.to_thread(backend_pids, dsn))  # new backends count whole
    database = sum(after.values()) - sum(backends.get(pid, 0.0) for pid in after)
    return elapsed, cpu, database, own, latencies


def measure(name: str, args: list[str], clients: int, messages: int, processes: int = 1,
            dsn: str | None = None) -> dict[str, float | str]:
    tokens = _tokens(args, clients)
    servers = [ServerProcess(args) for _ in range(processes)]
    try:
        for server in servers:
            server.start()
        pids = [s.process.pid for s in servers if s.process is not None]
        elapsed, cpu, database, own, latencies = asyncio.run(
            _run([s.url for s in servers], tokens, messages, pids, dsn))
    finally:
        for server in servers:
            server.stop()
    latencies.sort()
    total = len(latencies)
    return {
        "backend": name,
        "messages": total,
        "seconds": elapsed,
        "rate": total / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[min(total - 1, int(total * 0.99))] * 1000,
        "cpu_ms": cpu / total * 1000,
        "db_cpu_ms": database / total * 1000,
        "client_cpu_ms": own / total * 1000,
    }


def cpu_model() -> str:
    """The CPU model name (Linux ``/proc/cpuinfo``), else the platform's processor string."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def postgres_version(dsn: str) -> str:
    import psycopg

    with psycopg.connect(dsn) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]).split()[0] if row else "?"


def table(rows: list[dict[str, float | str]], clients: int, messages: int,
          postgres: str | None = None) -> str:
    machine = (f"Machine: {cpu_model()}, {os.cpu_count()} CPUs, "
               f"{platform.system()} {platform.release()}, Python {platform.python_version()}")
    if postgres:
        machine += f", PostgreSQL {postgres}"
    lines = [
        f"{clients} clients x {messages} messages, loopback, server in its own process.",
        "",
        machine + ".",
        "",
        "| backend | messages | seconds | messages/s | p50 send-to-event | p99 send-to-event "
        "| server CPU/message | database CPU/message | client CPU/message |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['backend']} | {r['messages']} | {r['seconds']:.2f} | "
                     f"{r['rate']:.0f} | {r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms | "
                     f"{r['cpu_ms']:.2f} ms | "
                     + (f"{r['db_cpu_ms']:.2f} ms | " if r["backend"] != "SQLite" else "- | ")
                     + f"{r['client_cpu_ms']:.2f} ms |")
    by_name = {str(r["backend"]): r for r in rows}
    sqlite, pg1 = by_name.get("SQLite"), by_name.get("PostgreSQL")
    if sqlite and pg1:
        lines.append("")
        lines.append(
            f"PostgreSQL / SQLite: throughput {float(pg1['rate']) / float(sqlite['rate']):.2f}x, "
            f"p99 {float(pg1['p99_ms']) / float(sqlite['p99_ms']):.2f}x, "
            f"CPU/message {float(pg1['cpu_ms']) / float(sqlite['cpu_ms']):.2f}x.")
    many = [r for r in rows if str(r["backend"]).startswith("PostgreSQL, ")]
    if pg1 and many:
        lines.append(f"{many[0]['backend']} / one process: throughput "
                     f"{float(many[0]['rate']) / float(pg1['rate']):.2f}x.")
    lines.append("")
    lines.append(f"Targets (SQLite): >= {TARGET_RATE:.0f} messages/s, "
                 f"p99 <= {TARGET_P99_MS:.0f} ms.")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--store", "--backend", dest="store",
                        choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--processes", type=int, default=1,
                        help="PostgreSQL server processes behind the round-robin client")
    parser.add_argument("--output", type=Path, default=None)
    opts = parser.parse_args()
    rows = []
    postgres: str | None = None
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-server-")))
        if opts.store in ("sqlite", "both"):
            rows.append(measure("SQLite", ["--data-dir", str(tmp / "sqlite")], opts.clients,
                                opts.messages))
        if opts.store in ("postgres", "both"):
            cluster = stack.enter_context(throwaway_cluster())
            if cluster is None:
                print("PostgreSQL: skipped (no binaries, no COMPOSER_TEST_POSTGRES_DSN)")
            else:
                from psycopg.conninfo import conninfo_to_dict

                counts = [1, opts.processes] if opts.store == "both" else [opts.processes]
                for processes in dict.fromkeys(counts):
                    dsn = cluster.new_database()
                    postgres = postgres_version(dsn)
                    query = "&".join(f"{k}={v}" for k, v in conninfo_to_dict(dsn).items())
                    name = "PostgreSQL" if processes == 1 else \
                        f"PostgreSQL, {processes} processes"
                    rows.append(measure(name, [
                        "--data-dir", str(tmp / f"pg{processes}"), "--database-url",
                        f"postgresql+psycopg://?{query}"], opts.clients, opts.messages,
                        processes, dsn))
    report = table(rows, opts.clients, opts.messages, postgres)
    print(report)
    if opts.output:
        opts.output.write_text(DOC_HEAD + report + "\n" + DOC_NOTES, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
