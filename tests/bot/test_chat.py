"""The fair chat scheduler: one budget, many conversations, nobody waits behind a spammer."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from bot_players import wait_until
from hypothesis import example, given, settings
from hypothesis import strategies as st
from servatrice import FloodLimits as ServerFloodLimits
from servatrice import ServatriceConfig, ServatriceFactory

from cockatrice_ext.bot.chat import (
    AWAY_PREFIX,
    FLOOD_RETRIES,
    HELD_MESSAGES,
    SEPARATOR,
    ChatScheduler,
    bidi_isolated,
    client_scheduler,
)
from cockatrice_ext.client import ClientEvent, connect
from cockatrice_ext.client.errors import ChatFlood, ConnectionLost, NameNotFound
from cockatrice_ext.client.flood import FloodGate, FloodLimits, chat_cost


class Budget:
    """A scheduler wired to a real FloodGate with Servatrice's shipped chat limits, on the loop's clock."""

    def __init__(self, limits: FloodLimits | None = None) -> None:
        self.gate = FloodGate(limits or FloodLimits(margin=0.0))
        self.sent: list[tuple[float, tuple[str, object], str]] = []
        self.scheduler = ChatScheduler(self.send, self.delay, limits=lambda: self.gate.limits)
        self.start = asyncio.get_running_loop().time()

    async def send(self, destination: tuple[str, object], message: str) -> None:
        now = asyncio.get_running_loop().time()
        assert self.gate.delay(chat_cost(message), now) == 0, "sent over the budget"
        self.gate.record(chat_cost(message), now)
        self.sent.append((now - self.start, destination, message))

    def delay(self, destination: tuple[str, object], message: str) -> float:
        return self.gate.delay(chat_cost(message), asyncio.get_running_loop().time())


def test_a_spammer_does_not_delay_another_conversation() -> None:
    async def scenario() -> tuple[float, float, list[tuple[float, tuple[str, object], str]]]:
        budget = Budget(FloodLimits(chat_interval=1.0, chat_messages=3, chat_chars=1000, margin=0.0))
        asked_at = 0.0
        for n in range(30):  # thirty refusals for one player in game 1, one every 20 ms
            budget.scheduler.say(("game", 1), f"Alice: bid {n} refused, the high bid is higher")
            if n == 10:
                asked_at = asyncio.get_running_loop().time() - budget.start
                budget.scheduler.say(("room", 7), "Room commands: !auction new | !games")
            await asyncio.sleep(0.02)
        await budget.scheduler.flush(timeout=10)
        room_at = next(at for at, dest, _ in budget.sent if dest == ("room", 7))
        return asked_at, room_at, budget.sent

    asked_at, room_at, sent = asyncio.run(scenario())
    between = [m for at, d, m in sent if asked_at <= at < room_at]
    assert between == [], f"game 1 was served before the room's waiting answer: {between}"
    game_lines = SEPARATOR.join(m for _, d, m in sent if d == ("game", 1)).split(SEPARATOR)
    assert len(game_lines) == 30 and game_lines[0].startswith("Alice: bid 0 ")
    assert len([1 for _, d, _ in sent if d == ("game", 1)]) < 10  # merged, not thirty messages


def test_merged_lines_keep_their_order_and_a_separator() -> None:
    async def scenario() -> list[str]:
        budget = Budget(FloodLimits(chat_interval=1.0, chat_messages=1, chat_chars=1000, margin=0.0))
        budget.scheduler.say(("game", 1), "first")
        budget.scheduler.say(("game", 1), "second")
        budget.scheduler.say(("game", 1), "third")
        await budget.scheduler.flush(timeout=5)
        return [m for _, _, m in budget.sent]

    messages = asyncio.run(scenario())
    assert SEPARATOR.join(messages).split(SEPARATOR) == ["first", "second", "third"]


def test_private_messages_may_be_longer_than_table_lines() -> None:
    """A private message goes whole up to a conversation's share of the budget (half: longer ones go in
    pieces, tests/bot/test_chat_budget.py); a table line is cut at 300 characters."""

    async def scenario() -> list[str]:
        budget = Budget()
        budget.scheduler.say(("user", "bob"), "x" * 450)
        budget.scheduler.say(("game", 2), "y" * 700)
        await budget.scheduler.flush(timeout=30)
        return [m for _, _, m in budget.sent]

    by_length = sorted(len(m) for m in asyncio.run(scenario()))
    assert by_length == [300, 450]


def test_a_raw_text_keeps_its_line_breaks_and_its_place_in_the_conversation() -> None:
    """A deck list to paste is one message of its own, after the line queued before it, never merged."""

    async def scenario() -> list[str]:
        budget = Budget(FloodLimits(chat_interval=1.0, chat_messages=1, chat_chars=1000, margin=0.0))
        budget.scheduler.say(("user", "bob"), "Your pool (2 cards):")
        budget.scheduler.say(("user", "bob"), "1 Shock\n1 Opt", raw=True)
        budget.scheduler.say(("user", "bob"), "Good luck")
        await budget.scheduler.flush(timeout=10)
        return [m for _, _, m in budget.sent]

    assert asyncio.run(scenario()) == ["Your pool (2 cards):", "1 Shock\n1 Opt", "Good luck"]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([("game", 1), ("game", 2), ("room", 0), ("user", "ann")]), st.text(max_size=80)
        ),
        max_size=25,
    )
)
@example([(("game", 1), "א"), (("game", 1), "bid 3 by אבי")])  # right-to-left words are isolated
def test_never_over_budget_and_nothing_lost(lines: list[tuple[tuple[str, object], str]]) -> None:
    async def scenario() -> list[tuple[float, tuple[str, object], str]]:
        budget = Budget(FloodLimits(chat_interval=0.2, chat_messages=2, chat_chars=400, margin=0.0))
        for destination, text in lines:
            budget.scheduler.say(destination, text)
        await budget.scheduler.flush(timeout=30)
        return budget.sent

    sent = asyncio.run(scenario())  # Budget.send asserts the gate allowed every message
    for destination in {d for d, _ in lines}:
        said = [" ".join(t.split()) for d, t in lines if d == destination]
        expected = [bidi_isolated(line) for line in said if line]  # right-to-left words kept in their place
        got = [m for _, d, m in sent if d == destination]
        assert SEPARATOR.join(got) == SEPARATOR.join(expected)


def test_the_operator_is_told_once_when_lines_wait_long_for_the_budget(caplog: Any) -> None:
    """Lines held back for seconds by the budget are logged once (with the remedy), not once per wait."""

    async def scenario() -> None:
        budget = Budget(FloodLimits(chat_interval=3.5, chat_messages=1, chat_chars=1000, margin=0.0))
        for n in range(3):
            budget.scheduler.say(("user", f"player{n}"), f"Your first cards, player {n}.")
        await budget.scheduler.flush(timeout=15)

    with caplog.at_level(logging.WARNING, logger="cockatrice_ext.bot.chat"):
        asyncio.run(scenario())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "--extra-user" in warnings[0], warnings


class StricterServer(Budget):
    """A server whose budget is smaller than the gate's: it refuses (as flood) the messages ``refuse``
    picks, and the gate is told, as the client tells it."""

    def __init__(self, refuse: Any) -> None:
        super().__init__(FloodLimits(chat_interval=0.2, chat_messages=5, chat_chars=1000, margin=0.0))
        self.refuse = refuse
        self.refused: list[str] = []

    async def send(self, destination: tuple[str, object], message: str) -> None:
        now = asyncio.get_running_loop().time()
        if self.refuse(message, self.refused):
            self.refused.append(message)
            self.gate.refused(chat_cost(message), now)
            raise ChatFlood(18, None, command="Command_RoomSay")
        await super().send(destination, message)


def test_a_message_the_server_refuses_as_flood_is_sent_again_in_its_place() -> None:
    """What a stricter server refused is delayed, not lost: it goes again, first in its conversation,
    after a quiet window; the other conversations carry on."""

    async def scenario() -> StricterServer:
        server = StricterServer(lambda message, refused: message == "second" and not refused)
        for text in ("first", "second"):
            server.scheduler.say(("room", 1), text, raw=True)  # raw: each its own message
        server.scheduler.say(("game", 2), "elsewhere")
        await asyncio.sleep(0.05)
        server.scheduler.say(("room", 1), "third", raw=True)
        await server.scheduler.flush(timeout=10)
        return server

    server = asyncio.run(scenario())
    assert server.refused == ["second"]
    assert [m for _, d, m in server.sent if d == ("room", 1)] == ["first", "second", "third"]
    assert [m for _, d, m in server.sent if d == ("game", 2)] == ["elsewhere"]
    assert server.gate.limits.chat_messages == 3  # three quarters of 5, rounded down


def test_a_message_refused_again_and_again_is_dropped_with_a_warning(caplog: Any) -> None:
    async def scenario() -> StricterServer:
        server = StricterServer(lambda message, refused: message == "never")
        server.scheduler.say(("user", "ann"), "never")
        server.scheduler.say(("user", "bob"), "fine")
        await server.scheduler.flush(timeout=20)
        return server

    with caplog.at_level(logging.WARNING, logger="cockatrice_ext.bot.chat"):
        server = asyncio.run(scenario())
    assert server.refused == ["never"] * (FLOOD_RETRIES + 1)
    assert [m for _, _, m in server.sent] == ["fine"]
    assert any("dropped" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


class ServerWithAbsentUsers(Budget):
    """Users in ``offline`` are not logged in: a private message to them is refused (RespNameNotFound)."""

    def __init__(self, *offline: str) -> None:
        super().__init__(FloodLimits(chat_interval=1.0, margin=0.0))  # a user's share: 5 messages a second
        self.offline = set(offline)
        self.tries: list[tuple[str, str]] = []
        self.in_flight: asyncio.Event | None = None  # set: a send waits for it before it is answered

    async def send(self, destination: tuple[str, object], message: str) -> None:
        kind, name = destination
        if kind == "user":
            self.tries.append((str(name), message))
        offline = kind == "user" and name in self.offline
        if self.in_flight is not None:
            await self.in_flight.wait()
        if offline:
            raise NameNotFound(6, None, command="Command_Message")
        await super().send(destination, message)

    def to(self, user: str) -> list[str]:
        return [m for _, d, m in self.sent if d == ("user", user)]


def test_a_private_message_to_an_offline_user_is_kept_until_they_are_back() -> None:
    """One try finds the user offline; what follows is kept without another try; when they are back it
    goes out in order, marked, a deck list whole; other conversations never wait for it."""

    async def scenario() -> ServerWithAbsentUsers:
        server = ServerWithAbsentUsers("ann", "cy")
        chat = server.scheduler
        chat.say(("user", "ann"), "Round 1: your game vs bob is #4.")
        chat.say(("user", "bob"), "Round 1: your game vs ann is #4.")
        await chat.flush(timeout=5)
        chat.say(("user", "ann"), "Game #4 was lost in a restart.")
        chat.say(("user", "ann"), "Your game vs bob is #7.")
        chat.say(("user", "ann"), "1 Island\n1 Forest", raw=True)
        await chat.flush(timeout=5)
        chat.say(("user", "cy"), "2 Island\n1 Forest", raw=True)  # cy is away with a deck list first
        await chat.flush(timeout=5)
        assert chat.held("ann") == [
            "Round 1: your game vs bob is #4."
            + SEPARATOR
            + "Game #4 was lost in a restart."
            + SEPARATOR
            + "Your game vs bob is #7.",
            "1 Island\n1 Forest",
        ]
        assert len(server.tries) == 3 and server.to("ann") == []  # ann tried once, bob once, cy once
        server.offline.clear()
        chat.user_back("ann")
        chat.user_back("bob")  # nothing kept for bob: nothing sent again
        chat.user_back("cy")
        await chat.flush(timeout=5)
        return server

    server = asyncio.run(scenario())
    assert server.to("ann") == [
        AWAY_PREFIX
        + "Round 1: your game vs bob is #4."
        + SEPARATOR
        + "Game #4 was lost in a restart."
        + SEPARATOR
        + "Your game vs bob is #7.",
        "1 Island\n1 Forest",
    ]
    assert server.to("bob") == ["Round 1: your game vs ann is #4."]
    assert server.to("cy") == [AWAY_PREFIX.strip(), "2 Island\n1 Forest"]  # the list still pastes as a deck
    assert server.scheduler.held("ann") == []


def test_only_the_latest_messages_are_kept_for_an_offline_user() -> None:
    async def scenario() -> ServerWithAbsentUsers:
        server = ServerWithAbsentUsers("ann")
        for n in range(HELD_MESSAGES + 3):
            server.scheduler.say(("user", "ann"), f"{n}\nIsland", raw=True)  # each a message of its own
            await server.scheduler.flush(timeout=5)
        server.offline.clear()
        server.scheduler.user_back("ann")
        await server.scheduler.flush(timeout=5)
        return server

    sent = asyncio.run(scenario()).to("ann")
    assert sent[0] == AWAY_PREFIX.strip()  # a deck list first: the mark goes alone, the list stays whole
    assert [m.split()[0] for m in sent[1:]] == [str(n) for n in range(3, HELD_MESSAGES + 3)]


def test_kept_messages_are_reported_as_they_change_and_can_be_given_back() -> None:
    """The owner hears of each change of a user's kept messages (to keep them across a restart), and a new
    scheduler given them back sends them, before what it kept itself, when the user is back."""

    async def scenario() -> tuple[list[tuple[str, list[tuple[str, bool]]]], ServerWithAbsentUsers]:
        recorded: list[tuple[str, list[tuple[str, bool]]]] = []
        first = ServerWithAbsentUsers("ann")
        first.scheduler = ChatScheduler(first.send, first.delay, on_held=lambda u, m: recorded.append((u, m)))
        first.scheduler.say(("user", "ann"), "Round 1: your game is #4.")
        await first.scheduler.flush(timeout=5)
        first.scheduler.say(("user", "ann"), "1 Island\n1 Forest", raw=True)
        kept = recorded[-1][1]

        second = ServerWithAbsentUsers("ann")
        second.scheduler.keep("ann", kept)
        second.scheduler.say(("user", "ann"), "Round 2: your game is #9.")
        second.offline.clear()
        second.scheduler.user_back("ann")
        await second.scheduler.flush(timeout=5)
        first.offline.clear()
        first.scheduler.user_back("ann")
        await first.scheduler.flush(timeout=5)
        return recorded, second

    recorded, second = asyncio.run(scenario())
    assert recorded == [
        ("ann", [("Round 1: your game is #4.", False)]),
        ("ann", [("Round 1: your game is #4.", False), ("1 Island\n1 Forest", True)]),
        ("ann", []),  # sent when ann was back
    ]
    assert second.to("ann") == [
        AWAY_PREFIX + "Round 1: your game is #4.",
        "1 Island\n1 Forest",
        "Round 2: your game is #9.",
    ]
    assert second.tries == [("ann", m) for m in second.to("ann")]  # nothing tried while she was away


def test_a_user_back_while_a_message_to_them_was_on_its_way_gets_it_again() -> None:
    """The refusal and the user's return cross: the message is sent again, not kept for a return that
    already happened."""

    async def scenario() -> ServerWithAbsentUsers:
        server = ServerWithAbsentUsers("ann")
        server.in_flight = asyncio.Event()
        server.scheduler.say(("user", "ann"), "your game is #4")
        await wait_until(lambda: server.tries, timeout=5)
        server.scheduler.user_back("ann")  # logged in while the server was answering "no such user"
        server.offline.clear()
        server.in_flight.set()
        await server.scheduler.flush(timeout=5)
        return server

    server = asyncio.run(scenario())
    assert server.to("ann") == ["your game is #4"]
    assert server.scheduler.held("ann") == []


@pytest.mark.servatrice
def test_on_a_server_stricter_than_the_shipped_limits_every_line_arrives(
    servatrice_factory: ServatriceFactory, caplog: Any
) -> None:
    """An administrator lowered the chat budget to 4 messages per window; the bot assumes the shipped 10.
    The server refuses the fifth message as flood; the client lowers its budget and says so in the log,
    and the bot's chat sends what was refused again: a player in the room reads all twelve lines, in
    order."""
    server = servatrice_factory.start(ServatriceConfig(flood=ServerFloodLimits(2, 4, 1000, 2, 20)))

    async def scenario() -> tuple[list[str], int]:
        async with (
            await connect(server.tcp_url, "strict_bot", flood_limits=FloodLimits(chat_interval=2)) as bot,
            await connect(server.tcp_url, "reader") as reader,
        ):
            heard: list[str] = []

            async def listen(event: Any) -> None:
                said = isinstance(event, ClientEvent) and event.name == "Event_RoomSay"
                if said and not event.is_replay and event.message.name == "strict_bot":  # type: ignore[attr-defined]
                    heard.append(event.message.message)  # type: ignore[attr-defined]

            reader.add_listener(listen)
            for client in (reader, bot):
                await client.join_room(0)
            chat = client_scheduler(bot)
            for n in range(12):
                chat.say(("room", 0), f"line {n:02d}", raw=True)
            await wait_until(lambda: len(heard) >= 12, timeout=60, what="twelve lines")
            chat.close()
            return heard, bot.flood.limits.chat_messages

    with caplog.at_level(logging.WARNING):
        heard, limit = asyncio.run(asyncio.wait_for(scenario(), 90))
    assert heard == [f"line {n:02d}" for n in range(12)]
    assert limit < 10
    assert any("refused" in r.getMessage() and "as flood" in r.getMessage() for r in caplog.records)


def test_a_user_given_back_what_was_kept_is_known_to_have_got_it_lately() -> None:
    async def scenario() -> None:
        sent: list[tuple[Any, str]] = []

        async def send(destination: Any, message: str) -> None:
            sent.append((destination, message))

        chat = ChatScheduler(send, lambda destination, message: 0.0)
        assert not chat.got_back_lately("lou")
        chat.keep("lou", [("Your pack (15): 1. Shock.", False)])
        chat.user_back("lou")
        assert chat.got_back_lately("lou") and not chat.got_back_lately("kim")
        assert not chat.got_back_lately("lou", within=0.0)
        chat.close()

    asyncio.run(scenario())


def test_an_answer_waiting_for_the_budget_is_rendered_as_it_leaves() -> None:
    """Seen in the field: a !state asked at 27.2 s left at 30.6 s saying "high bid 1 by amy; bob to bid",
    though bob, cal and amy had bid since (the lot's note said so). A callable line is rendered when its
    message is put together; one that renders nothing costs no message."""

    async def scenario() -> list[str]:
        budget = Budget(FloodLimits(chat_interval=1.0, chat_messages=1, chat_chars=1000, margin=0.0))
        high = {"bid": 1}
        budget.scheduler.say(("game", 1), "first line")  # spends the budget
        await asyncio.sleep(0.05)
        budget.scheduler.say(("game", 1), lambda: f"high bid {high['bid']}")
        budget.scheduler.say(("game", 1), "after it")
        budget.scheduler.say(("room", 2), lambda: "")
        await asyncio.sleep(0.1)
        high["bid"] = 3  # bids made while the answer waited
        await budget.scheduler.flush(timeout=10)
        return [message for _, _, message in budget.sent]

    assert asyncio.run(scenario()) == ["first line", f"high bid 3{SEPARATOR}after it"]


def test_a_line_rendered_for_a_user_who_went_offline_is_kept_as_text() -> None:
    async def scenario() -> list[str]:
        async def send(destination: tuple[str, object], message: str) -> None:
            raise NameNotFound(6, None, command="Command_Message")

        scheduler = ChatScheduler(send, lambda destination, message: 0.0)
        scheduler.say(("user", "kim"), "your pick")
        await scheduler.flush(timeout=2)
        scheduler.say(("user", "kim"), lambda: "your state now")
        return scheduler.held("kim")

    assert asyncio.run(scenario()) == [f"your pick{SEPARATOR}your state now"]


def test_a_line_still_waiting_for_its_destination_is_known() -> None:
    """Vortex's ``!pack`` says nothing while the same listing still waits for that user (seen in the field:
    the pack went out twice, from the answer and from the automatic listing)."""

    async def scenario() -> None:
        async def send(destination: tuple[str, object], message: str) -> None:
            raise AssertionError("nothing is sent: the budget is spent")

        chat = ChatScheduler(send, lambda destination, message: 3600.0)
        chat.say(("user", "ann"), "Your pack: 1. Shock. In game chat: !pick N or !pick NAME.")
        chat.say(("user", "ann"), lambda: "rendered later")
        assert chat.queued(("user", "ann"), "Your pack: 1. Shock.")  # the first listing says how to pick too
        assert not chat.queued(("user", "ann"), "Your pack: 1. Forest.")
        assert not chat.queued(("user", "ben"), "Your pack: 1. Shock.")
        chat.close()

    asyncio.run(scenario())


class DroppingLink(Budget):
    """A connection that drops while the first message to the room is on its way and comes back later."""

    def __init__(self) -> None:
        super().__init__()
        self.back = asyncio.Event()
        self.dropped: list[str] = []
        self.scheduler = ChatScheduler(
            self.send, self.delay, limits=lambda: self.gate.limits, reconnected=self.back.wait
        )

    async def send(self, destination: tuple[str, object], message: str) -> None:
        if not self.back.is_set():
            self.dropped.append(message)
            raise ConnectionLost("not connected")
        await super().send(destination, message)


def test_a_line_that_met_a_dropped_connection_goes_once_it_is_back() -> None:
    """Seen with the bot's laptop lid closed for 30 s: the bids it read on waking were journaled, but every
    answer ("bo bids 2.") met the dropped connection and was lost; the players never heard of them."""

    async def scenario() -> DroppingLink:
        link = DroppingLink()
        link.scheduler.say(("game", 1), "bo bids 2.", raw=True)
        link.scheduler.say(("room", 5), "Refereeing no game right now.")
        await wait_until(lambda: bool(link.dropped), what="the drop")
        await asyncio.sleep(0.05)
        assert link.sent == [] and len(link.dropped) == 1  # nothing goes while the connection is down
        link.back.set()
        await link.scheduler.flush(timeout=10)
        return link

    link = asyncio.run(scenario())
    assert sorted(m for _, _, m in link.sent) == ["Refereeing no game right now.", "bo bids 2."]
