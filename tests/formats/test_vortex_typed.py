"""Vortex: card names as players type them (cards.typed): picks from the player's own pack, and cards out of
the draft, with ``candidates`` and ``closest`` drawn only from cards the player may see."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.vortex import Pick, PutInShoe, StartGame, VortexConfig, VortexEngine
from tests.formats.typed_support import MINE, NEAR_MISSES, TYPED_AS_HELD, held_and_typed, refusal

THEIRS = ("Bogardan Hellkite", "Fireball", "Mikaeus, the Lunarch")
FILLER = tuple(f"Filler {i}" for i in range(20))


def engine_with(mine: tuple[str, ...] = MINE, theirs: tuple[str, ...] = THEIRS) -> VortexEngine:
    """A started game whose player 1 is to pick from a pack of ``mine``; player 2's pack holds ``theirs``."""
    names = mine + theirs + FILLER
    cards = tuple(CardFacts(name=name, types=("Instant",)) for name in names)
    engine = VortexEngine(VortexConfig(players=(1, 2), cards=cards), seed=3)
    engine.apply(StartGame(None))
    engine.players[1].pack = list(range(len(mine)))
    engine.players[2].pack = list(range(len(mine), len(mine) + len(theirs)))
    engine.passed = []
    engine.shoe = list(range(len(mine) + len(theirs), len(names)))
    assert engine.pending_pick(1)
    return engine


def picked(engine: VortexEngine, choice: str) -> str:
    engine.apply(Pick(1, choice))
    return engine.config.cards[engine.players[1].owned[-1]].name


@pytest.mark.parametrize(
    ("typed", "card"),
    TYPED_AS_HELD,
)
def test_a_pick_by_name_as_typed_gets_the_card(typed: str, card: str) -> None:
    assert picked(engine_with(), typed) == card


def test_an_ambiguous_start_is_refused_with_both_candidates() -> None:
    error = refusal(engine_with(), Pick(1, "Shoc"))
    assert error.code == "no_such_card"
    assert error.details == {"card": "Shoc", "candidates": ["Shock", "Shocking Grasp"], "pack_size": 7}


def test_a_typo_is_refused_with_the_closest_names() -> None:
    error = refusal(engine_with(), Pick(1, "Goblin Asault"))
    assert error.code == "no_such_card"
    assert error.details == {"card": "Goblin Asault", "closest": ["Goblin Assault"], "pack_size": 7}


@pytest.mark.parametrize("typed", ["Bogardan Hellkite", "Bogardan", "Bogardan Helkite", "Fireball"])
def test_a_card_in_another_players_pack_is_refused_as_one_not_in_the_game(typed: str) -> None:
    """The other pack is hidden: the refusal (and its suggestions) is the one for a card not in the block,
    and "Fireball" (theirs) does not make "Fire" ambiguous or suggest itself."""
    hidden = refusal(engine_with(), Pick(1, typed))
    absent = refusal(engine_with(theirs=("Filler A", "Filler B", "Filler C")), Pick(1, typed))
    assert hidden.code == absent.code == "no_such_card"
    assert hidden.details == absent.details
    assert "candidates" not in hidden.details and "closest" in hidden.details
    assert not set(hidden.details["closest"]) & set(THEIRS)


def test_another_players_pick_is_found_by_its_whole_name_only() -> None:
    """Out of the draft, another player's picks may be in their hand: found by the whole name (as before,
    now also with a phone's apostrophe or an accent dropped), never by a start, never offered."""
    engine = engine_with()
    engine.players[2].owned = [engine.players[2].pack.pop(0)]  # Bogardan Hellkite
    engine.players[1].graveyard = [engine.players[1].pack.pop(0)]  # Sovereign's Bite, public
    for typed in ("Bogar", "Bogardan Helkite"):
        error = refusal(engine, PutInShoe(1, typed, "top"))
        assert error.code == "no_such_card"
        assert error.details == {"card": typed, "closest": []}
    error = refusal(engine, PutInShoe(1, "Sovereign's Bight", "top"))
    assert error.details == {"card": "Sovereign's Bight", "closest": ["Sovereign's Bite"]}
    engine.apply(PutInShoe(1, "BOGARDAN HELLKITE", "top"))
    assert engine.config.cards[engine.shoe[0]].name == "Bogardan Hellkite"
    engine.apply(PutInShoe(1, "Sovereign\u2019s", "bottom"))
    assert engine.config.cards[engine.shoe[-1]].name == "Sovereign's Bite"


def test_the_referee_finds_any_pick_by_a_start() -> None:
    engine = engine_with()
    engine.players[2].owned = [engine.players[2].pack.pop(0)]
    engine.apply(PutInShoe(None, "Bogar", "top"))
    assert engine.config.cards[engine.shoe[0]].name == "Bogardan Hellkite"


NAMES = (
    *MINE,
    *NEAR_MISSES,
    "Ach! Hans, Run!",
)


@given(data=st.data(), curly=st.booleans())
def test_any_card_of_the_pack_typed_in_capitals_or_with_a_phone_apostrophe_is_that_card(
    data: st.DataObject, curly: bool
) -> None:
    pack, name, typed = held_and_typed(data, NAMES, curly)
    assert picked(engine_with(mine=pack), typed) == name
