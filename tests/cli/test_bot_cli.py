"""``cockatrice-ext bot run`` as an operator starts it: a real process on a real Servatrice."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from room_chat import ask_in_room
from servatrice import ServatriceServer

pytestmark = pytest.mark.servatrice


def test_bot_process_answers_room_commands_and_stops_cleanly(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite3"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cockatrice_ext",
            "bot",
            "run",
            servatrice.ws_url,
            "--user",
            "cli_referee",
            "--room",
            "Bot room",
            "--journal",
            str(journal),
            "--relaxed-flood",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        ready = process.stdout.readline().decode()
        assert "referee cli_referee is in 1 room(s)" in ready, ready

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
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert process.returncode == 0, process.stdout.read().decode() if process.stdout else ""
    assert journal.exists()
