"""Command builders put the right extension, with the right fields, in the right domain wrapper."""

from __future__ import annotations

import pytest

from cockatrice_ext.protocol import CardAttribute, Phase, Zone, commands
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.protocol.commands import domain_of

CASES = [
    (commands.ping(), "session", pb.Command_Ping, {}),
    (commands.request_password_salt("amy"), "session", pb.Command_RequestPasswordSalt, {"user_name": "amy"}),
    (commands.message("amy", "hi"), "session", pb.Command_Message, {"user_name": "amy", "message": "hi"}),
    (commands.list_users(), "session", pb.Command_ListUsers, {}),
    (commands.get_games_of_user("amy"), "session", pb.Command_GetGamesOfUser, {"user_name": "amy"}),
    (commands.list_rooms(), "session", pb.Command_ListRooms, {}),
    (commands.join_room(3), "session", pb.Command_JoinRoom, {"room_id": 3}),
    (commands.room_say("hey"), "room", pb.Command_RoomSay, {"message": "hey"}),
    (commands.leave_room(), "room", pb.Command_LeaveRoom, {}),
    (
        commands.create_game("Auction", max_players=4, game_type_ids=[1], join_as_judge=True),
        "room",
        pb.Command_CreateGame,
        {"description": "Auction", "max_players": 4, "game_type_ids": [1], "join_as_judge": True},
    ),
    (commands.join_game(9, spectator=True), "room", pb.Command_JoinGame, {"game_id": 9, "spectator": True}),
    (commands.game_say("gg"), "game", pb.Command_GameSay, {"message": "gg"}),
    (commands.kick_from_game(2), "game", pb.Command_KickFromGame, {"player_id": 2}),
    (commands.leave_game(), "game", pb.Command_LeaveGame, {}),
    (commands.concede(), "game", pb.Command_Concede, {}),
    (commands.next_turn(), "game", pb.Command_NextTurn, {}),
    (commands.set_active_phase(Phase.DRAW), "game", pb.Command_SetActivePhase, {"phase": 2}),
    (commands.shuffle(), "game", pb.Command_Shuffle, {"zone_name": "deck"}),
    (commands.draw_cards(7), "game", pb.Command_DrawCards, {"number": 7}),
    (commands.roll_die(20), "game", pb.Command_RollDie, {"sides": 20, "count": 1}),
    (
        commands.flip_card("table", 5, face_down=True),
        "game",
        pb.Command_FlipCard,
        {"zone": "table", "card_id": 5},
    ),
    (
        commands.create_token("Treasure", pt="", color="c"),
        "game",
        pb.Command_CreateToken,
        {"zone": "table", "card_name": "Treasure", "color": "c"},
    ),
    (
        commands.set_card_attr(Zone.TABLE, 4, CardAttribute.AttrTapped, "1"),
        "game",
        pb.Command_SetCardAttr,
        {"zone": "table", "card_id": 4, "attribute": 1, "attr_value": "1"},
    ),
    (commands.inc_counter(0, -3), "game", pb.Command_IncCounter, {"counter_id": 0, "delta": -3}),
    (commands.set_counter(8, 5), "game", pb.Command_SetCounter, {"counter_id": 8, "value": 5}),
    (commands.del_counter(8), "game", pb.Command_DelCounter, {"counter_id": 8}),
    (commands.ready_start(), "game", pb.Command_ReadyStart, {"ready": True}),
    (
        commands.deck_select("<cockatrice_deck/>"),
        "game",
        pb.Command_DeckSelect,
        {"deck": "<cockatrice_deck/>"},
    ),
    (
        commands.dump_zone(1, "deck", number_cards=3),
        "game",
        pb.Command_DumpZone,
        {"player_id": 1, "zone_name": "deck", "number_cards": 3},
    ),
    (
        commands.reveal_cards("hand", [1, 2], player_id=3),
        "game",
        pb.Command_RevealCards,
        {"zone_name": "hand", "card_id": [1, 2], "player_id": 3},
    ),
]


@pytest.mark.parametrize(("wrapper", "domain", "cls", "fields"), CASES)
def test_builder(wrapper: object, domain: str, cls: type, fields: dict[str, object]) -> None:
    assert domain_of(wrapper) == domain  # type: ignore[arg-type]
    assert wrapper.HasExtension(cls.ext)  # type: ignore[attr-defined]
    inner = wrapper.Extensions[cls.ext]  # type: ignore[attr-defined]
    for name, value in fields.items():
        got = getattr(inner, name)
        assert (list(got) if isinstance(value, list) else got) == value, name
    # Round trip through the wire keeps the extension (empty commands included).
    parsed = type(wrapper).FromString(wrapper.SerializeToString())  # type: ignore[attr-defined]
    assert parsed.HasExtension(cls.ext)


def test_unset_optionals_stay_unset() -> None:
    inner = commands.create_game("x").Extensions[pb.Command_CreateGame.ext]
    assert not inner.HasField("password") and not inner.HasField("join_as_judge")
    assert not commands.shuffle().Extensions[pb.Command_Shuffle.ext].HasField("end")


def test_move_card_face_down_to_another_table() -> None:
    wrapper = commands.move_card(
        "deck", [0, 1], target_player_id=2, target_zone="table", face_down=True, x=0, y=0
    )
    move = wrapper.Extensions[pb.Command_MoveCard.ext]
    assert move.target_player_id == 2 and move.start_zone == "deck" and move.target_zone == "table"
    assert [(c.card_id, c.face_down) for c in move.cards_to_move.card] == [(0, True), (1, True)]
    assert not move.HasField("start_player_id")


def test_login_refuses_two_passwords() -> None:
    with pytest.raises(ValueError):
        commands.login("x", password="a", hashed_password="b")


def test_judge_wraps_game_commands_in_order() -> None:
    wrapper = commands.judge(2, [commands.create_counter("gold", value=3), commands.set_counter(9, 4)])
    judge = wrapper.Extensions[pb.Command_Judge.ext]
    assert judge.target_id == 2
    assert [pb.payload_of(c)[0] for c in judge.game_command] == [1019, 1020]
    counter = judge.game_command[0].Extensions[pb.Command_CreateCounter.ext]
    assert counter.counter_name == "gold" and counter.value == 3 and counter.counter_color.a == 255
    with pytest.raises(TypeError):
        commands.judge(2, [commands.ping()])


def test_out_of_range_values_raise() -> None:
    with pytest.raises(ValueError):
        commands.draw_cards(-1)  # uint32
