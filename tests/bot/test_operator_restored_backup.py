"""A journal restored from a copy older than a running game: the restarted referee finds the game in its
room's list, opened by its own account and described as one of its refereed games, and no record of it.
It used to say nothing (the game's players waited for a referee that never answered, ``!resume`` called it
"not a lost game"); now the operator hears one WARNING naming it and the room one line, once per game.
A real Servatrice, the operator's steps: copy the journal, play on, stop, copy the old one back, restart.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from pathlib import Path

import pytest
from bot_players import room_players, start_room_bot, wait_until
from servatrice import ServatriceServer

from cockatrice_ext.journal import Journal

RESTORED = "was opened by this bot but its journal does not know it: restored from an older copy?"


def test_a_game_opened_after_the_backup_is_named_once_to_the_operator_and_its_room(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    user = "Referee_bk"
    journal = tmp_path / f"{user}.sqlite3"
    backup = tmp_path / "backup.sqlite3"
    caplog.set_level(logging.WARNING, logger="cockatrice_ext.bot.runtime")

    async def run() -> tuple[int, list[str], str, int]:
        Journal(str(journal)).close()  # the bot ran here before
        shutil.copyfile(journal, backup)  # the operator's copy, before the game below
        first = await start_room_bot(servatrice, tmp_path, user)
        room_id, (ann, bob) = await room_players(servatrice, "ann_bk", "bob_bk")
        try:
            mark = ann.mark()
            await ann.client.room_say(room_id, "!auction new 2")
            line = await ann.wait_line(lambda t: "Auction Magic game #" in t, since=mark, timeout=30)
            game_id = int(line.split("game #", 1)[1].split()[0])
            await ann.sit(room_id, game_id)
            await bob.sit(room_id, game_id)
            key = f"{first.server_key}{first.GAME_KEY}{game_id}"
            await wait_until(lambda: first.journal.has_table(key), timeout=30, what="the game's table")
            await first.close()  # its seat goes with its connection; the game plays on without it
            for suffix in ("-wal", "-shm"):
                Path(f"{journal}{suffix}").unlink(missing_ok=True)
            shutil.copyfile(backup, journal)  # restored: the game is not in it
            mark = ann.mark()
            second = await start_room_bot(servatrice, tmp_path, user)
            try:
                await ann.wait_line(lambda t: f"cannot referee game #{game_id}" in t, since=mark, timeout=30)
                await second.note_unrecorded_games()  # again: nothing more (once per game per run)
                await ann.client.room_say(room_id, f"!resume {game_id}")
                resume = await ann.wait_line(
                    lambda t: f"game #{game_id} has no record" in t or "is not a lost game" in t, since=mark
                )
                room_lines = [t for scope, t in ann.heard[mark:] if scope == "room"]
                return game_id, room_lines, resume, sum(RESTORED in r.getMessage() for r in caplog.records)
            finally:
                await second.close()
        finally:
            await ann.close()
            await bob.close()

    game_id, room_lines, resume, warnings = asyncio.run(run())
    told = [t for t in room_lines if f"game #{game_id}" in t and "cannot referee" in t]
    assert told == [
        f"The referee cannot referee game #{game_id}: its record is missing from the referee's journal, so"
        " nothing there will be answered. Its players may leave it and start a new game."
    ]
    assert warnings == 1
    warning = next(r.getMessage() for r in caplog.records if RESTORED in r.getMessage())
    assert warning.startswith(f"game #{game_id} {RESTORED}")
    assert f"game #{game_id} has no record in this referee's journal" in resume


def test_a_plain_restart_names_no_game(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """No false alarm on the same journal: a started game it recorded (lost, offered to ``!resume`` as
    before), and a game still waiting for its players (no table before its start), are not called missing."""
    user = "Referee_nb"
    caplog.set_level(logging.WARNING, logger="cockatrice_ext.bot.runtime")

    async def run() -> tuple[set[int], set[int], list[str]]:
        first = await start_room_bot(servatrice, tmp_path, user)
        room_id, (ann, bob) = await room_players(servatrice, "ann_nb", "bob_nb")
        try:
            mark = bob.mark()
            await bob.client.room_say(room_id, "!auction new 2")
            line = await bob.wait_line(lambda t: "asked by bob_nb" in t, since=mark, timeout=30)
            waiting = int(line.split("game #", 1)[1].split()[0])
            await ann.client.join_game(room_id, waiting)  # seated, never ready: not started
            mark = ann.mark()
            await ann.client.room_say(room_id, "!auction new 2")
            line = await ann.wait_line(lambda t: "asked by ann_nb" in t, since=mark, timeout=30)
            started = int(line.split("game #", 1)[1].split()[0])
            await ann.sit(room_id, started)
            await bob.sit(room_id, started)
            key = f"{first.server_key}{first.GAME_KEY}{started}"
            await wait_until(lambda: first.journal.has_table(key), timeout=30, what="the game's table")
            await first.close()
            second = await start_room_bot(servatrice, tmp_path, user)
            try:
                listed = set(second.room_games.get(room_id, {}))
                return second.unrecorded_games, listed & {waiting, started}, list(second.lost_games())
            finally:
                await second.close()
        finally:
            await ann.close()
            await bob.close()

    unrecorded, listed, lost = asyncio.run(run())
    assert len(listed) == 2  # both games were there to be looked at
    assert unrecorded == set()
    assert not [r for r in caplog.records if RESTORED in r.getMessage()]
    assert len(lost) == 1
