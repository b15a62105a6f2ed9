"""A .cod Cockatrice saved with Unstable's variants (``Very Cryptic Command (d)``) exports to every target:
Cockatrice keeps its name, Forge gets the printed name and the variant's art, MTGO the printed name."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from export_samples import parse_xml

from cockatrice_ext.cards.model import Card, Face, Printing
from cockatrice_ext.cli import main
from cockatrice_ext.exporters import ExportDeck, ExportEntry, write_forge_dck
from cockatrice_ext.exporters.model import display_name

COD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>ust</deckname>
    <comments></comments>
    <zone name="main">
        <card number="1" name="Very Cryptic Command (d)" setShortName="UST" collectorNumber="49d"/>
        <card number="2" name="Sly Spy (c)"/>
        <card number="1" name="Very Cryptic Command"/>
    </zone>
</cockatrice_deck>
"""


def _export(runner: CliRunner, tmp_path: Path, target: str) -> str:
    deck = tmp_path / "ust.cod"
    deck.write_text(COD, encoding="utf-8")
    result = runner.invoke(main, ["export", str(deck), "--to", target, "-o", "-"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_forge_gets_the_printed_name_and_the_variants_art(runner: CliRunner, tmp_path: Path) -> None:
    lines = _export(runner, tmp_path, "forge").splitlines()
    main_lines = lines[lines.index("[Main]") + 1 :]
    assert main_lines == ["1 Very Cryptic Command|UST|4", "2 Sly Spy|UST|3", "1 Very Cryptic Command"]


def test_cockatrice_keeps_the_variant_names(runner: CliRunner, tmp_path: Path) -> None:
    root = parse_xml(_export(runner, tmp_path, "cod").encode("utf-8"))
    names = [(c.get("name"), c.get("collectorNumber")) for c in root.iter("card")]
    assert names == [
        ("Very Cryptic Command (d)", "49d"),
        ("Sly Spy (c)", None),
        ("Very Cryptic Command", None),
    ]


def test_mtgo_gets_the_printed_names(runner: CliRunner, tmp_path: Path) -> None:
    """MTGO has no Unstable; its .dek names cards as printed (the two Very Cryptic Commands count as one)."""
    root = parse_xml(_export(runner, tmp_path, "mtgo").encode("utf-8"))
    rows = [(c.get("Name"), c.get("Quantity")) for c in root.iter("Cards")]
    assert sorted(rows) == [("Sly Spy", "2"), ("Very Cryptic Command", "2")]


def test_a_designers_card_named_with_a_letter_keeps_its_name() -> None:
    fox = Card(
        name="Fox (b)", faces=(Face(name="Fox (b)", types=("Creature",)),), printings=(Printing("MYB", "2b"),)
    )
    assert display_name(fox, "forge") == "Fox (b)" and display_name(fox, "mtgo") == "Fox (b)"
    text = write_forge_dck(ExportDeck(name="d", sections={"main": [ExportEntry(card=fox, count=1)]}))
    assert "1 Fox (b)\n" in text


def test_a_text_line_pinned_to_a_variants_printing_is_that_variant(runner: CliRunner, tmp_path: Path) -> None:
    """``Very Cryptic Command (UST) 49d`` names the (d) card by its printing (in Cockatrice the plain name is
    the (a) card, with other rules); ``49a`` keeps the plain name, and nothing is warned."""
    block = tmp_path / "ust.txt"
    block.write_text("1 Very Cryptic Command (UST) 49d\n1 Very Cryptic Command (UST) 49a\n", encoding="utf-8")
    result = runner.invoke(main, ["export", str(block), "--to", "cod", "-o", "-"])
    assert result.exit_code == 0, result.output
    cards = parse_xml(result.stdout.encode()).findall(".//card")
    assert [(c.get("name"), c.get("collectorNumber")) for c in cards] == [
        ("Very Cryptic Command (d)", "49d"),
        ("Very Cryptic Command", "49a"),
    ]
    assert "has no printing" not in result.output
