"""What people paste from deck sites reads as a block list: Moxfield, Archidekt and Forge markers."""

from __future__ import annotations

import contextlib
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.cli import main
from cockatrice_ext.decks.blocklist import parse_block_list, parse_card_text, strip_markers
from cockatrice_ext.decks.model import MAYBE
from cockatrice_ext.decks.readers import read_cod

PASTED = """\
1 Lightning Bolt (2X2) 117 *F*
4 Duress (M19) 94 *E*
1x Counterspell (mh2) 267 [Removal{noDeck}{noPrice},Counter] ^Have,#37d67a^
1x Brainstorm [Maybeboard{noDeck}{noPrice}]
1 Delver of Secrets|ISD|1
2 Fire // Ice|MH2
"""


def test_site_markers_are_dropped_and_categories_pick_sections() -> None:
    deck = parse_block_list(PASTED, source="pasted")
    main_cards = [(e.count, e.name, e.set_code, e.collector_number) for e in deck.main]
    assert main_cards == [
        (1, "Lightning Bolt", "2X2", "117"),
        (4, "Duress", "M19", "94"),
        (1, "Counterspell", "MH2", "267"),
        (1, "Delver of Secrets", "ISD", ""),  # Forge's third field is an art index, not a number
        (2, "Fire // Ice", "MH2", ""),
    ]
    assert [e.name for e in deck.sections[MAYBE]] == ["Brainstorm"]


def test_a_maybeboard_survives_a_cod_round_trip(tmp_path: Path) -> None:
    block = tmp_path / "pasted.txt"
    block.write_text(PASTED)
    out = tmp_path / "pasted.cod"
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(out)])
    assert result.exit_code == 0, result.output
    deck = read_cod(out.read_bytes(), source="pasted.cod")
    assert [e.name for e in deck.sections[MAYBE]] == ["Brainstorm"]
    assert "Brainstorm" not in {e.name for e in deck.main}

    result = CliRunner().invoke(main, ["export", str(block), "--to", "arena", "-o", str(tmp_path / "x.txt")])
    assert result.exit_code == 0 and "maybeboard (1 card) not written" in result.output


@given(st.text(max_size=120))
def test_line_parsing_never_fails_unexpectedly(text: str) -> None:
    stripped, section = strip_markers(text)
    assert isinstance(stripped, str) and section in ("", MAYBE, "side", "commander")
    with contextlib.suppress(ValueError):
        parse_card_text(text)
