"""A stop does not drop a league game's result line that still waits for the chat budget.

A league game's result ("bo is at 0 life: al wins.", "Result recorded: al wins. ...") is journaled at once,
but its line waits for the connection's chat budget like every other. A stop then took the chat over for its
own news (closing the scheduler the result waited in) or dropped the game's stale lines: the players in the
game never heard who won there. Now such a line goes out with the stop news, ahead of the game's stop line.
No server needed: the stand-in client of ``cockatrice_ext.web.demo``, a real AutoBattler league and game.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from league_game_stand_in import a_pairing_in_the_referees_game, games_open_at_once
from test_league_lobby import ROOM
from test_runtime_stop_news import RecordingClient

from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.web.demo import demo_bot

GAME = 99


async def a_result_waiting(path: Path) -> tuple[Bot, LeagueGame, str]:
    """An AutoBattler league's first mini-game (al, bo, cy and di draft, then a pairing plays in game
    :data:`GAME`) decided at 0 life while the chat budget has no room for a line: the bot, the game and the
    result's words, which wait in the game's chat."""

    async def send(_destination: Any, _message: str) -> None:
        return None

    bot = demo_bot(path, send)
    game, winner, loser = await a_pairing_in_the_referees_game(bot, ROOM, GAME)
    await bot.chat.flush(timeout=5)
    bot.chat = ChatScheduler(send, lambda _destination, _message: 3600.0)  # every line from here on waits
    bot.client = RecordingClient(games=bot.client.games)
    await game.decide(winner=winner, reason=f"{loser} is at 0 life")
    result = f"{loser} is at 0 life: {winner} wins."
    assert game.finished
    assert bot.chat.queued(game.chat_destination, result)
    return bot, game, result


def test_a_league_games_result_still_waiting_goes_out_when_the_bot_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game is over (its result recorded), its result lines still wait for the budget when the operator
    stops the bot: the stop sends them to the game's chat (before: closed with the chat scheduler)."""
    games_open_at_once(monkeypatch)
    monkeypatch.setattr(Bot, "STOP_WAIT", 0.3)
    monkeypatch.setattr(Bot, "STOP_WAIT_MAX", 0.5, raising=False)
    monkeypatch.setattr(Bot, "start", lambda self: asyncio.sleep(0))

    async def run() -> tuple[RecordingClient, str, list[str]]:
        bot, _, result = await a_result_waiting(tmp_path / "journal.sqlite3")
        told: list[str] = []
        serving = asyncio.create_task(bot.run_forever(on_stop=told.append))
        await asyncio.sleep(0)
        bot.stop()
        await asyncio.wait_for(serving, 30)
        assert isinstance(bot.client, RecordingClient)
        return bot.client, result, told

    client, result, told = asyncio.run(run())
    assert told[-1] == "stopped"
    said = [text for game_id, text in client.game_lines if game_id == GAME]
    assert len(said) == 1 and said[0].startswith(result), client.game_lines  # once, the result first
    assert "Result recorded:" in said[0]


def test_a_games_stop_news_packs_its_lines_as_the_chat_merges_them() -> None:
    """A result line and the game's stop line make one message while they fit; a longer one goes apart."""
    from cockatrice_ext.bot.stopping import packed

    assert packed(["A wins.", "The referee is stopping."]) == ["A wins. | The referee is stopping."]
    long = "x" * 295
    assert packed(["A wins.", long]) == ["A wins.", long]
    assert packed([long]) == [long]
