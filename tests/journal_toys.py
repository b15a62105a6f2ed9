"""A toy engine for the journal tests (one module, so that it is registered once), and a journal file made
unwritable."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cockatrice_ext.formats.base import Action, Effect, Engine, RulesError, register


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


def read_only(path: Path) -> Callable[[], None]:
    """Make ``path`` unwritable for this process and its children (as root: immutable, ``chattr +i``);
    returns the undoing."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return lambda: path.chmod(0o644)
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"as root, a file is read-only only when immutable, and chattr +i fails: {done.stderr}")

    def undo() -> None:
        subprocess.run(["chattr", "-i", str(path)], check=True)

    return undo
