from . import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf.internal import python_message as _python_message
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RoomEvent(_message.Message):
    __slots__ = ("room_id",)
    Extensions: _python_message._ExtensionDict
    class RoomEventType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        LEAVE_ROOM: _ClassVar[RoomEvent.RoomEventType]
        JOIN_ROOM: _ClassVar[RoomEvent.RoomEventType]
        ROOM_SAY: _ClassVar[RoomEvent.RoomEventType]
        LIST_GAMES: _ClassVar[RoomEvent.RoomEventType]
        REMOVE_MESSAGES: _ClassVar[RoomEvent.RoomEventType]
    LEAVE_ROOM: RoomEvent.RoomEventType
    JOIN_ROOM: RoomEvent.RoomEventType
    ROOM_SAY: RoomEvent.RoomEventType
    LIST_GAMES: RoomEvent.RoomEventType
    REMOVE_MESSAGES: RoomEvent.RoomEventType
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: int
    def __init__(self, room_id: _Optional[int] = ...) -> None: ...

class Event_LeaveRoom(_message.Message):
    __slots__ = ("name",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class Event_JoinRoom(_message.Message):
    __slots__ = ("user_info",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_INFO_FIELD_NUMBER: _ClassVar[int]
    user_info: _common_pb2.ServerInfo_User
    def __init__(self, user_info: _Optional[_Union[_common_pb2.ServerInfo_User, _Mapping]] = ...) -> None: ...

class Event_RoomSay(_message.Message):
    __slots__ = ("name", "message", "message_type", "time_of")
    class RoomMessageType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        UserMessage: _ClassVar[Event_RoomSay.RoomMessageType]
        Welcome: _ClassVar[Event_RoomSay.RoomMessageType]
        ChatHistory: _ClassVar[Event_RoomSay.RoomMessageType]
    UserMessage: Event_RoomSay.RoomMessageType
    Welcome: Event_RoomSay.RoomMessageType
    ChatHistory: Event_RoomSay.RoomMessageType
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    NAME_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_TYPE_FIELD_NUMBER: _ClassVar[int]
    TIME_OF_FIELD_NUMBER: _ClassVar[int]
    name: str
    message: str
    message_type: Event_RoomSay.RoomMessageType
    time_of: int
    def __init__(self, name: _Optional[str] = ..., message: _Optional[str] = ..., message_type: _Optional[_Union[Event_RoomSay.RoomMessageType, str]] = ..., time_of: _Optional[int] = ...) -> None: ...

class Event_ListGames(_message.Message):
    __slots__ = ("game_list",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    GAME_LIST_FIELD_NUMBER: _ClassVar[int]
    game_list: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_Game]
    def __init__(self, game_list: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_Game, _Mapping]]] = ...) -> None: ...

class Event_RemoveMessages(_message.Message):
    __slots__ = ("name", "amount")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    NAME_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    name: str
    amount: int
    def __init__(self, name: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...
