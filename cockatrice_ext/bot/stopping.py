"""How a normal stop tells every refereed game what becomes of it, within one bounded wait.

The rules (:class:`Stopping`, a part of :class:`~cockatrice_ext.bot.runtime.Bot`):

* the stop news goes first: the games' queues close (a move recorded now could not be answered; the restart
  takes up what they held), and what still waits for game and room chat is dropped
  (:meth:`Stopping._drop_stale_chat`; private messages stay, kept for offline users);
* each game the referee sits in as a player shows a "Referee stopped" note card on the referee's own table
  (:data:`STOP_NOTE_CARD`: one game command, no chat budget), taken away when the game is taken up again;
* each room hears one line naming its games and what becomes of each (:func:`stopping_room_lines`), ahead of
  everything, then each game hears its own line, straight through the client in that order;
* a line reporting a finished result that still waits in a game's chat (a league game's result: journaled,
  but its players would never hear it there) is not dropped: it goes out with the game's stop news, ahead
  of its stop line (:meth:`Stopping._unsaid_results`);
* the stop waits once, sized from the flood gate (:meth:`Stopping.size_stop_wait`, ``STOP_WAIT`` to
  ``STOP_WAIT_MAX``), and not at all for a session that is reconnecting.

Why: a busy referee's chat budget (10 messages and 1000 characters per 10 s per connection) cannot carry a
line per game behind what is already queued within the time a service manager waits (``docker stop``: 10 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import ClassVar

from cockatrice_ext.bot.chat import SEPARATOR, bidi_isolated
from cockatrice_ext.bot.referee import GameReferee
from cockatrice_ext.client.errors import ClientError, ConnectionLost
from cockatrice_ext.client.flood import Cost, FloodError
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol.codes import Zone

LOGGER = logging.getLogger("cockatrice_ext.bot.runtime")
"""The session's one logger (operators filter the bot's session lines by it)."""


STOP_NOTE_CARD = "Referee stopped"
"""The note card (a token on the referee's own table) a stop leaves in each game it sits in as a player,
its annotation the game's stop line; taken away when the game is taken up again."""


STOP_ROOM_LINE_LIMIT = 300
"""Characters a stop's room line holds at most (the chat scheduler's cut for room lines); more games than
fit take more lines."""


def stopping_room_lines(games: list[tuple[int, str]], limit: int = STOP_ROOM_LINE_LIMIT) -> list[str]:
    """The room's lines when the referee stops: ``games`` are (game number, the game's own stopping line);
    games whose fate reads the same are named together ("Games #3, #5: each game is kept: ..."), so one
    message tells every game of the room what becomes of it. The game's own line is the source of truth
    (true for the account's kind, a fleet, a league): only its opening and its game number are generalized."""
    stop = GameReferee.STOPPING
    groups: dict[str, list[int]] = {}
    for game_id, line in sorted(games):
        tail = line[len(stop) :].strip() if line.startswith(stop) else line.strip()
        groups.setdefault(tail.replace(f"!resume {game_id}", "!resume NUMBER"), []).append(game_id)
    parts: list[str] = []
    for tail, ids in groups.items():
        numbers = ", ".join(f"#{game_id}" for game_id in ids)
        if len(ids) == 1:
            parts.append(f"Game {numbers}: {tail.replace('!resume NUMBER', f'!resume {ids[0]}')}")
        else:
            each = re.sub(r"^this\b", "each", tail).replace("!resume NUMBER", "!resume and the game's number")
            parts.append(f"Games {numbers}: {each}")
    opening = stop.rstrip(";").rstrip() + ":"
    lines: list[str] = []
    current = opening
    for part in parts:
        if current != opening and len(current) + 1 + len(part) > limit:
            lines.append(current)
            current = opening
        current = f"{current} {part}"
    lines.append(current)
    return [line[:limit] for line in lines]


def packed(lines: list[str], limit: int = STOP_ROOM_LINE_LIMIT) -> list[str]:
    """A game's stop news as messages: its lines joined as the chat scheduler merges a destination's lines
    (``" | "``), each message at most ``limit`` characters (a line longer than that is a message of its own,
    cut where it is said)."""
    messages: list[str] = []
    for line in lines:
        if messages and len(messages[-1]) + len(SEPARATOR) + len(line) <= limit:
            messages[-1] += SEPARATOR + line
        else:
            messages.append(line)
    return messages


class Stopping:
    """A session's normal stop: the stop news first, the cheapest ways, within one wait (see the module)."""

    STOP_WAIT: ClassVar[float] = 3.0
    """Seconds a stop waits, at least, in all, for the lines still to send (the ones telling each game the
    referee stops among them): one wait from the moment the stop begins (:meth:`stop_wait`), which ends as
    soon as everything is sent."""

    STOP_WAIT_MAX: ClassVar[float] = 8.0
    """Seconds a stop waits, at most, when the chat budget needs longer than :data:`STOP_WAIT` for the lines
    telling each game (:meth:`size_stop_wait`): with the closing after it, a stop ends well within
    ``docker stop``'s 10 s (systemd waits 90 s); the room line naming every game went first."""

    def stop_deadline(self) -> float:
        """When the stop's one wait for chat ends (the loop's time): :data:`STOP_WAIT` from its first call,
        unless :meth:`size_stop_wait` set it first."""
        main = self.main or self
        if main._stop_by is None:
            main._stop_by = asyncio.get_running_loop().time() + self.STOP_WAIT
        return main._stop_by

    def size_stop_wait(self, saying: dict[int, tuple[int, int]]) -> float:
        """Set the stop's one wait from what the stop must say (``saying``: each session's ``id`` to the
        messages and characters of its stop lines): the time each connected session's flood gate needs to
        let them and the chat still waiting through, plus a second for the last message's way, between
        :data:`STOP_WAIT` and :data:`STOP_WAIT_MAX`. Returns the deadline (loop time)."""
        main = self.main or self
        now = asyncio.get_running_loop().time()
        needed = max(
            (
                session.chat_needs(now, *saying.get(id(session), (0, 0)))
                for session in main.sessions
                if session.connected
            ),
            default=0.0,
        )
        if main._stop_by is None:
            main._stop_by = now + min(self.STOP_WAIT_MAX, max(self.STOP_WAIT, needed + 1.0))
        return main._stop_by

    def chat_needs(self, now: float, messages: int = 0, characters: int = 0) -> float:
        """Seconds this session's flood gate needs to send the chat waiting now and ``messages`` more of
        ``characters`` in all (a window per window's worth, when that is more than one window allows)."""
        flood = getattr(self.client, "flood", None)
        if flood is None:
            return 0.0
        waiting, waiting_chars = self.chat.waiting()
        messages, characters = messages + waiting, characters + waiting_chars
        limits = flood.limits
        window = limits.chat_interval + limits.margin
        windows = max(
            (
                wanted / limit
                for wanted, limit in ((messages, limits.chat_messages), (characters, limits.chat_chars))
                if limit > 0
            ),
            default=0.0,
        )
        if windows > 1.0:
            return window * windows
        try:
            return float(flood.delay(Cost(chat_messages=messages, chat_chars=characters), now))
        except FloodError:
            return window

    async def stop_wait(self) -> None:
        """Stopping: wait until every connected session has sent what it queued, a session's connection
        drops (what it holds can no longer be said), or the stop's deadline (:meth:`stop_deadline`), one
        for the whole stop however often this is called; a session that is reconnecting is not waited for."""
        main = self.main or self
        loop = asyncio.get_running_loop()
        deadline = self.stop_deadline()
        waits = {
            loop.create_task(session.chat.flush(timeout=max(0.0, deadline - loop.time()))): session
            for session in main.sessions
            if session.connected and not session._chat_taken_over
        }
        try:
            while waits and loop.time() < deadline:
                done, _ = await asyncio.wait(waits, timeout=min(0.05, max(0.0, deadline - loop.time())))
                for task in done:
                    waits.pop(task)
                for task, session in list(waits.items()):
                    if not session.connected:  # dropped meanwhile: its lines cannot go now
                        task.cancel()
                        waits.pop(task)
        finally:
            for task in waits:
                task.cancel()
            if waits:
                await asyncio.gather(*waits, return_exceptions=True)

    async def say_stopping(self) -> str:
        """A normal stop (the operator's): tell each refereed game what becomes of it, and return the
        operator's line (how many games the journal keeps).

        A busy referee's chat budget (10 messages and 1000 characters per 10 s per connection, shared with
        everything) cannot carry a line per game, behind what is already queued, within a stop a service
        manager waits for (``docker stop``: 10 s). So the stop news goes first, by the cheapest ways: each
        game the referee sits in as a player shows its line on a note card on the referee's table (one game
        command each, no chat budget: :meth:`_stop_note`); each room gets one line naming its games and what
        becomes of each (players sitting in the room hear it even when their game's own line does not make
        it); then each game's chat gets its line, after the lines reporting a result that still wait there
        (:meth:`_unsaid_results`: a league game's, also when it is over). The games' queues stop (what they
        still held is taken up by the restart, as after ``kill -9``: a move recorded now could not be
        answered), what else still waited for the chat is dropped (the journal keeps every move; messages kept
        for offline users stay kept), and the lines go straight to the client in that order (a session's chat
        scheduler is closed: its shorter lines would overtake the room line). The stop waits once, sized from
        the budget (:meth:`size_stop_wait`, at most :data:`STOP_WAIT_MAX`); what cannot be sent by then is
        dropped with the sessions. A session that is reconnecting (the server down) cannot tell its games
        anything: it does not try."""
        kept = 0
        telling: list[tuple[GameReferee, str]] = []
        for referee in self.all_games().values():
            if referee.closed or referee.finished:
                continue
            line, keeps = referee.stopping_line()
            kept += keeps
            if referee.bot.connected:
                telling.append((referee, line))
        main = self.main or self
        for referee in self.all_games().values():  # nothing more is recorded that nobody could be told of,
            referee.work.close()  # and the games' commands no longer wait in front of the stop news
        room_lines = self._stop_room_lines(telling) if main.connected else []
        results = self._unsaid_results(
            [referee for referee in self.all_games().values() if referee.bot.connected and not referee.closed]
        )
        self._drop_stale_chat([referee for referee, _ in telling], kept=results)
        news = {referee: [*results.pop(referee, []), line] for referee, line in telling}  # results first
        saying: dict[int, tuple[int, int]] = {}
        game_lines = [(referee.bot, packed(lines)) for referee, lines in [*news.items(), *results.items()]]
        for session, lines in [(main, room_lines), *game_lines]:
            messages, characters = saying.get(id(session), (0, 0))
            saying[id(session)] = messages + len(lines), characters + sum(len(line) for line in lines)
        deadline = self.size_stop_wait(saying)
        for session in main.sessions:
            if session.connected and session.says_directly:
                session.chat.close()
                session._chat_taken_over = True
        notes = [self._stop_note(referee, line) for referee, line in telling if not referee.watching]
        room_told = [main._say_first(room_id, text) for room_id, text in room_lines]
        game_told = [  # a finished game's result still unsaid: right behind the room lines
            referee.bot._say_in_game(referee.game_id, *packed(lines))
            for referee, lines in results.items()
            if referee.bot._chat_taken_over
        ]
        later = []
        for referee, lines in news.items():
            if room_told and referee.bot is main:  # after the room lines, so none of them overtakes those
                later.append((referee, lines))
            elif referee.bot._chat_taken_over:
                game_told.append(referee.bot._say_in_game(referee.game_id, *packed(lines)))
            else:
                await self._say_queued(referee, lines)
        if room_told:
            loop = asyncio.get_running_loop()
            await asyncio.wait(room_told, timeout=max(0.0, deadline - loop.time()))
        for referee, lines in later:
            if referee.bot._chat_taken_over:
                game_told.append(referee.bot._say_in_game(referee.game_id, *packed(lines)))
            else:
                await self._say_queued(referee, lines)
        with contextlib.suppress(Exception):
            await self.stop_wait()
        await self._settle(notes + room_told + game_told)
        open_tables = len(self.journal.open_tables())
        return (
            f"stopping: {kept} refereed game(s) kept in the journal {self.journal.path}"
            f" ({open_tables} open record(s) in all); a restart takes them up again"
        )

    @property
    def says_directly(self) -> bool:
        """Whether this session's client takes room and game lines itself (a real client: paced by its flood
        gate), so the stop can send its news straight to it, in its own order."""
        return callable(getattr(self.client, "room_say", None)) and callable(
            getattr(self.client, "game_say", None)
        )

    def _say_in_game(self, game_id: int, *texts: str) -> asyncio.Task[None]:
        """Say a stop's messages in a game's chat, in order, straight through the client (paced by its flood
        gate)."""

        async def say() -> None:
            with contextlib.suppress(ClientError, ConnectionError, ValueError):  # the game gone, or dropped
                for text in texts:
                    await self.client.game_say(game_id, bidi_isolated(text)[:STOP_ROOM_LINE_LIMIT])

        return asyncio.get_running_loop().create_task(say(), name=f"stop line for game {game_id}")

    @staticmethod
    def _stop_note(referee: GameReferee, line: str) -> asyncio.Task[None]:
        """Show the game's stop line on a note card on the referee's own table (a token whose annotation the
        client prints): one game command however full the chat budget is, seen by whoever looks at the
        table. Taken away when the game is taken up again (:meth:`take_stop_note_away`)."""

        async def show() -> None:
            with contextlib.suppress(Exception):  # refused, or the game gone: the chat lines still go
                await referee.show_note_card(referee.me, STOP_NOTE_CARD, line)

        return asyncio.get_running_loop().create_task(show(), name=f"stop note for game {referee.game_id}")

    @staticmethod
    async def take_stop_note_away(referee: GameReferee) -> None:
        """A game taken up again after a stop: the note card saying the referee stopped goes (a token moved
        off the table is destroyed; a card move costs no game-command budget)."""
        if referee.watching or referee.game_id not in referee.bot.client.games:
            return
        card = referee.note_card(referee.me, STOP_NOTE_CARD)
        if card is None:
            return
        with contextlib.suppress(Exception):  # refused, or the game gone: nothing to take away
            await referee.run(
                pc.move_card(
                    Zone.TABLE.value, [card.id], target_player_id=referee.me, target_zone=Zone.GRAVEYARD.value
                )
            )

    @staticmethod
    def _stop_room_lines(telling: list[tuple[GameReferee, str]]) -> list[tuple[int, str]]:
        """The stop's room lines: (room, text), each room's games named with what becomes of them."""
        by_room: dict[int, list[tuple[int, str]]] = {}
        for referee, line in telling:
            by_room.setdefault(referee.room_id, []).append((referee.game_id, line))
        return [
            (room_id, text)
            for room_id, games in sorted(by_room.items())
            for text in stopping_room_lines(games)
        ]

    @staticmethod
    def _unsaid_results(referees: list[GameReferee]) -> dict[GameReferee, list[str]]:
        """The lines reporting a finished result that still wait in each game's chat, by game: a league game
        keeps every line it said its result with (``result_said``: "X is at 0 life: Y wins.", "Result
        recorded: ..."). The result is journaled, but a stop that dropped them (or closed the chat they wait
        in) would leave the players in the game never hearing it there: they go out with the stop news."""
        found: dict[GameReferee, list[str]] = {}
        for referee in referees:
            said = getattr(referee, "result_said", None) or ()
            lines = [line for line, _ in said if referee.bot.chat.queued(referee.chat_destination, line)]
            if lines:
                found[referee] = lines
        return found

    @staticmethod
    async def _say_queued(referee: GameReferee, lines: list[str]) -> None:
        """Queue a game's stop news on a session whose chat is not taken over: its result lines still unsaid
        (dropped with the stale lines: queued again, first), then its stop line (the last)."""
        *results, line = lines
        with contextlib.suppress(Exception):  # a game gone meanwhile: nothing to tell
            for result in results:
                referee.bot.chat.say(referee.chat_destination, result)
            await referee.say(line)

    def _drop_stale_chat(
        self, referees: list[GameReferee], kept: dict[GameReferee, list[str]] | None = None
    ) -> None:
        """Stopping: forget what still waits for the games' and rooms' chat (answers, listings), so the
        stop news goes first; private messages stay (kept for offline users, they go on at a restart), and
        so do a game's lines reporting a finished result (``kept``: :meth:`_unsaid_results`, said with the
        stop news)."""
        main = self.main or self
        dropped = -sum(len(kept.get(referee, ())) for referee in referees) if kept else 0
        for referee in referees:
            dropped += referee.bot.chat.pending(referee.chat_destination)
            referee.bot.chat.drop(referee.chat_destination)  # a result kept is said with the stop news
        for room_id in list(getattr(main.client, "joined_rooms", ()) or ()):
            dropped += main.chat.pending(("room", room_id))
            main.chat.drop(("room", room_id))
        if dropped:
            LOGGER.info(
                "stopping: %d line(s) waiting for game and room chat dropped for the stop news", dropped
            )

    def _say_first(self, room_id: int, text: str) -> asyncio.Task[None]:
        """Say ``text`` in a room ahead of the chat queue (the client's flood gate still paces it, so the
        server never refuses it as flood): the stop's room line. The scheduler's queue is the way back when
        the client cannot take it directly."""

        async def say() -> None:
            if self.says_directly:
                try:
                    await self.client.room_say(room_id, text)
                    return
                except ConnectionLost:  # dropped: nothing can be said now
                    return
                except (ClientError, ValueError) as exc:
                    LOGGER.info("the stop's room line could not be said: %s", exc)
                    if self._chat_taken_over:
                        return
            self.chat.say(("room", room_id), text)

        return asyncio.get_running_loop().create_task(say(), name=f"stop line for room {room_id}")

    async def _settle(self, tasks: list[asyncio.Task[None]]) -> None:
        """Wait for the stop's room lines until the stop's deadline; those still waiting are cancelled."""
        if not tasks:
            return
        loop = asyncio.get_running_loop()
        _, pending = await asyncio.wait(tasks, timeout=max(0.0, self.stop_deadline() - loop.time()))
        for task in pending:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
