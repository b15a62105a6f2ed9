"""The asyncio client: one logged-in session to a Servatrice, kept alive and reconnected.

Theory of operation
-------------------
``cockatrice_ext.protocol.ClientConnection`` (sans-I/O) turns bytes into typed events and commands
into bytes. :class:`Client` is the thin asyncio adapter around it, with these tasks per connection:

* the *reader* feeds received bytes to the connection, resolves command futures by ``cmd_id``, folds
  game events into :class:`~cockatrice_ext.client.mirror.GameMirror` s and queues events for listeners;
* the *sender* drains one FIFO of outgoing commands through the :class:`~.flood.FloodGate`, pacing them
  so Servatrice's anti-flood never fires (order is preserved; free commands pass as soon as they are at
  the head of the queue);
* the *keepalive* sends ``Command_Ping`` every ``keepalive`` seconds (not through the FIFO), declares the
  server dead after ``dead_after`` seconds without any data, and every ``idle_refresh`` seconds without
  a room/game action sends an empty room command (``RespInvalidCommand``, no side effect) that resets
  Servatrice's idle-client timer, which pings do not reset;
* the *dispatcher* hands :class:`~.events.ClientEvent` s to listeners and ``events()`` iterators, so a
  slow listener never stalls the reader (and so never the keepalive).

When the connection drops every pending and queued command fails with :class:`ConnectionLost`; unless the
client was closed on purpose it reconnects with exponential backoff, logs in again and rejoins its rooms (by
name: a restarted server may number them afresh; ``Reconnected.renumbered`` says which moved) and games (same
role: player/spectator/judge). The room ids the client hands out stay put for its life: the id a room had when
first joined is still its id after the server renumbered it (``room_ids.RoomIds`` translates every room id in
and out at the wire), so state its user keys by room id stays right. ``cmd_id`` s restart per connection, so
nothing is re-sent blindly. What a first login would have refused ends the client for good after a reconnect
too, instead of retrying every few seconds or sitting in no room (or another one): a login refused for a
reason retrying cannot change (``LoginFailed.final``), a room gone from the room list or no longer admitting
the account. The ``Disconnected`` then has ``final`` (``LOGIN_REFUSED``, ``ROOM_GONE``, ``ROOM_REFUSED``) and
the ``error`` a first login would have raised. A server's goodbye meant for good (a ban, another login) has
its ``final`` reason's name, and a timed ban its end (``until``).

The server's word for the operator is logged on one line each: a scheduled shutdown
(``Event_ServerShutdown``) as a warning, with when it is due kept in :attr:`Client.shutdown_due`; a
moderator's warning (``Event_NotifyUser`` of type WARNING) as a warning with its reason; other
notifications as info.

An unregistered login whose name is in use is given ``NAME_1`` by the server. After a connection died
silently, the session in the way is usually our own old one, still seated in our games until the server's
inactivity timeout drops it; so for up to ``name_wait`` seconds the client logs out of such a login and
tries again (with the reconnect backoff), and only then takes the name it is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import ssl
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any, Literal

from google.protobuf.message import Message

from cockatrice_ext.protocol import ClientConnection, CloseReason, LocalProtocolError, ProtocolError, commands
from cockatrice_ext.protocol import events as pev
from cockatrice_ext.protocol import messages as pb

from . import _wire
from .backoff import backoff
from .errors import (
    ClientError,
    CommandTimeout,
    ConnectionLost,
    LoginFailed,
    NameInUse,
    NameNotFound,
    RoomNotFound,
    RoomRefused,
    ServerError,
    SessionRefused,
    UserLevelTooLow,
    command_failed,
    utc_minute,
)
from .events import (
    LOGIN_REFUSED,
    ROOM_GONE,
    ROOM_REFUSED,
    AnyClientEvent,
    ClientEvent,
    Disconnected,
    Reconnected,
)
from .flood import (
    FREE,
    MAX_TEXT_LENGTH,
    WHITELISTED_GAME_COMMANDS,
    Cost,
    FloodError,
    FloodGate,
    FloodLimits,
    chat_cost,
    game_command_cost,
)
from .mirror import GameMirror
from .room_ids import RoomIds, translate_room_ids
from .transport import ServerAddress, Transport, open_transport

LOGGER = logging.getLogger(__name__)

Domain = Literal["session", "room", "game"]
Listener = Callable[[AnyClientEvent], Awaitable[None]]

RESP_OK = 1
RESP_CHAT_FLOOD = 18
SERVER_TICK = 1.0
"""Seconds per Servatrice flood-counting tick (its keepalive timer): a refused free command's wait."""
_FINAL_CLOSE_REASONS = frozenset(
    {CloseReason.BANNED, CloseReason.USERNAMEINVALID, CloseReason.LOGGEDINELSEWERE}
)
ROOM_MESSAGE_USER = 0
USER_IS_REGISTERED = 2
"""``ServerInfo_User.user_level``'s IsRegistered bit."""
NOTIFY_WARNING = 2
"""``Event_NotifyUser.type`` of a moderator's warning."""


_CLOSE_SENTENCES: dict[int, str] = {
    CloseReason.SERVER_SHUTDOWN: "the server is shutting down",
    CloseReason.TOO_MANY_CONNECTIONS: "too many connections from this address",
    CloseReason.BANNED: "banned",
    CloseReason.USERNAMEINVALID: "the user name is not valid on this server",
    CloseReason.USER_LIMIT_REACHED: "the server is full",
    CloseReason.DEMOTED: "demoted",
    CloseReason.LOGGEDINELSEWERE: "logged in elsewhere",
}


def _closed_reason(event: pev.ConnectionClosed, user: str = "") -> str:
    """Why the server ended the session, e.g. ``server closed the session: the server is full
    (USER_LIMIT_REACHED)``; the reason's name stays, for logs and tests. A ban names its end (``banned
    until 2026-11-28 21:40 UTC``) when the server sent one; ``user`` names whose session it was (a goodbye
    before the login, when a process holds several sessions)."""
    if event.reason is None and not event.reason_str:
        return "server closed the connection"
    code = getattr(event.reason, "name", event.reason)
    said = f"{code}: {_one_line(event.reason_str)}" if event.reason_str else str(code)
    sentence = _CLOSE_SENTENCES.get(event.reason) if event.reason is not None else None
    until = _ban_end(event)
    if sentence and until:
        sentence += f" until {until}"
    whose = f" of {user!r} before its login" if user else ""
    return (
        f"server closed the session{whose}: {sentence} ({said})"
        if sentence
        else f"server closed the session{whose} ({said})"
    )


def _ban_end(event: pev.ConnectionClosed) -> str:
    """When the ban a goodbye announces ends (``YYYY-MM-DD HH:MM UTC``); "" for other goodbyes or none."""
    return utc_minute(event.end_time) if event.reason == CloseReason.BANNED else ""


@dataclasses.dataclass(eq=False)
class _Outgoing:
    """One container waiting in the send queue (compared by identity)."""

    domain: Domain
    commands: list[Message]
    room_id: int | None
    game_id: int | None
    cost: Cost
    label: str
    sent: asyncio.Future[int]
    response: asyncio.Future[Any]
    order: int = 0
    """Place in its lane (the order the caller gave): a command sent again goes back to its place."""
    cmd_id: int | None = None
    sent_at: float = 0.0
    first_refused: float | None = None
    """When the server first refused it as flood (it is sent again until a deadline from then)."""
    not_before: float = 0.0

    @property
    def chats(self) -> bool:
        """Whether it spends the chat budget (its lane: chat waits never hold other commands back)."""
        return bool(self.cost.chat_messages)

    @property
    def lane(self) -> tuple[bool, int | None]:
        """The commands it must never overtake: those of its game (or of no game) on the same budget.
        One game's command waiting for the game-command budget holds back neither another game's free
        card moves and notes nor the room's and session's commands."""
        return self.chats, self.game_id if self.domain == "game" else None

    @property
    def can_send_again(self) -> bool:
        """Whether a flood refusal means the server ran none of it, so sending it again is safe.

        Chat is sent again by its scheduler (ordered by conversation), not here. Servatrice checks a game
        container's flood budget command by command, last to first, refusing from the first over the
        budget on: when no counted command comes after the first one it runs, the refusal came at the
        first, so nothing ran."""
        if self.chats or self.domain != "game":
            return False
        in_server_order = list(reversed(self.commands))
        return not any(_cost_of([wrapper]).game_commands for wrapper in in_server_order[1:])


@dataclasses.dataclass(frozen=True)
class _Seat:
    """How we sat in a game, to rejoin after a reconnect."""

    room_id: int
    spectator: bool
    judge: bool
    password: str | None
    creator: str = ""
    description: str = ""
    """Who created the game and its description: a server that restarted numbers new games from 1 again,
    so a game listed under the same number is ours only if these match."""


@dataclasses.dataclass(frozen=True)
class RoomSummary:
    """A room as listed by the server."""

    room_id: int
    name: str
    description: str
    player_count: int
    game_count: int
    auto_join: bool
    game_types: dict[int, str]
    permission_level: str = ""
    """Who may join (Servatrice: none, registered, moderator, administrator; "" if not told)."""
    privilege_level: str = ""
    """The privilege level a joiner needs (none, privileged, vip, donator...; "" if not told)."""


@dataclasses.dataclass(frozen=True)
class ServerInfo:
    """What the server said about itself."""

    name: str
    version: str
    protocol_version: int

    @property
    def version_number(self) -> str:
        """The version without what follows it ("2.10.3" of "2.10.3 (2026-02-22)")."""
        words = self.version.split()
        return words[0] if words else self.version

    @property
    def shares_deck_lists(self) -> bool:
        """Whether this server's games can show each loaded deck list to every seat
        (``share_decklists_on_load``): Servatrice 2.11 and later, 3.0 its first release. Before, a deck
        list reaches its owner only, so a referee cannot check decks. A version that does not read as
        numbers is taken for a current one."""
        match = re.match(r"\s*(\d+)\.(\d+)", self.version)
        return match is None or (int(match[1]), int(match[2])) >= (2, 11)


class Client:
    """A logged-in Servatrice session. Build it with :func:`connect`."""

    def __init__(
        self,
        url: str,
        user: str,
        password: str | None = None,
        *,
        client_id: str = "cockatrice-ext",
        client_version: str = "cockatrice-ext",
        flood_limits: FloodLimits | None = None,
        keepalive: float = 4.0,
        dead_after: float = 15.0,
        idle_refresh: float = 1200.0,
        command_timeout: float = 30.0,
        connect_timeout: float = 10.0,
        reconnect: bool = True,
        reconnect_delays: Callable[[], Iterator[float]] = backoff,
        max_reconnect_attempts: int | None = None,
        include_noise: bool = False,
        max_frame_size: int = 8 * 1024 * 1024,
        ssl_context: ssl.SSLContext | None = None,
        name_wait: float = 30.0,
    ) -> None:
        self.address = ServerAddress.parse(url)
        self.requested_user = user
        self._password = password
        self.client_id = client_id
        self.client_version = client_version
        self.keepalive = keepalive
        self.dead_after = dead_after
        self.idle_refresh = idle_refresh
        self.command_timeout = command_timeout
        self.connect_timeout = connect_timeout
        self.reconnect_enabled = reconnect
        self.reconnect_delays = reconnect_delays
        self.max_reconnect_attempts = max_reconnect_attempts
        self.include_noise = include_noise
        self.max_frame_size = max_frame_size
        self.ssl_context = ssl_context
        self.name_wait = name_wait
        """Seconds to keep trying for ``user`` when the server offers ``user_1`` (see the module doc)."""
        self._name_wait_until: float | None = None
        self.flood = FloodGate(flood_limits)

        self.user_name: str = ""
        self.user_id: int | None = None
        self.user_info: Any = None
        self.server: ServerInfo | None = None
        self.rooms: dict[int, RoomSummary] = {}
        self.joined_rooms: set[int] = set()
        self.room_names: dict[int, str] = {}
        """The name of each room we joined, by id: after a reconnect rooms are joined again by these names
        (a restarted server may number them differently)."""
        self._room_ids = RoomIds()
        """The room ids handed out (stable for this client's life) and the server's numbers; every room id
        in and out is translated at the wire (:meth:`_handle`, :meth:`_send_item`)."""
        self._rooms_joined_ever: dict[int, str] = {}  # stable id -> name of each room this client joined
        # While a rejoin reads the room list: its Event_ListRooms, held back until the ids are known
        self._held_room_lists: list[Message] | None = None
        self.room_users: dict[int, set[str]] = {}
        """Who is in each room we joined: the join's user list, kept by the room's join and leave events."""
        self.games: dict[int, GameMirror] = {}

        self._seats: dict[int, _Seat] = {}
        self._join_passwords: dict[int, str | None] = {}
        self._listeners: list[Listener] = []
        self._subscribers: list[asyncio.Queue[AnyClientEvent | None]] = []
        self._dispatch_queue: asyncio.Queue[AnyClientEvent | asyncio.Future[None] | None] = asyncio.Queue()
        self._queue: deque[_Outgoing] = deque()
        self._queue_changed = asyncio.Event()
        self._pending: dict[int, _Outgoing] = {}
        self._given = 0  # containers given to the send queue so far (their order within a lane)
        self._game_joined_waiters: list[tuple[int, asyncio.Future[int]]] = []
        self._create_lock = asyncio.Lock()
        self._conn: ClientConnection | None = None
        self._write_lock = asyncio.Lock()
        self._identified: asyncio.Future[pev.ServerIdentified] | None = None
        self._login_result: asyncio.Future[pev.LoginSucceeded | pev.LoginFailed] | None = None
        self._transport: Transport | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._supervisor: asyncio.Task[None] | None = None
        self._dispatcher: asyncio.Task[None] | None = None
        self._connection_lost: asyncio.Future[str] | None = None
        self._closing = False
        self.closed_for_good = ""
        """The reason's name (``LOGGEDINELSEWERE``, ``BANNED``, ``USERNAMEINVALID``) once the server ended the
        session for good: set as the goodbye arrives, before listeners hear of it, so a caller can refuse at
        once to act for a session that is gone. Also set (``LOGIN_REFUSED``, ``ROOM_GONE``,
        ``ROOM_REFUSED``: :mod:`.events`) when, after a drop, the client stops for good because the server
        refuses what it refused at a first login: the login, or one of our rooms (:attr:`final_error`)."""
        self.closed_until = ""
        """When the ban that ended the session ends (``YYYY-MM-DD HH:MM UTC``), "" when none was named."""
        self.final_error: ClientError | None = None
        """The error that ended the session for good after a reconnect (see :attr:`closed_for_good`): a
        ``LoginFailed``, ``RoomNotFound`` or ``RoomRefused``, whose ``str`` is the operator's sentence."""
        self._goodbye: pev.ConnectionClosed | None = None  # the server's goodbye on this connection
        self._was_registered = False  # an earlier login of this client was to a registered account
        # (our id, name, the server's number before the drop) of each room a rejoin still owes
        self._rejoin_rooms: list[tuple[int, str, int]] | None = None
        self.shutdown_due: float | None = None
        """When the shutdown the server announced (``Event_ServerShutdown``) is due, in the loop's time; None
        when none was announced on this connection (a reconnect clears it: a server still going down says
        so again at login)."""
        self.shutdown_reason = ""
        """The reason the administrator gave for that shutdown ("" if none)."""
        self._connected = asyncio.Event()
        self._last_data = 0.0
        self._last_action = 0.0
        self._joined_now: set[int] = set()

    # -- lifecycle ---------------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    async def start(self) -> None:
        """Connect and log in (raises on failure); then keep the session alive in the background."""
        self._dispatcher = asyncio.create_task(self._dispatch_loop(), name="cockatrice-dispatch")
        try:
            delays: Iterator[float] | None = None
            while True:
                try:
                    await self._open_session()
                    break
                except NameInUse as exc:
                    delays = delays or self.reconnect_delays()
                    delay = next(delays)
                    LOGGER.warning("%s; trying again in %.1fs", exc, delay)
                    await asyncio.sleep(delay)
        except BaseException:
            await self._stop_dispatcher()
            raise
        self._supervisor = asyncio.create_task(self._supervise(), name="cockatrice-supervisor")

    async def close(self) -> None:
        """Leave nothing running: no reconnect, pending commands fail with ConnectionLost."""
        if self._closing:
            return
        self._closing = True
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._supervisor
        await self._teardown("client closed")
        await self._stop_dispatcher()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def wait_closed(self) -> None:
        """Return when the client has stopped for good (closed, or reconnection given up)."""
        if self._supervisor is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor

    async def wait_connected(self, timeout: float | None = None) -> None:
        """Wait until the session is up (e.g. after a reconnect)."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def _stop_dispatcher(self) -> None:
        if self._dispatcher is not None:
            await self._dispatch_queue.put(None)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._dispatcher, 5)
            self._dispatcher = None
        for queue in self._subscribers:
            queue.put_nowait(None)

    async def _open_session(self) -> None:
        """Connect, identify, log in, start the per-connection tasks."""
        loop = asyncio.get_running_loop()
        transport = await open_transport(
            self.address,
            max_message_size=self.max_frame_size,
            connect_timeout=self.connect_timeout,
            ssl_context=self.ssl_context,
        )
        conn = ClientConnection(transport=transport.kind, max_frame_size=self.max_frame_size)
        self._transport = transport
        self._conn = conn
        self.shutdown_due, self.shutdown_reason = None, ""
        self._goodbye = None
        self._write_lock = asyncio.Lock()
        self._connection_lost = loop.create_future()
        self._identified = loop.create_future()
        self._login_result = loop.create_future()
        self._last_data = self._last_action = loop.time()
        self._joined_now = set()
        self._tasks = []
        transport.start_reading(lambda data: self._on_data(transport, conn, data))
        try:
            await self._flush(transport, conn)  # the TCP hello
            identified = await self._wait_or_lost(
                self._identified, self.connect_timeout, "server identification"
            )
            self.server = ServerInfo(
                identified.server_name, identified.server_version, identified.protocol_version
            )
            self._raise_if_lost()
            conn.login(
                self.requested_user,
                self._password,
                client_id=self.client_id,
                client_version=self.client_version,
            )
            await self._flush(transport, conn)
            result = await self._wait_or_lost(self._login_result, self.command_timeout, "login response")
            if isinstance(result, pev.LoginFailed):
                raise LoginFailed(
                    int(result.code),
                    result.denied_reason,
                    result.denied_end_time,
                    user=self.requested_user,
                    password_given=bool(self._password),
                    missing_features=result.missing_features,
                )
            self.user_info = result.user_info
            self.user_name = result.user_name
            self.user_id = result.user_info.id if result.user_info.HasField("id") else None
            self._check_name(loop.time())
            self._check_registered()
        except BaseException:
            await self._teardown("login failed")
            raise
        self._tasks.append(asyncio.create_task(self._send_loop(transport, conn), name="cockatrice-sender"))
        self._tasks.append(
            asyncio.create_task(self._keepalive_loop(transport, conn), name="cockatrice-keepalive")
        )
        self._connected.set()
        LOGGER.info("logged in to %s as %r over %s", self.address.url, self.user_name, transport.kind)

    @property
    def name_taken(self) -> bool:
        """Whether the server logged us in as ``NAME_N`` because our ``NAME`` was in use (unregistered)."""
        requested = self.requested_user[:35]  # Servatrice cuts longer names
        given = self.user_name
        return given.startswith(requested + "_") and given[len(requested) + 1 :].isdigit()

    @property
    def registered(self) -> bool:
        """Whether the server logged us in as a registered account (``user_level``'s IsRegistered bit)."""
        info = self.user_info
        return bool(info is not None and int(info.user_level) & USER_IS_REGISTERED)

    def _check_registered(self) -> None:
        """Warn when an account this client logged in registered before comes back unregistered although a
        password was given: its registration was deleted (Servatrice lets an unknown name in unregistered
        when registration is optional, and ignores the password), so the server keeps no seat for it."""
        if self.registered:
            self._was_registered = True
            return
        if self._was_registered and self._password:
            LOGGER.warning(
                "the account %r is no longer registered on %s: logged in unregistered as %r (the password is"
                " not used; the server keeps no seats for an unregistered account across a drop)",
                self.requested_user,
                self.address.url,
                self.user_name,
            )

    def _check_name(self, now: float) -> None:
        """Raise :class:`NameInUse` while the server offers ``NAME_N`` for our name and ``name_wait``
        has not run out since it first did; after that, take the offered name (said in the log)."""
        requested, given = self.requested_user[:35], self.user_name
        if not self.name_taken:
            self._name_wait_until = None
            return
        if self._name_wait_until is None:
            self._name_wait_until = now + self.name_wait
        if now < self._name_wait_until:
            raise NameInUse(requested, given)
        self._name_wait_until = None
        LOGGER.warning(
            "the name %r is still in use after %gs: logged in as %r", requested, self.name_wait, given
        )

    async def _flush(self, transport: Transport, conn: ClientConnection) -> None:
        """Write whatever ``conn`` has queued, in order (one writer at a time). The frames stay in their
        connection until a writer of that connection takes them: a writer left from a connection given up
        takes nothing of the next one.

        Raises:
            ConnectionResetError: ``conn`` is no longer the connection (given up while this waited).
        """
        async with self._write_lock:
            if conn is not self._conn:
                raise ConnectionResetError("the connection was given up")
            for frame in conn.data_to_send():
                await transport.send(frame)

    def _raise_if_lost(self) -> None:
        """Raise :class:`ConnectionLost` when the connection is already gone (a goodbye that came with the
        server's identification: too many connections from our address, a full server)."""
        lost = self._connection_lost
        if lost is not None and lost.done() and not lost.cancelled():
            self._raise_if_refused()
            raise ConnectionLost(lost.result())

    def _raise_if_refused(self) -> None:
        """Raise :class:`SessionRefused`, naming our user, when the server said goodbye before the login."""
        goodbye = self._goodbye
        if goodbye is not None:
            raise SessionRefused(
                _closed_reason(goodbye, self.requested_user),
                user=self.requested_user,
                close_reason=str(getattr(goodbye.reason, "name", goodbye.reason)),
            )

    async def _wait_or_lost(self, future: asyncio.Future[Any], timeout: float, what: str) -> Any:
        assert self._connection_lost is not None
        lost = self._connection_lost
        done, _ = await asyncio.wait({future, lost}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if future in done:
            return future.result()
        if lost in done:
            reason = lost.result()
            if reason.startswith("protocol error"):
                raise ServerError(reason)
            self._raise_if_refused()
            raise ConnectionLost(f"connection lost while waiting for the {what}: {reason}")
        raise CommandTimeout(f"no {what} from the server within {timeout:g}s")

    async def _supervise(self) -> None:
        """Wait for the connection to drop; reconnect unless closing, or until a reconnect meets a refusal
        that is final (:meth:`_end_for_good`)."""
        while not self._closing:
            assert self._connection_lost is not None
            reason = await asyncio.shield(self._connection_lost)
            await self._teardown(reason)
            if self._closing:
                return
            will_retry = self.reconnect_enabled
            self._publish(
                Disconnected(reason, will_retry, final=self.closed_for_good, until=self.closed_until)
            )
            if not will_retry:
                self._closing = True
                return
            delays = self.reconnect_delays()
            attempt = 0
            while not self._closing:
                attempt += 1
                if self.max_reconnect_attempts is not None and attempt > self.max_reconnect_attempts:
                    LOGGER.error("giving up after %d reconnect attempts", attempt - 1)
                    self._closing = True
                    self._publish(Disconnected("gave up reconnecting", False))
                    return
                delay = next(delays)
                LOGGER.info("reconnecting in %.1fs (attempt %d): %s", delay, attempt, reason)
                await asyncio.sleep(delay)
                try:
                    await self._open_session()
                except (OSError, TimeoutError, ClientError, ConnectionError) as exc:
                    # Refused as a first login would be, for a reason retrying cannot change: stop.
                    if isinstance(exc, LoginFailed) and exc.final:
                        await self._end_for_good(LOGIN_REFUSED, exc, f"after a reconnect: {exc}")
                        return
                    reason = str(exc) or type(exc).__name__
                    LOGGER.warning("reconnect attempt %d failed: %s", attempt, reason)
                    continue
                ended = await self._rejoin(attempt)
                if ended:
                    return
                break

    async def _end_for_good(self, code: str, error: ClientError, reason: str) -> None:
        """Stop for good after a reconnect, as a first login would have stopped (``code``: one of
        :mod:`.events`' final codes; ``error``: what a first login would have raised): leave the server,
        try no more, tell the listeners (``Disconnected`` with ``final``, ``error`` and a ban's ``until``)."""
        self.reconnect_enabled = False
        self.closed_for_good = code
        self.final_error = error
        if isinstance(error, LoginFailed):
            self.closed_until = error.until
        LOGGER.warning("%s; not reconnecting", reason)
        await self._teardown(reason)
        self._publish(Disconnected(reason, False, final=code, until=self.closed_until, error=error))

    async def _rejoin(self, attempt: int) -> bool:
        """Join our rooms and games again after a reconnect, then publish :class:`Reconnected`; True when
        the client stopped for good instead (:meth:`_end_for_good`).

        Rooms are joined again by the name they had, looked up in the server's fresh room list: a restarted
        server numbers its rooms afresh (an administrator may have added one before ours), and joining by
        the old number would sit us in another room. A room no longer listed, or that no longer admits this
        account, ends the session as it would have ended a first login (no other room is joined). A drop
        meanwhile leaves the rooms owed for the next attempt.

        A game is rejoined only if the room's fresh game list shows it under its number with our
        creator and description: a restarted server numbers new games from 1 again, and a stranger's
        game under our old number is not ours to sit in. A number we were seated in again meanwhile (a
        game created while this ran) keeps its new seat; the old game is reported lost all the same.
        """
        seats = dict(self._seats)  # the games we had (a game opened while this runs is not one of them)
        if self._rejoin_rooms is None:  # else an earlier attempt was cut short: its rooms are still owed
            self._rejoin_rooms = [
                (room_id, self.room_names.get(room_id, ""), self._room_ids.to_server(room_id))
                for room_id in sorted(self.joined_rooms)
            ]
        rooms = self._rejoin_rooms
        self.joined_rooms = set()
        self.room_names = {}
        self.room_users = {}
        self._held_room_lists = []
        try:
            await self.list_rooms()
        except (ClientError, TimeoutError) as exc:
            self._lost(f"could not read the room list after reconnecting: {exc}")
            return False
        finally:
            held, self._held_room_lists = self._held_room_lists, None
        # The fresh list's ids went through the mapping of before the drop: back to the server's numbers.
        before = self._room_ids.copy()
        targets: list[tuple[int, int, str, int]] = []  # (our id, the server's number now, name, then)
        for old_id, name, number_then in rooms:
            found = self._room_named(name) if name else old_id if old_id in self.rooms else None
            if found is None:
                listed = [(room_id, self.rooms[room_id].name) for room_id in sorted(self.rooms)]
                error = RoomNotFound(name or str(old_id), listed)
                await self._end_for_good(ROOM_GONE, error, f"after a reconnect: {error}")
                return True
            targets.append((old_id, before.to_server(found), name, number_then))
        targets = self._renumber_rooms(targets)
        for message in held:  # the room list, under the ids we hand out from now on
            translate_room_ids(message, lambda room_id: self._room_ids.to_stable(before.to_server(room_id)))
            self._publish(ClientEvent("session", message))
        renumbered: dict[int, int] = {}  # the server's old number -> its new one, for the log and listeners
        for room_id, number, name, number_then in targets:
            if number != number_then:
                renumbered[number_then] = number
                LOGGER.info(
                    "room %r is number %d on the server now (it was %d); still room %d here",
                    name,
                    number,
                    number_then,
                    room_id,
                )
        rejoined_rooms: list[int] = []
        listed: dict[int, dict[int, Any]] = {}
        for old_id, _, name, _ in targets:
            room_id = old_id  # the id we handed out stays the room's: the mapping now says its number
            try:
                room_info = await self.join_room(room_id)
            except RoomRefused as exc:
                await self._end_for_good(ROOM_REFUSED, exc, f"after a reconnect: {exc}")
                return True
            except NameNotFound:  # gone between the list and the join
                listed_now = [(rid, self.rooms[rid].name) for rid in sorted(self.rooms) if rid != room_id]
                error = RoomNotFound(name or str(old_id), listed_now)
                await self._end_for_good(ROOM_GONE, error, f"after a reconnect: {error}")
                return True
            except (ConnectionLost, TimeoutError) as exc:  # a CommandTimeout too: the link is stalled
                self._lost(f"could not rejoin room {name!r}: {exc}")
                return False  # the supervisor reconnects; the rooms are still owed
            except ClientError as exc:
                LOGGER.warning("could not rejoin room %r (%d): %s", name, room_id, exc)
                continue
            rejoined_rooms.append(room_id)
            if room_info is not None:
                listed[room_id] = {int(game.game_id): game for game in room_info.game_list}
        self._rejoin_rooms = None
        rejoined: list[int] = []
        lost: list[int] = []
        for game_id, seat in seats.items():
            if game_id in self._joined_now:
                rejoined.append(game_id)  # the server re-seated us on login (persistent game)
                continue
            room_id = seat.room_id
            why = _not_our_game(seat, listed.get(room_id, {}).get(game_id), room_id in listed)
            if not why:
                try:
                    await self.join_game(
                        room_id,
                        game_id,
                        spectator=seat.spectator,
                        password=seat.password,
                        judge=seat.judge,
                    )
                    rejoined.append(game_id)
                    continue
                except (ClientError, TimeoutError) as exc:
                    why = _rejoin_refused(exc, seat)
            LOGGER.warning("could not rejoin game %d: %s", game_id, why)
            lost.append(game_id)
            if self._seats.get(game_id) is seat:  # not a new game of ours under the same number
                self._seats.pop(game_id, None)
                self.games.pop(game_id, None)
        LOGGER.warning(  # said once, at the level the loss was said
            "reconnected to %s as %r (attempt %d): %d of %d room(s) and %d of %d game(s) rejoined",
            self.address.url,
            self.user_name,
            attempt,
            len(rejoined_rooms),
            len(rooms),
            len(rejoined),
            len(seats),
        )
        self._publish(
            Reconnected(
                attempt,
                self.user_name,
                tuple(rejoined_rooms),
                tuple(rejoined),
                tuple(lost),
                renumbered=tuple(sorted(renumbered.items())),
            )
        )
        return False

    def _renumber_rooms(
        self, targets: Sequence[tuple[int, int, str, int]]
    ) -> list[tuple[int, int, str, int]]:
        """Keep our room ids after a reconnect: each room we are owed (``targets``: our id, the server's
        number now, name, its number before) and each other room this client joined that is still listed
        by its name keep the id we handed out, now for the server's new number; :attr:`rooms` is keyed
        again to match. Returns the targets to join (one of two found as the same room is dropped)."""
        before = self._room_ids.copy()
        pins: dict[int, int] = {}
        kept: list[tuple[int, int, str, int]] = []
        for target in targets:
            room_id, number, name, _ = target
            if number in pins.values():  # two of our rooms found as one (names alike but for case)
                LOGGER.warning("room %r (%d) is the same room as another of ours now", name, room_id)
                continue
            pins[room_id] = number
            kept.append(target)
        for room_id, name in self._rooms_joined_ever.items():
            found = self._room_named(name)
            if room_id in pins or found is None or before.to_server(found) in pins.values():
                continue
            pins[room_id] = before.to_server(found)
        by_number = {before.to_server(room_id): room for room_id, room in self.rooms.items()}
        self._room_ids.renumber(pins)
        after = self._room_ids
        self.rooms = {
            after.to_stable(number): dataclasses.replace(room, room_id=after.to_stable(number))
            for number, room in by_number.items()
        }
        return kept

    async def _teardown(self, reason: str) -> None:
        """Stop this connection's tasks, close the transport, fail everything pending."""
        self._connected.clear()
        current = asyncio.current_task()
        tasks, self._tasks = list(self._tasks), []  # a copy: a finished flush task leaves the list
        self._conn = None  # from here no writer takes or reports anything for this connection
        for task in tasks:
            if task is not current:
                task.cancel()
        for task in tasks:
            if task is not current:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._transport is not None:
            with contextlib.suppress(Exception):
                await self._transport.close()
        self._transport = None
        if self._connection_lost is not None and not self._connection_lost.done():
            self._connection_lost.set_result(reason)
        error, unanswered = ConnectionLost(reason), ConnectionLost(reason)
        unanswered.sent = True  # written, never answered: the server may have run it
        for item, lost in [(item, error) for item in self._queue] + [
            (item, unanswered) for item in self._pending.values()
        ]:
            for future in (item.sent, item.response):
                if not future.done():
                    future.set_exception(lost)
        self._queue.clear()
        self._pending.clear()
        for handshake in (self._identified, self._login_result):
            if handshake is not None and not handshake.done():
                handshake.set_exception(error)
                handshake.exception()
        for _, waiter in self._game_joined_waiters:
            if not waiter.done():
                waiter.set_exception(error)
        self._game_joined_waiters.clear()

    def _lost(self, reason: str, conn: ClientConnection | None = None) -> None:
        """The connection is lost (``reason``); with ``conn``, only if that is still the connection: a
        write failing on a connection already given up says nothing of the one after it."""
        if conn is not None and conn is not self._conn:
            return
        if self._connection_lost is not None and not self._connection_lost.done():
            # Lost while logging in: the error raised says it (a reconnect attempt logs its failure).
            log = LOGGER.warning if self._connected.is_set() else LOGGER.info
            log("connection to %s lost: %s", self.address.url, reason)
            self._connection_lost.set_result(reason)
        self._connected.clear()

    # -- tasks -------------------------------------------------------------------------------------

    def _on_data(self, transport: Transport, conn: ClientConnection, data: bytes) -> None:
        """Feed bytes from the transport to the protocol and act on the events (synchronously)."""
        if self._conn is None or id(self._conn) != id(conn):
            return  # a connection we already gave up on
        self._last_data = asyncio.get_running_loop().time()
        try:
            if data:
                conn.receive_data(data)
            else:
                conn.receive_eof()
            while True:
                event = conn.next_event()
                if event is pev.NEED_DATA:
                    break
                self._handle(event)
                if isinstance(event, pev.ConnectionClosed):
                    return
        except ProtocolError as exc:
            LOGGER.error("protocol error from %s: %s", self.address.url, exc)
            self._lost(f"protocol error: {exc}")
            return
        except Exception as exc:  # a bug in a handler must not leave a zombie connection
            LOGGER.exception("failed to process data from %s", self.address.url)
            self._lost(f"client error: {exc!r}")
            return
        # The protocol may have produced frames by itself (the hashed login after the salt), or a writer
        # waiting for the lock left some: a task of this connection's, cancelled when it is torn down.
        if conn.has_data_to_send:
            task = asyncio.create_task(self._flush_or_lose(transport, conn), name="cockatrice-flush")
            tasks = self._tasks
            tasks.append(task)
            task.add_done_callback(lambda done: done in tasks and tasks.remove(done))

    async def _flush_or_lose(self, transport: Transport, conn: ClientConnection) -> None:
        try:
            await self._flush(transport, conn)
        except (OSError, ConnectionError) as exc:
            self._lost(f"send failed: {exc}", conn)

    async def _send_loop(self, transport: Transport, conn: ClientConnection) -> None:
        """Send queued containers as the flood gate allows, in order within each lane (chat and the rest,
        each per game: :attr:`_Outgoing.lane`): a message waiting for the chat budget never holds back a card
        move, a counter or a judge's command, nor one game's counted command another game's, and commands
        of one lane never overtake each other."""
        loop = asyncio.get_running_loop()
        while True:
            if not self._queue:
                self._queue_changed.clear()
                await self._queue_changed.wait()
                continue
            for item in [item for item in self._queue if item.response.done()]:
                self._queue.remove(item)  # cancelled by the caller while queued
            chosen, wait = self._next_sendable(loop.time())
            if chosen is None:
                if wait != float("inf"):
                    self._queue_changed.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._queue_changed.wait(), wait)
                continue
            self._queue.remove(chosen)
            if not await self._send_item(transport, conn, chosen):
                return

    def _next_sendable(self, now: float) -> tuple[_Outgoing | None, float]:
        """The first queued container whose lane has nothing before it and whose cost fits now; else
        None and the seconds until the first of a lane fits."""
        blocked: set[tuple[bool, int | None]] = set()
        soonest = float("inf")
        for item in self._queue:
            if item.lane in blocked:
                continue
            wait = max(self.flood.delay(item.cost, now), item.not_before - now)
            if wait <= 0:
                return item, 0.0
            LOGGER.debug("flood gate: %s waits %.2fs", item.label, wait)
            blocked.add(item.lane)
            soonest = min(soonest, wait)
        return None, soonest

    async def _send_item(self, transport: Transport, conn: ClientConnection, item: _Outgoing) -> bool:
        """Encode, account and write one container; False if the connection broke."""
        loop = asyncio.get_running_loop()
        try:
            cmd_id = conn.send(
                self._outgoing(item), room_id=self._server_room(item.room_id), game_id=item.game_id
            )
        except LocalProtocolError as exc:
            for future in (item.sent, item.response):
                if not future.done():
                    future.set_exception(exc)
            return True
        item.sent_at = loop.time()
        self.flood.record(item.cost, item.sent_at)
        if item.domain in ("room", "game") or item.label == "Command_Message":
            self._last_action = item.sent_at
        item.cmd_id = cmd_id
        self._pending[cmd_id] = item
        try:
            await self._flush(transport, conn)
        except (OSError, ConnectionError) as exc:
            self._lost(f"send failed: {exc}", conn)
            return False
        if not item.sent.done():
            item.sent.set_result(cmd_id)
        return True

    def _server_room(self, room_id: int | None) -> int | None:
        """The server's number for the room id we handed out (None stays None)."""
        return None if room_id is None else self._room_ids.to_server(room_id)

    def _outgoing(self, item: _Outgoing) -> list[Message]:
        """``item``'s commands with room ids in them (``Command_JoinRoom``) as the server numbers the rooms;
        copies, so a container sent again after a reconnect is translated by the mapping of its time."""
        if self._room_ids.identity or item.domain == "game":
            return item.commands
        return [self._room_ids.translated_out(wrapper) for wrapper in item.commands]

    def server_room_id(self, room_id: int) -> int:
        """The server's number now for the room this client calls ``room_id`` (for logs and for talking
        about the room with another program: the ids this client hands out stay put across restarts)."""
        return self._room_ids.to_server(room_id)

    async def _keepalive_loop(self, transport: Transport, conn: ClientConnection) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.keepalive)
            now = loop.time()
            if now - self._last_data > self.dead_after:
                self._lost(f"no data from the server for {now - self._last_data:.1f}s")
                return
            try:
                conn.send(commands.ping())
                if self.joined_rooms and now - self._last_action > self.idle_refresh:
                    # An empty room command: RespInvalidCommand, no side effect, but it resets the
                    # server's idle-client timer (pings do not).
                    room_id = min(self.joined_rooms)
                    conn.send(pb.RoomCommand(), room_id=self._room_ids.to_server(room_id))
                    self._last_action = now
                    LOGGER.debug("sent an idle-timer refresh in room %d", room_id)
                await self._flush(transport, conn)
            except (OSError, ConnectionError, LocalProtocolError) as exc:
                self._lost(f"keepalive failed: {exc}", conn)
                return

    async def _dispatch_loop(self) -> None:
        while True:
            event = await self._dispatch_queue.get()
            if event is None:
                return
            if isinstance(event, asyncio.Future):  # caught_up's mark: everything before it is handed out
                if not event.done():
                    event.set_result(None)
                continue
            for queue in list(self._subscribers):
                queue.put_nowait(event)
            for listener in list(self._listeners):
                try:
                    await listener(event)
                except Exception:
                    LOGGER.exception("listener %r failed on %r", listener, event)

    def _publish(self, event: AnyClientEvent) -> None:
        if self._listeners or self._subscribers:  # nobody listening: skip the dispatcher hop
            self._dispatch_queue.put_nowait(event)

    # -- incoming ----------------------------------------------------------------------------------

    def _handle(self, event: pev.Event) -> None:
        room_ids = self._room_ids  # the server's room numbers become the ids we hand out, before anything
        if isinstance(event, pev.ResponseReceived):
            if event.payload is not None:
                room_ids.translate_in(event.payload)
            self._on_response(event)
        elif isinstance(event, pev.SessionEventReceived):
            room_ids.translate_in(event.message)
            self._on_session_event(event.message)
        elif isinstance(event, pev.RoomEventReceived):
            room_ids.translate_in(event.message)
            self._on_room_event(room_ids.to_stable(event.room_id), event.message)
        elif isinstance(event, pev.GameEventsReceived):
            self._on_game_events(event)
        elif isinstance(event, pev.ServerIdentified):
            if self._identified is not None and not self._identified.done():
                self._identified.set_result(event)
        elif isinstance(event, (pev.LoginSucceeded, pev.LoginFailed)):
            if self._login_result is not None and not self._login_result.done():
                self._login_result.set_result(event)
        elif isinstance(event, pev.ConnectionClosed):
            self._goodbye = event
            if event.reason in _FINAL_CLOSE_REASONS:
                # Reconnecting would only repeat this (or, for LOGGEDINELSEWERE, kick the other session).
                self.reconnect_enabled = False
                self.closed_until = _ban_end(event)
                self.closed_for_good = str(getattr(event.reason, "name", event.reason))
            self._lost(_closed_reason(event))

    def _on_response(self, event: pev.ResponseReceived) -> None:
        item = self._pending.pop(event.cmd_id, None)
        if item is None or item.response.done():
            return  # pings and idle refreshes
        if event.code == RESP_OK:
            item.response.set_result(event)
            return
        if event.code == RESP_CHAT_FLOOD:
            if not item.cost.is_free:
                self._flood_refused(item)
            if self._send_again(item):
                return
        item.response.set_exception(command_failed(int(event.code), event, command=item.label))

    def _send_again(self, item: _Outgoing) -> bool:
        """Put a game container the server refused as flood (and ran none of) back in its place in the
        queue, to go again when the budget allows: a card move, counter or note is delayed, not lost.

        Once over its budget, Servatrice refuses every game command, even the ones it does not count,
        until its window empties; so a free command waits a server tick before each new try, a counted
        one waits for the lowered budget. False when it must not (or no longer may) be sent again."""
        if not item.can_send_again:
            return False
        now = asyncio.get_running_loop().time()
        limits = self.flood.limits
        if item.first_refused is None:
            item.first_refused = now
        elif now - item.first_refused > 2 * (limits.command_interval + limits.margin):
            LOGGER.warning(
                "the server kept refusing %s as flood; given up after %.0f s",
                item.label,
                now - item.first_refused,
            )
            return False
        item.not_before = now + SERVER_TICK if item.cost.is_free else 0.0
        LOGGER.debug("sending %s again after a flood refusal", item.label)
        self._enqueue(item)
        return True

    def _enqueue(self, item: _Outgoing) -> None:
        """Queue ``item`` in its lane's order (a new one goes last; one sent again, back in its place)."""
        for index, queued in enumerate(self._queue):
            if queued.lane == item.lane and queued.order > item.order:
                self._queue.insert(index, item)
                break
        else:
            self._queue.append(item)
        self._queue_changed.set()

    def _flood_refused(self, item: _Outgoing) -> None:
        """The server refused as flood what our gate let through: pace by stricter limits from now on."""
        before = self.flood.limits
        limits = self.flood.refused(item.cost, asyncio.get_running_loop().time(), sent_at=item.sent_at)
        if limits == before:
            return  # sent before we last slowed down: that refusal is already accounted for
        LOGGER.warning(
            "the server refused %s as flood: its limits are stricter than Servatrice's shipped ones (or"
            " than --relaxed-flood assumed); pacing by at most %d chat messages, %d characters and %d game"
            " commands per %g s from now on",
            item.label,
            limits.chat_messages,
            limits.chat_chars,
            limits.game_commands,
            limits.chat_interval,
        )

    def _on_session_event(self, message: Message) -> None:
        name = message.DESCRIPTOR.name
        is_own = False
        if name == "Event_GameJoined":
            self._on_game_joined(message)
        elif name == "Event_ListRooms":
            for room in message.room_list:  # type: ignore[attr-defined]
                self._remember_room(room)
            if self._held_room_lists is not None:  # a rejoin's: published once our ids for it are known
                self._held_room_lists.append(message)
                return
        elif name == "Event_UserMessage":
            is_own = message.sender_name == self.user_name  # type: ignore[attr-defined]
        elif name == "Event_NotifyUser":
            self._on_notification(message)
        elif name == "Event_ServerShutdown":
            self._on_shutdown(message)
        elif name == "Event_ServerMessage":  # the login message, or an administrator's word to everyone
            LOGGER.info("the server says: %s", _one_line(str(message.message)) or "(nothing)")  # type: ignore[attr-defined]
        self._publish(ClientEvent("session", message, is_own=is_own))

    def _on_shutdown(self, message: Any) -> None:
        """The server will shut down in ``minutes``: keep when (:attr:`shutdown_due`), tell the operator."""
        minutes = int(message.minutes)
        self.shutdown_due = asyncio.get_running_loop().time() + 60.0 * minutes
        self.shutdown_reason = _one_line(str(message.reason))
        LOGGER.warning(
            "the server announces a shutdown in %d minute(s): %s",
            minutes,
            self.shutdown_reason or "no reason given",
        )

    def _on_notification(self, message: Any) -> None:
        """A notification for this account: a moderator's warning is a warning for the operator, with its
        reason; anything else is info. One line each (the texts are the server's, maybe a user's)."""
        kind = int(message.type)
        if kind == NOTIFY_WARNING:
            reason = _one_line(str(message.warning_reason)) or "no reason given"
            LOGGER.warning("a moderator warned %s: %s", self.user_name, reason)
            return
        try:
            kind_name = pb.Event_NotifyUser.NotificationType.Name(kind)
        except ValueError:
            kind_name = str(kind)
        said = [
            _one_line(str(text))
            for text in (message.custom_title, message.custom_content, message.warning_reason)
            if str(text).strip()
        ]
        LOGGER.info("server notification for %s: %s", self.user_name, ": ".join([kind_name, *said]))

    def _on_game_joined(self, message: Any) -> None:
        game_id = message.game_info.game_id
        room_id = message.game_info.room_id
        room = self.rooms.get(room_id)
        self.games[game_id] = GameMirror.from_game_joined(
            message, room_game_types=room.game_types if room is not None else None
        )
        self._seats[game_id] = _Seat(
            room_id,
            message.spectator,
            message.judge,
            self._join_passwords.get(game_id),
            creator=str(message.game_info.creator_info.name),
            description=str(message.game_info.description),
        )
        if game_id in self._join_passwords:
            return  # a game we are joining on purpose is not the one a pending create_game waits for
        for entry in list(self._game_joined_waiters):
            waiter_room, waiter = entry
            if waiter_room == room_id and not waiter.done():
                waiter.set_result(game_id)
                self._game_joined_waiters.remove(entry)
                return
        # Neither joined nor created by us now: the server seated us again on login (a persistent game).
        self._joined_now.add(game_id)

    def _on_room_event(self, room_id: int, message: Message) -> None:
        name = message.DESCRIPTOR.name
        is_own = is_replay = False
        users = self.room_users.get(room_id)
        if users is not None and name == "Event_JoinRoom":
            users.add(str(message.user_info.name))  # type: ignore[attr-defined]
        elif users is not None and name == "Event_LeaveRoom":
            users.discard(str(message.name))  # type: ignore[attr-defined]
        if name == "Event_RoomSay":
            is_own = message.name == self.user_name  # type: ignore[attr-defined]
            is_replay = message.message_type != ROOM_MESSAGE_USER  # type: ignore[attr-defined]
        self._publish(ClientEvent("room", message, room_id=room_id, is_own=is_own, is_replay=is_replay))

    def _on_game_events(self, event: Any) -> None:
        game_id = event.game_id
        mirror = self.games.get(game_id)
        context = event.context
        noise = context is not None and context.DESCRIPTOR.name == "Context_PingChanged"
        deliver = bool(self._listeners or self._subscribers) and (self.include_noise or not noise)
        for item in event.events:
            message = item.message
            if mirror is not None:
                mirror.apply_event(message, player_id=item.player_id, context=context)
                name = message.DESCRIPTOR.name
                if name in ("Event_GameClosed", "Event_Kicked") or (
                    name == "Event_Leave" and item.player_id == mirror.local_player_id
                ):
                    self._seats.pop(game_id, None)
            if not deliver:
                continue
            is_own = mirror is not None and item.player_id >= 0 and item.player_id == mirror.local_player_id
            self._publish(
                ClientEvent(
                    "game",
                    message,
                    room_id=mirror.room_id if mirror is not None else None,
                    game_id=game_id,
                    player_id=item.player_id,
                    context=context,
                    forced_by_judge=event.forced_by_judge,
                    is_own=is_own,
                )
            )

    def _remember_room(self, room: Any) -> None:
        """Merge a ``ServerInfo_Room`` (full, or a partial count update) into ``rooms``."""
        old = self.rooms.get(room.room_id)

        def pick(field: str, default: Any, attribute: str = "") -> Any:
            if room.HasField(field):
                return getattr(room, field)
            return getattr(old, attribute or field) if old is not None else default

        game_types = {gt.game_type_id: gt.description for gt in room.gametype_list}
        if not game_types and old is not None:
            game_types = old.game_types
        self.rooms[room.room_id] = RoomSummary(
            room_id=room.room_id,
            name=pick("name", ""),
            description=pick("description", ""),
            player_count=pick("player_count", 0),
            game_count=pick("game_count", 0),
            auto_join=pick("auto_join", False),
            game_types=game_types,
            permission_level=pick("permissionlevel", "", "permission_level"),
            privilege_level=pick("privilegelevel", "", "privilege_level"),
        )

    # -- listeners ---------------------------------------------------------------------------------

    def add_listener(self, callback: Listener) -> None:
        """Call ``await callback(event)`` for every event (in order, one at a time)."""
        self._listeners.append(callback)

    def remove_listener(self, callback: Listener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(callback)

    async def events(self) -> AsyncIterator[AnyClientEvent]:
        """Iterate over events from now on, until the client is closed."""
        queue: asyncio.Queue[AnyClientEvent | None] = asyncio.Queue()
        self._subscribers.append(queue)
        try:
            while True:
                event = await queue.get()
                if event is None:
                    return
                yield event
        finally:
            self._subscribers.remove(queue)

    # -- commands ----------------------------------------------------------------------------------

    async def call(
        self,
        command: Message,
        *,
        room_id: int | None = None,
        game_id: int | None = None,
        timeout: float | None = None,
    ) -> pev.ResponseReceived:
        """Send one command and return its ``ResponseReceived`` (``code``, ``payload``).

        ``command`` is a ``protocol.commands`` builder result or a concrete ``messages.Command_*``; its
        domain (session/room/game) decides whether ``room_id`` or ``game_id`` is needed.

        Raises:
            CommandFailed: (or a subclass such as ``ChatFlood``) when the code is not RespOk.
            CommandTimeout: no response within ``timeout`` seconds after it was sent.
            ConnectionLost: the connection dropped first.
            FloodError: the command alone exceeds a flood budget (e.g. a 2000-byte chat line).
        """
        wrapper = _wire.as_command(command)
        domain: Domain = _wire.domain_of(wrapper)  # type: ignore[assignment]
        return await self._submit(domain, [wrapper], room_id=room_id, game_id=game_id, timeout=timeout)

    async def _submit(
        self,
        domain: Domain,
        wrappers: Sequence[Message],
        *,
        room_id: int | None = None,
        game_id: int | None = None,
        timeout: float | None = None,
    ) -> pev.ResponseReceived:
        if self._closing:
            raise ConnectionLost("client is closed")
        if not self.connected:
            raise ConnectionLost("not connected")
        if domain == "room" and room_id is None:
            raise ValueError("room commands need room_id")
        if domain == "game" and game_id is None:
            raise ValueError("game commands need game_id")
        cost, names = _cost_and_names(domain, wrappers)
        if not cost.is_free:
            self.flood.check(cost)
        loop = asyncio.get_running_loop()
        label = "+".join(names) if len(names) <= 3 else f"{len(names)} commands"
        self._given += 1
        item = _Outgoing(
            domain,
            list(wrappers),
            room_id,
            game_id,
            cost,
            label,
            loop.create_future(),
            loop.create_future(),
            order=self._given,
        )
        transport, conn = self._transport, self._conn
        if (
            (not self._queue or all(queued.lane != item.lane for queued in self._queue))
            and transport is not None
            and conn is not None
            and (cost.is_free or not self.flood.delay(cost, loop.time()))
        ):
            await self._send_item(transport, conn, item)  # fast path: nothing queued, budget available
        else:
            self._enqueue(item)
        limit = timeout or self.command_timeout
        try:
            if not item.sent.done():
                await item.sent  # queued behind the flood gate: the timeout starts when it is sent
            # A timer instead of asyncio.wait_for: no extra future/task hops on the hot path.
            timer = loop.call_later(limit, _expire, item.response, f"{label}: no response within {limit:g}s")
            try:
                return await item.response
            finally:
                timer.cancel()
        finally:
            if item.cmd_id is not None and self._pending.get(item.cmd_id) is item:
                del self._pending[item.cmd_id]  # timed out or cancelled: stop waiting for it
            if item in self._queue:  # cancelled while waiting to be sent again
                self._queue.remove(item)
            for future in (item.sent, item.response):
                if not future.done():
                    future.cancel()
                elif not future.cancelled():
                    future.exception()  # mark retrieved

    # -- session -----------------------------------------------------------------------------------

    async def ping(self) -> float:
        """Round trip of one Command_Ping through the queue, in seconds."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        await self.call(commands.ping())
        return loop.time() - started

    async def caught_up(self, timeout: float = 10.0, *, handed_out: bool = True) -> float:
        """Seconds until everything the server sent us before now has been handed to the listeners: one
        ``Command_Ping``'s round trip (the server answers after what it had for us already, such as another
        player's line stuck behind a stalled link), then the dispatcher's turn at every event read before the
        answer. A timer about to act for a player who said nothing calls it first: what they said in time
        is heard before it acts. Called from a listener (the dispatcher itself), only the ping is waited for:
        the events behind it are that listener's to return to; so with ``handed_out`` false, for a caller
        that needs only the game's state as the mirror has it (which the ping brings up to date).

        Raises:
            ConnectionLost: not connected, or the connection dropped meanwhile.
            CommandTimeout: no answer within ``timeout`` seconds (the link is stalled).
        """
        loop = asyncio.get_running_loop()
        started = loop.time()
        await self.call(commands.ping(), timeout=timeout)
        dispatcher = self._dispatcher
        if (
            handed_out
            and dispatcher is not None
            and not dispatcher.done()
            and asyncio.current_task() is not dispatcher
        ):
            mark: asyncio.Future[None] = loop.create_future()
            self._dispatch_queue.put_nowait(mark)
            try:  # bounded: a listener the dispatcher awaits may itself wait for the caller
                await asyncio.wait_for(mark, max(0.0, started + timeout - loop.time()))
            except TimeoutError as exc:
                raise CommandTimeout(f"events not handed out within {timeout:g}s") from exc
        return loop.time() - started

    async def list_rooms(self) -> list[RoomSummary]:
        """Ask for the room list (it arrives as Event_ListRooms, before the response) and return it."""
        self.rooms.clear()
        await self.call(commands.list_rooms())
        return [self.rooms[room_id] for room_id in sorted(self.rooms)]

    async def join_room(self, room_id: int) -> Any:
        """Join a room; returns its ``ServerInfo_Room``. History/welcome lines arrive with ``is_replay``.

        Raises:
            RoomRefused: the room does not admit this account (a ``UserLevelTooLow``); the message says
                whom it admits.
        """
        try:
            response = await self.call(commands.join_room(room_id))
        except UserLevelTooLow as exc:
            raise self._room_refused(room_id, exc) from exc
        self.joined_rooms.add(room_id)
        room_info = getattr(response.payload, "room_info", None)
        if room_info is not None:
            self._remember_room(room_info)
            self.room_users[room_id] = {str(user.name) for user in room_info.user_list}
        known = self.rooms.get(room_id)
        self.room_names[room_id] = known.name if known is not None else ""
        if known is not None and known.name:
            self._rooms_joined_ever[room_id] = known.name
        return room_info

    def _room_refused(self, room_id: int, error: UserLevelTooLow) -> RoomRefused:
        """The sentence error for a room that would not have us, from what the room list said of it."""
        room = self.rooms.get(room_id)
        info = self.user_info
        return RoomRefused(
            error.code,
            error.response,
            command=error.command,
            room_id=room_id,
            room=room.name if room is not None else "",
            permission_level=room.permission_level if room is not None else "",
            privilege_level=room.privilege_level if room is not None else "",
            user=self.user_name,
            registered=bool(info is not None and int(info.user_level) & USER_IS_REGISTERED),
            privilege=str(info.privlevel) if info is not None else "",
        )

    def _room_named(self, name: str) -> int | None:
        """The id of the listed room called ``name`` (exactly, else ignoring case), or None."""
        for room in self.rooms.values():
            if room.name == name:
                return room.room_id
        for room in self.rooms.values():
            if room.name.lower() == name.lower():
                return room.room_id
        return None

    async def leave_room(self, room_id: int) -> None:
        await self.call(commands.leave_room(), room_id=room_id)
        self.joined_rooms.discard(room_id)
        self.room_users.pop(room_id, None)
        self.room_names.pop(room_id, None)

    async def room_id_by_name(self, name: str) -> int:
        """Look a room up by name (case-insensitive) or, when no room has that name, by its id in digits;
        lists rooms if none are known yet.

        Raises:
            RoomNotFound: no such room (a ``KeyError`` too); the message names the rooms there are.
        """
        if not self.rooms:
            await self.list_rooms()
        for room in self.rooms.values():
            if room.name.lower() == name.lower():
                return room.room_id
        if name.strip().isdecimal() and int(name) in self.rooms:
            return int(name)
        known = [(room_id, self.rooms[room_id].name) for room_id in sorted(self.rooms)]
        raise RoomNotFound(name, known)

    async def send_message(self, user_name: str, text: str) -> None:
        """Private message (Command_Message); counts against the chat budget."""
        await self.call(commands.message(user_name, _check_text(text)))

    async def room_say(self, room_id: int, text: str) -> None:
        """Say ``text`` in a room (the server turns newlines into spaces)."""
        await self.call(commands.room_say(_check_text(text)), room_id=room_id)

    async def list_users(self) -> list[Any]:
        """Users online (``ServerInfo_User`` messages)."""
        response = await self.call(commands.list_users())
        return list(getattr(response.payload, "user_list", []))

    # -- games -------------------------------------------------------------------------------------

    async def create_game(
        self,
        room_id: int,
        *,
        description: str,
        max_players: int,
        password: str | None = None,
        spectators_allowed: bool = True,
        spectators_need_password: bool = False,
        spectators_can_talk: bool = True,
        spectators_see_everything: bool = False,
        share_decklists: bool = False,
        join_as_judge: bool = False,
        join_as_spectator: bool = False,
        game_type_ids: Iterable[int] = (),
        starting_life_total: int = 20,
        only_buddies: bool = False,
        only_registered: bool = False,
        timeout: float | None = None,
    ) -> int:
        """Create a game in ``room_id``; return its id (learned from Event_GameJoined, as TriceBot does)."""
        command = commands.create_game(
            description,
            max_players=max_players,
            password=password or None,
            game_type_ids=list(game_type_ids),
            only_buddies=only_buddies,
            only_registered=only_registered,
            spectators_allowed=spectators_allowed,
            spectators_need_password=spectators_need_password,
            spectators_can_talk=spectators_can_talk,
            spectators_see_everything=spectators_see_everything,
            join_as_judge=join_as_judge,
            join_as_spectator=join_as_spectator,
            starting_life_total=starting_life_total,
            share_decklists_on_load=share_decklists,
        )
        loop = asyncio.get_running_loop()
        async with self._create_lock:
            waiter: asyncio.Future[int] = loop.create_future()
            entry = (room_id, waiter)
            self._game_joined_waiters.append(entry)
            try:
                await self.call(command, room_id=room_id, timeout=timeout)
                game_id = await asyncio.wait_for(asyncio.shield(waiter), timeout or self.command_timeout)
            finally:
                if entry in self._game_joined_waiters:
                    self._game_joined_waiters.remove(entry)
                if not waiter.done():
                    waiter.cancel()
                elif not waiter.cancelled():
                    waiter.exception()
        if password and game_id in self._seats:
            self._seats[game_id] = dataclasses.replace(self._seats[game_id], password=password)
        return game_id

    async def join_game(
        self,
        room_id: int,
        game_id: int,
        *,
        spectator: bool = False,
        password: str | None = None,
        judge: bool = False,
        timeout: float | None = None,
    ) -> GameMirror:
        """Join a game (as player, spectator and/or judge) and return its mirror."""
        command = commands.join_game(
            game_id, password=password or None, spectator=spectator, join_as_judge=judge or None
        )
        self._join_passwords[game_id] = password
        try:
            await self.call(command, room_id=room_id, timeout=timeout)
        finally:
            self._join_passwords.pop(game_id, None)
        mirror = self.games.get(game_id)
        if mirror is None:
            raise ServerError(f"joined game {game_id} but no Event_GameJoined arrived")
        return mirror

    async def game_command(self, game_id: int, command: Message, *, timeout: float | None = None) -> Any:
        """Send one game command; returns its ``ResponseReceived``."""
        wrapper = _wire.as_command(command)
        if _wire.domain_of(wrapper) != "game":
            raise TypeError(f"{_wire.command_name(wrapper)} is not a game command")
        return await self._submit("game", [wrapper], game_id=game_id, timeout=timeout)

    async def game_commands(
        self, game_id: int, game_commands: Sequence[Message], *, timeout: float | None = None
    ) -> list[Any]:
        """Run ``game_commands`` in the given order, in as few containers as the flood budget allows.

        Servatrice runs a container's commands last-to-first, so each batch goes out reversed. If a
        container fails, later ones are not sent and ``CommandFailed`` is raised (inside a failed
        container the server ran every command and reported the last failing code).
        Returns one response per container sent.
        """
        wrappers = [_wire.as_command(c) for c in game_commands]
        for wrapper in wrappers:
            if _wire.domain_of(wrapper) != "game":
                raise TypeError(f"{_wire.command_name(wrapper)} is not a game command")
        return [
            await self._submit("game", list(reversed(batch)), game_id=game_id, timeout=timeout)
            for batch in self._batches(wrappers)
        ]

    def _batches(self, wrappers: Sequence[Message]) -> list[list[Message]]:
        """Split into containers that each fit half of the game-command budget (and the chat budget)."""
        limits = self.flood.limits
        per_batch = max(1, limits.game_commands // 2) if limits.game_commands > 0 else 0
        batches: list[list[Message]] = []
        current: list[Message] = []
        cost = FREE
        for wrapper in wrappers:
            new_cost = cost + _cost_of([wrapper])
            try:
                self.flood.check(new_cost)
                fits = len(current) < 200 and (not per_batch or new_cost.game_commands <= per_batch)
            except FloodError:
                fits = False
            if current and not fits:
                batches.append(current)
                current, new_cost = [], _cost_of([wrapper])
            current.append(wrapper)
            cost = new_cost
        if current:
            batches.append(current)
        return batches

    async def judge_commands(
        self,
        game_id: int,
        target_player_id: int,
        game_commands: Sequence[Message],
        *,
        timeout: float | None = None,
    ) -> Any:
        """Run ``game_commands`` as player ``target_player_id`` via ``Command_Judge`` (forward order, cost 1).

        The server always answers RespOk and drops the inner results: check the events.
        """
        wrappers = [_wire.as_command(c) for c in game_commands]
        return await self.game_command(game_id, commands.judge(target_player_id, wrappers), timeout=timeout)

    async def game_say(self, game_id: int, text: str) -> None:
        """Say ``text`` in a game's chat (costs one game command and one chat message)."""
        await self.game_command(game_id, commands.game_say(_check_text(text)))

    async def leave_game(self, game_id: int) -> None:
        """Leave a game; forget its mirror and seat."""
        self._seats.pop(game_id, None)
        try:
            await self.game_command(game_id, commands.leave_game())
        finally:
            self.games.pop(game_id, None)

    async def select_deck(self, game_id: int, deck: str) -> Any:
        """Load a deck (.cod XML text) before the game starts; the response carries Response_DeckDownload."""
        return await self.game_command(game_id, commands.deck_select(deck))

    async def ready_start(self, game_id: int, ready: bool = True, *, force_start: bool = False) -> None:
        await self.game_command(game_id, commands.ready_start(ready, force_start=force_start or None))


def _not_our_game(seat: _Seat, listed: Any, room_listed: bool) -> str:
    """Why the game we sat in under this number is not in its room any more ("" when it may be): gone
    from the room's fresh game list, or listed as another creator's or description's game."""
    if not room_listed:
        return ""  # no fresh list: try to join, the server answers
    if listed is None:
        return "the game is gone from its room's game list"
    creator = str(listed.creator_info.name)
    if (seat.creator and creator != seat.creator) or (
        seat.description and str(listed.description) != seat.description
    ):
        return f"its number now belongs to another game ({creator}'s {str(listed.description)[:40]!r})"
    return ""


def _rejoin_refused(error: Exception, seat: _Seat) -> str:
    """Why the server would not seat us again in a game we sat in, in an operator's words: a full game means
    our seat went while we were away (the server keeps no seat for an unregistered account or a spectator),
    and someone else may have taken it."""
    code = getattr(error, "code_name", "")
    if code == "RespGameFull":
        kept = "a spectator's seat" if seat.spectator else "an unregistered account's seat"
        return (
            f"our seat was lost while the connection was down (the server does not keep {kept}), and the game"
            f" is full now ({error})"
        )
    if code in ("RespNameNotFound", "RespNotInRoom"):
        return f"the game is gone ({error})"
    return str(error)


def _one_line(text: str, limit: int = 300) -> str:
    """A server's (or a user's) text for one log line: no line breaks or control characters, clipped."""
    text = " ".join("".join(char if char.isprintable() else " " for char in text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _expire(future: asyncio.Future[Any], message: str) -> None:
    if not future.done():
        future.set_exception(CommandTimeout(message))


def _check_text(text: str) -> str:
    if len(text) > MAX_TEXT_LENGTH:
        raise ValueError(f"text of {len(text)} characters exceeds Servatrice's limit of {MAX_TEXT_LENGTH}")
    return text


def _cost_and_names(domain: str, wrappers: Sequence[Message]) -> tuple[Cost, list[str]]:
    """Flood cost of one container holding ``wrappers`` (all of ``domain``), and the command names."""
    cost = FREE
    names = []
    for wrapper in wrappers:
        inner = _wire.inner_command(wrapper)
        name = "" if inner is None else inner.DESCRIPTOR.name
        names.append(name)
        if domain == "game":
            if name == "Command_GameSay":
                cost = cost + game_command_cost(name, message=inner.message)  # type: ignore[union-attr]
            elif name not in WHITELISTED_GAME_COMMANDS:
                cost = cost + _ONE_GAME_COMMAND
        elif name in ("Command_RoomSay", "Command_Message"):
            cost = cost + chat_cost(inner.message)  # type: ignore[union-attr]
    return cost, names


def _cost_of(wrappers: Sequence[Message]) -> Cost:
    """Flood cost of one container holding ``wrappers``."""
    if not wrappers:
        return FREE
    return _cost_and_names(_wire.domain_of(wrappers[0]), wrappers)[0]


_ONE_GAME_COMMAND = Cost(game_commands=1)


async def connect(url: str, user: str, password: str | None = None, **options: Any) -> Client:
    """Connect, log in and return a running :class:`Client` (use ``async with`` or ``await close()``).

    ``options`` are :class:`Client`'s keyword arguments (``flood_limits``, ``keepalive``, ``reconnect``...).

    Raises:
        OSError / TimeoutError: the server is unreachable.
        LoginFailed: the server refused the login.
        ServerError: the handshake failed (e.g. a protocol-version mismatch or garbage bytes).
        ConnectionLost: the server hung up during the handshake (``WebSocketRefused``: a web server, not
            Servatrice, answered the WebSocket handshake).
    """
    client = Client(url, user, password, **options)
    await client.start()
    return client
