"""``Lightning Bolt x4``: the count written after the name, as hand-written lists (forum posts, trade lists)
write it. No deck format the project reads writes it (Cockatrice, MTGO, Arena, Forge, XMage all put the
count first, and none of their importers reads it after the name), so it was an unknown card
``Lightning Bolt x4``. It is read where it is unambiguous: a line with no count in front, ``x``, ``*`` or
``×`` then the count ending the name (or before its printing); a name the card data knows whole (a
designer's ``Clockwork x2``) stays one name, and no real card's name ends so. A line with a count in front
too is not guessed at: its unknown name says how to write the count."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cards.store import shipped_store
from cockatrice_ext.cli import main
from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.resolve_list import read_block

CUSTOM_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>CLK</name><longname>Clockworks</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name>Clockwork x2</name>
      <text>Flying</text>
      <prop><layout>normal</layout><side>front</side><type>Artifact Creature — Construct</type>
        <maintype>Creature</maintype><manacost>2</manacost><cmc>2</cmc><pt>2/2</pt></prop>
      <set rarity="common" num="1">CLK</set>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def test_a_count_after_the_name_is_read() -> None:
    text = "Lightning Bolt x4\nShock *2\nSerra Angel ×3\nGrizzly Bears x 2\nOpt X4 (ELD) 59\n"
    deck = parse_block_list(text, "hand.txt")
    read = [(e.count, e.name, e.set_code, e.collector_number) for e in deck.main]
    assert read == [
        (4, "Lightning Bolt", "", ""),
        (2, "Shock", "", ""),
        (3, "Serra Angel", "", ""),
        (2, "Grizzly Bears", "", ""),
        (4, "Opt", "ELD", "59"),
    ]


def test_export_reads_a_count_after_the_name(tmp_path: Path) -> None:
    block = tmp_path / "hand.txt"
    block.write_text("Lightning Bolt x4\n1 Shock\nCounterspell *2\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "text", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-3:] == ["4 Lightning Bolt", "1 Shock", "2 Counterspell"]


def test_a_designers_name_ending_in_a_count_stays_whole(tmp_path: Path) -> None:
    block = tmp_path / "clocks.txt"
    block.write_text("Clockwork x2\nClockwork x2 x3\n2 Clockwork x2\n", encoding="utf-8")
    (tmp_path / "clocks.xml").write_text(CUSTOM_SET, encoding="utf-8")
    resolved = read_block(block, say=lambda _line: None)
    assert [(e.count, e.card.name) for _, e in resolved.entries()] == [
        (1, "Clockwork x2"),
        (3, "Clockwork x2"),
        (2, "Clockwork x2"),
    ]


def test_no_real_card_name_ends_with_a_count() -> None:
    """What makes the reading safe for real cards (tokens included), checked on every name shipped."""
    ends_with_count = re.compile(r"\s[xX×*]\s?\d+$")
    assert not [name for name in shipped_store().name_hints().values() if ends_with_count.search(name)]


def test_a_count_on_both_sides_is_not_guessed_and_says_how_to_write_it() -> None:
    result = CliRunner().invoke(main, ["export", "-", "--to", "text", "-o", "-"], input="2 Counterspell x2\n")
    assert result.exit_code == 2
    assert "<stdin>:1: unknown card 'Counterspell x2' (did you mean: Counterspell" in result.stderr
    assert "a card's count is written once, before its name: '2 Counterspell')" in result.stderr
