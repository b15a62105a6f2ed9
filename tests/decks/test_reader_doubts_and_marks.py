"""Deck-list readers, left open last round: a single ``|`` read in doubt is said only when the card data
does not settle it; a byte-order mark starting a line past the first (two files joined) is said with its line
in a block list as in the other text readers; and a card file given as the list itself says what it gets
wrong through the caller's ``say``, as every other card warning of a list is said."""

from __future__ import annotations

from pathlib import Path

import pytest

from cockatrice_ext.cards.resolve import UnknownCardsError
from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.readers import read_deck
from cockatrice_ext.decks.resolve_list import read_block, read_list, read_list_file

# A designer's card named like a split card's half, printed in a set coded as Ice Age is: ``Fire|Ice`` then
# reads two ways the card data both knows.
FIRE_OF_ICE = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>ICE</name><longname>A designer's ice</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name>Fire</name>
      <text>Fire deals 1 damage to any target.</text>
      <prop>
        <layout>normal</layout><side>front</side><type>Instant</type><maintype>Instant</maintype>
        <manacost>R</manacost><cmc>1</cmc><colors>R</colors><coloridentity>R</coloridentity>
      </prop>
      <set rarity="common" num="1">ICE</set>
    </card>
  </cards>
</cockatrice_carddatabase>
"""

# A hand-made card file with a card that has no name and a type-line typo: both are read past, and said.
SLOPPY_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>SLP</name><longname>Sloppy</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name></name>
      <prop><type>Creature</type></prop>
      <set rarity="common" num="1">SLP</set>
    </card>
    <card>
      <name>Misspelt Golem</name>
      <text></text>
      <prop><layout>normal</layout><side>front</side><type>Artifact Creture — Golem</type>
        <maintype>Creature</maintype><manacost>2</manacost><cmc>2</cmc><pt>2/2</pt></prop>
      <set rarity="common" num="2">SLP</set>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def _read(folder: Path, text: str) -> tuple[list[tuple[str, str | None]], list[str]]:
    """The block ``text`` read and resolved: its cards with their pinned set, and what was said."""
    path = folder / "pipes.txt"
    path.write_text(text, encoding="utf-8")
    said: list[str] = []
    resolved = read_block(path, say=said.append)
    cards = [(e.card.name, e.printing.set_code if e.printing else None) for _, e in resolved.entries()]
    return cards, said


# 1. "Fire|Ice": a doubt said only when there is one


def test_a_split_card_the_card_data_settles_is_read_without_a_doubt(tmp_path: Path) -> None:
    """``Fire|Ice``: ICE is also Ice Age's code, but no card ``Fire`` was printed there; the split card is
    the only reading the card data knows, so nothing is said (the reader's doubt was a warning every time)."""
    cards, said = _read(tmp_path, "1 Fire|Ice\n")
    assert cards == [("Fire // Ice", None)]
    assert said == []


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("1 Fire|apc\n", ("Fire // Ice", "APC")),  # read as set APC: Fire // Ice was printed in Apocalypse
        ("1 Lightning Bolt|m10\n", ("Lightning Bolt", "M10")),  # no split card Lightning Bolt // m10
        ("1 Fire|ice\n", ("Fire // Ice", None)),  # read as set ICE, which has no Fire: the split card
    ],
)
def test_a_code_the_card_data_settles_is_read_as_it_knows_it_silently(
    tmp_path: Path, line: str, read: tuple[str, str | None]
) -> None:
    """The reading the card data knows is taken, and no doubt (nor a missing printing) is said."""
    cards, said = _read(tmp_path, line)
    assert cards == [read]
    assert said == []


def test_a_real_doubt_is_still_said(tmp_path: Path) -> None:
    """A designer's ``Fire`` of a set coded ICE: ``Fire|Ice`` is then both the split card and that card. The
    split card is still read, and the doubt said with its line."""
    (tmp_path / "pipes.xml").write_text(FIRE_OF_ICE, encoding="utf-8")
    cards, said = _read(tmp_path, "4 Shock\n1 Fire|Ice\n")
    assert cards == [("Shock", None), ("Fire // Ice", None)]
    doubts = [line for line in said if "Forge's set ICE" in line]
    assert len(doubts) == 1, said
    assert (
        doubts[0].startswith("warning: ") and ":2: Fire|Ice read as the split card Fire // Ice" in doubts[0]
    )


def test_a_doubt_neither_reading_settles_is_said_with_the_unknown_name(tmp_path: Path) -> None:
    """``Lightning Bolt|Mir``: no split card of that name, and no Lightning Bolt in Mirage: the doubt stays,
    beside the unknown name, as a hint of the other spelling."""
    path = tmp_path / "pipes.txt"
    path.write_text("1 Lightning Bolt|Mir\n", encoding="utf-8")
    with pytest.raises(UnknownCardsError) as raised:
        read_block(path, say=lambda line: None)
    assert "Forge's set MIR is written Lightning Bolt|MIR" in str(raised.value)


# 2. A byte-order mark starting a line past the first


def test_a_joined_files_byte_order_mark_is_said_with_its_line_in_a_block_list() -> None:
    """Two block lists joined: the second's byte-order mark starts line 3. It is removed (the card reads as
    written) and said with its line, as the other text readers say it; the file's own on line 1 is not."""
    deck = parse_block_list("\ufeff4 Shock\n2 Opt\n\ufeff2 Duress\n1 Island\n", source="joined.txt")
    assert [(e.count, e.name) for e in deck.main] == [(4, "Shock"), (2, "Opt"), (2, "Duress"), (1, "Island")]
    (warning,) = deck.read_warnings
    assert warning.startswith("joined.txt:3: removed invisible characters (U+FEFF")


def test_every_text_reader_says_a_joined_byte_order_mark_alike() -> None:
    text = "\ufeff4 Shock\n\ufeff2 Opt\n"
    said = {fmt: read_deck(text.encode(), fmt, source="j.txt").read_warnings for fmt in ("blocklist", "text")}
    assert said["blocklist"] == said["text"]
    assert [w.split(": removed", 1)[0] for w in said["blocklist"]] == ["j.txt:2"]


def test_a_leading_byte_order_mark_alone_stays_silent() -> None:
    assert parse_block_list("\ufeff4 Shock\n2 Opt\n", source="one.txt").read_warnings == []


# 4. A card file given as the list says its warnings through ``say``


def test_a_card_file_given_as_the_list_says_its_warnings(tmp_path: Path) -> None:
    """What a hand-made card file gets wrong reaches ``say`` as ``warning:`` lines (the command line's
    stderr, the bot's log), as a card source's and the custom set beside a list's do."""
    path = tmp_path / "sloppy.xml"
    path.write_text(SLOPPY_SET, encoding="utf-8")
    said: list[str] = []
    db = read_list_file(path, say=said.append)
    assert "Misspelt Golem" in db.cards  # type: ignore[union-attr]
    assert any(line.startswith("warning: ") and "card without a name skipped" in line for line in said), said
    assert any(line.startswith("warning: ") and "'Creture' is not a card type" in line for line in said), said


def test_card_file_bytes_given_as_the_list_say_their_warnings() -> None:
    """The same for a card file read from bytes (standard input)."""
    said: list[str] = []
    read_list(SLOPPY_SET.encode(), "<stdin>", say=said.append)
    assert any(line.startswith("warning: <stdin>:") and "without a name" in line for line in said), said
