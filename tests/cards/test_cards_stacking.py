"""Card sources that stack: custom cards and real cards in one export; later sources win."""

from __future__ import annotations

import socket
from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cli import main

CUSTOM = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>TST</name><longname>Test set</longname><settype>Custom</settype>
  <releasedate>2026-01-01</releasedate></set></sets>
  <cards>
    <card><name>Gilded Test</name><text>{text}</text>
      <prop><layout>normal</layout><side>front</side><type>Artifact</type><maintype>Artifact</maintype>
      <manacost>2</manacost><cmc>2</cmc></prop>
      <set rarity="rare">TST</set></card>
  </cards>
</cockatrice_carddatabase>
"""


def write_custom(path: Path, text: str) -> Path:
    path.write_text(CUSTOM.replace("{text}", text))
    return path


def test_custom_and_real_cards_export_together(tmp_path: Path) -> None:
    custom = write_custom(tmp_path / "custom.xml", "First version.")
    block = tmp_path / "block.txt"
    block.write_text("1 Gilded Test\n4 Duress\n1 Packaged Gnome\n")
    out = tmp_path / "block.cod"
    result = CliRunner().invoke(
        main, ["export", str(block), "--to", "cod", "-o", str(out), "--card-source", str(custom)]
    )
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert 'name="Gilded Test"' in text and 'name="Duress"' in text and 'name="Packaged Gnome"' in text


def test_later_sources_win_and_the_default_can_be_left_out(tmp_path: Path) -> None:
    first = write_custom(tmp_path / "first.xml", "First version.")
    second = write_custom(tmp_path / "second.xml", "Second version.")
    runner = CliRunner()
    result = runner.invoke(
        main, ["cards", "lookup", "Gilded Test", "--card-source", str(first), "--card-source", str(second)]
    )
    assert result.exit_code == 0, result.output
    assert "Second version." in result.output and "First version." not in result.output

    result = runner.invoke(
        main, ["cards", "lookup", "Duress", "--card-source", str(first), "--no-default-cards"]
    )
    assert result.exit_code == 2 and "unknown card 'Duress'" in result.output
    result = runner.invoke(main, ["cards", "lookup", "Duress", "--card-source", str(first)])
    assert result.exit_code == 0 and result.output.startswith("Duress")


def test_scryfall_unreachable_is_said_not_every_card_unknown(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("COCKATRICE_EXT_SCRYFALL_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("COCKATRICE_EXT_CACHE", str(tmp_path / "cache"))
    block = tmp_path / "block.txt"
    block.write_text("4 Duress\n")
    result = CliRunner().invoke(
        main,
        ["export", str(block), "--to", "cod", "-o", str(tmp_path / "x.cod"), "--card-source", "scryfall"],
    )
    assert result.exit_code != 0
    assert "cannot reach Scryfall" in result.output and "unknown card" not in result.output
    assert not (tmp_path / "x.cod").exists()


def test_env_cards_replace_the_default_under_card_sources(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """$COCKATRICE_EXT_CARDS is the bottom layer instead of the built-in cards; --no-default-cards drops it"""
    monkeypatch.setenv("COCKATRICE_EXT_CARDS", str(write_custom(tmp_path / "env.xml", "From the variable.")))
    top = tmp_path / "top.xml"
    top.write_text(CUSTOM.replace("Gilded Test", "Top Test").replace("{text}", "From the option."))
    args = ["cards", "lookup", "Gilded Test", "Top Test", "--card-source", str(top)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "From the variable." in result.output and "From the option." in result.output
    result = CliRunner().invoke(main, [*args, "--no-default-cards"])
    assert result.exit_code == 2 and "unknown card 'Gilded Test'" in result.output
    result = CliRunner().invoke(main, ["cards", "lookup", "Duress", "--card-source", str(top)])
    assert result.exit_code == 2  # the built-in cards are replaced, not added
