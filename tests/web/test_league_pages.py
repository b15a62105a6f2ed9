"""League players' private web pages, served by aiohttp in front of a real league referee (no Servatrice).

A real :class:`Bot` (connection stood in by :mod:`cockatrice_ext.web.demo`, chat to a list), a real
:class:`LeagueReferee` with its journal on disk, started as ``!autobattler start`` / ``!market start`` start
it. Pages are read through their event streams and acted on through their forms, as the browser does.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from servatrice import free_port
from sse_events import events

from cockatrice_ext.bot.formats import INSTALLERS
from cockatrice_ext.bot.league_cards import load_league_block
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.formats import league as core
from cockatrice_ext.web.demo import demo_bot
from cockatrice_ext.web.server import WebOptions, WebView

ROOM = 1
LINK = re.compile(r"http://127\.0\.0\.1:\d+/league/(\d+)/private/([A-Za-z0-9_-]+)")
AUTOBATTLERS = ("ann", "ben", "cat", "dan")


@dataclass
class League:
    bot: Bot
    league: LeagueReferee
    web: WebView
    session: aiohttp.ClientSession
    chat: list[tuple[Any, str]] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)

    @property
    def engine(self) -> Any:
        return self.league.engine

    def told(self, user: str) -> list[str]:
        return [message for (kind, name), message in self.chat if kind == "user" and name == user]

    def names(self, cards: list[int]) -> list[str]:
        return [self.league.card_name(c) for c in cards]

    async def view(self, user: str) -> Any:
        """The first view the player's page streams (what it shows now)."""
        async for kind, data in events(self.session, self.links[user] + "/events"):
            assert kind == "view"
            return data
        raise AssertionError("no view")

    async def act(self, user: str, command: str, args: str = "", url: str = "") -> tuple[int, Any]:
        form = {"command": command, "args": args}
        async with self.session.post((url or self.links[user]) + "/act", data=form) as response:
            body = await response.json() if response.status == 200 else await response.text()
            await settle(self.bot)
            return response.status, body


async def settle(bot: Bot) -> None:
    """Let the web view's flush run, then every queued chat line go out."""
    await asyncio.sleep(0.05)
    await bot.chat.flush(timeout=5)


Chat = list[tuple[Any, str]]


@contextlib.asynccontextmanager
async def serving(
    tmp_path: Path, *, ready: bool = True, port: int = 0, **limits: Any
) -> AsyncIterator[tuple[Bot, WebView, Chat]]:
    """A demo bot (chat to a list, in room 1) with its web view listening on a free port; ``ready`` False:
    the bot is still starting (as ``bot run``'s is when its web view starts listening), on the same journal
    as before when there was one (a restart)."""
    chat: Chat = []

    async def send(destination: Any, message: str) -> None:
        chat.append((destination, message))

    bot = demo_bot(tmp_path / "journal.sqlite3", send, ready=ready)
    bot.room_ids = [ROOM]
    web = WebView(bot, WebOptions(port=port, **limits))
    await web.start()
    try:
        yield bot, web, chat
    finally:
        await web.stop()
        bot.chat.close()


def run_league(
    tmp_path: Path,
    body: Callable[[League], Awaitable[None]],
    options: LeagueOptions,
    members: tuple[str, ...],
    **limits: Any,
) -> None:
    async def run() -> None:
        async with serving(tmp_path, **limits) as (bot, web, chat), aiohttp.ClientSession() as session:
            block = load_league_block(options.block_name)
            league = await LeagueReferee.create(bot, ROOM, options, block, list(members))
            await league.begin()
            setup = League(bot, league, web, session, chat)
            await settle(bot)
            for (kind, name), message in chat:
                match = LINK.search(message)
                if kind == "user" and match:
                    assert name not in setup.links, f"{name} got a second link"
                    setup.links[name] = match.group(0)
            await asyncio.wait_for(body(setup), 60)

    asyncio.run(run())


def autobattler(tmp_path: Path, body: Callable[[League], Awaitable[None]], **limits: Any) -> None:
    run_league(tmp_path, body, LeagueOptions(format="autobattler", seed=11), AUTOBATTLERS, **limits)


def market(tmp_path: Path, body: Callable[[League], Awaitable[None]]) -> None:
    """A two-player Market Draft whose pages may act as fast as the test wants."""
    fast: dict[str, Any] = {"actions_per_second": 1000.0, "requests_per_second": 1000.0}
    fast.update(action_burst=1000, request_burst=1000)
    run_league(tmp_path, body, LeagueOptions(format="market", rounds=2, seed=5), ("al", "bo"), **fast)


def test_each_autobattler_player_is_first_told_their_link_in_one_short_line(tmp_path: Path) -> None:
    async def body(s: League) -> None:
        assert set(s.links) == set(AUTOBATTLERS)
        universe = {facts.name for facts in s.league.block.facts}
        for user in AUTOBATTLERS:
            first = s.told(user)[0]
            assert s.links[user] in first and first.endswith("or !shop")
            assert len(first) <= 120, first  # eight of them and the room's line fit one chat budget
            assert not any(name in first for name in universe)  # the cards are on the page
            assert len(LINK.search(first).group(2)) >= 32  # type: ignore[union-attr]  # 192 bits
        status, _ = await s.act("ann", "roll")
        assert status == 200
        assert sum("/private/" in m for m in s.told("ann")) == 1  # the link is sent once

    autobattler(tmp_path, body)


def test_autobattler_page_shows_that_players_shop_pool_and_treasures(tmp_path: Path) -> None:
    async def body(s: League) -> None:
        for user in AUTOBATTLERS:
            async with s.session.get(s.links[user]) as page:
                html = await page.text()
                assert page.status == 200 and user in html
                assert s.links[user].rsplit("/", 1)[1] not in html  # the page never prints its token
            view = await s.view(user)
            mine = view["private"]
            assert mine["player"] == user and mine["drafting"]
            assert [c["name"] for c in mine["shop"]] == s.names(s.engine.shop(user))
            assert [c["name"] for c in mine["pool"]] == s.names(s.engine.pool(user))
            assert mine["treasures"] == s.engine.treasures[user]
            others = {s.league.card_name(c) for o in AUTOBATTLERS if o != user for c in s.engine.shop(o)}
            shown = {c["name"] for c in mine["shop"] + mine["pool"]}
            mine_too = set(s.names(s.engine.shop(user) + s.engine.pool(user)))
            assert not (others - mine_too) & shown  # no card of another player's shop

    autobattler(tmp_path, body)


def test_a_swap_on_the_page_is_the_private_command(tmp_path: Path) -> None:
    """Swap goes through ``!swap 2 3``: the engine, the journal, the page's answer and the live page."""

    async def body(s: League) -> None:
        shop, pool = s.engine.shop("ben"), s.engine.pool("ben")
        entries = len(list(s.bot.journal.entries(s.league.key)))
        stream = events(s.session, s.links["ben"] + "/events")
        _, before = await anext(stream)
        status, answer = await s.act("ben", "swap", "2 3")
        assert shop[1] in s.engine.pool("ben") and pool[2] in s.engine.shop("ben")
        assert len(list(s.bot.journal.entries(s.league.key))) == entries + 1
        taken, given = s.league.card_name(shop[1]), s.league.card_name(pool[2])
        assert status == 200 and answer == {"replies": [f"You took {taken} and gave {given}."]}
        assert not any("You took" in line for line in s.told("ben"))  # answered on the page, not in chat
        _, after = await asyncio.wait_for(anext(stream), 5)  # pushed, no reload
        assert after != before and taken in [c["name"] for c in after["private"]["pool"]]
        await stream.aclose()
        status, _ = await s.act("ben", "roll")
        assert status == 200 and s.engine.treasures["ben"] == before["private"]["treasures"] - 1
        status, _ = await s.act("ben", "done")
        assert status == 200 and "ben" in s.engine.done

    autobattler(tmp_path, body)


def test_roll_and_done_from_an_open_page_are_answered_there_and_not_in_chat(tmp_path: Path) -> None:
    """Field test: Roll and Done on the page answered nothing (the roll's line went to chat, Done's only to
    the room). Each is answered on the page, as Swap is, and ben, watching his page, gets no chat copy."""

    async def body(s: League) -> None:
        stream = events(s.session, s.links["ben"] + "/events")
        await anext(stream)
        assert s.league.page_players == {"ben"} and s.engine.treasures["ben"] > 0
        told = len(s.told("ben"))
        status, answer = await s.act("ben", "roll")
        assert (status, answer) == (200, {"replies": ["Rolled: a new shop."]})
        status, answer = await s.act("ben", "done")
        assert status == 200 and [line for line in answer["replies"] if "drafting" in line], answer
        assert "ben" in s.engine.done and s.told("ben")[told:] == []
        await stream.aclose()

    autobattler(tmp_path, body)


def test_page_actions_are_refused_as_chat_refuses_them(tmp_path: Path) -> None:
    async def body(s: League) -> None:
        status, answer = await s.act("cat", "swap", "9 1")  # no shop card 9: the parser's one line
        assert status == 200 and answer["replies"] and "9" in answer["replies"][0]
        await s.act("cat", "done")
        pool = s.engine.pool("cat")
        status, answer = await s.act("cat", "swap", "1 1")  # the engine's refusal, nothing changed
        assert answer["replies"] == ["cat: you already finished drafting this phase"]
        assert s.engine.pool("cat") == pool

    autobattler(tmp_path, body)


@pytest.mark.parametrize(
    ("command", "args", "status"),
    [
        ("buy", "1 with 2", 400),  # a Market Draft command: not on this page
        ("standings", "", 400),  # a chat command the page has no button for
        ("swap", "1 " * 100, 400),  # too long for a card
        ("", "", 400),
    ],
)
def test_page_sends_only_its_own_commands(tmp_path: Path, command: str, args: str, status: int) -> None:
    async def body(s: League) -> None:
        before = len(list(s.bot.journal.entries(s.league.key)))
        got, text = await s.act("dan", command, args)
        assert (got, text) == (status, "error: bad request")
        assert len(list(s.bot.journal.entries(s.league.key))) == before

    autobattler(tmp_path, body)


def test_a_token_opens_only_its_players_page_of_its_league(tmp_path: Path) -> None:
    async def body(s: League) -> None:
        number, ann = LINK.search(s.links["ann"]).groups()  # type: ignore[union-attr]
        base = s.links["ann"].split("/league/")[0]
        for url in (
            f"{base}/league/{int(number) + 1}/private/{ann}",  # another league
            f"{base}/league/{number}/private/{ann[:-1]}",  # one character short
            f"{base}/game/{number}/private/{ann}",  # a game's page
        ):
            async with s.session.get(url) as page:
                assert page.status == 404 and ann not in await page.text()
        ben_pool = s.engine.pool("ben")
        await s.act("ann", "swap", "1 1", url=s.links["ann"])
        assert s.engine.pool("ben") == ben_pool  # ann's token acts as ann only
        assert (await s.view("ann"))["private"]["player"] == "ann"

    autobattler(tmp_path, body)


def test_actions_are_rate_limited_per_token(tmp_path: Path) -> None:
    async def body(s: League) -> None:
        statuses = [(await s.act("ann", "swap", "99 99"))[0] for _ in range(4)]
        assert statuses == [200, 200, 429, 429]

    autobattler(tmp_path, body, actions_per_second=0.01, action_burst=2)


def test_links_expire_with_the_league(tmp_path: Path) -> None:
    async def body(s: League) -> None:
        stream = events(s.session, s.links["ann"] + "/events")
        await anext(stream)
        s.league.over = True  # as perform() marks a league whose engine is over
        s.web.changed(s.league)
        kind, _ = await asyncio.wait_for(anext(stream), 5)
        assert kind == "expired"
        async with s.session.get(s.links["ann"]) as page:
            assert page.status == 404
        assert (await s.act("ann", "roll"))[0] == 404

    autobattler(tmp_path, body)


def test_market_page_picks_then_shows_the_trade_in_worths_and_buys(tmp_path: Path) -> None:
    """Market Draft: the pack's Pick runs ``!pick N``; in the market the pool shows each card's worth
    toward each market card (the engine's arithmetic), and Buy runs ``!buy N with A, B``."""

    async def body(s: League) -> None:
        assert s.told("al")[0].endswith("or !pack")
        while s.engine.phase == "draft":
            for user in ("al", "bo"):
                if s.engine.pack(user):
                    view = (await s.view(user))["private"]
                    assert [c["name"] for c in view["pack"]] == s.names(s.engine.pack(user))
                    status, _ = await s.act(user, "pick", "1")
                    assert status == 200
        await s.league.perform(s.league.table.apply(core.ReportResult(player=None, winner="al")))
        await settle(s.bot)
        assert s.engine.phase == "market"
        buyer = s.engine.whose_turn()
        view = (await s.view(buyer))["private"]
        assert view["my_turn"]
        assert [m["cost"] for m in view["market"]] == [s.engine.cost(c) for c in s.engine.market]
        pool = s.engine.pool(buyer)
        for n, row in enumerate(view["pool"]):
            assert row["worth"] == [s.engine.worth(pool[n], card) for card in s.engine.market]
        target = next(i for i, m in enumerate(view["market"]) if m["cost"] > 0)
        order = sorted(range(len(pool)), key=lambda i: -view["pool"][i]["worth"][target])
        paying, total = [], 0
        for i in order:
            if total >= view["market"][target]["cost"]:
                break
            paying.append(i + 1)
            total += view["pool"][i]["worth"][target]
        wanted = s.engine.market[target]
        args = f"{target + 1} with {', '.join(map(str, paying))}"
        status, answer = await s.act(buyer, "buy", args)
        assert status == 200, answer
        if answer["replies"][0].startswith("That overpays"):  # the same !buy again goes through
            status, answer = await s.act(buyer, "buy", args)
        bought = f"You bought {s.league.card_name(wanted)} for "  # the page's button gets its answer
        assert answer["replies"][0].startswith(bought), answer
        assert wanted in s.engine.pool(buyer) and s.engine.whose_turn() != buyer
        assert any(
            f"{buyer} buys {s.league.card_name(wanted)}" in m for (kind, _), m in s.chat if kind == "room"
        )

    market(tmp_path, body)


# -- lobby pages: the join answers with the link; the same page becomes the league's at the start ----------


@dataclass
class Room:
    """A bot with the AutoBattler room installed and its web view on; players speak in room 1."""

    bot: Bot
    web: WebView
    room: AutoBattlerRoom
    session: aiohttp.ClientSession
    chat: Chat
    links: dict[str, str] = field(default_factory=dict)

    async def say(self, user: str, text: str) -> None:
        """``text`` in the room from ``user``, as the bot's room routing hands it to the format."""
        assert await self.room.handle_command(Context(self.bot, "room", user, room_id=ROOM), text)
        await settle(self.bot)

    async def join(self, user: str) -> str:
        """``!autobattler join``; the link the private answer carries."""
        await self.say(user, "!autobattler join")
        (answer,) = [line for line in told(self.chat, user) if LINK.search(line)][-1:]
        self.links[user] = LINK.search(answer).group(0)  # type: ignore[union-attr]
        return self.links[user]

    def room_lines(self) -> list[str]:
        return [message for (kind, _), message in self.chat if kind == "room"]

    def league(self) -> LeagueReferee:
        (league,) = self.room.leagues
        return league


def told(chat: Chat, user: str) -> list[str]:
    return [message for (kind, name), message in chat if kind == "user" and name == user]


def run_lobby(tmp_path: Path, body: Callable[[Room], Awaitable[None]]) -> None:
    async def run() -> None:
        async with serving(tmp_path) as (bot, web, chat), aiohttp.ClientSession() as session:
            room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", seed=11))
            bot.room_referees.append(room)
            await asyncio.wait_for(body(Room(bot, web, room, session, chat)), 60)

    asyncio.run(run())


async def next_view(stream: Any) -> Any:
    kind, data = await asyncio.wait_for(anext(stream), 5)
    assert kind == "view", (kind, data)
    return data


async def until(check: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)


def test_a_join_is_answered_with_the_link_in_private_the_room_hears_only_the_opening(tmp_path: Path) -> None:
    async def body(s: Room) -> None:
        for user in AUTOBATTLERS:
            link = await s.join(user)
            assert told(s.chat, user) == [f"Your AutoBattler page: {link}"]
        assert s.room_lines() == ["ann opened a lobby for AutoBattler: !autobattler join"]
        assert len({LINK.search(link).group(1) for link in s.links.values()}) == 1  # type: ignore[union-attr]
        await s.say("ann", "!autobattler status")
        assert s.room_lines()[-1] == "AutoBattler: lobby 4 (ann, ben, cat, dan)"
        await s.say("ann", "!autobattler join")  # a refusal still answers in the room
        assert s.room_lines()[-1] == "ann: you are already in the AutoBattler lobby; one league at a time"

    run_lobby(tmp_path, body)


def test_the_lobby_page_lists_who_joined_live_names_only(tmp_path: Path) -> None:
    async def body(s: Room) -> None:
        link = await s.join("ann")
        async with s.session.get(link) as page:
            assert page.status == 200 and "AutoBattler league #1: ann" in await page.text()
        stream = events(s.session, link + "/events")
        view = await next_view(stream)
        assert view["lobby"] == {
            "format": "AutoBattler",
            "player": "ann",
            "players": ["ann"],
            "needed": "4 or 8",
            "start": "!autobattler start",
            "shows": "shop and pool",
        }
        assert view["private"] is None and "!autobattler start in the room" in view["summary"]["status"]
        await s.join("ben")
        assert (await next_view(stream))["lobby"]["players"] == ["ann", "ben"]
        await s.say("ben", "!autobattler leave")
        assert (await next_view(stream))["lobby"]["players"] == ["ann"]
        assert s.room_lines() == ["ann opened a lobby for AutoBattler: !autobattler join"]  # no line per join
        assert told(s.chat, "ben")[-1] == "You left the AutoBattler lobby; your page's link no longer works."
        async with s.session.post(link + "/act", data={"command": "done", "args": ""}) as answer:
            assert answer.status == 400  # a lobby's page has no button
        await stream.aclose()

    run_lobby(tmp_path, body)


def test_the_same_link_opens_the_league_with_the_shop_at_the_start(tmp_path: Path) -> None:
    """Watchers get the league's first view on their open page, pushed, and nothing in private chat; the
    others (page closed) get one line pointing to the page; nobody gets a second link."""

    async def body(s: Room) -> None:
        for user in AUTOBATTLERS:
            await s.join(user)
        streams = {user: events(s.session, s.links[user] + "/events") for user in ("ann", "ben")}
        for stream in streams.values():
            assert (await next_view(stream))["lobby"]["players"] == list(AUTOBATTLERS)
        await until(lambda: s.room.lobbies[ROOM].page_players == {"ann", "ben"}, "ann and ben watching")
        before = {user: len(told(s.chat, user)) for user in AUTOBATTLERS}
        await s.say("cat", "!autobattler start")
        league = s.league()
        assert league.page_players == {"ann", "ben"}
        for user, stream in streams.items():
            mine = (await next_view(stream))["private"]
            assert mine["player"] == user and mine["drafting"]
            assert [c["name"] for c in mine["shop"]] == [
                league.card_name(c) for c in league.engine.shop(user)
            ]
            assert told(s.chat, user)[before[user] :] == []  # the page shows it: no chat copy
            await stream.aclose()
        for user in ("cat", "dan"):
            treasures = league.engine.treasures[user]
            assert told(s.chat, user)[before[user] :] == [
                f"Your shop is open ({treasures} treasure{'s' * (treasures != 1)}): on your page, or !shop."
            ]
        assert sum("/private/" in message for _, message in s.chat) == 4  # one link each, at the join
        assert s.room_lines()[-1].startswith("AutoBattler league #1 starts: ann, ben, cat, dan")
        pool = league.engine.pool("dan")
        async with s.session.post(s.links["dan"] + "/act", data={"command": "swap", "args": "1 1"}) as answer:
            assert answer.status == 200  # the lobby's token acts in the league
        assert league.engine.pool("dan") != pool

    run_lobby(tmp_path, body)


def test_eight_players_start_with_ten_chat_messages_and_every_page_shows_its_shop(tmp_path: Path) -> None:
    """Servatrice lets one connection send 10 chat messages per 10 s: the lobby's line, eight join answers
    and the start's line are ten; every watching player's view is on their page."""

    async def body(s: Room) -> None:
        players = [f"p{n}" for n in range(1, 9)]
        streams = {}
        for user in players:
            await s.join(user)
            streams[user] = events(s.session, s.links[user] + "/events")
            await next_view(streams[user])
        await s.say("p8", "!autobattler start")
        league = s.league()
        for user in players:
            view = await next_view(streams[user])
            while view["private"] is None:  # a roster update queued before the start
                view = await next_view(streams[user])
            assert [c["name"] for c in view["private"]["shop"]] == [
                league.card_name(c) for c in league.engine.shop(user)
            ]
        assert len(s.chat) == 10, s.chat
        for stream in streams.values():
            await stream.aclose()

    run_lobby(tmp_path, body)


def test_a_player_who_leaves_loses_their_link_and_an_emptied_lobby_leaves_no_token(tmp_path: Path) -> None:
    async def body(s: Room) -> None:
        ann = await s.join("ann")
        ben = await s.join("ben")
        stream = events(s.session, ben + "/events")
        await next_view(stream)
        await s.say("ben", "!autobattler leave")
        assert (await asyncio.wait_for(anext(stream), 5))[0] == "left"
        async with s.session.get(ben) as page:
            assert page.status == 404 and LINK.search(ben).group(2) not in await page.text()  # type: ignore[union-attr]
        again = await s.join("ben")
        assert again != ben
        async with s.session.get(ben + "/events") as page:
            assert page.status == 404  # the old link stays dead
        await s.say("ben", "!autobattler leave")
        await s.say("ann", "!autobattler leave")
        assert s.web.tokens.places() == set()  # nothing of the emptied lobby opens anything
        for link in (ann, again):
            async with s.session.get(link) as page:
                assert page.status == 404
        fresh = await s.join("ann")  # a new lobby: its own number, the room told again
        assert LINK.search(fresh).group(1) != LINK.search(ann).group(1)  # type: ignore[union-attr]
        assert s.room_lines().count("ann opened a lobby for AutoBattler: !autobattler join") == 2
        old_token, new_number = LINK.search(ann).group(2), LINK.search(fresh).group(1)  # type: ignore[union-attr]
        elsewhere = fresh.split("/league/")[0] + f"/league/{new_number}/private/{old_token}"
        async with s.session.get(elsewhere) as page:
            assert page.status == 404  # one lobby's token never opens another

    run_lobby(tmp_path, body)


def test_an_open_page_makes_a_page_player_and_closing_the_last_one_brings_chat_back(tmp_path: Path) -> None:
    """Market Draft: while al's page is open, the pack passed to al is only on the page; once al closes
    both open pages, the next pack is announced in chat again (it used to stay silent: al's last action
    came from the page)."""

    async def body(s: League) -> None:
        first = events(s.session, s.links["al"] + "/events")
        second = events(s.session, s.links["al"] + "/events")
        await anext(first)
        await anext(second)
        assert s.league.page_players == {"al"}
        await s.act("al", "pick", "1")
        told = len(s.told("al"))
        await s.act("bo", "pick", "1")  # the packs pass: al's next one is on the page only
        assert s.told("al")[told:] == []
        await first.aclose()
        await asyncio.sleep(2.5)  # closed pages are looked for every second
        assert s.league.page_players == {"al"}  # another page of al's is still open
        await second.aclose()
        await until(lambda: not s.league.page_players, "al's last page closed")
        status, answer = await s.act("al", "pick", "1")  # a press answered on the page all the same
        assert status == 200 and answer["replies"][0].startswith("You picked ")
        told = len(s.told("al"))
        await s.act("bo", "pick", "1")
        assert [line for line in s.told("al")[told:] if line.startswith("Your pack (")]

    market(tmp_path, body)


def test_a_press_on_an_open_page_after_chat_commands_makes_a_page_player_again(tmp_path: Path) -> None:
    """Market Draft: al, watching the page, picks once by chat (chat copies resume), then presses Pick
    on the page still open: the next pack is on the page only again (it stayed in chat until the page was
    closed and opened again)."""

    async def body(s: League) -> None:
        page = events(s.session, s.links["al"] + "/events")
        await anext(page)
        assert s.league.page_players == {"al"}
        chat = Context(s.bot, "private", "al")
        assert await s.league.handle_command(chat, "!pick 1")
        await settle(s.bot)
        assert s.league.page_players == set()
        told = len(s.told("al"))
        await s.act("bo", "pick", "1")
        assert [line for line in s.told("al")[told:] if line.startswith("Your pack (")]
        await s.act("al", "pick", "1")
        assert s.league.page_players == {"al"}
        told = len(s.told("al"))
        await s.act("bo", "pick", "1")
        assert s.told("al")[told:] == []
        await page.aclose()

    market(tmp_path, body)


# -- a restart: the links given before open the same pages -------------------------------------------------


async def before_a_restart(
    tmp_path: Path, port: int, joiners: Sequence[str], start: str = ""
) -> tuple[dict[str, str], AutoBattlerRoom]:
    """The first process: ``joiners`` join the AutoBattler lobby (their links), then ``start`` says
    ``!autobattler start`` when given; the room as it was when the process stopped."""
    async with serving(tmp_path, port=port) as (bot, web, chat), aiohttp.ClientSession() as session:
        room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", seed=11))
        bot.room_referees.append(room)
        s = Room(bot, web, room, session, chat)
        links = {user: await s.join(user) for user in joiners}
        if start:
            await s.say(start, "!autobattler start")
        return links, room


def test_after_a_restart_the_lobby_s_links_open_it_and_then_the_league(tmp_path: Path) -> None:
    """ann and ben wait in the lobby; the bot restarts on the same journal. ann's page, asked for while the
    bot still starts, waits and then shows the kept lobby; nobody is sent a new link; cat and dan join and
    start, and ann's old link shows her shop."""

    async def run() -> None:
        port = free_port()  # the same address before and after the restart, as an operator runs it
        links, _ = await before_a_restart(tmp_path, port, ("ann", "ben"))
        async with (
            serving(tmp_path, ready=False, port=port) as (bot, web, chat),
            aiohttp.ClientSession() as session,
        ):
            link = links["ann"]
            stream = events(session, link + "/events")
            first = asyncio.create_task(next_view(stream))
            await asyncio.sleep(0.3)
            assert not first.done()  # the bot is starting: the page waits instead of a 404
            room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", seed=11))
            bot.room_referees.append(room)
            await room.restore_lobbies()
            bot.mark_ready()
            assert (await first)["lobby"]["players"] == ["ann", "ben"]
            await settle(bot)
            assert [m for (kind, _), m in chat if kind == "user"] == []  # the old links work: none sent
            assert [m for (kind, _), m in chat if kind == "room"] == [
                "The AutoBattler lobby is still open after the referee's restart: ann, ben (2 joined)."
                " !autobattler join, !autobattler start."
            ]
            s = Room(bot, web, room, session, chat)
            for user in ("cat", "dan"):
                await s.join(user)
            assert LINK.search(s.links["cat"]).group(1) == LINK.search(link).group(1)  # type: ignore[union-attr]
            await s.say("dan", "!autobattler start")
            while (mine := (await next_view(stream))["private"]) is None:  # the joins, then the start
                pass
            assert mine["player"] == "ann" and [c["name"] for c in mine["shop"]] == [
                s.league().card_name(c) for c in s.league().engine.shop("ann")
            ]
            await stream.aclose()

    asyncio.run(run())


def test_after_a_restart_a_running_league_s_links_open_it_and_its_buttons_act(tmp_path: Path) -> None:
    """A league started from a lobby is restored by the restarted bot: the links of the lobby open each
    player's desk, a button acts in the league, nobody is sent a new link; a made-up token still opens
    nothing."""

    async def run() -> None:
        port = free_port()  # the same address before and after the restart, as an operator runs it
        links, before = await before_a_restart(tmp_path, port, AUTOBATTLERS, start="ann")
        pool = before.leagues[0].engine.pool("ben")
        async with (
            serving(tmp_path, ready=False, port=port) as (bot, web, chat),
            aiohttp.ClientSession() as session,
        ):
            await INSTALLERS["autobattler"](bot)
            bot.mark_ready()
            (room,) = [r for r in bot.room_referees if isinstance(r, AutoBattlerRoom)]
            (league,) = room.leagues
            for user in AUTOBATTLERS:
                async for kind, data in events(session, links[user] + "/events"):
                    assert kind == "view" and data["private"]["player"] == user
                    break
            swap = {"command": "swap", "args": "1 1"}
            async with session.post(links["ben"] + "/act", data=swap) as answer:
                assert answer.status == 200
            assert league.engine.pool("ben") not in (pool, [])
            number = LINK.search(links["ann"]).group(1)  # type: ignore[union-attr]
            async with session.get(f"{web.base_url}/league/{number}/private/{'x' * 32}") as page:
                assert page.status == 404
            await settle(bot)
            assert not [m for (kind, _), m in chat if kind == "user" and "/private/" in m]

    asyncio.run(run())


def test_after_a_restart_at_another_address_each_league_player_is_sent_a_new_link(tmp_path: Path) -> None:
    """The bot comes back serving on another port: the old links lead nowhere, so as soon as the running
    league is restored each player is sent one new link (nothing else happened in the league), which
    opens their desk there."""

    async def run() -> None:
        links, _ = await before_a_restart(tmp_path, free_port(), AUTOBATTLERS, start="ann")
        async with (
            serving(tmp_path, ready=False, port=free_port()) as (bot, web, chat),
            aiohttp.ClientSession() as session,
        ):
            await INSTALLERS["autobattler"](bot)
            bot.mark_ready()
            await settle(bot)
            told = {user: [m for (kind, name), m in chat if (kind, name) == ("user", user)] for user in links}
            for user, messages in told.items():
                assert len(messages) == 1, (user, messages)
                new = LINK.search(messages[0])
                assert new is not None and new.group(0) != links[user], messages
                assert messages[0] == f"Your shop and pool: {new.group(0)} or !shop"
                assert new.group(0).startswith(web.base_url)
                async for kind, data in events(session, new.group(0) + "/events"):
                    assert kind == "view" and data["private"]["player"] == user
                    break

    asyncio.run(run())


def test_links_of_a_lobby_that_did_not_come_back_are_forgotten_once_the_bot_is_ready(tmp_path: Path) -> None:
    """A kept lobby whose room the restarted bot is not in: once it is ready, the link is revoked (404,
    at once) and its notes are gone from the journal."""

    async def run() -> None:
        port = free_port()  # the same address before and after the restart, as an operator runs it
        links, _ = await before_a_restart(tmp_path, port, ("ann",))
        async with (
            serving(tmp_path, ready=False, port=port) as (bot, _web, _chat),
            aiohttp.ClientSession() as session,
        ):
            assert bot.journal.notes(f"{bot.server_key}:web:token:")  # kept until the bot is ready
            bot.room_ids = [ROOM + 1]
            await INSTALLERS["autobattler"](bot)
            bot.mark_ready()
            await asyncio.sleep(0.05)
            async with session.get(links["ann"]) as page:
                assert page.status == 404
            assert bot.journal.notes(f"{bot.server_key}:web:token:") == {}

    asyncio.run(run())
