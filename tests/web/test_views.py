"""The web pages' views, computed from real engines: the same lot note as the game, no hidden card."""

from __future__ import annotations

import json
from typing import Any

from cockatrice_ext.bot.auction import lot_note, render_view
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat_view import hand_listing
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats import combat as cm
from cockatrice_ext.formats import vortex as vm
from cockatrice_ext.formats.base import to_jsonable
from cockatrice_ext.web.views import auction_board, combat_board, combat_hand, vortex_board, vortex_pack

NAMES = {1: "alice", 2: "bob"}


def name_of(player: Any) -> str:
    return NAMES[player]


def auction_engine() -> am.AuctionEngine:
    cards = tuple(CardFacts(name=f"Card {n}", types=("Instant",)) for n in range(8))
    return am.AuctionEngine(am.AuctionConfig(players=(1, 2), cards=cards, shuffle_block=False), seed=1)


def applied(engine: Any, journal: list[dict[str, Any]], *actions: Any) -> None:
    """Apply actions, keeping their effects as the journal stores them (JSON dicts)."""
    for action in actions:
        journal.extend(to_jsonable(engine.apply(action)))


def test_auction_board_shows_the_lot_note_gold_block_and_history() -> None:
    engine = auction_engine()
    journal: list[dict[str, Any]] = []
    applied(engine, journal, am.BeginTurn(None, active=1), am.StartAuctionStep(None))
    applied(engine, journal, am.Bid(1, amount=3), am.Pass(2), am.Keep(1))  # lot 1: alice buys for 3
    applied(engine, journal, am.Bid(1, amount=1))  # lot 2 open, alice bid 1, bob to bid
    board = auction_board(engine, name_of, journal)

    # The lot is exactly the note on the lot card in the game (the same pure function).
    assert board["lot"]["note"] == lot_note(engine, name_of, with_gold=False).splitlines()
    assert board["lot"]["note"][0] == "Auction 2: Card 1"
    assert board["lot"]["high_bid"] == 1 and board["lot"]["high_bidder"] == "alice"
    assert board["lot"]["to_bid"] == "bob"
    gold = render_view((), engine, name_of, judge=True).gold
    assert board["gold"] == [{"player": name_of(p), "gold": g} for p, g in gold.items()]
    assert board["gold"] == [{"player": "alice", "gold": 7}, {"player": "bob", "gold": 10}]
    assert board["block_left"] == engine.block_size() == 6
    assert board["history"] == [
        {"lot": 1, "cards": ["Card 0"], "bids": 1, "sold": True, "buyer": "alice", "price": 3}
    ]
    # No hidden card: the cards still in the block appear nowhere on the board.
    text = json.dumps(board)
    for index in engine.block:
        assert engine.config.cards[index].name not in text


def test_auction_board_names_a_double_faced_card_as_the_game_shows_it() -> None:
    """The board says what the table shows: a double-faced card by its front face (the block's game names)."""
    names = (
        "Delver of Secrets // Insectile Aberration",
        "Fire // Ice",
        "Valki, God of Lies // Tibalt, Cosmic Impostor",
    )
    cards = tuple(CardFacts(name=name, types=("Instant",)) for name in names * 2)
    shown = ["Delver of Secrets", "Fire // Ice", "Valki, God of Lies"] * 2
    engine = am.AuctionEngine(am.AuctionConfig(players=(1, 2), cards=cards, shuffle_block=False), seed=1)
    journal: list[dict[str, Any]] = []
    applied(engine, journal, am.BeginTurn(None, active=1), am.StartAuctionStep(None))
    applied(engine, journal, am.Bid(1, amount=3), am.Pass(2), am.Keep(1))  # lot 1: Delver, sold
    applied(engine, journal, am.Bid(1, amount=1))  # lot 2: Fire // Ice, open
    board = auction_board(engine, name_of, journal, shown)
    assert board["history"][0]["cards"] == ["Delver of Secrets"]
    assert board["lot"]["cards"] == ["Fire // Ice"]
    text = json.dumps(board)
    assert "Insectile Aberration" not in text


def test_auction_board_lists_unsold_lots_and_a_closed_lot() -> None:
    engine = auction_engine()
    journal: list[dict[str, Any]] = []
    applied(engine, journal, am.BeginTurn(None, active=1), am.StartAuctionStep(None))
    applied(engine, journal, am.Pass(1), am.Pass(2))
    board = auction_board(engine, name_of, journal)
    assert board["history"][0] == {
        "lot": 1,
        "cards": ["Card 0"],
        "bids": 0,
        "sold": False,
        "buyer": "",
        "price": 0,
    }


def test_auction_board_without_a_lot() -> None:
    board = auction_board(auction_engine(), name_of, [])
    assert board["lot"]["note"] == [] and board["lot"]["number"] is None
    assert board["history"] == [] and board["block_left"] == 8


def vortex_engine() -> vm.VortexEngine:
    facts = load_block("vortex-pool", sections=None).facts
    engine = vm.VortexEngine(vm.VortexConfig(players=(1, 2), cards=facts), seed=3)
    engine.apply(vm.StartGame(player=None))
    return engine


def test_vortex_board_counts_packs_and_never_names_their_cards() -> None:
    engine = vortex_engine()
    board = vortex_board(engine, name_of)
    assert board["packs"] == [
        {"player": "alice", "size": engine.pack_size(1), "to_pick": engine.pending_pick(1)},
        {"player": "bob", "size": engine.pack_size(2), "to_pick": engine.pending_pick(2)},
    ]
    assert board["shoe"] == engine.shoe_size() and board["passed"] == engine.passed_size()
    assert board["active"] == "alice" and board["phase"] == "opening"
    text = json.dumps(board)
    hidden = {ref.name for p in (1, 2) for ref in engine.pack(p)}
    assert not any(name in text for name in hidden)


def test_vortex_pack_is_that_players_pack_only() -> None:
    engine = vortex_engine()
    mine = vortex_pack(engine, 1, name_of)
    assert [card["name"] for card in mine["pack"]] == [ref.name for ref in engine.pack(1)]
    assert [card["number"] for card in mine["pack"]] == list(range(1, engine.pack_size(1) + 1))
    assert mine["to_pick"] is engine.pending_pick(1) and mine["player"] == "alice"
    assert vortex_pack(engine, 2, name_of)["pack"] == [
        {"number": n, "name": ref.name} for n, ref in enumerate(engine.pack(2), start=1)
    ]


def test_combat_board_is_the_scoreboard_with_names() -> None:
    deck = load_block("combat-deck", sections=None).facts
    engine = cm.CombatEngine(cm.CombatConfig.from_decks((1, 2), (deck, deck)), seed=2)
    engine.apply(cm.StartGame(player=None))
    board = combat_board(engine, name_of)
    assert board["players"] == [
        {"player": "alice", "points": engine.points(1), "life": engine.life(1)},
        {"player": "bob", "points": engine.points(2), "life": engine.life(2)},
    ]
    assert (board["round"], board["rounds"], board["cap"]) == (engine.round, 10, engine.spell_cap())
    hand = {deck[i].name for i in engine.seats[0].hand}  # opening hands are private
    assert not any(name in json.dumps(board) for name in hand)


def test_combat_hand_is_numbered_as_the_hand_command_lists_it() -> None:
    deck = load_block("combat-deck", sections=None).facts
    engine = cm.CombatEngine(cm.CombatConfig.from_decks((1, 2), (deck, deck)), seed=4)
    engine.apply(cm.StartGame(player=None))
    for player in (1, 2):
        mine = combat_hand(engine, player, name_of)
        listed = "; ".join(f"{card['number']}. {card['name']}" for card in mine["hand"])
        assert listed == hand_listing(engine, player) and len(mine["hand"]) == 7
        assert mine["player"] == name_of(player) and mine["board"] == combat_board(engine, name_of)


def test_a_players_page_names_a_flip_card_as_their_cockatrice_does() -> None:
    """A flip card in hand is listed by its front face, as the chat's hand list and the card in Cockatrice
    name it; the page listed both halves ("Bushi Tenderfoot // Kenzo the Hardhearted")."""
    from dataclasses import replace
    from types import SimpleNamespace

    from cockatrice_ext.web.views import private_view

    # Every card a flip card here, so whatever the shuffle deals is one.
    deck = [
        replace(card, name=f"{card.name} // {card.name} Flipped") for card in load_block("combat-deck").facts
    ]
    engine = cm.CombatEngine(cm.CombatConfig.from_decks((1, 2), (deck, deck)), seed=4)
    engine.apply(cm.StartGame(player=None))
    referee = SimpleNamespace(
        table=SimpleNamespace(engine=engine),
        player_name=name_of,
        shown_card_name=lambda name: name.split(" // ")[0],
        game_id=7,
        bot=SimpleNamespace(client=SimpleNamespace(games={})),
        format_name="combat",
        status=lambda: "playing",
    )
    for player in (1, 2):
        view = private_view(referee, player)
        assert view is not None
        listed = [card["name"] for card in view["private"]["hand"]]
        assert len(listed) == 7 and not [name for name in listed if "//" in name], listed
