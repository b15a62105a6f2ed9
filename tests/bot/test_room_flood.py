"""One user's room commands cannot hold up everybody else's room answers.

Seen in a hostile test: one user said ``!help`` in the room every second (within Servatrice's own limits).
Every room answer shares the room's one chat queue, so another user's ``!games`` waited 7, 30, 107 s, and more
than 200 s after the spammer had logged off. Now each sender (the server's sender name) has a few room
commands answered per window; past that, the sender hears once per window that the referee answers again
soon, and nothing else. That holds while room answers wait for the chat budget: in a quiet room (every answer
already sent) nobody is refused.
"""

from __future__ import annotations

import asyncio
from typing import Any

from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.referee import Context, Referee
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.journal import Journal

NOTICE = "too many commands; the referee answers again in a few seconds."


class EchoRoom(Referee):
    """A room referee that answers every command with one line naming its sender."""

    async def handle_command(self, ctx: Context, text: str) -> bool:
        if not text.startswith("!"):
            return False
        await ctx.reply(f"{ctx.sender}: answer to {text}")
        return True


def room_bot(*, budget_spent: bool) -> tuple[Bot, list[str]]:
    """A bot without a server whose room lines are recorded in the order they are queued; ``budget_spent``:
    they stay queued (the chat budget never allows them), else they leave at once."""
    bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=Journal(":memory:"))
    bot.room_referees = [EchoRoom(bot)]
    said: list[str] = []

    async def never_sent(destination: Any, message: str) -> None:
        raise AssertionError(f"sent {message!r}: the budget was spent")

    bot.chat = ChatScheduler(never_sent, lambda _destination, _message: 3600.0)

    async def room_say(room_id: int, text: Any) -> None:
        said.append(text() if callable(text) else text)
        if budget_spent:
            bot.chat.say(("room", room_id), text)

    bot.room_say = room_say  # type: ignore[method-assign]
    return bot, said


async def say(bot: Bot, sender: str, text: str) -> None:
    await bot.answer_room_command(Context(bot, "room", sender, room_id=1), text)


def test_a_spammer_gets_a_few_answers_and_one_notice_and_others_are_answered_at_once() -> None:
    """20 ``!help`` of one user while the room's answers wait for the budget: 3 answers and 1 notice; another
    user's ``!games`` then is the very next line queued, and the spammer's further commands add nothing."""

    async def scenario() -> list[str]:
        bot, said = room_bot(budget_spent=True)
        for _ in range(20):
            await say(bot, "spammer", "!help")
        await say(bot, "victim", "!games")
        for _ in range(20):
            await say(bot, "spammer", "!auction new 99")
        assert bot.chat.pending(("room", 1)) == len(said)
        bot.chat.close()
        return said

    said = asyncio.run(scenario())
    assert said == [
        *["spammer: answer to !help"] * 3,  # ROOM_COMMANDS_PER_WINDOW
        f"spammer: {NOTICE}",
        "victim: answer to !games",
    ]


def test_room_chat_that_is_no_command_is_not_counted() -> None:
    """Plain room talk is not a command: it uses none of the sender's allowance."""

    async def scenario() -> list[str]:
        bot, said = room_bot(budget_spent=True)
        for _ in range(10):
            await say(bot, "alice", "hello all")
        await say(bot, "alice", "!games")
        bot.chat.close()
        return said

    assert asyncio.run(scenario()) == ["alice: answer to !games"]


def test_in_a_quiet_room_every_command_is_answered() -> None:
    """Every earlier answer already left: nothing waits for the budget, so nobody is refused (a player or a
    script asking one thing after another, each answer heard before the next)."""

    async def scenario() -> list[str]:
        bot, said = room_bot(budget_spent=False)
        for index in range(10):
            await say(bot, "alice", f"!games {index}")
        return said

    assert asyncio.run(scenario()) == [f"alice: answer to !games {index}" for index in range(10)]


def test_the_allowance_comes_back_after_a_window_and_the_notice_once_per_window() -> None:
    """Each sender has their own allowance; it frees as old answers leave the window, and the notice is
    given at most once per window however many commands come."""
    from cockatrice_ext.bot.referee import ROOM_COMMAND_WINDOW, ROOM_COMMANDS_PER_WINDOW, CommandAllowance

    assert (ROOM_COMMANDS_PER_WINDOW, ROOM_COMMAND_WINDOW) == (3, 10.0)  # the answers the first test counts
    allowance = CommandAllowance(per_window=3, window=10.0)
    verdicts = [allowance.verdict("spammer", 0.0 + i * 0.1) for i in range(50)]
    assert verdicts[:4] == ["answer", "answer", "answer", "notice"]
    assert set(verdicts[4:]) == {"drop"}
    assert allowance.verdict("other", 5.0) == "answer"
    assert allowance.verdict("spammer", 9.9) == "drop"
    assert allowance.verdict("spammer", 10.05) == "answer"  # the first answer (at 0.0) left the window
    assert allowance.verdict("spammer", 10.06) == "drop"  # full again; told at 0.3, less than a window ago
    later = [allowance.verdict("spammer", 100.0 + i) for i in range(30)]
    assert later.count("notice") == 3 and later.count("answer") == 9  # one notice per 10 s, 3 answers


def test_the_allowance_forgets_quiet_senders() -> None:
    """Memory holds only the senders of the last window (many names cost nothing under auth none)."""
    from cockatrice_ext.bot.referee import CommandAllowance

    allowance = CommandAllowance(per_window=1, window=10.0)
    for index in range(1000):
        allowance.verdict(f"user{index}", 0.0)
        allowance.verdict(f"user{index}", 0.0)
    allowance.verdict("late", 20.0)
    assert set(allowance._answered) == {"late"} and allowance._told == {}
