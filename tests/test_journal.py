"""The journal records accepted actions only, and replays them into an identical engine."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.formats.base import (
    ENGINES,
    Action,
    Effect,
    Engine,
    RulesError,
    decode_action,
    encode_action,
    register,
)
from cockatrice_ext.journal import Journal, JournalError, Table


@dataclass(frozen=True)
class CounterConfig:
    limit: int = 10
    names: tuple[str, ...] = ("a", "b")


@dataclass(frozen=True)
class Add(Action):
    amount: int = 1


@dataclass(frozen=True)
class Roll(Action):
    pass


@dataclass(frozen=True)
class Added(Effect):
    player: int | str | None
    total: int


class CounterEngine(Engine[CounterConfig]):
    """A toy engine: players add to a bounded total; Roll adds a random amount."""

    name = "test-counter"
    config_type = CounterConfig
    action_types = (Add, Roll)

    def __init__(self, config: CounterConfig, *, seed: int) -> None:
        super().__init__(config, seed=seed)
        self.total = 0

    def apply(self, action: Action) -> list[Effect]:
        if isinstance(action, Roll):
            amount = self.rng.randint(0, 2)
        elif isinstance(action, Add):
            amount = action.amount
        else:
            raise RulesError("unknown_action")
        if self.total + amount > self.config.limit:
            raise RulesError("over_limit", limit=self.config.limit)
        self.total += amount
        return [Added(action.player, self.total)]

    def snapshot(self) -> dict[str, Any]:
        return {"total": self.total}


register(CounterEngine)


def test_refused_actions_leave_no_trace() -> None:
    journal = Journal(":memory:")
    table = Table.create(journal, "t1", CounterEngine(CounterConfig(limit=3), seed=1))
    table.apply(Add(player=1, amount=2))
    with pytest.raises(RulesError) as info:
        table.apply(Add(player=2, amount=5))
    assert info.value.code == "over_limit"
    assert [e.seq for e in journal.entries("t1")] == [1]
    assert journal.restore("t1").snapshot() == {"total": 2}


def test_effects_are_stored_for_reports() -> None:
    journal = Journal(":memory:")
    table = Table.create(journal, "t1", CounterEngine(CounterConfig(), seed=1), meta={"room": 1})
    table.apply(Add(player="alice", amount=4))
    (entry,) = journal.entries(engine="test-counter")
    assert entry.effects == [{"type": "Added", "player": "alice", "total": 4}]
    assert journal.table_meta("t1") == {"room": 1}


def test_restore_survives_reopening_the_file(tmp_path: Any) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    table = Table.create(journal, "g", CounterEngine(CounterConfig(limit=50), seed=7))
    for _ in range(10):
        table.apply(Roll(player=None))
    journal.close()
    again = Journal(path)
    assert again.open_tables() == ["g"]
    assert again.restore("g").snapshot() == table.engine.snapshot()
    again.close_table("g")
    assert again.open_tables() == []


def test_unknown_table_is_a_clear_error() -> None:
    with pytest.raises(JournalError, match="no table"):
        Journal(":memory:").restore("nope")


def test_config_round_trips_tuples() -> None:
    journal = Journal(":memory:")
    Table.create(journal, "t", CounterEngine(CounterConfig(names=("x", "y", "z")), seed=3))
    assert journal.restore("t").config == CounterConfig(names=("x", "y", "z"))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    moves=st.lists(st.one_of(st.integers(0, 4), st.none()), max_size=30),
)
def test_replay_equals_live_state(seed: int, moves: list[int | None]) -> None:
    """Includes refused random actions: the toy engine draws before it refuses, and Table undoes that."""
    journal = Journal(":memory:")
    table = Table.create(journal, "t", CounterEngine(CounterConfig(limit=20), seed=seed))
    for move in moves:
        action: Action = Roll(player=None) if move is None else Add(player=1, amount=move)
        with contextlib.suppress(RulesError):
            table.apply(action)
    assert journal.restore("t").snapshot() == table.engine.snapshot()


def test_action_codec_round_trip() -> None:
    action = Add(player="bob", amount=3)
    assert decode_action(CounterEngine, encode_action(action)) == action
    assert "test-counter" in ENGINES
