"""The flood gate never lets a schedule exceed Servatrice's windows, and does not over-delay."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.client.backoff import backoff
from cockatrice_ext.client.flood import (
    Cost,
    FloodError,
    FloodGate,
    FloodLimits,
    chat_cost,
    game_command_cost,
    split_chat,
)


def test_costs() -> None:
    assert game_command_cost("Command_MoveCard").is_free
    assert game_command_cost("Command_IncCounter").is_free
    assert game_command_cost("Command_CreateCounter") == Cost(game_commands=1)
    assert game_command_cost("Command_Judge") == Cost(game_commands=1)
    assert game_command_cost("Command_GameSay", message="héllo") == Cost(1, 1, 6)
    assert chat_cost("abc") == Cost(0, 1, 3)


def test_gate_paces_game_commands() -> None:
    gate = FloodGate(FloodLimits(game_commands=3, margin=1.0))
    one = Cost(game_commands=1)
    for t in (0.0, 0.1, 0.2):
        assert gate.delay(one, t) == 0.0
        gate.record(one, t)
    # The 4th must wait until the first leaves the 10 + 1 s window.
    assert gate.delay(one, 0.3) == pytest.approx(10.7, abs=1e-5)
    assert gate.delay(one, 11.0) == 0.0
    assert gate.delay(Cost(), 0.3) == 0.0  # free commands never wait


def test_gate_rejects_impossible_containers() -> None:
    gate = FloodGate()
    with pytest.raises(FloodError):
        gate.delay(Cost(game_commands=21), 0)
    with pytest.raises(FloodError):
        gate.delay(chat_cost("x" * 1001), 0)


def test_unlimited() -> None:
    gate = FloodGate(FloodLimits.unlimited())
    for t in range(100):
        assert gate.delay(Cost(5, 5, 5000), float(t)) == 0.0
        gate.record(Cost(5, 5, 5000), float(t))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0, 3, allow_nan=False),
            st.integers(0, 4),
            st.integers(0, 2),
            st.integers(0, 400),
        ),
        max_size=60,
    )
)
def test_schedule_respects_every_server_window(requests: list[tuple[float, int, int, int]]) -> None:
    """Simulate the server's window (10 s) over the gate's schedule: no window ever overflows."""
    limits = FloodLimits(chat_messages=10, chat_chars=1000, game_commands=20, margin=0.0)
    gate = FloodGate(limits)
    now = 0.0
    sent: list[tuple[float, Cost]] = []
    for gap, commands, messages, chars in requests:
        cost = Cost(commands, messages, chars if messages else 0)
        now += gap
        wait = gate.delay(cost, now)
        assert wait >= 0
        now += wait
        assert gate.delay(cost, now) == 0.0
        gate.record(cost, now)
        sent.append((now, cost))
    for start, _ in sent:
        window = [c for t, c in sent if start <= t < start + 10.0]
        total = sum(window, Cost())
        assert total.game_commands <= 20 and total.chat_messages <= 10 and total.chat_chars <= 1000


def test_split_chat() -> None:
    text = "word " * 500
    pieces = split_chat(text, 300)
    assert all(len(p.encode()) <= 300 for p in pieces)
    assert " ".join(pieces).split() == text.split()
    assert split_chat("ééé", 2) == ["é", "é", "é"]
    assert split_chat("", 10) == [""]


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=600), st.integers(1, 200))
def test_split_chat_bounds(text: str, limit: int) -> None:
    pieces = split_chat(text, limit)
    for piece in pieces:
        assert len(piece.encode("utf-8")) <= max(limit, 4)


def test_backoff_grows_and_caps() -> None:
    delays = backoff(initial_delay=1, factor=2, max_delay=8, jitter=0.0)
    assert [next(delays) for _ in range(6)] == [1, 2, 4, 8, 8, 8]
    jittered = backoff(initial_delay=1, max_delay=4, jitter=0.5, rng=random.Random(1))
    values = [next(jittered) for _ in range(5)]
    assert all(base <= v <= base * 1.5 for v, base in zip(values, [1, 2, 4, 4, 4], strict=True))
    with pytest.raises(ValueError):
        next(backoff(factor=0.5))


def test_a_refusal_lowers_the_budgets_it_spent_and_waits_a_whole_interval() -> None:
    """The server refused what the gate let through: its limits are stricter. The chat budgets go down to
    three quarters, the game-command budget (not spent) stays, and nothing more is said for a whole
    window (the server counted the refused message too)."""
    gate = FloodGate(FloodLimits(chat_messages=8, chat_chars=1000, margin=1.0))
    line = chat_cost("x" * 50)
    gate.record(line, 0.0)
    limits = gate.refused(line, 0.0)
    assert (limits.chat_messages, limits.chat_chars, limits.game_commands) == (6, 750, 20)
    assert gate.delay(line, 0.5) == pytest.approx(10.5, abs=1e-5)
    assert gate.delay(Cost(game_commands=1), 0.5) == 0.0
    assert gate.delay(line, 11.0) == 0.0


def test_refusals_of_commands_sent_before_the_last_lowering_change_nothing() -> None:
    """Commands already on their way when the first refusal came are refused with it: counting each
    would take the budget far below the server's."""
    gate = FloodGate(FloodLimits(margin=0.0))
    roll = Cost(game_commands=1)
    for sent in (0.0, 0.1, 0.2):
        gate.record(roll, sent)
    first = gate.refused(roll, 0.5, sent_at=0.0)
    assert first.game_commands == 15
    assert gate.refused(roll, 0.6, sent_at=0.1) == first
    assert gate.refused(roll, 0.7, sent_at=0.2) == first
    assert gate.refused(roll, 20.0, sent_at=15.0).game_commands == 11  # sent at the lowered pace


def test_a_first_refusal_paces_by_what_the_server_let_through() -> None:
    """A server at 4 game commands per 10 s refuses the fifth: from then on the gate paces at 4 (one less
    than what it let through in the server's interval), not at three quarters of 20. Each further refusal
    would block every game command of the connection, the card moves and notes Servatrice does not count
    too, until the window empties."""
    gate = FloodGate(FloodLimits(margin=1.0))
    roll = Cost(game_commands=1)
    for sent in (0.0, 0.1, 0.2, 0.3, 0.4):
        gate.record(roll, sent)
    assert gate.refused(roll, 0.5, sent_at=0.4).game_commands == 4
    say = FloodGate(FloodLimits(margin=1.0))  # a game chat line counts on both budgets: either refused it
    line = game_command_cost("Command_GameSay", message="z" * 10)
    for sent in (0.0, 0.1, 0.2, 0.3, 0.4):
        say.record(line, sent)
    limits = say.refused(line, 0.5, sent_at=0.4)
    assert (limits.chat_messages, limits.chat_chars, limits.game_commands) == (7, 750, 15)
    old = FloodGate(FloodLimits(margin=1.0))
    old.record(roll, 0.0)  # only the refused command in the window: nothing to learn from, three quarters
    assert old.refused(roll, 0.5, sent_at=0.0).game_commands == 15


def test_repeated_refusals_never_lower_a_budget_below_what_the_command_needs() -> None:
    gate = FloodGate(FloodLimits(margin=0.0))
    line = chat_cost("y" * 400)
    for n in range(20):
        limits = gate.refused(line, float(n * 100))
    assert (limits.chat_messages, limits.chat_chars) == (1, 400)
    assert gate.delay(line, 2000.0) == 0.0  # it still fits a quiet window


def test_a_refusal_with_pacing_off_paces_by_the_shipped_limits() -> None:
    """``--relaxed-flood`` on a server that does enforce limits: the gate takes Servatrice's shipped
    budgets (and margin) for what was refused."""
    gate = FloodGate(FloodLimits.unlimited())
    limits = gate.refused(game_command_cost("Command_GameSay", message="hi"), 0.0)
    shipped = FloodLimits()
    assert (limits.chat_messages, limits.chat_chars, limits.game_commands, limits.margin) == (
        shipped.chat_messages,
        shipped.chat_chars,
        shipped.game_commands,
        shipped.margin,
    )
    assert gate.delay(chat_cost("hi"), 1.0) == pytest.approx(10.0, abs=1e-5)
