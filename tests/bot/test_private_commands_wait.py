"""A private command that waits holds up nobody else; a game's own private command keeps its place.

The client hands the bot one event at a time. A league's private move (the pick that ends a draft round)
opens the round's games, and each may wait up to ``SLOT_WAIT`` for a slot at the server's game limit: run
where the event was handed over, it held every game's events. Now such commands run in the sender's own
queue; a command a game takes by private message (Vortex's ``!pick``) still goes to that game's queue as it
is said, in order with the game's events.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.bot.serial import SerialWork


class WaitingLeague:
    """A league whose ``!pick`` waits until the test lets it go (as opening a round's games at the limit)."""

    def __init__(self) -> None:
        self.commands = SimpleNamespace(
            find=lambda name, scope: (name == "pick" and scope == "private") or None,
            names=lambda scope: ["pick"] if scope == "private" else [],
        )
        self.let_go = asyncio.Event()
        self.answered: list[tuple[str, str]] = []

    async def handle_command(self, ctx: Any, text: str) -> bool:
        if not text.startswith("!pick"):
            return False
        await self.let_go.wait()
        self.answered.append((ctx.sender, text))
        return True


class PrivateGame:
    """A game that takes ``!look`` by private message from its seated player ``ann``."""

    takes_private_commands = True
    finished = ""
    closed = False

    def __init__(self) -> None:
        takes = lambda name, scope: (name == "look" and scope == "private") or None  # noqa: E731
        self.commands = SimpleNamespace(find=takes)
        self.work = SerialWork("game 7")
        self.order: list[str] = []

    def private_seat(self, name: str) -> int | None:
        return 1 if name == "ann" else None

    async def on_private_command(self, sender: str, text: str) -> None:
        self.order.append(f"{sender}: {text}")


def said_privately(sender: str, text: str) -> Any:
    return SimpleNamespace(message=SimpleNamespace(sender_name=sender, message=text))


def bot_for(tmp_path: Path) -> Bot:
    return Bot(BotOptions(url="tcp://127.0.0.1:1", user="ref", journal_path=tmp_path / "journal.sqlite3"))


def test_a_private_command_that_waits_holds_up_no_later_event(tmp_path: Path) -> None:
    async def scenario() -> None:
        bot = bot_for(tmp_path)
        league = WaitingLeague()
        bot.private_referees = [league]  # type: ignore[list-item]
        game = PrivateGame()
        bot.games[7] = game  # type: ignore[assignment]
        try:
            await asyncio.wait_for(bot._on_private(said_privately("bo", "!pick 3")), 5)  # handed on, not run
            await asyncio.wait_for(bot._on_private(said_privately("ann", "!look")), 5)
            await game.work.caught_up()
            assert game.order == ["ann: !look"]  # the game's command ran while bo's pick waits
            assert league.answered == []
            league.let_go.set()
            await bot.commands_of("bo").caught_up()
            assert league.answered == [("bo", "!pick 3")]
        finally:
            league.let_go.set()
            bot.journal.close()

    asyncio.run(scenario())


def test_a_games_private_command_keeps_its_place_among_the_games_events(tmp_path: Path) -> None:
    async def scenario() -> None:
        bot = bot_for(tmp_path)
        bot.private_referees = [WaitingLeague()]  # type: ignore[list-item]
        game = PrivateGame()
        bot.games[7] = game  # type: ignore[assignment]
        try:
            await bot._on_private(said_privately("ann", "!look"))
            game.work.submit(lambda: asyncio.sleep(0, game.order.append("the next event")))
            await game.work.caught_up()
            assert game.order == ["ann: !look", "the next event"]
        finally:
            bot.journal.close()

    asyncio.run(scenario())
