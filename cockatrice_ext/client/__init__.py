"""Asyncio client for Servatrice, built on the sans-I/O ``cockatrice_ext.protocol``.

Typical use::

    async with await connect("ws://127.0.0.1:4748/servatrice", "referee") as client:
        room_id = await client.room_id_by_name("Bot room")
        await client.join_room(room_id)
        client.add_listener(on_event)          # async def on_event(event) -> None
        game_id = await client.create_game(room_id, description="Auction", max_players=3)
        await client.game_say(game_id, "welcome")
        mirror = client.games[game_id]         # GameMirror: players, zones, counters, turn, phase

``SyncClient`` offers the same calls, blocking, for scripts.
"""

from __future__ import annotations

from .backoff import backoff
from .client import Client, RoomSummary, ServerInfo, connect
from .errors import (
    ChatFlood,
    ClientError,
    CommandFailed,
    CommandTimeout,
    ConnectionLost,
    ContextError,
    FunctionNotAllowed,
    GameFull,
    GameNotStarted,
    InIgnoreList,
    InvalidCommand,
    LoginFailed,
    LoginNeeded,
    NameInUse,
    NameNotFound,
    NotInRoom,
    RoomNotFound,
    RoomRefused,
    ServerError,
    SessionRefused,
    SpectatorsNotAllowed,
    UserLevelTooLow,
    WrongPassword,
    command_failed,
)
from .events import (
    LOGIN_REFUSED,
    ROOM_GONE,
    ROOM_REFUSED,
    AnyClientEvent,
    ClientEvent,
    Disconnected,
    Reconnected,
)
from .flood import Cost, FloodError, FloodGate, FloodLimits, split_chat
from .mirror import CardState, CounterState, GameMirror, PlayerState, ZoneState
from .sync import SyncClient
from .transport import ServerAddress

__all__ = [
    "LOGIN_REFUSED",
    "ROOM_GONE",
    "ROOM_REFUSED",
    "AnyClientEvent",
    "CardState",
    "ChatFlood",
    "Client",
    "ClientError",
    "ClientEvent",
    "CommandFailed",
    "CommandTimeout",
    "ConnectionLost",
    "ContextError",
    "Cost",
    "CounterState",
    "Disconnected",
    "FloodError",
    "FloodGate",
    "FloodLimits",
    "FunctionNotAllowed",
    "GameFull",
    "GameMirror",
    "GameNotStarted",
    "InIgnoreList",
    "InvalidCommand",
    "LoginFailed",
    "LoginNeeded",
    "NameInUse",
    "NameNotFound",
    "NotInRoom",
    "PlayerState",
    "Reconnected",
    "RoomNotFound",
    "RoomRefused",
    "RoomSummary",
    "ServerAddress",
    "ServerError",
    "ServerInfo",
    "SessionRefused",
    "SpectatorsNotAllowed",
    "SyncClient",
    "UserLevelTooLow",
    "WrongPassword",
    "ZoneState",
    "backoff",
    "command_failed",
    "connect",
    "split_chat",
]
