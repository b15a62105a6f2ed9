"""GameMirror folds game events into a consistent picture of the table."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.client.mirror import GameMirror
from cockatrice_ext.protocol.pb import common_pb2 as common
from cockatrice_ext.protocol.pb import game_events_pb2 as ge
from cockatrice_ext.protocol.pb import session_events_pb2 as se


def _state(players: list[tuple[int, str, dict[str, list[tuple[int, str]]]]], **kwargs: object) -> object:
    event = ge.Event_GameStateChanged(**kwargs)  # type: ignore[arg-type]
    for player_id, name, zones in players:
        info = event.player_list.add()
        info.properties.player_id = player_id
        info.properties.user_info.name = name
        for zone_name, cards in zones.items():
            zone = info.zone_list.add(name=zone_name, with_coords=zone_name == "table")
            zone.type = {"deck": 2, "sb": 2, "hand": 0}.get(zone_name, 1)
            zone.card_count = 5 if zone_name == "deck" else len(cards)
            for card_id, card_name in cards:
                zone.card_list.add(id=card_id, name=card_name)
        info.counter_list.add(id=0, name="life", count=20)
    return event


def _joined(game_id: int = 7, player_id: int = 0) -> GameMirror:
    joined = se.Event_GameJoined(player_id=player_id, host_id=0)
    joined.game_info.game_id = game_id
    joined.game_info.room_id = 1
    joined.game_info.description = "auction"
    joined.game_info.game_types.append(0)
    joined.game_types.add(game_type_id=0, description="Auction")
    return GameMirror.from_game_joined(joined)


def _two_player_mirror() -> GameMirror:
    mirror = _joined()
    mirror.apply_event(
        _state(
            [
                (0, "bot", {"deck": [], "hand": [(10, "Forest")], "table": [(1, "Llanowar Elves")]}),
                (1, "alice", {"deck": [], "hand": [], "table": []}),
            ],
            game_started=True,
            active_player_id=1,
            active_phase=3,
        )
    )
    return mirror


def test_game_joined_and_full_state() -> None:
    mirror = _two_player_mirror()
    assert mirror.game_id == 7 and mirror.room_id == 1 and mirror.local_player_id == 0
    assert mirror.game_types == {0: "Auction"}
    assert [p.name for p in mirror.seated_players] == ["bot", "alice"]
    assert mirror.started and mirror.active_player.name == "alice"  # type: ignore[union-attr]
    assert mirror.phase_name == "first main"
    assert not mirror.is_my_turn()
    assert mirror.players[0].zone("deck").card_count == 5
    assert mirror.players[0].counter_value("life") == 20


def test_a_full_state_mid_game_keeps_the_active_player() -> None:
    """Servatrice's game-state events say active player 0, phase 0 in any started game (placeholders; the
    real ones follow as their own events). Seen in the field: after an unconcede the full state made the
    bot's seat 0 the active player, and a Vortex referee gave the real active player no pick."""
    mirror = _two_player_mirror()
    mirror.apply_event(
        _state(
            [
                (0, "bot", {"deck": [], "hand": [], "table": []}),
                (1, "alice", {"deck": [], "hand": [], "table": []}),
            ],
            game_started=True,
            active_player_id=0,
            active_phase=0,
        )
    )
    assert mirror.active_player_id == 1 and mirror.active_phase == 3
    mirror.apply_event(ge.Event_SetActivePlayer(active_player_id=0), player_id=-1)
    assert mirror.active_player_id == 0


def test_move_to_other_player_table_changes_id() -> None:
    mirror = _two_player_mirror()
    move = ge.Event_MoveCard(
        card_id=1,
        card_name="Llanowar Elves",
        start_player_id=0,
        start_zone="table",
        target_player_id=1,
        target_zone="table",
        x=3,
        y=0,
        new_card_id=42,
    )
    mirror.apply_event(move, player_id=0)
    assert mirror.players[0].zone("table").cards == []
    [card] = mirror.players[1].zone("table").cards
    assert (card.id, card.name, card.x) == (42, "Llanowar Elves", 3)


def test_hidden_move_from_deck_keeps_counts() -> None:
    mirror = _two_player_mirror()
    move = ge.Event_MoveCard(
        card_id=-1, start_player_id=0, start_zone="deck", position=0, target_player_id=1, target_zone="table"
    )
    mirror.apply_event(move, player_id=0)
    assert mirror.players[0].zone("deck").card_count == 4
    assert mirror.players[1].zone("table").card_count == 1


def test_counters_phase_and_properties() -> None:
    mirror = _two_player_mirror()
    counter = ge.Event_CreateCounter()
    counter.counter_info.id = 8
    counter.counter_info.name = "gold"
    counter.counter_info.count = 3
    mirror.apply_event(counter, player_id=1)
    mirror.apply_event(ge.Event_SetCounter(counter_id=8, value=5), player_id=1)
    assert mirror.players[1].counter_value("gold") == 5
    mirror.apply_event(ge.Event_DelCounter(counter_id=8), player_id=1)
    assert mirror.players[1].counter_value("gold") is None
    mirror.apply_event(ge.Event_SetActivePlayer(active_player_id=0), player_id=-1)
    mirror.apply_event(ge.Event_SetActivePhase(phase=5), player_id=-1)
    assert mirror.is_my_turn() and mirror.phase_name == "declare attackers"

    props = ge.Event_PlayerPropertiesChanged()
    props.player_properties.player_id = 1
    props.player_properties.deck_hash = "abcd1234"
    context = ge.Context_DeckSelect(deck_hash="abcd1234", deck_list="<cockatrice_deck/>")
    mirror.apply_event(props, player_id=1, context=context)
    assert mirror.players[1].deck_hash == "abcd1234"
    assert mirror.players[1].deck_list == "<cockatrice_deck/>"
    assert mirror.players[1].name == "alice"  # not wiped by a partial update


def test_join_leave_resync_keeps_names() -> None:
    mirror = _two_player_mirror()
    join = ge.Event_Join()
    join.player_properties.player_id = 2
    join.player_properties.user_info.name = "bob"
    join.player_properties.spectator = True
    mirror.apply_event(join)
    assert mirror.players[2].spectator and mirror.players[2].name == "bob"
    mirror.apply_event(ge.Event_Leave(reason=ge.Event_Leave.USER_LEFT), player_id=2)
    assert 2 not in mirror.players
    # A resync without user_info keeps the names we knew.
    resync = ge.Event_GameStateChanged(game_started=False)
    resync.player_list.add().properties.player_id = 1
    mirror.apply_event(resync)
    assert mirror.players[1].name == "alice" and not mirror.started


def test_tokens_attrs_and_card_counters() -> None:
    mirror = _two_player_mirror()
    mirror.apply_event(ge.Event_CreateToken(zone_name="table", card_id=50, card_name="Treasure"), player_id=0)
    mirror.apply_event(
        ge.Event_SetCardAttr(zone_name="table", card_id=50, attribute=common.AttrTapped, attr_value="1"),
        player_id=0,
    )
    mirror.apply_event(
        ge.Event_SetCardCounter(zone_name="table", card_id=50, counter_id=1, counter_value=2), player_id=0
    )
    token = mirror.players[0].zone("table").find(50)
    assert token is not None and token.tapped and token.counters == {1: 2}
    mirror.apply_event(ge.Event_DestroyCard(zone_name="table", card_id=50), player_id=0)
    assert mirror.players[0].zone("table").find(50) is None


def test_draw_cards() -> None:
    mirror = _two_player_mirror()
    draw = ge.Event_DrawCards(number=2)
    draw.cards.add(id=11, name="Island")
    draw.cards.add(id=12, name="Swamp")
    mirror.apply_event(draw, player_id=0)
    assert mirror.players[0].zone("deck").card_count == 3
    hand = mirror.players[0].zone("hand")
    assert hand.card_count == 3 and [c.name for c in hand.cards] == ["Forest", "Island", "Swamp"]
    mirror.apply_event(ge.Event_DrawCards(number=1), player_id=1)
    assert mirror.players[1].zone("hand").card_count == 1


_ZONES = ["deck", "hand", "table", "grave", "rfg", "sb"]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0, 1]),
            st.sampled_from(_ZONES),
            st.sampled_from([0, 1]),
            st.sampled_from(_ZONES),
            st.integers(-1, 60),
            st.integers(-1, 5),
        ),
        max_size=40,
    )
)
def test_moves_conserve_card_count(moves: list[tuple[int, str, int, str, int, int]]) -> None:
    """However cards move (known or hidden ids), the total number of cards is conserved."""
    mirror = _two_player_mirror()

    def total() -> int:
        return sum(zone.card_count for player in mirror.players.values() for zone in player.zones.values())

    before = total()
    next_id = 100
    for start_pid, start_zone, target_pid, target_zone, card_id, position in moves:
        zone = mirror.players[start_pid].zone(start_zone)
        if zone.card_count == 0:
            continue
        mirror.apply_event(
            ge.Event_MoveCard(
                card_id=card_id,
                start_player_id=start_pid,
                start_zone=start_zone,
                position=position,
                target_player_id=target_pid,
                target_zone=target_zone,
                new_card_id=next_id if start_pid != target_pid else -1,
            ),
            player_id=start_pid,
        )
        next_id += 1
        for player in mirror.players.values():
            for z in player.zones.values():
                assert len(z.cards) <= z.card_count
    assert total() == before


def test_a_dropped_connection_keeps_how_long_the_player_was_silent() -> None:
    """The game clock reports each participant's seconds without data; a drop reads -1, and the last
    silence before it says how long they may have heard nothing."""
    mirror = _two_player_mirror()

    def ping(seconds: int) -> None:
        props = ge.Event_PlayerPropertiesChanged()
        props.player_properties.ping_seconds = seconds
        mirror.apply_event(props, player_id=1)

    ping(3)
    ping(9)
    assert mirror.players[1].silent_before_drop == 0
    ping(-1)
    assert (mirror.players[1].ping_seconds, mirror.players[1].silent_before_drop) == (-1, 9)
    ping(-1)  # still away: the silence before the drop is kept
    assert mirror.players[1].silent_before_drop == 9
    ping(0)
    ping(-1)
    assert mirror.players[1].silent_before_drop == 0


def test_the_seats_a_game_started_with_outlast_a_player_who_leaves_at_once() -> None:
    """A player may leave the moment the game starts; the referee handles the start after the mirror has
    heard the leave (its events wait in the game's queue). Who the game started with, and their names, stay
    known: the referee's start failed with a KeyError, or called the game too small and left it open."""
    mirror = _joined()
    join = ge.Event_Join()
    join.player_properties.player_id = 2
    join.player_properties.user_info.name = "bob"
    mirror.apply_event(join)
    mirror.apply_event(
        _state(
            [(0, "bot", {"deck": []}), (1, "alice", {"deck": []}), (2, "bob", {"deck": []})],
            game_started=True,
        )
    )
    mirror.apply_event(ge.Event_Leave(reason=ge.Event_Leave.USER_LEFT), player_id=2)
    assert 2 not in mirror.players
    assert mirror.started_with == (0, 1, 2)
    assert mirror.names_seen[2] == "bob"
    mirror.apply_event(_state([(0, "bot", {}), (1, "alice", {})], game_started=True))  # a later full state
    assert mirror.started_with == (0, 1, 2), "the start is the first one"
