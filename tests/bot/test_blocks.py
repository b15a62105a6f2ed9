"""The bot's blocks: an operator's own block list reads as ``export`` and ``block check`` read it."""

from __future__ import annotations

from pathlib import Path

import pytest

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


CUSTOM_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>HOME</name><longname>A designer's set</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name>Gavel Sprite</name>
      <text>Flying</text>
      <prop>
        <layout>normal</layout><side>front</side><type>Creature</type><maintype>Creature</maintype>
        <manacost>1U</manacost><cmc>2</cmc><colors>U</colors><coloridentity>U</coloridentity><pt>1/1</pt>
      </prop>
      <set rarity="common" num="1">HOME</set>
    </card>
  </cards>
</cockatrice_carddatabase>
"""
UN_CARD = "Ach! Hans, Run!"  # as lists type it: the card data names it in quote marks


def test_load_block_outside_bot_run_knows_an_un_card_without_its_quote_marks(tmp_path: Path) -> None:
    """An in-process harness's ``load_block`` (no ``bot run``, no reader installed) reads a block as
    ``export`` does: it called ``Ach! Hans, Run!`` an unknown card."""
    path = tmp_path / "un.txt"
    path.write_text(f"1 {UN_CARD}\n2 Grizzly Bears\n", encoding="utf-8")
    loaded = load_block(str(path))
    assert [facts.name for facts in loaded.facts] == [f'"{UN_CARD}"', "Grizzly Bears", "Grizzly Bears"]
    assert f'"{UN_CARD}"' in loaded.game_names


def test_load_block_outside_bot_run_reads_the_custom_set_beside_the_list(tmp_path: Path) -> None:
    """The custom set ``home.xml`` beside ``home.txt`` gives the designer's card, as ``block check`` and
    ``export`` read it (it was an unknown card)."""
    path = tmp_path / "home.txt"
    path.write_text("3 Gavel Sprite\n1 Serra Angel\n", encoding="utf-8")
    (tmp_path / "home.xml").write_text(CUSTOM_SET, encoding="utf-8")
    loaded = load_block(str(path))
    assert [facts.name for facts in loaded.facts] == ["Gavel Sprite"] * 3 + ["Serra Angel"]
    assert loaded.name == "home" and loaded.cod.count("Gavel Sprite") == 1  # one row, number 3


def test_load_block_takes_the_card_sources_explicitly(tmp_path: Path) -> None:
    """A caller passes the operator's card sources to ``load_block`` itself; no module-wide reader needed."""
    from cockatrice_ext.bot.blocks import BlockReading
    from cockatrice_ext.cards.resolve import UnknownCardsError
    from cockatrice_ext.decks.resolve_list import CardSources

    path = tmp_path / "own.txt"
    path.write_text("2 Gavel Sprite\n", encoding="utf-8")
    elsewhere = tmp_path / "cards" / "mine.xml"
    elsewhere.parent.mkdir()
    elsewhere.write_text(CUSTOM_SET, encoding="utf-8")
    with pytest.raises(UnknownCardsError, match="Gavel Sprite"):
        load_block(str(path))
    reading = BlockReading(card_source=CardSources((str(elsewhere),)))
    loaded = load_block(str(path), reading=reading)
    assert [facts.name for facts in loaded.facts] == ["Gavel Sprite"] * 2
