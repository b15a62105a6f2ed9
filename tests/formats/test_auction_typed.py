"""Auction: card names as players type them (cards.typed): ``!sell`` (a player's own cards), returning a card
to the block, the cast-or-keep choice, with ``candidates`` and ``closest`` drawn only from the cards the
action may mean (the block stays hidden, another player's cards are not the seller's)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.auction import (
    AuctionConfig,
    AuctionEngine,
    AuctionOwnCards,
    BeginTurn,
    Bid,
    Cast,
    Draw,
    Keep,
    Pass,
    ReturnToBlock,
)
from tests.formats.typed_support import MINE, NEAR_MISSES, TYPED_AS_HELD, held_and_typed, refusal

THEIRS = ("Bogardan Hellkite", "Fireball")
IN_BLOCK = ("Ancestral Recall", "Shockwave", "Filler 1", "Filler 2")


def engine_with(mine: tuple[str, ...] = MINE, theirs: tuple[str, ...] = THEIRS) -> AuctionEngine:
    """A turn of player 1, who holds ``mine``; player 2 holds ``theirs``; the block holds ``IN_BLOCK``."""
    names = mine + theirs + IN_BLOCK
    cards = tuple(CardFacts(name=name, types=("Instant",)) for name in names)
    engine = AuctionEngine(AuctionConfig(players=(1, 2), cards=cards, shuffle_block=False), seed=7)
    engine.apply(BeginTurn(None, active=1))
    if mine:
        engine.apply(Draw(1, count=len(mine)))
    if theirs:
        engine.apply(Draw(None, count=len(theirs), target=2))
    return engine


def sold(engine: AuctionEngine, typed: Any) -> str:
    effects = engine.apply(AuctionOwnCards(1, cards=(typed,)))
    (opened,) = [e for e in effects if isinstance(e, am.LotOpened)]
    (card,) = opened.cards
    return card.name


@pytest.mark.parametrize(
    ("typed", "card"),
    TYPED_AS_HELD,
)
def test_sell_by_name_as_typed_puts_that_card_up(typed: str, card: str) -> None:
    assert sold(engine_with(), typed) == card


def test_return_to_block_by_name_as_typed() -> None:
    engine = engine_with()
    effects = engine.apply(ReturnToBlock(1, card="Insectile Aberration", position="top"))
    assert [e.card.name for e in effects if isinstance(e, am.CardReturned)] == [
        "Delver of Secrets // Insectile Aberration"
    ]


def test_cast_or_keep_by_name_as_typed() -> None:
    engine = engine_with(mine=(), theirs=())
    engine.apply(am.AuctionFromBlock(None, count=2))  # Ancestral Recall and Shockwave up together
    engine.apply(Bid(1, amount=1))
    engine.apply(Pass(2))
    error = refusal(engine, Keep(1, card="Ancestarl Recall"))
    assert (error.code, error.details["closest"]) == ("missing_card", ["Ancestral Recall"])
    effects = engine.apply(Cast(1, card="shockw"))
    assert [e.card.name for e in effects if isinstance(e, am.CardCast)] == ["Shockwave"]
    effects = engine.apply(Keep(1, card="ANCESTRAL RECALL"))
    assert [e.card.name for e in effects if isinstance(e, am.CardKept)] == ["Ancestral Recall"]


def test_an_ambiguous_start_is_refused_with_both_candidates() -> None:
    error = refusal(engine_with(), AuctionOwnCards(1, cards=("Shoc",)))
    assert error.code == "missing_card"
    assert error.details == {"card": "Shoc", "player": 1, "candidates": ["Shock", "Shocking Grasp"]}


def test_a_typo_is_refused_with_the_closest_names() -> None:
    error = refusal(engine_with(), AuctionOwnCards(1, cards=("Goblin Asault",)))
    assert error.code == "missing_card"
    assert error.details == {"card": "Goblin Asault", "player": 1, "closest": ["Goblin Assault"]}


@pytest.mark.parametrize(
    "typed", ["Bogardan Hellkite", "Bogardan", "Bogardan Helkite", "Ancestral Recall", "Shockwave"]
)
def test_a_card_the_seller_does_not_hold_is_refused_as_one_not_in_the_game(typed: str) -> None:
    """Another player's cards and the hidden block are not the seller's: no candidate or suggestion from
    them ("Shockwave" in the block does not make "Shock" ambiguous either)."""
    elsewhere = refusal(engine_with(), AuctionOwnCards(1, cards=(typed,)))
    cards = tuple(CardFacts(name=name, types=("Instant",)) for name in (*MINE, "Filler A", "Filler B"))
    absent_engine = AuctionEngine(AuctionConfig(players=(1, 2), cards=cards, shuffle_block=False), seed=7)
    absent_engine.apply(BeginTurn(None, active=1))
    absent_engine.apply(Draw(1, count=len(MINE)))
    absent = refusal(absent_engine, AuctionOwnCards(1, cards=(typed,)))
    assert elsewhere.code == absent.code == "missing_card"
    assert elsewhere.details == absent.details
    assert set(elsewhere.details["closest"]) <= set(MINE) and "candidates" not in elsewhere.details


def test_the_referee_finds_any_players_card_by_a_start() -> None:
    engine = engine_with()
    effects = engine.apply(ReturnToBlock(None, card="Bogar", position="bottom"))
    assert [(e.card.name, e.previous_owner) for e in effects if isinstance(e, am.CardReturned)] == [
        ("Bogardan Hellkite", 2)
    ]


NAMES = (
    *MINE,
    *NEAR_MISSES,
    '"Ach! Hans, Run!"',
)


@given(data=st.data(), curly=st.booleans())
def test_any_held_card_typed_in_capitals_or_with_a_phone_apostrophe_is_that_card(
    data: st.DataObject, curly: bool
) -> None:
    hand, name, typed = held_and_typed(data, NAMES, curly)
    assert sold(engine_with(mine=hand), typed) == name
