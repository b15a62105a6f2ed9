"""``ClientConnection``: the sans-I/O state machine of one client session (h11 style).

Theory of operation
-------------------
The object owns no socket.  The I/O layer does three things in a loop:

1. hand received bytes to :meth:`ClientConnection.receive_data` (a TCP chunk of any size, or one whole
   WebSocket message) and call :meth:`~ClientConnection.receive_eof` when the peer closes;
2. call :meth:`~ClientConnection.next_event` until it returns :data:`NEED_DATA`, acting on each event;
3. write every frame returned by :meth:`~ClientConnection.data_to_send` (WebSocket: one binary message each).
   Do this after *every* ``next_event()`` call, including one that returned ``NEED_DATA``, and before
   blocking on the socket: handling a message can queue frames of its own (the hashed login is sent when
   the salt arrives), and a driver that waits for the server first would wait forever.

Commands go out through :meth:`~ClientConnection.send`, which allocates the ``cmd_id`` that the matching
:class:`ResponseReceived` will carry, and :meth:`~ClientConnection.login`, which runs the login dance.
Frames the machine produces by itself (the TCP hello, the hashed login after the salt arrives) also come
out of ``data_to_send()``, so there is exactly one place where outgoing bytes appear.

States::

    AWAITING_IDENTIFICATION --Event_ServerIdentification(v14)--> IDENTIFIED
    IDENTIFIED --login()--> LOGGING_IN --RespOk--> LOGGED_IN
                             LOGGING_IN --refused--> IDENTIFIED (LoginFailed; may retry)
    any --Event_ConnectionClosed / EOF--> CLOSED
    any --bad bytes / version mismatch--> ERROR (RemoteProtocolError raised)

Before ``LOGGED_IN`` only ``ping`` may be sent with :meth:`send` (the server answers ``RespLoginNeeded``
to the rest).  Unknown message types, events and contexts are logged at DEBUG and skipped: newer servers
add them.
"""

from __future__ import annotations

import enum
import itertools
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from google.protobuf.message import DecodeError, Message

from . import commands
from .codes import PROTOCOL_VERSION, CloseReason, ResponseCode, ServerOptions, response_code
from .errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from .events import (
    NEED_DATA,
    ConnectionClosed,
    Event,
    GameEventItem,
    GameEventsReceived,
    LoginFailed,
    LoginSucceeded,
    NeedData,
    ResponseReceived,
    RoomEventReceived,
    ServerIdentified,
    SessionEventReceived,
)
from .framing import DEFAULT_MAX_FRAME_SIZE, TCP_HELLO, MessageSizeGuard, TcpFrameDecoder, encode_tcp_frame
from .hashing import hash_password
from .messages import payload_of
from .pb.commands_pb2 import CommandContainer
from .pb.responses_pb2 import Response, Response_Login, Response_PasswordSalt
from .pb.server_message_pb2 import ServerMessage
from .pb.session_commands_pb2 import Command_Ping
from .pb.session_events_pb2 import Event_ConnectionClosed, Event_ServerIdentification

__all__ = ["ClientConnection", "SessionState", "Transport"]

LOGGER = logging.getLogger(__name__)

NO_CMD_ID = (1 << 64) - 1
"""``Response.cmd_id`` for a container sent without one (the server's -1 in a uint64); reported as ``-1``."""


class SessionState(enum.Enum):
    """Where the session is; see the module docstring for the transitions."""

    AWAITING_IDENTIFICATION = "AWAITING_IDENTIFICATION"
    IDENTIFIED = "IDENTIFIED"
    LOGGING_IN = "LOGGING_IN"
    LOGGED_IN = "LOGGED_IN"
    CLOSED = "CLOSED"
    ERROR = "ERROR"


class Transport(enum.Enum):
    """How frames are delimited: TCP length prefixes or one WebSocket message each."""

    TCP = "tcp"
    WS = "ws"


class _LoginStep(enum.Enum):
    """Which login command is in flight."""

    SALT = "salt"
    LOGIN = "login"


@dataclass(frozen=True, slots=True)
class _LoginRequest:
    """What login() was asked for, kept until the server has answered."""

    user_name: str
    password: str | None
    client_id: str | None
    client_version: str | None
    client_features: tuple[str, ...]

    def command(self, *, plain: bool = False, hashed_password: str | None = None) -> Message:
        """``Command_Login`` with the plain password (``plain``), a hash, or no password at all."""
        return commands.login(
            self.user_name,
            password=self.password if plain and self.password else None,
            hashed_password=hashed_password,
            client_id=self.client_id,
            client_version=self.client_version,
            client_features=self.client_features,
        )


class ClientConnection:
    """One Servatrice session, protocol 14, without I/O.

    Args:
        transport: ``"tcp"`` (length-prefixed, XML preamble, hello frame) or ``"ws"`` (one message per frame).
        max_frame_size: largest incoming (and outgoing) payload accepted, in bytes.
    """

    def __init__(
        self, *, transport: Transport | str = Transport.TCP, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE
    ):
        self.transport = Transport(transport)
        self.max_frame_size = max_frame_size
        self.state = SessionState.AWAITING_IDENTIFICATION
        self.server_identity: ServerIdentified | None = None
        self.user_name: str | None = None
        self._cmd_ids = itertools.count(1)
        self._outgoing: list[bytes] = []
        self._tcp_decoder = TcpFrameDecoder(max_frame_size=max_frame_size)
        self._ws_guard = MessageSizeGuard(max_frame_size=max_frame_size)
        self._ws_inbox: list[bytes] = []
        self._eof = False
        self._closed_event: ConnectionClosed | None = None
        self._pending_events: list[Event] = []
        self._login_step: _LoginStep | None = None
        self._login_cmd_id: int | None = None
        self._login_request: _LoginRequest | None = None
        if self.transport is Transport.TCP:
            # The v14 server stays silent until it gets a container without cmd_id: 4 zero bytes.
            self._outgoing.append(TCP_HELLO)

    # ------------------------------------------------------------------------------------------------- output

    def data_to_send(self) -> list[bytes]:
        """Return (and forget) the frames to write, in order (WebSocket: each is one binary message)."""
        frames, self._outgoing = self._outgoing, []
        return frames

    @property
    def has_data_to_send(self) -> bool:
        """Whether :meth:`data_to_send` has frames to return (it is not called: they stay queued)."""
        return bool(self._outgoing)

    def send(
        self,
        command: Message | Sequence[Message],
        *,
        room_id: int | None = None,
        game_id: int | None = None,
    ) -> int:
        """Queue one command (or several of the same domain) in a new container; return its ``cmd_id``.

        Room commands need ``room_id``, game commands ``game_id``.  Several commands in one container are run
        by the server in *reverse* order: prefer one per call, or :func:`commands.judge`.

        Raises:
            LocalProtocolError: the state does not allow it (not logged in, closed), the commands mix
                domains, the id the domain needs is missing, or the frame would exceed ``max_frame_size``.
        """
        batch = [command] if isinstance(command, Message) else list(command)
        if not batch:
            raise LocalProtocolError("send() needs at least one command")
        try:
            domains = {commands.domain_of(item) for item in batch}
        except TypeError as exc:
            raise LocalProtocolError(str(exc)) from exc
        if len(domains) != 1:
            raise LocalProtocolError(f"one container carries one domain, got {sorted(domains)}")
        (domain,) = domains
        self._check_can_send(batch, domain)
        container = CommandContainer()
        if domain == "room":
            if room_id is None:
                raise LocalProtocolError("room commands need room_id")
            container.room_id = room_id
        elif domain == "game":
            if game_id is None:
                raise LocalProtocolError("game commands need game_id")
            container.game_id = game_id
        elif room_id is not None or game_id is not None:
            raise LocalProtocolError("session commands take neither room_id nor game_id")
        field = {
            "session": container.session_command,
            "room": container.room_command,
            "game": container.game_command,
        }
        for item in batch:
            field[domain].add().CopyFrom(item)
        return self._queue(container)

    def login(
        self,
        user_name: str,
        password: str | None = None,
        *,
        client_id: str | None = None,
        client_version: str | None = commands.DEFAULT_CLIENT_VERSION,
        client_features: Iterable[str] = commands.DEFAULT_CLIENT_FEATURES,
        use_password_hash: bool | None = None,
    ) -> int:
        """Start logging in; return the ``cmd_id`` of the first command sent.

        With a password and a server that supports hashing (``use_password_hash`` left ``None``), this first
        asks for the salt, then sends ``salt + base64(sha512^1000(salt + password))`` by itself when the
        salt arrives (an empty salt means "unknown user": we then log in unregistered, without the password,
        as the desktop client does).  Otherwise it sends the plain password.  The outcome is a
        :class:`LoginSucceeded` or :class:`LoginFailed` event.

        Raises:
            LocalProtocolError: not in state ``IDENTIFIED``, or hashing was forced on a server without it.
        """
        if self.state is not SessionState.IDENTIFIED:
            raise LocalProtocolError(f"login() needs state IDENTIFIED, not {self.state.name}")
        supports_hash = bool(self.server_identity and self.server_identity.supports_password_hash)
        if use_password_hash and not supports_hash:
            raise LocalProtocolError("server does not announce SupportsPasswordHash")
        request = _LoginRequest(user_name, password, client_id, client_version, tuple(client_features))
        if password and (use_password_hash if use_password_hash is not None else supports_hash):
            self._login_step = _LoginStep.SALT
            cmd_id = self._queue_session(commands.request_password_salt(user_name))
        else:
            self._login_step = _LoginStep.LOGIN
            cmd_id = self._queue_session(request.command(plain=True))
        self._login_request = request
        self._login_cmd_id = cmd_id
        self.state = SessionState.LOGGING_IN
        return cmd_id

    def _check_can_send(self, batch: list[Message], domain: str) -> None:
        """Refuse sends that the current state cannot carry."""
        if self.state in (SessionState.CLOSED, SessionState.ERROR):
            raise LocalProtocolError(f"cannot send in state {self.state.name}")
        if self.state is SessionState.LOGGED_IN:
            return
        only_pings = domain == "session" and all(item.HasExtension(Command_Ping.ext) for item in batch)
        if not only_pings:
            raise LocalProtocolError(f"only ping may be sent before login (state {self.state.name})")

    def _queue_session(self, command: Message) -> int:
        """Queue a session command that bypasses the state check (used by the login dance)."""
        container = CommandContainer()
        container.session_command.add().CopyFrom(command)
        return self._queue(container)

    def _queue(self, container: CommandContainer) -> int:
        """Give ``container`` a fresh cmd_id, frame it and queue it."""
        cmd_id = next(self._cmd_ids)
        container.cmd_id = cmd_id
        payload = container.SerializeToString()
        if self.transport is Transport.TCP:
            frame = encode_tcp_frame(payload, max_frame_size=self.max_frame_size)
        else:
            if len(payload) > self.max_frame_size:
                raise LocalProtocolError(
                    f"outgoing message of {len(payload)} bytes exceeds {self.max_frame_size}"
                )
            frame = payload
        self._outgoing.append(frame)
        return cmd_id

    # -------------------------------------------------------------------------------------------------- input

    def receive_data(self, data: bytes) -> None:
        """Feed bytes from the server: any TCP chunk, or exactly one WebSocket message.

        Raises:
            LocalProtocolError: data after :meth:`receive_eof`.
            RemoteProtocolError: a ``str`` (a WebSocket text message: Servatrice only sends binary), or a
                WebSocket message larger than ``max_frame_size``.
        """
        if self._eof:
            raise LocalProtocolError("receive_data() after receive_eof()")
        if isinstance(data, str):
            self.state = SessionState.ERROR
            raise RemoteProtocolError("server sent a text websocket message; Servatrice only sends binary")
        if self.transport is Transport.TCP:
            self._tcp_decoder.feed(data)
        else:
            try:
                self._ws_inbox.append(self._ws_guard.check(bytes(data)))
            except RemoteProtocolError:
                self.state = SessionState.ERROR
                raise

    def receive_eof(self) -> None:
        """The server closed the stream.  ``next_event()`` will end with :class:`ConnectionClosed`."""
        self._eof = True
        self._tcp_decoder.feed_eof()

    def next_event(self) -> Event | NeedData:
        """Return the next event, or :data:`NEED_DATA` when more bytes are needed.

        After the session ends this keeps returning the same :class:`ConnectionClosed`.

        Raises:
            RemoteProtocolError: unusable bytes from the server (bad frame, absurd length, unparsable
                protobuf, protocol version other than 14).  The state becomes ``ERROR`` and stays there.
        """
        if self.state is SessionState.ERROR:
            raise RemoteProtocolError("connection is in state ERROR")
        try:
            while True:
                if self._pending_events:
                    return self._pending_events.pop(0)
                if self._closed_event is not None:
                    return self._closed_event  # anything the server sends after its goodbye is ignored
                payload = self._next_payload()
                if payload is None:
                    if self._eof:
                        self._close(ConnectionClosed())
                        continue
                    return NEED_DATA
                self._handle_payload(payload)
        except ProtocolError:
            self.state = SessionState.ERROR
            raise

    def _next_payload(self) -> bytes | None:
        """Pop the next complete server message, if any."""
        if self.transport is Transport.TCP:
            return self._tcp_decoder.next_frame()
        return self._ws_inbox.pop(0) if self._ws_inbox else None

    def _close(self, event: ConnectionClosed) -> None:
        """Enter CLOSED once; later goodbyes are ignored."""
        if self._closed_event is None:
            self._closed_event = event
        self.state = SessionState.CLOSED
        self._ws_inbox.clear()

    def _handle_payload(self, payload: bytes) -> None:
        """Parse one ServerMessage and append the resulting events (if any) to the pending list."""
        message = ServerMessage()
        try:
            message.ParseFromString(payload)
        except (DecodeError, RecursionError, ValueError) as exc:
            raise RemoteProtocolError(f"unparsable ServerMessage ({len(payload)} bytes): {exc}") from exc
        if self.state is SessionState.CLOSED:
            LOGGER.debug("dropping server message received after the session closed")
            return
        if message.HasField("response"):
            self._on_response(message.response)
        elif message.HasField("session_event"):
            self._on_session_event(message.session_event)
        elif message.HasField("room_event"):
            self._on_room_event(message.room_event)
        elif message.HasField("game_event_container"):
            self._on_game_events(message.game_event_container)
        else:
            LOGGER.debug("skipping ServerMessage of unknown type (%d bytes)", len(payload))

    def _on_response(self, response: Response) -> None:
        """Route a response to the login machinery or report it."""
        cmd_id = -1 if response.cmd_id == NO_CMD_ID else response.cmd_id
        code: ResponseCode | int = (
            response_code(response.response_code)
            if response.HasField("response_code")
            else ResponseCode.RespNothing
        )
        found = payload_of(response)
        if self._login_step is not None and cmd_id == self._login_cmd_id:
            self._on_login_response(cmd_id, code, response)
            return
        self._pending_events.append(
            ResponseReceived(cmd_id=cmd_id, code=code, payload=found[1] if found else None, response=response)
        )

    def _on_login_response(self, cmd_id: int, code: ResponseCode | int, response: Response) -> None:
        """Advance the login dance: salt -> hashed login -> logged in (or failed)."""
        step, self._login_step, self._login_cmd_id = self._login_step, None, None
        request = self._login_request
        assert request is not None  # set together with _login_step
        if step is _LoginStep.SALT:
            if code != ResponseCode.RespOk:
                self._login_failed(LoginFailed(cmd_id, code))
                return
            salt = response.Extensions[Response_PasswordSalt.ext].password_salt
            if salt:
                command = request.command(hashed_password=hash_password(request.password or "", salt))
            else:
                command = request.command()  # unknown user: the server lets them in unregistered
            self._login_step = _LoginStep.LOGIN
            self._login_cmd_id = self._queue_session(command)
            return
        details = response.Extensions[Response_Login.ext]
        if code != ResponseCode.RespOk:
            self._login_failed(
                LoginFailed(
                    cmd_id,
                    code,
                    denied_reason=details.denied_reason_str,
                    denied_end_time=details.denied_end_time,
                    missing_features=tuple(details.missing_features),
                )
            )
            return
        self._login_request = None
        self.state = SessionState.LOGGED_IN
        self.user_name = details.user_info.name
        self._pending_events.append(
            LoginSucceeded(
                cmd_id=cmd_id, user_name=details.user_info.name, user_info=details.user_info, response=details
            )
        )

    def _login_failed(self, event: LoginFailed) -> None:
        """Report a refused login and allow another attempt."""
        self._login_request = None
        self.state = SessionState.IDENTIFIED
        self._pending_events.append(event)

    def _on_session_event(self, event: Message) -> None:
        """Identification and goodbye drive the state machine; other session events are reported as-is."""
        if event.HasExtension(Event_ServerIdentification.ext):
            self._on_identification(event.Extensions[Event_ServerIdentification.ext])
            return
        if event.HasExtension(Event_ConnectionClosed.ext):
            goodbye = event.Extensions[Event_ConnectionClosed.ext]
            reason: CloseReason | int | None = None
            if goodbye.HasField("reason"):
                try:
                    reason = CloseReason(goodbye.reason)
                except ValueError:
                    reason = goodbye.reason
            end_time = goodbye.end_time if goodbye.HasField("end_time") else None
            self._close(ConnectionClosed(reason=reason, reason_str=goodbye.reason_str, end_time=end_time))
            return
        found = payload_of(event)
        if found is None:
            LOGGER.debug("skipping unknown session event")
            return
        self._pending_events.append(SessionEventReceived(event_type=found[0], message=found[1]))

    def _on_identification(self, ident: Message) -> None:
        """Check the protocol version and become IDENTIFIED."""
        if self.state is not SessionState.AWAITING_IDENTIFICATION:
            LOGGER.warning("ignoring repeated Event_ServerIdentification in state %s", self.state.name)
            return
        if ident.protocol_version != PROTOCOL_VERSION:
            raise RemoteProtocolError(
                f"server {ident.server_name!r} speaks protocol {ident.protocol_version}, "
                f"we speak {PROTOCOL_VERSION}"
            )
        identity = ServerIdentified(
            server_name=ident.server_name,
            server_version=ident.server_version,
            protocol_version=ident.protocol_version,
            supports_password_hash=bool(ident.server_options & ServerOptions.SupportsPasswordHash),
        )
        self.server_identity = identity
        self.state = SessionState.IDENTIFIED
        self._pending_events.append(identity)

    def _on_room_event(self, event: Message) -> None:
        """Report a room event, or skip an unknown kind."""
        found = payload_of(event)
        if found is None:
            LOGGER.debug("skipping unknown room event in room %d", event.room_id)
            return
        self._pending_events.append(
            RoomEventReceived(room_id=event.room_id, event_type=found[0], message=found[1])
        )

    def _on_game_events(self, container: Message) -> None:
        """Report a game event batch; unknown event kinds inside it are dropped."""
        items = []
        for event in container.event_list:
            found = payload_of(event)
            if found is None:
                LOGGER.debug("skipping unknown game event in game %d", container.game_id)
                continue
            items.append(GameEventItem(player_id=event.player_id, event_type=found[0], message=found[1]))
        context_type: int | None = None
        context: Message | None = None
        if container.HasField("context"):
            found_context = payload_of(container.context)
            if found_context is not None:
                context_type, context = found_context
        self._pending_events.append(
            GameEventsReceived(
                game_id=container.game_id,
                events=tuple(items),
                context_type=context_type,
                context=context,
                seconds_elapsed=container.seconds_elapsed if container.HasField("seconds_elapsed") else None,
                forced_by_judge=container.forced_by_judge if container.HasField("forced_by_judge") else None,
            )
        )
