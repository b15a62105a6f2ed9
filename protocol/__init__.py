"""Cockatrice wire protocol (protocol version 14), sans-I/O.

Public surface (import from ``cockatrice_ext.protocol``)::

    conn = ClientConnection(transport="tcp")     # or "ws"; max_frame_size=4 MiB by default
    write(conn.data_to_send())                   # TCP: the 4-zero-byte hello
    conn.receive_data(chunk)  /  conn.receive_eof()
    event = conn.next_event()                    # -> Event | NEED_DATA
      ServerIdentified -> conn.login(name, password)  (salted hash handled internally)
      LoginSucceeded / LoginFailed
      ResponseReceived(cmd_id, code, payload, response)
      SessionEventReceived(event_type, message)  # e.g. messages.Event_GameJoined
      RoomEventReceived(room_id, event_type, message)
      GameEventsReceived(game_id, events=(GameEventItem(player_id, event_type, message), ...), context, ...)
      ConnectionClosed(reason, reason_str, end_time)
    cmd_id = conn.send(commands.game_say("hi"), game_id=7)   # queued; write conn.data_to_send()

- ``commands``: one builder per command we speak (``ping``, ``login``, ``join_room``, ``room_say``,
  ``create_game``, ``move_card``, ``judge``, ...), each returning a domain wrapper message.
- ``messages``: every generated protobuf class (``messages.Event_RoomSay``...) and ``payload_of``.
- ``codes``: ``ResponseCode`` (IntEnum), ``ServerOptions``, ``UserLevel``, ``CloseReason``, ``Phase``,
``Zone``...
- ``framing``: ``TcpFrameDecoder``, ``encode_tcp_frame``, ``TCP_HELLO`` (used by ``ClientConnection``).
- ``hashing.hash_password(password, salt)``: Servatrice's salted SHA-512^1000.
- ``serverside``: the server's half (build ``ServerMessage`` frames, parse ``CommandContainer``s) for fake
  servers in tests and for benchmarks.
- Errors: ``ProtocolError`` <- ``LocalProtocolError`` (our misuse) / ``RemoteProtocolError`` (bad server
  bytes; the connection is then in state ``ERROR``).
"""

from __future__ import annotations

from . import commands, messages, serverside
from .codes import (
    PROTOCOL_VERSION,
    CardAttribute,
    CloseReason,
    LeaveReason,
    NotificationType,
    Phase,
    ResponseCode,
    RoomMessageType,
    ServerOptions,
    UserLevel,
    Zone,
    response_code,
)
from .connection import ClientConnection, SessionState, Transport
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
from .framing import DEFAULT_MAX_FRAME_SIZE, TCP_HELLO, TcpFrameDecoder, encode_tcp_frame
from .hashing import hash_password

__all__ = [
    "DEFAULT_MAX_FRAME_SIZE",
    "NEED_DATA",
    "PROTOCOL_VERSION",
    "TCP_HELLO",
    "CardAttribute",
    "ClientConnection",
    "CloseReason",
    "ConnectionClosed",
    "Event",
    "GameEventItem",
    "GameEventsReceived",
    "LeaveReason",
    "LocalProtocolError",
    "LoginFailed",
    "LoginSucceeded",
    "NeedData",
    "NotificationType",
    "Phase",
    "ProtocolError",
    "RemoteProtocolError",
    "ResponseCode",
    "ResponseReceived",
    "RoomEventReceived",
    "RoomMessageType",
    "ServerIdentified",
    "ServerOptions",
    "SessionEventReceived",
    "SessionState",
    "TcpFrameDecoder",
    "Transport",
    "UserLevel",
    "Zone",
    "commands",
    "encode_tcp_frame",
    "hash_password",
    "messages",
    "response_code",
    "serverside",
]
