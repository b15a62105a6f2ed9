"""Client errors.

``ClientError`` is the base of everything the client raises on purpose:

* ``ConnectionLost``: the connection dropped (pending commands fail with it);
* ``CommandTimeout``: no response within the timeout;
* ``CommandFailed(code, response)``: the server answered with a code other than ``RespOk``; common
  codes have their own subclasses (``ChatFlood``, ``ContextError``, ``GameFull``...), chosen by
  :func:`command_failed`;
* ``LoginFailed``: the server refused the login (``code``, ``reason``, ``denied_end_time``);
* ``ServerError``: identification failed (e.g. a protocol-version mismatch).
"""

from __future__ import annotations

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
    """The connection to the server is gone (or was never there)."""


class CommandTimeout(ClientError, TimeoutError):
    """The server did not answer a command in time."""


class ServerError(ClientError):
    """The server misbehaved during the handshake (wrong protocol version, garbage...)."""


class LoginFailed(ClientError):
    """The server refused our login."""

    def __init__(self, code: int, reason: str = "", denied_end_time: int = 0) -> None:
        self.code = code
        self.reason = reason
        self.denied_end_time = denied_end_time
        detail = f": {reason}" if reason else ""
        super().__init__(f"login refused with {response_code_name(code)}{detail}")


class NameInUse(ClientError):
    """The server logged us in as ``NAME_1`` (or ``_2``...) because ``NAME`` is in use: an unregistered
    login never displaces a session, and that session may be our own old one, which the server drops
    once it has heard nothing from it for a while (``max_player_inactivity_time``)."""

    def __init__(self, requested: str, given: str) -> None:
        self.requested = requested
        self.given = given
        super().__init__(f"the name {requested!r} is in use on the server (it offered {given!r})")


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
