"""The room side of leagues: each format's room command (join, leave, start, status, rules) and the
lobby of players waiting for a league (:class:`Lobby`)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import ClassVar, Literal

from cockatrice_ext.bot import league_away  # its graces read where they are set (tests patch them)
from cockatrice_ext.bot.blocks import chat_block_name
from cockatrice_ext.bot.commands import (
    BadArgument,
    NotAllowed,
    Rest,
    command,
    invocation_or_none,
)
from cockatrice_ext.bot.league_cards import load_league_block
from cockatrice_ext.bot.league_chat import PRIVATE_LIMIT, league_pages
from cockatrice_ext.bot.league_options import TITLES, LeagueOptions
from cockatrice_ext.bot.league_private_commands import BURST_SECONDS
from cockatrice_ext.bot.league_referee import LeagueReferee, misplaced_command
from cockatrice_ext.bot.league_views import REFUSALS
from cockatrice_ext.bot.referee import Context, Referee
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.formats import options as game_options

SEATS = {"market": (2, 8), "autobattler": (4, 8)}
"""How many players a league of each format takes (AutoBattler: 4 or 8, nothing between)."""
NEEDED = {"market": "2 to 8", "autobattler": "4 or 8"}
"""The same, as a lobby's page says it."""
NAME_SHOWN = 20
"""The most characters of a player's name a lobby's room line shows (longer ones end in "…"), so that the
line's cost is bounded whatever names a server allows (Servatrice ships a maximum of 12)."""
LobbyWord = Literal["join", "leave", "status", "start", "rules"]
"""What a league room command does (its sub-command, checked by the command grammar)."""


@dataclass(eq=False)
class Lobby:
    """The players waiting in one room for a league of one format: one generation, from its first join to
    its start (or until it empties). With the web view on, each member's private page shows it, under the
    web view's key ``page_key``; the league started from it keeps that key, so the same links go on."""

    room_id: int
    format_name: str
    page_key: str
    members: list[str] = field(default_factory=list)
    page_players: set[str] = field(default_factory=set)
    """Members whose page's live stream is open (kept by the web view; the league inherits them)."""
    over: bool = False
    """Emptied before it started: its pages expire."""
    away: dict[str, float] = field(default_factory=dict)
    """Members out of the room, since when (``time.monotonic``)."""

    @property
    def needed(self) -> str:
        return NEEDED[self.format_name]

    def count_words(self) -> str:
        """How many joined and what that means now, for a join's room answer: "3: 1 more needed", "4: enough
        to start". A few bytes whatever the members' names: a lobby's answers leave in the window of its
        league's first views (who joined: ``status``, or the lobby's page)."""
        count, (low, high) = len(self.members), SEATS[self.format_name]
        if count >= high:
            state = "full, enough to start"
        elif self.format_name == "autobattler" and count > low:  # AutoBattler plays with 4 or 8, not 5-7
            state = f"{high - count} more needed: it plays with {self.needed}"
        elif count >= low:
            state = "enough to start"
        else:
            state = f"{low - count} more needed"
        return f"{count}: {state}"

    def status_line(self) -> str:
        """What the lobby page's heading says: who waits, how many are needed, how to start."""
        return (
            f"lobby, {len(self.members)} joined; {TITLES[self.format_name]} needs {self.needed} players;"
            f" any of you starts it with !{self.format_name} start in the room"
        )


class LeagueRoom(Referee):
    """Room commands of one league format: join, leave, start, status."""

    format_name: ClassVar[str] = ""
    refusals: ClassVar[dict[str, str]] = REFUSALS

    def __init__(self, bot: Bot, defaults: LeagueOptions | None = None) -> None:
        super().__init__(bot)
        self.defaults = defaults or LeagueOptions(format=self.format_name)
        self.lobbies: dict[int, Lobby] = {}  # each room's lobby now (a new one after a start or when emptied)
        self.leagues: list[LeagueReferee] = []

    def membership(self, user: str) -> str:
        """Which league or lobby ``user`` is in, in any room and any format ("" when none; a league they left
        holds them no more)."""
        for room in self.bot.room_referees:
            if not isinstance(room, LeagueRoom):
                continue
            title = TITLES[room.format_name]
            if any(lg.is_member(user) and user not in lg.left for lg in room.leagues if not lg.over):
                return f"a running {title} league"
            if any(user in lobby.members for lobby in room.lobbies.values()):
                return f"the {title} lobby"
        return ""

    def waiting_games(self) -> list[str]:
        return [line for league in self.leagues if not league.over for line in league.cut_games()]

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """Room commands; a member's private league command said here (no room referee knows it) is
        answered with where it belongs."""
        if await super().handle_command(ctx, text):
            return True
        line = misplaced_command(self.bot, ctx, text, self.bot.room_referees)
        if line:
            await ctx.reply(line)
        return bool(line)

    def seats_range(self) -> tuple[int, int]:
        return SEATS[self.format_name]

    def _lobby(self, room_id: int, page_key: str = "") -> Lobby:
        """The room's lobby, a new generation if none is open: its own page key, never one used before,
        not even by an earlier process (the web view keeps page numbers by key across restarts)."""
        lobby = self.lobbies.get(room_id)
        if lobby is None:
            generation = secrets.token_hex(6)
            key = page_key or f"{self.bot.server_key}:lobby:{room_id}:{self.format_name}:{generation}"
            lobby = self.lobbies[room_id] = Lobby(room_id, self.format_name, key)
        return lobby

    async def lobby(self, ctx: Context, what: LobbyWord, args: str) -> None:
        assert ctx.room_id is not None
        fmt, title = self.format_name, TITLES[self.format_name]
        if ctx.room_id in self.lobbies:
            await self.drop_gone(self.lobbies[ctx.room_id])
        lobby = self._lobby(ctx.room_id)
        members = lobby.members
        running = [lg for lg in self.leagues if lg.room_id == ctx.room_id and not lg.over]
        low, high = self.seats_range()
        league_now = running_league(self.bot, ctx.sender)
        if league_now is not None and what in ("join", "start"):  # one league at a time: say which, and how
            raise NotAllowed(in_running_league(league_now))
        if league_now is not None and what == "leave" and ctx.sender not in members:
            raise NotAllowed(leave_running_league(league_now))
        if what == "join":
            elsewhere = self.membership(ctx.sender)
            if elsewhere:  # private commands name no league: one player, one league at a time
                raise NotAllowed(f"you are already in {elsewhere}; one league at a time")
            if ctx.sender in members:
                raise NotAllowed(f"you already joined ({len(members)} waiting)")
            if len(members) >= high:
                raise NotAllowed(f"the {title} lobby is full ({high})")
            members.append(ctx.sender)
            self.keep_lobby(lobby)
            await self._joined(ctx, lobby, running)
        elif what == "leave":
            if ctx.sender not in members:
                raise NotAllowed("you are not in the lobby")
            members.remove(ctx.sender)
            self.keep_lobby(lobby)
            await self._left(ctx, lobby)
        elif what == "start":
            if ctx.sender not in members:
                raise NotAllowed(f"join first: !{fmt} join")
            if fmt == "autobattler" and len(members) not in (4, 8):
                raise NotAllowed(f"AutoBattler needs 4 or 8 players; {len(members)} joined")
            if len(members) < low:
                raise NotAllowed(f"{title} needs at least {low} players; {len(members)} joined")
            options = self._start_options(args)
            if options.reseat_on_energy and len(members) != 8:
                raise NotAllowed(
                    f"tables=reseat moves eight players between two tables; {len(members)} joined"
                    " (start with tables=isolated, or wait for eight)"
                )
            block = load_league_block(options.block_name)
            league = await LeagueReferee.create(self.bot, ctx.room_id, options, block, list(members), lobby)
            del self.lobbies[ctx.room_id]
            self.keep_lobby(lobby)  # the league's own journal holds them now
            self.leagues.append(league)
            await league.begin()
        elif what == "rules":
            for line in game_options.room_rules(fmt, self.defaults):
                await ctx.reply(shorten(line))
        elif what == "status":
            lobby_words = (
                f"lobby {len(members)} ({', '.join(members)})" if members else f"lobby empty (!{fmt} join)"
            )
            parts = [f"{title}: {lobby_words}"]
            parts += [lg.room_status_line() for lg in running]
            await ctx.reply(shorten("; ".join(parts)))

    async def on_room_left(self, room_id: int, user: str) -> None:
        """A lobby member left the room (logged off, or went): noted, so that the lobby lets them go once they
        have been away :data:`LOBBY_GRACE` seconds (:meth:`drop_gone`)."""
        lobby = self.lobbies.get(room_id)
        if lobby is not None and user in lobby.members:
            lobby.away.setdefault(user, time.monotonic())

    async def drop_gone(self, lobby: Lobby) -> None:
        """Let go of the members out of the room for :data:`LOBBY_GRACE` seconds or more, and tell the room: a
        league would otherwise start with a drafter who is gone, and later players could not clear them. One
        back in the room (the client's ``room_users``) keeps their place."""
        present = getattr(self.bot.client, "room_users", {}).get(lobby.room_id)
        now, gone = time.monotonic(), []
        for user, since in list(lobby.away.items()):
            if user not in lobby.members or (present is not None and user in present):
                del lobby.away[user]
            elif now - since >= league_away.LOBBY_GRACE:
                gone.append(user)
        title = TITLES[self.format_name]
        for user in gone:
            del lobby.away[user]
            lobby.members.remove(user)
            self.keep_lobby(lobby)
            if not lobby.members:
                lobby.over = True
                self.lobbies.pop(lobby.room_id, None)
            pages = league_pages(self.bot)
            if pages is not None:
                pages.revoke(lobby, user)
                pages.changed(lobby)
            line = f"{shown_name(user)} has been out of the room a while: out of the {title} lobby"
            await self.bot.room_say(lobby.room_id, f"{line} ({len(lobby.members)} waiting).")

    def lobby_note(self, room_id: int) -> str:
        """The journal note that keeps who waits in this format's lobby of ``room_id``."""
        return f"{self.bot.server_key}:lobby:{room_id}:{self.format_name}"

    def keep_lobby(self, lobby: Lobby) -> None:
        """Write who waits in ``lobby`` to the journal before answering (forget it once the lobby started
        or emptied), so that a restart loses nobody; in a fleet, the process that takes the room over
        opens it again (:meth:`restore_lobbies`)."""
        if lobby.members and self.lobbies.get(lobby.room_id) is lobby:
            value = {
                "room_id": lobby.room_id,
                "format": self.format_name,
                "members": list(lobby.members),
                "page_key": lobby.page_key,
            }
            self.bot.journal.put_note(self.lobby_note(lobby.room_id), value)
        else:
            self.bot.journal.drop_note(self.lobby_note(lobby.room_id))
        sync_lobby_desk(self.bot)

    async def restore_lobbies(self, room_ids: Iterable[int] | None = None) -> None:
        """After a restart: open again each lobby of this format the journal kept in our rooms (in a fleet:
        in ``room_ids``, the rooms this process has just taken) and say in the room who waits. With the web
        view the lobby keeps its page key, so the links its members were given still open it (the web view
        keeps them); a member without a kept link gets a new one."""
        if self.bot.fleet is not None and room_ids is None:
            return  # the fleet calls again for each room it takes, once it has it
        rooms = set(self.bot.room_ids if room_ids is None else room_ids) & set(self.bot.room_ids)
        title, fmt = TITLES[self.format_name], self.format_name
        for key, note in self.bot.journal.notes(f"{self.bot.server_key}:lobby:").items():
            room_id = note.get("room_id")
            if note.get("format") != fmt or not isinstance(room_id, int) or room_id not in rooms:
                continue
            if room_id in self.lobbies:  # opened here meanwhile (a join came first): that one is kept
                continue
            kept = [m for m in note.get("members", []) if isinstance(m, str) and m and not self.membership(m)]
            present = getattr(self.bot.client, "room_users", {}).get(room_id)
            if present is not None:  # who left the room while the referee was away left the lobby too
                kept = [m for m in kept if m in present]
            members = list(dict.fromkeys(kept))[: self.seats_range()[1]]
            if not members:
                self.bot.journal.drop_note(key)
                continue
            page_key = note.get("page_key")
            lobby = self._lobby(room_id, page_key if isinstance(page_key, str) else "")
            lobby.members[:] = members
            self.keep_lobby(lobby)
            waiting = f"{', '.join(members)} ({len(members)} joined)"
            kept_line = f"The {title} lobby is still open after the referee's restart: {waiting}."
            await self.bot.room_say(room_id, shorten(f"{kept_line} !{fmt} join, !{fmt} start."))
            pages = league_pages(self.bot)
            if pages is not None:
                for member in members:
                    link = pages.link(lobby, member)
                    if link is not None:
                        await self.bot.tell(member, f"Your {title} page: {link}")  # none kept for them
                pages.changed(lobby)

    def drop_lobbies(self, room_id: int) -> None:
        """A fleet process lost ``room_id`` to another one: forget its lobby here (the journal keeps it for
        the process that answers the room now)."""
        self.lobbies.pop(room_id, None)
        sync_lobby_desk(self.bot)

    async def _joined(self, ctx: Context, lobby: Lobby, running: Iterable[LeagueReferee] = ()) -> None:
        """Answer a join: in the room without the web view, with the joiner's name and the count
        (:meth:`Lobby.count_words`; the lobby's first answer says that ``status`` lists who is in), never
        the list, so the answers cost the same whoever joined; with the web view, the joiner's page link by
        private message (the page lists who joined, live), and the room hears only that a lobby opened.
        While a league of the format is under way in the room (``running``), the join says that it takes no
        new players and that this is a new league's lobby (a late joiner thought they had joined it)."""
        title, members, fmt = TITLES[self.format_name], lobby.members, self.format_name
        pages = league_pages(self.bot)
        under_way = under_way_words(running)
        sender = shown_name(ctx.sender)
        if pages is None:  # the joiner and the count, never the list: it grew with every join and name
            joined = lobby.count_words() + (f"; who is in: !{fmt} status" if len(members) == 1 else "")
            if under_way:
                line = f"{under_way}; {sender} joins the lobby of a new {title} league ({joined})."
            else:
                line = f"{sender} joins the {title} league ({joined})."
            await ctx.reply(shorten(line))
            return
        if len(members) == 1:
            opened = f"{sender} opened a lobby for {title}: !{fmt} join"
            if under_way:
                opened = f"{under_way}; {sender} opened the lobby of a new {title} league: !{fmt} join"
            await self.bot.room_say(lobby.room_id, opened)
        elif under_way:  # the room heard it when the lobby opened; the joiner hears it privately
            await self.bot.tell(
                ctx.sender, shorten(f"{under_way}: you joined the lobby of a new {title} league.")
            )
        link = pages.link(lobby, ctx.sender)
        if link is not None:
            await self.bot.tell(ctx.sender, f"Your {title} page: {link}")
        pages.changed(lobby)

    async def _left(self, ctx: Context, lobby: Lobby) -> None:
        """Answer a leave (privately with the web view: the leaver's link dies); an emptied lobby is over."""
        title = TITLES[self.format_name]
        if not lobby.members:
            lobby.over = True
            del self.lobbies[lobby.room_id]
        pages = league_pages(self.bot)
        if pages is None:
            left = f"{shown_name(ctx.sender)} leaves the {title} lobby"
            await ctx.reply(f"{left} ({len(lobby.members)} waiting).")
            return
        pages.revoke(lobby, ctx.sender)
        await self.bot.tell(ctx.sender, f"You left the {title} lobby; your page's link no longer works.")
        pages.changed(lobby)

    def _start_options(self, args: str) -> LeagueOptions:
        """The league's options: the room's defaults, then ``[ROUNDS] [BLOCK]`` and the game options."""
        fmt = self.format_name
        try:
            words, chosen = game_options.split_words(fmt, args.split())
        except game_options.OptionError as exc:
            raise BadArgument(str(exc)) from None
        options = replace(game_options.apply(fmt, self.defaults, chosen), format=fmt)
        if fmt == "market" and words and words[0].isdecimal():
            rounds = int(words.pop(0))
            if not 1 <= rounds <= 20:
                raise BadArgument("ROUNDS must be between 1 and 20")
            options = replace(options, rounds=rounds)
        if words:
            block = " ".join(words)
            try:
                options = replace(options, block=self._chat_block(block))
            except BadArgument as exc:
                raise BadArgument(game_options.misspelt(fmt, block) or exc.reason) from None
        return options

    def _chat_block(self, name: str) -> str:
        """A block named in chat (see :func:`~cockatrice_ext.bot.blocks.chat_block_name`).

        Raises:
            BadArgument: not a bundled block nor the operator's.
        """
        try:
            return chat_block_name(name, self.defaults.block)
        except ValueError as exc:
            raise BadArgument(shorten(str(exc))) from None


def shown_name(name: str) -> str:
    """``name`` as a lobby's room line shows it: at most :data:`NAME_SHOWN` characters."""
    return name if len(name) <= NAME_SHOWN else name[: NAME_SHOWN - 1] + "…"


def running_league(bot: Bot, user: str) -> LeagueReferee | None:
    """The running league ``user`` plays in, in any room and format (None: none, or they left it)."""
    for room in bot.room_referees:
        if isinstance(room, LeagueRoom):
            for league in room.leagues:
                if not league.over and league.is_member(user) and user not in league.left:
                    return league
    return None


def in_running_league(league: LeagueReferee) -> str:
    """Why a member of the running ``league`` cannot join or start another, and what they can do now (the
    same words for ``join`` and ``start``)."""
    return (
        f"you are in {league.room_title()} ({league.stage()}); one league at a time. Its commands work by"
        " private message to me (!help there); you can join another once it ends, or after leaving it for"
        " good (!leave by private message)."
    )


def leave_running_league(league: LeagueReferee) -> str:
    """The answer to a room ``leave`` from a member of the running ``league``: how to leave it."""
    return (
        f"you are not in the lobby but in {league.room_title()} ({league.stage()}): to leave it for good,"
        " send me !leave by private message (the referee then makes your moves and your games are lost by"
        " forfeit)."
    )


LOBBY_DESK_WORDS = frozenset({"help", "commands", "rules", "options", "leave"})
"""Private commands a lobby member is answered by the lobby desk (:class:`LobbyDesk`)."""


class LobbyDesk(Referee):
    """Private ``!help``, ``!rules`` and ``!leave`` from a lobby member whose league has not started: where
    to read its options now (its room's ``!market rules`` / ``!autobattler rules``) and how to leave. It
    declares no commands, so it changes nothing for anyone else's private commands."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self.answered: dict[str, float] = {}  # member -> when their early command was last answered

    async def handle_command(self, ctx: Context, text: str) -> bool:
        if ctx.scope != "private":
            return False
        invocation = invocation_or_none(text)
        if invocation is None:
            return False
        early = invocation.name not in LOBBY_DESK_WORDS  # a league's command before its league starts
        if early and invocation.name not in league_command_names():
            return False
        if early and any(r.commands.find(invocation.name, "room") for r in self.bot.room_referees):
            return False  # a room command said privately: the bot says where it goes
        if early and any(
            isinstance(r, LeagueReferee) and r.is_member(ctx.sender) for r in self.bot.private_referees
        ):
            return False  # an ended league of theirs still answers some (its standings, their pool)
        if running_league(self.bot, ctx.sender) is not None:
            return False  # their league answers
        private_games = getattr(self.bot, "private_games", None)
        if callable(private_games) and private_games(ctx.sender, invocation.name):
            return False  # a game of theirs takes it privately (Vortex)
        lobby = next(
            (
                lobby
                for room in self.bot.room_referees
                if isinstance(room, LeagueRoom)
                for lobby in room.lobbies.values()
                if ctx.sender in lobby.members
            ),
            None,
        )
        if lobby is None:
            return False
        fmt, title = lobby.format_name, TITLES[lobby.format_name]
        if early:
            if self.first_in_burst(ctx.sender):
                await ctx.reply(
                    f"You are in the {title} lobby: its commands work here once the league starts."
                )
            return True  # said a moment ago: once per burst (a newcomer heard it seven times)
        if invocation.name == "leave":
            await ctx.reply(
                f"You are in the {title} lobby, not a running league: !{fmt} leave in the room leaves it."
            )
            return True
        waiting = f"{len(lobby.members)} waiting: {', '.join(lobby.members)}"
        await ctx.reply(
            shorten(
                f"You are in the {title} lobby ({waiting}); the league's commands work here once it starts."
                f" Its options now: !{fmt} rules in the room; !{fmt} start there starts it ({lobby.needed}"
                f" players), !{fmt} leave leaves the lobby.",
                PRIVATE_LIMIT,
            )
        )
        return True

    def first_in_burst(self, member: str, now: float | None = None) -> bool:
        """Whether ``member``'s early league command gets its answer now: once per :data:`BURST_SECONDS`."""
        now = time.monotonic() if now is None else now
        answered = self.answered
        last = answered.get(member)
        if last is not None and now - last < BURST_SECONDS:
            return False
        answered[member] = now
        return True


def under_way_words(running: Iterable[LeagueReferee]) -> str:
    """The leagues under way in a room, for a join that opens another one's lobby ("" when none):
    "Market Draft league #1 is under way and cannot take new players"."""
    titles = [league.room_title() for league in running]
    if not titles:
        return ""
    verb = "is" if len(titles) == 1 else "are"
    return f"{' and '.join(titles)} {verb} under way and cannot take new players"


def league_command_names() -> frozenset[str]:
    """The private commands of a running league (names and aliases): what a lobby member may try early."""
    global _LEAGUE_COMMANDS
    if _LEAGUE_COMMANDS is None:
        specs = [
            getattr(getattr(LeagueReferee, attr, None), "__command__", None) for attr in dir(LeagueReferee)
        ]
        _LEAGUE_COMMANDS = frozenset(
            name
            for meta in specs
            if meta is not None and "private" in meta["scopes"]
            for name in (meta["name"], *meta["aliases"])
        )
    return _LEAGUE_COMMANDS


_LEAGUE_COMMANDS: frozenset[str] | None = None


def sync_lobby_desk(bot: Bot) -> None:
    """One :class:`LobbyDesk` among the bot's private referees while a lobby of any room and format has
    members, none otherwise (the private referees are the running leagues, and the lobby desk, while
    players wait)."""
    waiting = any(
        lobby.members
        for room in bot.room_referees
        if isinstance(room, LeagueRoom)
        for lobby in room.lobbies.values()
    )
    desks = [referee for referee in bot.private_referees if isinstance(referee, LobbyDesk)]
    if waiting and not desks:
        bot.private_referees.append(LobbyDesk(bot))
    elif not waiting and desks:
        bot.private_referees[:] = [r for r in bot.private_referees if not isinstance(r, LobbyDesk)]


class MarketRoom(LeagueRoom):
    format_name = "market"

    @command(scopes=("room",))
    async def market(self, ctx: Context, what: LobbyWord, args: Rest | None = None) -> None:
        """!market join|leave|status|start [ROUNDS] [BLOCK] [OPTS]: a Market Draft league, e.g. !market start
        5 ucost=12 packs=random; !market rules lists the options."""
        await self.lobby(ctx, what, args or "")


class AutoBattlerRoom(LeagueRoom):
    format_name = "autobattler"

    @command(scopes=("room",))
    async def autobattler(self, ctx: Context, what: LobbyWord, args: Rest | None = None) -> None:
        """!autobattler join|leave|status|start [BLOCK] [OPTS]: an AutoBattler cube league, e.g.
        !autobattler start poison=flat2 interest=5 carousel; !autobattler rules lists the options."""
        await self.lobby(ctx, what, args or "")
