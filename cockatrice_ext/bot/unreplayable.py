"""Journaled games this version cannot replay (their rules or records changed since they were played).

The rules (:class:`UnreplayableGames`, a part of :class:`~cockatrice_ext.bot.runtime.Bot`):

* such a record is not a lost game: it is never offered to ``!resume`` and is kept open for the version that
  recorded it (:attr:`Unreplayable.played_with`, the version named to players and operator);
* ``!games`` lists it with why, and while the referee still sits in its game each player who says a command
  there hears once why nothing is done (never silence).

Why: a table that replays differently would be refereed by different rules than it was played by.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cockatrice_ext import __version__
from cockatrice_ext.bot.commands import looks_like_command
from cockatrice_ext.bot.referee import handle_order
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.journal import PLAYED_WITH, JournalWriteError

if TYPE_CHECKING:
    from cockatrice_ext.bot.runtime import Bot


@dataclass
class Unreplayable:
    """A journaled game this version cannot replay (its rules changed since it was recorded): not lost, so not
    offered to ``!resume``; its record is kept for the version that recorded it."""

    handle: str
    """The game's number as players name it (``N``, or ``N@K`` for a record moved aside)."""
    room_id: int
    reason: str
    """The journal's words for players (what replays differently; the version that played it, if another)."""
    played_with: str = ""
    """The version of this program that recorded it, when it was another one."""
    session: Bot | None = None
    """The session still seated in the game (its players' commands get the reason), or None."""
    told: set[str] = field(default_factory=set)
    """Players told in the game why the referee no longer answers there (once each)."""

    @property
    def game_id(self) -> int | None:
        """The server's number of the game the bot sits in, while it does."""
        return int(self.handle) if self.session is not None and self.handle.isdigit() else None


class UnreplayableGames:
    """Games this version cannot replay: remembered, listed, and answered with why (see the module)."""

    def note_unreplayable(
        self, key: str, handle: str, room_id: int, error: Exception, *, seated: bool = False
    ) -> Unreplayable | None:
        """Remember that the journaled game ``key`` does not replay with this version (``error``, the
        journal's): it is not lost (no ``!resume`` offer), ``!games`` says so, and while this session sits in
        it (``seated``) its players' commands are answered with why. A write failure is no such thing."""
        if isinstance(error, JournalWriteError):
            return None
        played_with = ""
        with contextlib.suppress(Exception):  # a damaged record: no version to name
            version = self.journal.table_meta(key).get(PLAYED_WITH)
            if isinstance(version, str) and version != __version__:
                played_with = shorten(version, 40)
        reason = str(getattr(error, "public", None) or error)
        entry = Unreplayable(handle, room_id, reason, played_with, self if seated else None)
        (self.main or self).unreplayable[key] = entry
        return entry

    def unreplayable_games(self) -> dict[str, str]:
        """Journaled games this version cannot replay, still open in the journal: their handle (``12``,
        ``12@1``) -> the journal's words for why (for ``!games``: not lost, no ``!resume``)."""
        main = self.main or self
        open_tables = set(self.journal.open_tables()) if main.unreplayable else set()
        found = {entry.handle: entry.reason for key, entry in main.unreplayable.items() if key in open_tables}
        return dict(sorted(found.items(), key=lambda item: handle_order(item[0])))

    @staticmethod
    def unreplayable_words(what: str, entry: Unreplayable) -> str:
        """``what``'s record cannot be replayed by this version, why, and what can be done: the operator may
        finish it with the version that recorded it; players may start a new game."""
        reason = entry.reason.split("; it was played with ", 1)[0]  # the version is named below, shorter
        version = (
            f"cockatrice-ext {entry.played_with}" if entry.played_with else "the version that recorded it"
        )
        return (
            f"{what}'s record cannot be replayed by this version ({shorten(reason, 100)}), and is kept: the"
            f" operator can finish it with {version}; players may start a new game"
        )

    async def _on_unreplayable_game_event(self, event: ClientEvent) -> None:
        """An event of a game this session sits in without a referee, its record unreplayable: a command said
        there gets the reason once per player, in the game's chat (never silence); a game closed or left is
        no longer sat in."""
        main = self.main or self
        entry = next(
            (e for e in main.unreplayable.values() if e.session is self and e.game_id == event.game_id), None
        )
        if entry is None:
            return
        if event.name in ("Event_GameClosed", "Event_Kicked"):
            entry.session = None
            return
        if event.name != "Event_GameSay" or event.is_own:
            return
        if not looks_like_command(str(getattr(event.message, "message", ""))):
            return
        mirror = self.client.games.get(event.game_id)
        player = mirror.players.get(event.player_id) if mirror is not None else None
        name = player.name if player is not None and player.name else f"player {event.player_id}"
        if name in entry.told:
            return
        entry.told.add(name)
        words = self.unreplayable_words(f"game #{entry.handle}", entry)
        self.chat.say(
            ("game", event.game_id), shorten(f"{name}: nothing done, the referee cannot go on: {words}.")
        )
