"""Bot tests: the scripted-player helpers on ``sys.path`` (``from bot_players import ...``), and the Combat
deck check of the bundled legal deck that the Combat rendering tests build their games from."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import DeckVerdict, check_cod

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


@pytest.fixture(scope="session")
def verdict() -> DeckVerdict:
    """The deck check of ``blocks/combat-deck.txt`` (legal, with its card facts): pure, read once."""
    found = check_cod(load_block("combat-deck", sections=None).cod)
    assert found.facts is not None
    return found
