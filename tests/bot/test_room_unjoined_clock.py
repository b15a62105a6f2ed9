"""A game nobody joined is closed a while after players heard of it, not after it was created.

Seen in a busy room (shipped flood limits): a game's announcement waited 31 s in the room's chat queue, and
the game was closed "to make room for a new game: nobody joined it in 2 minutes" about 93 s after players
heard of it. The unjoined clock now starts when the announcement leaves the queue. Against a real
Servatrice; the room's queue is held by the test (as a spent chat budget holds it) until it lets it go.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceServer
from test_room_commands import OPENED, start_bot

UNJOINED = 1.0
"""Seconds a game may wait with nobody joined (the shipped 5 minutes, shortened)."""


@pytest.mark.servatrice
def test_the_unjoined_clock_starts_when_the_announcement_leaves_the_room_queue(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """ann asks for a game while the room's answers wait (held three times the unjoined timeout): the game is
    still refereed when its announcement finally leaves; nobody joins it, and then it closes, the room hearing
    why."""

    async def scenario() -> dict[str, Any]:
        bot = await start_bot(servatrice, tmp_path, "referee_uc1", unjoined_timeout=UNJOINED)
        ann = await Player.connect(servatrice.ws_url, "ann_uc1")
        room_id = await ann.client.room_id_by_name("Bot room")
        await ann.client.join_room(room_id)
        send = bot.chat._send
        released = asyncio.Event()

        async def held_room(destination: Any, message: str) -> None:
            if destination[0] == "room":  # the room's queue waits, as behind a spent chat budget
                await released.wait()
            await send(destination, message)

        bot.chat._send = held_room
        try:
            since = ann.mark()
            await ann.client.room_say(room_id, "!auction new 2")
            await wait_until(lambda: bool(bot.opened), what="a game opened")
            game_id = next(iter(bot.opened))
            await asyncio.sleep(3 * UNJOINED)  # long past the timeout, counted from the game's creation
            refereed_while_unheard = game_id in bot.games
            released.set()
            announced = await ann.wait_line(lambda t: OPENED.search(t) is not None, since=since, timeout=30)
            closed = await ann.wait_line(lambda t: f"game #{game_id} closed" in t, since=since, timeout=30)
            return {"game": game_id, "kept": refereed_while_unheard, "announced": announced, "closed": closed}
        finally:
            released.set()
            await ann.close()
            await bot.close()

    seen = asyncio.run(asyncio.wait_for(scenario(), 90))
    assert seen["kept"], "the game was closed before anyone heard of it"
    assert f"game #{seen['game']} is open" in seen["announced"]
    assert "nobody joined in 1 second" in seen["closed"]
