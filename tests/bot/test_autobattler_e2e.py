"""AutoBattler league end to end: four players, two draft phases, two rounds of refereed mini-games."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceServer

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client import FloodLimits
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice

BOT = "referee_ab"
NAMES = ("ann_ab", "ben_ab", "cat_ab", "dan_ab")


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


def cod(names: list[str]) -> str:
    cards = "".join(f'<card number="1" name="{n}"/>' for n in names)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>mini</deckname>'
        f'<comments/><zone name="main">{cards}</zone></cockatrice_deck>'
    )


async def start_bot(url: str, journal: Path, user: str = BOT, seed: int = 5) -> Bot:
    """A referee for AutoBattler leagues in "Bot room", relaxed flood limits."""
    options = BotOptions(
        url=url,
        user=user,
        rooms=("Bot room",),
        journal_path=journal,
        formats=("autobattler",),
        format_options={"autobattler": LeagueOptions(format="autobattler", seed=seed)},
        client_options={"reconnect": False, "flood_limits": FloodLimits.unlimited()},
    )
    bot = Bot(options)
    await bot.start()
    return bot


async def private(player: Player, pattern: str, since: int = 0) -> str:
    async def waiter() -> str:
        while True:
            for _, text in player.private[since:]:
                if re.search(pattern, text):
                    return text
            await asyncio.sleep(0.02)

    try:
        return await asyncio.wait_for(waiter(), 15)
    except TimeoutError:
        raise AssertionError(f"{player.name} never got {pattern!r}; last: {player.private[-5:]}") from None


def test_autobattler_league_end_to_end(servatrice: ServatriceServer, tmp_path: Path) -> None:
    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3")
        people = {name: await Player.connect(servatrice.ws_url, name) for name in NAMES}
        eve = await Player.connect(servatrice.ws_url, "eve_ab")
        ann = people["ann_ab"]
        try:
            room_id = await ann.client.room_id_by_name("Bot room")
            for p in (*people.values(), eve):
                await p.client.join_room(room_id)
            mark = ann.mark()
            for name in NAMES[:3]:
                await people[name].client.room_say(room_id, "!autobattler join")
            await ann.wait_line(lambda t: "cat_ab joins" in t, since=mark)
            await ann.client.room_say(room_id, "!autobattler start")
            await ann.wait_line(lambda t: "needs 4 or 8 players; 3 joined" in t, since=mark)
            await people["dan_ab"].client.room_say(room_id, "!autobattler join")
            await ann.wait_line(lambda t: "dan_ab joins" in t, since=mark)
            await people["dan_ab"].client.room_say(room_id, "!autobattler start")
            await ann.wait_line(lambda t: "AutoBattler league #1 starts" in t, since=mark)
            room = next(r for r in bot.room_referees if isinstance(r, AutoBattlerRoom))
            league: LeagueReferee = room.leagues[0]
            engine: ab.AutoBattlerEngine = league.engine
            assert engine.phase == "draft"
            assert all(len(engine.pool(n)) == 7 and engine.treasures[n] == 1 for n in NAMES)
            await private(ann, r"Your shop: 1\. .*Your pool: 1\. ")

            async def tell(name: str, text: str) -> None:
                await people[name].client.send_message(BOT, text)

            # Refusals: outsiders, bad positions, commands of the other format, rolling without treasure.
            before = engine.snapshot()
            await eve.client.send_message(BOT, "!shop")
            await private(eve, r"Join a league in the room first")
            await tell("ann_ab", "!swap 9 1")
            await private(ann, r"there is no card 9 in your shop \(1-5\)")
            await tell("ann_ab", "!swap 1 8")
            await private(ann, r"there is no card 8 in your pool \(1-7\)")
            await tell("ann_ab", "!swap Not A Card for 1")
            await private(ann, r"Not A Card is not in your shop")
            await tell("ann_ab", "!buy 1 with 2")
            await private(ann, r"unknown command !buy; .*\(!buy is for Market Draft leagues; here: !swap\)")
            await tell("ann_ab", "!result win")
            await private(ann, r"you have no game this round")
            assert engine.snapshot() == before

            # Drafting: a swap, a roll, a second roll without treasure.
            shop_card, pool_card = engine.shop("ann_ab")[0], engine.pool("ann_ab")[0]
            await tell("ann_ab", "!swap 1 1")
            await private(ann, r"You took .* and gave ")
            assert engine.pool("ann_ab")[0] == shop_card and pool_card in engine.shop("ann_ab")
            old_shop = engine.shop("ann_ab")
            count = len(ann.private)
            await tell("ann_ab", "!roll")
            await private(ann, r"Your shop: ", count)
            assert engine.treasures["ann_ab"] == 0 and engine.shop("ann_ab") != old_shop
            await tell("ann_ab", "!roll")
            await private(ann, r"you have no treasure to roll with")

            async def finish_draft() -> None:
                for name in NAMES:
                    await tell(name, "!done")
                await wait_until(lambda: engine.phase == "play", what="draft over")

            await finish_draft()
            await tell("ann_ab", "!swap 1 1")
            await private(ann, r"not now \(the league is in its play phase\)")

            async def play_round(round_no: int, concession_game: bool) -> None:
                """Sit every pairing in its game; the first game ends by concession + !result."""
                pairs = [m.players for m in engine.league.current_matches()]
                assert len(pairs) == 2
                await wait_until(lambda: len(league.games) == 2, what="two games")
                games = {tuple(g.players): gid for gid, g in league.games.items()}
                for pair in pairs:
                    for name in pair:
                        await private(people[name], rf"Round {round_no}: your game vs .* is #{games[pair]}")

                def deck(name: str, hand: int) -> list[str]:
                    return [league.game_name(c) for c in engine.pool(name)[:hand]] + ["Mountain"] * 3

                async def sit(pair: tuple[str, ...], illegal_first: bool) -> None:
                    game_id = games[pair]
                    first, second = (people[n] for n in pair)
                    await first.client.join_game(room_id, game_id)
                    since = first.mark()
                    if illegal_first:
                        await first.client.select_deck(game_id, cod(deck(pair[0], 4)))
                        await first.wait_line(
                            lambda t: f"{pair[0]}: deck not legal: 4 hand cards, exactly 3" in t, since=since
                        )
                    await first.client.select_deck(game_id, cod(deck(pair[0], 3)))
                    await first.wait_line(lambda t: f"{pair[0]}: deck OK" in t, since=since)
                    await first.client.ready_start(game_id, True)
                    await second.sit(room_id, game_id, deck=cod(deck(pair[1], 3)))
                    await wait_until(
                        lambda: first.client.games[game_id].started, what=f"game {game_id} start"
                    )

                await asyncio.gather(*(sit(pair, i == 0) for i, pair in enumerate(pairs)))
                poison = dict(engine.poison)

                # Game 1: the winner made an extra Treasure in play; the loser concedes (refused), then
                # both report by private message. Game 2: the loser's life reaches 0.
                (w1, l1), (w2, l2) = pairs[0], pairs[1]
                g1, g2 = games[pairs[0]], games[pairs[1]]
                since = people[w1].mark()
                await people[w1].client.game_commands(
                    g1, [commands.create_token("Treasure"), commands.create_token("Treasure")]
                )
                await wait_until(
                    lambda: (
                        sum(
                            c.name == "Treasure"
                            for c in bot.client.games[g1].player_by_name(w1).zone("table").cards  # type: ignore[union-attr]
                        )
                        == 2
                    ),
                    what="treasures seen by the bot",
                )
                if concession_game:
                    await people[l1].client.game_command(g1, commands.concede())
                    await people[w1].wait_line(lambda t: "concessions do not decide" in t, since=since)
                    assert not engine.league.match_of(w1).decided  # type: ignore[union-attr]
                    await tell(w1, "!result win")
                    await private(people[l1], rf"{w1} reports {w1} won\. Confirm with !result loss")
                    await tell(l1, "!result loss")
                else:
                    await people[l1].client.game_command(g1, commands.set_counter(0, 0))
                await wait_until(lambda: engine.league.match_of(w1).decided, what="game 1 result")  # type: ignore[union-attr]
                assert engine.league.match_of(w1).winner == w1  # type: ignore[union-attr]
                assert engine.treasures[w1] == 2
                await people[l2].client.game_command(g2, commands.set_counter(0, 0))
                await ann.wait_line(lambda t: f"Round {round_no}: {w2} beats {l2}" in t, since=mark)
                await wait_until(lambda: engine.games_played == round_no, what="mini-game finished")
                assert engine.poison[l1] == poison[l1] + 1 and engine.poison[l2] == poison[l2] + 1
                assert engine.poison[w1] == poison[w1] and engine.poison[w2] == poison[w2]
                await wait_until(lambda: not league.games, what="games closed")

            count = len(ann.private)
            await play_round(1, concession_game=True)
            # The second draft phase: a treasure and a random card each, new shops.
            assert engine.phase == "draft"
            # One message: the random card, then the shop with the numbered pool and the treasures.
            await private(ann, r"A random card: .*Your shop: 1\. .*Your pool: 1\. .*Treasures \d+\.", count)
            assert all(len(engine.pool(n)) == 8 for n in NAMES)
            await finish_draft()
            await play_round(2, concession_game=False)
            assert engine.phase == "draft" and engine.games_played == 2
            await tell("ann_ab", "!standings")
            await private(ann, r"Energy 3, games 2: ")
            assert sum(engine.poison.values()) == 4
        finally:
            for p in (*people.values(), eve):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_autobattler_items_and_augments_end_to_end(servatrice: ServatriceServer, tmp_path: Path) -> None:
    """`!autobattler start augments items`: the D6 in the room, an Equipment drafted as an item by private
    message and accepted in the mini-game deck, an augment pack dealt past 5 poison and one augment kept."""
    names = ("ann_ai", "ben_ai", "cat_ai", "dan_ai")
    bot_name = "referee_ai"

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", bot_name, seed=30)
        people = {name: await Player.connect(servatrice.ws_url, name) for name in names}
        ann = people["ann_ai"]

        async def tell(name: str, text: str) -> None:
            await people[name].client.send_message(bot_name, text)

        try:
            room_id = await ann.client.room_id_by_name("Bot room")
            for p in people.values():
                await p.client.join_room(room_id)
                await p.client.room_say(room_id, "!autobattler join")
            await ann.wait_line(lambda t: "dan_ai joins" in t)
            await ann.client.room_say(room_id, "!autobattler start augments items")
            await ann.wait_line(lambda t: "Augments: the D6 rolled " in t)
            league = next(r for r in bot.room_referees if isinstance(r, AutoBattlerRoom)).leagues[0]
            engine: ab.AutoBattlerEngine = league.engine
            await tell("ann_ai", "!rules")
            assert "chosen: items=on augments=on" in await private(ann, r"^AutoBattler league")

            cards = engine.config.cards
            shop = engine.shop("ann_ai")
            position, item = next(
                (n, c)
                for n, c in enumerate(shop, start=1)
                if {"Aura", "Equipment"} & set(cards[c].subtypes) and cards[c].mana_value <= 1
            )
            await tell("ann_ai", f"!item {position} 1")
            await private(ann, rf"{re.escape(cards[item].name)} is now your item")
            assert engine.items["ann_ai"] == [item]
            for name in names:
                engine.poison[name] = 5  # the mini-game's losers go past 5 poison
                await tell(name, "!done")
            await wait_until(lambda: len(league.games) == 2, what="two games")

            for game_id, game in list(league.games.items()):
                for name in game.players:
                    hand = [league.game_name(c) for c in engine.pool(name)[:3]]
                    command = [cards[item].name] if name == "ann_ai" else []
                    await people[name].sit(room_id, game_id, deck=cod([*hand, *command, *["Plains"] * 3]))
                await wait_until(lambda g=game: g.ready_sent, what=f"game {game_id} legal")
                loser = people[game.players[1]]
                await wait_until(lambda g=game_id, p=loser: p.client.games[g].started, what="started")
                await loser.client.game_command(game_id, commands.set_counter(0, 0))
            await wait_until(lambda: engine.games_played == 1, what="mini-game over")

            losers = [n for n in names if engine.poison[n] == 6]
            assert len(losers) == 2 and set(engine.augment_packs) == set(losers)
            loser = people[losers[0]]
            pack = engine.augment_packs[losers[0]]
            await private(loser, r"Your augment pack: 1\. .*; 2\. .*; 3\. ")
            await tell(losers[0], "!done")
            await private(loser, r"keep one augment of your pack first: !augment N")
            await tell(losers[0], "!augment 3")
            kept = engine.config.augment_cards[pack[2]].name
            await private(loser, rf"You keep {re.escape(kept)}: put it in every mini-game deck")
            assert engine.command_zone(losers[0]) == [kept]
        finally:
            for p in people.values():
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_a_player_who_leaves_an_autobattler_game_gets_a_new_one(
    servatrice: ServatriceServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in the field: a player who left a started AutoBattler game was told they "may play on" if back
    within five minutes, but Servatrice seats nobody in a started game again, and the referee, seated as a
    third player, kept it started. Concessions decide nothing here, so the game is cut short: back in the
    room, the pairing gets a new game; the match stays undecided."""
    from cockatrice_ext.bot import league_away

    monkeypatch.setattr(league_away, "STAND_IN_TICK", 0.2)
    names = ("ann_lv", "ben_lv", "cat_lv", "dan_lv")

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", "referee_lv")
        people = {name: await Player.connect(servatrice.ws_url, name) for name in names}
        ann = people["ann_lv"]
        try:
            room_id = await ann.client.room_id_by_name("Bot room")
            for p in people.values():
                await p.client.join_room(room_id)
            mark = ann.mark()
            for p in people.values():
                await p.client.room_say(room_id, "!autobattler join")
            await ann.wait_line(lambda t: "dan_lv joins" in t, since=mark)
            await ann.client.room_say(room_id, "!autobattler start")
            await ann.wait_line(lambda t: "AutoBattler league #1 starts" in t, since=mark)
            room = next(r for r in bot.room_referees if isinstance(r, AutoBattlerRoom))
            league: LeagueReferee = room.leagues[0]
            engine: ab.AutoBattlerEngine = league.engine
            for name in names:
                await people[name].client.send_message("referee_lv", "!done")
            await wait_until(lambda: engine.phase == "play" and len(league.games) == 2, what="two games")
            first, second = engine.league.current_matches()[0].players
            game_id = next(gid for gid, g in league.games.items() if first in g.players)

            def deck(name: str) -> str:
                return cod([league.game_name(c) for c in engine.pool(name)[:3]] + ["Mountain"] * 3)

            for name in (first, second):
                await people[name].sit(room_id, game_id, deck=deck(name))
            await wait_until(lambda: people[first].client.games[game_id].started, what="game started")
            since = people[first].mark()
            await people[second].client.leave_game(game_id)
            line = await people[first].wait_line(lambda t: f"{second} left: this game" in t, since=since)
            assert f"{second} gets a new game with {first}" in line
            told = await private(people[second], rf"Game #{game_id} vs {first} stopped when you left")
            assert "opens a new game for you both" in told
            new = await private(people[first], rf"Game #{game_id} was cut short when {second} left")
            new_id = int(re.search(rf"your game vs {second} is #(\d+)", new).group(1))  # type: ignore[union-attr]
            await private(
                people[second],
                rf"Game #{game_id} was cut short when you left\. .*your game vs {first} is #{new_id}",
            )
            assert new_id in league.games and game_id not in league.games
            assert not engine.league.match_of(first).decided  # type: ignore[union-attr]
            for name in (first, second):
                await people[name].sit(room_id, new_id, deck=deck(name))
            await wait_until(lambda: people[first].client.games[new_id].started, what="new game started")
        finally:
            for p in people.values():
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)
