"""Client errors.

``ClientError`` is the base of everything the client raises on purpose:

* ``ConnectionLost``: the connection dropped (pending commands fail with it), or was never made:
  ``WebSocketRefused`` when the address answers HTTP but not as Servatrice's WebSocket, ``SessionRefused``
  when the server said goodbye before the login (too many connections from the address, a full server),
  naming the user whose session it refused;
* ``CommandTimeout``: no response within the timeout;
* ``CommandFailed(code, response)``: the server answered with a code other than ``RespOk``; common
  codes have their own subclasses (``ChatFlood``, ``ContextError``, ``GameFull``...), chosen by
  :func:`command_failed`;
* ``LoginFailed``: the server refused the login (``code``, ``reason``, ``denied_end_time``, ``until``), said
  as a sentence (``wrong password for ann``); ``final`` when trying again cannot change it;
* ``ServerError``: identification failed (e.g. a protocol-version mismatch);
* ``RoomNotFound``: no room by that name or id (also a ``KeyError``); it names the rooms there are;
* ``RoomRefused``: the server would not let this account into a room (``RespUserLevelTooLow`` on
  ``Command_JoinRoom``), said as a sentence naming the room and whom it admits.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from cockatrice_ext.protocol.codes import ResponseCode


def response_code_name(code: int) -> str:
    """``RespOk`` for 1, ``RespCode99`` for codes protocol 14 does not name."""
    try:
        return ResponseCode(code).name
    except ValueError:
        return f"RespCode{code}"


class ClientError(Exception):
    """Base class of the client's errors."""


class ConnectionLost(ClientError):
    """The connection to the server is gone (or was never there).

    The client never sends a container again on a new connection: what was waiting, or was sent and not
    answered, when the connection dropped fails with this error, and the caller decides. ``sent`` tells the
    two apart: true when the container had been written to the connection that dropped (the server may
    have run it, so sending it again could run it twice), false when it never left."""

    sent: bool = False


class WebSocketRefused(ConnectionLost):
    """The address answered the WebSocket handshake as a web server does, not as Servatrice (``status``:
    the HTTP status, when there was a readable one). A failed connection attempt like any other."""

    def __init__(self, message: str, status: int | None = None) -> None:
        self.status = status
        super().__init__(message)


class SessionRefused(ConnectionLost):
    """The server closed the connection before our login (``Event_ConnectionClosed`` during the handshake):
    ``user`` is the account whose session it refused, ``close_reason`` the reason's name
    (``TOO_MANY_CONNECTIONS``, ``USER_LIMIT_REACHED``...), so a caller holding several sessions knows which
    one, and why."""

    def __init__(self, message: str, *, user: str, close_reason: str) -> None:
        self.user = user
        self.close_reason = close_reason
        super().__init__(message)


class CommandTimeout(ClientError, TimeoutError):
    """The server did not answer a command in time."""


class ServerError(ClientError):
    """The server misbehaved during the handshake (wrong protocol version, garbage...)."""


class LoginFailed(ClientError):
    """The server refused our login; the message says why in a sentence (:func:`login_refusal`)."""

    def __init__(
        self,
        code: int,
        reason: str = "",
        denied_end_time: int = 0,
        *,
        user: str = "",
        password_given: bool = True,
        missing_features: Sequence[str] = (),
    ) -> None:
        self.code = code
        self.reason = reason
        self.denied_end_time = denied_end_time
        self.user = user
        self.password_given = password_given
        self.missing_features = tuple(missing_features)
        super().__init__(login_refusal(self))

    @property
    def password_missing(self) -> bool:
        """Whether the server wants a password and none was given."""
        return self.code == ResponseCode.RespWrongPassword and not self.password_given

    @property
    def until(self) -> str:
        """When a timed ban ends (``YYYY-MM-DD HH:MM UTC``), "" when the refusal names no end."""
        if response_code_name(self.code) != "RespUserIsBanned":
            return ""
        return utc_minute(self.denied_end_time)

    @property
    def final(self) -> bool:
        """Whether logging in again cannot change the answer (a wrong password, an account not active,
        a ban, a refused name...) until someone changes the account or the server's settings: a client
        reconnecting stops on it instead of trying every few seconds. A full server, too many logins from
        the address or an internal error may pass."""
        return response_code_name(self.code) in FINAL_LOGIN_REFUSALS


FINAL_LOGIN_REFUSALS = frozenset(
    {
        "RespWrongPassword",
        "RespAccountNotActivated",
        "RespUserIsBanned",
        "RespUsernameInvalid",
        "RespRegistrationRequired",
        "RespPasswordChangeRequired",
        "RespClientUpdateRequired",
        "RespClientIdRequired",
    }
)
"""The login refusals retrying cannot undo (see :attr:`LoginFailed.final`)."""


def utc_minute(end_time: int | None) -> str:
    """A server's end time (seconds since the epoch) as ``YYYY-MM-DD HH:MM UTC``; "" for none (0 or None)."""
    if not end_time or end_time <= 0:
        return ""
    try:
        moment = datetime.datetime.fromtimestamp(end_time, datetime.UTC)
    except (OverflowError, OSError, ValueError):
        return ""
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def login_refusal(error: LoginFailed) -> str:
    """The sentence for a login refusal (the code's name only for codes a login rarely meets)."""
    user = error.user or "this account"
    detail = f": {error.reason}" if error.reason else ""
    name = response_code_name(error.code)
    if name == "RespWrongPassword":
        return f"wrong password for {user}" if error.password_given else "the server needs a password"
    if name == "RespUserIsBanned":
        until = f" until {error.until}" if error.until else ""
        return f"{user} is banned from this server{until}{detail}"
    if name == "RespUsernameInvalid":
        rules = f" (its rules: {error.reason})" if error.reason else ""
        return f"the server does not accept the user name {error.user!r}{rules}"
    if name == "RespClientUpdateRequired":
        missing = f" (missing: {', '.join(error.missing_features)})" if error.missing_features else ""
        return f"the server wants a newer client{missing}{detail}"
    sentence = _LOGIN_SENTENCES.get(name)
    if sentence is None:
        return f"login refused with {name}{detail}"
    return sentence.format(user=user) + detail


_LOGIN_SENTENCES = {
    "RespRegistrationRequired": "only registered accounts log in here: register {user} first",
    "RespAccountNotActivated": (
        "the account {user} is not active (not activated yet, or deactivated by the server's staff)"
    ),
    "RespPasswordChangeRequired": "the server wants {user} to change its password first",
    "RespWouldOverwriteOldSession": "{user} is logged in elsewhere and the server keeps that session",
    "RespClientIdRequired": "the server wants a client id",
    "RespServerFull": "the server is full; try again later",
    "RespAccessDenied": "the server denied {user} access",
    "RespTooManyRequests": "too many logins from this address; wait a little and try again",
}


class NameInUse(ClientError):
    """The server logged us in as ``NAME_1`` (or ``_2``...) because ``NAME`` is in use: an unregistered
    login never displaces a session, and that session may be our own old one, which the server drops
    once it has heard nothing from it for a while (``max_player_inactivity_time``)."""

    def __init__(self, requested: str, given: str) -> None:
        self.requested = requested
        self.given = given
        super().__init__(f"the name {requested!r} is in use on the server (it offered {given!r})")


class RoomNotFound(ClientError, KeyError):
    """No room by that name or id; ``rooms`` are the server's rooms as ``(id, name)``."""

    def __init__(self, name: str, rooms: Sequence[tuple[int, str]]) -> None:
        self.name = name
        self.rooms = tuple(rooms)
        there = ", ".join(f"{room} ({room_id})" for room_id, room in self.rooms)
        self.message = f"no room called {name!r}; " + (
            f"rooms here: {there}" if there else "the server has no rooms"
        )
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


class CommandFailed(ClientError):
    """The server answered a command with a code other than RespOk."""

    def __init__(self, code: int, response: Any = None, *, command: str = "") -> None:
        self.code = code
        self.response = response
        self.command = command
        what = f"{command} " if command else ""
        super().__init__(f"{what}failed with {response_code_name(code)} ({code})")

    @property
    def code_name(self) -> str:
        return response_code_name(self.code)


class NotInRoom(CommandFailed):
    """RespNotInRoom: not in that room or game."""


class InvalidCommand(CommandFailed):
    """RespInvalidCommand / RespInvalidData."""


class NameNotFound(CommandFailed):
    """RespNameNotFound: no such user (private message, ...)."""


class LoginNeeded(CommandFailed):
    """RespLoginNeeded."""


class FunctionNotAllowed(CommandFailed):
    """RespFunctionNotAllowed."""


class GameNotStarted(CommandFailed):
    """RespGameNotStarted."""


class GameFull(CommandFailed):
    """RespGameFull."""


class ContextError(CommandFailed):
    """RespContextError: not allowed in the current game context (e.g. moving into another's hand)."""


class WrongPassword(CommandFailed):
    """RespWrongPassword."""


class SpectatorsNotAllowed(CommandFailed):
    """RespSpectatorsNotAllowed."""


class UserLevelTooLow(CommandFailed):
    """RespUserLevelTooLow (e.g. joining as judge without the judge level)."""


class RoomRefused(UserLevelTooLow):
    """The server refused to let us into a room (``RespUserLevelTooLow`` on ``Command_JoinRoom``); the
    message says in a sentence whom the room admits (:func:`room_refusal`), from the room's
    ``permissionlevel`` and ``privilegelevel`` as the room list gave them and this account's level."""

    def __init__(
        self,
        code: int,
        response: Any = None,
        *,
        command: str = "",
        room_id: int,
        room: str = "",
        permission_level: str = "",
        privilege_level: str = "",
        user: str = "",
        registered: bool = False,
        privilege: str = "",
    ) -> None:
        super().__init__(code, response, command=command)
        self.room_id = room_id
        self.room = room
        self.permission_level = permission_level
        self.privilege_level = privilege_level
        self.user = user
        self.registered = registered
        self.privilege = privilege
        self.message = room_refusal(self)

    def __str__(self) -> str:
        return self.message


_LEAVE_IT_OUT = "log in with {such} (--user/--password) or leave it out"


def room_refusal(error: RoomRefused) -> str:
    """The sentence for a room the server would not let us join. Servatrice lets a moderator in anywhere;
    anyone else needs the room's ``permissionlevel`` (none, registered; administrator and moderator admit
    moderators only) and, unless its ``privilegelevel`` is none (or privileged, which 2.x lets everyone
    pass), exactly that privilege level (vip, donator...)."""
    room = f"room {error.room!r}" if error.room else f"room {error.room_id}"
    user = error.user or "this account"
    permission = error.permission_level.strip().lower()
    privilege = error.privilege_level.strip().lower()
    own = error.privilege.strip().lower()
    if permission in ("administrator", "moderator"):
        return f"{room} admits only moderators: " + _LEAVE_IT_OUT.format(such="a moderator's account")
    if permission == "registered" and not error.registered:
        return f"{room} admits only registered accounts: " + _LEAVE_IT_OUT.format(such="a registered account")
    has = f"{user} has {error.privilege!r}" if own and own != "none" else f"{user} has none"
    if privilege == "privileged" and own in ("", "none"):
        return f"{room} admits only accounts with a privilege level ({has}): " + _LEAVE_IT_OUT.format(
            such="such an account"
        )
    if privilege not in ("", "none", "privileged") and privilege != own:
        return (
            f"{room} admits only accounts with the privilege level {error.privilege_level!r} ({has}): "
            + _LEAVE_IT_OUT.format(such="such an account")
        )
    return f"the server does not let {user} into {room} ({response_code_name(error.code)}): " + (
        _LEAVE_IT_OUT.format(such="another account")
    )


class InIgnoreList(CommandFailed):
    """RespInIgnoreList."""


class ChatFlood(CommandFailed):
    """RespChatFlood: the server's flood protection refused the command."""


_BY_CODE: dict[int, type[CommandFailed]] = {
    2: NotInRoom,
    4: InvalidCommand,
    5: InvalidCommand,
    6: NameNotFound,
    7: LoginNeeded,
    8: FunctionNotAllowed,
    9: GameNotStarted,
    10: GameFull,
    11: ContextError,
    12: WrongPassword,
    13: SpectatorsNotAllowed,
    15: UserLevelTooLow,
    16: InIgnoreList,
    18: ChatFlood,
}


def command_failed(code: int, response: Any = None, *, command: str = "") -> CommandFailed:
    """The most specific :class:`CommandFailed` for ``code``."""
    return _BY_CODE.get(code, CommandFailed)(code, response, command=command)
