"""A damaged journal record (hand-edited, a bad disk, a copy cut short) is a table that cannot be replayed:
one :class:`JournalError` naming the table and what is wrong, the record kept, nothing named by it imported.

The bot says such an error as ``game #N's record cannot be replayed (...); it is kept``; any other
exception would be reported as a fault of the referee's own. Both backends, as in ``test_journal.py``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from journal_toys import Add, CounterConfig, CounterEngine
from postgres_server import postgres_fixture, postgres_url_fixture  # noqa: F401  (fixtures)

from cockatrice_ext.journal import Journal, JournalError, Table, open_database


@pytest.fixture(params=["sqlite", "postgresql"])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a journal lives: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "journal.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def played(spec: str) -> Iterator[Journal]:
    """A journal holding table ``t``: two actions played, total 5."""
    journal = Journal(spec)
    table = Table.create(journal, "t", CounterEngine(CounterConfig(limit=50), seed=1), meta={"room_id": 1})
    table.apply(Add(player=1, amount=2))
    table.apply(Add(player=2, amount=3))
    yield journal
    journal.close()


def damage(spec: str, statement: str, value: Any) -> None:
    """Change the record behind the journal's back, as a hand edit or a bad disk would."""
    database = open_database(spec)
    database.execute(statement, (value,))
    database.close()


SECOND_ACTION = "UPDATE actions SET action=? WHERE table_key='t' AND seq=2"
SECOND_EFFECTS = "UPDATE actions SET effects=? WHERE table_key='t' AND seq=2"
DEEP = "[" * 100_000 + "]" * 100_000

DAMAGED_RECORDS = {
    "action not JSON": (SECOND_ACTION, "not json", r"action 2: its action cannot be read \(not JSON: "),
    "action not an object": (
        SECOND_ACTION,
        "[1, 2]",
        r"action 2: its action cannot be read \(not a JSON object",
    ),
    "action of an unknown type": (
        SECOND_ACTION,
        '{"type": "Nope", "player": 1}',
        r"action 2: its action has an unknown type 'Nope'",
    ),
    "action without a type": (
        SECOND_ACTION,
        '{"player": 1}',
        r"action 2: its action has an unknown type None",
    ),
    "a field of the wrong type": (
        SECOND_ACTION,
        '{"type": "Add", "player": 1, "amount": "lots"}',
        r"action 2: its action cannot be read \(TypeError: ",
    ),
    "effects nested 100,000 deep": (
        SECOND_EFFECTS,
        DEEP,
        r"action 2: its effects cannot be read \(nested too deeply",
    ),
    "effects not a list": (
        SECOND_EFFECTS,
        '{"a": 1}',
        r"action 2: its effects cannot be read \(not a JSON list",
    ),
    "config not JSON": ("UPDATE tables SET config=? WHERE key='t'", "{", r": its config cannot be read"),
    "config nested too deeply": (
        "UPDATE tables SET config=? WHERE key='t'",
        DEEP,
        r": its config cannot be read \(nested too deeply",
    ),
    "config of the wrong shape": (
        "UPDATE tables SET config=? WHERE key='t'",
        '{"limit": 50, "names": 7}',
        r": its config or seed cannot be read \(TypeError: ",
    ),
    "unknown engine": (
        "UPDATE tables SET engine=? WHERE key='t'",
        "os.system",
        r"unknown engine 'os.system'",
    ),
    "a formats module that is no engine": (
        "UPDATE tables SET engine=? WHERE key='t'",
        "league",
        r"unknown engine 'league'",
    ),
}


@pytest.mark.parametrize("damaged", DAMAGED_RECORDS, ids=list(DAMAGED_RECORDS))
def test_a_damaged_record_cannot_be_replayed_and_is_kept(
    spec: str, played: Journal, damaged: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    statement, value, reason = DAMAGED_RECORDS[damaged]
    damage(spec, statement, value)

    def no_import(name: str, package: str | None = None) -> Any:
        raise AssertionError(f"a journal record made the journal import {name!r}")

    monkeypatch.setattr(importlib, "import_module", no_import)
    for replay in (lambda: Table.restore(played, "t"), lambda: played.restore("t")):
        with pytest.raises(JournalError, match=r"^table 't'.*" + reason) as refused:
            replay()
        message = str(refused.value)
        assert "\n" not in message and len(message) < 300, message
    assert played.open_tables() == ["t"] and played.has_table("t")  # kept as it is


def test_a_formats_engine_not_yet_imported_is_found_by_its_name(spec: str) -> None:
    """The fixed registry: a table of a format whose module nobody imported yet still replays."""
    from cockatrice_ext.formats.base import ENGINES
    from cockatrice_ext.journal import engine_class

    vortex = engine_class("vortex", "t")
    assert ENGINES["vortex"] is vortex and vortex.name == "vortex"


@pytest.mark.parametrize("damaged", ["action not JSON", "effects nested 100,000 deep", "effects not a list"])
def test_reading_the_entries_of_a_damaged_record_is_a_journal_error(
    spec: str, played: Journal, damaged: str
) -> None:
    """Reports and views read ``entries`` without replaying: the same one-line error, not a decoder's."""
    statement, value, reason = DAMAGED_RECORDS[damaged]
    damage(spec, statement, value)
    for entries in (lambda: list(played.entries("t")), lambda: list(played.entries())):
        with pytest.raises(JournalError, match=reason):
            entries()


@pytest.mark.parametrize("meta", ["not json", "[1]", DEEP], ids=["not JSON", "a list", "nested 100,000 deep"])
def test_damaged_table_meta_is_a_journal_error(spec: str, played: Journal, meta: str) -> None:
    damage(spec, "UPDATE tables SET meta=? WHERE key='t'", meta)
    with pytest.raises(JournalError, match=r"^table 't': its meta cannot be read \("):
        played.table_meta("t")


def test_an_undamaged_table_still_replays(played: Journal) -> None:
    assert Table.restore(played, "t").engine.snapshot() == {"total": 5}


BOT_DAMAGES = {
    "action not JSON": ("UPDATE actions SET action='not json' WHERE table_key=? AND seq=1", "its action"),
    "effects nested 100,000 deep": (
        f"UPDATE actions SET effects='{DEEP}' WHERE table_key=? AND seq=1",
        "nested too deeply",
    ),
    "engine os.system": ("UPDATE tables SET engine='os.system' WHERE key=?", "unknown engine 'os.system'"),
    "meta not JSON": ("UPDATE tables SET meta='{' WHERE key=?", "its meta"),
}


@pytest.mark.parametrize("damaged", BOT_DAMAGES, ids=list(BOT_DAMAGES))
def test_the_bot_says_a_damaged_game_cannot_be_replayed_not_that_it_failed(
    tmp_path: Path, damaged: str
) -> None:
    """What the smoke test saw: a restarted bot blamed a damaged record on a fault of its own. The room is
    told the record cannot be replayed and is kept (the runtime's words for a :class:`JournalError`)."""
    import asyncio

    from cockatrice_ext.bot.blocks import load_block
    from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
    from cockatrice_ext.web.demo import demo_bot, seat_game

    game, room = 12, 1
    statement, reason = BOT_DAMAGES[damaged]
    journal_path = tmp_path / "journal.sqlite3"

    async def run() -> list[tuple[Any, str]]:
        chat: list[tuple[Any, str]] = []

        async def send(destination: Any, message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(journal_path, send)
        seat_game(bot, game, ["alice", "bob"])
        referee = VortexReferee(
            bot, game, room, VortexOptions(seed=5), load_block("vortex-pool", sections=None)
        )
        bot.adopt_game(referee)
        await referee.start_engine()
        await bot.chat.flush(timeout=5)
        chat.clear()
        bot.forget_game(game)  # as after a restart: the journal is all that is left
        damage(str(journal_path), statement, referee.table_key)
        await bot.resume_game(game, room)
        await bot.chat.flush(timeout=5)
        assert game not in bot.games
        return chat

    ((destination, line),) = asyncio.run(run())
    assert destination == ("room", room)
    assert line.startswith(f"game #{game}'s record cannot be replayed ("), line
    assert ":game:" not in line  # players know the game by its number, not by its journal key
    assert reason in line and line.endswith("it is kept, and nothing was changed"), line
