"""Reports open the journal for reading only, so they work on read-only media; ``bot run`` says a read-only
journal is read-only; an empty journal's chart list says there is nothing yet.

Seen in the field: on a read-only mount ``stats prices`` and ``stats chart tables`` said "is not a
cockatrice-ext journal (unable to open database file)"; ``stats chart tables`` on an empty journal printed
nothing at all.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.cli import main
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.journal import Journal, Table

IMP = CardFacts(name="Chimney Imp", mana_value=5, types=("Creature",), power="2", toughness="2")
KEY = "tcp://127.0.0.1:4747:game:3"


def journal_with_a_sale(path: Path) -> Path:
    journal = Journal(path)
    config = rules.AuctionConfig(players=(1, 2), cards=(IMP, IMP), shuffle_block=False)
    table = Table.create(journal, KEY, rules.AuctionEngine(config, seed=1), meta={"format": "auction"})
    for action in (
        rules.BeginTurn(player=None, active=1),
        rules.StartAuctionStep(player=None),
        rules.Bid(player=1, amount=2),
        rules.Pass(player=2),
    ):
        table.apply(action)
    journal.close()  # a clean close: no log or shared-memory file is left beside it
    return path


def _chattr(flag: str, path: Path) -> Callable[[], None]:
    done = subprocess.run(["chattr", flag, str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"as root, a folder is read-only only when immutable, and chattr fails: {done.stderr}")
    return lambda: subprocess.run(["chattr", "-i", str(path)], check=True)


@contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """``folder`` (and so what SQLite would create beside a journal in it) cannot be written, as on a
    read-only mount; as root, by making it immutable."""
    if os.geteuid() == 0:
        undo = _chattr("+i", folder)
    else:
        folder.chmod(0o555)

        def undo() -> None:
            folder.chmod(0o755)

    try:
        yield
    finally:
        undo()


def test_reports_work_from_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "media"
    folder.mkdir()
    path = journal_with_a_sale(folder / "journal.sqlite3")
    before = path.read_bytes()
    runner = CliRunner()
    with read_only_folder(folder):
        prices = runner.invoke(main, ["stats", "prices", "--journal", str(path)])
        tables = runner.invoke(main, ["stats", "chart", "tables", "--journal", str(path)])
        gold = runner.invoke(
            main, ["stats", "chart", "gold", "3", "--journal", str(path), "-o", str(tmp_path / "g.svg")]
        )
    assert prices.exit_code == 0, prices.output
    assert "Chimney Imp" in prices.output
    assert tables.exit_code == 0 and tables.output.startswith(f"{KEY}  auction  open"), tables.output
    assert gold.exit_code == 0 and b"<svg" in (tmp_path / "g.svg").read_bytes(), gold.output
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["journal.sqlite3"]


def test_the_chart_list_of_an_empty_journal_says_there_is_nothing_yet(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    result = CliRunner().invoke(main, ["stats", "chart", "tables", "--journal", str(path)])
    assert result.exit_code == 0
    assert result.output.startswith("nothing recorded yet"), result.output


def test_bot_run_on_a_journal_in_a_read_only_folder_says_it_is_read_only(tmp_path: Path) -> None:
    folder = tmp_path / "media"
    folder.mkdir()
    path = journal_with_a_sale(folder / "journal.sqlite3")
    command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", "ws://127.0.0.1:9/servatrice"]
    with read_only_folder(folder):
        done = subprocess.run(
            [*command, "--user", "ro_ref", "--journal", str(path), "--format", "auction"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode != 0
    errors = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("error:")]
    assert len(errors) == 1, done.stdout + done.stderr
    assert f"the journal {path} cannot be written: its folder {folder} is read-only" in errors[0]
