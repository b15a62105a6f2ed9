"""AutoBattler's roll opens a new pack (seed 003, Drafting): with nothing left in the cube it is refused and
costs nothing, instead of spending a treasure on an empty shop."""

from __future__ import annotations

import copy

import pytest

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.autobattler import AutoBattlerConfig, AutoBattlerEngine, Roll
from cockatrice_ext.formats.base import RulesError
from cockatrice_ext.formats.league import Start

FOUR = ("ann", "bob", "cat", "dan")


def small_engine(extra: int) -> AutoBattlerEngine:
    """An engine after its start whose cube holds ``extra`` cards (the start deals 48 to four players)."""
    cube = tuple(CardFacts(name=f"Cube Card {i}", colors=("WUBRG"[i % 5],)) for i in range(48 + extra))
    engine = AutoBattlerEngine(AutoBattlerConfig(players=FOUR, cards=cube), seed=5)
    engine.apply(Start(None))
    assert len(engine.cube) == extra
    return engine


def test_roll_with_an_empty_cube_is_refused_and_costs_nothing() -> None:
    engine = small_engine(0)
    assert not engine.cube and engine.treasures["ann"] >= 1
    before = copy.deepcopy(engine.snapshot())
    with pytest.raises(RulesError) as err:
        engine.apply(Roll("ann"))
    assert err.value.code == "cube_empty"
    assert engine.snapshot() == before


def test_roll_with_a_short_cube_still_opens_what_is_left() -> None:
    engine = small_engine(2)
    old = engine.shop("ann")
    engine.apply(Roll("ann"))
    assert len(engine.shop("ann")) == 2 and not set(old) & set(engine.shop("ann"))
    assert not engine.cube
