"""A Market league game's start line says how its result reaches the referee, as its ``!status`` and
``!help`` do (``result_rule``): it said "The game is on.  Good luck!" (an empty setup note, two spaces),
while an AutoBattler mini-game's start line said it with its setup."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest
from test_league_lobby import ROOM, Chat

from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_rooms import MarketRoom
from cockatrice_ext.bot.league_views import result_rule
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.client.mirror import GameMirror, PlayerState
from cockatrice_ext.web.demo import demo_bot

MAX_GAME_LINE = 300  # the chat scheduler's cut for a room or game line (chat.MAX_MESSAGE)


def started_market_game(tmp_path: Path, *, watching: bool) -> list[str]:
    """What a started Market league's first game says in its chat as it starts (the referee watching from a
    judge's seat: the players' ready starts it; seated: the referee's ready does, once decks are legal)."""

    async def run() -> list[str]:
        chat: Chat = []

        async def send(destination: tuple[str, object], message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(tmp_path / "journal.sqlite3", send)
        room = MarketRoom(bot, LeagueOptions(format="market", seed=3))
        bot.room_referees.append(room)
        try:
            for user in ("al", "bo"):
                assert await room.handle_command(Context(bot, "room", user, room_id=ROOM), "!market join")
            assert await room.handle_command(Context(bot, "room", "al", room_id=ROOM), "!market start 1")
            await bot.chat.flush(timeout=5)
            (league,) = room.leagues
            seats = {
                0: PlayerState(0, "referee", spectator=watching),
                1: PlayerState(1, "al", ready_start=True),
                2: PlayerState(2, "bo", ready_start=True),
            }
            bot.client.games[99] = GameMirror(
                game_id=99, room_id=ROOM, local_player_id=0, spectator=watching, players=seats
            )
            game = LeagueGame(bot, league, 99, 1, ("al", "bo"))
            game.legal = {"al": True, "bo": True}
            before = len(chat)
            if watching:
                bot.client.games[99].started = True  # the players' own ready started it
                await game.on_game_event(SimpleNamespace(name="Event_GameSay"))  # type: ignore[arg-type]  # any event
            else:
                bot.client.ready_start = lambda *_args: asyncio.sleep(0)  # type: ignore[attr-defined]
                await game.maybe_ready()
            await bot.chat.flush(timeout=5)
            return [message for (kind, _), message in chat[before:] if kind == "game"]
        finally:
            bot.chat.close()

    return asyncio.run(run())


@pytest.mark.parametrize(
    ("watching", "start"), [(True, "The game is on."), (False, "Both decks are legal: starting.")]
)
def test_a_market_games_start_line_says_how_the_result_is_reported(
    tmp_path: Path, watching: bool, start: str
) -> None:
    rule = result_rule("market")
    assert rule.startswith("Result: a life at 0") and "a concession" in rule
    line = f"{start} {rule} Good luck!"
    said = started_market_game(tmp_path, watching=watching)
    assert line in said, said
    assert len(line) <= MAX_GAME_LINE  # one game line, never cut
