"""After a drop, what a first login would have refused is final too, and rooms are rejoined by name.

A real Servatrice restarts under the client with another room list, a room closed to the account, or the
account's password, activation or registration changed in its database (SQL mode); a moderator bans the
account for a minute; a second session meets the server's limit of connections per address. Each case ends
in one ``Disconnected`` with ``final`` and the error a first login would have raised (or the name of the
session refused), instead of sitting in another room, in no room, or retrying every few seconds.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import logging
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import servatrice as servatrice_module
from client_helpers import Recorder, run
from mariadb_server import MariaDB, sql_config
from servatrice import RoomConfig, ServatriceConfig, ServatriceFactory, ServatriceServer

from cockatrice_ext.client import Client, Disconnected, LoginFailed, Reconnected, backoff, connect
from cockatrice_ext.client.errors import RoomNotFound, RoomRefused, SessionRefused
from cockatrice_ext.client.events import LOGIN_REFUSED, ROOM_GONE, ROOM_REFUSED
from cockatrice_ext.protocol.codes import ResponseCode

pytestmark = pytest.mark.servatrice

BOT_ROOM = RoomConfig("Bot room")
SECOND_ROOM = RoomConfig("Second room")
TRADING_ROOM = RoomConfig("Trading room")


def quick_client(server: ServatriceServer, user: str, password: str | None = None) -> Any:
    """A client that notices the restart at once and tries again quickly."""
    return connect(
        server.ws_url,
        user,
        password,
        keepalive=0.5,
        dead_after=5,
        reconnect_delays=lambda: backoff(initial_delay=0.2, max_delay=1.0, jitter=0.0),
        max_reconnect_attempts=30,
    )


def restart_with(server: ServatriceServer, **changes: Any) -> None:
    """Restart ``server`` with its configuration changed (its rooms...), on the same ports."""
    server.config = dataclasses.replace(server.config, **changes)
    server.restart()


def is_final(event: object) -> bool:
    return isinstance(event, Disconnected) and bool(event.final)


async def in_bot_room(client: Client) -> int:
    room_id = await client.room_id_by_name("Bot room")
    await client.join_room(room_id)
    return room_id


def test_rooms_are_rejoined_by_name_when_a_restart_renumbers_them(
    servatrice_factory: ServatriceFactory,
) -> None:
    """An administrator adds a room before ours: the old number is another room now; the client joins
    "Bot room" under its new number, says which numbers moved, and keeps calling it by the id it had: a line
    said to that id reaches "Bot room", and a line said in "Bot room" arrives under it."""
    server = servatrice_factory.start(ServatriceConfig(rooms=(BOT_ROOM, SECOND_ROOM)))

    async def scenario() -> None:
        async with await quick_client(server, "renumbered_bot") as client:
            events = Recorder(client)
            assert await in_bot_room(client) == 0
            restart_with(server, rooms=(TRADING_ROOM, BOT_ROOM, SECOND_ROOM))
            back = await events.wait_for(lambda e: isinstance(e, Reconnected), timeout=30, what="reconnect")
            assert isinstance(back, Reconnected)
            assert back.rooms == (0,)
            assert back.renumbered == ((0, 1),)
            assert client.joined_rooms == {0} and client.server_room_id(0) == 1
            assert client.room_names == {0: "Bot room"}
            assert client.rooms[0].name == "Bot room" and client.rooms[1].name == "Trading room"
            async with await connect(server.ws_url, "room_listener") as listener:
                heard = Recorder(listener)
                assert await in_bot_room(listener) == 1  # a new client: the server's numbers
                await client.room_say(0, "back in the bot room")
                said = await heard.wait_for(
                    lambda e: getattr(e, "name", "") == "Event_RoomSay" and not e.is_replay,  # type: ignore[union-attr]
                    what="the line in Bot room",
                )
                assert said.message.message == "back in the bot room"  # type: ignore[union-attr]
                await listener.room_say(1, "hello bot")
                line = await events.wait_for(
                    lambda e: getattr(e, "name", "") == "Event_RoomSay" and e.message.message == "hello bot",  # type: ignore[union-attr]
                    what="the listener's line",
                )
                assert line.room_id == 0  # type: ignore[union-attr]

    run(scenario(), timeout=60)


def test_a_room_gone_after_a_restart_ends_the_session(servatrice_factory: ServatriceFactory) -> None:
    """ "Bot room" is removed: no other room is joined; the client stops for good with the error a first
    join would have raised (naming the rooms there are)."""
    server = servatrice_factory.start(ServatriceConfig(rooms=(BOT_ROOM, SECOND_ROOM)))

    async def scenario() -> None:
        async with await quick_client(server, "roomless_bot") as client:
            events = Recorder(client)
            await in_bot_room(client)
            restart_with(server, rooms=(SECOND_ROOM, TRADING_ROOM))
            end = await events.wait_for(is_final, timeout=30, what="the final stop")
            assert isinstance(end, Disconnected)
            assert end.final == ROOM_GONE and not end.will_reconnect
            assert isinstance(end.error, RoomNotFound) and end.error.name == "Bot room"
            assert str(end.error).startswith("no room called 'Bot room'; rooms here: Second room (0)")
            assert client.closed_for_good == ROOM_GONE and client.final_error is end.error
            await asyncio.wait_for(client.wait_closed(), 10)
            assert not client.connected and not client.joined_rooms
            assert not [e for e in events.events if isinstance(e, Reconnected)]

    run(scenario(), timeout=60)


def test_a_room_that_no_longer_admits_the_account_ends_the_session(
    servatrice_factory: ServatriceFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the restart "Bot room" admits moderators only: the client stops for good with the sentence a
    first join gives, instead of idling in no room."""
    plain = servatrice_module.render_ini
    moderators_only = {"on": False}

    def render(config: ServatriceConfig, **options: object) -> str:
        ini = plain(config, **options)  # type: ignore[arg-type]
        if moderators_only["on"]:
            ini = ini.replace("roomlist\\1\\permissionlevel=none", "roomlist\\1\\permissionlevel=moderator")
        return ini

    monkeypatch.setattr(servatrice_module, "render_ini", render)
    server = servatrice_factory.start(ServatriceConfig(rooms=(BOT_ROOM, SECOND_ROOM)))

    async def scenario() -> None:
        async with await quick_client(server, "refused_bot") as client:
            events = Recorder(client)
            await in_bot_room(client)
            moderators_only["on"] = True
            server.restart()
            end = await events.wait_for(is_final, timeout=30, what="the final stop")
            assert isinstance(end, Disconnected)
            assert end.final == ROOM_REFUSED and not end.will_reconnect
            assert isinstance(end.error, RoomRefused)
            assert str(end.error).startswith("room 'Bot room' admits only moderators")
            await asyncio.wait_for(client.wait_closed(), 10)
            assert not client.connected

    run(scenario(), timeout=60)


# -- SQL mode: accounts changed while the bot was away ---------------------------------------------------


def _deactivate(database: MariaDB, name: str) -> None:
    database.sql(f"UPDATE cockatrice_users SET active = 0 WHERE name = '{name}';")


def _change_password(database: MariaDB, name: str) -> None:
    database.add_user(name, "a new secret")


@pytest.mark.parametrize(
    ("user", "change", "code", "sentence"),
    [
        (
            "pw_bot",
            _change_password,
            ResponseCode.RespWrongPassword,
            "wrong password for pw_bot",
        ),
        (
            "off_bot",
            _deactivate,
            ResponseCode.RespAccountNotActivated,
            "the account off_bot is not active (not activated yet, or deactivated by the server's staff)",
        ),
    ],
)
def test_a_login_refused_for_good_after_a_restart_ends_the_session(
    servatrice_factory: ServatriceFactory,
    mariadb: MariaDB,
    user: str,
    change: Callable[[MariaDB, str], None],
    code: int,
    sentence: str,
) -> None:
    """The password was changed, or the account deactivated, while the server was down: the reconnect's
    login is refused for a reason retrying cannot change, so the client stops, as a first login does."""
    mariadb.add_user(user, "secret")
    server = servatrice_factory.start(sql_config(mariadb))

    async def scenario() -> None:
        async with await quick_client(server, user, "secret") as client:
            events = Recorder(client)
            await in_bot_room(client)
            server.stop()
            change(mariadb, user)
            server.start()
            end = await events.wait_for(is_final, timeout=30, what="the final stop")
            assert isinstance(end, Disconnected)
            assert end.final == LOGIN_REFUSED and not end.will_reconnect
            assert isinstance(end.error, LoginFailed) and end.error.code == code
            assert str(end.error) == sentence
            await asyncio.wait_for(client.wait_closed(), 10)
            failed = [e for e in events.events if isinstance(e, Disconnected) and not e.final]
            assert len(failed) == 1  # the restart's drop; no attempt after the refusal

    run(scenario(), timeout=60)


def test_a_deleted_account_back_unregistered_is_a_warning(
    servatrice_factory: ServatriceFactory, mariadb: MariaDB, caplog: pytest.LogCaptureFixture
) -> None:
    """An account deleted while the server was down logs in unregistered (the password unused): the client
    says so once, as a warning, since the server keeps no seat for it any more."""
    mariadb.add_user("del_bot", "secret")
    server = servatrice_factory.start(sql_config(mariadb))

    async def scenario() -> None:
        async with await quick_client(server, "del_bot", "secret") as client:
            events = Recorder(client)
            await in_bot_room(client)
            assert client.registered
            server.stop()
            mariadb.sql("DELETE FROM cockatrice_users WHERE name = 'del_bot';")
            server.start()
            await events.wait_for(lambda e: isinstance(e, Reconnected), timeout=30, what="reconnect")
            assert not client.registered

    with caplog.at_level(logging.WARNING, logger="cockatrice_ext.client"):
        run(scenario(), timeout=60)
    warnings = [r.getMessage() for r in caplog.records if "no longer registered" in r.getMessage()]
    assert len(warnings) == 1, [r.getMessage() for r in caplog.records]
    assert "'del_bot'" in warnings[0] and "keeps no seats" in warnings[0]


# -- a moderator's timed ban -----------------------------------------------------------------------------


def _upstream_protos(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Cockatrice's own protos (our protocol has no moderator commands), compiled now, or a skip."""
    pytest.importorskip("grpc_tools.protoc", reason="grpcio-tools (a test dependency) is not installed")
    field = str(Path(__file__).resolve().parent.parent / "field")
    if field not in sys.path:
        sys.path.insert(0, field)
    from field_players import compile_protos
    from shared_paths import UPSTREAM_PROTOS

    if not UPSTREAM_PROTOS.is_dir():
        pytest.skip("Cockatrice's .proto files not found: set COCKATRICE_SRC or COCKATRICE_PROTO_DIR")
    return compile_protos(UPSTREAM_PROTOS, tmp_path_factory.mktemp("upstream_pb"))


def test_a_timed_ban_carries_its_end(
    servatrice_factory: ServatriceFactory, mariadb: MariaDB, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A moderator bans the bot's account for one minute: the final ``Disconnected`` (and the client) say
    until when, in UTC, as the goodbye's end time has it."""
    protos = _upstream_protos(tmp_path_factory)
    from field_players import FieldPlayer

    mariadb.add_user("ban_bot", "secret")
    mariadb.add_user("ban_mod", "secret", level="moderator")
    server = servatrice_factory.start(sql_config(mariadb))

    async def scenario() -> None:
        async with await quick_client(server, "ban_bot", "secret") as client:
            events = Recorder(client)
            await in_bot_room(client)
            moderator = await FieldPlayer.connect(protos, server.tcp_port, "ban_mod", "secret")
            try:
                before = datetime.datetime.now(datetime.UTC)
                ban = moderator._container(
                    "moderator_command",
                    "Command_BanFromServer",
                    {
                        "user_name": "ban_bot",
                        "minutes": 1,
                        "reason": "test ban",
                        "visible_reason": "cool off",
                    },
                )
                await moderator._send(ban, "Command_BanFromServer")
                end = await events.wait_for(is_final, timeout=20, what="the ban")
            finally:
                await moderator.close()
            assert isinstance(end, Disconnected) and end.final == "BANNED"
            assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", end.until), end.until
            until = datetime.datetime.strptime(end.until, "%Y-%m-%d %H:%M UTC").replace(tzinfo=datetime.UTC)
            assert before - datetime.timedelta(minutes=1) <= until <= before + datetime.timedelta(minutes=2)
            assert client.closed_until == end.until
            assert f"banned until {end.until}" in end.reason

    run(scenario(), timeout=60)


def test_a_login_refusal_says_whether_it_is_final() -> None:
    """Retrying cannot change a wrong password, an inactive account or a ban; a full server may pass."""
    assert LoginFailed(int(ResponseCode.RespWrongPassword), user="a").final
    assert LoginFailed(int(ResponseCode.RespAccountNotActivated), user="a").final
    banned = LoginFailed(int(ResponseCode.RespUserIsBanned), denied_end_time=1_900_000_000, user="a")
    assert banned.final and banned.until == "2030-03-17 17:46 UTC"
    assert not LoginFailed(int(ResponseCode.RespServerFull)).final
    assert not LoginFailed(int(ResponseCode.RespTooManyRequests)).final


# -- a second session refused by the server's limit per address ----------------------------------------


def test_a_session_refused_for_too_many_connections_names_its_user(
    servatrice_factory: ServatriceFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one connection allowed per address, the second session (a bot's ``--extra-user``) is refused
    before its login: the error names that session's user, so the operator knows which one."""
    render = servatrice_module.render_ini
    monkeypatch.setattr(
        servatrice_module,
        "render_ini",
        lambda *a, **k: render(*a, **k).replace("127.0.0.1,::1", "192.0.2.1"),
    )
    server = servatrice_factory.start(ServatriceConfig(max_users_per_address=1))

    async def scenario() -> None:
        async with await connect(server.tcp_url, "MainReferee"):
            with pytest.raises(SessionRefused) as info:
                await connect(server.tcp_url, "RefereeHelper", reconnect=False)
        assert info.value.user == "RefereeHelper"
        assert info.value.close_reason == "TOO_MANY_CONNECTIONS"
        assert str(info.value) == (
            "server closed the session of 'RefereeHelper' before its login: too many connections from this"
            " address (TOO_MANY_CONNECTIONS)"
        )

    run(scenario())
