"""A Combat player whose connection drops mid-game (a registered player: Servatrice keeps the seat and tells
nobody). Left alone before: the game stalled with no word, and the absence line said "the rules have no way
to go on without them: wait for them", while ``!drop`` (offered by every format's help) failed. Now the
table hears at once that the game waits, for how long, and what then: after the stated wait the present
player may claim the game with ``!drop NAME``, which the rules read as the away player leaving (the one who
leaves loses, whatever the points: ``RemovePlayer``). No server and no clock: the wait is the runtime's
(:data:`~cockatrice_ext.bot.referee.ABSENT_SECONDS`, tested there); here ``!drop`` comes after it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from test_combat_answers_words import ALICE, ZOE, engine_for
from test_combat_held_lines import GAME, SEATS, held_referee, let_go

from cockatrice_ext.bot.referee import GameReferee

WAITING = (
    "zoe's connection dropped; the game waits for them (their seat is kept). If it stays gone 3 minutes,"
    " alice may say !drop zoe: zoe leaves the game and alice wins it."
)


async def runtime_part_left_out(self: GameReferee, event: object) -> None:
    """:meth:`GameReferee.on_connection_changed` (the missed lines, the runtime's absence clock): not here."""


def game_lines(sent: list[tuple[Any, str]]) -> list[str]:
    return [part for where, message in sent if where == ("game", GAME) for part in message.split(" | ")]


def test_the_table_hears_at_once_that_the_game_waits_and_what_the_other_may_do(
    verdict: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(GameReferee, "on_connection_changed", runtime_part_left_out)
    engine = engine_for(verdict)
    referee, sent, budget = held_referee(engine)
    seat = referee.mirror.players[SEATS[ZOE]]
    event = SimpleNamespace(player_id=SEATS[ZOE])

    async def scenario() -> None:
        for ping in (-1, -1, 0):  # dropped (the server may say it twice), then back
            seat.ping_seconds = ping
            await referee.on_connection_changed(event)
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    assert game_lines(sent) == [WAITING, "zoe is back; the game goes on."]


def test_the_absence_line_offers_the_claim(verdict: Any) -> None:
    referee, _, _ = held_referee(engine_for(verdict))
    assert referee.absent_choices("zoe") == (
        "If they are not back, alice may say !drop zoe: zoe leaves the game and alice wins it."
    )


def test_drop_ends_the_game_as_the_away_player_leaving(verdict: Any) -> None:
    engine = engine_for(verdict)
    referee, sent, budget = held_referee(engine)
    finished: list[str] = []
    removed: list[int] = []

    async def finish(reason: str) -> None:
        finished.append(reason)

    async def remove_dropped(player_id: int) -> None:
        removed.append(player_id)

    referee.finish = finish  # type: ignore[method-assign]
    referee.remove_dropped = remove_dropped  # type: ignore[method-assign]

    async def scenario() -> None:
        await referee.drop_out(SEATS[ZOE])
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    assert engine.is_over() and engine.winner == ALICE
    assert (engine.out, engine.out_reason) == (ZOE, "left")
    assert "Game over: zoe left; alice wins." in game_lines(sent)
    assert finished == ["game over: zoe left; alice wins"] and removed == [SEATS[ZOE]]
