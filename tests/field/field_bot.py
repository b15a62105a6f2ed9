"""The referee bot as a user runs it: ``cockatrice-ext bot run tcp://... --user RefereeBot --room ...``."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
from pathlib import Path

from mariadb_server import MariaDB
from servatrice import FloodLimits, ServatriceConfig, ServatriceFactory, ServatriceServer

BOT_NAME = "RefereeBot"
ROOM = "Bot room"
SHIPPED = ServatriceConfig(
    flood=FloodLimits.servatrice_defaults(),
    max_games_per_user=5,
    allow_create_as_judge=False,
    max_users_per_address=4,
    idle_client_timeout=3600,
)
"""``servatrice.ini.example``'s security settings (auth none: nobody is registered or a judge; loopback is
on the shipped list of addresses that ``max_users_per_address`` leaves alone)."""


JUDGE_PASSWORD = "judge-secret"


def judge_server(factory: ServatriceFactory, mariadb: MariaDB) -> ServatriceServer:
    """The shipped security settings in SQL mode, with the referee's account registered at the judge
    level (its password: ``JUDGE_PASSWORD``); players log in unregistered."""
    mariadb.add_user(BOT_NAME, JUDGE_PASSWORD, level="judge")
    return factory.start(
        dataclasses.replace(
            SHIPPED, sql_ini=mariadb.servatrice_ini(), env=tuple(mariadb.servatrice_env().items())
        )
    )


class Referee:
    """``cockatrice-ext bot run`` as the README starts it, as a subprocess with its log in a file."""

    def __init__(self, server: ServatriceServer, workdir: Path, *extra: str, verbose: bool = False) -> None:
        self.server = server
        self.journal = workdir / "journal.sqlite3"
        self.log = workdir / "bot.log"
        self.extra = extra
        self.verbose = verbose
        """``cockatrice-ext -v``: the log holds INFO lines too (a chat line the server refused is one)."""
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "cockatrice_ext", *(["-v"] if self.verbose else [])]
        command += ["bot", "run", self.server.tcp_url]
        command += ["--user", BOT_NAME, "--room", ROOM, "--journal", str(self.journal), *self.extra]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ)
            )

    def kill9(self) -> None:
        """``kill -9``: no goodbye, no flush."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""
