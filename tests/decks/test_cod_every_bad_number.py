"""A .cod whose card numbers are no counts (``4x``, ``0``, ``-3``) names them all in one run, each at its
``FILE:LINE``, as unknown names are; a Forge art index past a set's arts keeps the set's printing.

Seen as a block designer: each run of ``export`` named the next bad number only, one run per mistake.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.readers import read_cod

COD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>x</deckname>
    <zone name="main">
        <card number="4x" name="Lightning Bolt"/>
        <card number="2" name="Opt"/>
        <card number="0" name="Shock"/>
    </zone>
    <zone name="side">
        <card number="-3" name="Duress"/>
    </zone>
</cockatrice_deck>
"""


def test_every_bad_number_is_named_at_once() -> None:
    with pytest.raises(DeckFormatError) as info:
        read_cod(COD.encode(), source="bad.cod")
    lines = str(info.value).splitlines()
    assert lines[0] == "bad.cod:5: 3 card entries cannot be read:"
    assert lines[1].startswith("  bad.cod:5: number must be") and "'4x'" in lines[1]
    assert lines[2].startswith("  bad.cod:7: number must be") and "0" in lines[2]
    assert lines[3].startswith("  bad.cod:10: number must be") and "'-3'" in lines[3]
    assert info.value.line == 5


def test_one_bad_number_is_said_as_before() -> None:
    one = COD.replace('number="0"', 'number="1"').replace('number="-3"', 'number="1"')
    with pytest.raises(DeckFormatError) as info:
        read_cod(one.encode(), source="bad.cod")
    assert str(info.value) == "bad.cod:5: number must be a positive whole number, got '4x'"


def test_export_names_every_bad_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    deck = tmp_path / "bad.cod"
    deck.write_text(COD, encoding="utf-8")
    out = tmp_path / "out.txt"
    result = CliRunner().invoke(main, ["export", str(deck), "--to", "text", "-o", str(out)])
    assert result.exit_code == 2
    for line in (5, 7, 10):
        assert f"  {deck}:{line}: number must be" in result.stderr
    assert not out.exists()


def test_a_forge_art_index_past_the_sets_arts_keeps_the_sets_first_art(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    deck = tmp_path / "arts.dck"
    deck.write_text("[metadata]\nName=arts\n[Main]\n1 Island|M19|9\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(deck), "--to", "cod", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert 'name="Island" setShortName="M19" collectorNumber="265"' in result.stdout
    assert f"{deck}:4: " in result.stderr and "art 9" in result.stderr and "4 arts" in result.stderr
