"""The block-list text format: every documented spelling, the errors, and a round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.decks.blocklist import (
    MAX_COUNT,
    format_block_list,
    parse_block_list,
    parse_card_text,
    read_block_list,
)
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.model import Deck, DeckEntry


def names(deck: Deck, section: str = "main") -> list[tuple[int, str]]:
    return [(e.count, e.name) for e in deck.sections.get(section, [])]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("4 Lightning Bolt", (4, "Lightning Bolt", "", "")),
        ("4x Lightning Bolt", (4, "Lightning Bolt", "", "")),
        ("4 x Lightning Bolt", (4, "Lightning Bolt", "", "")),
        ("4X Lightning Bolt", (4, "Lightning Bolt", "", "")),
        ("Lightning Bolt", (1, "Lightning Bolt", "", "")),
        ("[2] Opt", (2, "Opt", "", "")),
        ("x4 Lightning Bolt", (4, "Lightning Bolt", "", "")),  # Cockatrice's count pattern takes x4
        ("X2 Opt", (2, "Opt", "", "")),
        ("Xenagos, the Reveler", (1, "Xenagos, the Reveler", "", "")),
        ("1 Jaya Ballard, Task Mage", (1, "Jaya Ballard, Task Mage", "", "")),
        ("2 Fire//Ice", (2, "Fire // Ice", "", "")),
        ("2 Fire / Ice", (2, "Fire // Ice", "", "")),
        ("1 Fire // Ice (MH2) 290", (1, "Fire // Ice", "MH2", "290")),
        ("4 Lightning Bolt (2xm) 123", (4, "Lightning Bolt", "2XM", "123")),
        ("1 Lightning Bolt (M10)", (1, "Lightning Bolt", "M10", "")),
        ("1 Sol Ring (C21) 263 *F*", (1, "Sol Ring", "C21", "263")),
        ("1 Opt (PLST) XLN-65", (1, "Opt", "XLN", "65")),
        ("1 [ZNR:180] Bala Ged Recovery", (1, "Bala Ged Recovery", "ZNR", "180")),
        ("4 [M10] Lightning Bolt", (4, "Lightning Bolt", "M10", "")),
        ("1 Serra’s Guardian", (1, "Serra's Guardian", "", "")),
        ("1   Grizzly    Bears  ", (1, "Grizzly Bears", "", "")),
        ("1 B.F.M. (Big Furry Monster)", (1, "B.F.M. (Big Furry Monster)", "", "")),
        ("1 1996 World Champion", (1, "1996 World Champion", "", "")),
        ("1 Æther Vial", (1, "Æther Vial", "", "")),
        pytest.param("1 Lightning" + " " * 900 + "Bolt", (1, "Lightning Bolt", "", ""), id="spaces"),
        ("2 Lightning Bolt <250> [2X2]", (2, "Lightning Bolt", "2X2", "250")),
        ("1 [2XM#310] Ash Barrens", (1, "Ash Barrens", "2XM", "310")),
    ],
)
def test_card_line_spellings(line: str, expected: tuple[int, str, str, str]) -> None:
    assert parse_card_text(line) == expected


def test_sections_comments_and_line_numbers() -> None:
    text = "\n".join(
        [
            "# Name: My Block",  # 1
            "# built for testing",  # 2
            "",  # 3
            "4 Lightning Bolt",  # 4
            "## Creatures",  # 5
            "2 Grizzly Bears  # vanilla",  # 6
            "[Removal]",  # 7
            "1 Murder",  # 8
            "SB: 3 Duress",  # 9
            "Sideboard:",  # 10
            "1 Naturalize",  # 11
            "// a comment after cards is ignored",  # 12
            "Deck",  # 13
            "1 Opt",  # 14
            "Commander",  # 15
            "1 Mikaeus, the Lunarch",  # 16
            "Creatures (12):",  # 17
            "1 Savannah Lions",  # 18
        ]
    )
    deck = parse_block_list(text, source="x.txt")
    assert deck.name == "My Block"
    assert deck.comments == "built for testing"
    assert names(deck) == [(4, "Lightning Bolt"), (1, "Opt")]
    assert names(deck, "Creatures") == [(2, "Grizzly Bears"), (1, "Savannah Lions")]
    assert names(deck, "Removal") == [(1, "Murder")]
    assert names(deck, "side") == [(3, "Duress"), (1, "Naturalize")]
    assert names(deck, "commander") == [(1, "Mikaeus, the Lunarch")]
    assert [e.line for _, e in deck.entries()] == [4, 14, 6, 18, 8, 9, 11, 16]
    assert deck.count() == 14


def test_a_first_double_slash_line_names_the_list_as_cockatrices_text_header_does() -> None:
    """``--to text`` writes ``// NAME`` first; a list that is no deck (no sideboard, 199 cards) is read back
    as a block list, which took its name from the file instead and kept the header as a comment."""
    deck = parse_block_list("// Auction block\n// by us\n\n1 Opt\n", source="export.txt")
    assert (deck.name, deck.comments) == ("Auction block", "by us")
    named = parse_block_list("// a remark\n# Name: Real name\n1 Opt\n", source="export.txt")
    assert (named.name, named.comments) == ("Real name", "a remark")
    assert parse_block_list("# a remark\n1 Opt\n", source="export.txt").name == "export"
    assert parse_block_list("1 Opt\n// late\n", source="export.txt").name == "export"


def test_blank_lines_never_split_a_block() -> None:
    deck = parse_block_list("1 Opt\n\n1 Shock\n\n\n1 Duress\n")
    assert names(deck) == [(1, "Opt"), (1, "Shock"), (1, "Duress")]
    assert "side" not in deck.sections


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("1 Opt\n0 Shock", 2, "count must be positive"),
        ("1 Opt\n\n4", 3, "no card name"),
        (f"{MAX_COUNT + 1} Shock", 1, "above"),
        ("1996 World Champion", 1, "write '1 1996 World Champion'"),
        ('<?xml version="1.0"?>', 1, "looks like XML"),
        ("[]", 1, "empty section header"),
        ("4 " + "a" * 300, 1, "longer than"),
        ("4 Bad\x07Name", 1, "control"),
        ("4 ...", 1, "not a card name"),
        pytest.param("1 Opt\n1 Lightning" + " " * 2000 + "Bolt", 2, "line longer than 1000", id="long-card"),
        pytest.param("Creatures" + " " * 5_000 + "x", 1, "line longer than 1000", id="long-heading"),
    ],
)
def test_malformed_lines_name_file_and_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_block_list(text, source="blocks/mine.txt")
    assert info.value.line == line
    assert info.value.source == "blocks/mine.txt"
    assert str(info.value).startswith(f"blocks/mine.txt:{line}:")
    assert fragment in str(info.value)


def test_a_long_line_is_refused_before_any_pattern_reads_it() -> None:
    """A garbled file of long lines (a heading-like word, then tens of thousands of spaces) used to keep
    the reader's patterns busy for minutes; such a line is refused at once, in every text reader."""
    from cockatrice_ext.decks.readers import read_deck

    line = "Creatures" + " " * 5_000 + "(16)"
    with pytest.raises(DeckFormatError, match="line longer than 1000 characters"):
        parse_block_list(f"1 Opt\n{line}\n", source="x.txt")
    with pytest.raises(DeckFormatError, match="line longer than 1000 characters"):
        read_deck(f"1 Opt\n1 Lightning{' ' * 5_000}Bolt\n", source="x.txt")


def test_read_block_list_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "cube.txt"
    path.write_bytes("\ufeff# hi\r\n2 Opt\r\n".encode())
    deck = read_block_list(path)
    assert names(deck) == [(2, "Opt")]
    assert deck.name == "cube"
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"1 Opt\n1 \xff\xfe\n")
    with pytest.raises(DeckFormatError, match=r"bad\.txt:2: not UTF-8"):
        read_block_list(bad)


WORDS = [
    "Jaya",
    "Ballard,",
    "Task",
    "Mage",
    "Serra's",
    "Angel",
    "Will-o'-the-Wisp",
    "Bolt",
    "Æther",
    "of",
    "the",
]
FIRST = [w for w in WORDS if w not in ("of", "the")]
card_names = st.builds(
    lambda first, rest, split: " ".join([first, *rest]) + (" // Ice" if split else ""),
    st.sampled_from(FIRST),
    st.lists(st.sampled_from(WORDS), max_size=4),
    st.booleans(),
)
entries = st.builds(
    DeckEntry,
    name=card_names,
    count=st.integers(1, MAX_COUNT),
    set_code=st.sampled_from(["", "M19", "2XM", "PLST"]),
    collector_number=st.sampled_from(["", "1", "123", "65a"]),
)
sections = st.dictionaries(
    st.sampled_from(["main", "side", "Removal", "Creatures", "commander"]),
    st.lists(entries, min_size=1, max_size=6),
    min_size=1,
    max_size=4,
)


@settings(max_examples=100, deadline=None)
@given(sections=sections, title=st.sampled_from(["", "My cube", "Auction: test"]))
def test_format_then_parse_round_trips(sections: dict[str, list[DeckEntry]], title: str) -> None:
    deck = Deck(name=title, comments="first line\nsecond line", sections=sections)
    back = parse_block_list(format_block_list(deck))
    assert back.name == title
    assert back.comments == deck.comments
    strip = {
        s: [
            (e.name, e.count, e.set_code if e.set_code else "", e.collector_number if e.set_code else "")
            for e in v
        ]
        for s, v in sections.items()
    }
    assert {
        s: [(e.name, e.count, e.set_code, e.collector_number) for e in v] for s, v in back.sections.items()
    } == strip


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_text_parses_or_raises_deck_format_error(text: str) -> None:
    try:
        deck = parse_block_list(text, source="fuzz.txt")
    except DeckFormatError as exc:
        assert exc.source == "fuzz.txt"
        assert 0 <= exc.line <= text.count("\n") + 1 + text.count("\r") + len(text)
        return
    for _, entry in deck.entries():
        assert 1 <= entry.count <= MAX_COUNT
        assert entry.name and entry.name == entry.name.strip()


line_parts = st.lists(
    st.sampled_from(
        [
            "4",
            "4x",
            "SB:",
            "[M10]",
            "(2XM) 12",
            "*F*",
            "#",
            "##",
            "//",
            "[",
            "]",
            "Fire",
            "/",
            "Ice",
            ",",
            ":",
            " ",
            "\n",
        ]
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(line_parts)
def test_token_soup_parses_or_raises_deck_format_error(parts: list[str]) -> None:
    text = " ".join(parts)
    try:
        deck = parse_block_list(text)
    except DeckFormatError as exc:
        assert exc.line >= 1
        return
    assert all(entry.count >= 1 and entry.name for _, entry in deck.entries())
