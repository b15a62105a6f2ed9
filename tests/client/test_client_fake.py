"""The client against a scripted fake server: handshake, keepalive, timeouts and hostile bytes."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import struct

import pytest
from client_helpers import Recorder, run, wait_until
from fake_servatrice import FakeServatrice, frame

from cockatrice_ext.client import (
    ChatFlood,
    CommandTimeout,
    ConnectionLost,
    Disconnected,
    FloodLimits,
    LoginFailed,
    ServerAddress,
    ServerError,
    connect,
)
from cockatrice_ext.client import client as client_module
from cockatrice_ext.protocol import commands
from cockatrice_ext.protocol import messages as pb

FAST = {"connect_timeout": 3.0, "command_timeout": 3.0, "reconnect": False}


def test_server_address_parsing() -> None:
    assert ServerAddress.parse("tcp://example.org") == ServerAddress(
        "tcp", "example.org", 4747, "tcp://example.org"
    )
    ws = ServerAddress.parse("ws://example.org")
    assert (ws.kind, ws.port, ws.url) == ("ws", 4748, "ws://example.org:4748/servatrice")
    wss = ServerAddress.parse("wss://server.cockatrice.us/servatrice")
    assert (wss.kind, wss.port, wss.secure) == ("ws", 443, True)
    assert ServerAddress.parse("localhost:4748").kind == "ws"
    assert ServerAddress.parse("localhost").kind == "tcp"
    for bad in ("http://x", "tcp://", "tcp://host:notaport"):
        with pytest.raises(ValueError):
            ServerAddress.parse(bad)


def test_plain_login_and_keepalive_pings() -> None:
    async def scenario() -> None:
        async with FakeServatrice() as server:
            async with await connect(server.url, "bot", keepalive=0.05, **FAST) as client:
                assert client.user_name == "bot"
                await wait_until(lambda: len(server.commands_named("Command_Ping")) >= 3, what="pings")
            [login] = server.logins
            assert login.user_name == "bot" and not login.HasField("password")

    run(scenario(), timeout=20)


def test_salted_login_matches_independent_hash() -> None:
    salt = "0123456789abcdef"
    digest = (salt + "s3cret").encode()
    for _ in range(1000):
        digest = hashlib.sha512(digest).digest()
    expected = salt + base64.b64encode(digest).decode()

    async def scenario() -> None:
        async with FakeServatrice(password_hash=True, salt=salt, expected_hash=expected) as server:
            async with await connect(server.url, "reg", "s3cret", **FAST) as client:
                assert client.user_name == "reg"
            assert server.logins[0].hashed_password == expected
            assert not server.logins[0].password
        async with FakeServatrice(password_hash=True, salt=salt, expected_hash="wrong") as server:
            with pytest.raises(LoginFailed) as info:
                await connect(server.url, "reg", "s3cret", **FAST)
            assert info.value.code == 12

    run(scenario(), timeout=20)


@pytest.mark.parametrize(
    ("label", "bytes_"),
    [
        ("garbage", b"\x00\x00\x00\x05\xff\xff\xff\xff\xff"),
        ("absurd length", struct.pack(">I", 0xFFFFFFF0) + b"x" * 16),
        ("not protobuf", b"\x00\x00\x00\x03abc"),
    ],
)
def test_hostile_bytes_before_identification_fail_cleanly(
    label: str, bytes_: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        async with FakeServatrice(before_identification=bytes_) as server:
            with pytest.raises((ServerError, ConnectionLost)):
                await connect(server.url, "bot", **FAST)

    with caplog.at_level(logging.ERROR):
        run(scenario(), timeout=15)
    assert any("protocol error" in record.getMessage() for record in caplog.records), label


def test_truncated_frame_then_close() -> None:
    async def scenario() -> None:
        async with FakeServatrice(before_identification=b"\x00\x00\x01\x00abc") as server:
            connecting = asyncio.ensure_future(connect(server.url, "bot", **FAST))
            await asyncio.sleep(0.2)
            for writer in server._writers:
                writer.close()
            with pytest.raises((ServerError, ConnectionLost, CommandTimeout)):
                await connecting

    run(scenario(), timeout=15)


def test_protocol_version_mismatch(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        async with FakeServatrice(protocol_version=13) as server:
            with pytest.raises(ServerError, match="protocol"):
                await connect(server.url, "bot", **FAST)

    with caplog.at_level(logging.ERROR):
        run(scenario(), timeout=15)


def test_unknown_message_type_is_skipped() -> None:
    unknown = pb.ServerMessage()
    unknown.message_type = 2
    odd = frame(unknown) + struct.pack(">I", 4) + b"\x08\x63\x10\x01"  # message_type 99 + unknown field

    async def scenario() -> None:
        async with (
            FakeServatrice(after_login=odd) as server,
            await connect(server.url, "bot", **FAST) as client,
        ):
            await client.ping()  # still alive after the odd messages
            assert client.connected

    run(scenario(), timeout=15)


def test_garbage_after_login_disconnects_and_fails_pending(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        async with FakeServatrice(ignore_commands=frozenset({"Command_JoinRoom"})) as server:
            client = await connect(server.url, "bot", **FAST)
            events = Recorder(client)
            pending = asyncio.ensure_future(client.join_room(0))  # never answered
            await wait_until(lambda: bool(server.commands_named("Command_JoinRoom")))
            for writer in server._writers:
                writer.write(struct.pack(">I", 0x7FFFFFFF))
            with pytest.raises(ConnectionLost):
                await pending
            gone = await events.wait_for(lambda e: isinstance(e, Disconnected))
            assert "protocol error" in gone.reason and not gone.will_reconnect  # type: ignore[union-attr]
            await client.wait_closed()
            with pytest.raises(ConnectionLost):
                await client.ping()
            await client.close()

    with caplog.at_level(logging.ERROR):
        run(scenario(), timeout=15)


def test_silent_server_is_declared_dead() -> None:
    async def scenario() -> None:
        async with FakeServatrice(answer_pings=False) as server:
            client = await connect(server.url, "bot", keepalive=0.05, dead_after=0.3, **FAST)
            events = Recorder(client)
            gone = await events.wait_for(lambda e: isinstance(e, Disconnected), timeout=5)
            assert "no data" in gone.reason  # type: ignore[union-attr]
            await client.close()

    run(scenario(), timeout=15)


def test_command_timeout() -> None:
    async def scenario() -> None:
        async with (
            FakeServatrice(ignore_commands=frozenset({"Command_JoinRoom"})) as server,
            await connect(server.url, "bot", **FAST) as client,
        ):
            with pytest.raises(CommandTimeout):
                await client.call(commands.join_room(3), timeout=0.2)
            assert client.connected  # a timeout does not kill the session

    run(scenario(), timeout=15)


def test_batches_are_reversed_and_idle_refresh_sent() -> None:
    async def scenario() -> None:
        async with FakeServatrice() as server:
            async with await connect(
                server.url,
                "bot",
                keepalive=0.05,
                idle_refresh=0.1,
                flood_limits=FloodLimits(game_commands=4, command_interval=0.2, margin=0.0),
                **FAST,
            ) as client:
                await client.join_room(0)
                batch = [commands.roll_die(sides) for sides in range(2, 12)]
                responses = await client.game_commands(5, batch)
                assert len(responses) == 5  # 10 counted commands, 2 per container (half the budget)
                await wait_until(
                    lambda: any(
                        c.room_command and not c.room_command[0].ListFields() for c in server.containers
                    ),
                    what="idle refresh",
                )
            sent = [c for c in server.containers if c.game_command]
            sides = [
                [w.Extensions[pb.Command_RollDie.ext].sides for w in container.game_command]
                for container in sent
            ]
            # The server runs each container backwards, so the intended order is the reverse of each batch.
            assert [s for batch_sides in sides for s in reversed(batch_sides)] == list(range(2, 12))
            assert all(container.game_id == 5 for container in sent)

    run(scenario(), timeout=15)


def test_a_message_waiting_for_the_chat_budget_holds_no_game_command_back() -> None:
    """Chat and game commands wait in separate lanes: with the chat budget spent, a private message waits
    its turn while a judge's command queued after it goes at once (it spends only the command budget)."""

    async def scenario() -> None:
        async with FakeServatrice() as server:
            limits = FloodLimits(chat_messages=1, chat_interval=2.0, game_commands=20, margin=0.0)
            async with await connect(server.url, "bot", flood_limits=limits, **FAST) as client:
                await client.send_message("ann", "first")  # the chat budget is spent for 2 s
                waiting = asyncio.ensure_future(client.send_message("ann", "second"))
                await asyncio.sleep(0.05)
                loop = asyncio.get_running_loop()
                started = loop.time()
                await client.judge_commands(5, 1, [commands.ready_start(False)])
                assert loop.time() - started < 1.0, "the judge's command waited behind the chat message"
                assert not waiting.done()
                await waiting  # and the message still goes, in its turn
            said = [
                c.session_command[0].Extensions[pb.Command_Message.ext].message
                for c in server.containers
                if c.session_command and c.session_command[0].HasExtension(pb.Command_Message.ext)
            ]
            assert said == ["first", "second"]

    run(scenario(), timeout=15)


def test_a_game_command_waiting_for_the_budget_holds_back_no_other_game() -> None:
    """Lanes are per game: with the game-command budget spent, one game's counted command waits while
    another game's free counter and a session command go, and the waiting game's own free command
    never overtakes its counted one."""

    async def scenario() -> None:
        async with FakeServatrice() as server:
            limits = FloodLimits(game_commands=1, command_interval=2.0, margin=0.0)
            async with await connect(server.url, "bot", flood_limits=limits, **FAST) as client:
                await client.game_command(5, commands.roll_die(6))  # the command budget is spent
                counted = asyncio.ensure_future(client.game_command(5, commands.roll_die(8)))
                behind = asyncio.ensure_future(client.game_command(5, commands.inc_counter(0, 1)))
                await asyncio.sleep(0)
                await client.game_command(6, commands.inc_counter(0, 2))  # free, another game
                await client.ping()  # a session command
                assert not counted.done() and not behind.done()
                await asyncio.gather(counted, behind)
            games = [c.game_id for c in server.containers if c.game_command]
            runs = list(zip(games, _game_containers(server), strict=True))
            assert runs == [
                (5, ["Command_RollDie"]),
                (6, ["Command_IncCounter"]),
                (5, ["Command_RollDie"]),
                (5, ["Command_IncCounter"]),
            ]

    run(scenario(), timeout=15)


def _game_containers(server: FakeServatrice) -> list[list[str]]:
    """The game commands of each container received, by name, in the order the server runs them."""
    return [
        [
            value.DESCRIPTOR.name
            for w in reversed(c.game_command)
            for d, value in w.ListFields()
            if d.is_extension
        ]
        for c in server.containers
        if c.game_command
    ]


def test_a_container_refused_as_flood_goes_again_when_the_server_ran_none_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A refusal came at the first command the server runs when no counted command comes after it:
    nothing ran, so the client sends the container again (a free one after a server tick) and the caller
    gets the second answer."""
    monkeypatch.setattr(client_module, "SERVER_TICK", 0.05)

    async def scenario() -> None:
        limits = FloodLimits(command_interval=0.2, margin=0.0)
        async with FakeServatrice(flood_refusals=1) as server:
            async with await connect(server.url, "bot", flood_limits=limits, **FAST) as client:
                await client.game_commands(5, [commands.roll_die(6), commands.inc_counter(0, 1)])
                server.flood_refusals = 1
                await client.game_command(5, commands.inc_counter(0, 1))
            assert _game_containers(server) == [
                ["Command_RollDie", "Command_IncCounter"],
                ["Command_RollDie", "Command_IncCounter"],
                ["Command_IncCounter"],
                ["Command_IncCounter"],
            ]
            assert client.flood.limits.game_commands < limits.game_commands

    run(scenario(), timeout=15)


def test_a_container_the_server_may_have_run_in_part_is_not_sent_again() -> None:
    """A counted command after the first the server runs: the refusal may have come there, after the
    first ran. Sending it all again could do that twice, so the caller is told instead."""

    async def scenario() -> None:
        async with FakeServatrice(flood_refusals=1) as server:
            async with await connect(server.url, "bot", **FAST) as client:
                with pytest.raises(ChatFlood):
                    await client.game_commands(5, [commands.inc_counter(0, 1), commands.roll_die(6)])
            assert _game_containers(server) == [["Command_IncCounter", "Command_RollDie"]]

    run(scenario(), timeout=15)


def test_a_command_refused_again_and_again_is_given_up_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> None:
        limits = FloodLimits(command_interval=0.1, margin=0.0)
        async with FakeServatrice(flood_refusals=1000) as server:
            async with await connect(server.url, "bot", flood_limits=limits, **FAST) as client:
                with pytest.raises(ChatFlood):
                    await client.game_command(5, commands.roll_die(6))
            assert 2 <= len(_game_containers(server)) < 20

    with caplog.at_level(logging.WARNING):
        run(scenario(), timeout=15)
    assert any("given up" in r.getMessage() for r in caplog.records)


def test_logged_in_elsewhere_is_final() -> None:
    goodbye = pb.ServerMessage(message_type=pb.ServerMessage.SESSION_EVENT)
    goodbye.session_event.Extensions[pb.Event_ConnectionClosed.ext].reason = 8  # LOGGEDINELSEWERE

    async def scenario() -> None:
        async with FakeServatrice(after_login=frame(goodbye)) as server:
            client = await connect(server.url, "twin", connect_timeout=3.0, command_timeout=3.0)
            events = Recorder(client)
            gone = await events.wait_for(lambda e: isinstance(e, Disconnected))
            assert not gone.will_reconnect and "LOGGEDINELSEWERE" in gone.reason  # type: ignore[union-attr]
            await client.wait_closed()
            assert server.connections == 1
            await client.close()

    run(scenario(), timeout=15)
