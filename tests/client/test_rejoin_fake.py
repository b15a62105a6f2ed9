"""Rooms owed by a rejoin that a second drop cut short are joined at the next attempt, by name.

A Servatrice double renumbers its rooms while the client is away, and drops the connection again as the
client rejoins: the rooms are still owed, and the next attempt joins "Bot room" under its new number, which
the client's user still calls by the old one.
"""

from __future__ import annotations

from client_helpers import Recorder, run
from fake_servatrice import FakeServatrice

from cockatrice_ext.client import Reconnected, connect
from cockatrice_ext.protocol import messages as pb


def room(room_id: int, name: str) -> pb.ServerInfo_Room:  # type: ignore[name-defined]
    return pb.ServerInfo_Room(room_id=room_id, name=name, description="", permissionlevel="none")


def test_a_drop_during_the_rejoin_leaves_the_rooms_owed() -> None:
    async def scenario() -> None:
        drops = {"at_join": False}
        joined: list[int] = []  # the room numbers the server was asked to join

        async def on_container(container: pb.CommandContainer) -> None:  # type: ignore[name-defined]
            joins = [w for w in container.session_command if w.HasExtension(pb.Command_JoinRoom.ext)]
            joined.extend(w.Extensions[pb.Command_JoinRoom.ext].room_id for w in joins)
            if joins and drops["at_join"]:
                drops["at_join"] = False
                for writer in fake._writers:
                    writer.close()

        async with FakeServatrice(
            room_list=(room(0, "Bot room"), room(1, "Second room")), on_container=on_container
        ) as fake:
            client = await connect(
                fake.url,
                "owed_rooms",
                keepalive=0.5,
                dead_after=5,
                command_timeout=2,
                reconnect_delays=lambda: iter([0.1] * 20),
            )
            async with client:
                events = Recorder(client)
                await client.join_room(await client.room_id_by_name("Bot room"))
                assert client.room_names == {0: "Bot room"}
                fake.room_list = (room(0, "Trading room"), room(1, "Bot room"), room(2, "Second room"))
                drops["at_join"] = True
                for writer in fake._writers:
                    writer.close()
                back = await events.wait_for(
                    lambda e: isinstance(e, Reconnected), timeout=20, what="reconnect"
                )
                assert isinstance(back, Reconnected)
                assert back.rooms == (0,) and back.renumbered == ((0, 1),)
                assert client.room_names == {0: "Bot room"} and client.server_room_id(0) == 1
                assert joined == [0, 1, 1]  # the first join, the one cut short, the one that held
                assert client.rooms[0].name == "Bot room" and client.rooms[1].name == "Trading room"
                assert fake.connections == 3  # the drop at the rejoin, then the attempt that joined
                assert [e for e in events.events if isinstance(e, Reconnected)] == [back]

    run(scenario(), timeout=40)
