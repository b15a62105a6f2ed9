"""A journal names the versions of cockatrice-ext that wrote it, and a rollback says so.

Seen in an operator's smoke test (upgrading and rolling back between commits): the version never changed
from 0.1.0, so nothing told which release wrote a journal, and an older release opened a journal a newer one
had written without a word. Every journal case runs on SQLite and on a real PostgreSQL (skipped with the
reason when it is absent).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import test_journal
from journal_toys import Add, CounterConfig, CounterEngine
from postgres_server import postgres_fixture, postgres_url_fixture  # noqa: F401  (fixtures)

import cockatrice_ext
from cockatrice_ext import journal as journal_module
from cockatrice_ext.journal import WRITERS_NOTE, Journal, Table, open_database

spec = test_journal.spec  # an SQLite file, or a fresh PostgreSQL database
ROOT = Path(__file__).resolve().parent.parent
NOWHERE = "ws://127.0.0.1:9/servatrice"  # refused at once: the start-up warnings come before it


def open_as(spec: str, version: str, monkeypatch: pytest.MonkeyPatch, **options: bool) -> Journal:
    """The journal at ``spec`` opened by cockatrice-ext ``version``."""
    with monkeypatch.context() as patch:
        patch.setattr(journal_module, "__version__", version)
        return Journal(spec, **options)


def reopened_as(spec: str, version: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """``(last_written_by, written_by_newer)`` as ``version`` finds them on opening the journal."""
    journal = open_as(spec, version, monkeypatch)
    try:
        return journal.last_written_by, journal.written_by_newer
    finally:
        journal.close()


def stored_note(spec: str) -> str | None:
    database = open_database(spec)
    try:
        row = database.execute("SELECT value FROM notes WHERE key=?", (WRITERS_NOTE,)).fetchone()
        return None if row is None else str(row[0])
    finally:
        database.close()


def store_note(spec: str, value: str) -> None:
    database = open_database(spec)
    try:
        database.execute("UPDATE notes SET value=? WHERE key=?", (value, WRITERS_NOTE))
    finally:
        database.close()


def test_the_version_changed_and_the_changelog_says_what_it_brings() -> None:
    """The version journals record: one source (pyproject reads the package's), a section in the changelog."""
    assert cockatrice_ext.__version__ != "0.1.0"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "cockatrice_ext.__version__"}
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## \[{re.escape(cockatrice_ext.__version__)}\]", changelog, re.MULTILINE)


def test_a_rollback_is_seen_and_the_journal_still_works(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """0.10.0 wrote the journal, then 0.9.0 opens it: it goes on (same schema) but says 0.10.0 wrote it,
    compared by numbers (as text, "0.9.0" > "0.10.0"); again at every later start until an upgrade."""
    newer = open_as(spec, "0.10.0", monkeypatch)
    assert (newer.last_written_by, newer.written_by_newer) == ("", "")  # a new journal
    Table.create(newer, "s:game:1", CounterEngine(CounterConfig(), seed=1)).apply(Add(player=1, amount=2))
    newer.close()

    older = open_as(spec, "0.9.0", monkeypatch)
    try:
        assert (older.last_written_by, older.written_by_newer) == ("0.10.0", "0.10.0")
        table = Table.restore(older, "s:game:1")  # not refused: the schema check refuses what cannot be read
        table.apply(Add(player=2, amount=3))
        assert older.restore("s:game:1").snapshot() == {"total": 5}
    finally:
        older.close()
    assert reopened_as(spec, "0.9.0", monkeypatch) == ("0.9.0", "0.10.0")  # the highest is kept
    assert reopened_as(spec, "0.10.0", monkeypatch) == ("0.9.0", "")  # upgraded: nothing to say
    assert reopened_as(spec, "0.10.1", monkeypatch) == ("0.10.0", "")
    assert reopened_as(spec, "0.10.0", monkeypatch) == ("0.10.1", "0.10.1")


def test_the_same_or_an_older_writer_is_not_warned_of(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    open_as(spec, "0.2.0", monkeypatch).close()
    assert reopened_as(spec, "0.2.0", monkeypatch) == ("0.2.0", "")
    assert reopened_as(spec, "0.2", monkeypatch) == ("0.2.0", "")  # the same numbers
    assert reopened_as(spec, "0.3.0rc1", monkeypatch) == ("0.2", "")
    assert reopened_as(spec, "0.3.0", monkeypatch) == ("0.3.0rc1", "")  # a suffix does not make it newer


def test_the_running_version_is_recorded(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    Journal(spec).close()
    assert reopened_as(spec, cockatrice_ext.__version__, monkeypatch) == (cockatrice_ext.__version__, "")


@pytest.mark.parametrize(
    ("stored", "newer"),
    [
        ("not json {", ""),
        ('["0.9.0"]', ""),
        ('"0.9.0"', ""),
        ('{"last": 5, "highest": null}', ""),
        ('{"last": "banana", "highest": "2026-01-01"}', ""),
        ('{"highest": "' + "9" * 5000 + '"}', ""),
        ('{"last": "junk", "highest": "1.0.0\\u0000<b>x"}', "1.0.0"),  # shown up to its first odd character
        ('{"last": "0.30.0", "highest": "junk", "more": [1]}', "0.30.0"),  # the last writer counts too
    ],
)
def test_junk_in_the_stored_versions_is_tolerated(
    spec: str, monkeypatch: pytest.MonkeyPatch, stored: str, newer: str
) -> None:
    open_as(spec, "0.4.0", monkeypatch).close()
    store_note(spec, stored)
    assert reopened_as(spec, "0.4.0", monkeypatch)[1] == newer
    assert reopened_as(spec, "0.4.0", monkeypatch) == ("0.4.0", newer)  # rewritten as versions
    assert stored_note(spec) != stored


def test_other_fields_of_the_note_are_kept(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A newer version may note more than these two: an older one updating the note keeps the rest."""
    open_as(spec, "0.4.0", monkeypatch).close()
    store_note(spec, '{"last": "0.5.0", "highest": "0.5.0", "schema_hint": {"a": 1}}')
    assert reopened_as(spec, "0.4.0", monkeypatch) == ("0.5.0", "0.5.0")
    assert '"schema_hint": {"a": 1}' in (stored_note(spec) or "")


def test_reading_only_sees_a_newer_writer_and_writes_nothing(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_as(spec, "0.10.0", monkeypatch).close()
    before = stored_note(spec)
    reader = open_as(spec, "0.9.0", monkeypatch, read_only=True)
    try:
        assert (reader.last_written_by, reader.written_by_newer) == ("0.10.0", "0.10.0")
    finally:
        reader.close()
    assert stored_note(spec) == before


def test_the_note_is_the_journals_own(spec: str) -> None:
    """Listing notes (a league's lobbies, a web view's links) never shows it, and no caller replaces it."""
    journal = Journal(spec)
    try:
        journal.put_note("srv:lobby:1", {"members": []})
        assert list(journal.notes()) == ["srv:lobby:1"]
        assert journal.notes("journal:") == {}
        with pytest.raises(ValueError, match="journal's own"):
            journal.put_note(WRITERS_NOTE, {"last": "9.9.9"})
    finally:
        journal.close()


# -- bot run says it at start ----------------------------------------------------------------------------


def bot_run(journal: Path) -> str:
    command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", NOWHERE, "--user", "rolled_back_ref"]
    done = subprocess.run(
        [*command, "--journal", str(journal), "--format", "auction"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=journal.parent,
    )
    return done.stdout + done.stderr


def test_bot_run_warns_once_of_a_journal_a_newer_version_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite3"
    open_as(str(path), "999.0.0", monkeypatch).close()
    output = bot_run(path)
    warnings = [line for line in output.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: this journal was last written by cockatrice-ext 999.0.0, newer than this"
        f" {cockatrice_ext.__version__}: tables whose rules changed may not replay; upgrade"
    ], output
    output = bot_run(path)  # the highest stays, though this version wrote it last
    assert "was written by cockatrice-ext 999.0.0, newer than this" in output, output


def test_bot_run_says_nothing_of_a_journal_this_version_wrote(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    output = bot_run(path)
    assert "newer than this" not in output, output
