"""ClientConnection against a real Servatrice on loopback, over TCP and WebSocket (blocking sockets)."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from urllib.parse import urlparse

import pytest

from cockatrice_ext.protocol import (
    NEED_DATA,
    ClientConnection,
    ConnectionClosed,
    Event,
    GameEventsReceived,
    LoginFailed,
    LoginSucceeded,
    ResponseCode,
    ResponseReceived,
    RoomEventReceived,
    ServerIdentified,
    SessionEventReceived,
    SessionState,
    UserLevel,
    commands,
)
from cockatrice_ext.protocol import messages as pb

pytestmark = pytest.mark.servatrice

TIMEOUT = 10.0


class BlockingSession:
    """The smallest possible I/O driver for ClientConnection, for tests only."""

    def __init__(self, url: str, transport: str) -> None:
        self.conn = ClientConnection(transport=transport)
        self.backlog: list[Event] = []
        self.resources = contextlib.ExitStack()
        self.transport = transport
        parsed = urlparse(url)
        if transport == "tcp":
            self.sock = socket.create_connection((parsed.hostname, parsed.port), timeout=TIMEOUT)
        else:
            from websockets.sync.client import connect

            self.ws = self.resources.enter_context(
                connect(url, max_size=self.conn.max_frame_size, open_timeout=TIMEOUT)
            )
        self.flush()

    def flush(self) -> None:
        for frame in self.conn.data_to_send():
            if self.transport == "tcp":
                self.sock.sendall(frame)
            else:
                self.ws.send(frame)

    def receive(self) -> None:
        if self.transport == "tcp":
            data = self.sock.recv(65536)
            if data:
                self.conn.receive_data(data)
            else:
                self.conn.receive_eof()
        else:
            self.conn.receive_data(self.ws.recv(timeout=TIMEOUT))

    def wait_for(self, predicate: Callable[[Event], bool]) -> Event:
        """Return the first event (seen earlier or arriving now) matching ``predicate``."""
        for index, seen in enumerate(self.backlog):
            if predicate(seen):
                return self.backlog.pop(index)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            event = self.conn.next_event()
            self.flush()
            if event is NEED_DATA:
                self.receive()
                continue
            if predicate(event):
                return event
            self.backlog.append(event)
            if isinstance(event, ConnectionClosed):
                raise AssertionError(f"connection closed: {event}")
        raise AssertionError("timed out waiting for an event")

    def call(self, command: object, **ids: int) -> ResponseReceived:
        cmd_id = self.conn.send(command, **ids)  # type: ignore[arg-type]
        self.flush()
        event = self.wait_for(lambda e: isinstance(e, ResponseReceived) and e.cmd_id == cmd_id)
        assert isinstance(event, ResponseReceived)
        return event

    def close(self) -> None:
        if self.transport == "tcp":
            self.sock.close()
        self.resources.close()


@pytest.mark.parametrize("transport", ["tcp", "ws"])
def test_login_room_game_roundtrip(servatrice: object, transport: str) -> None:
    session = BlockingSession(servatrice.url(transport), transport)  # type: ignore[attr-defined]
    try:
        ident = session.wait_for(lambda e: isinstance(e, ServerIdentified))
        assert isinstance(ident, ServerIdentified) and ident.protocol_version == 14
        session.conn.login(f"proto_{transport}")
        session.flush()
        login = session.wait_for(lambda e: isinstance(e, LoginSucceeded))
        assert isinstance(login, LoginSucceeded) and login.user_name.startswith(f"proto_{transport}")
        assert session.conn.state is SessionState.LOGGED_IN
        banner = session.wait_for(
            lambda e: isinstance(e, SessionEventReceived) and isinstance(e.message, pb.Event_ServerMessage)
        )
        assert isinstance(banner, SessionEventReceived)

        assert session.call(commands.ping()).code is ResponseCode.RespOk
        session.conn.send(commands.list_rooms())
        session.flush()
        rooms = session.wait_for(
            lambda e: isinstance(e, SessionEventReceived) and isinstance(e.message, pb.Event_ListRooms)
        )
        room_ids = [room.room_id for room in rooms.message.room_list]  # type: ignore[union-attr]
        assert 0 in room_ids

        joined = session.call(commands.join_room(0))
        assert joined.ok and isinstance(joined.payload, pb.Response_JoinRoom)
        assert joined.payload.room_info.room_id == 0

        assert session.call(commands.room_say("hello room"), room_id=0).ok
        echo = session.wait_for(
            lambda e: (
                isinstance(e, RoomEventReceived)
                and isinstance(e.message, pb.Event_RoomSay)
                and e.message.message == "hello room"
            )
        )
        assert echo.message.name == login.user_name  # type: ignore[union-attr]

        created = session.call(commands.create_game("protocol test", max_players=2), room_id=0)
        assert created.ok
        game_joined = session.wait_for(
            lambda e: isinstance(e, SessionEventReceived) and isinstance(e.message, pb.Event_GameJoined)
        )
        game_id = game_joined.message.game_info.game_id  # type: ignore[union-attr]
        assert game_id >= 0

        assert session.call(commands.game_say("hello game"), game_id=game_id).ok
        said = session.wait_for(
            lambda e: (
                isinstance(e, GameEventsReceived)
                and any(isinstance(item.message, pb.Event_GameSay) for item in e.events)
            )
        )
        assert said.game_id == game_id  # type: ignore[union-attr]

        denied = session.call(commands.draw_cards(1), game_id=game_id)
        assert denied.code is ResponseCode.RespGameNotStarted
        assert session.call(commands.leave_game(), game_id=game_id).ok
    finally:
        session.close()


@pytest.fixture(scope="module")
def sql_servatrice(servatrice_binary: str, mariadb: object, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Servatrice in SQL mode (registered users, SupportsPasswordHash) over the shared MariaDB."""
    from mariadb_server import sql_config
    from servatrice import ServatriceServer

    mariadb.add_user("hashbot", "s3cret pass")  # type: ignore[attr-defined]
    server = ServatriceServer(servatrice_binary, tmp_path_factory.mktemp("proto-sql"), sql_config(mariadb))  # type: ignore[arg-type]
    try:
        server.start()
        yield server
    finally:
        server.stop()


def _login(server: object, transport: str, user: str, password: str) -> tuple[BlockingSession, Event]:
    session = BlockingSession(server.url(transport), transport)  # type: ignore[attr-defined]
    ident = session.wait_for(lambda e: isinstance(e, ServerIdentified))
    assert isinstance(ident, ServerIdentified) and ident.supports_password_hash
    session.conn.login(user, password)
    session.flush()
    return session, session.wait_for(lambda e: isinstance(e, (LoginSucceeded, LoginFailed)))


@pytest.mark.parametrize("transport", ["tcp", "ws"])
def test_salted_hash_login_against_sql_servatrice(sql_servatrice: object, transport: str) -> None:
    session, result = _login(sql_servatrice, transport, "hashbot", "s3cret pass")
    try:
        assert isinstance(result, LoginSucceeded), result
        assert result.user_name == "hashbot"
        assert result.user_info.user_level & UserLevel.IsRegistered
    finally:
        session.close()
    session, result = _login(sql_servatrice, transport, "hashbot", "wrong password")
    try:
        assert isinstance(result, LoginFailed) and result.code is ResponseCode.RespWrongPassword
        assert session.conn.state is SessionState.IDENTIFIED
    finally:
        session.close()
    # Unknown name: empty salt, so we log in unregistered without sending the password.
    session, result = _login(sql_servatrice, transport, f"guest{transport}x", "anything")
    try:
        assert isinstance(result, LoginSucceeded), result
        assert not result.user_info.user_level & UserLevel.IsRegistered
    finally:
        session.close()
