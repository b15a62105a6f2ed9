"""The chat budget counts characters too: a player spamming long answers waits for their own share.

Seen in the field (smoke-hostile, defect 3): one user privately asking ``!help`` and the rules once a
second (answers of about 1,000 characters, a whole window's character budget) made another user's room
``!games`` wait 10-19 s; with three such users 41 s; and after they logged off, their answers were still
tried one by one, so the next user's first answer waited 33.9 s.

These tests run on a simulated clock (an event loop whose time jumps to its next timer), with the shipped
limits (10 messages and 1,000 characters per 10 s, plus the gate's 1 s margin), through
:func:`client_scheduler` as the bot builds it.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.bot.chat import HELD_MESSAGES, SEPARATOR, SHARE, ChatScheduler, client_scheduler
from cockatrice_ext.client.errors import NameNotFound
from cockatrice_ext.client.flood import Cost, FloodGate, FloodLimits, chat_cost, game_command_cost

T = TypeVar("T")
Destination = tuple[str, object]

WINDOW = FloodLimits().chat_interval + FloodLimits().margin
"""What the scheduler promises a conversation that used less of the budget lately than the others waiting:
its message leaves within one window (plus the round trip of a message already on its way)."""

ROUND_TRIP = 0.05
"""Seconds the fake server takes to answer a command (the scheduler sends one at a time)."""


class _SkipAheadSelector(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """A selector that never sleeps: when nothing is ready it moves the clock to the next timer."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[Any]:
        ready = super().select(0)
        if not ready:
            if timeout is None:
                raise RuntimeError("the scenario waits for something that never comes")
            self.now += timeout
        return ready


class SimulatedClockLoop(asyncio.SelectorEventLoop):
    """An event loop on a simulated clock: minutes of chat run in milliseconds, the same every time."""

    def __init__(self) -> None:
        self._clock = _SkipAheadSelector()
        super().__init__(self._clock)

    def time(self) -> float:
        return self._clock.now


def run_simulated(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    with asyncio.Runner(loop_factory=SimulatedClockLoop) as runner:
        return runner.run(scenario())


def now() -> float:
    return asyncio.get_running_loop().time()


class FakeClient:
    """What :func:`client_scheduler` sends through: a flood gate with the shipped limits that must allow
    every message, and a server that refuses a private message to a user who is not logged in."""

    def __init__(self) -> None:
        self.flood = FloodGate()
        self.offline: set[str] = set()
        self.tries: list[tuple[float, Destination, str]] = []  # everything handed to the server
        self.sent: list[tuple[float, Destination, str]] = []  # what arrived

    async def room_say(self, room_id: int, message: str) -> None:
        await self._say(("room", room_id), message, chat_cost(message))

    async def game_say(self, game_id: int, message: str) -> None:
        await self._say(("game", game_id), message, game_command_cost("Command_GameSay", message=message))

    async def send_message(self, user: str, message: str) -> None:
        await self._say(("user", user), message, chat_cost(message))

    async def _say(self, destination: Destination, message: str, cost: Cost) -> None:
        at = now()
        assert self.flood.delay(cost, at) == 0, f"sent over the budget: {message[:40]!r}"
        self.flood.record(cost, at)  # the server counts a message to a user who is not there too
        self.tries.append((at, destination, message))
        await asyncio.sleep(ROUND_TRIP)
        if destination[0] == "user" and destination[1] in self.offline:
            raise NameNotFound(6, None, command="Command_Message")
        self.sent.append((at, destination, message))

    def first_sent(self, destination: Destination, text: str) -> float:
        """When the message carrying ``text`` was handed to the server."""
        return next(at for at, d, m in self.tries if d == destination and text in m)

    def to(self, destination: Destination) -> list[str]:
        return [m for _, d, m in self.sent if d == destination]


def long_answer(n: int) -> str:
    """About 1,000 characters, like the bot's private ``!help`` or ``!auction rules``."""
    rules = " ".join(f"Rule {k}: the highest bid takes the lot, and its gold is spent." for k in range(15))
    return f"Answer {n}. {rules}"[:985]


async def spam(chat: ChatScheduler, user: str, until: float) -> None:
    """``user`` asks for a long answer once a second."""
    n = 0
    while now() < until:
        chat.say(("user", user), long_answer(n))
        n += 1
        await asyncio.sleep(1.0)


async def room_answers(chat: ChatScheduler, client: FakeClient, at: list[float]) -> list[float]:
    """Another user asks ``!games`` in the room at each time in ``at``: how long each answer waited."""
    waits = []
    for when in at:
        await asyncio.sleep(when - now())
        text = f"Refereeing: #5 auction: waiting for players (0 seated). [{when:g}]"
        chat.say(("room", 1), text)
        while not any(text in m for _, d, m in client.tries if d == ("room", 1)):
            await asyncio.sleep(0.01)
        waits.append(client.first_sent(("room", 1), text) - when)
    return waits


def share_of_window(sent: list[tuple[float, Destination, str]], destination: Destination) -> tuple[int, int]:
    """The most bytes and messages ``destination`` had in any window of the gate's length."""
    times = [(at, len(m.encode())) for at, d, m in sent if d == destination]
    most_bytes = most_messages = 0
    for start, _ in times:
        inside = [size for at, size in times if start <= at < start + WINDOW]
        most_bytes, most_messages = max(most_bytes, sum(inside)), max(most_messages, len(inside))
    return most_bytes, most_messages


def test_one_player_spamming_long_answers_never_delays_another_answer() -> None:
    """Field: 10-19 s. A private conversation takes at most half of each budget, so the room's answer
    goes at once (within the round trip of a message already on its way)."""

    async def scenario() -> list[float]:
        client = FakeClient()
        chat = client_scheduler(client)
        spammer = asyncio.create_task(spam(chat, "spam0", until=60))
        waits = await room_answers(chat, client, at=[15, 25, 35, 45, 55])
        await spammer
        chat.close()
        return waits

    waits = run_simulated(scenario)
    assert max(waits) <= ROUND_TRIP + 1e-3, waits


def test_three_spammers_delay_a_quiet_conversation_at_most_one_window() -> None:
    """Field: up to 41 s. The room used less of the budget lately than the spammers: it goes first, and
    nobody passes it while it waits for the budget (their use and its fall alike): at most one window."""

    async def scenario() -> list[float]:
        client = FakeClient()
        chat = client_scheduler(client)
        spammers = [asyncio.create_task(spam(chat, f"spam{n}", until=70)) for n in range(3)]
        waits = await room_answers(chat, client, at=[15, 29, 43, 57])
        await asyncio.gather(*spammers)
        chat.close()
        return waits

    waits = run_simulated(scenario)
    assert max(waits) <= WINDOW + ROUND_TRIP, waits


def test_a_private_conversation_keeps_to_its_share_and_loses_nothing() -> None:
    """A spammer's answers go in pieces of at most its share of the character budget and of the messages
    per window, cut at sentences, every word arriving, in order."""

    async def scenario() -> tuple[FakeClient, int]:
        client = FakeClient()
        chat = client_scheduler(client)
        await spam(chat, "spam0", until=8)
        await chat.flush(timeout=600)
        chat.close()
        return client, 8

    client, asked = run_simulated(scenario)
    limits = FloodLimits()
    most_bytes, most_messages = share_of_window(client.sent, ("user", "spam0"))
    assert most_bytes <= int(limits.chat_chars * SHARE) and most_messages <= int(limits.chat_messages * SHARE)
    received = " ".join(client.to(("user", "spam0"))).split()
    assert [word for word in received if word != SEPARATOR.strip()] == " ".join(
        long_answer(n) for n in range(asked)
    ).split()
    assert all(m.endswith(".") for m in client.to(("user", "spam0"))), "cut at a sentence's end"


def test_a_long_deck_list_goes_in_pieces_cut_at_line_breaks() -> None:
    """A raw text longer than a conversation's share is not cut mid-line: each piece is whole lines."""
    deck = "\n".join(f"1 Card Number {n:03d} of the Pool" for n in range(31))  # about 990 characters

    async def scenario() -> list[str]:
        client = FakeClient()
        chat = client_scheduler(client)
        chat.say(("user", "ann"), deck, raw=True)
        await chat.flush(timeout=60)
        chat.close()
        return client.to(("user", "ann"))

    pieces = run_simulated(scenario)
    share = int(FloodLimits().chat_chars * SHARE)
    assert len(pieces) == 2 and all(len(p.encode()) <= share for p in pieces)
    assert "\n".join(pieces) == deck


def test_answers_to_spammers_who_logged_off_do_not_hold_up_the_next_answer() -> None:
    """Field: after three spammers logged off, their answers were tried one by one (a whole budget each)
    and the next user's first answer waited 33.9 s. Each is tried once at most; what waited for them is
    kept at once, and the next answer waits at most one window."""

    async def scenario() -> tuple[FakeClient, list[float], float, ChatScheduler]:
        client = FakeClient()
        chat = client_scheduler(client)
        users = [f"spam{n}" for n in range(3)]
        spammers = [asyncio.create_task(spam(chat, user, until=30)) for user in users]
        await room_answers(chat, client, at=[10])  # the room is answered during the spam, as in the field
        await asyncio.gather(*spammers)
        client.offline.update(users)  # they log off with answers still waiting
        left_at = now()
        waits = await room_answers(chat, client, at=[left_at + 1])
        await chat.flush(timeout=120)
        chat.close()
        return client, waits, left_at, chat

    client, waits, left_at, chat = run_simulated(scenario)
    assert waits[0] <= WINDOW + ROUND_TRIP, waits
    for n in range(3):
        tried = [m for at, d, m in client.tries if d == ("user", f"spam{n}") and at >= left_at]
        assert len(tried) <= 1, f"spam{n} was tried {len(tried)} times after logging off"
        assert len(chat.held(f"spam{n}")) == HELD_MESSAGES


def test_a_user_the_server_says_left_is_not_tried_and_gets_the_latest_when_back() -> None:
    """The bot hears a user log off (``Event_UserLeft``): what waits for them is kept at once, without a
    single try, and so is what is said to them later; when they are back the latest go out."""

    async def scenario() -> tuple[FakeClient, list[str]]:
        client = FakeClient()
        chat = client_scheduler(client)
        await spam(chat, "spam0", until=10)
        client.offline.add("spam0")
        chat.user_left("spam0")
        chat.say(("user", "spam0"), "Round 2: your game is #9.")
        tries_before = len(client.tries)
        await asyncio.sleep(60)
        assert len(client.tries) == tries_before, "nothing is tried for a user who left"
        held = chat.held("spam0")
        client.offline.clear()
        chat.user_back("spam0")
        await chat.flush(timeout=600)
        chat.close()
        return client, held

    client, held = run_simulated(scenario)
    assert len(held) == HELD_MESSAGES and held[-1].endswith("Round 2: your game is #9.")
    assert client.to(("user", "spam0"))[-1].endswith("Round 2: your game is #9.")


DESTINATIONS: list[Destination] = [("room", 1), ("game", 2), ("user", "ann"), ("user", "bob")]
ALPHABET = st.sampled_from("ab .|\né€")
TEXTS = st.one_of(
    st.text(alphabet=ALPHABET, max_size=80),
    st.tuples(st.text(alphabet=ALPHABET, min_size=1, max_size=40), st.integers(1, 40)).map(
        lambda repeated: repeated[0] * repeated[1]  # up to 1,600 characters, up to 4,800 bytes
    ),
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(DESTINATIONS),
            TEXTS,
            st.booleans(),
            st.floats(min_value=0, max_value=3),
        ),
        max_size=20,
    )
)
def test_never_over_budget_within_shares_and_nothing_lost(
    lines: list[tuple[Destination, str, bool, float]],
) -> None:
    """Lines of any length (multi-byte characters too), raw or not, said at any time: the gate allows every
    message (FakeClient checks), no private conversation exceeds its share in any window, and each
    destination's words arrive in order (a plain line cut only between words)."""

    async def scenario() -> FakeClient:
        client = FakeClient()
        chat = client_scheduler(client)
        for destination, text, raw, pause in lines:
            chat.say(destination, text, raw=raw)
            await asyncio.sleep(pause)
        await chat.flush(timeout=3600)
        chat.close()
        return client

    client = run_simulated(scenario)

    async def unused(destination: Destination, message: str) -> None:
        raise AssertionError("only its limits are asked")

    fit = ChatScheduler(unused, lambda destination, message: 0.0)._fit
    for destination in DESTINATIONS:
        said = "".join(fit(destination, text, raw) for d, text, raw, _ in lines if d == destination)
        arrived = "".join(client.to(destination))
        assert "".join(arrived.split()).replace("|", "") == "".join(said.split()).replace("|", "")
        if destination[0] == "user":
            most_bytes, most_messages = share_of_window(client.sent, destination)
            assert most_bytes <= int(1000 * SHARE) and most_messages <= int(10 * SHARE)
