"""What a .cod or Forge .dck holds outside the parts the game plays: a .cod zone Cockatrice does not play
(``wishboard``, ``Main``) and a Forge section Forge does not read (``[Wishboard]``) never join the main
deck, and are said; the legacy ``[general]`` header names a Forge deck; a .cod's sideboard plans and
playmat card are read (the export says what a target leaves out); an MTGO ``Sideboard`` neither true nor
false is said; a text given as XML and a broken link are named as what they are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.readers import read_cod, read_deck, read_dek, read_forge

ZONES_COD = b"""<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>zones</deckname>
    <zone name="main"><card number="4" name="Lightning Bolt"/></zone>
    <zone name="side"><card number="2" name="Duress"/></zone>
    <zone name="wishboard"><card number="3" name="Burning Wish"/></zone>
    <zone name="Main"><card number="1" name="Opt"/></zone>
    <zone name="maybe"><card number="1" name="Shock"/></zone>
    <zone name="empty"></zone>
</cockatrice_deck>
"""

FORGE_SECTIONS = """[metadata]
Name=fsec
[Main]
4 Lightning Bolt
[Conspiracy]
1 Power Play
[Wishboard]
2 Burning Wish
1 Cunning Wish
[shop]
Credits=1200
"""


def _counts(deck: object) -> dict[str, list[tuple[int, str]]]:
    return {
        name: [(e.count, e.name) for e in entries]
        for name, entries in deck.sections.items()  # type: ignore[attr-defined]
        if entries
    }


def test_cod_zones_cockatrice_does_not_play_are_left_out_and_said() -> None:
    deck = read_cod(ZONES_COD, "zones.cod")
    assert _counts(deck) == {
        "main": [(4, "Lightning Bolt")],
        "side": [(2, "Duress")],
        "maybeboard": [(1, "Shock")],
    }
    wish, upper, maybe = deck.read_warnings
    assert wish.startswith("zones.cod:6: zone 'wishboard' (3 cards) left out")
    assert upper.startswith("zones.cod:7: zone 'Main' (1 card) left out")
    assert "rename it 'main'" in upper
    assert maybe.startswith("zones.cod:8: zone 'maybe' (1 card)") and "maybeboard" in maybe


def test_a_cod_written_by_the_cod_writer_reads_back_without_a_word() -> None:
    written = b"""<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1"><deckname>own</deckname>
<zone name="main"><card number="4" name="Lightning Bolt"/></zone>
<zone name="tokens"><card number="1" name="Goblin"/></zone>
<zone name="maybeboard"><card number="1" name="Shock"/></zone>
<zone name="planes"><card number="1" name="Tazeem"/></zone>
</cockatrice_deck>"""
    deck = read_cod(written, "own.cod")
    assert deck.read_warnings == []
    assert sorted(_counts(deck)) == ["main", "maybeboard", "planes", "tokens"]


def test_cod_wishboard_is_no_main_card_in_the_export(tmp_path: Path) -> None:
    path = tmp_path / "zones.cod"
    path.write_bytes(ZONES_COD)
    result = CliRunner().invoke(main, ["export", str(path), "--to", "forge", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert "Burning Wish" not in result.stdout and "Opt" not in result.stdout
    assert "zone 'wishboard' (3 cards) left out" in result.stderr


def test_forge_sections_forge_does_not_read_are_left_out_and_said() -> None:
    deck = read_forge(FORGE_SECTIONS, "fsec.dck")
    assert _counts(deck) == {"main": [(4, "Lightning Bolt")], "conspiracy": [(1, "Power Play")]}
    (warning,) = deck.read_warnings
    assert warning.startswith(
        "fsec.dck:7: section [Wishboard] (3 cards) left out: Forge reads no such section"
    )


def test_forge_legacy_general_header_names_the_deck() -> None:
    deck = read_forge("[general]\nName=Old Deck\nDeck Type=constructed\n[Main]\n4 Lightning Bolt\n", "g.dck")
    assert deck.name == "Old Deck"
    assert _counts(deck) == {"main": [(4, "Lightning Bolt")]}
    assert deck.read_warnings == []


PLANS_COD = b"""<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>plans</deckname>
    <playmatCard providerId="abc" marginPctL="0.0700" zoom="1.0000">Lightning Bolt</playmatCard>
    <zone name="main"><card number="4" name="Lightning Bolt"/></zone>
    <zone name="side"><card number="2" name="Duress"/></zone>
    <sideboard_plan>
        <name>vs Burn</name>
        <move_card_to_zone>
            <card_name>Duress</card_name><start_zone>side</start_zone><target_zone>main</target_zone>
        </move_card_to_zone>
    </sideboard_plan>
</cockatrice_deck>
"""


def test_cod_sideboard_plans_and_playmat_are_read_without_a_word() -> None:
    """The reader keeps them; whether they are left out is the export's to say, which knows its target
    (the .cod writer writes them back)."""
    deck = read_cod(PLANS_COD, "plans.cod")
    assert deck.playmat_card == "Lightning Bolt"
    assert deck.playmat_attributes == {"providerId": "abc", "marginPctL": "0.0700", "zoom": "1.0000"}
    assert deck.sideboard_plans == [
        {"name": "vs Burn", "moves": [{"card_name": "Duress", "start_zone": "side", "target_zone": "main"}]}
    ]
    assert deck.read_warnings == []


def test_mtgo_sideboard_neither_true_nor_false_is_said() -> None:
    data = b"""<?xml version="1.0" encoding="utf-8"?>
<Deck>
  <Cards CatID="3" Quantity="4" Sideboard="false" Name="Delver of Secrets" />
  <Cards CatID="3" Quantity="4" Sideboard="maybe" Name="Opt" />
</Deck>"""
    deck = read_dek(data, "bad.dek")
    assert _counts(deck) == {"main": [(4, "Delver of Secrets"), (4, "Opt")]}
    (warning,) = deck.read_warnings
    assert warning.startswith("bad.dek:4: Sideboard='maybe' is neither 'true' nor 'false'")


@pytest.mark.parametrize(
    ("chosen", "what"), [("dek", "an MTGO .dek file"), ("cod", "a Cockatrice .cod file")]
)
def test_text_given_as_xml_says_what_it_looks_like(chosen: str, what: str) -> None:
    with pytest.raises(DeckFormatError) as info:
        read_deck(b"4 Lightning Bolt\n2 Shock\n", chosen, source="plain.txt")
    message = str(info.value)
    assert message.startswith(f"plain.txt: not {what} (XML): it looks like")
    assert "malformed XML" not in message


def test_a_broken_link_is_named_so(tmp_path: Path) -> None:
    link = tmp_path / "gone.txt"
    os.symlink(tmp_path / "missing.txt", link)
    with pytest.raises(DeckFormatError, match="a broken link: it points to"):
        read_deck(str(link))


def test_forge_sections_of_ours_but_not_forges_are_kept_out_of_main_and_said() -> None:
    deck = read_forge("[Main]\n4 Shock\n[Companion]\n1 Lurrus of the Dream-Den\n", "c.dck")
    assert _counts(deck) == {"main": [(4, "Shock")], "companion": [(1, "Lurrus of the Dream-Den")]}
    (warning,) = deck.read_warnings
    assert warning.startswith("c.dck:3: section [Companion] (1 card) is no section Forge reads")
