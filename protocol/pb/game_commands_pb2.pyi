from . import commands_pb2 as _commands_pb2
from . import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Command_KickFromGame(_message.Message):
    __slots__ = ("player_id",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: int
    def __init__(self, player_id: _Optional[int] = ...) -> None: ...

class Command_LeaveGame(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_GameSay(_message.Message):
    __slots__ = ("message",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class Command_Shuffle(_message.Message):
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

class Command_Mulligan(_message.Message):
    __slots__ = ("number",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    number: int
    def __init__(self, number: _Optional[int] = ...) -> None: ...

class Command_RollDie(_message.Message):
    __slots__ = ("sides", "count")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    SIDES_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    sides: int
    count: int
    def __init__(self, sides: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class Command_DrawCards(_message.Message):
    __slots__ = ("number",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    number: int
    def __init__(self, number: _Optional[int] = ...) -> None: ...

class Command_UndoDraw(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_FlipCard(_message.Message):
    __slots__ = ("zone", "card_id", "face_down", "pt")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    PT_FIELD_NUMBER: _ClassVar[int]
    zone: str
    card_id: int
    face_down: bool
    pt: str
    def __init__(self, zone: _Optional[str] = ..., card_id: _Optional[int] = ..., face_down: _Optional[bool] = ..., pt: _Optional[str] = ...) -> None: ...

class Command_AttachCard(_message.Message):
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

class Command_CreateToken(_message.Message):
    __slots__ = ("zone", "card_name", "color", "pt", "annotation", "destroy_on_zone_change", "x", "y", "target_zone", "target_card_id", "target_mode", "card_provider_id", "face_down")
    class TargetMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        ATTACH_TO: _ClassVar[Command_CreateToken.TargetMode]
        TRANSFORM_INTO: _ClassVar[Command_CreateToken.TargetMode]
    ATTACH_TO: Command_CreateToken.TargetMode
    TRANSFORM_INTO: Command_CreateToken.TargetMode
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_FIELD_NUMBER: _ClassVar[int]
    CARD_NAME_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    PT_FIELD_NUMBER: _ClassVar[int]
    ANNOTATION_FIELD_NUMBER: _ClassVar[int]
    DESTROY_ON_ZONE_CHANGE_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    TARGET_ZONE_FIELD_NUMBER: _ClassVar[int]
    TARGET_CARD_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_MODE_FIELD_NUMBER: _ClassVar[int]
    CARD_PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    zone: str
    card_name: str
    color: str
    pt: str
    annotation: str
    destroy_on_zone_change: bool
    x: int
    y: int
    target_zone: str
    target_card_id: int
    target_mode: Command_CreateToken.TargetMode
    card_provider_id: str
    face_down: bool
    def __init__(self, zone: _Optional[str] = ..., card_name: _Optional[str] = ..., color: _Optional[str] = ..., pt: _Optional[str] = ..., annotation: _Optional[str] = ..., destroy_on_zone_change: _Optional[bool] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., target_zone: _Optional[str] = ..., target_card_id: _Optional[int] = ..., target_mode: _Optional[_Union[Command_CreateToken.TargetMode, str]] = ..., card_provider_id: _Optional[str] = ..., face_down: _Optional[bool] = ...) -> None: ...

class Command_CreateArrow(_message.Message):
    __slots__ = ("start_player_id", "start_zone", "start_card_id", "target_player_id", "target_zone", "target_card_id", "arrow_color", "delete_in_phase")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    START_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    START_ZONE_FIELD_NUMBER: _ClassVar[int]
    START_CARD_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ZONE_FIELD_NUMBER: _ClassVar[int]
    TARGET_CARD_ID_FIELD_NUMBER: _ClassVar[int]
    ARROW_COLOR_FIELD_NUMBER: _ClassVar[int]
    DELETE_IN_PHASE_FIELD_NUMBER: _ClassVar[int]
    start_player_id: int
    start_zone: str
    start_card_id: int
    target_player_id: int
    target_zone: str
    target_card_id: int
    arrow_color: _common_pb2.color
    delete_in_phase: int
    def __init__(self, start_player_id: _Optional[int] = ..., start_zone: _Optional[str] = ..., start_card_id: _Optional[int] = ..., target_player_id: _Optional[int] = ..., target_zone: _Optional[str] = ..., target_card_id: _Optional[int] = ..., arrow_color: _Optional[_Union[_common_pb2.color, _Mapping]] = ..., delete_in_phase: _Optional[int] = ...) -> None: ...

class Command_DeleteArrow(_message.Message):
    __slots__ = ("arrow_id",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ARROW_ID_FIELD_NUMBER: _ClassVar[int]
    arrow_id: int
    def __init__(self, arrow_id: _Optional[int] = ...) -> None: ...

class Command_SetCardAttr(_message.Message):
    __slots__ = ("zone", "card_id", "attribute", "attr_value")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    ATTR_VALUE_FIELD_NUMBER: _ClassVar[int]
    zone: str
    card_id: int
    attribute: _common_pb2.CardAttribute
    attr_value: str
    def __init__(self, zone: _Optional[str] = ..., card_id: _Optional[int] = ..., attribute: _Optional[_Union[_common_pb2.CardAttribute, str]] = ..., attr_value: _Optional[str] = ...) -> None: ...

class Command_SetCardCounter(_message.Message):
    __slots__ = ("zone", "card_id", "counter_id", "counter_value")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    COUNTER_ID_FIELD_NUMBER: _ClassVar[int]
    COUNTER_VALUE_FIELD_NUMBER: _ClassVar[int]
    zone: str
    card_id: int
    counter_id: int
    counter_value: int
    def __init__(self, zone: _Optional[str] = ..., card_id: _Optional[int] = ..., counter_id: _Optional[int] = ..., counter_value: _Optional[int] = ...) -> None: ...

class Command_IncCardCounter(_message.Message):
    __slots__ = ("zone", "card_id", "counter_id", "counter_delta")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    COUNTER_ID_FIELD_NUMBER: _ClassVar[int]
    COUNTER_DELTA_FIELD_NUMBER: _ClassVar[int]
    zone: str
    card_id: int
    counter_id: int
    counter_delta: int
    def __init__(self, zone: _Optional[str] = ..., card_id: _Optional[int] = ..., counter_id: _Optional[int] = ..., counter_delta: _Optional[int] = ...) -> None: ...

class Command_ReadyStart(_message.Message):
    __slots__ = ("ready", "force_start")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    READY_FIELD_NUMBER: _ClassVar[int]
    FORCE_START_FIELD_NUMBER: _ClassVar[int]
    ready: bool
    force_start: bool
    def __init__(self, ready: _Optional[bool] = ..., force_start: _Optional[bool] = ...) -> None: ...

class Command_Concede(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_Unconcede(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_IncCounter(_message.Message):
    __slots__ = ("counter_id", "delta")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    COUNTER_ID_FIELD_NUMBER: _ClassVar[int]
    DELTA_FIELD_NUMBER: _ClassVar[int]
    counter_id: int
    delta: int
    def __init__(self, counter_id: _Optional[int] = ..., delta: _Optional[int] = ...) -> None: ...

class Command_CreateCounter(_message.Message):
    __slots__ = ("counter_name", "counter_color", "radius", "value")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    COUNTER_NAME_FIELD_NUMBER: _ClassVar[int]
    COUNTER_COLOR_FIELD_NUMBER: _ClassVar[int]
    RADIUS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    counter_name: str
    counter_color: _common_pb2.color
    radius: int
    value: int
    def __init__(self, counter_name: _Optional[str] = ..., counter_color: _Optional[_Union[_common_pb2.color, _Mapping]] = ..., radius: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...

class Command_SetCounter(_message.Message):
    __slots__ = ("counter_id", "value")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    COUNTER_ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    counter_id: int
    value: int
    def __init__(self, counter_id: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...

class Command_DelCounter(_message.Message):
    __slots__ = ("counter_id",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    COUNTER_ID_FIELD_NUMBER: _ClassVar[int]
    counter_id: int
    def __init__(self, counter_id: _Optional[int] = ...) -> None: ...

class Command_NextTurn(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_SetActivePhase(_message.Message):
    __slots__ = ("phase",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    PHASE_FIELD_NUMBER: _ClassVar[int]
    phase: int
    def __init__(self, phase: _Optional[int] = ...) -> None: ...

class Command_DumpZone(_message.Message):
    __slots__ = ("player_id", "zone_name", "number_cards", "is_reversed")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    NUMBER_CARDS_FIELD_NUMBER: _ClassVar[int]
    IS_REVERSED_FIELD_NUMBER: _ClassVar[int]
    player_id: int
    zone_name: str
    number_cards: int
    is_reversed: bool
    def __init__(self, player_id: _Optional[int] = ..., zone_name: _Optional[str] = ..., number_cards: _Optional[int] = ..., is_reversed: _Optional[bool] = ...) -> None: ...

class Command_RevealCards(_message.Message):
    __slots__ = ("zone_name", "card_id", "player_id", "grant_write_access", "top_cards")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    ZONE_NAME_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    GRANT_WRITE_ACCESS_FIELD_NUMBER: _ClassVar[int]
    TOP_CARDS_FIELD_NUMBER: _ClassVar[int]
    zone_name: str
    card_id: _containers.RepeatedScalarFieldContainer[int]
    player_id: int
    grant_write_access: bool
    top_cards: int
    def __init__(self, zone_name: _Optional[str] = ..., card_id: _Optional[_Iterable[int]] = ..., player_id: _Optional[int] = ..., grant_write_access: _Optional[bool] = ..., top_cards: _Optional[int] = ...) -> None: ...

class CardToMove(_message.Message):
    __slots__ = ("card_id", "face_down", "pt", "tapped")
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    PT_FIELD_NUMBER: _ClassVar[int]
    TAPPED_FIELD_NUMBER: _ClassVar[int]
    card_id: int
    face_down: bool
    pt: str
    tapped: bool
    def __init__(self, card_id: _Optional[int] = ..., face_down: _Optional[bool] = ..., pt: _Optional[str] = ..., tapped: _Optional[bool] = ...) -> None: ...

class ListOfCardsToMove(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: _containers.RepeatedCompositeFieldContainer[CardToMove]
    def __init__(self, card: _Optional[_Iterable[_Union[CardToMove, _Mapping]]] = ...) -> None: ...

class Command_MoveCard(_message.Message):
    __slots__ = ("start_player_id", "start_zone", "cards_to_move", "target_player_id", "target_zone", "x", "y", "is_reversed")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    START_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    START_ZONE_FIELD_NUMBER: _ClassVar[int]
    CARDS_TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    TARGET_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ZONE_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    IS_REVERSED_FIELD_NUMBER: _ClassVar[int]
    start_player_id: int
    start_zone: str
    cards_to_move: ListOfCardsToMove
    target_player_id: int
    target_zone: str
    x: int
    y: int
    is_reversed: bool
    def __init__(self, start_player_id: _Optional[int] = ..., start_zone: _Optional[str] = ..., cards_to_move: _Optional[_Union[ListOfCardsToMove, _Mapping]] = ..., target_player_id: _Optional[int] = ..., target_zone: _Optional[str] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., is_reversed: _Optional[bool] = ...) -> None: ...

class Command_SetSideboardPlan(_message.Message):
    __slots__ = ("move_list",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    MOVE_LIST_FIELD_NUMBER: _ClassVar[int]
    move_list: _containers.RepeatedCompositeFieldContainer[_common_pb2.MoveCard_ToZone]
    def __init__(self, move_list: _Optional[_Iterable[_Union[_common_pb2.MoveCard_ToZone, _Mapping]]] = ...) -> None: ...

class Command_DeckSelect(_message.Message):
    __slots__ = ("deck", "deck_id")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    DECK_FIELD_NUMBER: _ClassVar[int]
    DECK_ID_FIELD_NUMBER: _ClassVar[int]
    deck: str
    deck_id: int
    def __init__(self, deck: _Optional[str] = ..., deck_id: _Optional[int] = ...) -> None: ...

class Command_SetSideboardLock(_message.Message):
    __slots__ = ("locked",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    LOCKED_FIELD_NUMBER: _ClassVar[int]
    locked: bool
    def __init__(self, locked: _Optional[bool] = ...) -> None: ...

class Command_ChangeZoneProperties(_message.Message):
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

class Command_Judge(_message.Message):
    __slots__ = ("target_id", "game_command")
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    TARGET_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_COMMAND_FIELD_NUMBER: _ClassVar[int]
    target_id: int
    game_command: _containers.RepeatedCompositeFieldContainer[_commands_pb2.GameCommand]
    def __init__(self, target_id: _Optional[int] = ..., game_command: _Optional[_Iterable[_Union[_commands_pb2.GameCommand, _Mapping]]] = ...) -> None: ...

class Command_ReverseTurn(_message.Message):
    __slots__ = ()
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    def __init__(self) -> None: ...

class Command_SetPlaymat(_message.Message):
    __slots__ = ("playmat_params",)
    EXT_FIELD_NUMBER: _ClassVar[int]
    ext: _descriptor.FieldDescriptor
    PLAYMAT_PARAMS_FIELD_NUMBER: _ClassVar[int]
    playmat_params: _common_pb2.ServerInfo_PlayerProperties.PlaymatParams
    def __init__(self, playmat_params: _Optional[_Union[_common_pb2.ServerInfo_PlayerProperties.PlaymatParams, _Mapping]] = ...) -> None: ...
