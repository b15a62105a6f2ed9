"""The server's half of the wire format: build ``ServerMessage`` frames and read client ``CommandContainer``s.

We never run a server, but tests, fake servers (for the asyncio client's tests) and the decode benchmark
need to produce exactly what Servatrice would send.  Everything here is pure and deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.message import DecodeError, Message

from .codes import PROTOCOL_VERSION, ResponseCode, ServerOptions
from .errors import RemoteProtocolError
from .framing import DEFAULT_MAX_FRAME_SIZE, encode_tcp_frame
from .messages import payload_of
from .pb.commands_pb2 import CommandContainer
from .pb.game_events_pb2 import GameEvent, GameEventContainer, GameEventContext
from .pb.server_message_pb2 import ServerMessage
from .pb.session_events_pb2 import Event_ServerIdentification

__all__ = [
    "TCP_PREAMBLE",
    "command_payloads",
    "encode_server_message",
    "game_event",
    "game_events_message",
    "identification_message",
    "parse_command_container",
    "response_message",
    "room_event_message",
    "session_event_message",
]

TCP_PREAMBLE = b'<?xml version="1.0"?><cockatrice_server_stream version="14">'
"""What a v14 server writes, unframed, right after a TCP connect (60 bytes)."""


def _set_extension(target: Message, payload: Message) -> None:
    """Copy ``payload`` into ``target.Extensions[type(payload).ext]``."""
    target.Extensions[type(payload).ext].CopyFrom(payload)  # type: ignore[attr-defined]


def encode_server_message(message: ServerMessage, *, transport: str = "tcp") -> bytes:
    """Serialise ``message``; for TCP also add the 4-byte length prefix."""
    payload = message.SerializeToString()
    if transport == "tcp":
        return encode_tcp_frame(payload, max_frame_size=max(len(payload), DEFAULT_MAX_FRAME_SIZE))
    return payload


def response_message(
    cmd_id: int, code: ResponseCode | int = ResponseCode.RespOk, payload: Message | None = None
) -> ServerMessage:
    """A RESPONSE answering ``cmd_id`` (``-1`` = the server's "no cmd_id"), with an optional extension."""
    message = ServerMessage(message_type=ServerMessage.RESPONSE)
    message.response.cmd_id = cmd_id if cmd_id >= 0 else (1 << 64) - 1
    message.response.response_code = int(code)  # type: ignore[assignment]
    if payload is not None:
        _set_extension(message.response, payload)
    return message


def session_event_message(payload: Message) -> ServerMessage:
    """A SESSION_EVENT message carrying ``payload`` (e.g. ``Event_ServerMessage(message=...)``)."""
    message = ServerMessage(message_type=ServerMessage.SESSION_EVENT)
    message.session_event.SetInParent()
    _set_extension(message.session_event, payload)
    return message


def identification_message(
    *,
    server_name: str = "Test server",
    server_version: str = "test",
    protocol_version: int = PROTOCOL_VERSION,
    supports_password_hash: bool = False,
) -> ServerMessage:
    """The ``Event_ServerIdentification`` a server sends first."""
    options = ServerOptions.SupportsPasswordHash if supports_password_hash else ServerOptions.NoOptions
    return session_event_message(
        Event_ServerIdentification(
            server_name=server_name,
            server_version=server_version,
            protocol_version=protocol_version,
            server_options=int(options),  # type: ignore[arg-type]
        )
    )


def room_event_message(room_id: int, payload: Message) -> ServerMessage:
    """A ROOM_EVENT message for room ``room_id``."""
    message = ServerMessage(message_type=ServerMessage.ROOM_EVENT)
    message.room_event.room_id = room_id
    _set_extension(message.room_event, payload)
    return message


def game_event(player_id: int, payload: Message) -> GameEvent:
    """One ``GameEvent`` by seat ``player_id`` (``-1`` = the game itself)."""
    event = GameEvent(player_id=player_id)
    _set_extension(event, payload)
    return event


def game_events_message(
    game_id: int,
    events: Iterable[GameEvent],
    *,
    context: Message | None = None,
    seconds_elapsed: int | None = None,
    forced_by_judge: int | None = None,
) -> ServerMessage:
    """A GAME_EVENT_CONTAINER message; ``context`` is a concrete ``Context_*`` message or ``None``."""
    container = GameEventContainer(game_id=game_id)
    container.event_list.extend(events)
    if context is not None:
        context_wrapper = GameEventContext()
        _set_extension(context_wrapper, context)
        container.context.CopyFrom(context_wrapper)
    if seconds_elapsed is not None:
        container.seconds_elapsed = seconds_elapsed
    if forced_by_judge is not None:
        container.forced_by_judge = forced_by_judge
    message = ServerMessage(message_type=ServerMessage.GAME_EVENT_CONTAINER)
    message.game_event_container.CopyFrom(container)
    return message


def parse_command_container(payload: bytes) -> CommandContainer:
    """Parse what a client sent.

    Raises:
        RemoteProtocolError: the bytes are not a ``CommandContainer``.
    """
    container = CommandContainer()
    try:
        container.ParseFromString(payload)
    except (DecodeError, RecursionError, ValueError) as exc:
        raise RemoteProtocolError(f"unparsable CommandContainer: {exc}") from exc
    return container


def command_payloads(container: CommandContainer) -> list[tuple[str, int, Message]]:
    """``(domain, extension number, concrete command)`` for each command in ``container``, in wire order."""
    found: list[tuple[str, int, Message]] = []
    for domain, field in (
        ("session", container.session_command),
        ("room", container.room_command),
        ("game", container.game_command),
    ):
        for wrapper in field:
            item = payload_of(wrapper)
            if item is not None:
                found.append((domain, item[0], item[1]))
    return found
