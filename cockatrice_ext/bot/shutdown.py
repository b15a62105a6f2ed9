"""A shutdown the server schedules (``Event_ServerShutdown``).

The rules (:class:`ServerShutdown`, a part of :class:`~cockatrice_ext.bot.runtime.Bot`):

* each room and each refereed game hears once what the shutdown does to its games (every game ends; the
  journal keeps those that started: ``!resume`` after, or their league opens them again), and once more in a
  few words at one minute (Servatrice repeats the announcement as its minutes halve);
* no new game opens until it is over; a due time :data:`SHUTDOWN_GRACE` past with the server still there
  counts as no shutdown.

Why: players should hear before their game ends with the server, and not start a game that cannot finish.
"""

from __future__ import annotations

import asyncio
import contextlib

from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.words import duration_words, game_list, shorten

SHUTDOWN_SAME = 90.0
"""Seconds within which two shutdown announcements of the server are the same shutdown (Servatrice repeats
one as its minutes halve, and every minute of the last five)."""


SHUTDOWN_GRACE = 120.0
"""Seconds past a shutdown's due time after which a server still there is taken as not shutting down."""


class ServerShutdown:
    """A shutdown the server announced: told once, and no new game meanwhile (see the module)."""

    def shutdown_due(self) -> float | None:
        """When the shutdown a server announced to any session of this bot is due (the loop's time), or None;
        a due time long past (the server did not go down) counts as none (:data:`SHUTDOWN_GRACE`)."""
        main = self.main or self
        dues = [
            due
            for session in main.sessions
            if session.client is not None
            and (due := getattr(session.client, "shutdown_due", None)) is not None
        ]
        if not dues or min(dues) + SHUTDOWN_GRACE < asyncio.get_running_loop().time():
            return None
        return min(dues)

    def shutdown_words(self) -> str:
        """``the server shuts down in 5 minutes (its reason)``, or ``""`` while no shutdown is due."""
        due = self.shutdown_due()
        if due is None:
            return ""
        main = self.main or self
        reason = next(
            (
                str(getattr(session.client, "shutdown_reason", "") or "")
                for session in main.sessions
                if session.client is not None and getattr(session.client, "shutdown_reason", "")
            ),
            "",
        )
        left = due - asyncio.get_running_loop().time()
        when = f"in {duration_words(left)}" if left >= 1 else "now"
        return f"the server shuts down {when}" + (f" ({shorten(reason, 80)})" if reason else "")

    def refuse_if_shutting_down(self) -> None:
        """No new game while the server is about to shut down: it would end with it.

        Raises:
            NotAllowed: a shutdown is due; when, and why.
        """
        words = self.shutdown_words()
        if words:
            raise NotAllowed(f"{words}: no new game now")

    async def on_server_shutdown(self, minutes: int) -> None:
        """The server announced it shuts down in ``minutes`` (on the main session; Servatrice repeats it as
        the minutes halve and in each of the last five): the first time, each room and each game hears once
        what becomes of its game; at 1 minute, each hears it once more in a few words. New games are refused
        meanwhile (:meth:`refuse_if_shutting_down`)."""
        if self.main is not None:
            return
        loop = asyncio.get_running_loop()
        due = self.shutdown_due() or loop.time() + 60.0 * minutes
        first = self._shutdown_told is None or abs(due - self._shutdown_told) > SHUTDOWN_SAME
        if first:
            self._shutdown_told, self._shutdown_last_told = due, minutes <= 1
            await self.say_shutdown()
        elif minutes <= 1 and not self._shutdown_last_told:
            self._shutdown_last_told = True
            words = self.shutdown_words() or "the server shuts down in 1 minute"
            line = words[0].upper() + words[1:] + "."
            for room_id in self.room_ids:
                if self.answers_room(room_id):
                    await self.room_say(room_id, line)
            for referee in self.all_games().values():
                if not (referee.closed or referee.finished):
                    with contextlib.suppress(Exception):  # a game gone meanwhile: nothing to tell
                        await referee.say(line)

    async def say_shutdown(self) -> None:
        """Tell each room and each refereed game what a server shutdown does to its games: every game on the
        server ends (whatever the account: the server keeps none), the journal keeps the records of those
        that started (``!resume`` after, or a league opens its pairing's game again), no new game opens."""
        words = self.shutdown_words()
        if not words:
            return
        opening = words[0].upper() + words[1:]
        kept: dict[int, list[int]] = {}
        for game_id, referee in sorted(self.all_games().items()):
            if referee.closed or referee.finished:
                continue
            _, keeps = referee.stopping_line()
            league = getattr(referee, "league", None) is not None
            if not keeps:
                what = "it had not started, so nothing is kept: ask for a new game when the server is back"
            elif league:
                what = "the league keeps it and opens the pairing's game again when the server is back"
            else:
                what = (
                    f"its record is kept: when the server is back, say !resume {game_id} in the room to"
                    " continue it in a new game"
                )
                kept.setdefault(referee.room_id, []).append(game_id)
            with contextlib.suppress(Exception):  # a game gone meanwhile: nothing to tell
                await referee.say(shorten(f"{opening}: this game ends with it; {what}."))
        for room_id in self.room_ids:
            if not kept.get(room_id) and not self.answers_room(room_id):
                continue  # in a fleet, the process that answers the room says it
            line = (
                f"{opening}: every game on it ends then, and the referee opens no new game until it is back."
            )
            if kept.get(room_id):
                games = game_list(kept[room_id])
                line += f" Their records are kept ({games}): once it is back, say !resume GAME here to"
                line += " continue one."
            await self.room_say(room_id, shorten(line))
