"""``Batch``: the ``execute`` of bridged store code on one async PostgreSQL connection.

Invariants: statements are queued with their parameters encoded in the client
(``parameters.encode``, else the driver's text dumpers); the first read of any queued statement's
rows sends every queued statement in one libpq pipeline ending in one ``Sync`` (one round trip,
one result per statement, read straight from libpq's results), so writes whose results nobody
reads travel with the next read or with ``COMMIT``. Each statement runs as a server-side prepared
statement of its connection (``Prepared``): its ``Parse`` goes out in front of its first use there,
so the server parses and plans it once per connection, not once per use; ``round_trips`` counts
what was sent. The first failing statement's error is raised (a failing ``Parse`` counts as its
statement's), the statements after it in the pipeline are skipped by the server, and the
connection is left out of pipeline mode and usable (its transaction, if any, in error). A
statement counts as prepared only once its ``Parse`` succeeded; a server that no longer knows a
name (its session was reset) fails that statement, and the connection's names are forgotten so
its next batch prepares them again. A connection that still holds a finished read's transaction
gets its ``ROLLBACK`` in front of the first statements. While ``pause`` is set (a group
transaction's first step), reading rows hands control back to the group instead of sending.

Savepoints are placed lazily (``savepoint``, ``release``, ``rollback``): a savepoint's
``SAVEPOINT`` is sent only when statements queued inside it are sent while it is open (it then goes
out in front of the first of them, in the same round trip), and its ``RELEASE`` or ``ROLLBACK TO``
only if its ``SAVEPOINT`` went out. A block whose statements were all still queued when it ended is
released by sending them as they are, or rolled back by dropping them unsent, which leaves the
server exactly as a ``SAVEPOINT`` … ``ROLLBACK TO`` would, without opening a subtransaction.
Savepoints nest and end innermost first; each open one is named by its depth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.abc import PQGen
from psycopg.adapt import PyFormat, Transformer
from psycopg.generators import fetch_many, send
from psycopg.pq.abc import PGconn, PGresult

from composer_app.server.store import parameters
from composer_app.server.store.bridge import Pause, await_only

__all__ = ["FATAL_ERROR", "TUPLES_OK", "Batch", "Prepared", "Savepoint", "Statement"]

FATAL_ERROR = psycopg.pq.ExecStatus.FATAL_ERROR
TUPLES_OK = psycopg.pq.ExecStatus.TUPLES_OK
PIPELINE_SYNC = psycopg.pq.ExecStatus.PIPELINE_SYNC
PREPARED_LIMIT = 512  # statements prepared per connection at most; more run unnamed
_ROLLBACK = b"ROLLBACK"


class Prepared:
    """One connection's prepared statements: ``(SQL, parameter types)`` to the name the server
    knows it by. Names are ``composer_<n>`` (the driver's own are ``_pg3_<n>``)."""

    __slots__ = ("_counter", "names")

    def __init__(self) -> None:
        self.names: dict[tuple[bytes, tuple[int, ...]], bytes] = {}
        self._counter = 0

    def new_name(self) -> bytes:
        self._counter += 1
        return b"composer_%d" % self._counter

    def forget(self) -> None:
        """The server no longer knows the names (its session was reset)."""
        self.names.clear()


class Statement:
    """A queued statement; reading its rows sends every queued statement in one round trip."""

    __slots__ = ("_batch", "rows", "sql", "types", "values")

    def __init__(self, batch: Batch, sql: bytes, types: tuple[int, ...],
                 values: Sequence[bytes | None]) -> None:
        self._batch = batch
        self.sql = sql
        self.types = types
        self.values = values
        self.rows: list[Any] | None = None

    def fetchone(self) -> Any:
        if self.rows is None:
            self._batch.wait_for(self)
        assert self.rows is not None
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[Any]:
        if self.rows is None:
            self._batch.wait_for(self)
        assert self.rows is not None
        return self.rows


class Savepoint:
    """An open savepoint of a ``Batch``: where its block starts in the queue, until its
    ``SAVEPOINT`` is placed in front of the block's statements (``placed``)."""

    __slots__ = ("at", "name", "placed")

    def __init__(self, name: bytes, at: int) -> None:
        self.name = name
        self.at = at
        self.placed = False


class Batch:
    """The ``execute`` of bridged store code on one async connection, as prepared statements.

    Statements are queued with parameters encoded in the client; the first read of any queued
    statement's rows sends all of them in one pipeline (one round trip, one result per statement,
    read straight from libpq's results), so writes whose results nobody reads travel with the next
    read or with ``COMMIT``. The first failing statement's error is raised.
    """

    def __init__(self, conn: psycopg.AsyncConnection[Any], prepared: Prepared, *,
                 end_read: bool = False) -> None:
        self._conn = conn
        self._prepared = prepared
        self._rows = Transformer(conn)
        self._queued: list[Statement] = []
        self._end_read = end_read  # the connection still holds a finished read's transaction
        self.round_trips = 0
        self.pause: Pause | None = None  # set: a flush hands control back to the group instead
        self._open: list[Savepoint] = []  # open savepoints, outermost first

    def __call__(self, sql: str, params: Sequence[Any]) -> Statement:
        text = parameters.numbered(sql)
        if len(params) != parameters.count(sql):
            raise psycopg.ProgrammingError(f"the query has {parameters.count(sql)} "
                                           f"placeholders but {len(params)} parameters")
        try:
            types, values = parameters.encode(params)
        except TypeError:  # a parameter type without a text form here: the driver dumps it
            dumper = Transformer(self._conn)
            values = [None if v is None else bytes(v)
                      for v in dumper.dump_sequence(params, [PyFormat.TEXT] * len(params))]
            types = tuple(dumper.types or ())
        statement = Statement(self, text, types, values)
        self._queued.append(statement)
        return statement

    def flush(self) -> None:
        """Send the queued statements (from bridged code)."""
        if self._queued:
            await_only(self.send())

    def wait_for(self, statement: Statement) -> None:
        """Make ``statement``'s rows known: in a group's first step, by handing control back to
        the group (which sends its members' first reads together, see ``_write_group``)."""
        if self.pause is not None:
            await_only(self.pause)
        if statement.rows is None:
            self.flush()

    def take(self) -> list[Statement]:
        """Remove the queued statements and return them (a group sorts them out); the
        ``SAVEPOINT`` of a block they hold goes with them."""
        self._place_savepoints()
        queued, self._queued = self._queued, []
        return queued

    def savepoint(self) -> Savepoint:
        """Open a savepoint whose ``SAVEPOINT`` goes out only if its block's statements are sent
        while it is open (see the module invariants)."""
        mark = Savepoint(b"lazy_%d" % len(self._open), len(self._queued))
        self._open.append(mark)
        return mark

    def release(self, mark: Savepoint) -> None:
        """End the innermost savepoint ``mark``, keeping its block's writes."""
        self._close(mark)
        if mark.placed:
            self._queued.append(Statement(self, b"RELEASE SAVEPOINT " + mark.name, (), ()))

    def rollback(self, mark: Savepoint) -> None:
        """End the innermost savepoint ``mark``, undoing its block's writes: the queued ones are
        dropped unsent; once its ``SAVEPOINT`` went out, with ``ROLLBACK TO``."""
        self._close(mark)
        if mark.placed:
            self._queued.append(Statement(self, b"ROLLBACK TO SAVEPOINT " + mark.name, (), ()))
            self._queued.append(Statement(self, b"RELEASE SAVEPOINT " + mark.name, (), ()))
        else:
            del self._queued[mark.at:]

    def _close(self, mark: Savepoint) -> None:
        if not self._open or self._open[-1] is not mark:
            raise RuntimeError("savepoints end innermost first")
        self._open.pop()

    def _place_savepoints(self) -> None:
        """Put the ``SAVEPOINT`` of each open block that holds queued statements in front of
        them; a block holding none yet starts at the front of the next queue."""
        placed = 0
        end = len(self._queued)
        for mark in self._open:
            if mark.placed:
                continue
            if mark.at >= end:  # nothing inside it is queued (nor in any block inside it)
                mark.at = 0
                continue
            self._queued.insert(mark.at + placed,
                                Statement(self, b"SAVEPOINT " + mark.name, (), ()))
            mark.placed = True
            placed += 1

    def put(self, queued: list[Statement]) -> None:
        """Queue statements taken before."""
        self._queued.extend(queued)

    async def send(self) -> None:
        """Send every queued statement now (one round trip)."""
        self._place_savepoints()
        if self._queued:
            queued, self._queued = self._queued, []
            self.round_trips += 1
            await self._send(queued)

    async def _send(self, queued: list[Statement]) -> None:
        conn = self._conn
        pgconn = conn.pgconn
        names = self._prepared.names
        end_read, self._end_read = self._end_read, False
        # per statement: the name it is prepared under here now, if its Parse goes out with it
        preparing: list[bytes | None] = []
        pgconn.enter_pipeline_mode()
        try:
            if end_read:
                pgconn.send_query_params(_ROLLBACK, None)
            fresh: dict[tuple[bytes, tuple[int, ...]], bytes] = {}
            for statement in queued:
                key = (statement.sql, statement.types)
                name = names.get(key) or fresh.get(key)
                parse: bytes | None = None
                if name is None and len(names) + len(fresh) < PREPARED_LIMIT:
                    name = parse = fresh[key] = self._prepared.new_name()
                    pgconn.send_prepare(name, statement.sql, statement.types)
                preparing.append(parse)
                if name is None:  # past the limit: an unnamed statement, parsed each time
                    pgconn.send_query_params(statement.sql, statement.values, statement.types)
                else:
                    pgconn.send_query_prepared(name, statement.values)
            pgconn.pipeline_sync()
            results = await conn.wait(_pipeline_results(pgconn))
        finally:
            if pgconn.pipeline_status:
                try:
                    pgconn.exit_pipeline_mode()
                except psycopg.OperationalError:  # results left unread: the connection is lost
                    pgconn.finish()
        self._take(results, queued, preparing, end_read)

    def _take(self, results: list[PGresult], queued: list[Statement],
              preparing: list[bytes | None], end_read: bool) -> None:
        """Hand each statement its rows; remember what got prepared; raise the first error."""
        expected = len(queued) + sum(1 for name in preparing if name) + (1 if end_read else 0)
        if len(results) != expected:
            raise psycopg.InternalError(f"{len(results)} results for {expected} pipeline steps")
        encoding = self._conn.info.encoding
        names = self._prepared.names
        error: PGresult | None = None
        at = 1 if end_read else 0
        if end_read and results[0].status == FATAL_ERROR:
            error = results[0]
        rows = self._rows
        for statement, parse in zip(queued, preparing, strict=True):
            if parse is not None:
                if results[at].status == FATAL_ERROR and error is None:
                    error = results[at]
                elif results[at].status == psycopg.pq.ExecStatus.COMMAND_OK:
                    names[(statement.sql, statement.types)] = parse
                at += 1
            result = results[at]
            at += 1
            if error is not None:
                continue
            if result.status == TUPLES_OK:
                rows.set_pgresult(result)
                statement.rows = rows.load_rows(0, result.ntuples, tuple)
            elif result.status == FATAL_ERROR:
                error = result
            else:
                statement.rows = []
        if error is not None:
            exc = psycopg.errors.error_from_result(error, encoding=encoding)
            if isinstance(exc, psycopg.errors.InvalidSqlStatementName):
                self._prepared.forget()  # the session was reset: prepare again next time
            raise exc


def _pipeline_results(pgconn: PGconn) -> PQGen[list[PGresult]]:
    """Flush the pipeline, then every result up to its ``Sync`` (one per step, in order)."""
    yield from send(pgconn)
    results: list[PGresult] = []
    while True:
        got = yield from fetch_many(pgconn)
        if got and got[0].status == PIPELINE_SYNC:
            return results
        results.extend(got)
