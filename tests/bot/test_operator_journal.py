"""One bot process per journal outside a fleet (``JournalLease``), on SQLite and PostgreSQL: a second one
refuses to start, a restart after ``kill -9`` on the same host does not wait, a holder on another host is
waited out, and the lease is the start's proof that the journal can be written."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from journal_toys import read_only
from postgres_server import postgres_fixture  # noqa: F401  (a fixture)

from cockatrice_ext.bot.fleet import JOURNAL_KEY, JournalInUse, JournalLease, check_no_lone_process
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.journal import Journal, JournalError

NOWHERE = "ws://127.0.0.1:9/servatrice"


@pytest.fixture(params=["sqlite", "postgres"])
def journal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Journal]:
    """An empty journal of each backend (PostgreSQL: a fresh database; skipped where it is not installed)."""
    if request.param == "sqlite":
        spec = str(tmp_path / "journal.sqlite3")
    else:
        spec = request.getfixturevalue("postgres").database()
    opened = Journal(spec)
    yield opened
    opened.close()


@pytest.fixture
def live_pid() -> Iterator[int]:
    """A process of this host that runs while the test does (the other bot process)."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield process.pid
    process.kill()
    process.wait()


def owner_on(host: str, pid: int) -> str:
    return f"RefereeBot@{host}:{pid}:abcd1234"


def lost(why: str) -> None:
    raise AssertionError(f"the lease was lost: {why}")


def test_a_second_process_on_this_host_is_refused_and_a_dead_ones_lease_taken_at_once(
    journal: Journal, live_pid: int
) -> None:
    async def run() -> None:
        journal.acquire(JOURNAL_KEY, owner_on(socket.gethostname(), live_pid), 60.0)
        lease = JournalLease(journal, "RefereeBot", 5.0, lost)
        with pytest.raises(JournalInUse) as refused:
            await lease.take()
        assert str(refused.value) == (
            f"journal {journal.path} is in use by another bot process (pid {live_pid} on host"
            f" {socket.gethostname()}, as RefereeBot); stop it first, or run several processes as a fleet"
            " (see README)"
        )
        journal.release(JOURNAL_KEY, owner_on(socket.gethostname(), live_pid))
        dead = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
        await dead.wait()  # killed outright (kill -9): its pid runs no more, its lease stays
        journal.acquire(JOURNAL_KEY, owner_on(socket.gethostname(), dead.pid), 60.0)
        loop = asyncio.get_running_loop()
        started = loop.time()
        await asyncio.wait_for(lease.take(), 2.0)  # long before the 60 s lease expires
        assert loop.time() - started < 60
        assert journal.lease(JOURNAL_KEY).owner == lease.owner  # type: ignore[union-attr]
        lease.release()
        assert journal.lease(JOURNAL_KEY) is None  # a clean stop: the next start need not wait

    asyncio.run(run())


def test_a_holder_on_another_host_is_waited_out_once(journal: Journal) -> None:
    async def run() -> None:
        journal.acquire(JOURNAL_KEY, owner_on("elsewhere.example", 4242), 60.0)  # renewed, as if alive
        with pytest.raises(JournalInUse, match=r"pid 4242 on host elsewhere\.example"):
            await asyncio.wait_for(JournalLease(journal, "RefereeBot", 0.4, lost).take(), 5.0)
        journal.release(JOURNAL_KEY, owner_on("elsewhere.example", 4242))
        journal.acquire(JOURNAL_KEY, owner_on("elsewhere.example", 4242), 0.3)  # not renewed: it died
        lease = JournalLease(journal, "RefereeBot", 0.4, lost)
        await asyncio.wait_for(lease.take(), 5.0)
        lease.release()

    asyncio.run(run())


def test_a_lone_process_and_a_fleet_do_not_share_a_journal(journal: Journal, live_pid: int) -> None:
    async def run() -> None:
        member = owner_on(socket.gethostname(), live_pid)
        journal.acquire(f"member:ws://x:1:{member}", member, 60.0)
        with pytest.raises(JournalInUse, match="in use by a fleet of bot processes"):
            await JournalLease(journal, "RefereeBot", 5.0, lost).take()
        journal.release(f"member:ws://x:1:{member}", member)
        journal.acquire(JOURNAL_KEY, member, 60.0)
        with pytest.raises(JournalInUse, match="no fleet member"):
            check_no_lone_process(journal)

    asyncio.run(run())


def test_a_lease_taken_while_this_process_stalled_stops_it(journal: Journal) -> None:
    """Suspended past its lease, a process finds it taken by a new one: it must stop, not go on writing."""

    async def run() -> str:
        told: list[str] = []
        lease = JournalLease(journal, "RefereeBot", 0.3, told.append)
        await lease.take()
        journal.release(JOURNAL_KEY, lease.owner)
        journal.acquire(JOURNAL_KEY, owner_on("elsewhere.example", 7), 60.0)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5
        while not told and loop.time() < deadline:
            await asyncio.sleep(0.05)
        lease.release()
        return told[0] if told else ""

    line = asyncio.run(run())
    assert "was taken by another bot process (pid 7 on host elsewhere.example" in line
    assert line.endswith("this one stops")


def test_a_bot_refuses_a_journal_in_use_before_logging_in(tmp_path: Path, live_pid: int) -> None:
    """The server address leads nowhere: the journal's refusal comes first, so nothing logged in."""
    journal = Journal(tmp_path / "journal.sqlite3")
    journal.acquire(JOURNAL_KEY, owner_on(socket.gethostname(), live_pid), 60.0)
    bot = Bot(BotOptions(url=NOWHERE, user="RefereeBot"), journal=journal)
    with pytest.raises(JournalInUse):
        asyncio.run(bot.run_forever())
    assert bot.client is None


def test_an_unwritable_journal_is_refused_at_start(tmp_path: Path) -> None:
    """Seen in the field: a read-only (or immutable) journal was accepted; the first game then failed with
    'attempt to write a readonly database' and players only heard that the game had not started."""
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    made_read_only = read_only(path)
    try:
        bot = Bot(BotOptions(url=NOWHERE, user="RefereeBot"), journal=Journal(path))
        with pytest.raises(JournalError) as refused:
            asyncio.run(bot.run_forever())
    finally:
        made_read_only()
    assert str(refused.value).startswith(f"the journal {path} cannot be written: ")
    assert "readonly database" in str(refused.value)
    assert bot.client is None
