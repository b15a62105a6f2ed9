"""A league game's result line is never lost with its game.

A game line waits for the connection's one chat budget like every other line (a field run's loser waited 30 s
for "X is at 0 life: Y wins" while the next draft phase's shops went first: its fair turn came in the third
window or later). Leaving the game drops what its chat still holds: ``LeagueGame.leave`` (the room needs the
game's slot for a new game at the server's game limit, or the referee's stay ends) waited for the game's chat
at most a minute (``GameReferee.flush_chat``), then kicked the players and left, so under a budget spent that
long the players never read who won their game there. Now the players of the pairing hear the result
privately (kept for a player who is offline) before they are kicked, whenever the game's chat still holds it.

The chat runs on a simulated clock (``test_chat_budget``) with a budget that has no room for any line for
:data:`BUDGET_BACK` seconds, so the minutes of waiting run at once and the same way every time.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from league_game_stand_in import games_open_at_once
from test_league_lobby import ROOM

from cockatrice_ext.bot.chat import ChatScheduler, Destination
from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.web.demo import demo_bot, seat_game
from tests.bot.test_chat_budget import now, run_simulated

PLAYERS = ("al", "bo", "cy", "di")
GAME = 99
BUDGET_BACK = 400.0
"""Simulated seconds, from the result on, until the chat budget has room again: longer than the referee's
stay in a finished game (``LINGER_SECONDS``) and than every wait of its leave."""

Sent = list[tuple[float, Destination, str]]


async def decided_then_left(
    tmp_path: Path, *, leave: bool, spent: float = BUDGET_BACK
) -> tuple[Sent, list[float], tuple[str, str], str]:
    """An AutoBattler league's first mini-game (al, bo, cy and di draft, then a pairing plays in game
    :data:`GAME`, the referee its host) is decided at 0 life while the chat budget has no room for ``spent``
    seconds; ``leave``: the referee then leaves it at once, as the runtime does when the server's game limit
    needs the slot (else it stays, lingering). Returns what left for the server (when, where, what), when
    the players were kicked, the pairing, and the result's words."""
    sent: Sent = []
    kicked: list[float] = []
    spent_until = [0.0]

    async def send(destination: Destination, message: str) -> None:
        sent.append((now(), destination, message))

    def delay(_destination: Destination, _message: str) -> float:
        return max(0.0, spent_until[0] - now())

    async def game_commands(game_id: int, commands: list[Any], **_: Any) -> None:
        if game_id == GAME and any("Command_KickFromGame" in command_names(c) for c in commands):
            kicked.append(now())

    bot = demo_bot(tmp_path / "journal.sqlite3", send)
    bot.chat = ChatScheduler(send, delay)
    bot.client.game_commands = game_commands  # type: ignore[method-assign]
    room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", seed=3))
    bot.room_referees.append(room)
    try:
        for user in PLAYERS:
            assert await room.handle_command(Context(bot, "room", user, room_id=ROOM), "!autobattler join")
        assert await room.handle_command(Context(bot, "room", PLAYERS[0], room_id=ROOM), "!autobattler start")
        (league,) = room.leagues
        for player in PLAYERS:
            await league.perform(league.table.apply(ab.EndDraft(player=player)))
        match = next(m for m in league.engine.league.current_matches() if len(m.players) == 2)
        winner, loser = match.players
        stand_in = next(g for g in league.games.values() if set(g.players) == set(match.players))
        del league.games[stand_in.game_id]  # the pairing plays in a game of the referee's own
        seat_game(bot, GAME, [winner, loser])
        game = LeagueGame(bot, league, GAME, match.round, tuple(match.players))
        league.games[GAME] = game
        bot.adopt_game(game)
        await bot.chat.flush(timeout=600)
        spent_until[0] = now() + spent  # every line from here on waits for the budget
        await game.decide(winner=winner, reason=f"{loser} is at 0 life")
        assert game.finished
        if leave:
            await game.leave()  # the runtime's _create_game, at the server's game limit
            assert kicked, "the finished game was not closed (its players kicked)"
        await asyncio.sleep(spent + 60)
        await bot.chat.flush(timeout=600)
        return sent, kicked, (winner, loser), f"{loser} is at 0 life: {winner} wins."
    finally:
        bot.chat.close()


def command_names(command: Any) -> list[str]:
    """The command messages a ``GameCommand`` wrapper carries (``Command_KickFromGame``...)."""
    return [field.full_name.rsplit(".", 2)[-2] for field, _ in command.ListFields()]


@pytest.fixture(autouse=True)
def stand_in_games(monkeypatch: pytest.MonkeyPatch) -> None:
    games_open_at_once(monkeypatch)


def test_a_result_still_waiting_for_the_budget_reaches_the_players_before_their_game_closes(
    tmp_path: Path,
) -> None:
    """The game is closed for a new one while its result line waits for the budget: each player of the
    pairing reads the result privately (before: nowhere, the line was dropped with the game)."""
    sent, kicked, pairing, result = run_simulated(lambda: decided_then_left(tmp_path, leave=True))
    in_game = [m for at, d, m in sent if d == ("game", GAME) and at <= min(kicked)]
    assert not any(result in m for m in in_game)  # the budget had no room before the kicks
    told = {d[1]: m for _, d, m in sent if d[0] == "user" and result in m}
    assert sorted(told) == sorted(pairing), sent  # so both players of the pairing read it privately
    assert all(f"Game #{GAME} " in m for m in told.values()), told  # with which game it was


def test_a_result_line_that_waits_while_the_game_lingers_is_said_in_the_game_alone(tmp_path: Path) -> None:
    """The budget has room again within the referee's stay in the finished game (a minute): the result
    waits in the game's chat and is said there, once (no private copy)."""
    sent, _, _, result = run_simulated(lambda: decided_then_left(tmp_path, leave=False, spent=60.0))
    assert any(result in m for _, d, m in sent if d == ("game", GAME)), sent
    assert not any(result in m for _, d, m in sent if d[0] == "user"), sent
