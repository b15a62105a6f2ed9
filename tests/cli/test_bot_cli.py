"""``cockatrice-ext bot run`` as an operator starts it: a real process on a real Servatrice."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from servatrice import ServatriceServer

from cockatrice_ext.client import ClientEvent, FloodLimits, connect

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

        async def ask() -> str:
            async with await connect(
                servatrice.ws_url, "cli_player", flood_limits=FloodLimits.unlimited()
            ) as me:
                room_id = await me.room_id_by_name("Bot room")
                await me.join_room(room_id)
                heard: asyncio.Queue[str] = asyncio.Queue()

                async def listen(event: object) -> None:
                    if (
                        isinstance(event, ClientEvent)
                        and event.name == "Event_RoomSay"
                        and not (event.is_own or event.is_replay)
                        and event.message.name == "cli_referee"  # type: ignore[attr-defined]
                    ):
                        heard.put_nowait(event.message.message)  # type: ignore[attr-defined]

                me.add_listener(listen)
                await me.room_say(room_id, "!help")
                help_line = await asyncio.wait_for(heard.get(), 10)
                await me.room_say(room_id, "!auction new 2 /etc/passwd")
                refusal = await asyncio.wait_for(heard.get(), 10)
                await me.room_say(room_id, "!auction new 2")
                created = await asyncio.wait_for(heard.get(), 10)
                return "\n".join((help_line, refusal, created))

        lines = asyncio.run(ask())
        assert "!auction new" in lines.splitlines()[0]
        assert "no block called '/etc/passwd'" in lines.splitlines()[1]
        assert "Auction Magic game #" in lines.splitlines()[2]
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert process.returncode == 0, process.stdout.read().decode() if process.stdout else ""
    assert journal.exists()
