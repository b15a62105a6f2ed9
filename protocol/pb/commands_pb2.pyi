from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf.internal import python_message as _python_message
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CommandContainer(_message.Message):
    __slots__ = ("cmd_id", "game_id", "room_id", "session_command", "game_command", "room_command", "moderator_command", "admin_command")
    CMD_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_COMMAND_FIELD_NUMBER: _ClassVar[int]
    GAME_COMMAND_FIELD_NUMBER: _ClassVar[int]
    ROOM_COMMAND_FIELD_NUMBER: _ClassVar[int]
    MODERATOR_COMMAND_FIELD_NUMBER: _ClassVar[int]
    ADMIN_COMMAND_FIELD_NUMBER: _ClassVar[int]
    cmd_id: int
    game_id: int
    room_id: int
    session_command: _containers.RepeatedCompositeFieldContainer[SessionCommand]
    game_command: _containers.RepeatedCompositeFieldContainer[GameCommand]
    room_command: _containers.RepeatedCompositeFieldContainer[RoomCommand]
    moderator_command: _containers.RepeatedCompositeFieldContainer[ModeratorCommand]
    admin_command: _containers.RepeatedCompositeFieldContainer[AdminCommand]
    def __init__(self, cmd_id: _Optional[int] = ..., game_id: _Optional[int] = ..., room_id: _Optional[int] = ..., session_command: _Optional[_Iterable[_Union[SessionCommand, _Mapping]]] = ..., game_command: _Optional[_Iterable[_Union[GameCommand, _Mapping]]] = ..., room_command: _Optional[_Iterable[_Union[RoomCommand, _Mapping]]] = ..., moderator_command: _Optional[_Iterable[_Union[ModeratorCommand, _Mapping]]] = ..., admin_command: _Optional[_Iterable[_Union[AdminCommand, _Mapping]]] = ...) -> None: ...

class SessionCommand(_message.Message):
    __slots__ = ()
    Extensions: _python_message._ExtensionDict
    class SessionCommandType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PING: _ClassVar[SessionCommand.SessionCommandType]
        LOGIN: _ClassVar[SessionCommand.SessionCommandType]
        MESSAGE: _ClassVar[SessionCommand.SessionCommandType]
        LIST_USERS: _ClassVar[SessionCommand.SessionCommandType]
        GET_GAMES_OF_USER: _ClassVar[SessionCommand.SessionCommandType]
        GET_USER_INFO: _ClassVar[SessionCommand.SessionCommandType]
        ADD_TO_LIST: _ClassVar[SessionCommand.SessionCommandType]
        REMOVE_FROM_LIST: _ClassVar[SessionCommand.SessionCommandType]
        DECK_LIST: _ClassVar[SessionCommand.SessionCommandType]
        DECK_NEW_DIR: _ClassVar[SessionCommand.SessionCommandType]
        DECK_DEL_DIR: _ClassVar[SessionCommand.SessionCommandType]
        DECK_DEL: _ClassVar[SessionCommand.SessionCommandType]
        DECK_DOWNLOAD: _ClassVar[SessionCommand.SessionCommandType]
        DECK_UPLOAD: _ClassVar[SessionCommand.SessionCommandType]
        LIST_ROOMS: _ClassVar[SessionCommand.SessionCommandType]
        JOIN_ROOM: _ClassVar[SessionCommand.SessionCommandType]
        REGISTER: _ClassVar[SessionCommand.SessionCommandType]
        ACTIVATE: _ClassVar[SessionCommand.SessionCommandType]
        ACCOUNT_EDIT: _ClassVar[SessionCommand.SessionCommandType]
        ACCOUNT_IMAGE: _ClassVar[SessionCommand.SessionCommandType]
        ACCOUNT_PASSWORD: _ClassVar[SessionCommand.SessionCommandType]
        FORGOT_PASSWORD_REQUEST: _ClassVar[SessionCommand.SessionCommandType]
        FORGOT_PASSWORD_RESET: _ClassVar[SessionCommand.SessionCommandType]
        FORGOT_PASSWORD_CHALLENGE: _ClassVar[SessionCommand.SessionCommandType]
        REQUEST_PASSWORD_SALT: _ClassVar[SessionCommand.SessionCommandType]
        SET_CARD_ART_PARAMS: _ClassVar[SessionCommand.SessionCommandType]
        REPLAY_LIST: _ClassVar[SessionCommand.SessionCommandType]
        REPLAY_DOWNLOAD: _ClassVar[SessionCommand.SessionCommandType]
        REPLAY_MODIFY_MATCH: _ClassVar[SessionCommand.SessionCommandType]
        REPLAY_DELETE_MATCH: _ClassVar[SessionCommand.SessionCommandType]
        REPLAY_GET_CODE: _ClassVar[SessionCommand.SessionCommandType]
        REPLAY_SUBMIT_CODE: _ClassVar[SessionCommand.SessionCommandType]
        REPORT: _ClassVar[SessionCommand.SessionCommandType]
        REPORT_MY_LIST: _ClassVar[SessionCommand.SessionCommandType]
        REPORT_ADD_COMMENT: _ClassVar[SessionCommand.SessionCommandType]
        REPORT_DETAILS: _ClassVar[SessionCommand.SessionCommandType]
    PING: SessionCommand.SessionCommandType
    LOGIN: SessionCommand.SessionCommandType
    MESSAGE: SessionCommand.SessionCommandType
    LIST_USERS: SessionCommand.SessionCommandType
    GET_GAMES_OF_USER: SessionCommand.SessionCommandType
    GET_USER_INFO: SessionCommand.SessionCommandType
    ADD_TO_LIST: SessionCommand.SessionCommandType
    REMOVE_FROM_LIST: SessionCommand.SessionCommandType
    DECK_LIST: SessionCommand.SessionCommandType
    DECK_NEW_DIR: SessionCommand.SessionCommandType
    DECK_DEL_DIR: SessionCommand.SessionCommandType
    DECK_DEL: SessionCommand.SessionCommandType
    DECK_DOWNLOAD: SessionCommand.SessionCommandType
    DECK_UPLOAD: SessionCommand.SessionCommandType
    LIST_ROOMS: SessionCommand.SessionCommandType
    JOIN_ROOM: SessionCommand.SessionCommandType
    REGISTER: SessionCommand.SessionCommandType
    ACTIVATE: SessionCommand.SessionCommandType
    ACCOUNT_EDIT: SessionCommand.SessionCommandType
    ACCOUNT_IMAGE: SessionCommand.SessionCommandType
    ACCOUNT_PASSWORD: SessionCommand.SessionCommandType
    FORGOT_PASSWORD_REQUEST: SessionCommand.SessionCommandType
    FORGOT_PASSWORD_RESET: SessionCommand.SessionCommandType
    FORGOT_PASSWORD_CHALLENGE: SessionCommand.SessionCommandType
    REQUEST_PASSWORD_SALT: SessionCommand.SessionCommandType
    SET_CARD_ART_PARAMS: SessionCommand.SessionCommandType
    REPLAY_LIST: SessionCommand.SessionCommandType
    REPLAY_DOWNLOAD: SessionCommand.SessionCommandType
    REPLAY_MODIFY_MATCH: SessionCommand.SessionCommandType
    REPLAY_DELETE_MATCH: SessionCommand.SessionCommandType
    REPLAY_GET_CODE: SessionCommand.SessionCommandType
    REPLAY_SUBMIT_CODE: SessionCommand.SessionCommandType
    REPORT: SessionCommand.SessionCommandType
    REPORT_MY_LIST: SessionCommand.SessionCommandType
    REPORT_ADD_COMMENT: SessionCommand.SessionCommandType
    REPORT_DETAILS: SessionCommand.SessionCommandType
    def __init__(self) -> None: ...

class RoomCommand(_message.Message):
    __slots__ = ()
    Extensions: _python_message._ExtensionDict
    class RoomCommandType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        LEAVE_ROOM: _ClassVar[RoomCommand.RoomCommandType]
        ROOM_SAY: _ClassVar[RoomCommand.RoomCommandType]
        CREATE_GAME: _ClassVar[RoomCommand.RoomCommandType]
        JOIN_GAME: _ClassVar[RoomCommand.RoomCommandType]
    LEAVE_ROOM: RoomCommand.RoomCommandType
    ROOM_SAY: RoomCommand.RoomCommandType
    CREATE_GAME: RoomCommand.RoomCommandType
    JOIN_GAME: RoomCommand.RoomCommandType
    def __init__(self) -> None: ...

class GameCommand(_message.Message):
    __slots__ = ()
    Extensions: _python_message._ExtensionDict
    class GameCommandType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KICK_FROM_GAME: _ClassVar[GameCommand.GameCommandType]
        LEAVE_GAME: _ClassVar[GameCommand.GameCommandType]
        GAME_SAY: _ClassVar[GameCommand.GameCommandType]
        SHUFFLE: _ClassVar[GameCommand.GameCommandType]
        MULLIGAN: _ClassVar[GameCommand.GameCommandType]
        ROLL_DIE: _ClassVar[GameCommand.GameCommandType]
        DRAW_CARDS: _ClassVar[GameCommand.GameCommandType]
        UNDO_DRAW: _ClassVar[GameCommand.GameCommandType]
        FLIP_CARD: _ClassVar[GameCommand.GameCommandType]
        ATTACH_CARD: _ClassVar[GameCommand.GameCommandType]
        CREATE_TOKEN: _ClassVar[GameCommand.GameCommandType]
        CREATE_ARROW: _ClassVar[GameCommand.GameCommandType]
        DELETE_ARROW: _ClassVar[GameCommand.GameCommandType]
        SET_CARD_ATTR: _ClassVar[GameCommand.GameCommandType]
        SET_CARD_COUNTER: _ClassVar[GameCommand.GameCommandType]
        INC_CARD_COUNTER: _ClassVar[GameCommand.GameCommandType]
        READY_START: _ClassVar[GameCommand.GameCommandType]
        CONCEDE: _ClassVar[GameCommand.GameCommandType]
        INC_COUNTER: _ClassVar[GameCommand.GameCommandType]
        CREATE_COUNTER: _ClassVar[GameCommand.GameCommandType]
        SET_COUNTER: _ClassVar[GameCommand.GameCommandType]
        DEL_COUNTER: _ClassVar[GameCommand.GameCommandType]
        NEXT_TURN: _ClassVar[GameCommand.GameCommandType]
        SET_ACTIVE_PHASE: _ClassVar[GameCommand.GameCommandType]
        DUMP_ZONE: _ClassVar[GameCommand.GameCommandType]
        REVEAL_CARDS: _ClassVar[GameCommand.GameCommandType]
        MOVE_CARD: _ClassVar[GameCommand.GameCommandType]
        SET_SIDEBOARD_PLAN: _ClassVar[GameCommand.GameCommandType]
        DECK_SELECT: _ClassVar[GameCommand.GameCommandType]
        SET_SIDEBOARD_LOCK: _ClassVar[GameCommand.GameCommandType]
        CHANGE_ZONE_PROPERTIES: _ClassVar[GameCommand.GameCommandType]
        UNCONCEDE: _ClassVar[GameCommand.GameCommandType]
        JUDGE: _ClassVar[GameCommand.GameCommandType]
        REVERSE_TURN: _ClassVar[GameCommand.GameCommandType]
        SET_PLAYMAT: _ClassVar[GameCommand.GameCommandType]
    KICK_FROM_GAME: GameCommand.GameCommandType
    LEAVE_GAME: GameCommand.GameCommandType
    GAME_SAY: GameCommand.GameCommandType
    SHUFFLE: GameCommand.GameCommandType
    MULLIGAN: GameCommand.GameCommandType
    ROLL_DIE: GameCommand.GameCommandType
    DRAW_CARDS: GameCommand.GameCommandType
    UNDO_DRAW: GameCommand.GameCommandType
    FLIP_CARD: GameCommand.GameCommandType
    ATTACH_CARD: GameCommand.GameCommandType
    CREATE_TOKEN: GameCommand.GameCommandType
    CREATE_ARROW: GameCommand.GameCommandType
    DELETE_ARROW: GameCommand.GameCommandType
    SET_CARD_ATTR: GameCommand.GameCommandType
    SET_CARD_COUNTER: GameCommand.GameCommandType
    INC_CARD_COUNTER: GameCommand.GameCommandType
    READY_START: GameCommand.GameCommandType
    CONCEDE: GameCommand.GameCommandType
    INC_COUNTER: GameCommand.GameCommandType
    CREATE_COUNTER: GameCommand.GameCommandType
    SET_COUNTER: GameCommand.GameCommandType
    DEL_COUNTER: GameCommand.GameCommandType
    NEXT_TURN: GameCommand.GameCommandType
    SET_ACTIVE_PHASE: GameCommand.GameCommandType
    DUMP_ZONE: GameCommand.GameCommandType
    REVEAL_CARDS: GameCommand.GameCommandType
    MOVE_CARD: GameCommand.GameCommandType
    SET_SIDEBOARD_PLAN: GameCommand.GameCommandType
    DECK_SELECT: GameCommand.GameCommandType
    SET_SIDEBOARD_LOCK: GameCommand.GameCommandType
    CHANGE_ZONE_PROPERTIES: GameCommand.GameCommandType
    UNCONCEDE: GameCommand.GameCommandType
    JUDGE: GameCommand.GameCommandType
    REVERSE_TURN: GameCommand.GameCommandType
    SET_PLAYMAT: GameCommand.GameCommandType
    def __init__(self) -> None: ...

class ModeratorCommand(_message.Message):
    __slots__ = ()
    Extensions: _python_message._ExtensionDict
    def __init__(self) -> None: ...

class AdminCommand(_message.Message):
    __slots__ = ()
    Extensions: _python_message._ExtensionDict
    def __init__(self) -> None: ...
