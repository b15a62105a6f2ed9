"""The PostgreSQL side of the journal: psycopg 3 behind :class:`~cockatrice_ext.journal.Database`.

Several bot processes, on several machines, share one PostgreSQL journal; every query is the shared
one of :mod:`cockatrice_ext.journal`, only spelled with ``%s`` parameters, PostgreSQL's type names
and the server's clock (so leases expire by one clock whatever the machines' clocks say).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

from cockatrice_ext.journal import Database, JournalError, Rows

try:
    import psycopg
except ImportError:  # the optional "postgres" extra
    psycopg = None  # type: ignore[assignment]

LOGGER = logging.getLogger(__name__)

MIGRATION_LOCK_ID = 0x636B_6A6F_7572  # any fixed number: the advisory lock serialising migrations


def redact(url: str) -> str:
    """``url`` with its password hidden, for messages."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


class PostgresDatabase(Database):
    """One autocommit psycopg connection; ``transaction()`` is a real BEGIN ... COMMIT."""

    tokens: ClassVar[dict[str, str]] = {
        "?": "%s",
        "{REAL}": "DOUBLE PRECISION",
        "{BIGINT}": "BIGINT",
        "{NOW}": "CAST(EXTRACT(EPOCH FROM statement_timestamp()) AS DOUBLE PRECISION)",
    }
    integrity_errors: ClassVar[tuple[type[Exception], ...]] = (
        (psycopg.IntegrityError,) if psycopg is not None else ()
    )
    driver_errors: ClassVar[tuple[type[Exception], ...]] = (psycopg.Error,) if psycopg is not None else ()
    REASONS: ClassVar[dict[str, str]] = {
        "53100": "its disk is full",
        "53200": "its database is out of memory",
        "53300": "its database has too many connections",
        "25006": "it is read-only",
        "42501": "its database refuses this account's writes",
        "57P01": "its database is shutting down",
        "57P03": "its database is starting or in recovery",
    }
    """Why a write failed, by SQLSTATE."""
    migration_lock: ClassVar[str] = f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_ID})"

    def __init__(self, url: str, *, read_only: bool = False) -> None:
        super().__init__()
        if psycopg is None:
            raise JournalError("a PostgreSQL journal needs psycopg: pip install 'cockatrice-ext[postgres]'")
        self._url = url
        self._read_only = read_only
        self._in_transaction = False
        self._conn = self._connect()

    def _connect(self) -> Any:
        try:
            connection = psycopg.connect(self._url, autocommit=True)
            if self._read_only:  # reports: the server refuses any write of this session
                connection.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            return connection
        except psycopg.Error as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise JournalError(f"cannot open the journal at {redact(self._url)}: {reason}") from None

    def _reconnect_if_lost(self) -> None:
        """A connection the server dropped (a restart, a failover, an idle timeout) is opened again."""
        if self._conn.closed or self._conn.broken:
            LOGGER.warning("journal connection to %s lost; connecting again", redact(self._url))
            self._conn = self._connect()

    def execute(self, text: str, args: Sequence[Any] = ()) -> Rows:
        self._reconnect_if_lost()
        try:
            return self._conn.execute(self.sql(text), args)  # type: ignore[call-overload, no-any-return]
        except psycopg.OperationalError:
            if self._in_transaction or not self._conn.broken:
                raise
            # Dropped between two statements: once more on a new connection. A write that did land
            # the first time is refused by its action id, so nothing is applied twice.
            self._reconnect_if_lost()
            return self._conn.execute(self.sql(text), args)  # type: ignore[call-overload, no-any-return]

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self._reconnect_if_lost()
        with contextlib.ExitStack() as stack:
            for attempt in range(2):
                try:
                    stack.enter_context(self._conn.transaction())
                    break
                except psycopg.OperationalError:
                    if attempt or not self._conn.broken:
                        raise
                    self._reconnect_if_lost()  # dropped while idle: nothing was begun yet
            self._in_transaction = True
            try:
                yield
            finally:
                self._in_transaction = False

    def columns(self, table: str) -> set[str]:
        rows = self.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ?",
            (table,),
        )
        return {row[0] for row in rows}

    def unwritable_reason(self, exc: Exception) -> str:
        state = getattr(exc, "sqlstate", None)
        if isinstance(state, str) and state in self.REASONS:
            return self.REASONS[state]
        if isinstance(exc, psycopg.OperationalError):
            return "its database cannot be reached"
        return "its database refused the write"

    def close(self) -> None:
        self._conn.close()
