"""Game options end to end: chosen in the room command, in force in the engine, shown by !rules, journaled."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceServer

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.commands import BadArgument
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom, MarketRoom
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client import FloodLimits
from cockatrice_ext.formats import options as opts

BLOCK = "4 Grizzly Bears\n2 Shock\n2 Giant Growth\n"


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def start_bot(url: str, tmp_path: Path, fmt: str, defaults: Any) -> Bot:
    bot = Bot(
        BotOptions(
            url=url,
            user=f"referee_{fmt[:4]}_opt",
            rooms=("Bot room",),
            journal_path=tmp_path / "journal.sqlite3",
            formats=(fmt,),
            format_options={fmt: defaults},
            client_options={"reconnect": False, "flood_limits": FloodLimits.unlimited()},
        )
    )
    await bot.start()
    return bot


def auction_game(
    servatrice: ServatriceServer, tmp_path: Path, command: str, check: Callable[..., Awaitable[None]]
) -> None:
    """Alice and Bob sit in the game ``command`` creates, then ``check(bot, referee, alice, bob, game)``."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)

    async def scenario() -> None:
        bot = await start_bot(
            servatrice.ws_url, tmp_path, "auction", AuctionOptions(block=str(block), seed=3)
        )
        tag = tmp_path.name[-12:].replace("-", "_")  # fresh user names for each test
        alice = await Player.connect(servatrice.ws_url, f"alice_{tag}")
        bob = await Player.connect(servatrice.ws_url, f"bob_{tag}")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob):
                await p.client.join_room(room_id)
            await alice.client.room_say(room_id, command)
            line = await alice.wait_line(lambda t: "Auction Magic game #" in t)
            game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
            referee = bot.games[game_id]
            assert isinstance(referee, AuctionReferee)
            await alice.sit(room_id, game_id)
            await bob.sit(room_id, game_id)
            await check(bot, referee, alice, bob, game_id)
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario())


@pytest.mark.servatrice
def test_auction_options_from_the_room_command_to_rules_and_journal(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    async def check(bot: Bot, referee: AuctionReferee, alice: Player, bob: Player, game_id: int) -> None:
        await alice.wait_line(lambda t: "Turn order" in t)
        await wait_until(lambda: referee.table is not None)
        config = referee.engine.config
        assert config.one_round_bidding and config.empty_block_rule == "draw"
        assert referee.options.bid_timeout == 45
        mark = alice.mark()
        await bob.say(game_id, "!rules")
        rules = await alice.wait_line(lambda t: t.startswith("Auction Magic, block"), since=mark)
        assert "chosen: boards=on timer=45 empty=draw; defaults: noncreature=auction gold=10" in rules
        # A restart reads the table options back from the journal: the same options are in force.
        assert referee.table is not None
        journaled = AuctionOptions(**bot.journal.table_meta(referee.table.key)["options"])
        assert opts.in_force("auction", journaled) == opts.in_force("auction", referee.options)
        assert opts.in_force("auction", journaled)["empty"] == "draw"

    auction_game(servatrice, tmp_path, "!auction new 2 boards timer=45 empty=draw", check)


@pytest.mark.servatrice
def test_auction_at_turn_opens_the_auction_step_as_the_turn_begins(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """at=turn (90X.4a for tables that skip upkeep): the first lot opens with no move to the draw step."""

    async def check(bot: Bot, referee: AuctionReferee, alice: Player, bob: Player, game_id: int) -> None:
        await alice.wait_line(lambda t: t.startswith("Auction 1: "))
        assert referee.engine.phase == "auction"

    auction_game(servatrice, tmp_path, "!auction new 2 at=turn", check)


@pytest.mark.servatrice
def test_autobattler_options_from_the_room_command_to_rules(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    names = ("ann_opt", "ben_opt", "cat_opt", "dan_opt")

    async def scenario() -> None:
        bot = await start_bot(
            servatrice.ws_url, tmp_path, "autobattler", LeagueOptions(format="autobattler", seed=2)
        )
        people = [await Player.connect(servatrice.ws_url, name) for name in names]
        ann = people[0]
        try:
            room_id = await ann.client.room_id_by_name("Bot room")
            for p in people:
                await p.client.join_room(room_id)
                await p.client.room_say(room_id, "!autobattler join")
            await ann.wait_line(lambda t: "dan_opt joins" in t)
            mark = ann.mark()
            await ann.client.room_say(room_id, "!autobattler start poison=flat3")
            await ann.wait_line(lambda t: "poison=flat3: expected one of fib, flat2" in t, since=mark)
            await ann.client.room_say(room_id, "!autobattler start poison=flat2 interest=5 carousel")
            await ann.wait_line(lambda t: "AutoBattler league #1 starts" in t, since=mark)
            room = next(r for r in bot.room_referees if isinstance(r, AutoBattlerRoom))
            engine = room.leagues[0].engine
            cfg = engine.config
            assert (cfg.flat_poison, cfg.interest_threshold, cfg.carousel, cfg.carousel_put_back) == (
                2,
                5,
                True,
                False,
            )
            assert all(
                len(engine.pool(n)) == 6 for n in names
            )  # the random card is withheld for the carousel
            await ann.client.send_message(room.leagues[0].bot.client.user_name, "!rules")
            told = await ann.wait_private(lambda t: t.startswith("AutoBattler league"))
            assert "chosen: poison=flat2 interest=5 carousel=drop; defaults: streak=off" in told
        finally:
            for p in people:
                await p.close()
            await bot.close()

    run(scenario())


def cod(names: list[str]) -> str:
    cards = "".join(f'<card number="1" name="{n}"/>' for n in names)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>mini</deckname>'
        f'<comments/><zone name="main">{cards}</zone></cockatrice_deck>'
    )


@pytest.mark.servatrice
def test_autobattler_basics_fee_is_checked_with_the_deck_and_paid_as_the_game_starts(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    names = ("ann_fee", "ben_fee", "cat_fee", "dan_fee")

    async def scenario() -> None:
        defaults = LeagueOptions(format="autobattler", seed=4)
        bot = await start_bot(servatrice.ws_url, tmp_path, "autobattler", defaults)
        people = {name: await Player.connect(servatrice.ws_url, name) for name in names}
        ann = people["ann_fee"]
        try:
            room_id = await ann.client.room_id_by_name("Bot room")
            for p in people.values():
                await p.client.join_room(room_id)
                await p.client.room_say(room_id, "!autobattler join")
            await ann.wait_line(lambda t: "dan_fee joins" in t)
            await ann.client.room_say(room_id, "!autobattler start basicsfee=1")
            await ann.wait_line(lambda t: "AutoBattler league #1 starts" in t)
            league = next(r for r in bot.room_referees if isinstance(r, AutoBattlerRoom)).leagues[0]
            engine = league.engine
            assert engine.config.basics_change_fee == 1
            engine.basics["ann_fee"] = ("island", "island", "island")  # as if her last mini-game had Islands
            for name in names:
                await people[name].client.send_message(bot.client.user_name, "!done")
            await wait_until(lambda: len(league.games) == 2, what="two games")
            assert engine.treasures["ann_fee"] == 1

            def deck(name: str, extra: list[str]) -> str:
                hand = [league.game_name(c) for c in engine.pool(name)[:3]]
                return cod([*hand, "Mountain", "Mountain", "Mountain", *extra])

            for game_id, game in list(league.games.items()):
                first, second = (people[n] for n in game.players)
                if "ann_fee" in game.players:  # ann sits first: her one treasure pays for the Mountains
                    first, second = people["ann_fee"], people[game.opponent("ann_fee")]
                    await ann.client.join_game(room_id, game_id)
                    since = ann.mark()
                    await ann.client.select_deck(game_id, deck("ann_fee", ["Treasure"]))
                    await ann.wait_line(
                        lambda t: "ann_fee: deck not legal: 1 treasures, at most 0" in t, since=since
                    )
                    await ann.client.select_deck(game_id, deck("ann_fee", []))
                    await ann.wait_line(lambda t: "ann_fee: deck OK" in t, since=since)
                    await ann.client.ready_start(game_id, True)
                else:
                    await first.sit(room_id, game_id, deck=deck(first.name, []))
                await second.sit(room_id, game_id, deck=deck(second.name, []))
            await wait_until(lambda: engine.basics_game.get("ann_fee") == 0, what="basics declared")
            told = await ann.wait_private(lambda t: t.startswith("Other basic lands than last game"))
            assert told == "Other basic lands than last game: 1 treasure(s) paid (0 left)."
            assert engine.treasures["ann_fee"] == 0 and engine.basics["ann_fee"] == ("mountain",) * 3
            assert engine.treasures["ben_fee"] == 1  # no earlier mini-game: nothing to change from
        finally:
            for p in people.values():
                await p.close()
            await bot.close()

    run(scenario())


def test_league_start_options_from_chat() -> None:
    market = MarketRoom(object())  # type: ignore[arg-type]
    options = market._start_options("5 ucost=12 packs=random market-pool")
    assert (options.rounds, options.uncommon_cost, options.color_balanced, options.block_name) == (
        5,
        12,
        False,
        "market-pool",
    )
    with pytest.raises(BadArgument, match=r"unknown option 'ucots' \(did you mean ucost\?\)"):
        market._start_options("ucots=3")
    with pytest.raises(BadArgument, match=r"no option or block called 'pakcs' \(did you mean packs\?\)"):
        market._start_options("pakcs")


@pytest.mark.parametrize(
    ("winner", "draw", "worth"), [("al", False, "a win"), ("", True, "a draw"), ("", False, "a loss")]
)
def test_a_bye_says_what_it_is_worth(winner: str, draw: bool, worth: str) -> None:
    from cockatrice_ext.bot.league_views import render_effects
    from cockatrice_ext.formats import league as core

    engine = SimpleNamespace(config=SimpleNamespace(cards=()))
    out = render_effects([core.ResultRecorded(1, ("al",), winner, draw)], engine)  # type: ignore[arg-type]
    assert out.public == [f"Round 1: al has a bye ({worth})."]


def test_a_permanent_basic_is_announced_and_counted_in_the_deck_instructions() -> None:
    from cockatrice_ext.bot.league_views import render_effects
    from cockatrice_ext.cards.model import CardFacts
    from cockatrice_ext.formats import autobattler as ab
    from cockatrice_ext.formats.league import Start

    cube = tuple(CardFacts(name=f"Cube Card {i}") for i in range(120))
    config = ab.AutoBattlerConfig(players=("a", "b", "c", "d"), cards=cube, permanent_basic_cost=6)
    engine = ab.AutoBattlerEngine(config, seed=1)
    engine.apply(Start(None))
    engine.treasures["a"] = 7
    out = render_effects(engine.apply(ab.BuyPermanentBasic(player="a")), engine)
    assert out.public == ["a pays 6 treasures: 4 basic lands in every mini-game from now on."]
    effects: list[Any] = []
    for player in ("a", "b", "c", "d"):
        effects += engine.apply(ab.EndDraft(player=player))
    told = render_effects(effects, engine).private
    assert "plus 4 basic lands" in " ".join(told["a"]) and "plus 3 basic lands" in " ".join(told["b"])


def test_the_room_help_still_fits_one_chat_line_with_options() -> None:
    """Every format's room command mentions [OPTS]; the lobby's !help must not be cut."""
    from cockatrice_ext.bot import auction, combat, league_rooms, vortex
    from cockatrice_ext.bot.commands import CommandSet
    from cockatrice_ext.bot.referee import LobbyReferee, room_help
    from cockatrice_ext.bot.words import MAX_CHAT_LINE

    rooms = (
        auction.AuctionRoom,
        vortex.VortexRoom,
        combat.CombatRoom,
        league_rooms.MarketRoom,
        league_rooms.AutoBattlerRoom,
    )
    usages = [
        spec.usage for cls in (*rooms, LobbyReferee) for spec in CommandSet(cls.__new__(cls)).listing("room")
    ]
    line = room_help(usages)
    assert len(line) <= MAX_CHAT_LINE and line.count("[OPTS]") == len(rooms)
    assert line.endswith("!<format> rules: its options")  # every format's options, told where to look
