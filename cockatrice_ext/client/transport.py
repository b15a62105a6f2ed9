"""Byte transports for the client: TCP (port 4747) and WebSocket (port 4748, ``ws``/``wss``).

A transport only moves bytes; framing lives in ``cockatrice_ext.protocol``. For TCP ``receive()``
returns arbitrary chunks of the stream; for WebSocket it returns one whole binary message per call
(one protobuf). Both return ``b""`` at end of stream.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import dataclasses
import logging
import socket
import ssl
from collections.abc import Callable
from typing import Literal
from urllib.parse import urlsplit

from .errors import WebSocketRefused

LOGGER = logging.getLogger(__name__)

TransportKind = Literal["tcp", "ws"]

DEFAULT_TCP_PORT = 4747
DEFAULT_WS_PORT = 4748
#: Ports on which the desktop client picks WebSocket for a bare ``host:port``.
WEBSOCKET_PORTS = frozenset({80, 443, 4748, 8080})


@dataclasses.dataclass(frozen=True)
class ServerAddress:
    """Where and how to connect."""

    kind: TransportKind
    host: str
    port: int
    url: str
    secure: bool = False

    @classmethod
    def parse(cls, url: str) -> ServerAddress:
        """Parse ``tcp://host[:port]``, ``ws(s)://host[:port][/path]`` or a bare ``host[:port]``.

        Raises:
            ValueError: for an unknown scheme or a malformed address.
        """
        text = url.strip()
        if "://" not in text:
            probe = urlsplit("//" + text)
            port = probe.port or DEFAULT_TCP_PORT
            scheme = "ws" if port in WEBSOCKET_PORTS else "tcp"
            text = f"{scheme}://{text}"
        parts = urlsplit(text)
        scheme = parts.scheme.lower()
        host = parts.hostname
        if not host:
            raise ValueError(f"no host in server address {url!r}")
        try:
            explicit_port = parts.port
        except ValueError as exc:
            raise ValueError(f"bad port in server address {url!r}") from exc
        if scheme == "tcp":
            return cls("tcp", host, explicit_port or DEFAULT_TCP_PORT, text)
        if scheme in ("ws", "wss"):
            secure = scheme == "wss"
            port = explicit_port or (443 if secure else DEFAULT_WS_PORT)
            path = parts.path or "/servatrice"
            netloc_host = f"[{host}]" if ":" in host else host
            full = f"{scheme}://{netloc_host}:{port}{path}"
            if parts.query:
                full += "?" + parts.query
            return cls("ws", host, port, full, secure)
        raise ValueError(f"unsupported scheme {parts.scheme!r} in {url!r} (use tcp://, ws:// or wss://)")


DataCallback = Callable[[bytes], None]


class Transport(abc.ABC):
    """A connected byte pipe. Received data is pushed to the callback given to :meth:`start_reading`."""

    kind: TransportKind

    @abc.abstractmethod
    async def send(self, data: bytes) -> None:
        """Write ``data`` (for WebSocket: one binary message)."""

    @abc.abstractmethod
    def start_reading(self, on_data: DataCallback) -> None:
        """Call ``on_data(chunk)`` for each received chunk (TCP) or message (WebSocket), then ``on_data(b"")``
        once at end of stream. Call once."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the connection; safe to call twice."""


_QUICKACK: int | None = getattr(socket, "TCP_QUICKACK", None)  # Linux only


class _TcpProtocol(asyncio.Protocol):
    """Pushes received bytes straight to the callback (no reader task in between)."""

    def __init__(self) -> None:
        self.on_data: DataCallback | None = None
        self.early: list[bytes] = []
        self.ended = False
        self.write_ready = asyncio.Event()
        self.write_ready.set()
        self._socket: socket.socket | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and _QUICKACK is not None:
            self._socket = sock

    def data_received(self, data: bytes) -> None:
        if self._socket is not None and _QUICKACK is not None:
            # Servatrice leaves Nagle's algorithm on (its TCP_NODELAY never reaches the socket), so
            # a burst of small replies waits for our delayed ACK (~40 ms). Acknowledging every read
            # at once lets the next message through; Linux resets this flag, hence every time.
            try:
                self._socket.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)
            except OSError:
                self._socket = None
        if self.on_data is None:
            self.early.append(data)
        else:
            self.on_data(data)

    def eof_received(self) -> bool:
        self._end()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.write_ready.set()
        self._end()

    def _end(self) -> None:
        if self.ended:
            return
        self.ended = True
        if self.on_data is not None:
            self.on_data(b"")

    def pause_writing(self) -> None:
        self.write_ready.clear()

    def resume_writing(self) -> None:
        self.write_ready.set()


class TcpTransport(Transport):
    """A plain TCP stream."""

    kind: TransportKind = "tcp"

    def __init__(self, transport: asyncio.Transport, protocol: _TcpProtocol) -> None:
        self._transport = transport
        self._protocol = protocol

    @classmethod
    async def open(cls, host: str, port: int, *, ssl_context: ssl.SSLContext | None = None) -> TcpTransport:
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.create_connection(_TcpProtocol, host, port, ssl=ssl_context)
        return cls(transport, protocol)

    async def send(self, data: bytes) -> None:
        if self._transport.is_closing():
            raise ConnectionResetError("connection closed")
        self._transport.write(data)
        if not self._protocol.write_ready.is_set():
            await self._protocol.write_ready.wait()
            if self._transport.is_closing():  # closed while the peer was not reading: maybe never sent
                raise ConnectionResetError("connection closed")

    def start_reading(self, on_data: DataCallback) -> None:
        protocol = self._protocol
        protocol.on_data = on_data
        early, protocol.early = protocol.early, []
        for chunk in early:
            on_data(chunk)
        if protocol.ended:
            on_data(b"")

    async def close(self) -> None:
        """Close the stream. Bytes the peer has not taken yet are dropped (a reset): a connection closed
        is one given up, and a peer that stopped reading would otherwise keep the socket, and every writer
        waiting on it, for as long as the system retries. Writers waiting are released (they raise)."""
        if not self._transport.is_closing():
            if self._transport.get_write_buffer_size():
                self._transport.abort()
            else:
                self._transport.close()
        # Stop delivering data to a client that has moved on.
        self._protocol.on_data = None
        self._protocol.write_ready.set()


class WebSocketTransport(Transport):
    """One protobuf per binary WebSocket message."""

    kind: TransportKind = "ws"

    def __init__(self, connection: object) -> None:
        self._ws = connection
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        max_message_size: int,
        ssl_context: ssl.SSLContext | None = None,
        open_timeout: float = 10,
    ) -> WebSocketTransport:
        from websockets.asyncio.client import connect as ws_connect

        kwargs: dict[str, object] = {
            "max_size": max_message_size,
            "ping_interval": None,  # Servatrice ignores WebSocket pings; our Command_Ping is the keepalive
            "compression": None,
            "open_timeout": open_timeout,
            "user_agent_header": "cockatrice-ext",
        }
        if url.startswith("wss://"):
            kwargs["ssl"] = ssl_context or ssl.create_default_context()
        from websockets.exceptions import InvalidHandshake

        try:
            connection = await ws_connect(url, **kwargs)  # type: ignore[arg-type]
        except InvalidHandshake as exc:
            raise handshake_refused(exc) from exc
        return cls(connection)

    async def send(self, data: bytes) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self._ws.send(data)  # type: ignore[attr-defined]
        except ConnectionClosed as exc:
            raise ConnectionResetError(f"websocket closed: {exc}") from exc

    async def receive(self) -> bytes:
        """Next binary message; ``b""`` when the connection is closed (text messages are skipped)."""
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                message = await self._ws.recv()  # type: ignore[attr-defined]
            except ConnectionClosed:
                return b""
            if not isinstance(message, str):
                return bytes(message)
            LOGGER.warning("ignoring a text websocket message of %d characters", len(message))

    def start_reading(self, on_data: DataCallback) -> None:
        async def pump() -> None:
            try:
                while True:
                    message = await self.receive()
                    on_data(message)
                    if not message:
                        return
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection broke in some other way: report end of stream
                LOGGER.debug("websocket reader stopped", exc_info=True)
                on_data(b"")

        self._reader = asyncio.create_task(pump(), name="cockatrice-ws-reader")

    async def close(self) -> None:
        if self._reader is not None and self._reader is not asyncio.current_task():
            self._reader.cancel()
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(self._ws.close(), 2)  # type: ignore[attr-defined]


def handshake_refused(exc: Exception) -> WebSocketRefused:
    """A websockets handshake error as the client's connection error: what answered was not Servatrice's
    WebSocket (a web server's 404, a proxy's 502 while Servatrice is down, an HTTP/1.0 answer...)."""
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    if isinstance(status, int) and status >= 500:
        return WebSocketRefused(f"no WebSocket: HTTP {status} (a proxy whose Servatrice is down?)", status)
    if isinstance(status, int):
        return WebSocketRefused(f"not a Servatrice WebSocket endpoint (HTTP {status})", status)
    cause = f": {exc.__cause__}" if exc.__cause__ is not None else ""
    return WebSocketRefused(f"not a Servatrice WebSocket endpoint ({exc}{cause})")


async def open_transport(
    address: ServerAddress,
    *,
    max_message_size: int,
    connect_timeout: float = 10,
    ssl_context: ssl.SSLContext | None = None,
) -> Transport:
    """Connect to ``address`` (raises ``OSError``/``TimeoutError`` when unreachable, :class:`WebSocketRefused`
    when a web server that is not Servatrice answers a ``ws``/``wss`` address).

    ``ssl_context`` is used for ``wss://`` (default: the system's trusted certificates).
    """
    if address.kind == "tcp":
        return await asyncio.wait_for(TcpTransport.open(address.host, address.port), connect_timeout)
    return await asyncio.wait_for(
        WebSocketTransport.open(
            address.url,
            max_message_size=max_message_size,
            open_timeout=connect_timeout,
            ssl_context=ssl_context,
        ),
        connect_timeout + 1,
    )
