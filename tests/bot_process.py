"""The referee bot as an operator runs it (``cockatrice-ext bot run`` in a process), and a scripted player
who talks to it in room chat: for tests of the command line against a real Servatrice."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from cockatrice_ext.client import ClientEvent, FloodLimits, connect


def ready_line(user: str) -> str:
    """What ``bot run`` prints once it is in its room (it logs in first, then joins: a room line said in
    between never reaches it)."""
    return f"referee {user} is in 1 room(s)"


@contextlib.contextmanager
def bot_process(url: str, user: str, journal: Path, *extra: str) -> Iterator[subprocess.Popen[bytes]]:
    """``bot run URL --user USER --room "Bot room"`` with ``extra`` arguments, once it says it is ready; on
    leaving, SIGINT must stop it cleanly (exit 0)."""
    command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", url, "--user", user]
    process = subprocess.Popen(
        [*command, "--room", "Bot room", "--journal", str(journal), "--relaxed-flood", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        ready = process.stdout.readline().decode()
        assert ready_line(user) in ready, ready
        yield process
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert process.returncode == 0, process.stdout.read().decode() if process.stdout else ""


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


def assert_one_error_line(code: int, output: str, *parts: str) -> str:
    """A refused ``bot run``: a non-zero exit and exactly one ``error:`` line holding each of ``parts``, no
    traceback; returns the line."""
    assert code != 0, output
    assert "Traceback" not in output, output
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, output
    for part in parts:
        assert part in errors[0], errors[0]
    return errors[0]
