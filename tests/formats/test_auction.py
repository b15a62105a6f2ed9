"""Auction Magic engine: one scenario per rule, refusals, invariants under random play, journal replay."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.auction import (
    AdjustGold,
    AuctionConfig,
    AuctionEngine,
    AuctionFromBlock,
    AuctionOwnCards,
    BeginTurn,
    Bid,
    BuyMana,
    Cast,
    CastCommander,
    CommanderDamage,
    CommanderToCommandZone,
    Concede,
    DeclareLoss,
    DeclareWin,
    Draw,
    EndTurn,
    Keep,
    LookAtTop,
    LoseGold,
    Pass,
    Reorder,
    ReportLife,
    ReturnToBlock,
    Shuffle,
    StartAuctionStep,
    StartPregame,
    StopAuctioning,
    resolve_simultaneous,
)
from cockatrice_ext.formats.base import RulesError, decode_action, encode_action, find_engine, to_jsonable
from cockatrice_ext.journal import Journal, Table

CREATURE = ("Creature",)
INSTANT = ("Instant",)


def creature(name: str) -> CardFacts:
    return CardFacts(name=name, types=CREATURE, power="2", toughness="2")


def spell(name: str) -> CardFacts:
    return CardFacts(name=name, types=INSTANT)


def legend(name: str) -> CardFacts:
    return CardFacts(name=name, supertypes=("Legendary",), types=CREATURE)


def make(
    cards: tuple[CardFacts, ...] | list[CardFacts], players: tuple[Any, ...] = (1, 2), **options: Any
) -> AuctionEngine:
    """An engine whose block is in the given order (index 0 on top)."""
    config = AuctionConfig(players=players, cards=tuple(cards), shuffle_block=False, **options)
    return AuctionEngine(config, seed=7)


def play(engine: AuctionEngine, *actions: Any) -> list[Any]:
    effects: list[Any] = []
    for action in actions:
        effects += engine.apply(action)
    return effects


def refused(engine: AuctionEngine, action: Any, code: str) -> RulesError:
    before = engine.snapshot()
    with pytest.raises(RulesError) as info:
        engine.apply(action)
    assert info.value.code == code, info.value
    assert engine.snapshot() == before
    return info.value


def of_type(effects: list[Any], cls: type) -> list[Any]:
    return [e for e in effects if isinstance(e, cls)]


def started(engine: AuctionEngine, active: Any = 1) -> list[Any]:
    return play(engine, BeginTurn(None, active=active), StartAuctionStep(None))


# ---------------------------------------------------------------------------
# Rule 1 / 90X.5b: gold and income
# ---------------------------------------------------------------------------


def test_players_start_with_ten_gold_and_everyone_gains_three_at_end_of_turn() -> None:
    engine = make([creature("Bear")] * 5, players=(1, 2, 3))
    assert [engine.gold(p) for p in (1, 2, 3)] == [10, 10, 10]
    play(engine, BeginTurn(None, active=1))
    effects = play(engine, EndTurn(None))
    assert [engine.gold(p) for p in (1, 2, 3)] == [13, 13, 13]
    assert {(e.player, e.reason) for e in of_type(effects, am.GoldChanged)} == {
        (1, "income"),
        (2, "income"),
        (3, "income"),
    }


def test_starting_gold_and_income_are_options() -> None:
    engine = make([creature("Bear")], starting_gold=4, income=1)
    play(engine, BeginTurn(None, active=1), EndTurn(None))
    assert engine.gold(1) == 5


# ---------------------------------------------------------------------------
# Rule 3 / 90X.4b: the auction step
# ---------------------------------------------------------------------------


def test_auction_step_reveals_top_card_and_bidding_starts_with_active_player() -> None:
    engine = make([creature("Bear"), spell("Shock")], players=(1, 2, 3))
    effects = started(engine, active=2)
    (opened,) = of_type(effects, am.LotOpened)
    assert opened.cards == (am.CardRef(0, "Bear"),)
    assert opened.first_bidder == 2
    assert opened.bidders == (2, 3, 1)
    assert opened.is_creature
    assert engine.whose_bid() == 2
    assert engine.current_lot() is not None


def test_bidding_continues_until_all_others_pass_in_succession() -> None:
    engine = make([creature("Bear")] * 3, players=(1, 2, 3))
    started(engine)
    play(engine, Bid(1, amount=1), Pass(2), Bid(3, amount=2), Bid(1, amount=3))
    play(engine, Bid(2, amount=4))  # passing earlier does not stop a player from bidding later
    play(engine, Pass(3))
    assert engine.lot is not None and engine.whose_bid() == 1
    effects = play(engine, Pass(1))
    (sold,) = of_type(effects, am.LotSold)
    assert (sold.winner, sold.price) == (2, 4)
    assert [b.amount for b in sold.bids] == [1, 2, 3, 4]


def test_simple_two_player_sale_records_every_bid_winner_price_and_turn() -> None:
    engine = make([creature("Bear"), creature("Elf")])
    started(engine)
    effects = play(engine, Bid(1, amount=2), Bid(2, amount=5), Pass(1))
    (sold,) = of_type(effects, am.LotSold)
    assert sold.bids == (am.BidRecord(1, 2), am.BidRecord(2, 5))
    assert (sold.winner, sold.price, sold.turn) == (2, 5, 1)
    assert sold.cards == (am.CardRef(0, "Bear"),)
    assert engine.gold(2) == 5
    assert engine.gold(1) == 10
    assert engine.owner[0] == 2


def test_bid_must_top_the_high_bid_and_be_at_least_one() -> None:
    engine = make([creature("Bear")])
    started(engine)
    refused(engine, Bid(1, amount=0), "bid_below_minimum")
    refused(engine, Bid(1, amount=-3), "bid_below_minimum")
    play(engine, Bid(1, amount=3))
    refused(engine, Bid(2, amount=3), "bid_not_higher")
    refused(engine, Bid(2, amount=2), "bid_not_higher")


def test_nobody_may_bid_more_gold_than_they_have() -> None:
    engine = make([creature("Bear")])
    started(engine)
    refused(engine, Bid(1, amount=11), "bid_too_high")
    play(engine, Bid(1, amount=10))
    assert engine.lot is not None


def test_out_of_turn_and_strangers_and_malformed_bids_are_refused() -> None:
    engine = make([creature("Bear")])
    refused(engine, Bid(1, amount=1), "no_lot")
    started(engine)
    refused(engine, Bid(2, amount=1), "not_your_bid")
    refused(engine, Pass(2), "not_your_bid")
    refused(engine, Bid(99, amount=1), "not_a_player")
    refused(engine, Bid(None, amount=1), "not_a_player")
    refused(engine, Bid(1, amount="5"), "malformed")  # type: ignore[arg-type]
    refused(engine, Bid(1, amount=True), "malformed")


def test_no_bid_puts_card_on_bottom_and_another_lot_opens() -> None:
    engine = make([creature("Bear"), creature("Elf"), creature("Ogre")])
    started(engine)
    effects = play(engine, Pass(1), Pass(2))
    (unsold,) = of_type(effects, am.LotUnsold)
    assert unsold.destination == "bottom"
    assert engine.block == [2, 0]
    (opened,) = of_type(effects, am.LotOpened)
    assert opened.cards == (am.CardRef(1, "Elf"),)


def test_the_auction_step_ends_once_every_card_of_the_block_went_up_unbid() -> None:
    """Rule 3 repeats "until a card is put into a hand or each player agrees to stop": when the whole block
    went round unbid nobody wants any card, so the step ends instead of offering the same cards for ever."""
    engine = make([creature("Bear"), spell("Shock"), creature("Ogre")])
    started(engine)
    effects = play(engine, Pass(1), Pass(2), Pass(1), Pass(2))
    assert engine.phase == "auction" and engine.lot is not None
    effects = play(engine, Pass(1), Pass(2))
    assert am.AuctionStepEnded(1, "block_went_round") in effects
    assert engine.lot is None and engine.phase == "main" and engine.block == [0, 1, 2]
    again = make([creature("Bear"), creature("Elf")])
    started(again)
    play(again, Pass(1), Pass(2), Bid(1, amount=1), Pass(2))  # a sale ends the step the usual way
    assert again.phase == "main" and again.hand[1] == [] and again.pending[1] == [1]
    chain = make([creature("Bear"), spell("Shock"), creature("Elf")])
    started(chain)
    play(chain, Pass(1), Pass(2), Bid(1, amount=1), Pass(2), Keep(1))  # Bear unbid, then Shock sold
    assert chain.phase == "auction" and chain.unsold_in_a_row == 0  # the follow-up starts a fresh count


def test_referee_pass_is_a_timeout_for_whoever_is_to_bid() -> None:
    engine = make([creature("Bear")])
    started(engine)
    effects = play(engine, Pass(None))
    assert of_type(effects, am.Passed) == [am.Passed(1, 1, by_referee=True)]
    assert engine.whose_bid() == 2


def test_players_may_agree_to_stop_auctioning() -> None:
    engine = make([creature("Bear"), creature("Elf")])
    started(engine)
    play(engine, StopAuctioning(1))
    refused(engine, StopAuctioning(1), "already_voted")
    effects = play(engine, StopAuctioning(2))
    assert of_type(effects, am.AuctionStepEnded)[0].reason == "players_stopped"
    assert engine.lot is None
    assert engine.block == [1, 0]


def test_stop_votes_not_allowed_once_bids_are_placed() -> None:
    engine = make([creature("Bear")])
    started(engine)
    play(engine, Bid(1, amount=1))
    refused(engine, StopAuctioning(2), "bids_placed")


def test_auction_step_once_per_turn_and_only_in_a_turn() -> None:
    engine = make([creature("Bear")] * 3)
    refused(engine, StartAuctionStep(None), "no_turn")
    refused(engine, StartAuctionStep(1), "referee_only")
    started(engine)
    play(engine, Bid(1, amount=1), Pass(2), Keep(1))
    refused(engine, StartAuctionStep(None), "auction_step_taken")
    refused(engine, BeginTurn(None, active=2), "turn_in_progress")


# ---------------------------------------------------------------------------
# Rules 4 and 5: cast or keep; noncreature -> another auction
# ---------------------------------------------------------------------------


def test_bought_card_is_a_pending_choice_cast_goes_to_play_keep_to_hand() -> None:
    engine = make([creature("Bear"), creature("Elf")])
    started(engine)
    effects = play(engine, Bid(1, amount=1), Pass(2))
    assert of_type(effects, am.PurchaseChoicePending) == [am.PurchaseChoicePending(1, am.CardRef(0, "Bear"))]
    assert engine.pending_choice(1) == (am.CardRef(0, "Bear"),)
    refused(engine, Cast(2), "no_pending_choice")
    refused(engine, Cast(1, card="Elf"), "missing_card")
    play(engine, Cast(1, card="bear"))
    assert engine.played[1] == [0]
    assert engine.pending_choice(1) == ()


def test_noncreature_purchase_means_another_auction_after_the_choice() -> None:
    engine = make([spell("Shock"), spell("Opt"), creature("Bear"), creature("Elf")])
    started(engine)
    effects = play(engine, Bid(1, amount=2), Pass(2))
    assert engine.lot is None and engine.follow_up_due
    refused(engine, Draw(1, count=1), "auction_in_progress")
    # The buyer may look at the block before the next reveal (a bought Augury Owl).
    play(engine, Keep(1))
    assert engine.current_lot()["cards"] == [{"index": 1, "name": "Opt"}]  # type: ignore[index]
    assert engine.current_lot()["kind"] == "follow_up"  # type: ignore[index]
    effects = play(engine, Pass(1), Bid(2, amount=1), Pass(1), Cast(2))
    assert engine.current_lot()["cards"][0]["name"] == "Bear"  # type: ignore[index]
    effects = play(engine, Bid(1, amount=3), Pass(2))
    assert of_type(effects, am.AuctionStepEnded)[0].reason == "creature_bought"
    assert engine.phase == "main"
    assert engine.lot is None and not engine.follow_up_due


def test_unresolved_choices_are_kept_at_end_of_turn() -> None:
    engine = make([creature("Bear")])
    started(engine)
    play(engine, Bid(1, amount=1), Pass(2))
    effects = play(engine, EndTurn(None))
    assert of_type(effects, am.CardKept) == [am.CardKept(1, am.CardRef(0, "Bear"), automatic=True)]
    assert engine.hand[1] == [0]


def test_end_turn_abandons_an_open_lot_to_the_bottom() -> None:
    engine = make([creature("Bear"), creature("Elf")])
    started(engine)
    play(engine, Bid(1, amount=4))
    effects = play(engine, EndTurn(None))
    assert of_type(effects, am.LotUnsold)[0].reason == "turn_ended"
    assert engine.block == [1, 0]
    assert engine.gold(1) == 13


# ---------------------------------------------------------------------------
# Rules 6 and 7: the block is the library
# ---------------------------------------------------------------------------


def test_draw_takes_cards_from_the_top_of_the_block() -> None:
    engine = make([spell("A"), spell("B"), spell("C")])
    play(engine, BeginTurn(None, active=1))
    effects = play(engine, Draw(2, count=2))
    assert of_type(effects, am.CardsDrawn)[0].cards == (am.CardRef(0, "A"), am.CardRef(1, "B"))
    assert engine.hand[2] == [0, 1]
    assert engine.owner[0] == 2
    refused(engine, Draw(1, count=1, target=2), "not_permitted")
    refused(engine, Draw(1, count=0), "bad_count")
    play(engine, Draw(None, count=1, target=1))
    assert engine.hand[1] == [2]


def test_look_and_reorder_top_cards_including_bottom() -> None:
    engine = make([spell("A"), spell("B"), spell("C"), spell("D")])
    play(engine, BeginTurn(None, active=1))
    refused(engine, Reorder(1, top=(0,)), "nothing_to_reorder")
    effects = play(engine, LookAtTop(1, count=3))
    assert of_type(effects, am.TopCardsShown)[0].cards == tuple(am.CardRef(i, n) for i, n in enumerate("ABC"))
    refused(engine, Reorder(1, top=(0, 1)), "not_a_permutation")
    refused(engine, Reorder(1, top=(0, 1, 3)), "not_a_permutation")
    refused(engine, Reorder(2, top=(0, 1, 2)), "nothing_to_reorder")
    play(engine, Reorder(1, top=(2, 0), bottom=(1,)))
    assert engine.block == [2, 0, 3, 1]
    refused(engine, Reorder(1, top=(2, 0)), "nothing_to_reorder")


def test_reorder_after_the_block_changed_is_stale() -> None:
    engine = make([spell("A"), spell("B"), spell("C")])
    play(engine, BeginTurn(None, active=1), LookAtTop(1, count=2), Draw(2, count=1))
    refused(engine, Reorder(1, top=(1, 0)), "look_stale")


def test_return_card_to_top_or_bottom_of_block() -> None:
    engine = make([spell("Memory Lapse"), creature("Bear"), creature("Elf")])
    play(engine, BeginTurn(None, active=1), Draw(1, count=2))
    refused(engine, ReturnToBlock(2, card="Bear", position="top"), "missing_card")
    refused(engine, ReturnToBlock(1, card="Bear", position="middle"), "bad_position")
    effects = play(engine, ReturnToBlock(1, card="Bear", position="top"))
    assert of_type(effects, am.CardReturned)[0].previous_owner == 1
    assert engine.block == [1, 2]
    assert 1 not in engine.owner  # 90X.3e
    play(engine, ReturnToBlock(None, card=0, position="bottom"))
    assert engine.block == [1, 2, 0]


def test_shuffle_is_deterministic_from_the_seed() -> None:
    cards = [creature(f"C{i}") for i in range(20)]
    first, second = make(cards), make(cards)
    for engine in (first, second):
        play(engine, BeginTurn(None, active=1), Shuffle(1))
    assert first.block == second.block
    assert sorted(first.block) == list(range(20))


def test_block_is_shuffled_at_start_by_default() -> None:
    cards = tuple(creature(f"C{i}") for i in range(30))
    engine = AuctionEngine(AuctionConfig(players=(1, 2), cards=cards), seed=3)
    assert sorted(engine.block) == list(range(30))
    assert engine.block != list(range(30))


# ---------------------------------------------------------------------------
# Rule 8 / 90X.5: mana and gold floors
# ---------------------------------------------------------------------------


def test_buy_mana_spends_one_gold_each() -> None:
    engine = make([creature("Bear")])
    effects = play(engine, BuyMana(1, color="r", count=3))
    assert engine.gold(1) == 7
    assert of_type(effects, am.ManaBought) == [am.ManaBought(1, "R", 3)]
    refused(engine, BuyMana(1, color="X", count=1), "bad_color")
    refused(engine, BuyMana(1, color="G", count=8), "not_enough_gold")
    refused(engine, BuyMana(1, color="G", count=0), "bad_count")


def test_gold_bid_is_committed_while_the_lot_is_open() -> None:
    engine = make([creature("Bear")])
    started(engine)
    play(engine, Bid(1, amount=8))
    play(engine, BuyMana(1, color="U", count=2))
    refused(engine, BuyMana(1, color="U", count=1), "gold_committed")
    refused(engine, AdjustGold(1, target=1, delta=-1), "gold_committed")  # paying with it, too


def test_a_gold_loss_applies_to_the_high_bidder_and_their_bid_is_voided() -> None:
    """Issue 9 bug 4 / 90X.5d: a loss applies even to committed gold; the lot's bidding starts over."""
    engine = make([creature("Bear")], players=(1, 2, 3))
    started(engine)
    play(engine, Bid(1, amount=3), Bid(2, amount=8))
    effects = play(engine, LoseGold(None, target=2, amount=5, reason="Mindsludge"))
    assert of_type(effects, am.GoldChanged) == [am.GoldChanged(2, 10, 5, "Mindsludge")]
    (restart,) = of_type(effects, am.BiddingRestarted)
    assert restart.voided == (am.BidRecord(1, 3), am.BidRecord(2, 8)) and restart.player == 2
    assert of_type(effects, am.NextToBid) == [am.NextToBid(restart.lot_no, 1, 0, None)]
    lot = engine.current_lot()
    assert lot is not None and lot["high_bid"] == 0 and lot["high_bidder"] is None
    refused(engine, Bid(1, amount=11), "bid_too_high")
    effects = play(engine, Bid(1, amount=2), Bid(2, amount=5), Pass(3), Pass(1))
    (sold,) = of_type(effects, am.LotSold)
    assert sold.winner == 2 and sold.price == 5 and sold.bids == (am.BidRecord(1, 2), am.BidRecord(2, 5))
    assert engine.gold(2) == 0


def test_a_loss_the_high_bidder_can_still_cover_leaves_the_bid_standing() -> None:
    engine = make([creature("Bear")])
    started(engine)
    play(engine, Bid(1, amount=4))
    effects = play(engine, LoseGold(2, target=1, amount=6))
    assert not of_type(effects, am.BiddingRestarted) and engine.current_lot()["high_bid"] == 4  # type: ignore[index]
    refused(engine, BuyMana(1, color="U", count=1), "gold_committed")  # spending it is still refused


def test_lose_gold_clamps_at_zero() -> None:
    engine = make([creature("Bear")])
    effects = play(engine, LoseGold(None, target=2, amount=25, reason="Mindsludge"))
    assert of_type(effects, am.GoldChanged) == [am.GoldChanged(2, 10, 0, "Mindsludge")]
    assert engine.ledger["lost"] == 10


def test_adjust_gold_permissions() -> None:
    engine = make([creature("Bear")])
    play(engine, AdjustGold(1, target=1, delta=3, reason="Resell"))
    assert engine.gold(1) == 13
    refused(engine, AdjustGold(1, target=2, delta=3), "not_permitted")
    refused(engine, AdjustGold(1, target=1, delta=0), "malformed")
    play(engine, AdjustGold(None, target=2, delta=-20))
    assert engine.gold(2) == 0
    strict = make([creature("Bear")], players_may_gain_gold=False, players_may_drain_others=False)
    refused(strict, AdjustGold(1, target=1, delta=2), "not_permitted")
    refused(strict, LoseGold(1, target=2, amount=2), "not_permitted")
    play(strict, AdjustGold(1, target=1, delta=-2), LoseGold(1, amount=1))
    assert strict.gold(1) == 7


# ---------------------------------------------------------------------------
# 90X.3f: empty block
# ---------------------------------------------------------------------------


def test_empty_block_at_auction_active_player_loses_by_default() -> None:
    engine = make([])
    effects = started(engine, active=2)
    over = of_type(effects, am.GameOver)[0]
    assert over.winners == (1,) and over.losers == (2,)
    assert engine.is_over()
    refused(engine, BuyMana(1, color="W", count=1), "game_over")


def test_empty_block_draw_rule() -> None:
    engine = make([], empty_block_rule="draw")
    effects = started(engine)
    assert of_type(effects, am.GameOver)[0].winners == ()


def test_empty_block_higher_life_wins_with_gold_tiebreak() -> None:
    engine = make([], players=(1, 2, 3), empty_block_rule="higher_life_wins")
    play(engine, ReportLife(None, target=1, life=7), ReportLife(None, target=3, life=20))
    play(engine, LoseGold(None, target=3, amount=4))
    effects = started(engine)
    assert of_type(effects, am.GameOver)[0].winners == (2,)  # tied on life with 3, more gold


def test_drawing_from_empty_block_loses() -> None:
    engine = make([spell("A")])
    play(engine, BeginTurn(None, active=1))
    effects = play(engine, Draw(2, count=2))
    assert of_type(effects, am.CardsDrawn)[0].cards == (am.CardRef(0, "A"),)
    assert of_type(effects, am.GameOver)[0].winners == (1,)


def test_multiplayer_empty_block_eliminates_active_and_game_goes_on() -> None:
    engine = make([], players=(1, 2, 3))
    effects = started(engine, active=3)
    assert of_type(effects, am.PlayerLost) == [am.PlayerLost(3, "block_empty_at_auction")]
    assert not engine.is_over()
    play(engine, EndTurn(None))
    assert engine.gold(3) == 10  # eliminated players get no income
    refused(engine, BeginTurn(None, active=3), "eliminated")


# ---------------------------------------------------------------------------
# 90X.11 and game end
# ---------------------------------------------------------------------------


def test_resolve_simultaneous_by_gold() -> None:
    gold = {1: 5, 2: 9, 3: 9, 4: 1}
    assert resolve_simultaneous([1, 2, 3], "win", gold) == (2, 3)
    assert resolve_simultaneous([1, 2, 3, 4], "lose", gold) == (4,)
    assert resolve_simultaneous([1], "lose", gold) == (1,)
    with pytest.raises(ValueError):
        resolve_simultaneous([1, 2], "tie", gold)


def test_declared_simultaneous_loss_takes_lowest_gold() -> None:
    engine = make([creature("Bear")], players=(1, 2, 3))
    play(engine, LoseGold(None, target=2, amount=3))
    effects = play(engine, DeclareLoss(None, targets=(1, 2), reason="life"))
    assert of_type(effects, am.PlayerLost) == [am.PlayerLost(2, "life")]
    effects = play(engine, DeclareWin(None, targets=(1, 3)))
    assert of_type(effects, am.GameOver)[0].winners == (1, 3)


def test_concede_ends_two_player_game() -> None:
    engine = make([creature("Bear")])
    effects = play(engine, Concede(2))
    assert of_type(effects, am.GameOver)[0].winners == (1,)
    refused(engine, Concede(1), "game_over")


def test_referee_only_actions() -> None:
    engine = make([creature("Bear")])
    refused(engine, BeginTurn(1, active=1), "referee_only")
    refused(engine, ReportLife(1, target=1, life=99), "referee_only")
    refused(engine, DeclareWin(1, targets=(1,)), "referee_only")
    refused(engine, EndTurn(2), "referee_only")


# ---------------------------------------------------------------------------
# The "boards" one-round bidding variant
# ---------------------------------------------------------------------------


def test_one_round_bidding_each_player_acts_once_highest_wins() -> None:
    engine = make([creature("Bear")] * 2, players=(1, 2, 3), one_round_bidding=True)
    started(engine)
    effects = play(engine, Bid(1, amount=4), Bid(2, amount=5))
    assert engine.lot is not None
    effects = play(engine, Pass(3))
    (sold,) = of_type(effects, am.LotSold)
    assert (sold.winner, sold.price) == (2, 5)


def test_one_round_bidding_all_pass_is_unsold() -> None:
    engine = make([creature("Bear"), creature("Elf")], one_round_bidding=True)
    started(engine)
    effects = play(engine, Pass(1), Pass(2))
    assert of_type(effects, am.LotUnsold)


# ---------------------------------------------------------------------------
# 90X.6 - 90X.8: auctions started by card effects
# ---------------------------------------------------------------------------


def test_own_card_auction_owner_may_not_bid_and_receives_the_gold() -> None:
    engine = make([spell("Shock"), creature("Bear")], players=(1, 2, 3))
    play(engine, BeginTurn(None, active=1), Draw(1, count=1))
    effects = play(engine, AuctionOwnCards(1, cards=("Shock",)))
    (opened,) = of_type(effects, am.LotOpened)
    assert opened.bidders == (2, 3) and opened.seller == 1
    refused(engine, Bid(1, amount=1), "not_eligible")
    effects = play(engine, Bid(2, amount=4), Pass(3))
    (sold,) = of_type(effects, am.LotSold)
    assert (sold.winner, sold.price, sold.seller, sold.destination) == (2, 4, 1, "hand")
    assert engine.gold(1) == 14 and engine.gold(2) == 6
    assert engine.hand[2] == [0] and engine.owner[0] == 2
    assert engine.lot is None and not engine.follow_up_due  # 90X.6c: no follow-up
    assert engine.ledger["lots"] == 0


def test_own_card_auction_unsold_goes_back_where_it_was() -> None:
    engine = make([creature("Bear"), spell("Shock")])
    started(engine)
    play(engine, Bid(1, amount=1), Pass(2), Cast(1))
    effects = play(engine, AuctionOwnCards(1, cards=(0,)))
    effects = play(engine, Pass(2))
    assert of_type(effects, am.LotUnsold)[0].destination == "returned"
    assert engine.played[1] == [0] and engine.owner[0] == 1


def test_own_card_auction_refusals() -> None:
    engine = make([creature("Bear"), spell("Shock")])
    play(engine, BeginTurn(None, active=1), Draw(1, count=1))
    refused(engine, AuctionOwnCards(2, cards=("Bear",)), "missing_card")
    refused(engine, AuctionOwnCards(1, cards=()), "malformed")
    refused(engine, AuctionOwnCards(1, cards=(0, "Bear")), "not_enough_copies")  # one Bear, named twice
    disabled = make([creature("Bear")], allow_own_card_auctions=False)
    play(disabled, BeginTurn(None, active=1), Draw(1))
    refused(disabled, AuctionOwnCards(1, cards=(0,)), "feature_disabled")


def test_multi_card_own_auction_all_go_to_the_winner() -> None:
    engine = make([spell("A"), creature("B"), creature("C")])
    play(engine, BeginTurn(None, active=1), Draw(2, count=2))
    effects = play(engine, AuctionOwnCards(2, cards=("A", "B")), Bid(1, amount=6))
    (sold,) = of_type(effects, am.LotSold)
    assert [c.name for c in sold.cards] == ["A", "B"]
    assert sorted(engine.hand[1]) == [0, 1] and engine.gold(2) == 16


def test_block_lot_all_noncreature_means_reveal_until_a_creature_into_hand() -> None:
    """Issue 9 bug 3 / 90X.8: an all-noncreature block lot: the buyer reveals until a creature, into hand."""
    engine = make([spell("A"), spell("B"), spell("C"), creature("D"), creature("E")])
    play(engine, BeginTurn(None, active=1))
    effects = play(engine, AuctionFromBlock(1, count=2))
    assert of_type(effects, am.LotOpened)[0].kind == "from_block"
    effects = play(engine, Bid(1, amount=2), Pass(2))
    # 90X.4c: a card bought from a block lot may be cast at once or kept, like any auctioned card.
    assert [e.card.name for e in of_type(effects, am.PurchaseChoicePending)] == ["A", "B"]
    (revealed,) = of_type(effects, am.RevealedUntilCreature)
    assert revealed.player == 1 and [c.name for c in revealed.cards] == ["C", "D"] and revealed.creature_found
    assert engine.lot is None and not engine.follow_up_due and engine.hand[1] == [2, 3]
    assert engine.block == [4] and all(engine.owner[i] == 1 for i in (0, 1, 2, 3))
    play(engine, Cast(1, card="A"), Keep(1, card="B"), Draw(2))  # nothing is left waiting: draws work
    assert engine.hand[2] == [4] and engine.lot is None


def test_reveal_reading_of_90x4b_a_noncreature_buyer_reveals_until_a_creature() -> None:
    """The draft's 90X.4b as an option: the revealed cards are auctioned off too (cast or keep, 90X.4c)."""
    engine = make([spell("A"), spell("B"), creature("C"), creature("D")], noncreature_follow_up="reveal")
    started(engine)
    effects = play(engine, Bid(1, amount=2), Pass(2))
    (revealed,) = of_type(effects, am.RevealedUntilCreature)
    assert [c.name for c in revealed.cards] == ["B", "C"] and revealed.pending
    assert [e.card.name for e in of_type(effects, am.PurchaseChoicePending)] == ["A", "B", "C"]
    assert am.AuctionStepEnded(1, "creature_revealed") in effects
    assert engine.lot is None and not engine.follow_up_due and engine.phase == "main"
    play(engine, Cast(1, card="A"), Keep(1, card="B"), Keep(1, card="C"))
    assert engine.hand[1] == [1, 2] and engine.block == [3] and engine.lot is None
    with pytest.raises(RulesError) as bad:
        make([creature("A")], noncreature_follow_up="sometimes")
    assert bad.value.code == "bad_option"


def test_block_lot_reveal_stops_at_the_end_of_the_block_without_losing() -> None:
    engine = make([spell("A"), spell("B")])
    effects = play(engine, BeginTurn(None, active=1), AuctionFromBlock(1, count=1), Pass(1), Bid(2, amount=1))
    effects += play(engine, Pass(1))
    (revealed,) = of_type(effects, am.RevealedUntilCreature)
    assert [c.name for c in revealed.cards] == ["B"] and not revealed.creature_found
    assert not engine.is_over() and engine.block == [] and engine.hand[2] == [1]


def test_starting_gold_is_capped_by_one_constant() -> None:
    """The CLI's --auction-starting-gold and the bot's bid cap derive from MAX_STARTING_GOLD."""
    with pytest.raises(RulesError) as refused:
        make([creature("A")], starting_gold=am.MAX_STARTING_GOLD + 1)
    assert refused.value.code == "bad_option"
    assert make([creature("A")], starting_gold=am.MAX_STARTING_GOLD).gold(1) == am.MAX_STARTING_GOLD
    assert am.MAX_BID >= am.MAX_STARTING_GOLD


def test_block_lot_with_a_creature_has_no_follow_up() -> None:
    engine = make([spell("A"), creature("B"), creature("C")])
    play(engine, BeginTurn(None, active=1), AuctionFromBlock(1, count=2), Bid(1, amount=2), Pass(2))
    assert engine.lot is None and not engine.follow_up_due


def test_block_lot_unsold_goes_to_bottom_in_random_order() -> None:
    engine = make([spell(c) for c in "ABCDEF"])
    play(engine, BeginTurn(None, active=1), AuctionFromBlock(1, count=4))
    effects = play(engine, Pass(1), Pass(2))
    assert of_type(effects, am.LotUnsold)[0].destination == "bottom_random"
    assert engine.block[:2] == [4, 5] and sorted(engine.block[2:]) == [0, 1, 2, 3]


# ---------------------------------------------------------------------------
# 90Y: Commander Auction
# ---------------------------------------------------------------------------


def commander_block() -> list[CardFacts]:
    return [
        creature("Bear"),
        legend("Ayula"),
        spell("Shock"),
        legend("Baral"),
        legend("Cho"),
        creature("Elf"),
    ]


def test_commander_block_must_hold_enough_legends_and_be_singleton() -> None:
    with pytest.raises(RulesError) as info:
        make([legend("A"), creature("B")], commander=True)
    assert info.value.code == "not_enough_legends"
    with pytest.raises(RulesError) as info:
        make([legend("A"), legend("A")], commander=True)
    assert info.value.code == "block_not_singleton"


def test_commander_pregame_bidding_and_free_commander_then_life_40() -> None:
    engine = make(commander_block(), players=(1, 2, 3), commander=True)
    refused(engine, BeginTurn(None, active=1), "pregame_pending")
    effects = play(engine, StartPregame(None))
    assert of_type(effects, am.CardsRevealed)[0].cards == (am.CardRef(0, "Bear"),)
    opened = of_type(effects, am.LotOpened)[0]
    assert opened.cards == (am.CardRef(1, "Ayula"),) and opened.bidders == (1, 2, 3)
    effects = play(engine, Pass(1), Bid(2, amount=3), Pass(3), Pass(1))
    assert of_type(effects, am.CommanderChosen) == [am.CommanderChosen(2, am.CardRef(1, "Ayula"), 3)]
    opened = of_type(effects, am.LotOpened)[0]
    assert opened.bidders == (1, 3) and opened.cards == (am.CardRef(3, "Baral"),)
    effects = play(engine, Pass(1), Pass(3))  # nobody bids: 1 (bidding began with) takes it free
    assert of_type(effects, am.CommanderChosen)[0] == am.CommanderChosen(1, am.CardRef(3, "Baral"), 0)
    opened = of_type(effects, am.LotOpened)[0]
    assert opened.bidders == (3,)
    effects = play(engine, Pass(3))
    assert of_type(effects, am.PregameFinished)
    assert engine.commanders == {2: 1, 1: 3, 3: 4}
    assert all(engine.life[p] == 40 for p in (1, 2, 3))
    assert engine.gold(2) == 7 and engine.command[2] == [1]
    refused(engine, StartPregame(None), "pregame_done")
    play(engine, BeginTurn(None, active=1), CastCommander(1))
    assert engine.played[1] == [3]
    refused(engine, CastCommander(1), "not_in_command_zone")
    play(engine, CommanderToCommandZone(1))
    assert engine.command[1] == [3]


def test_last_bidder_leaving_the_pregame_finishes_it() -> None:
    engine = make(commander_block(), players=(1, 2, 3), commander=True)
    play(engine, StartPregame(None), Pass(1), Pass(2), Pass(3), Pass(2), Pass(3))
    assert set(engine.commanders) == {1, 2}
    effects = play(engine, Concede(3))
    assert of_type(effects, am.PregameFinished)
    assert engine.phase == "between_turns" and engine.lot is None
    check_invariants(engine)


def test_commander_damage_21_loses() -> None:
    engine = make(commander_block(), commander=True)
    play(engine, StartPregame(None), Pass(1), Pass(2), Pass(2))
    assert engine.commanders == {1: 1, 2: 3}
    refused(engine, CommanderDamage(None, target=1, commander=0, amount=5), "not_a_commander")
    play(engine, CommanderDamage(None, target=1, commander=3, amount=20))
    effects = play(engine, CommanderDamage(None, target=1, commander=3, amount=1))
    assert of_type(effects, am.GameOver)[0].winners == (2,)


def test_commander_actions_outside_commander_games() -> None:
    engine = make([creature("Bear")])
    refused(engine, StartPregame(None), "not_commander_game")
    refused(engine, CastCommander(1), "not_commander_game")


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [(1,), (1, 2, 3, 4, 5, 6, 7), ()])
def test_player_count_two_to_six(players: tuple[int, ...]) -> None:
    with pytest.raises(RulesError) as info:
        make([creature("Bear")], players=players)
    assert info.value.code == "bad_player_count"


def test_bad_options_refused() -> None:
    with pytest.raises(RulesError):
        make([creature("Bear")], players=(1, 1))
    with pytest.raises(RulesError):
        make([creature("Bear")], empty_block_rule="coin_flip")
    with pytest.raises(RulesError):
        make([creature("Bear")], income=-1)


def test_engine_is_registered() -> None:
    assert find_engine("auction") is AuctionEngine


def test_string_player_ids_work() -> None:
    engine = make([creature("Bear")], players=("alice", "bob"))
    started(engine, active="alice")
    play(engine, Bid("alice", amount=2), Pass("bob"))
    assert engine.gold("alice") == 8


# ---------------------------------------------------------------------------
# Invariants under random play
# ---------------------------------------------------------------------------

BLOCK = tuple(
    [creature(f"Creature {i}") for i in range(10)]
    + [spell(f"Spell {i}") for i in range(10)]
    + [legend("Zur")]
)


def random_action(engine: AuctionEngine, rnd: random.Random) -> Any:
    """A plausible action (often legal, sometimes not) for the engine's current state."""
    players = list(engine.players)
    anyone = rnd.choice([*players, None, 99])
    someone = rnd.choice(players)
    lot = engine.lot
    kind = rnd.randrange(20)
    if lot is not None and kind < 12:
        bidder = lot.whose_bid() if rnd.randrange(6) else someone
        if rnd.random() < 0.5:
            return Bid(bidder, amount=rnd.randint(-1, engine.gold(bidder) + 2))
        return Pass(bidder if rnd.randrange(10) else None)
    pending = [p for p in players if engine.pending[p]]
    if pending and kind < 14:
        return (Cast if rnd.random() < 0.5 else Keep)(rnd.choice(pending))
    if engine.phase == "between_turns" and kind < 15:
        return BeginTurn(None, active=rnd.choice(players))
    if engine.phase == "beginning" and kind < 15:
        return StartAuctionStep(None)
    choice = rnd.randrange(16)
    if choice == 0:
        return EndTurn(None)
    if choice == 1:
        return Draw(someone, count=rnd.randint(0, 3))
    if choice == 2:
        return LookAtTop(someone, count=rnd.randint(1, 4))
    if choice == 3:
        seen = list(engine.looks.get(someone, ()))
        rnd.shuffle(seen)
        cut = rnd.randint(0, len(seen))
        return Reorder(someone, top=tuple(seen[:cut]), bottom=tuple(seen[cut:]))
    if choice == 4:
        card = rnd.randrange(len(engine.config.cards))
        return ReturnToBlock(anyone, card=card, position=rnd.choice(["top", "bottom"]))
    if choice == 5:
        return Shuffle(anyone)
    if choice == 6:
        return BuyMana(someone, color=rnd.choice(["W", "U", "x"]), count=rnd.randint(0, 4))
    if choice == 7:
        return AdjustGold(anyone, target=someone, delta=rnd.randint(-5, 5))
    if choice == 8:
        return LoseGold(anyone, target=someone, amount=rnd.randint(0, 6))
    if choice == 9:
        held = engine.hand[someone] + engine.played[someone]
        cards = rnd.sample(held, min(len(held), rnd.randint(1, 2))) if held else [0]
        return AuctionOwnCards(someone, cards=tuple(cards))
    if choice == 10:
        return AuctionFromBlock(anyone, count=rnd.randint(1, 3))
    if choice == 11:
        return ReportLife(None, target=someone, life=rnd.randint(-5, 40))
    if choice == 12:
        return StopAuctioning(someone)
    if choice == 13 and rnd.randrange(10) == 0:
        return Concede(someone)
    if choice == 14 and rnd.randrange(10) == 0:
        return DeclareLoss(None, targets=tuple(rnd.sample(players, rnd.randint(1, len(players)))))
    return Bid(anyone, amount=rnd.randint(0, 3))


STEPS = st.lists(st.integers(0, 2**32), min_size=10, max_size=150)


def check_invariants(engine: AuctionEngine) -> None:
    config = engine.config
    ledger = engine.ledger
    expected = (
        len(engine.players) * config.starting_gold
        + ledger["income"]
        - ledger["lots"]
        - ledger["mana"]
        + ledger["gained"]
        - ledger["lost"]
    )
    assert sum(engine.purse.values()) == expected
    assert all(g >= 0 for g in engine.purse.values())
    places: list[int] = list(engine.block)
    if engine.lot is not None:
        places += engine.lot.cards
        amounts = [b.amount for b in engine.lot.bids]
        assert amounts == sorted(set(amounts))
        if engine.lot.high_bidder is not None:
            assert engine.gold(engine.lot.high_bidder) >= engine.lot.high_bid
    for zones in (engine.hand, engine.played, engine.pending, engine.command, engine.exiled):
        for cards in zones.values():
            places += cards
    assert sorted(places) == list(range(len(config.cards)))
    for index in engine.block:
        assert index not in engine.owner


def check_effects(effects: list[Any]) -> None:
    for position, effect in enumerate(effects):
        if isinstance(effect, am.LotSold) and not effect.bids:  # Gilded Idol: bought for nothing
            assert effect.price == 0 and isinstance(effects[position - 1], am.IdolExiled)
        elif isinstance(effect, am.LotSold):
            amounts = [b.amount for b in effect.bids]
            assert amounts == sorted(set(amounts)) and amounts[-1] == effect.price
            assert effect.bids[-1].player == effect.winner
            paid = next(
                e for e in effects[position:] if isinstance(e, am.GoldChanged) and e.player == effect.winner
            )
            assert paid.old >= effect.price and paid.old - paid.new == effect.price


Chooser = Callable[[AuctionEngine, random.Random], Any]


def random_run(engine: AuctionEngine, steps: list[int], choose: Chooser = random_action) -> None:
    """Random actions on ``engine``: a refusal changes nothing; every accepted one keeps the invariants and
    its effects are journal-friendly."""
    for step_seed in steps:
        if engine.is_over():
            break
        action = choose(engine, random.Random(step_seed))
        before = engine.snapshot()
        try:
            effects = engine.apply(action)
        except RulesError:
            assert engine.snapshot() == before
            continue
        check_effects(effects)
        check_invariants(engine)
        for effect in effects:
            to_jsonable(effect)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    players=st.integers(2, 4),
    one_round=st.booleans(),
    rule=st.sampled_from(am.EMPTY_BLOCK_RULES),
    follow_up=st.sampled_from(am.NONCREATURE_FOLLOW_UPS),
    seed=st.integers(0, 2**16),
)
def test_random_play_keeps_invariants(
    data: Any, players: int, one_round: bool, rule: str, follow_up: str, seed: int
) -> None:
    config = AuctionConfig(
        players=tuple(range(1, players + 1)),
        cards=BLOCK,
        one_round_bidding=one_round,
        empty_block_rule=rule,
        noncreature_follow_up=follow_up,
    )
    random_run(AuctionEngine(config, seed=seed), data.draw(STEPS))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_random_commander_games_keep_invariants(data: Any, seed: int) -> None:
    block = tuple([legend(f"Legend {i}") for i in range(4)] + [creature(f"C{i}") for i in range(6)])
    config = AuctionConfig(players=(1, 2, 3), cards=block, commander=True)
    engine = AuctionEngine(config, seed=seed)
    engine.apply(StartPregame(None))
    random_run(engine, data.draw(STEPS))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_journal_round_trip(data: Any, seed: int) -> None:
    journal_replay(AuctionEngine(AuctionConfig(players=(1, 2, 3), cards=BLOCK), seed=seed), data.draw(STEPS))


def journal_replay(engine: AuctionEngine, steps: list[int], choose: Chooser = random_action) -> None:
    """Random actions through a journaled table; replaying the journal gives the same state."""
    journal = Journal(":memory:")
    table = Table.create(journal, "game-1", engine)
    live = table.engine
    assert isinstance(live, AuctionEngine)
    for step_seed in steps:
        if live.is_over():
            break
        action = choose(live, random.Random(step_seed))
        try:
            table.apply(action)
        except RulesError:
            continue
        assert decode_action(AuctionEngine, encode_action(action)) == action
    assert journal.restore("game-1").snapshot() == live.snapshot()
    journal.close()


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.text(max_size=8),
    st.lists(st.integers(-3, 30), max_size=4).map(tuple),
    st.lists(st.integers(), max_size=2),
    st.sampled_from([1, 2, 3, "W", "top", "bottom", "Creature 3", 0, ()]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_malformed_actions_only_raise_rules_error(data: Any, seed: int) -> None:
    """Actions decoded from anywhere, with any field values, never crash the engine."""
    engine = AuctionEngine(AuctionConfig(players=(1, 2, 3), cards=BLOCK), seed=seed)
    play(engine, BeginTurn(None, active=1), Draw(1, count=2))
    if data.draw(st.booleans()):
        play(engine, StartAuctionStep(None))
    for _ in range(8):
        cls = data.draw(st.sampled_from(AuctionEngine.action_types))
        values = {f.name: data.draw(JUNK) for f in dataclasses.fields(cls)}
        action = cls(**values)
        before = engine.snapshot()
        try:
            engine.apply(action)
        except RulesError:
            assert engine.snapshot() == before
            continue
        check_invariants(engine)


def test_player_leaving_mid_lot_does_not_void_the_standing_bid() -> None:
    """More cases in test_auction_leaving.py."""
    engine = make([creature("Bear"), creature("Elf")], players=(1, 2, 3))
    started(engine)
    play(engine, Bid(1, amount=2))
    effects = play(engine, Concede(2))
    assert not of_type(effects, am.LotUnsold) and not of_type(effects, am.LotOpened)
    assert engine.lot is not None and engine.lot.bidders == (1, 3)
    assert (engine.lot.high_bid, engine.lot.high_bidder, engine.whose_bid()) == (2, 1, 3)


def test_every_action_type_round_trips_through_the_codec() -> None:
    for cls in AuctionEngine.action_types:
        action = cls(None)
        assert decode_action(AuctionEngine, encode_action(action)) == action
    sample = Reorder(1, top=(3, 1), bottom=(2,))
    assert decode_action(AuctionEngine, encode_action(sample)) == sample
    own = AuctionOwnCards("bob", cards=("Shock", 4))
    assert decode_action(AuctionEngine, encode_action(own)) == own
    assert dataclasses.is_dataclass(AuctionConfig)


def test_check_does_not_change_anything_and_queries_report_state() -> None:
    engine = make([spell("Opt"), creature("Bear")])
    started(engine)
    before = engine.snapshot()
    engine.check(Bid(1, amount=3))
    with pytest.raises(RulesError):
        engine.check(Bid(2, amount=3))
    assert engine.snapshot() == before
    assert engine.whose_turn() == 1 and engine.turn == 1 and engine.block_size() == 1
    assert engine.card_zone(0) == ("lot", None) and engine.card_zone(1) == ("block", None)
    play(engine, Bid(1, amount=3), Pass(2))
    assert engine.card_zone(0) == ("pending", 1)
    assert engine.whose_bid() is None and engine.current_lot() is None
