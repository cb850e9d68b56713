"""``Batch``: the ``execute`` of bridged store code on one async PostgreSQL connection.

Invariants: statements are bound in the client (``literals.bind``, else the driver's client-side
binding) and queued; the first read of any queued statement's rows sends every queued statement
as one simple query (one round trip, one result per statement, read straight from libpq's
results), so writes whose results nobody reads travel with the next read or with ``COMMIT``; the
first failing statement's error is raised; ``round_trips`` counts what was sent. A connection
that still holds a finished read's transaction gets its ``ROLLBACK`` in front of the first
statements. While ``pause`` is set (a group transaction's first step), reading rows hands control
back to the group instead of sending.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.adapt import Transformer
from psycopg.generators import execute as execute_generator

from composer_app.server.store.bridge import Pause, await_only
from composer_app.server.store.literals import bind

__all__ = ["FATAL_ERROR", "TUPLES_OK", "Batch", "Statement"]

FATAL_ERROR = psycopg.pq.ExecStatus.FATAL_ERROR
TUPLES_OK = psycopg.pq.ExecStatus.TUPLES_OK


class Statement:
    """A queued statement; reading its rows sends every queued statement in one round trip."""

    __slots__ = ("_batch", "rows")

    def __init__(self, batch: Batch) -> None:
        self._batch = batch
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


class Batch:
    """The ``execute`` of bridged store code on one async connection, with client-side binding.

    Statements are bound in the client (``literals.bind``) and queued; the first read of any
    queued statement's rows sends all of them as one simple query (one round trip, one result per
    statement, read straight from libpq's results), so writes whose results nobody reads travel
    with the next read or with ``COMMIT``. The first failing statement's error is raised.
    """

    def __init__(self, conn: psycopg.AsyncConnection[Any], *, end_read: bool = False) -> None:
        self._conn = conn
        self._rows = Transformer(conn)
        self._queued: list[tuple[bytes, Statement]] = []
        self._end_read = end_read  # the connection still holds a finished read's transaction
        self.round_trips = 0
        self.pause: Pause | None = None  # set: a flush hands control back to the group instead

    def __call__(self, sql: str, params: Sequence[Any]) -> Statement:
        if not params:
            text = sql.encode("utf-8")
        else:
            try:
                text = bind(sql, params)
            except TypeError:  # a parameter type without a literal here: the driver binds it
                text = psycopg.AsyncClientCursor(self._conn).mogrify(
                    sql.replace("?", "%s"), tuple(params)).encode("utf-8")
        statement = Statement(self)
        self._queued.append((text, statement))
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

    def take(self) -> list[tuple[bytes, Statement]]:
        """Remove the queued statements and return them (a group sorts them out)."""
        queued, self._queued = self._queued, []
        return queued

    def put(self, queued: list[tuple[bytes, Statement]]) -> None:
        """Queue statements taken before."""
        self._queued.extend(queued)

    async def send(self) -> None:
        """Send every queued statement now (one round trip)."""
        if self._queued:
            queued, self._queued = self._queued, []
            self.round_trips += 1
            await self._send(queued)

    async def _send(self, queued: list[tuple[bytes, Statement]]) -> None:
        conn = self._conn
        pgconn = conn.pgconn
        text = b";".join(text for text, _ in queued)
        end_read, self._end_read = self._end_read, False
        pgconn.send_query(b"ROLLBACK;" + text if end_read else text)
        results = await conn.wait(execute_generator(pgconn))
        for result in results:
            if result.status == FATAL_ERROR:
                raise psycopg.errors.error_from_result(result, encoding=conn.info.encoding)
        if end_read:
            results = results[1:]
        if len(results) != len(queued):
            raise psycopg.InternalError(f"{len(results)} results for {len(queued)} statements")
        rows = self._rows
        for result, (_, statement) in zip(results, queued, strict=True):
            if result.status == TUPLES_OK:
                rows.set_pgresult(result)
                statement.rows = rows.load_rows(0, result.ntuples, tuple)
            else:
                statement.rows = []
