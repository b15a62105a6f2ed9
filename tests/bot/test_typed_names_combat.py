"""``!dies`` and ``!bounce`` name the player's own permanent as players type it (the smoke test found
``own_permanent`` compared names by case alone): a start of the name, a dropped accent, a phone's quote
marks; two of their permanents that fit are offered back."""

from __future__ import annotations

import pytest
from test_combat_wording import ALICE, ZOE, game, referee_for

from cockatrice_ext.bot.combat import DeckVerdict
from cockatrice_ext.bot.combat_commands import own_permanent
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import RulesError


def index_of(engine: rules.CombatEngine, name: str, seat: int) -> int:
    return next(
        i for i, c in enumerate(engine.config.cards) if c.name == name and engine.config.owners[i] == seat
    )


@pytest.mark.parametrize("typed", ["Centaur", "centaur courser ", "“Centaur Courser”", "Cëntaur Courser"])
def test_own_permanent_is_found_as_players_type_it(verdict: DeckVerdict, typed: str) -> None:
    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    assert own_permanent(engine, ALICE, typed) == index_of(engine, "Centaur Courser", 0)


def test_the_opponent_s_copy_is_not_taken(verdict: DeckVerdict) -> None:
    engine = game(verdict, "Centaur Courser", "Centaur Courser")
    assert own_permanent(engine, ZOE, "centaur") == index_of(engine, "Centaur Courser", 1)


def test_two_own_permanents_that_fit_are_offered_back(verdict: DeckVerdict) -> None:
    engine = game(verdict, "Savannah Lions", "Elvish Warrior")
    brontodon, mask = index_of(engine, "Ancient Brontodon", 0), index_of(engine, "Ancestral Mask", 0)
    for card in (brontodon, mask):  # test setup: both in play, alice's
        for zone in (engine.seats[0].draw_pile, engine.seats[0].hand, engine.seats[0].used):
            if card in zone:
                zone.remove(card)
    engine.seats[0].creatures[1] = brontodon
    engine.seats[0].auras.append((mask, 0, 1))
    with pytest.raises(RulesError) as info:
        own_permanent(engine, ALICE, "anc")
    from cockatrice_ext.bot.referee import Context
    from cockatrice_ext.bot.words import Refusal

    referee = referee_for(engine)
    ctx = Context(bot=None, scope="game", sender="alice")  # type: ignore[arg-type]
    assert referee.refusal(info.value, ctx) == Refusal("which one: Ancient Brontodon or Ancestral Mask?")


def test_an_unknown_target_player_is_refused_naming_the_players(verdict: DeckVerdict) -> None:
    from test_combat_wording import answers

    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    assert answers(referee_for(engine), "!cast 1 bob 2") == [
        "alice: no player called 'bob' in this game (alice or zoe)"
    ]
