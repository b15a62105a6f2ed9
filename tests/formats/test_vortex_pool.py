"""Seed 001, Requirements: "a shuffled pool of cards containing spells and land as well as one of each basic
land per player". Seen: the bundled pool lists basics for five players, and a two-player game shuffled all
25 in (the shoe 15 basics too big)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.vortex import (
    BASIC_LAND_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    basics_short,
    pool_for_players,
)


def basic(name: str, *, snow: bool = False) -> CardFacts:
    supertypes = ("Basic", "Snow") if snow else ("Basic",)
    return CardFacts(name=("Snow-Covered " + name) if snow else name, supertypes=supertypes, types=("Land",))


def test_the_bundled_pool_holds_one_of_each_basic_per_player() -> None:
    block = load_block("vortex-pool", sections=None)
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        kept = [block.facts[i] for i in pool_for_players(block.facts, players)]
        counts = Counter(card.name for card in kept)
        assert {name: counts[name] for name in BASIC_LAND_NAMES} == dict.fromkeys(BASIC_LAND_NAMES, players)
        assert len(kept) == len(block) - 5 * (MAX_PLAYERS - players)  # 210 cards for two, 225 for five
        assert basics_short(block.facts, players) == ()


def test_other_cards_and_other_basics_stay_in_pool_order() -> None:
    spell = CardFacts(name="Shock", types=("Instant",))
    cards = (
        basic("Forest"),
        spell,
        basic("Forest"),
        basic("Forest", snow=True),
        basic("Forest"),
        basic("Plains"),
    )
    assert pool_for_players(cards, 2) == (0, 1, 2, 3, 5)
    assert basics_short(cards, 2) == ("Plains", "Island", "Swamp", "Mountain")


@given(
    st.lists(st.sampled_from([*BASIC_LAND_NAMES, "Shock", "Wastes"]), max_size=40),
    st.integers(MIN_PLAYERS, MAX_PLAYERS),
)
def test_only_surplus_basics_leave(names: list[str], players: int) -> None:
    cards = tuple(
        basic(n)
        if n in BASIC_LAND_NAMES
        else CardFacts(name=n, types=("Land",) if n == "Wastes" else ("Instant",))
        for n in names
    )
    kept = pool_for_players(cards, players)
    assert list(kept) == sorted(set(kept))
    before, after = Counter(names), Counter(cards[i].name for i in kept)
    for name, count in before.items():
        assert after[name] == (min(count, players) if name in BASIC_LAND_NAMES else count)
