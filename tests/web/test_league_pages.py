"""League players' private web pages, served by aiohttp in front of a real league referee (no Servatrice).

A real :class:`Bot` (connection stood in by :mod:`cockatrice_ext.web.demo`, chat to a list), a real
:class:`LeagueReferee` with its journal on disk, started as ``!autobattler start`` / ``!market start`` start
it. Pages are read through their event streams and acted on through their forms, as the browser does.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sse_events import events

from cockatrice_ext.bot.league import LeagueOptions, LeagueReferee, load_league_block
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


def run_league(
    tmp_path: Path,
    body: Callable[[League], Awaitable[None]],
    options: LeagueOptions,
    members: tuple[str, ...],
    **limits: Any,
) -> None:
    async def run() -> None:
        chat: list[tuple[Any, str]] = []

        async def send(destination: Any, message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(tmp_path / "journal.sqlite3", send)
        web = WebView(bot, WebOptions(port=0, **limits))
        await web.start()
        block = load_league_block(options.block_name)
        league = await LeagueReferee.create(bot, ROOM, options, block, list(members))
        await league.begin()
        setup = League(bot, league, web, aiohttp.ClientSession(), chat)
        try:
            await settle(bot)
            for (kind, name), message in chat:
                match = LINK.search(message)
                if kind == "user" and match:
                    assert name not in setup.links, f"{name} got a second link"
                    setup.links[name] = match.group(0)
            await asyncio.wait_for(body(setup), 60)
        finally:
            await setup.session.close()
            await web.stop()
            bot.chat.close()

    asyncio.run(run())


def autobattler(tmp_path: Path, body: Callable[[League], Awaitable[None]], **limits: Any) -> None:
    run_league(tmp_path, body, LeagueOptions(format="autobattler", seed=11), AUTOBATTLERS, **limits)


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
        if answer["replies"]:  # the chat's overpay warning: the same !buy again goes through
            assert answer["replies"][0].startswith("That overpays"), answer
            await s.act(buyer, "buy", args)
        assert wanted in s.engine.pool(buyer) and s.engine.whose_turn() != buyer
        assert any(
            f"{buyer} buys {s.league.card_name(wanted)}" in m for (kind, _), m in s.chat if kind == "room"
        )

    run_league(
        tmp_path,
        body,
        LeagueOptions(format="market", rounds=2, seed=5),
        ("al", "bo"),
        actions_per_second=1000.0,
        action_burst=1000,
        requests_per_second=1000.0,
        request_burst=1000,
    )
