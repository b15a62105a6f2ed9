"""Field players: minimal Cockatrice clients built only on Cockatrice's own ``.proto`` files.

Nothing here imports this project's client or protocol code, so a bug shared by the bot and our client
cannot hide itself. The protos are compiled at test time (``compile_protos``) into a private folder; a
``FieldPlayer`` speaks Servatrice's TCP framing (a 60-byte XML greeting, then 4-byte big-endian length
prefixes), logs in with protocol 14, pings every 3 s, and records every message it receives with the time
it arrived, so scenarios can wait for lines and scan everything a player was shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.resources
import re
import struct
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

PROTOCOL_VERSION = 14
EMPTY_DECK = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>none</deckname>'
    '<comments/><zone name="main"/></cockatrice_deck>'
)


class Protos:
    """Every message class generated from the upstream ``.proto`` files, looked up by name."""

    def __init__(self, modules: list[ModuleType]) -> None:
        self._classes: dict[str, Any] = {}
        for module in modules:
            for name in module.DESCRIPTOR.message_types_by_name:
                self._classes[name] = getattr(module, name)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._classes[name]
        except KeyError:
            raise AttributeError(name) from None


def compile_protos(proto_dir: Path, out_dir: Path) -> Protos:
    """Compile Cockatrice's protos with ``grpc_tools.protoc`` into ``out_dir`` and import them from there."""
    well_known = importlib.resources.files("grpc_tools") / "_proto"
    files = sorted(path.name for path in proto_dir.glob("*.proto"))
    command = [sys.executable, "-m", "grpc_tools.protoc", f"-I{proto_dir}", f"-I{well_known}"]
    subprocess.run([*command, f"--python_out={out_dir}", *files], check=True, capture_output=True)
    sys.path.insert(0, str(out_dir))
    importlib.invalidate_caches()
    return Protos([importlib.import_module(name[: -len(".proto")] + "_pb2") for name in files])


def strings_of(message: Any) -> Iterator[str]:
    """Every string value anywhere in a protobuf message, extensions included."""
    for descriptor, value in message.ListFields():
        values = value if descriptor.is_repeated else [value]
        for item in values:
            if isinstance(item, str):
                yield item
            elif hasattr(item, "ListFields"):
                yield from strings_of(item)


def extension_of(message: Any) -> tuple[str, Any] | None:
    """The (message name, value) of the one extension a Cockatrice command/event carries."""
    for descriptor, value in message.ListFields():
        if descriptor.is_extension:
            return descriptor.message_type.name, value
    return None


@dataclass
class Received:
    """One thing a player was shown: an event with where and when it arrived."""

    at: float
    kind: str  # the event's message name, e.g. "Event_GameSay"
    body: Any
    game_id: int | None = None
    player_id: int = -1
    room_id: int | None = None

    @property
    def strings(self) -> list[str]:
        return list(strings_of(self.body))


@dataclass
class Game:
    """What a player knows of one game: our seat, the seats' names, whose turn it is."""

    game_id: int
    my_id: int = -1
    names: dict[int, str] = field(default_factory=dict)
    active: int | None = None


@dataclass(frozen=True)
class Mark:
    """A position in one player's received items (waiting from it with another player is a mistake)."""

    owner: str
    index: int


class ServerError(RuntimeError):
    """A command got a response code other than RespOk."""


class FieldPlayer:
    """One scripted human on a raw TCP connection."""

    def __init__(self, protos: Protos, name: str) -> None:
        self.pb = protos
        self.name = name
        self.received: list[Received] = []
        self.games: dict[int, Game] = {}
        self.rooms: dict[str, int] = {}
        self.room_members: dict[int, set[str]] = {}
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._next_cmd = 1
        self._changed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    # -- connection --------------------------------------------------------------------------------

    @classmethod
    async def connect(cls, protos: Protos, port: int, name: str, password: str = "") -> FieldPlayer:
        player = cls(protos, name)
        await player._open(port, password)
        return player

    async def _open(self, port: int, password: str) -> None:
        self._reader, self._writer = await asyncio.open_connection("127.0.0.1", port)
        greeting = await self._reader.readexactly(60)
        assert greeting.startswith(b"<?xml"), greeting
        self._writer.write(struct.pack(">I", 0))  # the empty container that starts the session
        self._tasks = [asyncio.create_task(self._read_loop()), asyncio.create_task(self._ping_loop())]
        hello = await self.wait_for(lambda r: r.kind == "Event_ServerIdentification", timeout=10)
        assert hello.body.protocol_version == PROTOCOL_VERSION
        login = {"user_name": self.name, "clientver": "field-test", "clientid": "field"}
        response = await self.session(
            "Command_Login", **login, **({"password": password} if password else {})
        )
        self.name = response.Extensions[self.pb.Response_Login.ext].user_info.name
        rooms = await self.session_event_after("Command_ListRooms", "Event_ListRooms")
        self.rooms = {room.name: room.room_id for room in rooms.body.room_list}

    async def close(self) -> None:
        """Drop the connection (what a crashed or closed client does)."""
        for task in self._tasks:
            task.cancel()
        if self._writer is not None:
            with contextlib.suppress(OSError, RuntimeError):
                self._writer.close()
            self._writer = None

    async def _ping_loop(self) -> None:
        while True:
            await asyncio.sleep(3)
            with contextlib.suppress(ServerError, ConnectionError):
                await self.session("Command_Ping")

    async def _read_loop(self) -> None:
        assert self._reader is not None
        try:
            while True:
                (length,) = struct.unpack(">I", await self._reader.readexactly(4))
                message = self.pb.ServerMessage.FromString(await self._reader.readexactly(length))
                self._dispatch(message, time.monotonic())
        except (asyncio.IncompleteReadError, ConnectionError):
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection closed"))

    def _dispatch(self, message: Any, now: float) -> None:
        if message.HasField("response"):
            future = self._pending.pop(message.response.cmd_id, None)
            if future is not None and not future.done():
                future.set_result(message.response)
        if message.HasField("session_event"):
            self._record(Received(now, *extension_of(message.session_event) or ("?", None)))
        if message.HasField("room_event"):
            kind, body = extension_of(message.room_event) or ("?", None)
            self._record(Received(now, kind, body, room_id=message.room_event.room_id))
        if message.HasField("game_event_container"):
            container = message.game_event_container
            for event in container.event_list:
                kind, body = extension_of(event) or ("?", None)
                self._record(Received(now, kind, body, container.game_id, event.player_id))
        self._changed.set()

    def _record(self, item: Received) -> None:
        self.received.append(item)
        body = item.body
        if item.kind == "Event_GameJoined":
            game = self.games.setdefault(body.game_info.game_id, Game(body.game_info.game_id))
            game.my_id = body.player_id
        elif item.kind == "Event_JoinRoom":
            self.room_members.setdefault(item.room_id, set()).add(body.user_info.name)
        elif item.kind == "Event_LeaveRoom":
            self.room_members.setdefault(item.room_id, set()).discard(body.name)
        elif item.game_id is not None:
            game = self.games.setdefault(item.game_id, Game(item.game_id))
            if item.kind == "Event_GameStateChanged":
                for player in body.player_list:
                    if player.properties.user_info.name:  # later states may leave the user out
                        game.names[player.properties.player_id] = player.properties.user_info.name
                if body.HasField("active_player_id"):
                    game.active = body.active_player_id
            elif item.kind == "Event_Join":
                game.names[body.player_properties.player_id] = body.player_properties.user_info.name
            elif item.kind == "Event_SetActivePlayer":
                game.active = body.active_player_id

    # -- commands ----------------------------------------------------------------------------------

    async def _send(self, container: Any, what: str, *, check: bool = True) -> Any:
        assert self._writer is not None, f"{self.name} is not connected"
        cmd_id = self._next_cmd
        self._next_cmd += 1
        container.cmd_id = cmd_id
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[cmd_id] = future
        payload = container.SerializeToString()
        self._writer.write(struct.pack(">I", len(payload)) + payload)
        response = await asyncio.wait_for(future, 15)
        if check and response.response_code != self.pb.Response.RespOk:
            raise ServerError(f"{what}: response code {response.response_code}")
        return response

    def _container(self, slot: str, command: str, fields: dict[str, Any], **where: int) -> Any:
        container = self.pb.CommandContainer(**where)
        cls = getattr(self.pb, command)
        getattr(container, slot).add().Extensions[cls.ext].CopyFrom(cls(**fields))
        return container

    async def session(self, command: str, *, check: bool = True, **fields: Any) -> Any:
        return await self._send(self._container("session_command", command, fields), command, check=check)

    async def room(self, room_id: int, command: str, *, check: bool = True, **fields: Any) -> Any:
        container = self._container("room_command", command, fields, room_id=room_id)
        return await self._send(container, command, check=check)

    async def game(self, game_id: int, command: str, *, check: bool = True, **fields: Any) -> Any:
        container = self._container("game_command", command, fields, game_id=game_id)
        return await self._send(container, command, check=check)

    async def session_event_after(self, command: str, event: str) -> Received:
        mark = self.mark()
        await self.session(command)
        return await self.wait_for(lambda r: r.kind == event, since=mark)

    async def join_room(self, room: str) -> int:
        room_id = self.rooms[room]
        response = await self.session("Command_JoinRoom", room_id=room_id)
        users = response.Extensions[self.pb.Response_JoinRoom.ext].room_info.user_list
        self.room_members.setdefault(room_id, set()).update(user.name for user in users)
        return room_id

    async def wait_member(self, room_id: int, name: str, timeout: float = 30.0) -> None:
        """Wait until ``name`` is in the room (a bot that has logged in but not joined yet hears nothing)."""
        await self.wait_for(lambda _: name in self.room_members.get(room_id, set()), timeout=timeout)

    async def _chat(self, send: Callable[[], Awaitable[Any]]) -> None:
        """Send a chat line; refused as flood, it is typed again a second later (as a person would)."""
        for _ in range(15):
            response = await send()
            if response.response_code != self.pb.Response.RespChatFlood:
                if response.response_code != self.pb.Response.RespOk:
                    raise ServerError(f"chat: response code {response.response_code}")
                return
            await asyncio.sleep(1.0)
        raise AssertionError(f"{self.name}: chat refused as flood for 15 s")

    async def room_say(self, room_id: int, text: str) -> None:
        await self._chat(lambda: self.room(room_id, "Command_RoomSay", message=text, check=False))

    async def say(self, game_id: int, text: str) -> None:
        await self._chat(lambda: self.game(game_id, "Command_GameSay", message=text, check=False))

    async def tell(self, user: str, text: str) -> None:
        await self._chat(lambda: self.session("Command_Message", user_name=user, message=text, check=False))

    async def sit(self, room_id: int, game_id: int, deck: str = EMPTY_DECK) -> int:
        """Join as a player, load a deck, press ready; returns our seat."""
        await self.watch(room_id, game_id, spectator=False)
        await self.game(game_id, "Command_DeckSelect", deck=deck)
        await self.game(game_id, "Command_ReadyStart", ready=True)
        return self.games[game_id].my_id

    async def watch(self, room_id: int, game_id: int, *, spectator: bool = True) -> None:
        """Join a game (as a spectator unless told otherwise) and wait until the server says we are in."""
        mark = self.mark()
        await self.room(room_id, "Command_JoinGame", game_id=game_id, spectator=spectator)
        await self.wait_for(
            lambda r: r.kind == "Event_GameJoined" and r.body.game_info.game_id == game_id, since=mark
        )

    async def phase(self, game_id: int, phase: int) -> None:
        await self.game(game_id, "Command_SetActivePhase", phase=phase)

    async def wait_started(self, game_id: int, *, since: Mark | None = None, timeout: float = 30.0) -> None:
        """Wait until the server says the game has started (every seat ready)."""
        await self.wait_for(
            lambda r: r.kind == "Event_GameStateChanged" and r.game_id == game_id and r.body.game_started,
            since=since,
            timeout=timeout,
        )

    async def draw(self, game_id: int, number: int) -> list[tuple[int, str]]:
        """Draw ``number`` cards (what the client does for an opening hand); returns their (id, name)."""
        mark = self.mark()
        await self.game(game_id, "Command_DrawCards", number=number)
        drawn = await self.wait_for(
            lambda r: r.kind == "Event_DrawCards" and r.game_id == game_id and len(r.body.cards) > 0,
            since=mark,
        )
        return [(card.id, card.name) for card in drawn.body.cards]

    async def play_from_hand(self, game_id: int, card_ids: list[int]) -> None:
        """Drag cards from our hand onto our table, face up."""
        me = self.games[game_id].my_id
        for x, card_id in enumerate(card_ids):
            moved = self.pb.ListOfCardsToMove(card=[self.pb.CardToMove(card_id=card_id, face_down=False)])
            await self.game(
                game_id,
                "Command_MoveCard",
                start_player_id=me,
                start_zone="hand",
                cards_to_move=moved,
                target_player_id=me,
                target_zone="table",
                x=x,
                y=0,
            )

    async def lose_life(self, game_id: int, amount: int) -> None:
        """Click our life counter (Cockatrice's counter 0) down by ``amount``."""
        await self.game(game_id, "Command_IncCounter", counter_id=0, delta=-amount)

    # -- what was received -------------------------------------------------------------------------

    def mark(self) -> Mark:
        return Mark(self.name, len(self.received))

    def _start(self, since: Mark | None) -> int:
        if since is None:
            return 0
        assert since.owner == self.name, f"{self.name} was given {since.owner}'s mark"
        return since.index

    async def wait_for(
        self, predicate: Callable[[Received], bool], *, since: Mark | None = None, timeout: float = 15.0
    ) -> Received:
        """The first received item from ``since`` on matching ``predicate``."""
        deadline = time.monotonic() + timeout
        seen = self._start(since)
        while True:
            for item in self.received[seen:]:
                if predicate(item):
                    return item
            seen = len(self.received)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                lines = [f"{who}: {text}" for _, who, text in self.chat()[-10:]]
                raise AssertionError(f"{self.name} waited {timeout}s in vain; last lines: {lines}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    def sender_of(self, item: Received) -> str | None:
        """Who said a chat item (room, game or private), or None when ``item`` is not chat."""
        if item.kind == "Event_RoomSay":
            return str(item.body.name)
        if item.kind == "Event_GameSay" and item.game_id is not None:
            return self.games[item.game_id].names.get(item.player_id, "?")
        if item.kind == "Event_UserMessage":
            return str(item.body.sender_name)
        return None

    def said(self, item: Received) -> tuple[str, str] | None:
        """(sender, text) when ``item`` is a live chat line from someone else (no history, no welcome)."""
        sender = self.sender_of(item)
        if sender is None or sender == self.name:
            return None
        if item.kind == "Event_RoomSay" and item.body.message_type != 0:
            return None
        return sender, item.body.message

    def chat(self, since: Mark | None = None) -> list[tuple[Received, str, str]]:
        """Chat lines from others: (item, sender name, text)."""
        return [(item, *line) for item in self.received[self._start(since) :] if (line := self.said(item))]

    def private_from(self, sender: str, since: Mark | None = None) -> list[tuple[float, str]]:
        """(arrival time, text) of every private message from ``sender``."""
        return [
            (it.at, text)
            for it, who, text in self.chat(since)
            if it.kind == "Event_UserMessage" and who == sender
        ]

    async def line(
        self, pattern: str, *, since: Mark | None = None, timeout: float = 15.0, kind: str = ""
    ) -> str:
        """Wait for a chat line from someone else matching the regex ``pattern`` (optionally of one kind)."""

        def matches(item: Received) -> bool:
            line = self.said(item)
            return bool(line and re.search(pattern, line[1]) and (not kind or item.kind == kind))

        item = await self.wait_for(matches, since=since, timeout=timeout)
        return self.said(item)[1]  # type: ignore[index]

    async def wait_user(self, name: str, *, present: bool = True, timeout: float = 30.0) -> None:
        """Wait until ``name`` is logged in on the server (or, with ``present=False``, gone)."""
        deadline = time.monotonic() + timeout
        while True:
            response = await self.session("Command_ListUsers")
            users = response.Extensions[self.pb.Response_ListUsers.ext].user_list
            if any(user.name == name for user in users) == present:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{name} never {'logged in' if present else 'left'}")
            await asyncio.sleep(0.2)

    async def note(self, pattern: str, *, since: Mark | None = None, timeout: float = 15.0) -> str:
        """Wait for a card annotation (the bot's free acknowledgement channel) matching ``pattern``."""

        def matches(item: Received) -> bool:
            return item.kind == "Event_SetCardAttr" and bool(re.search(pattern, item.body.attr_value))

        item = await self.wait_for(matches, since=since, timeout=timeout)
        return str(item.body.attr_value)
