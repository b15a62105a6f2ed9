"""A journal that cannot be written (a full disk, a read-only database) changes nothing.

Seen in the field (the journal on a full disk, mid-lot): ``!bid 2``, ``!bid 3`` and ``!pass`` were each
answered "nothing changed" while the engine had applied all three; the sale was missing from the journal,
later actions were journaled after the gap, and the record no longer replayed. Every case runs on SQLite
(its database capped with ``PRAGMA max_page_count``: SQLite's own "database or disk is full") and on a real
PostgreSQL (its session made read-only, as a standby after a failover is).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import test_journal
from journal_toys import Add, CounterConfig, CounterEngine, Roll
from postgres_server import postgres_fixture, postgres_url_fixture  # noqa: F401  (fixtures)

from cockatrice_ext.journal import Journal, JournalError, Table

spec = test_journal.spec  # an SQLite file, or a fresh PostgreSQL database
journal = test_journal.journal


@contextmanager
def writes_failing(journal: Journal) -> Iterator[str]:
    """Writes of ``journal`` fail from now on (SQLite: once its pages are full); yields the reason said."""
    database = journal._db
    if journal.path.startswith("postgres"):
        database.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        reason = "it is read-only"
    else:
        pages = database.execute("PRAGMA page_count").fetchone()[0]
        database.execute(f"PRAGMA max_page_count={pages}")
        reason = "its disk is full"
    try:
        yield reason
    finally:
        if journal.path.startswith("postgres"):
            database.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE")
        else:
            database.execute("PRAGMA max_page_count=1073741823")


def test_an_action_the_journal_cannot_write_leaves_the_engine_as_it_was(
    journal: Journal, spec: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The engine, its random generator and its sequence number are as before the refused action; the
    operator's log says it once; later actions replay."""
    table = Table.create(
        journal, "tcp://127.0.0.1:1:game:1", CounterEngine(CounterConfig(limit=10**6), seed=7)
    )
    table.apply(Roll(player=1))
    table.apply(Add(player=2, amount=2))
    journal.acquire("bot:journal", "me", 60)
    failed: Exception | None = None
    with writes_failing(journal) as reason:
        for _ in range(5000):  # SQLite: until its last page is full (a few dozen actions)
            before = (table.engine.snapshot(), table.seq, table.engine.rng.getstate())
            try:
                table.apply(Roll(player=1))
                table.apply(Add(player=2, amount=1))
            except Exception as exc:  # what the bot's command handler would see
                failed = exc
                break
        assert failed is not None, "the journal never refused a write"
        assert isinstance(failed, JournalError), repr(failed)
        assert f"the journal {spec} cannot be written: {reason} (" in str(failed)
        assert getattr(failed, "public", "") == f"the referee cannot record moves right now ({reason})"
        assert (table.engine.snapshot(), table.seq, table.engine.rng.getstate()) == before
        with contextlib.suppress(JournalError):  # an update in place: SQLite takes it on a full disk
            journal.renew("bot:journal", "me", 60)
        with pytest.raises(JournalError, match="cannot be written"):  # still failing: still nothing changes
            table.apply(Add(player=2, amount=1))
        assert (table.engine.snapshot(), table.seq, table.engine.rng.getstate()) == before
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len([m for m in said if "cannot be written" in m]) == 1, said  # once, not at every move
    assert not [m for m in said if "can be written again" in m], said
    table.apply(Roll(player=1))  # space again: play goes on from the state the players were told
    table.apply(Add(player=2, amount=5))
    total = table.engine.snapshot()
    assert any("can be written again" in r.getMessage() for r in caplog.records)
    seqs = [entry.seq for entry in journal.entries(table.key)]
    assert seqs == list(range(1, len(seqs) + 1)) and seqs[-1] == table.seq
    again = Journal(spec)
    try:
        assert again.restore(table.key).snapshot() == total  # replays, each action as recorded
    finally:
        again.close()


def test_a_table_the_journal_cannot_create_is_refused_in_one_error(journal: Journal) -> None:
    with writes_failing(journal) as reason:
        for number in range(5000):
            try:
                journal.create_table(f"s:game:{number}", CounterEngine(CounterConfig(), seed=number))
            except Exception as exc:
                assert isinstance(exc, JournalError), repr(exc)
                assert f"cannot be written: {reason}" in str(exc)
                break
        else:
            pytest.fail("the journal never refused a write")
    assert not journal.has_table(f"s:game:{number}")


def test_a_journal_opened_for_reading_reads_and_refuses_every_write(journal: Journal, spec: str) -> None:
    """Reports open the journal for reading only (it may be on read-only media, next to a running bot)."""
    table = Table.create(journal, "s:game:1", CounterEngine(CounterConfig(), seed=1))
    table.apply(Add(player=1, amount=3))
    reader = Journal(spec, read_only=True)
    try:
        assert reader.restore("s:game:1").snapshot() == {"total": 3}
        assert reader.open_tables() == ["s:game:1"]
        with pytest.raises(JournalError, match="opened for reading only"):
            Table.restore(reader, "s:game:1").apply(Add(player=1, amount=1))
        with pytest.raises(JournalError, match="opened for reading only"):
            reader.put_note("n", {})
        with pytest.raises(Exception, match=r"read-?only"):  # the database itself refuses too
            reader._db.execute("DELETE FROM actions")
    finally:
        reader.close()
    assert [entry.seq for entry in journal.entries("s:game:1")] == [1]


def test_a_table_that_cannot_be_read_back_either_refuses_until_it_can(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write failed and so did reading the table back (the database gone meanwhile): the table refuses
    every action, without applying it, until it is read back; then it is the journal's state again."""
    table = Table.create(journal, "s:game:2", CounterEngine(CounterConfig(), seed=1))
    table.apply(Add(player=1, amount=3))
    replay = journal.replay

    def gone(key: str) -> Any:
        raise JournalError("the database is gone")

    monkeypatch.setattr(journal, "replay", gone)
    with writes_failing(journal):
        with pytest.raises(JournalError):
            for _ in range(5000):
                table.apply(Add(player=1, amount=0))
        with pytest.raises(JournalError, match="cannot be read back from the journal: the database is gone"):
            table.apply(Add(player=1, amount=0))
    monkeypatch.setattr(journal, "replay", replay)
    table.apply(Add(player=1, amount=1))
    again = journal.restore("s:game:2")
    assert again.snapshot() == table.engine.snapshot() == {"total": 4}
