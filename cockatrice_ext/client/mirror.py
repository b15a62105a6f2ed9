"""A game-state mirror built from Servatrice game events (pure: no I/O).

Theory of operation
-------------------
The server sends a full ``Event_GameStateChanged`` (player list with zones, cards and counters) when
we join and when a game starts; after that only deltas. :class:`GameMirror` folds both into plain
dataclasses so a bot can ask "whose turn is it", "what lies on player 2's table", "which deck did
player 3 load". Events are dispatched by protobuf *message name* (``Event_MoveCard``...) so the mirror
depends only on the wire contract (field names/numbers), not on how ``protocol.pb`` is organised.

Server quirks handled here:

* a card that moves to another player's zone gets a new id (``Event_MoveCard.new_card_id``);
* cards in hidden zones (deck, sideboard) and other players' hands are usually unknown: only counts are
  kept; a move out of such a zone carries ``card_id == -1`` and a ``position``;
* a resync may omit ``user_info``: names are carried forward by player id;
* ``Context_DeckSelect`` carries the deck hash and, when the game shares decklists, the .cod text.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

LOGGER = logging.getLogger(__name__)

#: Phase numbers (cockatrice/src/game/phase.cpp); the server does not validate them.
PHASE_NAMES: dict[int, str] = {
    -1: "not started",
    0: "untap",
    1: "upkeep",
    2: "draw",
    3: "first main",
    4: "beginning of combat",
    5: "declare attackers",
    6: "declare blockers",
    7: "combat damage",
    8: "end of combat",
    9: "second main",
    10: "end",
}

ZONE_TYPES = {0: "private", 1: "public", 2: "hidden"}

# CardAttribute enum values (card_attributes.proto).
(
    _ATTR_TAPPED,
    _ATTR_ATTACKING,
    _ATTR_FACE_DOWN,
    _ATTR_COLOR,
    _ATTR_PT,
    _ATTR_ANNOTATION,
    _ATTR_DOESNT_UNTAP,
) = range(1, 8)


def _has(message: Any, field: str) -> bool:
    try:
        return bool(message.HasField(field))
    except ValueError:  # repeated field or unknown name
        return False


@dataclasses.dataclass
class CardState:
    """One card as we know it (``name`` is empty when hidden from us)."""

    id: int
    name: str = ""
    x: int = -1
    y: int = -1
    face_down: bool = False
    tapped: bool = False
    attacking: bool = False
    doesnt_untap: bool = False
    color: str = ""
    pt: str = ""
    annotation: str = ""
    provider_id: str = ""
    counters: dict[int, int] = dataclasses.field(default_factory=dict)
    attach_player_id: int = -1
    attach_zone: str = ""
    attach_card_id: int = -1

    @classmethod
    def from_info(cls, info: Any) -> CardState:
        """Build from a ``ServerInfo_Card``."""
        return cls(
            id=info.id,
            name=info.name,
            x=info.x,
            y=info.y,
            face_down=info.face_down,
            tapped=info.tapped,
            attacking=info.attacking,
            doesnt_untap=info.doesnt_untap,
            color=info.color,
            pt=info.pt,
            annotation=info.annotation,
            provider_id=info.provider_id,
            counters={counter.id: counter.value for counter in info.counter_list},
            attach_player_id=info.attach_player_id,
            attach_zone=info.attach_zone,
            attach_card_id=info.attach_card_id,
        )


@dataclasses.dataclass
class ZoneState:
    """A zone: ``cards`` are the cards we can see; ``card_count`` is the true size."""

    name: str
    type: str = "public"
    with_coords: bool = False
    card_count: int = 0
    cards: list[CardState] = dataclasses.field(default_factory=list)

    def find(self, card_id: int) -> CardState | None:
        if card_id < 0:
            return None
        for card in self.cards:
            if card.id == card_id:
                return card
        return None

    def take(self, card_id: int, position: int) -> CardState | None:
        """Remove a card by id (or by position when the id is hidden) and return it if known."""
        card = self.find(card_id)
        if card is None and card_id < 0 and 0 <= position < len(self.cards) and self.type != "hidden":
            card = self.cards[position]
        if card is not None:
            self.cards.remove(card)
        self.card_count = max(0, self.card_count - 1)
        if len(self.cards) > self.card_count:
            # Out of sync (we thought we knew every card): drop one so counts stay truthful.
            index = position if 0 <= position < len(self.cards) else -1
            card = self.cards.pop(index)
        return card

    def put(self, card: CardState | None, position: int) -> None:
        """Add a card (``None``: an unknown card, only counted)."""
        self.card_count += 1
        if card is None:
            return
        if not self.with_coords and 0 <= position <= len(self.cards):
            self.cards.insert(position, card)
        else:
            self.cards.append(card)


@dataclasses.dataclass
class CounterState:
    """A player counter (life is id 0)."""

    id: int
    name: str
    value: int


@dataclasses.dataclass
class PlayerState:
    """One participant (player, spectator or judge)."""

    player_id: int
    name: str = ""
    user_id: int = -1
    spectator: bool = False
    judge: bool = False
    conceded: bool = False
    ready_start: bool = False
    deck_hash: str = ""
    sideboard_locked: bool = False
    ping_seconds: int = 0
    """Seconds since the server last heard from this participant; -1 while their connection is gone."""
    silent_before_drop: int = 0
    """The participant's last ping before it went to -1: how long they may have heard nothing before the
    server noticed the drop."""
    deck_list: str = ""
    """The loaded deck (.cod text) when the game shares decklists, else empty."""
    zones: dict[str, ZoneState] = dataclasses.field(default_factory=dict)
    counters: dict[int, CounterState] = dataclasses.field(default_factory=dict)

    def zone(self, name: str) -> ZoneState:
        """The zone called ``name``, created empty if we have not seen it yet."""
        zone = self.zones.get(name)
        if zone is None:
            zone = ZoneState(name, with_coords=name == "table", type=_default_zone_type(name))
            self.zones[name] = zone
        return zone

    def counter_value(self, name: str) -> int | None:
        for counter in self.counters.values():
            if counter.name == name:
                return counter.value
        return None

    def apply_properties(self, props: Any) -> None:
        """Merge the fields set in a ``ServerInfo_PlayerProperties``."""
        if _has(props, "user_info"):
            if props.user_info.name:
                self.name = props.user_info.name
            if _has(props.user_info, "id"):
                self.user_id = props.user_info.id
        for field in (
            "spectator",
            "judge",
            "conceded",
            "ready_start",
            "deck_hash",
            "sideboard_locked",
            "ping_seconds",
        ):
            if field == "ping_seconds" and _has(props, field) and props.ping_seconds < 0 <= self.ping_seconds:
                self.silent_before_drop = self.ping_seconds
            if _has(props, field):
                setattr(self, field, getattr(props, field))


def _default_zone_type(name: str) -> str:
    if name in ("deck", "sb"):
        return "hidden"
    if name == "hand":
        return "private"
    return "public"


@dataclasses.dataclass
class GameMirror:
    """What we know about one game we sit in (as player, spectator or judge)."""

    game_id: int
    room_id: int = -1
    local_player_id: int = -1
    host_id: int = -1
    spectator: bool = False
    judge: bool = False
    description: str = ""
    started: bool = False
    active_player_id: int = -1
    active_phase: int = -1
    seconds_elapsed: int = 0
    closed: bool = False
    kicked: bool = False
    players: dict[int, PlayerState] = dataclasses.field(default_factory=dict)
    game_types: dict[int, str] = dataclasses.field(default_factory=dict)
    """The game's selected game types (id -> name, e.g. {0: "Auction"})."""
    revealed: list[tuple[int, str, list[CardState]]] = dataclasses.field(default_factory=list)
    """(player id, zone, cards) of recent Event_RevealCards we saw, newest last (bounded)."""
    started_with: tuple[int, ...] = ()
    """The seated players (not spectators) as the game started, by id: a player may leave the moment it
    starts, and whoever handles the start later must still see who it started with."""
    names_seen: dict[int, str] = dataclasses.field(default_factory=dict)
    """Every seat's user name this mirror has seen, by player id (kept after the player leaves)."""

    MAX_REVEALS = 50

    # -- construction ------------------------------------------------------------------------------

    @classmethod
    def from_game_joined(
        cls, joined: Any, *, room_id: int | None = None, room_game_types: dict[int, str] | None = None
    ) -> GameMirror:
        """Start a mirror from an ``Event_GameJoined``.

        ``game_types`` maps the game's selected type ids to names, from the event's table or else from
        ``room_game_types`` (the room's table; Servatrice does not always repeat it in the event).
        """
        info = joined.game_info
        mirror = cls(
            game_id=info.game_id,
            room_id=room_id if room_id is not None else info.room_id,
            local_player_id=joined.player_id,
            host_id=joined.host_id,
            spectator=joined.spectator,
            judge=joined.judge,
            description=info.description,
            started=info.started,
        )
        table = {game_type.game_type_id: game_type.description for game_type in joined.game_types}
        table = table or dict(room_game_types or {})
        mirror.game_types = {type_id: table.get(type_id, f"type {type_id}") for type_id in info.game_types}
        return mirror

    # -- queries -----------------------------------------------------------------------------------

    @property
    def local_player(self) -> PlayerState | None:
        return self.players.get(self.local_player_id)

    @property
    def active_player(self) -> PlayerState | None:
        return self.players.get(self.active_player_id)

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES.get(self.active_phase, f"phase {self.active_phase}")

    @property
    def seated_players(self) -> list[PlayerState]:
        """Participants who are not spectators, by player id."""
        return [p for _, p in sorted(self.players.items()) if not p.spectator]

    def player_by_name(self, name: str) -> PlayerState | None:
        for player in self.players.values():
            if player.name == name:
                return player
        return None

    def is_my_turn(self) -> bool:
        return self.started and self.active_player_id == self.local_player_id

    # -- folding events ----------------------------------------------------------------------------

    def apply_event(self, event: Any, *, player_id: int = -1, context: Any = None) -> None:
        """Fold one game event (the extension message, e.g. an ``Event_MoveCard``) into the mirror.

        ``player_id`` is ``GameEvent.player_id`` (-1: the server itself). ``context`` is the container's
        ``GameEventContext`` extension message if any (e.g. a ``Context_DeckSelect``).
        """
        handler = _HANDLERS.get(type(event).DESCRIPTOR.name)
        if handler is None:
            return
        try:
            handler(self, event, player_id, context)
        except (KeyError, IndexError, AttributeError, ValueError) as exc:  # pragma: no cover - defensive
            LOGGER.warning("game %d: could not fold %s: %s", self.game_id, type(event).DESCRIPTOR.name, exc)

    def _player(self, player_id: int) -> PlayerState:
        player = self.players.get(player_id)
        if player is None:
            player = PlayerState(player_id)
            self.players[player_id] = player
        return player

    def _on_state_changed(self, event: Any, player_id: int, context: Any) -> None:
        if len(event.player_list):
            old = self.players
            self.players = {}
            for info in event.player_list:
                props = info.properties
                pid = props.player_id
                player = PlayerState(pid)
                previous = old.get(pid)
                if previous is not None:
                    player.name, player.user_id, player.deck_list = (
                        previous.name,
                        previous.user_id,
                        previous.deck_list,
                    )
                player.apply_properties(props)
                if info.deck_list:
                    player.deck_list = info.deck_list
                for zone_info in info.zone_list:
                    zone = ZoneState(
                        zone_info.name,
                        type=ZONE_TYPES.get(zone_info.type, "public"),
                        with_coords=zone_info.with_coords,
                        card_count=zone_info.card_count,
                        cards=[CardState.from_info(card) for card in zone_info.card_list],
                    )
                    zone.card_count = max(zone.card_count, len(zone.cards))
                    player.zones[zone.name] = zone
                for counter in info.counter_list:
                    player.counters[counter.id] = CounterState(counter.id, counter.name, counter.count)
                self.players[pid] = player
        self._remember_names()
        if _has(event, "game_started"):
            if event.game_started and not self.started:
                self.started_with = tuple(p.player_id for p in self.seated_players)
            self.started = event.game_started
        # Servatrice's game-state events carry active player 0 and phase 0 as placeholders in a started game
        # (the real ones follow as Event_SetActivePlayer / Event_SetActivePhase): taken only while none is
        # known. A full state sent mid-game (after an unconcede) made seat 0 the active player.
        if _has(event, "active_player_id") and self.active_player_id < 0:
            self.active_player_id = event.active_player_id
        if _has(event, "active_phase") and self.active_phase < 0:
            self.active_phase = event.active_phase
        if _has(event, "seconds_elapsed"):
            self.seconds_elapsed = event.seconds_elapsed

    def _remember_names(self) -> None:
        for pid, player in self.players.items():
            if player.name:
                self.names_seen[pid] = player.name

    def _on_join(self, event: Any, player_id: int, context: Any) -> None:
        props = event.player_properties
        self._player(props.player_id).apply_properties(props)
        self._remember_names()

    def _on_leave(self, event: Any, player_id: int, context: Any) -> None:
        self.players.pop(player_id, None)

    def _on_properties(self, event: Any, player_id: int, context: Any) -> None:
        props = event.player_properties
        pid = props.player_id if _has(props, "player_id") else player_id
        player = self._player(pid)
        player.apply_properties(props)
        if context is not None and type(context).DESCRIPTOR.name == "Context_DeckSelect":
            if context.deck_hash:
                player.deck_hash = context.deck_hash
            if context.deck_list:
                player.deck_list = context.deck_list

    def _on_host_changed(self, event: Any, player_id: int, context: Any) -> None:
        self.host_id = player_id

    def _on_closed(self, event: Any, player_id: int, context: Any) -> None:
        self.closed = True

    def _on_kicked(self, event: Any, player_id: int, context: Any) -> None:
        self.kicked = True

    def _on_active_player(self, event: Any, player_id: int, context: Any) -> None:
        self.active_player_id = event.active_player_id
        self.active_phase = 0

    def _on_active_phase(self, event: Any, player_id: int, context: Any) -> None:
        self.active_phase = event.phase

    def _on_create_counter(self, event: Any, player_id: int, context: Any) -> None:
        info = event.counter_info
        self._player(player_id).counters[info.id] = CounterState(info.id, info.name, info.count)

    def _on_set_counter(self, event: Any, player_id: int, context: Any) -> None:
        counters = self._player(player_id).counters
        counter = counters.get(event.counter_id)
        if counter is None:
            counters[event.counter_id] = CounterState(event.counter_id, "", event.value)
        else:
            counter.value = event.value

    def _on_del_counter(self, event: Any, player_id: int, context: Any) -> None:
        self._player(player_id).counters.pop(event.counter_id, None)

    def _on_move_card(self, event: Any, player_id: int, context: Any) -> None:
        start_pid = event.start_player_id if event.start_player_id >= 0 else player_id
        target_pid = event.target_player_id if event.target_player_id >= 0 else start_pid
        source = self._player(start_pid).zone(event.start_zone)
        card = source.take(event.card_id, event.position)
        target = self._player(target_pid).zone(event.target_zone or event.start_zone)
        new_id = event.new_card_id if event.new_card_id >= 0 else event.card_id
        if card is None:
            if new_id < 0 and not event.card_name:
                target.put(None, event.x)
                return
            card = CardState(new_id)
        card.id = new_id
        if event.card_name:
            card.name = event.card_name
        card.face_down = event.face_down
        if event.new_card_provider_id:
            card.provider_id = event.new_card_provider_id
        card.x, card.y = event.x, event.y
        if target.name != source.name or target_pid != start_pid:
            card.tapped = card.attacking = False
            card.counters.clear()
        if target.type == "hidden" or (new_id < 0 and not card.name):
            target.put(None, event.x)
        else:
            target.put(card, event.x)

    def _on_draw_cards(self, event: Any, player_id: int, context: Any) -> None:
        player = self._player(player_id)
        deck = player.zone("deck")
        hand = player.zone("hand")
        deck.card_count = max(0, deck.card_count - event.number)
        hand.card_count += event.number
        hand.cards.extend(CardState.from_info(card) for card in event.cards)

    def _on_create_token(self, event: Any, player_id: int, context: Any) -> None:
        zone = self._player(player_id).zone(event.zone_name)
        card = CardState(
            event.card_id,
            name=event.card_name,
            x=event.x,
            y=event.y,
            face_down=event.face_down,
            color=event.color,
            pt=event.pt,
            annotation=event.annotation,
            provider_id=event.card_provider_id,
        )
        zone.put(card, -1)

    def _on_destroy_card(self, event: Any, player_id: int, context: Any) -> None:
        zone = self._player(player_id).zone(event.zone_name)
        if zone.find(event.card_id) is not None:
            zone.take(event.card_id, -1)

    def _on_flip_card(self, event: Any, player_id: int, context: Any) -> None:
        card = self._player(player_id).zone(event.zone_name).find(event.card_id)
        if card is not None:
            card.face_down = event.face_down
            if event.card_name:
                card.name = event.card_name

    def _on_set_card_attr(self, event: Any, player_id: int, context: Any) -> None:
        zone = self._player(player_id).zone(event.zone_name)
        cards = zone.cards if event.card_id < 0 else [c for c in [zone.find(event.card_id)] if c is not None]
        value = event.attr_value
        for card in cards:
            attribute = event.attribute
            if attribute == _ATTR_TAPPED:
                card.tapped = value == "1"
            elif attribute == _ATTR_ATTACKING:
                card.attacking = value == "1"
            elif attribute == _ATTR_FACE_DOWN:
                card.face_down = value == "1"
            elif attribute == _ATTR_COLOR:
                card.color = value
            elif attribute == _ATTR_PT:
                card.pt = value
            elif attribute == _ATTR_ANNOTATION:
                card.annotation = value
            elif attribute == _ATTR_DOESNT_UNTAP:
                card.doesnt_untap = value == "1"

    def _on_set_card_counter(self, event: Any, player_id: int, context: Any) -> None:
        card = self._player(player_id).zone(event.zone_name).find(event.card_id)
        if card is not None:
            if event.counter_value <= 0:
                card.counters.pop(event.counter_id, None)
            else:
                card.counters[event.counter_id] = event.counter_value

    def _on_attach_card(self, event: Any, player_id: int, context: Any) -> None:
        card = self._player(player_id).zone(event.start_zone).find(event.card_id)
        if card is not None:
            card.attach_player_id = event.target_player_id
            card.attach_zone = event.target_zone
            card.attach_card_id = event.target_card_id

    def _on_reveal(self, event: Any, player_id: int, context: Any) -> None:
        cards = [CardState.from_info(card) for card in event.cards]
        self.revealed.append((player_id, event.zone_name, cards))
        del self.revealed[: -self.MAX_REVEALS]
        # Known cards of a public zone may gain names (e.g. a face-down card revealed to us).
        zone = self._player(player_id).zones.get(event.zone_name)
        if zone is not None:
            for revealed in cards:
                known = zone.find(revealed.id)
                if known is not None and revealed.name:
                    known.name = revealed.name


_HANDLERS: dict[str, Callable[[GameMirror, Any, int, Any], None]] = {
    "Event_GameStateChanged": GameMirror._on_state_changed,
    "Event_Join": GameMirror._on_join,
    "Event_Leave": GameMirror._on_leave,
    "Event_PlayerPropertiesChanged": GameMirror._on_properties,
    "Event_GameHostChanged": GameMirror._on_host_changed,
    "Event_GameClosed": GameMirror._on_closed,
    "Event_Kicked": GameMirror._on_kicked,
    "Event_SetActivePlayer": GameMirror._on_active_player,
    "Event_SetActivePhase": GameMirror._on_active_phase,
    "Event_CreateCounter": GameMirror._on_create_counter,
    "Event_SetCounter": GameMirror._on_set_counter,
    "Event_DelCounter": GameMirror._on_del_counter,
    "Event_MoveCard": GameMirror._on_move_card,
    "Event_DrawCards": GameMirror._on_draw_cards,
    "Event_CreateToken": GameMirror._on_create_token,
    "Event_DestroyCard": GameMirror._on_destroy_card,
    "Event_FlipCard": GameMirror._on_flip_card,
    "Event_SetCardAttr": GameMirror._on_set_card_attr,
    "Event_SetCardCounter": GameMirror._on_set_card_counter,
    "Event_AttachCard": GameMirror._on_attach_card,
    "Event_RevealCards": GameMirror._on_reveal,
}
