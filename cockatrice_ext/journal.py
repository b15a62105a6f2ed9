"""One SQLite journal for every format: tables (games or leagues) and their accepted actions.

Theory of operation
-------------------
A *table* is one running engine: a game refereed in Cockatrice, or a league spanning many
games. Its row holds the engine name, its JSON config and its seed. Every accepted action
is appended, with the effects it produced, inside one transaction, before the bot acts on
those effects. Restoring a table replays its actions on a fresh engine; because engines are
deterministic, the result equals the state before the restart (gold, block order, the
auction in progress...).

Effects are stored too, so reports such as ``stats prices`` are plain queries over what
happened, with no replay.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cockatrice_ext.formats.base import (
    Action,
    Effect,
    Engine,
    decode_action,
    encode_action,
    find_engine,
    from_jsonable,
    to_jsonable,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    key TEXT PRIMARY KEY,
    engine TEXT NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    closed INTEGER NOT NULL DEFAULT 0,
    closed_reason TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS actions (
    table_key TEXT NOT NULL REFERENCES tables(key),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    action TEXT NOT NULL,
    effects TEXT NOT NULL,
    PRIMARY KEY (table_key, seq)
);
"""


class JournalError(RuntimeError):
    """The journal is missing a table or holds something that cannot be replayed."""


@dataclass(frozen=True)
class JournalEntry:
    table_key: str
    seq: int
    at: float
    action: dict[str, Any]
    effects: list[dict[str, Any]]


class Journal:
    """An SQLite file of tables and their actions. ``":memory:"`` works for tests."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        self._migrate()
        self._last_seq: dict[str, int] = {}  # one writer per journal (the bot): no MAX(seq) per write

    def close(self) -> None:
        self._db.close()

    def _migrate(self) -> None:
        """Bring a journal written by an older version up to this schema (columns only ever added)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "closed_reason" not in columns:
            self._db.execute("ALTER TABLE tables ADD COLUMN closed_reason TEXT NOT NULL DEFAULT ''")

    # -- tables -------------------------------------------------------------
    def create_table(self, key: str, engine: Engine[Any], *, meta: dict[str, Any] | None = None) -> None:
        """Record a new table for ``engine`` (freshly constructed, no actions applied yet)."""
        self._db.execute(
            "INSERT INTO tables(key, engine, config, seed, created, meta) VALUES (?,?,?,?,?,?)",
            (
                key,
                engine.name,
                json.dumps(to_jsonable(engine.config), sort_keys=True),
                engine.seed,
                time.time(),
                json.dumps(meta or {}, sort_keys=True),
            ),
        )

    def has_table(self, key: str) -> bool:
        return self._db.execute("SELECT 1 FROM tables WHERE key=?", (key,)).fetchone() is not None

    def table_meta(self, key: str) -> dict[str, Any]:
        row = self._db.execute("SELECT meta FROM tables WHERE key=?", (key,)).fetchone()
        if row is None:
            raise JournalError(f"no table {key!r}")
        meta: dict[str, Any] = json.loads(row[0])
        return meta

    def set_table_meta(self, key: str, meta: dict[str, Any]) -> None:
        self._db.execute("UPDATE tables SET meta=? WHERE key=?", (json.dumps(meta, sort_keys=True), key))

    def close_table(self, key: str, reason: str = "") -> None:
        """Mark a table finished (``reason``: "game over", "abandoned", "replaced by game 12"...)."""
        self._db.execute("UPDATE tables SET closed=1, closed_reason=? WHERE key=?", (reason, key))

    def closed_reason(self, key: str) -> str | None:
        """Why a table was closed ("" when no reason was given), or None while it is open."""
        row = self._db.execute("SELECT closed, closed_reason FROM tables WHERE key=?", (key,)).fetchone()
        if row is None:
            raise JournalError(f"no table {key!r}")
        return str(row[1]) if row[0] else None

    def copy_table(self, key: str, new_key: str, *, meta: dict[str, Any]) -> None:
        """A new open table with ``key``'s engine, seed and every action (a game rebuilt elsewhere)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO tables(key, engine, config, seed, created, meta)"
                " SELECT ?, engine, config, seed, ?, ? FROM tables WHERE key=?",
                (new_key, time.time(), json.dumps(meta, sort_keys=True), key),
            )
            self._db.execute(
                "INSERT INTO actions(table_key, seq, at, action, effects)"
                " SELECT ?, seq, at, action, effects FROM actions WHERE table_key=?",
                (new_key, key),
            )
        self._last_seq.pop(new_key, None)

    def open_tables(self, engine: str | None = None) -> list[str]:
        """Keys of tables not yet closed, oldest first."""
        sql = "SELECT key FROM tables WHERE closed=0"
        args: tuple[Any, ...] = ()
        if engine is not None:
            sql += " AND engine=?"
            args = (engine,)
        return [r[0] for r in self._db.execute(sql + " ORDER BY created, key", args)]

    # -- actions ------------------------------------------------------------
    def append(self, key: str, action: Action, effects: list[Effect]) -> int:
        """Append one accepted action and its effects; return its sequence number."""
        with self._transaction():
            last = self._last_seq.get(key)
            if last is None:
                row = self._db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_key=?", (key,)
                ).fetchone()
                last = int(row[0])
            seq = last + 1
            self._db.execute(
                "INSERT INTO actions(table_key, seq, at, action, effects) VALUES (?,?,?,?,?)",
                (
                    key,
                    seq,
                    time.time(),
                    json.dumps(encode_action(action), sort_keys=True),
                    json.dumps(to_jsonable(effects), sort_keys=True),
                ),
            )
        self._last_seq[key] = seq  # only after the commit: a failed write leaves no gap
        return seq

    def entries(self, key: str | None = None, *, engine: str | None = None) -> Iterator[JournalEntry]:
        """Journaled actions in order, for one table, or every table (of one engine)."""
        sql = (
            "SELECT a.table_key, a.seq, a.at, a.action, a.effects"
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
        for table_key, seq, at, action, effects in self._db.execute(sql, args):
            yield JournalEntry(table_key, seq, at, json.loads(action), json.loads(effects))

    def restore(self, key: str) -> Engine[Any]:
        """Rebuild a table's engine by replaying its actions.

        Raises:
            JournalError: unknown table, or an action the engine now refuses.
        """
        row = self._db.execute("SELECT engine, config, seed FROM tables WHERE key=?", (key,)).fetchone()
        if row is None:
            raise JournalError(f"no table {key!r}")
        engine_cls = find_engine(row[0])
        config = from_jsonable(engine_cls.config_type, json.loads(row[1]))
        engine = engine_cls(config, seed=int(row[2]))
        for entry in self.entries(key):
            action = decode_action(engine_cls, entry.action)
            try:
                engine.apply(action)
            except ValueError as exc:
                raise JournalError(f"table {key!r} action {entry.seq} no longer applies: {exc}") from exc
        return engine

    def _transaction(self) -> _Tx:
        return _Tx(self._db)


class _Tx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *_: object) -> None:
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")


class Table:
    """An engine bound to its journal: every accepted action is recorded before it counts."""

    def __init__(self, key: str, engine: Engine[Any], journal: Journal) -> None:
        self.key = key
        self.engine = engine
        self.journal = journal

    @classmethod
    def create(
        cls, journal: Journal, key: str, engine: Engine[Any], *, meta: dict[str, Any] | None = None
    ) -> Table:
        journal.create_table(key, engine, meta=meta)
        return cls(key, engine, journal)

    @classmethod
    def restore(cls, journal: Journal, key: str) -> Table:
        return cls(key, journal.restore(key), journal)

    def apply(self, action: Action) -> list[Effect]:
        """Apply ``action`` to the engine and journal it; refused actions leave no trace.

        Raises:
            RulesError: from the engine; nothing changed and nothing was journaled.
        """
        # A refused action must leave no trace, and the random generator is part of the state: an
        # engine that drew a random number before refusing would otherwise diverge from its replay.
        rng_state = self.engine.rng.getstate()
        try:
            effects = self.engine.apply(action)
        except Exception:
            self.engine.rng.setstate(rng_state)
            raise
        self.journal.append(self.key, action, effects)
        return effects
