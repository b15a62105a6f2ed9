"""A command whose action the journal cannot write (a full disk) is answered with why, and that nothing
changed: seen in the field as "that did not go through (a fault of the referee's own...)" plus a traceback in
the log for every bid, while the journal had already said why once."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from cockatrice_ext.bot.referee import COMMAND_ACTION_IDS, Referee
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.journal import JournalWriteError


class FailingCommands:
    """Commands whose every invocation meets a journal that cannot be written."""

    def __init__(self, recorded_first: bool = False) -> None:
        self.recorded_first = recorded_first

    async def invoke(self, ctx: Any, invocation: Any, scope: str) -> bool:
        ids = COMMAND_ACTION_IDS.get()
        if self.recorded_first and ids is not None:
            ids.recorded = True
        raise JournalWriteError("/srv/bot/journal.sqlite3", "its disk is full", "database or disk is full")


def answer_to(text: str, commands: FailingCommands) -> list[str]:
    replies: list[str] = []

    async def reply(line: str) -> None:
        replies.append(line)

    ctx = SimpleNamespace(sender="ann", scope="game", reply=reply)
    referee = SimpleNamespace(commands=commands, _what_happened=Referee._what_happened)
    asyncio.run(Referee.handle_command(referee, ctx, text))  # type: ignore[arg-type]
    return replies


def test_a_command_the_journal_cannot_record_says_why_and_that_nothing_changed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR):
        replies = answer_to("!bid 2", FailingCommands())
    assert replies == [
        "ann: the referee cannot record moves right now (its disk is full); nothing changed: try again later"
    ]
    assert "journal.sqlite3" not in replies[0]  # the journal's path is the operator's
    assert not [r for r in caplog.records if r.exc_info]  # the journal said why once: no traceback per move


def test_a_command_recorded_in_part_says_so() -> None:
    ids = SimpleNamespace(recorded=False)
    token = COMMAND_ACTION_IDS.set(ids)  # type: ignore[arg-type]
    try:
        replies = answer_to("!keep", FailingCommands(recorded_first=True))
    finally:
        COMMAND_ACTION_IDS.reset(token)
    assert len(replies) == 1 and replies[0].startswith("ann: the referee recorded that, but could not show")
    assert "(the referee cannot record moves right now (its disk is full))" in replies[0]


def test_background_work_the_journal_cannot_record_logs_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A timer's or stand-in's move on a full disk: the journal said why once; no traceback per move."""

    async def move() -> None:
        raise JournalWriteError("/srv/bot/journal.sqlite3", "its disk is full", "database or disk is full")

    async def run() -> None:
        owner = SimpleNamespace(_background=set())
        Bot.spawn(owner, move())  # type: ignore[arg-type]
        while owner._background:
            await asyncio.sleep(0)

    with caplog.at_level(logging.DEBUG):
        asyncio.run(run())
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]


class RefusedByServer:
    """Commands whose card move the server refuses (the card's owner left as it moved)."""

    async def invoke(self, ctx: Any, invocation: Any, scope: str) -> bool:
        from cockatrice_ext.client.errors import ClientError

        ids = COMMAND_ACTION_IDS.get()
        if ids is not None:
            ids.recorded = True  # the rules took the !keep; the move to the buyer failed
        raise ClientError("Command_MoveCard failed with RespNameNotFound (6)")


@pytest.mark.parametrize("still_there", [True, False])
def test_a_server_refusal_about_a_player_who_left_meanwhile_is_not_told_to_the_table(
    still_there: bool,
) -> None:
    """A race tester's ``!keep`` and a leave in the same instant: the table read "ann: the referee recorded
    that, but could not show all of it (the server refused it: Command_MoveCard failed with RespNameNotFound
    (6)); the table may lag behind" about a card that had left with ann. The line is kept for a player still
    seated."""
    replies: list[str] = []

    async def reply(line: str) -> None:
        replies.append(line)

    ctx = SimpleNamespace(sender="ann", scope="game", reply=reply)
    referee = SimpleNamespace(
        commands=RefusedByServer(),
        _what_happened=Referee._what_happened,
        left_meanwhile=lambda sender: not still_there,
    )
    ids = SimpleNamespace(recorded=False)
    token = COMMAND_ACTION_IDS.set(ids)  # type: ignore[arg-type]
    try:
        asyncio.run(Referee.handle_command(referee, ctx, "!keep"))  # type: ignore[arg-type]
    finally:
        COMMAND_ACTION_IDS.reset(token)
    if still_there:
        assert len(replies) == 1 and "could not show all of it" in replies[0], replies
    else:
        assert replies == []
