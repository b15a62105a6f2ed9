"""The web view's door (:mod:`cockatrice_ext.web.gate`) against idle and slow connections.

A real web view on a loopback port (the referee of ``test_server``); the attacker is raw sockets that
open connections and never finish a request. Other loopback addresses (127.0.0.2, 127.0.0.3) stand for
other clients. Deadlines are configured small and every wait has a generous bound: nothing here measures
time.
"""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sse_events import events
from test_server import GAME, Setup, make_setup

from cockatrice_ext.formats import vortex as rules

BOUND = 30.0
"""The longest any wait here may take (the deadlines under test are far shorter)."""
HELD = 300.0
"""A deadline no test reaches: connections under it stay open."""
UNFINISHED = b"GET / HTTP/1.1\r\nHost: x\r\n"  # no blank line: the headers never end
COMPLETE = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


def scenario(tmp_path: Path, body: Callable[[Setup], Awaitable[None]], **limits: Any) -> None:
    async def run() -> None:
        setup = await make_setup(tmp_path, **limits)
        try:
            await asyncio.wait_for(body(setup), 4 * BOUND)
        finally:
            await setup.session.close()
            await setup.web.stop()
            setup.bot.chat.close()

    asyncio.run(run())


async def connect(port: int, sent: bytes, client: str = "127.0.0.1") -> Connection:
    """A raw connection from ``client`` that has sent ``sent``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(client, 0))
    writer.write(sent)
    await writer.drain()
    return reader, writer


async def until_closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sent before it closed the connection."""
    try:
        return await reader.read()
    except ConnectionResetError:
        return b""


async def wait_for_closes(ends: list[asyncio.Task[bytes]], count: int) -> None:
    """Wait (at most ``BOUND`` s) until ``count`` of the connections behind ``ends`` were closed."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + BOUND
    while sum(end.done() for end in ends) < count and loop.time() < give_up:
        pending = [end for end in ends if not end.done()]
        await asyncio.wait(pending, timeout=give_up - loop.time(), return_when=asyncio.FIRST_COMPLETED)
    assert sum(end.done() for end in ends) >= count, "the server did not close them"


async def page_status(port: int, client: str) -> bytes:
    """The status line a one-request client from ``client`` gets for ``/`` (b"" if it is closed on)."""
    reader, writer = await connect(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", client)
    try:
        answer = await asyncio.wait_for(until_closed(reader), BOUND)
    finally:
        writer.close()
    return answer.split(b"\r\n", 1)[0]


def hang_up(connections: list[Connection], ends: list[asyncio.Task[bytes]]) -> None:
    for _, writer in connections:
        writer.close()
    for end in ends:
        end.cancel()


def test_connections_over_the_cap_per_address_are_closed_and_other_clients_get_their_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body(s: Setup) -> None:
        attack = [await connect(s.web.port, UNFINISHED) for _ in range(12)]
        ends = [asyncio.create_task(until_closed(reader)) for reader, _ in attack]
        await wait_for_closes(ends, 8)
        assert await page_status(s.web.port, "127.0.0.2") == b"HTTP/1.1 200 OK"
        assert await page_status(s.web.port, "127.0.0.1") == b""  # the attacker's address is full
        assert sum(not end.done() for end in ends) == 4  # the cap's four stay until their deadline
        hang_up(attack, ends)

    with caplog.at_level(logging.WARNING, logger="cockatrice_ext.web.gate"):
        scenario(tmp_path, body, max_connections_per_client=4, request_seconds=HELD, idle_seconds=HELD)
    refusals = [r for r in caplog.records if r.name == "cockatrice_ext.web.gate"]
    assert len(refusals) == 1 and "127.0.0.1" in refusals[0].getMessage()  # one line, not one per socket
    assert not any(r.exc_info for r in caplog.records)


def test_connections_over_the_total_cap_are_closed_until_some_close(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        attack = [await connect(s.web.port, UNFINISHED, client) for client in ["127.0.0.1"] * 4]
        attack += [await connect(s.web.port, UNFINISHED, client) for client in ["127.0.0.2"] * 4]
        ends = [asyncio.create_task(until_closed(reader)) for reader, _ in attack]
        await wait_for_closes(ends, 2)
        assert await page_status(s.web.port, "127.0.0.3") == b""
        assert sum(not end.done() for end in ends) == 6
        hang_up(attack, ends)
        loop = asyncio.get_running_loop()
        give_up, status = loop.time() + BOUND, b""
        while status != b"HTTP/1.1 200 OK" and loop.time() < give_up:  # once the server saw them go
            status = await page_status(s.web.port, "127.0.0.3")
        assert status == b"HTTP/1.1 200 OK"

    scenario(tmp_path, body, max_connections=6, request_seconds=HELD, idle_seconds=HELD)


def test_unfinished_requests_and_idle_connections_are_closed_after_their_deadline(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body(s: Setup) -> None:
        unfinished = await connect(s.web.port, UNFINISHED)
        assert await asyncio.wait_for(until_closed(unfinished[0]), BOUND) == b""
        # a body that never comes, on a page that reads one (alice's pick)
        path = s.links["alice"].split(str(s.web.port), 1)[1] + "/pick"
        head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        slow_body = await connect(s.web.port, (head + "Content-Length: 100\r\n\r\nchoice=1").encode())
        assert await asyncio.wait_for(until_closed(slow_body[0]), BOUND) == b""
        # a kept-alive connection that asks nothing more after its answer
        idle = await connect(s.web.port, COMPLETE)
        answer = await asyncio.wait_for(until_closed(idle[0]), BOUND)
        assert answer.startswith(b"HTTP/1.1 200 OK") and b"Connection: close" not in answer
        for _, writer in (unfinished, slow_body, idle):
            writer.close()

    with caplog.at_level(logging.INFO):
        scenario(tmp_path, body, request_seconds=0.5, idle_seconds=0.5)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


def test_an_open_live_page_outlives_the_deadlines(tmp_path: Path) -> None:
    async def body(s: Setup) -> None:
        stream = events(s.session, f"{s.base}/game/{GAME}/events")
        _, first = await anext(stream)
        late = await connect(s.web.port, UNFINISHED)  # opened after the stream: its deadline ends later
        assert await asyncio.wait_for(until_closed(late[0]), BOUND) == b""
        s.referee.apply(rules.Pick(player=1, choice=0))
        _, view = await asyncio.wait_for(anext(stream), BOUND)  # the stream still carries the board
        assert first["board"]["packs"][0]["to_pick"] and not view["board"]["packs"][0]["to_pick"]
        late[1].close()
        await stream.aclose()

    scenario(tmp_path, body, request_seconds=0.5, idle_seconds=0.5)


def test_accept_failing_for_want_of_descriptors_is_one_line_without_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body(s: Setup) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(50):  # what asyncio reports for each accept() that fails, many times a second
            loop.call_exception_handler(
                {
                    "message": "socket.accept() out of system resource",
                    "exception": OSError(errno.EMFILE, "Too many open files"),
                    "socket": s.web.sockets[0],
                }
            )
        assert await page_status(s.web.port, "127.0.0.1") == b"HTTP/1.1 200 OK"

    with caplog.at_level(logging.INFO):
        scenario(tmp_path, body)
    said = [r for r in caplog.records if "accept" in r.getMessage()]
    assert len(said) == 1 and "Too many open files" in said[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)
