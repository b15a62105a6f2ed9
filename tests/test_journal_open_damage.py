"""Opening an SQLite journal whose files an operator damaged: a deleted ``-wal`` (its ``-shm`` left) and a
corrupt main file are each one :class:`JournalError` saying what is wrong and what to do next (``bot run``
prints it as its one ``error:`` line), never a silent start without the latest moves nor a raw driver error.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from journal_toys import Add, CounterConfig, CounterEngine

from cockatrice_ext.journal import Journal, JournalError, Table


@pytest.fixture
def copied_while_open(tmp_path: Path) -> Iterator[Path]:
    """A journal's three files as a process killed with the journal open leaves them (the main file, its
    ``-wal`` holding the moves, its ``-shm``), copied while the writer holds it: table ``t``, total 5."""
    live = tmp_path / "live" / "journal.sqlite3"
    live.parent.mkdir()
    journal = Journal(str(live))
    table = Table.create(journal, "t", CounterEngine(CounterConfig(limit=50), seed=1), meta={"room_id": 1})
    table.apply(Add(player=1, amount=2))
    table.apply(Add(player=2, amount=3))
    copy = tmp_path / "copy" / "journal.sqlite3"
    copy.parent.mkdir()
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(f"{live}{suffix}", f"{copy}{suffix}")
    yield copy
    journal.close()


def test_a_killed_writers_files_open_with_every_move(copied_while_open: Path) -> None:
    """The files a ``kill -9`` leaves (log and index both there) open as always, nothing lost."""
    journal = Journal(str(copied_while_open))
    try:
        table = Table.restore(journal, "t")
        assert table.engine.total == 5  # type: ignore[attr-defined]
    finally:
        journal.close()


def test_a_deleted_log_beside_its_index_is_refused_with_the_next_step(copied_while_open: Path) -> None:
    """``-wal`` deleted, ``-shm`` left: refused before SQLite touches anything (it would open the main file
    alone without the moves the log held, or fail later as a disk error), both ways out named."""
    spec = str(copied_while_open)
    Path(f"{spec}-wal").unlink()
    before = copied_while_open.read_bytes()
    with pytest.raises(JournalError) as refused:
        Journal(spec)
    assert str(refused.value) == (
        f"the journal's log file {spec}-wal is missing while {spec}-shm exists: its most recent moves may be"
        f" lost; put the -wal file back, or remove {spec}-shm to start from the main file alone"
    )
    assert Path(f"{spec}-shm").exists() and copied_while_open.read_bytes() == before  # left as found
    with pytest.raises(JournalError, match="is missing while"):  # reports too: they would read stale moves
        Journal(spec, read_only=True)


def test_removing_the_index_as_told_opens_the_main_file_alone(copied_while_open: Path) -> None:
    """The operator's second way out works: without ``-shm`` the main file opens (what it holds)."""
    spec = str(copied_while_open)
    Path(f"{spec}-wal").unlink()
    Path(f"{spec}-shm").unlink()
    Journal(spec).close()


def test_a_cleanly_closed_journal_and_one_read_by_a_report_open(tmp_path: Path) -> None:
    """No false alarm: a closed journal (no log, no index) and one a report read (it leaves both) open."""
    spec = str(tmp_path / "journal.sqlite3")
    journal = Journal(spec)
    Table.create(journal, "t", CounterEngine(CounterConfig(limit=50), seed=1), meta={})
    journal.close()
    assert not Path(f"{spec}-shm").exists()
    report = Journal(spec, read_only=True)
    report.open_tables()
    report.close()
    Journal(spec).close()


def corrupt(path: Path) -> None:
    """Overwrite the start of every page but the first, as a failing disk or a copy cut short would."""
    data = bytearray(path.read_bytes())
    for offset in range(4096, len(data), 4096):
        data[offset : offset + 100] = b"\xff" * 100
    path.write_bytes(data)


def test_a_corrupt_journal_says_how_to_get_its_record_back(tmp_path: Path) -> None:
    """``database disk image is malformed`` comes with the next step: a backup, or SQLite's ``.recover``
    into a new file (the command given works on the path as given)."""
    path = tmp_path / "my journal.sqlite3"
    journal = Journal(str(path))
    Table.create(journal, "t", CounterEngine(CounterConfig(limit=50), seed=1), meta={})
    journal.close()
    corrupt(path)
    with pytest.raises(JournalError) as refused:
        Journal(str(path))
    text = str(refused.value)
    assert text.startswith(
        f"cannot open the journal {path}: database disk image is malformed; restore a backup"
    )
    assert f"sqlite3 '{path}' '.recover' | sqlite3 '{path}.recovered'" in text
    assert "\n" not in text


def test_bot_run_says_the_missing_log_in_one_error_line(copied_while_open: Path) -> None:
    """``bot run`` stops on its one ``error:`` line before connecting anywhere."""
    spec = str(copied_while_open)
    Path(f"{spec}-wal").unlink()
    command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", "ws://127.0.0.1:9/servatrice"]
    result = subprocess.run(
        [*command, "--user", "RefereeBot", "--journal", spec], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"error: the journal's log file {spec}-wal is missing while {spec}-shm exists: its most recent moves"
        f" may be lost; put the -wal file back, or remove {spec}-shm to start from the main file alone"
    ]
