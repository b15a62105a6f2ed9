"""A player who has the bot on their ignore list: private lines are kept for them, not dropped.

Servatrice refuses ``Command_Message`` to such a player with ``RespInIgnoreList``. A Market Draft league
waiting for that player's pick must not lose their pack: what waits for them is kept as for a player who is
offline, tried once each time they are seen, and the bot hears once per episode that it should tell them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from bot_players import wait_until
from mariadb_server import sql_config

from cockatrice_ext.bot.chat import AWAY_PREFIX, SEPARATOR, ChatScheduler, Tagged, client_scheduler
from cockatrice_ext.client import ClientEvent, connect
from cockatrice_ext.client.errors import InIgnoreList, NameNotFound
from cockatrice_ext.client.flood import FloodLimits


class IgnoringServer:
    """Private messages to users in ``ignoring`` are refused as the server does (RespInIgnoreList), to
    users in ``offline`` with RespNameNotFound; everything else arrives."""

    def __init__(self, *ignoring: str) -> None:
        self.ignoring = set(ignoring)
        self.offline: set[str] = set()
        self.tries: list[tuple[str, str]] = []
        self.sent: list[tuple[tuple[str, object], str]] = []
        self.told: list[str] = []
        self.scheduler = ChatScheduler(self.send, lambda _d, _m: 0.0)
        self.scheduler.on_ignored = self.told.append

    async def send(self, destination: tuple[str, object], message: str) -> None:
        kind, name = destination
        if kind == "user":
            self.tries.append((str(name), message))
            if name in self.ignoring:
                raise InIgnoreList(16, None, command="Command_Message")
            if name in self.offline:
                raise NameNotFound(6, None, command="Command_Message")
        self.sent.append((destination, message))

    def to(self, user: str) -> list[str]:
        return [m for d, m in self.sent if d == ("user", user)]

    def tried(self, user: str) -> int:
        return sum(1 for name, _ in self.tries if name == user)


def test_lines_for_a_user_who_ignores_the_bot_are_kept_and_they_are_told_once(caplog: Any) -> None:
    """The refused line and what follows are kept (one try); the bot's callback and the operator's warning
    come once; a sighting while they still ignore us costs one try and changes nothing kept; once they take
    messages again, the next sighting delivers everything, marked once."""

    async def scenario() -> IgnoringServer:
        server = IgnoringServer("ann")
        chat = server.scheduler
        chat.say(("user", "ann"), "Your pack (15): 1. Shock. 2. Opt.")
        chat.say(("user", "bob"), "Your pack (15): 1. Duress.")
        await chat.flush(timeout=5)
        chat.say(("user", "ann"), "Round 1: your game vs bob is #4.")
        await chat.flush(timeout=5)
        assert server.tried("ann") == 1  # the second line was kept without a try
        assert server.told == ["ann"] and chat.ignores("ann") and chat.holds("ann")
        kept = chat.held("ann")
        for _ in range(3):  # seen three times (room lines), still ignoring: one try each, no new episode
            chat.user_back("ann")
            await chat.flush(timeout=5)
        assert server.tried("ann") == 4
        assert chat.held("ann") == kept  # kept as it was (no "While you were away" mark piled up)
        assert server.told == ["ann"]
        server.ignoring.clear()  # ann takes the bot off her ignore list and says something
        chat.user_back("ann")
        await chat.flush(timeout=5)
        assert not chat.ignores("ann") and not chat.holds("ann")
        return server

    with caplog.at_level(logging.DEBUG, logger="cockatrice_ext.bot.chat"):
        server = asyncio.run(scenario())
    assert server.to("ann") == [
        AWAY_PREFIX + "Your pack (15): 1. Shock. 2. Opt." + SEPARATOR + "Round 1: your game vs bob is #4."
    ]
    assert server.to("bob") == ["Your pack (15): 1. Duress."]  # nobody else waited for it
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "ann" in warnings[0] and "ignore list" in warnings[0]


def test_a_new_episode_is_told_again_after_a_delivery() -> None:
    async def scenario() -> IgnoringServer:
        server = IgnoringServer("ann")
        chat = server.scheduler = ChatScheduler(
            server.send, lambda _d, _m: 0.0, on_ignored=server.told.append
        )
        chat.say(("user", "ann"), "first")
        await chat.flush(timeout=5)
        server.ignoring.clear()
        chat.user_back("ann")
        await chat.flush(timeout=5)
        server.ignoring.add("ann")  # ignores the bot again later
        chat.say(("user", "ann"), "second")
        await chat.flush(timeout=5)
        assert chat.held("ann") == ["second"]
        return server

    server = asyncio.run(scenario())
    assert server.told == ["ann", "ann"]
    assert server.to("ann") == [AWAY_PREFIX + "first"]


def test_a_league_line_refused_by_an_ignore_list_is_kept_as_its_topic() -> None:
    """A pack listing refused because the player ignores the bot is not kept as text: when they are back
    the league's recap says what is true then (the pack they hold now), also after refusals while they
    still ignored the bot."""

    async def scenario() -> IgnoringServer:
        server = IgnoringServer("ann")
        chat = server.scheduler
        pack = {"now": "Your pack (15): 1. Shock."}

        def recap(user: str) -> str:
            return f"League: {pack['now']}"

        chat.say(("user", "ann"), Tagged(pack["now"], topic="league:1", recap=recap))
        chat.say(("user", "ann"), "A note for you.")
        await chat.flush(timeout=5)
        assert chat.held("ann") == ["A note for you."]
        pack["now"] = "Your pack (14): 1. Opt."  # the referee picked for her meanwhile
        chat.user_back("ann")  # seen, still ignoring: the recap is tried and kept as its topic again
        await chat.flush(timeout=5)
        assert chat.held("ann") == ["A note for you."]
        pack["now"] = "Your pack (13): 1. Duress."
        server.ignoring.clear()
        chat.user_back("ann")
        await chat.flush(timeout=5)
        return server

    server = asyncio.run(scenario())
    assert server.to("ann") == [AWAY_PREFIX + "A note for you.", "League: Your pack (13): 1. Duress."]
    assert server.told == ["ann"]


def test_a_deck_list_kept_for_an_ignoring_user_stays_whole() -> None:
    async def scenario() -> IgnoringServer:
        server = IgnoringServer("cy")
        chat = server.scheduler
        chat.say(("user", "cy"), "2 Island\n1 Forest", raw=True)
        await chat.flush(timeout=5)
        chat.user_back("cy")
        await chat.flush(timeout=5)
        assert chat.held("cy") == ["2 Island\n1 Forest"]
        server.ignoring.clear()
        chat.user_back("cy")
        await chat.flush(timeout=5)
        return server

    assert asyncio.run(scenario()).to("cy") == [AWAY_PREFIX.strip(), "2 Island\n1 Forest"]


def test_a_callback_that_fails_does_not_lose_the_lines(caplog: Any) -> None:
    async def scenario() -> ChatScheduler:
        async def send(destination: tuple[str, object], message: str) -> None:
            raise InIgnoreList(16, None, command="Command_Message")

        def broken(user: str) -> None:
            raise RuntimeError("the game is gone")

        chat = ChatScheduler(send, lambda _d, _m: 0.0)
        chat.on_ignored = broken  # set after construction, as the bot may
        chat.say(("user", "dee"), "your pick")
        await chat.flush(timeout=5)
        chat.close()
        return chat

    with caplog.at_level(logging.ERROR):
        chat = asyncio.run(scenario())
    assert chat.held("dee") == ["your pick"]
    assert any("dee" in r.getMessage() for r in caplog.records if r.levelno == logging.ERROR)


def test_an_ignoring_user_who_goes_offline_is_still_one_episode() -> None:
    async def scenario() -> IgnoringServer:
        server = IgnoringServer("eve")
        chat = server.scheduler
        chat.say(("user", "eve"), "one")
        await chat.flush(timeout=5)
        server.offline.add("eve")
        chat.user_back("eve")
        await chat.flush(timeout=5)
        server.offline.clear()
        chat.user_back("eve")  # back online, still ignoring
        await chat.flush(timeout=5)
        assert chat.held("eve") == ["one"]
        return server

    server = asyncio.run(scenario())
    assert server.told == ["eve"] and server.tried("eve") == 3


@pytest.mark.servatrice
def test_a_real_server_refusing_for_an_ignore_list_keeps_the_line(
    servatrice_factory: Any, mariadb: Any
) -> None:
    """Against a SQL-mode Servatrice: a player whose ignore list holds the bot's account does not get the
    line (RespInIgnoreList), the bot is told once, and the line reaches the player when they take the bot
    off their list and are seen again."""
    mariadb.add_user("ignored_bot", "secret")
    mariadb.add_user("ann_ignores", "secret")
    server = servatrice_factory.start(sql_config(mariadb))
    pair = (
        "(SELECT id FROM cockatrice_users WHERE name = 'ann_ignores'),"
        " (SELECT id FROM cockatrice_users WHERE name = 'ignored_bot')"
    )

    async def scenario() -> tuple[list[str], list[str], list[str]]:
        options: dict[str, Any] = {"flood_limits": FloodLimits.unlimited(), "reconnect": False}
        async with (
            await connect(server.tcp_url, "ignored_bot", "secret", **options) as bot,
            await connect(server.tcp_url, "ann_ignores", "secret", **options) as ann,
        ):
            heard: list[str] = []

            async def listen(event: Any) -> None:
                if isinstance(event, ClientEvent) and event.name == "Event_UserMessage" and not event.is_own:
                    heard.append(str(event.message.message))  # type: ignore[attr-defined]

            ann.add_listener(listen)
            told: list[str] = []
            chat = client_scheduler(bot)
            chat.on_ignored = told.append
            mariadb.sql(f"INSERT INTO cockatrice_ignorelist (id_user1, id_user2) VALUES ({pair});")
            chat.say(("user", "ann_ignores"), "Your pack (15): 1. Shock.")
            await chat.flush(timeout=10)
            kept = chat.held("ann_ignores")
            mariadb.sql(f"DELETE FROM cockatrice_ignorelist WHERE (id_user1, id_user2) = ({pair});")
            chat.user_back("ann_ignores")
            await wait_until(lambda: heard, timeout=10, what="the kept line")
            chat.close()
            return kept, told, heard

    kept, told, heard = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert kept == ["Your pack (15): 1. Shock."] and told == ["ann_ignores"]
    assert heard == [AWAY_PREFIX + "Your pack (15): 1. Shock."]
