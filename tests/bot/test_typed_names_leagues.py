"""League card names as players type them (smoke test against a real Servatrice, session 25).

Seen: ``!buy 1 with Slimefoot, the Stowaway`` paid with "Slimefoot" and "the Stowaway" (the comma list was
split on every comma), ``!swap Back for More for Shock`` took "Back" from the shop for "More for Shock", and
a loaded deck naming ``Legion’s Judgment`` (a phone's apostrophe) or ``Lim-Dul's Vault`` was "not in your
pool". Now lists and pairs are split where the names the player may mean fit (their pool, the market, the
shop), loaded decks' names are read as typed names are (whole or one face, never a mere start), and a
refusal offers the cards a typed name fits ("which one: A or B?") or nearly fits ("did you mean A?"),
privately.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from cockatrice_ext.bot.league_cards import canonical_names
from cockatrice_ext.bot.league_commands import buy_action, pay_refs, pick_action, split_two, swap_action
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.formats.base import RulesError
from tests.bot.test_league_bot import card, market_cards, say
from tests.bot.test_market_numbers import desk

TRICKY = ("Slimefoot, the Stowaway", "Back for More", "Shock", "Fight with Fire")


def renamed(cards: tuple[CardFacts, ...], names: dict[int, str]) -> tuple[CardFacts, ...]:
    return tuple(dataclasses.replace(c, name=names[i]) if i in names else c for i, c in enumerate(cards))


def market_with(names_for: Callable[[mk.MarketDraftEngine], dict[int, str]]) -> mk.MarketDraftEngine:
    """A two-player market in its market phase, some cards renamed (chosen from where they landed: the
    deal does not depend on names, so the same seed deals them to the same places)."""

    def build(cards: tuple[CardFacts, ...]) -> mk.MarketDraftEngine:
        engine = mk.MarketDraftEngine(mk.MarketConfig(players=("al", "bo"), rounds=2, cards=cards), seed=4)
        engine.apply(core.Start(player=None))
        while engine.phase == "draft":
            for player in ("al", "bo"):
                if engine.pack(player):
                    engine.apply(core.Pick(player=player, card=engine.pack(player)[0]))
        engine.apply(core.ReportResult(player=None, winner="al"))
        return engine

    plain = build(market_cards(2, 2))
    engine = build(renamed(market_cards(2, 2), names_for(plain)))
    assert engine.market == plain.market and engine.pool("al") == plain.pool("al")
    return engine


def name_of(engine: Any) -> Callable[[int], str]:
    return lambda index: engine.config.cards[index].name


def test_a_pool_name_with_a_comma_is_one_card_in_a_payment() -> None:
    engine = market_with(lambda e: {e.pool("al")[0]: "Slimefoot, the Stowaway", e.pool("al")[1]: "Shock"})
    pool = engine.pool("al")
    assert pay_refs("Slimefoot, the Stowaway", pool, name_of(engine)) == ("Slimefoot, the Stowaway",)
    assert pay_refs("slimefoot, the stowaway, Shock, 3", pool, name_of(engine)) == (
        "slimefoot, the stowaway",
        "Shock",
        pool[2],
    )
    buy = buy_action(
        "al", "1 with Slimefoot, the Stowaway, Shock", engine.market, pool, name_of=name_of(engine)
    )
    assert buy.pay == ("Slimefoot, the Stowaway", "Shock")
    try:  # the engine takes both names as the pool's cards (the price is the engine's business)
        engine.apply(buy)
    except RulesError as exc:
        assert exc.code not in ("card_not_found", "not_in_pool"), exc


def test_a_market_name_with_the_word_with_in_it_is_one_card() -> None:
    engine = market_with(lambda e: {e.market[0]: "Fight with Fire", e.pool("al")[0]: "Shock"})
    buy = buy_action(
        "al", "Fight with Fire with Shock", engine.market, engine.pool("al"), name_of=name_of(engine)
    )
    assert (buy.card, buy.pay) == ("Fight with Fire", ("Shock",))


def test_a_shop_name_with_for_in_it_is_one_card_in_a_swap() -> None:
    cards = tuple(card(f"Cube {i}", "common", (("W", "U", "B", "R", "G")[i % 5],)) for i in range(80))

    def build(pool: tuple[CardFacts, ...]) -> ab.AutoBattlerEngine:
        engine = ab.AutoBattlerEngine(ab.AutoBattlerConfig(players=("a", "b", "c", "d"), cards=pool), seed=9)
        engine.apply(core.Start(player=None))
        return engine

    plain = build(cards)
    shop, pool = plain.shop("a"), plain.pool("a")
    engine = build(
        renamed(cards, {shop[0]: "Back for More", pool[0]: "Shock", pool[1]: "Mikaeus, the Lunarch"})
    )
    assert engine.shop("a") == shop and engine.pool("a") == pool
    names = name_of(engine)
    swap = swap_action("a", "Back for More for Shock", shop, pool, name_of=names)
    assert (swap.shop_card, swap.pool_card) == ("Back for More", "Shock")
    assert swap_action("a", "Back for More, Mikaeus, the Lunarch", shop, pool, name_of=names).pool_card == (
        "Mikaeus, the Lunarch"
    )
    if engine.phase == "draft":
        effects = engine.apply(swap)
        assert any(isinstance(effect, ab.Swapped) for effect in effects)
    carousel = pick_action(
        "a", "Back for More for Shock", shop, carousel=True, put_back_from=pool, name_of=names
    )
    assert (carousel.card, carousel.put_back) == ("Back for More", "Shock")  # type: ignore[attr-defined]


def test_without_names_the_first_separator_still_splits() -> None:
    assert split_two("Llanowar Elves for 1") == ("Llanowar Elves", "1")
    assert split_two("Giant Growth, Grizzly Bears") == ("Giant Growth", "Grizzly Bears")
    assert split_two("Back for More for Shock", left=["Back for More"], right=["Shock"]) == (
        "Back for More",
        "Shock",
    )


def test_loaded_deck_names_are_read_as_typed_names_whole_or_one_face() -> None:
    facts = (
        card("Legion's Judgment"),
        card("Lim-Dûl's Vault"),
        card("Fire // Ice"),
        card("Goblin Guide"),
        card("Forest Bear"),
    )
    game_names = tuple(f.name for f in facts)
    read = canonical_names(
        ["Legion\u2019s Judgment", "Lim-Dul's Vault", "Fire", "Goblin", "Forest", "Black Lotus"],
        facts,
        game_names,
    )
    assert read == ["Legion's Judgment", "Lim-Dûl's Vault", "Fire // Ice", "Goblin", "Forest", "Black Lotus"]


def test_a_league_refusal_offers_the_cards_a_name_fits_privately() -> None:
    league, bot, engine = desk()
    buyer = engine.whose_turn()
    assert buyer is not None
    pool = [engine.config.cards[c].name for c in engine.pool(buyer)]
    prefix = pool[0].split()[0]  # "Common" or "Uncommon": fits several pool cards
    assert sum(name.startswith(prefix + " ") for name in pool) >= 2
    said = say(league, bot, buyer, f"!buy 1 with {prefix}")
    assert any("which one:" in line and pool[0] in line for line in said), said
    said = say(league, bot, buyer, f"!buy 1 with {pool[0].replace('o', '', 1)}")
    assert any(f"did you mean {pool[0]}" in line for line in said), said
    assert all(line.startswith((f"{buyer}:", "Refused")) for line in said), said  # to the buyer alone


def test_the_league_referee_pays_with_a_pool_card_whose_name_has_a_comma() -> None:
    """Through the referee's own ``!buy`` (it gives the parser the pool's names), not the parser alone."""
    from cockatrice_ext.bot.league_options import LeagueOptions
    from cockatrice_ext.bot.league_referee import LeagueReferee
    from cockatrice_ext.journal import Journal, Table
    from tests.bot.test_league_bot import _ChattyBot, block_of

    probe = market_with(lambda e: {})
    buyer = probe.whose_turn()
    assert buyer is not None
    engine = market_with(lambda e: {e.pool(buyer)[0]: "Slimefoot, the Stowaway"})
    bot = _ChattyBot(Journal(":memory:"))
    table = Table.create(bot.journal, "ws://test:league:0:market:1", engine)
    league = LeagueReferee(bot, 0, LeagueOptions(format="market"), block_of(engine), table)  # type: ignore[arg-type]
    said = say(league, bot, buyer, "!buy 1 with Slimefoot, the Stowaway")
    assert not any("Stowaway" in line and "no such card" in line for line in said), said
    bought = engine.market[0] in engine.pool(buyer)
    assert bought or any("overpay" in line or "worth" in line or "cost" in line for line in said), said
