"""``cockatrice-ext server``: look at a Servatrice from the command line (info, rooms, watch)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import click
from google.protobuf import text_format

from cockatrice_ext.client import (
    AnyClientEvent,
    Client,
    ClientError,
    ClientEvent,
    Disconnected,
    LoginFailed,
    Reconnected,
    connect,
)

T = TypeVar("T")

DEFAULT_USER = "cockatrice-ext"
MAX_LINE = 300

_common_options = [
    click.option("--user", "-u", default=DEFAULT_USER, show_default=True, help="User name to log in with."),
    click.option(
        "--password",
        envvar="COCKATRICE_PASSWORD",
        default=None,
        help="Password (or set COCKATRICE_PASSWORD); omit for servers without authentication.",
    ),
    click.option("--timeout", default=15.0, show_default=True, help="Seconds to wait for the server."),
]


def common_options(function: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(_common_options):
        function = option(function)
    return function


def _run(
    url: str, user: str, password: str | None, timeout: float, body: Callable[[Client], Awaitable[T]]
) -> T:
    """Connect, run ``body``, close; map client errors to click errors."""

    async def main() -> T:
        # Looking needs no particular name: take NAME_1 at once if another look holds the default one.
        client = await connect(
            url, user, password, connect_timeout=timeout, command_timeout=timeout, name_wait=0
        )
        try:
            return await body(client)
        finally:
            await client.close()

    try:
        return asyncio.run(main())
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="URL") from exc
    except (ClientError, OSError, TimeoutError) as exc:
        raise click.ClickException(f"{url}: {error_text(exc)}") from exc


def error_text(exc: BaseException) -> str:
    """A client error for the command line: its message, and what to do when the password is missing."""
    if isinstance(exc, LoginFailed) and exc.password_missing:
        return f"{exc}: give --password or set COCKATRICE_PASSWORD"
    return str(exc) or type(exc).__name__


@click.group()
def server() -> None:
    """Talk to a Servatrice: info, rooms, watch."""


@server.command()
@click.argument("url")
@common_options
def info(url: str, user: str, password: str | None, timeout: float) -> None:
    """Show the server's name, version, protocol and rooms (URL: tcp://host:4747 or ws://host:4748)."""

    async def body(client: Client) -> None:
        rooms = await client.list_rooms()
        assert client.server is not None
        click.echo(f"server:   {client.server.name}")
        click.echo(f"version:  {client.server.version}")
        click.echo(f"protocol: {client.server.protocol_version}")
        click.echo(f"logged in as: {client.user_name}")
        click.echo(f"rooms:    {len(rooms)}")
        for room in rooms:
            click.echo(f"  [{room.room_id}] {room.name} ({room.player_count} users, {room.game_count} games)")

    _run(url, user, password, timeout, body)


@server.command()
@click.argument("url")
@common_options
def rooms(url: str, user: str, password: str | None, timeout: float) -> None:
    """List rooms with their game types."""

    async def body(client: Client) -> None:
        for room in await client.list_rooms():
            info = await client.join_room(room.room_id)
            types = ", ".join(
                f"{gt.game_type_id}={gt.description}" for gt in getattr(info, "gametype_list", [])
            )
            counts = f"{room.player_count} users\t{room.game_count} games"
            click.echo(f"{room.room_id}\t{room.name}\t{counts}\t{types or '-'}")
            with contextlib.suppress(ClientError):
                await client.leave_room(room.room_id)

    _run(url, user, password, timeout, body)


def format_event(event: AnyClientEvent) -> str:
    """One line for ``watch``."""
    if isinstance(event, Disconnected):
        return f"-- disconnected: {event.reason}" + (" (reconnecting)" if event.will_reconnect else "")
    if isinstance(event, Reconnected):
        return f"-- reconnected as {event.user_name}; rooms {list(event.rooms)} games {list(event.games)}"
    message = event.message
    name = event.name
    if name == "Event_RoomSay":
        tag = {1: " (welcome)", 2: " (history)"}.get(message.message_type, "")  # type: ignore[attr-defined]
        return f"[room {event.room_id}] {message.name}: {message.message}{tag}"  # type: ignore[attr-defined]
    if name == "Event_GameSay":
        return f"[game {event.game_id}] player {event.player_id}: {message.message}"  # type: ignore[attr-defined]
    where = (
        f"[game {event.game_id} p{event.player_id}]"
        if event.kind == "game"
        else f"[room {event.room_id}]"
        if event.kind == "room"
        else "[session]"
    )
    fields = text_format.MessageToString(message, as_one_line=True)
    if event.context_name:
        fields = f"{event.context_name} {fields}"
    line = f"{where} {name} {fields}".rstrip()
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 3] + "..."


@server.command()
@click.argument("url")
@click.option("--room", "room", default=None, help="Room name or id to watch.")
@click.option("--game", "game_id", type=int, default=None, help="Game id to watch (joined as spectator).")
@click.option("--history/--no-history", default=True, help="Show the room's chat history when joining.")
@common_options
def watch(
    url: str,
    room: str | None,
    game_id: int | None,
    history: bool,
    user: str,
    password: str | None,
    timeout: float,
) -> None:
    """Print room or game events live, one line each, until Ctrl-C."""
    if room is None and game_id is None:
        raise click.UsageError("give --room NAME|ID and/or --game ID")

    async def body(client: Client) -> None:
        async def printer(event: AnyClientEvent) -> None:
            if isinstance(event, ClientEvent) and event.is_replay and not history:
                return
            click.echo(format_event(event))

        room_id = await client.room_id_by_name(room) if room is not None else None  # before any line
        client.add_listener(printer)
        if room_id is not None:
            await client.join_room(room_id)
        if game_id is not None:
            await _join_game_anywhere(client, game_id)
        click.echo(f"-- watching as {client.user_name}; Ctrl-C to stop", err=True)
        await client.wait_closed()

    try:
        _run(url, user, password, timeout, body)
    except KeyboardInterrupt:
        click.echo("-- stopped", err=True)


async def _join_game_anywhere(client: Client, game_id: int) -> None:
    """Find the room holding ``game_id`` and join it as a spectator."""
    for summary in await client.list_rooms():
        info = await client.join_room(summary.room_id)
        if any(game.game_id == game_id for game in getattr(info, "game_list", [])):
            await client.join_game(summary.room_id, game_id, spectator=True)
            return
    raise click.ClickException(f"no game {game_id} in any room")
