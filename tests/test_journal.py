"""The journal records accepted actions only, and replays them into an identical engine.

Every behaviour here is checked on both backends: an SQLite file and a real PostgreSQL (started by
``tests/postgres_server.py``; those cases skip with the reason when PostgreSQL is absent).
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import random
import sqlite3
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from journal_toys import Add, Added, CounterConfig, CounterEngine, Roll
from postgres_server import postgres_fixture, postgres_url_fixture  # noqa: F401  (fixtures)

from cockatrice_ext import __version__
from cockatrice_ext.formats.base import (
    ENGINES,
    Action,
    RulesError,
    decode_action,
    encode_action,
)
from cockatrice_ext.journal import (
    MIGRATIONS,
    PLAYED_WITH,
    SCHEMA_VERSION,
    DuplicateAction,
    Journal,
    JournalError,
    Table,
    open_database,
)

SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter: forking a threaded test run may deadlock


@pytest.fixture(params=["sqlite", "postgresql"])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a journal lives: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "journal.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def journal(spec: str) -> Iterator[Journal]:
    opened = Journal(spec)
    yield opened
    opened.close()


def test_refused_actions_leave_no_trace(journal: Journal) -> None:
    table = Table.create(journal, "t1", CounterEngine(CounterConfig(limit=3), seed=1))
    table.apply(Add(player=1, amount=2))
    with pytest.raises(RulesError) as info:
        table.apply(Add(player=2, amount=5))
    assert info.value.code == "over_limit"
    assert [e.seq for e in journal.entries("t1")] == [1]
    assert journal.restore("t1").snapshot() == {"total": 2}


def test_effects_are_stored_for_reports(journal: Journal) -> None:
    table = Table.create(journal, "t1", CounterEngine(CounterConfig(), seed=1), meta={"room": 1})
    table.apply(Add(player="alice", amount=4))
    (entry,) = journal.entries(engine="test-counter")
    assert entry.effects == [{"type": "Added", "player": "alice", "total": 4}]
    assert journal.table_meta("t1") == {"room": 1, PLAYED_WITH: __version__}


def test_restore_survives_reopening(spec: str) -> None:
    journal = Journal(spec)
    table = Table.create(journal, "g", CounterEngine(CounterConfig(limit=50), seed=2**47 + 7))
    for _ in range(10):
        table.apply(Roll(player=None))
    journal.close()
    again = Journal(spec)
    assert again.open_tables() == ["g"]
    assert again.restore("g").snapshot() == table.engine.snapshot()
    again.close_table("g", "game over")
    assert again.open_tables() == []
    assert again.closed_reason("g") == "game over"
    again.close()


def test_journal_still_takes_a_path(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    Table.create(journal, "t", CounterEngine(CounterConfig(), seed=1)).apply(Add(player=1))
    journal.close()
    assert (tmp_path / "j.sqlite3").is_file()
    assert Journal(":memory:").open_tables() == []


def rows_in_database_file(path: Path) -> int:
    """Actions the database file itself holds (``immutable``: SQLite reads the file, not the log)."""
    reader = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)
    try:
        return int(reader.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    except sqlite3.DatabaseError:  # caught mid-copy: ask again
        return -1
    finally:
        reader.close()


def test_the_log_is_copied_into_the_database_file_off_the_write_path(tmp_path: Path) -> None:
    """A few actions stay far below the 1,000 log pages at which SQLite would checkpoint inside a commit;
    the background checkpointer copies them into the database file anyway, within about a second."""
    path = tmp_path / "journal.sqlite3"
    before = set(threading.enumerate())  # other tests' journals may still be checkpointing: not ours

    def checkpointers() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name == "journal-checkpoint" and t not in before]

    journal = Journal(path)
    table = Table.create(journal, "t", CounterEngine(CounterConfig(limit=10**6), seed=1))
    for amount in range(1, 21):
        table.apply(Add(player=1, amount=amount))
    deadline = time.monotonic() + 10
    while rows_in_database_file(path) != 20 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert rows_in_database_file(path) == 20
    assert len(checkpointers()) == 1
    journal.close()
    assert checkpointers() == []
    assert not Path(f"{path}-wal").exists()  # the last connection closed: everything is in the file


def test_a_journal_dropped_unclosed_ends_its_checkpointer(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    journal = Journal(tmp_path / "journal.sqlite3")
    Table.create(journal, "t", CounterEngine(CounterConfig(), seed=1)).apply(Add(player=1))
    (thread,) = [t for t in threading.enumerate() if t.name == "journal-checkpoint" and t not in before]
    del journal
    gc.collect()
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_reading_a_journal_starts_no_checkpointer(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    before = [thread.name for thread in threading.enumerate()].count("journal-checkpoint")
    reader = Journal(path)
    assert reader.open_tables() == []
    assert [thread.name for thread in threading.enumerate()].count("journal-checkpoint") == before
    reader.close()
    memory = Journal(":memory:")
    Table.create(memory, "t", CounterEngine(CounterConfig(), seed=1)).apply(Add(player=1))
    assert [thread.name for thread in threading.enumerate()].count("journal-checkpoint") == before
    memory.close()


def test_unknown_table_is_a_clear_error(journal: Journal) -> None:
    with pytest.raises(JournalError, match="no table"):
        journal.restore("nope")
    with pytest.raises(JournalError, match="no table 'nope'"):
        journal.append("nope", Add(player=1), [])
    assert list(journal.entries("nope")) == []


def test_config_round_trips_tuples(journal: Journal) -> None:
    Table.create(journal, "t", CounterEngine(CounterConfig(names=("x", "y", "z")), seed=3))
    assert journal.restore("t").config == CounterConfig(names=("x", "y", "z"))


def test_copy_table_carries_actions_and_their_ids(journal: Journal) -> None:
    table = Table.create(journal, "old", CounterEngine(CounterConfig(), seed=4))
    table.apply(Add(player=1, amount=3), action_id="bid-1")
    journal.copy_table("old", "new", meta={"from": "old"})
    new = Table.restore(journal, "new")
    assert new.engine.snapshot() == {"total": 3}
    with pytest.raises(DuplicateAction):
        new.apply(Add(player=1, amount=3), action_id="bid-1")
    assert new.apply(Add(player=1, amount=1)) == [Added(1, 4)]
    assert [e.seq for e in journal.entries("new")] == [1, 2]
    assert journal.table_meta("new") == {"from": "old", PLAYED_WITH: __version__}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**48),
    moves=st.lists(st.one_of(st.integers(0, 4), st.none()), max_size=30),
)
def test_replay_equals_live_state(journal: Journal, seed: int, moves: list[int | None]) -> None:
    """Includes refused random actions: the toy engine draws before it refuses, and Table undoes that."""
    key = uuid.uuid4().hex
    table = Table.create(journal, key, CounterEngine(CounterConfig(limit=20), seed=seed))
    for move in moves:
        action: Action = Roll(player=None) if move is None else Add(player=1, amount=move)
        with contextlib.suppress(RulesError):
            table.apply(action)
    assert journal.restore(key).snapshot() == table.engine.snapshot()


def test_action_codec_round_trip() -> None:
    action = Add(player="bob", amount=3)
    assert decode_action(CounterEngine, encode_action(action)) == action
    assert "test-counter" in ENGINES


# -- idempotent actions ----------------------------------------------------------------------------


def test_every_action_gets_an_id(journal: Journal) -> None:
    table = Table.create(journal, "t", CounterEngine(CounterConfig(), seed=1))
    table.apply(Add(player=1))
    table.apply(Add(player=1), action_id="mine")
    first, second = journal.entries("t")
    assert first.action_id and len(first.action_id) == 32
    assert second.action_id == "mine"
    assert journal.action_seq("t", "mine") == 2
    assert journal.action_seq("t", "unknown") is None


def test_the_database_refuses_a_duplicate_id(journal: Journal) -> None:
    """The journal itself, not only Table's check: the unique constraint refuses the second append."""
    Table.create(journal, "t", CounterEngine(CounterConfig(), seed=1))
    assert journal.append("t", Add(player=1, amount=2), [Added(1, 2)], action_id="x") == 1
    with pytest.raises(DuplicateAction) as info:
        journal.append("t", Add(player=1, amount=2), [Added(1, 4)], action_id="x")
    assert (info.value.seq, info.value.action_id) == (1, "x")
    assert journal.append("t", Add(player=1, amount=1), [Added(1, 3)], action_id="y") == 2
    assert [e.action_id for e in journal.entries("t")] == ["x", "y"]


def test_a_retry_the_rules_would_now_refuse_is_still_reported_as_a_retry(journal: Journal) -> None:
    """The id is checked when the engine refuses too: a retried command is "already applied", not a rules
    refusal (the first attempt used up what the retry asks for)."""
    table = Table.create(journal, "t", CounterEngine(CounterConfig(limit=3), seed=1))
    table.apply(Add(player=1, amount=3), action_id="once")
    with pytest.raises(DuplicateAction, match="once"):
        table.apply(Add(player=1, amount=3), action_id="once")
    with pytest.raises(RulesError):
        table.apply(Add(player=1, amount=3), action_id="fresh")
    assert table.engine.snapshot() == {"total": 3}
    assert [e.action_id for e in journal.entries("t")] == ["once"]


def _apply_then_crash(spec: str, action_id: str) -> None:
    """A bot process that journals one action and dies before it can answer anyone."""
    journal = Journal(spec)
    Table.restore(journal, "t").apply(Add(player=1, amount=2), action_id=action_id)
    os._exit(0)


def test_a_retry_after_a_crash_is_not_applied_twice(spec: str) -> None:
    journal = Journal(spec)
    Table.create(journal, "t", CounterEngine(CounterConfig(), seed=1))
    crashed = SPAWN.Process(target=_apply_then_crash, args=(spec, "bid-7"))
    crashed.start()
    crashed.join(30)
    assert crashed.exitcode == 0
    survivor = Table.restore(Journal(spec), "t")
    assert survivor.engine.snapshot() == {"total": 2}
    with pytest.raises(DuplicateAction, match="bid-7"):
        survivor.apply(Add(player=1, amount=2), action_id="bid-7")
    assert survivor.engine.snapshot() == {"total": 2}
    assert [e.seq for e in journal.entries("t")] == [1]
    journal.close()


def test_a_second_writer_is_refused_and_the_loser_reloads(spec: str) -> None:
    """Two processes writing one table (a lease lost unnoticed): the stale one cannot write, not even its
    first action (it would record effects of a state that is not the table's), and reloads."""
    first, second = Journal(spec), Journal(spec)
    Table.create(first, "t", CounterEngine(CounterConfig(limit=50), seed=1))
    mine, theirs = Table.restore(first, "t"), Table.restore(second, "t")
    theirs.apply(Add(player=2, amount=1))
    with pytest.raises(JournalError, match="another process"):
        mine.apply(Add(player=1, amount=10))
    assert mine.engine.snapshot() == {"total": 1} == first.restore("t").snapshot()
    assert mine.apply(Add(player=1, amount=10)) == [Added(1, 11)]
    with pytest.raises(JournalError, match="another process"):
        theirs.apply(Add(player=2, amount=5))
    assert theirs.engine.snapshot() == {"total": 11} == first.restore("t").snapshot()
    assert theirs.apply(Add(player=2, amount=5)) == [Added(2, 16)]
    assert [entry.effects for entry in first.entries("t")] == [
        [{"type": "Added", "player": 2, "total": 1}],
        [{"type": "Added", "player": 1, "total": 11}],
        [{"type": "Added", "player": 2, "total": 16}],
    ]
    first.close()
    second.close()


def test_a_table_that_replays_differently_from_its_record_is_refused(spec: str) -> None:
    """Rules that changed what an action does: the table is not guessed at; the first action that differs
    is named. A record older than a field the effects carry now still replays."""
    journal = Journal(spec)
    table = Table.create(journal, "t", CounterEngine(CounterConfig(limit=50), seed=1))
    table.apply(Add(player=1, amount=2))
    table.apply(Add(player=2, amount=3))
    database = open_database(spec)
    database.execute(  # written when Added had no total: still what the players were shown
        "UPDATE actions SET effects=? WHERE table_key='t' AND seq=1", ('[{"type": "Added", "player": 1}]',)
    )
    assert journal.restore("t").snapshot() == {"total": 5}
    database.execute(  # the rules then gave another total
        "UPDATE actions SET effects=? WHERE table_key='t' AND seq=2",
        ('[{"type": "Added", "player": 2, "total": 6}]',),
    )
    database.close()
    with pytest.raises(JournalError, match=r"action 2 \(Add\) replays differently"):
        journal.restore("t")
    with pytest.raises(JournalError, match="replays differently") as refused:
        Table.restore(journal, "t")
    assert "cockatrice-ext" not in str(refused.value)  # this very version played it: nothing to advise
    journal.set_table_meta("t", {PLAYED_WITH: "0.0.9"})  # played with an earlier release
    with pytest.raises(
        JournalError, match=r"played with cockatrice-ext 0\.0\.9 \(this is .*finish it with that version"
    ):
        Table.restore(journal, "t")
    journal.close()


def test_a_table_replayed_by_another_version_is_played_with_it_from_then_on(spec: str) -> None:
    """Upgraded between two actions, and the record replays: the table is this version's from now on (its
    later actions are recorded by it), and a version that later fails to replay it names this one."""
    journal = Journal(spec)
    table = Table.create(journal, "t", CounterEngine(CounterConfig(limit=50), seed=1))
    table.apply(Add(player=1, amount=2))
    journal.set_table_meta("t", {"room": 4, PLAYED_WITH: "0.0.9"})
    assert journal.restore("t").snapshot() == {"total": 2}  # a read: nothing recorded
    assert journal.table_meta("t")[PLAYED_WITH] == "0.0.9"
    Table.restore(journal, "t")
    assert journal.table_meta("t") == {"room": 4, PLAYED_WITH: __version__}
    journal.close()


# -- leases ----------------------------------------------------------------------------------------


def test_lease_lifecycle(journal: Journal) -> None:
    for key in ("g1", "g2", "g3"):
        Table.create(journal, key, CounterEngine(CounterConfig(), seed=1))
    journal.close_table("g3")
    assert journal.expired_tables() == ["g1", "g2"]
    held = journal.acquire("g1", "proc-a", 30)
    assert held is not None and held.owner == "proc-a" and held.expires > time.time() + 25
    assert journal.acquire("g1", "proc-b", 30) is None
    assert journal.lease("g1") == held
    assert journal.expired_tables() == ["g2"]
    assert journal.renew("g1", "proc-b", 30) is None
    renewed = journal.renew("g1", "proc-a", 60)
    assert renewed is not None and renewed.expires > held.expires
    again = journal.acquire("g1", "proc-a", 30)
    assert again is not None and again.owner == "proc-a"
    assert not journal.release("g1", "proc-b")
    assert journal.release("g1", "proc-a")
    assert journal.lease("g1") is None
    assert journal.acquire("g1", "proc-b", 30) is not None
    assert journal.acquire("room:1", "proc-b", 30) is not None  # any key, not only tables
    assert journal.expired_tables() == ["g2"]


def test_an_expired_lease_is_lost_and_can_be_taken(journal: Journal) -> None:
    Table.create(journal, "g", CounterEngine(CounterConfig(), seed=1))
    assert journal.acquire("g", "dead", 0.2) is not None
    assert journal.acquire("g", "heir", 30) is None
    time.sleep(0.4)
    assert journal.lease("g") is None
    assert journal.expired_tables() == ["g"]
    assert journal.renew("g", "dead", 30) is None, "past its expiry a lease is gone, even if nobody took it"
    taken = journal.acquire("g", "heir", 30)
    assert taken is not None and taken.owner == "heir"
    assert journal.expired_tables() == []


def _race(spec: str, owner: str, keys: list[str], seconds: float, ttl: float, out: Any) -> None:
    """Take, keep (renew a few times) and abandon keys at random; report every grant and refusal."""
    journal = Journal(spec)
    rng = random.Random(owner)
    grants: list[tuple[str, str, float, float]] = []
    refused = 0
    renewals_left: dict[str, int] = {}
    resting_until: dict[str, float] = defaultdict(float)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        key, now = rng.choice(keys), time.monotonic()
        if key in renewals_left:
            lease = journal.renew(key, owner, ttl) if renewals_left[key] else None
            if lease is None:
                del renewals_left[key]
                resting_until[key] = now + 2 * ttl  # let it expire; someone else should take it
            else:
                renewals_left[key] -= 1
        elif resting_until[key] <= now:
            lease = journal.acquire(key, owner, ttl)
            if lease is None:
                refused += 1
            else:
                renewals_left[key] = rng.randint(0, 3)
        else:
            continue
        if lease is not None:
            grants.append((key, owner, lease.expires - ttl, lease.expires))
    out.put((grants, refused))
    journal.close()


def test_racing_processes_never_share_a_lease(spec: str) -> None:
    """Four processes race for three keys: no key is ever granted to two owners at overlapping times.

    Each grant covers [database time when granted, its expiry]; renewals add intervals of the same
    owner. Intervals of different owners on one key must not overlap (beyond clock rounding).
    """
    keys, ttl, processes = ["g1", "g2", "room:1"], 0.05, 4
    Journal(spec).close()  # migrate once, before the race
    out = SPAWN.Queue()
    racers = [
        SPAWN.Process(target=_race, args=(spec, f"proc-{n}", keys, 2.5, ttl, out)) for n in range(processes)
    ]
    for racer in racers:
        racer.start()
    results = [out.get(timeout=60) for _ in racers]
    for racer in racers:
        racer.join(30)
    grants = [g for found, _ in results for g in found]
    assert sum(refused for _, refused in results) > 0, "the processes never contended"
    for key in keys:
        mine = sorted((start, end, owner) for k, owner, start, end in grants if k == key)
        assert len({owner for _, _, owner in mine}) >= 2, f"{key} never changed hands"
        holder, held_to = mine[0][2], mine[0][1]
        for start, end, owner in mine[1:]:
            if owner != holder:
                assert start >= held_to - 1e-4, f"{key}: {owner} at {start}, {holder} had it to {held_to}"
                holder, held_to = owner, end
            held_to = max(held_to, end)


# -- migrations ------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", range(SCHEMA_VERSION + 1))
def test_migrations_from_every_version(spec: str, version: int) -> None:
    """A journal left at any schema version opens, migrates to the latest and keeps its data."""
    database = open_database(spec)
    for migration in MIGRATIONS[:version]:
        for statement in migration.statements:
            database.execute(statement)
    if version:
        database.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL,"
            " applied {REAL} NOT NULL)"
        )
        for migration in MIGRATIONS[:version]:
            database.execute("INSERT INTO schema_version VALUES (?, ?, 0)", (migration.version, "test"))
        database.execute(
            "INSERT INTO tables(key, engine, config, seed, created) VALUES ('old', 'test-counter', ?, 5, 1)",
            ('{"limit": 10, "names": ["a", "b"]}',),
        )
        database.execute(
            "INSERT INTO actions(table_key, seq, at, action, effects) VALUES ('old', 1, 2, ?, ?)",
            ('{"type": "Add", "player": 1, "amount": 4}', '[{"type": "Added", "player": 1, "total": 4}]'),
        )
    database.close()
    journal = Journal(spec)
    assert journal.schema_version() == SCHEMA_VERSION
    if version:
        assert journal.restore("old").snapshot() == {"total": 4}
        assert [e.action_id for e in journal.entries("old")] == [None]
        journal.close_table("old", "migrated")
        assert journal.closed_reason("old") == "migrated"
    table = (
        Table.restore(journal, "old")
        if version
        else Table.create(journal, "old", CounterEngine(CounterConfig(), seed=5))
    )
    table.apply(Add(player=1, amount=1), action_id="after")
    assert journal.acquire("old", "me", 10) is not None
    journal.close()
    reopened = Journal(spec)
    assert reopened.schema_version() == SCHEMA_VERSION
    assert reopened.action_seq("old", "after") == (2 if version else 1)
    reopened.close()


@pytest.mark.parametrize("with_reason", [False, True])
def test_sqlite_journal_from_before_schema_version(tmp_path: Path, with_reason: bool) -> None:
    """Journals written before ``schema_version`` (with or without ``closed_reason``) migrate in place."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    reason_column = ", closed_reason TEXT NOT NULL DEFAULT ''" if with_reason else ""
    old.executescript(
        "CREATE TABLE tables (key TEXT PRIMARY KEY, engine TEXT NOT NULL, config TEXT NOT NULL,"
        " seed INTEGER NOT NULL, created REAL NOT NULL, meta TEXT NOT NULL DEFAULT '{}',"
        f" closed INTEGER NOT NULL DEFAULT 0{reason_column});"
        "CREATE TABLE actions (table_key TEXT NOT NULL REFERENCES tables(key), seq INTEGER NOT NULL,"
        " at REAL NOT NULL, action TEXT NOT NULL, effects TEXT NOT NULL, PRIMARY KEY (table_key, seq));"
        "INSERT INTO tables(key, engine, config, seed, created)"
        ' VALUES (\'g\', \'test-counter\', \'{"limit": 10, "names": ["a", "b"]}\', 9, 1);'
        'INSERT INTO actions VALUES (\'g\', 1, 2, \'{"type": "Add", "player": 1, "amount": 3}\','
        ' \'[{"type": "Added", "player": 1, "total": 3}]\');'
    )
    old.commit()
    old.close()
    journal = Journal(path)
    assert journal.schema_version() == SCHEMA_VERSION
    assert journal.closed_reason("g") is None
    assert journal.restore("g").snapshot() == {"total": 3}
    journal.close_table("g", "abandoned")
    journal.close()
    check = sqlite3.connect(path)
    notes = [row[0] for row in check.execute("SELECT description FROM schema_version ORDER BY version")]
    check.close()
    found = 2 if with_reason else 1
    assert [n.endswith("(found in place)") for n in notes] == [True] * found + [False] * (len(notes) - found)
    assert Journal(path).closed_reason("g") == "abandoned"


def test_a_newer_journal_is_refused(spec: str) -> None:
    Journal(spec).close()
    database = open_database(spec)
    database.execute("INSERT INTO schema_version VALUES (?, 'from the future', 0)", (SCHEMA_VERSION + 1,))
    database.close()
    with pytest.raises(JournalError, match=f"schema version {SCHEMA_VERSION + 1}, newer"):
        Journal(spec)


# -- notes ------------------------------------------------------------------------------------------------


def test_notes_are_kept_replaced_listed_by_prefix_and_dropped(spec: str) -> None:
    """A note outlives the process that wrote it (reopened here), a second put replaces it, a prefix
    selects (a prefix is text, not a pattern: ``_`` and ``%`` match only themselves), a drop forgets it."""
    journal = Journal(spec)
    journal.put_note("srv:lobby:1:market", {"members": ["al"]})
    journal.put_note("srv:lobby:1:market", {"members": ["al", "bo"]})
    journal.put_note("srv:lobby:2:autobattler", {"members": ["cy"]})
    journal.put_note("srv_lobby:3", {"members": []})
    journal.close()
    reopened = Journal(spec)
    assert reopened.notes("srv:lobby:") == {
        "srv:lobby:1:market": {"members": ["al", "bo"]},
        "srv:lobby:2:autobattler": {"members": ["cy"]},
    }
    assert reopened.notes("srv_") == {"srv_lobby:3": {"members": []}}
    reopened.drop_note("srv:lobby:1:market")
    reopened.drop_note("never there")
    assert list(reopened.notes()) == ["srv:lobby:2:autobattler", "srv_lobby:3"]
    reopened.close()


def test_a_table_moved_aside_keeps_its_actions_lease_and_state(spec: str) -> None:
    """``rename_table``: a record moved aside (its game number given to a new game) replays as before under
    its new key, with its lease, and the old key is free for a new table."""
    journal = Journal(spec)
    table = Table.create(journal, "srv:game:1", CounterEngine(CounterConfig(limit=50), seed=1), meta={"a": 1})
    table.apply(Add(player=1, amount=2), action_id="bid-1")
    assert journal.acquire("srv:game:1", "proc-a", 30) is not None
    journal.rename_table("srv:game:1", "srv:game:1@1")
    assert not journal.has_table("srv:game:1") and journal.open_tables() == ["srv:game:1@1"]
    moved = Table.restore(journal, "srv:game:1@1")
    assert moved.engine.snapshot() == {"total": 2}
    with pytest.raises(DuplicateAction):
        moved.apply(Add(player=1, amount=2), action_id="bid-1")
    lease = journal.lease("srv:game:1@1")
    assert lease is not None and lease.owner == "proc-a" and journal.lease("srv:game:1") is None
    fresh = Table.create(journal, "srv:game:1", CounterEngine(CounterConfig(limit=50), seed=2))
    assert fresh.apply(Add(player=2, amount=5)) == [Added(2, 5)]
    assert [e.seq for e in journal.entries("srv:game:1@1")] == [1] and journal.table_meta("srv:game:1@1")[
        "a"
    ] == 1
    journal.close()
