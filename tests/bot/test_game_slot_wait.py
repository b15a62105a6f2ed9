"""A game request at the server's game limit hears at once that its game opens when a slot is free, and
waits for that slot a bounded time.

Seen in a soak test (shipped settings, all 5 slots taken): ``!combat new`` waited 29.6 s with nothing said
for "game #96 is open"; the room then heard "game #83 closed to make room...". Closing the old game waits
for its last lines, the kicks and the leave, each behind the flood budgets of a busy referee. Now the
requester hears at once (one short line) and, if the slot does not come within ``SLOT_WAIT``, a refusal
saying so (the old game goes on closing). No server: a stand-in client whose server keeps a game limit, and
the runtime's real paths (``Bot.open_game``, ``make_room``, the referee's ``close_unjoined``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_runtime import ROOM

from cockatrice_ext.bot import game_slots as runtime  # SLOT_WAIT is patched
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.referee import GAME_REQUESTER
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client.errors import CommandFailed
from cockatrice_ext.client.mirror import GameMirror, PlayerState
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.web.demo import REFEREE_NAME, REFEREE_SEAT, StandInClient, demo_bot

Chat = list[tuple[Any, str]]


@dataclass
class LimitedClient(StandInClient):
    """A stand-in whose server lets the referee's account keep ``limit`` games: a game counts until the
    referee leaves it (nobody else sits in these). While ``left`` is not set, a leave waits (a busy
    referee's game command behind its flood budget)."""

    limit: int = 1
    rooms: dict[int, Any] = field(default_factory=dict)
    user_info: Any = field(default_factory=lambda: SimpleNamespace(user_level=0))
    next_id: int = 1
    left: asyncio.Event | None = None

    async def create_game(self, room_id: int, **_: Any) -> int:
        if len(self.games) >= self.limit:
            raise CommandFailed(pb.Response.RespContextError, command="Command_CreateGame")
        game_id, self.next_id = self.next_id, self.next_id + 1
        seats = {REFEREE_SEAT: PlayerState(REFEREE_SEAT, REFEREE_NAME)}
        self.games[game_id] = GameMirror(
            game_id=game_id, room_id=room_id, local_player_id=REFEREE_SEAT, players=seats
        )
        return game_id

    async def leave_game(self, game_id: int) -> None:
        if self.left is not None:
            await self.left.wait()
        self.games.pop(game_id, None)


async def a_bot_at_the_limit(path: Path, *, leave_waits: bool) -> tuple[Bot, Chat, int]:
    """A bot whose one slot holds hog's game, nobody joined; ``leave_waits``: leaving a game waits until the
    test lets it (``client.left``)."""
    chat: Chat = []

    async def send(destination: Any, message: str) -> None:
        chat.append((destination, message))

    bot = demo_bot(path, send)
    bot.options.unjoined_yield_after = 0.0  # an unjoined game may make room at once
    bot.client = LimitedClient(left=asyncio.Event() if leave_waits else None)
    bot.room_ids.append(ROOM)
    token = GAME_REQUESTER.set("hog")
    try:
        old = await open_vortex(bot)
    finally:
        GAME_REQUESTER.reset(token)
    return bot, chat, old


async def open_vortex(bot: Bot) -> int:
    """Open a game as a format does and referee it (players not seated yet)."""
    game_id = await bot.open_game(ROOM, description="Vortex", seats=2, type_hint="")
    bot.adopt_game(
        VortexReferee(bot, game_id, ROOM, VortexOptions(seed=5), load_block("vortex-pool", sections=None))
    )
    return game_id


async def victim_asks(bot: Bot, guard: float = 15.0) -> int | str:
    """victim asks for a game: its number, or the refusal's text; a request still waiting after ``guard``
    seconds fails the test."""
    token = GAME_REQUESTER.set("victim")
    try:
        asking = asyncio.ensure_future(open_vortex(bot))
        await asyncio.wait({asking}, timeout=guard)
        if not asking.done():
            asking.cancel()
            raise AssertionError(f"victim heard nothing for {guard:g} s: the request still waits for a slot")
        try:
            return asking.result()
        except NotAllowed as refusal:
            return str(refusal)
    finally:
        GAME_REQUESTER.reset(token)


AT_ONCE = "The referee is at the server's game limit: your new game opens as soon as a slot is free."


def test_the_requester_hears_at_once_and_gets_the_freed_slot(tmp_path: Path) -> None:
    """The old game closes quickly: victim hears first (privately: the room's lines merge into one message)
    that their game opens as soon as a slot is free, then the room hears the old game closed to make room,
    and victim has a game."""

    async def run() -> tuple[int | str, int, Chat]:
        bot, chat, old = await a_bot_at_the_limit(tmp_path / "journal.sqlite3", leave_waits=False)
        got = await victim_asks(bot)
        await bot.chat.flush(timeout=5)
        bot.chat.close()
        return got, old, chat

    got, old, chat = asyncio.run(run())
    assert isinstance(got, int) and got != old, got
    first = next((n for n, said in enumerate(chat) if said == (("user", "victim"), AT_ONCE)), None)
    assert first is not None, chat
    closed = next(
        n for n, (_, line) in enumerate(chat) if line.startswith(f"game #{old} closed to make room")
    )
    assert first < closed, chat


def test_a_slot_that_does_not_come_in_time_is_refused_with_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Leaving the old game waits (behind a busy referee's flood budget): victim hears at once, and after
    ``SLOT_WAIT`` (lowered here) a refusal that says the slot is not free yet. The old game goes on closing:
    once the leave goes through, the next request gets its slot."""
    monkeypatch.setattr(runtime, "SLOT_WAIT", 0.5, raising=False)

    async def run() -> tuple[int | str, Chat, int | str, int]:
        bot, chat, old = await a_bot_at_the_limit(tmp_path / "journal.sqlite3", leave_waits=True)
        refused = await victim_asks(bot)
        await bot.chat.flush(timeout=5)
        heard = list(chat)
        assert bot.client.left is not None
        bot.client.left.set()  # the leave goes through
        for _ in range(100):
            if old not in bot.client.games:
                break
            await asyncio.sleep(0.01)
        again = await victim_asks(bot)
        bot.chat.close()
        return refused, heard, again, old

    refused, heard, again, old = asyncio.run(run())
    assert isinstance(refused, str), refused
    assert refused.startswith(
        f"no new game: #{old} is closing to make room, but no slot was free after 1 second"
    ), refused
    assert refused.endswith("Ask again in a minute"), refused
    assert heard[0] == (("user", "victim"), AT_ONCE), heard
    assert isinstance(again, int) and again != old, again
