"""Every generated message class in one flat namespace, plus extension lookup helpers.

Import this as ``from cockatrice_ext.protocol import messages as pb`` and write ``pb.Command_Login``,
``pb.Event_GameJoined`` and so on.  Concrete commands/events/responses are proto2 *extensions* of a domain
message (``SessionCommand``, ``GameEvent``, ``Response``...): read them with ``msg.Extensions[pb.X.ext]``, or
use :func:`payload_of` to find whichever one is set.
"""

from __future__ import annotations

import logging
from types import ModuleType

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from .pb import (
    commands_pb2,
    common_pb2,
    game_commands_pb2,
    game_events_pb2,
    responses_pb2,
    room_commands_pb2,
    room_events_pb2,
    server_message_pb2,
    session_commands_pb2,
    session_events_pb2,
)

LOGGER = logging.getLogger(__name__)

_MODULES: tuple[ModuleType, ...] = (
    common_pb2,
    commands_pb2,
    session_commands_pb2,
    room_commands_pb2,
    game_commands_pb2,
    responses_pb2,
    session_events_pb2,
    room_events_pb2,
    game_events_pb2,
    server_message_pb2,
)

# Re-export every top-level message class and enum (names are unique across our .proto files).
_exported: dict[str, object] = {}
for _module in _MODULES:
    for _name in _module.DESCRIPTOR.message_types_by_name:
        _exported[_name] = getattr(_module, _name)
    for _name in _module.DESCRIPTOR.enum_types_by_name:
        _exported[_name] = getattr(_module, _name)
globals().update(_exported)

# extension container full name -> {field number: the concrete message class}
_EXTENSIONS: dict[str, dict[int, type[Message]]] = {}
for _module in _MODULES:
    for _name, _descriptor in _module.DESCRIPTOR.message_types_by_name.items():
        for _ext in _descriptor.extensions:
            _EXTENSIONS.setdefault(_ext.containing_type.full_name, {})[_ext.number] = getattr(_module, _name)

__all__ = sorted([*_exported, "extension_class", "extension_numbers", "payload_of"])


def extension_class(container: type[Message] | Message, number: int) -> type[Message] | None:
    """The concrete message class registered as extension ``number`` of ``container``, if we know it."""
    return _EXTENSIONS.get(container.DESCRIPTOR.full_name, {}).get(number)


def extension_numbers(container: type[Message] | Message) -> dict[int, type[Message]]:
    """All known extensions of ``container`` (a copy), keyed by extension number."""
    return dict(_EXTENSIONS.get(container.DESCRIPTOR.full_name, {}))


def payload_of(message: Message) -> tuple[int, Message] | None:
    """Return ``(extension number, value)`` of the first extension set on ``message``, or ``None``.

    Extensions this build does not know stay in the message's unknown fields (proto2 keeps them), so they
    simply yield ``None`` here: callers log and skip them.
    """
    for field, value in message.ListFields():
        if field.is_extension and field.type == FieldDescriptor.TYPE_MESSAGE:
            return field.number, value
    return None
