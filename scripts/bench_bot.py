"""Acknowledgement latency of the Auction Magic referee bot on a real Servatrice, versus a bare echo bot.

What is measured (all over loopback TCP to one real Servatrice with relaxed flood limits, or with its
shipped ones under ``--shipped-limits``, in one run):

1. **Referee vs echo.** One refereed auction game and one echo game, the same two scripted players
   (:class:`cockatrice_ext.client.Client` via ``tests/bot/bot_players.py``) sitting in both. A sample
   is the time from a player starting to send ``!bid N`` until its acknowledgement reaches that
   player's client: for the referee, the lot card's note (``Event_SetCardAttr``, "High bid: N by
   <name>"; a bid costs no chat), for the echo bot the line ``"<name> bids N."``. Referee and echo
   samples alternate, so both see the same machine load. The echo bot is a separate process built
   directly on the sans-I/O ``ClientConnection`` over a bare asyncio socket: no command queue, no
   flood gate, no game mirror; it answers each game-chat line with one game-chat line.
2. **Concurrency.** N = 1, 10, 50 auction games refereed by the same bot process, every game bidding
   at a fixed pace (one bid per ``--interval-ms`` per game, closed loop: a bid waits for the previous
   acknowledgement). Reports median/p90/p99/max acknowledgement latency and the CPU time of the bot
   process (``/proc/<pid>/stat``), plus the CPU of Servatrice and of this (players') process for context.
3. **Bursts** (``--burst N``, under the shipped limits): one auction game bids once per ``--interval-ms``
   while N other pairs of players (each its own client) open and start N auction games at the same
   moment: whether what one game's handling awaits (counted game commands paced to Servatrice's 20 per
   10 s, chat) holds up another game's answers (it did while the bot handled its events one at a time).
   Reports the bidding game's acknowledgement latency alone and during each burst, and the game commands
   the referee spent in the burst's games (counted from Servatrice's log).

The referee runs as its own process through the real CLI (``cockatrice-ext bot run ... --relaxed-flood``)
with a large starting gold, so one lot can take thousands of rising bids.

Servatrice's sockets run with Nagle's algorithm on, which together with the clients' delayed ACKs makes
some answers wait ~40 ms. Two experiments take that out of the picture: ``--server-nodelay`` (an
LD_PRELOAD shim, compiled with ``cc``, sets ``TCP_NODELAY`` on the sockets the server accepts) and
``--quickack bots|players|all`` (those client sockets set ``TCP_QUICKACK`` after every read).

Usage::

    python scripts/bench_bot.py                       # full run, about 160 s
    python scripts/bench_bot.py --samples 300 --games 1,10 --seconds 4
    python scripts/bench_bot.py --server-nodelay      # the same without the server's Nagle stalls
    python scripts/bench_bot.py --profile-bot /tmp/bot.prof   # run the referee under cProfile too
    python scripts/bench_bot.py --samples 1000 --games 1 --seconds 2 --trace-stages  # where a bid's time goes
    python scripts/bench_bot.py --shipped-limits --games 1,20 --interval-ms 1000 --seconds 20
    python scripts/bench_bot.py --burst 6 --interval-ms 1000 --seconds 20   # games opened while one bids

Needs the ``servatrice`` binary (``$SERVATRICE_BIN`` or on ``PATH``) and the test extras (the scripted
players and the server harness live under ``tests/``). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cockatrice_ext.client import ClientEvent
from cockatrice_ext.fsutil import atomic_write_text
from cockatrice_ext.protocol import (
    NEED_DATA,
    ClientConnection,
    ConnectionClosed,
    GameEventsReceived,
    LoginFailed,
    LoginSucceeded,
    ResponseReceived,
    ServerIdentified,
    SessionEventReceived,
    commands,
)
from cockatrice_ext.protocol import messages as pb

REPO = Path(__file__).resolve().parent.parent
ROOM = "Bot room"
STARTING_GOLD = 100_000  # one lot can take that many rising bids
READY_TIMEOUT = 60.0
ACK_TIMEOUT = 10.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def quickack(sock: Any) -> None:
    """Acknowledge received data at once (Linux ``TCP_QUICKACK``; it wears off, so set it after each read)."""
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)


NODELAY_SHIM = r"""
/* LD_PRELOAD shim for the benchmark: TCP_NODELAY on every socket the server accepts. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

static int nodelay(int fd) {
    int one = 1;
    if (fd >= 0) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

int accept(int fd, struct sockaddr *addr, socklen_t *len) {
    int (*real)(int, struct sockaddr *, socklen_t *) = dlsym(RTLD_NEXT, "accept");
    return nodelay(real(fd, addr, len));
}

int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    int (*real)(int, struct sockaddr *, socklen_t *, int) = dlsym(RTLD_NEXT, "accept4");
    return nodelay(real(fd, addr, len, flags));
}
"""


def build_nodelay_shim(workdir: Path) -> Path:
    """Compile :data:`NODELAY_SHIM` with the system C compiler (the ``--server-nodelay`` experiment)."""
    source = workdir / "nodelay_shim.c"
    library = workdir / "nodelay_shim.so"
    atomic_write_text(source, NODELAY_SHIM)
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", str(library), str(source), "-ldl"], check=True)
    return library


def enable_client_quickack() -> None:
    """Experiment: make every :class:`cockatrice_ext.client.Client` TCP socket in this process quick-ACK."""
    from cockatrice_ext.client import transport

    protocol_class: Any = transport._TcpProtocol
    receive = protocol_class.data_received

    def connection_made(self: Any, tcp: asyncio.BaseTransport) -> None:
        self.bench_socket = tcp.get_extra_info("socket")

    def data_received(self: Any, data: bytes) -> None:
        quickack(getattr(self, "bench_socket", None))
        receive(self, data)

    protocol_class.connection_made = connection_made
    protocol_class.data_received = data_received


BID_STAGES = (
    ("event", "the chat event reaches the game's referee"),
    ("append>", "rules applied: the journal write starts"),
    ("append<", "journaled"),
    ("render<", "the players' view rendered"),
    ("submit", "the note command handed to the client"),
    ("write", "the command written to the socket"),
)
"""Where a bid's time goes in the referee (``--trace-stages``): each stage's time since the bid's bytes were
read, taken at the first call of a function on the bid's path."""


def enable_stage_trace(out: Path) -> None:
    """Measurement only: timestamp :data:`BID_STAGES` for every ``!bid`` the referee reads (the client's
    socket callback, the game referee's event handler, the journal's append, the view, the client's command
    entry and the socket write) and write the samples as JSON to ``out`` at exit."""
    import atexit
    import functools
    import inspect
    import json

    from cockatrice_ext import journal
    from cockatrice_ext.bot import auction, referee
    from cockatrice_ext.client import client, transport

    now = time.perf_counter_ns
    samples: list[dict[str, int]] = []
    current: dict[str, int] = {}

    def first(stage: str) -> None:
        if current:
            current.setdefault(stage, now())

    def wrap(owner: Any, name: str, before: str | None, after: str | None = None) -> None:
        original = getattr(owner, name)
        if inspect.iscoroutinefunction(original):

            @functools.wraps(original)
            async def traced(*args: Any, **kwargs: Any) -> Any:
                if before:
                    first(before)
                try:
                    return await original(*args, **kwargs)
                finally:
                    if after:
                        first(after)

        else:

            @functools.wraps(original)
            def traced(*args: Any, **kwargs: Any) -> Any:
                if before:
                    first(before)
                try:
                    return original(*args, **kwargs)
                finally:
                    if after:
                        first(after)

        setattr(owner, name, traced)

    protocol_class: Any = transport._TcpProtocol
    receive = protocol_class.data_received

    def data_received(self: Any, data: bytes) -> None:
        if b"!bid" in data:  # a bid, or the lot note's own echo ("... (!bid N or !pass)"): kept if journaled
            if "append<" in current:
                samples.append({k: v - current["read"] for k, v in current.items()})
            current.clear()
            current["read"] = now()
        receive(self, data)

    protocol_class.data_received = data_received
    wrap(referee.GameReferee, "on_event", "event")
    wrap(journal.Journal, "append", "append>", "append<")
    wrap(auction, "render_view", None, "render<")
    wrap(client.Client, "_submit", "submit")
    wrap(transport.TcpTransport, "send", "write")
    atexit.register(lambda: atomic_write_text(out, json.dumps(samples)))


def print_stage_trace(path: Path, skip: int) -> None:
    """The medians of :func:`enable_stage_trace`'s samples, after the first ``skip`` (the warm-up)."""
    import json

    samples = json.loads(path.read_text())[skip:]
    print(f"\nwhere a bid's time goes in the referee (n={len(samples)}; medians in us since its bytes came):")
    print(f"{'stage':<48}{'since read':>11}{'step':>8}")
    previous = 0.0
    for stage, meaning in BID_STAGES:
        times = sorted(s[stage] / 1000 for s in samples if stage in s)
        if not times:
            continue
        median = statistics.median(times)
        print(f"{meaning:<48}{median:>11.0f}{median - previous:>8.0f}")
        previous = median


# ---------------------------------------------------------------------------------------------------------
# The echo bot (runs in its own process: ``bench_bot.py echo-bot ...``)
# ---------------------------------------------------------------------------------------------------------


class EchoBot:
    """A minimal bot on the sans-I/O connection: one socket, one game, one chat line per chat line."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, quick_ack: bool = False
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.socket = writer.get_extra_info("socket") if quick_ack else None
        self.conn = ClientConnection(transport="tcp")
        self.names: dict[int, str] = {}
        self.me = -1
        self.game_id = -1

    def flush(self) -> None:
        frames = self.conn.data_to_send()
        if frames:
            self.writer.write(b"".join(frames))

    async def next_event(self) -> Any:
        """The next protocol event, reading from the socket as needed."""
        while True:
            event = self.conn.next_event()
            if event is not NEED_DATA:
                return event
            data = await self.reader.read(65536)
            if data:
                self.conn.receive_data(data)
            else:
                self.conn.receive_eof()

    async def call(self, command: Any, **where: int) -> ResponseReceived:
        """Send one command during setup and wait for its response (other events are kept for later)."""
        cmd_id = self.conn.send(command, **where)
        self.flush()
        while True:
            event = await self.next_event()
            if isinstance(event, ResponseReceived) and event.cmd_id == cmd_id:
                return event
            self.observe(event)

    def observe(self, event: Any) -> list[tuple[str, str]]:
        """Learn seats and names; return the (sender, text) chat lines of other players in our game."""
        if isinstance(event, ConnectionClosed):
            raise ConnectionError(f"server closed the echo bot's connection: {event}")
        lines: list[tuple[str, str]] = []
        if isinstance(event, SessionEventReceived) and isinstance(event.message, pb.Event_GameJoined):
            self.game_id = int(event.message.game_info.game_id)
            self.me = int(event.message.player_id)
        elif isinstance(event, GameEventsReceived) and event.game_id == self.game_id:
            for item in event.events:
                message = item.message
                if isinstance(message, pb.Event_Join):
                    props = message.player_properties
                    self.names[int(props.player_id)] = props.user_info.name
                elif isinstance(message, pb.Event_GameStateChanged):
                    for player in message.player_list:
                        props = player.properties
                        if props.HasField("user_info"):
                            self.names[int(props.player_id)] = props.user_info.name
                elif isinstance(message, pb.Event_GameSay) and item.player_id != self.me:
                    sender = self.names.get(item.player_id, f"player {item.player_id}")
                    lines.append((sender, message.message))
        return lines

    async def start(self, user: str, room_id: int) -> int:
        """Log in, join the room, create a game; return its id."""
        self.flush()  # the TCP hello
        while not isinstance(event := await self.next_event(), ServerIdentified):
            self.observe(event)
        self.conn.login(user)
        self.flush()
        while not isinstance(event := await self.next_event(), LoginSucceeded | LoginFailed):
            self.observe(event)
        if isinstance(event, LoginFailed):
            raise ConnectionError(f"echo bot login refused: {event}")
        await self.call(commands.join_room(room_id))
        await self.call(commands.create_game("echo bench", max_players=3), room_id=room_id)
        while self.game_id < 0:
            self.observe(await self.next_event())
        return self.game_id

    async def serve(self) -> None:
        """Answer every chat line; each socket read is handled in full before one write."""
        while True:
            while (event := self.conn.next_event()) is not NEED_DATA:
                for sender, text in self.observe(event):
                    self.conn.send(commands.game_say(echo_reply(sender, text)), game_id=self.game_id)
            self.flush()
            data = await self.reader.read(65536)
            if not data:
                return
            if self.socket is not None:
                quickack(self.socket)
            self.conn.receive_data(data)

    async def keepalive(self) -> None:
        """Servatrice drops a client that sends nothing for a while."""
        while True:
            await asyncio.sleep(2.0)
            self.conn.send(commands.ping())
            self.flush()


def echo_reply(sender: str, text: str) -> str:
    """``!bid N`` gets the referee's wording (``"<name> bids N."``); anything else is echoed."""
    words = text.split()
    if len(words) == 2 and words[0] == "!bid" and words[1].isdigit():
        return f"{sender} bids {words[1]}."
    return f"{sender}: {text}"[:300]


async def run_echo_bot(host: str, port: int, user: str, room_id: int, quick_ack: bool) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    bot = EchoBot(reader, writer, quick_ack=quick_ack)
    game_id = await bot.start(user, room_id)
    print(f"echo-bot ready game {game_id}", flush=True)
    pinger = asyncio.create_task(bot.keepalive())
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    server = asyncio.create_task(bot.serve())
    await asyncio.wait([server, asyncio.create_task(stop.wait())], return_when=asyncio.FIRST_COMPLETED)
    pinger.cancel()
    server.cancel()
    writer.close()


# ---------------------------------------------------------------------------------------------------------
# Measurement helpers
# ---------------------------------------------------------------------------------------------------------


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc/<pid>/stat."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def percentile(ordered: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of already sorted samples."""
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class Stats:
    """Latency summary in milliseconds."""

    count: int
    median: float
    p90: float
    p99: float
    worst: float

    @classmethod
    def of(cls, samples: Iterable[float]) -> Stats:
        ordered = sorted(samples)
        if not ordered:
            return cls(0, math.nan, math.nan, math.nan, math.nan)
        ms = 1000.0
        return cls(
            len(ordered),
            statistics.median(ordered) * ms,
            percentile(ordered, 0.90) * ms,
            percentile(ordered, 0.99) * ms,
            ordered[-1] * ms,
        )

    def cells(self) -> str:
        return f"{self.median:8.2f}{self.p90:8.2f}{self.p99:8.2f}{self.worst:8.2f}"


class AckClock:
    """Timestamps the bot's acknowledgements the moment they reach one player's client."""

    echo_game = -1
    """The echo bot's game: acknowledged in chat; the referee acknowledges on the lot card's note."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.waiting: dict[int, tuple[str, str, asyncio.Future[float]]] = {}
        player.client.add_listener(self._on_event)

    async def _on_event(self, event: Any) -> None:
        if not isinstance(event, ClientEvent) or event.is_own:
            return
        if event.name not in ("Event_GameSay", "Event_SetCardAttr"):
            return
        entry = self.waiting.get(event.game_id if event.game_id is not None else -1)
        if entry is None or entry[2].done():
            return
        needle, refusal, future = entry
        if event.name == "Event_SetCardAttr":  # the referee acknowledges a bid on the lot card's note
            note = str(event.message.attr_value)  # type: ignore[attr-defined]
            if needle in note:
                future.set_result(time.perf_counter())
            return
        text = str(event.message.message)  # type: ignore[attr-defined]
        if needle in text:
            future.set_result(time.perf_counter())
        elif text.startswith(refusal):
            future.set_exception(RuntimeError(f"bot refused: {text}"))

    async def say_and_wait(self, game_id: int, amount: int, timeout: float = ACK_TIMEOUT) -> float:
        """Send ``!bid amount`` in ``game_id``; return seconds until its acknowledgement arrives."""
        name = self.player.name
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        needle = f"High bid: {amount} by {name}" if game_id != self.echo_game else f"{name} bids {amount}."
        self.waiting[game_id] = (needle, f"{name}: ", future)
        started = time.perf_counter()
        try:
            await self.player.say(game_id, f"!bid {amount}")
            arrived = await asyncio.wait_for(future, timeout)
        finally:
            self.waiting.pop(game_id, None)
        return arrived - started


@dataclass
class AuctionTable:
    """One refereed game between two scripted players, with an open lot and rising bids."""

    game_id: int
    clocks: dict[str, AckClock]
    bidder: str
    other: str
    amount: int = 1
    samples: list[float] = field(default_factory=list)

    async def bid(self, timeout: float = ACK_TIMEOUT) -> float:
        latency = await self.clocks[self.bidder].say_and_wait(self.game_id, self.amount, timeout)
        self.amount += 1
        self.bidder, self.other = self.other, self.bidder
        return latency


# ---------------------------------------------------------------------------------------------------------
# Processes
# ---------------------------------------------------------------------------------------------------------


@dataclass
class Child:
    """A process this script started (stopped with SIGTERM by pid at the end)."""

    name: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_line(self, pattern: str, timeout: float = READY_TIMEOUT) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log.read_text(errors="replace") if self.log.exists() else ""
            match = re.search(pattern, text)
            if match:
                return match
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n{text[-3000:]}")
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} not ready within {timeout}s; log {self.log}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def spawn(name: str, argv: list[str], workdir: Path) -> Child:
    log = workdir / f"{name}.log"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with open(log, "wb") as handle:
        process = subprocess.Popen(
            argv, cwd=workdir, stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT, env=env
        )
    return Child(name, process, log)


def start_referee(
    url: str,
    workdir: Path,
    journal: Path,
    profile: Path | None,
    quick_ack: bool,
    shipped: bool = False,
    trace: Path | None = None,
) -> Child:
    argv = [sys.executable]
    if profile is not None:
        argv += ["-m", "cProfile", "-o", str(profile)]
    if quick_ack or trace is not None:  # the real CLI, patched first
        patches = ["quickack" if quick_ack else "-", str(trace or "-")]
        argv += [str(Path(__file__).resolve()), "patched-cli", *patches]
    else:
        argv += ["-m", "cockatrice_ext"]
    argv += [
        "bot",
        "run",
        url,
        "--user",
        "referee",
        "--room",
        ROOM,
        *(() if shipped else ("--relaxed-flood",)),
        "--format",
        "auction",
        "--journal",
        str(journal),
        "--auction-starting-gold",
        str(STARTING_GOLD),
        "--auction-seed",
        "7",
    ]
    child = spawn("referee", argv, workdir)
    child.wait_line(r"Ctrl-C stops")
    return child


def start_echo(host: str, port: int, room_id: int, workdir: Path, quick_ack: bool) -> tuple[Child, int]:
    argv = [sys.executable, str(Path(__file__).resolve()), "echo-bot", host, str(port), "echo", str(room_id)]
    argv += ["quickack"] if quick_ack else []
    child = spawn("echo", argv, workdir)
    match = child.wait_line(r"echo-bot ready game (\d+)")
    return child, int(match.group(1))


# ---------------------------------------------------------------------------------------------------------
# Scenario
# ---------------------------------------------------------------------------------------------------------


async def open_auction(room_id: int, host: Any, guest: Any, timeout: float = 30.0) -> AuctionTable:
    """Ask the referee for a game, seat both players, open the first lot; return the table."""
    from bot_players import wait_until

    mark = host.mark()
    await host.client.room_say(room_id, "!auction new 2")
    asked = f"asked by {host.name} ("  # several may be opened at once (--burst)
    line = await host.wait_line(
        lambda t: t.startswith("Auction Magic game #") and asked in t, since=mark, timeout=timeout
    )
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    seats = {await host.sit(room_id, game_id): host, await guest.sit(room_id, game_id): guest}
    await host.wait_line(lambda t: "Turn order" in t, since=mark, timeout=timeout)
    mirror = host.client.games[game_id]
    await wait_until(lambda: mirror.active_player_id in seats, timeout=timeout, what="a human's turn")
    active = seats[mirror.active_player_id]
    mark = active.mark()
    await active.phase(game_id, 2)
    line = await active.wait_line(lambda t: "Auction 1:" in t, since=mark, timeout=timeout)
    first = re.search(r"(\S+) to bid\.", line).group(1)  # type: ignore[union-attr]
    names = {host.name, guest.name}
    clocks = {p.name: p.clock for p in (host, guest)}
    (second,) = names - {first}
    return AuctionTable(game_id, clocks, first, second)


async def compare_with_echo(
    table: AuctionTable, echo_game: int, samples: int, warmup: int, pause: float
) -> tuple[list[float], list[float]]:
    """Alternate one referee bid and one echo line by the same player; return (referee, echo) samples.

    ``pause`` separates samples so each starts on quiet connections (as a human's next bid would):
    back to back, a sample can wait for the previous one's delayed TCP ACKs (see docs/benchmarks.md).
    """
    referee: list[float] = []
    echo: list[float] = []
    echo_amount = 1
    for index in range(warmup + samples):
        speaker = table.clocks[table.bidder]
        bid_latency = await table.bid()
        await asyncio.sleep(pause)
        echo_latency = await speaker.say_and_wait(echo_game, echo_amount)
        await asyncio.sleep(pause)
        echo_amount += 1
        if index >= warmup:
            referee.append(bid_latency)
            echo.append(echo_latency)
    return referee, echo


async def drive(table: AuctionTable, start_at: float, deadline: float, interval: float) -> None:
    """Bid every ``interval`` seconds (closed loop) until ``deadline``."""
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    next_at = start_at
    while time.perf_counter() < deadline:
        table.samples.append(await table.bid())
        next_at += interval
        delay = next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            next_at = time.perf_counter()  # fell behind: no catch-up burst


@dataclass
class PhaseResult:
    games: int
    stats: Stats
    wall: float
    cpu: dict[str, float]


async def concurrent_phase(
    tables: list[AuctionTable], interval: float, seconds: float, pids: dict[str, int]
) -> PhaseResult:
    for table in tables:
        table.samples.clear()
    # Warm up every table once so lazily built state does not land in the measurement.
    await asyncio.gather(*(table.bid() for table in tables))
    cpu_before = {name: proc_cpu_seconds(pid) for name, pid in pids.items()}
    began = time.perf_counter()
    deadline = began + seconds
    step = interval / len(tables)
    await asyncio.gather(
        *(drive(table, began + index * step, deadline, interval) for index, table in enumerate(tables))
    )
    wall = time.perf_counter() - began
    cpu = {name: proc_cpu_seconds(pid) - cpu_before[name] for name, pid in pids.items()}
    return PhaseResult(len(tables), Stats.of(s for t in tables for s in t.samples), wall, cpu)


BURST_ACK_TIMEOUT = 120.0
"""A bid during a burst may wait many seconds behind the burst's counted commands: measured, not failed."""
BURST_OPEN_TIMEOUT = 120.0
"""A burst game's opening steps wait for the referee's paced chat and game commands."""
BURST_TAIL = 3.0
"""Seconds the bidding goes on being measured after the burst's last game showed its first lot."""
BURST_GAP = 12.0
"""Quiet seconds before each phase: Servatrice's 10 s window (plus the client's margin) is empty again."""
SERVER_GAME_COMMAND = re.compile(
    r"^(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}) (\w+) game (\d+) player (\d+): \d+ bytes \[(Command_\w+)"
)
"""A game command in Servatrice's log (``writelog=1``): when (local time, to the second), the connection,
the game, the sender's player id, the command."""


@dataclass
class BurstPhase:
    """One measured stretch of the bidding game: alone, or while games are opened at once."""

    label: str
    began: float
    """Wall-clock time (``time.time()``) the phase began; it lasted ``seconds``."""
    seconds: float
    samples: list[float]
    game_ids: list[int] = field(default_factory=list)
    opened: list[float] = field(default_factory=list)
    """Per burst game: seconds from its ``!auction new 2`` to its first lot's line."""


@dataclass
class BurstReport:
    """What :func:`burst_phases` measured, printed once the server has written its log."""

    games: int
    interval_ms: float
    bidding_game: int
    phases: list[BurstPhase]


async def bid_until(table: AuctionTable, stop: asyncio.Event, interval: float) -> list[float]:
    """Bid every ``interval`` seconds (closed loop) until ``stop``; the latencies of the bids made."""
    samples: list[float] = []
    next_at = time.perf_counter()
    while not stop.is_set():
        samples.append(await table.bid(BURST_ACK_TIMEOUT))
        next_at += interval
        delay = next_at - time.perf_counter()
        if delay <= 0:
            next_at = time.perf_counter()  # fell behind: no catch-up burst
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)
    return samples


async def burst_phases(
    table: AuctionTable, room_id: int, waves: list[list[tuple[Any, Any]]], interval: float, seconds: float
) -> list[BurstPhase]:
    """The bidding game alone for ``seconds``, then once per wave while that wave's pairs of players (each
    its own client) open and start an auction game each, at the same moment, through the room (the host's
    ``!auction new 2``, both sit with a deck and ready, the first lot); after each wave's last first lot the
    bidding is measured ``BURST_TAIL`` s more. Each phase starts after ``BURST_GAP`` s of quiet."""
    phases: list[BurstPhase] = []
    await table.bid()  # warm up
    await asyncio.sleep(BURST_GAP)
    stop = asyncio.Event()
    began, wall = time.perf_counter(), time.time()
    asyncio.get_running_loop().call_later(seconds, stop.set)
    samples = await bid_until(table, stop, interval)
    phases.append(BurstPhase("alone", wall, time.perf_counter() - began, samples))

    async def opened(pair: tuple[Any, Any]) -> tuple[int, float]:
        asked = time.perf_counter()
        game = await open_auction(room_id, *pair, timeout=BURST_OPEN_TIMEOUT)
        return game.game_id, time.perf_counter() - asked

    for number, wave in enumerate(waves, 1):
        await asyncio.sleep(BURST_GAP)
        stop = asyncio.Event()
        began, wall = time.perf_counter(), time.time()
        bidding = asyncio.create_task(bid_until(table, stop, interval))
        games = await asyncio.gather(*(opened(pair) for pair in wave))
        await asyncio.sleep(BURST_TAIL)
        stop.set()
        samples = await bidding
        phase = BurstPhase(f"burst {number}", wall, time.perf_counter() - began, samples)
        phase.game_ids = [game_id for game_id, _ in games]
        phase.opened = [took for _, took in games]
        phases.append(phase)
    await asyncio.sleep(2.0)  # the log counts to the second: the referee's stop falls after the last phase
    return phases


@dataclass(frozen=True)
class LoggedCommand:
    """One game command as Servatrice logged it."""

    when: float
    """Wall-clock seconds, to the second (the log's resolution)."""
    connection: str
    game_id: int
    player_id: int
    name: str


def logged_game_commands(server_log: Path) -> list[LoggedCommand]:
    """Every game command in Servatrice's log (it runs with ``writelog=1``), in order."""
    from datetime import datetime

    logged = []
    for line in server_log.read_text(errors="replace").splitlines():
        match = SERVER_GAME_COMMAND.match(line)
        if match:
            when = datetime.strptime(match.group(1), "%a %b %d %H:%M:%S %Y").timestamp()  # local time
            logged.append(
                LoggedCommand(when, match.group(2), int(match.group(3)), int(match.group(4)), match.group(5))
            )
    return logged


def spent(logged: Iterable[LoggedCommand]) -> tuple[int, int, str]:
    """(counted, free, the counted ones by name) for Servatrice's game-command budget."""
    from cockatrice_ext.client.flood import WHITELISTED_GAME_COMMANDS

    names: dict[str, int] = {}
    free = 0
    for command in logged:
        if command.name in WHITELISTED_GAME_COMMANDS:
            free += 1
        else:
            names[command.name] = names.get(command.name, 0) + 1
    detail = ", ".join(f"{name.removeprefix('Command_')} {n}" for name, n in sorted(names.items()))
    return sum(names.values()), free, detail


def print_burst_report(report: BurstReport, server_log: Path, referee_log: Path) -> None:
    """The bidding game's acknowledgements alone and during each burst, and what the bursts spent."""
    print()
    print(
        f"3. one auction game bidding every {report.interval_ms:g} ms (closed loop) while {report.games}"
        f" pairs of players open and start {report.games} auction games at once (shipped limits;"
        " acknowledgement latency in ms as the bidder's client sees it)"
    )
    print(f"{'phase':<10}{'secs':>6}{'bids':>6}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}{'>100ms':>8}")
    everything: list[float] = []
    for phase in report.phases:
        stats = Stats.of(phase.samples)
        slow = sum(sample > 0.1 for sample in phase.samples)
        if phase.game_ids:
            everything += phase.samples
        print(
            f"{phase.label:<10}{phase.seconds:>6.1f}{stats.count:>6}{stats.median:>9.2f}{stats.p90:>9.2f}"
            f"{stats.p99:>9.2f}{stats.worst:>9.2f}{slow:>8}"
        )
    stats = Stats.of(everything)
    print(
        f"{'bursts':<10}{'':>6}{stats.count:>6}{stats.median:>9.2f}{stats.p90:>9.2f}{stats.p99:>9.2f}"
        f"{stats.worst:>9.2f}{sum(sample > 0.1 for sample in everything):>8}"
    )
    print()
    print(
        "what the referee's connection sent while each phase was measured (Servatrice's log, to the second;"
        " counted = against its 20 game commands per 10 s; a GameSay spends chat too)"
    )
    logged = logged_game_commands(server_log)
    referee = next(
        (c.connection for c in logged if c.game_id == report.bidding_game and c.player_id == 0), None
    )
    for phase in report.phases:
        window = [
            c
            for c in logged
            if c.connection == referee and int(phase.began) <= c.when <= phase.began + phase.seconds
        ]
        counted, free, detail = spent(c for c in window if c.game_id in phase.game_ids)
        total, total_free, _ = spent(window)
        line = f"{phase.label}: {total} counted, {total_free} free in all its games"
        if phase.game_ids:
            opened = sorted(phase.opened)
            games = ", #".join(map(str, phase.game_ids))
            line += (
                f"; in the burst's games #{games}: {counted} counted ({detail}), {free} free;"
                f" each game's first lot {opened[0]:.1f}-{opened[-1]:.1f} s after its"
                " !auction new"
            )
        print(line)
    refusals = [
        line for line in referee_log.read_text(errors="replace").splitlines() if "flood" in line.lower()
    ]
    print(f"flood lines in the referee's log: {len(refusals)}")
    for line in refusals[:5]:
        print(f"  {line[:200]}")


async def scenario(args: argparse.Namespace, server: Any, workdir: Path) -> BurstReport | None:
    from bot_players import Player

    counts = sorted({int(n) for n in args.games.split(",") if n.strip()})
    host, port = "127.0.0.1", server.tcp_port
    url = server.tcp_url
    started = time.perf_counter()
    load_at_start = os.getloadavg()[0]

    bots_quickack = args.quickack in ("bots", "all")
    if args.quickack in ("players", "all"):
        enable_client_quickack()
    journal = args.journal or workdir / "journal.sqlite3"
    trace = workdir / "stages.json" if args.trace_stages else None
    referee = start_referee(
        url, workdir, journal, args.profile_bot, bots_quickack, args.shipped_limits, trace=trace
    )
    children = [referee]
    players: list[Any] = []
    try:

        async def connect(name: str) -> Any:
            player = await Player.connect(url, name)
            player.clock = AckClock(player)
            await player.client.join_room(room_id)
            return player

        probe = await Player.connect(url, "probe")
        room_id = await probe.client.room_id_by_name(ROOM)
        await probe.close()

        echo, echo_game = start_echo(host, port, room_id, workdir, bots_quickack)
        children.append(echo)
        AckClock.echo_game = echo_game

        tables: list[AuctionTable] = []

        async def grow(target: int) -> None:
            """Open auction games (two new players each) until ``target`` exist."""
            while len(tables) < target:
                index = len(tables)
                pair = await asyncio.gather(connect(f"p{index:02d}a"), connect(f"p{index:02d}b"))
                players.extend(pair)
                tables.append(await open_auction(room_id, *pair))

        await grow(1)
        print(f"setup: referee and echo bot ready, first game open ({time.perf_counter() - started:.1f} s)")

        # 1. referee vs echo (relaxed limits only: the echo bot answers every bid in chat, which
        # Servatrice's shipped chat budget of ten messages per ten seconds cannot carry).
        if not args.shipped_limits:
            # 1. referee vs echo, same players, alternating; only these two games exist yet.
            first = tables[0]
            for name in (first.bidder, first.other):
                player = next(p for p in players if p.name == name)
                await player.client.join_game(room_id, echo_game)
            pids = {"referee": referee.pid, "echo": echo.pid}
            cpu_before = {k: proc_cpu_seconds(v) for k, v in pids.items()}
            referee_samples, echo_samples = await compare_with_echo(
                first, echo_game, args.samples, args.warmup, args.pause_ms / 1000
            )
            cpu_per_ack = {
                k: (proc_cpu_seconds(v) - cpu_before[k]) / (args.samples + args.warmup)
                for k, v in pids.items()
            }
            ref, ech = Stats.of(referee_samples), Stats.of(echo_samples)
            print()
            print(
                f"1. acknowledgement latency, one game each, alternating, {args.pause_ms:g} ms apart,"
                f" n={ref.count} each (ms)"
            )
            print(f"{'bot':<14}{'median':>8}{'p90':>8}{'p99':>8}{'max':>8}{'CPU/ack us':>12}")
            print(f"{'echo bot':<14}{ech.cells()}{cpu_per_ack['echo'] * 1e6:12.0f}")
            print(f"{'referee bot':<14}{ref.cells()}{cpu_per_ack['referee'] * 1e6:12.0f}")
            print(
                f"ratio referee/echo: median {ref.median / ech.median:.2f}x (aim <= 1.2x, issue 12),"
                f" p99 {ref.p99 / ech.p99:.2f}x; referee p99 {ref.p99:.2f} ms (aim < 5 ms)"
            )

        if args.burst:  # 3. one game bidding while others are opened at once
            waves: list[list[tuple[Any, Any]]] = []
            for wave in range(args.burst_rounds):
                pairs = []
                for index in range(args.burst):
                    pair = await asyncio.gather(connect(f"b{wave}g{index}a"), connect(f"b{wave}g{index}b"))
                    players.extend(pair)
                    pairs.append((pair[0], pair[1]))
                waves.append(pairs)
            interval = args.interval_ms / 1000
            phases = await burst_phases(tables[0], room_id, waves, interval, args.seconds)
            print(
                f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load average {load_at_start:.1f} at"
                f" start, {os.getloadavg()[0]:.1f} at end; total {time.perf_counter() - started:.0f} s"
            )
            return BurstReport(args.burst, args.interval_ms, tables[0].game_id, phases)

        # 2. N concurrent games, one referee process.
        pids = {"referee": referee.pid, "servatrice": server._process.pid, "players": os.getpid()}
        results = []
        for count in counts:
            await grow(count)  # exactly ``count`` auction games exist during the step
            interval = args.interval_ms / 1000
            results.append(await concurrent_phase(tables[:count], interval, args.seconds, pids))
        print()
        print(
            f"2. concurrent auction games, one referee process; each game bids every {args.interval_ms:g} ms"
            f" (closed loop), {args.seconds:g} s per step (latency in ms, CPU in % of one core)"
        )
        print(
            f"{'games':>5}{'bids':>7}{'bids/s':>8}{'median':>8}{'p90':>8}{'p99':>8}{'max':>8}"
            f"{'bot CPU s':>10}{'bot CPU%':>9}{'us/bid':>8}{'serv CPU%':>10}{'players CPU%':>13}"
        )
        for result in results:
            cpu = result.cpu
            print(
                f"{result.games:>5}{result.stats.count:>7}{result.stats.count / result.wall:>8.0f}"
                f"{result.stats.cells()}{cpu['referee']:>10.2f}{100 * cpu['referee'] / result.wall:>9.1f}"
                f"{1e6 * cpu['referee'] / max(1, result.stats.count):>8.0f}"
                f"{100 * cpu['servatrice'] / result.wall:>10.1f}{100 * cpu['players'] / result.wall:>13.1f}"
            )
        print()
        print(
            f"python {sys.version.split()[0]}, {os.cpu_count()} cpus,"
            f" load average {load_at_start:.1f} at start, {os.getloadavg()[0]:.1f} at end;"
            f" TCP_QUICKACK: {args.quickack}; server TCP_NODELAY: {'on' if args.server_nodelay else 'off'};"
            f" total {time.perf_counter() - started:.0f} s"
        )
        return None
    finally:
        for player in players:
            with contextlib.suppress(Exception):
                await player.close()
        for child in reversed(children):
            child.stop()


def print_profile(path: Path, limit: int = 30) -> None:
    import pstats

    print(f"\nreferee profile ({path}), top {limit} by internal time:")
    pstats.Stats(str(path)).sort_stats("tottime").print_stats(limit)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["echo-bot"]:
        host, port, user, room_id = argv[1], int(argv[2]), argv[3], int(argv[4])
        asyncio.run(run_echo_bot(host, port, user, room_id, argv[5:6] == ["quickack"]))
        return
    if argv[:1] == ["patched-cli"]:  # the referee: the real CLI with the experiments' patches
        from cockatrice_ext.cli import main as cli_main

        if argv[1] == "quickack":
            enable_client_quickack()
        if argv[2] != "-":
            enable_stage_trace(Path(argv[2]))
        sys.argv = ["cockatrice-ext", *argv[3:]]
        cli_main()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1000, help="referee/echo samples each (default 1000)")
    parser.add_argument("--warmup", type=int, default=50, help="unmeasured pairs first (default 50)")
    parser.add_argument(
        "--pause-ms", type=float, default=50.0, help="quiet time after each referee/echo sample (default 50)"
    )
    parser.add_argument("--games", default="1,10,50", help="concurrent game counts (default 1,10,50)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per concurrency step")
    parser.add_argument(
        "--interval-ms", type=float, default=100.0, help="one bid per game every this many ms (default 100)"
    )
    parser.add_argument(
        "--quickack",
        choices=("off", "bots", "players", "all"),
        default="off",
        help="experiment: these client sockets set TCP_QUICKACK after each read (bots = referee + echo bot)",
    )
    parser.add_argument(
        "--server-nodelay",
        action="store_true",
        help="experiment: LD_PRELOAD a shim so Servatrice's accepted sockets get TCP_NODELAY (needs cc)",
    )
    parser.add_argument(
        "--journal", type=Path, help="the referee's SQLite journal (default: in the work directory)"
    )
    parser.add_argument(
        "--shipped-limits",
        action="store_true",
        help="Servatrice's shipped flood limits (and the bot paces itself) instead of relaxed ones",
    )
    parser.add_argument(
        "--burst",
        type=int,
        default=0,
        metavar="N",
        help="instead of the concurrency steps: one game bids while N pairs of players open and start N"
        " auction games at once (implies --shipped-limits; --seconds is the time alone)",
    )
    parser.add_argument(
        "--burst-rounds", type=int, default=2, help="how many such bursts, each by new players (default 2)"
    )
    parser.add_argument("--profile-bot", type=Path, help="run the referee under cProfile, write stats here")
    parser.add_argument(
        "--trace-stages",
        action="store_true",
        help="timestamp the stages of each bid in the referee and print where its time goes",
    )
    parser.add_argument("--workdir", type=Path, help="keep logs here (default: a temporary directory)")
    args = parser.parse_args(argv)
    if args.burst:
        args.shipped_limits = True  # the burst is about Servatrice's game-command budget

    sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "bot")]
    from servatrice import ServatriceConfig, ServatriceServer, find_servatrice_binary

    binary = find_servatrice_binary()
    if binary is None:
        sys.exit("no servatrice binary: set SERVATRICE_BIN or put servatrice on PATH")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-bot-"))
    workdir.mkdir(parents=True, exist_ok=True)
    env: tuple[tuple[str, str], ...] = ()
    if args.server_nodelay:
        env = (("LD_PRELOAD", str(build_nodelay_shim(workdir))),)
    # Relaxed flood limits unless --shipped-limits; games never time out during the run.
    from servatrice import FloodLimits

    flood = FloodLimits.servatrice_defaults() if args.shipped_limits else FloodLimits.relaxed()
    config = ServatriceConfig(max_game_inactivity_time=3600, env=env, flood=flood)
    server = ServatriceServer(binary, workdir / "servatrice", config)
    server.start()
    try:
        burst = asyncio.run(scenario(args, server, workdir))
    finally:
        server.stop()
    if burst is not None:  # read once the server has written its log
        print_burst_report(burst, server.server_log, workdir / "referee.log")
    print(f"logs: {workdir}")
    if args.profile_bot is not None and args.profile_bot.exists():
        print_profile(args.profile_bot)
    if args.trace_stages and (workdir / "stages.json").exists():
        print_stage_trace(workdir / "stages.json", args.warmup)


if __name__ == "__main__":
    main()
