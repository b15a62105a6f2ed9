"""What players see in Auction Magic, as the pure view computes it from the engine (no server)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from formats.test_auction import BLOCK as RANDOM_BLOCK
from formats.test_auction import random_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.bot.auction import lot_note, order_example, render_view
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats.base import RulesError

NAMES = {1: "alice", 2: "bob", 3: "carol"}


def name_of(player: Any) -> str:
    return NAMES[player]


def creature(name: str) -> CardFacts:
    return CardFacts(name=name, types=("Creature",), power="2", toughness="2")


def spell(name: str) -> CardFacts:
    return CardFacts(name=name, types=("Instant",))


def legend(name: str) -> CardFacts:
    return CardFacts(name=name, supertypes=("Legendary",), types=("Creature",))


def engine_with(cards: list[CardFacts], players: tuple[int, ...] = (1, 2)) -> am.AuctionEngine:
    config = am.AuctionConfig(players=players, cards=tuple(cards), shuffle_block=False)
    return am.AuctionEngine(config, seed=1)


def view_of(engine: am.AuctionEngine, *actions: Any, judge: bool = False) -> Any:
    effects: list[Any] = []
    for action in actions:
        effects += engine.apply(action)
    return render_view(effects, engine, name_of, judge=judge)


def started(engine: am.AuctionEngine) -> Any:
    return view_of(engine, am.BeginTurn(None, active=1), am.StartAuctionStep(None))


def test_a_bid_is_acknowledged_on_the_lot_card_not_in_chat() -> None:
    engine = engine_with([creature("Bear"), creature("Imp")])
    opened = started(engine)
    assert opened.chat == ["Auction 1: Bear (creature 2/2) (the card on the referee's table). alice to bid."]
    view = view_of(engine, am.Bid(1, amount=3))
    assert view.chat == []
    assert (
        view.lot_note
        == "Auction 1: Bear\nHigh bid: 3 by alice\nTo bid: bob (!bid N or !pass)\nGold: alice 10, bob 10"
    )
    judged = view_of(engine, am.Pass(2), judge=True)  # with judge rights gold lives on counters
    assert judged.gold == {1: 7, 2: 10} and "Gold" not in lot_note(engine, name_of, with_gold=False)


def test_a_standing_bid_voided_by_the_end_of_turn_is_not_no_bids() -> None:
    engine = engine_with([creature("Bear"), creature("Imp")])
    started(engine)
    view = view_of(engine, am.Bid(1, amount=2), am.EndTurn(None))
    assert not any("No bids" in line for line in view.chat)
    assert (
        "The turn ended during auction 1: alice's bid of 2 is void and Bear goes to the bottom." in view.chat
    )
    assert "Income +3: alice 13, bob 13 gold." in view.chat
    assert not any("Income" in line for line in render_view([], engine, name_of, judge=True).chat)


def test_a_unanimous_stop_never_waits_for_nobody() -> None:
    engine = engine_with([creature("Bear"), creature("Imp")])
    started(engine)
    first = view_of(engine, am.StopAuctioning(1))
    assert first.chat == ["alice votes to stop auctioning (waiting for bob)."]
    last = view_of(engine, am.StopAuctioning(2))
    assert not any("waiting for" in line for line in last.chat), last.chat
    assert last.chat[0] == "bob votes to stop too: no more auctions this turn."


def test_a_player_who_leaves_is_named_as_leaving_and_dropped_from_gold() -> None:
    engine = engine_with([creature("Bear"), creature("Imp")], players=(1, 2, 3))
    started(engine)
    view = view_of(engine, am.Bid(1, amount=2), am.DeclareLoss(None, targets=(2,), reason="left"))
    assert view.chat == [
        "bob left the game; auction 1 goes on without them: alice's bid of 2 stands, carol to bid."
    ]
    assert view.gold == {1: 10, 3: 10} and "bob" not in view.lot_note
    assert "High bid: 2 by alice\nTo bid: carol" in view.lot_note


def test_game_over_comes_first_and_says_who_conceded() -> None:
    engine = engine_with([creature("Bear"), creature("Imp")])
    started(engine)
    view = view_of(engine, am.Bid(1, amount=2), am.Concede(2))
    assert view.chat[0] == "Game over: alice wins (bob conceded)."
    assert not any("loses" in line for line in view.chat)


def test_kept_and_drawn_cards_come_with_one_drag_instruction_without_judge_rights() -> None:
    engine = engine_with([spell("Shock"), creature("Bear"), spell("Giant Growth"), spell("Naturalize")])
    started(engine)
    view_of(engine, am.Bid(1, amount=1), am.Pass(2))
    kept = view_of(engine, am.Keep(1))
    assert kept.chat.count("alice: drag Shock from your table to your hand.") == 1
    assert not any("drag" in line for line in render_view(kept_effects(), engine, name_of, judge=True).chat)
    view_of(engine, am.Pass(1), am.Pass(2))  # Bear unsold
    drawn = view_of(engine, am.EndTurn(None), am.BeginTurn(None, active=2), am.Draw(2, count=2))
    assert not any("Naturalize" in line or "Bear" in line for line in drawn.chat)  # hand cards: not public
    assert drawn.private == [
        (2, "You drew Naturalize and Bear: face down on your table, drag them into your hand.")
    ]


def kept_effects() -> list[Any]:
    return [am.CardKept(1, am.CardRef(0, "Shock"), automatic=False)]


def test_block_lots_offer_cast_or_keep_and_sold_own_cards_tell_the_seller() -> None:
    engine = engine_with([spell("Shock"), spell("Bolt"), creature("Bear"), creature("Imp")])
    view_of(engine, am.BeginTurn(None, active=1))
    view_of(engine, am.AuctionFromBlock(1, count=2))
    sold = view_of(engine, am.Bid(1, amount=1), am.Pass(2))
    assert "alice: !cast or !keep each of Shock, Bolt (several: !keep A, B)." in sold.chat
    # 90X.8: two noncreatures bought, so alice reveals until a creature, into her hand
    assert "alice reveals until a creature: Bear." in sold.chat
    assert "alice: drag Bear from your table to your hand." in sold.chat
    view_of(engine, am.Keep(1, card="Shock"), am.Cast(1, card="Bolt"))
    opened = view_of(engine, am.AuctionOwnCards(1, cards=("Shock",)))
    assert opened.owned_lot and opened.lot_note.startswith("Auction 2: Shock\nNo bid yet\nTo bid: bob")
    sale = view_of(engine, am.Bid(2, amount=2))
    assert "alice: drag Shock onto bob's table; bob: then into your hand." in sale.chat


def test_a_bid_on_a_players_own_cards_costs_no_chat_line() -> None:
    """90X.6 lots (!sell) stay in the seller's hands, so the lot's note goes on the referee's note token
    (``owned_lot``); a bid there is acknowledged on it, as on any other lot, not in chat."""
    engine = engine_with([spell("Shock"), spell("Bolt"), creature("Bear")], players=(1, 2, 3))
    view_of(engine, am.BeginTurn(None, active=1))
    view_of(engine, am.AuctionFromBlock(1, count=1), am.Bid(1, amount=1), am.Pass(2), am.Pass(3))
    view_of(engine, am.Keep(1, card="Shock"))
    opened = view_of(engine, am.AuctionOwnCards(1, cards=("Shock",)))
    assert opened.owned_lot and any("Shock" in line for line in opened.chat)
    raised = view_of(engine, am.Bid(2, amount=1))
    assert raised.chat == [] and raised.owned_lot
    assert "High bid: 1 by bob" in raised.lot_note and "To bid: " in raised.lot_note


def test_mana_without_judge_rights_names_the_counter_to_raise() -> None:
    engine = engine_with([creature("Bear")])
    view_of(engine, am.BeginTurn(None, active=1))
    view = view_of(engine, am.BuyMana(1, color="R", count=2))
    assert view.chat == ["alice buys 2 R mana (8 gold left): add 2 to your R counter."]
    judged = render_view(engine.apply(am.BuyMana(1, color="G", count=1)), engine, name_of, judge=True)
    assert judged.mana == [(1, "G", 1)] and "counter" not in judged.chat[0]


@pytest.mark.parametrize(
    ("count", "example"), [(1, "!order 1 (or !order bottom 1)"), (2, "!order 2 1"), (4, "!order 2 1 3 4")]
)
def test_order_example_fits_what_was_looked_at(count: int, example: str) -> None:
    assert order_example(count) == example


def test_the_bid_cap_covers_the_largest_starting_gold() -> None:
    """``!bid`` parses any amount the CLI lets a table start with (one constant behind both)."""
    from cockatrice_ext.bot.auction import AuctionReferee
    from cockatrice_ext.bot.commands import CommandSet
    from cockatrice_ext.cli.bot import run

    option = next(p for p in run.params if p.name == "auction_starting_gold")
    bid = CommandSet(AuctionReferee.__new__(AuctionReferee)).specs["bid"]
    (amount,) = bid.params
    assert option.type.max == am.MAX_STARTING_GOLD  # type: ignore[attr-defined]
    assert amount.bounds is not None and amount.bounds.high >= option.type.max  # type: ignore[attr-defined]
    assert bid.convert(str(am.MAX_STARTING_GOLD)) == [am.MAX_STARTING_GOLD]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(st.integers(0, 2**32), min_size=10, max_size=120), players=st.integers(2, 4))
def test_random_play_renders_sensible_views(steps: list[int], players: int) -> None:
    """Whatever happens, the view names players by name, never waits for nobody, shows gold only for
    players still in, and has a lot note exactly when a lot lies on the referee's table."""
    names = {p: f"player{p}name" for p in range(1, players + 1)}
    engine = am.AuctionEngine(am.AuctionConfig(players=tuple(names), cards=RANDOM_BLOCK), seed=3)
    for step in steps:
        if engine.is_over():
            break
        try:
            effects = engine.apply(random_action(engine, random.Random(step)))
        except RulesError:
            continue
        for judge in (False, True):
            view = render_view(effects, engine, names.__getitem__, judge=judge)
            said = " ".join(view.chat)
            assert "(waiting for )" not in said and not re.search(r"\bplayer \d", said)
            assert set(view.gold) == set(engine.living())
            assert bool(view.lot_note) == (engine.lot is not None)
            assert view.owned_lot == (engine.lot is not None and engine.lot.kind == "owned")
            if any(isinstance(e, am.GameOver) for e in effects):
                assert view.chat[0].startswith("Game over")


WORD = st.text(
    st.characters(whitelist_categories=("L", "N"), whitelist_characters="',-&<>\"!"), min_size=1, max_size=8
)
LETTERS = st.text(st.characters(whitelist_categories=("L",)), min_size=1, max_size=8)
CARD_NAME = st.tuples(LETTERS, st.lists(WORD, max_size=3)).map(lambda parts: " ".join([parts[0], *parts[1]]))


@settings(max_examples=60, deadline=None)
@given(names=st.lists(CARD_NAME, min_size=1, max_size=12))
def test_a_rebuilt_pile_is_a_cod_holding_exactly_its_cards(names: list[str]) -> None:
    """``pile_cod`` (the referee's deck: a block, or a rebuilt game's pile) reads back as the same multiset
    of names (XML escaped)."""
    from collections import Counter

    from cockatrice_ext.bot.blocks import pile_cod
    from cockatrice_ext.decks.readers import read_cod

    deck = read_cod(pile_cod("rebuilt <deck>", names).encode("utf-8"))
    assert deck.name == "rebuilt <deck>"
    read: Counter[str] = Counter()
    for entry in deck.section("main"):
        read[entry.name] += entry.count
    assert read == Counter(names)
    assert not deck.section("side")
    spared = read_cod(pile_cod("x", names, spares=True).encode("utf-8"))  # an Auction pile: its spares too
    for section in ("main", "side"):
        held: Counter[str] = Counter()
        for entry in spared.section(section):
            held[entry.name] += entry.count
        assert held == Counter(names), section


@settings(max_examples=100, deadline=None)
@given(
    start=st.lists(st.sampled_from("ABC"), max_size=8),
    moves=st.lists(
        st.tuples(st.booleans(), st.sampled_from("ABC"), st.booleans(), st.booleans()), max_size=20
    ),
)
def test_the_referees_own_zone_keeps_each_cards_seen_mark_through_its_moves(
    start: list[str], moves: list[tuple[bool, str, bool, bool]]
) -> None:
    """``OwnDeck`` keeps, with each card's name, whether its id was shown with its name (a card put back),
    through takes and puts: a face-down deal asks for an unseen card of a name and never gets a seen one."""
    from cockatrice_ext.bot.board import OwnDeck

    zone, model = OwnDeck(), [(name, False) for name in start]
    zone.load(start)
    for take, name, top, seen in moves:
        if take and model:
            position = zone.position(name, unseen=True)
            expected = next((n for n, (card, was) in enumerate(model) if card == name and not was), None)
            assert position == expected
            if position is not None:
                assert zone.take(position) == name and not zone.took_seen
                model.pop(position)
        else:
            zone.put(name, top=top, seen=seen)
            model.insert(0 if top else len(model), (name, seen))
        assert list(zip(zone.names, zone.seen, strict=True)) == model


def test_a_seen_card_never_goes_to_the_spares_and_after_a_restart_the_deck_is_marked_by_name() -> None:
    """A re-check tester: after a restart in place the referee dealt the very card everyone saw (an unsold
    lot). Servatrice lists a hidden zone's cards by position, not by id, so which deck card was seen is lost
    at a restart: the deck's cards of every name put back count as seen then, and the spares need no marks,
    since a seen card is never moved there (the burn passes over it)."""
    import asyncio
    from types import SimpleNamespace

    from cockatrice_ext.bot.auction import AuctionReferee, put_back
    from cockatrice_ext.bot.board import OwnDeck

    entries = [
        SimpleNamespace(effects=[{"type": "LotUnsold", "cards": [{"index": 3, "name": "Shock"}]}]),
        SimpleNamespace(effects=[{"type": "CardReturned", "card": {"index": 5, "name": "Opt"}}]),
        SimpleNamespace(effects=[{"type": "CardsDrawn", "cards": [{"index": 7, "name": "Duress"}]}]),
        SimpleNamespace(effects=[{"type": "LotUnsold", "cards": [{"oops": 1}]}]),  # another shape: ignored
    ]
    assert put_back(entries) == {3, 5}  # type: ignore[arg-type]

    class Seated(AuctionReferee):
        me = 0  # type: ignore[assignment]  # our seat, without a server

    moved: list[object] = []

    async def run(*commands: object) -> None:
        moved.extend(commands)

    referee = Seated.__new__(Seated)
    referee.__dict__.update(own_deck=OwnDeck(), own_sb=OwnDeck())
    referee.run = run  # type: ignore[method-assign]
    referee.own_deck.load(["Shock", "Opt", "Duress"], [True, False, False])  # Shock was put back on top
    asyncio.run(referee.deck_top_to_spares())
    assert referee.own_deck.names == ["Shock", "Duress"] and referee.own_sb.names == ["Opt"]
    assert referee.own_sb.seen == [False]
    referee.own_deck.load(["Shock"], [True])  # nothing else left: it goes, and stays marked
    asyncio.run(referee.deck_top_to_spares())
    assert referee.own_sb.seen == [False, True] and referee.own_sb.position("Shock", unseen=True) is None


def test_the_bots_pile_lists_its_cards_one_by_one_in_a_secret_order() -> None:
    """Seen in the field: Servatrice numbers a deck's cards in the ``.cod``'s order, and every player sees
    the id of each card the bot moves face down; written in the block's (public) order, id 172 was
    Bramblecrush, a private draw. Each copy is its own row, in an order no player can know."""
    import re

    from cockatrice_ext.bot.blocks import load_block, pile_cod

    block = load_block("auction-sample")
    piles = [
        re.findall(r'<card number="(\d+)" name="([^"]*)"/>', pile_cod("x", block.game_names)) for _ in "ab"
    ]
    for rows in piles:
        assert {number for number, _ in rows} == {"1"} and len(rows) == len(block.game_names)
        assert sorted(name for _, name in rows) == sorted(n.replace("&", "&amp;") for n in block.game_names)
        assert [name for _, name in rows] != list(block.game_names)
    assert piles[0] != piles[1]


def test_a_journal_without_a_players_name_is_reported_not_guessed() -> None:
    from cockatrice_ext.bot.auction import AuctionReferee
    from cockatrice_ext.journal import JournalError

    engine = engine_with([creature("Bear")])
    assert AuctionReferee.journaled_names({"names": {"1": "alice", "2": "bob"}}, engine.players) == NAMES_12
    with pytest.raises(JournalError, match="player"):
        AuctionReferee.journaled_names({"names": {"1": "alice"}}, engine.players)


NAMES_12 = {1: "alice", 2: "bob"}


def test_a_gold_loss_below_the_high_bid_says_the_bids_are_void() -> None:
    engine = engine_with([creature("Bear")])
    started(engine)
    view_of(engine, am.Bid(1, amount=6))
    view = view_of(engine, am.LoseGold(2, target=1, amount=5, reason="Mindsludge"))
    assert "alice gold 10 -> 5 (Mindsludge)." in view.chat
    assert (
        "alice can no longer cover their bid of 6: the bids on auction 1 are void and bidding starts"
        " again with alice." in view.chat
    )


def test_a_block_that_went_round_unbid_ends_the_auction_step_in_words() -> None:
    engine = engine_with([creature("Bear"), spell("Shock")])
    started(engine)
    view_of(engine, am.Pass(1), am.Pass(2))
    view = view_of(engine, am.Pass(1), am.Pass(2))
    assert "Every card of the block went up unbid: no more auctions this turn." in view.chat
    assert engine.phase == "main"


def test_the_proposed_cards_prompt_in_words_and_the_stakes_show_on_the_lot_card() -> None:
    """Gilded Idol, Packaged Gnome, Raise the Stakes, High Bid and Stake your Claim, as players read them."""
    cards = [
        CardFacts(name="Gilded Idol", types=("Artifact",)),
        CardFacts(name="Blood Claim", types=("Instant",)),
        CardFacts(name="Deadly Stakes", types=("Sorcery",)),
        creature("Packaged Gnome"),
        spell("Opt"),
        creature("Bear"),
        CardFacts(name="Fiery Bid", types=("Sorcery",)),
        creature("Imp"),
    ]
    engine = engine_with(cards)
    view_of(engine, am.BeginTurn(None, active=2), am.Draw(2, count=2), am.EndTurn(None))
    view_of(engine, am.BeginTurn(None, active=1))  # the referee shows a turn's beginning by itself
    claim = view_of(engine, am.StakeClaim(2))
    assert claim.chat == [
        "bob stakes a claim with Blood Claim: it returns when bob next wins an auction this turn."
    ]
    view_of(engine, am.StartAuctionStep(None))  # Deadly Stakes
    idol = view_of(engine, am.UseGildedIdol(2))
    assert idol.chat == [
        "bob exiles Gilded Idol to buy auction 1 for 0 gold (move it to your exile zone).",
        "Sold: Deadly Stakes to bob for 0 (13 gold left).",  # 10 + a turn's income
        "bob: !cast or !keep Deadly Stakes.",
        "Raise the Stakes (Deadly Stakes): the next card bid on this turn gains 'when you purchase this card,"
        " target player loses 3 life and you gain 3 life'.",
        "Stake your Claim: bob won auction 1; bob: you may return Blood Claim from your graveyard to your"
        " hand.",
    ]
    package = view_of(engine, am.Keep(2))
    assert "Packaged Gnome brings Opt and Bear into auction 2: one price buys them all." in package.chat
    bid = view_of(engine, am.Bid(1, amount=5))
    assert "Raise the Stakes: the buyer drains 3 life" in bid.lot_note and bid.chat == []
    sold = view_of(engine, am.Pass(2))
    assert (
        "Raise the Stakes: alice, choose a target player: they lose 3 life and you gain 3 life"
        " (change the life counters)." in sold.chat
    )
    view_of(engine, am.EndTurn(None), am.BeginTurn(None, active=2))
    view_of(engine, am.StartAuctionStep(None), am.Bid(2, amount=6), am.Pass(1))  # Fiery Bid for 6
    high = view_of(engine, am.Cast(2))
    assert "High Bid: bob paid 6 and cast Fiery Bid at once, so its High Bid effect applies." in high.chat


def test_a_commander_sale_says_whether_the_commanders_are_exchanged() -> None:
    """90Y.6: the lot says an exchange may follow; the sale says which commander is whose, or why not."""
    cards = [legend("Ayula"), legend("Baral"), creature("Bear"), creature("Imp")]
    config = am.AuctionConfig(players=(1, 2), cards=tuple(cards), shuffle_block=False, commander=True)
    engine = am.AuctionEngine(config, seed=1)
    view_of(engine, am.StartPregame(None), am.Pass(1), am.Pass(2), am.Pass(2))  # 1: Ayula, 2: Baral
    opened = view_of(engine, am.BeginTurn(None, active=1), am.AuctionOwnCards(1, cards=("Ayula",)))
    assert (
        "90Y.6: alice's commander; if the winner's commander is in the command zone, it goes to alice in"
        " exchange." in opened.chat
    )
    sold = view_of(engine, am.Bid(2, amount=3))
    assert sold.chat[-2:] == [
        "90Y.6: the commanders are exchanged: bob now commands Ayula and alice commands Baral.",
        "alice: drag Ayula onto bob's table; bob: drag Baral onto alice's table.",
    ]
    assert "drag" not in " ".join(
        render_view(engine.apply(am.EndTurn(None)), engine, name_of, judge=True).chat
    )
    view_of(engine, am.BeginTurn(None, active=2), am.CastCommander(2))  # bob's commander leaves the zone
    view_of(engine, am.AuctionOwnCards(1, cards=("Baral",)))
    failed = view_of(engine, am.Bid(2, amount=1))
    assert (
        "90Y.6: bob's commander is not in the command zone, so no exchange: Baral goes to bob's hand and"
        " alice has no commander now." in failed.chat
    )
    assert "alice: drag Baral onto bob's table; bob: then into your hand." in failed.chat


def test_after_a_restart_in_place_a_drawn_card_still_face_down_on_the_table_can_be_given_back() -> None:
    """A re-check tester: after a restart that kept the referee's seat, a drawn card not yet dragged into
    the hand (face down on the drawer's table, no name shown) was refused as "not a card it dealt you". As
    many face-down table cards as the player holds cards drawn and never shown now count as dealt."""
    from types import SimpleNamespace

    from cockatrice_ext.bot.auction import AuctionReferee
    from cockatrice_ext.client.mirror import CardState

    drawn = SimpleNamespace(effects=[{"type": "CardsDrawn", "cards": [{"index": 4, "name": "Opt"}]}])
    table_cards = [CardState(30, face_down=True), CardState(31, face_down=True), CardState(32, name="Shock")]
    zones = {"table": SimpleNamespace(cards=table_cards), "hand": SimpleNamespace(cards=[])}
    referee = AuctionReferee.__new__(AuctionReferee)
    engine = SimpleNamespace(
        living=lambda: ["ann"], hand={"ann": [4, 6]}, played={"ann": [2]}, command={"ann": []}
    )
    referee.__dict__.update(
        block=SimpleNamespace(game_names=["A", "B", "Shock", "C", "Opt", "D", "Duress"]),
        bot=SimpleNamespace(
            journal=SimpleNamespace(entries=lambda key: [drawn]),
            client=SimpleNamespace(
                games={1: SimpleNamespace(players={7: SimpleNamespace(zone=zones.__getitem__)})}
            ),
        ),
        game_id=1,
        table=SimpleNamespace(engine=engine),
        table_key="k",
        dealt={},
        unseen_hands=set(),
    )
    referee.seat_of = lambda player: 7  # type: ignore[method-assign]
    referee.dealt_from_mirror()
    # Shock by its name; one face-down card for the one drawn card (Opt); Duress was bought: not face down.
    assert referee.dealt[7] == {32, 30}
