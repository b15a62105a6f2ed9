"""A loopback TCP relay to a test server that the test controls: shut, it hangs up on new connections (as
a server still down does); frozen, the connections it carries go silent without closing (as a network
that dropped does, so neither end hears of it until its own timeout)."""

from __future__ import annotations

import asyncio
import contextlib


class Gate:
    """Relay ``127.0.0.1:port`` to ``127.0.0.1:target_port``; ``open`` says whether new connections pass."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.open = True
        self.port = 0
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()
        self._frozen: set[int] = set()  # connection numbers whose bytes are held from now on
        self._connections = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def freeze(self) -> None:
        """The connections open now carry nothing more, and stay open; new ones relay as usual."""
        self._frozen.update(range(1, self._connections + 1))

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.open:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._connections += 1
        number = self._connections
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.ensure_future(self._pipe(number, source, sink))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    async def _pipe(self, number: int, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await source.read(65536):
                if number in self._frozen:
                    await asyncio.Future()  # silent for good, the sockets still open
                sink.write(data)
                await sink.drain()
        sink.close()

    async def close(self) -> None:
        for task in list(self._pipes):
            task.cancel()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
