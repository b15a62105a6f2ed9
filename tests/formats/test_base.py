"""The engines' generator: checkpoints take back a refused action's draws, and change no sequence."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.formats.base import CheckpointRandom

DRAWS = ("random", "bits", "shuffle", "choice", "randint", "sample", "bytes")


def draw(rng: random.Random, kind: str) -> Any:
    if kind == "random":
        return rng.random()
    if kind == "bits":
        return rng.getrandbits(70)
    if kind == "shuffle":
        cards = list(range(30))
        rng.shuffle(cards)
        return cards
    if kind == "choice":
        return rng.choice("abcdefgh")
    if kind == "randint":
        return rng.randint(1, 10**9)
    if kind == "sample":
        return rng.sample(range(500), 5)
    return rng.randbytes(9)


@given(
    seed=st.integers(0, 2**64),
    steps=st.lists(
        st.one_of(st.sampled_from(DRAWS), st.sampled_from(("checkpoint", "release"))), max_size=40
    ),
)
def test_draws_are_the_standard_generators_whatever_the_checkpoints(seed: int, steps: list[str]) -> None:
    """Old journals replay unchanged: released checkpoints leave the sequence of random.Random."""
    ours, standard = CheckpointRandom(seed), random.Random(seed)
    open_checkpoints = 0
    for step in steps:
        if step == "checkpoint":
            ours.checkpoint()
            open_checkpoints += 1
        elif step == "release":
            if open_checkpoints:
                ours.release()
                open_checkpoints -= 1
        else:
            assert draw(ours, step) == draw(standard, step)
    assert ours.getstate() == standard.getstate()


@given(
    seed=st.integers(0, 2**32),
    before=st.lists(st.sampled_from(DRAWS), max_size=4),
    during=st.lists(st.sampled_from(DRAWS), max_size=6),
)
def test_a_rollback_takes_back_exactly_the_draws_since_the_checkpoint(
    seed: int, before: list[str], during: list[str]
) -> None:
    rng = CheckpointRandom(seed)
    for kind in before:
        draw(rng, kind)
    expected = rng.getstate()
    rng.checkpoint()
    for kind in during:
        draw(rng, kind)
    rng.rollback()
    assert rng.getstate() == expected


def test_nested_checkpoints_roll_back_to_their_own_points() -> None:
    rng = CheckpointRandom(7)
    rng.checkpoint()  # outer: the state before anything
    outer_point = rng.getstate()
    rng.checkpoint()  # inner, at the same point: both are filled by the first draw
    rng.random()
    rng.release()
    after_inner = rng.getstate()
    rng.checkpoint()  # a second inner checkpoint after draws
    rng.shuffle(list(range(10)))
    rng.rollback()
    assert rng.getstate() == after_inner
    rng.random()
    rng.rollback()
    assert rng.getstate() == outer_point


def test_no_state_is_copied_when_nothing_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of the class: a bid draws nothing, so its checkpoint costs no copy of 625 words."""
    rng = CheckpointRandom(3)
    copies = 0
    original = random.Random.getstate

    def counted(self: random.Random) -> Any:
        nonlocal copies
        copies += 1
        return original(self)

    monkeypatch.setattr(random.Random, "getstate", counted)
    for _ in range(5):
        rng.checkpoint()
        rng.release()
    rng.checkpoint()
    rng.rollback()
    assert copies == 0
    rng.checkpoint()
    rng.random()
    rng.random()
    rng.rollback()
    assert copies == 1


def test_copies_and_pickles_keep_the_sequence() -> None:
    """``Engine.check`` deep-copies an engine, generator included."""
    rng = CheckpointRandom(11)
    rng.random()
    for duplicate in (copy.deepcopy, lambda r: pickle.loads(pickle.dumps(r))):
        clone = duplicate(rng)
        assert isinstance(clone, CheckpointRandom)
        assert [clone.random() for _ in range(3)] == [rng.random() for _ in range(3)]
        clone.checkpoint()
        clone.random()
        clone.rollback()
        assert clone.getstate() == rng.getstate()
