"""What a block designer's own lists met: ``export``, ``block check`` and ``cards lookup`` seeing the same
cards (a custom set beside the list, pinned printings), no sideboard guessed for a cube, art-series names,
text that is not UTF-8, and the names given to what is written."""

from __future__ import annotations

import gzip
import io
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main

CUSTOM_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets>
    <set><name>MYB</name><longname>My Block</longname><settype>Custom</settype></set>
  </sets>
  <cards>
    <card>
      <name>Gavel Sprite</name>
      <text>Flying</text>
      <prop><layout>normal</layout><side>front</side><type>Creature — Faerie</type>
      <maintype>Creature</maintype><manacost>1U</manacost><cmc>2</cmc><colors>U</colors><coloridentity>U</coloridentity><pt>1/1</pt></prop>
      <set rarity="common" num="1">MYB</set>
      <tablerow>2</tablerow>
    </card>
  </cards>
</cockatrice_carddatabase>
"""

# 45 white cards, a blank line, a 10-card blue section (the smoke tester's blanksplit.txt, shortened names)
WHITE = ["Savannah Lions", "Swords to Plowshares", "Serra Angel", "White Knight", "Wrath of God"]
BLUE = ["Counterspell", "Brainstorm", "Ponder", "Preordain", "Opt"]
BLANK_SPLIT = "".join(f"9 {name}\n" for name in WHITE) + "\n" + "".join(f"2 {name}\n" for name in BLUE)


def _block_with_custom_set(folder: Path) -> Path:
    block = folder / "myblock.txt"
    block.write_text("4 Gavel Sprite\n16 Lightning Bolt\n", encoding="utf-8")
    (folder / "myblock.xml").write_text(CUSTOM_SET, encoding="utf-8")
    return block


def test_export_reads_the_custom_set_beside_the_list_as_block_check_does(
    runner: CliRunner, tmp_path: Path
) -> None:
    block = _block_with_custom_set(tmp_path)
    checked = runner.invoke(main, ["block", "check", str(block)])
    assert checked.exit_code == 0, checked.output
    assert "Block myblock: 20 cards" in checked.stdout
    exported = runner.invoke(main, ["export", str(block), "--to", "text", "-o", "-"])
    assert exported.exit_code == 0, exported.output
    assert "4 Gavel Sprite" in exported.stdout
    for result in (checked, exported):  # one line says where the custom cards came from
        said = [line for line in result.stderr.splitlines() if "myblock.xml" in line]
        assert len(said) == 1, result.stderr
        assert "beside" in said[0]


def test_the_sibling_custom_set_is_in_the_help_of_both_commands(runner: CliRunner) -> None:
    for command in (["export", "--help"], ["block", "check", "--help"]):
        result = runner.invoke(main, command)
        assert result.exit_code == 0
        assert "(myblock.xml beside myblock.txt) is read with it" in " ".join(result.output.split())


def test_a_sibling_that_is_not_card_data_is_left_alone(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "deck.txt"
    block.write_text("4 Lightning Bolt\n", encoding="utf-8")
    (tmp_path / "deck.xml").write_text("<notes>mine</notes>", encoding="utf-8")
    result = runner.invoke(main, ["export", str(block), "--to", "text", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert "deck.xml" not in result.stderr


def test_lookup_and_block_check_find_the_printings_export_pins(runner: CliRunner, tmp_path: Path) -> None:
    lookup = runner.invoke(main, ["cards", "lookup", "Plains", "--set", "UNH", "--number", "136"])
    assert lookup.exit_code == 0, lookup.output
    assert "no printing" not in lookup.stderr
    assert "Selected printing: UNH 136" in lookup.stdout
    every = runner.invoke(main, ["cards", "lookup", "Plains", "--all-printings"])
    printings = next(line for line in every.stdout.splitlines() if line.startswith("Printings: "))
    assert printings.count(",") > 300  # every printing of the shipped store, not the compact default's few
    pins = tmp_path / "pin.txt"
    pins.write_text("1 Plains (UNH) 136\n1 Island (UNH) 137\n", encoding="utf-8")
    checked = runner.invoke(main, ["block", "check", str(pins)])
    assert checked.exit_code == 0, checked.output
    assert "no printing" not in checked.stderr
    exported = runner.invoke(main, ["export", str(pins), "--to", "text", "-o", "-"])
    assert "1 Plains (UNH) 136" in exported.stdout and "no printing" not in exported.stderr


@pytest.mark.parametrize("fmt", ["forge-cube", "cockatrice-xml", "forge-custom"])
def test_a_blank_line_never_makes_a_sideboard_for_a_cube_or_card_file(
    runner: CliRunner, tmp_path: Path, fmt: str
) -> None:
    block = tmp_path / "blanksplit.txt"
    block.write_text(BLANK_SPLIT, encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(main, ["export", str(block), "--to", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "sideboard" not in result.stderr
    assert "main 55" in result.stderr
    if fmt == "forge-cube":
        cube = (out / "cube" / "blanksplit.dck").read_text(encoding="utf-8")
        assert cube.count("Counterspell\n") == 2 and "[Sideboard]" not in cube


def test_a_deck_target_still_reads_the_blank_line_as_a_sideboard(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "blanksplit.txt"
    block.write_text(BLANK_SPLIT, encoding="utf-8")
    result = runner.invoke(main, ["export", str(block), "--to", "cod", "-o", str(tmp_path / "d.cod")])
    assert result.exit_code == 0, result.output
    assert "main 45, side 10" in result.stderr


def test_block_check_counts_the_section_after_a_blank_line(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "blanksplit.txt"
    block.write_text(BLANK_SPLIT, encoding="utf-8")
    result = runner.invoke(main, ["block", "check", str(block)])
    assert result.exit_code == 0, result.output
    assert "Block blanksplit: 55 cards" in result.stdout


def test_a_cube_leaves_out_a_sideboard_its_header_names(runner: CliRunner, tmp_path: Path) -> None:
    """An explicit ``Sideboard`` header is the designer's word: a cube drafts no sideboard, and says so."""
    block = tmp_path / "headed.txt"
    block.write_text(BLANK_SPLIT.replace("\n\n", "\nSideboard\n"), encoding="utf-8")
    result = runner.invoke(main, ["export", str(block), "--to", "forge-cube", "-o", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    assert "warning: sideboard (10 cards) not written: forge-cube has no place for it" in result.stderr


def test_an_art_series_name_maps_to_the_real_card(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "bolts.txt"
    block.write_text("4 Lightning Bolt // Lightning Bolt\n", encoding="utf-8")
    text = runner.invoke(main, ["export", str(block), "--to", "text", "-o", "-"])
    assert text.exit_code == 0, text.output
    assert text.stdout.splitlines()[-1] == "4 Lightning Bolt"
    assert "token" not in text.stderr
    xml = runner.invoke(main, ["export", str(block), "--to", "cockatrice-xml", "-o", "-"])
    assert xml.exit_code == 0, xml.output
    assert "<type>Instant</type>" in xml.stdout and "ASTX" not in xml.stdout
    lookup = runner.invoke(main, ["cards", "lookup", "Lightning Bolt // Lightning Bolt"])
    assert "Instant" in lookup.stdout and "art_series" not in lookup.stdout


def test_windows_1252_text_is_read_with_one_warning(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "latin.txt"
    block.write_bytes("// My list\r\n4 Lightning Bolt\r\n2x Jötun Grunt\r\n1 Séance\r\n".encode("cp1252"))
    result = runner.invoke(main, ["export", str(block), "--to", "text", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert "2 Jötun Grunt" in result.stdout and "1 Séance" in result.stdout
    said = [line for line in result.stderr.splitlines() if "Windows-1252" in line]
    assert len(said) == 1 and said[0].startswith("warning: "), result.stderr


def test_binary_input_is_still_refused(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "binary.bin"
    block.write_bytes(bytes(range(256)) * 8)
    result = runner.invoke(main, ["export", str(block), "--to", "text", "-o", "-"])
    assert result.exit_code == 2
    assert "not text" in result.stderr and "Windows-1252" not in result.stderr


def test_a_compressed_list_is_named_so(runner: CliRunner, tmp_path: Path) -> None:
    listed = b"4 Lightning Bolt\n"
    gz = tmp_path / "list.txt.gz"
    gz.write_bytes(gzip.compress(listed))
    result = runner.invoke(main, ["export", str(gz), "--to", "text", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert "4 Lightning Bolt" in result.stdout
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("list.txt", listed)
    zipped = tmp_path / "list.zip"
    zipped.write_bytes(buffer.getvalue())
    result = runner.invoke(main, ["export", str(zipped), "--to", "text", "-o", "-"])
    assert result.exit_code == 2
    assert "zip" in result.stderr and "decompress" in result.stderr and "UTF-8" not in result.stderr


def test_a_gzip_bomb_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.txt.gz"
    bomb.write_bytes(gzip.compress(b"4 Lightning Bolt\n" * (2 << 20)))  # 34 MB of text
    result = runner.invoke(main, ["block", "check", str(bomb)])
    assert result.exit_code == 2
    assert "larger than" in result.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_is_not_a_regular_file(runner: CliRunner) -> None:
    for command in (["export", "/dev/zero", "--to", "text", "-o", "-"], ["block", "check", "/dev/zero"]):
        result = runner.invoke(main, command)
        assert result.exit_code == 2
        assert "not a regular file" in result.output and "no such file" not in result.output


def test_the_default_output_follows_name(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    block = tmp_path / "arena.txt"
    block.write_text("1 Esika, God of the Tree\n99 Forest\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["export", str(block), "--to", "forge", "--name", "Esika Brawl"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "Esika Brawl.dck").is_file() and not (tmp_path / "arena.dck").exists()
    assert "Name=Esika Brawl" in (tmp_path / "Esika Brawl.dck").read_text(encoding="utf-8")
    assert "warning" not in result.stderr


def test_a_list_from_standard_input_has_one_name(runner: CliRunner, tmp_path: Path) -> None:
    cod = (
        '<?xml version="1.0"?><cockatrice_deck version="1"><zone name="main"><card number="4" name="Opt"/>'
        "</zone></cockatrice_deck>"
    )
    exported = runner.invoke(main, ["export", "-", "--to", "cod", "-o", "-"], input=cod)
    assert exported.exit_code == 0, exported.output
    assert "<deckname>stdin</deckname>" in exported.stdout
    checked = runner.invoke(main, ["block", "check", "-"], input=cod)
    assert checked.stdout.startswith("Block stdin:")


def test_an_unknown_name_in_windows_1252_text_is_said_alone_with_the_encoding(
    runner: CliRunner, tmp_path: Path
) -> None:
    """An error is said alone (first line ``error:``); it names the encoding, since an accent read wrongly
    makes a name unknown."""
    block = tmp_path / "latin.txt"
    block.write_bytes("4 Lightning Bolt\n1 Jötun Gruntx\n".encode("cp1252"))
    for command in (["export", str(block), "--to", "text", "-o", "-"], ["block", "check", str(block)]):
        result = runner.invoke(main, command)
        assert result.exit_code == 2
        assert result.stderr.startswith("error: ") and "read as Windows-1252" in result.stderr
