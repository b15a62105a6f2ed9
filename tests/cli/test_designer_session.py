"""What a block designer met using the command line with their own list and no Cockatrice: messages that
named a fix that cannot be made, contradicted another line, or read wrongly."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main


def _cube(tmp_path: Path, cards: int) -> Path:
    block = tmp_path / "cube.txt"
    block.write_text(f"{cards} Lightning Bolt\n", encoding="utf-8")
    return block


@pytest.mark.parametrize(
    ("cards", "options", "said"),
    [
        # 8 players x 3 packs asked for: 26 cards fit packs of 1; fewer players or packs fit too
        (
            26,
            ["--players", "8", "--packs", "3"],
            "a draft of 8 players x 3 packs of 5 cards needs 120 cards; the cube has 26; nothing written"
            " (try --pack-size 1, fewer --players or fewer --packs, or give the cube more cards).",
        ),
        # the least draft (2 players, 1 pack) asked for with big packs: the pack size that fits is named
        (
            26,
            ["--players", "2", "--packs", "1", "--pack-size", "30"],
            "a draft of 2 players x 1 pack of 30 cards needs 60 cards; the cube has 26; nothing written"
            " (try --pack-size 13, or give the cube more cards).",
        ),
        # one card: no option makes a draft of it (it used to ask for fewer players, below the least 2)
        (1, [], "the cube has 1; nothing written (give the cube more cards)."),
    ],
)
def test_a_cube_too_small_names_only_fixes_that_can_be_made(
    runner: CliRunner, tmp_path: Path, cards: int, options: list[str], said: str
) -> None:
    block = _cube(tmp_path, cards)
    out = tmp_path / "c"
    result = runner.invoke(main, ["export", str(block), "--to", "forge-cube", *options, "-o", str(out)])
    assert result.exit_code == 2
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert line.endswith(said), line
    assert "1 packs" not in line
    assert not out.exists()


def test_the_pack_size_named_makes_the_draft(runner: CliRunner, tmp_path: Path) -> None:
    block = _cube(tmp_path, 26)
    args = ["export", str(block), "--to", "forge-cube", "--players", "2", "--packs", "1", "-o"]
    result = runner.invoke(main, [*args, str(tmp_path / "c"), "--pack-size", "13"])
    assert result.exit_code == 0, result.output


def test_an_xz_file_is_named_with_its_article(runner: CliRunner, tmp_path: Path) -> None:
    packed = tmp_path / "block.txt.xz"
    packed.write_bytes(lzma.compress(b"4 Shock\n"))
    result = runner.invoke(main, ["export", str(packed), "--to", "cod", "-o", str(tmp_path / "b.cod")])
    assert result.exit_code == 2
    assert "an xz-compressed file, not a list: decompress it and give the list" in result.stderr


NAMESAKE_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>DRGN</name><longname>Dragon Week</longname><settype>Custom</settype></set></sets>
  <cards>
    <card><name>Shock</name><text>Shock deals 3 damage to any target.</text>
      <prop><type>Instant</type><maintype>Instant</maintype><manacost>R</manacost><cmc>1</cmc></prop>
      <set rarity="common" num="1">DRGN</set></card>
    <card><name>Ember Whelp</name><text>Flying</text>
      <prop><type>Creature — Dragon</type><maintype>Creature</maintype><manacost>1R</manacost><cmc>2</cmc>
        <pt>1/1</pt></prop>
      <set rarity="common" num="2">DRGN</set></card>
  </cards>
</cockatrice_carddatabase>
"""


@pytest.mark.parametrize(("fmt", "program"), [("mtgo", "MTGO"), ("arena", "MTG Arena")])
def test_a_namesake_of_a_real_card_is_not_called_missing_from_mtgo_or_arena(
    runner: CliRunner, tmp_path: Path, fmt: str, program: str
) -> None:
    """The designer's ``Shock`` (3 damage) was said both to play as the real Shock and to be a card the
    program does not have: it has one of that name, and plays it. Only the custom card is missing."""
    (tmp_path / "dragons.xml").write_text(NAMESAKE_SET, encoding="utf-8")
    block = tmp_path / "dragons.txt"
    block.write_text("2 Shock\n2 Ember Whelp\n", encoding="utf-8")
    result = runner.invoke(main, ["export", str(block), "--to", fmt, "-o", "-"])
    assert result.exit_code == 0, result.output
    assert f"this {fmt} export names it, so the deck will play the real Shock" in result.stderr
    assert f"warning: {program} does not have Ember Whelp: the card is not in the real card data" in (
        result.stderr
    )
    assert "Shock:" not in result.stderr and "have Shock" not in result.stderr


@pytest.mark.parametrize("fmt", ["forge", "text", "mtgo", "arena", "forge-cube"])
def test_a_list_whose_every_card_the_format_leaves_out_writes_no_empty_deck(
    runner: CliRunner, tmp_path: Path, fmt: str
) -> None:
    """A list of tokens alone wrote an empty Forge deck (``[Main]`` and nothing), exit 0: now it is refused
    as a list of no cards is, after the warning that names what the format leaves out."""
    block = tmp_path / "tokens.txt"
    block.write_text("1 Treasure\n2 Goblin Token\n", encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(main, ["export", str(block), "--to", fmt, "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert f"warning: tokens (3 cards) not written: {fmt} has no place for it" in result.stderr
    assert f"error: tokens.txt: {fmt} has no place for any of its cards; nothing written." in result.stderr
    assert not out.exists()


def test_a_format_with_a_place_for_them_still_writes_them(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "tokens.txt"
    block.write_text("1 Treasure\n2 Goblin Token\n", encoding="utf-8")
    result = runner.invoke(main, ["export", str(block), "--to", "cod", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert '<zone name="tokens">' in result.stdout and 'name="Treasure Token"' in result.stdout


def test_a_designers_set_saved_under_another_name_is_named_with_the_unknown_cards(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``myset.xml`` beside ``block.txt`` is read neither as the list's set (that is ``block.xml``) nor as a
    source: the unknown names' error said only "add a source with --card-source FILE". Now it names the file
    that holds them and both ways to have it read; an XML that is no card file, or holds none of them, is not
    named."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "myset.xml").write_text(NAMESAKE_SET, encoding="utf-8")
    (tmp_path / "other.xml").write_text(NAMESAKE_SET.replace("Ember Whelp", "Cinder Whelp"), encoding="utf-8")
    (tmp_path / "notes.xml").write_text("<notes><card>Ember Whelp</card></notes>", encoding="utf-8")
    block = tmp_path / "block.txt"
    block.write_text("2 Ember Whelp\n4 Lightning Bolt\n", encoding="utf-8")
    result = runner.invoke(main, ["export", "block.txt", "--to", "cod", "-o", "block.cod"])
    assert result.exit_code == 2
    assert (
        "  (myset.xml, in the list's folder, holds this card but is not read with the list: give"
        " --card-source myset.xml, or name it block.xml to be read with block.txt)"
    ) in result.stderr
    assert "other.xml" not in result.stderr and "notes.xml" not in result.stderr
    assert not (tmp_path / "block.cod").exists()
    args = ["export", "block.txt", "--card-source", "myset.xml", "--to", "cod", "-o", "-"]
    given = runner.invoke(main, args)
    assert given.exit_code == 0, given.output
    assert 'name="Ember Whelp"' in given.stdout


TOKENS_ONLY = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <cards>
    <card><name>Kitten</name><text></text><token>1</token>
      <prop><colors>G</colors><type>Token Creature — Cat</type><maintype>Creature</maintype>
        <pt>1/1</pt></prop>
      <set>CAT</set></card>
  </cards>
</cockatrice_carddatabase>
"""


def test_a_block_of_custom_tokens_alone_is_not_said_to_be_real_cards(
    runner: CliRunner, tmp_path: Path
) -> None:
    """Nothing for Forge's custom folder was said to be because "Forge has every real card of the block":
    the block was a designer's token, which Forge does not have. The line now names it, and why it is not
    written (a token script goes with a custom card that makes it); still nothing written, exit 0."""
    source = tmp_path / "kittens.xml"
    source.write_text(TOKENS_ONLY, encoding="utf-8")
    out = tmp_path / "f"
    result = runner.invoke(main, ["export", str(source), "--to", "forge-custom", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert not out.exists()
    assert "its tokens Forge does not have (Kitten) are written only with a custom card that makes them" in (
        result.stderr
    )
    real = tmp_path / "real.txt"
    real.write_text("4 Duress\n", encoding="utf-8")
    result = runner.invoke(main, ["export", str(real), "--to", "forge-custom", "-o", str(out)])
    assert "tokens" not in result.stderr
