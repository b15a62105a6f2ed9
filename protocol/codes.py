"""Named constants of protocol 14 as Python enums (values are the wire contract).

The generated ``pb`` modules already carry these numbers; the enums here give them readable names, stable
``repr``s in logs and a home for small helpers such as :func:`response_code`.
"""

from __future__ import annotations

import enum

__all__ = [
    "PROTOCOL_VERSION",
    "CardAttribute",
    "CloseReason",
    "LeaveReason",
    "NotificationType",
    "Phase",
    "ResponseCode",
    "RoomMessageType",
    "ServerOptions",
    "UserLevel",
    "Zone",
    "response_code",
]

PROTOCOL_VERSION = 14
"""The only protocol version we speak (Servatrice and the desktop client both use 14)."""


class ResponseCode(enum.IntEnum):
    """``Response.response_code``: the outcome of one command."""

    RespNotConnected = -1
    RespNothing = 0
    RespOk = 1
    RespNotInRoom = 2
    RespInternalError = 3
    RespInvalidCommand = 4
    RespInvalidData = 5
    RespNameNotFound = 6
    RespLoginNeeded = 7
    RespFunctionNotAllowed = 8
    RespGameNotStarted = 9
    RespGameFull = 10
    RespContextError = 11
    RespWrongPassword = 12
    RespSpectatorsNotAllowed = 13
    RespOnlyBuddies = 14
    RespUserLevelTooLow = 15
    RespInIgnoreList = 16
    RespWouldOverwriteOldSession = 17
    RespChatFlood = 18
    RespUserIsBanned = 19
    RespAccessDenied = 20
    RespUsernameInvalid = 21
    RespRegistrationRequired = 22
    RespRegistrationAccepted = 23
    RespUserAlreadyExists = 24
    RespEmailRequiredToRegister = 25
    RespTooManyRequests = 26
    RespPasswordTooShort = 27
    RespAccountNotActivated = 28
    RespRegistrationDisabled = 29
    RespRegistrationFailed = 30
    RespActivationAccepted = 31
    RespActivationFailed = 32
    RespRegistrationAcceptedNeedsActivation = 33
    RespClientIdRequired = 34
    RespClientUpdateRequired = 35
    RespServerFull = 36
    RespEmailBlackListed = 37
    RespPasswordChangeRequired = 38

    @property
    def is_ok(self) -> bool:
        """True only for ``RespOk``."""
        return self is ResponseCode.RespOk


def response_code(value: int) -> ResponseCode | int:
    """Map a wire value to :class:`ResponseCode`, keeping unknown (newer-server) values as plain ints."""
    try:
        return ResponseCode(value)
    except ValueError:
        return value


class ServerOptions(enum.IntFlag):
    """``Event_ServerIdentification.server_options`` bits."""

    NoOptions = 0
    SupportsPasswordHash = 1


class UserLevel(enum.IntFlag):
    """``ServerInfo_User.user_level`` bits."""

    IsNothing = 0
    IsUser = 1
    IsRegistered = 2
    IsModerator = 4
    IsAdmin = 8
    IsJudge = 16


class CloseReason(enum.IntEnum):
    """``Event_ConnectionClosed.reason``."""

    OTHER = 1
    SERVER_SHUTDOWN = 2
    TOO_MANY_CONNECTIONS = 3
    BANNED = 4
    USERNAMEINVALID = 5
    USER_LIMIT_REACHED = 6
    DEMOTED = 7
    LOGGEDINELSEWERE = 8


class LeaveReason(enum.IntEnum):
    """``Event_Leave.reason``."""

    OTHER = 1
    USER_KICKED = 2
    USER_LEFT = 3
    USER_DISCONNECTED = 4


class RoomMessageType(enum.IntEnum):
    """``Event_RoomSay.message_type``: only ``UserMessage`` is live chat."""

    UserMessage = 0
    Welcome = 1
    ChatHistory = 2


class NotificationType(enum.IntEnum):
    """``Event_NotifyUser.type``."""

    UNKNOWN = 0
    PROMOTED = 1
    WARNING = 2
    IDLEWARNING = 3
    CUSTOM = 4
    REPORT_RESOLVED = 5
    REPORT_COMMENT = 6


class CardAttribute(enum.IntEnum):
    """``Command_SetCardAttr.attribute`` / ``Event_SetCardAttr.attribute``."""

    AttrTapped = 1
    AttrAttacking = 2
    AttrFaceDown = 3
    AttrColor = 4
    AttrPT = 5
    AttrAnnotation = 6
    AttrDoesntUntap = 7


class Phase(enum.IntEnum):
    """Turn phases as the desktop client numbers them (the server does not validate the range)."""

    UNTAP = 0
    UPKEEP = 1
    DRAW = 2
    FIRST_MAIN = 3
    BEGIN_COMBAT = 4
    DECLARE_ATTACKERS = 5
    DECLARE_BLOCKERS = 6
    COMBAT_DAMAGE = 7
    END_COMBAT = 8
    SECOND_MAIN = 9
    END = 10


class Zone(enum.StrEnum):
    """Server zone names.  ``deck`` and ``sb`` are hidden (cards addressed by index), the rest by id."""

    DECK = "deck"
    SIDEBOARD = "sb"
    TABLE = "table"
    HAND = "hand"
    STACK = "stack"
    GRAVEYARD = "grave"
    EXILE = "rfg"
