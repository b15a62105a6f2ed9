"""Combat Rules: card names as players type them (cards.typed): a card of the player's own hand, a permanent
in play, a creature a settled fight killed, with ``candidates`` and ``closest`` drawn only from the cards the
player sees (the other hand is hidden)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.combat import (
    CardDiscarded,
    CardLeftPlay,
    CombatConfig,
    CombatEngine,
    Discard,
    LeavePlay,
    StartGame,
)
from tests.formats.test_combat import A, B, deck, give, to_fights, to_play
from tests.formats.test_combat_fights import COURSER, WARRIOR, fight_engine, resolve
from tests.formats.typed_support import MINE, NEAR_MISSES, TYPED_AS_HELD, held_and_typed, refusal

THEIRS = ("Bogardan Hellkite", "Fireball")


def named_deck(prefix: str, names: tuple[str, ...]) -> list[CardFacts]:
    """``deck(prefix)`` with its first cards named ``names`` (instants of mana value 1)."""
    cards = deck(prefix)
    for position, name in enumerate(names):
        cards[position] = CardFacts(name, 1, types=("Instant",))
    return cards


def engine_with(mine: tuple[str, ...] = MINE, theirs: tuple[str, ...] = THEIRS) -> CombatEngine:
    """Setup, A's hand holding ``mine`` (and their deck's others), B's hand holding ``theirs``."""
    decks = (named_deck("A", mine), named_deck("B", theirs))
    engine = CombatEngine(CombatConfig.from_decks((A, B), decks, check_decks=False), seed=5)
    engine.apply(StartGame(None))
    give(engine, *mine, *theirs)
    return engine


def discarded(engine: CombatEngine, typed: Any) -> str:
    effects = engine.apply(Discard(A, typed))
    (discard,) = [e for e in effects if isinstance(e, CardDiscarded)]
    return discard.card.name


@pytest.mark.parametrize(
    ("typed", "card"),
    TYPED_AS_HELD,
)
def test_a_hand_card_named_as_typed_is_that_card(typed: str, card: str) -> None:
    assert discarded(engine_with(), typed) == card


def test_an_ambiguous_start_is_refused_with_both_candidates() -> None:
    error = refusal(engine_with(), Discard(A, "Shoc"))
    assert error.code == "no_such_card"
    assert error.details == {"card": "Shoc", "where": "hand", "candidates": ["Shock", "Shocking Grasp"]}


def test_a_typo_is_refused_with_the_closest_names() -> None:
    error = refusal(engine_with(), Discard(A, "Goblin Asault"))
    assert error.code == "no_such_card"
    assert error.details == {"card": "Goblin Asault", "where": "hand", "closest": ["Goblin Assault"]}


@pytest.mark.parametrize("typed", ["Bogardan Hellkite", "Bogardan", "Bogardan Helkite", "Fireball"])
def test_a_card_in_the_other_hand_is_refused_as_one_not_in_the_game(typed: str) -> None:
    hidden = refusal(engine_with(), Discard(A, typed))
    absent = refusal(engine_with(theirs=()), Discard(A, typed))
    assert hidden.code == absent.code == "no_such_card"
    assert hidden.details == absent.details
    assert set(hidden.details["closest"]) <= set(MINE) and "candidates" not in hidden.details


def test_a_permanent_in_play_is_named_by_a_start_whoever_controls_it() -> None:
    engine = fight_engine()
    to_play(engine, ("Centaur Courser",), ("Elvish Warrior",))
    error = refusal(engine, LeavePlay(A, "Elvish Warior", "used"))
    assert (error.code, error.details["where"], error.details["closest"]) == (
        "no_such_card",
        "play",
        ["Elvish Warrior"],
    )
    effects = engine.apply(LeavePlay(A, "elvish", "hand"))
    assert [(e.card.name, e.to) for e in effects if isinstance(e, CardLeftPlay)] == [
        ("Elvish Warrior", "hand")
    ]


def test_a_creature_a_settled_fight_killed_is_named_as_typed() -> None:
    engine = fight_engine((COURSER,), (WARRIOR,))
    to_play(engine, (COURSER.name,), (WARRIOR.name,))
    to_fights(engine)
    resolve(engine)  # the Warrior dies, to B's used pile
    warrior = next(i for i, c in enumerate(engine.config.cards) if c.name == WARRIOR.name)
    assert engine.settled_death_of(B, "ELVISH") == warrior
    assert engine.settled_death_of(B, "Elvish\u00a0Warrior") == warrior
    assert engine.settled_death_of(A, "Elvish") is None  # not A's creature
    error = refusal(engine, LeavePlay(B, "Elvish", "used"))
    assert (error.code, error.details["card"]) == ("settled_death", "Elvish Warrior")


NAMES = (
    *MINE,
    *NEAR_MISSES,
    '"Ach! Hans, Run!"',
)


@given(data=st.data(), curly=st.booleans())
def test_any_hand_card_typed_in_capitals_or_with_a_phone_apostrophe_is_that_card(
    data: st.DataObject, curly: bool
) -> None:
    hand, name, typed = held_and_typed(data, NAMES, curly)
    assert discarded(engine_with(mine=hand), typed) == name
