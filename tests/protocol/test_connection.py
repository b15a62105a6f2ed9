"""ClientConnection against scripted server byte streams (TCP and WebSocket)."""

from __future__ import annotations

import base64
import hashlib
import logging

import pytest

from cockatrice_ext.protocol import (
    NEED_DATA,
    ClientConnection,
    CloseReason,
    ConnectionClosed,
    GameEventsReceived,
    LocalProtocolError,
    LoginFailed,
    LoginSucceeded,
    RemoteProtocolError,
    ResponseCode,
    ResponseReceived,
    RoomEventReceived,
    ServerIdentified,
    SessionEventReceived,
    SessionState,
    commands,
)
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.protocol.framing import TcpFrameDecoder
from cockatrice_ext.protocol.serverside import (
    TCP_PREAMBLE,
    command_payloads,
    encode_server_message,
    game_event,
    game_events_message,
    identification_message,
    parse_command_container,
    response_message,
    room_event_message,
    session_event_message,
)


class ScriptedServer:
    """Reads what the client wrote and produces server bytes for one transport."""

    def __init__(self, transport: str) -> None:
        self.transport = transport
        self.decoder = TcpFrameDecoder(expect_preamble=False)

    def frame(self, message: pb.ServerMessage) -> bytes:
        return encode_server_message(message, transport=self.transport)

    def read(self, conn: ClientConnection) -> list[pb.CommandContainer]:
        containers = []
        for frame in conn.data_to_send():
            if self.transport == "tcp":
                self.decoder.feed(frame)
                while (payload := self.decoder.next_frame()) is not None:
                    containers.append(parse_command_container(payload))
            else:
                containers.append(parse_command_container(frame))
        return containers


def events(conn: ClientConnection) -> list[object]:
    found = []
    while (event := conn.next_event()) is not NEED_DATA:
        found.append(event)
        if isinstance(event, ConnectionClosed):
            break
    return found


def identified(transport: str = "tcp", *, hashing: bool = False) -> tuple[ClientConnection, ScriptedServer]:
    conn = ClientConnection(transport=transport)
    server = ScriptedServer(transport)
    hello = server.read(conn)
    if transport == "tcp":
        assert len(hello) == 1 and not hello[0].HasField("cmd_id")
        conn.receive_data(TCP_PREAMBLE)
    else:
        assert hello == []
    conn.receive_data(server.frame(identification_message(supports_password_hash=hashing)))
    [ident] = events(conn)
    assert isinstance(ident, ServerIdentified)
    assert ident.supports_password_hash is hashing
    assert conn.state is SessionState.IDENTIFIED
    return conn, server


def login_ok(conn: ClientConnection, server: ScriptedServer, name: str = "bot") -> None:
    conn.login(name)
    [container] = server.read(conn)
    conn.receive_data(
        server.frame(
            response_message(
                container.cmd_id, payload=pb.Response_Login(user_info=pb.ServerInfo_User(name=name))
            )
        )
    )
    assert isinstance(events(conn)[0], LoginSucceeded)


@pytest.mark.parametrize("transport", ["tcp", "ws"])
def test_plain_login_uses_the_real_name(transport: str) -> None:
    conn, server = identified(transport)
    cmd_id = conn.login("bot", "pw")
    [container] = server.read(conn)
    [(domain, number, login)] = command_payloads(container)
    assert (domain, number, container.cmd_id) == ("session", 1001, cmd_id)
    assert login.user_name == "bot" and login.password == "pw" and not login.HasField("hashed_password")
    assert conn.state is SessionState.LOGGING_IN
    reply = pb.Response_Login(user_info=pb.ServerInfo_User(name="bot_1"))
    conn.receive_data(server.frame(response_message(cmd_id, ResponseCode.RespOk, reply)))
    [event] = events(conn)
    assert isinstance(event, LoginSucceeded)
    assert event.user_name == "bot_1" == conn.user_name
    assert conn.state is SessionState.LOGGED_IN


def test_hashed_login_sends_salt_plus_sha512_1000() -> None:
    conn, server = identified(hashing=True)
    conn.login("alice", "hunter2")
    [salt_request] = server.read(conn)
    [(_, number, request)] = command_payloads(salt_request)
    assert number == 1024 and request.user_name == "alice"
    salt = "0123456789abcdef"
    conn.receive_data(
        server.frame(
            response_message(salt_request.cmd_id, payload=pb.Response_PasswordSalt(password_salt=salt))
        )
    )
    assert events(conn) == []  # the machine answers by itself
    [login] = server.read(conn)
    [(_, number, command)] = command_payloads(login)
    digest = (salt + "hunter2").encode()
    for _ in range(1000):
        digest = hashlib.sha512(digest).digest()
    assert number == 1001
    assert command.hashed_password == salt + base64.b64encode(digest).decode()
    assert not command.HasField("password")
    conn.receive_data(
        server.frame(
            response_message(
                login.cmd_id, payload=pb.Response_Login(user_info=pb.ServerInfo_User(name="alice"))
            )
        )
    )
    [event] = events(conn)
    assert isinstance(event, LoginSucceeded) and event.cmd_id == login.cmd_id


def test_empty_salt_logs_in_unregistered_without_password() -> None:
    conn, server = identified(hashing=True)
    conn.login("guest", "pw")
    [salt_request] = server.read(conn)
    conn.receive_data(server.frame(response_message(salt_request.cmd_id, payload=pb.Response_PasswordSalt())))
    assert events(conn) == []
    [login] = server.read(conn)
    [(_, _, command)] = command_payloads(login)
    assert not command.HasField("password") and not command.HasField("hashed_password")


def test_refused_login_reports_details_and_allows_retry() -> None:
    conn, server = identified()
    conn.login("banned", "pw")
    [container] = server.read(conn)
    denied = pb.Response_Login(denied_reason_str="spam", denied_end_time=99, missing_features=["x"])
    conn.receive_data(server.frame(response_message(container.cmd_id, ResponseCode.RespUserIsBanned, denied)))
    [event] = events(conn)
    assert event == LoginFailed(container.cmd_id, ResponseCode.RespUserIsBanned, "spam", 99, ("x",))
    assert conn.state is SessionState.IDENTIFIED
    conn.login("other")
    assert conn.state is SessionState.LOGGING_IN


def test_failed_salt_request_is_a_login_failure() -> None:
    conn, server = identified(hashing=True)
    conn.login("x", "pw")
    [container] = server.read(conn)
    conn.receive_data(server.frame(response_message(container.cmd_id, ResponseCode.RespInternalError)))
    [event] = events(conn)
    assert isinstance(event, LoginFailed) and event.code is ResponseCode.RespInternalError


@pytest.mark.parametrize("transport", ["tcp", "ws"])
def test_protocol_version_mismatch_is_a_remote_error(transport: str) -> None:
    conn = ClientConnection(transport=transport)
    if transport == "tcp":
        conn.receive_data(TCP_PREAMBLE)
    conn.receive_data(encode_server_message(identification_message(protocol_version=15), transport=transport))
    with pytest.raises(RemoteProtocolError, match="protocol 15"):
        conn.next_event()
    assert conn.state is SessionState.ERROR
    with pytest.raises(RemoteProtocolError):
        conn.next_event()
    with pytest.raises(LocalProtocolError):
        conn.send(commands.ping())


def test_send_rules_before_and_after_login() -> None:
    conn, server = identified()
    conn.send(commands.ping())  # allowed before login
    with pytest.raises(LocalProtocolError):
        conn.send(commands.list_rooms())
    with pytest.raises(LocalProtocolError):
        conn.login("a") and conn.login("b")  # second login while LOGGING_IN
    server.read(conn)
    conn2, server2 = identified()
    login_ok(conn2, server2)
    with pytest.raises(LocalProtocolError, match="room_id"):
        conn2.send(commands.room_say("hi"))
    with pytest.raises(LocalProtocolError, match="game_id"):
        conn2.send(commands.game_say("hi"))
    with pytest.raises(LocalProtocolError, match="one domain"):
        conn2.send([commands.ping(), commands.game_say("x")], game_id=1)
    with pytest.raises(LocalProtocolError):
        conn2.send([])
    first = conn2.send(commands.room_say("hi"), room_id=0)
    second = conn2.send([commands.draw_cards(1), commands.shuffle()], game_id=5)
    assert second == first + 1
    room, game = server2.read(conn2)
    assert room.room_id == 0 and room.cmd_id == first
    assert game.game_id == 5 and [n for _, n, _ in command_payloads(game)] == [1006, 1003]


def test_responses_events_and_goodbye() -> None:
    conn, server = identified()
    login_ok(conn, server)
    cmd_id = conn.send(commands.join_room(0))
    room = pb.ServerInfo_Room(room_id=0, name="Bot room")
    stream = b"".join(
        server.frame(message)
        for message in (
            response_message(cmd_id, payload=pb.Response_JoinRoom(room_info=room)),
            response_message(-1, ResponseCode.RespInvalidCommand),
            room_event_message(0, pb.Event_RoomSay(name="amy", message="!bid 3", message_type=0)),
            session_event_message(pb.Event_GameJoined(player_id=2, host_id=1)),
            game_events_message(
                7,
                [
                    game_event(2, pb.Event_GameSay(message="hello")),
                    game_event(-1, pb.Event_SetActivePhase(phase=3)),
                ],
                context=pb.Context_DeckSelect(deck_hash="abcd1234"),
                forced_by_judge=1,
            ),
            session_event_message(pb.Event_ConnectionClosed(reason=8, reason_str="elsewhere")),
            room_event_message(0, pb.Event_RoomSay(message="after goodbye")),
        )
    )
    # Feed in awkward chunks to exercise reassembly.
    for start in range(0, len(stream), 7):
        conn.receive_data(stream[start : start + 7])
    found = events(conn)
    joined, unsolicited, say, game_joined, batch, closed = found
    assert isinstance(joined, ResponseReceived) and joined.ok and joined.cmd_id == cmd_id
    assert joined.payload == pb.Response_JoinRoom(room_info=room)
    assert isinstance(unsolicited, ResponseReceived) and unsolicited.cmd_id == -1
    assert unsolicited.code is ResponseCode.RespInvalidCommand and not unsolicited.ok
    assert isinstance(say, RoomEventReceived) and say.room_id == 0 and say.message.message == "!bid 3"
    assert isinstance(game_joined, SessionEventReceived) and isinstance(
        game_joined.message, pb.Event_GameJoined
    )
    assert isinstance(batch, GameEventsReceived)
    assert batch.game_id == 7 and batch.forced_by_judge == 1 and batch.context.deck_hash == "abcd1234"
    assert [(e.player_id, e.event_type) for e in batch.events] == [(2, 1009), (-1, 2017)]
    assert closed == ConnectionClosed(reason=CloseReason.LOGGEDINELSEWERE, reason_str="elsewhere")
    assert conn.state is SessionState.CLOSED
    assert conn.next_event() == closed  # stays closed
    with pytest.raises(LocalProtocolError):
        conn.send(commands.ping())


def test_unknown_extensions_are_tolerated_and_skipped(caplog: pytest.LogCaptureFixture) -> None:
    conn, server = identified()
    login_ok(conn, server)
    # Build messages with extension numbers this build does not know, by reusing known payload bytes under
    # a fresh field number: proto2 must keep them as unknown fields instead of failing to parse.
    unknown_session = pb.ServerMessage(message_type=pb.ServerMessage.SESSION_EVENT)
    unknown_session.session_event.SetInParent()
    raw_session = unknown_session.SerializeToString() + _field(3, _field(4242, b"\x0a\x01z"))
    unknown_game = game_events_message(3, [game_event(1, pb.Event_GameSay(message="kept"))])
    raw_game = unknown_game.SerializeToString() + _field(4, _field(2, _field(1, b"\x02") + _field(7777, b"")))
    raw_type = _field(9, b"zz")  # a ServerMessage payload field this build does not know
    for raw in (raw_session, raw_game, raw_type):
        conn.receive_data(len(raw).to_bytes(4, "big") + raw)
    with caplog.at_level(logging.DEBUG, logger="cockatrice_ext.protocol"):
        found = events(conn)
    [batch] = found
    assert isinstance(batch, GameEventsReceived) and batch.game_id == 3
    assert [e.message.message for e in batch.events] == ["kept"]
    assert "unknown" in caplog.text
    assert conn.state is SessionState.LOGGED_IN


def _field(number: int, value: bytes) -> bytes:
    """A length-delimited protobuf field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(value)) + value


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def test_unknown_extension_survives_reserialisation() -> None:
    event = pb.SessionEvent()
    event.Extensions[pb.Event_ServerMessage.ext].message = "hi"
    raw = event.SerializeToString() + _field(4242, b"\x0a\x01z")
    parsed = pb.SessionEvent.FromString(raw)
    assert pb.payload_of(parsed)[0] == 1000
    assert parsed.SerializeToString() == raw  # the unknown extension is kept byte for byte


def test_garbage_protobuf_is_a_remote_error() -> None:
    conn, _ = identified()
    conn.receive_data(b"\x00\x00\x00\x02\xff\xff")
    with pytest.raises(RemoteProtocolError, match="unparsable"):
        conn.next_event()
    assert conn.state is SessionState.ERROR


def test_websocket_message_over_cap() -> None:
    conn = ClientConnection(transport="ws", max_frame_size=10)
    with pytest.raises(RemoteProtocolError):
        conn.receive_data(b"x" * 11)
    assert conn.state is SessionState.ERROR


def test_eof_before_identification_is_a_clean_close() -> None:
    conn = ClientConnection(transport="tcp")
    conn.receive_data(TCP_PREAMBLE[:10])
    assert conn.next_event() is NEED_DATA
    conn.receive_eof()
    with pytest.raises(RemoteProtocolError):  # ended inside the preamble
        conn.next_event()
    clean = ClientConnection(transport="ws")
    clean.receive_eof()
    assert clean.next_event() == ConnectionClosed()
    with pytest.raises(LocalProtocolError):
        clean.receive_data(b"")


def test_response_without_code_reads_as_nothing() -> None:
    conn, server = identified()
    login_ok(conn, server)
    message = pb.ServerMessage(message_type=pb.ServerMessage.RESPONSE)
    message.response.cmd_id = 5
    conn.receive_data(server.frame(message))
    [event] = events(conn)
    assert event.code is ResponseCode.RespNothing


def test_websocket_text_message_is_a_remote_error() -> None:
    conn = ClientConnection(transport="ws")
    with pytest.raises(RemoteProtocolError, match="text"):
        conn.receive_data("hello")  # type: ignore[arg-type]
    assert conn.state is SessionState.ERROR


def test_ping_update_batches_are_flagged() -> None:
    conn, server = identified()
    login_ok(conn, server)
    props = pb.ServerInfo_PlayerProperties(player_id=1, ping_seconds=2)
    ping = game_events_message(
        4,
        [game_event(-1, pb.Event_PlayerPropertiesChanged(player_properties=props))],
        context=pb.Context_PingChanged(),
    )
    say = game_events_message(4, [game_event(1, pb.Event_GameSay(message="x"))])
    conn.receive_data(server.frame(ping) + server.frame(say))
    first, second = events(conn)
    assert first.is_ping_update and not second.is_ping_update
