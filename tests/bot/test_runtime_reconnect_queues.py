"""A reconnect does not wait in the dispatcher for a game's queue.

``Bot._on_reconnected`` used to await each game's queue (``work.caught_up()``) in turn, in the client's
dispatcher, before re-reading the game: a game whose queue waited for the server's game-command budget (20
counted commands per 10 s, up to some 11 s) held every event of the session (room commands, private
messages, every other game's events and re-read) that long, once per such game. Now each game's re-read is
queued in the game's own queue where the reconnect stands (what it heard before is handled first), and the
dispatcher goes on.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from test_runtime import GAME, ROOM

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client import Disconnected, Reconnected
from cockatrice_ext.web.demo import REFEREE_NAME, demo_bot, seat_game

GUARD = 10.0
"""Seconds a step may take before the test calls it stuck (a liveness guard, not a measurement)."""


async def two_games(path: Path, done: list[str]) -> tuple[Bot, list[VortexReferee]]:
    """A stand-in bot refereeing two started Vortex games whose re-read after a reconnect is recorded."""

    async def send(destination: Any, message: str) -> None:
        return None

    bot = demo_bot(path, send)
    pool = load_block("vortex-pool", sections=None)
    referees = []
    for game_id in (GAME, GAME + 1):
        seat_game(bot, game_id, ["alice", "bob"])
        referee = VortexReferee(bot, game_id, ROOM, VortexOptions(seed=5), pool)
        bot.adopt_game(referee)
        await referee.start_engine()

        async def reread(game_id: int = game_id) -> None:
            done.append(f"re-read {game_id}")

        referee.on_reconnected = reread  # type: ignore[method-assign]
        referees.append(referee)
    return bot, referees


async def delivered(bot: Bot, event: Any) -> None:
    """The client's dispatcher hands ``event`` to the bot (stuck past :data:`GUARD`: the test fails)."""
    await asyncio.wait_for(bot.deliver(event), GUARD)


async def until(condition: Any, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GUARD
    while not condition():
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.01)


def test_a_game_waiting_for_the_budget_holds_up_neither_the_dispatcher_nor_another_games_reread(
    tmp_path: Path,
) -> None:
    """Game A's queue waits (for the game-command budget) when the connection comes back: the client's
    dispatcher is free at once, game B is re-read meanwhile, and A is re-read right after what it heard
    before the drop."""
    done: list[str] = []

    async def scenario() -> None:
        bot, (first, second) = await two_games(tmp_path / "journal.sqlite3", done)
        budget = asyncio.Event()

        async def waiting_for_the_budget() -> None:
            await budget.wait()
            done.append(f"heard before the drop {GAME}")

        await bot.deliver(Disconnected("lost", True))
        first.work.submit(waiting_for_the_budget)
        delivered = asyncio.create_task(
            bot.deliver(Reconnected(1, REFEREE_NAME, (ROOM,), (GAME, GAME + 1), ()))
        )
        await until(lambda: f"re-read {GAME + 1}" in done, "the other game re-read while the first waits")
        await until(delivered.done, "the dispatcher free while a game waits for the budget")
        assert first.rejoining and not second.rejoining
        budget.set()
        await until(lambda: f"re-read {GAME}" in done, "the waiting game re-read")
        assert done.index(f"heard before the drop {GAME}") < done.index(f"re-read {GAME}"), done
        assert not first.rejoining

    asyncio.run(scenario())


def test_a_reread_queued_before_another_drop_leaves_the_game_rejoining(tmp_path: Path) -> None:
    """The connection drops again while a game's re-read still waits in its queue: that re-read does not
    take the seats for the server's word (the next reconnect reads them)."""
    done: list[str] = []

    async def scenario() -> None:
        bot, (first, _) = await two_games(tmp_path / "journal.sqlite3", done)
        budget = asyncio.Event()
        first.work.submit(budget.wait)
        await delivered(bot, Disconnected("lost", True))
        await delivered(bot, Reconnected(1, REFEREE_NAME, (ROOM,), (GAME, GAME + 1), ()))
        await delivered(bot, Disconnected("lost again", True))
        budget.set()
        await first.work.caught_up()
        assert first.rejoining and f"re-read {GAME}" not in done, done
        await delivered(bot, Reconnected(2, REFEREE_NAME, (ROOM,), (GAME, GAME + 1), ()))
        await until(lambda: f"re-read {GAME}" in done, "the game re-read after the second reconnect")
        assert not first.rejoining

    asyncio.run(scenario())
