from . import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf.internal import python_message as _python_message
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SessionEvent(_message.Message):
    __slots__ = ()
    Extensions: _python_message._ExtensionDict
    class SessionEventType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        SERVER_IDENTIFICATION: _ClassVar[SessionEvent.SessionEventType]
        SERVER_COMPLETE_LIST: _ClassVar[SessionEvent.SessionEventType]
        SERVER_MESSAGE: _ClassVar[SessionEvent.SessionEventType]
        SERVER_SHUTDOWN: _ClassVar[SessionEvent.SessionEventType]
        CONNECTION_CLOSED: _ClassVar[SessionEvent.SessionEventType]
        USER_MESSAGE: _ClassVar[SessionEvent.SessionEventType]
        LIST_ROOMS: _ClassVar[SessionEvent.SessionEventType]
        ADD_TO_LIST: _ClassVar[SessionEvent.SessionEventType]
        REMOVE_FROM_LIST: _ClassVar[SessionEvent.SessionEventType]
        USER_JOINED: _ClassVar[SessionEvent.SessionEventType]
        USER_LEFT: _ClassVar[SessionEvent.SessionEventType]
        GAME_JOINED: _ClassVar[SessionEvent.SessionEventType]
        NOTIFY_USER: _ClassVar[SessionEvent.SessionEventType]
        REPLAY_ADDED: _ClassVar[SessionEvent.SessionEventType]
    SERVER_IDENTIFICATION: SessionEvent.SessionEventType
    SERVER_COMPLETE_LIST: SessionEvent.SessionEventType
    SERVER_MESSAGE: SessionEvent.SessionEventType
    SERVER_SHUTDOWN: SessionEvent.SessionEventType
    CONNECTION_CLOSED: SessionEvent.SessionEventType
    USER_MESSAGE: SessionEvent.SessionEventType
    LIST_ROOMS: SessionEvent.SessionEventType
    ADD_TO_LIST: SessionEvent.SessionEventType
    REMOVE_FROM_LIST: SessionEvent.SessionEventType
    USER_JOINED: SessionEvent.SessionEventType
    USER_LEFT: SessionEvent.SessionEventType
    GAME_JOINED: SessionEvent.SessionEventType
    NOTIFY_USER: SessionEvent.SessionEventType
    REPLAY_ADDED: SessionEvent.SessionEventType
    def __init__(self) -> None: ...

class Event_ServerIdentification(_message.Message):
    __slots__ = ("server_name", "server_version", "protocol_version", "server_options")
    class ServerOptions(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        NoOptions: _ClassVar[Event_ServerIdentification.ServerOptions]
        SupportsPasswordHash: _ClassVar[Event_ServerIdentification.ServerOptions]
    NoOptions: Event_ServerIdentification.ServerOptions
    SupportsPasswordHash: Event_ServerIdentification.ServerOptions
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    SERVER_NAME_FIELD_NUMBER: _ClassVar[int]
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    SERVER_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    server_name: str
    server_version: str
    protocol_version: int
    server_options: Event_ServerIdentification.ServerOptions
    def __init__(self, server_name: _Optional[str] = ..., server_version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., server_options: _Optional[_Union[Event_ServerIdentification.ServerOptions, str]] = ...) -> None: ...

class Event_ServerMessage(_message.Message):
    __slots__ = ("message",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class Event_ServerShutdown(_message.Message):
    __slots__ = ("reason", "minutes")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    REASON_FIELD_NUMBER: _ClassVar[int]
    MINUTES_FIELD_NUMBER: _ClassVar[int]
    reason: str
    minutes: int
    def __init__(self, reason: _Optional[str] = ..., minutes: _Optional[int] = ...) -> None: ...

class Event_ConnectionClosed(_message.Message):
    __slots__ = ("reason", "reason_str", "end_time")
    class CloseReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        OTHER: _ClassVar[Event_ConnectionClosed.CloseReason]
        SERVER_SHUTDOWN: _ClassVar[Event_ConnectionClosed.CloseReason]
        TOO_MANY_CONNECTIONS: _ClassVar[Event_ConnectionClosed.CloseReason]
        BANNED: _ClassVar[Event_ConnectionClosed.CloseReason]
        USERNAMEINVALID: _ClassVar[Event_ConnectionClosed.CloseReason]
        USER_LIMIT_REACHED: _ClassVar[Event_ConnectionClosed.CloseReason]
        DEMOTED: _ClassVar[Event_ConnectionClosed.CloseReason]
        LOGGEDINELSEWERE: _ClassVar[Event_ConnectionClosed.CloseReason]
    OTHER: Event_ConnectionClosed.CloseReason
    SERVER_SHUTDOWN: Event_ConnectionClosed.CloseReason
    TOO_MANY_CONNECTIONS: Event_ConnectionClosed.CloseReason
    BANNED: Event_ConnectionClosed.CloseReason
    USERNAMEINVALID: Event_ConnectionClosed.CloseReason
    USER_LIMIT_REACHED: Event_ConnectionClosed.CloseReason
    DEMOTED: Event_ConnectionClosed.CloseReason
    LOGGEDINELSEWERE: Event_ConnectionClosed.CloseReason
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    REASON_FIELD_NUMBER: _ClassVar[int]
    REASON_STR_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    reason: Event_ConnectionClosed.CloseReason
    reason_str: str
    end_time: int
    def __init__(self, reason: _Optional[_Union[Event_ConnectionClosed.CloseReason, str]] = ..., reason_str: _Optional[str] = ..., end_time: _Optional[int] = ...) -> None: ...

class Event_UserMessage(_message.Message):
    __slots__ = ("sender_name", "receiver_name", "message")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    SENDER_NAME_FIELD_NUMBER: _ClassVar[int]
    RECEIVER_NAME_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    sender_name: str
    receiver_name: str
    message: str
    def __init__(self, sender_name: _Optional[str] = ..., receiver_name: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class Event_ListRooms(_message.Message):
    __slots__ = ("room_list",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ROOM_LIST_FIELD_NUMBER: _ClassVar[int]
    room_list: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_Room]
    def __init__(self, room_list: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_Room, _Mapping]]] = ...) -> None: ...

class Event_AddToList(_message.Message):
    __slots__ = ("list_name", "user_info")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    LIST_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_INFO_FIELD_NUMBER: _ClassVar[int]
    list_name: str
    user_info: _common_pb2.ServerInfo_User
    def __init__(self, list_name: _Optional[str] = ..., user_info: _Optional[_Union[_common_pb2.ServerInfo_User, _Mapping]] = ...) -> None: ...

class Event_RemoveFromList(_message.Message):
    __slots__ = ("list_name", "user_name")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    LIST_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_NAME_FIELD_NUMBER: _ClassVar[int]
    list_name: str
    user_name: str
    def __init__(self, list_name: _Optional[str] = ..., user_name: _Optional[str] = ...) -> None: ...

class Event_UserJoined(_message.Message):
    __slots__ = ("user_info",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_INFO_FIELD_NUMBER: _ClassVar[int]
    user_info: _common_pb2.ServerInfo_User
    def __init__(self, user_info: _Optional[_Union[_common_pb2.ServerInfo_User, _Mapping]] = ...) -> None: ...

class Event_UserLeft(_message.Message):
    __slots__ = ("name",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class Event_GameJoined(_message.Message):
    __slots__ = ("game_info", "game_types", "host_id", "player_id", "spectator", "resuming", "judge")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    GAME_INFO_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPES_FIELD_NUMBER: _ClassVar[int]
    HOST_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_FIELD_NUMBER: _ClassVar[int]
    RESUMING_FIELD_NUMBER: _ClassVar[int]
    JUDGE_FIELD_NUMBER: _ClassVar[int]
    game_info: _common_pb2.ServerInfo_Game
    game_types: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_GameType]
    host_id: int
    player_id: int
    spectator: bool
    resuming: bool
    judge: bool
    def __init__(self, game_info: _Optional[_Union[_common_pb2.ServerInfo_Game, _Mapping]] = ..., game_types: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_GameType, _Mapping]]] = ..., host_id: _Optional[int] = ..., player_id: _Optional[int] = ..., spectator: _Optional[bool] = ..., resuming: _Optional[bool] = ..., judge: _Optional[bool] = ...) -> None: ...

class Event_NotifyUser(_message.Message):
    __slots__ = ("type", "warning_reason", "custom_title", "custom_content")
    class NotificationType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        UNKNOWN: _ClassVar[Event_NotifyUser.NotificationType]
        PROMOTED: _ClassVar[Event_NotifyUser.NotificationType]
        WARNING: _ClassVar[Event_NotifyUser.NotificationType]
        IDLEWARNING: _ClassVar[Event_NotifyUser.NotificationType]
        CUSTOM: _ClassVar[Event_NotifyUser.NotificationType]
        REPORT_RESOLVED: _ClassVar[Event_NotifyUser.NotificationType]
        REPORT_COMMENT: _ClassVar[Event_NotifyUser.NotificationType]
    UNKNOWN: Event_NotifyUser.NotificationType
    PROMOTED: Event_NotifyUser.NotificationType
    WARNING: Event_NotifyUser.NotificationType
    IDLEWARNING: Event_NotifyUser.NotificationType
    CUSTOM: Event_NotifyUser.NotificationType
    REPORT_RESOLVED: Event_NotifyUser.NotificationType
    REPORT_COMMENT: Event_NotifyUser.NotificationType
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    TYPE_FIELD_NUMBER: _ClassVar[int]
    WARNING_REASON_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_TITLE_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_CONTENT_FIELD_NUMBER: _ClassVar[int]
    type: Event_NotifyUser.NotificationType
    warning_reason: str
    custom_title: str
    custom_content: str
    def __init__(self, type: _Optional[_Union[Event_NotifyUser.NotificationType, str]] = ..., warning_reason: _Optional[str] = ..., custom_title: _Optional[str] = ..., custom_content: _Optional[str] = ...) -> None: ...
