from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CardAttribute(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AttrTapped: _ClassVar[CardAttribute]
    AttrAttacking: _ClassVar[CardAttribute]
    AttrFaceDown: _ClassVar[CardAttribute]
    AttrColor: _ClassVar[CardAttribute]
    AttrPT: _ClassVar[CardAttribute]
    AttrAnnotation: _ClassVar[CardAttribute]
    AttrDoesntUntap: _ClassVar[CardAttribute]
AttrTapped: CardAttribute
AttrAttacking: CardAttribute
AttrFaceDown: CardAttribute
AttrColor: CardAttribute
AttrPT: CardAttribute
AttrAnnotation: CardAttribute
AttrDoesntUntap: CardAttribute

class color(_message.Message):
    __slots__ = ("r", "g", "b", "a")
    R_FIELD_NUMBER: _ClassVar[int]
    G_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    A_FIELD_NUMBER: _ClassVar[int]
    r: int
    g: int
    b: int
    a: int
    def __init__(self, r: _Optional[int] = ..., g: _Optional[int] = ..., b: _Optional[int] = ..., a: _Optional[int] = ...) -> None: ...

class ServerInfo_User(_message.Message):
    __slots__ = ("name", "user_level", "address", "real_name", "country", "avatar_bmp", "id", "server_id", "session_id", "accountage_secs", "email", "clientid", "privlevel", "pawn_colors", "card_art_params")
    class UserLevelFlag(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        IsNothing: _ClassVar[ServerInfo_User.UserLevelFlag]
        IsUser: _ClassVar[ServerInfo_User.UserLevelFlag]
        IsRegistered: _ClassVar[ServerInfo_User.UserLevelFlag]
        IsModerator: _ClassVar[ServerInfo_User.UserLevelFlag]
        IsAdmin: _ClassVar[ServerInfo_User.UserLevelFlag]
        IsJudge: _ClassVar[ServerInfo_User.UserLevelFlag]
    IsNothing: ServerInfo_User.UserLevelFlag
    IsUser: ServerInfo_User.UserLevelFlag
    IsRegistered: ServerInfo_User.UserLevelFlag
    IsModerator: ServerInfo_User.UserLevelFlag
    IsAdmin: ServerInfo_User.UserLevelFlag
    IsJudge: ServerInfo_User.UserLevelFlag
    class PawnColorsOverride(_message.Message):
        __slots__ = ("left_side", "right_side")
        LEFT_SIDE_FIELD_NUMBER: _ClassVar[int]
        RIGHT_SIDE_FIELD_NUMBER: _ClassVar[int]
        left_side: str
        right_side: str
        def __init__(self, left_side: _Optional[str] = ..., right_side: _Optional[str] = ...) -> None: ...
    class CardArtParams(_message.Message):
        __slots__ = ("card_name", "card_provider_id", "margin_pct_l", "margin_pct_r", "vertical_offset", "zoom")
        CARD_NAME_FIELD_NUMBER: _ClassVar[int]
        CARD_PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
        MARGIN_PCT_L_FIELD_NUMBER: _ClassVar[int]
        MARGIN_PCT_R_FIELD_NUMBER: _ClassVar[int]
        VERTICAL_OFFSET_FIELD_NUMBER: _ClassVar[int]
        ZOOM_FIELD_NUMBER: _ClassVar[int]
        card_name: str
        card_provider_id: str
        margin_pct_l: float
        margin_pct_r: float
        vertical_offset: float
        zoom: float
        def __init__(self, card_name: _Optional[str] = ..., card_provider_id: _Optional[str] = ..., margin_pct_l: _Optional[float] = ..., margin_pct_r: _Optional[float] = ..., vertical_offset: _Optional[float] = ..., zoom: _Optional[float] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    USER_LEVEL_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    REAL_NAME_FIELD_NUMBER: _ClassVar[int]
    COUNTRY_FIELD_NUMBER: _ClassVar[int]
    AVATAR_BMP_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    SERVER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNTAGE_SECS_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    CLIENTID_FIELD_NUMBER: _ClassVar[int]
    PRIVLEVEL_FIELD_NUMBER: _ClassVar[int]
    PAWN_COLORS_FIELD_NUMBER: _ClassVar[int]
    CARD_ART_PARAMS_FIELD_NUMBER: _ClassVar[int]
    name: str
    user_level: int
    address: str
    real_name: str
    country: str
    avatar_bmp: bytes
    id: int
    server_id: int
    session_id: int
    accountage_secs: int
    email: str
    clientid: str
    privlevel: str
    pawn_colors: ServerInfo_User.PawnColorsOverride
    card_art_params: ServerInfo_User.CardArtParams
    def __init__(self, name: _Optional[str] = ..., user_level: _Optional[int] = ..., address: _Optional[str] = ..., real_name: _Optional[str] = ..., country: _Optional[str] = ..., avatar_bmp: _Optional[bytes] = ..., id: _Optional[int] = ..., server_id: _Optional[int] = ..., session_id: _Optional[int] = ..., accountage_secs: _Optional[int] = ..., email: _Optional[str] = ..., clientid: _Optional[str] = ..., privlevel: _Optional[str] = ..., pawn_colors: _Optional[_Union[ServerInfo_User.PawnColorsOverride, _Mapping]] = ..., card_art_params: _Optional[_Union[ServerInfo_User.CardArtParams, _Mapping]] = ...) -> None: ...

class ServerInfo_GameType(_message.Message):
    __slots__ = ("game_type_id", "description")
    GAME_TYPE_ID_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    game_type_id: int
    description: str
    def __init__(self, game_type_id: _Optional[int] = ..., description: _Optional[str] = ...) -> None: ...

class ServerInfo_Game(_message.Message):
    __slots__ = ("server_id", "room_id", "game_id", "description", "with_password", "max_players", "game_types", "creator_info", "only_buddies", "only_registered", "spectators_allowed", "spectators_need_password", "spectators_can_chat", "spectators_omniscient", "share_decklists_on_load", "player_count", "spectators_count", "started", "start_time", "closed", "host_info")
    SERVER_ID_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    WITH_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    GAME_TYPES_FIELD_NUMBER: _ClassVar[int]
    CREATOR_INFO_FIELD_NUMBER: _ClassVar[int]
    ONLY_BUDDIES_FIELD_NUMBER: _ClassVar[int]
    ONLY_REGISTERED_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_NEED_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_CAN_CHAT_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_OMNISCIENT_FIELD_NUMBER: _ClassVar[int]
    SHARE_DECKLISTS_ON_LOAD_FIELD_NUMBER: _ClassVar[int]
    PLAYER_COUNT_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_COUNT_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    HOST_INFO_FIELD_NUMBER: _ClassVar[int]
    server_id: int
    room_id: int
    game_id: int
    description: str
    with_password: bool
    max_players: int
    game_types: _containers.RepeatedScalarFieldContainer[int]
    creator_info: ServerInfo_User
    only_buddies: bool
    only_registered: bool
    spectators_allowed: bool
    spectators_need_password: bool
    spectators_can_chat: bool
    spectators_omniscient: bool
    share_decklists_on_load: bool
    player_count: int
    spectators_count: int
    started: bool
    start_time: int
    closed: bool
    host_info: ServerInfo_User
    def __init__(self, server_id: _Optional[int] = ..., room_id: _Optional[int] = ..., game_id: _Optional[int] = ..., description: _Optional[str] = ..., with_password: _Optional[bool] = ..., max_players: _Optional[int] = ..., game_types: _Optional[_Iterable[int]] = ..., creator_info: _Optional[_Union[ServerInfo_User, _Mapping]] = ..., only_buddies: _Optional[bool] = ..., only_registered: _Optional[bool] = ..., spectators_allowed: _Optional[bool] = ..., spectators_need_password: _Optional[bool] = ..., spectators_can_chat: _Optional[bool] = ..., spectators_omniscient: _Optional[bool] = ..., share_decklists_on_load: _Optional[bool] = ..., player_count: _Optional[int] = ..., spectators_count: _Optional[int] = ..., started: _Optional[bool] = ..., start_time: _Optional[int] = ..., closed: _Optional[bool] = ..., host_info: _Optional[_Union[ServerInfo_User, _Mapping]] = ...) -> None: ...

class ServerInfo_Room(_message.Message):
    __slots__ = ("room_id", "name", "description", "game_count", "player_count", "auto_join", "game_list", "user_list", "gametype_list", "permissionlevel", "privilegelevel")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    GAME_COUNT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_COUNT_FIELD_NUMBER: _ClassVar[int]
    AUTO_JOIN_FIELD_NUMBER: _ClassVar[int]
    GAME_LIST_FIELD_NUMBER: _ClassVar[int]
    USER_LIST_FIELD_NUMBER: _ClassVar[int]
    GAMETYPE_LIST_FIELD_NUMBER: _ClassVar[int]
    PERMISSIONLEVEL_FIELD_NUMBER: _ClassVar[int]
    PRIVILEGELEVEL_FIELD_NUMBER: _ClassVar[int]
    room_id: int
    name: str
    description: str
    game_count: int
    player_count: int
    auto_join: bool
    game_list: _containers.RepeatedCompositeFieldContainer[ServerInfo_Game]
    user_list: _containers.RepeatedCompositeFieldContainer[ServerInfo_User]
    gametype_list: _containers.RepeatedCompositeFieldContainer[ServerInfo_GameType]
    permissionlevel: str
    privilegelevel: str
    def __init__(self, room_id: _Optional[int] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., game_count: _Optional[int] = ..., player_count: _Optional[int] = ..., auto_join: _Optional[bool] = ..., game_list: _Optional[_Iterable[_Union[ServerInfo_Game, _Mapping]]] = ..., user_list: _Optional[_Iterable[_Union[ServerInfo_User, _Mapping]]] = ..., gametype_list: _Optional[_Iterable[_Union[ServerInfo_GameType, _Mapping]]] = ..., permissionlevel: _Optional[str] = ..., privilegelevel: _Optional[str] = ...) -> None: ...

class ServerInfo_CardCounter(_message.Message):
    __slots__ = ("id", "value")
    ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    id: int
    value: int
    def __init__(self, id: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...

class ServerInfo_Card(_message.Message):
    __slots__ = ("id", "name", "x", "y", "face_down", "tapped", "attacking", "color", "pt", "annotation", "destroy_on_zone_change", "doesnt_untap", "counter_list", "attach_player_id", "attach_zone", "attach_card_id", "provider_id")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    TAPPED_FIELD_NUMBER: _ClassVar[int]
    ATTACKING_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    PT_FIELD_NUMBER: _ClassVar[int]
    ANNOTATION_FIELD_NUMBER: _ClassVar[int]
    DESTROY_ON_ZONE_CHANGE_FIELD_NUMBER: _ClassVar[int]
    DOESNT_UNTAP_FIELD_NUMBER: _ClassVar[int]
    COUNTER_LIST_FIELD_NUMBER: _ClassVar[int]
    ATTACH_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    ATTACH_ZONE_FIELD_NUMBER: _ClassVar[int]
    ATTACH_CARD_ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    x: int
    y: int
    face_down: bool
    tapped: bool
    attacking: bool
    color: str
    pt: str
    annotation: str
    destroy_on_zone_change: bool
    doesnt_untap: bool
    counter_list: _containers.RepeatedCompositeFieldContainer[ServerInfo_CardCounter]
    attach_player_id: int
    attach_zone: str
    attach_card_id: int
    provider_id: str
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., face_down: _Optional[bool] = ..., tapped: _Optional[bool] = ..., attacking: _Optional[bool] = ..., color: _Optional[str] = ..., pt: _Optional[str] = ..., annotation: _Optional[str] = ..., destroy_on_zone_change: _Optional[bool] = ..., doesnt_untap: _Optional[bool] = ..., counter_list: _Optional[_Iterable[_Union[ServerInfo_CardCounter, _Mapping]]] = ..., attach_player_id: _Optional[int] = ..., attach_zone: _Optional[str] = ..., attach_card_id: _Optional[int] = ..., provider_id: _Optional[str] = ...) -> None: ...

class ServerInfo_Zone(_message.Message):
    __slots__ = ("name", "type", "with_coords", "card_count", "card_list", "always_reveal_top_card", "always_look_at_top_card")
    class ZoneType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PrivateZone: _ClassVar[ServerInfo_Zone.ZoneType]
        PublicZone: _ClassVar[ServerInfo_Zone.ZoneType]
        HiddenZone: _ClassVar[ServerInfo_Zone.ZoneType]
    PrivateZone: ServerInfo_Zone.ZoneType
    PublicZone: ServerInfo_Zone.ZoneType
    HiddenZone: ServerInfo_Zone.ZoneType
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    WITH_COORDS_FIELD_NUMBER: _ClassVar[int]
    CARD_COUNT_FIELD_NUMBER: _ClassVar[int]
    CARD_LIST_FIELD_NUMBER: _ClassVar[int]
    ALWAYS_REVEAL_TOP_CARD_FIELD_NUMBER: _ClassVar[int]
    ALWAYS_LOOK_AT_TOP_CARD_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: ServerInfo_Zone.ZoneType
    with_coords: bool
    card_count: int
    card_list: _containers.RepeatedCompositeFieldContainer[ServerInfo_Card]
    always_reveal_top_card: bool
    always_look_at_top_card: bool
    def __init__(self, name: _Optional[str] = ..., type: _Optional[_Union[ServerInfo_Zone.ZoneType, str]] = ..., with_coords: _Optional[bool] = ..., card_count: _Optional[int] = ..., card_list: _Optional[_Iterable[_Union[ServerInfo_Card, _Mapping]]] = ..., always_reveal_top_card: _Optional[bool] = ..., always_look_at_top_card: _Optional[bool] = ...) -> None: ...

class ServerInfo_Counter(_message.Message):
    __slots__ = ("id", "name", "counter_color", "radius", "count")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    COUNTER_COLOR_FIELD_NUMBER: _ClassVar[int]
    RADIUS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    counter_color: color
    radius: int
    count: int
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., counter_color: _Optional[_Union[color, _Mapping]] = ..., radius: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class ServerInfo_Arrow(_message.Message):
    __slots__ = ("id", "start_player_id", "start_zone", "start_card_id", "target_player_id", "target_zone", "target_card_id", "arrow_color")
    ID_FIELD_NUMBER: _ClassVar[int]
    START_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    START_ZONE_FIELD_NUMBER: _ClassVar[int]
    START_CARD_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ZONE_FIELD_NUMBER: _ClassVar[int]
    TARGET_CARD_ID_FIELD_NUMBER: _ClassVar[int]
    ARROW_COLOR_FIELD_NUMBER: _ClassVar[int]
    id: int
    start_player_id: int
    start_zone: str
    start_card_id: int
    target_player_id: int
    target_zone: str
    target_card_id: int
    arrow_color: color
    def __init__(self, id: _Optional[int] = ..., start_player_id: _Optional[int] = ..., start_zone: _Optional[str] = ..., start_card_id: _Optional[int] = ..., target_player_id: _Optional[int] = ..., target_zone: _Optional[str] = ..., target_card_id: _Optional[int] = ..., arrow_color: _Optional[_Union[color, _Mapping]] = ...) -> None: ...

class ServerInfo_PlayerProperties(_message.Message):
    __slots__ = ("player_id", "user_info", "spectator", "conceded", "ready_start", "deck_hash", "ping_seconds", "sideboard_locked", "judge", "playmat_params")
    class PlaymatParams(_message.Message):
        __slots__ = ("card_name", "card_provider_id", "margin_pct_l", "margin_pct_r", "vertical_offset", "zoom")
        CARD_NAME_FIELD_NUMBER: _ClassVar[int]
        CARD_PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
        MARGIN_PCT_L_FIELD_NUMBER: _ClassVar[int]
        MARGIN_PCT_R_FIELD_NUMBER: _ClassVar[int]
        VERTICAL_OFFSET_FIELD_NUMBER: _ClassVar[int]
        ZOOM_FIELD_NUMBER: _ClassVar[int]
        card_name: str
        card_provider_id: str
        margin_pct_l: float
        margin_pct_r: float
        vertical_offset: float
        zoom: float
        def __init__(self, card_name: _Optional[str] = ..., card_provider_id: _Optional[str] = ..., margin_pct_l: _Optional[float] = ..., margin_pct_r: _Optional[float] = ..., vertical_offset: _Optional[float] = ..., zoom: _Optional[float] = ...) -> None: ...
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    USER_INFO_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_FIELD_NUMBER: _ClassVar[int]
    CONCEDED_FIELD_NUMBER: _ClassVar[int]
    READY_START_FIELD_NUMBER: _ClassVar[int]
    DECK_HASH_FIELD_NUMBER: _ClassVar[int]
    PING_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SIDEBOARD_LOCKED_FIELD_NUMBER: _ClassVar[int]
    JUDGE_FIELD_NUMBER: _ClassVar[int]
    PLAYMAT_PARAMS_FIELD_NUMBER: _ClassVar[int]
    player_id: int
    user_info: ServerInfo_User
    spectator: bool
    conceded: bool
    ready_start: bool
    deck_hash: str
    ping_seconds: int
    sideboard_locked: bool
    judge: bool
    playmat_params: ServerInfo_PlayerProperties.PlaymatParams
    def __init__(self, player_id: _Optional[int] = ..., user_info: _Optional[_Union[ServerInfo_User, _Mapping]] = ..., spectator: _Optional[bool] = ..., conceded: _Optional[bool] = ..., ready_start: _Optional[bool] = ..., deck_hash: _Optional[str] = ..., ping_seconds: _Optional[int] = ..., sideboard_locked: _Optional[bool] = ..., judge: _Optional[bool] = ..., playmat_params: _Optional[_Union[ServerInfo_PlayerProperties.PlaymatParams, _Mapping]] = ...) -> None: ...

class ServerInfo_Player(_message.Message):
    __slots__ = ("properties", "deck_list", "zone_list", "counter_list", "arrow_list")
    PROPERTIES_FIELD_NUMBER: _ClassVar[int]
    DECK_LIST_FIELD_NUMBER: _ClassVar[int]
    ZONE_LIST_FIELD_NUMBER: _ClassVar[int]
    COUNTER_LIST_FIELD_NUMBER: _ClassVar[int]
    ARROW_LIST_FIELD_NUMBER: _ClassVar[int]
    properties: ServerInfo_PlayerProperties
    deck_list: str
    zone_list: _containers.RepeatedCompositeFieldContainer[ServerInfo_Zone]
    counter_list: _containers.RepeatedCompositeFieldContainer[ServerInfo_Counter]
    arrow_list: _containers.RepeatedCompositeFieldContainer[ServerInfo_Arrow]
    def __init__(self, properties: _Optional[_Union[ServerInfo_PlayerProperties, _Mapping]] = ..., deck_list: _Optional[str] = ..., zone_list: _Optional[_Iterable[_Union[ServerInfo_Zone, _Mapping]]] = ..., counter_list: _Optional[_Iterable[_Union[ServerInfo_Counter, _Mapping]]] = ..., arrow_list: _Optional[_Iterable[_Union[ServerInfo_Arrow, _Mapping]]] = ...) -> None: ...

class MoveCard_ToZone(_message.Message):
    __slots__ = ("card_name", "start_zone", "target_zone")
    CARD_NAME_FIELD_NUMBER: _ClassVar[int]
    START_ZONE_FIELD_NUMBER: _ClassVar[int]
    TARGET_ZONE_FIELD_NUMBER: _ClassVar[int]
    card_name: str
    start_zone: str
    target_zone: str
    def __init__(self, card_name: _Optional[str] = ..., start_zone: _Optional[str] = ..., target_zone: _Optional[str] = ...) -> None: ...
