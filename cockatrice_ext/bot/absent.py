"""Players whose connection is gone: how long the referee waits before the game hears it, what the others
may do then (``!drop NAME`` where the format has a way on without them), and what a player who is back is
told of the chat they missed.

Why: Servatrice keeps a registered player's seat when their connection drops (``ping_seconds`` -1) and
says nothing to the others; a client restarted or a phone that changed networks is back within minutes, a
banned or vanished player never is. :class:`AbsentPlayers` is a mixin of
:class:`~cockatrice_ext.bot.referee.GameReferee`, which holds the state it reads.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from cockatrice_ext.bot.board import RefereeParts
from cockatrice_ext.bot.commands import BadArgument, NotAllowed
from cockatrice_ext.bot.missed import MissedLines, recap
from cockatrice_ext.bot.words import duration_words, either, players_named, shorten
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.client.errors import ClientError
from cockatrice_ext.protocol import commands as pc

if TYPE_CHECKING:
    from cockatrice_ext.bot.chat import Line
    from cockatrice_ext.client.mirror import PlayerState
    from cockatrice_ext.journal import Table

LOGGER = logging.getLogger(__name__)

ABSENT_SECONDS = 180.0
"""How long a seated player's connection is gone from a started game before its chat hears who is missing
and what the others can do (``!drop`` works from then on): a client restarted or a phone that changed
networks is back well within it, a banned or vanished player never is."""


class AbsentPlayers(RefereeParts):
    """Seats whose connection is gone, and players back (a mixin of ``GameReferee``)."""

    finished: str
    table: Table | None
    missed: MissedLines
    absent_since: dict[int, float]
    _absent_watch: dict[int, asyncio.Task[None]]
    _absent_told: set[int]
    dropping: set[int]

    if TYPE_CHECKING:  # given by GameReferee

        @property
        def seats_known(self) -> bool: ...

        def humans(self) -> list[PlayerState]: ...

        def player_name(self, player_id: Any) -> str: ...

        def is_engine_player(self, player_id: int) -> bool: ...

        async def say(self, text: Line) -> None: ...

        async def tell(self, user_name: str, text: Line, *, raw: bool = False) -> None: ...

    async def on_connection_changed(self, event: ClientEvent) -> None:
        """A player's connection dropped (their seat is kept: a registered player) or came back."""
        player = self.mirror.players.get(event.player_id)
        if player is None or player.spectator or event.player_id == self.me:
            return
        if player.ping_seconds < 0:
            self.missed.dropped(event.player_id, player.silent_before_drop, asyncio.get_running_loop().time())
            LOGGER.info("game %d: %s's connection dropped; their seat is kept", self.game_id, player.name)
            await self.follow_absent()
            return
        await self.tell_missed(event.player_id)
        await self.follow_absent()

    # -- players whose connection is gone ----------------------------------------------------------

    async def follow_absent(self) -> None:
        """Bring :attr:`absent_since` in line with the seats the server reports (ping -1: the connection is
        gone, the seat kept): a newly absent seat gets a task that tells the game's chat once, after
        :data:`ABSENT_SECONDS`, who is missing and what the others can do; a seat back (or gone) is
        forgotten, and a player back after that line is said back once."""
        if self.closed or not self.seats_known:
            return
        now = asyncio.get_running_loop().time()
        seats = {p.player_id: p for p in self.humans()}
        for pid, seat in seats.items():
            if seat.ping_seconds < 0 and pid not in self.absent_since:
                self.absent_since[pid] = now
                self._absent_watch[pid] = asyncio.get_running_loop().create_task(self._tell_absent(pid))
        for pid in [pid for pid in self.absent_since if pid not in seats or seats[pid].ping_seconds >= 0]:
            del self.absent_since[pid]
            task = self._absent_watch.pop(pid, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
            if pid in self._absent_told:
                self._absent_told.discard(pid)
                if pid in seats and not self.finished and pid not in self.dropping:
                    await self.say(f"{seats[pid].name} is back; the game goes on.")

    def absent_for(self, player_id: int) -> float | None:
        """Seconds seat ``player_id``'s connection has been gone (the server's word), or None when it is
        not (connected, a spectator, no longer seated, or the seats are not known now)."""
        if not self.seats_known or player_id not in self.absent_since:
            return None
        seat = self.mirror.players.get(player_id)
        if seat is None or seat.spectator or seat.ping_seconds >= 0:
            return None
        return asyncio.get_running_loop().time() - self.absent_since[player_id]

    async def _tell_absent(self, player_id: int) -> None:
        """Once the seat has been gone :data:`ABSENT_SECONDS`, say so in a started game (once)."""
        loop = asyncio.get_running_loop()
        while not self.closed and player_id in self.absent_since:
            due = self.absent_since[player_id] + ABSENT_SECONDS - loop.time()
            if due > 0:
                await asyncio.sleep(due)
            elif not self.seats_known:
                await asyncio.sleep(1.0)  # the referee is between a lost connection and back
            else:
                break
        if self.absent_for(player_id) is None or player_id in self._absent_told or self.finished:
            return
        if self.table is None or not self.mirror.started or not self.plays_on(player_id):
            return
        self._absent_told.add(player_id)
        name = self.player_name(player_id)
        gone = duration_words(loop.time() - self.absent_since[player_id])
        await self.say(
            shorten(
                f"{name}'s connection has been gone {gone}; their seat is kept and they may come back."
                f" {self.absent_choices(name)}"
            )
        )

    def plays_on(self, player_id: int) -> bool:
        """Whether seat ``player_id`` still takes part in the game (overridden: not once out of the rules)."""
        return self.is_engine_player(player_id)

    def absent_choices(self, name: str) -> str:
        """What the others can do while ``name``'s connection stays gone; by default (Combat, a league's
        game) the rules have no way on without them."""
        if getattr(self, "league", None) is not None:  # a league's game (bot/league_games.py)
            return "Wait for them: if they stay away, the league gives the game to their opponent by forfeit."
        return "The rules have no way to go on without them: wait for them."

    def absent_seat(self, typed: str) -> int:
        """The seat ``typed`` names (:func:`players_named`) if its connection has been gone at least
        :data:`ABSENT_SECONDS` and it still plays, else a refusal saying why."""
        seats = {p.player_id: p for p in self.humans()}  # identity: the server's seat ids and names
        named = players_named(typed, seats, lambda pid: seats[pid].name)
        if not named:
            raise BadArgument("no player seated in this game has that name")
        if len(named) > 1:
            raise BadArgument(f"which one: {either([seats[pid].name for pid in named])}?")
        seat = seats[named[0]]
        if not self.plays_on(seat.player_id):
            raise NotAllowed(f"{seat.name} is out of this game already")
        bound = duration_words(ABSENT_SECONDS)
        gone = self.absent_for(seat.player_id)
        if gone is None:
            raise NotAllowed(
                f"{seat.name} is connected: !drop is only for a player whose connection has been gone {bound}"
            )
        if gone < ABSENT_SECONDS:
            raise NotAllowed(
                f"{seat.name}'s connection has been gone {duration_words(gone)} and they may be back soon:"
                f" !drop works once it has been gone {bound}"
            )
        return seat.player_id

    async def drop_absent(self, sender: str, typed: str) -> None:
        """``!drop NAME`` once the format has said the game may lose a player now: the seat ``typed`` names
        (:meth:`absent_seat`) is announced and goes as the rules take out one who leaves (``drop_out``)."""
        seat = self.absent_seat(typed)
        gone = duration_words(self.absent_for(seat) or ABSENT_SECONDS)
        await self.say(f"{sender} drops {self.player_name(seat)}, whose connection has been gone {gone}.")
        await self.drop_out(seat)  # type: ignore[attr-defined]

    async def remove_dropped(self, player_id: int) -> None:
        """After the rules took seat ``player_id`` out (``!drop``): tell them privately what the game's chat
        said meanwhile (kept until they are back online), then take the seat away (the referee hosts the
        game), so Cockatrice's turn order goes on without it."""
        name = self.player_name(player_id)
        text = recap(self.game_id, self.missed.back(player_id))
        await self.tell(
            name, text or f"Game #{self.game_id}: the other players took you out, your connection being gone."
        )
        try:
            await self.bot.client.game_commands(self.game_id, [pc.kick_from_game(player_id)])
        except (ClientError, ConnectionError, TimeoutError) as exc:  # the rules' word stands: out
            LOGGER.info("game %d: could not take %s's seat away: %s", self.game_id, name, exc)

    async def tell_missed(self, player_id: int) -> None:
        """Send a player who is back what the game's chat said while they were away, in one message."""
        text = recap(self.game_id, self.missed.back(player_id))
        if text and not self.closed:
            await self.tell(self.player_name(player_id), text)
