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

:class:`Bot` is put together from one part per concern, each in its own module with the rules it implements
(a mixin: the session's state lives on the :class:`Bot`, set up by its ``__init__``); this module keeps the
session's life (start, connect, helper sessions, stop, close), its chat helpers and the routing of events:

* :mod:`~cockatrice_ext.bot.stopping`: what a normal stop tells each game, within one bounded wait;
* :mod:`~cockatrice_ext.bot.lost_games`: games whose seat was lost, announced once, expired after a day;
* :mod:`~cockatrice_ext.bot.resume`: ``!resume``, a lost game's record rebuilt in a new game;
* :mod:`~cockatrice_ext.bot.unreplayable`: records this version cannot replay;
* :mod:`~cockatrice_ext.bot.private`: private commands, and messages kept for offline or ignoring users;
* :mod:`~cockatrice_ext.bot.game_slots`: opening games within the server's game limit, unjoined games;
* :mod:`~cockatrice_ext.bot.shutdown`: a shutdown the server schedules;
* :mod:`~cockatrice_ext.bot.room_sharing`: other referees and copies in the bot's rooms, unknown games.

The names callers import from here that moved (``LOST_KEEP_SECONDS``, ``SAME_POINTER_SECONDS``,
``split_game_suffix``, ``stopping_room_lines``) are still importable from here; a test that patches a
module's constant or clock patches the module that reads it (``lost_games``, ``game_slots``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cockatrice_ext.bot.chat import ChatScheduler, Line, client_scheduler
from cockatrice_ext.bot.commands import NotAllowed, looks_like_command, split_address
from cockatrice_ext.bot.fleet import (
    DEFAULT_LEASE_TTL,
    Fleet,
    JournalLease,
    check_no_lone_process,
    check_writable,
)
from cockatrice_ext.bot.game_slots import GameSlots
from cockatrice_ext.bot.lost_games import LOST_KEEP_SECONDS as LOST_KEEP_SECONDS
from cockatrice_ext.bot.lost_games import LostGames
from cockatrice_ext.bot.private import SAME_POINTER_SECONDS as SAME_POINTER_SECONDS
from cockatrice_ext.bot.private import PrivateMessages
from cockatrice_ext.bot.private import split_game_suffix as split_game_suffix
from cockatrice_ext.bot.referee import (
    ANNOUNCING,
    GAME_REQUESTER,
    CommandAllowance,
    Context,
    GameReferee,
    LobbyReferee,
    OpenedGame,
    Referee,
    reply_unknown,
    unreplayable_line,
)
from cockatrice_ext.bot.resume import Resume
from cockatrice_ext.bot.room_sharing import RoomSharing
from cockatrice_ext.bot.serial import SerialWork
from cockatrice_ext.bot.shutdown import ServerShutdown
from cockatrice_ext.bot.stopping import Stopping
from cockatrice_ext.bot.stopping import stopping_room_lines as stopping_room_lines
from cockatrice_ext.bot.unreplayable import Unreplayable, UnreplayableGames
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.client import ClientEvent, Disconnected, Reconnected, connect
from cockatrice_ext.client.errors import SessionRefused
from cockatrice_ext.journal import POSTGRES_SCHEMES, Journal, JournalWriteError
from cockatrice_ext.protocol import messages as pb

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


class Bot(
    Stopping, LostGames, Resume, UnreplayableGames, PrivateMessages, GameSlots, ServerShutdown, RoomSharing
):
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
        self.user_commands: dict[str, SerialWork] = {}
        """Each user's room and private commands, run in the order said, off the dispatcher
        (:meth:`commands_of`)."""
        self.told_pointers: dict[str, tuple[str, float]] = {}
        """The last "where your command goes" line each user was told privately, and when (told_lately)."""
        self.opening_one = asyncio.Lock()
        """Held while a game is opened (:meth:`open_game`): the account's slots are counted one at a time."""
        self.games_being_created = 0  # Command_CreateGame on its way (see create_at_server)
        self.not_taken_up: dict[int, float] = {}  # created, no referee yet: their events wait till then
        self.opening_news = asyncio.Event()  # set (and replaced) when either changes (see until_taken_up)
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

    @property
    def connected(self) -> bool:
        """Whether this session's connection is up (not while its client reconnects: nothing can be said)."""
        return self.client is not None and bool(getattr(self.client, "connected", True))

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
            session.close_user_commands()
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
            if referee is None and (self.games_being_created or game_id in self.not_taken_up):
                await self.until_taken_up(game_id)  # a game being opened: its events go to its referee
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

    def in_room(self, room_id: int) -> bool:
        """Whether this session's client is in room ``room_id`` now (a line there is refused otherwise:
        ``RespNotInRoom``); a client that keeps no list of its rooms (the web demo's stand-in, whose lines go
        nowhere) is taken to be in every room."""
        joined = getattr(self.client, "joined_rooms", None)
        return joined is None or room_id in joined

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

    def answers_room(self, room_id: int) -> bool:
        """Whether this process speaks for the bot in ``room_id`` (in a fleet, the room's lease holder)."""
        return self.fleet is None or self.fleet.answers_room(room_id)

    def commands_of(self, user: str) -> SerialWork:
        """The queue of ``user``'s room and private commands (a game's own private commands go to the game's
        queue: :meth:`answer_for_game_as_said`): run in the order they were said, each user's in a task of
        its own, so a command that waits (for a game slot, up to
        :data:`~cockatrice_ext.bot.game_slots.SLOT_WAIT`; for the server) holds up
        neither the games' events nor another user's answer. Idle queues are dropped as others come."""
        work = self.user_commands.get(user)
        if work is None or work.closed:
            if len(self.user_commands) >= 64:
                for name in [name for name, queue in self.user_commands.items() if queue.idle]:
                    del self.user_commands[name]
            work = self.user_commands[user] = SerialWork(f"room commands of {user}")
        return work

    async def commands_handled(self, users: Iterable[str], timeout: float = 10.0) -> bool:
        """Wait until the commands ``users`` said before now have run from their queues (a timer about to act
        for a silent player asks: a move queued behind the player's own slower command counts as said);
        False when that took longer than ``timeout`` seconds (the caller tries again later)."""
        waits = [work.caught_up() for user in users if (work := self.user_commands.get(user)) is not None]
        if not waits:
            return True
        try:
            await asyncio.wait_for(asyncio.gather(*waits), timeout)
        except TimeoutError:
            return False
        return True

    def close_user_commands(self) -> None:
        """Stop every user's queued commands (the bot stops: nothing more is answered or recorded)."""
        for work in self.user_commands.values():
            work.close()
        self.user_commands.clear()

    async def _on_room_say(self, event: ClientEvent) -> None:
        """A room line: who answers it is decided here, as it is said (the room's game list as it was then);
        the answer runs in its sender's queue (:meth:`commands_of`)."""
        text = str(getattr(event.message, "message", ""))
        sender = str(getattr(event.message, "name", ""))  # who asked: the server's name, never the text
        address, command_text = split_address(text)
        if address is not None:  # "RefereeBot: !games": only the bot it names answers
            if not self.named_by(address, event.room_id):
                LOGGER.debug("%s: %r is addressed to %s, not to this referee", sender, text, address)
                return
            text = command_text
        elif self.options.room_commands == "addressed" and looks_like_command(text):
            LOGGER.debug(
                "%s: %r names no referee; this one answers only room commands that name it", sender, text
            )
            return
        ctx = Context(self, "room", sender, room_id=event.room_id)
        if address is None and self.anothers_game(ctx, text):
            return
        if self.fleet is not None and not await self.fleet.route_room_command(ctx, text):
            return  # another process of the fleet answers
        self.commands_of(sender).submit(functools.partial(self.answer_room_command, ctx, text))

    async def answer_room_command(self, ctx: Context, text: str) -> None:
        """Run a room command (said in the room, or handed over by another process of the fleet), within its
        sender's allowance (:data:`ROOM_COMMANDS_PER_WINDOW`) while room answers wait for the chat budget:
        past it, the command is not run, and the sender hears once per window that the referee answers soon.
        """
        if looks_like_command(text):
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
        await self.until_taken_up(int(info.game_id))  # our own new game: not an old record's number
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

    @property
    def registered(self) -> bool:
        """Whether the server knows this account as registered (it keeps the account's seats while away)."""
        level = getattr(getattr(self.client, "user_info", None), "user_level", 0)
        return bool(int(level or 0) & IS_REGISTERED_LEVEL)

    @property
    def judge_level(self) -> bool:
        """Whether the server gave this account the judge user level (registered judges only)."""
        return bool(int(getattr(self.client.user_info, "user_level", 0) or 0) & IS_JUDGE_LEVEL)

    def adopt_game(self, referee: GameReferee) -> None:
        """Referee this game from now on (in a fleet: under its lease, taken first).

        Raises:
            NotAllowed: another live process of the fleet referees it.
        """
        if self.fleet is not None and not self.fleet.acquire(referee.table_key):
            raise NotAllowed(f"another referee process has game #{referee.game_id}")
        self.games[referee.game_id] = referee
        self.taken_up(referee.game_id)
        referee.views_changed()

    def forget_game(self, game_id: int, *, keep_lease: bool = False) -> None:
        """Stop refereeing a game (its lease is given up unless ``keep_lease``: a lost lease, or a lost
        seat whose game this process still offers to ``!resume``)."""
        referee = self.games.pop(game_id, None)
        self.drop_opened(game_id)
        self.taken_up(game_id)
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
