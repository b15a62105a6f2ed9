"""Two things players could not learn from the referee, found by smoke tests against a real Servatrice.

* A player who has the referee on their ignore list never gets its private messages (their pack, their
  turn): a league waited for them for ever. They are told once, where they can read it.
* A scheduled server shutdown: the referee said nothing, and ``!auction new 2`` during the countdown opened a
  game doomed to end with the server. Each room and each game now hears once what becomes of its games
  (and once more at 1 minute), and no new game opens meanwhile.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cockatrice_ext.bot import runtime
from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee, AuctionRoom
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.referee import Context, LobbyReferee
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client import ClientEvent, FloodLimits
from cockatrice_ext.client.errors import InIgnoreList
from cockatrice_ext.client.flood import FloodGate
from cockatrice_ext.journal import Journal
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.web.demo import StandInClient, demo_bot, seat_game

GAME, ROOM, OTHER_ROOM = 1, 1, 2
Chat = list[tuple[Any, str]]


class IgnoredClient(StandInClient):
    """The demo client, logged in by :meth:`Bot._connect`: its chat is recorded, and private messages to
    the users in ``ignoring`` are refused as Servatrice refuses them (``RespInIgnoreList``)."""

    def __init__(self, ignoring: set[str]) -> None:
        super().__init__(user_name="RefereeBot", requested_user="RefereeBot")
        self.ignoring = ignoring
        self.chat: Chat = []
        self.flood = FloodGate(FloodLimits.unlimited())
        self.rooms: dict[int, Any] = {}
        self.user_info = SimpleNamespace(user_level=0)

    def add_listener(self, _listener: Any) -> None:
        return None

    async def list_rooms(self) -> list[Any]:
        return [SimpleNamespace(name="Bot room"), SimpleNamespace(name="Other room")]

    async def room_id_by_name(self, name: str) -> int:
        return {"Bot room": ROOM, "Other room": OTHER_ROOM}[name]

    async def join_room(self, _room_id: int) -> None:
        return None

    async def room_say(self, room_id: int, message: str) -> None:
        self.chat.append((("room", room_id), message))

    async def game_say(self, game_id: int, message: str) -> None:
        self.chat.append((("game", game_id), message))

    async def close(self) -> None:
        return None

    async def send_message(self, user: str, message: str) -> None:
        if user in self.ignoring:
            raise InIgnoreList(16, None, command="Command_Message")
        self.chat.append((("user", user), message))


async def connected_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ignoring: set[str]) -> Bot:
    """A bot connected through :meth:`Bot._connect` (as :meth:`Bot.start` does) to :class:`IgnoredClient`,
    in both rooms, refereeing a started auction game #1 where ann and bob sit."""
    client = IgnoredClient(ignoring)

    async def connect(*_: Any, **__: Any) -> IgnoredClient:
        return client

    monkeypatch.setattr(runtime, "connect", connect)
    options = BotOptions(
        url="demo://cockatrice-ext",
        user="RefereeBot",
        rooms=("Bot room", "Other room"),
        journal_path=tmp_path / "j",
    )
    bot = Bot(options)
    await bot._connect()
    bot.mark_ready()
    seat_game(bot, GAME, ["ann", "bob"])
    referee = AuctionReferee(bot, GAME, ROOM, AuctionOptions(seed=7), load_block("auction-sample"))
    bot.adopt_game(referee)
    await referee.start_engine()
    await bot.chat.flush(timeout=5)
    client.chat.clear()
    return bot


def test_a_player_who_ignores_the_referee_is_told_once_where_they_can_read_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def run() -> Chat:
        bot = await connected_bot(tmp_path, monkeypatch, {"ann", "cy", "dee"})
        bot.client.room_users = {ROOM: {"cy", "bob"}, OTHER_ROOM: {"cy"}}
        for user in ("ann", "ann", "cy", "dee"):  # ann: in game #1; cy: in both rooms; dee: nowhere
            await bot.tell(user, f"Your pack, {user}: 1. Shock.")
            await bot.chat.flush(timeout=5)
        await bot.tell("ann", "Your turn.")  # still the same episode: not told again
        await bot.chat.flush(timeout=5)
        assert bot.chat.ignores("ann") and bot.chat.holds("ann")  # what waits for her is kept
        chat = list(bot.client.chat)
        bot.chat.close()
        bot.journal.close()
        return chat

    chat = asyncio.run(run())
    lines = [(destination, line) for destination, message in chat for line in message.split(" | ")]
    ann = [(d, line) for d, line in lines if line.startswith("ann:")]
    assert [d for d, _ in ann] == [("game", GAME)]  # where she sits, once; never privately
    assert "ignore list blocks RefereeBot's private messages" in ann[0][1]
    assert "take RefereeBot off it" in ann[0][1] and len(ann[0][1]) <= 300
    cy = [d for d, line in lines if line.startswith("cy:")]
    assert sorted(cy) == [
        ("room", ROOM),
        ("room", OTHER_ROOM),
    ]  # in no game: the rooms where the bot sees her
    assert not [line for _, line in lines if line.startswith("dee:")]  # nowhere to tell her: the log only
    assert not [d for d, _ in chat if d[0] == "user" and d[1] in ("ann", "cy", "dee")]


async def room_command(bot: Bot, referee: Any, text: str) -> list[str]:
    said: list[str] = []

    async def collect(line: Any) -> None:
        said.append(str(line))

    ctx = Context(bot, "room", "alice", room_id=ROOM, reply_hook=collect)
    token = runtime.GAME_REQUESTER.set("alice")
    try:
        await referee.handle_command(ctx, text)
    finally:
        runtime.GAME_REQUESTER.reset(token)
    return said


def shutdown_event(minutes: int) -> ClientEvent:
    return ClientEvent("session", pb.Event_ServerShutdown(reason="Upgrade to 2.11", minutes=minutes))


def test_a_scheduled_server_shutdown_is_told_once_and_refuses_new_games(tmp_path: Path) -> None:
    async def run() -> tuple[Chat, Chat, Chat, list[str], list[str]]:
        chat: Chat = []

        async def send(destination: Any, message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(tmp_path / "journal.sqlite3", send)
        bot.room_ids.extend([ROOM, OTHER_ROOM])
        seat_game(bot, GAME, ["ann", "bob"])
        referee = AuctionReferee(bot, GAME, ROOM, AuctionOptions(seed=7), load_block("auction-sample"))
        bot.adopt_game(referee)
        await referee.start_engine()
        await bot.chat.flush(timeout=5)
        chat.clear()
        loop = asyncio.get_running_loop()
        real_time, skipped = loop.time, [0.0]
        loop.time = lambda: real_time() + skipped[0]  # type: ignore[method-assign]
        try:
            client: Any = bot.client
            client.shutdown_due, client.shutdown_reason = loop.time() + 600, "Upgrade to 2.11"
            await bot.on_event(shutdown_event(10))  # as the client publishes it, due time set
            await bot.chat.flush(timeout=5)
            first = list(chat)
            chat.clear()
            skipped[0] += 300
            await bot.on_event(shutdown_event(5))  # Servatrice's repeats: nothing new to say
            skipped[0] += 180
            await bot.on_event(shutdown_event(2))
            await bot.chat.flush(timeout=5)
            repeats = list(chat)
            new_game = await room_command(bot, AuctionRoom(bot), "!auction new 2")
            resume = await room_command(bot, LobbyReferee(bot), "!resume 7")
            skipped[0] += 60
            await bot.on_event(shutdown_event(1))  # the last one: a few words, once
            await bot.on_event(shutdown_event(1))
            await bot.chat.flush(timeout=5)
            last = chat[len(repeats) :]
        finally:
            loop.time = real_time  # type: ignore[method-assign]
            bot.chat.close()
        assert GAME in bot.games and len(bot.games) == 1  # no game opened
        return first, repeats, last, new_game, resume

    first, repeats, last, new_game, resume = asyncio.run(run())
    lines = {destination: message for destination, message in first}
    assert set(lines) == {("room", ROOM), ("room", OTHER_ROOM), ("game", GAME)}
    assert lines[("room", ROOM)].startswith(
        "The server shuts down in 10 minutes (Upgrade to 2.11): every game"
    )
    assert "records are kept (#1): once it is back, say !resume GAME here" in lines[("room", ROOM)]
    assert "kept" not in lines[("room", OTHER_ROOM)]  # no game of the referee's there
    game_line = lines[("game", GAME)]
    assert game_line.startswith(
        "The server shuts down in 10 minutes (Upgrade to 2.11): this game ends with it"
    )
    assert "say !resume 1 in the room" in game_line
    assert repeats == []
    assert new_game == ["alice: the server shuts down in 2 minutes (Upgrade to 2.11): no new game now"]
    assert resume == ["alice: the server shuts down in 2 minutes (Upgrade to 2.11): no new game now"]
    assert sorted(last) == sorted(
        (destination, "The server shuts down in 1 minute (Upgrade to 2.11).")
        for destination in (("room", ROOM), ("room", OTHER_ROOM), ("game", GAME))
    )


def test_a_shutdown_announced_before_the_bot_listened_still_refuses_new_games(tmp_path: Path) -> None:
    """Servatrice announces a pending shutdown at login, before the bot listens: what the client keeps of it
    (``Client.shutdown_due``) is enough to refuse a new game."""

    async def run() -> list[str]:
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=Journal(":memory:"))
        client: Any = StandInClient()
        client.shutdown_due, client.shutdown_reason = asyncio.get_running_loop().time() + 300, ""
        bot.client = client
        with pytest.raises(runtime.NotAllowed) as refused:
            await bot.open_game(ROOM, description="x", seats=2, type_hint="auction")
        return [refused.value.reason]

    assert asyncio.run(run()) == ["the server shuts down in 5 minutes: no new game now"]


def test_a_shutdown_announced_at_login_is_told_once_the_bot_has_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Servatrice announces a pending shutdown at login, before the bot listens: a bot (re)started during
    the countdown tells its rooms once it has started."""

    async def run() -> Chat:
        client = IgnoredClient(set())
        client.shutdown_due, client.shutdown_reason = asyncio.get_running_loop().time() + 180, ""

        async def connect(*_: Any, **__: Any) -> IgnoredClient:
            return client

        async def list_users() -> list[Any]:
            return []

        client.list_users = list_users  # type: ignore[attr-defined]
        monkeypatch.setattr(runtime, "connect", connect)
        options = BotOptions(
            url="demo://cockatrice-ext",
            user="RefereeBot",
            rooms=("Bot room",),
            journal_path=tmp_path / "journal.sqlite3",
            formats=("auction",),
        )
        bot = Bot(options)
        await bot.start()
        await bot.on_event(shutdown_event(2))  # the next repeat: already told
        await bot.close()
        return client.chat

    assert asyncio.run(run()) == [
        (
            ("room", ROOM),
            "The server shuts down in 3 minutes: every game on it ends then, and the referee opens no new"
            " game until it is back.",
        )
    ]
