"""A bot whose games are stand-ins for Servatrice's: the web pages without a server.

The referees, engines and journal are the real ones; only the connection is replaced by the game
mirrors it would hold (who sits where) and game commands that go nowhere (no card moves: the bot's
deck reads as empty). Chat goes to a callback. ``scripts/web_screenshots.py`` draws the pages from such
a bot, and the web view's tests drive it with requests; the real thing is tested against Servatrice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client.mirror import GameMirror, PlayerState

ChatSink = Callable[[tuple[str, Any], str], Awaitable[None]]
REFEREE_NAME = "referee"
REFEREE_SEAT = 0


@dataclass
class StandInClient:
    """What the referees read from a client (games, our name) and game commands that do nothing."""

    user_name: str = REFEREE_NAME
    requested_user: str = REFEREE_NAME
    name_taken: bool = False
    games: dict[int, GameMirror] = field(default_factory=dict)
    room_users: dict[int, set[str]] = field(default_factory=dict)
    connected: bool = True

    async def caught_up(self, timeout: float = 10.0, *, handed_out: bool = True) -> float:
        """Nothing is ever in flight here: caught up at once."""
        return 0.0

    async def game_commands(self, *_: Any, **__: Any) -> None:
        return None

    async def judge_commands(self, *_: Any, **__: Any) -> None:
        return None

    async def game_command(self, *_: Any, **__: Any) -> Any:
        return SimpleNamespace(payload=None)


def demo_bot(journal_path: Path, chat: ChatSink, *, ready: bool = True) -> Bot:
    """A bot (journal at ``journal_path``) whose chat lines go to ``chat`` at once; ``ready`` False: still
    starting (the caller restores what it wants, then calls ``mark_ready``)."""
    bot = Bot(BotOptions(url="demo://cockatrice-ext", user=REFEREE_NAME, journal_path=journal_path))
    bot.chat = ChatScheduler(chat, lambda _destination, _message: 0.0)
    bot.client = StandInClient()
    if ready:
        bot.mark_ready()
    return bot


def seat_game(bot: Bot, game_id: int, players: list[str], spectators: tuple[str, ...] = ()) -> GameMirror:
    """A started game where the referee sits in seat 0, then ``players`` (seats 1...), then spectators."""
    seats = {REFEREE_SEAT: PlayerState(REFEREE_SEAT, REFEREE_NAME)}
    for name in players:
        seats[len(seats)] = PlayerState(len(seats), name)
    for name in spectators:
        seats[len(seats)] = PlayerState(len(seats), name, spectator=True)
    mirror = GameMirror(game_id=game_id, room_id=1, local_player_id=REFEREE_SEAT, started=True, players=seats)
    mirror.active_player_id = 1
    bot.client.games[game_id] = mirror
    return mirror
