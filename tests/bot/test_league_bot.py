"""The league adapter's pure parts: command arguments to engine actions, deck checks, rendering, restore."""

from __future__ import annotations

import asyncio
import contextlib
import re
import types
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cockatrice_ext.bot.blocks import LoadedBlock
from cockatrice_ext.bot.commands import BadArgument
from cockatrice_ext.bot.league import install_market
from cockatrice_ext.bot.league_cards import (
    canonical_names,
    check_loaded_deck,
    deck_names,
    deck_verdict,
    describe_problems,
    pool_cod,
    pool_list,
)
from cockatrice_ext.bot.league_commands import (
    buy_action,
    by_position,
    pay_refs,
    pick_action,
    result_action,
    split_two,
    swap_action,
)
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_views import render_effects
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Journal, Table

COLORS = ("W", "U", "B", "R", "G")


def card(name: str, rarity: str = "common", colors: tuple[str, ...] = ("W",)) -> CardFacts:
    return CardFacts(name=name, mana_value=1, colors=colors, types=("Creature",), rarity=rarity)


def market_cards(players: int = 2, rounds: int = 1) -> tuple[CardFacts, ...]:
    need = mk.required_counts(players, rounds)
    cards: list[CardFacts] = []
    for tier in ("common", "uncommon", "rare"):
        for i in range(need[tier] + 3):
            colors = () if i % 7 == 5 else (("W", "U") if i % 7 == 6 else (COLORS[i % 5],))
            cards.append(card(f"{tier.title()} {i}", tier, colors))
    return tuple(cards)


def cod(names: list[str], side: list[str] | None = None) -> str:
    main = "".join(f'<card number="1" name="{n}"/>' for n in names)
    sb = "".join(f'<card number="1" name="{n}"/>' for n in side or [])
    return (
        '<?xml version="1.0"?><cockatrice_deck version="1"><deckname>d</deckname>'
        f'<zone name="main">{main}</zone><zone name="side">{sb}</zone></cockatrice_deck>'
    )


# -- positions and names -> card identities -------------------------------------------------------


def test_by_position_translates_one_based_positions() -> None:
    assert by_position([40, 41, 42], "1", "pack") == 40
    assert by_position([40, 41, 42], "#3", "pack") == 42
    assert by_position([40, 41, 42], " Serra Angel ", "pack") == "Serra Angel"
    with pytest.raises(BadArgument, match=r"no card 4 in your pack \(1-3\)"):
        by_position([40, 41, 42], "4", "pack")
    with pytest.raises(BadArgument, match="no card 0"):
        by_position([40], "0", "pack")
    with pytest.raises(BadArgument, match="your shop is empty"):
        by_position([], "1", "shop")


def test_pick_and_carousel_actions() -> None:
    assert pick_action("al", "2", [7, 9]) == core.Pick(player="al", card=9)
    assert pick_action("al", "Shock", [7, 9]) == core.Pick(player="al", card="Shock")
    assert pick_action("al", "1", [5], carousel=True) == ab.CarouselPick(player="al", card=5)
    assert pick_action("al", "1 for 2", [5], carousel=True, put_back_from=[3, 4]) == ab.CarouselPick(
        player="al", card=5, put_back=4
    )
    with pytest.raises(BadArgument, match="usage: !pick N for M"):
        pick_action("al", "1", [5], carousel=True, put_back_from=[3, 4])


def test_swap_forms() -> None:
    shop, pool = [10, 11, 12, 13, 14], [1, 2, 3]
    assert swap_action("al", "2 3", shop, pool) == ab.Swap(player="al", shop_card=11, pool_card=3)
    assert swap_action("al", "Llanowar Elves for 1", shop, pool) == ab.Swap(
        player="al", shop_card="Llanowar Elves", pool_card=1
    )
    assert swap_action("al", "Giant Growth, Grizzly Bears", shop, pool).pool_card == "Grizzly Bears"
    assert split_two("5 Grizzly Bears") == ("5", "Grizzly Bears")
    assert split_two("Grizzly Bears 2") == ("Grizzly Bears", "2")
    with pytest.raises(BadArgument, match="usage: !swap"):
        split_two("1")
    with pytest.raises(BadArgument, match="no card 9 in your shop"):
        swap_action("al", "9 1", shop, pool)


def test_buy_forms() -> None:
    market, pool = [100, 101, 102], [1, 2, 3, 4, 5]
    assert buy_action("al", "2 with 1 3 5", market, pool) == mk.Buy(player="al", card=101, pay=(1, 3, 5))
    assert buy_action("al", "Serra Angel with Shock, 2", market, pool) == mk.Buy(
        player="al", card="Serra Angel", pay=("Shock", 2)
    )
    assert buy_action("al", "1 WITH 1,2", market, pool).pay == (1, 2)
    with pytest.raises(BadArgument, match="usage: !buy"):
        buy_action("al", "2", market, pool)
    with pytest.raises(BadArgument, match="named twice"):
        buy_action("al", "1 with 2 2", market, pool)
    with pytest.raises(BadArgument, match="no card 6 in your pool"):
        pay_refs("6", pool)


def test_result_claims() -> None:
    assert result_action("al", "win", "bo") == core.ReportResult(player="al", winner="al")
    assert result_action("al", "LOSS", "bo") == core.ReportResult(player="al", winner="bo")
    assert result_action("al", "draw", "bo") == core.ReportResult(player="al", draw=True)
    with pytest.raises(BadArgument):
        result_action("al", "maybe", "bo")


@settings(max_examples=150, deadline=None)
@given(
    st.text(max_size=80),
    st.lists(st.integers(0, 300), max_size=20),
    st.lists(st.integers(0, 300), max_size=20),
)
def test_argument_parsers_never_crash(text: str, first: list[int], second: list[int]) -> None:
    """Untrusted chat: the parsers either build an action or refuse with BadArgument."""
    for parse in (
        lambda: by_position(first, text, "pack"),
        lambda: swap_action("al", text, first, second),
        lambda: buy_action("al", text, first, second),
        lambda: pay_refs(text, second),
        lambda: result_action("al", text, "bo"),
    ):
        with contextlib.suppress(BadArgument):
            parse()


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_deck_reader_never_crashes(text: str) -> None:
    result = deck_names(text)
    assert result is None or isinstance(result, tuple)


# -- deck checks ------------------------------------------------------------------------------------


def market_engine(rounds: int = 1) -> mk.MarketDraftEngine:
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=rounds, cards=market_cards(2, rounds)), seed=3
    )
    engine.apply(core.Start(player=None))
    while engine.phase == "draft":
        for player in ("al", "bo"):
            if engine.pack(player):
                engine.apply(core.Pick(player=player, card=engine.pack(player)[0]))
    return engine


def block_of(engine: Any, spell: dict[str, str] | None = None) -> LoadedBlock:
    facts = tuple(engine.config.cards)
    names = tuple((spell or {}).get(f.name, f.name) for f in facts)
    return LoadedBlock("test", facts, names, "")


def test_market_deck_check_from_a_loaded_cod() -> None:
    engine = market_engine()
    block = block_of(engine)
    pool = [engine.config.cards[c].name for c in engine.pool("al")]
    assert (
        check_loaded_deck(engine, "al", cod(pool[:23] + ["Island"] * 17, side=["Black Lotus"]), block) == []
    )
    problems = check_loaded_deck(engine, "al", cod([*pool[:10], "Black Lotus"]), block)
    assert [p.code for p in problems] == ["deck_too_small", "not_in_pool"]
    line = describe_problems(problems)
    assert "11 cards, at least 40 needed" in line and "Black Lotus x1 but you own 0" in line
    public, private = deck_verdict(problems)
    assert public == "deck not legal: 11 cards, at least 40 needed; 1 card(s) not allowed"
    assert private == f"deck not legal: {line}"
    assert deck_verdict(problems[:1]) == ("deck not legal: 11 cards, at least 40 needed", "")
    assert deck_verdict([]) == ("deck OK", "")
    assert [p.code for p in check_loaded_deck(engine, "al", "<not xml", block)] == ["unreadable"]
    assert [p.code for p in check_loaded_deck(engine, "al", "", block)] == ["no_deck"]


def test_cockatrice_spellings_are_translated() -> None:
    facts = (card("Fire // Ice"), card("Shock"))
    assert canonical_names(["fire // ice", "Shock", "Island"], facts, ("Fire // Ice", "Shock")) == [
        "Fire // Ice",
        "Shock",
        "Island",
    ]
    assert canonical_names(["Delver"], (card("Delver of Secrets // Insectile Aberration"),), ("Delver",)) == [
        "Delver of Secrets // Insectile Aberration"
    ]


def autobattler_engine() -> ab.AutoBattlerEngine:
    cards = tuple(card(f"Cube {i}", "common", (COLORS[i % 5],)) for i in range(80))
    engine = ab.AutoBattlerEngine(ab.AutoBattlerConfig(players=("a", "b", "c", "d"), cards=cards), seed=9)
    engine.apply(core.Start(player=None))
    return engine


def test_autobattler_deck_check_hand_lands_treasures() -> None:
    engine = autobattler_engine()
    block = block_of(engine)
    pool = [engine.config.cards[c].name for c in engine.pool("a")]
    assert check_loaded_deck(engine, "a", cod(pool[:3] + ["Forest"] * 3), block) == []
    assert check_loaded_deck(engine, "a", cod(pool[:3] + ["Forest"] * 3 + ["Treasure"]), block) == []
    problems = check_loaded_deck(engine, "a", cod(pool[:4] + ["Forest"] * 2 + ["Treasure"] * 2), block)
    assert [p.code for p in problems] == ["wrong_hand_size", "wrong_land_count", "too_many_treasures"]
    assert "4 hand cards, exactly 3 needed" in describe_problems(problems)


# -- rendering ----------------------------------------------------------------------------------------


def test_render_draft_is_private_and_numbered() -> None:
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=1, cards=market_cards()), seed=3
    )
    out = render_effects(engine.apply(core.Start(player=None)), engine)
    assert out.public == []
    assert set(out.private) == {"al", "bo"}
    assert out.private["al"][0].startswith("Your pack (15): 1. ")
    assert out.private["al"][0].endswith(". !pick N (or the name).")  # how to pick: with the first pack
    first = engine.config.cards[engine.pack("al")[0]].name
    out = render_effects(engine.apply(core.Pick(player="al", card=engine.pack("al")[0])), engine)
    assert out.private["al"][0] == f"You picked {first} (1 in your pool)."
    assert out.public == [] and "bo" not in out.private  # bo still picks from their first pack
    out = render_effects(engine.apply(core.Pick(player="bo", card=engine.pack("bo")[0])), engine)
    passed = [line for line in out.private["al"] if line.startswith("Your pack (14): 1. ")]
    assert len(passed) == 1 and "!pick" not in passed[0]  # said once, not with each of 44 more packs


def test_render_market_round() -> None:
    engine = market_engine()
    assert engine.phase == "play"
    out = render_effects(engine.apply(core.ReportResult(player=None, winner="al")), engine)
    text = " ".join(out.public)
    assert "Round 1: al beats bo." in text
    assert (
        "League over! al wins the league (2 points). Final standings (points): al 2, bo 0." in text
    )  # a one-round league ends here


def test_render_market_buy_and_claims() -> None:
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=2, cards=market_cards(2, 2)), seed=4
    )
    engine.apply(core.Start(player=None))
    while engine.phase == "draft":
        for player in ("al", "bo"):
            if engine.pack(player):
                engine.apply(core.Pick(player=player, card=engine.pack(player)[0]))
    out = render_effects(engine.apply(core.ReportResult(player="bo", winner="al")), engine)
    assert out.private["bo"] == ["Noted: al won. Waiting for al to confirm."]
    assert out.private["al"] == ["bo reports al won. Confirm with !result win."]
    out = render_effects(engine.apply(core.ReportResult(player="al", winner="al")), engine)
    # the confirming claim settles it: no "waiting for bo to confirm" after the room heard the result
    assert not any("confirm" in line.lower() for lines in out.private.values() for line in lines)
    assert "Round 1: al beats bo." in out.public
    assert any(line.startswith("Market open: 1. ") for line in out.public)
    assert "bo to buy." in out.public
    assert out.private["bo"][-1].startswith("Your turn to buy")
    assert any(line.startswith("Your booster: ") for line in out.private["al"])
    out = render_effects(engine.apply(mk.Pass(player="bo")), engine)
    assert out.public[0] == "bo passes."


def test_conflicting_result_claims_are_told_to_both_players() -> None:
    """Seen in the field: hal claimed a win, then eve claimed a win; each was told only "Noted: ... won.
    Waiting for ... to confirm", the first claim silently overwritten. Both hear their reports disagree."""
    engine = market_engine(rounds=1)
    render_effects(engine.apply(core.ReportResult(player="al", winner="al")), engine)
    out = render_effects(engine.apply(core.ReportResult(player="bo", winner="bo")), engine)
    assert out.private["bo"][0].startswith("Noted: bo won. But al reported al won: your reports disagree.")
    assert out.private["al"][0].startswith(
        "bo reports bo won, but you reported al won: your reports disagree."
    )
    for line in (out.private["al"][0], out.private["bo"][0]):
        assert "corrects it with !result" in line and "Confirm with" not in line
    out = render_effects(engine.apply(core.ReportResult(player="bo", winner="", draw=True)), engine)
    assert out.private["bo"][0].startswith("Noted: a draw. But al reported al won: your reports disagree.")
    out = render_effects(engine.apply(core.ReportResult(player="bo", winner="al")), engine)
    assert "Round 1: al beats bo." in out.public  # one corrects: the result counts


def test_render_autobattler_draft_and_setup() -> None:
    engine = autobattler_engine()
    out = render_effects(
        engine.apply(ab.Swap(player="a", shop_card=engine.shop("a")[0], pool_card=engine.pool("a")[0])),
        engine,
    )
    assert out.private["a"][0].startswith("You took ")
    effects: list[Any] = []
    for player in ("a", "b", "c", "d"):
        effects += engine.apply(ab.EndDraft(player=player))
    out = render_effects(effects, engine)
    text = " ".join(out.public)
    assert "Draft over. Energy 3" in text
    assert "hand 3, life 10, no library" in text
    assert text.count(" vs ") >= 2
    assert out.private["a"][-1].startswith("Deck: exactly 3 cards of your pool")


def test_pool_list_and_cod() -> None:
    text = pool_list(["Shock", "Grizzly Bears", "Shock"])
    assert text.splitlines() == ["1 Grizzly Bears", "2 Shock"]
    xml = pool_cod("al pool", ["Shock", "Grizzly Bears", "Shock"])
    assert '<card number="2" name="Shock"/>' in xml and "<cockatrice_deck" in xml
    assert deck_names(xml) is not None and sorted(deck_names(xml)[0]) == ["Grizzly Bears", "Shock", "Shock"]  # type: ignore[index]


# -- journal and restore --------------------------------------------------------------------------------


class _FakeClient:
    connected = True

    def __init__(self) -> None:
        self.games: dict[int, Any] = {}

    async def caught_up(self, timeout: float = 10.0) -> float:
        """Nothing is ever in flight here."""
        return 0.0


class _SentAtOnce:
    """A chat scheduler stand-in: the fake bots send every line at once, so nothing is ever waiting."""

    async def flush(self, destination: Any = None, *, timeout: float = 60.0) -> None:
        return None

    def got_back_lately(self, user: str, within: float = 60.0) -> bool:
        return False  # nobody is kept messages for here

    def pending(self, destination: Any = None) -> int:
        return 0  # every line left at once


class _FakeBot:
    """Just enough of a Bot to restore a league without a server."""

    GAME_KEY = ":game:"

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.client = _FakeClient()
        self.private_referees: list[Any] = []
        self.server_key = "ws://test"
        self.main = None  # the main session (this one)
        self.sessions = [self]  # and its only one
        self.league_pages = None  # no web view
        self.chat = _SentAtOnce()
        self.fleet = None  # alone, not in a fleet

    def conversation_with(self, user: str) -> Any:
        return self  # one session

    def all_games(self) -> dict[int, Any]:
        return {}  # no game refereed yet (an installer leaves the games nothing claims)

    async def commands_handled(self, users: Any, timeout: float = 10.0) -> bool:
        return True  # no command queued: each is run as the test says it


def journaled_market_league(journal: Journal, room_id: int, number: int) -> Table:
    """A started two-player Market Draft league in ``journal``, with the metadata the bot writes."""
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=1, cards=market_cards()), seed=3
    )
    meta = {
        "kind": "league",
        "format": "market",
        "options": {"format": "market", "block": "", "rounds": 1, "seed": 3, "game_password": ""},
        "room_id": room_id,
        "block": "test",
        "game_names": list(block_of(engine).game_names),
        "games": {},
    }
    table = Table.create(journal, f"ws://test:league:{room_id}:market:{number}", engine, meta=meta)
    table.apply(core.Start(player=None))
    return table


def test_league_restores_from_the_journal() -> None:
    journal = Journal(":memory:")
    table = journaled_market_league(journal, room_id=0, number=1)
    engine = table.engine
    table.apply(core.Pick(player="al", card=engine.pack("al")[1]))
    bot = _FakeBot(journal)
    league = asyncio.run(LeagueReferee.restore(bot, table.key))  # type: ignore[arg-type]
    assert league.engine.snapshot() == engine.snapshot()
    assert league.options == LeagueOptions(format="market", rounds=1, seed=3)
    assert bot.private_referees == [league]


def test_after_a_restart_each_member_the_league_waits_for_hears_what_it_waits_for() -> None:
    """A restart lost the lines still queued (a pack's listing): a drafter waited for a pack they never saw.
    Each member the league waits for now gets it again, in one line; the others hear what they picked and
    whom the league waits for (they got no word at all)."""
    journal = Journal(":memory:")
    table = journaled_market_league(journal, room_id=0, number=1)
    engine = table.engine
    table.apply(core.Pick(player="al", card=engine.pack("al")[0]))  # al waits for bo's pack now
    bot = _ChattyBot(journal)
    league = asyncio.run(LeagueReferee.restore(bot, table.key))  # type: ignore[arg-type]
    asyncio.run(league.tell_members_again())
    listing = "; ".join(f"{n}. {engine.config.cards[c].name}" for n, c in enumerate(engine.pack("bo"), 1))
    picked = engine.config.cards[engine.pool("al")[-1]].name
    assert bot.said == [
        f"al: The referee is back: you picked {picked}; your next pack is not here yet (waiting for bo to"
        " pick).",
        f"bo: The referee is back: your pack (15): {listing}. !pick N.",
    ]


def test_a_league_whose_record_no_longer_replays_is_announced_in_its_room() -> None:
    """After an upgrade whose rules change what a journaled action did, the bot starts all the same and the
    league's room hears that it cannot go on (it used to be a line in the bot's log only)."""
    journal = Journal(":memory:")
    table = journaled_market_league(journal, room_id=7, number=2)
    journal._db.execute(  # what another version of the rules had recorded for the start
        "UPDATE actions SET effects='[]' WHERE table_key=? AND seq=1", (table.key,)
    )
    bot = _FakeBot(journal)
    said: list[tuple[int, str]] = []

    async def room_say(room_id: int, text: str) -> None:
        said.append((room_id, text))

    bot.options = types.SimpleNamespace(format_options={})  # type: ignore[attr-defined]
    bot.room_referees = []  # type: ignore[attr-defined]
    bot.room_ids = [7]  # type: ignore[attr-defined]
    bot.room_say = room_say  # type: ignore[attr-defined]
    asyncio.run(install_market(bot))  # type: ignore[arg-type]
    (room,) = bot.room_referees  # type: ignore[attr-defined]
    assert room.leagues == []
    ((room_id, line),) = said
    assert room_id == 7
    assert line.startswith("The Market Draft league #2's record cannot be replayed (")
    assert "action 1 (Start) replays differently" in line and line.endswith("nothing was changed")


# -- room options and chat packing -------------------------------------------------------------------------


def test_start_options_and_block_names_from_chat() -> None:
    from cockatrice_ext.bot.league_rooms import AutoBattlerRoom, MarketRoom

    market = MarketRoom(object())  # type: ignore[arg-type]
    options = market._start_options("4 market-pool")
    assert (options.format, options.rounds, options.block_name) == ("market", 4, "market-pool")
    assert market._start_options("").block_name == "market-pool"
    with pytest.raises(BadArgument, match="ROUNDS must be between 1 and 20"):
        market._start_options("99")
    with pytest.raises(BadArgument, match="no block called '/etc/passwd'"):
        market._start_options("/etc/passwd")  # chat never names files on the bot's machine
    room = AutoBattlerRoom(object(), LeagueOptions(format="autobattler", block="/srv/my-cube.txt"))  # type: ignore[arg-type]
    assert room._start_options("/srv/my-cube.txt").block == "/srv/my-cube.txt"  # the operator's own block
    assert room._start_options("").format == "autobattler"


def test_long_public_lines_are_cut_at_list_boundaries() -> None:
    from cockatrice_ext.bot.league_chat import _pack_lines

    listing = "Market open: " + "; ".join(f"{n}. Card number {n} (rare, 20)" for n in range(1, 30)) + "."
    pieces = _pack_lines(["Round 1: al beats bo.", listing], limit=280)
    assert all(len(p) <= 280 for p in pieces)
    assert "".join(pieces).count("Card number") == 29
    assert pieces[0] == "Round 1: al beats bo." and pieces[1].startswith("Market open: 1. ")
    assert _pack_lines(["a.", "b."]) == ["a. b."]


@settings(max_examples=300, deadline=None)
@given(
    names=st.lists(
        st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=40).filter(
            lambda name: "; " not in name and name == name.strip() and not name.endswith(";")
        ),
        min_size=1,
        max_size=60,
    ),
    limit=st.integers(min_value=60, max_value=900),
)
@example(names=["A" * 20, "B" * 21, "C"], limit=60)  # "Your pool: 1. A…; 2. B…" fills 60 exactly
def test_a_long_listing_is_split_between_its_items_never_inside_one(names: list[str], limit: int) -> None:
    """A numbered list too long for one message (a pool of 53) comes in pieces under the limit, each but
    the last ending with ";", that read back as the whole list: no card's name is cut. (A piece that
    filled the limit exactly got its ";" over it and lost the end of its last name.)"""
    from cockatrice_ext.bot.league_chat import _pack_lines

    listing = "Your pool: " + "; ".join(f"{n}. {name}" for n, name in enumerate(names, start=1)) + "."
    if any(len(f"{n}. {name};") > limit - 11 for n, name in enumerate(names, start=1)):
        return  # an item that cannot fit a piece by itself is cut: not this property
    pieces = _pack_lines([listing], limit=limit, separator=" | ")
    assert all(len(piece) <= limit for piece in pieces)
    assert " ".join(pieces) == listing


def market_in_market_phase() -> mk.MarketDraftEngine:
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=2, cards=market_cards(2, 2)), seed=4
    )
    engine.apply(core.Start(player=None))
    while engine.phase == "draft":
        for player in ("al", "bo"):
            if engine.pack(player):
                engine.apply(core.Pick(player=player, card=engine.pack(player)[0]))
    engine.apply(core.ReportResult(player=None, winner="al"))
    assert engine.phase == "market"
    return engine


MARKET = market_in_market_phase()
WORDS = st.sampled_from(
    ["1", "2", "3", "12", "40", "99", "with", ",", "Common 1", "Uncommon 3", "Rare 2", "x"]
)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["al", "bo", "zed"]), st.lists(WORDS, max_size=12))
def test_refused_chat_changes_nothing(player: str, words: list[str]) -> None:
    """Whatever a player types, a refusal (parse or rules) leaves the league exactly as it was."""
    import copy

    from cockatrice_ext.formats.base import RulesError

    engine = copy.deepcopy(MARKET)
    before = engine.snapshot()
    text = " ".join(words)
    pool = engine.pool(player) if player in engine.league.members else []
    try:
        action = buy_action(player, text, engine.market, pool)
        engine.apply(action)
    except (BadArgument, RulesError):
        assert engine.snapshot() == before
        return
    # Accepted: the buyer was on turn and paid enough; cards are conserved.
    assert player == before["turn"]
    counts = sum(len(v) for v in engine.locations().values())
    assert counts == len(engine.config.cards)


def test_one_league_at_a_time_across_formats_and_rooms() -> None:
    """Private commands name no league, so a player in one league or lobby cannot join another."""
    from cockatrice_ext.bot.league_rooms import AutoBattlerRoom, MarketRoom
    from cockatrice_ext.bot.referee import Context
    from cockatrice_ext.bot.runtime import Bot, BotOptions

    async def scenario() -> list[str]:
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=Journal(":memory:"))
        market, autobattler = MarketRoom(bot), AutoBattlerRoom(bot)
        bot.room_referees += [market, autobattler]
        said: list[str] = []

        async def collect(text: str) -> None:
            said.append(text)

        for room_id, referee, text in (
            (1, market, "!market join"),
            (1, autobattler, "!autobattler join"),
            (2, market, "!market join"),
        ):
            ctx = Context(bot, "room", "alice", room_id=room_id, reply_hook=collect)
            await referee.handle_command(ctx, text)
        return said

    said = asyncio.run(scenario())
    assert said[0].startswith("alice joins the ")
    assert said[1].startswith("alice: you are already in the ") and "lobby; one league at a time" in said[1]
    assert said[2] == said[1]  # another room of the same format: the same answer


class _ChattyBot(_FakeBot):
    """A fake bot that keeps what it would say in the room and privately."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal)
        self.said: list[str] = []

    async def room_say(self, room_id: int, text: str) -> None:
        self.said.append(text)

    async def tell(self, user: str, text: str, *, raw: bool = False) -> None:
        self.said.append(f"{user}: {text}")


def test_an_overpaying_buy_is_warned_about_once_then_goes_through() -> None:
    from cockatrice_ext.bot.referee import Context

    engine = market_engine(rounds=2)
    engine.apply(core.ReportResult(player=None, winner="al"))
    assert engine.phase == "market"
    buyer = engine.whose_turn()
    assert buyer is not None
    cards = engine.config.cards
    uncommon = next(c for c in engine.market if cards[c].rarity == "uncommon")
    colors = set(cards[uncommon].colors)
    pay = [
        c for c in engine.pool(buyer) if cards[c].rarity == "common" and not colors & set(cards[c].colors)
    ][:11]
    text = f"{cards[uncommon].name} with " + ", ".join(str(engine.pool(buyer).index(c) + 1) for c in pay)
    bot = _ChattyBot(Journal(":memory:"))
    table = Table.create(bot.journal, "ws://test:league:0:market:1", engine)
    league = LeagueReferee(bot, 0, LeagueOptions(format="market"), block_of(engine), table)  # type: ignore[arg-type]
    replies: list[str] = []

    async def reply(line: str) -> None:
        replies.append(line)

    ctx = Context(bot=bot, scope="private", sender=buyer, reply_hook=reply)  # type: ignore[arg-type]
    asyncio.run(league.buy(ctx, text))
    assert len(replies) == 1 and replies[0].startswith(
        f"That overpays for {cards[uncommon].name}: the cost is met even without any one of"
    )
    assert uncommon in engine.market
    asyncio.run(league.buy(ctx, text))
    assert uncommon in engine.pool(buyer) and len(replies) == 2
    assert replies[1].startswith(f"You bought {cards[uncommon].name} for ")  # the page's answer


# -- AutoBattler augments through the private desk ---------------------------------------------------------


def test_the_default_augments_are_real_conspiracies_within_the_cubes_exclusions() -> None:
    from cockatrice_ext.bot.league_cards import default_augments
    from cockatrice_ext.cards.store import shipped_store

    augments = default_augments()
    assert [(a.name, a.rarity) for a in augments] == list(ab.DEFAULT_AUGMENTS)
    assert {a.rarity for a in augments} == set(ab.AUGMENT_RARITIES)
    for augment in augments:
        assert augment.types == ("Conspiracy",)
        oracle = shipped_store().find(augment.name).front.oracle_text.lower()  # type: ignore[union-attr]
        text = re.sub(r"\([^)]*\)", "", oracle)  # reminder text ("Start the game with this conspiracy...")
        assert not any(word in text for word in ("draw", "library", "search", "deck", "starting", "monarch"))
    for rarity in ab.AUGMENT_RARITIES:  # at least one full pack of every rarity
        assert sum(a.rarity == rarity for a in augments) >= ab.AUGMENT_PACK_SIZE


def league_desk(options: LeagueOptions, engine: ab.AutoBattlerEngine) -> tuple[LeagueReferee, _ChattyBot]:
    bot = _ChattyBot(Journal(":memory:"))
    table = Table.create(bot.journal, "ws://test:league:0:autobattler:1", engine)
    return LeagueReferee(bot, 0, options, block_of(engine), table), bot  # type: ignore[arg-type]


def say(league: LeagueReferee, bot: Any, sender: str, text: str) -> list[str]:
    """What the league answers ``sender``'s private ``text`` with (replies first, then what it told)."""
    from cockatrice_ext.bot.referee import Context

    replies: list[str] = []

    async def reply(line: str) -> None:
        replies.append(line)

    bot.said.clear()
    ctx = Context(bot=bot, scope="private", sender=sender, reply_hook=reply)  # type: ignore[arg-type]
    assert asyncio.run(league.handle_command(ctx, text))
    return replies + bot.said


def test_augments_option_rolls_deals_and_keeps_through_private_commands() -> None:
    from cockatrice_ext.bot.league_cards import default_augments
    from cockatrice_ext.bot.league_rooms import AutoBattlerRoom

    options = AutoBattlerRoom(object())._start_options("augments")  # type: ignore[arg-type]
    assert options.augment_packs
    cards = tuple(card(f"Cube {i}", "common", (COLORS[i % 5],)) for i in range(80))
    engine = ab.AutoBattlerEngine(
        ab.AutoBattlerConfig(
            players=("a", "b", "c", "d"), cards=cards, augment_packs=True, augment_cards=default_augments()
        ),
        seed=9,
    )
    league, bot = league_desk(options, engine)
    asyncio.run(league.perform(league.table.apply(core.Start(player=None))))
    assert any(line.startswith("Augments: the D6 rolled ") for line in bot.said)
    assert "!augment" in " ".join(say(league, bot, "a", "!help"))
    assert "augments=on" in say(league, bot, "a", "!rules")[0]
    assert say(league, bot, "a", "!augment 1") == ["a: you have no augment pack to choose from"]
    for player in ("a", "b", "c", "d"):
        say(league, bot, player, "!done")
    loser = engine.league.current_matches()[0].players[1]
    engine.poison[loser] = 5
    for m in engine.league.current_matches():
        asyncio.run(league.perform(league.table.apply(core.ReportResult(player=None, winner=m.players[0]))))
    pack = engine.augment_packs[loser]
    names = [engine.config.augment_cards[c].name for c in pack]
    assert f"{loser}: Your augment pack: 1. {names[0]}; 2. {names[1]}; 3. {names[2]}." in " ".join(bot.said)
    assert say(league, bot, loser, "!done")[0] == f"{loser}: keep one augment of your pack first: !augment N"
    assert "keep one augment" in say(league, bot, loser, "!status")[0]
    told = say(league, bot, loser, "!augment 2")
    assert f"{loser}: You keep {names[1]}: put it in every mini-game deck" in " ".join(told)
    assert engine.augments[loser] == [pack[1]]
    assert say(league, bot, loser, "!augment")[0].startswith(f"Your augments: {names[1]}. This game's rarity")
    hand = [cards[c].name for c in engine.pool(loser)[:3]]
    assert (
        check_loaded_deck(engine, loser, cod([*hand, names[1], "Forest", "Forest", "Forest"]), league.block)
        == []
    )


def test_without_augments_the_command_is_not_offered() -> None:
    engine = autobattler_engine()
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    assert "!augment" not in " ".join(say(league, bot, "a", "!help"))
    assert say(league, bot, "a", "!augment 1") == [
        "a: this league was started without augments, so no !augment"
    ]


def test_items_option_drafts_an_equipment_through_the_private_desk() -> None:
    from cockatrice_ext.bot.league_rooms import AutoBattlerRoom

    options = AutoBattlerRoom(object())._start_options("items=on")  # type: ignore[arg-type]
    assert options.item_drafting
    cards = tuple(
        CardFacts(name=f"Blade {i}", mana_value=1, types=("Artifact",), subtypes=("Equipment",))
        if i % 2
        else card(f"Cube {i}", "common", (COLORS[i % 5],))
        for i in range(80)
    )
    engine = ab.AutoBattlerEngine(
        ab.AutoBattlerConfig(players=("a", "b", "c", "d"), cards=cards, item_drafting=True), seed=9
    )
    league, bot = league_desk(options, engine)
    asyncio.run(league.perform(league.table.apply(core.Start(player=None))))
    assert "!item SHOP POOL takes an Aura or Equipment" in " ".join(bot.said)
    assert "!item" in " ".join(say(league, bot, "a", "!help"))
    assert "items=on" in say(league, bot, "a", "!rules")[0]
    shop = engine.shop("a")
    blade = next(n for n, c in enumerate(shop, start=1) if cards[c].name.startswith("Blade"))
    bear = next((n for n, c in enumerate(shop, start=1) if cards[c].name.startswith("Cube")), None)
    if bear is not None:
        assert say(league, bot, "a", f"!item {bear} 1") == [
            f"a: {cards[shop[bear - 1]].name} is not an Aura or Equipment: only those become items"
        ]
    item, given = shop[blade - 1], engine.pool("a")[0]
    told = " ".join(say(league, bot, "a", f"!item {blade} 1"))
    assert f"{cards[item].name} is now your item (1 treasure(s) paid, 0 left;" in told
    assert engine.items["a"] == [item] and given in engine.shop("a")
    hand = [cards[c].name for c in engine.pool("a")[:3]]
    lands = ["Forest"] * 3
    assert check_loaded_deck(engine, "a", cod([*hand, cards[item].name, *lands]), league.block) == []
    other = next(c for c in engine.shop("a") if cards[c].name.startswith("Blade") and c != item)
    position = engine.shop("a").index(other) + 1
    assert say(league, bot, "a", f"!item {position} 1") == ["a: that costs 1 treasures; you have 0"]


def test_without_items_the_command_is_not_offered_and_the_shop_does_not_mention_it() -> None:
    engine = autobattler_engine()
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    assert "!item" not in " ".join(say(league, bot, "a", "!help"))
    out = render_effects([ab.ShopOpened("a", tuple(engine.shop("a")), ("x",) * 5)], engine)
    assert "!item" not in out.private["a"][0]


def test_eight_players_are_reseated_when_the_hand_size_grows() -> None:
    from cockatrice_ext.bot.league_rooms import AutoBattlerRoom

    options = AutoBattlerRoom(object())._start_options("tables=reseat")  # type: ignore[arg-type]
    assert options.reseat_on_energy
    players = tuple("abcdefgh")
    cards = tuple(card(f"Cube {i}", "common", (COLORS[i % 5],)) for i in range(200))
    engine = ab.AutoBattlerEngine(
        ab.AutoBattlerConfig(players=players, cards=cards, reseat_on_energy=True), seed=9
    )
    league, bot = league_desk(options, engine)
    asyncio.run(league.perform(league.table.apply(core.Start(player=None))))
    assert "tables=reseat" in say(league, bot, "a", "!rules")[0]
    for _ in range(3):
        for player in players:
            say(league, bot, player, "!done")
        bot.said.clear()
        while engine.phase == "play":
            match = next(m for m in engine.league.current_matches() if not m.decided)
            effects = league.table.apply(core.ReportResult(player=None, winner=match.players[0]))
            asyncio.run(league.perform(effects))
    tables = "; ".join(f"group {n}: {', '.join(g)}" for n, g in enumerate(engine.groups, start=1))
    assert f"Hand sizes grow: everyone changes tables. {tables}." in " ".join(bot.said)


def test_reseating_is_refused_for_four_players() -> None:
    """tables=reseat would do nothing at one table: starting four players with it is refused, even when it
    is the room's default, and tables=isolated overrides it."""
    from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
    from cockatrice_ext.bot.referee import Context
    from cockatrice_ext.bot.runtime import Bot, BotOptions

    async def scenario() -> list[str]:
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=Journal(":memory:"))
        room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", reseat_on_energy=True))
        bot.room_referees.append(room)
        said: list[str] = []

        async def collect(text: str) -> None:
            said.append(text)

        for name in ("al", "bo", "cy", "di"):
            await room.handle_command(
                Context(bot, "room", name, room_id=1, reply_hook=collect), "!autobattler join"
            )
        for text in ("!autobattler start", "!autobattler start tables=reseat"):
            await room.handle_command(Context(bot, "room", "al", room_id=1, reply_hook=collect), text)
        return said[4:]

    said = asyncio.run(scenario())
    refusal = "al: tables=reseat moves eight players between two tables; 4 joined (start with tables=isolated"
    assert len(said) == 2 and all(line.startswith(refusal) for line in said)
    options = AutoBattlerRoom(
        object(), LeagueOptions(format="autobattler", reseat_on_energy=True)
    )._start_options(  # type: ignore[arg-type]
        "tables=isolated"
    )
    assert not options.reseat_on_energy


# -- private views and the chat budget ------------------------------------------------------------------


def fresh_autobattler(players: tuple[str, ...] = ("a", "b", "c", "d")) -> ab.AutoBattlerEngine:
    cards = tuple(card(f"Cube card number {i}", "common", (COLORS[i % 5],)) for i in range(160))
    return ab.AutoBattlerEngine(ab.AutoBattlerConfig(players=players, cards=cards), seed=4)


def test_a_draft_phase_first_chat_view_is_the_shop_and_the_numbered_pool_at_once() -> None:
    """A player can act on their first message: it numbers the shop and the pool (what !swap SHOP POOL
    reads) and says the treasures; the first cards are in the pool it lists, and nothing follows it."""
    engine = fresh_autobattler()
    out = render_effects(engine.apply(core.Start(player=None)), engine)
    cards = engine.config.cards
    for player in ("a", "b", "c", "d"):
        (line,) = out.private[player]
        shop = [cards[c].name for c in engine.shop(player)]
        pool = [cards[c].name for c in engine.pool(player)]
        assert line.startswith(f"Your shop: 1. {shop[0]}; ") and f"5. {shop[4]}." in line
        assert f"Your pool: 1. {pool[0]}; " in line and f"{len(pool)}. {pool[-1]}." in line
        assert f"Treasures {engine.treasures[player]}." in line and "!swap SHOP POOL, !roll, !done" in line
        assert "Your first cards" not in line and "A random card" not in line  # the pool says them
        assert len(line) <= 450
    assert sum(len(out.private[p][0]) for p in "abcd") < 1800  # two chat windows for four players


def test_a_rolled_shop_is_the_whole_view_at_once() -> None:
    engine = autobattler_engine()
    engine.treasures["a"] = 1
    out = render_effects(engine.apply(ab.Roll(player="a")), engine)
    assert out.private["a"][0] == "Rolled: a new shop."
    assert re.match(r"Your shop: 1\. .*Your pool: 1\. ", str(out.private["a"][1]))


def test_with_private_pages_chat_points_to_them_and_names_no_card() -> None:
    engine = fresh_autobattler()
    out = render_effects(engine.apply(core.Start(player=None)), engine, pages=True)
    names = {c.name for c in engine.config.cards}
    for player in ("a", "b", "c", "d"):
        assert out.private[player] == [
            f"Your shop is open ({engine.treasures[player]} treasure{'s' * (engine.treasures[player] != 1)}):"
            " on your page, or !shop."
        ]
    market = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=1, cards=market_cards(2, 1)), seed=3
    )
    out = render_effects(market.apply(core.Start(player=None)), market, pages=True)
    assert out.private["al"] == [f"Your pack ({len(market.pack('al'))}) is on your page; or !pack."]
    assert not any(name in line for lines in out.private.values() for line in lines for name in names)


class _Pages:
    """The web view's side of ``bot.league_pages``: a link the first time, and change notices."""

    def __init__(self) -> None:
        self.linked: set[str] = set()
        self.changes = 0

    def link(self, league: Any, player: str) -> str | None:
        if player in self.linked:
            return None
        self.linked.add(player)
        return f"http://web.example/league/1/private/token-of-{player}"

    def changed(self, league: Any) -> None:
        self.changes += 1


def test_with_pages_the_first_private_message_is_the_link_plus_one_line() -> None:
    engine = fresh_autobattler()
    bot = _ChattyBot(Journal(":memory:"))
    bot.league_pages = _Pages()  # type: ignore[assignment]
    table = Table.create(bot.journal, "ws://test:league:0:autobattler:1", engine)
    league = LeagueReferee(bot, 0, LeagueOptions(format="autobattler"), block_of(engine), table)  # type: ignore[arg-type]
    league.chat_players.add("b")  # b played from chat (the league was restored): the shop comes in chat too
    asyncio.run(league.begin())
    assert bot.said[0].startswith("AutoBattler league #1 starts")
    link = "Your shop and pool: http://web.example/league/1/private/token-of-{} or !shop"
    assert bot.said[1] == "a: " + link.format("a")  # nobody played from chat yet: one short line each
    assert bot.said[2].startswith("b: " + link.format("b") + " | Your shop: 1. "), bot.said[2]
    assert bot.said[3:5] == [f"{p}: {link.format(p)}" for p in "cd"]
    assert bot.league_pages.changes == 1  # type: ignore[attr-defined]
    answer = say(league, bot, "a", "!swap 1 1")  # answered like the page's button: on the page
    assert answer[0].startswith("You took ") and not any("/private/" in line for line in answer)
    assert bot.league_pages.changes == 2  # type: ignore[attr-defined]


def test_with_pages_only_players_watching_their_page_are_pointed_to_it() -> None:
    """Seen in the field with --web: chat-only players got every pack as "Your pack (14) is on your page;
    or !pack." and needed a !pack per pick. A player who picks in chat (bo) gets the listing in chat from
    then on; one whose page is open (al) is pointed to it."""
    from cockatrice_ext.bot.referee import Context

    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=1, cards=market_cards()), seed=3
    )
    bot = _ChattyBot(Journal(":memory:"))
    bot.league_pages = _Pages()  # type: ignore[assignment]
    table = Table.create(bot.journal, "ws://test:league:0:market:1", engine)
    league = LeagueReferee(bot, 0, LeagueOptions(format="market"), block_of(engine), table)  # type: ignore[arg-type]
    league.page_players.add("al")
    asyncio.run(league.begin())
    asyncio.run(league.perform(table.apply(core.Pick(player="al", card=engine.pack("al")[0]))))
    bot.said.clear()
    in_chat = Context(bot=bot, scope="private", sender="bo")  # type: ignore[arg-type]  # no page's reply hook
    assert asyncio.run(league.handle_command(in_chat, "!pick 1"))
    bo = [line for line in bot.said if line.startswith("bo: ")]
    assert any("Your pack (14): 1. " in line for line in bo), bo
    assert not any("on your page" in line for line in bo)
    assert not [line for line in bot.said if line.startswith("al: ")]  # al's page shows it


def test_without_pages_the_first_view_is_the_whole_view() -> None:
    engine = fresh_autobattler()
    bot = _ChattyBot(Journal(":memory:"))
    table = Table.create(bot.journal, "ws://test:league:0:autobattler:1", engine)
    league = LeagueReferee(bot, 0, LeagueOptions(format="autobattler"), block_of(engine), table)  # type: ignore[arg-type]
    asyncio.run(league.begin())
    told = [line for line in bot.said if line.startswith("a: ")]
    assert len(told) == 1 and told[0].startswith("a: Your shop: 1. ") and "Your pool: 1. " in told[0]


def test_status_names_who_the_draft_waits_for() -> None:
    """A player gone quiet (or offline) holds the draft: !status names who it waits for (it said only
    "draft, round 0")."""
    engine = autobattler_engine()
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    for player in ("a", "b"):
        say(league, bot, player, "!done")
    said = say(league, bot, "a", "!status")[0]
    assert "the draft waits for c, d" in said, said
    assert ": the draft before round 1;" in said and "round 0" not in said, said


def test_autobattler_draft_answers_say_what_to_do_instead() -> None:
    """!pick in a draft phase answered "not now (the league is in its draft phase)", a paradox; !done was
    answered only in the room, so a player in their private chat saw nothing."""
    engine = autobattler_engine()
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    assert say(league, bot, "a", "!pick 1") == [
        "a: this league was started without carousel, so no !pick; !swap SHOP POOL takes a shop card"
    ]
    assert say(league, bot, "a", "!done") == ["a: You are done drafting this phase (1 of 4 done)."]


def test_an_ended_league_still_shows_its_members_the_table_and_their_pool() -> None:
    """After the end, !standings and !pool by private message answered "Join a league in the room first";
    the member's latest league answers them, and nothing else."""
    from cockatrice_ext.bot.referee import Context

    engine = autobattler_engine()
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    bot.private_referees.append(league)
    league.over = True
    assert say(league, bot, "a", "!standings")[0].startswith("Energy ")
    assert any("Cube" in line for line in say(league, bot, "a", "!pool"))

    async def refused(text: str) -> bool:
        ctx = Context(bot=bot, scope="private", sender="a", reply_hook=lambda _line: asyncio.sleep(0))  # type: ignore[arg-type]
        return await league.handle_command(ctx, text)

    assert not asyncio.run(refused("!swap 1 2"))  # over: play commands are no longer this league's
    newer, _ = league_desk(LeagueOptions(format="autobattler"), autobattler_engine())
    bot.private_referees.append(newer)
    assert not asyncio.run(refused("!standings"))  # the newer league answers it
