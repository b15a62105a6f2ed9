"""The bot's blocks: an operator's own block list reads as ``export`` and ``block check`` read it."""

from __future__ import annotations

from pathlib import Path

from cockatrice_ext.bot.blocks import default_cards, load_block
from cockatrice_ext.cards.resolve import NameIndex

OWN_BLOCK = """# an operator's block of real cards, some beyond the embedded card data
1 Asmoranomardicadaistinaculdacar
1 Circle of Protection: Red
1 Fire // Ice
1 Who // What // When // Where // Why
1 Grizzly Bears
2 Serra Angel
"""


def test_an_operators_block_of_real_cards_beyond_the_embedded_data_loads(tmp_path: Path) -> None:
    """``bot run --auction-block FILE`` refused real cards the embedded data lacks ("unknown card
    'Asmoranomardicadaistinaculdacar'") while ``block check`` accepted the same file."""
    path = tmp_path / "own.txt"
    path.write_text(OWN_BLOCK, encoding="utf-8")
    embedded = NameIndex(default_cards())
    assert embedded.find("Asmoranomardicadaistinaculdacar") is None  # else this test proves nothing
    loaded = load_block(str(path))
    names = [facts.name for facts in loaded.facts]
    assert len(names) == 7
    assert "Asmoranomardicadaistinaculdacar" in names and names.count("Serra Angel") == 2
    assert any("Fire" in name and "Ice" in name for name in names), names


def test_a_bundled_block_still_loads_from_the_embedded_data() -> None:
    assert len(load_block("auction-sample").facts) > 100
