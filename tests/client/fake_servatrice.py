"""A tiny scripted Servatrice double on loopback TCP, for client tests that need a misbehaving server.

It speaks just enough protocol 14: the XML preamble, identification after the client's hello,
login (plain or salted), pings, join room, and records every container it receives. Hooks let a
test send arbitrary bytes (garbage, absurd lengths, truncated frames) or go silent.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections.abc import Awaitable, Callable

from cockatrice_ext.protocol import messages as pb

PREAMBLE = b'<?xml version="1.0"?><cockatrice_server_stream version="14">'
assert len(PREAMBLE) == 60


def frame(message: pb.ServerMessage) -> bytes:  # type: ignore[name-defined]
    payload = message.SerializeToString()
    return struct.pack(">I", len(payload)) + payload


def identification(protocol_version: int = 14, *, password_hash: bool = False) -> bytes:
    message = pb.ServerMessage(message_type=pb.ServerMessage.SESSION_EVENT)
    ident = message.session_event.Extensions[pb.Event_ServerIdentification.ext]
    ident.server_name = "fake"
    ident.server_version = "0.0"
    ident.protocol_version = protocol_version
    if password_hash:
        ident.server_options = 1
    return frame(message)


def response(cmd_id: int, code: int = 1) -> pb.ServerMessage:  # type: ignore[name-defined]
    message = pb.ServerMessage(message_type=pb.ServerMessage.RESPONSE)
    message.response.cmd_id = cmd_id
    message.response.response_code = code
    return message


class FakeServatrice:
    """One loopback server; each accepted connection runs :meth:`serve`."""

    def __init__(
        self,
        *,
        protocol_version: int = 14,
        password_hash: bool = False,
        salt: str = "",
        expected_hash: str | None = None,
        before_identification: bytes | None = None,
        after_login: bytes | None = None,
        close_after_login: bool = False,
        answer_pings: bool = True,
        ignore_commands: frozenset[str] = frozenset(),
        on_container: Callable[[pb.CommandContainer], Awaitable[None]] | None = None,  # type: ignore[name-defined]
        flood_refusals: int = 0,
        room_list: tuple[pb.ServerInfo_Room, ...] = (),  # type: ignore[name-defined]
        join_refusals: dict[int, int] | None = None,
    ) -> None:
        self.protocol_version = protocol_version
        self.password_hash = password_hash
        self.salt = salt
        self.expected_hash = expected_hash
        self.before_identification = before_identification
        self.after_login = after_login
        self.close_after_login = close_after_login
        self.answer_pings = answer_pings
        self.ignore_commands = ignore_commands
        self.on_container = on_container
        self.flood_refusals = flood_refusals
        """How many game containers, from the first, are refused as flood (RespChatFlood)."""
        self.room_list = room_list
        """The rooms ``Command_ListRooms`` lists (an ``Event_ListRooms`` before its response)."""
        self.join_refusals = join_refusals or {}
        """Room id -> the response code ``Command_JoinRoom`` gets for it (e.g. 15, RespUserLevelTooLow)."""
        self.user_info: pb.ServerInfo_User | None = None  # type: ignore[name-defined]
        """What the login response says of the user (else only its name)."""
        self.containers: list[pb.CommandContainer] = []  # type: ignore[name-defined]
        self.logins: list[pb.Command_Login] = []  # type: ignore[name-defined]
        self.connections = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self.port = 0

    @property
    def url(self) -> str:
        return f"tcp://127.0.0.1:{self.port}"

    async def __aenter__(self) -> FakeServatrice:
        self._server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 2)

    def commands_named(self, name: str) -> list[object]:
        """Every concrete command called ``name`` received so far (in arrival order)."""
        found = []
        for container in self.containers:
            for field in ("session_command", "room_command", "game_command"):
                for wrapper in getattr(container, field):
                    for descriptor, value in wrapper.ListFields():
                        if descriptor.is_extension and value.DESCRIPTOR.name == name:
                            found.append(value)
        return found

    async def push(self, data: bytes) -> None:
        """Send ``data`` (framed server messages) to every connection now (a server event mid-session)."""
        for writer in self._writers:
            if not writer.is_closing():
                writer.write(data)
                await writer.drain()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self._writers.append(writer)
        try:
            writer.write(PREAMBLE)
            await writer.drain()
            hello = await reader.readexactly(4)
            assert hello == b"\0\0\0\0", hello
            if self.before_identification is not None:
                writer.write(self.before_identification)
                await writer.drain()
                await asyncio.sleep(30)
                return
            writer.write(identification(self.protocol_version, password_hash=self.password_hash))
            await writer.drain()
            while True:
                (length,) = struct.unpack(">I", await reader.readexactly(4))
                container = pb.CommandContainer()
                container.ParseFromString(await reader.readexactly(length))
                self.containers.append(container)
                if self.on_container is not None:
                    await self.on_container(container)
                for reply in self._replies(container):
                    writer.write(reply)
                await writer.drain()
                if self.logins and self.after_login is not None:
                    writer.write(self.after_login)
                    await writer.drain()
                    self.after_login = None
                if self.logins and self.close_after_login:
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            writer.close()

    def _replies(self, container: pb.CommandContainer) -> list[bytes]:  # type: ignore[name-defined]
        replies: list[bytes] = []
        for wrapper in container.session_command:
            if wrapper.HasExtension(pb.Command_Ping.ext):
                if self.answer_pings:
                    replies.append(frame(response(container.cmd_id)))
            elif wrapper.HasExtension(pb.Command_RequestPasswordSalt.ext):
                message = response(container.cmd_id)
                message.response.Extensions[pb.Response_PasswordSalt.ext].password_salt = self.salt
                replies.append(frame(message))
            elif wrapper.HasExtension(pb.Command_Login.ext):
                login = wrapper.Extensions[pb.Command_Login.ext]
                self.logins.append(login)
                ok = self.expected_hash is None or login.hashed_password == self.expected_hash
                message = response(container.cmd_id, 1 if ok else 12)
                user_info = message.response.Extensions[pb.Response_Login.ext].user_info
                if self.user_info is not None:
                    user_info.CopyFrom(self.user_info)
                user_info.name = login.user_name
                replies.append(frame(message))
            elif wrapper.HasExtension(pb.Command_ListRooms.ext):
                event = pb.ServerMessage(message_type=pb.ServerMessage.SESSION_EVENT)
                listed = event.session_event.Extensions[pb.Event_ListRooms.ext]
                for room in self.room_list:
                    listed.room_list.add().CopyFrom(room)
                replies += [frame(event), frame(response(container.cmd_id))]
            elif wrapper.HasExtension(pb.Command_JoinRoom.ext):
                if "Command_JoinRoom" in self.ignore_commands:
                    continue
                refused = self.join_refusals.get(wrapper.Extensions[pb.Command_JoinRoom.ext].room_id)
                if refused is not None:
                    replies.append(frame(response(container.cmd_id, refused)))
                    continue
                message = response(container.cmd_id)
                info = message.response.Extensions[pb.Response_JoinRoom.ext].room_info
                info.room_id = wrapper.Extensions[pb.Command_JoinRoom.ext].room_id
                listed_names = [room.name for room in self.room_list if room.room_id == info.room_id]
                info.name = listed_names[0] if listed_names else "fake room"
                replies.append(frame(message))
            elif wrapper.HasExtension(pb.Command_Message.ext):
                replies.append(frame(response(container.cmd_id)))
        if container.game_command and self.flood_refusals > 0:
            self.flood_refusals -= 1
            replies.append(frame(response(container.cmd_id, 18)))
        elif container.room_command or container.game_command:
            replies.append(frame(response(container.cmd_id)))
        return replies
