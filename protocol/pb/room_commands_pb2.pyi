from . import commands_pb2 as _commands_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class Command_LeaveRoom(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_RoomSay(_message.Message):
    __slots__ = ("message",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class Command_CreateGame(_message.Message):
    __slots__ = ("description", "password", "max_players", "only_buddies", "only_registered", "spectators_allowed", "spectators_need_password", "spectators_can_talk", "spectators_see_everything", "game_type_ids", "join_as_judge", "join_as_spectator", "starting_life_total", "share_decklists_on_load")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ONLY_BUDDIES_FIELD_NUMBER: _ClassVar[int]
    ONLY_REGISTERED_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_NEED_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_CAN_TALK_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_SEE_EVERYTHING_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPE_IDS_FIELD_NUMBER: _ClassVar[int]
    JOIN_AS_JUDGE_FIELD_NUMBER: _ClassVar[int]
    JOIN_AS_SPECTATOR_FIELD_NUMBER: _ClassVar[int]
    STARTING_LIFE_TOTAL_FIELD_NUMBER: _ClassVar[int]
    SHARE_DECKLISTS_ON_LOAD_FIELD_NUMBER: _ClassVar[int]
    description: str
    password: str
    max_players: int
    only_buddies: bool
    only_registered: bool
    spectators_allowed: bool
    spectators_need_password: bool
    spectators_can_talk: bool
    spectators_see_everything: bool
    game_type_ids: _containers.RepeatedScalarFieldContainer[int]
    join_as_judge: bool
    join_as_spectator: bool
    starting_life_total: int
    share_decklists_on_load: bool
    def __init__(self, description: _Optional[str] = ..., password: _Optional[str] = ..., max_players: _Optional[int] = ..., only_buddies: _Optional[bool] = ..., only_registered: _Optional[bool] = ..., spectators_allowed: _Optional[bool] = ..., spectators_need_password: _Optional[bool] = ..., spectators_can_talk: _Optional[bool] = ..., spectators_see_everything: _Optional[bool] = ..., game_type_ids: _Optional[_Iterable[int]] = ..., join_as_judge: _Optional[bool] = ..., join_as_spectator: _Optional[bool] = ..., starting_life_total: _Optional[int] = ..., share_decklists_on_load: _Optional[bool] = ...) -> None: ...

class Command_JoinGame(_message.Message):
    __slots__ = ("game_id", "password", "spectator", "override_restrictions", "join_as_judge")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_FIELD_NUMBER: _ClassVar[int]
    OVERRIDE_RESTRICTIONS_FIELD_NUMBER: _ClassVar[int]
    JOIN_AS_JUDGE_FIELD_NUMBER: _ClassVar[int]
    game_id: int
    password: str
    spectator: bool
    override_restrictions: bool
    join_as_judge: bool
    def __init__(self, game_id: _Optional[int] = ..., password: _Optional[str] = ..., spectator: _Optional[bool] = ..., override_restrictions: _Optional[bool] = ..., join_as_judge: _Optional[bool] = ...) -> None: ...
