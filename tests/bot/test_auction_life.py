"""``empty=life`` (seed 000's forum reply: "giving the win to the person with higher life total"): the referee
reads the players' life counters from the game, so the journal knows them when the block runs out.

Seen: with bob at 10 life and alice at 20, the block ran out and bob won on gold, because nothing ever told
the engine a life total (every player stayed at the starting 20, a tie settled by 90X.11's gold rule)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from test_typed_names_auction import ALICE, GAME, ZOE, block_of, referee_for

from cockatrice_ext.client import ClientEvent
from cockatrice_ext.client.mirror import CounterState
from cockatrice_ext.formats import auction as am
from cockatrice_ext.protocol.pb import game_events_pb2

BLOCK = "1 Grizzly Bears\n1 Shock\n1 Thrummingbird\n"


def set_counter(referee, seat: int, counter_id: int, name: str, value: int) -> None:  # type: ignore[no-untyped-def]
    """The server's ``Event_SetCounter`` for ``seat``, folded into the mirror first (as the client does)."""
    referee.mirror.players[seat].counters[counter_id] = CounterState(counter_id, name, value)
    message = game_events_pb2.Event_SetCounter(counter_id=counter_id, value=value)
    event = ClientEvent(kind="game", message=message, game_id=GAME, player_id=seat)
    asyncio.run(referee.on_counter_set(event))


def life_game(tmp_path: Path, rule: str = "higher_life_wins"):  # type: ignore[no-untyped-def]
    referee = referee_for(block_of(tmp_path, BLOCK))
    engine = am.AuctionEngine(
        am.AuctionConfig(
            players=(ALICE, ZOE), cards=referee.block.facts, shuffle_block=False, empty_block_rule=rule
        ),
        seed=1,
    )
    referee.table.engine = engine  # type: ignore[attr-defined]
    referee.table.apply = lambda action, action_id=None: engine.apply(action)  # type: ignore[attr-defined]
    engine.apply(am.BeginTurn(None, active=ALICE))
    return referee, engine


def test_the_highest_life_total_wins_when_the_block_runs_out(tmp_path: Path) -> None:
    referee, engine = life_game(tmp_path)
    set_counter(referee, ZOE, 0, "life", 10)
    set_counter(referee, ALICE, 0, "life", 17)
    assert engine.life == {ALICE: 17, ZOE: 10}
    engine.apply(am.Draw(ALICE, count=4))  # one more than the block holds
    assert engine.is_over() and engine.winners == (ALICE,)


def test_only_life_counters_count_and_only_where_life_decides(tmp_path: Path) -> None:
    referee, engine = life_game(tmp_path)
    set_counter(referee, ZOE, 2, "u", 5)  # a mana counter
    assert engine.life == {ALICE: 20, ZOE: 20}
    referee, engine = life_game(tmp_path, rule="active_player_loses")
    set_counter(referee, ZOE, 0, "life", 3)
    assert engine.life == {ALICE: 20, ZOE: 20}  # nothing journaled where life decides nothing
