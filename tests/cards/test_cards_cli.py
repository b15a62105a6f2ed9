"""``cockatrice-ext cards``: lookup, exit codes, --card-source, errors."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main
from cockatrice_ext.cli.cards import card_source_option, open_card_source


def test_lookup_from_the_default_data() -> None:
    result = CliRunner().invoke(main, ["cards", "lookup", "jaya ballard, task mage"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Jaya Ballard, Task Mage  {1}{R}{R}")
    assert "Legendary Creature — Human Spellshaper  2/2" in result.output
    assert "Printings: TSP 166 (rare)" in result.output


def test_lookup_takes_each_argument_as_one_name() -> None:
    result = CliRunner().invoke(main, ["cards", "lookup", "Duress", "Fire // Ice"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Duress  {B}") and "\nFire // Ice" not in result.output[:5]
    assert "Fire  {R/U}" in result.output or "Fire  {1}{R}" in result.output


def test_lookup_names_the_tokens_a_card_makes_but_no_helper_card() -> None:
    """Alrund's Epiphany makes Bird tokens; the Foretell reminder card is no token it makes, and a meld's
    partner and result are not something it makes. Names are split by ';' (they hold commas)."""
    wanted = ["Alrund's Epiphany", "Brisela, Voice of Nightmares"]
    result = CliRunner().invoke(main, ["cards", "lookup", *wanted])
    assert result.exit_code == 0, result.output
    makes = [line for line in result.output.splitlines() if line.startswith("Makes: ")]
    assert makes == ["Makes: 'Bird Token  ' (2 trailing spaces)"]  # Magic-Token's name, its spaces shown
    assert "Melds: Bruna, the Fading Light; Gisela, the Broken Blade" in result.output


def test_unknown_card_exits_2_with_suggestions() -> None:
    result = CliRunner().invoke(main, ["cards", "lookup", "Jaya Balard, Task Mage"])
    assert result.exit_code == 2
    assert "unknown card 'Jaya Balard, Task Mage'" in result.output
    assert "Did you mean: Jaya Ballard, Task Mage" in result.output


def test_unknown_names_point_at_card_source(tmp_path: Path) -> None:
    """A name no source knows: lookup and export both say where more cards can come from."""
    result = CliRunner().invoke(main, ["cards", "lookup", "Blorpy McCardface"])
    assert result.exit_code == 2 and "--card-source" in result.output
    block = tmp_path / "b.txt"
    block.write_text("1 Duress\n1 Blorpy McCardface\n")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(tmp_path / "b.cod")])
    assert result.exit_code == 2 and f"  {block}:2: unknown card 'Blorpy McCardface'" in result.output
    assert "--card-source" in result.output and not (tmp_path / "b.cod").exists()


def test_card_source_option_and_printing(examples: Path) -> None:
    source = str(examples / "cockatrice_test_cards.xml")
    result = CliRunner().invoke(main, ["cards", "lookup", "cat", "--card-source", source, "--set", "CAT"])
    assert result.exit_code == 0, result.output
    assert "Cat  {2}{G}" in result.output and "Creature — Cat  3/3" in result.output
    assert "Selected printing: CAT" in result.output


def test_bad_card_source_is_a_clean_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("<cockatrice_carddatabase version='4'>\n<cards><card>")
    result = CliRunner().invoke(main, ["cards", "lookup", "X", "--card-source", str(bad)])
    assert result.exit_code == 2  # bad input, as for an unreadable list (1: output not written)
    assert f"{bad}:2" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["export", "auction-sample", "--to", "cod", "--card-source", str(bad)])
    assert result.exit_code == 2 and f"{bad}:2" in result.output


def test_where_command() -> None:
    result = CliRunner().invoke(main, ["cards", "where"])
    assert result.exit_code == 0 and "Default card source" in result.output


def test_reusable_option_and_progress_bar(
    mtgjson_extract: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import cockatrice_ext.cli.cards as cli_cards

    monkeypatch.setattr(cli_cards, "PROGRESS_THRESHOLD", 1)

    @click.command()
    @card_source_option
    def probe(card_source: str | None) -> None:
        db = open_card_source(card_source)
        click.echo(f"{len(db)} {'Fire // Ice' in db}")

    result = CliRunner().invoke(probe, ["--card-source", str(mtgjson_extract["allprintings_xz"])])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("True")
    assert "--card-source PATH" in CliRunner().invoke(probe, ["--help"]).output
