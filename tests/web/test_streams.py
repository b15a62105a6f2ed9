"""The web view's live streams (:meth:`WebView._stream`) against clients that open them and never read.

A real web view on a loopback port (the referee of ``test_server``); the attackers are raw sockets with a
small receive buffer that send a stream's request and never read its answer. Other loopback addresses stand
for other clients. Bounds are configured small and every wait is generous: nothing here measures time.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from test_gate import BOUND, HELD, scenario
from test_server import Setup

BIG_VIEW = {"games": [], "leagues": [], "filler": "x" * 8_000_000}
"""A view larger than any kernel's socket buffers: a client that reads nothing cannot take it all."""


async def deaf_stream(port: int, path: str, client: str) -> socket.socket:
    """A connection from ``client`` that asks for the stream at ``path`` and never reads (its receive buffer
    kept small, so the server's answer backs up soon)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((client, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return sock


async def status(port: int, path: str, client: str) -> bytes:
    """The status line a reading client from ``client`` gets for ``path`` (the connection then closed)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(client, 0))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), BOUND)
    finally:
        writer.close()
    return line.rstrip(b"\r\n")


async def open_streams(s: Setup, expected: int) -> int:
    """How many streams the web view holds, once that is ``expected`` (or ``BOUND`` s have passed)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + BOUND
    while True:
        count = sum(len(subscribers) for subscribers in s.web.channels.values())
        if count == expected or loop.time() > give_up:
            return count
        await asyncio.sleep(0.05)


def private_path(s: Setup, name: str) -> str:
    return s.links[name].split(str(s.web.port), 1)[1] + "/events"


def test_a_stream_whose_client_reads_nothing_is_closed_and_its_slot_reused(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        deaf = [await deaf_stream(s.web.port, "/events", "127.0.0.31") for _ in range(2)]
        assert await open_streams(s, 2) == 2
        assert await status(s.web.port, "/events", "127.0.0.32") == b"HTTP/1.1 429 Too Many Requests"
        s.web._publish(("games",), lambda: BIG_VIEW)  # what they do not read backs up
        loop = asyncio.get_running_loop()
        give_up, answer = loop.time() + BOUND, b""
        while answer != b"HTTP/1.1 200 OK" and loop.time() < give_up:
            answer = await status(s.web.port, "/events", "127.0.0.32")
            await asyncio.sleep(0.2)
        assert answer == b"HTTP/1.1 200 OK"  # a slot came free for a new client
        for sock in deaf:
            sock.close()

    scenario(tmp_path, body, max_streams=2, max_public_streams=2, stream_stall_seconds=0.5)


def test_a_quiet_stream_that_reads_its_views_stays_open(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        deaf = await deaf_stream(s.web.port, "/events", "127.0.0.31")  # nothing big to read: no backlog
        assert await open_streams(s, 1) == 1
        await asyncio.sleep(2.5)  # several sweeps of the streams, each past the stall bound
        assert await open_streams(s, 1) == 1
        deaf.close()

    scenario(tmp_path, body, stream_stall_seconds=0.5)


def test_public_streams_filling_their_share_leave_private_pages_their_streams(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        clients = ["127.0.0.31", "127.0.0.32", "127.0.0.33"]
        deaf = [await deaf_stream(s.web.port, "/events", client) for client in clients]
        deaf.append(await deaf_stream(s.web.port, "/game/7/events", "127.0.0.34"))
        assert await open_streams(s, 3) == 3  # the public share; the fourth is told 429
        assert await status(s.web.port, "/events", "127.0.0.35") == b"HTTP/1.1 429 Too Many Requests"
        assert await status(s.web.port, private_path(s, "alice"), "127.0.0.35") == b"HTTP/1.1 200 OK"
        assert await open_streams(s, 3) == 3  # alice's page was closed again
        deaf.append(await deaf_stream(s.web.port, private_path(s, "bob"), "127.0.0.36"))
        assert await open_streams(s, 4) == 4  # bob's page holds the last slot
        assert await status(s.web.port, private_path(s, "alice"), "127.0.0.35") == (
            b"HTTP/1.1 429 Too Many Requests"  # every slot taken now
        )
        for sock in deaf:
            sock.close()

    scenario(tmp_path, body, max_streams=4, max_public_streams=3, stream_stall_seconds=HELD)
