"""The PostgreSQL journal as a fleet of bot processes uses it: shared, concurrent, behind ``bot run``.

A private PostgreSQL is started from the OS package (``tests/postgres_server.py``); every test skips
with the reason when it is absent. The behaviour shared with SQLite is in ``test_journal.py``.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from journal_toys import Add, CounterConfig, CounterEngine
from postgres_server import PostgreSQL, postgres_fixture, postgres_url_fixture  # noqa: F401  (fixtures)

from cockatrice_ext import journal_pg
from cockatrice_ext.journal import MIGRATIONS, DuplicateAction, Journal, JournalError, Table, open_database

sys.path.insert(0, str(Path(__file__).resolve().parent / "bot"))
from bot_players import Player, wait_until

FORK = multiprocessing.get_context("fork")


def _open_and_report(url: str, out: Any) -> None:
    try:
        Journal(url).close()
        out.put("ok")
    except Exception as exc:  # reported to the test, which shows it
        out.put(repr(exc))


def test_processes_opening_a_new_journal_together_migrate_once(postgres_url: str) -> None:
    """Bots of a fleet started at once: the advisory lock lets one migrate, the others find it done."""
    out = FORK.Queue()
    openers = [FORK.Process(target=_open_and_report, args=(postgres_url, out)) for _ in range(4)]
    for opener in openers:
        opener.start()
    assert [out.get(timeout=60) for _ in openers] == ["ok"] * 4
    for opener in openers:
        opener.join(30)
    database = open_database(postgres_url)
    rows = database.execute("SELECT version, description FROM schema_version ORDER BY version").fetchall()
    database.close()
    assert rows == [(m.version, m.description) for m in MIGRATIONS]


def _append_each_once(url: str, ids: list[str], out: Any) -> None:
    """Append every id, retrying as a bot would after losing a race, until it is in or refused."""
    journal = Journal(url)
    mine: list[str] = []
    for action_id in ids:
        while True:
            try:
                journal.append("t", Add(player=1), [], action_id=action_id)
            except DuplicateAction:
                break
            except JournalError as exc:
                assert "another process" in str(exc), exc
                continue
            mine.append(action_id)
            break
    out.put(mine)
    journal.close()


def test_four_processes_retrying_the_same_actions_journal_each_once(postgres_url: str) -> None:
    """Every process appends the same 40 ids to one table: each id lands once, numbers have no gap."""
    journal = Journal(postgres_url)
    Table.create(journal, "t", CounterEngine(CounterConfig(limit=10**6), seed=1))
    ids = [f"action-{n}" for n in range(40)]
    out = FORK.Queue()
    writers = [FORK.Process(target=_append_each_once, args=(postgres_url, ids, out)) for _ in range(4)]
    for writer in writers:
        writer.start()
    landed = [action_id for _ in writers for action_id in out.get(timeout=120)]
    for writer in writers:
        writer.join(30)
    entries = list(journal.entries("t"))
    assert sorted(landed) == sorted(ids)
    assert sorted(e.action_id or "" for e in entries) == sorted(ids)
    assert [e.seq for e in entries] == list(range(1, len(ids) + 1))
    # Each writer recorded no effects (it cannot know the total before it wins the race), so the table
    # would not replay against its record; its actions add up all the same.
    assert sum(e.action["amount"] for e in entries) == len(ids)
    journal.close()


def test_an_unreachable_server_is_one_line_without_the_password(postgres: PostgreSQL) -> None:
    url = f"postgresql://journal:hunter2@127.0.0.1:{postgres.port}/no_such_database"
    with pytest.raises(JournalError) as info:
        Journal(url)
    message = str(info.value)
    assert "hunter2" not in message and "journal:***@" in message
    assert "no_such_database" in message and "\n" not in message


def test_a_missing_driver_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_pg, "psycopg", None)
    with pytest.raises(JournalError, match=r"pip install 'cockatrice-ext\[postgres\]'"):
        Journal("postgresql://nobody@127.0.0.1:1/none")


def test_bot_run_refuses_a_journal_it_cannot_open(postgres: PostgreSQL, tmp_path: Path) -> None:
    base = [sys.executable, "-m", "cockatrice_ext", "bot", "run", "ws://127.0.0.1:1/none", "--user", "r"]
    down = subprocess.run(
        [*base, "--journal", f"postgresql://journal:pw@127.0.0.1:{postgres.port}/missing"],
        capture_output=True,
        text=True,
    )
    assert down.returncode == 1
    assert down.stderr.startswith("error: cannot open the journal at postgresql://journal:***@127.0.0.1")
    assert len(down.stderr.strip().splitlines()) == 1 and "pw@" not in down.stderr
    folder = subprocess.run([*base, "--journal", str(tmp_path)], capture_output=True, text=True)
    assert folder.returncode == 2 and f"{tmp_path} is not a regular file" in folder.stderr


def _bot_process(url: str, journal_url: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "cockatrice_ext", "bot", "run", url),
            *("--user", "pg_referee", "--room", "Bot room", "--format", "auction"),
            *("--journal", journal_url, "--relaxed-flood"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> str:
    process.send_signal(sig)
    try:
        output, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    return output.decode(errors="replace")


@pytest.mark.servatrice
def test_bot_run_journals_in_postgres_and_a_new_process_finds_the_game(
    servatrice: Any, postgres_url: str
) -> None:
    """``bot run --journal postgresql://...``: a game started by one process, killed with SIGKILL, is
    offered for ``!resume`` by the next process reading the same database."""
    first = _bot_process(servatrice.ws_url, postgres_url)
    second: subprocess.Popen[bytes] | None = None
    try:
        assert first.stdout is not None
        ready = first.stdout.readline().decode()
        assert "referee pg_referee is in 1 room(s)" in ready, ready + _stop(first)

        async def scenario() -> tuple[int, str]:
            nonlocal second
            alice = await Player.connect(servatrice.ws_url, "pg_alice")
            bob = await Player.connect(servatrice.ws_url, "pg_bob")
            try:
                room_id = await alice.client.room_id_by_name("Bot room")
                for player in (alice, bob):
                    await player.client.join_room(room_id)
                await alice.client.room_say(room_id, "!auction new 2")
                line = await alice.wait_line(lambda t: "Auction Magic game #" in t)
                game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
                for player in (alice, bob):
                    await player.sit(room_id, game_id)
                await alice.wait_line(lambda t: "Turn order" in t, timeout=20)
                journal = Journal(postgres_url)
                await wait_until(lambda: bool(journal.open_tables("auction")), what="a journaled auction")
                (key,) = journal.open_tables("auction")
                assert key.endswith(f":game:{game_id}")
                assert journal.table_meta(key)["names"]
                journal.close()
                first.send_signal(signal.SIGKILL)
                first.wait(10)
                mark = alice.mark()
                second = _bot_process(servatrice.ws_url, postgres_url)
                lost = await alice.wait_line(lambda t: f"!resume {game_id}" in t, since=mark, timeout=30)
                return game_id, lost
            finally:
                await alice.close()
                await bob.close()

        game_id, lost = asyncio.run(asyncio.wait_for(scenario(), 90))
        assert f"auction game #{game_id} (pg_alice, pg_bob)" in lost, lost
    finally:
        if first.poll() is None:
            _stop(first, signal.SIGKILL)
        if second is not None:
            output = _stop(second)
            assert second.returncode == 0, output


def test_a_dropped_connection_is_opened_again_and_nothing_is_applied_twice(postgres_url: str) -> None:
    """The server ends the journal's connection (a restart, a failover): the next action still lands once."""
    import psycopg

    journal = Journal(postgres_url)
    try:
        table = Table.create(journal, "g", CounterEngine(CounterConfig(limit=9), seed=1))
        table.apply(Add(player=1), action_id="a1")
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            ended = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        assert ended and all(row[0] for row in ended)
        table.apply(Add(player=1), action_id="a2")
        with pytest.raises(DuplicateAction):
            table.apply(Add(player=1), action_id="a2")
        assert [e.action_id for e in journal.entries("g")] == ["a1", "a2"]
    finally:
        journal.close()


def test_stats_read_the_fleets_postgresql_journal(postgres_url: str) -> None:
    """``stats`` takes the URL ``bot run --journal`` takes (it took only an SQLite path: the URL was said
    to be no journal); an unreachable one is one error line."""
    from click.testing import CliRunner

    from cockatrice_ext.cli import main

    Journal(postgres_url).close()
    runner = CliRunner()
    result = runner.invoke(main, ["stats", "prices", "--journal", postgres_url])
    assert result.exit_code == 0 and "no auctions recorded yet" in result.output, result.output
    result = runner.invoke(main, ["stats", "chart", "tables", "--journal", postgres_url])
    assert result.exit_code == 0 and result.output.startswith("nothing recorded yet"), result.output
    unreachable = "postgresql://bot@127.0.0.1:1/nothing"
    result = runner.invoke(main, ["stats", "prices", "--journal", unreachable])
    assert result.exit_code == 2 and "cannot open the journal" in result.output
    assert "Traceback" not in result.output
