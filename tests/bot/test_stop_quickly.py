"""A stop (SIGTERM, Ctrl-C) waits once, briefly, for the lines still to send, and not at all while the bot
reconnects.

Seen in a soak test: a SIGTERM took 7-12 s. ``Bot.say_stopping`` and ``Bot.close`` each waited up to
``STOP_WAIT`` for chat, one after the other; with the server down the client went on reconnecting all the
while, though nothing could be said. Now the whole stop has one wait (the lines telling each game what
becomes of it go first), and a session that is reconnecting is not waited for.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceServer
from test_runtime import GAME, ROOM

from cockatrice_ext.bot.auction import AuctionOptions
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client import Disconnected
from cockatrice_ext.web.demo import StandInClient, demo_bot, seat_game

BLOCK = "2 Grizzly Bears\n2 Chimney Imp\n1 Pacifism\n1 Lightning Bolt\n1 Giant Growth\n1 Serra Angel\n"


@dataclass
class ClosableClient(StandInClient):
    """The stand-in client, closable like a real one, whose connection may be down (reconnecting)."""

    connected: bool = True
    closed: bool = False

    async def close(self) -> None:
        self.closed = True


async def refereeing(path: Path, *, budget_spent: bool) -> tuple[Bot, list[tuple[Any, str]]]:
    """A stand-in bot refereeing two started Vortex games; ``budget_spent``: its chat budget has no room
    for a line (a busy referee: every line waits)."""
    sent: list[tuple[Any, str]] = []

    async def send(destination: Any, message: str) -> None:
        sent.append((destination, message))

    bot = demo_bot(path, send)
    pool = load_block("vortex-pool", sections=None)
    for game_id in (GAME, GAME + 1):
        seat_game(bot, game_id, ["alice", "bob"])
        referee = VortexReferee(bot, game_id, ROOM, VortexOptions(seed=5), pool)
        bot.adopt_game(referee)
        await referee.start_engine()
    await bot.chat.flush(timeout=5)
    sent.clear()
    if budget_spent:
        bot.chat = ChatScheduler(send, lambda _destination, _message: 3600.0)
    bot.client = ClosableClient(games=bot.client.games)
    return bot, sent


def waits_of_flushes(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record, for every wait for chat to go out, until when (the loop's time) it is prepared to wait."""
    until: list[float] = []
    flush = ChatScheduler.flush

    async def recorded(self: ChatScheduler, destination: Any = None, *, timeout: float = 60.0) -> None:
        until.append(asyncio.get_running_loop().time() + timeout)
        await flush(self, destination, timeout=timeout)

    monkeypatch.setattr(ChatScheduler, "flush", recorded)
    return until


def serve_and_stop(bot: Bot, guard: float = 60.0) -> list[str]:
    """Run the bot (its start skipped), stop it as SIGTERM does; the operator's lines."""
    told: list[str] = []

    async def run() -> None:
        serving = asyncio.create_task(bot.run_forever(on_stop=told.append))
        await asyncio.sleep(0)
        bot.stop()
        await asyncio.wait({serving}, timeout=guard)
        if not serving.done():
            while not serving.done():  # each cancel ends one wait of the old stop
                serving.cancel()
                await asyncio.wait({serving}, timeout=0.1)
            raise AssertionError(f"the stop did not end within {guard:g} s")
        serving.result()

    asyncio.run(run())
    return told


def test_a_stop_waits_once_for_the_lines_it_cannot_send(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy referee (its chat budget spent) is stopped: the lines telling each game it stops wait, and the
    stop waits for them once (``say_stopping`` and ``close`` used to wait ``STOP_WAIT`` each, one after the
    other); the games' lines were queued all the same and the operator hears both lines."""
    stop_wait = 0.4
    monkeypatch.setattr(Bot, "STOP_WAIT", stop_wait)
    monkeypatch.setattr(Bot, "start", lambda self: asyncio.sleep(0))
    until = waits_of_flushes(monkeypatch)
    queued: list[str] = []

    async def build() -> Bot:
        bot, _ = await refereeing(tmp_path / "journal.sqlite3", budget_spent=True)
        say = bot.chat.say

        def keep(destination: Any, text: Any, **options: Any) -> None:
            queued.append(f"{destination[0]} {destination[1]}: {text}")
            say(destination, text, **options)

        bot.chat.say = keep  # type: ignore[method-assign]
        return bot

    bot = asyncio.run(build())
    until.clear()  # the stop's waits only
    told = serve_and_stop(bot)
    assert told[0].startswith("stopping: 2 refereed game(s) kept in the journal") and told[-1] == "stopped"
    for game_id in (GAME, GAME + 1):
        assert any(line.startswith(f"game {game_id}: The referee is stopping") for line in queued), queued
    assert until, "the stop never waited for its lines"
    assert max(until) - min(until) < stop_wait / 2, f"the stop waited {len(until)} times, one after the other"
    assert bot.client.closed


def test_a_stop_while_reconnecting_does_not_wait_for_chat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server is down and the client reconnecting, with lines waiting for the chat budget: nothing can
    be said, so the stop closes the client at once (with an hour's ``STOP_WAIT`` it used to wait two
    hours), and the operator still hears how many games the journal keeps."""
    monkeypatch.setattr(Bot, "STOP_WAIT", 3600.0)
    monkeypatch.setattr(Bot, "start", lambda self: asyncio.sleep(0))

    async def build() -> Bot:
        bot, _ = await refereeing(tmp_path / "journal.sqlite3", budget_spent=True)
        await bot.room_say(ROOM, "a line still waiting for the chat budget")
        bot.client.connected = False  # the connection dropped: the client is reconnecting
        return bot

    bot = asyncio.run(build())
    told = serve_and_stop(bot, guard=30.0)
    assert told[0].startswith("stopping: 2 refereed game(s) kept in the journal") and told[-1] == "stopped"
    assert bot.client.closed


@pytest.mark.servatrice
def test_a_sigterm_while_the_server_is_down_stops_the_reconnecting_at_once(
    servatrice_factory: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A real Servatrice and the client's shipped flood budget: the referee has a game open and room lines
    waiting for the budget; the server goes down and the client retries every 0.1 s. A stop then ends the
    retrying at once (it went on for the two chat waits, 6 s, some 60 attempts)."""
    server: ServatriceServer = servatrice_factory.start()
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    options = BotOptions(
        url=server.ws_url,
        user="stopper_sq",
        rooms=("Bot room",),
        journal_path=tmp_path / "journal.sqlite3",
        formats=("auction",),
        format_options={"auction": AuctionOptions(block=str(block), seed=7)},
        client_options={"reconnect_delays": lambda: itertools.repeat(0.1)},
    )
    attempt = re.compile(r"reconnect attempt \d+ failed")

    async def run() -> tuple[int, list[str]]:
        bot = Bot(options)
        told: list[str] = []
        serving = asyncio.create_task(bot.run_forever(on_stop=told.append))
        assert await bot.until_ready(30)
        alice = await Player.connect(server.ws_url, "alice_sq")
        room_id = await alice.client.room_id_by_name("Bot room")
        await alice.client.join_room(room_id)
        await alice.client.room_say(room_id, "!auction new 2")
        await alice.wait_line(lambda t: "Auction Magic game #" in t, timeout=20)
        await alice.close()
        for n in range(40):  # the room's chat budget spent: these wait
            await bot.room_say(room_id, f"line {n} " + "x" * 150)
        down = asyncio.Event()

        async def on_event(event: Any) -> None:
            if isinstance(event, Disconnected):
                down.set()

        bot.client.add_listener(on_event)
        filled = bot.chat.waiting()[1]
        await wait_until(lambda: bot.chat.waiting()[1] < filled, timeout=10, what="the first lines sent")
        await asyncio.sleep(1.0)  # what the budget lets through is sent
        assert bot.chat.waiting()[0] == 1  # the rest waits for the budget
        server.stop()
        await asyncio.wait_for(down.wait(), 20)
        await wait_until(
            lambda: any(attempt.search(r.getMessage()) for r in caplog.records), timeout=20, what="a retry"
        )
        assert bot.chat.waiting()[0] == 1  # still waiting
        stopped_at = len(caplog.records)
        bot.stop()
        await asyncio.wait_for(serving, 30)
        retries = sum(1 for r in caplog.records[stopped_at:] if attempt.search(r.getMessage()))
        return retries, told

    with caplog.at_level(logging.INFO, logger="cockatrice_ext"):
        retries, told = asyncio.run(run())
    assert told[-1] == "stopped"
    assert retries <= 1, f"{retries} reconnect attempts after the stop"
