"""A .cod's ``<bannerCard providerId="...">`` keeps its provider id through .cod -> .cod, written as
Cockatrice writes it (the element's ``providerId`` attribute); a deck without one is written as before.

Seen as a block designer: the reader kept the banner card's name only, and the writer wrote none, so the
printing whose art Cockatrice shows for the deck was lost on every export.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cli import main
from cockatrice_ext.decks.readers import read_cod

COD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>Banner</deckname>
    <bannerCard providerId="{provider}">Sol Ring</bannerCard>
    <comments></comments>
    <zone name="main">
        <card number="1" name="Sol Ring"/>
    </zone>
</cockatrice_deck>
"""
PROVIDER = "c5ed6ad7-c1b0-4c9f-8b0c-d46b6d0a2e5a"


def test_the_reader_keeps_the_provider_id() -> None:
    deck = read_cod(COD.format(provider=PROVIDER).encode(), source="b.cod")
    assert (deck.banner_card, deck.banner_provider_id) == ("Sol Ring", PROVIDER)


def test_cod_to_cod_keeps_the_provider_id(tmp_path: Path, runner: CliRunner) -> None:
    source = tmp_path / "b.cod"
    source.write_text(COD.format(provider=PROVIDER + "&quot;"), encoding="utf-8")
    result = runner.invoke(main, ["export", str(source), "--to", "cod", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert f'    <bannerCard providerId="{PROVIDER}&quot;">Sol Ring</bannerCard>\n' in result.stdout
    again = tmp_path / "again.cod"
    again.write_text(result.stdout, encoding="utf-8")
    assert read_cod(again.read_bytes()).banner_provider_id == PROVIDER + '"'


def test_a_banner_without_a_provider_id_is_written_as_before(tmp_path: Path, runner: CliRunner) -> None:
    for text in (COD.format(provider=""), COD.replace(' providerId="{provider}"', "")):
        source = tmp_path / "b.cod"
        source.write_text(text, encoding="utf-8")
        result = runner.invoke(main, ["export", str(source), "--to", "cod", "-o", "-"])
        assert result.exit_code == 0, result.output
        assert "    <bannerCard>Sol Ring</bannerCard>\n" in result.stdout
        assert "providerId" not in result.stdout
