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
from typing import TYPE_CHECKING, Literal

from google.protobuf.message import Message

if TYPE_CHECKING:
    from .errors import ClientError

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
    ``USERNAMEINVALID``), or why the client stopped reconnecting for good (:data:`LOGIN_REFUSED`,
    :data:`ROOM_GONE`, :data:`ROOM_REFUSED`): no reconnect can undo it. Empty otherwise."""
    until: str = ""
    """When a timed ban ends (``YYYY-MM-DD HH:MM UTC``: the goodbye's end time, or a refused login's), ""
    when the server named no end."""
    error: ClientError | None = field(default=None, compare=False)
    """For the client's own final stops, the error that is final, the same as at a first login: the
    :class:`~.errors.LoginFailed` (:data:`LOGIN_REFUSED`), :class:`~.errors.RoomNotFound`
    (:data:`ROOM_GONE`) or :class:`~.errors.RoomRefused` (:data:`ROOM_REFUSED`); its ``str`` is the
    operator's sentence. None otherwise."""


LOGIN_REFUSED = "LOGIN_REFUSED"
"""``Disconnected.final``: after a drop the server refused the login for a reason retrying cannot change
(a wrong password, an account not active, a ban: :attr:`~.errors.LoginFailed.final`)."""
ROOM_GONE = "ROOM_GONE"
"""``Disconnected.final``: back after a drop, a room we were in is no longer on the server (by name)."""
ROOM_REFUSED = "ROOM_REFUSED"
"""``Disconnected.final``: back after a drop, a room we were in no longer admits this account."""


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
    renumbered: tuple[tuple[int, int], ...] = ()
    """For information (logs): ``(old number, new number)`` on the server of each room rejoined under another
    number. Rooms are rejoined by the name they had (a restarted server numbers its rooms afresh, and an
    administrator may have added one before ours), and the client keeps handing out the id each room had
    when it was first joined (``rooms`` holds those ids): nothing kept by room id needs moving."""


AnyClientEvent = ClientEvent | Disconnected | Reconnected
