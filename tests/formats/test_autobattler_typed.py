"""AutoBattler: card names as players type them (cards.typed) in a shop swap (the player's own shop and
pool; another player's shop is hidden), and a deck's names against the command zone (whole cards only)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats.autobattler import AutoBattlerConfig, AutoBattlerEngine, Swap, Swapped
from cockatrice_ext.formats.league import Start
from tests.formats.test_autobattler import CUBE, FOUR
from tests.formats.typed_support import refusal


def started(names: dict[int, str] | None = None) -> AutoBattlerEngine:
    """A started league, its cube's cards renamed by ``names`` (index -> name; names play no part in
    dealing, so every card lands where it does without them)."""
    cards = list(CUBE)
    for index, name in (names or {}).items():
        cards[index] = dataclasses.replace(cards[index], name=name)
    engine = AutoBattlerEngine(AutoBattlerConfig(players=FOUR, cards=tuple(cards)), seed=3)
    engine.apply(Start(None))
    return engine


_FIRST = started()
SHOP, POOL, BOBS = _FIRST.shop("ann"), _FIRST.pool("ann"), _FIRST.shop("bob")
NAMED = {
    SHOP[0]: "Delver of Secrets // Insectile Aberration",
    SHOP[1]: "Shock",
    SHOP[2]: "Shocking Grasp",
    SHOP[3]: "Goblin Assault",
    POOL[0]: "Sovereign's Bite",
    POOL[1]: "Lim-Dûl's Vault",
    POOL[2]: "Fire // Ice",
    BOBS[0]: "Bogardan Hellkite",
    BOBS[1]: "Fireball",
}


def swapped(engine: AutoBattlerEngine, shop: Any, pool: Any) -> tuple[str, str]:
    effects = engine.apply(Swap("ann", shop, pool))
    (swap,) = [e for e in effects if isinstance(e, Swapped)]
    return swap.taken_name, swap.given_name


@pytest.mark.parametrize(
    ("shop", "pool", "names"),
    [
        (
            "Delver of Secrets",
            "Sovereign\u2019s Bite",
            ("Delver of Secrets // Insectile Aberration", "Sovereign's Bite"),
        ),
        ("\u201cGob\u201d", "Lim-Dul's Vault", ("Goblin Assault", "Lim-Dûl's Vault")),
        ("SHOCK", "Fire", ("Shock", "Fire // Ice")),
        ('"Shocking Grasp"', "ice", ("Shocking Grasp", "Fire // Ice")),
    ],
)
def test_a_swap_names_its_cards_as_typed(shop: str, pool: str, names: tuple[str, str]) -> None:
    assert swapped(started(NAMED), shop, pool) == names


def test_an_ambiguous_start_is_refused_with_both_candidates() -> None:
    error = refusal(started(NAMED), Swap("ann", "Shoc", POOL[0]))
    assert (error.code, error.details) == (
        "not_in_shop",
        {"card": "Shoc", "candidates": ["Shock", "Shocking Grasp"]},
    )


def test_a_typo_is_refused_with_the_closest_names() -> None:
    error = refusal(started(NAMED), Swap("ann", "Goblin Asault", POOL[0]))
    assert (error.code, error.details) == (
        "not_in_shop",
        {"card": "Goblin Asault", "closest": ["Goblin Assault"]},
    )
    error = refusal(started(NAMED), Swap("ann", "Shock", "Sovereign's Bight"))
    assert (error.code, error.details) == (
        "card_not_found",
        {"card": "Sovereign's Bight", "closest": ["Sovereign's Bite"]},
    )


@pytest.mark.parametrize("typed", ["Bogardan Hellkite", "Bogardan", "Bogardan Helkite", "Fireball"])
def test_a_card_in_another_players_shop_is_refused_as_one_not_in_the_game(typed: str) -> None:
    elsewhere = refusal(started(NAMED), Swap("ann", typed, POOL[0]))
    absent = refusal(started({k: v for k, v in NAMED.items() if k not in BOBS}), Swap("ann", typed, POOL[0]))
    assert elsewhere.code == absent.code == "not_in_shop"
    assert elsewhere.details == absent.details
    assert "candidates" not in elsewhere.details
    assert not set(elsewhere.details["closest"]) & {"Bogardan Hellkite", "Fireball"}


def test_a_decks_command_zone_card_is_named_by_its_front_face() -> None:
    """Cockatrice writes a double-faced card by its front face: a command-zone card so written is still
    the command-zone card, not a fourth hand card from nowhere."""
    engine = started(NAMED)
    engine.items["ann"] = [SHOP[0]]  # as if drafted as an item
    hand = [engine.config.cards[c].name for c in engine.pool("ann")[3:6]]
    assert engine.check_deck("ann", [*hand, "Delver of Secrets"], (), ["Forest"] * 3, 1) == []
    problems = engine.check_deck("ann", [*hand, "Delver"], (), ["Forest"] * 3, 1)  # a start is no card
    assert [p.code for p in problems] == ["wrong_hand_size", "not_in_pool"]


POOL_NAMES = ("Sovereign's Bite", "Lim-Dûl's Vault", "Fire // Ice", "Fire", "Goblin Assault", "Goblin")


@settings(max_examples=25, deadline=None)
@given(data=st.data(), curly=st.booleans())
def test_any_pool_card_typed_in_capitals_or_with_a_phone_apostrophe_is_that_card(
    data: st.DataObject, curly: bool
) -> None:
    names = data.draw(st.lists(st.sampled_from(POOL_NAMES), min_size=1, max_size=5, unique=True))
    engine = started({**NAMED, **dict(zip(POOL, names, strict=False))})
    name = data.draw(st.sampled_from(names))
    typed = name.replace("'", "\u2019") if curly else name.upper()
    assert swapped(engine, SHOP[1], typed) == ("Shock", name)
