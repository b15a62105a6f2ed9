"""A game that stops (or goes) right as it starts, before the referee has read its deck.

Seen in a soak test: two players sat and pressed ready, one left the moment the game started; the referee's
``Command_DumpZone`` (reading its shuffled deck) came back ``RespGameNotStarted`` and the bot logged an ERROR
traceback ("bot failed on ClientEvent..."). Now that is an info line, nothing is journaled for a game that
never got going, and the game starts normally when Cockatrice starts it again. The referees, engines and
journal are the real ones; the client is the demo stand-in, whose ``Command_DumpZone`` answers as the server
did.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.client._wire import command_name
from cockatrice_ext.client.errors import GameNotStarted, NotInRoom
from cockatrice_ext.protocol.pb import game_events_pb2
from cockatrice_ext.web.demo import StandInClient, demo_bot, seat_game

GAME, ROOM = 21, 1
NOT_STARTED, NOT_IN_ROOM = 9, 2  # Servatrice's response codes (RespGameNotStarted, RespNotInRoom)


class StopsAsItStarts(StandInClient):
    """The demo client, but the server has stopped the game (or closed it) by the time the referee asks for
    its deck: the stop (``stop_with`` a response code) reaches the mirror and the DumpZone fails with it."""

    stop_with: int = 0
    dumps: int = 0

    async def game_command(self, game_id: int, command: Any, **_: Any) -> Any:
        if command_name(command) == "Command_DumpZone":
            self.dumps += 1
            if self.stop_with:
                mirror = self.games[game_id]
                mirror.started = False
                error = GameNotStarted if self.stop_with == NOT_STARTED else NotInRoom
                if error is NotInRoom:
                    mirror.closed = True
                raise error(self.stop_with, command="Command_DumpZone")
        return await super().game_command(game_id, command)


def started_turn(player: int = 1) -> ClientEvent:
    """The event whose handling starts the referee's engine: the first active player of a started game."""
    message = game_events_pb2.Event_SetActivePlayer(active_player_id=player)
    return ClientEvent(kind="game", message=message, game_id=GAME)


async def start_race(journal: Path, fmt: str, stop_with: int) -> tuple[Any, StopsAsItStarts, list[str]]:
    """A bot refereeing a two-player ``fmt`` game that Cockatrice starts and stops (``stop_with``) before the
    referee's deck is read; the event goes through ``Bot.on_event`` as the server's would."""
    chat: list[str] = []

    async def send(_destination: Any, message: str) -> None:
        chat.append(message)

    bot = demo_bot(journal, send)
    client = StopsAsItStarts()
    client.stop_with = stop_with
    bot.client = client  # type: ignore[assignment]
    seat_game(bot, GAME, ["alice", "bob"])
    if fmt == "auction":
        referee: Any = AuctionReferee(bot, GAME, ROOM, AuctionOptions(seed=7), load_block("auction-sample"))
    else:
        referee = VortexReferee(
            bot, GAME, ROOM, VortexOptions(seed=5), load_block("vortex-pool", sections=None)
        )
    bot.adopt_game(referee)
    await bot.on_event(started_turn())
    await bot.chat.flush(timeout=5)
    return bot, client, chat


@pytest.mark.parametrize("fmt", ["auction", "vortex"])
@pytest.mark.parametrize("stop_with", [NOT_STARTED, NOT_IN_ROOM], ids=["stopped", "gone"])
def test_a_game_that_stops_as_it_starts_is_an_info_line_not_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, fmt: str, stop_with: int
) -> None:
    """The deck read fails because the game stopped (or closed): no ERROR, one info line saying so, no table
    journaled (the game was never played), and nothing said to the players about a game that did not begin."""
    caplog.set_level(logging.INFO, logger="cockatrice_ext")

    async def run() -> tuple[Any, StopsAsItStarts, list[str]]:
        return await start_race(tmp_path / "journal.sqlite3", fmt, stop_with)

    bot, client, chat = asyncio.run(run())
    assert client.dumps == 1
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not errors, [r.getMessage() for r in errors]
    infos = [r.getMessage() for r in caplog.records if "before the referee read its deck" in r.getMessage()]
    assert len(infos) == 1 and f"game {GAME} stopped" in infos[0], caplog.text
    referee = bot.games[GAME]
    assert referee.table is None and not bot.journal.has_table(referee.table_key)
    assert not any("shuffled" in line or "Turn order" in line for line in chat), chat


@pytest.mark.parametrize("fmt", ["auction", "vortex"])
def test_a_game_stopped_as_it_started_is_refereed_when_it_starts_again(tmp_path: Path, fmt: str) -> None:
    """After the stop, the players press ready again and Cockatrice starts the game again: the referee reads
    its deck then and starts the engine, as for any game."""

    async def run() -> tuple[Any, StopsAsItStarts]:
        bot, client, _ = await start_race(tmp_path / "journal.sqlite3", fmt, NOT_STARTED)
        client.stop_with = 0
        client.games[GAME].started = True
        await bot.on_event(started_turn())
        return bot, client

    bot, client = asyncio.run(run())
    referee = bot.games[GAME]
    assert client.dumps == 2  # the stopped start's deck, then the deck (Auction's spares wait for a draw)
    assert referee.table is not None and bot.journal.has_table(referee.table_key)
    assert referee.live
