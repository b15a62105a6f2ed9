"""AutoBattler Items (seed 003, Optional Modifications, Items): "when drafting an Aura/Equipment, you may pay
treasures equal to its mana value. If you do, that card becomes an 'item' and is placed in the command
zone"."""

from __future__ import annotations

import random

from formats.test_autobattler import (  # the tests folder is on sys.path (conftest.py)
    FOUR,
    all_cards_once,
    assert_journal_replays,
    end_draft,
    play_randomly,
    play_round,
    refused,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.autobattler import (
    AutoBattlerConfig,
    AutoBattlerEngine,
    DraftItem,
    EndDraft,
    ItemDrafted,
    Roll,
    Swap,
)
from cockatrice_ext.formats.base import Action
from cockatrice_ext.formats.league import Start


def cube_card(i: int) -> CardFacts:
    """Every fourth card an Aura or Equipment of mana value 0-3, the rest creatures."""
    if i % 4 == 0:
        subtype = "Aura" if i % 8 == 0 else "Equipment"
        kind = "Enchantment" if subtype == "Aura" else "Artifact"
        return CardFacts(name=f"{subtype} {i}", mana_value=(i // 4) % 4, types=(kind,), subtypes=(subtype,))
    return CardFacts(name=f"Creature {i}", mana_value=2, types=("Creature",), subtypes=("Bear",))


CUBE = tuple(cube_card(i) for i in range(260))


def make_engine(seed: int = 3, **options: object) -> AutoBattlerEngine:
    config = AutoBattlerConfig(players=FOUR, cards=CUBE, item_drafting=True, **options)  # type: ignore[arg-type]
    return AutoBattlerEngine(config, seed=seed)


def is_item_card(card: int) -> bool:
    return bool({"Aura", "Equipment"} & set(CUBE[card].subtypes))


def engine_with_an_item_in_ann_shop(seed: int = 3) -> tuple[AutoBattlerEngine, int]:
    """A drafting engine whose ann's shop holds an Aura or Equipment (rolled for with free treasures)."""
    engine = make_engine(seed=seed)
    engine.apply(Start(None))
    while not any(is_item_card(c) for c in engine.shop("ann")):
        engine.treasures["ann"] += 1
        engine.apply(Roll("ann"))
    return engine, next(c for c in engine.shop("ann") if is_item_card(c))


def test_an_aura_or_equipment_drafted_as_an_item_costs_its_mana_value_and_goes_to_the_command_zone() -> None:
    engine, item = engine_with_an_item_in_ann_shop()
    cost = CUBE[item].mana_value
    engine.treasures["ann"] = cost
    given = engine.pool("ann")[0]
    pool_size = len(engine.pool("ann"))
    effects = engine.apply(DraftItem("ann", CUBE[item].name, given))
    assert ItemDrafted("ann", item, CUBE[item].name, given, CUBE[given].name, cost) in effects
    assert engine.items["ann"] == [item] and item not in engine.pool("ann")
    assert given in engine.shop("ann") and len(engine.shop("ann")) == 5  # the shop still returns five
    assert len(engine.pool("ann")) == pool_size - 1  # the item left the pool for the command zone
    assert engine.treasures["ann"] == 0
    assert engine.command_zone("ann") == [CUBE[item].name]
    assert all_cards_once(engine)
    end_draft(engine)
    hand = [CUBE[c].name for c in engine.pool("ann")[:3]]
    assert engine.check_deck("ann", [*hand, CUBE[item].name], (), ["Plains"] * 3) == []
    play_round(engine)
    assert engine.items["ann"] == [item]  # an item stays, mini-game after mini-game
    assert all_cards_once(engine)


def test_drafting_an_item_is_refused_without_the_treasures_or_for_another_card() -> None:
    engine, item = engine_with_an_item_in_ann_shop()
    cost = CUBE[item].mana_value
    given = engine.pool("ann")[0]
    if cost:
        engine.treasures["ann"] = cost - 1
        refused(engine, DraftItem("ann", item, given), "not_enough_treasures")
    engine.treasures["ann"] = 9
    creature = next((c for c in engine.shop("ann") if not is_item_card(c)), None)
    if creature is not None:
        refused(engine, DraftItem("ann", creature, given), "not_an_item")
    refused(engine, DraftItem("ann", engine.shop("bob")[0], given), "not_in_shop")
    refused(engine, DraftItem("ann", item, engine.shop("ann")[0]), "card_not_found")
    engine.apply(EndDraft("ann"))
    refused(engine, DraftItem("ann", item, given), "already_done")
    plain = AutoBattlerEngine(AutoBattlerConfig(players=FOUR, cards=CUBE), seed=3)
    plain.apply(Start(None))
    refused(plain, DraftItem("ann", plain.shop("ann")[0], plain.pool("ann")[0]), "feature_disabled")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_with_items_keeps_cards_and_pool_sizes(seed: int) -> None:
    """Cards are conserved; a pool and its items together are the size the pool alone would be."""
    engine = make_engine(seed=seed)
    rnd = random.Random(seed)
    static = engine.config.starting_cards + (engine.config.high_energy - engine.config.starting_energy) * 3

    def apply(action: Action) -> list[object]:
        if isinstance(action, Swap) and rnd.random() < 0.7:
            action = DraftItem(action.player, action.shop_card, action.pool_card)
        effects = engine.apply(action)
        assert all_cards_once(engine)
        assert all(t >= 0 for t in engine.treasures.values())
        sizes = {len(engine.pool(p)) + len(engine.items[p]) for p in engine.active()}
        assert len(sizes) <= 1 and all(s <= static for s in sizes)
        assert all(is_item_card(c) for items in engine.items.values() for c in items)
        return effects

    play_randomly(engine, seed, 1500, apply=apply)


def test_journal_round_trip_with_items() -> None:
    engine = make_engine(seed=5)

    def as_item(action: Action) -> Action:
        if isinstance(action, Swap) and action.shop_card in engine.shop(action.player):  # type: ignore[arg-type]
            return DraftItem(action.player, action.shop_card, action.pool_card)
        return action

    assert_journal_replays(engine, 5, 1500, as_item)
    assert any(engine.items.values())
