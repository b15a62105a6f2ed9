"""``bot run`` as an operator runs it against a real Servatrice: one process per journal, a journal that
cannot be written, a session the server closed for good, and what a normal stop says."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bot_process import assert_one_error_line, ready_line
from journal_toys import read_only
from servatrice import ServatriceServer

from cockatrice_ext.client import connect
from cockatrice_ext.journal import Journal

NOWHERE = "ws://127.0.0.1:9/servatrice"  # refused at once: a check before logging in comes first


def command(url: str, user: str, journal: Path | str, *extra: str) -> list[str]:
    return [
        *(sys.executable, "-m", "cockatrice_ext", "bot", "run", url, "--user", user),
        *("--room", "Bot room", "--journal", str(journal), "--relaxed-flood", "--format", "auction", *extra),
    ]


def started(url: str, user: str, journal: Path, *, password: str | None = None) -> subprocess.Popen[str]:
    """A ``bot run`` process, returned once it says it is ready."""
    env = {k: v for k, v in os.environ.items() if k != "COCKATRICE_PASSWORD"}
    env["PYTHONUNBUFFERED"] = "1"
    if password is not None:
        env["COCKATRICE_PASSWORD"] = password
    process = subprocess.Popen(
        command(url, user, journal), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    assert process.stdout is not None
    ready = process.stdout.readline()
    if ready_line(user) not in ready:
        process.kill()
        raise AssertionError(ready + process.communicate(timeout=10)[0])
    return process


def finished(process: subprocess.Popen[str], timeout: float = 30) -> tuple[int, str]:
    """Wait for ``process`` to end (killed if it does not): its exit code and the rest of its output."""
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        raise AssertionError(f"the bot did not stop: {output}") from None
    return process.returncode, output


def run_once(url: str, user: str, journal: Path | str) -> tuple[int, str]:
    done = subprocess.run(command(url, user, journal), capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.servatrice
def test_a_second_process_on_one_journal_is_refused_and_a_stop_says_so(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Seen in the field: a second process on the journal logged in as RefereeBot_1 and both answered every
    room command (one ``!resume`` made two copies of a game). It is refused before logging in (its server
    address leads nowhere here); a normal stop says it stops, and what it keeps; after ``kill -9`` a restart
    on the same host starts at once."""
    journal = tmp_path / "journal.sqlite3"
    first = started(servatrice.tcp_url, "op_solo", journal)
    try:
        code, output = run_once(NOWHERE, "op_solo", journal)
        assert_one_error_line(
            code,
            output,
            f"journal {journal} is in use by another bot process (pid {first.pid} on host",
            "stop it first, or run several processes as a fleet (see README)",
        )
    finally:
        first.send_signal(signal.SIGINT)
    code, output = finished(first)
    assert code == 0, output
    assert f"stopping: 0 refereed game(s) kept in the journal {journal}" in output, output
    assert output.rstrip().endswith("stopped"), output

    killed = started(servatrice.tcp_url, "op_solo", journal)
    killed.kill()
    finished(killed)
    again = started(servatrice.tcp_url, "op_solo", journal)  # the dead process's lease is taken at once
    again.send_signal(signal.SIGINT)
    assert finished(again)[0] == 0


def test_an_unwritable_journal_is_refused_at_start(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    Journal(journal).close()
    undo = read_only(journal)
    try:
        code, output = run_once(NOWHERE, "op_ro", journal)
    finally:
        undo()
    assert_one_error_line(code, output, f"the journal {journal} cannot be written", "readonly database")


def test_a_journal_in_a_missing_folder_names_the_folder(tmp_path: Path) -> None:
    journal = tmp_path / "nosuch" / "journal.sqlite3"
    code, output = run_once(NOWHERE, "op_ro", journal)
    assert_one_error_line(
        code, output, f"cannot open the journal {journal}: the folder {journal.parent} does not exist"
    )


def test_a_bot_logged_in_elsewhere_stops_with_one_line(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path
) -> None:
    """Seen in the field: a registered bot logged out by another login of its account ran on (its timers
    journaled actions the live process then tripped over). It stops, says why, and exits non-zero."""
    from mariadb_server import sql_config

    mariadb.add_user("op_twin", "secret")
    server = servatrice_factory.start(sql_config(mariadb))
    bot = started(server.tcp_url, "op_twin", tmp_path / "journal.sqlite3", password="secret")

    async def log_in_as_the_bot() -> None:
        async with await connect(server.ws_url, "op_twin", "secret", reconnect=False):
            await asyncio.get_running_loop().run_in_executor(None, bot.wait, 30)

    try:
        asyncio.run(asyncio.wait_for(log_in_as_the_bot(), 40))
    finally:
        code, output = finished(bot)
    line = assert_one_error_line(code, output)
    assert line == "error: another process or client logged in as op_twin; this one stops", output
