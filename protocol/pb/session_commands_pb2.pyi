from . import commands_pb2 as _commands_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class Command_Ping(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_Login(_message.Message):
    __slots__ = ("user_name", "password", "clientid", "clientver", "clientfeatures", "hashed_password")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_NAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    CLIENTID_FIELD_NUMBER: _ClassVar[int]
    CLIENTVER_FIELD_NUMBER: _ClassVar[int]
    CLIENTFEATURES_FIELD_NUMBER: _ClassVar[int]
    HASHED_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    user_name: str
    password: str
    clientid: str
    clientver: str
    clientfeatures: _containers.RepeatedScalarFieldContainer[str]
    hashed_password: str
    def __init__(self, user_name: _Optional[str] = ..., password: _Optional[str] = ..., clientid: _Optional[str] = ..., clientver: _Optional[str] = ..., clientfeatures: _Optional[_Iterable[str]] = ..., hashed_password: _Optional[str] = ...) -> None: ...

class Command_Message(_message.Message):
    __slots__ = ("user_name", "message")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_NAME_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    user_name: str
    message: str
    def __init__(self, user_name: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class Command_ListUsers(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_GetGamesOfUser(_message.Message):
    __slots__ = ("user_name",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_NAME_FIELD_NUMBER: _ClassVar[int]
    user_name: str
    def __init__(self, user_name: _Optional[str] = ...) -> None: ...

class Command_GetUserInfo(_message.Message):
    __slots__ = ("user_name",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_NAME_FIELD_NUMBER: _ClassVar[int]
    user_name: str
    def __init__(self, user_name: _Optional[str] = ...) -> None: ...

class Command_ListRooms(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_JoinRoom(_message.Message):
    __slots__ = ("room_id",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: int
    def __init__(self, room_id: _Optional[int] = ...) -> None: ...

class Command_RequestPasswordSalt(_message.Message):
    __slots__ = ("user_name",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_NAME_FIELD_NUMBER: _ClassVar[int]
    user_name: str
    def __init__(self, user_name: _Optional[str] = ...) -> None: ...
