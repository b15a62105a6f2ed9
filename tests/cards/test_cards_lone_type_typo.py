"""A type line that is one misspelt type alone (``Artifcat``) is said, as a misspelt type before a dash is:
with no dash, a word that is no type reads as a subtype, so the card had no type and nothing said it. A
line of real words that are no type (Magic-Token's ``Counter``, ``State``; Alpha's ``Summon Specter``; a
lower-case ``instant``) stays unsaid."""

from __future__ import annotations

import pytest

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml

CARD_FILE = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4"><cards>
<card><name>Wyrm's Hoard</name><text>{{T}}: Add {{R}}.</text>
<prop><type>{type_line}</type><manacost>2</manacost></prop><set>DRG</set></card>
</cards></cockatrice_carddatabase>
"""


def said_of(type_line: str) -> list[str]:
    said: list[str] = []
    read_cockatrice_xml(CARD_FILE.format(type_line=type_line).encode(), name="hoard.xml", warn=said.append)
    return said


@pytest.mark.parametrize(
    ("type_line", "word", "meant"),
    [("Artifcat", "Artifcat", "Artifact"), ("Legendary Enchantmnet", "Enchantmnet", "Enchantment")],
)
def test_a_lone_misspelt_type_is_said(type_line: str, word: str, meant: str) -> None:
    (warning,) = said_of(type_line)
    said = f"{word!r} is not a card type (did you mean {meant!r}?); read as written"
    assert warning == f'hoard.xml:3: "Wyrm\'s Hoard": {said}'


@pytest.mark.parametrize(
    "type_line", ["Counter", "State", "Summon Specter", "instant", "Hero", "Artifact", "Artifact — Equipment"]
)
def test_real_words_that_are_no_type_stay_unsaid(type_line: str) -> None:
    assert said_of(type_line) == []
