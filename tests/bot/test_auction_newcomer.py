"""Auction Magic for a player who never read the rules, learning from the referee's chat alone (no server).

Seen in the field: after the opening line nobody was told how a turn's auction starts (``!bid 3`` answered
"nothing is up for auction"), ``!draw`` before the turn's auction handed out a free card, and ``!bid 0``
never said how to decline.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bot.test_auction_turn_words import Game
from bot.test_auction_view import creature, engine_with, name_of, spell, started, view_of
from bot.test_auction_wording import referee_for, refusal

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee, render_view
from cockatrice_ext.bot.commands import BadArgument, CommandSet
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.base import RulesError

HOW = "go to your draw step (or say !auction) and the top card comes up for auction"


def test_each_turn_says_how_its_auction_starts_with_the_income_line() -> None:
    """The turn change's chat (the income line without judge rights) names whose turn it is and how its
    card comes up; a turn whose auction starts at once (``auction_at=turn``, or in the same batch) needs no
    such words."""
    engine = engine_with([creature("Bear"), creature("Imp"), creature("Elf")])
    started(engine)
    view = view_of(engine, am.Pass(1), am.Pass(2), am.EndTurn(None), am.BeginTurn(None, active=2))
    assert view.chat[-2:] == ["Income +3: alice 13, bob 13 gold.", f"bob's turn: {HOW}."]
    judged = view_of(engine, am.EndTurn(None), am.BeginTurn(None, active=1), judge=True)
    assert judged.chat == [f"alice's turn: {HOW}."]  # no income line to carry it: the turn line alone,
    assert judged.turn == judged.chat[0]  # which the referee holds for the turn's next line
    quick = engine_with([creature("Bear"), creature("Imp")])
    effects = quick.apply(am.BeginTurn(None, active=1))
    assert render_view(effects, quick, name_of, judge=False, auction_at="turn").chat == []
    assert started(engine_with([creature("Bear")])).chat[0].startswith("Auction 1: Bear")


def test_a_bid_with_nothing_up_says_whose_turn_it_is_and_how_the_card_comes_up() -> None:
    engine = engine_with([spell("Shock"), creature("Bear"), creature("Imp")])
    view_of(engine, am.BeginTurn(None, active=1))
    assert (
        refusal(engine, am.Bid(2, amount=3))
        == f"nothing is up for auction yet: it is alice's turn; alice: {HOW}"
    )
    view_of(engine, am.StartAuctionStep(None), am.Bid(1, amount=1), am.Pass(2))  # Shock bought: a choice
    assert refusal(engine, am.Bid(2, amount=1)) == (
        "nothing is up for auction yet: the next card goes up once alice says !cast or !keep"
    )
    view_of(engine, am.Keep(1), am.Bid(1, amount=1), am.Pass(2))  # Bear bought: the step is over
    view_of(engine, am.Cast(1))
    assert refusal(engine, am.Pass(2)) == (
        "nothing is up for auction: alice's turn has had its auction; the next comes up at the next player's"
        " draw step (or on their !auction)"
    )
    view_of(engine, am.EndTurn(None))
    assert refusal(engine, am.Bid(1, amount=1)) == (
        "nothing is up for auction: the next comes up at the next player's draw step (or on their !auction)"
    )
    referee = referee_for(engine)
    referee.options = AuctionOptions(auction_at="turn")
    with pytest.raises(RulesError) as info:
        engine.apply(am.Bid(1, amount=1))
    assert (
        referee.explain(info.value) == "nothing is up for auction: the next comes up as the next turn begins"
    )


def test_bid_zero_says_that_one_declines_with_pass() -> None:
    from cockatrice_ext.bot.auction import with_decline_hint

    commands = CommandSet(AuctionReferee.__new__(AuctionReferee))
    with_decline_hint(commands)
    for said in ("0", "-2"):
        with pytest.raises(BadArgument) as info:
            commands.specs["bid"].convert(said)
        assert (
            info.value.reason == f"AMOUNT must be between 1 and {am.MAX_BID}; to decline the card, say !pass"
        )
    with pytest.raises(BadArgument) as info:
        commands.specs["b"].convert(str(am.MAX_BID + 1))
    assert "!pass" not in info.value.reason  # too much is not a way to decline
    assert commands.specs["b"].convert("3") == [3]
    assert commands.specs["bid"].usage == "!bid AMOUNT"


def test_the_first_early_draw_of_the_active_player_is_asked_about_once(tmp_path: Path) -> None:
    """Before the turn's auction, the active player's first ``!draw`` is answered with how the auction
    starts; the repeat draws (an upkeep effect may make them draw). Others' draws and later draws are not
    asked about."""
    game = Game(
        tmp_path / "journal.sqlite3", [creature("Bear"), creature("Imp"), creature("Elf"), creature("Orc")]
    )
    referee = game.start_referee()
    engine = referee.engine
    view_of(engine, am.BeginTurn(None, active=1))
    assert not referee.draw_needs_asking(2)  # not bob's turn
    assert referee.draw_needs_asking(1)
    assert not referee.draw_needs_asking(1)  # the repeat draws
    view_of(engine, am.EndTurn(None), am.BeginTurn(None, active=2))
    assert referee.draw_needs_asking(2)  # a new turn: asked again
    view_of(engine, am.StartAuctionStep(None))
    assert not referee.draw_needs_asking(2)  # a lot is up (the engine refuses the draw itself)
    view_of(engine, am.Pass(2), am.Pass(1))  # unsold, the next lot is up
    view_of(engine, am.StopAuctioning(2), am.StopAuctioning(1))
    assert engine.phase == "main"
    assert not referee.draw_needs_asking(2)  # after the turn's auction: a card effect's draw
