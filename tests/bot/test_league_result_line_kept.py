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
from league_game_stand_in import a_pairing_in_the_referees_game, games_open_at_once
from test_league_lobby import ROOM

from cockatrice_ext.bot.chat import ChatScheduler, Destination
from cockatrice_ext.web.demo import demo_bot
from tests.bot.test_chat_budget import now, run_simulated

GAME = 99
BUDGET_BACK = 400.0
"""Simulated seconds, from the result on, until the chat budget has room again: longer than the referee's
stay in a finished game (``LINGER_SECONDS``) and than every wait of its leave."""

Sent = list[tuple[float, Destination, str]]


async def decided_then_left(
    tmp_path: Path, *, leave: bool, spent: float = BUDGET_BACK, left: list[float] | None = None
) -> tuple[Sent, list[float], tuple[str, str], str]:
    """An AutoBattler league's first mini-game (al, bo, cy and di draft, then a pairing plays in game
    :data:`GAME`, the referee its host) is decided at 0 life while the chat budget has no room for ``spent``
    seconds; ``leave``: the referee then leaves it at once, as the runtime does when the server's game limit
    needs the slot (else it stays, lingering; ``left`` gets when the leave was done). Returns what left for
    the server (when, where, what), when the players were kicked, the pairing, and the result's words."""
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
    try:
        game, winner, loser = await a_pairing_in_the_referees_game(bot, ROOM, GAME)
        await bot.chat.flush(timeout=600)
        spent_until[0] = now() + spent  # every line from here on waits for the budget
        await game.decide(winner=winner, reason=f"{loser} is at 0 life")
        assert game.finished
        if leave:
            await game.leave()  # the runtime's _create_game, at the server's game limit
            if left is not None:
                left.append(now())
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


def test_a_game_closed_for_a_new_one_frees_its_slot_without_waiting_for_the_busy_chat(tmp_path: Path) -> None:
    """Field (8-player AutoBattler, 5 games per account): a round-2 game waited about a minute for a slot.
    At the limit the runtime closes a finished game and waits for its slot at most 20 s (``SLOT_WAIT``), but
    the game's leave waited for its closing line, and then for the rest of its chat, behind a budget a busy
    referee's game lines take 20-50 s to get through: the slot came too late, and the pairing waited for the
    league's next try. Now the players are kicked and the game is left while the budget is still spent (the
    result reaches the pairing privately), so the slot is free before any of its lines could leave."""
    spent = 45.0  # less than the chat's own wait (60 s): the old leave waited for the line to leave
    left: list[float] = []
    sent, kicked, pairing, result = run_simulated(
        lambda: decided_then_left(tmp_path, leave=True, spent=spent, left=left)
    )
    in_game = [at for at, d, _ in sent if d == ("game", GAME)]
    assert kicked and left, (kicked, left)
    assert not [at for at in in_game if at <= max(left)], sent  # left before any game line could leave
    told = {d[1] for _, d, m in sent if d[0] == "user" and result in m}
    assert sorted(told) == sorted(pairing), sent
