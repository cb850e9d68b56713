"""Thread server throughput: 50 concurrent clients on loopback, each sending 100 messages.

Every client has its own device token and thread, subscribes to its thread over the WebSocket, then
sends ``thread.turn.start`` commands one after another (each message also runs an EchoProvider turn,
so the server writes the message, the turn start, the reply delta and the completion). Reported:
messages per second end to end (first send to last ``thread.message-sent`` event) and the p50/p99
latency from starting the HTTP send to receiving that message's ``thread.message-sent`` event.

    ./dev bench server [--clients 50] [--messages 100] [--backend sqlite|postgres|both]
                       [--output docs/benchmarks_server.md]

The server runs in its own process (``composer-server serve``); PostgreSQL is a throwaway cluster.
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
(`composer-server serve`, uvicorn with its pure-Python HTTP parser); PostgreSQL is a throwaway
local cluster (fsync off).

"""
DOC_NOTES = """
Notes:

* Clients wait for each message's event before sending the next one, so with 50 clients the
  latency is about 50 / throughput (Little's law): the p99 target needs spare capacity.
* SQLite writes run on the event loop thread (one writer connection; a command commits in well
  under a millisecond), so there is no thread hand-off per command.
* PostgreSQL pays one network round trip per statement through psycopg, and every write takes
  the cluster-wide advisory lock that keeps sequence order equal to commit order across
  processes; it is the backend for several server processes, not for single-machine speed.
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


async def _client(url: str, token: str, messages: int, latencies: list[float],
                  ready: asyncio.Semaphore, start: asyncio.Event) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    thread = f"thr_{uuid.uuid4().hex}"
    http = _Http(url, token)
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
            await http.post("/api/commands", {
                "type": "thread.turn.start", "commandId": f"cmd_{uuid.uuid4().hex}",
                "threadId": thread, "message": {"messageId": message_id, "role": "user",
                                                "text": f"message {n}", "attachments": []}})
            await arrived[message_id].wait()
        task.cancel()
    await http.close()


async def _run(url: str, tokens: list[str], messages: int) -> tuple[float, list[float]]:
    latencies: list[float] = []
    ready = asyncio.Semaphore(0)
    start = asyncio.Event()
    clients = [asyncio.create_task(_client(url, t, messages, latencies, ready, start))
               for t in tokens]
    for _ in tokens:  # every client is connected and subscribed before the clock starts
        await ready.acquire()
    began = time.perf_counter()
    start.set()
    await asyncio.gather(*clients)
    return time.perf_counter() - began, latencies


def measure(name: str, args: list[str], clients: int, messages: int) -> dict[str, float | str]:
    tokens = _tokens(args, clients)
    server = ServerProcess(args).start()
    try:
        elapsed, latencies = asyncio.run(_run(server.url, tokens, messages))
    finally:
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
        "| backend | messages | seconds | messages/s | p50 send-to-event | p99 send-to-event |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['backend']} | {r['messages']} | {r['seconds']:.2f} | "
                     f"{r['rate']:.0f} | {r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms |")
    lines.append("")
    lines.append(f"Targets (SQLite): >= {TARGET_RATE:.0f} messages/s, "
                 f"p99 <= {TARGET_P99_MS:.0f} ms.")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--output", type=Path, default=None)
    opts = parser.parse_args()
    rows = []
    postgres: str | None = None
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-server-")))
        if opts.backend in ("sqlite", "both"):
            rows.append(measure("SQLite", ["--data-dir", str(tmp / "sqlite")], opts.clients,
                                opts.messages))
        if opts.backend in ("postgres", "both"):
            cluster = stack.enter_context(throwaway_cluster())
            if cluster is None:
                print("PostgreSQL: skipped (no binaries, no COMPOSER_TEST_POSTGRES_DSN)")
            else:
                from psycopg.conninfo import conninfo_to_dict

                dsn = cluster.new_database()
                postgres = postgres_version(dsn)
                query = "&".join(f"{k}={v}" for k, v in conninfo_to_dict(dsn).items())
                rows.append(measure("PostgreSQL", [
                    "--data-dir", str(tmp / "pg"), "--database-url",
                    f"postgresql+psycopg://?{query}"], opts.clients, opts.messages))
    report = table(rows, opts.clients, opts.messages, postgres)
    print(report)
    if opts.output:
        opts.output.write_text(DOC_HEAD + report + "\n" + DOC_NOTES, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
