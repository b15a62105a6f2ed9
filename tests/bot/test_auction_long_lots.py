"""Long lots, copies named twice, lists for !cast/!keep, every refusal in words, life counters, !state after
the end: what testers on a real Servatrice 3.1.0 (shipped limits) saw go wrong, without a server.

Seen: ``!lot 10`` of cards with long names gave a lot note cut mid-card-name by the server (255 bytes of a
card attribute), with no bid lines, the same after every bid; ``!state`` was cut before who is to bid, the
lot's announcement before its last cards; ``!sell Aether Vial, Aether Vial`` answered "malformed"; ``!keep A,
B`` answered "no such card here"; a counter a player made and named "life" was read as their life; ``!state``
after the game's end still said who was to bid.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from test_auction_life import set_counter
from test_typed_names_auction import (
    ALICE,
    GAME,
    NAMES,
    ZOE,
    Kept,
    block_of,
    drawn,
    opened_lot,
    referee_for,
    said,
)

from cockatrice_ext.bot.auction import REFUSALS, AuctionReferee, lot_note, render_view
from cockatrice_ext.bot.words import MAX_CHAT_LINE
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.base import RulesError

NOTE_LIMIT = 255
"""Servatrice 3.1.0 keeps 255 bytes of a card attribute (``MAX_NAME_LENGTH``, ``nameFromStdString``)."""
LONG = [
    "Who // What // When // Where // Why",
    'Kongming, "Sleeping Dragon"',
    "Gisela, the Broken Blade",
    "Bruna, the Fading Light",
    "Circle of Protection: Artifacts",
    "Elesh Norn, Grand Cenobite",
    "Asmoranomardicadaistinaculdacar",
    "Avacyn, Angel of Hope",
    "Jace, Vryn's Prodigy",
    "Ajani, Caller of the Pride",
]
LONG_BLOCK = "".join(f"1 {name}\n" for name in LONG) + "1 Grizzly Bears\n"


def referee(tmp_path: Path, text: str = LONG_BLOCK) -> Kept:
    ref = referee_for(block_of(tmp_path, text))
    ref.finished = ""  # the runtime's attribute, which the shared harness predates
    return ref


def note(ref: Kept, *, judge: bool = False) -> str:
    return lot_note(ref.engine, NAMES.__getitem__, with_gold=not judge, card_names=ref.block.game_names)


def test_a_ten_card_lot_note_fits_the_server_with_its_bid_lines(tmp_path: Path) -> None:
    ref = referee(tmp_path)
    engine = ref.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    engine.apply(am.AuctionFromBlock(ALICE, count=10))
    first = note(ref)
    assert len(first.encode()) <= NOTE_LIMIT, first
    assert first.startswith("Auction 1: Who // What // When // Where // Why, ")
    assert " more\nNo bid yet\nTo bid: alice (!bid N or !pass)\nGold: alice 10, zoë_fx 10" in first, first
    engine.apply(am.Bid(ALICE, amount=3))
    second = note(ref)
    assert len(second.encode()) <= NOTE_LIMIT and second != first
    assert "\nHigh bid: 3 by alice\nTo bid: zoë_fx" in second, second
    judged = note(ref, judge=True)  # with judge rights, no gold line: more cards named
    assert judged.count(", ") > first.count(", ") and judged.endswith("To bid: zoë_fx (!bid N or !pass)")


def test_a_one_card_lot_note_is_unchanged_and_a_finished_game_has_nobody_to_bid(tmp_path: Path) -> None:
    ref = referee(tmp_path, "1 Grizzly Bears\n1 Shock\n")
    engine = ref.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    engine.apply(am.AuctionFromBlock(ALICE, count=1))
    assert note(ref) == (
        "Auction 1: Grizzly Bears\nNo bid yet\nTo bid: alice (!bid N or !pass)\nGold: alice 10, zoë_fx 10"
    )
    engine.apply(am.Concede(ZOE))
    assert note(ref) == "Auction 1: Grizzly Bears\nGame over: no more bids"


def test_the_lot_announcement_is_one_chat_line_naming_who_bids(tmp_path: Path) -> None:
    ref = referee(tmp_path)
    engine = ref.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    effects = engine.apply(am.AuctionFromBlock(ALICE, count=10))
    view = render_view(effects, engine, NAMES.__getitem__, judge=False, card_names=ref.block.game_names)
    (line,) = [text for text in view.chat if text.startswith("Auction 1")]
    assert len(line) <= MAX_CHAT_LINE, line
    assert line.endswith(" more (!state names them) (the cards on the referee's table). alice to bid."), line
    assert "Who // What // When // Where // Why (instant)" in line
    engine.apply(am.Bid(ALICE, amount=1))
    view = render_view(
        engine.apply(am.Pass(ZOE)), engine, NAMES.__getitem__, judge=False, card_names=ref.block.game_names
    )
    (sold,) = [text for text in view.chat if text.startswith("Sold: ")]
    assert len(sold) <= MAX_CHAT_LINE and sold.endswith(" more to alice for 1 (9 gold left)."), sold
    (asked,) = [text for text in view.chat if text.startswith("alice: !cast or !keep ")]
    assert len(asked) <= MAX_CHAT_LINE and " more (see !state)" in asked, asked


def test_state_says_whose_bid_and_names_every_card_of_a_long_lot(tmp_path: Path) -> None:
    ref = referee(tmp_path)
    engine = ref.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    engine.apply(am.AuctionFromBlock(ALICE, count=10))
    engine.apply(am.Bid(ALICE, amount=2))
    lines = [text for _, text in said(ref, ZOE, "!state")]
    status, *listing = lines
    assert len(status) <= MAX_CHAT_LINE and "…" not in status, status
    assert "high bid 2 by alice; zoë_fx to bid" in status and status.endswith(
        "gold alice 10, zoë_fx 10; block 1."
    )
    assert all(len(text) <= MAX_CHAT_LINE for text in listing), listing
    assert listing[0].startswith("Auction 1's 10 cards: Who // What // When // Where // Why, ")
    assert all(name in " ".join(listing) for name in LONG), listing
    # A short lot: one line, as before.
    short = referee(tmp_path, "1 Grizzly Bears\n1 Shock\n")
    short.engine.apply(am.BeginTurn(None, active=ALICE))
    short.engine.apply(am.AuctionFromBlock(ALICE, count=1))
    (only,) = [text for _, text in said(short, ZOE, "!state")]
    assert "auction 1: Grizzly Bears, no bid yet; alice to bid" in only


def test_state_after_the_game_is_over_names_nobody_to_bid(tmp_path: Path) -> None:
    ref = referee(tmp_path, "1 Spectral Procession\n1 Grizzly Bears\n")
    engine = ref.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    engine.apply(am.AuctionFromBlock(ALICE, count=1))
    engine.apply(am.Concede(ZOE))
    (status,) = [text for _, text in said(ref, ALICE, "!state")]
    assert status.startswith("Game over: alice won (zoë_fx conceded) on turn 1"), status
    assert "to bid" not in status and "no bid yet" not in status, status


def test_a_card_named_twice_sells_two_copies_or_says_how_many_are_held(tmp_path: Path) -> None:
    ref = referee(tmp_path, "2 Aether Vial\n2 Fire // Ice\n1 Grizzly Bears\n")
    drawn(ref, 4)
    assert said(ref, ALICE, "!sell Aether Vial, Aether Vial") == []
    assert opened_lot(ref) == ["Aether Vial", "Aether Vial"]
    ref = referee(tmp_path, "2 Aether Vial\n2 Fire // Ice\n1 Grizzly Bears\n")
    drawn(ref, 4)
    assert said(ref, ALICE, "!sell fire // ice, fire // ice") == []
    assert opened_lot(ref) == ["Fire // Ice", "Fire // Ice"]
    ref = referee(tmp_path, "1 Aether Vial\n1 Fire // Ice\n1 Grizzly Bears\n")
    drawn(ref, 2)
    for text, card in (
        ("!sell Aether Vial, Aether Vial", "Aether Vial"),
        ("!sell fire // ice, fire // ice", "Fire // Ice"),
        ("!sell fire, ice", "Fire // Ice"),
    ):
        lines = said(ref, ALICE, text)  # a hand card is named to its holder alone
        assert lines[0] == (("user", "alice"), f"Refused: you hold only one {card}"), lines
        assert ref.engine.lot is None


def engine_refusal_codes() -> set[str]:
    """Every ``RulesError("code", ...)`` the auction engine's source raises."""
    tree = ast.parse(inspect.getsource(am))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "RulesError"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


def test_every_engine_refusal_reaches_players_in_words(tmp_path: Path) -> None:
    codes = engine_refusal_codes()
    assert {"malformed", "missing_card", "not_enough_copies"} <= codes  # the source was read
    assert sorted(codes - set(REFUSALS)) == []
    ref = referee(tmp_path)
    for code in sorted(codes):
        text = AuctionReferee.explain(ref, RulesError(code))
        assert text != code.replace("_", " ") and " " in text, (code, text)


def test_keep_and_cast_take_a_list(tmp_path: Path) -> None:
    ref = referee(tmp_path)
    engine = ref.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    engine.apply(am.AuctionFromBlock(ALICE, count=4))
    engine.apply(am.Bid(ALICE, amount=1))
    engine.apply(am.Pass(ZOE))
    assert said(ref, ALICE, '!keep kongming, "sleeping dragon", who // what') == []
    kept = [e.card.name for e in ref.performed if isinstance(e, am.CardKept)]
    assert kept == ['Kongming, "Sleeping Dragon"', "Who // What // When // Where // Why"]
    lines = said(ref, ALICE, "!cast Gisela, the Broken Blade, Kongming")  # Kongming was kept: none is cast
    assert [line for _, line in lines] == ["alice: no such card here"], lines
    assert [ref.engine.ref(i).name for i in engine.pending[ALICE]] == LONG[2:4]
    assert said(ref, ALICE, "!cast Gisela, the Broken Blade, bruna") == []
    cast = [e.card.name for e in ref.performed if isinstance(e, am.CardCast)]
    assert cast == ["Gisela, the Broken Blade", "Bruna, the Fading Light"] and not engine.pending[ALICE]


def test_only_the_servers_life_counter_is_a_life_total(tmp_path: Path) -> None:
    ref = referee(tmp_path, "1 Grizzly Bears\n1 Shock\n1 Thrummingbird\n")
    engine = am.AuctionEngine(
        am.AuctionConfig(
            players=(ALICE, ZOE),
            cards=ref.block.facts,
            shuffle_block=False,
            empty_block_rule="higher_life_wins",
        ),
        seed=1,
    )
    ref.table.engine = engine  # type: ignore[attr-defined]
    ref.table.apply = lambda action, action_id=None: engine.apply(action)  # type: ignore[attr-defined]
    engine.apply(am.BeginTurn(None, active=ALICE))
    set_counter(ref, ZOE, 8, "life", 99)  # a counter zoë_fx made and named "life"
    set_counter(ref, ZOE, 9, "LIFE", 98)
    assert engine.life == {ALICE: 20, ZOE: 20}
    set_counter(ref, ZOE, 0, "life", 12)  # the server's life counter
    assert engine.life == {ALICE: 20, ZOE: 12}
    assert GAME  # the shared harness's game


def test_right_to_left_names_on_the_lot_note_are_isolated_within_the_servers_bytes(tmp_path: Path) -> None:
    """On the note as in chat, an Arabic or Hebrew name sits between isolates (else "Gold: A 10, B 10" reads
    as one right-to-left run, the figures beside the wrong names), counted in the note's 255 bytes."""
    ref = referee(tmp_path)
    engine = ref.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    engine.apply(am.AuctionFromBlock(ALICE, count=10))
    names = {ALICE: "سارة_الأولى", ZOE: "דוד_השני"}
    text = lot_note(engine, names.__getitem__, with_gold=True, card_names=ref.block.game_names)
    assert len(text.encode()) <= NOTE_LIMIT, text
    assert "\nGold: \u2068سارة_الأولى\u2069 10, \u2068דוד_השני\u2069 10" in text, text
    assert "To bid: \u2068سارة_الأولى\u2069 (!bid N or !pass)" in text, text


def test_a_lot_of_several_cards_asks_its_buyer_once(tmp_path: Path) -> None:
    """One line names every card to cast or keep (ten lines, ~550 characters, still arrived after the buyer
    had kept the cards: the re-check)."""
    ref = referee(tmp_path)
    engine = ref.engine
    engine.apply(am.BeginTurn(None, active=ALICE))
    engine.apply(am.AuctionFromBlock(ALICE, count=4))
    engine.apply(am.Bid(ALICE, amount=1))
    effects = engine.apply(am.Pass(ZOE))
    lines = render_view(effects, engine, NAMES.__getitem__, judge=False, card_names=ref.block.game_names).chat
    asked = [line for line in lines if "!cast or !keep" in line]
    assert len(asked) == 1 and asked[0].count("!cast or !keep") == 1, lines
    assert asked[0].startswith("alice: !cast or !keep each of Who // What // When // Where // Why, "), asked
    assert asked[0].endswith("Bruna, the Fading Light (several: !keep A, B)."), asked
