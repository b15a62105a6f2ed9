"""AutoBattler Augments (seed 003, Optional Modifications, Augments): the D6 picks the rarity for the whole
game; a player who gets more than 5 poison is dealt a pack of three augments of that rarity and keeps one,
the rest discarded."""

from __future__ import annotations

import random

from formats.test_autobattler import (  # the tests folder is on sys.path (conftest.py)
    CUBE,
    EIGHT,
    FOUR,
    all_cards_once,
    assert_journal_replays,
    end_draft,
    play_randomly,
    refused,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats.autobattler import (
    AUGMENT_PACK_SIZE,
    AugmentChosen,
    AugmentPackDealt,
    AugmentRarityRolled,
    AutoBattlerConfig,
    AutoBattlerEngine,
    ChooseAugment,
    EndDraft,
    augment_rarity_for_roll,
)
from cockatrice_ext.formats.base import Action, Effect
from cockatrice_ext.formats.league import ReportResult, Start

AUGMENTS = tuple(
    CardFacts(name=f"{tier.title()} Augment {i}", types=("Conspiracy",), rarity=tier)
    for tier in ("uncommon", "rare", "mythic")
    for i in range(8)
)


def make_engine(players: tuple[str, ...] = FOUR, seed: int = 3, **options: object) -> AutoBattlerEngine:
    config = AutoBattlerConfig(
        players=players,
        cards=CUBE,
        augment_packs=True,
        augment_cards=AUGMENTS,
        **options,  # type: ignore[arg-type]
    )
    return AutoBattlerEngine(config, seed=seed)


def all_augments_once(engine: AutoBattlerEngine) -> bool:
    everything = [c for cards in engine.augment_locations().values() for c in cards]
    return sorted(everything) == list(range(len(engine.config.augment_cards)))


def play_round(engine: AutoBattlerEngine, winners: dict[str, str] | None = None) -> list[Effect]:
    """Report every open match (``winners[p]`` names the winner of p's match, else its first player)."""
    effects: list[Effect] = []
    for match in engine.league.current_matches():
        if not match.decided:
            winner = next((winners[p] for p in match.players if p in (winners or {})), match.players[0])
            effects += engine.apply(ReportResult(None, winner=winner))
    return effects


def test_d6_rarity_table() -> None:
    """The seed: "If the roll is 1, 2, or 3 ... uncommon. 4 or 5 -> rare. 6 -> mythic"."""
    assert [augment_rarity_for_roll(r) for r in range(1, 7)] == ["uncommon"] * 3 + ["rare"] * 2 + ["mythic"]


def test_the_d6_is_rolled_at_the_start_and_fixes_the_rarity() -> None:
    seen = set()
    for seed in range(40):
        engine = make_engine(seed=seed)
        effects = engine.apply(Start(None))
        (rolled,) = [e for e in effects if isinstance(e, AugmentRarityRolled)]
        assert rolled.rarity == augment_rarity_for_roll(rolled.roll) == engine.augment_rarity
        seen.add(rolled.roll)
        assert all(AUGMENTS[c].rarity == engine.augment_rarity for c in engine.augment_deck)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_more_than_five_poison_deals_a_pack_of_three_once() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    end_draft(engine)
    match = engine.league.current_matches()[0]
    winner, loser = match.players
    engine.poison[loser] = 5  # one more poison: 6, more than 5
    effects = engine.apply(ReportResult(None, winner=winner))
    assert not any(isinstance(e, AugmentPackDealt) for e in effects)  # dealt when the mini-game is over
    effects = [e for e in play_round(engine) if isinstance(e, AugmentPackDealt)]  # the other match
    assert [e.player for e in effects] == [loser]
    pack = engine.augment_packs[loser]
    assert len(pack) == AUGMENT_PACK_SIZE == 3
    assert all(AUGMENTS[c].rarity == engine.augment_rarity for c in pack)
    refused(engine, EndDraft(loser), "augment_pending")  # the pack is chosen from before drafting ends
    refused(engine, ChooseAugment(winner, pack[0]), "no_augment_pack")
    refused(engine, ChooseAugment(loser, engine.augment_deck[0]), "not_in_augment_pack")
    chosen = engine.apply(ChooseAugment(loser, AUGMENTS[pack[1]].name))
    assert AugmentChosen(loser, pack[1], AUGMENTS[pack[1]].name, (pack[0], pack[2])) in chosen
    assert engine.augments[loser] == [pack[1]] and loser not in engine.augment_packs
    assert set(engine.augment_discard) == {pack[0], pack[2]}  # nobody else can get them
    assert all_augments_once(engine)
    # a later loss above 5 poison deals nothing more: the pack comes when a player gets past 5
    end_draft(engine)
    for _ in range(2):
        opponent = next(
            p for m in engine.league.current_matches() if loser in m.players for p in m.players if p != loser
        )
        assert not [
            e
            for e in play_round(engine, {loser: opponent})
            if isinstance(e, AugmentPackDealt) and e.player == loser
        ]
        end_draft(engine)
    assert loser not in engine.augment_packs and engine.augments[loser] == [pack[1]]


def test_an_augment_is_played_from_the_command_zone_not_the_hand() -> None:
    engine = make_engine()
    engine.apply(Start(None))
    end_draft(engine)
    loser = engine.league.current_matches()[0].players[1]
    engine.poison[loser] = 5
    play_round(engine)
    pack = engine.augment_packs[loser]
    hand = [CUBE[c].name for c in engine.pool(loser)[:3]]
    augment = AUGMENTS[pack[0]].name
    codes = [p.code for p in engine.check_deck(loser, [*hand, augment], (), ["Forest"] * 3)]
    assert codes == ["wrong_hand_size", "not_in_pool"]  # not theirs yet
    engine.apply(ChooseAugment(loser, pack[0]))
    assert engine.check_deck(loser, [*hand, augment], (), ["Forest"] * 3) == []
    assert engine.check_deck(loser, hand, (), ["Forest"] * 3) == []  # leaving it out is allowed


def test_without_the_option_nothing_is_rolled_or_dealt() -> None:
    engine = AutoBattlerEngine(AutoBattlerConfig(players=FOUR, cards=CUBE, augment_cards=AUGMENTS), seed=3)
    effects = engine.apply(Start(None))
    assert not any(isinstance(e, AugmentRarityRolled) for e in effects) and engine.augment_rarity == ""
    refused(engine, ChooseAugment("ann", 0), "feature_disabled")


def test_an_exhausted_rarity_deals_what_is_left() -> None:
    few = AUGMENTS[:4] + AUGMENTS[8:12] + AUGMENTS[16:20]  # four of each rarity: one full pack, then one
    engine = AutoBattlerEngine(
        AutoBattlerConfig(players=FOUR, cards=CUBE, augment_packs=True, augment_cards=few), seed=3
    )
    engine.apply(Start(None))
    end_draft(engine)
    for player in FOUR:
        engine.poison[player] = 5
    dealt = [e for e in play_round(engine) if isinstance(e, AugmentPackDealt)]
    sizes = sorted(len(engine.augment_packs.get(p, ())) for p in FOUR)
    assert len(dealt) == 2 and sizes == [0, 0, 1, 3]  # the two losers: three, then the one left
    assert all_augments_once(engine)


def check_augments(engine: AutoBattlerEngine) -> None:
    assert all_cards_once(engine) and all_augments_once(engine)
    assert all(len(pack) <= AUGMENT_PACK_SIZE for pack in engine.augment_packs.values())
    assert all(len(owned) <= 1 for owned in engine.augments.values())  # one pack per player, one kept
    assert all(engine.poison[p] > 5 for p in [*engine.augment_packs, *engine.augment_dealt])
    assert all(t >= 0 for t in engine.treasures.values())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), eight=st.booleans())
def test_random_play_with_augments_keeps_invariants(seed: int, eight: bool) -> None:
    engine = make_engine(players=EIGHT if eight else FOUR, seed=seed)
    rnd = random.Random(seed)

    def apply(action: Action) -> list[object]:
        if isinstance(action, EndDraft) and action.player in engine.augment_packs and rnd.random() < 0.9:
            pack = engine.augment_packs[action.player]
            effects = engine.apply(ChooseAugment(action.player, rnd.choice(pack)))
        else:
            effects = engine.apply(action)
        check_augments(engine)
        return effects

    play_randomly(engine, seed, 1500, apply=apply)


def test_journal_round_trip_with_augments() -> None:
    engine = make_engine(seed=21)
    rnd = random.Random(21)

    def choose_one(action: Action) -> Action:
        if isinstance(action, EndDraft) and action.player in engine.augment_packs:
            return ChooseAugment(action.player, rnd.choice(engine.augment_packs[action.player]))
        return action

    assert_journal_replays(engine, 21, 2000, choose_one)
    assert any(engine.augments.values())
