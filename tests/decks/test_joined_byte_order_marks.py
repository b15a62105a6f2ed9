"""A byte-order mark starting a line past the first (where two files were joined) is said whatever the line
holds, by every text reader alike: a card line's always was, a comment's, a header's or a blank line's was
removed unsaid; and a Forge deck no longer reads such a comment line as a card named ``# ...``."""

from __future__ import annotations

import pytest

from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.readers import read_deck

BOM = "\ufeff"

# (format, a list whose second file starts with a comment line, the line it is on)
JOINED_AT_A_COMMENT = [
    ("blocklist", f"4 Shock\n2 Opt\n{BOM}# the second file\n1 Duress\n", 3),
    ("blocklist", f"4 Shock\n2 Opt\n{BOM}// the second file\n1 Duress\n", 3),
    ("text", f"4 Shock\n2 Opt\n{BOM}// the second file\n1 Duress\n", 3),
    ("arena", f"Deck\n4 Shock\n2 Opt\n{BOM}// the second file\n1 Duress\n", 4),
    ("xmage", f"4 [M19:156] Shock\n2 [M19:65] Opt\n{BOM}# the second file\n1 [M19:106] Duress\n", 3),
    ("forge", f"[metadata]\nName=Joined\n[Main]\n4 Shock\n2 Opt\n{BOM}# the second file\n1 Duress\n", 6),
    ("cubecobra", f"# mainboard\nShock\nOpt\n{BOM}# the second file\nDuress\n", 4),
]


@pytest.mark.parametrize(
    ("fmt", "text", "line"), JOINED_AT_A_COMMENT, ids=[c[0] for c in JOINED_AT_A_COMMENT]
)
def test_a_joined_byte_order_mark_on_a_comment_line_is_said(fmt: str, text: str, line: int) -> None:
    deck = read_deck(text.encode(), fmt, source="joined.txt")
    assert [entry.name for entry in deck.main] == ["Shock", "Opt", "Duress"]
    (warning,) = deck.read_warnings
    assert warning.startswith(f"joined.txt:{line}: removed invisible characters (U+FEFF")
    assert "where two files were joined" in warning


def test_a_comment_says_it_as_a_card_line_says_it() -> None:
    """The same join, the second file starting with a card or with a comment: one warning each, alike but for
    the line."""
    on_card = parse_block_list(f"4 Shock\n{BOM}2 Opt\n", source="j.txt").read_warnings
    on_comment = parse_block_list(f"4 Shock\n{BOM}# more\n2 Opt\n", source="j.txt").read_warnings
    assert [w.replace("line 3", "line 2") for w in on_comment] == on_card


@pytest.mark.parametrize(
    "text",
    [
        f"4 Shock\n{BOM}Sideboard\n1 Duress\n",  # a section header
        f"4 Shock\n{BOM}// Sideboard\n1 Duress\n",  # a comment that opens a section
        f"4 Shock\n{BOM}[Removal]\n1 Duress\n",
    ],
)
def test_a_header_line_says_it_too(text: str) -> None:
    deck = parse_block_list(text, source="j.txt")
    (warning,) = deck.read_warnings
    assert warning.startswith("j.txt:2: removed invisible characters (U+FEFF")


def test_a_joined_line_that_is_blank_but_for_the_mark_says_it() -> None:
    deck = parse_block_list(f"4 Shock\n{BOM}\n2 Opt\n", source="j.txt")
    assert [entry.name for entry in deck.main] == ["Shock", "Opt"]
    (warning,) = deck.read_warnings
    assert warning.startswith("j.txt:2: removed invisible characters (U+FEFF")


def test_the_files_own_mark_and_a_comments_own_invisible_characters_stay_unsaid() -> None:
    """Line 1's mark is the file's; a comment keeps its own characters (an emoji's joiner), as before."""
    text = f"{BOM}# my block \U0001f469\u200d\U0001f4bb\n4 Shock\n"
    for fmt in ("blocklist", "text", "forge", "cubecobra", "xmage"):
        assert read_deck(text.encode(), fmt, source="j.txt").read_warnings == [], fmt


def test_lines_are_said_in_order_with_card_names_and_joins_together() -> None:
    text = f"1 Sho\u200bck\n{BOM}# second\n{BOM}2 Opt\n"
    (warning,) = parse_block_list(text, source="j.txt").read_warnings
    assert warning.startswith("j.txt:1: lines 1, 2 and 3: removed invisible characters (U+200B")
    assert "U+FEFF" in warning and "two files were joined" in warning and "zero-width space" in warning


def test_a_forge_deck_names_its_invisible_characters_as_the_others_do() -> None:
    """Forge's reader removed a zero-width space from a name without a word; now it says it, as the others."""
    text = "[metadata]\nName=x\n[Main]\n2 Counter\u200bspell|MMQ\n"
    deck = read_deck(text.encode(), "forge", source="f.dck")
    assert [entry.name for entry in deck.main] == ["Counterspell"]
    (warning,) = deck.read_warnings
    assert warning.startswith("f.dck:4: removed invisible characters (U+200B")
