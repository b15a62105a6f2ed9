"""Run a real Servatrice on loopback for integration tests.

The binary is found through ``$SERVATRICE_BIN``, else ``servatrice`` on ``PATH``; without one the
``servatrice`` fixtures skip with a clear reason. Each server gets a generated ini (auth ``none``,
database ``none``, rooms from config), ephemeral loopback ports for TCP and WebSocket, and its console
log captured to a file in its working directory (printed on failure by the fixtures' ``describe()``).

Knobs: flood limits (``FloodLimits.servatrice_defaults()`` vs ``FloodLimits.relaxed()``), idle timeouts,
and ``restart()`` on the same ports (for the reconnect test).

Usage from any ``tests/`` sub-folder (the fixtures are exported by ``tests/conftest.py``)::

    @pytest.mark.servatrice
    def test_something(servatrice: ServatriceServer) -> None:
        url = servatrice.ws_url      # or servatrice.tcp_url
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest


def find_servatrice_binary() -> str | None:
    """Return the Servatrice binary to use, or None if there is none."""
    env = os.environ.get("SERVATRICE_BIN")
    if env:
        return env if os.access(env, os.X_OK) else None
    return shutil.which("servatrice")


@functools.cache
def servatrice_version(binary: str) -> str:
    """The version ``binary --version`` prints ("2.10.3 ()" of "Servatrice 2.10.3 ()"), "" if unread."""
    try:
        out = subprocess.run(
            [binary, "--version"],
            capture_output=True,
            text=True,
            timeout=20,
            env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return (out.stdout + out.stderr).strip().removeprefix("Servatrice").strip()


def shares_deck_lists(binary: str) -> bool:
    """Whether this Servatrice's games can share deck lists, judged as the bot judges the version its
    server announces (:attr:`~cockatrice_ext.client.client.ServerInfo.shares_deck_lists`)."""
    from cockatrice_ext.client.client import ServerInfo

    return ServerInfo("", servatrice_version(binary), 14).shares_deck_lists


def skip_reason() -> str:
    """Why the servatrice tests cannot run here."""
    return (
        "no Servatrice binary: set SERVATRICE_BIN to a built servatrice "
        "(built from Cockatrice's sources, see README) or put servatrice on PATH"
    )


@dataclasses.dataclass(frozen=True)
class FloodLimits:
    """Servatrice's ``[security]`` anti-flood settings (windows in seconds)."""

    message_counting_interval: int = 10
    max_message_count_per_interval: int = 10
    max_message_size_per_interval: int = 1000
    command_counting_interval: int = 10
    max_command_count_per_interval: int = 20

    @classmethod
    def servatrice_defaults(cls) -> FloodLimits:
        """The values of ``servatrice.ini.example`` (the strictest shipped defaults)."""
        return cls()

    @classmethod
    def relaxed(cls) -> FloodLimits:
        """Limits no test will reach."""
        return cls(10, 100000, 10000000, 10, 100000)


@dataclasses.dataclass(frozen=True)
class RoomConfig:
    """One configured room; rooms get ids 0..n-1 in order."""

    name: str
    description: str = "test room"
    game_types: tuple[str, ...] = ("Variant",)
    join_message: str = "Welcome to the test room"
    chat_history_size: int = 20


DEFAULT_ROOMS = (
    RoomConfig("Bot room", game_types=("Auction", "Vortex")),
    RoomConfig("Second room", game_types=("Constructed",)),
)


@dataclasses.dataclass(frozen=True)
class ServatriceConfig:
    """What goes into the generated ini."""

    server_name: str = "cockatrice-ext test server"
    rooms: Sequence[RoomConfig] = DEFAULT_ROOMS
    flood: FloodLimits = dataclasses.field(default_factory=FloodLimits.relaxed)
    idle_client_timeout: int = 0
    max_player_inactivity_time: int = 15
    max_game_inactivity_time: int = 120
    allow_create_as_judge: bool = True
    max_games_per_user: int = -1
    max_users_per_address: int = 0
    sql_ini: str = ""
    """Replaces the ``[authentication]``/``[database]`` sections (SQL mode, see tests/mariadb_server.py)."""
    env: tuple[tuple[str, str], ...] = ()
    """Extra environment for the process (e.g. ``MYSQL_UNIX_PORT``)."""


def _ini_quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_ini(config: ServatriceConfig, *, tcp_port: int, ws_port: int, log_file: Path) -> str:
    """Return the text of a Servatrice ini for ``config`` on loopback."""
    flood = config.flood
    lines = [
        "[server]",
        f"name={_ini_quote(config.server_name)}",
        "id=1",
        "host=127.0.0.1",
        f"port={tcp_port}",
        "number_pools=1",
        "websocket_number_pools=1",
        "websocket_host=127.0.0.1",
        f"websocket_port={ws_port}",
        "statusupdate=15000",
        "writelog=1",
        f"logfile={_ini_quote(str(log_file))}",
        "clientkeepalive=1",
        f"max_player_inactivity_time={config.max_player_inactivity_time}",
        "requireclientid=false",
        'requiredfeatures=""',
        f"idleclienttimeout={config.idle_client_timeout}",
        "",
        *(
            config.sql_ini.splitlines()
            if config.sql_ini
            else ["[authentication]", "method=none", "regonly=false", "", "[database]", "type=none"]
        ),
        "",
        "[rooms]",
        "method=config",
        f"roomlist\\size={len(config.rooms)}",
    ]
    for index, room in enumerate(config.rooms, start=1):
        prefix = f"roomlist\\{index}\\"
        lines += [
            f"{prefix}name={_ini_quote(room.name)}",
            f"{prefix}description={_ini_quote(room.description)}",
            f"{prefix}permissionlevel=none",
            f"{prefix}privilegelevel=none",
            f"{prefix}autojoin=true",
            f"{prefix}joinmessage={_ini_quote(room.join_message)}",
            f"{prefix}chathistorysize={room.chat_history_size}",
            f"{prefix}game_types\\size={len(room.game_types)}",
        ]
        for type_index, type_name in enumerate(room.game_types, start=1):
            lines.append(f"{prefix}game_types\\{type_index}\\name={_ini_quote(type_name)}")
    lines += [
        "",
        "[game]",
        f"max_game_inactivity_time={config.max_game_inactivity_time}",
        "store_replays=false",
        f"allow_create_as_judge={'true' if config.allow_create_as_judge else 'false'}",
        "",
        "[security]",
        "enable_max_user_limit=false",
        f"max_users_per_address={config.max_users_per_address}",
        'trusted_sources="127.0.0.1,::1"',
        f"message_counting_interval={flood.message_counting_interval}",
        f"max_message_size_per_interval={flood.max_message_size_per_interval}",
        f"max_message_count_per_interval={flood.max_message_count_per_interval}",
        f"max_games_per_user={config.max_games_per_user}",
        f"command_counting_interval={flood.command_counting_interval}",
        f"max_command_count_per_interval={flood.max_command_count_per_interval}",
        "",
        "[servernetwork]",
        "active=0",
        "",
        "[logging]",
        "enablelogquery=false",
        "",
        "[audit]",
        "enable_audit=false",
        "",
    ]
    return "\n".join(lines)


def free_port() -> int:
    """An unused loopback TCP port (racy by nature, good enough for tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _die_with_parent() -> None:
    """In the child: ask Linux to SIGTERM us when the test process dies (no orphaned servers)."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _port_accepts(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
        return True
    return False


class ServatriceError(RuntimeError):
    """The test server could not be started."""


class ServatriceServer:
    """One real Servatrice process on loopback (start/stop/restart on the same ports)."""

    def __init__(
        self,
        binary: str,
        workdir: Path,
        config: ServatriceConfig | None = None,
        *,
        start_timeout: float = 20.0,
    ) -> None:
        self.binary = binary
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.config = config or ServatriceConfig()
        self.start_timeout = start_timeout
        self.tcp_port = free_port()
        self.ws_port = free_port()
        while self.ws_port == self.tcp_port:
            self.ws_port = free_port()
        self.ini_path = self.workdir / "servatrice.ini"
        self.console_log = self.workdir / "console.log"
        self.server_log = self.workdir / "server.log"
        self._process: subprocess.Popen[bytes] | None = None
        self._log_handle: object | None = None
        self.starts = 0

    # -- addresses ---------------------------------------------------------------------------------

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def tcp_url(self) -> str:
        return f"tcp://127.0.0.1:{self.tcp_port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.ws_port}/servatrice"

    def url(self, transport: str) -> str:
        """``tcp_url`` or ``ws_url`` by name ("tcp" or "ws")."""
        return self.tcp_url if transport == "tcp" else self.ws_url

    @property
    def room_names(self) -> list[str]:
        return [room.name for room in self.config.rooms]

    # -- lifecycle ---------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Write the ini, start the process, and wait until both ports accept connections.

        On Linux the server gets SIGTERM when the thread that started it exits (no orphans if pytest is
        killed), so call this from a long-lived thread such as the main one, not a worker thread.
        """
        if self.running:
            return
        self.ini_path.write_text(
            render_ini(self.config, tcp_port=self.tcp_port, ws_port=self.ws_port, log_file=self.server_log),
            encoding="utf-8",
        )
        env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "PORT")}
        env["HOME"] = str(self.workdir)
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        env.update(dict(self.config.env))
        log = open(self.console_log, "ab")  # noqa: SIM115 - closed in stop()
        log.write(f"\n===== start #{self.starts + 1} =====\n".encode())
        log.flush()
        self._log_handle = log
        self._process = subprocess.Popen(
            [self.binary, "--config", str(self.ini_path), "--log-to-console"],
            cwd=self.workdir,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        self.starts += 1
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                self._close_log()
                raise ServatriceError(
                    f"servatrice exited with {self._process.returncode}; log:\n{self.log_tail()}"
                )
            if _port_accepts(self.tcp_port) and _port_accepts(self.ws_port):
                return
            time.sleep(0.05)
        self.stop()
        raise ServatriceError(
            f"servatrice did not listen within {self.start_timeout}s; log:\n{self.log_tail()}"
        )

    def stop(self, timeout: float = 10.0) -> None:
        """Terminate the process (SIGTERM, then SIGKILL) and wait for it."""
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout)
        self._process = None
        self._close_log()

    def restart(self, *, down_for: float = 0.0) -> None:
        """Stop and start again on the same ports (all sessions and games are lost)."""
        self.stop()
        if down_for:
            time.sleep(down_for)
        deadline = time.monotonic() + 10
        while (_port_accepts(self.tcp_port) or _port_accepts(self.ws_port)) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.start()

    def _close_log(self) -> None:
        handle = self._log_handle
        self._log_handle = None
        if handle is not None:
            handle.close()  # type: ignore[attr-defined]

    def log_tail(self, lines: int = 60) -> str:
        """The last lines of the console log, for failure messages."""
        try:
            text = self.console_log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def describe(self) -> str:
        return f"servatrice tcp={self.tcp_port} ws={self.ws_port} dir={self.workdir}"

    def __enter__(self) -> ServatriceServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def running_servatrice(workdir: Path, config: ServatriceConfig | None = None) -> Iterator[ServatriceServer]:
    """Start a server for a ``with`` block, or skip the test if no binary is available."""
    binary = find_servatrice_binary()
    if binary is None:
        pytest.skip(skip_reason())
    server = ServatriceServer(binary, workdir, config)
    try:
        server.start()
    except ServatriceError as exc:
        pytest.fail(str(exc))
    try:
        yield server
    finally:
        server.stop()


# -- pytest fixtures (re-exported by tests/conftest.py) ---------------------------------------------


@pytest.fixture(scope="session")
def servatrice_binary() -> str:
    """Path of the Servatrice binary, or skip."""
    binary = find_servatrice_binary()
    if binary is None:
        pytest.skip(skip_reason())
    return binary


@pytest.fixture(scope="session")
def servatrice(
    tmp_path_factory: pytest.TempPathFactory, servatrice_binary: str
) -> Iterator[ServatriceServer]:
    """A session-wide server with relaxed flood limits (share it; do not restart it)."""
    with running_servatrice(tmp_path_factory.mktemp("servatrice")) as server:
        yield server


@pytest.fixture
def servatrice_factory(
    tmp_path_factory: pytest.TempPathFactory, servatrice_binary: str
) -> Iterator[ServatriceFactory]:
    """Start private servers with custom configs; all are stopped at the end of the test."""
    factory = ServatriceFactory(servatrice_binary, tmp_path_factory)
    try:
        yield factory
    finally:
        factory.stop_all()


@pytest.fixture
def servatrice_strict(servatrice_factory: ServatriceFactory) -> ServatriceServer:
    """A private server with Servatrice's shipped (strict) flood limits."""
    return servatrice_factory.start(ServatriceConfig(flood=FloodLimits.servatrice_defaults()))


class ServatriceFactory:
    """Starts servers on demand for one test."""

    def __init__(self, binary: str, tmp_path_factory: pytest.TempPathFactory) -> None:
        self.binary = binary
        self.tmp_path_factory = tmp_path_factory
        self.servers: list[ServatriceServer] = []

    def start(self, config: ServatriceConfig | None = None) -> ServatriceServer:
        server = ServatriceServer(self.binary, self.tmp_path_factory.mktemp("servatrice"), config)
        self.servers.append(server)
        try:
            server.start()
        except ServatriceError as exc:
            pytest.fail(str(exc))
        return server

    def stop_all(self) -> None:
        for server in self.servers:
            server.stop()
