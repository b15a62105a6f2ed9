"""What the engines' typed-name tests share: the held cards and how players type them, names that tempt a
loose match, and the refusal that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import strategies as st

from cockatrice_ext.formats.base import RulesError

MINE = (
    "Sovereign's Bite",
    "Lim-Dûl's Vault",
    "Fire // Ice",
    "Delver of Secrets // Insectile Aberration",
    "Goblin Assault",
    "Shock",
    "Shocking Grasp",
)
"""The cards the acting player holds in each engine's typed-name tests."""

TYPED_AS_HELD = [
    ("Sovereign\u2019s Bite", "Sovereign's Bite"),  # a phone's apostrophe
    ("Lim-Dul's Vault", "Lim-Dûl's Vault"),  # a dropped accent
    ("Fire", "Fire // Ice"),  # one face of a split card (Fireball is another player's)
    ("Delver of Secrets", "Delver of Secrets // Insectile Aberration"),  # the front of a double-faced one
    ("Gob", "Goblin Assault"),  # a unique start
    ('"Goblin Assault"', "Goblin Assault"),  # quote marks
    ("\u201cShock\u201d", "Shock"),
    ("SHOCK", "Shock"),  # the whole name wins over a start of Shocking Grasp
]
"""(typed, card): :data:`MINE` as players type them, and the card each one names."""

NEAR_MISSES = (
    "Fire",
    "Fireball",
    "Ice Cauldron",
    "Insectile",
    "Sovereign's Bite of Old",
    "Lim-Dûl the Necromancer",
    "Goblin",
)
"""Names beside the real ones that a start, a face or a fold could wrongly pick."""


def held_and_typed(
    data: st.DataObject, names: tuple[str, ...], curly: bool, max_size: int = 7
) -> tuple[tuple[str, ...], str, str]:
    """Cards a player holds (drawn from ``names``), one of them, and how they type it: in capitals, or with a
    phone's apostrophe (’)."""
    held = tuple(data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=max_size, unique=True)))
    name = data.draw(st.sampled_from(held))
    return held, name, name.replace("'", "\u2019") if curly else name.upper()


def refusal(engine: Any, action: Any) -> RulesError:
    """The engine's refusal of ``action``, which changed nothing."""
    before = engine.snapshot()
    with pytest.raises(RulesError) as info:
        engine.apply(action)
    assert engine.snapshot() == before
    return info.value
