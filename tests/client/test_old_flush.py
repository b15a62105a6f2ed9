"""A write left from a dropped connection cannot reach the next connection.

The question: after a drop and a reconnect, could a flush still pending for the old connection (stuck
writing to a peer that stopped reading) take the new connection's frames, or, failing on the dead socket,
declare the new connection lost? It could: the frames the old flush still held were sent after the new
login, failed on the closed socket, and the failure was reported as the *current* connection's loss,
dropping the healthy new connection and every command waiting on it. Each write now belongs to its
connection: the frames stay in their connection until its writer takes them, a connection's flush tasks
are cancelled when it is torn down, writers blocked on its transport are released, and a failure is the
loss of the connection it happened on only.
"""

from __future__ import annotations

import asyncio
import itertools
import socket

from client_helpers import run, wait_until
from fake_servatrice import FakeServatrice, frame, response

from cockatrice_ext.client import Client, Disconnected, Reconnected, connect
from cockatrice_ext.client.errors import ConnectionLost
from cockatrice_ext.protocol import commands
from cockatrice_ext.protocol import messages as pb

BIG = 6 * 1024 * 1024  # far more than the loopback socket buffers hold once the server stops reading
ABSURD_FRAME = b"\xff\xff\xff\xff"  # a length above the frame cap: the client gives the connection up


def _texts(container: pb.CommandContainer) -> list[str]:  # type: ignore[name-defined]
    return [
        wrapper.Extensions[pb.Command_Message.ext].message
        for wrapper in container.session_command
        if wrapper.HasExtension(pb.Command_Message.ext)
    ]


async def _connect(server: FakeServatrice) -> Client:
    """A client with no ping of its own in the way (the test decides what is written), reconnecting soon."""
    return await connect(
        server.url,
        "bot",
        keepalive=30.0,
        command_timeout=20.0,
        connect_timeout=5.0,
        reconnect_delays=lambda: itertools.repeat(0.05),
    )


async def _stall(client: Client, server: FakeServatrice) -> asyncio.Task[object]:
    """Have the server stop reading this connection (its ``stall`` hook) and shrink the client's socket
    buffer, so that a large write stays unsent; returns the ``stall`` message's call."""
    stalled: asyncio.Task[object] = asyncio.create_task(client.call(commands.message("nobody", "stall")))
    await wait_until(lambda: any("stall" in _texts(c) for c in server.containers), what="stall")
    raw = client._transport._transport.get_extra_info("socket")  # type: ignore[union-attr]
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
    return stalled


def test_a_flush_pending_on_the_old_connection_loses_nothing_of_the_new_one() -> None:
    stop_reading = asyncio.Event()  # set at the end: the old connection's server side may finish
    answer_held = asyncio.Event()

    async def stall_or_hold(container: pb.CommandContainer) -> None:  # type: ignore[name-defined]
        texts = _texts(container)
        if "stall" in texts:  # the first connection's server stops reading (a stalled peer)
            await stop_reading.wait()
        if "held" in texts:  # the second connection's server answers this one when the test says
            await answer_held.wait()

    async def scenario() -> None:
        async with FakeServatrice(on_container=stall_or_hold) as server:
            client = await _connect(server)
            events: list[object] = []
            client.add_listener(lambda event: asyncio.sleep(0, events.append(event)))
            stalled = await _stall(client, server)
            try:
                old_transport, old_conn = client._transport, client._conn
                assert old_transport is not None and old_conn is not None
                # What a sender and the keepalive had queued on the old connection when its writer stalled:
                # a large deck (more than the peer will read), then a ping behind it.
                old_conn.send(commands.deck_select("x" * BIG), game_id=5)
                old_conn.send(commands.ping())
                heard = client._last_data
                old_writer = server._writers[0]
                old_writer.write(frame(response(9999)))  # the server still talks: the client flushes
                await wait_until(lambda: client._last_data > heard, what="the old connection's data")
                old_writer.write(ABSURD_FRAME)  # the client gives the old connection up, unsent data and all
                await wait_until(
                    lambda: any(isinstance(e, Reconnected) for e in events), timeout=15, what="reconnect"
                )
                held = asyncio.create_task(client.call(commands.message("nobody", "held")))
                await wait_until(lambda: any("held" in _texts(c) for c in server.containers), what="held")
                old_writer.transport.abort()  # the old socket dies for good (a reset: unread data)
                await wait_until(lambda: old_transport._protocol.ended, what="the old socket's end")  # type: ignore[attr-defined]
                for _ in range(20):  # whatever the old connection's end wakes has its turn
                    await asyncio.sleep(0)
                answer_held.set()
                result = await asyncio.wait_for(held, 10)  # the new connection's command is answered
                assert result.cmd_id > 0
                await client.ping()
                drops = [e for e in events if isinstance(e, Disconnected)]
                assert len(drops) == 1, drops
                assert server.connections == 2
            finally:
                stop_reading.set()
                answer_held.set()
                stalled.cancel()
                await client.close()
            assert stalled.done()

    run(scenario(), timeout=60)


def test_a_caller_writing_when_the_connection_drops_hears_connection_lost() -> None:
    """A command written straight from its caller (nothing queued before it) onto a peer that stopped
    reading: when the connection is given up, the caller hears ``ConnectionLost`` at once; it does not
    hang until the operating system gives up on the dead socket."""
    stop_reading = asyncio.Event()

    async def stall(container: pb.CommandContainer) -> None:  # type: ignore[name-defined]
        if "stall" in _texts(container):
            await stop_reading.wait()

    async def scenario() -> None:
        async with FakeServatrice(on_container=stall) as server:
            client = await _connect(server)
            try:
                (await _stall(client, server)).cancel()
                deck = asyncio.create_task(client.call(commands.deck_select("x" * BIG), game_id=5))
                await wait_until(
                    lambda: client._transport._transport.get_write_buffer_size() > 0,  # type: ignore[union-attr]
                    what="a stalled write",
                )
                server._writers[0].write(ABSURD_FRAME)
                try:
                    await asyncio.wait_for(deck, 10)
                except ConnectionLost:
                    pass
                else:
                    raise AssertionError("the deck's caller was answered by a connection given up")
            finally:
                stop_reading.set()
                await client.close()

    run(scenario(), timeout=60)
