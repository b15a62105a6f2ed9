"""The lost-game room line names the players still in the game, not those already out of it.

A three-player Vortex game where cat conceded before the referee's seat was lost: the room used to hear
"The referee lost its seat in vortex game #12 (alice, bob, cat)", the meta's every journaled name, so cat
was called to a ``!resume`` whose rebuilt game has no seat for them (``VortexReferee.turn_away``). The names
now come from the journal replayed as ``!resume`` reads it. No server needed: the stand-in client of
``cockatrice_ext.web.demo`` and a real Vortex referee.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from test_lost_games_expire import restart
from test_runtime import GAME, ROOM

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client import Reconnected
from cockatrice_ext.formats import vortex as rules
from cockatrice_ext.web.demo import demo_bot, seat_game

Chat = list[tuple[Any, str]]


async def game_with_one_out(path: Path) -> tuple[Bot, VortexReferee, Chat]:
    """A bot refereeing a started Vortex game of alice, bob and cat (seats 1, 2, 3) in which cat conceded,
    and the list its chat goes to from now on."""
    chat: Chat = []

    async def send(destination: Any, message: str) -> None:
        chat.append((destination, message))

    bot = demo_bot(path, send)
    seat_game(bot, GAME, ["alice", "bob", "cat"])
    referee = VortexReferee(
        bot, GAME, ROOM, VortexOptions(seed=5, seats=3), load_block("vortex-pool", sections=None)
    )
    bot.adopt_game(referee)
    await referee.start_engine()
    assert referee.table is not None
    referee.table.apply(rules.RemovePlayer(player=None, target=3, reason="conceded"))
    await bot.chat.flush(timeout=5)
    chat.clear()
    return bot, referee, chat


def names_those_still_in(chat: Chat) -> None:
    """The room heard one line, offering ``!resume`` to alice and bob, not to cat (out of the game)."""
    ((destination, line),) = chat
    assert destination == ("room", ROOM)
    assert f"vortex game #{GAME} (alice, bob)" in line, line
    assert "cat" not in line
    assert f"!resume {GAME}" in line


def test_a_game_lost_in_a_restart_is_announced_with_the_players_still_in_it(tmp_path: Path) -> None:
    """The bot stops (an unregistered account: its seat dies with it); the next start tells the room."""
    path = tmp_path / "journal.sqlite3"

    async def run() -> Chat:
        bot, _, _ = await game_with_one_out(path)
        bot.chat.close()
        bot.journal.close()
        bot, chat = await restart(path)
        bot.chat.close()
        bot.journal.close()
        return chat

    names_those_still_in(asyncio.run(run()))


def test_a_seat_lost_in_a_drop_is_announced_with_the_players_still_in_it(tmp_path: Path) -> None:
    """Back from a dropped connection without its seat: the room hears the players still in the game."""

    async def run() -> Chat:
        bot, _, chat = await game_with_one_out(tmp_path / "journal.sqlite3")
        bot.client.games.pop(GAME)  # as the client does with the games it reports lost
        await bot.on_event(Reconnected(1, bot.client.user_name, (ROOM,), (), (GAME,)))
        await bot.chat.flush(timeout=5)
        bot.chat.close()
        bot.journal.close()
        return chat

    names_those_still_in(asyncio.run(run()))
