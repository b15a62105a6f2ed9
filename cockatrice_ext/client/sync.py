"""A blocking facade over :class:`~cockatrice_ext.client.client.Client` for scripts.

The asyncio client runs on an event loop in a daemon thread; each method submits a coroutine to it and
waits for the result. Listeners still run on the loop thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterable, Sequence
from typing import Any, TypeVar

from google.protobuf.message import Message

from .client import Client, RoomSummary
from .mirror import GameMirror

T = TypeVar("T")


class SyncClient:
    """``with SyncClient.connect(url, user) as client: client.room_say(room_id, "hi")``."""

    def __init__(self, client: Client, loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
        self.client = client
        self._loop = loop
        self._thread = thread

    @classmethod
    def connect(
        cls, url: str, user: str, password: str | None = None, *, timeout: float = 30.0, **options: Any
    ) -> SyncClient:
        """Start a loop thread, connect and log in (raises what :func:`connect` raises)."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="cockatrice-sync-client", daemon=True)
        thread.start()

        async def make() -> Client:
            client = Client(url, user, password, **options)
            await client.start()
            return client

        try:
            client = asyncio.run_coroutine_threadsafe(make(), loop).result(timeout)
        except BaseException:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(5)
            loop.close()
            raise
        return cls(client, loop, thread)

    def _run(self, coroutine: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout)

    def close(self) -> None:
        """Close the client and stop the loop thread."""
        if self._loop.is_closed():
            return
        try:
            self._run(self.client.close(), 15)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
            self._loop.close()

    def __enter__(self) -> SyncClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the same surface as Client, blocking --------------------------------------------------------

    @property
    def user_name(self) -> str:
        return self.client.user_name

    @property
    def games(self) -> dict[int, GameMirror]:
        return self.client.games

    def call(self, command: Message, **kwargs: Any) -> Any:
        return self._run(self.client.call(command, **kwargs))

    def list_rooms(self) -> list[RoomSummary]:
        return self._run(self.client.list_rooms())

    def room_id_by_name(self, name: str) -> int:
        return self._run(self.client.room_id_by_name(name))

    def join_room(self, room_id: int) -> Any:
        return self._run(self.client.join_room(room_id))

    def room_say(self, room_id: int, text: str) -> None:
        self._run(self.client.room_say(room_id, text))

    def send_message(self, user_name: str, text: str) -> None:
        self._run(self.client.send_message(user_name, text))

    def create_game(self, room_id: int, **kwargs: Any) -> int:
        return self._run(self.client.create_game(room_id, **kwargs))

    def join_game(self, room_id: int, game_id: int, **kwargs: Any) -> GameMirror:
        return self._run(self.client.join_game(room_id, game_id, **kwargs))

    def game_command(self, game_id: int, command: Message) -> Any:
        return self._run(self.client.game_command(game_id, command))

    def game_commands(self, game_id: int, commands: Sequence[Message]) -> list[Any]:
        return self._run(self.client.game_commands(game_id, commands))

    def game_say(self, game_id: int, text: str) -> None:
        self._run(self.client.game_say(game_id, text))

    def leave_game(self, game_id: int) -> None:
        self._run(self.client.leave_game(game_id))

    def ping(self) -> float:
        return self._run(self.client.ping())

    def game_types(self, room_id: int) -> Iterable[tuple[int, str]]:
        room = self.client.rooms.get(room_id)
        return sorted(room.game_types.items()) if room else []
