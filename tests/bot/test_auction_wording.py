"""Auction Magic in words (no server): a player leaving mid-lot, `!stop` refused outside the auction step,
and `!state` after the game ended, each as the smoke test as players found them wrong."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from bot.test_auction_view import NAMES, creature, engine_with, legend, name_of, spell, started, view_of

from cockatrice_ext.bot.auction import AuctionReferee, render_view
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.base import RulesError


def referee_for(engine: am.AuctionEngine) -> AuctionReferee:
    """A referee of ``engine`` without a server: enough for its refusals and ``!state``."""
    referee = AuctionReferee.__new__(AuctionReferee)
    referee.engine_names = dict(NAMES)
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    return referee


def refusal(engine: am.AuctionEngine, action: Any) -> str:
    with pytest.raises(RulesError) as info:
        engine.apply(action)
    return referee_for(engine).explain(info.value)


def left(player: int) -> am.DeclareLoss:
    return am.DeclareLoss(None, targets=(player,), reason="left")


# ---------------------------------------------------------------------------
# Item 5: a player who leaves mid-lot
# ---------------------------------------------------------------------------


def test_a_bidder_who_leaves_is_said_in_one_line_with_the_bid_that_stands() -> None:
    """Seen: "carol left the game. | A bidder left during auction 8: Daggerback Basilisk goes up again
    without them." while alice's bid of 1 stood; the lot went up again as auction 9."""
    engine = engine_with([creature("Daggerback Basilisk"), creature("Imp")], players=(1, 3, 2))
    started(engine)
    view_of(engine, am.Bid(1, amount=1))
    view = view_of(engine, left(3))
    assert view.chat == [
        "carol left the game; auction 1 goes on without them: alice's bid of 1 stands, bob to bid."
    ]
    assert view.lot_note.startswith("Auction 1: Daggerback Basilisk\nHigh bid: 1 by alice\nTo bid: bob")
    assert "carol" not in view.lot_note
    conceded = engine_with([creature("Bear"), creature("Imp")], players=(1, 2, 3))
    started(conceded)
    view = view_of(conceded, am.Pass(1), am.Concede(2))
    assert view.chat == ["bob conceded; auction 1 goes on without them: no bid yet, carol to bid."]


def test_a_bidder_who_leaves_last_is_followed_by_the_sale() -> None:
    engine = engine_with([creature("Bear"), creature("Imp")], players=(1, 2, 3))
    started(engine)
    view_of(engine, am.Bid(1, amount=2), am.Pass(2))
    view = view_of(engine, left(3))
    assert view.chat[:2] == [
        "carol left the game; everyone else has passed on auction 1.",
        "Sold: Bear to alice for 2 (8 gold left).",
    ]
    assert view.lot_note == ""


def test_the_high_bidder_who_leaves_voids_the_bids_in_one_line() -> None:
    engine = engine_with([creature("Bear"), creature("Imp")], players=(1, 2, 3))
    started(engine)
    view_of(engine, am.Bid(1, amount=1), am.Bid(2, amount=2))
    view = view_of(engine, left(2))
    assert view.chat == [
        "bob left the game with the high bid of 2: the bids on auction 1 are void and bidding starts again"
        " with alice."
    ]
    assert view.lot_note.startswith("Auction 1: Bear\nNo bid yet\nTo bid: alice")


def test_a_seller_who_leaves_is_not_called_a_bidder() -> None:
    engine = engine_with([spell("Shock"), creature("Bear")], players=(1, 2, 3))
    view_of(
        engine, am.BeginTurn(None, active=1), am.Draw(1, count=1), am.AuctionOwnCards(1, cards=("Shock",))
    )
    view = view_of(engine, left(1))
    assert "The seller left during auction 1: Shock leaves the game with them." in view.chat
    assert not any("goes up again" in line or "A bidder" in line for line in view.chat)


# ---------------------------------------------------------------------------
# Item 3: !stop is a vote to end the auction step; other lots end by bidding
# ---------------------------------------------------------------------------


def test_stop_during_a_lot_put_up_with_lot_says_how_that_lot_ends() -> None:
    """Seen: `!lot 1` put Corpsejack Menace up; `!stop` answered "nothing is up for auction"."""
    engine = engine_with([creature("Corpsejack Menace"), creature("Imp")])
    view_of(engine, am.BeginTurn(None, active=2), am.AuctionFromBlock(2, count=1))
    said = refusal(engine, am.StopAuctioning(1))
    assert said == (
        "!stop only ends the auction step; auction 1 (put up with !lot) is not part of it and ends when its"
        " bidding does (!bid N or !pass); unbid, it goes to the bottom of the block"
    )


def test_stop_during_a_sale_or_the_commander_pregame_says_how_those_end() -> None:
    owned = engine_with([spell("Shock"), creature("Bear")], players=(1, 2, 3))
    view_of(owned, am.BeginTurn(None, active=1), am.Draw(1, count=1), am.AuctionOwnCards(1, cards=("Shock",)))
    assert refusal(owned, am.StopAuctioning(2)).endswith(
        "auction 1 (alice's !sell) is not part of it and ends when its bidding does (!bid N or !pass);"
        " unbid, it stays with alice"
    )
    config = am.AuctionConfig(
        players=(1, 2), cards=(legend("Ayula"), legend("Baral")), shuffle_block=False, commander=True
    )
    pregame = am.AuctionEngine(config, seed=1)
    pregame.apply(am.StartPregame(None))
    assert refusal(pregame, am.StopAuctioning(2)).endswith("unbid, alice takes it free (90Y.4a)")


def test_gilded_idol_during_a_sale_says_the_lot_was_not_revealed_from_the_block() -> None:
    """Seen in review: Gilded Idol during a ``!sell`` lot answered "nothing is up for auction"."""
    owned = engine_with([spell("Shock"), creature("Bear")], players=(1, 2, 3))
    view_of(owned, am.BeginTurn(None, active=1), am.Draw(1, count=1), am.AuctionOwnCards(1, cards=("Shock",)))
    assert refusal(owned, am.UseGildedIdol(2)) == (
        "Gilded Idol buys a card as it is revealed from the block; auction 1 was not revealed from it"
    )


def test_stop_with_no_card_up_says_why() -> None:
    engine = engine_with([spell("Shock"), creature("Bear"), creature("Imp")])
    assert (
        refusal(engine, am.StopAuctioning(1))
        == "!stop is a vote to end the auction step, and none is running"
    )
    started(engine)
    view_of(engine, am.Bid(1, amount=1), am.Pass(2))
    assert refusal(engine, am.StopAuctioning(2)) == (
        "no card is up yet: the next goes up once alice says !cast or !keep; !stop then"
    )


# ---------------------------------------------------------------------------
# Item 6: !state after the game ended names whose loss ended it
# ---------------------------------------------------------------------------


def state_after(engine: am.AuctionEngine, *actions: Any) -> str:
    effects: list[Any] = []
    for action in actions:
        effects += engine.apply(action)
    game_over = render_view(effects, engine, name_of, judge=False).chat[0]
    return game_over + " || " + referee_for(engine).status_line()


def test_state_after_a_concession_names_who_conceded() -> None:
    """Seen: "Game over: alice won (conceded) on turn 8", as if the winner had conceded."""
    engine = engine_with([creature("Bear"), creature("Imp")])
    started(engine)
    said = state_after(engine, am.Concede(2))
    assert said.startswith(
        "Game over: alice wins (bob conceded). || Game over: alice won (bob conceded) on turn 1;"
    )


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda e: [left(2)], "alice won (bob left the game)"),
        (
            lambda e: [am.DeclareLoss(None, targets=(1,), reason="life")],
            "bob won (alice lost: life)",
        ),
        (
            lambda e: [am.EndTurn(None), am.BeginTurn(None, active=2), am.Draw(2, count=3)],
            "alice won (bob lost by drawing from the empty block)",
        ),
        (
            lambda e: [am.DeclareWin(None, targets=(1, 2), reason="")],
            "alice and bob won (declared)",
        ),
    ],
)
def test_every_end_reason_reads_right_in_state(make: Any, expected: str) -> None:
    engine = engine_with([creature("Bear"), creature("Imp")])
    started(engine)
    said = state_after(engine, *make(engine))
    assert f"|| Game over: {expected}" in said, said


def test_an_empty_block_reads_right_under_each_rule() -> None:
    for rule, expected in (
        ("active_player_loses", "bob won (alice lost: the block was empty when their auction was due)"),
        ("draw", "a draw (the block ran out)"),
        ("higher_life_wins", "alice won (the block ran out; the highest life total wins)"),
    ):
        config = am.AuctionConfig(players=(1, 2), cards=(), shuffle_block=False, empty_block_rule=rule)
        engine = am.AuctionEngine(config, seed=1)
        said = state_after(
            engine,
            am.BeginTurn(None, active=1),
            am.ReportLife(None, target=2, life=3),
            am.StartAuctionStep(None),
        )
        assert f"|| Game over: {expected} on turn 1" in said, said


def test_commander_damage_reads_right_in_state() -> None:
    config = am.AuctionConfig(
        players=(1, 2), cards=(legend("Ayula"), legend("Baral")), shuffle_block=False, commander=True
    )
    engine = am.AuctionEngine(config, seed=1)
    engine.apply(am.StartPregame(None))
    engine.apply(am.Pass(1))
    engine.apply(am.Pass(2))
    engine.apply(am.Pass(2))
    said = state_after(engine, am.CommanderDamage(None, target=2, commander=0, amount=21))
    assert "|| Game over: alice won (bob lost to commander damage)" in said, said


# ---------------------------------------------------------------------------
# Smoke test 2, item 6: a two-card !lot, and the loser's gold after the end
# ---------------------------------------------------------------------------


def test_a_two_card_lot_is_said_as_two_cards_and_cast_without_a_name_lists_them() -> None:
    """Seen: "Auction 2: Naturalize (instant), Chimney Imp (creature 2/1) (the card on the referee's table)",
    then `!cast` got "which one? name it exactly" without the two names."""
    engine = engine_with([spell("Naturalize"), creature("Chimney Imp"), creature("Bear")])
    view_of(engine, am.BeginTurn(None, active=1))
    opened = view_of(engine, am.AuctionFromBlock(1, count=2))
    assert opened.chat == [
        "Auction 1: Naturalize (instant), Chimney Imp (creature 2/2) (the cards on the referee's table)."
        " alice to bid."
    ]
    view_of(engine, am.Bid(1, amount=1), am.Pass(2))
    for action in (am.Cast(1, card=None), am.Keep(1, card=None)):
        assert refusal(engine, action) == (
            "which one: Naturalize or Chimney Imp? say it with the card's name"
        )
    assert refusal(engine, am.Cast(1, card="Shock")) == "no such card here"


def test_state_after_the_end_lists_the_loser_s_gold_too() -> None:
    """Seen: "Game over: alice won (bob conceded) on turn 6; gold alice 12; block 185", without bob's."""
    engine = engine_with([creature("Bear"), creature("Imp")])
    started(engine)
    view_of(engine, am.Bid(1, amount=3), am.Pass(2))
    said = state_after(engine, am.Concede(2))
    assert said.endswith(
        "|| Game over: alice won (bob conceded) on turn 1; gold alice 7, bob 10; block 1."
    ), said
