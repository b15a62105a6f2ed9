"""``-o FOLDER`` for a one-file format writes the file into that folder, named as without ``-o``.

Seen exporting a block as a designer: ``export myblock.txt --to forge -o ~/.forge/decks/constructed/`` was
refused ("decks is a folder, not a regular file"), where ``cp`` and every other tool write into the folder.
For Forge that is the natural way in: the file must be the deck's own file name, which the export knows
(the list's ``# Name:``) and the designer would otherwise have to spell as Forge does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main

LIST = "# Name: Blue/White Skies\n4 Lightning Bolt\n2 Opt\n"


@pytest.mark.parametrize(
    ("fmt", "written"),
    [("forge", "Blue_White Skies.dck"), ("cod", "myblock.cod"), ("cockatrice-xml", "myblock.cards.xml")],
)
def test_an_o_folder_gets_the_file_named_as_without_o(tmp_path: Path, fmt: str, written: str) -> None:
    block = tmp_path / "myblock.txt"
    block.write_text(LIST, encoding="utf-8")
    folder = tmp_path / "decks"
    folder.mkdir()
    result = CliRunner().invoke(main, ["export", str(block), "--to", fmt, "-o", f"{folder}/"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == [written]
    assert result.stdout.strip() == str(folder / written)
    assert "warning" not in result.stderr
    if fmt == "forge":
        assert "Name=Blue/White Skies\n" in (folder / written).read_text(encoding="utf-8")


def test_standard_input_into_a_folder_needs_a_name(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["export", "-", "--to", "cod", "-o", str(tmp_path)], input="1 Opt\n")
    assert result.exit_code == 2
    assert "give --name to name the file" in result.stderr
    assert list(tmp_path.iterdir()) == []
    named = runner.invoke(
        main, ["export", "-", "--to", "cod", "-o", str(tmp_path), "--name", "Opts"], input="1 Opt\n"
    )
    assert named.exit_code == 0, named.output
    assert [p.name for p in tmp_path.iterdir()] == ["Opts.cod"]


def test_an_o_folder_holding_the_input_is_not_overwritten(tmp_path: Path) -> None:
    """``export list.cod --to cod -o .``: the default name would be the input itself, so another one."""
    block = tmp_path / "list.cod"
    block.write_text(
        '<?xml version="1.0"?><cockatrice_deck version="1"><deckname>x</deckname>'
        '<zone name="main"><card number="1" name="Opt"/></zone></cockatrice_deck>',
        encoding="utf-8",
    )
    before = block.read_bytes()
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert block.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.cod", "list.cod.cod"]


def test_an_o_ending_in_a_slash_is_a_folder_made_when_missing(tmp_path: Path) -> None:
    """``-o newdecks/`` wrote a file named ``newdecks``; a trailing ``/`` names a folder, as for ``cp``."""
    block = tmp_path / "myblock.txt"
    block.write_text(LIST, encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "forge", "-o", f"{tmp_path}/newdecks/"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "newdecks" / "Blue_White Skies.dck").is_file()


def test_a_missing_customsets_folder_named_with_a_slash_is_refused_as_a_file_in_it_is(tmp_path: Path) -> None:
    """``-o ~/.local/share/Cockatrice/Cockatrice/customsets/`` without Cockatrice: a file named
    ``customsets`` was written, making the folders above it; now the customsets rule refuses it."""
    block = tmp_path / "myblock.txt"
    block.write_text(LIST, encoding="utf-8")
    customsets = tmp_path / "share" / "Cockatrice" / "customsets"
    result = CliRunner().invoke(
        main, ["export", str(block), "--to", "cockatrice-xml", "-o", f"{customsets}/"]
    )
    assert result.exit_code == 2
    assert "does not exist, nor the Cockatrice data folder it belongs in" in result.stderr
    assert not (tmp_path / "share").exists()


def test_an_o_ending_in_a_slash_that_is_a_file_is_refused(tmp_path: Path) -> None:
    block = tmp_path / "myblock.txt"
    block.write_text(LIST, encoding="utf-8")
    afile = tmp_path / "deck.cod"
    afile.write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", f"{afile}/"])
    assert result.exit_code == 2
    assert "names a folder, but" in result.stderr and afile.read_text(encoding="utf-8") == "mine"
