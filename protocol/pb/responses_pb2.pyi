from . import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf.internal import python_message as _python_message
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Response(_message.Message):
    __slots__ = ("cmd_id", "response_code")
    Extensions: _python_message._ExtensionDict
    class ResponseCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        RespNotConnected: _ClassVar[Response.ResponseCode]
        RespNothing: _ClassVar[Response.ResponseCode]
        RespOk: _ClassVar[Response.ResponseCode]
        RespNotInRoom: _ClassVar[Response.ResponseCode]
        RespInternalError: _ClassVar[Response.ResponseCode]
        RespInvalidCommand: _ClassVar[Response.ResponseCode]
        RespInvalidData: _ClassVar[Response.ResponseCode]
        RespNameNotFound: _ClassVar[Response.ResponseCode]
        RespLoginNeeded: _ClassVar[Response.ResponseCode]
        RespFunctionNotAllowed: _ClassVar[Response.ResponseCode]
        RespGameNotStarted: _ClassVar[Response.ResponseCode]
        RespGameFull: _ClassVar[Response.ResponseCode]
        RespContextError: _ClassVar[Response.ResponseCode]
        RespWrongPassword: _ClassVar[Response.ResponseCode]
        RespSpectatorsNotAllowed: _ClassVar[Response.ResponseCode]
        RespOnlyBuddies: _ClassVar[Response.ResponseCode]
        RespUserLevelTooLow: _ClassVar[Response.ResponseCode]
        RespInIgnoreList: _ClassVar[Response.ResponseCode]
        RespWouldOverwriteOldSession: _ClassVar[Response.ResponseCode]
        RespChatFlood: _ClassVar[Response.ResponseCode]
        RespUserIsBanned: _ClassVar[Response.ResponseCode]
        RespAccessDenied: _ClassVar[Response.ResponseCode]
        RespUsernameInvalid: _ClassVar[Response.ResponseCode]
        RespRegistrationRequired: _ClassVar[Response.ResponseCode]
        RespRegistrationAccepted: _ClassVar[Response.ResponseCode]
        RespUserAlreadyExists: _ClassVar[Response.ResponseCode]
        RespEmailRequiredToRegister: _ClassVar[Response.ResponseCode]
        RespTooManyRequests: _ClassVar[Response.ResponseCode]
        RespPasswordTooShort: _ClassVar[Response.ResponseCode]
        RespAccountNotActivated: _ClassVar[Response.ResponseCode]
        RespRegistrationDisabled: _ClassVar[Response.ResponseCode]
        RespRegistrationFailed: _ClassVar[Response.ResponseCode]
        RespActivationAccepted: _ClassVar[Response.ResponseCode]
        RespActivationFailed: _ClassVar[Response.ResponseCode]
        RespRegistrationAcceptedNeedsActivation: _ClassVar[Response.ResponseCode]
        RespClientIdRequired: _ClassVar[Response.ResponseCode]
        RespClientUpdateRequired: _ClassVar[Response.ResponseCode]
        RespServerFull: _ClassVar[Response.ResponseCode]
        RespEmailBlackListed: _ClassVar[Response.ResponseCode]
        RespPasswordChangeRequired: _ClassVar[Response.ResponseCode]
    RespNotConnected: Response.ResponseCode
    RespNothing: Response.ResponseCode
    RespOk: Response.ResponseCode
    RespNotInRoom: Response.ResponseCode
    RespInternalError: Response.ResponseCode
    RespInvalidCommand: Response.ResponseCode
    RespInvalidData: Response.ResponseCode
    RespNameNotFound: Response.ResponseCode
    RespLoginNeeded: Response.ResponseCode
    RespFunctionNotAllowed: Response.ResponseCode
    RespGameNotStarted: Response.ResponseCode
    RespGameFull: Response.ResponseCode
    RespContextError: Response.ResponseCode
    RespWrongPassword: Response.ResponseCode
    RespSpectatorsNotAllowed: Response.ResponseCode
    RespOnlyBuddies: Response.ResponseCode
    RespUserLevelTooLow: Response.ResponseCode
    RespInIgnoreList: Response.ResponseCode
    RespWouldOverwriteOldSession: Response.ResponseCode
    RespChatFlood: Response.ResponseCode
    RespUserIsBanned: Response.ResponseCode
    RespAccessDenied: Response.ResponseCode
    RespUsernameInvalid: Response.ResponseCode
    RespRegistrationRequired: Response.ResponseCode
    RespRegistrationAccepted: Response.ResponseCode
    RespUserAlreadyExists: Response.ResponseCode
    RespEmailRequiredToRegister: Response.ResponseCode
    RespTooManyRequests: Response.ResponseCode
    RespPasswordTooShort: Response.ResponseCode
    RespAccountNotActivated: Response.ResponseCode
    RespRegistrationDisabled: Response.ResponseCode
    RespRegistrationFailed: Response.ResponseCode
    RespActivationAccepted: Response.ResponseCode
    RespActivationFailed: Response.ResponseCode
    RespRegistrationAcceptedNeedsActivation: Response.ResponseCode
    RespClientIdRequired: Response.ResponseCode
    RespClientUpdateRequired: Response.ResponseCode
    RespServerFull: Response.ResponseCode
    RespEmailBlackListed: Response.ResponseCode
    RespPasswordChangeRequired: Response.ResponseCode
    class ResponseType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        JOIN_ROOM: _ClassVar[Response.ResponseType]
        LIST_USERS: _ClassVar[Response.ResponseType]
        GET_GAMES_OF_USER: _ClassVar[Response.ResponseType]
        GET_USER_INFO: _ClassVar[Response.ResponseType]
        DUMP_ZONE: _ClassVar[Response.ResponseType]
        LOGIN: _ClassVar[Response.ResponseType]
        DECK_LIST: _ClassVar[Response.ResponseType]
        DECK_DOWNLOAD: _ClassVar[Response.ResponseType]
        DECK_UPLOAD: _ClassVar[Response.ResponseType]
        REGISTER: _ClassVar[Response.ResponseType]
        ACTIVATE: _ClassVar[Response.ResponseType]
        ADJUST_MOD: _ClassVar[Response.ResponseType]
        BAN_HISTORY: _ClassVar[Response.ResponseType]
        WARN_HISTORY: _ClassVar[Response.ResponseType]
        WARN_LIST: _ClassVar[Response.ResponseType]
        VIEW_LOG: _ClassVar[Response.ResponseType]
        FORGOT_PASSWORD_REQUEST: _ClassVar[Response.ResponseType]
        PASSWORD_SALT: _ClassVar[Response.ResponseType]
        GET_ADMIN_NOTES: _ClassVar[Response.ResponseType]
        REPLAY_LIST: _ClassVar[Response.ResponseType]
        REPLAY_DOWNLOAD: _ClassVar[Response.ResponseType]
        REPLAY_GET_CODE: _ClassVar[Response.ResponseType]
        CARD_ART_RULE_LIST: _ClassVar[Response.ResponseType]
    JOIN_ROOM: Response.ResponseType
    LIST_USERS: Response.ResponseType
    GET_GAMES_OF_USER: Response.ResponseType
    GET_USER_INFO: Response.ResponseType
    DUMP_ZONE: Response.ResponseType
    LOGIN: Response.ResponseType
    DECK_LIST: Response.ResponseType
    DECK_DOWNLOAD: Response.ResponseType
    DECK_UPLOAD: Response.ResponseType
    REGISTER: Response.ResponseType
    ACTIVATE: Response.ResponseType
    ADJUST_MOD: Response.ResponseType
    BAN_HISTORY: Response.ResponseType
    WARN_HISTORY: Response.ResponseType
    WARN_LIST: Response.ResponseType
    VIEW_LOG: Response.ResponseType
    FORGOT_PASSWORD_REQUEST: Response.ResponseType
    PASSWORD_SALT: Response.ResponseType
    GET_ADMIN_NOTES: Response.ResponseType
    REPLAY_LIST: Response.ResponseType
    REPLAY_DOWNLOAD: Response.ResponseType
    REPLAY_GET_CODE: Response.ResponseType
    CARD_ART_RULE_LIST: Response.ResponseType
    CMD_ID_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_CODE_FIELD_NUMBER: _ClassVar[int]
    cmd_id: int
    response_code: Response.ResponseCode
    def __init__(self, cmd_id: _Optional[int] = ..., response_code: _Optional[_Union[Response.ResponseCode, str]] = ...) -> None: ...

class Response_JoinRoom(_message.Message):
    __slots__ = ("room_info",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ROOM_INFO_FIELD_NUMBER: _ClassVar[int]
    room_info: _common_pb2.ServerInfo_Room
    def __init__(self, room_info: _Optional[_Union[_common_pb2.ServerInfo_Room, _Mapping]] = ...) -> None: ...

class Response_ListUsers(_message.Message):
    __slots__ = ("user_list",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_LIST_FIELD_NUMBER: _ClassVar[int]
    user_list: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_User]
    def __init__(self, user_list: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_User, _Mapping]]] = ...) -> None: ...

class Response_GetGamesOfUser(_message.Message):
    __slots__ = ("room_list", "game_list")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ROOM_LIST_FIELD_NUMBER: _ClassVar[int]
    GAME_LIST_FIELD_NUMBER: _ClassVar[int]
    room_list: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_Room]
    game_list: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_Game]
    def __init__(self, room_list: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_Room, _Mapping]]] = ..., game_list: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_Game, _Mapping]]] = ...) -> None: ...

class Response_GetUserInfo(_message.Message):
    __slots__ = ("user_info",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_INFO_FIELD_NUMBER: _ClassVar[int]
    user_info: _common_pb2.ServerInfo_User
    def __init__(self, user_info: _Optional[_Union[_common_pb2.ServerInfo_User, _Mapping]] = ...) -> None: ...

class Response_DumpZone(_message.Message):
    __slots__ = ("zone_info",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_INFO_FIELD_NUMBER: _ClassVar[int]
    zone_info: _common_pb2.ServerInfo_Zone
    def __init__(self, zone_info: _Optional[_Union[_common_pb2.ServerInfo_Zone, _Mapping]] = ...) -> None: ...

class Response_Login(_message.Message):
    __slots__ = ("user_info", "buddy_list", "ignore_list", "denied_reason_str", "denied_end_time", "missing_features")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    USER_INFO_FIELD_NUMBER: _ClassVar[int]
    BUDDY_LIST_FIELD_NUMBER: _ClassVar[int]
    IGNORE_LIST_FIELD_NUMBER: _ClassVar[int]
    DENIED_REASON_STR_FIELD_NUMBER: _ClassVar[int]
    DENIED_END_TIME_FIELD_NUMBER: _ClassVar[int]
    MISSING_FEATURES_FIELD_NUMBER: _ClassVar[int]
    user_info: _common_pb2.ServerInfo_User
    buddy_list: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_User]
    ignore_list: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_User]
    denied_reason_str: str
    denied_end_time: int
    missing_features: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, user_info: _Optional[_Union[_common_pb2.ServerInfo_User, _Mapping]] = ..., buddy_list: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_User, _Mapping]]] = ..., ignore_list: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_User, _Mapping]]] = ..., denied_reason_str: _Optional[str] = ..., denied_end_time: _Optional[int] = ..., missing_features: _Optional[_Iterable[str]] = ...) -> None: ...

class Response_DeckDownload(_message.Message):
    __slots__ = ("deck",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    DECK_FIELD_NUMBER: _ClassVar[int]
    deck: str
    def __init__(self, deck: _Optional[str] = ...) -> None: ...

class Response_PasswordSalt(_message.Message):
    __slots__ = ("password_salt",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    PASSWORD_SALT_FIELD_NUMBER: _ClassVar[int]
    password_salt: str
    def __init__(self, password_salt: _Optional[str] = ...) -> None: ...
