"""What the server says to the operator: a scheduled shutdown, a moderator's warning, a room that will not
have us. Each is one log line (a warning where someone must act) or one sentence error, never a dump."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest
from client_helpers import Recorder, run
from fake_servatrice import FakeServatrice, frame

from cockatrice_ext.client import Reconnected, connect
from cockatrice_ext.client.errors import RoomRefused, UserLevelTooLow, room_refusal
from cockatrice_ext.protocol import messages as pb

FAST = {"connect_timeout": 3.0, "command_timeout": 3.0, "reconnect": False}
CLIENT_LOG = "cockatrice_ext.client.client"


def session_event(name: str, **fields: object) -> bytes:
    """A framed session event ``name`` (e.g. ``Event_ServerShutdown``) with ``fields`` set."""
    message = pb.ServerMessage(message_type=pb.ServerMessage.SESSION_EVENT)
    event = message.session_event.Extensions[getattr(pb, name).ext]
    for field, value in fields.items():
        setattr(event, field, value)
    return frame(message)


def quick_retries() -> Iterator[float]:
    while True:
        yield 0.05


def client_lines(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == CLIENT_LOG and r.levelno == level]


def test_a_scheduled_shutdown_is_a_warning_and_known_until_a_reconnect(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Servatrice announces an administrator's shutdown to every session (and at each login while it is
    pending): the operator reads its reason and minutes on one line, the bot reads when it is due; a new
    connection starts without it (a server still going down says so again)."""
    shutdown = session_event("Event_ServerShutdown", reason="Upgrade to 2.11\nback soon", minutes=10)

    async def scenario() -> None:
        async with FakeServatrice() as server:
            client = await connect(
                server.url, "bot", connect_timeout=3.0, command_timeout=3.0, reconnect_delays=quick_retries
            )
            try:
                events = Recorder(client)
                before = asyncio.get_running_loop().time()
                await server.push(shutdown)
                await events.wait_for(lambda e: getattr(e, "name", "") == "Event_ServerShutdown")
                after = asyncio.get_running_loop().time()
                assert client.shutdown_due is not None
                assert before + 600 - 5 <= client.shutdown_due <= after + 600
                assert client.shutdown_reason == "Upgrade to 2.11 back soon"
                for writer in server._writers:  # the connection drops; the next login announces nothing
                    writer.close()
                await events.wait_for(lambda e: isinstance(e, Reconnected), what="reconnect")
                assert client.shutdown_due is None and client.shutdown_reason == ""
            finally:
                await client.close()

    with caplog.at_level(logging.INFO, logger=CLIENT_LOG):
        run(scenario(), timeout=30)
    announced = [line for line in client_lines(caplog, logging.WARNING) if "shutdown" in line]
    assert announced == ["the server announces a shutdown in 10 minute(s): Upgrade to 2.11 back soon"]


def test_a_moderator_warning_is_a_warning_on_one_line(caplog: pytest.LogCaptureFixture) -> None:
    warning = session_event("Event_NotifyUser", type=2, warning_reason="Flooding the room\nstop it")
    promoted = session_event("Event_NotifyUser", type=1)
    custom = session_event(
        "Event_NotifyUser", type=4, custom_title="Maintenance", custom_content="At 18:00\nUTC"
    )

    async def scenario() -> None:
        async with FakeServatrice() as server, await connect(server.url, "bot", **FAST) as client:
            events = Recorder(client)
            await server.push(warning + promoted + custom)
            await events.wait_for(lambda e: len(events.named("Event_NotifyUser")) == 3, what="notifications")

    with caplog.at_level(logging.INFO, logger=CLIENT_LOG):
        run(scenario(), timeout=20)
    assert client_lines(caplog, logging.WARNING) == ["a moderator warned bot: Flooding the room stop it"]
    notes = [line for line in client_lines(caplog, logging.INFO) if "notification" in line]
    assert notes == [
        "server notification for bot: PROMOTED",
        "server notification for bot: CUSTOM: Maintenance: At 18:00 UTC",
    ]


def test_the_servers_message_is_logged_on_one_line(caplog: pytest.LogCaptureFixture) -> None:
    """Servatrice's login message (or an administrator's word to everyone) may say the server is moving or
    what its rules are: the operator reads it in the log, one line, without its markup's line breaks."""
    said = session_event("Event_ServerMessage", message="Welcome!\nBots: read the rules\r\nat /rules")

    async def scenario() -> None:
        async with FakeServatrice() as server, await connect(server.url, "bot", **FAST) as client:
            events = Recorder(client)
            await server.push(said)
            await events.wait_for(lambda e: getattr(e, "name", "") == "Event_ServerMessage")

    with caplog.at_level(logging.INFO, logger=CLIENT_LOG):
        run(scenario(), timeout=20)
    assert "the server says: Welcome! Bots: read the rules at /rules" in client_lines(caplog, logging.INFO)


def room(room_id: int, name: str, permission: str = "none", privilege: str = "none") -> pb.ServerInfo_Room:  # type: ignore[name-defined]
    return pb.ServerInfo_Room(
        room_id=room_id, name=name, permissionlevel=permission, privilegelevel=privilege
    )


@pytest.mark.parametrize(
    ("listed", "user_info", "sentence"),
    [
        (
            room(3, "Reg room", permission="registered"),
            None,
            "room 'Reg room' admits only registered accounts: log in with a registered account"
            " (--user/--password) or leave it out",
        ),
        (
            room(3, "Staff", permission="moderator"),
            pb.ServerInfo_User(user_level=3),
            "room 'Staff' admits only moderators: log in with a moderator's account (--user/--password)"
            " or leave it out",
        ),
        (
            room(3, "VIP lounge", permission="registered", privilege="vip"),
            pb.ServerInfo_User(user_level=3, privlevel="donator"),
            "room 'VIP lounge' admits only accounts with the privilege level 'vip' (bot has 'donator'): log"
            " in with such an account (--user/--password) or leave it out",
        ),
    ],
)
def test_a_room_that_does_not_admit_the_account_is_refused_in_a_sentence(
    listed: pb.ServerInfo_Room,  # type: ignore[name-defined]
    user_info: pb.ServerInfo_User | None,  # type: ignore[name-defined]
    sentence: str,
) -> None:
    """Servatrice answers ``RespUserLevelTooLow`` to ``Command_JoinRoom`` for a room whose permission or
    privilege level the account lacks; the error says which, as the login refusals do."""

    async def scenario() -> RoomRefused:
        async with FakeServatrice(room_list=(room(0, "Lobby"), listed), join_refusals={3: 15}) as server:
            server.user_info = user_info
            async with await connect(server.url, "bot", **FAST) as client:
                [_, summary] = await client.list_rooms()
                assert summary.permission_level == listed.permissionlevel
                await client.join_room(0)  # the others are fine
                with pytest.raises(RoomRefused) as refused:
                    await client.join_room(await client.room_id_by_name(listed.name))
                assert 3 not in client.joined_rooms
                return refused.value

    refused = run(scenario(), timeout=20)
    assert str(refused) == sentence
    assert isinstance(refused, UserLevelTooLow) and refused.room_id == 3  # what callers caught before


def test_room_refusals_without_the_room_list_or_a_known_cause_still_name_the_room() -> None:
    unknown = RoomRefused(15, room_id=5, user="bot")
    assert room_refusal(unknown) == (
        "the server does not let bot into room 5 (RespUserLevelTooLow): log in with another account"
        " (--user/--password) or leave it out"
    )
    privileged = RoomRefused(15, room_id=5, room="Patrons", privilege_level="privileged", user="bot")
    assert str(privileged).startswith(
        "room 'Patrons' admits only accounts with a privilege level (bot has none)"
    )
    registered_but = RoomRefused(15, room_id=5, room="R", permission_level="registered", registered=True)
    assert str(registered_but).startswith("the server does not let this account into room 'R'")
