"""Deck-list readers, round 3: ``1 X Walker`` (a designer's ``X Walker``), a single ``Fire|Ice``, ``#``
comments and commanders in the plain-text and Arena readers, Arena's sideboard after its ``Commander``
section, XMage's set-less ``[:12]``, invisible characters said by every text reader, and every warning about
a line said in line order."""

from __future__ import annotations

from pathlib import Path

import pytest
import shared_paths

from cockatrice_ext.cards.resolve import UnknownCardsError
from cockatrice_ext.decks import readers
from cockatrice_ext.decks.readers import read_deck
from cockatrice_ext.decks.resolve_list import read_block

EXAMPLES = shared_paths.EXAMPLES

DESIGNER_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>HOME</name><longname>A designer's set</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name>X Walker</name>
      <text>Flying</text>
      <prop>
        <layout>normal</layout><side>front</side><type>Creature</type><maintype>Creature</maintype>
        <manacost>1U</manacost><cmc>2</cmc><colors>U</colors><coloridentity>U</coloridentity><pt>1/1</pt>
      </prop>
      <set rarity="common" num="1">HOME</set>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def _sections(deck: object) -> dict[str, list[tuple[int, str, str, str]]]:
    return {
        name: [(e.count, e.name, e.set_code, e.collector_number) for e in entries]
        for name, entries in deck.sections.items()  # type: ignore[attr-defined]
        if entries
    }


def _designer_block(folder: Path, text: str) -> Path:
    path = folder / "home.txt"
    path.write_text(text, encoding="utf-8")
    (folder / "home.xml").write_text(DESIGNER_SET, encoding="utf-8")
    return path


# 1. "1 X Walker"


def test_a_spaced_x_after_the_count_is_the_names_first_word_if_the_card_data_says_so(
    tmp_path: Path,
) -> None:
    """``1 X Walker`` is the designer's ``X Walker``; ``2 x Lightning Bolt`` stays two Lightning Bolts and
    ``1x Shock`` one Shock (no space: a count marker)."""
    path = _designer_block(tmp_path, "1 X Walker\n2 x Lightning Bolt\n1x Shock\n4 X Opt\n")
    resolved = read_block(path, say=lambda line: None)
    assert [(e.card.name, e.count) for _, e in resolved.entries()] == [
        ("X Walker", 1),
        ("Lightning Bolt", 2),
        ("Shock", 1),
        ("Opt", 4),
    ]


def test_a_spaced_x_name_known_nowhere_is_said_unknown_as_written(tmp_path: Path) -> None:
    """``1 X Marks the Spot``: neither ``X Marks the Spot`` nor ``Marks the Spot`` is a card, so the name
    said unknown is the one written, not ``Marks the Spot``."""
    path = _designer_block(tmp_path, "1 X Walker\n1 X Marks the Spot\n")
    with pytest.raises(UnknownCardsError) as raised:
        read_block(path, say=lambda line: None)
    assert [unknown.name for unknown in raised.value.unknown] == ["X Marks the Spot"]


# 2. A single "|"


@pytest.mark.parametrize("fmt", ["blocklist", "arena", "text"])
def test_a_single_pipe_between_two_names_is_a_split_card_not_forges_set(fmt: str) -> None:
    """``Fire|Ice`` is the split card (with a warning: ICE is also a set's code, which Forge writes in
    capitals); ``Shock|M10`` and ``Island|M19|3`` stay Forge's printings."""
    deck = read_deck(b"1 Fire|Ice\n4 Shock|M10\n1 Island|M19|3\n", fmt, source="pipes.txt")
    assert _sections(deck)["main"] == [
        (1, "Fire // Ice", "", ""),
        (4, "Shock", "M10", ""),
        (1, "Island", "M19", ""),
    ]
    assert deck.read_warnings == [
        "pipes.txt:1: Fire|Ice read as the split card Fire // Ice; Forge's set ICE is written Fire|ICE"
    ]


def test_a_single_pipe_split_card_resolves(tmp_path: Path) -> None:
    path = tmp_path / "pipes.txt"
    path.write_text("1 Fire|Ice\n1 Life|Death\n", encoding="utf-8")
    said: list[str] = []
    resolved = read_block(path, say=said.append)
    assert [(e.card.name, e.printing) for _, e in resolved.entries()] == [
        ("Fire // Ice", None),
        ("Life // Death", None),
    ]
    assert not any("printing" in line for line in said), said  # no set ICE (Ice Age) or DEATH looked for


# 3. "#" comments in the text and Arena readers


@pytest.mark.parametrize("fmt", ["text", "arena", "blocklist"])
def test_hash_comments_and_deckstats_commander_tag_in_every_text_reader(fmt: str) -> None:
    """A ``#`` after a space starts a comment and Deckstats' ``#!Commander`` tags the commander, in the
    plain-text and Arena readers as in the block-list reader (no real card name holds ``#``)."""
    text = "# my deck\n1 Fire // Ice #!Commander\n4 Shock  # cheap removal\n4 Opt\n"
    deck = read_deck(text.encode(), fmt, source="deckstats.txt")
    assert _sections(deck) == {
        "commander": [(1, "Fire // Ice", "", "")],
        "main": [(4, "Shock", "", ""), (4, "Opt", "", "")],
    }


# 4. read_text marks commanders


def test_plain_text_reads_a_commander_comment_section_and_cmdr_marks() -> None:
    """``// Commander`` opens the commander section until its blank line; that block is not counted by the
    blank-line sideboard rule, so the deck's one blank line still starts the sideboard; TappedOut's
    ``*CMDR*`` marks a main card."""
    text = "// Commander\n1 Sol Ring\n\n4 Shock\n1 Fire // Ice *CMDR*\n\n2 Duress\n"
    deck = read_deck(text.encode(), "text", source="commander.dec")
    assert _sections(deck) == {
        "main": [(4, "Shock", "", "")],
        "commander": [(1, "Sol Ring", "", ""), (1, "Fire // Ice", "", "")],
        "side": [(2, "Duress", "", "")],
    }


# 5. Arena: Deck, Commander, then the sideboard without a header


def test_arena_cards_after_the_commander_section_that_follows_the_deck_are_its_sideboard() -> None:
    text = "Deck\n4 Shock (M21) 159\n\nCommander\n1 Sol Ring (C21) 263\n\n2 Duress (M21) 96\n"
    deck = read_deck(text.encode(), "arena", source="arena.txt")
    assert _sections(deck) == {
        "main": [(4, "Shock", "M21", "159")],
        "commander": [(1, "Sol Ring", "C21", "263")],
        "side": [(2, "Duress", "M21", "96")],
    }
    # a deck site's shape, the commander first: the cards after its blank line are still the deck
    first = read_deck(b"Commander\n1 Sol Ring\n\n4 Shock\n", "arena", source="site.txt")
    assert _sections(first) == {"commander": [(1, "Sol Ring", "", "")], "main": [(4, "Shock", "", "")]}


# 6. XMage's [:12]


@pytest.mark.skipif(not EXAMPLES.is_dir(), reason="shared example files not present")
def test_xmage_number_without_a_set_is_dropped_with_a_warning() -> None:
    real = (EXAMPLES / "architrice_test_deck_xmage.dck").read_text(encoding="utf-8")
    text = real + "1 [:12] Shock\n"
    deck = read_deck(text.encode(), "xmage", source="x.dck")
    line = len(text.splitlines())
    shock = deck.sections["main"][-1]
    assert (shock.name, shock.set_code, shock.collector_number) == ("Shock", "", "")
    assert deck.read_warnings == [
        f"x.dck:{line}: collector number dropped (the line names no set); the card's usual printing is"
        " used ([SET:NUMBER] pins the printing)"
    ]
    assert read_deck(real.encode(), "xmage", source="x.dck").read_warnings == []


# 7. One sideboard prefix


def test_the_readers_use_the_block_lists_sideboard_prefix() -> None:
    assert not hasattr(readers, "_SB")
    assert readers.has_sideboard_marks("4 Shock\n  SB: 2 Duress\n")
    deck = read_deck(b"4 Shock\n  sb:  2 Duress\n", "text", source="t.txt")
    assert _sections(deck) == {"main": [(4, "Shock", "", "")], "side": [(2, "Duress", "", "")]}


# 8. Invisible characters said


@pytest.mark.parametrize("fmt", ["arena", "text", "xmage"])
def test_every_text_reader_says_the_invisible_characters_it_removes(fmt: str) -> None:
    text = "4 Sho\u200bck\n\u200b4 Opt\n\ufeff2 Island\n1 Du\u00adress\n"
    deck = read_deck(text.encode(), fmt, source="pasted.txt")
    names = [e.name for _, e in deck.entries()]
    assert names == ["Shock", "Opt", "Island", "Duress"]
    assert len(deck.read_warnings) == 1
    said = deck.read_warnings[0]
    assert said.startswith("pasted.txt:1: lines 1, 2, 3 and 4: removed invisible characters (")
    for code in ("U+200B", "U+FEFF", "U+00AD"):
        assert code in said


def test_a_file_byte_order_mark_is_not_said() -> None:
    assert read_deck("\ufeff4 Shock\n".encode(), "text", source="bom.txt").read_warnings == []


# 9. Line order


def test_a_blank_line_ending_a_commander_section_is_said_in_line_order(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("1 Lightning Bolt (ZNR)\n\nCommander\n1 Sol Ring\n1 Opt\n1 Shock\n\n1 Island\n")
    said: list[str] = []
    read_block(path, say=said.append)
    assert [line.split(f"{path}:", 1)[-1][:2] for line in said] == ["1:", "8:"]
    assert "has no printing (ZNR)" in said[0] and "ends the commander section" in said[1]


def test_a_dropped_csv_number_is_said_in_line_order(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text("name,Count,Set,Collector Number\nLightning Bolt,1,ZNR,\nShock,1,,12\n")
    said: list[str] = []
    read_block(path, say=said.append)
    assert len(said) == 2
    assert "has no printing (ZNR)" in said[0] and ":3: collector number dropped" in said[1]
