"""What the client hands to listeners: one flat envelope per server event, plus client lifecycle events.

The protocol layer yields one ``GameEventsReceived`` per container; the client flattens it into one
:class:`ClientEvent` per game event (carrying the container's context and judge flag) and marks what a
bot usually wants to ignore:

* ``is_own``: our own echo (our ``Event_RoomSay`` / ``Event_GameSay`` / ``Event_UserMessage``, or a game
  event whose acting player is our seat);
* ``is_replay``: room chat history and the welcome message replayed when we join a room.

Ping-changed noise (``Context_PingChanged``, every second in every game) is not delivered unless the
client was created with ``include_noise=True`` (the game mirror still folds it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from google.protobuf.message import Message

EventKind = Literal["session", "room", "game"]


@dataclass(frozen=True, slots=True)
class ClientEvent:
    """One server event (session, room or game) with its addressing and filter flags."""

    kind: EventKind
    message: Message
    """The concrete protobuf event, e.g. ``pb.Event_RoomSay``; dispatch with ``isinstance`` or ``name``."""
    room_id: int | None = None
    game_id: int | None = None
    player_id: int = -1
    """Acting seat for game events (-1: the game itself); -1 otherwise."""
    context: Message | None = field(default=None, repr=False)
    forced_by_judge: int | None = None
    is_own: bool = False
    is_replay: bool = False

    @property
    def name(self) -> str:
        """The protobuf message name, e.g. ``"Event_GameSay"``."""
        return str(self.message.DESCRIPTOR.name)

    @property
    def context_name(self) -> str | None:
        return None if self.context is None else str(self.context.DESCRIPTOR.name)


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The connection dropped (``will_reconnect`` tells whether the client is trying again)."""

    reason: str
    will_reconnect: bool
    final: str = ""
    """The close reason's name when the server ended the session for good (``LOGGEDINELSEWERE``, ``BANNED``,
    ``USERNAMEINVALID``): no reconnect can undo it. Empty otherwise."""


@dataclass(frozen=True, slots=True)
class Reconnected:
    """We are back, logged in again; rooms and games were rejoined where possible."""

    attempt: int
    user_name: str
    rooms: tuple[int, ...]
    games: tuple[int, ...]
    lost_games: tuple[int, ...]
    """Games we could not rejoin (closed, the seat was lost, or a restarted server gave their number to
    another game); their mirrors were dropped, unless we sit in a new game of that number already."""


AnyClientEvent = ClientEvent | Disconnected | Reconnected
