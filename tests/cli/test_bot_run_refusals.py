"""``bot run`` refuses what cannot work with one ``error:`` line and a non-zero exit, never a traceback:
a room that is not there, a web server instead of Servatrice, a missing or wrong password, a block or card
source that does not load, a dedicated flag outside its game option's range."""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from bot_process import assert_one_error_line
from click.testing import CliRunner
from servatrice import ServatriceConfig, ServatriceFactory, ServatriceServer

from cockatrice_ext.cli import main

NOWHERE = "ws://127.0.0.1:9/servatrice"  # refused at once: a start-up check must come first
PASSWORD_INI = "[authentication]\nmethod=password\npassword=sekrit\nregonly=false\n\n[database]\ntype=none"


def bot_run(url: str, tmp_path: Path, *args: str, password: str | None = None) -> tuple[int, str]:
    """``cockatrice-ext bot run URL --user refusal_ref ARGS`` in a process: its exit code and output."""
    env = {k: v for k, v in os.environ.items() if k != "COCKATRICE_PASSWORD"}
    if password is not None:
        env["COCKATRICE_PASSWORD"] = password
    command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", url, "--user", "refusal_ref"]
    command += ["--journal", str(tmp_path / "journal.sqlite3"), *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.servatrice
@pytest.mark.parametrize("room", ["No such room", "7"])
def test_a_room_that_is_not_there(servatrice: ServatriceServer, tmp_path: Path, room: str) -> None:
    code, output = bot_run(servatrice.tcp_url, tmp_path, "--room", room)
    line = assert_one_error_line(code, output, f"no room called {room!r}")
    assert all(name in line for name in servatrice.room_names)


class _Files(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def file_server(folder: Path) -> Iterator[int]:
    """``python -m http.server`` on a private loopback port."""
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0),
        lambda *a: _Files(*a, directory=str(folder)),  # type: ignore[misc]
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_web_server_instead_of_servatrice(tmp_path: Path) -> None:
    with file_server(tmp_path) as port:
        url = f"ws://127.0.0.1:{port}/servatrice"
        code, output = bot_run(url, tmp_path)
    assert_one_error_line(code, output, f"cannot run the bot on {url}", "not a Servatrice WebSocket endpoint")


@pytest.mark.servatrice
def test_a_password_server(servatrice_factory: ServatriceFactory, tmp_path: Path) -> None:
    server = servatrice_factory.start(ServatriceConfig(sql_ini=PASSWORD_INI))
    code, output = bot_run(server.ws_url, tmp_path)
    assert_one_error_line(
        code, output, "the server needs a password: give --password or set COCKATRICE_PASSWORD"
    )
    code, output = bot_run(server.ws_url, tmp_path, password="guess")
    line = assert_one_error_line(code, output, "wrong password for refusal_ref")
    assert "Resp" not in line


@pytest.mark.parametrize(
    ("args", "hint", "message"),
    [
        (("--auction-block", "nosuch"), "--auction-block", "no bundled block 'nosuch'"),
        (("--card-source", "nosuch.xml"), "--card-source", "nosuch.xml: no such file or folder"),
        (("--bid-timeout", "-3"), "--bid-timeout", "timer=-3: expected a whole number from 10 to 3600"),
        (("--bid-timeout", "5"), "--bid-timeout", "timer=5: expected a whole number from 10 to 3600"),
        (
            ("--auction-starting-gold", "-1"),
            "--auction-starting-gold",
            "gold=-1: expected a whole number from 0",
        ),
        (
            ("--bid-timeout", "60", "--option", "auction.timer=30"),
            "--bid-timeout",
            "the same as --option auction.timer",
        ),
    ],
)
def test_start_up_refuses_what_would_fail_later(
    tmp_path: Path, args: tuple[str, ...], hint: str, message: str
) -> None:
    """Refused before connecting (the URL leads nowhere) and before the journal is created."""
    journal = tmp_path / "journal.sqlite3"
    result = CliRunner().invoke(
        main, ["bot", "run", NOWHERE, "--user", "ref", "--journal", str(journal), *args]
    )
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and hint in errors[0] and message in errors[0], result.output
    assert not journal.exists()


def test_a_url_of_no_known_scheme(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    result = CliRunner().invoke(main, ["bot", "run", "http://x", "--user", "ref", "--journal", str(journal)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert "unsupported scheme 'http'" in result.output and not journal.exists()


def test_an_explicit_block_file_that_does_not_resolve(tmp_path: Path) -> None:
    block = tmp_path / "mine.txt"
    block.write_text("1 Llanowar Elves\n1 No Such Card Anywhere\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["bot", "run", NOWHERE, "--user", "ref", "--auction-block", str(block)])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "'No Such Card Anywhere'" in errors[0], result.output
    assert "\n  " not in result.output.split("error: ", 1)[1]


def test_the_dedicated_flags_say_which_option_they_are() -> None:
    result = CliRunner().invoke(main, ["bot", "run", "--help"], terminal_width=200)
    text = " ".join(result.output.split())
    assert "same as --option auction.timer" in text and "same as --option auction.gold" in text


@pytest.mark.servatrice
def test_the_dedicated_flags_set_the_room_defaults(servatrice: ServatriceServer, tmp_path: Path) -> None:
    from bot_process import ask_in_room, bot_process

    flags = ("--format", "auction", "--bid-timeout", "45", "--auction-starting-gold", "25")
    with bot_process(servatrice.ws_url, "flag_referee", tmp_path / "journal.sqlite3", *flags):
        (rules,) = asyncio.run(
            ask_in_room(servatrice.ws_url, "flag_player", "flag_referee", ["!auction rules"])
        )
    assert "timer=10-3600|off[45]" in rules and "gold=0-10000000[25]" in rules
