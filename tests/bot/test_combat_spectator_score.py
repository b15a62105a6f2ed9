"""A spectator asking ``!score`` in a Combat game is told the score.

Seen in the field (tests/field/test_combat_games_field.py): a spectator's game-chat answer is cut to its
first sentence, and ``!score``'s first sentence was the round and the spell cap, "Round 1/3, spells up to 1,
miranda_cg's turn (main)." with no points at all. A spectator's answer now carries the points, with the
round and whose turn, in that first sentence.
"""

from __future__ import annotations

import asyncio

from test_combat_answers_words import ALICE, ZOE, engine_for
from test_combat_drawn_as_they_leave import chatting_referee, parts
from test_combat_held_lines import GAME, SEATS, let_go

from cockatrice_ext.bot.combat import DeckVerdict
from cockatrice_ext.client.mirror import PlayerState
from cockatrice_ext.formats import combat as rules

SPECTATOR = 50


def test_a_spectator_asking_the_score_is_told_the_points(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict)
    referee, sent, budget = chatting_referee(engine)
    referee.mirror.players[SPECTATOR] = PlayerState(SPECTATOR, name="norbert_cg", spectator=True)
    referee.engine_names = {ALICE: "lorenzo_cg", ZOE: "miranda_cg"}  # names as long as the field's

    async def scenario() -> None:
        await referee.perform(engine.apply(rules.DeclareFight(player=ALICE, slot=0)))
        await referee.perform(engine.apply(rules.ResolveFight(player=ALICE)))
        await referee.on_chat(SPECTATOR, "!score")
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    (answer,) = [part for part in parts(sent, ("game", GAME)) if "Points:" in part or "Round 1/" in part]
    assert answer == "Points: lorenzo_cg 0, miranda_cg 0 (round 1/10, lorenzo_cg's turn).", answer


def test_a_player_asking_the_score_is_told_it_all(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict)
    referee, sent, budget = chatting_referee(engine)

    async def scenario() -> None:
        await referee.on_chat(SEATS[ALICE], "!score")
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    assert [part for part in parts(sent, ("game", GAME)) if "Points:" in part] == [referee.score_line()]
