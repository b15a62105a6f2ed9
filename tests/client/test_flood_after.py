"""``FloodGate.delay_after``: the wait of one cost after another spent now, the window modelled exactly."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.client.flood import Cost, FloodGate, FloodLimits, chat_cost

LIMITS = FloodLimits(chat_messages=4, chat_chars=100, game_commands=3, margin=1.0)
COSTS = st.builds(Cost, st.integers(0, 3), st.integers(0, 4), st.integers(0, 100))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(COSTS, st.floats(0, 5)), max_size=12),
    COSTS,
    COSTS,
    st.floats(0, 12),
)
def test_it_is_the_delay_the_gate_gives_once_the_first_is_recorded(
    spent: list[tuple[Cost, float]], first: Cost, then: Cost, pause: float
) -> None:
    """Whatever the window holds (messages, characters, game commands, some already expired): the answer is
    what :meth:`FloodGate.delay` says after :meth:`FloodGate.record` of ``first`` now, and nothing is
    recorded by asking."""
    gate = FloodGate(LIMITS)
    at = 0.0
    for cost, gap in spent:
        at += gap
        gate.record(cost, at)
    now = at + pause
    usage = gate.usage(now)
    sent = copy.deepcopy(gate)
    sent.record(first, now)
    assert gate.delay_after(first, then, now) == sent.delay(then, now)
    assert gate.usage(now) == usage


def test_a_message_that_leaves_the_held_one_fitting_no_later() -> None:
    """The field's case: 864 of 1,000 bytes in the window; a 413-byte list fits once they leave (11 s with
    the gate's margin), and still then after a 75-byte answer. With 400 bytes, then 450, in the window: a
    120-byte message leaves the list fitting once the 400 leave; a 140-byte one makes it wait for the 450."""
    gate = FloodGate()
    gate.record(chat_cost("x" * 864), 0.0)
    held = chat_cost("y" * 413)
    assert gate.delay(held, 2.0) == pytest.approx(9.0, abs=1e-5)
    assert gate.delay_after(chat_cost("z" * 75), held, 2.0) == gate.delay(held, 2.0)

    gate = FloodGate()
    gate.record(chat_cost("x" * 400), 0.0)
    gate.record(chat_cost("x" * 450), 0.5)
    assert gate.delay_after(chat_cost("z" * 120), held, 2.0) == gate.delay(held, 2.0)
    assert gate.delay_after(chat_cost("z" * 140), held, 2.0) == pytest.approx(9.5, abs=1e-5)


def test_the_message_budget_counts_the_first_message_too() -> None:
    """Nine messages in the window: a tenth fits now, an eleventh after it waits for the oldest to leave."""
    gate = FloodGate()
    for at in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8):
        gate.record(chat_cost("hi"), at)
    assert gate.delay(chat_cost("z"), 2.0) == 0.0
    assert gate.delay_after(chat_cost("z"), chat_cost("z"), 2.0) == pytest.approx(9.0, abs=1e-5)
    assert gate.delay_after(Cost(game_commands=1), chat_cost("z"), 2.0) == 0.0  # a game command is no chat
