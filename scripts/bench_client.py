"""Round-trip latency of the full client versus a minimal bare-socket client, on a real Servatrice.

Measures, over loopback TCP, N round trips each of ``Command_Ping`` and of a game command
(``Command_IncCounter`` in a started one-player game: whitelisted, so flood pacing never applies)
through :class:`cockatrice_ext.client.Client` (queue, flood gate, dispatcher, mirror) and through a
minimal asyncio client that frames containers by hand and reads responses straight off the socket.

Usage::

    SERVATRICE_BIN=/path/to/servatrice python scripts/bench_client.py [-n 1000]
    python scripts/bench_client.py --url tcp://127.0.0.1:4747        # an already running server

Prints median and p99 in microseconds and the full/minimal ratio. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import struct
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from cockatrice_ext.client import connect
from cockatrice_ext.protocol import commands
from cockatrice_ext.protocol import messages as pb

DECK = (
    '<cockatrice_deck version="1"><deckname>bench</deckname><comments/>'
    '<zone name="main"><card number="40" name="Forest"/></zone></cockatrice_deck>'
)


class MinimalClient:
    """Bare asyncio TCP client: hand-framed containers, responses matched by cmd_id, events skipped."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.cmd_ids = itertools.count(1)
        self.events: list[pb.ServerMessage] = []  # type: ignore[name-defined]

    @classmethod
    async def open(cls, host: str, port: int) -> MinimalClient:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(b"\0\0\0\0")
        await writer.drain()
        if (await reader.readexactly(4)) == b"<?xm":
            await reader.readexactly(56)
            client = cls(reader, writer)
        else:  # pragma: no cover - servers without the preamble
            raise RuntimeError("expected the XML preamble")
        await client.read_message()  # identification
        return client

    async def read_message(self) -> pb.ServerMessage:  # type: ignore[name-defined]
        (length,) = struct.unpack(">I", await self.reader.readexactly(4))
        message = pb.ServerMessage()
        message.ParseFromString(await self.reader.readexactly(length))
        return message

    async def call(
        self, wrapper: object, *, room_id: int | None = None, game_id: int | None = None
    ) -> object:
        container = pb.CommandContainer(cmd_id=next(self.cmd_ids))
        domain = commands.domain_of(wrapper)  # type: ignore[arg-type]
        if domain == "session":
            container.session_command.add().CopyFrom(wrapper)
        elif domain == "room":
            container.room_id = room_id
            container.room_command.add().CopyFrom(wrapper)
        else:
            container.game_id = game_id
            container.game_command.add().CopyFrom(wrapper)
        payload = container.SerializeToString()
        self.writer.write(struct.pack(">I", len(payload)) + payload)
        await self.writer.drain()
        while True:
            message = await self.read_message()
            if message.HasField("response") and message.response.cmd_id == container.cmd_id:
                return message.response
            self.events.append(message)

    async def game_joined(self) -> int:
        """Id of the game from the first Event_GameJoined (read more messages until it comes)."""
        seen = 0
        while True:
            for message in self.events[seen:]:
                if message.HasField("session_event") and message.session_event.HasExtension(
                    pb.Event_GameJoined.ext
                ):
                    return int(message.session_event.Extensions[pb.Event_GameJoined.ext].game_info.game_id)
            seen = len(self.events)
            self.events.append(await self.read_message())

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def timed_pair(
    n: int, first: Callable[[], Awaitable[object]], second: Callable[[], Awaitable[object]]
) -> tuple[list[float], list[float]]:
    """Alternate the two actions so both see the same machine load; return both sample lists."""
    for _ in range(min(50, n)):  # warm up
        await first()
        await second()
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(n):
        for action, bucket in ((first, samples[0]), (second, samples[1])):
            started = time.perf_counter()
            await action()
            bucket.append(time.perf_counter() - started)
    return samples


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e6


async def bench(host: str, port: int, n: int) -> dict[str, tuple[float, float]]:
    results: dict[str, tuple[float, float]] = {}
    client = await connect(f"tcp://{host}:{port}", "bench_full")
    minimal = await MinimalClient.open(host, port)
    try:
        await client.join_room(0)
        full_game = await client.create_game(0, description="bench full", max_players=1)
        await client.select_deck(full_game, DECK)
        await client.ready_start(full_game)
        while not client.games[full_game].started:
            await asyncio.sleep(0.01)

        await minimal.call(commands.login("bench_min"))
        await minimal.call(commands.join_room(0))
        await minimal.call(commands.create_game("bench minimal", max_players=1), room_id=0)
        minimal_game = await minimal.game_joined()
        await minimal.call(commands.deck_select(DECK), game_id=minimal_game)
        await minimal.call(commands.ready_start(True), game_id=minimal_game)

        full, bare = await timed_pair(
            n, lambda: client.call(commands.ping()), lambda: minimal.call(commands.ping())
        )
        results["full ping"], results["minimal ping"] = summary(full), summary(bare)
        full_signs, bare_signs = itertools.cycle((1, -1)), itertools.cycle((1, -1))
        full, bare = await timed_pair(
            n,
            lambda: client.game_command(full_game, commands.inc_counter(0, next(full_signs))),
            lambda: minimal.call(commands.inc_counter(0, next(bare_signs)), game_id=minimal_game),
        )
        results["full game command"], results["minimal game command"] = summary(full), summary(bare)
    finally:
        await client.close()
        await minimal.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="round trips per measurement")
    parser.add_argument("--url", help="tcp://host:port of a running server (default: start one)")
    args = parser.parse_args()

    server = None
    if args.url:
        host, _, port_text = args.url.removeprefix("tcp://").partition(":")
        port = int(port_text or 4747)
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from servatrice import ServatriceServer, find_servatrice_binary

        binary = find_servatrice_binary()
        if binary is None:
            sys.exit("set SERVATRICE_BIN or pass --url")
        server = ServatriceServer(binary, Path(tempfile.mkdtemp(prefix="bench-servatrice-")))
        server.start()
        host, port = "127.0.0.1", server.tcp_port
    try:
        results = asyncio.run(bench(host, port, args.n))
    finally:
        if server is not None:
            server.stop()
    print(
        f"n={args.n} round trips each, loopback TCP, python {sys.version.split()[0]}, {os.cpu_count()} cpus"
    )
    print(f"{'measurement':<24}{'median us':>12}{'p99 us':>12}")
    for name, (median, p99) in results.items():
        print(f"{name:<24}{median:>12.1f}{p99:>12.1f}")
    for kind in ("ping", "game command"):
        full, minimal = results[f"full {kind}"], results[f"minimal {kind}"]
        print(
            f"ratio full/minimal {kind}: median {full[0] / minimal[0]:.2f}x, p99 {full[1] / minimal[1]:.2f}x"
        )


if __name__ == "__main__":
    main()
