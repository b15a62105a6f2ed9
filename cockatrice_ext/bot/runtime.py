"""The bot runtime: one client session, many referees, one journal.

Theory of operation
-------------------
:class:`Bot` owns a logged-in :class:`~cockatrice_ext.client.Client` and routes what the server
sends it:

* room chat (``Event_RoomSay``) to the *room commands* of every format (``!auction new 2``...),
* game events, including game chat, to the :class:`GameReferee` of that game,
* private messages (``Event_UserMessage``) to the referees that accept them (leagues; a game whose
  referee takes private commands from its seated players, Vortex's ``!pick``: :meth:`Bot.answer_for_game`).

Identity is always what the server says: the acting ``player_id`` of a game event, the ``name``
of a room message, the ``sender_name`` of a private message. Text never names the sender.

The referees (:mod:`cockatrice_ext.bot.referee`) adapt one format engine each to Cockatrice;
this module connects, routes, opens and closes games, and finds what a restart lost.

Restarting the bot restores every open table from the journal; a game referee then rebuilds
its view of the cards from the game state the server sends when the bot is re-seated
(registered accounts keep their seat; see README).

With a shared (PostgreSQL) journal, several processes form a fleet (:mod:`cockatrice_ext.bot.fleet`):
leases decide which process answers a room and referees each game, and who takes over a dead one's.
An action applied while a chat command is handled carries an id derived from that command (game,
seat, the game's clock, the command's rank in that second, its text), so the journal refuses it
if the same command is ever applied again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from cockatrice_ext import __version__
from cockatrice_ext.bot.chat import ChatScheduler, Held, Line, bidi_isolated, client_scheduler
from cockatrice_ext.bot.commands import (
    PREFIX,
    BadArgument,
    NotAllowed,
    elsewhere_reason,
    parse_invocation,
    split_address,
)
from cockatrice_ext.bot.fleet import (
    DEFAULT_LEASE_TTL,
    Fleet,
    JournalLease,
    check_no_lone_process,
    check_writable,
)
from cockatrice_ext.bot.referee import (
    ANNOUNCING,
    GAME_REQUESTER,
    HELP_NAMES,
    LOST_HANDLE,
    CommandAllowance,
    Context,
    GameReferee,
    LobbyReferee,
    OpenedGame,
    Referee,
    asked_help,
    describe_command,
    duration_words,
    game_list,
    handle_order,
    players_named,
    plural,
    reply_unknown,
    shorten,
    unreplayable_line,
)
from cockatrice_ext.client import ClientEvent, Disconnected, Reconnected, connect
from cockatrice_ext.client.errors import ClientError, ConnectionLost, SessionRefused
from cockatrice_ext.client.flood import Cost, FloodError
from cockatrice_ext.journal import (
    PLAYED_WITH,
    POSTGRES_SCHEMES,
    Journal,
    JournalError,
    JournalWriteError,
    journal_location,
)
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.protocol.codes import Zone

LOGGER = logging.getLogger(__name__)

IS_JUDGE_LEVEL = pb.ServerInfo_User.IsJudge
"""The user-level flag of accounts the server lets judge games."""
IS_REGISTERED_LEVEL = pb.ServerInfo_User.IsRegistered
"""The user-level flag of registered accounts (the server keeps their seats while they are away)."""


CLOSED_WORDS = {
    "LOGGEDINELSEWERE": "logged in elsewhere",
    "BANNED": "banned",
    "USERNAMEINVALID": "name refused",
    "LOGIN_REFUSED": "login refused",
    "ROOM_GONE": "room gone",
    "ROOM_REFUSED": "room refused",
}
"""A few words for each close reason the server means for good, for players."""


SAME_POINTER_SECONDS = 30.0
"""A user told where their private command goes is not told the same again within this many seconds."""


class SessionEnded(Exception):
    """The bot stopped because it may no longer act: the server ended its session for good (logged in
    elsewhere, banned, a name it no longer accepts) or another process took its journal. The message is the
    operator's one line saying why."""


def ended_sentence(code: str, user: str, said: str, *, helper: bool = False, until: str | None = None) -> str:
    """Why a session the server closed for good (close reason ``code``, its words ``said``, a ban's end
    ``until``, e.g. ``2026-11-28 20:49 UTC``) stops: the server's own reason once, never the words of the
    sentence again ("banned (banned (BANNED: ...))")."""
    what = {
        "LOGGEDINELSEWERE": f"another process or client logged in as {user}",
        "BANNED": f"the server banned {user}",
        "USERNAMEINVALID": f"the server no longer accepts the user name {user}",
        "LOGIN_REFUSED": f"after a reconnect the server refused to log {user} in",
        "ROOM_GONE": f"after a reconnect the server no longer has the room {user} was in",
        "ROOM_REFUSED": f"after a reconnect the server no longer lets {user} into its room",
    }.get(code, f"the server closed the session of {user} for good")
    if until:
        what += f" until {shorten(until, 40)}"
    words = server_words(code, said, what) if code != "LOGGEDINELSEWERE" else ""
    if words:
        what += f" ({shorten(words, 200)})"
    goes_on = "this helper session stops, the main session goes on"
    return f"{what}; {goes_on if helper else 'this one stops'}"


def server_words(code: str, said: str, sentence: str) -> str:
    """The server's own reason in ``said`` (the client's ``banned until X (BANNED: Spamming)``, or just
    ``Spamming``), without what ``sentence`` says already: the close reason's name, our word for it, its end.
    """
    said = " ".join(said.split())
    marker = f"{code}: " if code else ""
    at = said.find(marker) if marker else -1
    if at >= 0:
        words = said[at + len(marker) :]
        if said[:at].endswith("(") and words.endswith(")"):
            words = words[:-1]
        return words.strip()
    words = re.sub(rf"\s*\(?\b{re.escape(code)}\)?$", "", said) if code else said
    words = re.sub(r"\s*\buntil\b.*$", "", words).strip()
    if not words or words.lower() == code.lower() or words.lower() in sentence.lower():
        return ""
    return words


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


SHUTDOWN_SAME = 90.0
"""Seconds within which two shutdown announcements of the server are the same shutdown (Servatrice repeats
one as its minutes halve, and every minute of the last five)."""
SHUTDOWN_GRACE = 120.0
"""Seconds past a shutdown's due time after which a server still there is taken as not shutting down."""

LOST_KEEP_SECONDS = 24 * 3600.0
"""Seconds a lost game's record waits for ``!resume`` after the room was told it was lost; then it is closed
in the journal (with why, its record still there for reports) and no longer listed or announced: a bot
restarted every night would otherwise list and announce every game it ever lost, its players long gone."""
LOST_CHECK_SECONDS = 600.0
"""How often a running bot closes the lost records whose wait ran out (a start does it too)."""
LOST_AT = "lost_at"
"""A lost game's table meta: when (wall clock) its room was first told it was lost; told once."""
LOST_HOW = "lost_how"
"""A lost game's table meta: :data:`REMOVED` when a moderator removed the referee from it (not a restart)."""
REMOVED = "removed"
SLOT_WAIT = 20.0
"""Seconds a game request waits, at most, for a slot it frees at the server's game limit (an old game closed
to make room: its last lines, the kicks and the leave wait for the flood budgets of a busy referee)."""


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


@dataclass
class BotOptions:
    """How the bot connects and where it keeps its journal."""

    url: str
    user: str
    password: str | None = None
    rooms: tuple[str, ...] = ()
    journal_path: Path = Path("cockatrice-ext.sqlite3")
    client_options: dict[str, Any] = field(default_factory=dict)
    formats: tuple[str, ...] = ("auction", "vortex", "combat", "market", "autobattler")
    format_options: dict[str, Any] = field(default_factory=dict)
    extra_users: tuple[str, ...] = ()
    """More accounts (or names, under auth none) that open and referee games, each with its own chat
    and command budget; the main account answers the room. Same password as the main account."""
    fleet: bool | None = None
    """Share rooms and games with other processes through journal leases (default: with a PostgreSQL
    journal)."""
    lease_ttl: float = DEFAULT_LEASE_TTL
    """Seconds a fleet lease lasts unless renewed (a dead process's games are taken over after it)."""
    unjoined_timeout: float = 300.0
    """Seconds a game opened on a user's request waits for another player: with nobody but its requester
    seated by then the bot kicks them and leaves it (so the server closes it and frees the slot) and tells
    the room; 0 or less: never."""
    max_waiting_per_user: int = 1
    """Games one user may have asked for that still wait for players, at once (in all formats and rooms):
    the server lets the referee's account create only a few games per room (5 as shipped), for everyone."""
    unjoined_yield_after: float = 60.0
    """When the server's game limit is reached, a game nobody has joined for this many seconds, asked for by
    someone else, is closed to make room for the new one (oldest first)."""
    room_commands: str = "all"
    """Which room commands the bot answers: ``all``, or ``addressed``: only those that name it (``RefereeBot:
    !games``, ``@RefereeBot !help``, ``!games @RefereeBot``), so that two referees can share a room. Game
    chat and private messages are answered as always."""


REFEREED_GAME = re.compile(r"\b\d+ players?, refereed\b")
"""How this project's referees describe the games they open (``PileReferee.create``, ``Bot.open_game``'s
callers: "Auction Magic, 2 players, refereed (asked by ann)"): another account opening such games in a room
is another referee there."""

GAME_NUMBER = re.compile(r"#?(\d{1,9})(?:@\d{1,6})?")
"""A game named in a room command's first argument (``!cancel #12``, ``!resume 12@1``)."""


class Bot:
    """One referee session on one server; the main session also holds the helper sessions.

    Servatrice gives every connection its own flood budget, so the main session can open new games
    on its least busy helper session (``extra_users``). A helper session only referees the games it
    sits in; room commands are answered by the main session. Private conversations are spread over the
    sessions too: a user is written to by one session (the least busy when the conversation began, or
    the one they wrote to), and their private commands are answered there by the main session's rules.
    """

    def __init__(
        self, options: BotOptions, *, journal: Journal | None = None, main: Bot | None = None
    ) -> None:
        self.options = options
        self.main = main
        self.sessions: list[Bot] = [self]
        self.journal = journal or Journal(options.journal_path)
        self.client: Any = None
        self.chat: ChatScheduler = ChatScheduler(_not_connected, lambda _d, _m: 0.0)
        self.games: dict[int, GameReferee] = {}
        self.room_referees: list[Referee] = []
        self.private_referees: list[Referee] = []
        self.room_ids: list[int] = []
        self._ready = asyncio.Event()  # set when start() finished (see ready)
        self._held: list[ClientEvent] = []  # room and private commands that came while starting
        self.server_key = options.url
        in_fleet = (
            options.fleet if options.fleet is not None else self.journal.path.startswith(POSTGRES_SCHEMES)
        )
        self.fleet: Fleet | None = main.fleet if main is not None else Fleet(self) if in_fleet else None
        """This process's part in a fleet of bots sharing the journal (None: the bot works alone)."""
        self.view_listeners: list[Callable[[GameReferee], None]] = []
        """Called (on the main session) when what a game shows may have changed: the web view."""
        self.league_pages: Any = None
        """Set (on the main session) by the web view: leagues' private pages (``link``, ``changed``)."""
        self.conversations: dict[str, Bot] = {}
        """On the main session: which session writes privately to each user (one sender per user)."""
        self._stopped = asyncio.Event()
        self._told_name = ""  # the other name the rooms were told of (see say_if_renamed)
        self.ended = ""
        """Why this session may no longer act (the operator's line; see :meth:`end`); empty while it may."""
        self.journal_lease: JournalLease | None = None
        """A bot outside a fleet holds its journal (:class:`~cockatrice_ext.bot.fleet.JournalLease`)."""
        self.opened: dict[int, OpenedGame] = {}
        """Games this session opened on a user's request (:data:`GAME_REQUESTER`), until it leaves them."""
        self._unjoined_timers: dict[int, asyncio.TimerHandle] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._going_on: set[asyncio.Future[Any]] = set()  # work a request stopped waiting for (see within)
        self.room_allowance = CommandAllowance()
        """Room commands answered per sender lately (:data:`ROOM_COMMANDS_PER_WINDOW`)."""
        self.unreplayable: dict[str, Unreplayable] = {}
        """On the main session: journaled games this version cannot replay, by table key (see
        :meth:`unreplayable_games`)."""
        self._shutdown_told: float | None = None  # when the shutdown the players were told of is due
        self._shutdown_last_told = False  # its last reminder (at 1 minute) was said
        self._drops = 0  # connections lost so far: a re-read queued before a newer drop does nothing
        self._stop_by: float | None = None  # when a stop's one wait for the last lines ends (see stop_wait)
        self._chat_taken_over = False  # stopping: the stop news goes straight to the client, in its order
        self._lost_watch: asyncio.Task[None] | None = None  # closes lost records not resumed in time
        self._resuming: set[str] = set()  # lost records a !resume is rebuilding now: never closed meanwhile
        self.room_games: dict[int, dict[int, tuple[str, str]]] = {}
        """On the main session: each joined room's games as its game list shows them: (creator, description)
        by game number (:meth:`on_room_games`)."""
        self.other_referees: dict[int, list[str]] = {}
        """On the main session: accounts seen opening refereed games in each room (:meth:`note_referee`)."""
        self._told_limit = False  # the operator was told once how to get more game slots
        self.started_games: set[int] = set()
        """On the main session: games of the joined rooms' lists that have started (:meth:`on_room_games`)."""
        self.unrecorded_games: set[int] = set()
        """On the main session: games this account opened that its journal does not know (told once each:
        :meth:`note_unrecorded_games`)."""

    # -- lifecycle ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Take the journal (refused when another bot process uses it, or it cannot be written), connect,
        join the rooms, install the formats and restore journaled tables."""
        await self.take_journal()
        await self._connect()
        for user in self.options.extra_users:
            await self.add_session(user)
        self.restore_held()
        await self.watch_users()
        self.room_referees.append(LobbyReferee(self))
        from cockatrice_ext.bot import formats as bot_formats

        for name in self.options.formats:
            installer = bot_formats.INSTALLERS.get(name)
            if installer is not None:
                await installer(self)
        for game_id, mirror in list(self.client.games.items()):  # re-seated at login (registered account)
            await self.resume_game(game_id, mirror.room_id)
        await self.watch_again()
        if self.fleet is not None:
            self.expire_lost_games()
            await self.fleet.start()  # lost games are announced by the process that leases them
        else:
            await self.announce_lost_games()
            await self.note_unrecorded_games()
        self._lost_watch = asyncio.get_running_loop().create_task(self._expire_lost_regularly())
        self.mark_ready()
        for session in (self, *self.sessions):  # said while we were starting: answered now, in order
            held, session._held = session._held, []
            for event in held:
                await session.on_event(event)
        due = self.shutdown_due()
        if due is not None and self._shutdown_told is None:  # announced at login, before we listened
            await self.on_server_shutdown(max(1, round((due - asyncio.get_running_loop().time()) / 60)))
        LOGGER.info("bot %s ready in rooms %s", self.client.user_name, self.room_ids)

    async def take_journal(self) -> None:
        """Before logging in: this process's claim on the journal (see :class:`JournalLease`); a fleet member
        only checks that no lone process holds it, and that it can be written.

        Raises:
            JournalError: the journal is in use by another bot process, or cannot be written.
        """
        if self.main is not None:
            return
        if self.fleet is not None:
            check_writable(self.journal, self.options.user)
            check_no_lone_process(self.journal)
            return
        self.journal_lease = JournalLease(self.journal, self.options.user, self.options.lease_ttl, self.end)
        await self.journal_lease.take()

    def mark_ready(self) -> None:
        """Every format is installed and every journaled table restored: commands are answered now."""
        self._ready.set()

    @property
    def ready(self) -> bool:
        """Whether :meth:`start` has finished (commands said before are held until then)."""
        return self._ready.is_set()

    async def until_ready(self, timeout: float | None = None) -> bool:
        """Wait until the bot (its main session) has started, at most ``timeout`` s; whether it has."""
        main = self.main or self
        if not main.ready:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(main._ready.wait(), timeout)
        return main.ready

    async def _connect(self) -> None:
        """Log in and join the rooms (the same rooms for every session)."""
        self.client = await connect(
            self.options.url, self.options.user, self.options.password, **self.options.client_options
        )
        self.chat = client_scheduler(self.client, on_held=self._record_held, on_ignored=self._on_ignored)
        self.client.add_listener(self.deliver)
        rooms = await self.client.list_rooms()
        wanted = self.options.rooms or tuple(r.name for r in rooms[:1])
        for name in wanted:
            room_id = await self.client.room_id_by_name(name)
            info = await self.client.join_room(room_id)
            self.room_ids.append(room_id)
            if why := self.another_copy():  # before a word is said in the room (another copy's games are
                raise SessionEnded(why)  # in rooms it sits in: it is seen there first)
            if self.main is None and info is not None:
                self.room_games[room_id] = {}
                await self.on_room_games(room_id, list(getattr(info, "game_list", ())))
        await self.say_if_renamed()

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

    async def add_session(self, user: str) -> Bot:
        """Log in one more account (same password) and resume the journaled games it is re-seated in."""
        helper = Bot(
            dataclasses.replace(self.options, user=user, extra_users=()), journal=self.journal, main=self
        )
        try:
            await helper._connect()
        except SessionRefused as exc:
            if exc.close_reason != "TOO_MANY_CONNECTIONS":
                raise
            raise SessionRefused(
                f"{exc}; the server takes fewer connections from this address: "
                f"run without --extra-user {user}",
                user=exc.user,
                close_reason=exc.close_reason,
            ) from None
        self.sessions.append(helper)
        for game_id, mirror in list(helper.client.games.items()):
            await helper.resume_game(game_id, mirror.room_id)
        return helper

    def least_loaded(self) -> Bot:
        """The session that should open the next game: the one refereeing the fewest games. The main
        session, which alone answers the room, counts one game more than it has (a tie goes to a helper), so
        room answers do not wait behind a game's lines while a helper has room."""
        main = self.main or self
        helpers = len(main.sessions) > 1

        def load(session: Bot) -> tuple[int, bool]:
            is_main = session is main
            return len(session.games) + (1 if is_main and helpers else 0), is_main

        return min(main.sessions, key=load)

    def all_games(self) -> dict[int, GameReferee]:
        """Every game refereed by any session of this bot."""
        main = self.main or self
        return {gid: ref for session in main.sessions for gid, ref in session.games.items()}

    async def run_forever(
        self, on_ready: Callable[[], None] | None = None, on_stop: Callable[[str], None] | None = None
    ) -> None:
        """Start, then serve until :meth:`stop` is called; ``on_stop`` hears the operator's "stopping" and
        "stopped" lines of a normal stop.

        Raises:
            SessionEnded: the bot had to stop (see :meth:`end`); its message says why.
        """
        try:
            await self.start()
            if on_ready is not None:
                on_ready()
            await self._stopped.wait()
            if not self.ended:
                summary = await self.say_stopping()
                LOGGER.info("%s", summary)
                if on_stop is not None:
                    on_stop(summary)
        finally:
            await self.close()
        if self.ended:
            raise SessionEnded(self.ended)
        LOGGER.info("stopped")
        if on_stop is not None:
            on_stop("stopped")

    def stop(self) -> None:
        self._stopped.set()

    def end(self, why: str) -> None:
        """Stop for good because this process may no longer act (``why``, the operator's line): nothing is
        recorded from now on, whatever timer still fires (the journal refuses it too)."""
        main = self.main or self
        if not main.ended:
            main.ended = why
        self.journal.refuse_actions(why)
        main.stop()

    @property
    def gone_for_good(self) -> str:
        """Why this session (or the whole bot) may no longer act, or ``""``: read at once from the client,
        which knows it as the server's goodbye arrives, before its event reaches :meth:`on_event`."""
        main = self.main or self
        if self.ended or main.ended:
            return self.ended or main.ended
        code = getattr(self.client, "closed_for_good", "") if self.client is not None else ""
        return f"the server closed the session for good ({code})" if code else ""

    STOP_WAIT: ClassVar[float] = 3.0
    """Seconds a stop waits, at least, in all, for the lines still to send (the ones telling each game the
    referee stops among them): one wait from the moment the stop begins (:meth:`stop_wait`), which ends as
    soon as everything is sent."""
    STOP_WAIT_MAX: ClassVar[float] = 8.0
    """Seconds a stop waits, at most, when the chat budget needs longer than :data:`STOP_WAIT` for the lines
    telling each game (:meth:`size_stop_wait`): with the closing after it, a stop ends well within
    ``docker stop``'s 10 s (systemd waits 90 s); the room line naming every game went first."""

    @property
    def connected(self) -> bool:
        """Whether this session's connection is up (not while its client reconnects: nothing can be said)."""
        return self.client is not None and bool(getattr(self.client, "connected", True))

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
        it); then each game's chat gets its line. The games' queues stop (what they still held is taken up
        by the restart, as after ``kill -9``: a move recorded now could not be answered), what still waited
        for the chat is dropped (the journal keeps every move; messages kept for offline users stay kept),
        and the lines go
        straight to the client in that order (a session's chat scheduler is closed: its shorter lines would
        overtake the room line). The stop waits once, sized from the budget (:meth:`size_stop_wait`, at most
        :data:`STOP_WAIT_MAX`); what cannot be sent by then is dropped with the sessions. A session that is
        reconnecting (the server down) cannot tell its games anything: it does not try."""
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
        self._drop_stale_chat([referee for referee, _ in telling])
        saying: dict[int, tuple[int, int]] = {}
        for session, lines in [(main, room_lines)] + [(referee.bot, [line]) for referee, line in telling]:
            messages, characters = saying.get(id(session), (0, 0))
            saying[id(session)] = messages + len(lines), characters + sum(len(line) for line in lines)
        deadline = self.size_stop_wait(saying)
        for session in main.sessions:
            if session.connected and session.says_directly:
                session.chat.close()
                session._chat_taken_over = True
        notes = [self._stop_note(referee, line) for referee, line in telling if not referee.watching]
        room_told = [main._say_first(room_id, text) for room_id, text in room_lines]
        game_told: list[asyncio.Task[None]] = []
        later = []
        for referee, line in telling:
            if room_told and referee.bot is main:  # after the room lines, so none of them overtakes those
                later.append((referee, line))
            elif referee.bot._chat_taken_over:
                game_told.append(referee.bot._say_in_game(referee.game_id, line))
            else:
                with contextlib.suppress(Exception):  # a game gone meanwhile: nothing to tell
                    await referee.say(line)
        if room_told:
            loop = asyncio.get_running_loop()
            await asyncio.wait(room_told, timeout=max(0.0, deadline - loop.time()))
        for referee, line in later:
            if referee.bot._chat_taken_over:
                game_told.append(referee.bot._say_in_game(referee.game_id, line))
            else:
                with contextlib.suppress(Exception):
                    await referee.say(line)
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

    def _say_in_game(self, game_id: int, text: str) -> asyncio.Task[None]:
        """Say a stop line in a game's chat straight through the client (paced by its flood gate)."""

        async def say() -> None:
            with contextlib.suppress(ClientError, ConnectionError, ValueError):  # the game gone, or dropped
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

    def _drop_stale_chat(self, referees: list[GameReferee]) -> None:
        """Stopping: forget what still waits for the games' and rooms' chat (answers, listings), so the
        stop news goes first; private messages stay (kept for offline users, they go on at a restart)."""
        main = self.main or self
        dropped = 0
        for referee in referees:
            dropped += referee.bot.chat.pending(referee.chat_destination)
            referee.bot.chat.drop(referee.chat_destination)
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

    async def close(self) -> None:
        """Leave the fleet, send what the chat still holds within the stop's one wait (:meth:`stop_wait`:
        not again after :meth:`say_stopping`, not at all while reconnecting), close every session."""
        if self._lost_watch is not None:
            self._lost_watch.cancel()
        if self.fleet is not None and self.main is None:
            await self.fleet.stop()
        sessions = [session for session in reversed(self.sessions) if session.client is not None]
        with contextlib.suppress(Exception):  # lines still waiting for the chat budget: a bounded wait
            await self.stop_wait()
        for session in sessions:
            for timer in session._unjoined_timers.values():
                timer.cancel()
            session._unjoined_timers.clear()
            for referee in session.games.values():  # a game's work still queued ends with its session
                referee.work.close()
            session.chat.close()
            await session.client.close()
        if self.main is None:
            if self.journal_lease is not None:
                self.journal_lease.release()
            self.journal.close()

    # -- chat helpers ------------------------------------------------------------------------------

    async def room_say(
        self, room_id: int, text: Line, *, on_sent: Callable[[float], None] | None = None
    ) -> None:
        """Queue a line for a room's chat (``on_sent``: told when it leaves, :meth:`ChatScheduler.say`)."""
        self.chat.say(("room", room_id), text, on_sent=on_sent)

    async def tell(
        self,
        user_name: str,
        text: Line,
        *,
        raw: bool = False,
        on_sent: Callable[[float], None] | None = None,
    ) -> None:
        """Queue a private message on the session that holds the conversation with that user (kept while
        the user is offline, sent when they are back; ``raw``: line breaks kept, see
        :meth:`ChatScheduler.say`)."""
        self.conversation_with(user_name).chat.say(("user", user_name), text, raw=raw, on_sent=on_sent)

    def conversation_with(self, user_name: str) -> Bot:
        """The session that writes to ``user_name``: kept once chosen, so a user hears from one sender;
        a new conversation goes to the session with the least chat in its window and queue."""
        main = self.main or self
        if len(main.sessions) == 1:
            return main
        session = main.conversations.get(user_name)
        if session is None or session not in main.sessions:
            session = min(main.sessions, key=lambda candidate: candidate.chat_load())
            main.conversations[user_name] = session
        return session

    def chat_load(self) -> float:
        """How full this session's chat window is with what it sent and what waits to be sent: the larger
        of the message and character counts, each as a fraction of its limit (a limit of 0 is none: no
        pacing, as on a server with flood protection off, so that count never fills the window)."""
        messages, characters = self.chat.waiting()
        used = self.client.flood.usage(asyncio.get_running_loop().time())
        limits = self.client.flood.limits
        return max(
            (used.chat_messages + messages) / limits.chat_messages if limits.chat_messages > 0 else 0.0,
            (used.chat_chars + characters) / limits.chat_chars if limits.chat_chars > 0 else 0.0,
        )

    # -- routing -----------------------------------------------------------------------------------

    async def deliver(self, event: Any) -> None:
        """The client's listener. An event of a game this session referees goes to that game's own queue
        (:attr:`GameReferee.work`), handled there in order while the dispatcher goes on: a game waiting for
        the server's command budget holds up no other game. The rest is handled here, in order."""
        game_id = getattr(event, "game_id", None)
        if getattr(event, "kind", None) == "game" and game_id is not None:
            referee = self.games.get(game_id)
            if referee is not None:
                referee.work.submit(lambda: self.on_event(event))
                return
        if isinstance(event, Reconnected):  # each game's re-read waits in its queue, not the dispatcher
            await self._on_reconnected(event, wait=False)
            return
        await self.on_event(event)

    async def on_event(self, event: Any) -> None:
        try:
            if isinstance(event, Reconnected):
                await self._on_reconnected(event)
                return
            if isinstance(event, Disconnected):
                if event.final:
                    await self._closed_for_good(event)
                elif event.will_reconnect:
                    self._drops += 1
                    for referee in self.games.values():  # nobody is taken for gone until the seats are read
                        referee.rejoining = True
                return
            if event.kind != "game" and not event.is_own and not event.is_replay:
                seen = user_online_in(event)
                if seen:
                    self.user_seen(seen)
                elif event.name == "Event_UserLeft":  # logged off: what waits for them is kept, not tried
                    self.user_gone(str(event.message.name))
            if (
                self.main is not None
                and event.kind in ("room", "session")
                and event.name not in ("Event_GameJoined", "Event_UserMessage")
            ):
                return  # a helper session: the main session answers the room
            said = (event.kind, event.name) in (
                ("room", "Event_RoomSay"),
                ("session", "Event_UserMessage"),
                ("session", "Event_ServerShutdown"),  # its games are known once the bot has started
            )
            if said and not (self.main or self).ready and not event.is_own and not event.is_replay:
                self._held.append(event)  # answered once the bot has started (start() replays it)
                return
            if event.kind == "room" and event.name == "Event_RoomSay":
                if not event.is_own and not event.is_replay:
                    await self._on_room_say(event)
            elif event.kind == "room" and event.name == "Event_ListGames" and event.room_id is not None:
                if not event.is_replay:
                    await self.on_room_games(event.room_id, list(event.message.game_list))  # type: ignore[attr-defined]
            elif event.kind == "room" and event.name == "Event_LeaveRoom" and event.room_id is not None:
                for referee in self.room_referees:
                    await referee.on_room_left(event.room_id, str(event.message.name))  # type: ignore[attr-defined]
            elif event.kind == "session" and event.name == "Event_UserMessage":
                if not event.is_own:
                    await self._on_private(event)
            elif event.kind == "game" and event.game_id in self.games:
                referee = self.games[event.game_id]
                try:
                    await referee.on_event(event)
                finally:  # a game gone is forgotten even when its referee failed on the news
                    if event.name == "Event_Kicked":
                        kept = self.journal.has_table(referee.table_key)
                        self.forget_game(event.game_id, keep_lease=kept)  # still offered to !resume here
                        await self.removed_from_game(referee)
                    elif event.name == "Event_GameClosed":
                        self.forget_game(event.game_id)
            elif event.kind == "session" and event.name == "Event_GameJoined":
                await self._on_game_joined(event)
            elif event.kind == "session" and event.name == "Event_ServerShutdown":
                await self.on_server_shutdown(int(getattr(event.message, "minutes", 0)))
            elif event.kind == "game" and event.game_id is not None:
                await self._on_unreplayable_game_event(event)
        except JournalWriteError:  # a move the journal could not record: it said why, once; nothing changed
            LOGGER.debug("journal not written for %r", event)
        except Exception:
            LOGGER.exception("bot failed on %r", event)

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

    def in_room(self, room_id: int) -> bool:
        """Whether this session's client is in room ``room_id`` now (a line there is refused otherwise:
        ``RespNotInRoom``); a client that keeps no list of its rooms (the web demo's stand-in, whose lines go
        nowhere) is taken to be in every room."""
        joined = getattr(self.client, "joined_rooms", None)
        return joined is None or room_id in joined

    def was_removed(self, key: str) -> bool:
        """Whether the lost game of record ``key`` was lost because a moderator removed the referee."""
        try:
            return self.journal.table_meta(key).get(LOST_HOW) == REMOVED
        except Exception:  # a damaged record: listed as lost, said when it is read
            return False

    def unjoined_again(self, game_id: int) -> bool:
        """Game ``game_id``, opened on request, has nobody seated again before its start: whether its unjoined
        clock will close it (and tell the room) if nobody sits down in time; a clock that already ran (someone
        else sat down meanwhile) starts again from now. False: no such clock (not opened on request, or the
        operator turned it off)."""
        opened = self.opened.get(game_id)
        timeout = (self.main or self).options.unjoined_timeout
        if opened is None or timeout <= 0:
            return False
        if game_id in self._unjoined_timers or opened.heard_at is None:
            return True  # its clock still runs, or starts when its announcement leaves
        loop = asyncio.get_running_loop()
        opened.heard_at = loop.time()
        self._unjoined_timers[game_id] = loop.call_later(
            timeout, lambda: self.spawn(self.close_if_unjoined(game_id))
        )
        return True

    async def _closed_for_good(self, event: Disconnected) -> None:
        """The server ended this session for good (another login with our account, a ban, a name it no
        longer accepts): reconnecting cannot help. The main session stops the process (:meth:`end`); a
        helper session alone stops, its games said lost in their rooms (``!resume`` continues them)."""
        user = self.client.user_name or self.options.user
        said = event.reason.partition(": ")[2] if ": " in event.reason else event.reason
        error = getattr(event, "error", None)
        if error is not None:  # a refusal after a reconnect: the sentence a first login would have said
            said = str(error)
        until = getattr(event, "until", "") or None
        if self.main is None:
            self.end(ended_sentence(event.final, user, said, until=until))
            return
        self.ended = ended_sentence(event.final, user, said, helper=True, until=until)
        LOGGER.error("%s", self.ended)
        await self.main.drop_helper(self)

    async def drop_helper(self, helper: Bot) -> None:
        """Stop a helper session whose account the server closed for good: its games are no longer refereed
        (their records are kept; each room hears how to continue them); the other sessions go on."""
        if helper in self.sessions:
            self.sessions.remove(helper)
        for user, session in list(self.conversations.items()):
            if session is helper:
                del self.conversations[user]
        why = CLOSED_WORDS.get(helper.client.closed_for_good, "closed")
        closed = f"{helper.client.user_name} for good ({why})"
        for game_id, referee in list(helper.games.items()):
            await referee.work.caught_up()
            helper.forget_game(game_id, keep_lease=True)  # offered for !resume here
            await referee.on_helper_closed(closed)
        helper.chat.close()
        with contextlib.suppress(Exception):
            await helper.client.close()

    # -- a player whose ignore list refuses the referee's private messages ----------------------------

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

    # -- the server's scheduled shutdown --------------------------------------------------------------

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

    def answers_room(self, room_id: int) -> bool:
        """Whether this process speaks for the bot in ``room_id`` (in a fleet, the room's lease holder)."""
        return self.fleet is None or self.fleet.answers_room(room_id)

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

    async def _on_room_say(self, event: ClientEvent) -> None:
        text = str(getattr(event.message, "message", ""))
        sender = str(getattr(event.message, "name", ""))  # who asked: the server's name, never the text
        address, command_text = split_address(text)
        if address is not None:  # "RefereeBot: !games": only the bot it names answers
            if not self.named_by(address, event.room_id):
                LOGGER.debug("%s: %r is addressed to %s, not to this referee", sender, text, address)
                return
            text = command_text
        elif self.options.room_commands == "addressed" and parse_invocation_safe(text):
            LOGGER.debug(
                "%s: %r names no referee; this one answers only room commands that name it", sender, text
            )
            return
        ctx = Context(self, "room", sender, room_id=event.room_id)
        if address is None and self.anothers_game(ctx, text):
            return
        if self.fleet is not None and not await self.fleet.route_room_command(ctx, text):
            return  # another process of the fleet answers
        await self.answer_room_command(ctx, text)

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
        try:
            invocation = parse_invocation(text)
        except BadArgument:
            return False
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

    async def answer_room_command(self, ctx: Context, text: str) -> None:
        """Run a room command (said in the room, or handed over by another process of the fleet), within its
        sender's allowance (:data:`ROOM_COMMANDS_PER_WINDOW`) while room answers wait for the chat budget:
        past it, the command is not run, and the sender hears once per window that the referee answers soon.
        """
        if parse_invocation_safe(text):
            busy = ctx.room_id is None or self.chat.pending(("room", ctx.room_id)) > 0
            verdict = self.room_allowance.verdict(ctx.sender, asyncio.get_running_loop().time(), busy=busy)
            if verdict != "answer":
                if verdict == "notice":
                    notice = f"{ctx.sender}: too many commands; the referee answers again in a few seconds."
                    await ctx.reply(shorten(notice))
                return
        starters: list[Callable[[float], None]] = []  # games opened: their clocks start with the answer
        announcing = ANNOUNCING.set(starters)
        try:
            for referee in self.room_referees:
                token = GAME_REQUESTER.set(ctx.sender if referee.opens_games_on_request else "")
                try:
                    if await referee.handle_command(ctx, text):
                        return
                finally:
                    GAME_REQUESTER.reset(token)
            await reply_unknown(ctx, text, self.room_referees)
        finally:
            ANNOUNCING.reset(announcing)
            now = asyncio.get_running_loop().time()
            for start in starters:  # opened, but never announced by the command: from now
                start(now)

    async def _on_private(self, event: ClientEvent) -> None:
        """A private command, to this session or a helper: answered by the main session's rules, from the
        session the user wrote to."""
        text = str(getattr(event.message, "message", ""))
        sender = str(getattr(event.message, "sender_name", ""))
        main = self.main or self
        if sender in {session.client.user_name for session in main.sessions if session.client is not None}:
            return  # one of our own sessions
        main.conversations[sender] = self
        await main.answer_private(sender, text)

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
        pointers: dict[str, tuple[str, float]] = self.__dict__.setdefault("_pointers", {})
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

    async def _read_again(self, referee: GameReferee, drops: int) -> None:
        """A kept game's turn after a reconnect: its seats are the server's again; ``on_reconnected``
        reconciles them once (one game's fault is logged, the others are still looked after). Nothing when
        the connection dropped again meanwhile (that drop's own reconnect reads the seats)."""
        if drops != self._drops or referee.closed:
            return
        referee.rejoining = False
        try:
            await referee.on_reconnected()
        except Exception:
            LOGGER.exception("after reconnecting: game %d not re-read", referee.game_id)

    async def _on_reconnected(self, event: Reconnected, *, wait: bool = True) -> None:
        """Back after a lost connection: each lost game is announced (or reopened by its league), each kept
        one re-read (:meth:`_read_again`) from its own queue, where the reconnect stands among the game's
        events: what the game heard before the drop is handled first, what it hears after comes after. The
        client's dispatcher (:meth:`deliver`, ``wait`` false) does not wait for the re-reads: a game whose
        queue waits for the server's game-command budget (up to a window, some 11 s) holds up neither the
        session's other events nor another game's re-read. The main session follows logins again (a new
        connection is not subscribed)."""
        if self.main is None:
            await self.watch_users()
            self.room_games.clear()  # what changed while away is unknown: no game is taken for another's
        await self.say_if_renamed()
        for game_id in event.lost_games:
            try:
                await self._seat_lost(game_id)
            except Exception:
                LOGGER.exception("after reconnecting: lost game %d not looked after", game_id)
        drops = self._drops
        rereads = [
            referee.work.submit(functools.partial(self._read_again, referee, drops))
            for referee in list(self.games.values())
        ]
        if wait and rereads:
            await asyncio.gather(*rereads, return_exceptions=True)

    async def _on_game_joined(self, event: ClientEvent) -> None:
        """A game we were (re)seated in: resume its referee from the journal if we know it."""
        info = event.message.game_info  # type: ignore[attr-defined]
        await self.resume_game(int(info.game_id), int(info.room_id))

    async def resume_game(self, game_id: int, room_id: int) -> None:
        """Resume the referee of a journaled game we sit in (after a restart or reconnect). A game we
        referee already is left as it is: its joined event answers our own create (a new or rebuilt game,
        not started), and a reconnect re-reads every game once it is back (``Reconnected``)."""
        if game_id in self.games:
            return
        from cockatrice_ext.bot import formats as bot_formats
        from cockatrice_ext.journal import JournalError

        key = f"{self.server_key}:game:{game_id}"
        if not self.journal.has_table(key) or key not in self.journal.open_tables():
            return
        known = (self.main or self).unreplayable.get(key)
        if known is not None:  # said already (seated again after a reconnect): its players still get why
            known.session = self
            return
        try:
            meta = self.journal.table_meta(key)
        except JournalError as exc:  # a damaged record: said, never guessed at
            LOGGER.error("game %d cannot be resumed: %s", game_id, exc)
            self.note_unreplayable(key, str(game_id), room_id, exc, seated=True)
            await self.room_say(room_id, unreplayable_line(f"game #{game_id}", exc))
            return
        factory = bot_formats.RESUMERS.get(str(meta.get("format", "")))
        if factory is None:
            return
        if self.fleet is not None and not self.fleet.acquire(key):
            LOGGER.info("game %d is still leased to another process; taken over when it expires", game_id)
            return
        try:
            referee = await factory(self, game_id, room_id, key)
        except JournalError as exc:  # never guess, never stop the bot: say what could not be read
            LOGGER.error("game %d cannot be resumed: %s", game_id, exc)
            self.note_unreplayable(key, str(game_id), room_id, exc, seated=True)
            await self.room_say(room_id, unreplayable_line(f"game #{game_id}", exc))
            return
        except Exception:  # a fault of ours must not stop the bot (and every restart after it) either
            LOGGER.exception("game %d cannot be resumed", game_id)
            await self.room_say(
                room_id,
                f"The referee could not take up game #{game_id} again (a fault of its own, written to its"
                " log); its record is kept, and nothing was changed.",
            )
            return
        self.adopt_game(referee)
        self.not_lost(key)
        await referee.until_seats_known()  # the joined event comes before the game's state
        await self.take_stop_note_away(referee)
        await referee.on_reconnected()

    async def open_game(
        self,
        room_id: int,
        *,
        description: str,
        seats: int,
        type_hint: str,
        password: str = "",
        judge: bool = False,
        share_decklists: bool = False,
        starting_life: int = 20,
        watch: bool = False,
        spectators_allowed: bool = True,
    ) -> int:
        """Create a game for ``seats`` human players and return its id (see :meth:`_open_game`); a number
        the journal already has moves the old record aside first (:meth:`number_given_again`).
        ``spectators_allowed``: False keeps spectators out (a league game shares its players' deck lists,
        which every spectator would receive).

        A game asked for by a user (:data:`GAME_REQUESTER`) is refused while that user's earlier games still
        wait for players (:attr:`BotOptions.max_waiting_per_user`), and is closed if nobody sits down in it
        within :attr:`BotOptions.unjoined_timeout` seconds (:meth:`close_if_unjoined`).

        Raises:
            NotAllowed: the server is about to shut down, the user's earlier game still waits, or the
                server's game limit is reached.
        """
        self.refuse_if_shutting_down()
        requester = GAME_REQUESTER.get()
        if requester:
            self.refuse_if_waiting(requester)
        game_id = await self._open_game(
            room_id,
            description=description,
            seats=seats,
            type_hint=type_hint,
            password=password,
            judge=judge,
            share_decklists=share_decklists,
            starting_life=starting_life,
            watch=watch,
            spectators_allowed=spectators_allowed,
        )
        await self.number_given_again(game_id)
        if requester:
            self.note_opened(game_id, room_id, requester)
        return game_id

    # -- games waiting for players: one user cannot hold the referee's game slots ---------------------------

    def waiting_games_of(self, user: str) -> list[tuple[int, Bot]]:
        """The games ``user`` asked for that still wait for players, oldest first, with their sessions (one
        opened but not yet refereed, its format still setting it up, waits too)."""
        main = self.main or self
        found = []
        for session in main.sessions:
            for game_id, opened in session.opened.items():
                referee = session.games.get(game_id)
                waits = (
                    referee.waiting_for_players if referee is not None else game_id in session.client.games
                )
                if opened.requester == user and waits:
                    found.append((opened.opened_at, game_id, session))
        return [(game_id, session) for _, game_id, session in sorted(found, key=lambda item: item[:2])]

    def refuse_if_waiting(self, user: str) -> None:
        """Refuse ``user`` a new game while as many of the games they asked for as allowed still wait for
        players: the referee's account may create only a few games per room, and they are everyone's.

        Raises:
            NotAllowed: which of their games waits, and that it must fill or close first.
        """
        main = self.main or self
        waiting = main.waiting_games_of(user)
        if len(waiting) < max(1, main.options.max_waiting_per_user):
            return
        if len(waiting) > 1:
            raise NotAllowed(
                f"your games {game_list(game_id for game_id, _ in waiting)} still wait for players. One must"
                " fill or close before you ask for another"
            )
        game_id, session = waiting[0]
        referee = session.games.get(game_id)
        what = f"{referee.format_name} game #{game_id}" if referee is not None else f"game #{game_id}"
        seated = referee.humans() if referee is not None and game_id in session.client.games else []
        if not seated:
            closes = session.closes_in(game_id)
            when = f": nobody has joined it, so it closes in about {duration_words(closes)}" if closes else ""
        elif all(player.name == user for player in seated):
            closes = session.closes_in(game_id)
            alone = f", or it closes in about {duration_words(closes)} if nobody else joins" if closes else ""
            when = f" ({len(seated)} seated): leave it to close it{alone}"
        elif any(player.name == user for player in seated):
            when = f" ({len(seated)} seated): leave it to close it"
        else:
            when = f" ({len(seated)} seated)"
        raise NotAllowed(
            f"your {what} still waits for players{when}. It must fill or close before you ask for another"
        )

    def closes_in(self, game_id: int) -> float:
        """Seconds until game ``game_id`` closes if nobody sits down in it (0: it does not close so)."""
        opened = self.opened.get(game_id)
        timeout = (self.main or self).options.unjoined_timeout
        if opened is None or timeout <= 0:
            return 0.0
        return max(1.0, timeout - opened.unjoined_for(asyncio.get_running_loop().time()))

    def note_opened(self, game_id: int, room_id: int, requester: str) -> None:
        """Remember who asked for game ``game_id`` and close it if nobody has sat down in it in time, counted
        from when its announcement left the chat queue (:data:`ANNOUNCING`; the room's answers may wait for
        the chat budget), or from now when no room command announces it."""
        loop = asyncio.get_running_loop()
        self.drop_opened(game_id)  # a number the server gave again: the old game's timer is not this one's
        opened = self.opened[game_id] = OpenedGame(requester, room_id, loop.time())
        starters = ANNOUNCING.get()
        if starters is not None:
            starters.append(lambda at: self.note_heard(game_id, opened, at))
        else:
            self.note_heard(game_id, opened, loop.time())

    def note_heard(self, game_id: int, opened: OpenedGame, at: float) -> None:
        """Players heard of game ``game_id`` at loop time ``at``: its unjoined clock starts there."""
        if self.opened.get(game_id) is not opened or opened.heard_at is not None:
            return  # gone meanwhile, or started already
        opened.heard_at = at
        loop = asyncio.get_running_loop()
        timeout = (self.main or self).options.unjoined_timeout
        if timeout > 0:
            self._unjoined_timers[game_id] = loop.call_later(
                max(0.0, at + timeout - loop.time()), lambda: self.spawn(self.close_if_unjoined(game_id))
            )

    def drop_opened(self, game_id: int) -> None:
        """Forget who asked for game ``game_id`` and stop its unjoined timer (the game is gone or left)."""
        self.opened.pop(game_id, None)
        timer = self._unjoined_timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()

    def spawn(self, work: Awaitable[None]) -> None:
        """Run ``work`` as a task of its own, kept until it is done; a fault is logged, never raised."""

        async def guarded() -> None:
            try:
                await work
            except JournalWriteError:  # a timer's move the journal could not record: it said why, once
                LOGGER.debug("background work not recorded: the journal cannot be written")
            except Exception:
                LOGGER.exception("background work failed")

        task = asyncio.get_running_loop().create_task(guarded())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def close_if_unjoined(self, game_id: int) -> None:
        """The unjoined timeout passed: a game nobody joined (:meth:`nobody_joined`) is closed and its room
        told once."""
        self._unjoined_timers.pop(game_id, None)
        if game_id not in self.opened:
            return
        referee = self.games.get(game_id)
        if referee is None:  # opened, but its format never took it up (it failed): free the slot
            self.opened.pop(game_id, None)
            if game_id in self.client.games and not self.client.games[game_id].started:
                with contextlib.suppress(ClientError, ConnectionError, TimeoutError):
                    await self.client.leave_game(game_id)
            return
        if not self.nobody_joined(referee, self.opened[game_id]):
            return  # it started, or someone other than its requester sits in it (it closes when they leave)
        timeout = duration_words((self.main or self).options.unjoined_timeout)
        await self.give_up_unjoined(referee, f"game #{game_id} closed: nobody joined in {timeout}")

    @staticmethod
    def nobody_joined(referee: GameReferee, opened: OpenedGame) -> bool:
        """Whether a game opened on request still waits with nobody seated but the user who asked for it:
        sitting alone in one's own game does not hold one of the referee's slots for good."""
        return referee.waiting_for_players and all(
            player.name == opened.requester for player in referee.humans()
        )

    async def give_up_unjoined(self, referee: GameReferee, line: str) -> None:
        """Close a game nobody joined (see :meth:`GameReferee.close_unjoined`) and tell its room ``line``
        (and, for a continued game, that its record is kept)."""
        key = referee.table_key
        kept = referee.table is not None and self.journal.closed_reason(key) is None
        await referee.close_unjoined(line)
        if kept:
            line += f"; its record is kept: say !resume {referee.game_id} to continue it"
        await (self.main or self).room_say(referee.room_id, shorten(line + "."))

    async def _open_game(
        self,
        room_id: int,
        *,
        description: str,
        seats: int,
        type_hint: str,
        password: str,
        judge: bool,
        share_decklists: bool,
        starting_life: int,
        watch: bool,
        spectators_allowed: bool = True,
    ) -> int:
        """Create a game for ``seats`` human players and return its id.

        The bot sits as one more player (a shared pile lives in its own zones), unless ``watch``: a
        format that needs no zone of its own asks for a judge's spectator seat, which an account with
        the server's judge level gets beyond the per-user game limit (Servatrice exempts judges who
        create games as spectators); it then acts for the players as their judge. Other accounts, and
        servers that refuse, get the seated game. The room's game types whose name contains
        ``type_hint`` are selected. A judge seat is asked for when ``judge`` or when the account has
        judge rights; a server that refuses it gets a plain seat instead.
        """
        from cockatrice_ext.client.errors import CommandFailed

        room = self.client.rooms.get(room_id)
        type_ids = [
            tid for tid, name in (room.game_types.items() if room else []) if type_hint in name.lower()
        ]
        ask_judge = judge or self.judge_level
        settings = {
            "description": description[:200],
            "max_players": seats + 1,
            "password": password or None,
            "spectators_allowed": spectators_allowed,
            "share_decklists": share_decklists,
            "game_type_ids": type_ids,
            "starting_life_total": starting_life,
        }
        if watch and self.judge_level:
            try:
                return await self.client.create_game(
                    room_id,
                    **{**settings, "max_players": seats},
                    join_as_judge=True,
                    join_as_spectator=True,
                )
            except CommandFailed as exc:
                LOGGER.info("no judge's spectator seat (%s); creating the game with a seat", exc)
        for as_judge in (True, False) if ask_judge else (False,):
            try:
                return await self._create_game(room_id, join_as_judge=as_judge, watchable=watch, **settings)
            except CommandFailed as exc:
                if not as_judge:
                    raise
                LOGGER.info("no judge seat (%s); creating the game with a plain seat", exc)
        raise AssertionError("unreachable")

    @property
    def registered(self) -> bool:
        """Whether the server knows this account as registered (it keeps the account's seats while away)."""
        level = getattr(getattr(self.client, "user_info", None), "user_level", 0)
        return bool(int(level or 0) & IS_REGISTERED_LEVEL)

    @property
    def judge_level(self) -> bool:
        """Whether the server gave this account the judge user level (registered judges only)."""
        return bool(int(getattr(self.client.user_info, "user_level", 0) or 0) & IS_JUDGE_LEVEL)

    async def _create_game(self, room_id: int, *, watchable: bool = False, **settings: Any) -> int:
        """``Command_CreateGame``; when the server's per-user game limit is reached, leave finished games,
        then a game nobody has joined that someone else asked for (:meth:`make_room`), and try again; else
        refuse with a sentence that says what holds the slots (``watchable``: the format could run from a
        judge's spectator seat, which the limit does not count).

        Freeing a slot waits for the old game's last lines, the kicks and the leave, each behind the flood
        budgets of a busy referee: the user who asked hears at once (privately) that their game opens as
        soon as a slot is free, and the wait is bounded (:data:`SLOT_WAIT`: then a refusal says so, and the
        old game goes on closing, so the slot is there for the next request)."""
        from cockatrice_ext.client.errors import CommandFailed

        async def create() -> int | None:
            try:
                game_id: int = await self.client.create_game(room_id, **settings)
                return game_id
            except CommandFailed as exc:
                if exc.code_name != "RespContextError":
                    raise
                return None

        game_id = await create()
        if game_id is not None:
            return game_id
        requester = GAME_REQUESTER.get()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SLOT_WAIT
        finished = [ref for ref in self.games.values() if ref.finished and ref.room_id == room_id]
        closing = self.room_maker(room_id, requester)
        if (finished or closing is not None) and requester:  # privately: the room's lines merge with it
            await self.tell(
                requester,
                "The referee is at the server's game limit: your new game opens as soon as a slot is free.",
            )
        freeing = []
        if finished:
            freeing.append(", ".join(f"#{ref.game_id}" for ref in finished))
            if not await self.within(asyncio.gather(*(ref.leave() for ref in finished)), deadline):
                raise NotAllowed(self.slot_refusal(freeing))
            game_id = await create()
            if game_id is not None:
                return game_id
        closing = self.room_maker(room_id, requester)
        if closing is not None:  # one game given up per request, at most
            freeing.append(f"#{closing[0]}")
            if not await self.within(self.make_room(room_id, requester), deadline):
                raise NotAllowed(self.slot_refusal(freeing))
            while (game_id := await create()) is None:  # the server closes a game it has just left
                if loop.time() + 0.5 > deadline:
                    raise NotAllowed(self.slot_refusal(freeing))
                await asyncio.sleep(0.5)
            return game_id
        raise NotAllowed(self.limit_refusal(room_id, watchable))

    async def within(self, work: Awaitable[Any], deadline: float) -> bool:
        """Wait for ``work`` until ``deadline`` (the loop's time): whether it was done by then (its fault is
        raised). Work not done goes on alone (its fault logged): a game being closed still closes."""
        task = asyncio.ensure_future(work)
        await asyncio.wait({task}, timeout=max(0.0, deadline - asyncio.get_running_loop().time()))
        if task.done():
            task.result()
            return True

        def done(finished: asyncio.Future[Any]) -> None:
            self._going_on.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                LOGGER.error("freeing a game slot failed", exc_info=finished.exception())

        self._going_on.add(task)
        task.add_done_callback(done)
        return False

    @staticmethod
    def slot_refusal(freeing: list[str]) -> str:
        """Why a game request that freed a slot (``freeing``: the games closed for it) got no game."""
        games = " and ".join(freeing)
        return (
            f"no new game: the referee is closing {games} to make room, but no slot is free after"
            f" {duration_words(SLOT_WAIT)} (a busy referee's commands wait for its flood budget). Ask"
            " again in a minute"
        )

    def unjoined_games(self, room_id: int) -> list[tuple[float, int, OpenedGame]]:
        """This session's games in ``room_id`` opened on request that nobody joined (:meth:`nobody_joined`:
        its requester alone may sit in it), oldest first: (age in seconds, game number, who asked)."""
        now = asyncio.get_running_loop().time()
        found = []
        for game_id, opened in self.opened.items():
            referee = self.games.get(game_id)
            if opened.room_id != room_id or referee is None:
                continue
            if self.nobody_joined(referee, opened):
                found.append((opened.unjoined_for(now), game_id, opened))
        return sorted(found, key=lambda item: (-item[0], item[1]))

    def room_maker(self, room_id: int, requester: str) -> tuple[int, float] | None:
        """The game :meth:`make_room` would close for ``requester`` (its number and age), or None."""
        least_age = (self.main or self).options.unjoined_yield_after
        for age, game_id, opened in self.unjoined_games(room_id):
            if opened.requester != requester and age >= least_age:
                return game_id, age
        return None

    async def make_room(self, room_id: int, requester: str) -> bool:
        """The server's game limit is reached: close the oldest game in ``room_id`` nobody has joined for
        :attr:`BotOptions.unjoined_yield_after` seconds, asked for by someone other than ``requester``, and
        say so; False when there is none."""
        closing = self.room_maker(room_id, requester)
        if closing is None:
            return False
        game_id, age = closing
        await self.give_up_unjoined(
            self.games[game_id],
            f"game #{game_id} closed to make room for a new game: nobody joined it in {duration_words(age)}",
        )
        return True

    def limit_refusal(self, room_id: int, watchable: bool) -> str:
        """Why no game can open in ``room_id`` now, true to what holds the referee's slots there: games
        waiting with nobody joined (which, when they close, when one may make room), games waiting for more
        players, games being played; else the games it has left, which count while players stay in them."""
        options = (self.main or self).options
        requester = GAME_REQUESTER.get()
        unjoined = self.unjoined_games(room_id)
        empty = sorted(game_id for _, game_id, _ in unjoined)
        filling, playing = [], []
        for game_id, referee in sorted(self.games.items()):
            if referee.room_id != room_id or referee.watching or game_id in empty:
                continue  # a judge's spectator seat is not counted by the limit
            (filling if referee.waiting_for_players else playing).append(game_id)
        parts = []
        if empty:
            waits = f"{game_list(empty)} {plural(len(empty), 'waits', 'wait')} with nobody joined"
            closing = min(self.closes_in(game_id) for game_id in empty)
            if closing:
                which = "it closes" if len(empty) == 1 else "the next closes"
                waits += f" ({which} in {duration_words(closing)} unless someone joins)"
            parts.append(waits)
        if filling:
            parts.append(f"{game_list(filling)} {plural(len(filling), 'waits', 'wait')} for more players")
        if playing:
            parts.append(f"{game_list(playing)} {plural(len(playing), 'is', 'are')} being played")
        if not parts:
            parts.append("games it has left still have players in them")
        yielding = [
            options.unjoined_yield_after - age for age, _, opened in unjoined if opened.requester != requester
        ]
        if yielding:
            again = f"ask again in {duration_words(min(yielding))} (an unjoined game then makes room)"
        else:
            again = "ask again when one closes"
        text = "no new game: the referee is at the server's game limit here: " + "; ".join(parts)
        if not self._told_limit:  # the operator's advice, for the operator: once, in the log
            self._told_limit = True
            LOGGER.warning(
                "%s is at the server's game limit in room %s: more games need %s--extra-user (each helper"
                " account has its own game limit and chat budget)",
                self.client.user_name,
                getattr(self.client.rooms.get(room_id), "name", room_id),
                "a judge-level referee account or " if watchable else "",
            )
        return text + f". Join a waiting game, or {again}"

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

    GAME_KEY = ":game:"

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
                    key, {k: v for k, v in meta.items() if k not in (LOST_AT, LOST_HOW)}
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
            names = ", ".join(str(n) for n in dict(meta.get("names", {})).values())
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

    def lost_line(self, game_id: int | str, key: str) -> str:
        """What the room hears of a journaled game the bot no longer sits in: how to continue it
        (``!resume``), or, for a record this version cannot replay, that it cannot be continued here.

        A lost game is told once: the first call for it records when (:data:`LOST_AT`, in its meta: every
        process of a fleet and every later start sees it) and later ones give ``""``, which chat drops, so a
        restart does not announce again every game it ever lost (``!games`` lists them while they are kept:
        :data:`LOST_KEEP_SECONDS`)."""
        meta = self.journal.table_meta(key)
        names = ", ".join(str(n) for n in dict(meta.get("names", {})).values())
        what = f"{meta.get('format', 'game')} game #{game_id}" + (f" ({names})" if names else "")
        unreplayable = (self.main or self).unreplayable.get(key)
        if unreplayable is not None:
            return (
                self.unreplayable_words(f"{meta.get('format', 'game')} game #{game_id}", unreplayable) + "."
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
        refereed = str(game_id).isdigit() and int(game_id) in self.all_games()
        if not refereed and self.told_lost(key):
            return ""
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

    # -- games this version cannot replay ------------------------------------------------------------

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
        if not parse_invocation_safe(str(getattr(event.message, "message", ""))):
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

    def adopt_game(self, referee: GameReferee) -> None:
        """Referee this game from now on (in a fleet: under its lease, taken first).

        Raises:
            NotAllowed: another live process of the fleet referees it.
        """
        if self.fleet is not None and not self.fleet.acquire(referee.table_key):
            raise NotAllowed(f"another referee process has game #{referee.game_id}")
        self.games[referee.game_id] = referee
        referee.views_changed()

    def forget_game(self, game_id: int, *, keep_lease: bool = False) -> None:
        """Stop refereeing a game (its lease is given up unless ``keep_lease``: a lost lease, or a lost
        seat whose game this process still offers to ``!resume``)."""
        referee = self.games.pop(game_id, None)
        self.drop_opened(game_id)
        if referee is not None:
            referee.closed = True
            referee.views_changed()
            if self.fleet is not None and not keep_lease:
                self.fleet.release(referee.table_key)


async def _not_connected(destination: Any, message: str) -> None:
    raise ConnectionError(f"not connected: cannot send {message!r} to {destination}")


def user_online_in(event: ClientEvent) -> str:
    """The user a room or session event shows online (a login, a room join, a line in a room, a private
    message), or ``""``."""
    message = event.message
    if event.name in ("Event_UserJoined", "Event_JoinRoom"):
        return str(message.user_info.name)  # type: ignore[attr-defined]
    if event.name == "Event_RoomSay":
        return str(message.name)  # type: ignore[attr-defined]
    if event.name == "Event_UserMessage":
        return str(message.sender_name)  # type: ignore[attr-defined]
    return ""


def split_game_suffix(text: str) -> tuple[str, int | None]:
    """``!pick 3 #12`` -> (``!pick 3``, 12): a private game command names its game by a trailing ``#N``
    (the game's number as Cockatrice lists it); without one, (``text``, None)."""
    match = re.fullmatch(r"(?s)(.*\S)\s+#([0-9]{1,9})\s*", text)
    if match is None:
        return text, None
    return match.group(1), int(match.group(2))


def parse_invocation_safe(text: str) -> bool:
    """Whether ``text`` looks like a command (never raises)."""
    try:
        return parse_invocation(text) is not None
    except BadArgument:
        return True
