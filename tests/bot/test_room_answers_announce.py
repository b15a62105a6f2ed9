"""A format's game announcement is short: every room line takes a share of the connection's chat budget.

Seen in the field (shipped Servatrice limits, one bot account, 7 players asking for 7 games 1.5 s apart): room
lines of 174-262 characters, each a quarter of the ~1,000 characters the whole connection may say per 10 s;
room answers came 9.5-57 s late. Now each announcement keeps what a player needs (the game's number and
format, who asked, what to do) in at most 150 characters, and still reads as the field tests wait for it.
No server: the runtime's real room path over a stand-in client.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_game_slot_wait import LimitedClient
from test_runtime import ROOM

from cockatrice_ext.bot.auction import AuctionRoom
from cockatrice_ext.bot.combat import CombatRoom
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.vortex import VortexRoom
from cockatrice_ext.web.demo import demo_bot

ANNOUNCE_LIMIT = 150
COMBAT_LIMIT = 190
"""Combat's says more: its deck lists are open, and players are told before they join (seen: nobody was)."""


@dataclass
class RoomyClient(LimitedClient):
    """A stand-in with room for every game asked for, taking the decks and readiness a new game sets up."""

    limit: int = 10
    server: Any = None  # no server version known: deck lists are taken to be shared

    async def select_deck(self, *_: Any) -> None:
        return None

    async def ready_start(self, *_: Any, **__: Any) -> None:
        return None


async def announced(tmp_path: Path, room: Any, command: str, sender: str = "ann_pd") -> str:
    """The room's answer to ``sender`` saying ``command``."""
    sent: list[tuple[Any, str]] = []

    async def send(destination: Any, message: str) -> None:
        sent.append((destination, message))

    bot = demo_bot(tmp_path / "journal.sqlite3", send)
    bot.client = RoomyClient()
    bot.room_ids.append(ROOM)
    await room.install(bot)
    try:
        await bot.answer_room_command(Context(bot, "room", sender, room_id=ROOM), command)
        await bot.chat.flush(timeout=5)
    finally:
        bot.chat.close()
    lines = [line for where, message in sent if where == ("room", ROOM) for line in message.split(" | ")]
    assert len(lines) == 1, sent
    return lines[0]


@pytest.mark.parametrize(
    ("room", "command", "title", "needs"),
    [
        (AuctionRoom, "!auction new 2", "Auction Magic game", ["block auction-sample", "any deck", "ready"]),
        (VortexRoom, "!vortex new 2", "Vortex game", ["pool vortex-pool", "any deck", "ready"]),
        (
            CombatRoom,
            "!combat new",
            "Magic Combat Rules game",
            [
                "40-card singleton",
                "no lands",
                "deck lists are open (the referee checks them, your opponent sees",
            ],
        ),
    ],
)
def test_each_formats_announcement_is_short_and_says_what_a_player_needs(
    tmp_path: Path, room: Any, command: str, title: str, needs: list[str]
) -> None:
    line = asyncio.run(announced(tmp_path, room, command))
    assert len(line) <= (COMBAT_LIMIT if room is CombatRoom else ANNOUNCE_LIMIT), (len(line), line)
    assert re.search(rf"{title} #\d+", line), line  # tests/field/scenario.open_game waits for it
    assert re.search(r"game #\d+ is open .* asked by ann_pd", line), line  # tests/field: busy session, stop
    assert "is open for 2 players" in line, line  # tests/field/test_old_servers_field
    for need in needs:
        assert need in line, (need, line)
