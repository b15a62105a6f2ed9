"""bot/silence.py: a timer for a player runs from when they can read that it is their turn.

Seen under Servatrice's shipped flood limits: a game's lines waited ~11 s for the chat budget, and a Vortex
pick timer that started when the pick fell due picked at random 0.1 s after the player read "to pick from
7"; their `!pick 1`, sent at once, was refused ("you have no pick to make now")."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.silence import told


def test_a_timer_waits_until_the_lines_announcing_the_turn_have_left() -> None:
    async def scenario() -> list[str]:
        budget = asyncio.Event()  # the chat budget: nothing leaves until it is there
        sent: list[str] = []
        events: list[str] = []

        async def send(destination: tuple[str, object], message: str) -> None:
            await budget.wait()
            sent.append(message)
            events.append(f"sent {message}")

        chat = ChatScheduler(send, lambda _d, _m: 0.0)
        bot = SimpleNamespace(chat=chat)
        bot.conversation_with = lambda _user: bot
        referee = SimpleNamespace(bot=bot, game_id=7)
        chat.say(("game", 7), "Opening turn 1: bo drafts. | bo to pick from 7.")
        chat.say(("user", "bo"), "Your pack: 1. Shock; 2. Giant Growth")

        async def timer() -> None:
            await told(referee, "bo")
            events.append("clock starts")

        started = asyncio.create_task(timer())
        await asyncio.sleep(0.2)
        events.append("budget back")
        budget.set()
        await asyncio.wait_for(started, 5)
        return events

    events = asyncio.run(scenario())
    assert events.index("clock starts") > max(i for i, e in enumerate(events) if e.startswith("sent "))
    assert events[0] == "budget back"
