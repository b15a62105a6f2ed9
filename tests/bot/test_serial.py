"""One game's work in its own queue (:mod:`cockatrice_ext.bot.serial`), and the bot handing each refereed
game's events to it (:meth:`Bot.deliver`): a game that waits holds up no other game, and a game's own events
keep their order."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.bot.serial import SerialWork
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.journal import Journal
from cockatrice_ext.protocol.pb import game_events_pb2


def test_jobs_run_in_order_and_a_failure_does_not_stop_the_rest(caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> list[str]:
        work = SerialWork("game 1")
        seen: list[str] = []

        async def job(name: str) -> None:
            await asyncio.sleep(0)
            seen.append(name)
            if name == "b":
                raise RuntimeError("a fault in b")

        done = [work.submit(lambda name=name: job(name)) for name in "abc"]
        await asyncio.gather(*done)
        return seen

    with caplog.at_level(logging.ERROR):
        assert asyncio.run(run()) == ["a", "b", "c"]
    assert "game 1: a job failed" in caplog.text


def test_caught_up_waits_for_the_jobs_before_it_only() -> None:
    async def run() -> list[str]:
        work = SerialWork("game 1")
        gate = asyncio.Event()
        seen: list[str] = []

        async def first() -> None:
            await gate.wait()
            seen.append("first")

        work.submit(first)
        waiter = asyncio.ensure_future(work.caught_up())
        await asyncio.sleep(0.01)
        seen.append("caught up yet" if waiter.done() else "still waiting")
        work.submit(lambda: asyncio.sleep(3600))  # submitted after the call: not waited for
        gate.set()
        await asyncio.wait_for(waiter, 5)
        seen.append("caught up")
        work.close()
        return seen

    assert asyncio.run(run()) == ["still waiting", "first", "caught up"]


def test_caught_up_from_a_job_of_the_same_queue_returns_at_once() -> None:
    async def run() -> str:
        work = SerialWork("game 1")

        async def job() -> None:
            work.submit(lambda: asyncio.sleep(0))
            await asyncio.wait_for(work.caught_up(), 1)

        await asyncio.wait_for(work.submit(job), 5)
        return "returned"

    assert asyncio.run(run()) == "returned"


def test_a_job_cancelled_by_what_it_awaited_does_not_stop_the_queue() -> None:
    async def run() -> list[str]:
        work = SerialWork("game 1")
        seen: list[str] = []

        async def cancelled_inside() -> None:
            inner = asyncio.ensure_future(asyncio.sleep(3600))
            inner.cancel()
            await inner

        work.submit(cancelled_inside)
        await asyncio.wait_for(work.submit(lambda: asyncio.sleep(0, result=seen.append("next"))), 5)
        return seen

    assert asyncio.run(run()) == ["next"]


def test_close_cancels_the_running_job_and_drops_the_rest() -> None:
    async def run() -> tuple[bool, bool, bool]:
        work = SerialWork("game 1")
        running = work.submit(lambda: asyncio.sleep(3600))
        waiting = work.submit(lambda: asyncio.sleep(0))
        await asyncio.sleep(0.01)
        work.close()
        later = work.submit(lambda: asyncio.sleep(0))
        await asyncio.sleep(0.01)
        return running.cancelled(), waiting.cancelled(), later.cancelled()

    assert asyncio.run(run()) == (True, True, True)


class FakeGame:
    """A refereed game as the bot's routing sees it: its events are recorded; one kind can be held."""

    closed = False
    table_key = "t"
    takes_private_commands = True
    commands = SimpleNamespace(find=lambda name, scope: name == "pick" and scope == "private")

    def __init__(self, game_id: int, seen: list[str], hold: asyncio.Event | None = None) -> None:
        self.game_id = game_id
        self.seen = seen
        self.hold = hold
        self.work = SerialWork(f"game {game_id}")

    async def on_event(self, event: Any) -> None:
        text = str(getattr(event.message, "message", ""))
        if self.hold is not None and text == "wait":
            await self.hold.wait()  # as a game waiting for the server's command budget
        self.seen.append(f"{self.game_id}:{text}")

    def private_seat(self, sender: str) -> int | None:
        return 1 if sender == "al" else None

    async def on_private_command(self, sender: str, text: str) -> None:
        self.seen.append(f"{self.game_id}:private {text}")

    def views_changed(self) -> None:
        pass


def say(game_id: int, text: str) -> ClientEvent:
    return ClientEvent(kind="game", message=game_events_pb2.Event_GameSay(message=text), game_id=game_id)


def test_a_waiting_game_holds_up_no_other_game_and_keeps_its_own_order() -> None:
    """Game 5 waits (as for the command budget) on its first event; game 6's event, delivered after, is
    handled meanwhile, and game 5's second event and a private command for it (``!pick 1 #5``: the caller is
    not held either) wait their turn in game 5."""

    async def run() -> tuple[list[str], list[str]]:
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=Journal(":memory:"))
        seen: list[str] = []
        hold = asyncio.Event()
        bot.games[5] = FakeGame(5, seen, hold)  # type: ignore[assignment]
        bot.games[6] = FakeGame(6, seen)  # type: ignore[assignment]
        await asyncio.wait_for(bot.deliver(say(5, "wait")), 1)
        await asyncio.wait_for(bot.deliver(say(5, "after")), 1)
        await asyncio.wait_for(bot.deliver(say(6, "bid")), 1)
        assert await asyncio.wait_for(bot.answer_for_game("al", "!pick 1 #5", "pick"), 1)
        await asyncio.wait_for(bot.games[6].work.caught_up(), 1)
        while_held = list(seen)
        hold.set()
        await asyncio.wait_for(bot.games[5].work.caught_up(), 1)
        return while_held, seen

    while_held, after = asyncio.run(run())
    assert while_held == ["6:bid"]
    assert after == ["6:bid", "5:wait", "5:after", "5:private !pick 1"]
