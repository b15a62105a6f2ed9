"""Reconnect delays: exponential backoff with jitter, as a plain (testable) generator."""

from __future__ import annotations

import random
from collections.abc import Iterator


def backoff(
    *,
    initial_delay: float = 0.5,
    factor: float = 2.0,
    max_delay: float = 30.0,
    jitter: float = 0.1,
    rng: random.Random | None = None,
) -> Iterator[float]:
    """Yield reconnect delays: ``initial_delay``, then ``* factor`` each time, capped at ``max_delay``.

    Each delay is stretched by a random fraction in ``[0, jitter]`` so that many bots restarted
    together do not reconnect in lockstep. The generator never ends; the caller decides how many
    attempts to make. ``rng`` is injectable for tests (the module never touches the global ``random``).
    """
    if initial_delay < 0 or factor < 1 or max_delay < 0 or jitter < 0:
        raise ValueError("backoff needs initial_delay >= 0, factor >= 1, max_delay >= 0, jitter >= 0")
    rng = rng or random.Random()
    delay = min(initial_delay, max_delay)
    while True:
        yield delay * (1.0 + jitter * rng.random())
        delay = min(delay * factor, max_delay)
