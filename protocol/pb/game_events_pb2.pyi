from . import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf.internal import python_message as _python_message
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameEvent(_message.Message):
    __slots__ = ("player_id",)
    Extensions: _python_message._ExtensionDict
    class GameEventType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        JOIN: _ClassVar[GameEvent.GameEventType]
        LEAVE: _ClassVar[GameEvent.GameEventType]
        GAME_CLOSED: _ClassVar[GameEvent.GameEventType]
        GAME_HOST_CHANGED: _ClassVar[GameEvent.GameEventType]
        KICKED: _ClassVar[GameEvent.GameEventType]
        GAME_STATE_CHANGED: _ClassVar[GameEvent.GameEventType]
        PLAYER_PROPERTIES_CHANGED: _ClassVar[GameEvent.GameEventType]
        GAME_SAY: _ClassVar[GameEvent.GameEventType]
        CREATE_ARROW: _ClassVar[GameEvent.GameEventType]
        DELETE_ARROW: _ClassVar[GameEvent.GameEventType]
        CREATE_COUNTER: _ClassVar[GameEvent.GameEventType]
        SET_COUNTER: _ClassVar[GameEvent.GameEventType]
        DEL_COUNTER: _ClassVar[GameEvent.GameEventType]
        DRAW_CARDS: _ClassVar[GameEvent.GameEventType]
        REVEAL_CARDS: _ClassVar[GameEvent.GameEventType]
        SHUFFLE: _ClassVar[GameEvent.GameEventType]
        ROLL_DIE: _ClassVar[GameEvent.GameEventType]
        MOVE_CARD: _ClassVar[GameEvent.GameEventType]
        FLIP_CARD: _ClassVar[GameEvent.GameEventType]
        DESTROY_CARD: _ClassVar[GameEvent.GameEventType]
        ATTACH_CARD: _ClassVar[GameEvent.GameEventType]
        CREATE_TOKEN: _ClassVar[GameEvent.GameEventType]
        SET_CARD_ATTR: _ClassVar[GameEvent.GameEventType]
        SET_CARD_COUNTER: _ClassVar[GameEvent.GameEventType]
        SET_ACTIVE_PLAYER: _ClassVar[GameEvent.GameEventType]
        SET_ACTIVE_PHASE: _ClassVar[GameEvent.GameEventType]
        DUMP_ZONE: _ClassVar[GameEvent.GameEventType]
        CHANGE_ZONE_PROPERTIES: _ClassVar[GameEvent.GameEventType]
        REVERSE_TURN: _ClassVar[GameEvent.GameEventType]
        GAME_LOG_NOTICE: _ClassVar[GameEvent.GameEventType]
    JOIN: GameEvent.GameEventType
    LEAVE: GameEvent.GameEventType
    GAME_CLOSED: GameEvent.GameEventType
    GAME_HOST_CHANGED: GameEvent.GameEventType
    KICKED: GameEvent.GameEventType
    GAME_STATE_CHANGED: GameEvent.GameEventType
    PLAYER_PROPERTIES_CHANGED: GameEvent.GameEventType
    GAME_SAY: GameEvent.GameEventType
    CREATE_ARROW: GameEvent.GameEventType
    DELETE_ARROW: GameEvent.GameEventType
    CREATE_COUNTER: GameEvent.GameEventType
    SET_COUNTER: GameEvent.GameEventType
    DEL_COUNTER: GameEvent.GameEventType
    DRAW_CARDS: GameEvent.GameEventType
    REVEAL_CARDS: GameEvent.GameEventType
    SHUFFLE: GameEvent.GameEventType
    ROLL_DIE: GameEvent.GameEventType
    MOVE_CARD: GameEvent.GameEventType
    FLIP_CARD: GameEvent.GameEventType
    DESTROY_CARD: GameEvent.GameEventType
    ATTACH_CARD: GameEvent.GameEventType
    CREATE_TOKEN: GameEvent.GameEventType
    SET_CARD_ATTR: GameEvent.GameEventType
    SET_CARD_COUNTER: GameEvent.GameEventType
    SET_ACTIVE_PLAYER: GameEvent.GameEventType
    SET_ACTIVE_PHASE: GameEvent.GameEventType
    DUMP_ZONE: GameEvent.GameEventType
    CHANGE_ZONE_PROPERTIES: GameEvent.GameEventType
    REVERSE_TURN: GameEvent.GameEventType
    GAME_LOG_NOTICE: GameEvent.GameEventType
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: int
    def __init__(self, player_id: _Optional[int] = ...) -> None: ...

class GameEventContext(_message.Message):
    __slots__ = ()
    Extensions: _python_message._ExtensionDict
    class ContextType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        READY_START: _ClassVar[GameEventContext.ContextType]
        CONCEDE: _ClassVar[GameEventContext.ContextType]
        DECK_SELECT: _ClassVar[GameEventContext.ContextType]
        UNDO_DRAW: _ClassVar[GameEventContext.ContextType]
        MOVE_CARD: _ClassVar[GameEventContext.ContextType]
        MULLIGAN: _ClassVar[GameEventContext.ContextType]
        PING_CHANGED: _ClassVar[GameEventContext.ContextType]
        CONNECTION_STATE_CHANGED: _ClassVar[GameEventContext.ContextType]
        SET_SIDEBOARD_LOCK: _ClassVar[GameEventContext.ContextType]
        UNCONCEDE: _ClassVar[GameEventContext.ContextType]
    READY_START: GameEventContext.ContextType
    CONCEDE: GameEventContext.ContextType
    DECK_SELECT: GameEventContext.ContextType
    UNDO_DRAW: GameEventContext.ContextType
    MOVE_CARD: GameEventContext.ContextType
    MULLIGAN: GameEventContext.ContextType
    PING_CHANGED: GameEventContext.ContextType
    CONNECTION_STATE_CHANGED: GameEventContext.ContextType
    SET_SIDEBOARD_LOCK: GameEventContext.ContextType
    UNCONCEDE: GameEventContext.ContextType
    def __init__(self) -> None: ...

class GameEventContainer(_message.Message):
    __slots__ = ("game_id", "event_list", "context", "seconds_elapsed", "forced_by_judge")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_LIST_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    SECONDS_ELAPSED_FIELD_NUMBER: _ClassVar[int]
    FORCED_BY_JUDGE_FIELD_NUMBER: _ClassVar[int]
    game_id: int
    event_list: _containers.RepeatedCompositeFieldContainer[GameEvent]
    context: GameEventContext
    seconds_elapsed: int
    forced_by_judge: int
    def __init__(self, game_id: _Optional[int] = ..., event_list: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., context: _Optional[_Union[GameEventContext, _Mapping]] = ..., seconds_elapsed: _Optional[int] = ..., forced_by_judge: _Optional[int] = ...) -> None: ...

class Context_ReadyStart(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Context_Concede(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Context_DeckSelect(_message.Message):
    __slots__ = ("deck_hash", "sideboard_size", "deck_list")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    DECK_HASH_FIELD_NUMBER: _ClassVar[int]
    SIDEBOARD_SIZE_FIELD_NUMBER: _ClassVar[int]
    DECK_LIST_FIELD_NUMBER: _ClassVar[int]
    deck_hash: str
    sideboard_size: int
    deck_list: str
    def __init__(self, deck_hash: _Optional[str] = ..., sideboard_size: _Optional[int] = ..., deck_list: _Optional[str] = ...) -> None: ...

class Context_UndoDraw(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Context_MoveCard(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Context_Mulligan(_message.Message):
    __slots__ = ("number",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    number: int
    def __init__(self, number: _Optional[int] = ...) -> None: ...

class Context_PingChanged(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Context_ConnectionStateChanged(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Context_SetSideboardLock(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Context_Unconcede(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Event_Join(_message.Message):
    __slots__ = ("player_properties",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    PLAYER_PROPERTIES_FIELD_NUMBER: _ClassVar[int]
    player_properties: _common_pb2.ServerInfo_PlayerProperties
    def __init__(self, player_properties: _Optional[_Union[_common_pb2.ServerInfo_PlayerProperties, _Mapping]] = ...) -> None: ...

class Event_Leave(_message.Message):
    __slots__ = ("reason",)
    class LeaveReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        OTHER: _ClassVar[Event_Leave.LeaveReason]
        USER_KICKED: _ClassVar[Event_Leave.LeaveReason]
        USER_LEFT: _ClassVar[Event_Leave.LeaveReason]
        USER_DISCONNECTED: _ClassVar[Event_Leave.LeaveReason]
    OTHER: Event_Leave.LeaveReason
    USER_KICKED: Event_Leave.LeaveReason
    USER_LEFT: Event_Leave.LeaveReason
    USER_DISCONNECTED: Event_Leave.LeaveReason
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: Event_Leave.LeaveReason
    def __init__(self, reason: _Optional[_Union[Event_Leave.LeaveReason, str]] = ...) -> None: ...

class Event_GameClosed(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Event_GameHostChanged(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Event_Kicked(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Event_GameStateChanged(_message.Message):
    __slots__ = ("player_list", "game_started", "active_player_id", "active_phase", "seconds_elapsed")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    PLAYER_LIST_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_PHASE_FIELD_NUMBER: _ClassVar[int]
    SECONDS_ELAPSED_FIELD_NUMBER: _ClassVar[int]
    player_list: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_Player]
    game_started: bool
    active_player_id: int
    active_phase: int
    seconds_elapsed: int
    def __init__(self, player_list: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_Player, _Mapping]]] = ..., game_started: _Optional[bool] = ..., active_player_id: _Optional[int] = ..., active_phase: _Optional[int] = ..., seconds_elapsed: _Optional[int] = ...) -> None: ...

class Event_PlayerPropertiesChanged(_message.Message):
    __slots__ = ("player_properties",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    PLAYER_PROPERTIES_FIELD_NUMBER: _ClassVar[int]
    player_properties: _common_pb2.ServerInfo_PlayerProperties
    def __init__(self, player_properties: _Optional[_Union[_common_pb2.ServerInfo_PlayerProperties, _Mapping]] = ...) -> None: ...

class Event_GameSay(_message.Message):
    __slots__ = ("message",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class Event_CreateArrow(_message.Message):
    __slots__ = ("arrow_info",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ARROW_INFO_FIELD_NUMBER: _ClassVar[int]
    arrow_info: _common_pb2.ServerInfo_Arrow
    def __init__(self, arrow_info: _Optional[_Union[_common_pb2.ServerInfo_Arrow, _Mapping]] = ...) -> None: ...

class Event_DeleteArrow(_message.Message):
    __slots__ = ("arrow_id",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ARROW_ID_FIELD_NUMBER: _ClassVar[int]
    arrow_id: int
    def __init__(self, arrow_id: _Optional[int] = ...) -> None: ...

class Event_CreateCounter(_message.Message):
    __slots__ = ("counter_info",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    COUNTER_INFO_FIELD_NUMBER: _ClassVar[int]
    counter_info: _common_pb2.ServerInfo_Counter
    def __init__(self, counter_info: _Optional[_Union[_common_pb2.ServerInfo_Counter, _Mapping]] = ...) -> None: ...

class Event_SetCounter(_message.Message):
    __slots__ = ("counter_id", "value")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    COUNTER_ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    counter_id: int
    value: int
    def __init__(self, counter_id: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...

class Event_DelCounter(_message.Message):
    __slots__ = ("counter_id",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    COUNTER_ID_FIELD_NUMBER: _ClassVar[int]
    counter_id: int
    def __init__(self, counter_id: _Optional[int] = ...) -> None: ...

class Event_DrawCards(_message.Message):
    __slots__ = ("number", "cards")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    number: int
    cards: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_Card]
    def __init__(self, number: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_Card, _Mapping]]] = ...) -> None: ...

class Event_RevealCards(_message.Message):
    __slots__ = ("zone_name", "card_id", "other_player_id", "cards", "grant_write_access", "number_of_cards")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    OTHER_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    GRANT_WRITE_ACCESS_FIELD_NUMBER: _ClassVar[int]
    NUMBER_OF_CARDS_FIELD_NUMBER: _ClassVar[int]
    zone_name: str
    card_id: _containers.RepeatedScalarFieldContainer[int]
    other_player_id: int
    cards: _containers.RepeatedCompositeFieldContainer[_common_pb2.ServerInfo_Card]
    grant_write_access: bool
    number_of_cards: int
    def __init__(self, zone_name: _Optional[str] = ..., card_id: _Optional[_Iterable[int]] = ..., other_player_id: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_common_pb2.ServerInfo_Card, _Mapping]]] = ..., grant_write_access: _Optional[bool] = ..., number_of_cards: _Optional[int] = ...) -> None: ...

class Event_Shuffle(_message.Message):
    __slots__ = ("zone_name", "start", "end")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    zone_name: str
    start: int
    end: int
    def __init__(self, zone_name: _Optional[str] = ..., start: _Optional[int] = ..., end: _Optional[int] = ...) -> None: ...

class Event_RollDie(_message.Message):
    __slots__ = ("sides", "value", "values")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    SIDES_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    sides: int
    value: int
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, sides: _Optional[int] = ..., value: _Optional[int] = ..., values: _Optional[_Iterable[int]] = ...) -> None: ...

class Event_MoveCard(_message.Message):
    __slots__ = ("card_id", "card_name", "start_player_id", "start_zone", "position", "target_player_id", "target_zone", "x", "y", "new_card_id", "face_down", "new_card_provider_id")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    CARD_NAME_FIELD_NUMBER: _ClassVar[int]
    START_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    START_ZONE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    TARGET_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ZONE_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    NEW_CARD_ID_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    NEW_CARD_PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    card_id: int
    card_name: str
    start_player_id: int
    start_zone: str
    position: int
    target_player_id: int
    target_zone: str
    x: int
    y: int
    new_card_id: int
    face_down: bool
    new_card_provider_id: str
    def __init__(self, card_id: _Optional[int] = ..., card_name: _Optional[str] = ..., start_player_id: _Optional[int] = ..., start_zone: _Optional[str] = ..., position: _Optional[int] = ..., target_player_id: _Optional[int] = ..., target_zone: _Optional[str] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., new_card_id: _Optional[int] = ..., face_down: _Optional[bool] = ..., new_card_provider_id: _Optional[str] = ...) -> None: ...

class Event_FlipCard(_message.Message):
    __slots__ = ("zone_name", "card_id", "card_name", "face_down", "card_provider_id")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    CARD_NAME_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    CARD_PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    zone_name: str
    card_id: int
    card_name: str
    face_down: bool
    card_provider_id: str
    def __init__(self, zone_name: _Optional[str] = ..., card_id: _Optional[int] = ..., card_name: _Optional[str] = ..., face_down: _Optional[bool] = ..., card_provider_id: _Optional[str] = ...) -> None: ...

class Event_DestroyCard(_message.Message):
    __slots__ = ("zone_name", "card_id")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    zone_name: str
    card_id: int
    def __init__(self, zone_name: _Optional[str] = ..., card_id: _Optional[int] = ...) -> None: ...

class Event_AttachCard(_message.Message):
    __slots__ = ("start_zone", "card_id", "target_player_id", "target_zone", "target_card_id")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    START_ZONE_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ZONE_FIELD_NUMBER: _ClassVar[int]
    TARGET_CARD_ID_FIELD_NUMBER: _ClassVar[int]
    start_zone: str
    card_id: int
    target_player_id: int
    target_zone: str
    target_card_id: int
    def __init__(self, start_zone: _Optional[str] = ..., card_id: _Optional[int] = ..., target_player_id: _Optional[int] = ..., target_zone: _Optional[str] = ..., target_card_id: _Optional[int] = ...) -> None: ...

class Event_CreateToken(_message.Message):
    __slots__ = ("zone_name", "card_id", "card_name", "color", "pt", "annotation", "destroy_on_zone_change", "x", "y", "card_provider_id", "face_down")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    CARD_NAME_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    PT_FIELD_NUMBER: _ClassVar[int]
    ANNOTATION_FIELD_NUMBER: _ClassVar[int]
    DESTROY_ON_ZONE_CHANGE_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    CARD_PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    zone_name: str
    card_id: int
    card_name: str
    color: str
    pt: str
    annotation: str
    destroy_on_zone_change: bool
    x: int
    y: int
    card_provider_id: str
    face_down: bool
    def __init__(self, zone_name: _Optional[str] = ..., card_id: _Optional[int] = ..., card_name: _Optional[str] = ..., color: _Optional[str] = ..., pt: _Optional[str] = ..., annotation: _Optional[str] = ..., destroy_on_zone_change: _Optional[bool] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., card_provider_id: _Optional[str] = ..., face_down: _Optional[bool] = ...) -> None: ...

class Event_SetCardAttr(_message.Message):
    __slots__ = ("zone_name", "card_id", "attribute", "attr_value")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    ATTR_VALUE_FIELD_NUMBER: _ClassVar[int]
    zone_name: str
    card_id: int
    attribute: _common_pb2.CardAttribute
    attr_value: str
    def __init__(self, zone_name: _Optional[str] = ..., card_id: _Optional[int] = ..., attribute: _Optional[_Union[_common_pb2.CardAttribute, str]] = ..., attr_value: _Optional[str] = ...) -> None: ...

class Event_SetCardCounter(_message.Message):
    __slots__ = ("zone_name", "card_id", "counter_id", "counter_value")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    COUNTER_ID_FIELD_NUMBER: _ClassVar[int]
    COUNTER_VALUE_FIELD_NUMBER: _ClassVar[int]
    zone_name: str
    card_id: int
    counter_id: int
    counter_value: int
    def __init__(self, zone_name: _Optional[str] = ..., card_id: _Optional[int] = ..., counter_id: _Optional[int] = ..., counter_value: _Optional[int] = ...) -> None: ...

class Event_SetActivePlayer(_message.Message):
    __slots__ = ("active_player_id",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ACTIVE_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    active_player_id: int
    def __init__(self, active_player_id: _Optional[int] = ...) -> None: ...

class Event_SetActivePhase(_message.Message):
    __slots__ = ("phase",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    PHASE_FIELD_NUMBER: _ClassVar[int]
    phase: int
    def __init__(self, phase: _Optional[int] = ...) -> None: ...

class Event_DumpZone(_message.Message):
    __slots__ = ("zone_owner_id", "zone_name", "number_cards", "is_reversed")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_OWNER_ID_FIELD_NUMBER: _ClassVar[int]
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    NUMBER_CARDS_FIELD_NUMBER: _ClassVar[int]
    IS_REVERSED_FIELD_NUMBER: _ClassVar[int]
    zone_owner_id: int
    zone_name: str
    number_cards: int
    is_reversed: bool
    def __init__(self, zone_owner_id: _Optional[int] = ..., zone_name: _Optional[str] = ..., number_cards: _Optional[int] = ..., is_reversed: _Optional[bool] = ...) -> None: ...

class Event_ChangeZoneProperties(_message.Message):
    __slots__ = ("zone_name", "always_reveal_top_card", "always_look_at_top_card")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    ALWAYS_REVEAL_TOP_CARD_FIELD_NUMBER: _ClassVar[int]
    ALWAYS_LOOK_AT_TOP_CARD_FIELD_NUMBER: _ClassVar[int]
    zone_name: str
    always_reveal_top_card: bool
    always_look_at_top_card: bool
    def __init__(self, zone_name: _Optional[str] = ..., always_reveal_top_card: _Optional[bool] = ..., always_look_at_top_card: _Optional[bool] = ...) -> None: ...

class Event_ReverseTurn(_message.Message):
    __slots__ = ("reversed",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    REVERSED_FIELD_NUMBER: _ClassVar[int]
    reversed: bool
    def __init__(self, reversed: _Optional[bool] = ...) -> None: ...

class Event_GameLogNotice(_message.Message):
    __slots__ = ("notice_type",)
    class NoticeType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        UNDO_DRAW_FAILED: _ClassVar[Event_GameLogNotice.NoticeType]
    UNDO_DRAW_FAILED: Event_GameLogNotice.NoticeType
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    NOTICE_TYPE_FIELD_NUMBER: _ClassVar[int]
    notice_type: Event_GameLogNotice.NoticeType
    def __init__(self, notice_type: _Optional[_Union[Event_GameLogNotice.NoticeType, str]] = ...) -> None: ...
