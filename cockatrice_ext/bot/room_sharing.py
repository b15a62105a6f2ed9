"""Sharing the server and its rooms with other referees, other copies, and a name in use.

The rules (:class:`RoomSharing`, a part of :class:`~cockatrice_ext.bot.runtime.Bot`):

* another account opening refereed games (:data:`REFEREED_GAME`) in a room is another referee: the operator
  hears once how to avoid both answering every room command, the room once how to ask one, and a room command
  naming one of its games is left to it (:meth:`RoomSharing.anothers_game`); a room line addressed to another
  name is ignored (:meth:`RoomSharing.named_by`);
* a copy given ``NAME_1`` that finds the name it asked for in its room, with an empty journal, is a second
  copy of this bot and stops (:meth:`RoomSharing.another_copy`); a name in use otherwise is told to the rooms;
* a started game this account opened that its journal does not know (a journal restored from an older copy)
  gets one warning and one room line.

Why: two referees answering one room open two games per request; a referee silent in a game its journal
lost leaves its players waiting.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from cockatrice_ext.bot.commands import invocation_or_none
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.words import players_named, shorten
from cockatrice_ext.journal import JournalError, journal_location

LOGGER = logging.getLogger("cockatrice_ext.bot.runtime")
"""The session's one logger (operators filter the bot's session lines by it)."""


REFEREED_GAME = re.compile(r"\b\d+ players?, refereed\b")
"""How this project's referees describe the games they open (``PileReferee.create``, ``Bot.open_game``'s
callers: "Auction Magic, 2 players, refereed (asked by ann)"): another account opening such games in a room
is another referee there."""


GAME_NUMBER = re.compile(r"#?(\d{1,9})(?:@\d{1,6})?")
"""A game named in a room command's first argument (``!cancel #12``, ``!resume 12@1``)."""


class RoomSharing:
    """Other referees, other copies and unknown games of this account in the bot's rooms (see the module)."""

    def another_copy(self) -> str:
        """Why this process must not go on as a second referee, or ``""``: the server offered ``NAME_1``
        (after the client's ``name_wait``) because the name asked for (``--user``) is held by a session
        sitting in one of our rooms, and the journal is brand new (it holds no record: no game, league or
        note). That is most likely another copy of this bot started from another folder: taking the offered
        name, both would answer every room command (one ``!auction new`` opening two games). The documented
        cases still take the offered name: a restarted bot's old session lingering until the server's
        inactivity timeout (its journal has history), or the name held by someone outside our rooms."""
        if self.main is not None or self.fleet is not None or not self.client.name_taken:
            return ""
        if self.journal.holds_records():
            return ""
        requested = self.client.requested_user[:35]
        for room_id in self.room_ids:
            if requested in self.client.room_users.get(room_id, ()):
                room = self.client.rooms.get(room_id)
                where = room.name if room is not None and room.name else f"#{room_id}"
                return (
                    f"{requested} is already logged in and in room {where!r} \u2014 is another copy of this"
                    " bot running? Stop it, or give this one another --user"
                )
        return ""

    async def say_if_renamed(self) -> None:
        """Tell the rooms when the server gave this session another name than its own (an unregistered
        name still in use after the client's ``name_wait``): players must write to the name it has, and
        whoever has the usual one is not the referee. Said once per name."""
        given, requested = self.client.user_name, self.client.requested_user[:35]
        if not self.client.name_taken or given == self._told_name:
            return
        self._told_name = given
        LOGGER.warning("logged in as %s: the name %s is in use on the server", given, requested)
        for room_id in self.room_ids:
            await self.room_say(
                room_id,
                f"The referee is {given} for now: the name {requested} is in use on this server by someone"
                f" else. Write to {given} (commands here in the room work as usual).",
            )

    def own_names(self) -> set[str]:
        """The server names of this bot's sessions (the main one and its helpers)."""
        main = self.main or self
        return {s.client.user_name for s in main.sessions if s.client is not None and s.client.user_name}

    def named_by(self, address: str, room_id: int | None) -> bool:
        """Whether a room line's address (``address`` as typed: ``refereebot``) names this bot, folded as
        players type names (:func:`players_named`) among the room's users and the bot's sessions: a name
        that fits another user as well names nobody for sure, so the bot stays silent."""
        own = self.own_names()
        users = set(self.client.room_users.get(room_id, ())) if room_id is not None else set()
        named = players_named(address, users | own, str)
        return bool(named) and all(name in own for name in named)

    def anothers_game(self, ctx: Context, text: str) -> bool:
        """Whether the room command ``text`` names a game (its first argument, for a command whose first
        parameter is ``game``: ``!cancel 2``, ``!resume 2``) that another account created in the room and
        this bot has no record of: another referee's, answered by that one (this one stays silent). A game
        number of this bot's own (refereed, lost, on another process of its fleet) is always answered."""
        if ctx.room_id is None:
            return False
        invocation = invocation_or_none(text)
        if invocation is None:
            return False
        spec = next(
            (
                found
                for referee in self.room_referees
                if (found := referee.commands.find(invocation.name, "room")) is not None
            ),
            None,
        )
        words = invocation.args.split()
        if spec is None or not spec.params or spec.params[0].name != "game" or not words:
            return False
        match = GAME_NUMBER.fullmatch(words[0])
        if match is None:
            return False
        number = int(match.group(1))
        main = self.main or self
        if number in main.all_games() or any(number in session.opened for session in main.sessions):
            return False
        handles = {*main.lost_games(), *main.unreplayable_games()}
        if str(number) in handles or words[0].removeprefix("#") in handles:
            return False
        if main.fleet is not None and number in main.fleet.games_elsewhere():
            return False
        listed = main.room_games.get(ctx.room_id, {}).get(number)
        if listed is None or listed[0] in self.own_names():
            return False
        LOGGER.debug(
            "%s: %r names game #%d, which %s created: not ours to answer", ctx.sender, text, number, listed[0]
        )
        return True

    async def on_room_games(self, room_id: int, games: list[Any]) -> None:
        """The room's game list changed (``Event_ListGames``, or the list at joining): keep who created each
        game and how it is described, and notice another referee opening refereed games here."""
        known = self.room_games.setdefault(room_id, {})
        for game in games:
            game_id = int(game.game_id)
            if game.closed:
                known.pop(game_id, None)
                self.started_games.discard(game_id)
                continue
            if game.HasField("started"):
                (self.started_games.add if game.started else self.started_games.discard)(game_id)
            old = known.get(game_id, ("", ""))
            creator = str(game.creator_info.name) if game.HasField("creator_info") else old[0]
            description = str(game.description) if game.HasField("description") else old[1]
            known[game_id] = (creator, description)
            if self.fleet is not None:  # the fleet's members share the room by its lease: one answers
                continue
            if creator and creator not in self.own_names() and REFEREED_GAME.search(description):
                await self.note_referee(room_id, creator)

    async def note_referee(self, room_id: int, other: str) -> None:
        """``other`` opens refereed games in ``room_id``: another referee sits there, and both would answer
        every room command (one ``!auction new`` opening two games). The operator hears once per account
        how to avoid it; the room hears once how to ask one referee. A look-alike account opening games so
        described causes no more than these two lines: answers are never silenced by it."""
        seen = self.other_referees.setdefault(room_id, [])
        if other in seen:
            return
        seen.append(other)
        room = self.client.rooms.get(room_id)
        where = room.name if room is not None else f"#{room_id}"
        own = self.client.user_name
        if self.options.room_commands == "addressed":  # the remedy is taken already: nothing to warn of
            LOGGER.info(
                "another referee, %s, opens refereed games in room %s; this one answers only room commands"
                " that start with its name",
                other,
                where,
            )
        else:
            LOGGER.warning(
                "another referee, %s, opens refereed games in room %s: both answer every room command there"
                " (one !auction new opens two games); run one of them with bot run --room-commands addressed"
                " (it then answers only room commands that start with its name), or put them in different"
                " rooms",
                other,
                where,
            )
        if len(seen) > 1:
            return  # the room was told already
        names = sorted([own, other], key=str.lower)
        count = "Two referees are" if len(names) == 2 else "Referees are"
        await self.room_say(
            room_id,
            shorten(
                f"{count} in this room ({' and '.join(names)}): start a command with the referee's name to"
                f" ask one, as in {own}: !auction new 2"
            ),
        )

    def journal_knows(self, game_id: int) -> bool:
        """Whether game ``game_id`` is this bot's to referee or its journal has a record of it (open or
        closed, under this server address or, for an open one, another: its games are said at start)."""
        main = self.main or self
        if game_id in main.all_games() or any(game_id in session.opened for session in main.sessions):
            return True
        if self.journal.has_table(f"{self.server_key}{self.GAME_KEY}{game_id}"):
            return True
        return any(key.endswith(f"{self.GAME_KEY}{game_id}") for key in self.journal.open_tables())

    async def note_unrecorded_games(self) -> None:
        """After a start (tables restored, lost games announced): a started game in a room's list that this
        account opened and described as one of its refereed games, which the journal does not know, cannot be
        refereed: the journal was most likely restored from a copy older than the game. The operator hears
        it once per game (a WARNING naming it) and the room once, so that its players are not left waiting
        for a referee that never answers there."""
        own = self.own_names()
        for room_id, listed in list(self.room_games.items()):
            for game_id, (creator, description) in sorted(listed.items()):
                if creator not in own or not REFEREED_GAME.search(description):
                    continue
                if game_id in self.unrecorded_games or game_id not in self.started_games:
                    continue  # a game not started yet has no table: its referee opens one at the start
                try:
                    if self.journal_knows(game_id):
                        continue
                except JournalError as exc:  # the journal cannot be read: not a game to call unrecorded
                    LOGGER.error("game #%d cannot be looked up in the journal: %s", game_id, exc)
                    continue
                self.unrecorded_games.add(game_id)
                LOGGER.warning(
                    "game #%d was opened by this bot but its journal does not know it: restored from an"
                    " older copy? (journal %s; the game is left alone, its players were told)",
                    game_id,
                    journal_location(self.journal.path),
                )
                await self.room_say(
                    room_id,
                    f"The referee cannot referee game #{game_id}: its record is missing from the referee's"
                    " journal, so nothing there will be answered. Its players may leave it and start a new"
                    " game.",
                )
