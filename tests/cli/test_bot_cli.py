"""``cockatrice-ext bot run`` as an operator starts it: a real process on a real Servatrice."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from bot_process import ask_in_room, bot_process
from servatrice import ServatriceServer

from cockatrice_ext.client import FloodLimits, connect

pytestmark = pytest.mark.servatrice


def test_bot_process_answers_room_commands_and_stops_cleanly(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite3"
    with bot_process(servatrice.ws_url, "cli_referee", journal):
        help_line, refusal, created = asyncio.run(
            ask_in_room(
                servatrice.ws_url,
                "cli_player",
                "cli_referee",
                ["!help", "!auction new 2 /etc/passwd", "!auction new 2"],
            )
        )
    assert "!auction new" in help_line
    assert "no block called '/etc/passwd'" in refusal
    assert "Auction Magic game #" in created
    assert journal.exists()


def test_bot_process_takes_the_offered_name_after_name_wait(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Someone keeps the referee's unregistered name: with ``--name-wait 1`` ``bot run`` tries again for a
    second (not the default 30) before logging in as ``NAME_1``, and answers there."""

    async def scenario() -> tuple[str, str]:
        async with await connect(servatrice.ws_url, "cli_kept", flood_limits=FloodLimits.unlimited()):
            command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", servatrice.ws_url]
            command += ["--user", "cli_kept", "--room", "Bot room", "--journal", str(tmp_path / "j.sqlite3")]
            process = subprocess.Popen(
                [*command, "--name-wait", "1"],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
            try:
                assert process.stdout is not None
                said = []  # log lines (stderr is merged) until the ready line
                while not said or "referee " not in said[-1]:
                    said.append((await asyncio.to_thread(process.stdout.readline)).decode())
                    assert said[-1], "bot run ended: " + "".join(said)
                answers = await ask_in_room(servatrice.ws_url, "cli_reader", "cli_kept_1", ["!help"])
            finally:
                process.send_signal(signal.SIGINT)
                await asyncio.to_thread(process.wait, 15)
            assert process.returncode == 0
            return "".join(said), answers[0]

    said, help_line = asyncio.run(scenario())
    assert "still in use after 1s: logged in as 'cli_kept_1'" in said  # not the default 30 s
    assert "referee cli_kept_1 is in 1 room(s)" in said.splitlines()[-1]
    assert "!auction new" in help_line
