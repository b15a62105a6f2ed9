"""What the engines' typed-name tests share: names that tempt a loose match; a name as a phone types it."""

from __future__ import annotations

from hypothesis import strategies as st

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
