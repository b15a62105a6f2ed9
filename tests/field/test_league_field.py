"""The leagues in the field: Market Draft and AutoBattler played as people play them, by room commands,
private messages (or the private web page) and Cockatrice games; then the hidden-card scan (packs, pools and
shops are private to their player)."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from field_bot import BOT_NAME, JUDGE_PASSWORD, ROOM, SHIPPED, Referee, judge_server
from field_players import FieldPlayer, Mark, Protos
from hidden_cards import block_names
from league_steps import (
    MARKET_POOL,
    PACK,
    PRIVATE,
    PrivatePage,
    assert_no_leaks,
    deck_lists_shared,
    deck_taken,
    everyone_passes_the_market,
    form_league,
    form_web_league,
    free_port,
    market_reveals,
    pack_of,
    pool_list,
)
from scenario import arrive, close_all, deck_cod, participant, run
from servatrice import ServatriceFactory, ServatriceServer
from shared_paths import ROOT

pytestmark = pytest.mark.servatrice
CUBE = block_names(ROOT / "blocks" / "autobattler-cube.txt")
BASICS = {"Plains", "Island", "Swamp", "Mountain", "Forest"}


async def pick_first(player: FieldPlayer, since: Mark | None) -> Mark:
    """Wait for the pack the bot lists privately, ``!pick 1``, and check the pick is the pack's first card."""
    first = pack_of(await player.line(PACK.pattern, since=since, kind=PRIVATE, timeout=60))[0]
    mark = player.mark()
    await player.tell(BOT_NAME, "!pick 1")
    await player.line(rf"You picked {re.escape(first)} \(", since=mark, kind=PRIVATE, timeout=60)
    return mark


def test_one_league_at_a_time_and_picks_reach_their_own_league(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Two Market Draft leagues run side by side in one room. A member of the first cannot join the second
    nor an AutoBattler lobby (private commands name no league), nor can a lobby member join another lobby;
    each player's private !pick takes the first card of the pack their own league showed them, and the packs
    are named only to the player holding them."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["eli_fm", "fay_fm", "gil_fm", "hope_fm"])
        first, second = players[:2], players[2:]
        eli, gil = first[0], second[0]
        try:
            started = time.monotonic()
            starts = r"Market Draft league #1 starts: (eli_fm, fay_fm|fay_fm, eli_fm)"  # seats are shuffled
            await form_league(first, room_id, "market", starts)
            for command in ("!market join", "!autobattler join"):
                mark = eli.mark()
                await eli.room_say(room_id, command)
                await eli.line(r"you are in Market Draft league #1 \(.*\); one league at a time", since=mark)
            mark = gil.mark()
            await gil.room_say(room_id, "!market join")
            # League #1 runs: the join says it cannot take them and opens a new league's lobby.
            await gil.line(
                r"league #1 is under way and cannot take new players; gil_fm joins the lobby of a new Market"
                r" Draft league \(1",
                since=mark,
            )
            await gil.room_say(room_id, "!autobattler join")
            await gil.line(r"already in the Market Draft lobby; one league at a time", since=mark)
            await gil.room_say(room_id, "!market leave")
            await gil.line(r"gil_fm leaves the Market Draft lobby", since=mark)
            starts = r"Market Draft league #2 starts: (gil_fm, hope_fm|hope_fm, gil_fm)"
            await form_league(second, room_id, "market", starts)
            marks: list[Mark | None] = [None] * len(players)
            for _ in range(2):
                marks = list(
                    await asyncio.gather(*(pick_first(p, m) for p, m in zip(players, marks, strict=True)))
                )
        finally:
            await close_all(players)
        assert_no_leaks(players, MARKET_POOL, started)

    run(scenario(), bot)


def test_a_lobby_survives_the_referee_s_kill_9(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Two players join the Market Draft lobby; the referee is killed (``kill -9``) and started again on
    the same journal: the room hears that the lobby is still open with both, a third player joins it and
    one of them starts the league with all three."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["ivy_fm", "jon_fm", "kay_fm"])
        ivy, jon, kay = players
        try:
            mark = ivy.mark()
            for player in (ivy, jon):
                await player.room_say(room_id, "!market join")
                await ivy.line(rf"{player.name} joins the Market Draft league", since=mark)
            mark = ivy.mark()
            bot.kill9()
            await ivy.wait_user(BOT_NAME, present=False)
            bot.start()
            kept = r"lobby is still open after the referee's restart: ivy_fm, jon_fm \(2 joined\)"
            await ivy.line(kept, since=mark, timeout=30)
            await kay.room_say(room_id, "!market join")
            await ivy.line(r"kay_fm joins the Market Draft league \(3: enough to start\)", since=mark)
            await jon.room_say(room_id, "!market start 1")
            starts = r"Market Draft league #1 starts: (?=[^(]*ivy_fm)(?=[^(]*jon_fm)(?=[^(]*kay_fm)"
            await ivy.line(starts, since=mark, timeout=60)
        finally:
            await close_all(players)

    run(scenario(), bot)
    assert "Traceback" not in bot.log_text()


def test_a_referee_back_at_another_web_address_sends_each_league_player_a_new_link(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Two players draft a Market league on their private pages; the referee is stopped and started again on
    the same journal serving its pages on another port (an operator moved it), so the old links lead nowhere:
    each player is sent one new link, which opens their desk with the picks made before, and picks there."""
    bot = referee(shipped_server, "--web", f"127.0.0.1:{free_port()}")

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["kim_fw", "lou_fw"])
        pages: list[PrivatePage] = []
        try:
            starts = r"Market Draft league #\d+ starts: .*1 round\b"
            pages = await form_web_league(players, room_id, "market", "Market Draft", starts, "1")
            picks = await asyncio.gather(
                *(draft_on_page(p, page, 2) for p, page in zip(players, pages, strict=True))
            )
            marks = [player.mark() for player in players]
            bot.stop()
            bot.extra = ("--web", f"127.0.0.1:{free_port()}")
            bot.start()
            for player, mark, old, picked in zip(players, marks, list(pages), picks, strict=True):
                told = await player.line(
                    r"^Your pack, market and pool: \S+ or !pack$", since=mark, kind=PRIVATE, timeout=30
                )
                link = told.split(" ")[-3]
                assert link != old.link and "/private/" in link, (link, old.link)
                page = await PrivatePage.open(link)
                pages.append(page)
                view = await page.wait(lambda v: v["phase"] == "draft" and bool(v["pack"]))
                assert view["player"] == player.name
                assert sorted(card["name"] for card in view["pool"]) == sorted(picked)
                answer = await page.act("pick", "1")
                assert any(line.startswith("You picked ") for line in answer), answer
                links = [text for _, _, text in player.chat(mark) if "/private/" in text]
                assert links == [told], links
        finally:
            for page in pages:
                await page.close()
            await close_all(players)

    run(scenario(), bot, timeout=180)
    assert "Traceback" not in bot.log_text()


# -- Market Draft: the whole draft, a game, the market ---------------------------------------------------


async def draft_on_page(player: FieldPlayer, page: PrivatePage, picks: int) -> list[str]:
    """The initial draft as a web player does it: read the pack on the private page (it updates live),
    press the first card's Pick button (``!pick 1``): the page answers which card was picked; then wait for
    the page to show the pick in the pool and the next pack. Returns the picks, all shown on the page."""
    picked: list[str] = []
    while len(picked) < picks:
        view = await page.wait(
            lambda v: v["phase"] == "draft" and len(v["pool"]) == len(picked) and bool(v["pack"])
        )
        assert view["player"] == player.name
        picked.append(view["pack"][0]["name"])
        answer = await page.act("pick", "1")
        assert any(line.startswith(f"You picked {picked[-1]} (") for line in answer), (picked[-1], answer)
    view = await page.wait(lambda v: len(v["pool"]) == picks)
    assert sorted(card["name"] for card in view["pool"]) == sorted(picked)
    return picked


def cheapest_trade_in(view: dict[str, Any]) -> tuple[int, list[int]]:
    """The cheapest market card and the fewest pool cards (most worth first) paying for it: no card of the
    payment could be left out (the bot warns about an overpaying trade-in)."""
    market = min(view["market"], key=lambda card: card["cost"])
    column = market["number"] - 1
    paid, worth = [], 0
    for card in sorted(view["pool"], key=lambda card: card["worth"][column], reverse=True):
        if worth >= market["cost"]:
            break
        paid.append(card["number"])
        worth += card["worth"][column]
    assert worth >= market["cost"], f"the pool cannot pay for {market}"
    return market["number"], paid


@pytest.mark.parametrize("account", ["unregistered", "judge"])
def test_market_league_from_the_draft_to_the_next_round(
    protos: Protos,
    servatrice_factory: ServatriceFactory,
    referee: Callable[..., Referee],
    request: pytest.FixtureRequest,
    account: str,
) -> None:
    """Two players, ``!market start 2``, the web view on: each opens the page the bot answers their join with
    (the lobby, then the league at the same address); all 45 picks each from the private page, their whole
    pool as a deck in the round's Cockatrice game, a concession, the market (the loser buys first, then both
    pass) and round 2's game; standings as the league counts them; no private card reaches the other.
    Under auth none the referee sits in the round's game; a judge account watches it from a judge's
    spectator seat (the game starts on the players' own ready, and a concession stops it), and after a
    ``kill -9`` mid-game watches the same game again without announcing its start twice."""
    web = ("--web", f"127.0.0.1:{free_port()}")
    if account == "judge":
        server = judge_server(servatrice_factory, request.getfixturevalue("mariadb"))
        bot = referee(server, "--password", JUDGE_PASSWORD, *web)
    else:
        server = servatrice_factory.start(SHIPPED)
        bot = referee(server, *web)

    async def scenario() -> None:
        room_id, players = await arrive(protos, server, ["kim_fm", "lou_fm"])
        winner, loser = players
        pages: list[PrivatePage] = []
        try:
            started = time.monotonic()
            marks = [p.mark() for p in players]
            starts = r"Market Draft league #\d+ starts: .*2 rounds"
            pages = await form_web_league(players, room_id, "market", "Market Draft", starts, "2")
            picks = await asyncio.gather(
                *(draft_on_page(p, page, 45) for p, page in zip(players, pages, strict=True))
            )
            assert [len(p) for p in picks] == [45, 45]
            drafted = time.monotonic()
            for player, mark in zip(players, marks, strict=True):
                await player.line(
                    r"Draft over\. Your pool as a deck list", since=mark, kind=PRIVATE, timeout=90
                )
            await winner.line(r"The draft is over", since=marks[0])

            tables, pools = {}, {}
            for player, mark, picked in zip(players, marks, picks, strict=True):
                pool = pools[player.name] = await pool_list(player, mark, timeout=150, ask=True)
                assert sum(pool.values()) == 45 and set(pool) == set(picked), (pool, picked)
                told = await player.line(
                    r"Round 1: your game vs \S+ is #\d+", since=mark, kind=PRIVATE, timeout=90
                )
                told_at = next(it.at for it, _, text in player.chat(mark) if text == told)
                # Chat is the bot's scarcest sink: when every page pick was also confirmed in chat, this
                # line queued behind ~45 of them and came ~80 s after the last pick.
                assert told_at - drafted < 30, (
                    f"{player.name}'s game was announced {told_at - drafted:.0f} s late"
                )
                game_id = int(re.search(r"is #(\d+)", told).group(1))  # type: ignore[union-attr]
                tables[player.name] = game_id
                await player.sit(room_id, game_id, deck_cod(f"{player.name} pool", pool))
                if account == "judge" and player is winner:  # alone at the table: the ready is taken back
                    alone = rf"waiting for {loser.name} to sit\. Press ready"
                    await winner.line(alone, since=mark, kind=PRIVATE, timeout=60)  # after the pool lists
            assert len(set(tables.values())) == 1
            game_id = tables[winner.name]
            for player in players:
                await winner.line(rf"{player.name}: {deck_taken()}", since=marks[0], timeout=30)
            if account == "judge" and deck_lists_shared():  # else the referee cannot see the illegal deck
                await stopped_when_started_with_an_illegal_deck(winner, loser, game_id, pools[winner.name])
            elif account == "judge":  # a ready pressed before both decks were in was taken back
                ready = r"Both decks are loaded \(not checked\): press ready to start"
                await winner.line(ready, since=marks[0], timeout=60)
                for player in players:  # the server refuses a ready that stayed pressed
                    await player.game(game_id, "Command_ReadyStart", check=False, ready=True)
            if account == "judge":
                await winner.line(r"The game is on\. .*Good luck", since=marks[0])
            await winner.wait_started(game_id, since=marks[0])
            referee_there = participant(winner, game_id, BOT_NAME)
            assert referee_there is not None and bool(referee_there.spectator) is (account == "judge")
            restarted = {player.name: player.mark() for player in players}
            if account == "judge":  # kill -9 mid-game: the referee watches the same game again, quietly
                mark = winner.mark()
                bot.kill9()
                await winner.wait_user(BOT_NAME, present=False)
                bot.start()
                await winner.wait_for(
                    lambda item: (
                        item.kind == "Event_Join"
                        and item.game_id == game_id
                        and item.body.player_properties.user_info.name == BOT_NAME
                    ),
                    since=mark,
                    timeout=60,
                )
                await asyncio.sleep(3)
                said = [text for _, who, text in winner.chat(mark) if who == BOT_NAME]
                assert not any("The game is on" in text for text in said), said

            mark = loser.mark()
            await loser.game(game_id, "Command_Concede")
            await loser.line(rf"Round 1: {winner.name} beats {loser.name}", since=mark, timeout=60)
            await loser.line(rf"Buying order: {loser.name}, {winner.name}", since=mark, timeout=60)
            await loser.line(r"Your turn to buy", since=mark, kind=PRIVATE, timeout=60)
            if account == "judge":  # the pages reconnected to the restarted referee: no new link was sent
                for index, player in enumerate(players):
                    for _ in range(30):  # a browser's page reconnects by itself, within seconds
                        if pages[index].connections == 2 or pages[index].refused is not None:
                            break
                        await asyncio.sleep(1)
                    assert pages[index].connections == 2 and pages[index].refused is None
                    links = [t for _, w, t in player.chat(restarted[player.name]) if "/private/" in t]
                    assert links == [], links
            view = await pages[1].wait(lambda v: v["phase"] == "market" and v["my_turn"])
            number, paid = cheapest_trade_in(view)
            bought = view["market"][number - 1]["name"]
            paid_names = [view["pool"][n - 1]["name"] for n in paid]
            owned = Counter(card["name"] for card in view["pool"])  # the pool has up to four of a card
            before_buy = {player.name: player.mark() for player in players}
            await loser.tell(BOT_NAME, f"!buy {number} with {', '.join(map(str, paid))}")
            bought_line = rf"{loser.name} buys {re.escape(bought)} \(worth \d+, cost \d+\), trading in"
            await loser.line(bought_line, since=mark, timeout=60)
            await everyone_passes_the_market([winner, loser], before_buy)
            await loser.line(r"Market closed", since=mark, timeout=60)
            await loser.line(r"Round 2: your game vs \S+ is #\d+", since=mark, kind=PRIVATE, timeout=60)
            pool = await pages[1].wait(lambda v: v["phase"] == "play" and v["round"] == 2)
            names = [card["name"] for card in pool["pool"]]
            assert bought in names and len(names) == 45 + 8 + 1 - len(paid), names
            assert Counter(names) == owned - Counter(paid_names) + Counter([bought]), (paid_names, names)

            mark = winner.mark()
            await winner.tell(BOT_NAME, "!standings")
            await winner.line(
                rf"1\. {winner.name} 2 \(1-0-0\), 2\. {loser.name} 0 \(0-0-1\)",
                since=mark,
                kind=PRIVATE,
                timeout=60,
            )
        finally:
            for page in pages:
                await page.close()
            await close_all(players)
        assert_no_leaks(players, MARKET_POOL, started, market_reveals(players))

    run(scenario(), bot, timeout=300)


def test_a_league_game_lost_in_a_server_restart_reaches_both_players_again(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Servatrice restarts (shipped settings, auth none) while round 1's game waits for its players: the game
    is gone. The referee, started as the README says, reconnects by itself and opens the pairing's game
    again. kim_fr, back first, is told its number; lou_fr, still away when the referee tells him, hears it
    when he logs in again, before joining a room or saying a word. Both sit in it with their pools and the
    referee checks their decks."""
    bot = referee(shipped_server, "--web", f"127.0.0.1:{free_port()}", verbose=True)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["kim_fr", "lou_fr"])
        pages: list[PrivatePage] = []
        try:
            marks = [p.mark() for p in players]
            starts = r"Market Draft league #\d+ starts: .*1 round"
            pages = await form_web_league(players, room_id, "market", "Market Draft", starts, "1")
            await asyncio.gather(
                *(draft_on_page(p, page, 45) for p, page in zip(players, pages, strict=True))
            )
            pools, lost = {}, set()
            for player, mark in zip(players, marks, strict=True):
                pools[player.name] = await pool_list(player, mark, timeout=150, ask=True)
                told = await player.line(
                    r"Round 1: your game vs \S+ is #\d+", since=mark, kind=PRIVATE, timeout=90
                )
                lost.add(int(re.search(r"is #(\d+)", told).group(1)))  # type: ignore[union-attr]
            for page in pages:
                await page.close()
            await close_all(players)

            shipped_server.restart()
            kim = await FieldPlayer.connect(protos, shipped_server.tcp_port, "kim_fr")
            players = [kim]
            (old,) = lost
            reopened = rf"Game #{old} was lost in a restart\. Round 1: your game vs lou_fr is #(\d+)"
            told = await kim.line(reopened, kind=PRIVATE, timeout=60)
            game_id = int(re.search(reopened, told).group(1))  # type: ignore[union-attr]
            for _ in range(600):  # the referee tried to tell lou_fr, and found him away (the line may
                # wait for the shipped chat budget first: kim's lines and the room's went out before it)
                if "lou_fr is offline" in bot.log_text():
                    break
                await asyncio.sleep(0.1)
            lou = await FieldPlayer.connect(protos, shipped_server.tcp_port, "lou_fr")
            players.append(lou)
            # Back, lou hears the league as it is now (the lines kept for him may have gone stale): the game
            # that replaces the lost one.
            now = r"^Market Draft league #\d+ now: round 1 is being played; your round 1 game vs kim_fr"
            await lou.line(rf"{now} is #{game_id} in this room\b", kind=PRIVATE, timeout=30)

            mark = kim.mark()
            for player in players:
                await player.join_room(ROOM)
                await player.sit(room_id, game_id, deck_cod(f"{player.name} pool", pools[player.name]))
            for player in players:
                await kim.line(rf"{player.name}: {deck_taken()}", since=mark, timeout=30)
        finally:
            for page in pages:
                await page.close()
            await close_all(players)

    run(scenario(), bot, timeout=300)
    assert "lou_fr is offline" in bot.log_text()
    assert "Traceback" not in bot.log_text()


async def stopped_when_started_with_an_illegal_deck(
    racer: FieldPlayer, other: FieldPlayer, game_id: int, pool: dict[str, int]
) -> None:
    """``other`` readies; ``racer`` loads a deck with one card more than their pool holds and readies
    in the same breath, so the server starts the game before the judging referee reads the deck. The referee
    stops it (a concession Cockatrice ends the game at, not a result); then the pool deck and both ready."""
    seat = other.games[game_id].my_id

    def other_ready() -> bool:
        ready = False
        for item in other.received:
            if (item.game_id, item.kind, item.player_id) == (game_id, "Event_PlayerPropertiesChanged", seat):
                props = item.body.player_properties
                ready = props.ready_start if props.HasField("ready_start") else ready
        return ready

    extra = next(name for name in sorted(pool) if name not in BASICS)
    illegal = deck_cod("one too many", {**pool, extra: pool[extra] + 1})
    for _ in range(3):  # a race: the referee may read the deck first and take the ready back (also right)
        # Both decks are legal by now, so this ready stays (the server refuses it if it was pressed already;
        # the referee may have taken a ready back that came before it had read the deck).
        await other.game(game_id, "Command_ReadyStart", check=False, ready=True)
        await other.wait_for(lambda _: other_ready(), timeout=30)
        mark = racer.mark()
        await asyncio.gather(
            racer.game(game_id, "Command_DeckSelect", deck=illegal),
            racer.game(game_id, "Command_ReadyStart", ready=True),
        )
        held = await racer.wait_for(
            lambda item: (
                (item.kind == "Event_GameStateChanged" and item.game_id == game_id and item.body.game_started)
                or (  # lines waiting for the chat budget together leave as one message, joined by " | "
                    item.kind == PRIVATE
                    and any(
                        part.startswith("The game cannot start yet")
                        for part in item.body.message.split(" | ")
                    )
                )
            ),
            since=mark,
            timeout=30,
        )
        if held.kind != PRIVATE:
            break  # the server started it before the referee read the deck: the case under test
        await racer.game(game_id, "Command_DeckSelect", deck=deck_cod("pool again", pool))
        await racer.line(rf"{racer.name}: deck OK", since=mark, timeout=60)
    else:
        raise AssertionError("the referee read the illegal deck first three times: the race never happened")
    await racer.line(rf"{racer.name}: deck not legal", since=mark, timeout=60)
    stopped = rf"{racer.name}'s deck is not legal, but the game started .*press ready again"
    await racer.line(stopped, since=mark, timeout=60)
    await racer.wait_for(
        lambda item: item.kind == "Event_GameStateChanged" and not item.body.game_started, since=mark
    )
    assert not [text for _, _, text in racer.chat(mark) if "beats" in text or "concedes" in text]
    await racer.game(game_id, "Command_DeckSelect", deck=deck_cod("pool again", pool))
    await racer.line(rf"{racer.name}: deck OK", since=mark, timeout=60)
    await racer.line(r"Both decks are legal: press ready to start", since=mark, timeout=60)
    for player in (racer, other):
        await player.game(game_id, "Command_ReadyStart", ready=True)


# -- AutoBattler: a draft phase, the mini-games, poison and treasures ------------------------------------


async def draft_phase(player: FieldPlayer, roll: bool) -> None:
    """One draft phase by private message: the shop, a swap, a roll if asked, done."""
    await player.line(r"Your shop: 1\. .*Your pool: 1\. ", kind=PRIVATE, timeout=90)
    mark = player.mark()
    await player.tell(BOT_NAME, "!swap 1 1")
    await player.line(r"You took .* and gave ", since=mark, kind=PRIVATE, timeout=60)
    if roll:
        mark = player.mark()
        await player.tell(BOT_NAME, "!roll")
        await player.line(r"Your shop: ", since=mark, kind=PRIVATE, timeout=60)
    await player.tell(BOT_NAME, "!done")


@dataclass
class MiniGame:
    """What the bot told one player about their mini-game, and the deck they built from it."""

    game_id: int
    opponent: str
    treasures: int
    deck: dict[str, int]


async def build_deck(player: FieldPlayer, since: Mark) -> MiniGame:
    """Read the pairing, the deck rules and the pool list the bot sends, and build the mini-game deck: the
    first ``energy`` pool cards as the hand, the basic lands asked for, a Treasure per treasure."""
    told = await player.line(r"Round 1: your game vs \S+ is #\d+", since=since, kind=PRIVATE, timeout=90)
    opponent, game_id = re.search(r"vs (\S+) is #(\d+)", told).groups()  # type: ignore[union-attr]
    rules = await player.line(r"Deck: exactly \d+ cards", since=since, kind=PRIVATE, timeout=90)
    shape = re.search(
        r"exactly (\d+) cards .* plus (\d+) basic lands, which start on the battlefield; put your (\d+)"
        r" treasure",
        rules,
    )
    energy, lands, treasures = map(int, shape.groups())  # type: ignore[union-attr]
    pool = await pool_list(player, since, timeout=90)
    cards = sorted(name for name, count in pool.items() for _ in range(count) if name not in BASICS)
    deck = Counter(cards[:energy]) + Counter({"Forest": lands, "Treasure": treasures})
    return MiniGame(int(game_id), opponent, treasures, dict(deck))


async def play_out(players: list[FieldPlayer], games: dict[str, MiniGame]) -> str:
    """Both players of one mini-game put their lands and Treasures on the battlefield; then the first of
    them (by name) clicks their life down to 0. Returns the loser."""
    game_id = games[players[0].name].game_id
    for player in players:
        await player.wait_started(game_id)
    for player in players:
        drawn = await player.draw(game_id, sum(games[player.name].deck.values()))
        await player.play_from_hand(game_id, [i for i, name in drawn if name in ("Forest", "Treasure")])
    loser, winner = sorted(players, key=lambda p: p.name)
    mark = loser.mark()
    await loser.lose_life(game_id, 20)
    # The results end the round: the game's line leaves with the next draft phase's four shops and their
    # whole views, the room's lines and the other game's, right after both games' start lines and the four
    # pool listings. It takes its fair turn for the shipped chat budget (10 messages and 1,000 characters
    # per 11 s) and can wait several windows of it (seen: 19 s after the result; the 30 s wait once ran
    # out), as the shops of the same burst, waited for 90 s below, can.
    await loser.line(rf"{loser.name} is at 0 life: {winner.name} wins", since=mark, timeout=90)
    await loser.line(rf"Round 1: {winner.name} beats {loser.name}", since=mark, timeout=30)
    return loser.name


def test_autobattler_round_from_the_shop_to_poison_and_treasures(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Four players form an AutoBattler league; each swaps a card (two also roll) and says !done by private
    message; the pairings are announced; each pair loads the deck the rules ask for into its Cockatrice
    game, puts its lands and Treasures on the battlefield, and one player of each drops to 0 life. The
    losers get their poison in the room, the Treasures left on the battlefield are kept into the next draft
    phase, !treasures shows it all, and no shop or pool card reaches another player."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        names = ["gus_fb", "hal_fb", "ivy_fb", "jo_fb"]
        room_id, players = await arrive(protos, shipped_server, names)
        by_name = {player.name: player for player in players}
        try:
            started = time.monotonic()
            marks = [player.mark() for player in players]
            await form_league(players, room_id, "autobattler", r"AutoBattler league #\d+ starts")
            await asyncio.gather(*(draft_phase(p, roll=i < 2) for i, p in enumerate(players)))
            await players[0].line(r"Round 1: \S+ vs \S+; \S+ vs \S+\.", since=marks[0], timeout=90)
            built = await asyncio.gather(*(build_deck(p, m) for p, m in zip(players, marks, strict=True)))
            games = {player.name: game for player, game in zip(players, built, strict=True)}
            assert [games[p.name].treasures for p in players] == [0, 0, 1, 1]
            for player in players:
                game = games[player.name]
                await player.sit(room_id, game.game_id, deck_cod(player.name, game.deck))
            pairs = sorted({tuple(sorted((name, game.opponent))) for name, game in games.items()})
            assert len(pairs) == 2 and len({n for pair in pairs for n in pair}) == 4, pairs
            marks = [player.mark() for player in players]
            losers = await asyncio.gather(*(play_out([by_name[n] for n in pair], games) for pair in pairs))
            for loser in losers:
                await players[0].line(rf"{loser}: 1 poison \(\+1, lost\)", since=marks[0], timeout=30)
            for player, mark in zip(players, marks, strict=True):
                kept = games[player.name].treasures
                shop = rf"Your shop: 1\. .*Treasures {kept + 1}\."
                await player.line(shop, since=mark, kind=PRIVATE, timeout=90)
            mark = players[0].mark()
            await players[0].tell(BOT_NAME, "!treasures")
            table = await players[0].line(r"Energy \d+\. ", since=mark, kind=PRIVATE, timeout=60)
            for player in players:
                poison = 1 if player.name in losers else 0
                assert f"{player.name} {games[player.name].treasures + 1}T/{poison}P" in table, table
        finally:
            await close_all(players)
        assert_no_leaks(players, CUBE, started)

    run(scenario(), bot, timeout=300)


def test_autobattler_views_reach_every_player_promptly(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Every player of a four-player AutoBattler league can act on the first message the start sends them: it
    holds the shop and the numbered pool (seen: the shop came at once and the pool 11-44 s later, and a
    ``!swap`` typed meanwhile was refused), and it comes within two of the connection's chat windows (four
    whole views are more characters than one window holds)."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["kay_fp", "lee_fp", "max_fp", "ned_fp"])
        try:
            asked = await form_league(players, room_id, "autobattler", r"AutoBattler league #\d+ starts")
            for player in players:
                view = await player.line(r"Your shop: 1\. ", kind="Event_UserMessage", timeout=60)
                first = next(
                    (item.at, text)
                    for item, _, text in player.chat()
                    if item.kind == "Event_UserMessage" and item.at >= asked
                )
                assert first[1] == view and "Your pool: 1. " in view, (player.name, first[1])
                waited = first[0] - asked
                assert waited < 22.0, f"{player.name}'s view came {waited:.1f} s after the start"
        finally:
            await close_all(players)

    run(scenario(), bot)
