"""What ``cockatrice-ext server`` says when it cannot get in: one ``error:`` line, never a traceback.

A room that is not there, a web server that is not Servatrice, a server that wants a password, one that
allows no more connections from our address; and the client's reconnect loop facing a web server.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import threading
from collections.abc import Iterator

import pytest
import servatrice as servatrice_module
from click.testing import CliRunner, Result
from client_helpers import Recorder, run
from servatrice import RoomConfig, ServatriceConfig, ServatriceFactory, ServatriceServer

from cockatrice_ext.cli import main
from cockatrice_ext.client import Disconnected, LoginFailed, backoff, connect
from cockatrice_ext.client.errors import ConnectionLost, RoomNotFound
from cockatrice_ext.protocol.codes import ResponseCode

PASSWORD_INI = "[authentication]\nmethod=password\npassword=sekrit\nregonly=false\n\n[database]\ntype=none"


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_one_error_line(result: Result, *parts: str) -> str:
    """The command failed with one ``error:`` line holding every part (no traceback); that line."""
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.output
    assert "Traceback" not in result.output
    for part in parts:
        assert part in errors[0], errors[0]
    return errors[0]


class _NotFound(http.server.BaseHTTPRequestHandler):
    """An ordinary web server's answer to ``GET /servatrice``: 404 (HTTP/1.1)."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        body = b"not found"
        self.send_response(404)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class _Files(http.server.SimpleHTTPRequestHandler):
    """``python -m http.server``: answers in HTTP/1.0, which websockets does not even read as a response."""

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def web_server(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[int]:
    """A plain HTTP server on a private loopback port (its port)."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.parametrize(("handler", "detail"), [(_NotFound, "(HTTP 404)"), (_Files, "HTTP/1.0 404")])
@pytest.mark.parametrize("command", ["info", "rooms", "watch"])
def test_a_web_server_is_not_a_servatrice_endpoint(
    handler: type[http.server.BaseHTTPRequestHandler], detail: str, command: str
) -> None:
    with web_server(handler) as port:
        url = f"ws://127.0.0.1:{port}/servatrice"
        extra = ["--room", "Bot room"] if command == "watch" else []
        result = cli("server", command, url, "--timeout", "5", *extra)
    assert_one_error_line(result, url, "not a Servatrice WebSocket endpoint", detail)


def test_the_client_keeps_reconnecting_when_a_web_server_answers(
    servatrice_factory: ServatriceFactory,
) -> None:
    """A WebSocket handshake refused (a proxy's 404 or 502 while Servatrice restarts) is a failed attempt:
    the client tries again, then gives up as told, instead of its reconnect loop dying."""
    server = servatrice_factory.start()

    async def scenario() -> None:
        client = await connect(
            server.ws_url,
            "web_decoy",
            keepalive=0.5,
            dead_after=5,
            reconnect_delays=lambda: backoff(initial_delay=0.2, max_delay=0.3, jitter=0.0),
            max_reconnect_attempts=2,
        )
        events = Recorder(client)
        server.stop()

        async def not_found(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                await reader.readuntil(b"\r\n\r\n")
                writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                await writer.drain()
            writer.close()

        decoy = await asyncio.start_server(not_found, "127.0.0.1", server.ws_port)
        try:
            await asyncio.wait_for(client.wait_closed(), 20)
            gave_up = await events.wait_for(
                lambda e: isinstance(e, Disconnected) and not e.will_reconnect, what="giving up"
            )
            assert isinstance(gave_up, Disconnected) and gave_up.reason == "gave up reconnecting"
        finally:
            await client.close()
            decoy.close()
            await decoy.wait_closed()

    run(scenario(), timeout=40)


@pytest.mark.servatrice
@pytest.mark.parametrize("room", ["nope", "7"])
def test_watch_names_the_rooms_there_are(servatrice: ServatriceServer, room: str) -> None:
    result = cli("server", "watch", servatrice.tcp_url, "--room", room, "--user", "cli_roomless")
    line = assert_one_error_line(result, f"no room called {room!r}")
    for name in servatrice.room_names:
        assert name in line


@pytest.mark.servatrice
def test_room_not_found_is_a_client_error_naming_the_rooms(servatrice: ServatriceServer) -> None:
    async def scenario() -> None:
        async with await connect(servatrice.tcp_url, "room_seeker") as client:
            with pytest.raises(RoomNotFound) as info:
                await client.room_id_by_name("No such room")
            assert isinstance(info.value, KeyError)  # what it raised before
            assert info.value.name == "No such room"
            assert [name for _, name in info.value.rooms] == servatrice.room_names
            assert str(info.value).startswith("no room called 'No such room'; rooms here: Bot room (0)")
            assert await client.room_id_by_name("1") == 1  # a number names a room by its id
            assert await client.room_id_by_name("bot ROOM") == 0

    run(scenario())


@pytest.mark.servatrice
def test_a_room_for_registered_accounts_is_refused_in_a_sentence(
    servatrice_factory: ServatriceFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room configured ``permissionlevel=registered`` on a server without accounts (auth none): Servatrice
    answers RespUserLevelTooLow; the command says which room admits whom, not the code."""
    plain = servatrice_module.render_ini

    def second_room_for_registered(config: ServatriceConfig, **options: object) -> str:
        ini = plain(config, **options)  # type: ignore[arg-type]
        return ini.replace("roomlist\\2\\permissionlevel=none", "roomlist\\2\\permissionlevel=registered")

    monkeypatch.setattr(servatrice_module, "render_ini", second_room_for_registered)
    server = servatrice_factory.start(
        ServatriceConfig(rooms=(RoomConfig("Open room"), RoomConfig("Reg room")))
    )
    result = cli("server", "watch", server.tcp_url, "--room", "Reg room", "--user", "cli_unregistered")
    assert_one_error_line(
        result,
        "room 'Reg room' admits only registered accounts:",
        "log in with a registered account (--user/--password) or leave it out",
    )


@pytest.mark.servatrice
def test_a_password_server_asks_for_the_password(servatrice_factory: ServatriceFactory) -> None:
    server = servatrice_factory.start(ServatriceConfig(sql_ini=PASSWORD_INI))
    result = cli("server", "info", server.tcp_url, "--user", "pw_user")
    line = assert_one_error_line(
        result, "the server needs a password: give --password or set COCKATRICE_PASSWORD"
    )
    assert "Resp" not in line
    result = cli("server", "info", server.ws_url, "--user", "pw_user", "--password", "guess")
    assert_one_error_line(result, "wrong password for pw_user")
    result = cli("server", "info", server.tcp_url, "--user", "pw_user", "--password", "sekrit")
    assert result.exit_code == 0, result.output


@pytest.mark.servatrice
def test_too_many_connections_from_one_address_is_one_line(
    servatrice_factory: ServatriceFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Servatrice identifies itself, then closes a connection over ``max_users_per_address`` (which the
    shared test ini lifts for loopback): the client must not try to log in on the closed connection."""
    import servatrice as harness

    render = harness.render_ini
    monkeypatch.setattr(
        harness, "render_ini", lambda *a, **k: render(*a, **k).replace("127.0.0.1,::1", "192.0.2.1")
    )
    server = servatrice_factory.start(ServatriceConfig(max_users_per_address=1))

    async def scenario() -> None:
        async with await connect(server.tcp_url, "first_here"):
            for url in (server.tcp_url, server.ws_url):
                with pytest.raises(ConnectionLost) as info:
                    await connect(url, "second_here", reconnect=False)
                assert "too many connections from this address" in str(info.value)

    run(scenario())


@pytest.mark.parametrize(
    ("code", "kwargs", "message"),
    [
        (
            ResponseCode.RespWrongPassword,
            {"user": "ann", "password_given": False},
            "the server needs a password",
        ),
        (ResponseCode.RespWrongPassword, {"user": "ann"}, "wrong password for ann"),
        (
            ResponseCode.RespUserIsBanned,
            {"user": "ann", "reason": "spam"},
            "ann is banned from this server: spam",
        ),
        (
            ResponseCode.RespUserIsBanned,
            {"user": "ann", "denied_end_time": 1_900_000_000},
            "ann is banned from this server until 2030-03-17 17:46 UTC",
        ),
        (ResponseCode.RespUsernameInvalid, {"user": "a b"}, "the server does not accept the user name 'a b'"),
        (ResponseCode.RespRegistrationRequired, {"user": "ann"}, "only registered accounts log in here"),
        (
            ResponseCode.RespAccountNotActivated,
            {"user": "ann"},
            "the account ann is not active (not activated yet, or deactivated by the server's staff)",
        ),
        (ResponseCode.RespClientUpdateRequired, {}, "the server wants a newer client"),
        (ResponseCode.RespServerFull, {}, "the server is full"),
        (ResponseCode.RespInternalError, {"reason": "db"}, "login refused with RespInternalError: db"),
    ],
)
def test_login_refusals_read_as_sentences(code: int, kwargs: dict[str, object], message: str) -> None:
    error = LoginFailed(int(code), **kwargs)  # type: ignore[arg-type]
    assert str(error).startswith(message), str(error)
    assert error.code == code
    assert error.password_missing == (
        code == ResponseCode.RespWrongPassword and kwargs.get("password_given") is False
    )
