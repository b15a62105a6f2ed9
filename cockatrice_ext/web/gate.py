"""The web view's door: how many connections it keeps open, and for how long a request may take to arrive.

Why: the web view shares the bot's process, so its sockets and the referee's Servatrice connection, journal
and block files draw on one table of file descriptors. aiohttp alone keeps an idle keep-alive connection for
an hour and waits for ever for a request whose headers or body never finish, so anyone could hold sockets
until the process cannot open a file (the referee then fails its players). Hence one small piece in front of
aiohttp's own request handler (:class:`GuardedConnection`, one per connection, made by
:class:`ConnectionGate`):

* a cap on open connections per client address (an IPv6 client's /64, which one subscriber usually holds
  whole) and in total, below half the process's file limit; a connection over it is closed at once, with at
  most one log line per address a minute;
* a deadline for each request: its headers and body must have arrived ``request_seconds`` after the
  connection opened or after the first byte following the previous response, and a connection idle
  ``idle_seconds`` after a response is closed. Only a request still arriving is timed: once it is complete
  (the web view's middleware says so, :meth:`ConnectionGate.request_complete`), its handler may take as
  long as it needs, so a live page's event stream stays open (those are limited by ``max_streams``, and
  closed by the web view when their client stops reading: ``stream_stall_seconds``);
* accept() failing for want of descriptors or memory is logged once a minute, without a traceback
  (asyncio logs each failure with one, many times a second: :class:`AcceptErrors`).
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import time
from collections.abc import Callable, Iterable
from enum import Enum, auto
from typing import Any

LOGGER = logging.getLogger(__name__)

OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
"""The errors for which asyncio pauses accepting for a second and logs a traceback each time."""
HandlerFactory = Callable[[], asyncio.Protocol]
"""Makes aiohttp's handler of one connection (its ``Server``)."""


class Throttle:
    """At most one event per key per ``period`` seconds: log lines an attacker could otherwise multiply."""

    MAX_KEYS = 1000

    def __init__(self, period: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.period = period
        self.clock = clock
        self._last: dict[str, float] = {}

    def allow(self, key: str) -> bool:
        now = self.clock()
        last = self._last.get(key)
        if last is not None and now - last < self.period:
            return False
        if last is None and len(self._last) >= self.MAX_KEYS:
            self._last = {k: t for k, t in self._last.items() if now - t < self.period}
            if len(self._last) >= self.MAX_KEYS:  # that many addresses in a minute: say no more
                return False
        self._last[key] = now
        return True


def client_key(transport: asyncio.BaseTransport) -> str:
    """Whom a connection counts against: its peer's address (an IPv6 address's /64)."""
    peer = transport.get_extra_info("peername")
    host = peer[0] if isinstance(peer, tuple) and peer else str(peer)
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return host


def file_limit() -> int | None:
    """The process's soft limit on open files (None where unknown or unlimited)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


class Phase(Enum):
    """Where a connection is: a request ARRIVING (or awaited on a new connection; timed by
    ``request_seconds``), HANDLED (complete and being answered: not timed) or IDLE between requests
    (timed by ``idle_seconds``)."""

    ARRIVING = auto()
    HANDLED = auto()
    IDLE = auto()


class ConnectionGate:
    """Counts the web view's open connections by client and in total, and makes each one's guard."""

    def __init__(self, *, per_client: int, total: int, request_seconds: float, idle_seconds: float) -> None:
        limit = file_limit()
        if limit is not None and total > limit // 2:
            LOGGER.info("web view: at most %d connections (half the process's open-file limit)", limit // 2)
            total = max(1, limit // 2)
        self.total = total
        self.per_client = min(per_client, total)
        self.request_seconds = request_seconds
        self.idle_seconds = idle_seconds
        self.open = 0
        self.open_by_client: dict[str, int] = {}
        self.guards: dict[asyncio.BaseTransport, GuardedConnection] = {}  # found by request.transport
        self._refusals = Throttle()

    def protocol_factory(self, make_handler: HandlerFactory) -> Callable[[], GuardedConnection]:
        """What ``loop.create_server`` is given: each connection's guard, around a ``make_handler()``."""
        return lambda: GuardedConnection(self, make_handler)

    def admit(self, client: str) -> bool:
        """Count a new connection from ``client``, or say it is one too many (logged once a minute)."""
        here = self.open_by_client.get(client, 0)
        if here < self.per_client and self.open < self.total:
            self.open_by_client[client] = here + 1
            self.open += 1
            return True
        if here >= self.per_client:
            if self._refusals.allow(client):
                LOGGER.warning(
                    "web view: closing connections from %s beyond %d open at once", client, self.per_client
                )
        elif self._refusals.allow("*"):
            LOGGER.warning("web view: closing new connections beyond %d open at once", self.total)
        return False

    def release(self, client: str) -> None:
        self.open -= 1
        left = self.open_by_client[client] - 1
        if left:
            self.open_by_client[client] = left
        else:
            del self.open_by_client[client]

    def request_complete(self, transport: asyncio.BaseTransport | None) -> None:
        """The middleware's word: the request on ``transport`` has all arrived; its answer is not timed."""
        guard = self.guards.get(transport) if transport is not None else None
        if guard is not None:
            guard.enter(Phase.HANDLED)

    def response_done(self, transport: asyncio.BaseTransport | None) -> None:
        """The middleware's word: the answer is given (a stream ended); the connection idles now."""
        guard = self.guards.get(transport) if transport is not None else None
        if guard is not None:
            guard.enter(Phase.IDLE)


class GuardedConnection(asyncio.Protocol):
    """One connection: admitted by the gate or closed at once; aiohttp's handler behind it, on a deadline
    while a request arrives or the connection idles."""

    def __init__(self, gate: ConnectionGate, make_handler: HandlerFactory) -> None:
        self.gate = gate
        self.make_handler = make_handler
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.client = ""
        self.phase = Phase.ARRIVING
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.client = client_key(transport)
        if not self.gate.admit(self.client):
            transport.abort()
            return
        self.transport = transport
        self.gate.guards[transport] = self
        self.enter(Phase.ARRIVING)
        self.inner = self.make_handler()
        self.inner.connection_made(transport)

    def enter(self, phase: Phase) -> None:
        """Move to ``phase`` and (re)start its deadline: none while a complete request is answered."""
        self.phase = phase
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        seconds = {Phase.ARRIVING: self.gate.request_seconds, Phase.IDLE: self.gate.idle_seconds}.get(phase)
        if seconds is not None:
            self._deadline = asyncio.get_running_loop().call_later(seconds, self._expire)

    def _expire(self) -> None:
        self._deadline = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if self.phase is Phase.IDLE:
            self.enter(Phase.ARRIVING)
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        inner, self.inner = self.inner, None
        if inner is None:  # refused at the door
            return
        if self.transport is not None:
            self.gate.guards.pop(self.transport, None)
        self.gate.release(self.client)
        inner.connection_lost(exc)


class AcceptErrors:
    """The event loop's exception handler while the web view listens: accept() on its sockets failing for
    want of descriptors or memory is one log line a minute, without a traceback (asyncio retries a second
    later by itself); everything else goes to the handler that was there before."""

    def __init__(self, loop: asyncio.AbstractEventLoop, sockets: Iterable[Any]) -> None:
        self.loop = loop
        self.fds = {sock.fileno() for sock in sockets}
        self.previous = loop.get_exception_handler()
        self._throttle = Throttle()
        loop.set_exception_handler(self)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc, sock = context.get("exception"), context.get("socket")
        ours = sock is not None and sock.fileno() in self.fds
        if ours and isinstance(exc, OSError) and exc.errno in OUT_OF_RESOURCES:
            if self._throttle.allow("accept"):
                LOGGER.error("web view: cannot accept connections (%s); trying again", exc.strerror or exc)
            return
        if self.previous is not None:
            self.previous(loop, context)
        else:
            loop.default_exception_handler(context)

    def remove(self) -> None:
        """Put the previous handler back (unless another was set since)."""
        if self.loop.get_exception_handler() is self:
            self.loop.set_exception_handler(self.previous)
