"""A ``pt`` given by half (``2/``, ``/3``) is said where a card file's ``<card>`` is checked, so every reader
of a Cockatrice card file says it: a card source, the custom set beside a list, and a card file given as the
list itself (which the card-source check alone missed). Said once per card, with the file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.errors import warnings_to
from cockatrice_ext.cards.sources import load_cards
from cockatrice_ext.decks.resolve_list import read_list_file

HALF_MADE = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>HLF</name><longname>Half made</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name>Halfmade Golem</name>
      <text></text>
      <prop><layout>normal</layout><side>front</side><type>Artifact Creature — Golem</type>
        <maintype>Creature</maintype><manacost>2</manacost><cmc>2</cmc><pt>{pt}</pt></prop>
      <set rarity="common" num="1">HLF</set>
    </card>
    <card>
      <name>Halfmade Golem</name>
      <text></text>
      <prop><layout>normal</layout><side>front</side><type>Artifact Creature — Golem</type>
        <maintype>Creature</maintype><manacost>2</manacost><cmc>2</cmc><pt>{pt}</pt></prop>
      <set rarity="common" num="1b">HLF</set>
    </card>
    <card>
      <name>Whole Golem</name>
      <text></text>
      <prop><layout>normal</layout><side>front</side><type>Artifact Creature — Golem</type>
        <maintype>Creature</maintype><manacost>2</manacost><cmc>2</cmc><pt>2/2</pt></prop>
      <set rarity="common" num="2">HLF</set>
    </card>
    <card>
      <name>Moonlit Trapper</name>
      <text></text>
      <prop><layout>transform</layout><side>front</side><type>Creature — Human</type>
        <maintype>Creature</maintype><manacost>1G</manacost><cmc>2</cmc><pt>1/1</pt></prop>
      <related attach="transform">Moonlit Beast</related>
      <set rarity="common" num="3a">HLF</set>
    </card>
    <card>
      <name>Moonlit Beast</name>
      <text></text>
      <prop><layout>transform</layout><side>back</side><type>Creature — Wolf</type>
        <maintype>Creature</maintype><cmc>2</cmc><pt>{pt}</pt></prop>
      <set rarity="common" num="3b">HLF</set>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def _pt_warnings(said: list[str]) -> list[str]:
    return [line for line in said if "its pt gives" in line]


@pytest.mark.parametrize(("pt", "given", "written"), [("2/", "power 2", "2/0"), ("/3", "toughness 3", "0/3")])
def test_the_card_reader_says_a_half_pt_once_per_card_with_its_line(
    pt: str, given: str, written: str
) -> None:
    """Said by the reader itself: once for the golem (its second ``<card>`` adds a printing, no second
    warning) and once for the two-faced card's back face, each at its ``<card>``'s line; a whole pt is not."""
    said: list[str] = []
    db = read_cockatrice_xml(HALF_MADE.format(pt=pt).encode(), name="half.xml", warn=said.append)
    warned = _pt_warnings(said)
    assert len(warned) == 2, said
    golem, beast = warned
    assert golem.startswith("half.xml:5: 'Halfmade Golem': ") and given in golem and written in golem
    assert beast.startswith("half.xml:") and "'Moonlit Beast'" in beast and written in beast
    assert not any("Whole Golem" in line for line in said)
    assert "Moonlit Trapper // Moonlit Beast" in db.cards  # the pair still joined


def test_a_card_file_given_as_the_list_says_a_half_pt(tmp_path: Path) -> None:
    """``export half.xml``: the card file is the list. Its half pt is said as a ``warning:`` line, as it is
    when the file is a card source."""
    path = tmp_path / "half.xml"
    path.write_text(HALF_MADE.format(pt="2/"), encoding="utf-8")
    said: list[str] = []
    read_list_file(path, say=said.append)
    warned = _pt_warnings(said)
    assert len(warned) == 2 and all(line.startswith("warning: ") for line in warned), said


def test_a_card_source_says_it_once_as_before(tmp_path: Path) -> None:
    """The card-source route (``load_cards``) says each half pt once, no more than before the check moved."""
    path = tmp_path / "half.xml"
    path.write_text(HALF_MADE.format(pt="/3"), encoding="utf-8")
    said: list[str] = []
    with warnings_to(said.append):
        load_cards(str(path))
    assert len(_pt_warnings(said)) == 2, said
