"""Combat's ``!drop NAME``: the present player claims the game from one whose connection has been gone
:data:`~cockatrice_ext.bot.absent.ABSENT_SECONDS` (the table is told so at once: ``away_line``).

Before, Combat had no ``!drop`` command at all (the table was told to say it, and heard "unknown command
!drop"), and taking a seat out (``drop_out``) after the game was over still kicked the player from the
finished game. Now ``!drop`` takes the away player out as one who leaves (the other wins) while the game
goes on; once the game is over nobody is taken out or kicked, and the answer says the game is over, with its
result, as every other action's refusal does then. No server: the kick is the game command the referee
would send."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from test_combat_answers_words import ALICE, ZOE, engine_for
from test_combat_held_lines import GAME, held_referee, let_go

from cockatrice_ext.bot.absent import ABSENT_SECONDS
from cockatrice_ext.bot.combat import CombatReferee, DeckVerdict
from cockatrice_ext.bot.missed import MissedLines
from cockatrice_ext.client.mirror import PlayerState
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import RulesError
from cockatrice_ext.protocol import commands as pc


def game_lines(sent: list[tuple[Any, str]]) -> list[str]:
    return [part for where, message in sent if where == ("game", GAME) for part in message.split(" | ")]


def away_zoe(verdict: DeckVerdict) -> tuple[CombatReferee, list[tuple[Any, str]], dict[str, bool], list[Any]]:
    """A live game, alice's fights, zoe's connection gone (seat kept); the referee, what its chat sent, its
    budget switch, and the game commands it sent (a kick among them). Seats are the engine's players (as a
    game Combat starts seats them)."""
    referee, sent, budget = held_referee(engine_for(verdict))
    referee.mirror.players = {
        ALICE: PlayerState(ALICE, name="alice"),
        ZOE: PlayerState(ZOE, name="zoe", ping_seconds=-1),
    }
    commands: list[Any] = []

    async def game_commands(game_id: int, sent_commands: list[Any]) -> None:
        commands.extend(sent_commands)

    async def finish(reason: str, *, linger: float | None = None) -> None:
        referee.finished = referee.finished or reason

    referee.missed = MissedLines()  # what zoe missed, told to her as she is taken out
    referee.bot.client.game_commands = game_commands
    referee.bot.chat_load = lambda: 0.0
    referee.finish = finish  # type: ignore[method-assign]
    return referee, sent, budget, commands


def gone_long_enough(referee: CombatReferee) -> None:
    """zoe's connection has been gone a little longer than :data:`ABSENT_SECONDS` (the loop's clock)."""
    referee.absent_since[ZOE] = asyncio.get_running_loop().time() - ABSENT_SECONDS - 1


def test_drop_claims_the_game_from_the_away_player(verdict: DeckVerdict) -> None:
    referee, sent, budget, commands = away_zoe(verdict)

    async def scenario() -> None:
        gone_long_enough(referee)
        await referee.on_chat(ALICE, "!drop zoe")
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    engine = referee.engine
    assert engine.is_over() and (engine.out, engine.out_reason, engine.winner) == (ZOE, "left", ALICE)
    lines = game_lines(sent)
    assert "alice drops zoe, whose connection has been gone 3 minutes." in lines, lines
    assert "Game over: zoe left; alice wins." in lines, lines
    assert commands == [pc.kick_from_game(ZOE)]  # zoe's seat taken away


def test_drop_after_the_game_is_over_kicks_nobody_and_says_it_is_over(verdict: DeckVerdict) -> None:
    """zoe conceded (the game is over), then her connection went; alice's ``!drop zoe`` is refused."""
    referee, sent, budget, commands = away_zoe(verdict)
    referee.engine.apply(rules.RemovePlayer(player=None, target=ZOE, reason="conceded"))
    referee.finished = "game over: zoe conceded; alice wins"

    async def scenario() -> None:
        gone_long_enough(referee)
        await referee.on_chat(ALICE, "!drop zoe")
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    lines = game_lines(sent)
    assert lines == ["alice: the game is over: zoe conceded; alice wins"], lines
    assert commands == [] and referee.dropping == set()
    assert referee.engine.out_reason == "conceded"  # the result stands


def test_taking_a_seat_out_after_the_game_is_over_kicks_nobody(verdict: DeckVerdict) -> None:
    """The game ended (round ten, or a player went) while a ``!drop`` waited for the referee: the seat is not
    taken out, and the player is not kicked from the finished game."""
    referee, sent, budget, commands = away_zoe(verdict)
    referee.engine.apply(rules.RemovePlayer(player=None, target=ALICE, reason="left"))

    async def scenario() -> None:
        with pytest.raises(RulesError) as refused:
            await referee.drop_out(ZOE)
        assert refused.value.code == "game_over"
        await let_go(referee, budget, ("game", GAME), ("user", "zoe"))

    asyncio.run(scenario())
    assert commands == [] and referee.dropping == set()
    assert not any("took you out" in message for _, message in sent)
    assert (referee.engine.out, referee.engine.winner) == (ALICE, ZOE)
