"""A split card's text is cut between its halves at Oracle's ``\\n\\n---\\n\\n`` and at a hand-made file's
``\\n---\\n`` alike."""

from __future__ import annotations

import pytest

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.exporters.forge_scripts import write_forge_script

CARD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4"><sets><set><name>DN2</name></set></sets><cards>
<card><name>Spark // Flare</name><text>Spark deals 1 damage to any target.{sep}Flare deals 3 damage.</text>
<prop><layout>split</layout><side>front</side><type>Instant // Instant</type><maintype>Instant</maintype>
<manacost>R // 2R</manacost></prop><set rarity="common" num="4">DN2</set></card>
</cards></cockatrice_carddatabase>"""


@pytest.mark.parametrize("sep", ["\n\n---\n\n", "\n---\n", "\n---\n\n", " \n---\n"])
def test_both_separators_split_a_split_cards_text(sep: str) -> None:
    card = read_cockatrice_xml(CARD.format(sep=sep).encode("utf-8")).cards["Spark // Flare"]
    assert [face.oracle_text for face in card.faces] == [
        "Spark deals 1 damage to any target.",
        "Flare deals 3 damage.",
    ]
    script = write_forge_script(card)
    assert "Oracle:Spark deals 1 damage to any target.\n" in script
    assert script.endswith("Oracle:Flare deals 3 damage.\n")
