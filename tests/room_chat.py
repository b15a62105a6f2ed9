"""A scripted player for tests of a bot process: say lines in the bot room, collect the referee's answers."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cockatrice_ext.client import ClientEvent, FloodLimits, connect


async def ask_in_room(url: str, user: str, referee: str, lines: Sequence[str]) -> list[str]:
    """Connect as ``user``, join "Bot room", say each line and return the referee's answer to each."""
    async with await connect(url, user, flood_limits=FloodLimits.unlimited()) as me:
        room_id = await me.room_id_by_name("Bot room")
        await me.join_room(room_id)
        heard: asyncio.Queue[str] = asyncio.Queue()

        async def listen(event: object) -> None:
            if (
                isinstance(event, ClientEvent)
                and event.name == "Event_RoomSay"
                and not (event.is_own or event.is_replay)
                and event.message.name == referee  # type: ignore[attr-defined]
            ):
                heard.put_nowait(event.message.message)  # type: ignore[attr-defined]

        me.add_listener(listen)
        answers = []
        for line in lines:
            await me.room_say(room_id, line)
            answers.append(await asyncio.wait_for(heard.get(), 10))
        return answers
