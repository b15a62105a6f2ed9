"""Typed events produced by :class:`~cockatrice_ext.protocol.connection.ClientConnection`.

Each event is a frozen dataclass.  Payloads stay the generated protobuf messages (``pb.Event_GameJoined``
etc.) rather than being copied into parallel Python classes: the wire schema is the single source of truth,
and ``isinstance(event.message, pb.Event_RoomSay)`` is all a consumer needs to dispatch.  Treat the embedded
messages as read-only.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from google.protobuf.message import Message

from .codes import CloseReason, ResponseCode
from .pb import common_pb2, responses_pb2

__all__ = [
    "NEED_DATA",
    "ConnectionClosed",
    "Event",
    "GameEventItem",
    "GameEventsReceived",
    "LoginFailed",
    "LoginSucceeded",
    "NeedData",
    "ResponseReceived",
    "RoomEventReceived",
    "ServerIdentified",
    "SessionEventReceived",
]


class NeedData(enum.Enum):
    """Returned by ``next_event()`` when no complete message is buffered."""

    NEED_DATA = "NEED_DATA"


NEED_DATA = NeedData.NEED_DATA

PING_CHANGED_CONTEXT = 1006
"""``GameEventContext`` extension number of ``Context_PingChanged``."""


@dataclass(frozen=True, slots=True)
class ServerIdentified:
    """``Event_ServerIdentification`` with the right protocol version: the connection may log in now."""

    server_name: str
    server_version: str
    protocol_version: int
    supports_password_hash: bool


@dataclass(frozen=True, slots=True)
class LoginSucceeded:
    """``Command_Login`` answered ``RespOk``.  ``user_name`` is our *real* name (the server may rename us)."""

    cmd_id: int
    user_name: str
    user_info: common_pb2.ServerInfo_User
    response: responses_pb2.Response_Login


@dataclass(frozen=True, slots=True)
class LoginFailed:
    """Login (or the salt request before it) was refused.  The connection is back in ``IDENTIFIED``."""

    cmd_id: int
    code: ResponseCode | int
    denied_reason: str = ""
    denied_end_time: int = 0
    missing_features: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ResponseReceived:
    """The answer to one of our commands.

    ``cmd_id`` is the id :meth:`ClientConnection.send` returned (``-1`` for a container sent without one);
    ``payload`` is the typed extension (``pb.Response_JoinRoom`` ...) when the server attached one.
    """

    cmd_id: int
    code: ResponseCode | int
    payload: Message | None
    response: responses_pb2.Response = field(repr=False)

    @property
    def ok(self) -> bool:
        """True when the command succeeded (``RespOk``)."""
        return self.code == ResponseCode.RespOk


@dataclass(frozen=True, slots=True)
class SessionEventReceived:
    """A session event other than identification/goodbye, e.g. ``pb.Event_GameJoined``."""

    event_type: int
    message: Message


@dataclass(frozen=True, slots=True)
class RoomEventReceived:
    """A room event such as ``pb.Event_RoomSay`` or ``pb.Event_ListGames`` in room ``room_id``."""

    room_id: int
    event_type: int
    message: Message


@dataclass(frozen=True, slots=True)
class GameEventItem:
    """One event of a game batch.  ``player_id`` is the acting seat (``-1`` for the game itself)."""

    player_id: int
    event_type: int
    message: Message


@dataclass(frozen=True, slots=True)
class GameEventsReceived:
    """A ``GameEventContainer``: events of game ``game_id`` that happened together.

    ``context`` is the typed context (``pb.Context_PingChanged`` ...) or ``None``; ``forced_by_judge`` is the
    judge's player id when a judge caused these events.  Unknown event kinds are dropped (and logged).
    """

    game_id: int
    events: tuple[GameEventItem, ...]
    context_type: int | None = None
    context: Message | None = None
    seconds_elapsed: int | None = None
    forced_by_judge: int | None = None

    @property
    def is_ping_update(self) -> bool:
        """True for the once-a-second ``Context_PingChanged`` batches that bots usually ignore."""
        return self.context_type == PING_CHANGED_CONTEXT


@dataclass(frozen=True, slots=True)
class ConnectionClosed:
    """The session is over: the server said goodbye (``reason`` set) or the byte stream ended."""

    reason: CloseReason | int | None = None
    reason_str: str = ""
    end_time: int | None = None


Event = (
    ServerIdentified
    | LoginSucceeded
    | LoginFailed
    | ResponseReceived
    | SessionEventReceived
    | RoomEventReceived
    | GameEventsReceived
    | ConnectionClosed
)
"""Anything :meth:`ClientConnection.next_event` can return besides :data:`NEED_DATA`."""
