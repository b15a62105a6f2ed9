"""Builders for the commands we send.

Each builder returns the *domain wrapper* (``SessionCommand``, ``RoomCommand`` or ``GameCommand``) with
the concrete command set as its extension, ready for :meth:`ClientConnection.send`, which puts it in a
``CommandContainer`` with a fresh ``cmd_id`` (and the ``room_id`` / ``game_id`` it needs).

Arguments are keyword-only where a call site would otherwise be a row of unexplained numbers.  Optional fields
are only set when given, so the server sees its own defaults.  Protobuf raises ``ValueError``/``TypeError``
for values that do not fit their wire type (e.g. a negative ``uint32``); builders let that propagate.

Servatrice quirks worth remembering (see docs/cockatrice-protocol.md): several commands in one container run
in *reverse* order, so send one game command per container or wrap them in :func:`judge`; cards in hidden
zones (``deck``, ``sb``) are addressed by index, elsewhere by id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from google.protobuf.message import Message

from .codes import PROTOCOL_VERSION, CardAttribute, Zone
from .pb.commands_pb2 import GameCommand, RoomCommand, SessionCommand
from .pb.game_commands_pb2 import (
    Command_AttachCard,
    Command_Concede,
    Command_CreateArrow,
    Command_CreateCounter,
    Command_CreateToken,
    Command_DeckSelect,
    Command_DelCounter,
    Command_DeleteArrow,
    Command_DrawCards,
    Command_DumpZone,
    Command_FlipCard,
    Command_GameSay,
    Command_IncCardCounter,
    Command_IncCounter,
    Command_Judge,
    Command_KickFromGame,
    Command_LeaveGame,
    Command_MoveCard,
    Command_Mulligan,
    Command_NextTurn,
    Command_ReadyStart,
    Command_RevealCards,
    Command_ReverseTurn,
    Command_RollDie,
    Command_SetActivePhase,
    Command_SetCardAttr,
    Command_SetCardCounter,
    Command_SetCounter,
    Command_SetSideboardLock,
    Command_Shuffle,
    Command_Unconcede,
    Command_UndoDraw,
)
from .pb.room_commands_pb2 import Command_CreateGame, Command_JoinGame, Command_LeaveRoom, Command_RoomSay
from .pb.session_commands_pb2 import (
    Command_GetGamesOfUser,
    Command_GetUserInfo,
    Command_JoinRoom,
    Command_ListRooms,
    Command_ListUsers,
    Command_Login,
    Command_Message,
    Command_Ping,
    Command_RequestPasswordSalt,
)

__all__ = [
    "DEFAULT_CLIENT_FEATURES",
    "DEFAULT_CLIENT_VERSION",
    "Command",
    "attach_card",
    "concede",
    "create_arrow",
    "create_counter",
    "create_game",
    "create_token",
    "deck_select",
    "del_counter",
    "delete_arrow",
    "domain_of",
    "draw_cards",
    "dump_zone",
    "flip_card",
    "game_say",
    "get_games_of_user",
    "get_user_info",
    "inc_card_counter",
    "inc_counter",
    "join_game",
    "join_room",
    "judge",
    "kick_from_game",
    "leave_game",
    "leave_room",
    "list_rooms",
    "list_users",
    "login",
    "message",
    "move_card",
    "mulligan",
    "next_turn",
    "ping",
    "ready_start",
    "request_password_salt",
    "reveal_cards",
    "reverse_turn",
    "roll_die",
    "room_say",
    "set_active_phase",
    "set_card_attr",
    "set_card_counter",
    "set_counter",
    "set_sideboard_lock",
    "shuffle",
    "unconcede",
    "undo_draw",
]

Command = SessionCommand | RoomCommand | GameCommand
"""What every builder returns: a domain wrapper with one concrete command extension set."""

DEFAULT_CLIENT_VERSION = f"cockatrice-ext (protocol {PROTOCOL_VERSION})"

DEFAULT_CLIENT_FEATURES: tuple[str, ...] = (
    "client_id",
    "client_ver",
    "feature_set",
    "room_chat_history",
    "client_warnings",
    "idle_client",
    "websocket",
    "2.7.0_min_version",
    "2.8.0_min_version",
)
"""Feature names we announce at login (servers may require some via ``server/requiredfeatures``)."""

_Color = tuple[int, int, int] | tuple[int, int, int, int]


def _wrap(domain: type[Message], concrete: type[Message], **fields: object) -> Message:
    """Build ``domain`` with extension ``concrete.ext`` set; ``None`` fields are left unset."""
    wrapper = domain()
    inner = wrapper.Extensions[concrete.ext]
    inner.SetInParent()  # an empty command (ping, concede...) must still be present on the wire
    for name, value in fields.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            getattr(inner, name).extend(value)
        else:
            setattr(inner, name, value)
    return wrapper


def domain_of(command: Message) -> str:
    """``"session"``, ``"room"`` or ``"game"`` for a builder's result.

    Raises:
        TypeError: ``command`` is not a session, room or game command wrapper.
    """
    if isinstance(command, SessionCommand):
        return "session"
    if isinstance(command, RoomCommand):
        return "room"
    if isinstance(command, GameCommand):
        return "game"
    raise TypeError(f"not a command wrapper: {type(command).__name__}")


def _set_color(target: Message, rgba: _Color) -> None:
    """Copy an (r, g, b[, a]) tuple into a ``color`` message."""
    target.r, target.g, target.b = rgba[0], rgba[1], rgba[2]
    target.a = rgba[3] if len(rgba) > 3 else 255


# ---------------------------------------------------------------------------------------------------- session


def ping() -> Message:
    """``Command_Ping``: keepalive; send every few seconds or Servatrice drops the connection."""
    return _wrap(SessionCommand, Command_Ping)


def login(
    user_name: str,
    *,
    password: str | None = None,
    hashed_password: str | None = None,
    client_id: str | None = None,
    client_version: str | None = DEFAULT_CLIENT_VERSION,
    client_features: Iterable[str] = DEFAULT_CLIENT_FEATURES,
) -> Message:
    """``Command_Login`` with a plain ``password`` or a ``hashed_password`` (see :mod:`.hashing`), not both.

    Normally :meth:`ClientConnection.login` builds this for you, including the salted-hash dance.

    Raises:
        ValueError: both a password and a hashed password were given.
    """
    if password is not None and hashed_password is not None:
        raise ValueError("give either password or hashed_password, not both")
    return _wrap(
        SessionCommand,
        Command_Login,
        user_name=user_name,
        password=password,
        hashed_password=hashed_password,
        clientid=client_id,
        clientver=client_version,
        clientfeatures=list(client_features),
    )


def request_password_salt(user_name: str) -> Message:
    """``Command_RequestPasswordSalt``; the reply carries ``Response_PasswordSalt``."""
    return _wrap(SessionCommand, Command_RequestPasswordSalt, user_name=user_name)


def message(user_name: str, text: str) -> Message:
    """``Command_Message``: a private message to ``user_name`` (counts against the chat flood budget)."""
    return _wrap(SessionCommand, Command_Message, user_name=user_name, message=text)


def list_users() -> Message:
    """``Command_ListUsers``; the reply carries ``Response_ListUsers``."""
    return _wrap(SessionCommand, Command_ListUsers)


def get_games_of_user(user_name: str) -> Message:
    """``Command_GetGamesOfUser``; the reply carries ``Response_GetGamesOfUser``."""
    return _wrap(SessionCommand, Command_GetGamesOfUser, user_name=user_name)


def get_user_info(user_name: str) -> Message:
    """``Command_GetUserInfo``; the reply carries ``Response_GetUserInfo``."""
    return _wrap(SessionCommand, Command_GetUserInfo, user_name=user_name)


def list_rooms() -> Message:
    """``Command_ListRooms``; the rooms arrive as a session ``Event_ListRooms``."""
    return _wrap(SessionCommand, Command_ListRooms)


def join_room(room_id: int) -> Message:
    """``Command_JoinRoom``; replied to with ``Response_JoinRoom``, then history/welcome ``Event_RoomSay``."""
    return _wrap(SessionCommand, Command_JoinRoom, room_id=room_id)


# ------------------------------------------------------------------------------------------------------- room


def leave_room() -> Message:
    """``Command_LeaveRoom`` (send with ``room_id``)."""
    return _wrap(RoomCommand, Command_LeaveRoom)


def room_say(text: str) -> Message:
    """``Command_RoomSay`` (send with ``room_id``); newlines become spaces server-side."""
    return _wrap(RoomCommand, Command_RoomSay, message=text)


def create_game(
    description: str,
    *,
    max_players: int = 2,
    password: str | None = None,
    game_type_ids: Sequence[int] = (),
    only_buddies: bool | None = None,
    only_registered: bool | None = None,
    spectators_allowed: bool | None = None,
    spectators_need_password: bool | None = None,
    spectators_can_talk: bool | None = None,
    spectators_see_everything: bool | None = None,
    join_as_judge: bool | None = None,
    join_as_spectator: bool | None = None,
    starting_life_total: int | None = None,
    share_decklists_on_load: bool | None = None,
) -> Message:
    """``Command_CreateGame`` (send with ``room_id``).  The new game id arrives in ``Event_GameJoined``."""
    return _wrap(
        RoomCommand,
        Command_CreateGame,
        description=description,
        password=password,
        max_players=max_players,
        only_buddies=only_buddies,
        only_registered=only_registered,
        spectators_allowed=spectators_allowed,
        spectators_need_password=spectators_need_password,
        spectators_can_talk=spectators_can_talk,
        spectators_see_everything=spectators_see_everything,
        game_type_ids=list(game_type_ids),
        join_as_judge=join_as_judge,
        join_as_spectator=join_as_spectator,
        starting_life_total=starting_life_total,
        share_decklists_on_load=share_decklists_on_load,
    )


def join_game(
    game_id: int,
    *,
    password: str | None = None,
    spectator: bool | None = None,
    override_restrictions: bool | None = None,
    join_as_judge: bool | None = None,
) -> Message:
    """``Command_JoinGame`` (send with ``room_id``)."""
    return _wrap(
        RoomCommand,
        Command_JoinGame,
        game_id=game_id,
        password=password,
        spectator=spectator,
        override_restrictions=override_restrictions,
        join_as_judge=join_as_judge,
    )


# ------------------------------------------------------------------------------------------------------- game


def kick_from_game(player_id: int) -> Message:
    """``Command_KickFromGame`` (host or moderator only)."""
    return _wrap(GameCommand, Command_KickFromGame, player_id=player_id)


def leave_game() -> Message:
    """``Command_LeaveGame``."""
    return _wrap(GameCommand, Command_LeaveGame)


def game_say(text: str) -> Message:
    """``Command_GameSay`` (counts against both the chat and the game-command budgets)."""
    return _wrap(GameCommand, Command_GameSay, message=text)


def shuffle(zone_name: str = Zone.DECK.value, *, start: int | None = None, end: int | None = None) -> Message:
    """``Command_Shuffle`` of (part of) one of our zones; the server only shuffles ``deck``."""
    return _wrap(
        GameCommand,
        Command_Shuffle,
        zone_name=str(zone_name),
        start=start,
        end=end,
    )


def mulligan(number: int) -> Message:
    """``Command_Mulligan``: shuffle the hand away and draw ``number``."""
    return _wrap(GameCommand, Command_Mulligan, number=number)


def roll_die(sides: int, *, count: int = 1) -> Message:
    """``Command_RollDie`` (the result arrives as ``Event_RollDie``)."""
    return _wrap(GameCommand, Command_RollDie, sides=sides, count=count)


def draw_cards(number: int) -> Message:
    """``Command_DrawCards`` from our own deck."""
    return _wrap(GameCommand, Command_DrawCards, number=number)


def undo_draw() -> Message:
    """``Command_UndoDraw``."""
    return _wrap(GameCommand, Command_UndoDraw)


def flip_card(zone: str, card_id: int, *, face_down: bool, pt: str | None = None) -> Message:
    """``Command_FlipCard``: turn one of our cards face up or down."""
    return _wrap(
        GameCommand,
        Command_FlipCard,
        zone=str(zone),
        card_id=card_id,
        face_down=face_down,
        pt=pt,
    )


def attach_card(
    start_zone: str,
    card_id: int,
    *,
    target_player_id: int | None = None,
    target_zone: str | None = None,
    target_card_id: int | None = None,
) -> Message:
    """``Command_AttachCard`` (no target = detach)."""
    return _wrap(
        GameCommand,
        Command_AttachCard,
        start_zone=str(start_zone),
        card_id=card_id,
        target_player_id=target_player_id,
        target_zone=None if target_zone is None else str(target_zone),
        target_card_id=target_card_id,
    )


def create_token(
    card_name: str,
    *,
    zone: str = Zone.TABLE.value,
    color: str | None = None,
    pt: str | None = None,
    annotation: str | None = None,
    destroy_on_zone_change: bool | None = None,
    x: int | None = None,
    y: int | None = None,
    card_provider_id: str | None = None,
    face_down: bool | None = None,
) -> Message:
    """``Command_CreateToken`` in one of our zones (normally the table)."""
    return _wrap(
        GameCommand,
        Command_CreateToken,
        zone=str(zone),
        card_name=card_name,
        color=color,
        pt=pt,
        annotation=annotation,
        destroy_on_zone_change=destroy_on_zone_change,
        x=x,
        y=y,
        card_provider_id=card_provider_id,
        face_down=face_down,
    )


def create_arrow(
    *,
    start_player_id: int,
    start_zone: str,
    start_card_id: int,
    target_player_id: int,
    target_zone: str | None = None,
    target_card_id: int | None = None,
    color: _Color = (255, 0, 0, 255),
) -> Message:
    """``Command_CreateArrow`` from a card to a card (or to a player when no target card is given)."""
    wrapper = _wrap(
        GameCommand,
        Command_CreateArrow,
        start_player_id=start_player_id,
        start_zone=str(start_zone),
        start_card_id=start_card_id,
        target_player_id=target_player_id,
        target_zone=None if target_zone is None else str(target_zone),
        target_card_id=target_card_id,
    )
    _set_color(wrapper.Extensions[Command_CreateArrow.ext].arrow_color, color)
    return wrapper


def delete_arrow(arrow_id: int) -> Message:
    """``Command_DeleteArrow``."""
    return _wrap(GameCommand, Command_DeleteArrow, arrow_id=arrow_id)


def set_card_attr(zone: str, card_id: int, attribute: CardAttribute | int, value: str) -> Message:
    """``Command_SetCardAttr`` (e.g. ``AttrTapped`` with ``"1"``, ``AttrAnnotation`` with text)."""
    return _wrap(
        GameCommand,
        Command_SetCardAttr,
        zone=str(zone),
        card_id=card_id,
        attribute=int(attribute),
        attr_value=value,
    )


def set_card_counter(zone: str, card_id: int, counter_id: int, value: int) -> Message:
    """``Command_SetCardCounter``."""
    return _wrap(
        GameCommand,
        Command_SetCardCounter,
        zone=str(zone),
        card_id=card_id,
        counter_id=counter_id,
        counter_value=value,
    )


def inc_card_counter(zone: str, card_id: int, counter_id: int, delta: int) -> Message:
    """``Command_IncCardCounter``."""
    return _wrap(
        GameCommand,
        Command_IncCardCounter,
        zone=str(zone),
        card_id=card_id,
        counter_id=counter_id,
        counter_delta=delta,
    )


def ready_start(ready: bool = True, *, force_start: bool | None = None) -> Message:
    """``Command_ReadyStart`` (``force_start`` is host-only and kicks unready players)."""
    return _wrap(
        GameCommand,
        Command_ReadyStart,
        ready=ready,
        force_start=force_start,
    )


def concede() -> Message:
    """``Command_Concede``."""
    return _wrap(GameCommand, Command_Concede)


def unconcede() -> Message:
    """``Command_Unconcede``."""
    return _wrap(GameCommand, Command_Unconcede)


def inc_counter(counter_id: int, delta: int) -> Message:
    """``Command_IncCounter`` on one of our player counters (0 = life)."""
    return _wrap(GameCommand, Command_IncCounter, counter_id=counter_id, delta=delta)


def create_counter(
    name: str, *, value: int = 0, color: _Color = (128, 128, 128, 255), radius: int = 20
) -> Message:
    """``Command_CreateCounter``: a new player counter such as ``"poison"``; its id comes as an event."""
    wrapper = _wrap(
        GameCommand,
        Command_CreateCounter,
        counter_name=name,
        radius=radius,
        value=value,
    )
    _set_color(wrapper.Extensions[Command_CreateCounter.ext].counter_color, color)
    return wrapper


def set_counter(counter_id: int, value: int) -> Message:
    """``Command_SetCounter``."""
    return _wrap(GameCommand, Command_SetCounter, counter_id=counter_id, value=value)


def del_counter(counter_id: int) -> Message:
    """``Command_DelCounter``."""
    return _wrap(GameCommand, Command_DelCounter, counter_id=counter_id)


def next_turn() -> Message:
    """``Command_NextTurn``."""
    return _wrap(GameCommand, Command_NextTurn)


def reverse_turn() -> Message:
    """``Command_ReverseTurn``: flip the turn order."""
    return _wrap(GameCommand, Command_ReverseTurn)


def set_active_phase(phase: int) -> Message:
    """``Command_SetActivePhase`` (see :class:`~cockatrice_ext.protocol.codes.Phase`)."""
    return _wrap(GameCommand, Command_SetActivePhase, phase=int(phase))


def dump_zone(
    player_id: int, zone_name: str, *, number_cards: int = -1, is_reversed: bool = False
) -> Message:
    """``Command_DumpZone``: look at a zone (``-1`` = all cards); the reply carries ``Response_DumpZone``."""
    return _wrap(
        GameCommand,
        Command_DumpZone,
        player_id=player_id,
        zone_name=str(zone_name),
        number_cards=number_cards,
        is_reversed=is_reversed,
    )


def reveal_cards(
    zone_name: str,
    card_ids: Iterable[int] = (),
    *,
    player_id: int | None = None,
    grant_write_access: bool | None = None,
    top_cards: int | None = None,
) -> Message:
    """``Command_RevealCards`` to ``player_id`` (everyone if ``None``).

    ``grant_write_access`` is zone-wide and only revoked by shuffling: avoid it for anything sensitive.
    """
    return _wrap(
        GameCommand,
        Command_RevealCards,
        zone_name=str(zone_name),
        card_id=list(card_ids),
        player_id=player_id,
        grant_write_access=grant_write_access,
        top_cards=top_cards,
    )


def move_card(
    start_zone: str,
    card_ids: Iterable[int],
    *,
    target_player_id: int,
    target_zone: str,
    start_player_id: int | None = None,
    x: int | None = None,
    y: int | None = None,
    face_down: bool | None = None,
    tapped: bool | None = None,
    pt: str | None = None,
    is_reversed: bool | None = None,
) -> Message:
    """``Command_MoveCard``: move cards (ids, or indexes in hidden zones) between zones.

    ``face_down``/``tapped``/``pt`` apply to every moved card.  Non-judges may move into another player's
    zone only when it is their ``table``.  A card that changes owner gets a new id
    (``Event_MoveCard.new_card_id``).
    """
    wrapper = _wrap(
        GameCommand,
        Command_MoveCard,
        start_player_id=start_player_id,
        start_zone=str(start_zone),
        target_player_id=target_player_id,
        target_zone=str(target_zone),
        x=x,
        y=y,
        is_reversed=is_reversed,
    )
    cards = wrapper.Extensions[Command_MoveCard.ext].cards_to_move
    cards.SetInParent()
    for card_id in card_ids:
        card = cards.card.add(card_id=card_id)
        if face_down is not None:
            card.face_down = face_down
        if tapped is not None:
            card.tapped = tapped
        if pt is not None:
            card.pt = pt
    return wrapper


def deck_select(deck_xml: str) -> Message:
    """``Command_DeckSelect`` with a whole ``.cod`` document (before the game starts)."""
    return _wrap(GameCommand, Command_DeckSelect, deck=deck_xml)


def set_sideboard_lock(locked: bool) -> Message:
    """``Command_SetSideboardLock``."""
    return _wrap(GameCommand, Command_SetSideboardLock, locked=locked)


def judge(target_id: int, commands: Iterable[Message]) -> Message:
    """``Command_Judge``: run game ``commands`` as player ``target_id`` (judges only).

    Inner commands run in the given order and count once against the flood budget; the server always answers
    ``RespOk``, so check the resulting events (``forced_by_judge`` is set on them).

    Raises:
        TypeError: one of ``commands`` is not a game command.
    """
    wrapper = _wrap(GameCommand, Command_Judge, target_id=target_id)
    inner = wrapper.Extensions[Command_Judge.ext]
    for command in commands:
        if domain_of(command) != "game":
            raise TypeError(f"judge() wraps game commands only, got a {domain_of(command)} command")
        inner.game_command.add().CopyFrom(command)
    return wrapper
