"""``!resume``: a new game continuing the record of a lost one.

The rules (:class:`Resume`, a part of :class:`~cockatrice_ext.bot.runtime.Bot`):

* only a lost game of this referee (:mod:`~cockatrice_ext.bot.lost_games`), in the room it was played in,
  asked for by one of its players (the journal's names, which came from the server); a record this version
  cannot replay, or one closed because nobody resumed it in time, is refused with why;
* the format's ``REBUILDERS`` open the new game; the old record is set aside as ``N@K`` first (the server may
  give the new game the old number), gets its number back if the rebuild fails (the game it opened is left),
  and is closed "resumed as game M" when it works;
* in a fleet the record is rebuilt under its lease, so two processes never rebuild it twice.

Why: a lost game is continued from its journal, never guessed at, and a failed ``!resume`` changes nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.lost_games import LOST_AT, lost_expired_reason
from cockatrice_ext.bot.referee import GameReferee, handle_order, unreplayable_line
from cockatrice_ext.journal import JournalWriteError


class Resume:
    """``!resume``: rebuilding a lost game's record in a new game (see the module)."""

    async def rebuild_game(self, room_id: int, game_id: int | str, requested_by: str) -> GameReferee:
        """``!resume``: open a new game from the journal of a lost one (the format decides how).

        Raises:
            NotAllowed: no such lost game here, the asker did not play in it, or the format cannot.
        """
        from cockatrice_ext.bot import formats as bot_formats
        from cockatrice_ext.journal import JournalError

        main = self.main or self
        for unreplayable in main.unreplayable.values():
            if unreplayable.handle == str(game_id):
                raise NotAllowed(self.unreplayable_words(f"game #{game_id}", unreplayable))
        self.refuse_if_shutting_down()
        lost = self.lost_games()
        key = lost.get(str(game_id))
        if key is None:
            moved = sorted((h for h in lost if h.startswith(f"{game_id}@")), key=handle_order)
            if moved and "@" not in str(game_id):  # an earlier line named it before the server reused it
                raise NotAllowed(
                    f"game #{game_id}'s record is now #{moved[-1]} (the server gave its number to a new"
                    f" game): say !resume {moved[-1]}"
                )
            if self.expired_record(str(game_id)):
                raise NotAllowed(
                    f"game #{game_id} was {lost_expired_reason()}: its record is closed (kept for reports);"
                    " start a new game"
                )
            if str(game_id).isdigit() and int(game_id) in main.unrecorded_games:
                raise NotAllowed(
                    f"game #{game_id} has no record in this referee's journal (restored from an older copy?):"
                    " it cannot be resumed; start a new game"
                )
            again = [
                gid
                for gid, referee in main.all_games().items()
                if str(getattr(referee, "continues", None)) == str(game_id)
            ]
            if again:  # another !resume was first (two players asked at once)
                raise NotAllowed(f"game #{game_id} already continues as game #{again[0]}: join that one")
            raise NotAllowed(f"game #{game_id} is not a lost game of this referee (see !games)")
        try:
            meta = self.journal.table_meta(key)
        except JournalError as exc:  # a damaged record: said, never guessed at
            self.note_unreplayable(key, str(game_id), room_id, exc)
            raise NotAllowed(unreplayable_line(f"game #{game_id}", exc)) from exc
        if int(meta.get("room_id", -1)) != room_id:
            raise NotAllowed(f"game #{game_id} was played in another room")
        if requested_by not in dict(meta.get("names", {})).values():
            raise NotAllowed(f"only the players of game #{game_id} can resume it")
        if self.fleet is not None and not self.fleet.acquire(key):
            raise NotAllowed(f"another referee process has game #{game_id}; ask again in a few seconds")
        rebuilder = bot_formats.REBUILDERS.get(str(meta.get("format", "")))
        if rebuilder is None:
            raise NotAllowed(f"a {meta.get('format', 'game')} game cannot be rebuilt yet; its record is kept")
        held, key = key, self.set_aside(key)  # the new game may be given this number (a restarted server)
        main._resuming |= {held, key}  # not closed as expired while it is rebuilt
        try:
            return await self._rebuild(rebuilder, room_id, game_id, held, key, meta, requested_by)
        finally:
            main._resuming -= {held, key}

    def expired_record(self, handle: str) -> bool:
        """Whether the record of game ``handle`` was closed because nobody resumed it in time."""
        key = f"{self.server_key}{self.GAME_KEY}{handle}"
        with contextlib.suppress(Exception):
            return self.journal.has_table(key) and self.journal.closed_reason(key) == lost_expired_reason()
        return False

    async def _rebuild(
        self,
        rebuilder: Callable[..., Awaitable[GameReferee]],
        room_id: int,
        game_id: int | str,
        held: str,
        key: str,
        meta: dict[str, Any],
        requested_by: str,
    ) -> GameReferee:
        """:meth:`rebuild_game`'s work: open a new game for ``requested_by`` from the lost record ``held``,
        set aside as ``key`` meanwhile (:meth:`set_aside`)."""
        from cockatrice_ext.journal import JournalError

        before = set(self.all_games())
        try:
            referee: GameReferee = await rebuilder(self, room_id, key, requested_by)
        except BaseException as exc:
            await self.undo_rebuild(held, key, before, room_id, str(meta.get("format", "")))
            if isinstance(exc, JournalError):  # never guess: say what could not be read
                if not isinstance(exc, JournalWriteError):  # not offered again: this version cannot
                    now = held if self.journal.has_table(held) else key
                    handle = now.removeprefix(f"{self.server_key}{self.GAME_KEY}")
                    self.note_unreplayable(now, handle, room_id, exc)
                raise NotAllowed(unreplayable_line(f"game #{game_id}", exc)) from exc
            raise
        self.journal.close_table(key, f"resumed as game {referee.game_id}")
        moved = key
        if key != held and referee.table_key != held and not self.journal.has_table(held):
            self.journal.rename_table(key, held)  # the number was not given again: the record keeps it
            key = held
        if self.journal.has_table(referee.table_key):  # the account now seated as referee (fleet take-over)
            new_meta = self.journal.table_meta(referee.table_key)
            if new_meta.get("rebuilt_from") == moved:
                new_meta["rebuilt_from"] = key
            new_meta.pop(LOST_AT, None)  # copied from the lost record: this game is not lost
            self.journal.set_table_meta(
                referee.table_key, {**new_meta, "referee": referee.bot.client.user_name}
            )
        if self.fleet is not None:
            self.fleet.release(moved)
            self.fleet.release(key)
        return referee

    def set_aside(self, key: str) -> str:
        """Before ``!resume`` opens a new game for the lost record ``key`` (``...:game:N``): move the record
        to ``N@K`` first, since the server may give the new game number N (one without a database counts
        from 1 after a restart), which would move it in the middle of the command
        (:meth:`number_given_again`). Returns the key the record is under now."""
        prefix = f"{self.server_key}{self.GAME_KEY}"
        handle = key.removeprefix(prefix)
        if not key.startswith(prefix) or not handle.isdigit():
            return key  # moved aside already
        generation = 1
        while self.journal.has_table(f"{key}@{generation}"):
            generation += 1
        moved = f"{key}@{generation}"
        self.journal.rename_table(key, moved)
        if self.fleet is not None:
            self.fleet.acquire(moved)
            self.fleet.release(key)
        return moved

    async def undo_rebuild(self, key: str, moved: str, before: set[int], room_id: int, fmt: str) -> None:
        """A ``!resume`` failed: leave the game of format ``fmt`` it opened in ``room_id``, if any (nothing
        stays open for it), and give the record its number back (``key``) unless the server gave that number
        to a new game meanwhile."""
        if moved != key and not self.journal.has_table(key) and self.journal.has_table(moved):
            self.journal.rename_table(moved, key)
            if self.fleet is not None:
                self.fleet.acquire(key)
                self.fleet.release(moved)
        for game_id, referee in list(self.all_games().items()):
            opened = game_id not in before and referee.room_id == room_id and referee.format_name == fmt
            if opened and referee.table is None:
                with contextlib.suppress(Exception):
                    await referee.leave()
