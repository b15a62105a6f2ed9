"""A journal error names its table by its internal key for the operator's log, and has a text for players
without it (they know the game as "game #1", which the bot names).

Seen in the field: a room was told "game #1's record cannot be replayed (table 'tcp://127.0.0.1:48400:game:1'
action 4 (EndTurn) replays differently ...)".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from journal_toys import Add, CounterConfig, CounterEngine

from cockatrice_ext.journal import Journal, JournalError, Table

KEY = "tcp://127.0.0.1:48400:game:1"


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    opened = Journal(tmp_path / "journal.sqlite3")
    table = Table.create(opened, KEY, CounterEngine(CounterConfig(limit=50), seed=1))
    table.apply(Add(player=1, amount=2))
    table.apply(Add(player=2, amount=3), action_id="second")
    return opened


def public(exc: JournalError) -> str:
    text = getattr(exc, "public", None)
    assert isinstance(text, str), "a journal error has no text for players"
    return text


def test_a_record_that_replays_differently_is_told_without_its_key(journal: Journal) -> None:
    journal._db.execute(
        "UPDATE actions SET effects=? WHERE table_key=? AND seq=2", ('[{"type": "Added", "total": 6}]', KEY)
    )
    with pytest.raises(JournalError) as refused:
        Table.restore(journal, KEY)
    assert str(refused.value).startswith(f"table {KEY!r} action 2 (Add) replays differently")  # the log's
    told = public(refused.value)
    assert told.startswith("action 2 (Add) replays differently from what was recorded"), told
    assert "tcp://" not in told and "game:1" not in told


@pytest.mark.parametrize(
    ("sql", "value", "told"),
    [
        (
            "UPDATE actions SET action=? WHERE table_key=? AND seq=2",
            "not json",
            "action 2: its action cannot",
        ),
        ("UPDATE tables SET config=? WHERE key=?", "{", "its config cannot be read (not JSON"),
        ("UPDATE tables SET engine=? WHERE key=?", "nosuch", "names an unknown engine 'nosuch'"),
    ],
)
def test_a_damaged_record_is_told_without_its_key(journal: Journal, sql: str, value: str, told: str) -> None:
    journal._db.execute(sql, (value, KEY))
    with pytest.raises(JournalError) as refused:
        Table.restore(journal, KEY)
    assert KEY in str(refused.value)
    assert public(refused.value).startswith(told) and KEY not in public(refused.value)


def test_a_missing_record_and_a_retried_action_are_told_without_their_key(journal: Journal) -> None:
    with pytest.raises(JournalError) as missing:
        journal.table_meta(KEY + "0")
    assert f"no table {KEY + '0'!r}" == str(missing.value)
    assert public(missing.value) == "the journal has no record of it"
    table = Table.restore(journal, KEY)
    with pytest.raises(JournalError) as again:
        table.apply(Add(player=2, amount=1), action_id="second")
    assert KEY in str(again.value) and KEY not in public(again.value)


def test_an_action_the_rules_now_refuse_is_told_by_its_code_without_its_details(journal: Journal) -> None:
    """A refusal's details may name cards hidden from some players (a hand's candidates): players hear its
    code; the operator's log has it whole."""
    (stored,) = journal._db.execute(
        "SELECT action FROM actions WHERE table_key=? AND seq=2", (KEY,)
    ).fetchone()
    journal._db.execute(
        "UPDATE actions SET action=? WHERE table_key=? AND seq=2",
        (stored.replace('"amount": 3', '"amount": 99'), KEY),
    )
    with pytest.raises(JournalError) as refused:
        Table.restore(journal, KEY)
    assert "limit" in str(refused.value) and "50" in str(refused.value)  # the log's: the details
    told = public(refused.value)
    assert told.startswith("action 2 no longer applies: over_limit"), told
    assert "50" not in told and "tcp://" not in told
