"""Auction lines as players read them (no server): a draw past the block says who lost and why in one line
(90X.3f), and every count-dependent word agrees with its count ("Bear and 1 more go", "1 card").

Left open last session: "alice drew from the empty block" (no word of a loss, and in a game of three the game
went on, so the table could not tell), and "... and 1 more goes to the bottom".
"""

from __future__ import annotations

import re

from bot.test_auction_view import creature, engine_with, view_of
from bot.test_auction_wording import refusal, state_after

from cockatrice_ext.formats import auction as am


def test_a_draw_past_the_block_says_who_lost_and_why_in_one_line() -> None:
    engine = engine_with([creature("Bear"), creature("Imp")], players=(1, 2, 3))
    view_of(engine, am.BeginTurn(None, active=1))
    view = view_of(engine, am.Draw(1, count=3))
    assert "alice lost by drawing from the empty block." in view.chat, view.chat
    assert engine.is_over() is False  # three players: the game goes on, so the line alone says the loss


def test_a_two_player_draw_past_the_block_ends_the_game_naming_the_loser() -> None:
    engine = engine_with([creature("Bear"), creature("Imp")])
    said = state_after(engine, am.BeginTurn(None, active=1), am.Draw(1, count=3))
    assert said.startswith("Game over: bob wins (alice lost by drawing from the empty block). || "), said
    assert "Game over: bob won (alice lost by drawing from the empty block) on turn 1" in said, said


def test_an_auction_due_from_an_empty_block_says_who_lost_and_why() -> None:
    config = am.AuctionConfig(players=(1, 2, 3), cards=(), shuffle_block=False)
    engine = am.AuctionEngine(config, seed=1)
    view = view_of(engine, am.BeginTurn(None, active=1), am.StartAuctionStep(None))
    assert "alice lost: the block was empty when their auction was due." in view.chat, view.chat


def unsold(cards: int, *, long: bool = False) -> list[str]:
    """The lines of a lot of ``cards`` cards that nobody bids on (names too long to list whole: ``long``)."""
    name = "Extraordinarily Long Creature Name Number {}" if long else "Card {}"
    engine = engine_with([creature(name.format(i)) for i in range(cards + 1)])
    view_of(engine, am.BeginTurn(None, active=1), am.AuctionFromBlock(1, count=cards))
    return list(view_of(engine, am.Pass(1), am.Pass(2)).chat)


def test_an_unsold_lot_s_verb_agrees_with_its_cards() -> None:
    assert unsold(1) == ["No bids: Card 0 goes to the bottom."]
    assert unsold(2) == ["No bids: Card 0, Card 1 go to the bottom."]
    shortened = next(line for n in range(2, 12) for line in unsold(n, long=True) if " and 1 more " in line)
    assert shortened.endswith(" and 1 more go to the bottom."), shortened
    assert not any(
        re.search(r"\band \d+ more goes\b", line) for n in range(2, 9) for line in unsold(n, long=True)
    )


def test_a_lot_unsold_as_the_turn_ends_and_a_seller_leaving_agree_too() -> None:
    engine = engine_with([creature(f"Card {i}") for i in range(4)])
    view_of(engine, am.BeginTurn(None, active=1), am.AuctionFromBlock(1, count=2))
    ended = view_of(engine, am.EndTurn(None))
    assert "The turn ended during auction 1: Card 0, Card 1 go to the bottom unsold." in ended.chat, (
        ended.chat
    )
    seller = engine_with([creature(f"Card {i}") for i in range(5)], players=(1, 2, 3))
    view_of(seller, am.BeginTurn(None, active=1), am.Draw(1, count=2), am.Draw(1, count=1))
    opened = view_of(seller, am.AuctionOwnCards(1, cards=("Card 0", "Card 1")))
    assert opened.chat, "the seller's two cards are up"
    left = view_of(seller, am.DeclareLoss(None, targets=(1,), reason="left"))
    line = next(text for text in left.chat if text.startswith("The seller left"))
    assert line.endswith("Card 0, Card 1 leave the game with them."), line


def test_the_shuffle_line_counts_one_card_as_one_card() -> None:
    engine = engine_with([creature("Bear")])
    view_of(engine, am.BeginTurn(None, active=1))
    assert view_of(engine, am.Shuffle(1)).chat == ["The block is shuffled (1 card)."]


def test_a_seller_short_of_copies_hears_how_many_copies() -> None:
    engine = engine_with([creature("Bear"), creature("Bear"), creature("Imp")])
    view_of(engine, am.BeginTurn(None, active=1), am.Draw(1, count=2))
    assert refusal(engine, am.AuctionOwnCards(1, cards=("Bear", "Bear", "Bear"))) == (
        "you hold only two copies of Bear"
    )
    one = engine_with([creature("Bear"), creature("Imp")])
    view_of(one, am.BeginTurn(None, active=1), am.Draw(1, count=1))
    assert refusal(one, am.AuctionOwnCards(1, cards=("Bear", "Bear"))) == "you hold only one Bear"
