"""Who goes first when the chat budget is short: a listing that waited long, and public lines.

Seen in the field (an event night: an 8-player AutoBattler league and a 6-player Market league on one
account, shipped limits): a pool asked for with ``!pool`` (a listing, queued after every short line) waited
up to 715 s while market packs and answers kept coming; and a room line ("AutoBattler league #1 starts")
waited 206 s behind fifteen private first views of about 800 characters each (the character budget lets
about one of them go per window).

These tests run on the simulated clock of :mod:`tests.bot.test_chat_budget`, with the shipped limits,
through :func:`client_scheduler` as the bot builds it.
"""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.bot.chat import LISTING_AGE, ChatScheduler, Tagged, client_scheduler
from tests.bot.test_chat_budget import ROUND_TRIP, WINDOW, FakeClient, now, run_simulated

Destination = tuple[str, object]

LISTING_BOUND = (LISTING_AGE + 1) * WINDOW
"""What the scheduler promises a listing alone among short lines: each of its messages leaves within this
of the one before (the first, of being said), plus the round trip of a message already on its way."""

POOL_HEADER = "Your pool (60 cards), to paste into the deck editor:"
POOL = [
    "\n".join(f"1 Sporeweb Weaver of the Long Name {n}" for n in range(part * 20, part * 20 + 20))
    for part in range(3)
]
"""A 60-card pool as the league cuts it: pieces of about 800 characters, each a raw listing line."""


def say_pool(chat: ChatScheduler, user: str) -> None:
    """What the league's ``send_pool`` queues: a header and the pieces, all listings."""
    chat.say(("user", user), Tagged(POOL_HEADER, bulk=True))
    for piece in POOL:
        chat.say(("user", user), Tagged(piece, bulk=True), raw=True)


async def pressure(chat: ChatScheduler, destination: Destination, every: float, until: float) -> None:
    """``destination`` gets a short line (about 150 characters) every ``every`` seconds until ``until``."""
    n = 0
    while now() < until:
        chat.say(destination, f"Line {n} for {destination[1]}: " + "packs and answers keep coming. " * 4)
        n += 1
        await asyncio.sleep(every)


def test_a_listing_under_continuous_short_line_pressure_arrives_within_the_bound() -> None:
    """Field: 715 s. Short lines for a room, two games and three players keep the budget spent; a pool
    asked for meanwhile goes before them once it has waited two windows, each message of it within the
    bound of the one before, and whole, in order."""

    async def scenario() -> tuple[FakeClient, float, float]:
        client = FakeClient()
        chat = client_scheduler(client)
        busy: list[Destination] = [("room", 1), ("game", 2), ("game", 3), ("user", "bob"), ("user", "cy")]
        busy.append(("user", "dee"))
        until = 400.0
        tasks = [asyncio.create_task(pressure(chat, d, 2.0 + n / 7, until)) for n, d in enumerate(busy)]
        await asyncio.sleep(30)
        asked = now()
        say_pool(chat, "ann")
        await asyncio.gather(*tasks)
        await chat.flush(timeout=3600)
        chat.close()
        return client, asked, until

    client, asked, until = run_simulated(scenario)
    listing = [(at, m) for at, d, m in client.sent if d == ("user", "ann")]
    assert [m for _, m in listing] == [POOL_HEADER, *POOL]
    previous = asked
    for at, message in listing:
        assert at - previous <= LISTING_BOUND + ROUND_TRIP, (at - previous, message[:30])
        previous = at
    assert previous < until, "delivered while the short lines kept coming"


def test_answers_wait_for_listings_at_most_a_window_while_several_pools_go() -> None:
    """Three players ask for their pools while a room and two games keep the budget spent: the pools go
    before the public lines once they have waited, yet a quiet player's answers said meanwhile wait at most
    a window for a listing message and a window for the budget."""

    async def scenario() -> tuple[FakeClient, list[float]]:
        client = FakeClient()
        chat = client_scheduler(client)
        busy: list[Destination] = [("room", 1), ("game", 2), ("game", 3)]
        tasks = [asyncio.create_task(pressure(chat, d, 1.5 + n / 7, 400)) for n, d in enumerate(busy)]
        await asyncio.sleep(30)
        for user in ("ann", "bob", "cy"):
            say_pool(chat, user)
        waits = []
        for n in range(15):
            await asyncio.sleep(9)
            text = f"Answer {n}: eve's pack has 5 cards."
            said = now()
            chat.say(("user", "eve"), text)
            while not any(text in m for _, d, m in client.tries if d == ("user", "eve")):
                await asyncio.sleep(0.01)
            waits.append(client.first_sent(("user", "eve"), text) - said)
        await asyncio.gather(*tasks)
        chat.close()
        return client, waits

    client, waits = run_simulated(scenario)
    for user in ("ann", "bob", "cy"):
        assert client.to(("user", user)) == [POOL_HEADER, *POOL], user
    assert max(waits) <= 2 * WINDOW + ROUND_TRIP, waits


def test_answers_said_after_a_listing_still_go_first_while_the_listing_is_young() -> None:
    """The listing's precedence begins only after it waited two windows: answers said after it, to the
    same player and to another, go before it."""

    async def scenario() -> list[tuple[Destination, str]]:
        client = FakeClient()
        chat = client_scheduler(client)
        say_pool(chat, "ann")
        chat.say(("user", "ann"), "Round 1/2: ann 0, bob 0.")
        chat.say(("user", "bob"), "Round 1/2: bob 0, ann 0.")
        await chat.flush(timeout=600)
        chat.close()
        return [(d, m) for _, d, m in client.sent]

    sent = run_simulated(scenario)
    assert sent[:2] == [
        (("user", "ann"), "Round 1/2: ann 0, bob 0."),
        (("user", "bob"), "Round 1/2: bob 0, ann 0."),
    ]
    assert [m for d, m in sent[2:]] == [POOL_HEADER, *POOL]


FIRST_VIEW = "Your shop: " + "; ".join(f"{n}. Card of the Long Name {n} (cost {n % 5})" for n in range(25))


def test_a_room_line_goes_within_the_first_messages_next_to_fifteen_long_private_ones() -> None:
    """Field: 206 s for a league's start line. Fifteen players each get a first view of about 800
    characters (about one per window fits the character budget); the room, which spoke lately, still
    goes next: public lines go first while they used less than a third of the budget lately."""
    users = [f"player{n:02d}" for n in range(15)]

    async def scenario() -> tuple[FakeClient, float]:
        client = FakeClient()
        chat = client_scheduler(client)
        chat.say(("room", 1), "ann joined AutoBattler league #1 (8 of 8).")
        await chat.flush(timeout=60)
        await asyncio.sleep(1)
        for user in users:
            chat.say(("user", user), FIRST_VIEW[:800])
        said = now()
        chat.say(("room", 1), "AutoBattler league #1 starts: 8 players, round 1 of 3.")
        for n, user in enumerate(users[:4]):
            await asyncio.sleep(3)
            chat.say(("room", 1), f"{user} is ready ({n + 1} of 8).")
        await chat.flush(timeout=3600)
        chat.close()
        return client, said

    client, said = run_simulated(scenario)
    after = [d for at, d, _ in client.tries if at >= said]
    start_line = client.first_sent(("room", 1), "league #1 starts")
    assert after.index(("room", 1)) <= 1, after[:5]
    assert start_line - said <= WINDOW + ROUND_TRIP
    for n, user in enumerate(users[:4]):
        assert (
            client.first_sent(("room", 1), f"{user} is ready") - (said + 3 * (n + 1)) <= WINDOW + ROUND_TRIP
        )
    assert all(len(client.to(("user", user))) == 1 for user in users), "every view arrived"


def test_a_room_spamming_lines_does_not_starve_a_private_answer_beyond_its_cap() -> None:
    """A room with a line every half second (more than the whole budget) goes first only while public
    lines used less than a third of the budget lately; a player's answers still go within two windows,
    and a player asking all the time gets at least half of the characters."""

    async def scenario() -> tuple[FakeClient, list[float], float]:
        client = FakeClient()
        chat = client_scheduler(client)
        room = asyncio.create_task(pressure(chat, ("room", 1), 0.5, 400))
        waits = []
        for n in range(20):
            await asyncio.sleep(7)
            text = f"Answer {n}: your pack has 5 cards, the market 12."
            said = now()
            chat.say(("user", "ann"), text)
            while not any(text in m for _, d, m in client.tries if d == ("user", "ann")):
                await asyncio.sleep(0.01)
            waits.append(client.first_sent(("user", "ann"), text) - said)
        spamming = now()  # both busy: the room and a player asking all the time
        await pressure(chat, ("user", "bob"), 0.5, spamming + 120)
        await room
        chat.close()
        return client, waits, spamming

    client, waits, spamming = run_simulated(scenario)
    assert max(waits) <= 2 * WINDOW + ROUND_TRIP, waits
    late = [(at, d, m) for at, d, m in client.sent if spamming + 10 <= at <= spamming + 120]
    bob = sum(len(m) for _, d, m in late if d == ("user", "bob"))
    room = sum(len(m) for _, d, m in late if d == ("room", 1))
    assert bob >= (bob + room) / 2, (bob, room)
    assert room > 0, "the room takes its fair turn too"


DESTINATIONS: list[Destination] = [("room", 1), ("game", 2), ("user", "ann"), ("user", "bob"), ("user", "cy")]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(DESTINATIONS),
            st.integers(0, 700),
            st.booleans(),
            st.floats(min_value=0, max_value=4),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_a_listing_passes_a_waiting_short_line_only_once_it_has_aged(
    lines: list[tuple[Destination, int, bool, float]],
) -> None:
    """Lines of any length, listings or not, said at any time: every line arrives, each destination's
    short lines and its listings each in the order said, and a listing's message never leaves while a short
    line said before it still waits, unless the listing has waited :data:`LISTING_AGE` windows."""

    async def scenario() -> tuple[FakeClient, list[float]]:
        client = FakeClient()
        chat = client_scheduler(client)
        said = []
        for n, (destination, length, bulk, pause) in enumerate(lines):
            said.append(now())
            chat.say(destination, f"<L{n}> " + "w" * length, bulk=bulk)
            await asyncio.sleep(pause)
        await chat.flush(timeout=3600)
        chat.close()
        return client, said

    client, said = run_simulated(scenario)
    aged = LISTING_AGE * WINDOW
    left = []
    for n, (destination, _, _, _) in enumerate(lines):
        left.append(next(at for at, d, m in client.sent if d == destination and f"<L{n}>" in m))
    for destination in DESTINATIONS:
        for bulk in (False, True):
            mine = [n for n, line in enumerate(lines) if line[0] == destination and line[2] == bulk]
            assert [left[n] for n in mine] == sorted(left[n] for n in mine), (destination, bulk)
    for at, destination, message in client.sent:
        carried = [n for n, line in enumerate(lines) if line[0] == destination and f"<L{n}>" in message]
        if not any(lines[n][2] for n in carried) or at - min(said[n] for n in carried) >= aged - 1e-6:
            continue  # not a listing, or one that has waited long enough (it leaves with its oldest line)
        passed = [k for k, line in enumerate(lines) if not line[2] and said[k] < at < left[k]]
        assert not passed, f"a listing left at {at:.2f} before short lines {passed}"
