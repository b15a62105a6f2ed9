"""A second copy of the bot started by mistake (another folder, so a brand-new journal) while the first is
alive used to wait for the name, take ``NAME_1`` and referee beside the first: both answered every room
command (one ``!auction new`` opened two games). It now stops with one line before saying anything in the
room. A real Servatrice; the first copy runs in this process, the second as the README starts it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from bot_players import Player, room_players, start_room_bot
from servatrice import ServatriceServer

from cockatrice_ext.bot.runtime import Bot, BotOptions, SessionEnded
from cockatrice_ext.client import FloodLimits


def second_copy(servatrice: ServatriceServer, user: str, folder: Path) -> BotOptions:
    """The same account started again from another folder (its own new journal), a short name wait."""
    folder.mkdir(parents=True, exist_ok=True)
    return BotOptions(
        url=servatrice.ws_url,
        user=user,
        rooms=("Bot room",),
        journal_path=folder / "journal.sqlite3",
        formats=("auction",),
        client_options={"reconnect": False, "flood_limits": FloodLimits.unlimited(), "name_wait": 0.5},
    )


def own_lines(player: Player, since: int, names: tuple[str, ...]) -> list[str]:
    """What ``player`` heard in the room since ``since`` that names one of ``names`` (the referee's words
    name the name it has, or the name asked for)."""
    return [text for scope, text in player.heard[since:] if scope == "room" and any(n in text for n in names)]


def test_a_second_copy_with_a_new_journal_stops_instead_of_refereeing_beside_the_first(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """The name is held by a session in our room and our journal is brand new: one line saying so, the
    room told nothing, the second session gone; the first referee alone answers ``!auction new``. Started
    again, the copy stops again (the journal it left holds no record)."""

    async def run() -> tuple[str, list[str], set[str], list[str]]:
        first = await start_room_bot(servatrice, tmp_path / "first", "Referee_cp")
        room_id, (ann,) = await room_players(servatrice, "ann_cp")
        try:
            mark = ann.mark()
            for _attempt in range(2):  # again: its journal is no longer new, but still holds no record
                second = Bot(second_copy(servatrice, "Referee_cp", tmp_path / "second"))
                try:
                    with pytest.raises(SessionEnded) as ended:
                        await second.start()
                finally:
                    await second.close()
            await ann.client.room_say(room_id, "!auction new 2")
            opened = await ann.wait_line(lambda t: "Auction Magic game #" in t, since=mark, timeout=20)
            await asyncio.sleep(0)
            users = set(ann.client.room_users.get(room_id, ()))
            return str(ended.value), own_lines(ann, mark, ("Referee_cp_1", "in use")), users, [opened]
        finally:
            await ann.close()
            await first.close()

    why, second_said, users, opened = asyncio.run(run())
    assert why == (
        "Referee_cp is already logged in and in room 'Bot room' \u2014 is another copy of this bot running?"
        " Stop it, or give this one another --user"
    )
    assert second_said == []  # neither "The referee is Referee_cp_1 for now" nor "Two referees"
    assert "Referee_cp_1" not in users
    assert len(opened) == 1


def test_bot_run_says_so_in_one_error_line(servatrice: ServatriceServer, tmp_path: Path) -> None:
    """``bot run`` as the README starts it, in another folder: exit 1 with the one ``error:`` line."""

    async def run() -> tuple[int | None, list[str]]:
        first = await start_room_bot(servatrice, tmp_path / "first", "Referee_cl")
        try:
            folder = tmp_path / "second"
            folder.mkdir()
            command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", servatrice.ws_url]
            command += ["--user", "Referee_cl", "--room", "Bot room", "--name-wait", "1"]
            command += ["--journal", str(folder / "journal.sqlite3"), "--format", "auction"]
            env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8"}
            process = subprocess.Popen(
                command,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                encoding="utf-8",
                env=env,
            )
            said: list[str] = []  # until it stops, or says it referees (the old behaviour)
            try:
                assert process.stdout is not None
                while line := await asyncio.to_thread(process.stdout.readline):
                    said.append(line.rstrip("\n"))
                    if "Ctrl-C stops" in line:
                        break
            finally:
                if process.poll() is None:
                    process.send_signal(signal.SIGINT)
                await asyncio.to_thread(process.wait, 30)
            return (None if "Ctrl-C stops" in "".join(said) else process.returncode), said
        finally:
            await first.close()

    code, said = asyncio.run(run())
    errors = [line for line in said if line.startswith("error:")]
    assert code == 1, said
    assert errors == [
        "error: Referee_cl is already logged in and in room 'Bot room' \u2014 is another copy of this bot"
        " running? Stop it, or give this one another --user"
    ], said
