"""``Journal.holds_records``: whether a journal ever recorded a game, league or note, as the bot asks when
its name is held by a session in its room (a journal with nothing in it is a second copy's, started by
mistake from another folder). The journal's own bookkeeping (versions, leases) is no record."""

from __future__ import annotations

from pathlib import Path

from journal_toys import CounterConfig, CounterEngine

from cockatrice_ext.journal import Journal, Table


def test_bookkeeping_is_no_record_but_a_note_or_a_table_is(tmp_path: Path) -> None:
    spec = str(tmp_path / "journal.sqlite3")
    journal = Journal(spec)
    try:
        assert journal.acquire("bot:journal", "copy-1", 60.0) is not None
        assert not journal.holds_records()
    finally:
        journal.close()
    again = Journal(spec)  # opened again: not new any more, still nothing recorded
    try:
        assert not again.new and not again.holds_records()
        again.put_note("lobby", {"waiting": ["ann"]})
        assert again.holds_records()
        again.drop_note("lobby")
        assert not again.holds_records()
        Table.create(again, "t", CounterEngine(CounterConfig(limit=5), seed=1), meta={})
        assert again.holds_records()
    finally:
        again.close()
