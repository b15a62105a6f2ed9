"""The runtime's restart paths that need no server: a game whose record no longer replays."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.journal import open_database
from cockatrice_ext.web.demo import demo_bot, seat_game

GAME, ROOM = 12, 1


def test_a_reseated_game_whose_record_no_longer_replays_is_announced_and_the_bot_goes_on(
    tmp_path: Path,
) -> None:
    """A registered account is re-seated after a restart; if the game's journal replays differently under
    this version's rules, the room is told and the bot carries on (the error used to stop the bot)."""

    async def run() -> list[tuple[Any, str]]:
        chat: list[tuple[Any, str]] = []

        async def send(destination: Any, message: str) -> None:
            chat.append((destination, message))

        journal_path = tmp_path / "journal.sqlite3"
        bot = demo_bot(journal_path, send)
        seat_game(bot, GAME, ["alice", "bob"])
        pool = load_block("vortex-pool", sections=None)
        referee = VortexReferee(bot, GAME, ROOM, VortexOptions(seed=5), pool)
        bot.adopt_game(referee)
        await referee.start_engine()
        await bot.chat.flush(timeout=5)
        bot.forget_game(GAME)  # as after a restart: the journal is all that is left
        database = open_database(str(journal_path))
        database.execute("UPDATE actions SET effects='[]' WHERE table_key=? AND seq=1", (referee.table_key,))
        database.close()
        chat.clear()
        await bot.resume_game(GAME, ROOM)
        await bot.chat.flush(timeout=5)
        assert GAME not in bot.games
        return chat

    chat = asyncio.run(run())
    ((destination, line),) = chat
    assert destination == ("room", ROOM)
    assert line.startswith(f"game #{GAME}'s record cannot be replayed (")
    assert "action 1" in line and "replays differently" in line
    assert line.endswith("it is kept, and nothing was changed")
