"""Private messages: commands said by private message, and messages kept for users who cannot get them now.

The rules (:class:`PrivateMessages`, a part of :class:`~cockatrice_ext.bot.runtime.Bot`):

* a private command is answered by the main session's rules from the session the user wrote to: a game's
  command named with its game (``!pick 3 #12``) goes there, then leagues, then the one game of theirs that
  takes private commands (Vortex's ``!pick``); ``!help NAME`` describes the command as its own scope does;
  a game's command goes to the game's queue as it is said, the others run in the user's own queue;
* a command said where it does not go gets one pointer to where it goes, not repeated within
  :data:`SAME_POINTER_SECONDS`;
* messages for an offline user are kept as journal notes (a restart, or a fleet's survivor, keeps them) and
  sent when the server reports the user back (the main session follows logins);
* a user whose ignore list refuses the referee's private messages is told once, in the chat of a game of the
  referee they sit in, else in a room where they are.

Why: identity comes from the server's sender name, never text; and a user must not lose what the referee
told them because they were away or blocked it.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import time
from typing import Any

from cockatrice_ext.bot.chat import Held
from cockatrice_ext.bot.commands import PREFIX, BadArgument, elsewhere_reason, parse_invocation
from cockatrice_ext.bot.referee import (
    HELP_NAMES,
    Context,
    GameReferee,
    asked_help,
    describe_command,
    reply_unknown,
)
from cockatrice_ext.bot.words import game_list, shorten
from cockatrice_ext.client import ClientEvent

LOGGER = logging.getLogger("cockatrice_ext.bot.runtime")
"""The session's one logger (operators filter the bot's session lines by it)."""


SAME_POINTER_SECONDS = 30.0
"""A user told where their private command goes is not told the same again within this many seconds."""


def split_game_suffix(text: str) -> tuple[str, int | None]:
    """``!pick 3 #12`` -> (``!pick 3``, 12): a private game command names its game by a trailing ``#N``
    (the game's number as Cockatrice lists it); without one, (``text``, None)."""
    match = re.fullmatch(r"(?s)(.*\S)\s+#([0-9]{1,9})\s*", text)
    if match is None:
        return text, None
    return match.group(1), int(match.group(2))


class PrivateMessages:
    """Private commands and kept private messages (see the module)."""

    HELD_KEY = ":held:"

    def held_prefix(self, account: str = "") -> str:
        """Where the journal keeps messages for offline users: all of them, or those ``account`` sent."""
        prefix = f"{self.server_key}{self.HELD_KEY}"
        return f"{prefix}{account}\n" if account else prefix

    def _record_held(self, user: str, messages: Held) -> None:
        """Keep the messages this session holds for an offline user in the journal (so a restart of the bot,
        or in a fleet the process taking over, does not lose them), or forget them once sent."""
        key = f"{self.held_prefix(self.client.user_name)}{user}"
        if messages:
            self.journal.put_note(
                key, {"session": self.client.user_name, "user": user, "messages": [list(m) for m in messages]}
            )
        else:
            self.journal.drop_note(key)

    def restore_held(self) -> None:
        """Give each session the messages an earlier run kept for offline users (a session no longer run
        leaves its messages to the main one; in a fleet, to the survivor that takes them)."""
        if self.fleet is not None:
            self.fleet.take_own_held()
        else:
            self.adopt_held(self.journal.notes(self.held_prefix()))

    def adopt_held(self, notes: dict[str, Any]) -> int:
        """Give kept-messages ``notes`` to the sessions that recorded them, or to the main one (the note
        recorded again under its name); a note that cannot be read is dropped. How many were given."""
        sessions = {session.client.user_name: session for session in self.sessions}
        given = 0
        for key, note in notes.items():
            try:
                user, messages = str(note["user"]), [(str(m), bool(raw)) for m, raw in note["messages"]]
                session = sessions.get(str(note.get("session")), self)
            except (KeyError, TypeError, ValueError):
                LOGGER.warning("a kept-messages note cannot be read, dropped: %r", key)
                self.journal.drop_note(key)
                continue
            if session is not sessions.get(str(note.get("session"))):
                self.journal.drop_note(key)  # recorded again under the main session's name
            session.chat.keep(user, messages)
            given += 1
        return given

    async def watch_users(self) -> None:
        """Ask the server to report every login from now on (``Command_ListUsers`` subscribes a connection
        to ``Event_UserJoined``), so messages kept for an offline user go out when they are back; users
        already back (we were away ourselves) get theirs now."""
        try:
            users = await self.client.list_users()
        except Exception as exc:  # without it, kept messages wait for the user's next word
            LOGGER.warning("cannot follow logins (%s): kept messages wait until the user writes", exc)
            return
        for user in users:
            self.user_seen(str(user.name))

    def user_seen(self, user_name: str) -> None:
        """``user_name`` is online: every session sends what it kept for them while they were away."""
        for session in (self.main or self).sessions:
            session.chat.user_back(user_name)

    def user_gone(self, user_name: str) -> None:
        """``user_name`` logged off: every session keeps what waits for them until they are back, rather
        than spend its chat budget finding them gone one message at a time."""
        for session in (self.main or self).sessions:
            session.chat.user_left(user_name)

    async def _on_private(self, event: ClientEvent) -> None:
        """A private command, to this session or a helper: answered by the main session's rules, from the
        session the user wrote to."""
        text = str(getattr(event.message, "message", ""))
        sender = str(getattr(event.message, "sender_name", ""))
        main = self.main or self
        if sender in {session.client.user_name for session in main.sessions if session.client is not None}:
            return  # one of our own sessions
        main.conversations[sender] = self
        if await main.answer_for_game_as_said(sender, text):
            return
        main.commands_of(sender).submit(functools.partial(main.answer_private, sender, text))

    async def answer_for_game_as_said(self, sender: str, text: str) -> bool:
        """A private command for a game of ``sender``'s (:meth:`answer_for_game`: named with its game, or one
        only a game takes) is queued there as it is said, in order with the game's events; the others wait in
        the sender's queue (:meth:`commands_of`: a league's move may open games, which may wait for a slot).
        False when it is no game's, or a league may take it too (:meth:`answer_private`: leagues first)."""
        try:
            named = parse_invocation(text)
        except BadArgument:
            return False
        if named is None or named.name in HELP_NAMES:
            return False
        _, game_id = split_game_suffix(text)
        named_game = game_id is not None and game_id in self.private_games(sender, named.name)
        if not named_game and any(r.commands.find(named.name, "private") for r in self.private_referees):
            return False
        return await self.answer_for_game(sender, text, named.name)

    async def answer_private(self, sender: str, text: str) -> None:
        """Run a private command of ``sender`` (on the main session, which holds the private rules): a game's
        command named with its game (``!pick 3 #12``) goes there first, then leagues, then the game of theirs
        that takes it (:meth:`answer_for_game`)."""
        ctx = Context(self, "private", sender)
        with contextlib.suppress(BadArgument):
            named = parse_invocation(text)
            _, game_id = split_game_suffix(text)
            if named is not None and game_id in self.private_games(sender, named.name):
                await self.answer_for_game(sender, text, named.name)
                return
        topic = asked_help(text)
        if topic:  # !help NAME: that command's usage and line, as the room and game chat answer it
            described = self.describe_privately(sender, topic)
            if described:
                await self.tell(sender, shorten(described, 900))
                return
            text = PREFIX + "help"  # words naming no command: the general help
        for referee in self.private_referees:
            if await referee.handle_command(ctx, text):
                return
        try:
            invocation = parse_invocation(text)
        except BadArgument:
            return
        if invocation is None:
            return
        if await self.answer_for_game(sender, text, invocation.name):
            return
        in_room = any(referee.commands.find(invocation.name, "room") for referee in self.room_referees)
        if in_room and invocation.name not in HELP_NAMES:  # !help is answered in every scope
            await self.tell(sender, shorten(f"{sender}: {elsewhere_reason(invocation.name, 'room')}."))
            return
        known = {name for r in self.private_referees for name in r.commands.names("private")}
        games = self.all_games().values()
        a_game_command = any(referee.commands.find(invocation.name, "game") for referee in games)
        if invocation.name in known or not known or a_game_command:  # said where it does not go
            reason = self.no_private_command(sender)
            if invocation.name not in HELP_NAMES and self.told_lately(sender, reason):
                return  # the same pointer a moment ago: once per burst (typos too)
            await self.tell(sender, reason)
            return
        await reply_unknown(ctx, text, self.private_referees)

    def describe_privately(self, sender: str, topic: str) -> str | None:
        """Private ``!help NAME``: the command's usage and line (:func:`describe_command`, one answer for
        every scope), from the games ``sender`` sits in (saying a game command goes in the game's chat), the
        leagues' private commands, then the room's; None when it names none of them."""
        at_table = [referee for referee in self.all_games().values() if referee.is_at_table(sender)]
        private = [r for r in at_table if r.takes_private_commands and r.private_seat(sender) is not None]
        described = describe_command(topic, "private", [*private, *self.private_referees])
        if described:
            return described
        for referee in at_table:
            described = describe_command(topic, "game", [referee])
            if described:
                return f"{described} (say it in game #{referee.game_id}'s chat)"
        return describe_command(topic, "room", [], self.room_referees)

    def private_games(self, sender: str, command: str) -> dict[int, GameReferee]:
        """The games whose seated player ``sender`` is (the server's names of the seats, never text) and whose
        referee takes ``command`` by private message (Vortex: ``!pick``, ``!pack``: a hidden pack's card is
        named there, not in game chat), by game number."""
        found: dict[int, GameReferee] = {}
        for game_id, referee in sorted(self.all_games().items()):
            if not referee.takes_private_commands or referee.commands.find(command, "private") is None:
                continue
            if referee.private_seat(sender) is not None:
                found[game_id] = referee
        return found

    async def answer_for_game(self, sender: str, text: str, command: str) -> bool:
        """Run a private game command (:meth:`private_games`) in the one game ``sender`` plays that takes it,
        or in the game a trailing ``#N`` names (``!pick 3 #12``) when they play several; False when no
        game of theirs takes it. The answer goes to ``sender`` privately; the table hears only what the
        command shows everyone (a pick made, not which card)."""
        games = self.private_games(sender, command)
        if not games:
            return False
        body, game_id = split_game_suffix(text)
        if game_id is not None and game_id not in games:
            if len(body.split()) > 1 or command not in ("pick", "p"):  # "!pick #3" is pack card 3
                yours = game_list(games)
                line = f"{sender}: you are not playing in game #{game_id} (yours: {yours})."
                await self.tell(sender, shorten(line))
                return True
            body, game_id = text, None
        if game_id is None:
            if len(games) > 1:
                said = " or ".join(f"{text.strip()} #{number}" for number in games)  # each: no guessing
                line = f"{sender}: you play several games: add its number (private lines name it): {said}"
                await self.tell(sender, shorten(line))
                return True
            game_id = next(iter(games))
        referee = games[game_id]
        referee.work.submit(lambda: referee.on_private_command(sender, body))  # in order with its events
        return True

    def told_lately(self, sender: str, line: str, now: float | None = None) -> bool:
        """Whether ``sender`` was told exactly ``line`` by private message within :data:`SAME_POINTER_SECONDS`
        (then it is not told again); else it counts as told now."""
        now = time.monotonic() if now is None else now
        pointers = self.told_pointers
        last = pointers.get(sender)
        if last is not None and last[0] == line and now - last[1] < SAME_POINTER_SECONDS:
            return True
        if len(pointers) > 1000:  # a flood of names must not grow it for ever
            for user in [u for u, (_, at) in pointers.items() if now - at >= SAME_POINTER_SECONDS]:
                del pointers[user]
        pointers[sender] = (line, now)
        return False

    def no_private_command(self, sender: str) -> str:
        """Why ``sender``'s private command reaches no league, and where it goes: their game's chat, or their
        lobby's league once it starts, or a league to join first."""
        at_table = {  # a game that is over (open while its players leave) is nobody's place for commands
            gid: referee
            for gid, referee in self.all_games().items()
            if referee.is_at_table(sender) and not (referee.finished or referee.closed)
        }
        seated = {gid: referee for gid, referee in at_table.items() if referee.is_seated_player(sender)}
        if at_table and not seated:  # a spectator: told so here, not sent to a chat that refuses them too
            watched = ", ".join(f"#{gid}" for gid in sorted(at_table))
            return f"Spectators can watch but not play (you watch game {watched})."
        at_table = seated
        games = sorted(at_table)
        if games:
            where = ", ".join(f"#{gid}" for gid in games)
            line = f"Game commands go in the game's own chat ({where}), not by private message; !help there."
            here = sorted(
                {
                    spec.name
                    for referee in at_table.values()
                    if referee.takes_private_commands and referee.private_seat(sender) is not None
                    for spec in referee.commands.listing("private")
                }
            )
            return line + (f" Here: {', '.join('!' + name for name in here)}." if here else "")
        for referee in self.room_referees:
            membership = getattr(referee, "membership", None)
            lobby = membership(sender) if membership is not None else ""
            if lobby.startswith("the "):  # "the Market Draft lobby"
                return f"You are in {lobby}: its commands work here once the league starts."
        if any(getattr(referee, "membership", None) is not None for referee in self.room_referees):
            return (
                "Join a league in the room first: by private message the referee takes a league's commands"
                " (and a Vortex player's picks); game commands go in the game's own chat. !help in the room"
                " lists the room commands."
            )
        return (
            "You play in no game of this referee: game commands go in the game's own chat, and !help in the"
            " room lists the room commands."
        )

    def _on_ignored(self, user: str) -> None:
        """The server refused this session's private message to ``user``: their ignore list holds it (called
        by the chat scheduler once per episode; what waits for them is kept). Tell them once where they can
        read it, never privately (that would be kept too): the game chat of each of the bot's games they sit
        in, else each room where the bot sees them; else only the log knows."""
        main = self.main or self
        me = self.client.user_name or self.options.user
        line = shorten(
            f"{user}: your ignore list blocks {me}'s private messages to you (your pack, your turn, your"
            f" game...): take {me} off it; they wait for you."
        )
        games = [
            referee
            for _, referee in sorted(main.all_games().items())
            if not referee.closed
            and referee.game_id in referee.bot.client.games
            and any(player.name == user for player in referee.humans())
        ]
        for referee in games:
            referee.bot.chat.say(referee.chat_destination, line)
        if games:
            return
        rooms = [
            room_id
            for room_id in main.room_ids
            if user in getattr(main.client, "room_users", {}).get(room_id, ())
        ]
        for room_id in rooms:
            main.chat.say(("room", room_id), line)
        if not rooms:
            LOGGER.info("%s ignores %s and sits in none of its games or rooms: not told", user, me)
