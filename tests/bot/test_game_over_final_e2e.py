"""Game over is final, on a real Servatrice: after a concession nothing more is played or journaled.

Seen by testers (Servatrice 3.1.0): in Magic Combat Rules, after ``Command_Concede`` the referee said "Game
over: zed conceded; abe wins." and then went on applying and journaling players' ``!ready`` and answering
``!state`` as if the game ran, for as long as it lingered. The concession finished the referee, not the
engine. Now every move after the game over gets "the game is over" (as Auction and Vortex answer), the
journal takes nothing more, and ``!state`` says the game is over.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_players import bot_line
from servatrice import ServatriceServer
from test_combat_bot import both_seated, combat_game, run, seed_for_setup

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import CombatOptions, check_cod
from cockatrice_ext.protocol import commands as pc

pytestmark = pytest.mark.servatrice


def test_after_a_concession_moves_are_refused_and_state_says_the_game_is_over(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """bob concedes in Cockatrice: the game is over; alice's ``!ready`` and ``!life -1`` are answered "the
    game is over" and journal nothing; ``!state`` says the game is over."""
    legal = load_block("combat-deck", sections=None).cod
    facts = check_cod(legal).facts
    assert facts is not None

    async def scenario() -> None:
        options = CombatOptions(seed=seed_for_setup(facts))
        bot, players, room_id, game_id, referee = await combat_game(
            servatrice, tmp_path / "journal.sqlite3", "combat_over_ref", options, ("alice_go", "bob_go")
        )
        alice, bob = players
        try:
            await both_seated(alice, bob, room_id, game_id, legal)
            mark = alice.mark()
            await bob.client.game_command(game_id, pc.concede())
            await bot_line(alice, r"Game over: bob_go conceded; alice_go wins", mark)
            journaled = len(list(bot.journal.entries(referee.table_key)))
            for move in ("!ready", "!life -1"):
                mark = alice.mark()
                await alice.say(game_id, move)
                answer = await bot_line(alice, r"^alice_go: ", mark)
                assert answer == "alice_go: the game is over", answer
            assert len(list(bot.journal.entries(referee.table_key))) == journaled
            mark = alice.mark()  # right before the question
            await alice.say(game_id, "!state")
            state = await bot_line(alice, r"\bPoints: .*\bLife: ", mark)  # the state line's own words
            assert "game is over" in state.lower(), state
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)
