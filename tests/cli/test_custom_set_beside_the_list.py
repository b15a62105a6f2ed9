"""The custom set beside a list (``myblock.xml`` beside ``myblock.txt``) and the list's own card file:
``--to cockatrice-xml`` never writes its default output where the next export reads the designer's set, and
a custom set read with the list leaves the short token names (``1 Treasure``) resolving as without it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cockatrice_ext.cli import main

BLOCK = "4 Lightning Bolt\n2 Opt\n\nTokens\n1 Treasure\n1 Clue\n1 Food\n"

DESIGNER_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets>
    <set><name>MYB</name><longname>My Block</longname><settype>Custom</settype></set>
  </sets>
  <cards>
    <card>
      <name>Gavel Sprite</name>
      <text>Flying</text>
      <prop><layout>normal</layout><side>front</side><type>Creature — Faerie</type>
      <maintype>Creature</maintype><manacost>1U</manacost><cmc>2</cmc><colors>U</colors><pt>1/1</pt></prop>
      <set rarity="common" num="1">MYB</set>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Treasure Token</name>
      <text>{T}, Sacrifice this token: Add one mana of any color. (My Block's own.)</text>
      <prop><layout>token</layout><side>front</side><type>Token Artifact — Treasure</type>
      <maintype>Artifact</maintype><cmc>0</cmc></prop>
      <set rarity="token" num="T1">MYB</set>
      <token>1</token>
      <tablerow>0</tablerow>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def _export(runner: CliRunner, *args: str) -> Result:
    return runner.invoke(main, ["export", *args])


def test_a_card_file_export_is_not_read_back_as_the_designers_set(runner: CliRunner, tmp_path: Path) -> None:
    """The tester's run in a clean folder: cod, cockatrice-xml (its default output), cod again. The card
    file used to be written as myblock.xml, read back at the next export as the designer's custom set, whose
    Cockatrice token names left ``1 Treasure`` unknown (exit 2)."""
    Path("myblock.txt").write_text(BLOCK, encoding="utf-8")
    first = _export(runner, "myblock.txt", "--to", "cod")
    assert first.exit_code == 0, first.output
    cod = Path("myblock.cod").read_bytes()
    xml = _export(runner, "myblock.txt", "--to", "cockatrice-xml")
    assert xml.exit_code == 0, xml.output
    assert xml.stdout.strip() == "myblock.cards.xml" and Path("myblock.cards.xml").is_file()
    assert not Path("myblock.xml").exists()
    again = _export(runner, "myblock.txt", "--to", "cod")
    assert again.exit_code == 0, again.output
    assert "custom cards read" not in again.stderr
    assert Path("myblock.cod").read_bytes() == cod
    checked = runner.invoke(main, ["block", "check", "myblock.txt"])
    assert checked.exit_code == 0, checked.output
    assert "custom cards read" not in checked.stderr
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == ["myblock.cards.xml", "myblock.cod", "myblock.txt"]


def test_a_card_file_written_as_the_custom_set_is_said_and_changes_no_name(
    runner: CliRunner, tmp_path: Path
) -> None:
    """``-o myblock.xml`` is the user's word: it is written, a note says the next export reads it as the
    list's custom set, and reading it so resolves every name as without it (its tokens are named by
    Cockatrice's rules, ``Treasure Token``: the list's ``1 Treasure`` is still that token)."""
    Path("myblock.txt").write_text(BLOCK, encoding="utf-8")
    before = _export(runner, "myblock.txt", "--to", "cod", "-o", "before.cod")
    assert before.exit_code == 0, before.output
    xml = _export(runner, "myblock.txt", "--to", "cockatrice-xml", "-o", "myblock.xml")
    assert xml.exit_code == 0, xml.output
    assert "note: myblock.xml is named like myblock.txt and beside it" in xml.stderr
    assert "myblock.cards.xml" in xml.stderr
    after = _export(runner, "myblock.txt", "--to", "cod", "-o", "after.cod")
    assert after.exit_code == 0, after.output
    assert "note: custom cards read from myblock.xml" in after.stderr
    assert Path("after.cod").read_bytes() == Path("before.cod").read_bytes()
    checked = runner.invoke(main, ["block", "check", "myblock.txt"])
    assert checked.exit_code == 0, checked.output


def test_a_designers_own_token_is_listed_by_its_short_name(runner: CliRunner, tmp_path: Path) -> None:
    """A real designer's set beside the list still wins, its own Treasure Token too, under the name a list
    gives the token (``1 Treasure``, as without the set)."""
    Path("myblock.txt").write_text("4 Gavel Sprite\n\nTokens\n2 Treasure\n1 Clue\n", encoding="utf-8")
    Path("myblock.xml").write_text(DESIGNER_SET, encoding="utf-8")
    result = _export(runner, "myblock.txt", "--to", "cockatrice-xml", "-o", "-")
    assert result.exit_code == 0, result.output
    assert "note: custom cards read from myblock.xml" in result.stderr
    assert "<name>Gavel Sprite</name>" in result.stdout
    assert "(My Block's own.)" in result.stdout  # the designer's token, not the real one
    text = _export(runner, "myblock.txt", "--to", "text", "-o", "-")
    assert text.exit_code == 0, text.output


def test_an_export_never_writes_onto_the_card_files_it_reads(runner: CliRunner, tmp_path: Path) -> None:
    """A designer's ``--card-source src.xml`` given as ``-o src.xml`` was replaced by the export of a
    one-card list (exit 0, no word); so was the custom set beside the list. Both are refused, as the list
    itself is, and the file is left as it was; a file already in a card-source folder too."""
    Path("src.xml").write_text(DESIGNER_SET, encoding="utf-8")
    Path("l.txt").write_text("1 Gavel Sprite\n", encoding="utf-8")
    result = _export(runner, "l.txt", "--card-source", "src.xml", "--to", "cockatrice-xml", "-o", "src.xml")
    assert result.exit_code == 2, result.output
    assert "refusing to overwrite the card source src.xml, which this export reads" in result.stderr
    assert Path("src.xml").read_text(encoding="utf-8") == DESIGNER_SET

    Path("myblock.txt").write_text("4 Gavel Sprite\n", encoding="utf-8")
    Path("myblock.xml").write_text(DESIGNER_SET, encoding="utf-8")
    result = _export(runner, "myblock.txt", "--to", "cockatrice-xml", "-o", "myblock.xml")
    assert result.exit_code == 2, result.output
    assert "refusing to overwrite the custom set beside the list, myblock.xml" in result.stderr
    assert "without -o it is myblock.cards.xml" in result.stderr
    assert Path("myblock.xml").read_text(encoding="utf-8") == DESIGNER_SET

    folder = tmp_path / "sets"
    folder.mkdir()
    (folder / "mine.xml").write_text(DESIGNER_SET, encoding="utf-8")
    into_folder = ("l.txt", "--card-source", "sets", "--to", "cockatrice-xml", "-o")
    result = _export(runner, *into_folder, "sets/mine.xml")
    assert result.exit_code == 2, result.output
    assert "sets/mine.xml in the card-source folder sets" in result.stderr
    assert (folder / "mine.xml").read_text(encoding="utf-8") == DESIGNER_SET
    new = _export(runner, *into_folder, "sets/out.xml")
    assert new.exit_code == 0, new.output  # a new file there is no loss
    fine = _export(runner, "l.txt", "--card-source", "src.xml", "--to", "cockatrice-xml", "-o", "out.xml")
    assert fine.exit_code == 0, fine.output


def test_what_the_custom_set_gets_wrong_is_said_as_warning_lines(runner: CliRunner, tmp_path: Path) -> None:
    """A designer's set with HTML in a card's text and a misspelt type: ``export`` and ``cards lookup`` say
    both as ``warning:`` lines naming the file and line, as their other warnings (they were log lines with a
    timestamp, or nothing where logging is quiet)."""
    html = "<text>Flying<br/>When it enters, <b>scry 1</b>.</text>"
    mistaken = DESIGNER_SET.replace("<text>Flying</text>", html)
    mistaken = mistaken.replace("Creature — Faerie", "Creture — Faerie")
    Path("myblock.xml").write_text(mistaken, encoding="utf-8")
    Path("myblock.txt").write_text("4 Gavel Sprite\n", encoding="utf-8")
    for result in (
        _export(runner, "myblock.txt", "--to", "cod"),
        runner.invoke(main, ["cards", "lookup", "Gavel Sprite", "--card-source", "myblock.xml"]),
    ):
        assert result.exit_code == 0, result.output
        said = [line for line in result.stderr.splitlines() if line.startswith("warning: myblock.xml:")]
        assert any("markup in its <text>" in line for line in said), result.stderr
        assert any("'Creture'" in line for line in said), result.stderr
