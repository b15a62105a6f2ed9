"""A deck or cube holding the designer's own cards says what the program reading it needs to load them.

Seen exporting a block with a custom set beside it, as a designer without Cockatrice or Forge installed: the
``.cod`` and the Forge ``.dck`` named the custom cards and nothing said that Cockatrice knows them only from
the custom set, nor that Forge needs their scripts (``--to forge-custom``) or shows them as unsupported
cards. MTGO and Arena exports already named them (those programs cannot load them at all).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main

CUSTOM_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>CRW</name><longname>Crow Block</longname><settype>Custom</settype></set></sets>
  <cards>
    <card><name>Storm Crow Deluxe</name><text>Flying</text>
      <prop><type>Creature - Bird</type><maintype>Creature</maintype><manacost>1U</manacost><cmc>2</cmc>
      <colors>U</colors><pt>2/2</pt></prop><set rarity="common" num="1">CRW</set><tablerow>2</tablerow></card>
  </cards>
</cockatrice_carddatabase>
"""


def export(tmp_path: Path, text: str, fmt: str) -> str:
    (tmp_path / "crows.xml").write_text(CUSTOM_SET, encoding="utf-8")
    block = tmp_path / "crows.txt"
    block.write_text(text, encoding="utf-8")
    out = tmp_path / ("out" if fmt == "forge-cube" else f"out{'.dck' if fmt == 'forge' else '.cod'}")
    result = CliRunner().invoke(main, ["export", str(block), "--to", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return result.stderr


@pytest.mark.parametrize(
    ("fmt", "need"),
    [
        ("cod", "Cockatrice loads it only with your custom set"),
        ("forge", "Forge plays it only with its card script: export the list --to forge-custom too"),
    ],
)
def test_a_deck_with_custom_cards_says_what_loads_them(tmp_path: Path, fmt: str, need: str) -> None:
    said = export(tmp_path, "4 Storm Crow Deluxe\n4 Island\n", fmt)
    (note,) = [line for line in said.splitlines() if "your own card" in line]
    assert note.startswith("note: Storm Crow Deluxe is your own card: ") and need in note
    assert "Island" not in note


def test_a_deck_of_real_cards_says_nothing_of_custom_cards(tmp_path: Path) -> None:
    said = export(tmp_path, "4 Lightning Bolt\n", "forge")
    assert "your own card" not in said
    assert "(1 distinct card) -> forge" in said
