"""Art-series cards (MTGJSON layout ``art_series``, sets such as ASTX "Strixhaven Art Series": a picture, no
card to play) in the shipped card data were offered as "did you mean" (``Lightning Bolt // Lightning Bolt``,
``Insectile Aberration // Insectile Aberration``: they look like the name typed twice), and a face of one
(``Beholder``, the back of ``Baleful Beholder // Beholder``) resolved to the art card, exported as a token.
They are never suggested nor played: a line pinned to an art set gets the real card, with a warning."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cards.errors import UnknownCardsError
from cockatrice_ext.cards.resolve import NameIndex
from cockatrice_ext.cards.store import shipped_store
from cockatrice_ext.cli import main
from cockatrice_ext.decks.resolve_list import read_block

ART_NAMES = ("Lightning Bolt // Lightning Bolt", "Insectile Aberration // Insectile Aberration")


def test_the_shipped_data_offers_no_art_card_name() -> None:
    store = shipped_store()
    hints = set(store.name_hints().values())
    assert not hints & set(ART_NAMES)
    assert "Lightning Bolt" in hints and "Delver of Secrets // Insectile Aberration" in hints
    found = store.find("Lightning Bolt // Lightning Bolt")  # still there, for a line pinned to its set
    assert found is not None and found.layout == "art_series"


def test_export_suggests_no_art_card(tmp_path: Path) -> None:
    block = tmp_path / "typos.txt"
    block.write_text(
        "1 Lightning Bolt // Lightnig Bolt\n1 Insectile Aberration Insectile\n"
        "1 Lightning Bolt Lightning Bolt\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(tmp_path / "t.cod")])
    assert result.exit_code == 2
    for name in ART_NAMES:
        assert name not in result.stderr, result.stderr
    assert "(did you mean: Lightning Bolt?)" in result.stderr


def test_an_art_card_loaded_is_neither_suggested_nor_matched_by_a_face() -> None:
    db = shipped_store().cards_for([*ART_NAMES, "Beholder", "Lightning Bolt", "Baleful Beholder"])
    assert db.cards["Baleful Beholder // Beholder"].layout == "art_series"
    index = NameIndex(db)
    assert index.find("Beholder") is None  # the art card's back face: no card of its own
    assert not set(index.suggest("Lightning Bolt // Lightnin Bolt")) & set(ART_NAMES)
    bolt = index.resolve("Lightning Bolt // Lightning Bolt")  # its whole name: the real card it shows
    assert bolt is not None and bolt.card.name == "Lightning Bolt" and not bolt.warnings
    beholder = index.find("Baleful Beholder // Beholder")
    assert beholder is not None and beholder.name == "Baleful Beholder"


def test_a_line_pinned_to_the_art_set_gets_the_real_card_with_a_warning(tmp_path: Path) -> None:
    """An art card is a picture: exported, it would be a token in the deck's tokens zone, out of play."""
    block = tmp_path / "arts.txt"
    block.write_text("2 Lightning Bolt (ASTX) 76\n1 Lightning Bolt\n", encoding="utf-8")
    said: list[str] = []
    resolved = read_block(block, say=said.append)
    read = [(e.card.name, e.printing.set_code if e.printing else "") for _, e in resolved.entries()]
    assert read == [("Lightning Bolt", ""), ("Lightning Bolt", "")]
    assert any("ASTX prints 'Lightning Bolt' only as an art card" in line for line in said), said
    block.write_text("1 Beholder (AAFR)\n", encoding="utf-8")  # an art card's face: no card of that name
    with pytest.raises(UnknownCardsError, match="unknown card 'Beholder'"):
        read_block(block, say=said.append)
