"""One journal for every format: tables (games or leagues), their accepted actions, and leases.

Theory of operation
-------------------
A *table* is one running engine: a game refereed in Cockatrice, or a league spanning many
games. Its row holds the engine name, its JSON config and its seed. Every accepted action
is appended, with the effects it produced, inside one transaction, before the bot acts on
those effects. Restoring a table replays its actions on a fresh engine; because engines are
deterministic, the result equals the state before the restart (gold, block order, the
auction in progress...). Each replayed action is checked against the effects it recorded, so
rules that changed what a game's actions did are reported, never silently replayed. A
:class:`Table` writes the sequence number after its engine's last action: a process whose
engine missed another's write is refused at once.

Effects are stored too, so reports such as ``stats prices`` are plain queries over what
happened, with no replay.

Backends
--------
A path names an SQLite file (the default, one machine); a ``postgresql://`` URL names a
PostgreSQL database that several bot processes on several machines share (driver: psycopg 3,
the ``postgres`` extra; see :mod:`cockatrice_ext.journal_pg`). Every query is written once, below;
a :class:`Database` only supplies the connection, the transactions, the parameter style, two
type names and the database clock. An SQLite journal copies its write-ahead log into the database
file on a thread of its own (:class:`WalCheckpointer`), so an acknowledgement rarely waits for a disk flush.

Migrations
----------
``schema_version`` lists the :data:`MIGRATIONS` applied, one row each. Opening a journal applies
the missing ones in order, in one transaction (PostgreSQL: under an advisory lock, so processes
starting together migrate once). A journal written before ``schema_version`` existed is
recognised by its columns. A journal newer than this program is refused, never rewritten.

Idempotent actions
------------------
Every action carries an id (the caller's, or a fresh UUID): a table never holds two actions with
the same id, so an append retried after a crash is refused (:class:`DuplicateAction`) rather
than applied twice.

Write failures
--------------
A write the database refuses for any reason but a constraint (its disk full, its file or database
read-only, its connection gone) is a :class:`JournalWriteError` saying why in a few words players may read
(``its disk is full``); the operator's log says it once, and again when the journal takes writes again. A
:class:`Table` whose action was applied but not journaled reads its engine back from the journal, so that
nothing players are told comes from an action the record lacks, and a later action is never numbered after a
gap. Reports open a journal for reading only (``Journal(spec, read_only=True)``): nothing is created or
migrated, so a journal on read-only media can be read.

Versions
--------
A journal names the versions of this program that wrote it, in a note of its own (:data:`WRITERS_NOTE`, no
schema change, so a release before it still opens the journal): the last one and the highest one ever, set
when a version opens it for writing. A version older than one that wrote the journal still works (the schema
check refuses what it cannot read) but says so (:attr:`Journal.written_by_newer`): tables whose rules changed
since may not replay. Versions compare by their numbers (0.10.0 is after 0.9.0); a stored value that reads as
no version is ignored, and replaced at the next write.

Leases
------
A lease gives a key (a table, a room...) to one owner process until an expiry, measured by the
database's clock so that machines with different clocks agree. Taking a lease is one atomic
statement (``INSERT ... ON CONFLICT ... WHERE expired``): two processes never hold the same key.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shlex
import sqlite3
import threading
import time
import uuid
import weakref
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from cockatrice_ext import __version__
from cockatrice_ext.formats import FORMAT_TITLES
from cockatrice_ext.formats.base import (
    ENGINES,
    Action,
    Effect,
    Engine,
    decode_action,
    encode_action,
    find_engine,
    from_jsonable,
    to_jsonable,
)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class Migration:
    """One step of the schema; ``{REAL}``/``{BIGINT}`` become each database's type names."""

    version: int
    description: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "tables and their actions",
        (
            "CREATE TABLE tables (key TEXT PRIMARY KEY, engine TEXT NOT NULL, config TEXT NOT NULL,"
            " seed {BIGINT} NOT NULL, created {REAL} NOT NULL, meta TEXT NOT NULL DEFAULT '{}',"
            " closed INTEGER NOT NULL DEFAULT 0)",
            "CREATE TABLE actions (table_key TEXT NOT NULL REFERENCES tables(key), seq INTEGER NOT NULL,"
            " at {REAL} NOT NULL, action TEXT NOT NULL, effects TEXT NOT NULL, PRIMARY KEY (table_key, seq))",
        ),
    ),
    Migration(
        2, "why a table was closed", ("ALTER TABLE tables ADD COLUMN closed_reason TEXT NOT NULL DEFAULT ''",)
    ),
    Migration(
        3,
        "action ids: a retried append is refused",
        (
            "ALTER TABLE actions ADD COLUMN action_id TEXT",
            "CREATE UNIQUE INDEX actions_by_id ON actions(table_key, action_id)",
        ),
    ),
    Migration(
        4,
        "leases: one owner process per key until an expiry",
        ("CREATE TABLE leases (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires {REAL} NOT NULL)",),
    ),
    Migration(
        5,
        "notes: small records kept outside any table (an open league lobby)",
        ("CREATE TABLE notes (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated {REAL} NOT NULL)",),
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1].version

PLAYED_WITH = "played_with"
"""A table's meta: the version of this program that plays it (set at creation and when another version
replays it and goes on), named when a table no longer replays so that the operator can finish it there."""


WRITERS_NOTE = "journal:writers"
"""The note naming the versions of this program that wrote the journal (``{"last": ..., "highest": ...}``);
kept out of :meth:`Journal.notes`."""

_VERSION = re.compile(r"[0-9A-Za-z.+!_-]{1,40}")
_VERSION_NUMBERS = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9}){1,9}(?![0-9]|\.[0-9])")


def version_numbers(text: Any) -> tuple[int, ...] | None:
    """The numbers a version starts with, to compare versions (``"0.10.0"`` -> ``(0, 10)``: trailing
    zeros dropped, so 0.2 and 0.2.0 are equal; a suffix such as ``rc1`` ignored), or None when ``text``
    is no version (not a text, no dot, a number of more than 9 digits, junk)."""
    if not isinstance(text, str):
        return None
    found = _VERSION_NUMBERS.match(text.strip()[:200])
    if found is None:
        return None
    numbers = [int(part) for part in found.group(0).split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def shown_version(text: Any) -> str:
    """A stored version as messages show it: its first 40 plain characters (letters, digits, ``.+!_-``),
    "" when it is no version."""
    if version_numbers(text) is None:
        return ""
    found = _VERSION.match(str(text).strip())
    return found.group(0) if found is not None else ""


class JournalError(RuntimeError):
    """The journal is missing a table, holds something that cannot be replayed, or cannot be written.

    Its text names the table by its journal key, for the operator's log; :attr:`public` is the same
    without the key (``action 4 (EndTurn) replays differently ...``), for players, who know the game as
    ``game #1``.
    """

    def __init__(self, message: str, *, key: str | None = None, public: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.public = message if public is None else public


def table_error(key: str, rest: str, cls: type[JournalError] | None = None) -> JournalError:
    """A :class:`JournalError` about table ``key``: ``table 'KEY'`` then ``rest`` (which starts with a
    space or a colon) in the log, ``rest`` alone for players."""
    return (cls or JournalError)(f"table {key!r}{rest}", key=key, public=rest.lstrip(": ") or "no record")


class JournalOutdated(JournalError):
    """A journal opened for reading only whose schema is older than this program's (it is not migrated)."""


class JournalWriteError(JournalError):
    """The journal cannot be written (its disk is full, it is read-only, its database refuses or is
    unreachable): nothing was recorded, and a :class:`Table` left its engine as it was before.

    :attr:`reason` is the short cause (``its disk is full``), fit for players:
    ``the referee cannot record moves right now (its disk is full); nothing changed``.
    """

    def __init__(self, path: str, reason: str, detail: str) -> None:
        text = f"the journal {path} cannot be written: {reason}"
        if detail and detail != reason:
            text += f" ({detail})"
        super().__init__(text, public=f"the referee cannot record moves right now ({reason})")
        self.path = path
        self.reason = reason


_UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError)
"""What reading a damaged record can raise (bad JSON, nesting too deep for the decoder, a missing field, a
value of the wrong type): turned into a :class:`JournalError` that names the table and what is wrong."""


def _unreadable(key: str, what: str, exc: BaseException) -> JournalError:
    """The one-line refusal of a record of table ``key`` that cannot be read: ``what`` names it (``: its
    config``, `` action 2: its action``), ``exc`` says why."""
    if isinstance(exc, RecursionError):
        reason = "nested too deeply"
    elif isinstance(exc, json.JSONDecodeError):
        reason = f"not JSON: {exc.msg} at character {exc.pos}"
    elif isinstance(exc, KeyError):
        reason = f"missing {str(exc)[:60]}"
    else:
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
    return table_error(key, f"{what} cannot be read ({reason})")


def _load_record(text: Any, key: str, what: str) -> Any:
    """One JSON column of table ``key``, or a :class:`JournalError` naming ``what`` (never another error)."""
    try:
        return json.loads(text)
    except _UNREADABLE as exc:
        raise _unreadable(key, what, exc) from exc


def no_table(key: str) -> JournalError:
    """The journal has no table ``key``."""
    return JournalError(f"no table {key!r}", key=key, public="the journal has no record of it")


def engine_class(name: Any, key: str) -> type[Engine[Any]]:
    """The engine a table's row names, from a fixed registry: an engine already registered, or one of the
    formats (:data:`~cockatrice_ext.formats.FORMAT_TITLES`, whose own module is imported). Nothing else
    named by a record is ever imported.

    Raises:
        JournalError: no such engine.
    """
    if isinstance(name, str):
        if name in ENGINES:
            return ENGINES[name]
        if name in FORMAT_TITLES:
            with contextlib.suppress(KeyError):
                return find_engine(name)
    shown = repr(name)[:60]
    raise table_error(key, f" names an unknown engine {shown}")


class DuplicateAction(JournalError):
    """The table already holds an action with this id: a retried append, refused."""

    def __init__(self, table_key: str, action_id: str, seq: int) -> None:
        public = f"it already holds action {action_id!r} (number {seq})"
        super().__init__(
            f"table {table_key!r} already holds action {action_id!r} (number {seq})",
            key=table_key,
            public=public,
        )
        self.table_key = table_key
        self.action_id = action_id
        self.seq = seq


@dataclass(frozen=True)
class JournalEntry:
    table_key: str
    seq: int
    at: float
    action: dict[str, Any]
    effects: list[dict[str, Any]]
    action_id: str | None = None  # None only for actions journaled before ids existed


@dataclass(frozen=True)
class Lease:
    """``owner`` holds ``key`` until ``expires`` (seconds since the epoch, by the database's clock)."""

    key: str
    owner: str
    expires: float


class Rows(Protocol):
    """What both drivers' cursors offer."""

    rowcount: int

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


INSERT_ACTION = "INSERT INTO actions(table_key, seq, at, action, effects, action_id) VALUES (?,?,?,?,?,?)"


def recorded_in(recorded: Any, replayed: Any) -> bool:
    """Whether a replay shows what was recorded: the same values, lists of the same length, every recorded
    field present (a replay may add fields that did not exist when the action was journaled)."""
    if isinstance(recorded, dict):
        return isinstance(replayed, dict) and all(
            name in replayed and recorded_in(value, replayed[name]) for name, value in recorded.items()
        )
    if isinstance(recorded, list):
        return (
            isinstance(replayed, list)
            and len(recorded) == len(replayed)
            and all(recorded_in(a, b) for a, b in zip(recorded, replayed, strict=True))
        )
    return bool(recorded == replayed) and type(recorded) is type(replayed)


class Database(ABC):
    """One connection, and the few things in which SQLite and PostgreSQL differ.

    Queries are written with ``?`` parameters and the tokens of :attr:`tokens` (``{REAL}``,
    ``{BIGINT}``, ``{NOW}`` = the database clock in seconds since the epoch); :meth:`sql` turns
    them into the database's own spelling.
    """

    tokens: ClassVar[dict[str, str]]
    integrity_errors: ClassVar[tuple[type[Exception], ...]]
    driver_errors: ClassVar[tuple[type[Exception], ...]]
    """Everything the driver raises (a write that failed for any reason but a constraint)."""
    migration_lock: ClassVar[str] = ""
    """A statement run first in the migration transaction so that one process migrates at a time."""

    def __init__(self) -> None:
        self._spelled: dict[str, str] = {}

    def sql(self, text: str) -> str:
        spelled = self._spelled.get(text)
        if spelled is None:
            spelled = text
            for token, value in self.tokens.items():
                spelled = spelled.replace(token, value)
            self._spelled[text] = spelled
        return spelled

    @abstractmethod
    def execute(self, text: str, args: Sequence[Any] = ()) -> Rows:
        """Run one statement (autocommit unless inside :meth:`transaction`)."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[None]:
        """Statements inside commit together, or not at all (SQLite: taking the write lock at once)."""

    def write_alone(self, text: str, args: Sequence[Any] = ()) -> None:
        """One write statement as its own transaction (it lands whole or not at all)."""
        with self.transaction():
            self.execute(text, args)

    @abstractmethod
    def columns(self, table: str) -> set[str]:
        """Column names of ``table`` (empty when it does not exist)."""

    @abstractmethod
    def unwritable_reason(self, exc: Exception) -> str:
        """Why a write failed, in a few words players may read (``its disk is full``, ``it is read-only``)."""

    @abstractmethod
    def close(self) -> None: ...


LOGGER = logging.getLogger(__name__)

CHECKPOINT_DELAY = 0.5
"""Seconds after a write before the background checkpoint copies the log into the database file (writes
meanwhile share one checkpoint)."""

WAL_SIZE_LIMIT = 4 << 20
"""Bytes a write-ahead log is cut back to when it starts over (a burst may have grown it)."""


_IN_SQLITE = threading.Lock()
"""Held by checkpointer threads while they call into SQLite. A fork waits for it (``os.register_at_fork``),
so a child process never inherits SQLite's internal locks in the middle of another thread's call: SQLite
is not fork-safe with threads, and a child that opened the journal then hung."""

if hasattr(os, "register_at_fork"):
    os.register_at_fork(
        before=_IN_SQLITE.acquire, after_in_parent=_IN_SQLITE.release, after_in_child=_IN_SQLITE.release
    )


class WalCheckpointer:
    """Copies an SQLite journal's write-ahead log into its database file, on a thread of its own.

    Left to itself, SQLite checkpoints inside the commit that takes the log past 1,000 pages, disk flush
    included: one journaled action in ~300 waited 3-6 ms here (far longer on slow disks), and every game of
    the bot waited behind it. A second connection now checkpoints on this thread, :data:`CHECKPOINT_DELAY`
    after writes, with the GIL released while SQLite works; a passive checkpoint waits for no reader or
    writer, and the log starts over at the next write, so it rarely reaches SQLite's own threshold. That
    threshold stays as the bound when writes never pause long enough for a checkpoint to finish.
    """

    def __init__(self, path: str) -> None:
        self._path = path
        self._written = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None

    def wrote(self) -> None:
        """Called after each commit (cheap: sets an event; the thread starts with the first write)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="journal-checkpoint", daemon=True)
            self._thread.start()
        self._written.set()

    def _run(self) -> None:
        with _IN_SQLITE:
            connection = sqlite3.connect(self._path, isolation_level=None)
        try:
            while not self._closing.is_set():
                self._written.wait()
                self._closing.wait(CHECKPOINT_DELAY)
                self._written.clear()
                try:
                    with _IN_SQLITE:
                        connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:  # the next write tries again
                    LOGGER.warning("journal %s: checkpoint failed: %s", self._path, exc)
        finally:
            with _IN_SQLITE:
                connection.close()

    def stop(self) -> None:
        """Let the thread end (after one last checkpoint if writes are waiting for one)."""
        self._closing.set()
        self._written.set()

    def close(self) -> None:
        """Stop the thread and wait for it."""
        self.stop()
        if self._thread is not None:
            self._thread.join(timeout=10)


class SQLiteDatabase(Database):
    """An SQLite file (or ``":memory:"``), WAL mode, foreign keys enforced as on PostgreSQL."""

    tokens: ClassVar[dict[str, str]] = {
        "{REAL}": "REAL",
        "{BIGINT}": "INTEGER",
        "{NOW}": "((julianday('now') - 2440587.5) * 86400.0)",
    }
    integrity_errors: ClassVar[tuple[type[Exception], ...]] = (sqlite3.IntegrityError,)
    driver_errors: ClassVar[tuple[type[Exception], ...]] = (sqlite3.Error,)
    REASONS: ClassVar[dict[int, str]] = {
        sqlite3.SQLITE_FULL: "its disk is full",
        sqlite3.SQLITE_READONLY: "it is read-only",
        sqlite3.SQLITE_IOERR: "its disk failed",
        sqlite3.SQLITE_CANTOPEN: "its file cannot be opened",
        sqlite3.SQLITE_PERM: "permission denied",
        sqlite3.SQLITE_BUSY: "another process holds it locked",
        sqlite3.SQLITE_LOCKED: "another process holds it locked",
    }

    def __init__(self, path: str, *, read_only: bool = False) -> None:
        super().__init__()
        self._checkpointer: WalCheckpointer | None = None
        self._changes = 0
        if read_only:
            self._conn = _open_read_only(path)
            return
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        if mode == "wal":  # a file (":memory:" has no log)
            self._conn.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
            self._checkpointer = WalCheckpointer(path)
            weakref.finalize(self, self._checkpointer.stop)  # a journal dropped unclosed ends its thread

    def execute(self, text: str, args: Sequence[Any] = ()) -> Rows:
        rows = self._conn.execute(self.sql(text), args)
        if self._checkpointer is not None and not self._conn.in_transaction:
            self._wrote()  # an autocommitted write (a lease, a table's metadata) needs copying too
        return rows

    def _wrote(self) -> None:
        """Wake the checkpointer when the database changed since it was last woken."""
        changes = self._conn.total_changes
        if changes != self._changes:
            self._changes = changes
            self._checkpointer.wrote()  # type: ignore[union-attr]

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._conn.execute("COMMIT")
        except BaseException:
            # SQLite may have rolled back already (a full disk does): a ROLLBACK then would fail and hide
            # why; one that fails anyway must not hide it either.
            if self._conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
            raise
        if self._checkpointer is not None:
            self._wrote()

    def unwritable_reason(self, exc: Exception) -> str:
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in self.REASONS:
            return self.REASONS[code & 0xFF]
        text = str(exc).lower()
        if "full" in text:
            return "its disk is full"
        if "readonly" in text or "read-only" in text:
            return "it is read-only"
        return "its database refused the write"

    def write_alone(self, text: str, args: Sequence[Any] = ()) -> None:
        # Autocommit: SQLite runs a lone statement as its own transaction, without the two extra
        # round trips of BEGIN and COMMIT (a journaled bid is on the acknowledgement's path).
        self._conn.execute(self.sql(text), args)
        if self._checkpointer is not None:
            self._wrote()

    def columns(self, table: str) -> set[str]:
        return {row[0] for row in self._conn.execute("SELECT name FROM pragma_table_info(?)", (table,))}

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.close()  # first: the last connection to close removes the log
        self._conn.close()


def _open_read_only(path: str) -> sqlite3.Connection:
    """An SQLite file opened for reading only (reports): never written, so it may be on read-only media.

    A journal in WAL mode needs its shared-memory file beside it; where none is left and none can be made
    (a read-only mount, a read-only folder), the file is read as immutable: nobody can be writing it there.
    """
    uri = Path(path).absolute().as_uri()
    connection = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return connection
    except sqlite3.OperationalError as exc:
        connection.close()
        if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY):
            raise
    connection = sqlite3.connect(
        f"{uri}?immutable=1", uri=True, isolation_level=None, check_same_thread=False
    )
    connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    return connection


def missing_log(spec: str) -> str:
    """Why an SQLite journal must not be opened as it is, or ``""``: its write-ahead log (``J-wal``) is gone
    while its shared-memory index (``J-shm``) is still there. A process killed with the journal open leaves
    both; SQLite removes the index first when it closes cleanly, so an index without its log means the log
    was deleted by hand (or lost with a copy): SQLite would open the main file alone, silently without the
    most recent moves (or fail later as a disk error), so the operator chooses."""
    if spec == ":memory:" or spec.startswith(POSTGRES_SCHEMES) or spec.startswith("file:"):
        return ""
    main, log, index = Path(spec), Path(f"{spec}-wal"), Path(f"{spec}-shm")
    if not main.is_file() or not index.exists() or log.exists():
        return ""
    return (
        f"the journal's log file {log} is missing while {index} exists: its most recent moves may be lost;"
        f" put the -wal file back, or remove {index} to start from the main file alone"
    )


def damaged_file(spec: str, exc: Exception) -> str:
    """The one line for an SQLite journal the driver finds damaged (``database disk image is malformed``),
    with the next step (a backup, or SQLite's own recovery into a new file); ``""`` for any other error."""
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(exc, sqlite3.DatabaseError) or not isinstance(code, int):
        return ""
    if code & 0xFF != sqlite3.SQLITE_CORRUPT:
        return ""
    recovered = shlex.quote(f"{spec}.recovered")
    return (
        f"cannot open the journal {spec}: {exc}; restore a backup of it, or recover what it holds into a new"
        f" file (sqlite3 {shlex.quote(spec)} '.recover' | sqlite3 {recovered}) and start the bot on that"
    )


def open_database(spec: str | Path, *, read_only: bool = False) -> Database:
    """The database a journal spec names: a ``postgresql://`` URL, or else an SQLite path; ``read_only``:
    opened for reading only (nothing is created, migrated or written)."""
    if isinstance(spec, str) and spec.startswith(POSTGRES_SCHEMES):
        from cockatrice_ext.journal_pg import PostgresDatabase

        return PostgresDatabase(spec, read_only=read_only)
    return SQLiteDatabase(str(spec), read_only=read_only)


def shown_spec(spec: str) -> str:
    """A journal spec as messages show it: a PostgreSQL URL without its password."""
    if spec.startswith(POSTGRES_SCHEMES):
        from cockatrice_ext.journal_pg import redact

        return redact(spec)
    return spec


def journal_location(spec: str) -> str:
    """Where a journal is, for the operator: an SQLite file's absolute path (a relative one depends on the
    folder the bot started from), a PostgreSQL URL without its password."""
    if spec.startswith(POSTGRES_SCHEMES) or spec == ":memory:":
        return shown_spec(spec)
    return str(Path(spec).absolute())


class Journal:
    """Tables, their actions and leases: SQLite (a path; ``":memory:"`` for tests) or PostgreSQL (a URL)."""

    def __init__(self, spec: str | Path, *, read_only: bool = False) -> None:
        self.path = str(spec)
        self.read_only = read_only
        """Opened for reports: never written (it may be on read-only media); writes are refused."""
        self.new = False
        """This process created the journal (it held no schema before it was opened): a restart that finds
        the account seated in games with a new journal was most likely pointed at the wrong one."""
        self.last_written_by = ""
        """The version of this program that last opened the journal for writing before this process ("" when
        none is recorded: a new journal, or one only releases before 0.2.0 wrote)."""
        self.written_by_newer = ""
        """The highest version that ever wrote the journal when it is newer than this one ("" otherwise): a
        rollback. Tables whose rules changed since may not replay; the operator should upgrade."""
        if refusal := missing_log(self.path):
            raise JournalError(refusal)
        try:
            self._db = open_database(spec, read_only=read_only)
        except sqlite3.DatabaseError as exc:
            if damaged := damaged_file(self.path, exc):
                raise JournalError(damaged) from exc
            raise
        try:
            if read_only:
                self._check_version()
                self._read_writers(self._writers_note())
            else:
                self._migrate()
        except BaseException as exc:
            self._db.close()
            if isinstance(exc, sqlite3.DatabaseError) and (damaged := damaged_file(self.path, exc)):
                raise JournalError(damaged) from exc
            raise
        self._last_seq: dict[str, int] = {}  # one writer per table (its lease owner): no MAX(seq) per write
        self.refusing = ""
        """Why this process may no longer record actions (see :meth:`refuse_actions`); empty while it may."""
        self.unwritable = ""
        """Why the last write failed (a full disk...), until one succeeds: logged once, not at every move."""

    def refuse_actions(self, reason: str) -> None:
        """Record no action or new table from now on (``reason`` says why, in the refusal): the process lost
        its right to act (its server session ended for good, another process took the journal), so nothing
        it still does, a timer's pass included, may reach the record another process goes on with."""
        self.refusing = self.refusing or reason

    def _check_may_record(self) -> None:
        if self.refusing:
            raise JournalError(f"nothing more is recorded by this process: {self.refusing}")
        if self.read_only:
            raise JournalWriteError(shown_spec(self.path), "it was opened for reading only", "")

    @contextmanager
    def _writing(self, *, grows: bool = True) -> Iterator[None]:
        """A write: any failure of the database but a constraint (a full disk, a read-only file, a lost
        connection) becomes a :class:`JournalWriteError` saying why; nothing was written. Only a write that
        ``grows`` the journal (an action, a table, a note) shows that it can be written again: on a full disk
        an update in place (a lease renewed) still succeeds, and the log would say so between every two
        refused moves."""
        if self.read_only:
            raise JournalWriteError(shown_spec(self.path), "it was opened for reading only", "")
        try:
            yield
        except JournalError:
            raise
        except self._db.integrity_errors:
            raise
        except self._db.driver_errors as exc:
            detail = " ".join(str(exc).split())[:200] or type(exc).__name__
            error = JournalWriteError(shown_spec(self.path), self._db.unwritable_reason(exc), detail)
            if not self.unwritable:  # once, not at every refused move
                LOGGER.error("%s; every move is refused while it cannot", error)
            self.unwritable = str(error)
            raise error from exc
        if self.unwritable and grows:
            LOGGER.warning("the journal %s can be written again", shown_spec(self.path))
            self.unwritable = ""

    def close(self) -> None:
        self._db.close()

    # -- schema -------------------------------------------------------------
    def schema_version(self) -> int:
        """The last migration applied to this journal."""
        return int(self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])

    def _check_version(self) -> None:
        """A journal opened for reading: one this program reads as it is (never migrated here)."""
        if not self._db.columns("schema_version"):
            if not self._db.columns("tables"):
                raise JournalError(f"{shown_spec(self.path)} holds no cockatrice-ext journal")
            current = 2 if "closed_reason" in self._db.columns("tables") else 1
        else:
            current = self.schema_version()
        if current > SCHEMA_VERSION:
            raise JournalError(
                f"the journal has schema version {current}, newer than this program's {SCHEMA_VERSION}:"
                " upgrade cockatrice-ext"
            )
        if current < SCHEMA_VERSION:
            raise JournalOutdated(
                f"the journal has schema version {current}, older than this program's {SCHEMA_VERSION},"
                " and was opened for reading only: open it once writable (bot run, or a report on a writable"
                " copy) to upgrade it"
            )

    def _migrate(self) -> None:
        """Apply the migrations this journal lacks, in order, in one transaction."""
        with self._db.transaction():
            if self._db.migration_lock:
                self._db.execute(self._db.migration_lock)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
                " description TEXT NOT NULL, applied {REAL} NOT NULL)"
            )
            row = self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = int(row[0]) if row[0] is not None else self._record_version_in_place()
            self.new = current == 0
            if current > SCHEMA_VERSION:
                raise JournalError(
                    f"the journal has schema version {current}, newer than this program's {SCHEMA_VERSION}:"
                    " upgrade cockatrice-ext"
                )
            for migration in MIGRATIONS[current:]:
                for statement in migration.statements:
                    self._db.execute(statement)
                self._record(migration, "")
            self._record_writer()  # under the migration lock: processes starting together keep the highest

    def _writers_note(self) -> dict[str, Any]:
        """The :data:`WRITERS_NOTE` as stored; empty when there is none or it is not a JSON object."""
        row = self._db.execute("SELECT value FROM notes WHERE key=?", (WRITERS_NOTE,)).fetchone()
        if row is None:
            return {}
        try:
            value = json.loads(row[0])
        except _UNREADABLE:
            return {}
        return value if isinstance(value, dict) else {}

    def _read_writers(self, stored: dict[str, Any]) -> str:
        """Set :attr:`last_written_by` and :attr:`written_by_newer` from the stored note; return the highest
        version that wrote the journal, this one included (what the note keeps as ``highest``)."""
        self.last_written_by = shown_version(stored.get("last"))
        known = [shown for shown in map(shown_version, (stored.get("highest"), stored.get("last"))) if shown]
        mine = version_numbers(__version__) or (0,)
        newest = max(known, key=lambda shown: version_numbers(shown) or (0,), default="")
        self.written_by_newer = newest if newest and (version_numbers(newest) or (0,)) > mine else ""
        return self.written_by_newer or __version__

    def _record_writer(self) -> None:
        """Note this version as the journal's last writer (and its highest, unless a newer one wrote it);
        written only when that changes. Fields the note holds besides (a newer version's) are kept."""
        stored = self._writers_note()
        highest = self._read_writers(stored)
        noted = {**stored, "last": __version__, "highest": highest}
        if noted != stored:
            self._db.execute(
                "INSERT INTO notes(key, value, updated) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value=excluded.value, updated=excluded.updated",
                (WRITERS_NOTE, json.dumps(noted, sort_keys=True), time.time()),
            )

    def _record_version_in_place(self) -> int:
        """Journals from before ``schema_version``: recognise their version by their columns."""
        columns = self._db.columns("tables")
        current = 0 if not columns else 2 if "closed_reason" in columns else 1
        for migration in MIGRATIONS[:current]:
            self._record(migration, " (found in place)")
        return current

    def _record(self, migration: Migration, note: str) -> None:
        self._db.execute(
            "INSERT INTO schema_version(version, description, applied) VALUES (?,?,?)",
            (migration.version, migration.description + note, time.time()),
        )

    # -- tables -------------------------------------------------------------
    def create_table(self, key: str, engine: Engine[Any], *, meta: dict[str, Any] | None = None) -> None:
        """Record a new table for ``engine`` (freshly constructed, no actions applied yet), and which
        version of this program plays it (``PLAYED_WITH`` in its meta)."""
        self._check_may_record()
        meta = {**(meta or {}), PLAYED_WITH: __version__}
        with self._writing():
            self._db.execute(
                "INSERT INTO tables(key, engine, config, seed, created, meta) VALUES (?,?,?,?,?,?)",
                (
                    key,
                    engine.name,
                    json.dumps(to_jsonable(engine.config), sort_keys=True),
                    engine.seed,
                    time.time(),
                    json.dumps(meta, sort_keys=True),
                ),
            )

    def has_table(self, key: str) -> bool:
        return self._db.execute("SELECT 1 FROM tables WHERE key=?", (key,)).fetchone() is not None

    def table_meta(self, key: str) -> dict[str, Any]:
        row = self._db.execute("SELECT meta FROM tables WHERE key=?", (key,)).fetchone()
        if row is None:
            raise no_table(key)
        meta = _load_record(row[0], key, ": its meta")
        if not isinstance(meta, dict):
            raise table_error(key, ": its meta cannot be read (not a JSON object)")
        return meta

    def set_table_meta(self, key: str, meta: dict[str, Any]) -> None:
        with self._writing(grows=False):
            self._db.execute("UPDATE tables SET meta=? WHERE key=?", (json.dumps(meta, sort_keys=True), key))

    def close_table(self, key: str, reason: str = "") -> None:
        """Mark a table finished (``reason``: "game over", "abandoned", "replaced by game 12"...)."""
        with self._writing(grows=False):
            self._db.execute("UPDATE tables SET closed=1, closed_reason=? WHERE key=?", (reason, key))

    def closed_reason(self, key: str) -> str | None:
        """Why a table was closed ("" when no reason was given), or None while it is open."""
        row = self._db.execute("SELECT closed, closed_reason FROM tables WHERE key=?", (key,)).fetchone()
        if row is None:
            raise no_table(key)
        return str(row[1]) if row[0] else None

    def copy_table(self, key: str, new_key: str, *, meta: dict[str, Any]) -> None:
        """A new open table with ``key``'s engine, seed and actions (ids too): a game rebuilt elsewhere."""
        self._check_may_record()
        meta = {**meta, PLAYED_WITH: __version__}
        with self._writing(), self._db.transaction():
            self._db.execute(
                "INSERT INTO tables(key, engine, config, seed, created, meta)"
                " SELECT ?, engine, config, seed, ?, ? FROM tables WHERE key=?",
                (new_key, time.time(), json.dumps(meta, sort_keys=True), key),
            )
            self._db.execute(
                "INSERT INTO actions(table_key, seq, at, action, effects, action_id)"
                " SELECT ?, seq, at, action, effects, action_id FROM actions WHERE table_key=?",
                (new_key, key),
            )
        self._last_seq.pop(new_key, None)

    def rename_table(self, key: str, new_key: str) -> None:
        """Give table ``key`` (its actions and lease too) the key ``new_key``: a record moved aside when
        the server gives its game number to a new game."""
        # A new row first: the actions refer to their table's key.
        with self._writing(), self._db.transaction():
            self._db.execute(
                "INSERT INTO tables(key, engine, config, seed, created, meta, closed, closed_reason)"
                " SELECT ?, engine, config, seed, created, meta, closed, closed_reason"
                " FROM tables WHERE key=?",
                (new_key, key),
            )
            self._db.execute("UPDATE actions SET table_key=? WHERE table_key=?", (new_key, key))
            self._db.execute("DELETE FROM tables WHERE key=?", (key,))
            self._db.execute("UPDATE leases SET key=? WHERE key=?", (new_key, key))
        self._last_seq.pop(key, None)
        self._last_seq.pop(new_key, None)

    def open_tables(self, engine: str | None = None) -> list[str]:
        """Keys of tables not yet closed, oldest first."""
        sql = "SELECT key FROM tables WHERE closed=0"
        args: tuple[Any, ...] = ()
        if engine is not None:
            sql += " AND engine=?"
            args = (engine,)
        return [r[0] for r in self._db.execute(sql + " ORDER BY created, key", args)]

    def closed_tables(self, prefix: str = "") -> list[str]:
        """Keys of closed tables that start with ``prefix``, oldest first."""
        return [
            r[0]
            for r in self._db.execute(
                "SELECT key FROM tables WHERE closed<>0 AND substr(key, 1, CAST(? AS INTEGER)) = ?"
                " ORDER BY created, key",
                (len(prefix), prefix),
            )
        ]

    # -- actions ------------------------------------------------------------
    def append(
        self,
        key: str,
        action: Action,
        effects: list[Effect],
        *,
        action_id: str | None = None,
        seq: int | None = None,
    ) -> int:
        """Append one accepted action and its effects; return its sequence number.

        ``action_id`` (default: a fresh UUID) names the action for retries. ``seq``: the number the writer
        expects the action to get (a :class:`Table` knows how many actions its engine holds); if the table
        has it already, another process wrote meanwhile and the action is refused. Without it, the next
        number after the last this journal wrote (or read) is taken.

        Raises:
            DuplicateAction: the table already holds ``action_id``; nothing was written.
            JournalError: no such table, or another process wrote this table's next action.
        """
        self._check_may_record()
        action_id = action_id or uuid.uuid4().hex
        row = [
            key,
            0,
            time.time(),
            json.dumps(encode_action(action), sort_keys=True),
            json.dumps(to_jsonable(effects), sort_keys=True),
            action_id,
        ]
        last = self._last_seq.get(key) if seq is None else seq - 1
        seq = 0 if last is None else last + 1
        with self._writing():
            try:
                if last is not None:  # the usual case: one statement, its own transaction
                    row[1] = seq
                    self._db.write_alone(INSERT_ACTION, row)
                else:
                    with self._db.transaction():
                        found = self._db.execute(
                            "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_key=?", (key,)
                        ).fetchone()
                        row[1] = seq = int(found[0]) + 1
                        self._db.execute(INSERT_ACTION, row)
            except self._db.integrity_errors as exc:
                self._last_seq.pop(key, None)
                raise self._refusal(key, action_id, seq) from exc
        self._last_seq[key] = seq  # only after the commit: a failed write leaves no gap
        return seq

    def _refusal(self, key: str, action_id: str, seq: int) -> JournalError:
        """Why the database refused action ``seq`` of table ``key``."""
        existing = self.action_seq(key, action_id)
        if existing is not None:
            return DuplicateAction(key, action_id, existing)
        if not self.has_table(key):
            return no_table(key)
        return table_error(key, f": action {seq} was journaled by another process")

    def action_seq(self, key: str, action_id: str) -> int | None:
        """The sequence number of action ``action_id`` in table ``key``, or None if it is not journaled."""
        row = self._db.execute(
            "SELECT seq FROM actions WHERE table_key=? AND action_id=?", (key, action_id)
        ).fetchone()
        return None if row is None else int(row[0])

    def entries(self, key: str | None = None, *, engine: str | None = None) -> Iterator[JournalEntry]:
        """Journaled actions in order, for one table, or every table (of one engine).

        Raises:
            JournalError: a damaged row (its action not a JSON object, its effects not a JSON list, JSON
                nested too deeply), named by table and number.
        """
        sql = (
            "SELECT a.table_key, a.seq, a.at, a.action, a.effects, a.action_id"
            " FROM actions a JOIN tables t ON t.key = a.table_key"
        )
        where, args = [], []
        if key is not None:
            where.append("a.table_key=?")
            args.append(key)
        if engine is not None:
            where.append("t.engine=?")
            args.append(engine)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY t.created, a.table_key, a.seq"
        for table_key, seq, at, action, effects, action_id in self._db.execute(sql, args):
            what = f" action {seq}"
            decoded_action = _load_record(action, table_key, f"{what}: its action")
            decoded_effects = _load_record(effects, table_key, f"{what}: its effects")
            if not isinstance(decoded_action, dict):
                raise table_error(table_key, f"{what}: its action cannot be read (not a JSON object)")
            if not isinstance(decoded_effects, list):
                raise table_error(table_key, f"{what}: its effects cannot be read (not a JSON list)")
            yield JournalEntry(table_key, seq, at, decoded_action, decoded_effects, action_id)

    def restore(self, key: str) -> Engine[Any]:
        """Rebuild a table's engine by replaying its actions (see :meth:`replay`)."""
        return self.replay(key)[0]

    def replay(self, key: str) -> tuple[Engine[Any], int]:
        """A table's engine rebuilt by replaying its actions, each checked against what it recorded, and
        the sequence number of the last one.

        A replayed action must produce the effects that were journaled when it was played (what the players
        were shown); effects may carry fields added since. Otherwise the rules changed in a way that changes
        this table, and the table is not guessed at: it is refused with the first action that differs.

        Raises:
            JournalError: unknown table, an action the engine now refuses, or one that replays differently; a
                damaged record (an unknown engine, JSON that is malformed, nested too deeply or of the wrong
                shape), named with the table.
        """
        row = self._db.execute("SELECT engine, config, seed FROM tables WHERE key=?", (key,)).fetchone()
        if row is None:
            raise no_table(key)
        engine_cls = engine_class(row[0], key)
        config_json = _load_record(row[1], key, ": its config")
        try:
            config = from_jsonable(engine_cls.config_type, config_json)
            engine = engine_cls(config, seed=int(row[2]))
        except _UNREADABLE as exc:
            raise _unreadable(key, ": its config or seed", exc) from exc
        action_types = {cls.__name__ for cls in engine_cls.action_types}
        last = 0
        for entry in self.entries(key):
            last = entry.seq
            what = f" action {entry.seq}"
            kind = entry.action.get("type")
            if not isinstance(kind, str) or kind not in action_types:
                raise table_error(key, f"{what}: its action has an unknown type {repr(kind)[:60]}")
            try:
                action = decode_action(engine_cls, entry.action)
            except _UNREADABLE as exc:
                raise _unreadable(key, f"{what}: its action", exc) from exc
            try:
                effects = engine.apply(action)
            except ValueError as exc:
                hint = self._played_with(key)
                error = table_error(key, f"{what} no longer applies: {exc}{hint}")
                # Players hear the refusal's code only: its details may name cards hidden from some of them.
                said = getattr(exc, "code", None) or exc
                error.public = f"{what} no longer applies: {said}{hint}".lstrip(": ")
                raise error from exc
            except _UNREADABLE as exc:  # a decoded action of the wrong shape (a text where a number was)
                LOGGER.warning("table %r%s: the engine fails on its action", key, what, exc_info=True)
                raise _unreadable(key, f"{what}: its action", exc) from exc
            replayed = json.loads(json.dumps(to_jsonable(effects)))  # as stored: tuples as lists, text keys
            if not recorded_in(entry.effects, replayed):  # as deep as the replayed effects at most
                raise table_error(
                    key,
                    f"{what} ({kind}) replays differently"
                    " from what was recorded (these rules differ from the ones it was played with)"
                    + self._played_with(key),
                )
        return engine, last

    def _played_with(self, key: str) -> str:
        """For a table that no longer replays: which version of this program played it, if another one."""
        version = self.table_meta(key).get(PLAYED_WITH)
        if not isinstance(version, str) or version == __version__:
            return ""
        return (
            f"; it was played with cockatrice-ext {version[:40]} (this is {__version__}):"
            " finish it with that version (see CHANGELOG.md for what changed)"
        )

    def played_here(self, key: str) -> None:
        """A table this version has replayed and goes on playing: its later actions are this version's."""
        meta = self.table_meta(key)
        if meta.get(PLAYED_WITH) != __version__:
            self.set_table_meta(key, {**meta, PLAYED_WITH: __version__})

    # -- leases -------------------------------------------------------------
    def acquire(self, key: str, owner: str, ttl: float) -> Lease | None:
        """Give ``key`` to ``owner`` for ``ttl`` seconds if it is free, expired or already theirs.

        One atomic statement: of processes racing for a key, at most one gets it.
        """
        with self._writing(grows=False):
            row = self._db.execute(
                "INSERT INTO leases(key, owner, expires) VALUES (?, ?, {NOW} + ?)"
                " ON CONFLICT (key) DO UPDATE SET owner=excluded.owner, expires=excluded.expires"
                " WHERE leases.expires < {NOW} OR leases.owner = excluded.owner"
                " RETURNING key, owner, expires",
                (key, owner, float(ttl)),
            ).fetchall()
        return Lease(*row[0]) if row else None

    def renew(self, key: str, owner: str, ttl: float) -> Lease | None:
        """Extend ``owner``'s unexpired lease on ``key`` to ``ttl`` seconds from now; None: it is lost."""
        with self._writing(grows=False):
            row = self._db.execute(
                "UPDATE leases SET expires={NOW} + ? WHERE key=? AND owner=? AND expires >= {NOW}"
                " RETURNING key, owner, expires",
                (float(ttl), key, owner),
            ).fetchall()
        return Lease(*row[0]) if row else None

    def release(self, key: str, owner: str) -> bool:
        """Give ``key`` up at once; False when ``owner`` did not hold it."""
        with self._writing(grows=False):
            return self._db.execute("DELETE FROM leases WHERE key=? AND owner=?", (key, owner)).rowcount > 0

    def lease(self, key: str) -> Lease | None:
        """Who holds ``key`` now (None: nobody, or the lease expired)."""
        row = self._db.execute(
            "SELECT key, owner, expires FROM leases WHERE key=? AND expires >= {NOW}", (key,)
        ).fetchone()
        return None if row is None else Lease(*row)

    def leases(self, prefix: str = "") -> list[Lease]:
        """Unexpired leases whose key starts with ``prefix``, by key: who holds what in a fleet."""
        return [
            Lease(*row)
            for row in self._db.execute(
                "SELECT key, owner, expires FROM leases WHERE expires >= {NOW}"
                " AND substr(key, 1, CAST(? AS INTEGER)) = ? ORDER BY key",
                (len(prefix), prefix),
            )
        ]

    # -- notes: small records outside any table --------------------------------------------------------

    def put_note(self, key: str, value: dict[str, Any]) -> None:
        """Keep ``value`` (JSON) under ``key``, replacing what was there: state that is no game or league
        yet but must survive a restart (who waits in a lobby)."""
        if key == WRITERS_NOTE:
            raise ValueError(f"the note {key!r} is the journal's own")
        with self._writing():
            self._db.execute(
                "INSERT INTO notes(key, value, updated) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value=excluded.value, updated=excluded.updated",
                (key, json.dumps(value, sort_keys=True), time.time()),
            )

    def notes(self, prefix: str = "") -> dict[str, dict[str, Any]]:
        """Every note whose key starts with ``prefix``, by key (the journal's own :data:`WRITERS_NOTE`
        excepted)."""
        return {
            row[0]: json.loads(row[1])
            for row in self._db.execute(
                "SELECT key, value FROM notes WHERE substr(key, 1, CAST(? AS INTEGER)) = ? AND key <> ?"
                " ORDER BY key",
                (len(prefix), prefix, WRITERS_NOTE),
            )
        }

    def holds_records(self) -> bool:
        """Whether anything was ever recorded here: a table (a game, a league) or a note (a lobby, messages
        kept for offline users, web links). The journal's own bookkeeping (its versions, leases) is none: a
        journal created by a bot that never got to referee anything holds no record."""
        if self._db.execute("SELECT 1 FROM tables LIMIT 1").fetchone() is not None:
            return True
        return (
            self._db.execute("SELECT 1 FROM notes WHERE key <> ? LIMIT 1", (WRITERS_NOTE,)).fetchone()
            is not None
        )

    def drop_note(self, key: str) -> None:
        """Forget the note under ``key`` (nothing happens when there is none)."""
        with self._writing(grows=False):
            self._db.execute("DELETE FROM notes WHERE key=?", (key,))

    def expired_tables(self) -> list[str]:
        """Open tables nobody holds (lease expired, released or never taken), oldest first: to take over."""
        return [
            row[0]
            for row in self._db.execute(
                "SELECT t.key FROM tables t LEFT JOIN leases l ON l.key = t.key"
                " WHERE t.closed = 0 AND (l.key IS NULL OR l.expires < {NOW}) ORDER BY t.created, t.key"
            )
        ]


class Table:
    """An engine bound to its journal: every accepted action is recorded before it counts."""

    def __init__(self, key: str, engine: Engine[Any], journal: Journal, seq: int = 0) -> None:
        self.key = key
        self.engine = engine
        self.journal = journal
        self.seq = seq
        """The sequence number of the last action the engine holds: the next is journaled as ``seq + 1``, so
        a process that missed another's write is refused instead of recording effects of a stale state."""
        self.out_of_step = ""
        """Why the engine holds an action the journal does not (set when an action failed to be journaled
        and the engine could not be read back either): the next action reads it back first."""

    @classmethod
    def create(
        cls, journal: Journal, key: str, engine: Engine[Any], *, meta: dict[str, Any] | None = None
    ) -> Table:
        journal.create_table(key, engine, meta=meta)
        return cls(key, engine, journal)

    @classmethod
    def restore(cls, journal: Journal, key: str) -> Table:
        """The table rebuilt from the journal, to go on playing (see :meth:`Journal.replay`)."""
        engine, seq = journal.replay(key)
        journal.played_here(key)
        return cls(key, engine, journal, seq)

    def apply(self, action: Action, *, action_id: str | None = None) -> list[Effect]:
        """Apply ``action`` to the engine and journal it; refused actions leave no trace.

        ``action_id`` names the action so that a retry is refused instead of applied twice.

        Raises:
            RulesError: from the engine; nothing changed and nothing was journaled.
            DuplicateAction: ``action_id`` is already journaled; nothing changed.
            JournalWriteError: the journal cannot be written (a full disk, a read-only file, a database
                gone): nothing changed, the engine is reloaded from the journal.
            JournalError: the journal refused the action; the engine is reloaded from the journal.
        """
        if self.out_of_step:
            self._back_in_step()
            if self.out_of_step:
                raise table_error(self.key, f" cannot be read back from the journal: {self.out_of_step}")
        # A refused action must leave no trace, and the random generator is part of the state: an
        # engine that drew a random number before refusing would otherwise diverge from its replay.
        # A retried id is found by the journal's unique index when it is appended (no look-up before
        # every action: retries are rare, acknowledgements are not); the engine is then reloaded.
        rng = self.engine.rng
        rng.checkpoint()
        try:
            effects = self.engine.apply(action)
        except BaseException as exc:
            rng.rollback()
            if (
                isinstance(exc, Exception)
                and action_id is not None
                and (seq := self.journal.action_seq(self.key, action_id)) is not None
            ):
                raise DuplicateAction(self.key, action_id, seq) from None
            raise
        rng.release()
        try:
            self.seq = self.journal.append(self.key, action, effects, action_id=action_id, seq=self.seq + 1)
        except BaseException:  # applied here, not journaled (whatever failed): back to what the journal holds
            self._back_in_step()
            raise
        return effects

    def _back_in_step(self) -> None:
        """Rebuild the engine from the journal after an action that was applied but not journaled, so that
        nothing the players are told comes from it; when even reading fails, :attr:`out_of_step` says why."""
        try:
            self.engine, self.seq = self.journal.replay(self.key)
        except Exception as exc:
            self.out_of_step = " ".join(str(exc).split())[:200] or type(exc).__name__
            LOGGER.error("table %r: cannot be read back from the journal: %s", self.key, self.out_of_step)
        else:
            self.out_of_step = ""
