"""Scripted players for end-to-end bot tests: real clients that join a game, chat and move cards."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cockatrice_ext.client import Client, ClientEvent, FloodLimits, connect
from cockatrice_ext.client.errors import ClientError
from cockatrice_ext.protocol import commands

if TYPE_CHECKING:
    from cockatrice_ext.bot.runtime import Bot

EMPTY_DECK = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>none</deckname>'
    '<comments/><zone name="main"/></cockatrice_deck>'
)


class Player:
    """One scripted human: a client plus a log of what the bot said in chat."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.heard: list[tuple[str, str]] = []  # (scope, text) from other users
        self.private: list[tuple[str, str]] = []
        self._changed = asyncio.Condition()
        client.add_listener(self._on_event)

    @classmethod
    async def connect(cls, url: str, name: str, password: str | None = None) -> Player:
        # Test servers run with relaxed flood limits; scripted players need not pace themselves.
        return cls(await connect(url, name, password, reconnect=False, flood_limits=FloodLimits.unlimited()))

    @property
    def name(self) -> str:
        return self.client.user_name

    async def _on_event(self, event: Any) -> None:
        if not isinstance(event, ClientEvent) or event.is_own or event.is_replay:
            return
        async with self._changed:
            if event.name == "Event_GameSay":
                self.heard.append(("game", event.message.message))  # type: ignore[attr-defined]
            elif event.name == "Event_RoomSay":
                self.heard.append(("room", event.message.message))  # type: ignore[attr-defined]
            elif event.name == "Event_UserMessage":
                self.private.append((event.message.sender_name, event.message.message))  # type: ignore[attr-defined]
            self._changed.notify_all()

    async def wait_line(
        self, predicate: Callable[[str], bool], *, timeout: float = 10.0, since: int = 0
    ) -> str:
        """The first chat line (game/room, from index ``since``) matching ``predicate``."""

        async def waiter() -> str:
            async with self._changed:
                while True:
                    for _, text in self.heard[since:]:
                        if predicate(text):
                            return text
                    await self._changed.wait()

        try:
            return await asyncio.wait_for(waiter(), timeout)
        except TimeoutError:
            raise AssertionError(f"{self.name} never heard it; last lines: {self.heard[-8:]}") from None

    async def wait_private(self, predicate: Callable[[str], bool], *, timeout: float = 10.0) -> str:
        async def waiter() -> str:
            async with self._changed:
                while True:
                    for _, text in self.private:
                        if predicate(text):
                            return text
                    await self._changed.wait()

        return await asyncio.wait_for(waiter(), timeout)

    def mark(self) -> int:
        return len(self.heard)

    async def say(self, game_id: int, text: str) -> None:
        await self.client.game_say(game_id, text)

    async def sit(
        self, room_id: int, game_id: int, *, spectator: bool = False, deck: str = EMPTY_DECK
    ) -> int:
        """Join the game, load a deck and get ready; returns our player id."""
        mirror = await self.client.join_game(room_id, game_id, spectator=spectator)
        if not spectator:
            await self.client.select_deck(game_id, deck)
            await self.client.ready_start(game_id, True)
        return mirror.local_player_id

    async def phase(self, game_id: int, phase: int) -> None:
        await self.client.game_command(game_id, commands.set_active_phase(phase))

    async def next_turn(self, game_id: int) -> None:
        await self.client.game_command(game_id, commands.next_turn())

    async def close(self) -> None:
        await self.client.close()


async def wait_until(
    condition: Callable[[], bool], *, timeout: float = 10.0, what: str = "condition"
) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"{what} not reached within {timeout}s")
        await asyncio.sleep(0.02)


async def bot_line(player: Player, pattern: str, since: int, timeout: float = 15.0) -> str:
    """The first line ``player`` heard since ``since`` (see :meth:`Player.mark`) matching ``pattern``; by
    default waiting longer than one budget window of the shipped limits (11 s), which a line may wait."""
    return await player.wait_line(lambda t: re.search(pattern, t) is not None, since=since, timeout=timeout)


async def still_on_server(player: Player, room_id: int, game_id: int) -> bool:
    """Whether the server still has the game (joining as a spectator works; we leave again)."""
    try:
        await player.client.join_game(room_id, game_id, spectator=True)
    except (ClientError, TimeoutError):
        return False
    await player.client.leave_game(game_id)
    return True


ROOM_BLOCK = "2 Grizzly Bears\n2 Chimney Imp\n1 Pacifism\n1 Lightning Bolt\n1 Giant Growth\n1 Serra Angel\n"
"""A small Auction block for the room tests' games."""


async def start_room_bot(
    server: Any,
    tmp_path: Path,
    user: str,
    *,
    formats: tuple[str, ...] = ("auction",),
    relaxed: bool = True,
    **options: Any,
) -> Bot:
    """A referee in ``server``'s "Bot room" as ``user`` (journal ``USER.sqlite3`` in ``tmp_path``), refereeing
    ``formats`` with Auction on :data:`ROOM_BLOCK`; ``relaxed``: told of the test server's relaxed flood
    limits (False: it paces itself by the shipped ones); ``options``: more of the bot's options."""
    from cockatrice_ext.bot.auction import AuctionOptions
    from cockatrice_ext.bot.runtime import Bot, BotOptions

    tmp_path.mkdir(parents=True, exist_ok=True)
    block = tmp_path / "block.txt"
    block.write_text(ROOM_BLOCK)
    client_options: dict[str, Any] = {"reconnect": False}
    if relaxed:
        client_options["flood_limits"] = FloodLimits.unlimited()
    bot = Bot(
        BotOptions(
            url=server.ws_url,
            user=user,
            rooms=("Bot room",),
            journal_path=tmp_path / f"{user}.sqlite3",
            formats=formats,
            format_options={"auction": AuctionOptions(block=str(block), seed=7)},
            client_options=client_options,
            **options,
        )
    )
    await bot.start()
    return bot


async def room_players(server: Any, *names: str) -> tuple[int, list[Player]]:
    """Players ``names`` connected to ``server`` and sitting in its "Bot room" (closed by the caller); the
    room's id."""
    players = [await Player.connect(server.ws_url, name) for name in names]
    room_id = await players[0].client.room_id_by_name("Bot room")
    for player in players:
        await player.client.join_room(room_id)
    return room_id, players
