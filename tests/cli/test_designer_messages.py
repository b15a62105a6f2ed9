"""Messages a block designer met: warnings said as ``warning:`` lines, errors that name their fix."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main


def test_block_check_says_warnings_as_export_does(runner: CliRunner, tmp_path: Path) -> None:
    """They went through the logger: a time stamp and 'WARNING cockatrice_ext.cli.block:'."""
    block = tmp_path / "block.txt"
    block.write_text("1 Insectile Aberration\n40 Lightning Bolt\n", encoding="utf-8")
    result = runner.invoke(main, ["block", "check", str(block)])
    assert result.exit_code == 0, result.output
    assert f"warning: {block}:1: 'Insectile Aberration' is the back face of" in result.stderr
    assert "WARNING" not in result.stderr


def test_no_cockatrice_install_lists_the_places_looked_in(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    block = tmp_path / "block.txt"
    block.write_text("1 Lightning Bolt\n", encoding="utf-8")
    result = runner.invoke(
        main, ["export", str(block), "--card-source", "cockatrice", "--to", "text", "-o", "-"]
    )
    assert result.exit_code == 2
    assert str(tmp_path / ".local" / "share" / "Cockatrice" / "Cockatrice") in result.output
    assert "cards.xml" in result.output and "--card-source PATH" in result.output


def test_lookup_of_a_split_card_gives_the_name_for_a_deck_list(runner: CliRunner) -> None:
    result = runner.invoke(main, ["cards", "lookup", "Fire/Ice"])
    assert result.exit_code == 0, result.output
    assert "In a deck list: Fire // Ice" in result.output


def test_a_cube_too_small_names_the_options_that_fix_it(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "cube.txt"
    block.write_text("6 Lightning Bolt\n", encoding="utf-8")
    args = [
        "export",
        str(block),
        "--to",
        "forge-cube",
        "--players",
        "2",
        "--packs",
        "1",
        "-o",
        str(tmp_path / "c"),
    ]
    result = runner.invoke(main, args)
    assert result.exit_code == 2
    assert "needs 10 cards; the cube has 6" in result.output
    # the largest pack that fits is named; no fewer players (2 is the least) nor packs (1) are asked for
    assert "(try --pack-size 3, or give the cube more cards)" in result.output
    assert "--players" not in result.output and "--packs" not in result.output
    assert not (tmp_path / "c").exists()
