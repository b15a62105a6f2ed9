"""Lines are split only at ``\\n``, ``\\r\\n`` and ``\\r``, as Cockatrice, Forge and editors count them: a
line separator (U+2028), paragraph separator, NEL, vertical tab, form feed or file separator inside a line
neither makes a second line (``# cut for now:<U+2028>Shock`` adds no Shock) nor puts the line numbers of
later errors off, in the block list, every text reader and Forge card scripts."""

from __future__ import annotations

import pytest

from cockatrice_ext.cards.forge import parse_forge_script
from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.readers import read_arena, read_cubecobra, read_forge, read_text, read_xmage

SEPARATORS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


def test_text_lines_splits_only_at_line_breaks() -> None:
    from cockatrice_ext.decks.blocklist import text_lines  # the one splitter every reader uses

    assert text_lines("a\u2028b\nc\r\nd\re\x0cf\n") == ["a\u2028b", "c", "d", "e\x0cf"]
    assert text_lines("a\n\nb") == ["a", "", "b"]
    assert text_lines("") == []


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_comment_holding_a_separator_adds_no_card(separator: str) -> None:
    deck = parse_block_list(f"# cut for now:{separator}Shock\n1 Opt\n")
    assert [(e.count, e.name, e.line) for e in deck.main] == [(1, "Opt", 2)]


@pytest.mark.parametrize(
    "reader", [parse_block_list, read_forge, read_xmage, read_arena, read_text, read_cubecobra]
)
def test_every_text_reader_counts_lines_at_line_breaks_only(reader: object) -> None:
    text = "# note\u2028more\n1 Opt\n# x\x0by\n1 Shock\n"
    deck = reader(text, "l.txt")  # type: ignore[operator]
    lines = {e.name.removeprefix("1 "): e.line for _, e in deck.entries()}
    assert lines.get("Opt") == 2 and lines.get("Shock") == 4


def test_an_error_names_the_line_counted_at_line_breaks() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_block_list("# a\u2028b\n1 Opt\n1 Sh\x07ock\n", source="e.txt")
    assert str(info.value).startswith("e.txt:3:")


def test_a_forge_script_oracle_keeps_its_separator() -> None:
    script = "Name:Vanilla\nManaCost:2 G\nTypes:Creature Beast\nPT:2/2\nOracle:First.\u2028Second.\n"
    card = parse_forge_script(script)
    assert card.faces[0].oracle_text == "First.\u2028Second."
