"""Games the referee lost its seat in: announced once, offered to ``!resume`` for a day, then closed.

The rules (:class:`LostGames`, a part of :class:`~cockatrice_ext.bot.runtime.Bot`):

* a seat lost (an unregistered account's after a drop or a restart, a game gone in a server restart, a
  moderator's kick: :meth:`LostGames.removed_from_game`), or a game paused because an unregistered
  player's seat went with their connection (:meth:`LostGames.game_paused`), stops the game's referee; its
  record stays open in the journal as a *lost game*, and its room hears how to continue it (``!resume N``),
  or its league opens the pairing's game again;
* that line names the players still in the game when it was lost (the engine's ``players_in``: one who
  conceded, left, was dropped or lost has no seat in the game ``!resume`` opens), read from the journal
  replayed;
* a lost game is announced once (:data:`LOST_AT` in its table meta, seen by every later start and every
  process of a fleet: :meth:`LostGames.lost_line`), and listed by ``!games`` while it is kept;
* a record nobody resumed within :data:`LOST_KEEP_SECONDS` of its announcement is closed, its record kept for
  reports (at start and every :data:`LOST_CHECK_SECONDS`; never one a ``!resume`` is rebuilding);
* a game number the server gives again (a server without a database counts from 1 after a restart) moves the
  old record aside as ``N@K`` (:meth:`LostGames.number_given_again`);
* a judge-level referee takes its judge's spectator seats again after a restart
  (:meth:`LostGames.watch_again`).

Why: a restart or a dropped connection must lose no game record, yet a bot restarted every night must not
list and announce every game it ever lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from cockatrice_ext.bot.referee import LOST_HANDLE, GameReferee, handle_order
from cockatrice_ext.bot.words import duration_words, game_list, shorten
from cockatrice_ext.client.errors import ClientError
from cockatrice_ext.journal import JournalWriteError

LOGGER = logging.getLogger("cockatrice_ext.bot.runtime")
"""The session's one logger (operators filter the bot's session lines by it)."""


LOST_KEEP_SECONDS = 24 * 3600.0
"""Seconds a lost game's record waits for ``!resume`` after the room was told it was lost; then it is closed
in the journal (with why, its record still there for reports) and no longer listed or announced: a bot
restarted every night would otherwise list and announce every game it ever lost, its players long gone."""


LOST_CHECK_SECONDS = 600.0
"""How often a running bot closes the lost records whose wait ran out (a start does it too)."""


LOST_AT = "lost_at"
"""A lost game's table meta: when (wall clock) its room was first told it was lost; told once."""


LOST_HOW = "lost_how"
"""A lost game's table meta: :data:`REMOVED` when a moderator removed the referee from it, :data:`PAUSED` when
a player's dropped connection paused it (not a restart)."""


REMOVED = "removed"
PAUSED = "paused"
""":data:`LOST_HOW` of a game paused because an unregistered player's seat went with their connection
(:meth:`LostGames.game_paused`): the referee left it, its record waits for ``!resume`` as a lost game's."""
PAUSED_FOR = "paused_for"
"""A paused game's table meta: the name of the player whose connection dropped."""


def keep_words(seconds: float) -> str:
    """A long duration for players ("24 hours"); under an hour as :func:`duration_words` says it."""
    if seconds < 3570:
        return duration_words(seconds)
    hours = round(seconds / 3600)
    return f"{hours} hour{'' if hours == 1 else 's'}"


def lost_expired_reason() -> str:
    """Why a lost record no one resumed in time is closed (the journal's reason)."""
    return f"lost in a restart and not resumed within {keep_words(LOST_KEEP_SECONDS)}"


def lost_since(meta: dict[str, Any]) -> float | None:
    """When the room was told this record's game was lost (None: not yet, or unreadable)."""
    value = meta.get(LOST_AT)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def lost_expired(meta: dict[str, Any], now: float) -> bool:
    """Whether a lost record waited :data:`LOST_KEEP_SECONDS` for ``!resume`` since its room was told."""
    since = lost_since(meta)
    return since is not None and now - since >= LOST_KEEP_SECONDS


class LostGames:
    """Lost games: their announcement, their wait for ``!resume`` and their expiry (see the module)."""

    GAME_KEY = ":game:"

    async def removed_from_game(self, referee: GameReferee) -> None:
        """A moderator removed the referee from its game (``Event_Kicked``): the operator's log says so (a
        warning naming the game) and the room hears it once, with ``!resume`` when the game's record is kept;
        its record is a lost game worded as removed (:data:`LOST_HOW`), which expires like any lost game
        (:data:`LOST_AT`). The client does not sit in it again (the server's seat is gone)."""
        from cockatrice_ext.journal import JournalError

        game_id, key = referee.game_id, referee.table_key
        names = referee.player_names()
        what = f"{referee.format_name} game #{game_id}" + (f" ({', '.join(names)})" if names else "")
        main = self.main or self
        kept = self.journal.has_table(key) and self.journal.closed_reason(key) is None
        if kept and not key.startswith(f"{self.server_key}{self.GAME_KEY}"):  # a league's game: its league's
            LOGGER.warning("a moderator removed the referee from %s (record %s)", what, key)
            await referee.on_seat_lost()
            return
        if not kept:
            why = "it was over" if referee.finished else "it had not started, so nothing is kept"
            LOGGER.warning("a moderator removed the referee from %s: %s", what, why)
            if not referee.finished:
                await main.room_say(
                    referee.room_id,
                    shorten(
                        f"A moderator removed the referee from {what} before it started: ask for a new game."
                    ),
                )
            return
        try:
            meta = self.journal.table_meta(key)
            self.journal.set_table_meta(key, {**meta, LOST_HOW: REMOVED})
        except JournalError as exc:
            LOGGER.warning("cannot record that game %d was removed: %s", game_id, exc)
        joined = main.in_room(referee.room_id)
        told = self.told_lost(key) if joined else False  # the room's line marks when the record expires
        LOGGER.warning(
            "a moderator removed the referee from %s; its record %s is kept: its players can say !resume %d"
            " in the room to continue it in a new game (%s)",
            what,
            key,
            game_id,
            "its room was told before"
            if told
            else "a line to its room is queued"
            if joined
            else "its room is not joined now, so it is not told; a restart announces it",
        )
        if joined and not told:
            await main.room_say(
                referee.room_id,
                shorten(
                    f"A moderator removed the referee from {what}; say !resume {game_id} to continue it in a"
                    " new game."
                ),
            )

    def was_removed(self, key: str) -> bool:
        """Whether the lost game of record ``key`` was lost because a moderator removed the referee."""
        return self.lost_how(key) == REMOVED

    def lost_how(self, key: str) -> str:
        """How the game of record ``key`` was lost: :data:`REMOVED`, :data:`PAUSED`, or "" (a lost seat)."""
        try:
            return str(self.journal.table_meta(key).get(LOST_HOW) or "")
        except Exception:  # a damaged record: listed as lost, said when it is read
            return ""

    async def game_paused(self, referee: GameReferee, name: str) -> None:
        """``name``'s unregistered seat went with their connection, and the rules would end the game for it
        (:meth:`GameReferee.pause_for_drop`, which has left the game): its record becomes a lost game worded
        as paused (:data:`PAUSED`, :data:`PAUSED_FOR`), offered to ``!resume`` and kept as lost games are,
        and its room hears it once."""
        from cockatrice_ext.journal import JournalError

        key = referee.table_key
        try:
            meta = self.journal.table_meta(key)
            self.journal.set_table_meta(key, {**meta, LOST_HOW: PAUSED, PAUSED_FOR: name})
        except JournalError as exc:
            LOGGER.warning("cannot record that game %d was paused: %s", referee.game_id, exc)
        main = self.main or self
        if main.in_room(referee.room_id):
            await main.room_say(referee.room_id, main.lost_line(referee.game_id, key))

    async def _seat_lost(self, game_id: int) -> None:
        """The server dropped our seat while we were away (unregistered accounts lose it): say so. A number
        we sit in again is a new game opened since (the old one's loss was handled then): left alone."""
        if game_id not in self.client.games:
            await self._retire_lost(game_id)

    async def _retire_lost(self, game_id: int, *, renumbered: bool = False) -> None:
        """Stop refereeing a game whose seat is gone; its referee says so (or its league opens it again)."""
        self.drop_opened(game_id)
        referee = self.games.get(game_id)
        if referee is None:
            return
        await referee.work.caught_up()  # what the game heard before its seat went is handled first
        if self.games.get(game_id) is not referee:
            return
        del self.games[game_id]
        referee.closed = True
        referee.views_changed()  # its pages end and their links expire (a !resume gives new ones)
        await referee.on_seat_lost(renumbered=renumbered)

    def lost_games(self) -> dict[str, str]:
        """Journaled open games of this server that the bot no longer sits in: handle (the game number,
        ``N@K`` for a record moved aside, see :data:`LOST_HANDLE`) -> table key. A record that waited for
        ``!resume`` longer than :data:`LOST_KEEP_SECONDS` is no longer one (:meth:`expire_lost_games` closes
        it)."""
        now = time.time()
        found = {}
        for handle, key in self.lost_records().items():
            try:
                expired = lost_expired(self.journal.table_meta(key), now)
            except Exception:  # a damaged record: listed as before, said when it is read
                expired = False
            if not expired:
                found[handle] = key
        return found

    def lost_records(self) -> dict[str, str]:
        """:meth:`lost_games`, those whose wait for ``!resume`` ran out included."""
        prefix = f"{self.server_key}{self.GAME_KEY}"
        lost = {}
        for key in self.journal.open_tables():
            handle = key[len(prefix) :] if key.startswith(prefix) else ""
            if not LOST_HANDLE.fullmatch(handle):
                continue
            if handle.isdigit() and int(handle) in self.all_games():
                continue
            if key in (self.main or self).unreplayable:  # not lost: this version cannot continue it
                continue
            if self.fleet is None or self.fleet.claimable(key):
                lost[handle] = key
        return lost

    def expire_lost_games(self) -> list[str]:
        """Close in the journal every lost record whose room was told it was lost more than
        :data:`LOST_KEEP_SECONDS` ago and that nobody resumed (:func:`lost_expired_reason`); its record stays
        for reports. In a fleet a record is closed under its lease (another live process's is left to it),
        so two processes never close one twice nor one a ``!resume`` is rebuilding. The handles closed."""
        from cockatrice_ext.journal import JournalError

        main = self.main or self
        now, closed = time.time(), []
        for handle, key in self.lost_records().items():
            if key in main._resuming:
                continue
            try:
                if not lost_expired(self.journal.table_meta(key), now):
                    continue
                held = self.fleet is not None and self.fleet.holds(key)
                if self.fleet is not None and not self.fleet.acquire(key):
                    continue  # another live process holds it: it closes it
                try:
                    still = self.journal.closed_reason(key) is None and key not in main._resuming
                    if still and lost_expired(self.journal.table_meta(key), time.time()):
                        self.journal.close_table(key, lost_expired_reason())
                        closed.append(handle)
                finally:
                    if self.fleet is not None and not (held and self.journal.closed_reason(key) is None):
                        self.fleet.release(key)
            except JournalError as exc:  # unreadable, or the journal cannot be written now: next time
                LOGGER.warning("lost game %s not closed: %s", handle, exc)
        if closed:
            LOGGER.info(
                "closed lost game(s) %s: %s (their records are kept)",
                game_list(closed),
                lost_expired_reason(),
            )
        return closed

    async def _expire_lost_regularly(self) -> None:
        """While the bot runs: close lost records not resumed in time, every :data:`LOST_CHECK_SECONDS`."""
        while True:
            await asyncio.sleep(LOST_CHECK_SECONDS)
            try:
                self.expire_lost_games()
            except Exception:  # a database hiccup: the next round tries again
                LOGGER.exception("closing lost games not resumed in time failed")

    def told_lost(self, key: str) -> bool:
        """Record that the room was told the game of record ``key`` is lost (once: see :meth:`lost_line`);
        whether it had been told already. A journal that cannot be written: not recorded, so told again."""
        from cockatrice_ext.journal import JournalError

        try:
            meta = self.journal.table_meta(key)
            if lost_since(meta) is not None:
                return True
            self.journal.set_table_meta(key, {**meta, LOST_AT: time.time()})
        except JournalError as exc:
            LOGGER.warning("cannot record that lost game %s was announced: %s", key, exc)
        return False

    def not_lost(self, key: str) -> None:
        """Table ``key`` is refereed again (resumed in place, or a new game continuing it): a later loss is
        told again."""
        from cockatrice_ext.journal import JournalError

        with contextlib.suppress(JournalError):
            meta = self.journal.table_meta(key)
            if LOST_AT in meta or LOST_HOW in meta:
                self.journal.set_table_meta(
                    key, {k: v for k, v in meta.items() if k not in (LOST_AT, LOST_HOW, PAUSED_FOR)}
                )

    async def number_given_again(self, game_id: int) -> None:
        """The server numbered a new game ``game_id``, a number the journal already has (a server without
        a database counts from 1 again after a restart): move the old record aside as ``N@K``; when it was
        not over, say in its room how to continue it."""
        # The old game's referee, when the client's report of its lost seat comes after this (a new game
        # opened while the client was still rejoining): its seat is certainly gone, the number is new.
        await self._retire_lost(game_id, renumbered=True)
        key = f"{self.server_key}{self.GAME_KEY}{game_id}"
        if not self.journal.has_table(key):
            return
        generation = 1
        while self.journal.has_table(f"{key}@{generation}"):
            generation += 1
        handle = f"{game_id}@{generation}"
        was_open = self.journal.closed_reason(key) is None
        self.journal.rename_table(key, f"{key}@{generation}")
        main = self.main or self
        if key in main.unreplayable:  # its game is gone (the number is a new game's): said as unreplayable
            moved = main.unreplayable[f"{key}@{generation}"] = main.unreplayable.pop(key)
            moved.handle, moved.session = handle, None
        if was_open and self.fleet is not None:
            self.fleet.acquire(f"{key}@{generation}")  # announced here: no other process offers it again
        LOGGER.warning("the server numbered a new game %d again: its old record is now %s", game_id, handle)
        meta = self.journal.table_meta(f"{key}@{generation}")
        room_id = int(meta.get("room_id", -1))
        if was_open and room_id in self.room_ids:
            names = ", ".join(self.players_still_in(f"{key}@{generation}", meta))
            what = f"{meta.get('format', 'game')} game #{game_id}" + (f" ({names})" if names else "")
            await self.room_say(
                room_id,
                f"The referee's earlier {what} was numbered again by the server (it restarted and counts"
                f" games from 1 again). Its record is kept as #{handle}: say !resume {handle} to continue"
                " it in a new game.",
            )
            self.told_lost(f"{key}@{generation}")  # a later start does not announce it again

    async def watch_again(self, timeout: float = 5.0) -> None:
        """After a restart, take the judge's spectator seat again in every journaled game we watched
        (the server keeps no spectator seat); the game's referee then resumes in place."""
        if not self.judge_level:
            return
        for handle, key in sorted(self.lost_games().items(), key=lambda item: handle_order(item[0])):
            meta = self.journal.table_meta(key)
            room_id = int(meta.get("room_id", -1))
            if not handle.isdigit() or not meta.get("watching") or room_id not in self.room_ids:
                continue  # a record moved aside: its game is gone from the server
            if meta.get(LOST_HOW) == REMOVED:
                continue  # a moderator removed the referee: it does not sit down there again
            game_id = int(handle)
            if not await self.watch_game_again(room_id, game_id, timeout):
                continue
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout  # its referee resumes on the joined event
            while game_id not in self.games and loop.time() < deadline:
                await asyncio.sleep(0.01)

    async def watch_game_again(self, room_id: int, game_id: int, timeout: float = 5.0) -> bool:
        """Take a judge's spectator seat in a game we watched before a restart and wait for its state (who
        sits there, whether it started); False when the server refuses (the game is gone)."""
        try:
            await self.client.join_game(room_id, game_id, spectator=True, judge=True)
        except (ClientError, TimeoutError) as exc:
            LOGGER.info("game %d: cannot watch it again: %s", game_id, exc)
            return False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            mirror = self.client.games.get(game_id)
            if mirror is not None and mirror.players:
                return True
            await asyncio.sleep(0.01)
        return game_id in self.client.games

    def players_still_in(self, key: str, meta: dict[str, Any]) -> list[str]:
        """The journaled names (``meta``'s ``names``, in seat order) of record ``key``'s players who were
        still in its game when it was lost: its journal replayed, read as the format's ``!resume`` reads it
        (the engine's ``players_in``); a player who conceded, left, was dropped or lost is not called to
        continue it. Every journaled name when the engine does not say who is out, or the record does not
        replay (then it is said to be unreplayable where it is read)."""
        names = {str(player): str(name) for player, name in dict(meta.get("names", {})).items()}
        try:
            still_in = self.journal.restore(key).players_in()
        except Exception as exc:  # a record that does not replay, or of an older shape: nobody left out
            LOGGER.debug("lost game %s: who is still in cannot be read (%s); every player named", key, exc)
            return list(names.values())
        if still_in is None:
            return list(names.values())
        players = {str(player) for player in still_in}
        return [name for player, name in names.items() if player in players]

    def lost_line(self, game_id: int | str, key: str) -> str:
        """What the room hears of a journaled game the bot no longer sits in: how to continue it
        (``!resume``), or, for a record this version cannot replay, that it cannot be continued here.

        A lost game is told once: the first call for it records when (:data:`LOST_AT`, in its meta: every
        process of a fleet and every later start sees it) and later ones give ``""``, which chat drops, so a
        restart does not announce again every game it ever lost (``!games`` lists them while they are kept:
        :data:`LOST_KEEP_SECONDS`)."""
        meta = self.journal.table_meta(key)
        unreplayable = (self.main or self).unreplayable.get(key)
        if unreplayable is not None:
            return (
                self.unreplayable_words(f"{meta.get('format', 'game')} game #{game_id}", unreplayable) + "."
            )
        refereed = str(game_id).isdigit() and int(game_id) in self.all_games()
        if not refereed and self.told_lost(key):
            return ""
        names = ", ".join(self.players_still_in(key, meta))
        what = f"{meta.get('format', 'game')} game #{game_id}" + (f" ({names})" if names else "")
        if meta.get(LOST_HOW) == PAUSED:
            who = str(meta.get(PAUSED_FOR) or "a player")
            return shorten(
                f"{what[0].upper()}{what[1:]} is paused: {who}'s connection dropped and the server gave their"
                f" seat away (it keeps only a registered account's). Its record is kept: when {who} is back,"
                f" say !resume {game_id} to continue it in a new game."
            )
        if meta.get(LOST_HOW) == REMOVED:
            why = f"A moderator removed the referee from {what}"
        elif meta.get("watching") and self.judge_level:
            why = (
                f"In a restart (its own or the server's) the referee could not watch {what} again: it is gone"
            )
        elif self.registered:  # a registered account's seat is kept: it is the game that is gone
            why = (
                f"The referee lost its seat in {what}: the game is gone from the server (a server restart"
                " ends every game, and a game closes once all its players have left)"
            )
        else:
            why = (
                f"The referee lost its seat in {what}: an unregistered account loses its seats when it"
                " restarts or its connection drops"
            )
        return f"{why}. Its record is kept: say !resume {game_id} to continue it in a new game."

    async def announce_lost_games(self) -> None:
        """Right after (re)starting: tell each room which of its games the bot can no longer referee; a record
        this version cannot replay is said so, and not offered to ``!resume``. A game is announced by the
        first start that finds it lost, not by every later one (:meth:`lost_line`); a record nobody resumed
        in time is closed first (:meth:`expire_lost_games`)."""
        from cockatrice_ext.journal import JournalError

        self.expire_lost_games()
        for handle, key in sorted(self.lost_games().items(), key=lambda item: handle_order(item[0])):
            try:
                room_id = int(self.journal.table_meta(key).get("room_id", -1))
            except JournalError as exc:
                LOGGER.error("lost game %s cannot be read: %s", handle, exc)
                continue
            try:
                self.journal.replay(key)
            except JournalWriteError:  # not the record's fault
                pass
            except JournalError as exc:
                LOGGER.error("lost game %s cannot be replayed: %s", handle, exc)
                self.note_unreplayable(key, handle, room_id, exc)
            if room_id in self.room_ids:
                await self.room_say(room_id, self.lost_line(handle, key))
