"""Market Draft league end to end: lobby, private draft, a refereed game, a market round, a restart."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceFactory, ServatriceServer

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_rooms import MarketRoom
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client import FloodLimits
from cockatrice_ext.client.errors import SpectatorsNotAllowed
from cockatrice_ext.formats import market as mk
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice

BOT = "referee_m"


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def start_bot(url: str, journal: Path, *, reconnect: bool = False, **league: Any) -> Bot:
    options = BotOptions(
        url=url,
        user=BOT,
        rooms=("Bot room",),
        journal_path=journal,
        formats=("market",),
        format_options={"market": LeagueOptions(**{"format": "market", "rounds": 2, "seed": 11, **league})},
        client_options={"reconnect": reconnect, "flood_limits": FloodLimits.unlimited()},
    )
    bot = Bot(options)
    await bot.start()
    return bot


def league_of(bot: Bot) -> LeagueReferee:
    room = next(r for r in bot.room_referees if isinstance(r, MarketRoom))
    assert room.leagues, "no league started"
    return room.leagues[-1]


def cod(names: list[str]) -> str:
    cards = "".join(f'<card number="1" name="{n}"/>' for n in names)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>league</deckname>'
        f'<comments/><zone name="main">{cards}</zone></cockatrice_deck>'
    )


async def tell(player: Player, text: str) -> None:
    await player.client.send_message(BOT, text)


async def private(player: Player, pattern: str, since: int = 0) -> str:
    def match(text: str) -> bool:
        return re.search(pattern, text) is not None

    async def waiter() -> str:
        while True:
            for _, text in player.private[since:]:
                if match(text):
                    return text
            await asyncio.sleep(0.02)

    try:
        return await asyncio.wait_for(waiter(), 15)
    except TimeoutError:
        raise AssertionError(f"{player.name} never got {pattern!r}; last: {player.private[-5:]}") from None


async def draft(engine: mk.MarketDraftEngine, players: dict[str, Player]) -> None:
    """Every player picks the first card of each pack they get until the draft is over, as a player does:
    once its listing has reached them (a number typed before is refused: it may point into another pack)."""

    async def drafter(name: str) -> None:
        player = players[name]
        read = 0  # their private lines read so far
        while engine.phase == "draft":

            def listed(read: int = read) -> bool:
                return any("Your pack (" in text for _, text in player.private[read:])

            await wait_until(
                lambda: engine.phase != "draft" or (bool(engine.pack(name)) and listed()), timeout=20
            )
            if engine.phase != "draft":
                return
            read = len(player.private)
            size = len(engine.pool(name))
            await tell(player, "!pick 1")
            await wait_until(lambda size=size: len(engine.pool(name)) > size, timeout=20, what=f"{name} pick")

    await asyncio.gather(*(drafter(name) for name in players))


def test_market_league_end_to_end(servatrice: ServatriceServer, tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, journal)
        alice = await Player.connect(servatrice.ws_url, "alice_m")
        bob = await Player.connect(servatrice.ws_url, "bob_m")
        carol = await Player.connect(servatrice.ws_url, "carol_m")
        players = {"alice_m": alice, "bob_m": bob}
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob, carol):
                await p.client.join_room(room_id)

            # Lobby in room chat; starting alone is refused.
            mark = alice.mark()
            await alice.client.room_say(room_id, "!market join")
            await alice.wait_line(lambda t: "alice_m joins the Market Draft league" in t, since=mark)
            await alice.client.room_say(room_id, "!market start")
            await alice.wait_line(lambda t: "needs at least 2 players" in t, since=mark)
            await bob.client.room_say(room_id, "!market join")
            await alice.wait_line(lambda t: "bob_m joins" in t, since=mark)
            await bob.client.room_say(room_id, "!market start")
            await alice.wait_line(lambda t: "Market Draft league #1 starts" in t, since=mark)
            league = league_of(bot)
            engine: mk.MarketDraftEngine = league.engine
            assert engine.phase == "draft"
            await private(alice, r"Your pack \(15\): 1\. ")

            # Bad input: non-members, out-of-range numbers, the wrong phase. Nothing changes.
            before = engine.snapshot()
            await tell(carol, "!pick 1")
            await private(carol, r"Join a league in the room first")
            await tell(alice, "!pick 99")
            await private(alice, r"there is no card 99 in your pack \(1-15\)")
            await tell(alice, "!pick Not A Real Card")
            await private(alice, r"no such card \(Not A Real Card\)")
            count = len(alice.private)
            await tell(alice, "!buy 1 with 2")
            await private(alice, r"not now \(the league is in its draft phase\)", count)
            count = len(alice.private)
            await tell(alice, "!pass")
            await private(alice, r"not now \(the league is in its draft phase\)", count)
            assert engine.snapshot() == before

            # The draft: 45 picks each, by position and once by name.
            first_pack = engine.pack("bob_m")
            by_name = engine.config.cards[first_pack[2]].name
            await tell(bob, f"!pick {by_name}")
            await wait_until(lambda: by_name in [engine.config.cards[c].name for c in engine.pool("bob_m")])

            await draft(engine, players)
            assert engine.phase == "play"
            assert all(len(engine.pool(n)) == 45 for n in players)
            await alice.wait_line(lambda t: "Round 1: " in t and "vs" in t, since=mark)

            await private(alice, r"Your pool \(45 cards\), to paste into the deck editor")
            count = len(alice.private)
            await tell(alice, "!help")
            await private(alice, r"Market Draft league commands: .*!buy WHAT.*!pool \[FORM\]", count)

            # The pool as a deck list to paste, and as .cod text.
            count = len(alice.private)
            await tell(alice, "!pool")
            listing = await private(alice, r"^\d+ \S", count)  # "N Card Name" lines
            first_name = league.game_name(engine.pool("alice_m")[0])
            assert f"1 {first_name}" in listing.splitlines() or first_name in listing
            await tell(alice, "!pool cod")
            await private(alice, r"<cockatrice_deck", count)

            # The bot's game for the pairing.
            note = await private(alice, r"your game vs bob_m is #\d+")
            game_id = int(re.search(r"#(\d+)", note).group(1))  # type: ignore[union-attr]
            await private(bob, rf"your game vs alice_m is #{game_id}")
            game = league.games[game_id]

            def deck_of(name: str) -> list[str]:
                return [league.game_name(c) for c in engine.pool(name)[:23]] + ["Island"] * 17

            # Only the pairing may sit: an outsider is told and removed; no spectators (both pools are shown).
            carol_mark = carol.mark()
            await carol.client.join_game(room_id, game_id)
            await wait_until(
                lambda: game_id not in carol.client.games or carol.client.games[game_id].kicked,
                what="outsider removed",
            )
            both = r"(alice_m and bob_m|bob_m and alice_m)"  # in seat order, drawn at random
            await carol.wait_line(
                lambda t: re.search(rf"carol_m: this seat is for {both}", t) is not None, since=carol_mark
            )
            await private(carol, rf"Game #{game_id} is for {both} \(it takes no spectators\)")
            carol.client.games.pop(game_id, None)
            with pytest.raises(SpectatorsNotAllowed):
                await carol.client.join_game(room_id, game_id, spectator=True)

            # An illegal deck is refused with reasons; the game cannot start until it is fixed.
            await alice.client.join_game(room_id, game_id)
            game_mark = alice.mark()
            await alice.client.select_deck(game_id, cod(["Island"] * 10 + ["Black Lotus"]))
            said = await alice.wait_line(
                lambda t: "alice_m: deck not legal: 11 cards, at least 40 needed; 1 card(s) not allowed" in t,
                since=game_mark,
            )
            assert "Black Lotus" not in said  # the deck is hidden from the others in the game
            told = await alice.wait_private(lambda t: t.startswith(f"Game #{game_id}, your deck not legal:"))
            assert "Black Lotus x1 but you own 0" in told
            await alice.client.select_deck(game_id, cod(deck_of("alice_m")))
            await alice.wait_line(lambda t: "alice_m: deck OK" in t, since=game_mark)
            await alice.client.ready_start(game_id, True)
            await bob.sit(room_id, game_id, deck=cod(deck_of("bob_m")))
            await alice.wait_line(lambda t: "Both decks are legal" in t, since=game_mark)
            await wait_until(lambda: alice.client.games[game_id].started, what="game started")
            assert not game.finished

            # bob concedes in Cockatrice: the result is learned from the game.
            await bob.client.game_command(game_id, commands.concede())
            await alice.wait_line(lambda t: "Round 1: alice_m beats bob_m" in t, since=mark)
            match = engine.league.matches[0]
            assert match.decided and match.winner == "alice_m"
            await wait_until(lambda: game_id not in league.games, what="game closed")

            # The market: boosters were dealt, the loser buys first.
            await alice.wait_line(lambda t: "Market open: 1. " in t, since=mark)
            assert engine.phase == "market" and engine.whose_turn() == "bob_m"
            assert all(len(engine.pool(n)) == 53 for n in players)
            await private(bob, r"Your turn to buy")
            before = engine.snapshot()
            await tell(alice, "!buy 1 with 1 2 3")
            await private(alice, r"it is bob_m's turn to buy, not yours")
            uncommon = next(
                i
                for i, c in enumerate(engine.market)
                if mk.rarity_class(engine.config.cards[c]) == "uncommon"
            )
            await tell(bob, f"!buy {uncommon + 1} with 1")
            await private(bob, r"those cards are worth \d+; .* costs 10")
            await tell(bob, f"!buy {uncommon + 1} with 1 1")
            await private(bob, r"card 1 is named twice")
            await tell(bob, "!swap 1 2")
            await private(bob, r"unknown command !swap; .*\(!swap is for AutoBattler leagues; here: !buy\)")
            assert engine.snapshot() == before
            wanted = engine.market[uncommon]
            paid = engine.pool("bob_m")[:10]
            buy = f"!buy {uncommon + 1} with " + ", ".join(str(n) for n in range(1, 11))
            overpays = engine.unneeded(mk.Buy(player="bob_m", card=wanted, pay=tuple(paid)))
            await tell(bob, buy)
            if overpays:  # warned once before an overpaying trade-in; the same !buy again goes through
                await private(bob, r"That overpays for .*: the cost is met even without any one of ")
                await tell(bob, buy)
            await alice.wait_line(lambda t: f"bob_m buys {engine.config.cards[wanted].name}" in t, since=mark)
            pool = engine.pool("bob_m")
            assert wanted in pool and len(pool) == 53 - 10 + 1
            assert all(c in engine.discard for c in paid)
            await tell(alice, "!pass")
            await alice.wait_line(lambda t: "alice_m passes" in t, since=mark)
            await tell(bob, "!pass")
            await alice.wait_line(lambda t: "Market closed" in t, since=mark)
            await alice.wait_line(lambda t: "Round 2: " in t, since=mark)
            assert engine.phase == "play" and engine.league.round == 2
            await private(alice, r"Round 2: your game vs bob_m is #\d+")
            assert len(league.games) == 1
            snapshot = engine.snapshot()
        finally:
            for p in (alice, bob, carol):
                await p.close()
            await bot.close()

        # A restart loses nothing: the league comes back from the journal with its round-2 game.
        bot = await start_bot(servatrice.ws_url, journal)
        try:
            league = league_of(bot)
            assert league.engine.snapshot() == snapshot
            assert len(league.games) == 1
        finally:
            await bot.close()

    run(scenario(), timeout=120)


async def league_in_round_one(bot: Bot, players: dict[str, Player]) -> tuple[int, LeagueReferee]:
    """alice_mr and bob_mr join a league in the bot's room and draft; round 1 pairs them in one game."""
    alice, bob = players.values()
    room_id = await alice.client.room_id_by_name("Bot room")
    for player in players.values():
        await player.client.join_room(room_id)
    mark = alice.mark()
    await alice.client.room_say(room_id, "!market join")
    await bob.client.room_say(room_id, "!market join")
    await alice.wait_line(lambda t: "bob_mr joins" in t, since=mark)
    await bob.client.room_say(room_id, "!market start")
    await alice.wait_line(lambda t: "Market Draft league #1 starts" in t, since=mark)
    league = league_of(bot)
    await draft(league.engine, players)
    await private(alice, r"your game vs bob_mr is #\d+")
    assert len(league.games) == 1
    return room_id, league


def test_a_server_restart_opens_the_rounds_games_again(
    servatrice_factory: ServatriceFactory, tmp_path: Path
) -> None:
    """Servatrice restarts during round 1 (every game is gone; without a database it numbers games from 1
    again). The bot reconnects and opens each undecided pairing's game again, telling both players its
    number; the room is not offered a ``!resume`` (a league game is the league's to reopen)."""
    servatrice = servatrice_factory.start()  # its own: restarted below (the session's server is shared)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", reconnect=True)
        players = {name: await Player.connect(servatrice.ws_url, name) for name in ("alice_mr", "bob_mr")}
        try:
            room_id, league = await league_in_round_one(bot, players)
            servatrice.restart()
            gone = list(players.values())
            players = {name: await Player.connect(servatrice.ws_url, name) for name in players}
            alice, bob = players.values()
            for player in gone:
                await player.close()
            for player in players.values():
                await player.client.join_room(room_id)
            mark = alice.mark()
            await wait_until(lambda: bot.client.connected and room_id in bot.client.rooms, timeout=30)
            note = await private(
                alice, r"^Game #\d+ was lost in a restart\. Round 1: your game vs bob_mr is #\d+"
            )
            game_id = int(re.search(r"is #(\d+)", note).group(1))  # type: ignore[union-attr]
            await private(bob, rf"Round 1: your game vs alice_mr is #{game_id}")
            assert list(league.games) == [game_id] and game_id in bot.client.games
            with pytest.raises(SpectatorsNotAllowed):  # it is there (a game gone would be "not found")
                await alice.client.join_game(room_id, game_id, spectator=True)
            assert not [t for _, t in alice.heard[mark:] if "!resume" in t]
        finally:
            for player in players.values():
                await player.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_a_player_away_when_the_game_is_reopened_hears_of_it_on_coming_back(
    servatrice_factory: ServatriceFactory, tmp_path: Path
) -> None:
    """After a server restart bob_mr stays away while the bot reopens the round's game: the message with
    its number cannot reach him then; when he logs in again (no room join, no word from him) the league's
    recap tells him the game's number."""
    servatrice = servatrice_factory.start()  # its own: restarted below (the session's server is shared)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", reconnect=True)
        players = {name: await Player.connect(servatrice.ws_url, name) for name in ("alice_mr", "bob_mr")}
        try:
            _, league = await league_in_round_one(bot, players)
            servatrice.restart()
            for player in players.values():
                await player.close()
            alice = players["alice_mr"] = await Player.connect(servatrice.ws_url, "alice_mr")
            note = await private(
                alice, r"^Game #\d+ was lost in a restart\. Round 1: your game vs bob_mr is #\d+"
            )
            game_id = int(re.search(r"is #(\d+)", note).group(1))  # type: ignore[union-attr]
            await wait_until(lambda: bot.chat.holds("bob_mr"), timeout=10, what="the message kept for bob_mr")
            bob = players["bob_mr"] = await Player.connect(servatrice.ws_url, "bob_mr")
            # the league's lines kept for him give way to one recap of what is true when he is back
            back = await private(bob, rf"your round 1 game vs alice_mr is #{game_id} in this room: join it")
            assert back.startswith("Market Draft league #1 now: round 1 is being played; ")
            assert list(league.games) == [game_id]
        finally:
            for player in players.values():
                await player.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_after_the_server_and_the_referee_restart_each_pairing_gets_its_own_game(
    servatrice_factory: ServatriceFactory, tmp_path: Path
) -> None:
    """The machine rebooted: Servatrice (numbering games from 1 again) and the referee both restart during
    round 1 of a four-player league. The referee opens a new game for each pairing, each told to its own two
    players; a new game that takes the number of another pairing's lost game is not mistaken for it."""
    servatrice = servatrice_factory.start()  # its own: restarted below (the session's server is shared)
    journal = tmp_path / "journal.sqlite3"
    names = ("dan_mr", "cat_mr", "bea_mr", "al_mr")
    league_options = {"rounds": 1}  # the bundled pool holds eight players

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, journal, **league_options)
        players = {name: await Player.connect(servatrice.ws_url, name) for name in names}
        try:
            room_id = await players[names[0]].client.room_id_by_name("Bot room")
            for player in players.values():
                await player.client.join_room(room_id)
            mark = players[names[0]].mark()
            for player in players.values():
                await player.client.room_say(room_id, "!market join")
            await players[names[0]].client.room_say(room_id, "!market start")
            await players[names[0]].wait_line(lambda t: "Market Draft league #1 starts" in t, since=mark)
            await draft(league_of(bot).engine, players)
            before = {
                name: await private(player, r"your game vs \w+ is #\d+") for name, player in players.items()
            }
        finally:
            for player in players.values():
                await player.close()
            await bot.close()

        servatrice.restart()
        players = {name: await Player.connect(servatrice.ws_url, name) for name in names}
        bot = await start_bot(servatrice.ws_url, journal, **league_options)
        try:
            league = league_of(bot)
            assert sorted(len(g.players) for g in league.games.values()) == [2, 2], league.games
            for game_id, game in league.games.items():
                mirror = bot.client.games[game_id]
                assert all(name in mirror.description for name in game.players), (game_id, game.players)
                for name in game.players:
                    opponent = next(n for n in game.players if n != name)
                    assert f"vs {opponent} is" in before[name]
                    lost = re.search(r"is #(\d+)", before[name]).group(1)  # type: ignore[union-attr]
                    told = rf"^Game #{lost} was lost in a restart\. Round 1: your game vs {opponent}"
                    told += rf" is #{game_id}\b"
                    await private(players[name], told)
        finally:
            for player in players.values():
                await player.close()
            await bot.close()

    run(scenario(), timeout=180)


def test_a_drafter_whose_connection_dies_does_not_stop_the_draft(
    servatrice: ServatriceServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in the field: a member who dropped during the ring draft held every pack that reached them, and
    the league stood still for good. Out of the room LOBBY_GRACE seconds (two minutes; shortened here), the
    referee picks for them at random, the room told once, and the others draft on to the first round; gone
    FORFEIT_GRACE seconds (five minutes), their opponent wins their game by forfeit and the league goes on."""
    from cockatrice_ext.bot import league_away

    monkeypatch.setattr(league_away, "LOBBY_GRACE", 1.0)
    monkeypatch.setattr(league_away, "STAND_IN_TICK", 0.2)
    monkeypatch.setattr(league_away, "FORFEIT_GRACE", 2.0)
    journal = tmp_path / "journal.sqlite3"

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, journal, rounds=1)
        alice = await Player.connect(servatrice.ws_url, "alice_d")
        bob = await Player.connect(servatrice.ws_url, "bob_d")
        carol = await Player.connect(servatrice.ws_url, "carol_d")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob, carol):
                await p.client.join_room(room_id)
            mark = alice.mark()
            for p in (alice, bob, carol):
                await p.client.room_say(room_id, "!market join")
            await alice.wait_line(lambda t: "carol_d joins" in t, since=mark)
            await alice.client.room_say(room_id, "!market start")
            await alice.wait_line(lambda t: "Market Draft league #1 starts" in t, since=mark)
            engine: mk.MarketDraftEngine = league_of(bot).engine
            await bob.close()  # bob's connection dies: the server takes him out of the room
            await draft(engine, {"alice_d": alice, "carol_d": carol})
            await wait_until(lambda: engine.phase != "draft", timeout=30, what="the draft's end")
            assert len(engine.pool("bob_d")) == 45  # every pick of his, the referee's
            line = await alice.wait_line(lambda t: "bob_d is away: " in t, since=mark)
            assert "the referee makes their moves" in line
            assert sum("bob_d is away: " in t for _, t in alice.heard[mark:]) == 1
            # Round 1 pairs bob with one of them (seats are drawn from the seed; 11 gives bob a game):
            # bob, gone longer than the forfeit's grace already, gets no game; his opponent wins by forfeit.
            match = engine.league.match_of("bob_d", 1)
            assert match is not None and len(match.players) == 2
            rival = match.opponent("bob_d")
            line = await alice.wait_line(lambda t: "by forfeit" in t, since=mark, timeout=20)
            assert "bob_d has been gone" in line and f"{rival} wins their round 1 game by forfeit" in line
            await wait_until(engine.is_over, timeout=20, what="the league's end")
            rival_player = {"alice_d": alice, "carol_d": carol}[rival]
            assert not any("your game vs" in t for _, t in rival_player.private)
        finally:
            for p in (alice, carol):
                await p.close()
            await bot.close()

    run(scenario(), timeout=150)


async def paired_and_playing(bot: Bot, jon: Player, kim: Player) -> tuple[int, int, LeagueReferee]:
    """jon and kim in the room, a two-player league drafted by the referee, both seated in their round 1
    game and the game started: (room id, game id, league)."""
    from cockatrice_ext.formats import league as core

    room_id = await jon.client.room_id_by_name("Bot room")
    for p in (jon, kim):
        await p.client.join_room(room_id)
    mark = jon.mark()
    for p in (jon, kim):
        await p.client.room_say(room_id, "!market join")
    await jon.client.room_say(room_id, "!market start")
    await jon.wait_line(lambda t: "Market Draft league #1 starts" in t, since=mark)
    league = league_of(bot)
    engine: mk.MarketDraftEngine = league.engine
    while engine.phase == "draft":  # the draft is not under test here: the referee's own picks
        drafter = next(iter(engine.waiting_for()))
        await league.perform(league.table.apply(core.Pick(player=drafter, card=engine.pack(drafter)[0])))
    await wait_until(lambda: bool(league.games), timeout=20, what="the game opened")
    game_id = next(iter(league.games))
    await seat_both(league, room_id, game_id, jon, kim)
    return room_id, game_id, league


async def seat_both(league: LeagueReferee, room_id: int, game_id: int, *players: Player) -> None:
    """Each player sits in ``game_id`` with a legal deck from their pool; the game starts."""
    engine: mk.MarketDraftEngine = league.engine
    for player in players:
        names = [league.game_name(c) for c in engine.pool(player.name)[:23]] + ["Island"] * 17
        await player.sit(room_id, game_id, deck=cod(names))
    await wait_until(lambda: players[0].client.games[game_id].started, timeout=20, what="game started")


def test_a_player_whose_connection_dies_mid_game_gets_a_new_game_when_back(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Seen in the field: kim's connection died mid-game and the game said "kim left: jon wins": a dropped
    connection lost the league game at once (Servatrice takes an unregistered player out of a started game
    and never seats them in it again). Now the game is cut short, the players are told why, and kim, back in
    the room within the grace, gets a new game with jon; the match is still undecided."""
    journal = tmp_path / "journal.sqlite3"

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, journal, rounds=1)
        jon = await Player.connect(servatrice.ws_url, "jon_l")
        kim = await Player.connect(servatrice.ws_url, "kim_l")
        try:
            room_id, game_id, league = await paired_and_playing(bot, jon, kim)
            mark = jon.mark()
            await kim.close()  # kim's connection dies mid-game
            line = await jon.wait_line(lambda t: "kim_l's connection dropped" in t, since=mark, timeout=20)
            assert "kim_l gets a new game with jon_l" in line and "jon_l wins by forfeit" in line
            assert not any("kim_l left: jon_l wins" in t for _, t in jon.heard[mark:])
            match = league.engine.league.match_of("jon_l", 1)
            assert match is not None and not match.decided
            mark = jon.mark()
            await jon.client.room_say(room_id, "!games")  # the room hears of the game that waits for kim
            waiting = await jon.wait_line(lambda t: "Waiting: " in t or "No refereed games" in t, since=mark)
            pairing = r"(jon_l vs kim_l|kim_l vs jon_l)"
            assert re.search(rf"Waiting: #{game_id} Market Draft round 1 {pairing} was cut short", waiting)
            assert "a new game when kim_l is back in the room (forfeit in 5 min)" in waiting
            kim = await Player.connect(servatrice.ws_url, "kim_l")
            await kim.client.join_room(room_id)
            told = await kim.wait_private(  # the league's recap, instead of the lines kept while away
                lambda t: f"game vs jon_l (#{game_id}) was cut short when your connection dropped" in t,
                timeout=20,
            )
            assert told.startswith("Market Draft league #1 now: round 1 is being played; ")
            new = await kim.wait_private(
                lambda t: f"Game #{game_id} was cut short when your connection dropped" in t, timeout=20
            )
            again = await jon.wait_private(
                lambda t: f"Game #{game_id} was cut short when kim_l's connection dropped" in t, timeout=20
            )
            new_id = int(re.search(r"your game vs jon_l is #(\d+)", new).group(1))  # type: ignore[union-attr]
            assert f"your game vs kim_l is #{new_id}" in again and new_id != game_id
            assert "deck lists are open: the referee checks them, your opponent sees yours" in again
            assert list(league.games) == [new_id]
            await seat_both(league, room_id, new_id, jon, kim)  # the pairing plays its game after all
            assert not match.decided
        finally:
            for p in (jon, kim):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_a_player_who_leaves_a_started_game_loses_it_and_is_told(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Leaving a started Market game on purpose is a concession: the other player wins, and the leaver is
    told privately too."""
    journal = tmp_path / "journal.sqlite3"

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, journal, rounds=1)
        jon = await Player.connect(servatrice.ws_url, "jon_q")
        kim = await Player.connect(servatrice.ws_url, "kim_q")
        try:
            _, game_id, league = await paired_and_playing(bot, jon, kim)
            mark = jon.mark()
            await kim.client.leave_game(game_id)
            await jon.wait_line(lambda t: "kim_q left: jon_q wins" in t, since=mark, timeout=20)
            await kim.wait_private(lambda t: f"You left game #{game_id}: jon_q wins it." in t, timeout=20)
            match = league.engine.league.match_of("jon_q", 1)
            assert match is not None and match.decided and match.winner == "jon_q"
        finally:
            for p in (jon, kim):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)
