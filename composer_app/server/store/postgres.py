"""The PostgreSQL ``ThreadStore``: several server processes may share one database.

Invariants:

* Serving (after ``bind_loop``), every command runs on the event loop over a pooled async
  connection (``psycopg_pool.AsyncConnectionPool``) as one transaction: statements are queued as
  prepared statements of their connection (``Batch``, ``Prepared``), and the statements whose
  results the command does not read travel with the next one it does (one pipeline, one ``Sync``,
  several results). A command's prefetch also locks its
  thread and reserves the numbers of its appends, which then need no reply, so a
  ``thread.turn.start`` takes two round trips (prefetched reads and numbers; writes and commit)
  and its reply's transaction two (``round_trips`` counts them). A read takes one: its connection
  is parked with the finished read-only transaction, whose ``ROLLBACK`` goes in front of the next
  transaction's first statements on it (or is sent after ``park_idle`` unused). Before
  ``bind_loop`` (administration, tests) the same transactions run on blocking connections.
  Serving, a new message's id is not read first: the insert's primary key checks it, and a
  transaction whose insert finds the id taken runs once more with the id read first
  (``keyed_new_messages``), which rejects the command as the read always did.
* Group commit (``group_queue``): writes that name their thread (``group``) and arrive while
  ``GROUP_WRITERS`` group transactions are in flight wait, then run together in one transaction
  (at most one per thread, at most ``GROUP_MAX``, sorted by thread so every group locks rows in
  one order): each up to its first read, those reads in one round trip, then each in turn inside
  its own savepoint (a ``Batch`` savepoint: sent only if the member's writes go out before it
  ends, else its writes are kept or dropped unsent), one ``NOTIFY`` and one ``COMMIT``. A member
  that raises is rolled back to its savepoint and gets its own exception; a failing statement
  rolls the group back and every member runs again alone.
* No lock is shared by all writers. Sequence numbers come from the events identity sequence (no
  per-session cache, so numbers are handed out in time order); an append locks only its thread's
  row. Every write transaction takes its transaction id before its first number.
* Subscribers see events in sequence order with no gap that later fills: ``CommitOrder`` publishes
  a number only once every lower one is final. Own commits are published from memory; each commit
  with events sends one ``NOTIFY composer_events, '<first>-<last>…'`` carrying as many of its
  events as fit (``commit_notification``); other processes take those from it (a process skips
  the events of its own commits) and read only the numbers they still miss. A number that stays
  missing is settled by waiting until every transaction that could hold it has ended
  (``pg_snapshot_xmin`` passes a transaction id taken afterwards), then reading it once more:
  absent then, it is unused for ever.
* Snapshot and replay reads never report a watermark with an open lower number (``Unsettled``).

The design and its proof sketch are in docs/architecture.md ("Event ordering on PostgreSQL").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg_pool import AsyncConnectionPool

from composer_app.core.errors import StorageError
from composer_app.server.store.base import Reader, StoredEvent, Transaction
from composer_app.server.store.bridge import Pause, SteppedCall, on_loop_thread, run_bridged
from composer_app.server.store.commit_notification import (
    CHANNEL,
    announce,
    announced_events,
    announced_first,
    announced_range,
    announced_unused,
)
from composer_app.server.store.commit_order import CommitOrder
from composer_app.server.store.executor import ExecutorStore
from composer_app.server.store.group_queue import GroupQueue, Member, RolledBack
from composer_app.server.store.postgres_batch import Batch, Prepared, Statement
from composer_app.server.store.postgres_queries import (
    SETTLE_POLL,
    PostgresReader,
    PostgresTransaction,
    Unsettled,
    events_numbered,
    message_id_taken,
    settle_blocking,
)
from composer_app.server.store.sql import SqlTransaction

T = TypeVar("T")
_log = logging.getLogger(__name__)

FILL_BATCH = 1000
POOL_SIZE = 8
PARK_IDLE = 0.02  # a parked read's transaction ends this soon when no transaction takes it over
SETTLE_AFTER = 0.05  # a missing number waits this long for its notification before settling
GROUP_MAX = 32  # writes of different threads run together in one transaction at most
GROUP_WRITERS = 2  # group transactions of one process in flight at once (the others queue)


def conninfo_of(database_url: str) -> str:
    """A psycopg conninfo from ``postgresql+psycopg://…`` (SQLAlchemy-style) or plain URLs."""
    for prefix in ("postgresql+psycopg://", "postgres+psycopg://"):
        if database_url.startswith(prefix):
            return "postgresql://" + database_url[len(prefix):]
    return database_url


class PostgresStore(ExecutorStore):
    """``ThreadStore`` on PostgreSQL with cross-process fan-out through LISTEN/NOTIFY."""

    dialect = "postgres"

    def __init__(self, database_url: str) -> None:
        super().__init__()
        self.conninfo = conninfo_of(database_url)
        self._order: CommitOrder | None = None
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._ready: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._fill_wakeup: asyncio.Event | None = None
        self._async_conns: list[psycopg.AsyncConnection[Any]] = []
        # connections holding a finished read's transaction, with when they were parked
        self._parked: deque[tuple[float, psycopg.AsyncConnection[Any]]] = deque()
        self._unpark: asyncio.TimerHandle | None = None
        self._returning: set[asyncio.Task[None]] = set()  # connections on their way to the pool
        self._prepared: weakref.WeakKeyDictionary[psycopg.AsyncConnection[Any], Prepared] = \
            weakref.WeakKeyDictionary()  # each pooled connection's prepared statements
        self.park_idle = PARK_IDLE
        self.round_trips = 0  # served transactions' round trips so far (benchmarks, tests)
        self.fill_reads = 0  # reads of other processes' events from the log so far (tests)
        self._own_backends: set[int] = set()  # this process's pooled connections' backends
        self._uncarried: set[int] = set()  # in other commits' ranges, not carried: to read
        self.groups = 0  # group transactions (two writes or more) committed so far
        self.group_queue = GroupQueue(self._write_alone, self._write_group,
                                      lambda: self._pool is not None,
                                      limit=GROUP_MAX, writers=GROUP_WRITERS)

    # Blocking connections (administration, tests, before serving) ------------------------------

    def _connect(self, *, writer: bool) -> Any:
        conn = psycopg.connect(self.conninfo, autocommit=False)
        if not writer:
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        return conn

    def _execute(self, conn: Any) -> Callable[[str, Sequence[Any]], Any]:
        def run(sql: str, params: Sequence[Any]) -> Any:
            return conn.execute(sql.replace("?", "%s"), tuple(params))

        return run

    def _begin(self, conn: Any, *, writer: bool) -> None:
        if writer:  # the transaction id comes before any sequence number (see CommitOrder)
            conn.execute("SELECT pg_current_xact_id()")

    def _translate(self, exc: Exception) -> Exception | None:
        if isinstance(exc, psycopg.Error):
            return StorageError(f"postgres: {exc}")
        return None

    def _run_tx(self, conn: Any, fn: Callable[[SqlTransaction], Any]) -> Any:
        self._begin(conn, writer=True)
        tx = PostgresTransaction(self._execute(conn))
        try:
            result = fn(tx)
            tx.finalize()
            announce(tx._x, tx.allocated, tx.events)
        except BaseException:
            conn.rollback()
            raise
        conn.commit()
        return result, tx

    def _after_commit(self, events: list[StoredEvent]) -> None:
        loop = getattr(self, "_loop", None)
        if events and self._order is not None and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._order.found, events)

    # Serving: async pool, commit order, notifications ------------------------------------------

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Publish from here on: every event committed after this call reaches the listener."""
        super().bind_loop(loop)
        start = self.read_sync(lambda r: r.max_sequence())
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            settle_blocking(conn)  # every number <= start is final from here on
        self._fill_wakeup = asyncio.Event()
        self._order = CommitOrder(start, self._publish, self._wake_fill)
        self._ready = loop.create_task(self._start())

    async def _start(self) -> None:
        async def track(conn: psycopg.AsyncConnection[Any]) -> None:
            self._async_conns.append(conn)
            self._own_backends.add(conn.info.backend_pid)

        self._pool = AsyncConnectionPool(self.conninfo, min_size=2, max_size=POOL_SIZE,
                                         kwargs={"autocommit": True}, configure=track,
                                         open=False)
        await self._pool.open(wait=True)
        listen = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        self._async_conns.append(listen)
        await listen.execute(f"LISTEN {CHANNEL}")
        async with self._pool.connection() as conn:  # commits before LISTEN took effect
            row = await (await conn.execute("SELECT COALESCE(MAX(sequence), 0) FROM events"))\
                .fetchone()
        assert self._order is not None
        self._order.announced(int(row[0]) if row else 0)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(listen)), loop.create_task(self._fill())]

    def _publish(self, events: list[StoredEvent]) -> None:
        if self._listener is not None:
            self._listener(events)

    def _wake_fill(self) -> None:
        if self._fill_wakeup is not None:
            self._fill_wakeup.set()

    async def _listen(self, conn: psycopg.AsyncConnection[Any]) -> None:
        async for notify in conn.notifies():
            last = announced_range(notify.payload)
            order = self._order
            if last is not None and order is not None:
                order.resolved(announced_unused(notify.payload))  # committed without them
                if notify.pid not in self._own_backends:  # own commits are published already
                    carried = announced_events(notify.payload)  # committed: no read needed
                    order.found(carried)
                    first = announced_first(notify.payload)
                    if first is not None and len(carried) < last - first + 1:
                        told = {e.sequence for e in carried}
                        self._uncarried.update(n for n in range(first, last + 1)
                                               if n not in told)
                order.announced(last)

    async def _fill(self) -> None:
        """Read the numbers ``CommitOrder`` misses; settle those that stay missing.

        Numbers another commit's notification announced without carrying their events are read at
        once; any other missing number first waits ``SETTLE_AFTER`` for its notification (which
        usually carries it), then is read, then settled."""
        assert self._fill_wakeup is not None and self._pool is not None
        wakeup, loop = self._fill_wakeup, asyncio.get_running_loop()
        stuck: tuple[int, float] | None = None  # lowest unexplained number, since when
        while True:
            await wakeup.wait()
            wakeup.clear()
            order = self._order
            assert order is not None
            self._uncarried = {n for n in self._uncarried if n > order.published}
            try:
                while wanted := order.missing(FILL_BATCH):
                    due = [n for n in wanted if n in self._uncarried]
                    if due:  # announced as committed but not carried: read them now
                        self._uncarried.difference_update(due)
                        async with self._pool.connection() as conn:
                            self.fill_reads += 1
                            order.found(await events_numbered(conn, due))
                        continue
                    now = loop.time()
                    if stuck is None or stuck[0] != wanted[0]:
                        stuck = (wanted[0], now)
                    remaining = SETTLE_AFTER - (now - stuck[1])
                    if remaining > 0:  # their notifications, with their events, usually come
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(wakeup.wait(), remaining)
                        wakeup.clear()
                        continue
                    async with self._pool.connection() as conn:
                        self.fill_reads += 1
                        order.found(await events_numbered(conn, wanted))
                    asked = set(wanted)
                    still = [n for n in order.missing(FILL_BATCH) if n in asked]
                    if not still:
                        continue
                    now = loop.time()
                    if stuck is None or stuck[0] != still[0]:
                        stuck = (still[0], now)
                    remaining = SETTLE_AFTER - (now - stuck[1])
                    if remaining > 0:  # its commit notification usually comes first
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(wakeup.wait(), remaining)
                        wakeup.clear()
                        continue
                    async with self._pool.connection() as conn:
                        await self._settle(conn)
                        found = await events_numbered(conn, still)
                    order.found(found)
                    got = {e.sequence for e in found}
                    open_now = set(order.missing(FILL_BATCH))
                    order.resolved(n for n in still if n not in got and n in open_now)
                    stuck = None
            except psycopg.Error as exc:  # retried after a pause
                _log.warning("event fan-out read failed: %s", exc)
                await asyncio.sleep(0.1)
                wakeup.set()

    @staticmethod
    async def _settle(conn: psycopg.AsyncConnection[Any]) -> None:
        """Return once every transaction that had started before this call has ended."""
        row = await (await conn.execute("SELECT pg_current_xact_id()")).fetchone()
        assert row is not None
        marker = row[0]
        pause = SETTLE_POLL[0]
        while True:
            row = await (await conn.execute(
                "SELECT pg_snapshot_xmin(pg_current_snapshot()) > %s", (marker,))).fetchone()
            if row is not None and row[0]:
                return
            await asyncio.sleep(pause)
            pause = min(pause * 2, SETTLE_POLL[1])

    async def write(self, fn: Callable[[Transaction], T], *,
                    group: tuple[str, str] | None = None) -> T:
        if self._ready is None:
            return await super().write(fn, group=group)
        if not self._ready.done():
            await self._ready
        if self._pool is None or self._order is None:
            raise StorageError("store is closed")
        if group is None:
            return await self._write_alone(fn)
        return await self.group_queue.write(fn, group)  # type: ignore[no-any-return]

    async def _write_group(self, members: list[Member]) -> list[tuple[bool, Any]]:
        """Run ``members`` (sorted by thread, so every group locks threads in one order) in one
        transaction: each up to its first read, those reads in one round trip, then each on in
        turn inside its own savepoint; one ``NOTIFY`` and one ``COMMIT``. A member's exception is
        its own (its savepoint is rolled back); a failing statement rolls the whole group back
        (``RolledBack``)."""
        assert self._pool is not None and self._order is not None
        order = self._order
        members.sort(key=lambda m: m.key)
        conn, end_read = await self._lease()
        batch = Batch(conn, self._prepared_on(conn), end_read=end_read)
        txs = [PostgresTransaction(batch, order.allocated, keyed_new_messages=True)
               for _ in members]
        calls: list[SteppedCall | None] = []
        outcomes: list[tuple[bool, Any]] = []
        try:
            try:
                batch("BEGIN", ())
                batch("SELECT pg_current_xact_id()", ())  # before any sequence number
                first = batch.take()
                held: list[list[Statement]] = []
                batch.pause = Pause()
                for member, tx in zip(members, txs, strict=True):
                    call = SteppedCall(member.fn, tx)
                    try:
                        paused = await call.step()
                    except psycopg.Error:
                        raise
                    except Exception as exc:  # failed before reading: nothing of it is sent
                        batch.take()
                        calls.append(None)
                        held.append([])
                        outcomes.append((False, exc))
                        continue
                    calls.append(call)
                    outcomes.append((True, call.result))
                    mine = batch.take()
                    if paused and all(s.sql.startswith(b"SELECT") for s in mine):
                        first.extend(mine)  # reads (and reservations): sent together
                        held.append([])
                    else:
                        held.append(mine)  # writes go out inside the member's savepoint
                batch.pause = None
                batch.put(first)
                await batch.send()
                for i, stepped in enumerate(calls):
                    if stepped is None:
                        continue
                    savepoint = batch.savepoint()  # sent only if its writes go out before
                    batch.put(held[i])  # it ends (a read of the member's); else none is
                    try:
                        if not stepped.done and await stepped.step():
                            raise RuntimeError("a group member paused twice")
                        txs[i].finalize()  # queued: its thread rows' writes, one per row
                    except psycopg.Error:
                        raise
                    except Exception as exc:
                        batch.rollback(savepoint)  # its queued writes dropped, or ROLLBACK TO
                        txs[i].events.clear()
                        outcomes[i] = (False, exc)
                    else:
                        batch.release(savepoint)
                        outcomes[i] = (True, stepped.result)
                allocated = [n for tx in txs for n in tx.allocated]
                events = sorted((e for tx in txs for e in tx.events), key=lambda e: e.sequence)
                announce(batch, allocated, events)
                batch("COMMIT", ())
                await batch.send()
            finally:
                self.round_trips += batch.round_trips
                for each in calls:
                    if each is not None:
                        each.close()
        except BaseException as exc:
            allocated = [n for tx in txs for n in tx.allocated]
            try:
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    await conn.execute("ROLLBACK")
            except psycopg.Error:
                order.released(allocated)
                raise StorageError(f"postgres: {exc}") from exc
            order.abandoned(allocated)
            if isinstance(exc, psycopg.Error):
                raise RolledBack from exc
            raise
        finally:
            await self._pool.putconn(conn)
        used = {e.sequence for e in events}
        order.committed(events, (n for n in allocated if n not in used))
        self.groups += 1
        return outcomes

    async def _write_alone(self, fn: Callable[[Transaction], T]) -> T:
        """``fn`` in a transaction of its own: first with new messages' ids checked by the
        primary key alone, and again with them read first if an insert found its id taken."""
        try:
            return await self._write_once(fn, keyed_new_messages=True)
        except StorageError as exc:
            if not message_id_taken(exc.__cause__):
                raise
        return await self._write_once(fn, keyed_new_messages=False)

    async def _write_once(self, fn: Callable[[Transaction], T], *,
                          keyed_new_messages: bool) -> T:
        """``fn`` in a transaction of its own (``PostgresTransaction.keyed_new_messages``)."""
        assert self._pool is not None and self._order is not None
        order = self._order
        tx: PostgresTransaction | None = None

        def transact(conn: psycopg.AsyncConnection[Any], end_read: bool) -> T:
            nonlocal tx
            execute = Batch(conn, self._prepared_on(conn), end_read=end_read)
            execute("BEGIN", ())
            execute("SELECT pg_current_xact_id()", ())  # before any sequence number
            tx = PostgresTransaction(execute, order.allocated,
                                     keyed_new_messages=keyed_new_messages)
            try:
                result = fn(tx)
                tx.finalize()
                announce(execute, tx.allocated, tx.events)
                execute("COMMIT", ())
                execute.flush()
            finally:
                self.round_trips += execute.round_trips
            return result

        try:
            conn, end_read = await self._lease()
            try:
                result = await run_bridged(transact, conn, end_read)
            except BaseException:
                allocated = tx.allocated if tx is not None else []
                try:
                    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                        await conn.execute("ROLLBACK")
                except psycopg.Error:
                    order.released(allocated)
                else:
                    order.abandoned(allocated)
                raise
            finally:
                await self._pool.putconn(conn)
        except psycopg.Error as exc:
            raise StorageError(f"postgres: {exc}") from exc
        assert tx is not None
        committed = {e.sequence for e in tx.events}
        order.committed(tx.events, (n for n in tx.allocated if n not in committed))
        return result

    async def read(self, fn: Callable[[Reader], T]) -> T:
        if self._ready is None:
            return await super().read(fn)
        if not self._ready.done():
            await self._ready
        if self._pool is None or self._order is None:
            raise StorageError("store is closed")
        order = self._order
        while True:
            floor = order.published

            def run(conn: psycopg.AsyncConnection[Any], end_read: bool, floor: int = floor) -> T:
                execute = Batch(conn, self._prepared_on(conn), end_read=end_read)
                execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", ())
                try:
                    return fn(PostgresReader(execute, floor))
                finally:  # the transaction ends with the connection's next use (see _park)
                    self.round_trips += execute.round_trips

            try:
                conn, end_read = await self._lease()
                try:
                    result = await run_bridged(run, conn, end_read)
                except BaseException:
                    await self._give_back(conn)
                    raise
                self._park(conn)
                return result
            except Unsettled as unsettled:
                await order.reached(unsettled.sequence)
            except psycopg.Error as exc:
                raise StorageError(f"postgres: {exc}") from exc

    def _prepared_on(self, conn: psycopg.AsyncConnection[Any]) -> Prepared:
        """The statements prepared on ``conn`` so far (none on a new connection: a pool that
        replaces a lost connection starts the new one with an empty set)."""
        prepared = self._prepared.get(conn)
        if prepared is None:
            prepared = self._prepared[conn] = Prepared()
        return prepared

    async def _lease(self) -> tuple[psycopg.AsyncConnection[Any], bool]:
        """A connection for one transaction, and whether it still holds a finished read's
        transaction (the caller's first round trip then begins with ``ROLLBACK``)."""
        if self._parked:
            return self._parked.popleft()[1], True  # the longest parked first
        assert self._pool is not None
        return await self._pool.getconn(), False

    def _park(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Keep a connection whose read has its answer but whose read-only transaction is still
        open: the next transaction on it sends the ``ROLLBACK`` with its own first statements (one
        round trip fewer per read); one unused for ``park_idle`` seconds is rolled back, pooled."""
        loop = asyncio.get_running_loop()
        status = conn.info.transaction_status
        if status == psycopg.pq.TransactionStatus.IDLE:
            assert self._pool is not None
            self._background(self._pool.putconn(conn))
            return
        if status != psycopg.pq.TransactionStatus.INTRANS:
            self._background(self._give_back(conn))
            return
        if not self._parked:  # the new one is the oldest: its deadline is the next
            if self._unpark is not None:
                self._unpark.cancel()
            self._unpark = loop.call_later(self.park_idle, self._unpark_idle)
        self._parked.append((loop.time(), conn))

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._returning.add(task)
        task.add_done_callback(self._returning.discard)

    def _unpark_idle(self) -> None:
        self._unpark = None
        loop = asyncio.get_running_loop()
        parked = self._parked
        while parked and parked[0][0] <= loop.time() - self.park_idle:
            self._background(self._give_back(parked.popleft()[1]))
        if parked:
            self._unpark = loop.call_at(parked[0][0] + self.park_idle, self._unpark_idle)

    async def _give_back(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """End whatever transaction ``conn`` holds and return it to the pool."""
        with contextlib.suppress(psycopg.Error):
            if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                await conn.execute("ROLLBACK")
        if self._pool is not None:
            await self._pool.putconn(conn)

    def close(self) -> None:
        loop = getattr(self, "_loop", None)
        if self._ready is not None and loop is not None:
            stopped = False
            if loop.is_running() and not on_loop_thread(loop):
                with contextlib.suppress(Exception):
                    asyncio.run_coroutine_threadsafe(self._stop(), loop).result(10)
                    stopped = True
            if not stopped:
                for task in self._tasks:
                    if not loop.is_closed():
                        task.cancel()
                for conn in self._async_conns:  # a closed loop: drop the sockets directly
                    with contextlib.suppress(Exception):
                        conn.pgconn.finish()
            self._ready = None
            self._pool = None
            self._order = None
            self._tasks = []
            self._async_conns = []
        super().close()

    async def _stop(self) -> None:
        if self._ready is not None and not self._ready.done():
            with contextlib.suppress(BaseException):
                await self._ready
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._unpark is not None:
            self._unpark.cancel()
            self._unpark = None
        parked, self._parked = self._parked, deque()
        for _, conn in parked:
            await self._give_back(conn)
        if self._pool is not None:
            await self._pool.close()
        for conn in self._async_conns:
            if not conn.closed:
                await conn.close()
