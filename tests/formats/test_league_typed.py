"""The league core: card names as players type them (cards.typed) in a ring draft's pick (the picker's own
pack), among a pool (a trade-in's pay), and a deck's names counted against the pool (whole cards only)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.base import RulesError
from cockatrice_ext.formats.league import Draft, League, Pick, resolve_card
from tests.formats.typed_support import MINE, NEAR_MISSES, TYPED_AS_HELD, held_and_typed

THEIRS = ("Bogardan Hellkite", "Fireball", "Mikaeus, the Lunarch")


def draft_with(mine: tuple[str, ...] = MINE, theirs: tuple[str, ...] = THEIRS) -> tuple[Draft, League]:
    """A two-seat ring draft: ann opens a pack of ``mine``, bob one of ``theirs``."""
    cards = tuple(CardFacts(name=name) for name in (*mine, *theirs))
    league = League(("ann", "bob"), cards)
    packs = [[list(range(len(mine))), list(range(len(mine), len(cards)))]]
    draft = Draft("t", league, ("ann", "bob"), packs)
    draft.open_next()
    return draft, league


def picked(typed: str, mine: tuple[str, ...] = MINE) -> str:
    draft, league = draft_with(mine)
    draft.pick(Pick("ann", typed))
    return league.cards[league.pools["ann"][-1]].name


def refusal(draft: Draft, typed: str) -> RulesError:
    with pytest.raises(RulesError) as info:
        draft.pick(Pick("ann", typed))
    return info.value


@pytest.mark.parametrize(
    ("typed", "card"),
    TYPED_AS_HELD,
)
def test_a_pick_by_name_as_typed_gets_the_card(typed: str, card: str) -> None:
    assert picked(typed) == card


def test_an_ambiguous_start_is_refused_with_both_candidates() -> None:
    draft, league = draft_with()
    error = refusal(draft, "Shoc")
    assert (error.code, error.details) == (
        "card_not_found",
        {"card": "Shoc", "candidates": ["Shock", "Shocking Grasp"]},
    )
    assert league.pools["ann"] == [] and draft.pending("ann") == list(range(len(MINE)))


def test_a_typo_is_refused_with_the_closest_names() -> None:
    error = refusal(draft_with()[0], "Goblin Asault")
    assert (error.code, error.details) == (
        "card_not_found",
        {"card": "Goblin Asault", "closest": ["Goblin Assault"]},
    )


@pytest.mark.parametrize(
    "typed", ["Bogardan Hellkite", "Bogardan", "Bogardan Helkite", "Mikaeus", "Fireball"]
)
def test_a_card_in_another_seats_pack_is_refused_as_one_not_in_the_game(typed: str) -> None:
    hidden = refusal(draft_with()[0], typed)
    absent = refusal(draft_with(theirs=("Filler A", "Filler B", "Filler C"))[0], typed)
    assert hidden.code == absent.code == "card_not_found"
    assert hidden.details == absent.details
    assert set(hidden.details["closest"]) <= set(MINE) and "candidates" not in hidden.details


def pool_league(names: tuple[str, ...]) -> League:
    league = League(("ann", "bob"), tuple(CardFacts(name=name) for name in names))
    league.pools["ann"] = list(range(len(names)))
    return league


def test_paying_with_named_cards_takes_each_copy_once() -> None:
    league = pool_league(("Fire // Ice", "Fireball", "Sovereign's Bite", "Sovereign's Bite", "Shock"))
    assert league.resolve_owned("ann", ["fire", "Sovereign\u2019s Bite", "sovereign's bite"]) == [0, 2, 3]
    with pytest.raises(RulesError) as info:  # one Fire // Ice: a second "Fire" is not the Fireball
        league.resolve_owned("ann", ["Fire", "Fire"])
    assert (info.value.code, info.value.details) == ("card_not_found", {"card": "Fire"})
    with pytest.raises(RulesError) as info:
        league.resolve_owned("ann", ["Shok"])
    assert info.value.details == {"card": "Shok", "closest": ["Shock"]}


def test_a_decks_names_count_against_the_pool_as_whole_cards() -> None:
    league = pool_league(("Delver of Secrets // Insectile Aberration", "Lim-Dûl's Vault", "Shocking Grasp"))
    deck = ["Delver of Secrets", "Lim-Dul\u2019s Vault", "Island", "Island"]
    assert league.missing_from_pool("ann", deck, free=("Island",)) == []
    problems = league.missing_from_pool("ann", ["Shock", "LIM-DUL'S VAULT", "lim-dûl's vault"])  # no start
    assert [(p.name, p.expected, p.actual) for p in problems] == [("Lim-Dûl's Vault", 2, 1), ("Shock", 1, 0)]
    assert league.missing_from_pool("ann", ["Insectile Aberration", "“Shocking Grasp”"]) == []


NAMES = (
    *MINE,
    *NEAR_MISSES,
    '"Ach! Hans, Run!"',
    "Mikaeus, the Lunarch",
)


@given(data=st.data(), curly=st.booleans())
def test_any_card_typed_in_capitals_or_with_a_phone_apostrophe_is_that_card(
    data: st.DataObject, curly: bool
) -> None:
    names, name, typed = held_and_typed(data, NAMES, curly, max_size=8)
    cards = tuple(CardFacts(name=n) for n in names)
    assert cards[resolve_card(cards, typed, range(len(cards)))].name == name
    assert picked(typed, names) == name
