"""``export --help`` shows a working example, the list syntax it reads, and says XMage is read only."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cli import main
from cockatrice_ext.decks.readers import read_cod


def _help(runner: CliRunner) -> str:
    result = runner.invoke(main, ["export", "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_help_has_an_example_command(runner: CliRunner) -> None:
    assert re.search(r"Example: cockatrice-ext export \S+\.txt --to cod -o \S+\.cod", _help(runner))


def test_the_helps_example_list_reads_as_it_says(runner: CliRunner, tmp_path: Path) -> None:
    """The list lines the help shows (before their notes in brackets) make the deck it describes."""
    text = _help(runner)
    block = text[text.index("A list has one card a line") :].split("\n\n", 1)[0]
    lines = [re.split(r"\s{2,}\(", line.strip())[0] for line in block.splitlines()[1:]]
    assert lines == ["4 Lightning Bolt", "1 Fire // Ice (MH2) 290", "Sideboard", "2 Duress"]
    listing = tmp_path / "example.txt"
    listing.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "example.cod"
    result = runner.invoke(main, ["export", str(listing), "--to", "cod", "-o", str(out)])
    assert result.exit_code == 0, result.output
    deck = read_cod(out.read_bytes(), "example.cod")
    main_rows = [(e.name, e.count, e.set_code, e.collector_number) for e in deck.sections["main"]]
    assert main_rows == [("Lightning Bolt", 4, "", ""), ("Fire // Ice", 1, "MH2", "290")]
    assert [(e.name, e.count) for e in deck.sections["side"]] == [("Duress", 2)]


def test_the_help_says_xmage_is_read_not_written(runner: CliRunner) -> None:
    text = " ".join(_help(runner).split())
    assert "XMage decks (.dck) are read (--from xmage) but not written" in text
    assert "xmage" not in text.split("--to [", 1)[1].split("]", 1)[0]
