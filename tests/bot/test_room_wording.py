"""What players and the operator read when a busy room makes the referee wait.

Seen in a busy room: a player's refusal ended with the operator's remedy ("... More room: --extra-user"), the
same refusal said "ask again in 1 minute" one time and "ask again in 60 seconds" the next, and the log said
"chat budget spent: 1 message(s) wait 4 s" while the room's answers were 60 s late.
"""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any

from test_game_slot_wait import a_bot_at_the_limit, victim_asks

from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.words import duration_words


def test_a_duration_just_under_a_minute_is_one_minute_never_sixty_seconds() -> None:
    assert duration_words(59.2) == "1 minute"
    assert duration_words(59.7) == "1 minute"
    assert duration_words(58.2) == "59 seconds"
    assert duration_words(0.2) == "1 second"


def test_the_game_limit_refusal_leaves_the_operators_remedy_to_the_log(tmp_path: Path, caplog: Any) -> None:
    """At the server's game limit with no game to make room, the player hears what holds the slots and
    when to ask again; the operator's remedy (--extra-user) is a warning in the log, once."""

    async def scenario() -> list[int | str]:
        bot, _chat, _old = await a_bot_at_the_limit(tmp_path / "journal.sqlite3", leave_waits=False)
        bot.options.unjoined_yield_after = 3600.0  # no unjoined game makes room yet
        try:
            return [await victim_asks(bot), await victim_asks(bot)]
        finally:
            bot.chat.close()

    with caplog.at_level(logging.WARNING, logger="cockatrice_ext.bot.runtime"):
        refusals = asyncio.run(scenario())
    for refusal in refusals:
        assert isinstance(refusal, str) and refusal.startswith("no new game (game limit): ")
        assert "--extra-user" not in refusal and "More room" not in refusal, refusal
        assert refusal.endswith("Join one or ask again in 60 minutes"), refusal
    advice = [r.getMessage() for r in caplog.records if "--extra-user" in r.getMessage()]
    assert len(advice) == 1 and "game limit" in advice[0], advice


def test_the_starved_budget_warning_says_how_long_the_oldest_line_has_waited(caplog: Any) -> None:
    """Lines held back by a budget that frees up a little at a time (each wait short) are reported once the
    oldest has waited for seconds, with its age: what the players feel, not the next slot's wait."""

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        sent: list[str] = []

        async def send(_destination: Any, message: str) -> None:
            sent.append(message)

        def delay(_destination: Any, _message: str) -> float:
            return 0.5 if loop.time() - start < 3.5 else 0.0  # never a long wait, but a long one in all

        chat = ChatScheduler(send, delay)
        chat.say(("room", 1), "Auction Magic game #21 is open for 2 players, asked by Probe1.")
        await chat.flush(timeout=15)
        assert sent

    with caplog.at_level(logging.WARNING, logger="cockatrice_ext.bot.chat"):
        asyncio.run(scenario())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings
    oldest = re.search(r"the oldest line for (\d+) s", warnings[0])
    assert oldest is not None and int(oldest.group(1)) >= 3, warnings
