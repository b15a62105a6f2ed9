"""A throw-away PostgreSQL server for the journal's PostgreSQL backend.

Starts the OS package's ``postgres`` on a private loopback port with its data (and its Unix socket)
in a fresh temporary folder, trust authentication, and no other listener. PostgreSQL refuses to run
as root, so under root the folder is handed to the ``postgres`` account (else ``nobody``) and the
programs run as that user. ``PostgreSQL.database()`` makes one empty database per test.

Everything here skips cleanly (``PostgresUnavailable``) when the programs or psycopg are missing.
Fixtures: ``postgres`` (one server per session) and ``postgres_url`` (a fresh database per test);
a test module imports them (``from postgres_server import postgres_fixture, postgres_url_fixture``).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

SUPERUSER = "journal"


class PostgresUnavailable(RuntimeError):
    """PostgreSQL's programs or the psycopg driver are missing, or the server would not start."""


def find_program(name: str) -> str:
    """``name`` on PATH, else in the newest /usr/lib/postgresql/*/bin (Debian keeps initdb there)."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    if versions:
        return versions[-1]
    raise PostgresUnavailable(f"{name} not found (install the postgresql package)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run_as() -> pwd.struct_passwd | None:
    """The account to run PostgreSQL as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PostgresUnavailable("running as root and neither a 'postgres' nor a 'nobody' account exists")


@dataclass
class PostgreSQL:
    """One private PostgreSQL server; ``settings`` are extra ``-c`` options (e.g. ``fsync=off``)."""

    settings: dict[str, str] = field(default_factory=dict)
    port: int = 0
    workdir: Path | None = None
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _numbers: Iterator[int] = field(default_factory=itertools.count, repr=False)

    def start(self) -> None:
        try:
            import psycopg
        except ImportError as exc:
            raise PostgresUnavailable("psycopg is not installed (pip install '.[postgres]')") from exc
        initdb, server = find_program("initdb"), find_program("postgres")
        account = _run_as()
        self.workdir = Path(tempfile.mkdtemp(prefix="cockatrice-ext-pg-"))  # not under pytest's 0700 root
        data = self.workdir / "data"
        user_args: dict[str, int] = {}
        if account is not None:
            os.chown(self.workdir, account.pw_uid, account.pw_gid)
            user_args = {"user": account.pw_uid, "group": account.pw_gid}
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        done = subprocess.run(
            [initdb, "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-sync"],
            capture_output=True,
            env=env,
            cwd=self.workdir,
            **user_args,  # type: ignore[arg-type]
        )
        if done.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {done.stderr.decode(errors='replace').strip()[-300:]}")
        self.port = free_port()
        options = {
            "listen_addresses": "127.0.0.1",
            "port": str(self.port),
            "unix_socket_directories": str(self.workdir),
            "max_connections": "100",
            **self.settings,
        }
        args = [server, "-D", str(data)]
        for name, value in options.items():
            args += ["-c", f"{name}={value}"]
        log = (self.workdir / "postgres.log").open("wb")
        self.process = subprocess.Popen(
            args,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=self.workdir,
            **user_args,  # type: ignore[arg-type]
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    tail = (self.workdir / "postgres.log").read_text(errors="replace")[-500:]
                    self.stop()
                    raise PostgresUnavailable(f"postgres did not start: {tail}") from None
                time.sleep(0.1)

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = f"journal_{next(self._numbers)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)


def start_or_skip(**settings: str) -> PostgreSQL:
    """A started server, or a pytest skip saying why there is none."""
    server = PostgreSQL(settings=settings)
    try:
        server.start()
    except PostgresUnavailable as exc:
        pytest.skip(f"PostgreSQL journal tests need PostgreSQL: {exc}")
    return server


@pytest.fixture(scope="session", name="postgres")
def postgres_fixture() -> Iterator[PostgreSQL]:
    """One private PostgreSQL for the session (durability off: tests, not benchmarks)."""
    server = start_or_skip(fsync="off", synchronous_commit="off", full_page_writes="off")
    yield server
    server.stop()


@pytest.fixture(name="postgres_url")
def postgres_url_fixture(postgres: PostgreSQL) -> str:
    """The URL of a fresh, empty database on the session's PostgreSQL."""
    return postgres.database()
