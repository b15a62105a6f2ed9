"""A designer's block in the bot reads as ``export`` and ``block check`` read it: the custom set beside the
list, ``--card-source``, Un-card names typed without their quote marks, Windows-1252 text with a warning.

``bot run`` reads every block as :func:`cockatrice_ext.cli.bot.block_reading` says (installed for
:func:`cockatrice_ext.bot.blocks.load_block` by :func:`~cockatrice_ext.bot.blocks.lists_read_by`); these tests
call those, and the command itself up to its connection (a URL that refuses at once).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.bot import blocks
from cockatrice_ext.bot.blocks import lists_read_by, load_block
from cockatrice_ext.cli import main
from cockatrice_ext.cli.bot import block_reading
from cockatrice_ext.cli.cards import CardSources

NOWHERE = "ws://127.0.0.1:9/servatrice"  # refused at once: everything before the connection has run

CUSTOM_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>INTL</name><longname>A designer's set</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name>{name}</name>
      <text>Flying</text>
      <prop>
        <layout>normal</layout><side>front</side><type>Creature</type><maintype>Creature</maintype>
        <manacost>1U</manacost><cmc>2</cmc><colors>U</colors><coloridentity>U</coloridentity><pt>1/1</pt>
      </prop>
      <set rarity="common" num="1">INTL</set>
      <tablerow>1</tablerow>
    </card>
  </cards>
</cockatrice_carddatabase>
"""
CUSTOM = "\u00c6rgeist"  # Ærgeist: a designer's own card, with a letter Windows-1252 has
UN_CARD = "Ach! Hans, Run!"  # an Un-card, as lists type it: the card data names it in quote marks


def designer_block(folder: Path, stem: str = "intl", *, encoding: str = "utf-8", beside: bool = True) -> Path:
    """``STEM.txt``: the designer's card, real cards and an Un-card without its quote marks; with ``beside``,
    the custom set ``STEM.xml`` next to it."""
    path = folder / f"{stem}.txt"
    path.write_bytes(f"1 {CUSTOM}\n2 Grizzly Bears\n1 {UN_CARD}\n1 Serra Angel\n".encode(encoding))
    if beside:
        (folder / f"{stem}.xml").write_text(CUSTOM_SET.format(name=CUSTOM), encoding="utf-8")
    return path


def read_as_bot_run(spec: str, card_source: CardSources | None = None) -> blocks.LoadedBlock:
    """``load_block(spec)`` as a game of ``bot run --auction-block SPEC`` calls it."""
    with lists_read_by(block_reading(card_source, (spec,))):
        return load_block(spec)


def card_names(loaded: blocks.LoadedBlock) -> list[str]:
    """The engine's names of the block's cards (``game_names`` are Cockatrice's spellings)."""
    return [facts.name for facts in loaded.facts]


def test_the_custom_set_beside_the_block_gives_its_cards(tmp_path: Path) -> None:
    path = designer_block(tmp_path)
    loaded = read_as_bot_run(str(path))
    names = [facts.name for facts in loaded.facts]
    assert names.count("Grizzly Bears") == 2 and "Serra Angel" in names and CUSTOM in names
    assert loaded.name == "intl"
    exported = tmp_path / "intl.cod"
    result = CliRunner().invoke(main, ["export", str(path), "--to", "cod", "-o", str(exported)])
    assert result.exit_code == 0, result.output
    spelt = re.findall(r'<card number="(\d+)" name="([^"]*)"', exported.read_text(encoding="utf-8"))
    in_export = sorted(html.unescape(name) for count, name in spelt for _ in range(int(count)))
    assert sorted(loaded.game_names) == in_export  # the bot's pile, card for card as export writes it


def test_an_un_card_without_its_quote_marks_is_the_un_card(tmp_path: Path) -> None:
    path = tmp_path / "un.txt"
    path.write_text(f"1 {UN_CARD}\n1 Grizzly Bears\n", encoding="utf-8")
    loaded = read_as_bot_run(str(path))
    assert f'"{UN_CARD}"' in card_names(loaded) and f'"{UN_CARD}"' in loaded.game_names


def test_a_windows_1252_block_is_read_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = designer_block(tmp_path, encoding="cp1252")
    loaded = read_as_bot_run(str(path))
    assert CUSTOM in card_names(loaded)  # its accented letter read as Windows-1252 has it
    said = capsys.readouterr().err
    assert f"{path} is not UTF-8: read as Windows-1252" in said, said


def test_card_source_gives_the_designers_cards_over_the_built_in_ones(tmp_path: Path) -> None:
    """``--card-source`` as ``export`` reads it: stacked on the built-in cards (real cards still resolve)."""
    path = designer_block(tmp_path, beside=False)
    card_set = tmp_path / "elsewhere.xml"
    card_set.write_text(CUSTOM_SET.format(name=CUSTOM), encoding="utf-8")
    loaded = read_as_bot_run(str(path), CardSources((str(card_set),)))
    assert CUSTOM in card_names(loaded) and "Serra Angel" in card_names(loaded)
    with pytest.raises(LookupError, match=CUSTOM):  # without it, the designer's card is unknown
        read_as_bot_run(str(path))


def test_a_block_is_read_again_when_it_changes_and_said_once_per_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = designer_block(tmp_path, encoding="cp1252")
    with lists_read_by(block_reading(None, (str(path),))):
        first = load_block(str(path))
        again = load_block(str(path))
        assert again.facts == first.facts
        assert capsys.readouterr().err.count("not UTF-8") == 1  # the same file is not read twice
        path.write_text(f"3 {CUSTOM}\n", encoding="utf-8")
        changed = load_block(str(path))
    assert card_names(changed) == [CUSTOM] * 3


def test_a_missing_block_is_still_a_key_error_naming_the_bundled_ones(tmp_path: Path) -> None:
    with pytest.raises(KeyError, match="no bundled block 'nosuch'"):
        read_as_bot_run("nosuch")
    assert len(read_as_bot_run("auction-sample").facts) > 100


def bot_run(tmp_path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, ["bot", "run", NOWHERE, "--user", "ref", "--journal", str(tmp_path / "j.sqlite3"), *args]
    )
    return result.exit_code, result.output


def test_bot_run_starts_with_the_designers_block(tmp_path: Path) -> None:
    """The testers' ``bot run --auction-block intl.txt`` with ``intl.xml`` beside it, the list saved by a
    Windows editor: it got as far as connecting (here refused), not "Invalid value for --auction-block"."""
    path = designer_block(tmp_path, encoding="cp1252")
    code, output = bot_run(tmp_path, "--format", "auction", "--auction-block", str(path))
    assert "--auction-block" not in output and "unknown card" not in output, output
    assert code == 1 and f"cannot run the bot on {NOWHERE}" in output, output
    assert "custom cards read from intl.xml, the card set beside intl.txt" in output
    assert "is not UTF-8: read as Windows-1252" in output
    assert blocks._reading is None  # the command's way of reading ends with it


def test_bot_run_takes_card_source_as_export_does(tmp_path: Path) -> None:
    path = designer_block(tmp_path, beside=False)
    card_set = tmp_path / "elsewhere.xml"
    card_set.write_text(CUSTOM_SET.format(name=CUSTOM), encoding="utf-8")
    code, output = bot_run(tmp_path, "--format", "auction", "--auction-block", str(path))
    assert code == 2 and "Invalid value for --auction-block" in output and CUSTOM in output, output
    assert "--card-source FILE" in output  # the hint applies now: the bot takes one
    args = ("--format", "auction", "--auction-block", str(path), "--card-source", str(card_set))
    code, output = bot_run(tmp_path, *args)
    assert code == 1 and f"cannot run the bot on {NOWHERE}" in output, output


def test_a_broken_custom_set_beside_the_block_is_the_blocks_fault(tmp_path: Path) -> None:
    path = designer_block(tmp_path)
    (tmp_path / "intl.xml").write_text(
        CUSTOM_SET.format(name=CUSTOM).replace("</cards>", ""), encoding="utf-8"
    )
    code, output = bot_run(tmp_path, "--format", "auction", "--auction-block", str(path))
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert code == 2 and len(errors) == 1 and "--auction-block" in errors[0], output
    assert "intl.xml" in errors[0] and "beside the list" in errors[0], output


def test_a_block_named_in_chat_is_a_bundled_one_never_a_file(tmp_path: Path) -> None:
    """``!vortex new 2 /some/file`` hands the chat's word to ``load_block``: under ``bot run`` only the
    operator's own block is a file; another path is no block, said as for a name that does not exist."""
    own = designer_block(tmp_path)
    other = designer_block(tmp_path, "other")
    with lists_read_by(block_reading(None, (str(own),))):
        assert len(load_block(str(own))) == 5
        assert len(load_block("vortex-pool", sections=None)) > 40
        with pytest.raises(KeyError, match="no bundled block") as refused:
            load_block(str(other))
    assert "Grizzly" not in str(refused.value)


def test_bot_run_refuses_several_card_sources_only_for_combat(tmp_path: Path) -> None:
    """Combat's deck checks read one card source; blocks take several, as ``export`` does."""
    path = designer_block(tmp_path, beside=False)
    card_set = tmp_path / "elsewhere.xml"
    card_set.write_text(CUSTOM_SET.format(name=CUSTOM), encoding="utf-8")
    sources = ("--card-source", str(card_set), "--card-source", "default")
    code, output = bot_run(tmp_path, "--auction-block", str(path), *sources)
    assert code == 2 and "Invalid value for --card-source" in output and "Combat" in output, output
    code, output = bot_run(tmp_path, "--format", "auction", "--auction-block", str(path), *sources)
    assert code == 1 and f"cannot run the bot on {NOWHERE}" in output, output
