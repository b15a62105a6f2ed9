from . import responses_pb2 as _responses_pb2
from . import session_events_pb2 as _session_events_pb2
from . import game_events_pb2 as _game_events_pb2
from . import room_events_pb2 as _room_events_pb2
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ServerMessage(_message.Message):
    __slots__ = ("message_type", "response", "session_event", "game_event_container", "room_event")
    class MessageType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        RESPONSE: _ClassVar[ServerMessage.MessageType]
        SESSION_EVENT: _ClassVar[ServerMessage.MessageType]
        GAME_EVENT_CONTAINER: _ClassVar[ServerMessage.MessageType]
        ROOM_EVENT: _ClassVar[ServerMessage.MessageType]
    RESPONSE: ServerMessage.MessageType
    SESSION_EVENT: ServerMessage.MessageType
    GAME_EVENT_CONTAINER: ServerMessage.MessageType
    ROOM_EVENT: ServerMessage.MessageType
    MESSAGE_TYPE_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    SESSION_EVENT_FIELD_NUMBER: _ClassVar[int]
    GAME_EVENT_CONTAINER_FIELD_NUMBER: _ClassVar[int]
    ROOM_EVENT_FIELD_NUMBER: _ClassVar[int]
    message_type: ServerMessage.MessageType
    response: _responses_pb2.Response
    session_event: _session_events_pb2.SessionEvent
    game_event_container: _game_events_pb2.GameEventContainer
    room_event: _room_events_pb2.RoomEvent
    def __init__(self, message_type: _Optional[_Union[ServerMessage.MessageType, str]] = ..., response: _Optional[_Union[_responses_pb2.Response, _Mapping]] = ..., session_event: _Optional[_Union[_session_events_pb2.SessionEvent, _Mapping]] = ..., game_event_container: _Optional[_Union[_game_events_pb2.GameEventContainer, _Mapping]] = ..., room_event: _Optional[_Union[_room_events_pb2.RoomEvent, _Mapping]] = ...) -> None: ...
