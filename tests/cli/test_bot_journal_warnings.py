"""``bot run`` warns at start when its journal holds open games of another server address, and ``--help``
says where the default journal is.

Seen in the field: a bot restarted with ``ws://localhost:P2/servatrice`` instead of the ``tcp://127.0.0.1:P``
it played with (or from another folder, with a new journal there) resumed none of its games, and nothing
said why.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from journal_toys import CounterConfig, CounterEngine

from cockatrice_ext.cli import main
from cockatrice_ext.journal import Journal, Table

NOWHERE = "ws://127.0.0.1:9/servatrice"  # refused at once: the start-up warning comes before it
PLAYED_WITH = "tcp://127.0.0.1:9"


def bot_run(journal: Path, url: str = NOWHERE) -> str:
    command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", url, "--user", "warned_ref"]
    done = subprocess.run(
        [*command, "--journal", str(journal), "--format", "auction"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=journal.parent,
    )
    return done.stdout + done.stderr


def journal_of(path: Path, *keys: str) -> Path:
    journal = Journal(path)
    for key in keys:
        Table.create(journal, key, CounterEngine(CounterConfig(), seed=1))
    journal.close()
    return path


def test_open_games_of_another_server_address_are_named_once(tmp_path: Path) -> None:
    journal = journal_of(
        tmp_path / "journal.sqlite3",
        f"{PLAYED_WITH}:game:3",
        f"{PLAYED_WITH}:game:4",
        f"{PLAYED_WITH}:league:1:market:2",
        f"{NOWHERE}:game:8",
    )
    output = bot_run(journal)
    warnings = [line for line in output.splitlines() if "WARNING" in line and "another server" in line]
    assert len(warnings) == 1, output
    (line,) = warnings
    assert f"{PLAYED_WITH} (game #3, game #4, league #2)" in line, line
    assert "game #8" not in line and str(journal.absolute()) in line
    assert "start the bot with that URL" in line


def test_a_journal_of_this_server_address_only_is_not_warned_of(tmp_path: Path) -> None:
    output = bot_run(journal_of(tmp_path / "journal.sqlite3", f"{NOWHERE}:game:8"))
    assert "another server" not in output, output


def test_help_says_the_default_journal_is_in_the_current_folder() -> None:
    result = CliRunner().invoke(main, ["bot", "run", "--help"], terminal_width=200)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "default is in the current folder" in text, text
