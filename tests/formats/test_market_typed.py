"""Market Draft: card names as players type them (cards.typed) in a purchase: the market card (public) and
the cards traded in (the buyer's own pool), with ``candidates`` and ``closest`` from those alone."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats.league import Start
from cockatrice_ext.formats.market import Buy, CardBought, MarketConfig, MarketDraftEngine
from tests.formats.test_market import PLAYERS, balanced_cards, finish_draft, to_market
from tests.formats.typed_support import refusal


def at_market(names: dict[int, str] | None = None) -> MarketDraftEngine:
    """A league at its first market, its cards renamed by ``names`` (index -> name; names play no part in
    dealing, so the cards land where they do without them)."""
    cards = list(balanced_cards(4, 3, extra=5))
    for index, name in (names or {}).items():
        cards[index] = dataclasses.replace(cards[index], name=name)
    engine = MarketDraftEngine(MarketConfig(players=PLAYERS, rounds=3, cards=tuple(cards)), seed=7)
    engine.apply(Start(None))
    finish_draft(engine)
    to_market(engine)
    return engine


def layout() -> tuple[str, list[int], list[int], list[int]]:
    """The buyer, two uncommons of the market, ten of the buyer's commons sharing no colour with them, and a
    card of another player's pool."""
    engine = at_market()
    cards = engine.config.cards
    buyer = engine.whose_turn()
    assert buyer is not None
    uncommons = [c for c in engine.market if cards[c].rarity == "uncommon" and not cards[c].colors][:2]
    if len(uncommons) < 2:
        uncommons = [c for c in engine.market if cards[c].rarity == "uncommon"][:2]
    colors = {color for c in uncommons for color in cards[c].colors}
    commons = [
        c for c in engine.pool(buyer) if cards[c].rarity == "common" and not colors & set(cards[c].colors)
    ]
    other = engine.pool(next(p for p in PLAYERS if p != buyer))[:1]
    assert len(uncommons) == 2 and len(commons) >= 10 and engine.cost(uncommons[0]) == 10
    return buyer, uncommons, commons[:10], other


BUYER, UNCOMMONS, COMMONS, OTHER = layout()
NAMED = {
    UNCOMMONS[0]: "Delver of Secrets // Insectile Aberration",
    UNCOMMONS[1]: "Shocking Grasp",
    COMMONS[0]: "Sovereign's Bite",
    COMMONS[1]: "Lim-Dûl's Vault",
    COMMONS[2]: "Fire // Ice",
    COMMONS[3]: "Goblin Assault",
    OTHER[0]: "Bogardan Hellkite",
}


def rest(engine: MarketDraftEngine) -> tuple[str, ...]:
    return tuple(engine.config.cards[c].name for c in COMMONS[4:])


@pytest.mark.parametrize(
    "card", ["Delver of Secrets", "delver", '"Delver of Secrets // Insectile Aberration"']
)
def test_a_purchase_names_its_cards_as_typed(card: str) -> None:
    engine = at_market(NAMED)
    pay = ("Sovereign\u2019s Bite", "Lim-Dul's Vault", "Fire", "\u201cGob\u201d", *rest(engine))
    effects = engine.apply(Buy(BUYER, card, pay))
    (bought,) = [e for e in effects if isinstance(e, CardBought)]
    assert bought.name == "Delver of Secrets // Insectile Aberration"
    assert set(bought.paid) == set(COMMONS)


def test_an_ambiguous_start_is_refused_with_both_candidates() -> None:
    named = {**NAMED, UNCOMMONS[0]: "Shock"}
    engine = at_market(named)
    error = refusal(engine, Buy(BUYER, "Shoc", rest(engine)))
    assert (error.code, error.details) == (
        "not_in_market",
        {"card": "Shoc", "candidates": ["Shock", "Shocking Grasp"]},
    )
    error = refusal(engine, Buy(BUYER, "Shock", ("Sovereign", "Fire", "Fire")))  # one Fire // Ice
    assert (error.code, error.details) == ("card_not_found", {"card": "Fire"})


def test_a_typo_is_refused_with_the_closest_names() -> None:
    engine = at_market(NAMED)
    error = refusal(engine, Buy(BUYER, "Shocking Grap", rest(engine)))
    assert (error.code, error.details) == (
        "not_in_market",
        {"card": "Shocking Grap", "closest": ["Shocking Grasp"]},
    )
    error = refusal(engine, Buy(BUYER, "Shocking Grasp", ("Goblin Asault",)))
    assert (error.code, error.details) == (
        "card_not_found",
        {"card": "Goblin Asault", "closest": ["Goblin Assault"]},
    )


@pytest.mark.parametrize("typed", ["Bogardan Hellkite", "Bogardan", "Bogardan Helkite"])
def test_a_card_of_another_players_pool_is_refused_as_one_not_in_the_game(typed: str) -> None:
    elsewhere = at_market(NAMED)
    absent = at_market({k: v for k, v in NAMED.items() if k != OTHER[0]})
    errors = [refusal(engine, Buy(BUYER, "Shocking Grasp", (typed,))) for engine in (elsewhere, absent)]
    assert errors[0].code == errors[1].code == "card_not_found"
    assert errors[0].details == errors[1].details == {"card": typed, "closest": []}


POOL_NAMES = ("Sovereign's Bite", "Lim-Dûl's Vault", "Fire // Ice", "Goblin Assault", "Fire", "Goblin")


@settings(max_examples=20, deadline=None)
@given(data=st.data(), curly=st.booleans())
def test_any_pool_card_typed_in_capitals_or_with_a_phone_apostrophe_pays_with_that_card(
    data: st.DataObject, curly: bool
) -> None:
    names = data.draw(st.lists(st.sampled_from(POOL_NAMES), min_size=1, max_size=4, unique=True))
    engine = at_market({**NAMED, **dict(zip(COMMONS, names, strict=False))})
    name = data.draw(st.sampled_from(names))
    typed = name.replace("'", "\u2019") if curly else name.upper()
    (card,) = engine.league.resolve_owned(BUYER, [typed])
    assert engine.config.cards[card].name == name
