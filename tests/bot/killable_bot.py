"""The referee bot started as the README says (``bot run`` in a process, auth none, the shipped pacing),
which a test kills with SIGKILL and starts again on the same journal: for the restart tests
of every format."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot_players import Player, bot_line, wait_until
from bot_process import ready_line

CHAT_BOUND = 30.0
"""Seconds a line may take under the shipped chat budget (1,000 characters per 10 s for all the bot says;
the default pool's long names fill it in a few lines)."""
START_BOUND = 60.0
"""Seconds a ``bot run`` process may take to say it is in its room: Python's start-up and imports (up to
2.3 s on a loaded 2-core machine), login, joining, replaying the journal. A bound to wait, not a promise."""


class BotProcess:
    """The bot started as the README says (``bot run``, auth none, shipped pacing) in a subprocess, which
    a test kills with SIGKILL and starts again on the same journal."""

    def __init__(self, url: str, user: str, journal: Path, format_name: str, *extra: str) -> None:
        self.user = user
        self.command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", url, "--user", user]
        self.command += ["--room", "Bot room", "--journal", str(journal), "--format", format_name, *extra]
        self.logs = journal.parent
        self.starts = 0
        self.process = self.start()

    def start(self) -> subprocess.Popen[bytes]:
        """A new process whose output goes to ``bot-N.log`` beside the journal (kept for a failing test)."""
        self.starts += 1
        self.log = self.logs / f"bot-{self.starts}.log"
        with self.log.open("wb") as out:
            env = {**os.environ, "PYTHONUNBUFFERED": "1"}
            return subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT, env=env)

    async def until_ready(self, timeout: float = START_BOUND) -> None:
        """Until the bot says it is in its room (:func:`ready_line`)."""
        ready = ready_line(self.user)
        deadline = time.monotonic() + timeout
        while ready not in self.log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                said = self.log.read_text(errors="replace")
                raise AssertionError(f"the bot never said it was ready:\n{said}")
            await asyncio.sleep(0.05)

    async def open_game(self, host: Player, room_id: int, command: str, title: str) -> int:
        """``command`` in the room once the bot is in it; the new game's id from its announcement, the one
        naming ``host`` as who asked (another player's may still be on its way to ``host``)."""
        await self.until_ready()
        mark = host.mark()
        await host.client.room_say(room_id, command)
        asked = rf"{title} game #(\d+) .*, asked by {re.escape(host.name)}\b"
        line = await bot_line(host, asked, mark, timeout=CHAT_BOUND)
        return int(re.search(asked, line).group(1))  # type: ignore[union-attr]

    async def kill_and_restart(self, watcher: Player, game_id: int) -> None:
        """SIGKILL; the seat goes with the connection; the new process, once in its room, names the lost
        game (its start-up under load has :data:`START_BOUND`, the line one :data:`CHAT_BOUND`)."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        mirror = watcher.client.games[game_id]
        await wait_until(
            lambda: not any(p.name == self.user for p in mirror.players.values()),
            timeout=30,
            what="the bot's seat gone",
        )
        mark = watcher.mark()
        self.process = self.start()
        await self.until_ready()
        await bot_line(watcher, rf"lost its seat .*!resume {game_id}", mark, timeout=CHAT_BOUND)

    async def resume(self, asker: Player, room_id: int, game_id: int) -> int:
        """``!resume GAME`` in the room; the new game's id (from the line naming ``asker`` as who asked)."""
        mark = asker.mark()
        await asker.client.room_say(room_id, f"!resume {game_id}")
        asked = rf"Game #{game_id} continues as game #(\d+), asked by {re.escape(asker.name)}\b"
        line = await bot_line(asker, asked, mark, timeout=CHAT_BOUND)
        return int(re.search(asked, line).group(1))  # type: ignore[union-attr]

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
