"""Auction Magic engine: players who leave mid-lot, `!stop` outside the auction step, and how a game ended.

A bidder who leaves (concedes, disconnects) does not void another player's standing bid: the lot goes on
without them (90X.2 / 800.4a say nothing more). Only the high bidder's leaving voids the bids, as when a
high bidder can no longer pay (90X.5d).
"""

from __future__ import annotations

import random
from typing import Any

from formats.test_auction import (
    BLOCK,
    STEPS,
    check_invariants,
    commander_block,
    creature,
    make,
    of_type,
    play,
    random_action,
    refused,
    spell,
    started,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.auction import (
    AuctionConfig,
    AuctionEngine,
    AuctionFromBlock,
    AuctionOwnCards,
    BeginTurn,
    Bid,
    Concede,
    DeclareLoss,
    DeclareWin,
    Draw,
    Pass,
    StartPregame,
    StopAuctioning,
)
from cockatrice_ext.formats.base import RulesError

LEFT = "left"


def leaves(engine: AuctionEngine, player: Any) -> list[Any]:
    """``player`` disconnects: the referee declares them out, as the bot does."""
    return play(engine, DeclareLoss(None, targets=(player,), reason=LEFT))


# ---------------------------------------------------------------------------
# A bidder who is not the high bidder leaves: the lot goes on, the bid stands
# ---------------------------------------------------------------------------


def test_the_next_bidder_leaving_keeps_the_standing_bid_and_passes_the_turn_on() -> None:
    """The field report: alice bids 1, carol (to bid next) leaves; alice's bid stands and bob bids next."""
    engine = make([creature("Basilisk"), creature("Elf")], players=(1, 3, 2))  # alice 1, carol 3, bob 2
    started(engine)
    play(engine, Bid(1, amount=1))
    assert engine.whose_bid() == 3
    effects = leaves(engine, 3)
    assert of_type(effects, am.BidderLeft) == [am.BidderLeft(1, 3, 1, 1, 2)]
    assert not of_type(effects, am.LotUnsold) and not of_type(effects, am.LotOpened)
    assert engine.lot is not None and engine.lot.lot_no == 1 and engine.lot.bidders == (1, 2)
    assert (engine.lot.high_bid, engine.lot.high_bidder, engine.whose_bid()) == (1, 1, 2)
    effects = play(engine, Pass(2))
    (sold,) = of_type(effects, am.LotSold)
    assert (sold.lot_no, sold.winner, sold.price, sold.bids) == (1, 1, 1, (am.BidRecord(1, 1),))
    assert engine.lots_opened == 1  # offered once: the price report counts it once


def test_the_lot_is_sold_when_only_the_high_bidder_has_not_passed() -> None:
    engine = make([creature("Bear"), creature("Elf")], players=(1, 2, 3))
    started(engine)
    play(engine, Bid(1, amount=2), Pass(2))
    effects = leaves(engine, 3)  # the last one to answer leaves: everyone else has passed
    assert of_type(effects, am.BidderLeft) == [am.BidderLeft(1, 3, 2, 1, None)]
    (sold,) = of_type(effects, am.LotSold)
    assert (sold.winner, sold.price) == (1, 2)
    assert engine.lot is None and engine.pending[1] == [0] and engine.gold(1) == 8


def test_a_player_who_already_passed_leaving_does_not_count_as_a_pass_any_more() -> None:
    engine = make([creature("Bear"), creature("Elf")], players=(1, 2, 3, 4))
    started(engine)
    play(engine, Bid(1, amount=1), Pass(2))
    effects = leaves(engine, 2)
    assert of_type(effects, am.BidderLeft) == [am.BidderLeft(1, 2, 1, 1, 3)]
    play(engine, Pass(3))
    assert engine.lot is not None and engine.whose_bid() == 4  # 3 and 4 must both pass
    effects = play(engine, Pass(4))
    assert of_type(effects, am.LotSold)[0].winner == 1


def test_a_player_not_yet_asked_leaving_changes_nothing_else() -> None:
    engine = make([creature("Bear"), creature("Elf")], players=(1, 2, 3, 4))
    started(engine)
    play(engine, Pass(1), Bid(2, amount=3))
    effects = leaves(engine, 4)
    assert of_type(effects, am.BidderLeft) == [am.BidderLeft(1, 4, 3, 2, 3)]
    effects = play(engine, Pass(3), Pass(1))
    assert of_type(effects, am.LotSold)[0].winner == 2


def test_an_unbid_lot_goes_unsold_when_everyone_left_has_passed() -> None:
    engine = make([creature("Bear"), creature("Elf")], players=(1, 2, 3))
    started(engine)
    play(engine, Pass(1), Pass(2))
    effects = leaves(engine, 3)
    (unsold,) = of_type(effects, am.LotUnsold)
    assert (unsold.reason, unsold.destination) == ("no_bid", "bottom")
    assert of_type(effects, am.LotOpened)[0].cards == (am.CardRef(1, "Elf"),)  # the step goes on


def test_the_boards_variant_counts_each_remaining_players_one_turn() -> None:
    engine = make([creature("Bear"), creature("Elf")], players=(1, 2, 3), one_round_bidding=True)
    started(engine)
    play(engine, Bid(1, amount=2))
    effects = leaves(engine, 2)  # to act: 3 acts next and last
    assert of_type(effects, am.BidderLeft) == [am.BidderLeft(1, 2, 2, 1, 3)]
    effects = play(engine, Bid(3, amount=3))
    assert of_type(effects, am.LotSold)[0].winner == 3
    earlier = make([creature("Bear"), creature("Elf")], players=(1, 2, 3), one_round_bidding=True)
    started(earlier)
    play(earlier, Pass(1), Bid(2, amount=1))
    effects = leaves(earlier, 1)  # had their one turn: 3 still has theirs
    assert of_type(effects, am.BidderLeft)[0].to_bid == 3
    assert of_type(play(earlier, Pass(3)), am.LotSold)[0].winner == 2


def test_the_last_player_to_vote_stop_leaving_ends_the_auction_step() -> None:
    engine = make([creature("Bear"), creature("Elf")], players=(1, 2, 3))
    started(engine)
    play(engine, StopAuctioning(1), StopAuctioning(2))
    effects = leaves(engine, 3)
    assert of_type(effects, am.AuctionStepEnded) == [am.AuctionStepEnded(1, "players_stopped")]
    assert engine.lot is None and engine.phase == "main" and engine.block == [1, 0]


def test_a_lot_put_up_by_a_card_effect_goes_on_without_a_bidder_who_leaves() -> None:
    engine = make([creature("Bear"), spell("Shock"), creature("Elf")], players=(1, 2, 3))
    play(engine, BeginTurn(None, active=1), AuctionFromBlock(1, count=1), Bid(1, amount=2))
    effects = leaves(engine, 2)
    assert of_type(effects, am.BidderLeft)[0].to_bid == 3 and engine.lot is not None
    assert of_type(play(engine, Pass(3)), am.LotSold)[0].winner == 1
    owned = make([spell("Shock"), creature("Bear")], players=(1, 2, 3))
    play(owned, BeginTurn(None, active=1), Draw(1, count=1), AuctionOwnCards(1, cards=("Shock",)))
    play(owned, Bid(2, amount=3))
    effects = leaves(owned, 3)
    (sold,) = of_type(effects, am.LotSold)  # 2 was the only other bidder
    assert (sold.winner, sold.seller, owned.gold(1)) == (2, 1, 13)


def test_a_seller_who_leaves_takes_their_unsold_cards_with_them() -> None:
    engine = make([spell("Shock"), creature("Bear")], players=(1, 2, 3))
    play(engine, BeginTurn(None, active=1), Draw(1, count=1), AuctionOwnCards(1, cards=("Shock",)))
    play(engine, Bid(2, amount=3))
    effects = leaves(engine, 1)
    (unsold,) = of_type(effects, am.LotUnsold)
    assert (unsold.destination, unsold.reason) == ("returned", "player_left")
    assert engine.lot is None and engine.gold(2) == 10


# ---------------------------------------------------------------------------
# The high bidder leaves: the bids are void and bidding starts over in the same lot
# ---------------------------------------------------------------------------


def test_the_high_bidder_leaving_voids_the_bids_and_bidding_starts_over_in_the_same_lot() -> None:
    engine = make([creature("Bear"), creature("Elf")], players=(1, 2, 3))
    started(engine)
    play(engine, Bid(1, amount=1), Bid(2, amount=2))
    effects = leaves(engine, 2)
    (restarted,) = of_type(effects, am.BiddingRestarted)
    assert restarted == am.BiddingRestarted(1, 2, (am.BidRecord(1, 1), am.BidRecord(2, 2)), "player_left")
    assert not of_type(effects, am.LotUnsold) and not of_type(effects, am.LotOpened)
    assert engine.lot is not None and engine.lot.lot_no == 1 and engine.lot.bidders == (1, 3)
    assert (engine.lot.high_bid, engine.whose_bid()) == (0, 1)
    effects = play(engine, Bid(1, amount=1), Pass(3))
    (sold,) = of_type(effects, am.LotSold)
    assert (sold.lot_no, sold.price, sold.bids) == (1, 1, (am.BidRecord(1, 1),))


def test_a_commander_lot_goes_on_without_a_bidder_who_leaves() -> None:
    engine = make(commander_block(), players=(1, 2, 3), commander=True)
    play(engine, StartPregame(None), Bid(1, amount=2))
    effects = leaves(engine, 2)
    assert of_type(effects, am.BidderLeft)[0].to_bid == 3
    effects = play(engine, Pass(3))
    assert of_type(effects, am.CommanderChosen)[0].player == 1
    play(engine, Pass(3))  # the next legend: 3 alone, unbid, takes it free
    assert set(engine.commanders) == {1, 3} and engine.phase == "between_turns"


# ---------------------------------------------------------------------------
# Property: a leaver who is not the high bidder never voids a standing bid
# ---------------------------------------------------------------------------


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(3, 5), one_round=st.booleans(), seed=st.integers(0, 2**16))
def test_a_standing_bid_survives_any_other_players_departure(
    data: Any, players: int, one_round: bool, seed: int
) -> None:
    config = AuctionConfig(players=tuple(range(1, players + 1)), cards=BLOCK, one_round_bidding=one_round)
    engine = AuctionEngine(config, seed=seed)
    for step in data.draw(STEPS):
        if engine.is_over():
            return
        lot = engine.lot
        others = [p for p in engine.living() if lot is not None and p != lot.high_bidder and p != lot.seller]
        if lot is not None and lot.high_bidder is not None and others and len(engine.living()) > 2:
            leaver = random.Random(step).choice(others)
            number, bid, bidder = lot.lot_no, lot.high_bid, lot.high_bidder
            effects = leaves(engine, leaver)
            check_invariants(engine)
            sold = [e for e in of_type(effects, am.LotSold) if e.lot_no == number]
            if sold:
                assert (sold[0].winner, sold[0].price) == (bidder, bid)
            else:
                assert engine.lot is not None and engine.lot.lot_no == number
                assert (engine.lot.high_bidder, engine.lot.high_bid) == (bidder, bid)
                assert leaver not in engine.lot.bidders
            assert not any(e.lot_no == number for e in of_type(effects, am.LotUnsold))
            continue
        try:
            engine.apply(random_action(engine, random.Random(step)))
        except RulesError:
            continue


# ---------------------------------------------------------------------------
# !stop is a vote to end the auction step: refused truthfully elsewhere
# ---------------------------------------------------------------------------


def test_stop_during_a_lot_put_up_by_a_card_effect_says_it_is_not_the_auction_step() -> None:
    """The field report: `!lot 1` put a card up; `!stop` answered "nothing is up for auction"."""
    engine = make([creature("Corpsejack Menace"), creature("Elf")])
    play(engine, BeginTurn(None, active=2), AuctionFromBlock(2, count=1))
    error = refused(engine, StopAuctioning(1), "not_auction_step_lot")
    assert error.details == {"lot_no": 1, "kind": "from_block", "seller": None, "first_bidder": 2}
    owned = make([spell("Shock"), creature("Bear")], players=(1, 2, 3))
    play(owned, BeginTurn(None, active=1), Draw(1, count=1), AuctionOwnCards(1, cards=("Shock",)))
    error = refused(owned, StopAuctioning(2), "not_auction_step_lot")
    assert (error.details["kind"], error.details["seller"]) == ("owned", 1)
    pregame = make(commander_block(), players=(1, 2), commander=True)
    play(pregame, StartPregame(None))
    assert refused(pregame, StopAuctioning(2), "not_auction_step_lot").details["kind"] == "commander"


def test_stop_with_no_card_up_says_why() -> None:
    engine = make([spell("Shock"), creature("Bear"), creature("Elf")])
    refused(engine, StopAuctioning(1), "no_auction_step")
    started(engine)
    play(engine, Bid(1, amount=1), Pass(2))  # a noncreature bought: the next card waits for the choice
    assert refused(engine, StopAuctioning(2), "choice_pending").details == {"player": 1}
    play(engine, am.Keep(1))
    play(engine, StopAuctioning(2))  # the follow-up lot is part of the step: the vote counts


# ---------------------------------------------------------------------------
# How the game ended: whose loss ended it
# ---------------------------------------------------------------------------


def test_the_engine_remembers_whose_loss_ended_the_game() -> None:
    engine = make([creature("Bear")] * 3)
    play(engine, Concede(2))
    assert (engine.winners, engine.end_reason, engine.ended_by) == ((1,), "conceded", (2,))
    three = make([creature("Bear")] * 3, players=(1, 2, 3))
    leaves(three, 3)
    play(three, Concede(1))
    assert (three.winners, three.end_reason, three.ended_by) == ((2,), "conceded", (1,))
    declared = make([creature("Bear")] * 3)
    play(declared, DeclareWin(None, targets=(1,), reason="alt_win"))
    assert (declared.end_reason, declared.ended_by) == ("alt_win", ())
    assert declared.snapshot()["ended_by"] == []
