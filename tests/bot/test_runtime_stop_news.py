"""A stop tells every refereed game, however full the chat budget is.

Seen in the field: a SIGTERM while the referee ran eleven games, each table's chat busy, told no game at all:
the stop queued one chat line per game behind the answers already waiting and waited 3 s, and the chat
budget (10 messages and 1000 characters per 10 s per connection) had no room in that time. Now each game's
stop line is also shown on a note card on the referee's table (a game command, outside the chat budget),
the room gets one line naming every game ahead of anything queued, and the stale lines are dropped.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_runtime import GAME, ROOM
from test_stop_quickly import ClosableClient, serve_and_stop

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.referee import GameReferee
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client._wire import command_name
from cockatrice_ext.web.demo import demo_bot, seat_game

GAMES = 11


@dataclass
class RecordingClient(ClosableClient):
    """The stand-in client recording the game commands and room lines it is given."""

    commands: list[tuple[int, Any]] = field(default_factory=list)
    room_lines: list[tuple[int, str]] = field(default_factory=list)
    game_lines: list[tuple[int, str]] = field(default_factory=list)

    async def game_commands(self, game_id: int, commands: list[Any], **_: Any) -> None:
        self.commands.extend((game_id, command) for command in commands)

    async def room_say(self, room_id: int, text: str) -> None:
        self.room_lines.append((room_id, text))

    async def game_say(self, game_id: int, text: str) -> None:
        self.game_lines.append((game_id, text))


async def refereeing(path: Path, games: int) -> Bot:
    """A stand-in bot refereeing ``games`` started Vortex games, its chat budget spent (every line waits)."""

    async def send(destination: Any, message: str) -> None:
        return None

    bot = demo_bot(path, send)
    pool = load_block("vortex-pool", sections=None)
    for game_id in range(GAME, GAME + games):
        seat_game(bot, game_id, ["alice", "bob"])
        referee = VortexReferee(bot, game_id, ROOM, VortexOptions(seed=5), pool)
        bot.adopt_game(referee)
        await referee.start_engine()
    await bot.chat.flush(timeout=5)
    bot.chat = ChatScheduler(send, lambda _destination, _message: 3600.0)
    bot.client = RecordingClient(games=bot.client.games)
    return bot


def test_a_stop_with_the_chat_budget_spent_tells_every_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eleven games, the chat scheduler's budget spent (every queued line waits): each game gets a note card
    saying the referee stops and what becomes of it, the room a line naming every game, and each game's
    line goes to the client (which paces it by the server's budget) instead of waiting behind the queue."""
    monkeypatch.setattr(Bot, "STOP_WAIT", 0.3)
    monkeypatch.setattr(Bot, "STOP_WAIT_MAX", 0.5, raising=False)
    monkeypatch.setattr(Bot, "start", lambda self: asyncio.sleep(0))

    bot = asyncio.run(refereeing(tmp_path / "journal.sqlite3", GAMES))
    serve_and_stop(bot)
    client = bot.client
    assert isinstance(client, RecordingClient)
    noted = {
        game_id
        for game_id, command in client.commands
        if command_name(command) == "Command_CreateToken" and "The referee is stopping" in str(command)
    }
    assert noted == set(range(GAME, GAME + GAMES)), noted
    said = " ".join(text for room_id, text in client.room_lines if room_id == ROOM)
    assert said.startswith("The referee is stopping"), client.room_lines
    assert all(f"#{game_id}" in said for game_id in range(GAME, GAME + GAMES)), said
    told = {game_id for game_id, text in client.game_lines if text.startswith("The referee is stopping")}
    assert told == set(range(GAME, GAME + GAMES)), client.game_lines  # the client paces them, not the queue


def test_the_room_line_names_games_together_by_what_becomes_of_them() -> None:
    """One room line names the games whose fate reads the same together; more games than fit in one take
    more lines."""
    from cockatrice_ext.bot.runtime import stopping_room_lines

    stop = GameReferee.STOPPING
    kept = f"{stop} this game is kept: it keeps its seat and resumes here when it is back."
    lines = stopping_room_lines(
        [
            (5, kept),
            (3, kept),
            (9, f"{stop} this game had not started, so nothing is kept: ask for a new game later."),
        ]
    )
    assert lines == [
        "The referee is stopping (the operator's choice): Games #3, #5: each game is kept: it keeps its seat"
        " and resumes here when it is back. Game #9: this game had not started, so nothing is kept: ask for a"
        " new game later."
    ]
    resume = [(n, f"{stop} this game is kept: when it is back, say !resume {n} in the room.") for n in (1, 2)]
    assert "say !resume and the game's number in the room" in stopping_room_lines(resume)[0]
    many = stopping_room_lines([(n, f"{stop} fate {n} " + "x" * 60) for n in range(1, 12)])
    assert len(many) > 1 and all(len(line) <= 300 for line in many)
    assert all(f"#{n}:" in " ".join(many) for n in range(1, 12))
