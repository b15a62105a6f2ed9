"""Room ids that stay put for the user of a :class:`~.client.Client` while the server renumbers its rooms.

A restarted Servatrice numbers its rooms afresh from its configuration: an administrator who added a room
before "Bot room", or reordered the list, gives "Bot room" another number. Everything above the client keys
state by room id (games, referees, chat queues, leases, journals), so the client keeps one bijection,
:class:`RoomIds`, between the ids it hands its user (*stable* ids) and the server's numbers, and translates
at the wire: every room id arriving (``RoomEvent.room_id``, ``ServerInfo_Room.room_id``,
``ServerInfo_Game.room_id`` wherever they are nested) server -> stable, every room id leaving (the
container's ``room_id``, ``Command_JoinRoom.room_id``) stable -> server.

The id a room had when this client first joined it stays its id; a room never joined keeps its own number
unless a joined room's stable id holds it, then the numbers freed and taken are paired (a swap maps both
ways). Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

_INTEGER_TYPES = frozenset(
    {
        FieldDescriptor.CPPTYPE_INT32,
        FieldDescriptor.CPPTYPE_INT64,
        FieldDescriptor.CPPTYPE_UINT32,
        FieldDescriptor.CPPTYPE_UINT64,
    }
)


class RoomIds:
    """A bijection between stable room ids (the client's user's) and the server's room numbers.

    Only the pairs that differ are stored; every other id maps to itself. :meth:`renumber` is the one way
    to change it, and keeps it a bijection.
    """

    def __init__(self) -> None:
        self._to_server: dict[int, int] = {}
        self._to_stable: dict[int, int] = {}

    @property
    def identity(self) -> bool:
        """Whether every id maps to itself (no translation needed: the common case, skipped cheaply)."""
        return not self._to_server

    def to_server(self, room_id: int) -> int:
        """The server's number for the stable id ``room_id``."""
        return self._to_server.get(room_id, room_id)

    def to_stable(self, room_id: int) -> int:
        """The stable id for the server's number ``room_id``."""
        return self._to_stable.get(room_id, room_id)

    def copy(self) -> RoomIds:
        """An independent mapping equal to this one (what held before a :meth:`renumber`)."""
        copied = RoomIds()
        copied._to_server, copied._to_stable = dict(self._to_server), dict(self._to_stable)
        return copied

    def moved(self) -> dict[int, int]:
        """The stable ids whose server number differs, with that number (a copy)."""
        return dict(self._to_server)

    def renumber(self, pins: Mapping[int, int]) -> None:
        """Map each stable id in ``pins`` to its server number, the rooms the user knows by id (their
        numbers on the server now); forget the earlier mapping.

        Every other id maps to itself, except where that collides: a number a pinned stable id holds but
        whose room now has another number is paired, in ascending order, with a pinned room's new number
        that is no pinned stable id (one room moving up one: its old number names the room now in its
        place for the user, so both ways of a swap hold).

        Raises:
            ValueError: two stable ids pinned to one server number (no bijection could keep both).
        """
        if len(set(pins.values())) != len(pins):
            raise ValueError(f"two rooms pinned to one server number: {dict(pins)}")
        to_server = {stable: server for stable, server in pins.items() if stable != server}
        stable_ids, server_ids = set(pins), set(pins.values())
        free_stable = sorted(server_ids - stable_ids)  # stable ids whose own number a pinned room took
        free_server = sorted(stable_ids - server_ids)  # numbers a pinned stable id held, not taken again
        to_server.update(zip(free_stable, free_server, strict=True))
        self._to_server = to_server
        self._to_stable = {server: stable for stable, server in to_server.items()}

    def translate_in(self, message: Message) -> None:
        """Rewrite, in place, every room id in an incoming ``message`` as the stable id."""
        if self._to_stable:
            translate_room_ids(message, self.to_stable)

    def translated_out(self, message: Message) -> Message:
        """``message`` (an outgoing command) with its room ids as the server's numbers: a copy when any
        changes, else ``message`` itself (a command sent again is translated again from the same ids)."""
        if not self._to_server or not _holds_room_id(message):
            return message
        copy = type(message)()
        copy.CopyFrom(message)
        translate_room_ids(copy, self.to_server)
        return copy


_MAY_CARRY: dict[str, bool] = {}


def _may_carry(descriptor: Descriptor) -> bool:
    """Whether messages of this type can hold a ``room_id`` (a field of theirs or of a nested message;
    an extendable one may hold it in an extension). Cached by type."""
    name = descriptor.full_name
    known = _MAY_CARRY.get(name)
    if known is not None:
        return known
    _MAY_CARRY[name] = False  # while looking: a type nested in itself adds nothing
    carries = descriptor.is_extendable or any(
        field.name == "room_id"
        or (field.type == FieldDescriptor.TYPE_MESSAGE and _may_carry(field.message_type))
        for field in descriptor.fields
    )
    _MAY_CARRY[name] = carries
    return carries


def _holds_room_id(message: Message) -> bool:
    """Whether ``message`` has a room id set anywhere (fields and extensions)."""
    if not _may_carry(message.DESCRIPTOR):
        return False
    for field, value in message.ListFields():
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            items = value if field.is_repeated else (value,)
            if _may_carry(field.message_type) and any(_holds_room_id(item) for item in items):
                return True
        elif field.name == "room_id" and field.cpp_type in _INTEGER_TYPES:
            return True
    return False


def translate_room_ids(message: Message, mapping: Callable[[int], int]) -> None:
    """Apply ``mapping`` to every integer ``room_id`` set in ``message`` and the messages in it, in place."""
    if not _may_carry(message.DESCRIPTOR):
        return
    for field, value in message.ListFields():
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if not _may_carry(field.message_type):
                continue
            for item in value if field.is_repeated else (value,):
                translate_room_ids(item, mapping)
        elif field.name == "room_id" and field.cpp_type in _INTEGER_TYPES:
            if field.is_repeated:
                value[:] = [mapping(int(item)) for item in value]
            elif field.is_extension:
                message.Extensions[field] = mapping(int(value))
            else:
                setattr(message, field.name, mapping(int(value)))
