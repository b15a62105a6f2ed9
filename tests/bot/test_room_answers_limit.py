"""The game limit refusal is worded as it leaves the chat queue, not when the command arrived.

Seen in the field (shipped Servatrice limits, one bot account, 7 players asking for 7 games 1.5 s apart): the
connection's chat budget was full for about a minute and room answers came 9.5-57 s late. The refusal
"... #3, #4, #5 wait with nobody joined ...; #1, #2 are being played ..." was worded when the command arrived
and read ~50 s later, when #3-#5 had started: false when read. Now the refusal is drawn as it leaves: which
games hold the slots then, "ask again in" counted from then, and, when a slot has freed since, that it has.
No server: the runtime's real paths (``answer_room_command``, ``Bot.open_game``, the chat scheduler) over a
stand-in client whose server keeps a game limit.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from test_game_slot_wait import LimitedClient, open_vortex, victim_asks
from test_runtime import ROOM

from cockatrice_ext.bot import game_slots
from cockatrice_ext.bot.referee import GAME_REQUESTER, Context
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.vortex import VortexRoom
from cockatrice_ext.web.demo import demo_bot

Chat = list[tuple[Any, str]]


class HeldChat:
    """The connection's chat budget, full while ``held``: lines wait in the queue, as in a busy room."""

    def __init__(self) -> None:
        self.held = True
        self.sent: Chat = []

    async def send(self, destination: Any, message: str) -> None:
        self.sent.append((destination, message))

    def delay(self, _destination: Any, _message: str) -> float:
        return 0.05 if self.held else 0.0


async def a_full_bot(path: Path, chat: HeldChat, *requesters: str, **options: Any) -> tuple[Bot, list[int]]:
    """A bot whose slots (one per requester) hold a game each, nobody joined, asked for by ``requesters``."""
    bot = demo_bot(path, chat.send)
    bot.chat = type(bot.chat)(chat.send, chat.delay)
    for name, value in {"unjoined_yield_after": 3600.0, **options}.items():
        setattr(bot.options, name, value)
    bot.client = LimitedClient(limit=len(requesters))
    bot.room_ids.append(ROOM)
    await VortexRoom.install(bot)
    games = []
    for requester in requesters:
        token = GAME_REQUESTER.set(requester)
        try:
            games.append(await open_vortex(bot))
        finally:
            GAME_REQUESTER.reset(token)
    return bot, games


async def asks_in_the_room(bot: Bot, sender: str) -> None:
    """``sender`` says ``!vortex new 2`` in the room; the answer is queued (the budget is full)."""
    await bot.answer_room_command(Context(bot, "room", sender, room_id=ROOM), "!vortex new 2")
    assert bot.chat.pending(("room", ROOM)), "the answer waits for the chat budget"


async def read_by_the_room(bot: Bot, chat: HeldChat, sender: str) -> str:
    """The budget frees up: the room's answer to ``sender`` as it is read."""
    chat.held = False
    await bot.chat.flush(timeout=5)
    bot.chat.close()
    answers = [
        line for where, message in chat.sent for line in message.split(" | ") if where == ("room", ROOM)
    ]
    mine = [line for line in answers if line.startswith(f"{sender}: ")]
    assert len(mine) == 1, chat.sent
    return mine[0]


def test_games_that_started_while_the_refusal_waited_are_read_as_being_played(tmp_path: Path) -> None:
    """Two slots, both games waiting with nobody joined when victim asks; the answer waits for the budget;
    meanwhile hog's game starts and carol's has waited 90 s of the 120 s after which it may make room. The
    room reads hog's game as being played and "ask again in 30 seconds" (before: "#1, #2 wait with nobody
    joined" and "ask again in 2 minutes", false when read)."""

    async def scenario() -> str:
        chat = HeldChat()
        bot, (hogs, carols) = await a_full_bot(
            tmp_path / "journal.sqlite3", chat, "hog", "carol", unjoined_yield_after=120.0
        )
        await asks_in_the_room(bot, "victim")
        bot.client.games[hogs].started = True  # two players sat down and pressed ready meanwhile
        opened = bot.opened[carols]
        assert opened.heard_at is not None
        opened.heard_at -= 90.0  # carol's game has waited 90 s more
        return await read_by_the_room(bot, chat, "victim")

    answer = asyncio.run(scenario())
    assert answer.startswith("victim: no new game (game limit): #2 waits for players"), answer
    assert "#1 is being played" in answer, answer
    assert answer.endswith("Join one or ask again in 30 seconds"), answer
    assert len(answer) <= 150, answer


def test_a_slot_freed_while_the_refusal_waited_is_said(tmp_path: Path) -> None:
    """The refusal waits for the budget; meanwhile one of the games holding the slots closes (its players
    left, the referee left it): the room reads that a slot has freed since, not a list of games that is
    no longer true."""

    async def scenario() -> str:
        chat = HeldChat()
        bot, (_hogs, carols) = await a_full_bot(tmp_path / "journal.sqlite3", chat, "hog", "carol")
        await asks_in_the_room(bot, "victim")
        await bot.games[carols].leave()  # the server closes a game its last player left
        return await read_by_the_room(bot, chat, "victim")

    assert asyncio.run(scenario()) == f"victim: {game_slots.SLOT_FREED}"


def test_the_requester_is_known_where_the_refusal_is_worded_again(tmp_path: Path) -> None:
    """victim's own game (which never makes room for victim) has waited longest; hog's makes room in 2
    minutes. Worded again in the chat scheduler's task, where no room command's context is set, the refusal
    still counts from hog's game alone."""

    async def scenario() -> str:
        chat = HeldChat()
        bot, (victims, _hogs) = await a_full_bot(
            tmp_path / "journal.sqlite3",
            chat,
            "victim",
            "hog",
            unjoined_yield_after=120.0,
            max_waiting_per_user=2,
        )
        opened = bot.opened[victims]
        assert opened.heard_at is not None
        opened.heard_at -= 100.0
        await asks_in_the_room(bot, "victim")
        return await read_by_the_room(bot, chat, "victim")

    answer = asyncio.run(scenario())
    assert answer.endswith("Join one or ask again in 2 minutes"), answer


def test_a_renderer_that_fails_says_the_first_wording_and_the_operator_is_warned_once_when_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The operator's remedy is logged when the refusal is made (not when it is read, nor twice); a fault
    while wording it again keeps the first wording (the chat goes on)."""

    async def scenario() -> tuple[str, int]:
        chat = HeldChat()
        bot, _games = await a_full_bot(tmp_path / "journal.sqlite3", chat, "hog")
        await asks_in_the_room(bot, "victim")
        warned = len([r for r in caplog.records if "--extra-user" in r.getMessage()])

        def broken(_room_id: int) -> Any:
            raise RuntimeError("a game gone half-way")

        monkeypatch.setattr(bot, "unjoined_games", broken)
        monkeypatch.setattr(bot, "slot_holders", broken)
        return await read_by_the_room(bot, chat, "victim"), warned

    with caplog.at_level(logging.WARNING, logger="cockatrice_ext.bot.runtime"):
        answer, warned_before_read = asyncio.run(scenario())
    assert warned_before_read == 1
    assert len([r for r in caplog.records if "--extra-user" in r.getMessage()]) == 1
    assert answer.startswith("victim: no new game (game limit): #1 waits for players"), answer


def test_a_slot_refusal_read_after_the_old_game_closed_says_a_slot_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The slot a request freed did not come within ``SLOT_WAIT`` (the old game's leave waits): refused. Read
    once the old game has closed, the refusal says a slot has freed since."""
    from test_game_slot_wait import a_bot_at_the_limit

    monkeypatch.setattr(game_slots, "SLOT_WAIT", 0.5)
    caught: list[Any] = []

    async def scenario() -> tuple[str, str]:
        bot, _chat, old = await a_bot_at_the_limit(tmp_path / "journal.sqlite3", leave_waits=True)
        original = game_slots.GameSlots.slot_refusal

        def keep(self: Any, room_id: int, freeing: list[int]) -> Any:
            caught.append(refusal := original(self, room_id, freeing))
            return refusal

        monkeypatch.setattr(game_slots.GameSlots, "slot_refusal", keep)
        refused = await victim_asks(bot)
        assert isinstance(refused, str) and caught, refused
        before = caught[0].render()
        assert bot.client.left is not None
        bot.client.left.set()
        for _ in range(100):
            if old not in bot.client.games:
                break
            await asyncio.sleep(0.01)
        bot.chat.close()
        return before, caught[0].render()

    before, after = asyncio.run(scenario())
    assert before.startswith("no new game: #1 is closing to make room"), before
    assert after == game_slots.SLOT_FREED
