"""Room ids stay put for the client's user while the server renumbers its rooms (``client/room_ids.py``).

The mapping between the ids handed out and the server's numbers is a bijection at all times: checked by
Hypothesis over random room lists and random sequences of restarts. Against a Servatrice double, every room
id in and out goes through it: the rooms the client joined keep their ids across two restarts that
renumber them (one of them a swap), in the room list, the room events, the game lists, the containers sent
and the ``Command_JoinRoom`` of the rejoin.
"""

from __future__ import annotations

import asyncio

import pytest
from client_helpers import Recorder, run
from fake_servatrice import FakeServatrice, frame
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.client import ClientEvent, Disconnected, Reconnected, connect
from cockatrice_ext.client.room_ids import RoomIds
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.protocol.serverside import room_event_message

# -- the mapping alone ----------------------------------------------------------------------------------


def check_bijection(ids: RoomIds, span: range) -> None:
    """``to_server`` and ``to_stable`` are inverse permutations (checked over ``span``, which holds every
    id the mapping moved)."""
    moved = ids.moved()
    assert all(stable in span and server in span for stable, server in moved.items())
    servers = [ids.to_server(room_id) for room_id in span]
    assert sorted(servers) == list(span)  # onto the span, one to one
    for room_id in span:
        assert ids.to_stable(ids.to_server(room_id)) == room_id
        assert ids.to_server(ids.to_stable(room_id)) == room_id


def test_identity_until_renumbered() -> None:
    ids = RoomIds()
    assert ids.identity and ids.to_server(5) == 5 and ids.to_stable(5) == 5


def test_a_room_added_before_ours_pairs_the_numbers_freed_and_taken() -> None:
    ids = RoomIds()
    ids.renumber({0: 1})  # "Bot room" was 0, is 1: the new room at 0 is called 1 here
    assert ids.to_server(0) == 1 and ids.to_stable(1) == 0
    assert ids.to_server(1) == 0 and ids.to_stable(0) == 1
    assert ids.to_server(2) == 2 and not ids.identity
    check_bijection(ids, range(4))


def test_a_swapped_pair_maps_both_ways() -> None:
    ids = RoomIds()
    ids.renumber({0: 1, 1: 0})
    assert (ids.to_server(0), ids.to_server(1), ids.to_stable(0), ids.to_stable(1)) == (1, 0, 1, 0)
    ids.renumber({0: 0, 1: 1})  # swapped back: identity again
    assert ids.identity


def test_two_rooms_pinned_to_one_number_are_refused() -> None:
    ids = RoomIds()
    with pytest.raises(ValueError, match="one server number"):
        ids.renumber({0: 3, 1: 3})
    assert ids.identity


def test_translation_reaches_nested_room_ids_and_leaves_the_original_command_alone() -> None:
    ids = RoomIds()
    ids.renumber({0: 2})
    joined = pb.Response_JoinRoom()  # type: ignore[attr-defined]
    joined.room_info.room_id = 2
    joined.room_info.game_list.add(room_id=2, game_id=7)
    joined.room_info.user_list.add(name="alice")
    ids.translate_in(joined)
    assert joined.room_info.room_id == 0 and joined.room_info.game_list[0].room_id == 0
    games = pb.Event_ListGames()  # type: ignore[attr-defined]
    games.game_list.add(game_id=1)  # no room id set: none is made up
    ids.translate_in(games)
    assert not games.game_list[0].HasField("room_id")

    command = pb.SessionCommand()  # type: ignore[attr-defined]
    command.Extensions[pb.Command_JoinRoom.ext].room_id = 0
    sent = ids.translated_out(command)
    assert sent.Extensions[pb.Command_JoinRoom.ext].room_id == 2
    assert command.Extensions[pb.Command_JoinRoom.ext].room_id == 0  # sent again later: same ids
    ping = pb.SessionCommand()  # type: ignore[attr-defined]
    ping.Extensions[pb.Command_Ping.ext].SetInParent()
    assert ids.translated_out(ping) is ping


# -- random restarts ------------------------------------------------------------------------------------

NAMES = [f"room {letter}" for letter in "ABCDEFG"]
room_lists = st.lists(st.sampled_from(NAMES), min_size=1, max_size=6, unique=True).flatmap(
    lambda names: st.permutations(names)
)


class Model:
    """The client's bookkeeping as ``Client._renumber_rooms`` does it, on room lists alone: ``joined``
    holds our id and name of each room joined, whose pin follows the room by name at each restart."""

    def __init__(self, first_list: list[str]) -> None:
        self.ids = RoomIds()
        self.server = list(first_list)  # the server's rooms: number = index
        self.joined: dict[int, str] = {}

    def listed(self) -> dict[int, str]:
        """The room list as the user sees it: our ids -> names."""
        return {self.ids.to_stable(number): name for number, name in enumerate(self.server)}

    def join(self, pick: int) -> None:
        listed = self.listed()
        room_id = sorted(listed)[pick % len(listed)]
        self.joined[room_id] = listed[room_id]

    def restart(self, new_list: list[str]) -> None:
        self.server = list(new_list)
        number = {name: index for index, name in enumerate(self.server)}
        self.joined = {room_id: name for room_id, name in self.joined.items() if name in number}
        self.ids.renumber({room_id: number[name] for room_id, name in self.joined.items()})


@settings(max_examples=300, deadline=None)
@given(
    first=room_lists,
    steps=st.lists(
        st.one_of(st.tuples(st.just("join"), st.integers(0, 20)), st.tuples(st.just("restart"), room_lists)),
        max_size=12,
    ),
)
def test_joined_rooms_keep_their_ids_through_random_restarts(
    first: list[str], steps: list[tuple[str, object]]
) -> None:
    model = Model(first)
    ids_given: dict[int, str] = {}  # every id a joined room was handed out under, with its room
    for kind, arg in steps:
        if kind == "join":
            model.join(arg)  # type: ignore[arg-type]
            for room_id, name in model.joined.items():
                assert ids_given.setdefault(room_id, name) == name  # an id never names another room
        else:
            model.restart(arg)  # type: ignore[arg-type]
            # A room gone from the server frees its id (a room we are in going away ends the session).
            ids_given = {room_id: name for room_id, name in ids_given.items() if name in model.server}
        span = range(len(NAMES) + 1)
        check_bijection(model.ids, span)
        listed = model.listed()
        assert len(listed) == len(model.server)  # every room listed, each under its own id
        for room_id, name in model.joined.items():
            assert model.server[model.ids.to_server(room_id)] == name  # our id reaches the room by name
            assert listed[room_id] == name
        moved = model.ids.moved()
        taken = set(moved) | set(moved.values())
        pinned = set(model.joined) | {model.ids.to_server(room_id) for room_id in model.joined}
        assert taken <= pinned  # an id moves only for a joined room or a number a joined room collides with
        for room_id in span:
            if room_id not in pinned:
                assert model.ids.to_server(room_id) == room_id  # a room never joined keeps its own number


# -- the client, against a Servatrice double ---------------------------------------------------------------


def room(room_id: int, name: str) -> pb.ServerInfo_Room:  # type: ignore[name-defined]
    return pb.ServerInfo_Room(room_id=room_id, name=name, description="", permissionlevel="none")


def room_say(room_id: int, text: str) -> bytes:
    message = pb.Event_RoomSay(name="alice", message=text, message_type=0)  # type: ignore[attr-defined]
    return frame(room_event_message(room_id, message))


def list_games(room_id: int, game_id: int) -> bytes:
    event = pb.Event_ListGames()  # type: ignore[attr-defined]
    event.game_list.add(room_id=room_id, game_id=game_id, description="open")
    return frame(room_event_message(room_id, event))


def dropped_at(events: list[object]) -> int:
    """Where the last drop is in the events recorded."""
    return max(index for index, event in enumerate(events) if isinstance(event, Disconnected))


def test_the_client_hands_out_the_same_room_ids_through_two_renumbering_restarts() -> None:
    async def scenario() -> None:
        async with FakeServatrice(room_list=(room(0, "Bot room"), room(1, "Second room"))) as fake:
            client = await connect(
                fake.url,
                "stable_ids",
                keepalive=0.5,
                dead_after=5,
                command_timeout=2,
                reconnect_delays=lambda: iter([0.1] * 20),
            )
            async with client:
                events = Recorder(client)
                assert await client.room_id_by_name("Bot room") == 0
                await client.join_room(0)

                async def restart(*rooms: pb.ServerInfo_Room) -> Reconnected:  # type: ignore[name-defined]
                    fake.room_list = rooms
                    seen = len(events.events)
                    for writer in fake._writers:
                        writer.close()
                    back = await events.wait_for(
                        lambda e: isinstance(e, Reconnected) and events.events.index(e) >= seen,
                        timeout=20,
                        what="reconnect",
                    )
                    assert isinstance(back, Reconnected)
                    return back

                async def heard_in_room(data: bytes, name: str) -> ClientEvent:
                    seen = len(events.events)
                    await fake.push(data)
                    event = await events.wait_for(
                        lambda e: (
                            isinstance(e, ClientEvent) and e.name == name and events.events.index(e) >= seen
                        ),
                        what=name,
                    )
                    assert isinstance(event, ClientEvent)
                    return event

                async def said_in(room_id: int) -> int:
                    """The number the container carried to the server for a line said in ``room_id``."""
                    before = len(fake.containers)
                    await client.room_say(room_id, "hello")
                    sent = [c for c in fake.containers[before:] if c.room_command]
                    return sent[-1].room_id

                # The two rooms swap: ours is 1 on the server, the other one is called 1 here.
                back = await restart(room(0, "Second room"), room(1, "Bot room"))
                assert back.rooms == (0,) and back.renumbered == ((0, 1),)
                assert client.joined_rooms == {0} and client.room_names == {0: "Bot room"}
                assert {r.room_id: r.name for r in client.rooms.values()} == {0: "Bot room", 1: "Second room"}
                (listing,) = [  # the rejoin's room list, published under our ids only
                    e.message
                    for e in events.events[dropped_at(events.events) :]
                    if isinstance(e, ClientEvent) and e.name == "Event_ListRooms"
                ]
                assert {r.room_id: r.name for r in listing.room_list} == {0: "Bot room", 1: "Second room"}  # type: ignore[attr-defined]
                assert fake.commands_named("Command_JoinRoom")[-1].room_id == 1  # type: ignore[attr-defined]
                assert await said_in(0) == 1
                assert await said_in(1) == 0  # the other room, by the id the list gave it
                event = await heard_in_room(room_say(1, "in Bot room"), "Event_RoomSay")
                assert event.room_id == 0 and event.message.message == "in Bot room"  # type: ignore[attr-defined]
                event = await heard_in_room(list_games(1, 4), "Event_ListGames")
                assert event.room_id == 0 and event.message.game_list[0].room_id == 0  # type: ignore[attr-defined]
                event = await heard_in_room(room_say(0, "in Second room"), "Event_RoomSay")
                assert event.room_id == 1

                # Another restart adds a room in front: still 0 here, 2 on the server.
                back = await restart(room(0, "Trading room"), room(1, "Second room"), room(2, "Bot room"))
                assert back.rooms == (0,) and back.renumbered == ((1, 2),)
                assert client.room_names == {0: "Bot room"} and client.server_room_id(0) == 2
                listed = {r.room_id: r.name for r in client.rooms.values()}
                assert listed[0] == "Bot room" and sorted(listed) == [0, 1, 2]
                assert len(set(listed.values())) == 3
                assert await said_in(0) == 2
                event = await heard_in_room(room_say(2, "still Bot room"), "Event_RoomSay")
                assert event.room_id == 0
                await asyncio.sleep(0)

    run(scenario(), timeout=60)
