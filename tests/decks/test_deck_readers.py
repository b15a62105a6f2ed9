"""Deck readers: the real example files, each format's rules, sniffing, and fuzzing."""

from __future__ import annotations

from pathlib import Path

import pytest
import shared_paths
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.cli import main
from cockatrice_ext.decks.blocklist import read_block_list
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.model import Deck
from cockatrice_ext.decks.readers import (
    FORMATS,
    read_arena,
    read_cod,
    read_deck,
    read_dek,
    read_forge,
    read_text,
    read_xmage,
    sniff_format,
)

EXAMPLES = shared_paths.EXAMPLES
COCKATRICE = shared_paths.COCKATRICE_FILES
needs_examples = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="shared example files not present")


def cards(deck: Deck, section: str = "main") -> list[tuple[int, str, str, str]]:
    return [(e.count, e.name, e.set_code, e.collector_number) for e in deck.sections.get(section, [])]


# -- real files --------------------------------------------------------------------------------------


@needs_examples
def test_architrice_cod() -> None:
    deck = read_deck(EXAMPLES / "architrice_test_deck.cod")
    assert deck.name == "Test Deck"
    assert cards(deck) == [
        (1, "Bala Ged Recovery", "", ""),
        (1, "Life // Death", "", ""),
        (1, "Sol Ring", "", ""),
    ]
    assert cards(deck, "side") == [(1, "Blex, Vexing Pest", "", "")]


@needs_examples
def test_synthesized_cod_keeps_every_zone_and_printing() -> None:
    deck = read_deck(EXAMPLES / "cockatrice_cod_as_written_SYNTHESIZED.cod")
    assert deck.name == "Example (synthesized)"
    assert deck.comments.startswith("Element order")
    assert cards(deck)[:2] == [(2, "Angelic Edict", "", ""), (1, "Mikaeus, the Lunarch", "ISD", "23")]
    assert cards(deck, "side") == [(1, "Bonecrusher Giant // Stomp", "", "")]
    assert cards(deck, "tokens") == [(1, "Spirit", "", "")]
    assert deck.entries()[1][1].line == 14


@needs_examples
def test_cockatrice_repo_cod() -> None:
    deck = read_deck(COCKATRICE / "cockatrice_repo_sarkhan.cod")
    assert cards(deck) == [(1, "Sarkhan, Wanderer to Shiv", "", "")]


@needs_examples
def test_mtgo_dek() -> None:
    deck = read_deck(EXAMPLES / "architrice_test_deck_mtgo.dek")
    assert [c[1] for c in cards(deck)] == ["Bala Ged Recovery", "Life", "Sol Ring"]
    assert [c[1] for c in cards(deck, "side")] == ["Blex, Vexing Pest"]


@needs_examples
def test_xmage_dck() -> None:
    path = EXAMPLES / "architrice_test_deck_xmage.dck"
    assert sniff_format(path.read_bytes(), path.name) == "xmage"
    deck = read_deck(path)
    assert cards(deck) == [
        (1, "Bala Ged Recovery", "ZNR", "180"),
        (1, "Life // Death", "DDJ", "77"),
        (1, "Sol Ring", "C21", "263"),
    ]
    assert cards(deck, "side") == [(1, "Blex, Vexing Pest", "STX", "148")]


@needs_examples
def test_generic_text_blank_line_sideboard() -> None:
    deck = read_deck(EXAMPLES / "architrice_test_deck_generic.txt")
    assert [c[1] for c in cards(deck)] == [
        "Bala Ged Recovery // Bala Ged Sanctuary",
        "Life // Death",
        "Sol Ring",
    ]
    assert [c[1] for c in cards(deck, "side")] == ["Blex, Vexing Pest // Search for Blex"]


@needs_examples
@pytest.mark.parametrize(
    ("name", "title", "main_total", "first"),
    [
        ("forge_deck_Chargoyf.dck", "Chargoyf", 41, (4, "Forest", "TMP", "")),
        ("forge_deck_Core_Set_2019_Welcome_Deck_WU.dck", "Core Set 2019 Welcome Deck (WU)", 60, None),
        (
            "forge_cube_Absolute_Beginner_Cube.dck",
            "Absolute Beginner Cube",
            20,
            (1, "Healer's Hawk", "FDN", ""),
        ),
    ],
)
def test_forge_decks(name: str, title: str, main_total: int, first: tuple[int, str, str, str] | None) -> None:
    path = EXAMPLES / name
    assert sniff_format(path.read_bytes(), path.name) == "forge"
    deck = read_deck(path)
    assert deck.name == title
    assert deck.count("main") == main_total
    if first:
        assert cards(deck)[0] == first
    assert "shop" not in deck.sections  # quest [shop] is not a deck section


# -- format rules ------------------------------------------------------------------------------------


def test_forge_rules() -> None:
    text = (
        "[metadata]\nname=X\nComment=hello\n[MAIN]\n# comment\n2 Island|M19|3\nFire // Ice|MH2\n"
        "1 Opt+|XLN|1|[65]\n[sideboard]\n1 Duress|???\n"
    )
    deck = read_forge(text)
    assert deck.name == "X" and deck.comments == "hello"
    assert cards(deck) == [(2, "Island", "M19", ""), (1, "Fire // Ice", "MH2", ""), (1, "Opt", "XLN", "65")]
    assert cards(deck, "side") == [(1, "Duress", "", "")]
    with pytest.raises(DeckFormatError, match=r"<text>:2: count must be between"):
        read_forge("[Main]\n0 Opt\n")


def test_xmage_rules() -> None:
    text = (
        "NAME:My Deck\nAUTHOR:me\n2 [M19:1] Aegis of the Heavens\nSB: 1 [XLN:65] Opt\n1 Shock\n"
        "LAYOUT MAIN:(1,1)(NONE,false,50)|([M19:1])\n"
    )
    deck = read_xmage(text)
    assert deck.name == "My Deck"
    assert cards(deck) == [(2, "Aegis of the Heavens", "M19", "1"), (1, "Shock", "", "")]
    assert cards(deck, "side") == [(1, "Opt", "XLN", "65")]


def test_arena_rules() -> None:
    text = (
        "About\nName Arena Test\n\nCommander\n1 Mikaeus, the Lunarch (ISD) 23\n\n"
        "Deck\n4 Lightning Bolt (2XM) 123\n2 Opt (XLN) 65\n\nSideboard\n2 Duress (M19) 94\n"
    )
    assert sniff_format(text.encode()) == "arena"
    deck = read_arena(text)
    assert deck.name == "Arena Test"
    assert cards(deck, "commander") == [(1, "Mikaeus, the Lunarch", "ISD", "23")]
    assert cards(deck) == [(4, "Lightning Bolt", "2XM", "123"), (2, "Opt", "XLN", "65")]
    assert cards(deck, "side") == [(2, "Duress", "M19", "94")]
    # no Sideboard header: the blank line after the deck starts the sideboard
    deck = read_arena("Deck\n4 Lightning Bolt (2XM) 123\n\n2 Duress (M19) 94\n")
    assert cards(deck, "side") == [(2, "Duress", "M19", "94")]


@pytest.mark.parametrize(
    ("text", "main", "side"),
    [
        ("4 Lightning Bolt\nSB: 2 Duress\n1 Opt\n", ["Lightning Bolt", "Opt"], ["Duress"]),
        ("4 Lightning Bolt\n\n2 Duress\n", ["Lightning Bolt"], ["Duress"]),
        ("2 A\n\n3 B\n\n4 C\n", ["A", "B", "C"], []),  # several blank-separated blocks: all main
        ("Deck\n4 Lightning Bolt\nSideboard\n2 Duress\n", ["Lightning Bolt"], ["Duress"]),
        ("// Main\n4 Lightning Bolt\n\n// Sideboard\n2 Duress\n", ["Lightning Bolt"], ["Duress"]),
        ("4 [M10] Lightning Bolt\nSB: 2 [ZEN] Forest\n", ["Lightning Bolt"], ["Forest"]),
        ("1 Sol Ring (C21) 263 *F*\n", ["Sol Ring"], []),
    ],
)
def test_plain_text_rules(text: str, main: list[str], side: list[str]) -> None:
    deck = read_text(text)
    assert [e.name for e in deck.main] == main
    assert [e.name for e in deck.side] == side


def test_plain_text_header_comments_name_the_deck() -> None:
    deck = read_text("// Burn\n// fast and red\n\n4 Lightning Bolt\n")
    assert deck.name == "Burn" and deck.comments == "fast and red"
    assert [e.line for e in deck.main] == [4]


# -- XML safety and errors ---------------------------------------------------------------------------


def test_cod_errors_name_file_and_line() -> None:
    data = (
        b'<?xml version="1.0"?>\n<cockatrice_deck version="1">\n<zone name="main">\n'
        b'<card number="4x" name="Opt"/>\n</zone></cockatrice_deck>'
    )
    with pytest.raises(DeckFormatError) as info:
        read_cod(data, "my.cod")
    assert (info.value.source, info.value.line) == ("my.cod", 4)
    with pytest.raises(DeckFormatError) as info:
        read_cod(b"<cockatrice_deck>\n<zone name='main'>\n<card></zone>", "my.cod")
    assert str(info.value) == "my.cod:3: malformed XML: <card> opened on line 3 is closed by </zone>"
    with pytest.raises(DeckFormatError, match="not <cockatrice_deck>"):
        read_cod(b"<Deck/>", "my.cod")


def test_xml_entities_and_doctype_are_refused() -> None:
    bomb = (
        b'<?xml version="1.0"?>\n'
        b'<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
        b'<cockatrice_deck><zone name="main"><card number="1" name="&b;"/></zone></cockatrice_deck>'
    )
    with pytest.raises(DeckFormatError):
        read_cod(bomb)
    external = (
        b'<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        b'<Deck><Cards Quantity="1" Name="&x;" Sideboard="false"/></Deck>'
    )
    with pytest.raises(DeckFormatError):
        read_dek(external)


def test_dek_rules() -> None:
    deck = read_dek(
        b'<Deck><Cards Quantity="2" Name="Opt" Sideboard="false"/>'
        b'<Cards Quantity="1" Name="Duress" Sideboard="true"/></Deck>'
    )
    assert cards(deck) == [(2, "Opt", "", "")] and cards(deck, "side") == [(1, "Duress", "", "")]
    with pytest.raises(DeckFormatError, match="Quantity"):
        read_dek(b'<Deck><Cards Quantity="-1" Name="Opt"/></Deck>')


# -- read_deck entry point ---------------------------------------------------------------------------


def test_read_deck_accepts_path_text_and_bytes(tmp_path: Path) -> None:
    path = tmp_path / "burn.txt"
    path.write_text("4 Lightning Bolt\n", encoding="utf-8")
    assert read_deck(str(path)).name == "burn"
    assert cards(read_deck(path)) == [(4, "Lightning Bolt", "", "")]
    assert cards(read_deck("4 Lightning Bolt")) == [(4, "Lightning Bolt", "", "")]
    assert cards(read_deck(b"4 Lightning Bolt\n")) == [(4, "Lightning Bolt", "", "")]
    assert sniff_format(b"# a block\n1 Opt\n") == "blocklist"
    with pytest.raises(DeckFormatError, match=r"missing\.cod: no such file"):
        read_deck(str(tmp_path / "missing.cod"))
    with pytest.raises(DeckFormatError, match="unknown deck format"):
        read_deck("1 Opt", format="nope")
    bad = tmp_path / "bad.dck"
    bad.write_bytes(b"[Main]\n1 Opt\n1 \xff\n")
    with pytest.raises(DeckFormatError, match=r"bad\.dck:3: not UTF-8"):
        read_deck(bad)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=600), fmt=st.sampled_from((None, *FORMATS)))
def test_arbitrary_bytes_give_a_deck_or_deck_format_error(data: bytes, fmt: str | None) -> None:
    try:
        deck = read_deck(data, format=fmt, source="fuzz")
    except DeckFormatError as exc:
        assert exc.source == "fuzz"
        return
    for _, entry in deck.entries():
        assert entry.count >= 1 and entry.name


xml_fragments = st.lists(
    st.sampled_from(
        [
            "<cockatrice_deck>",
            "</cockatrice_deck>",
            "<Deck>",
            "</Deck>",
            '<zone name="main">',
            '<zone name="">',
            "</zone>",
            '<card number="2" name="Opt"/>',
            '<card number="x" name="Opt"/>',
            '<card name=""/>',
            '<Cards Quantity="1" Name="Opt" Sideboard="true"/>',
            "<deckname>X</deckname>",
            "&amp;",
            "&foo;",
            "<!-- c -->",
            "text",
        ]
    ),
    max_size=20,
)


@settings(max_examples=150, deadline=None)
@given(xml_fragments)
def test_xml_fragment_soup(parts: list[str]) -> None:
    data = ("".join(parts)).encode()
    for reader in (read_cod, read_dek):
        try:
            deck = reader(data, "soup.xml")
        except DeckFormatError as exc:
            assert exc.source == "soup.xml"
            continue
        assert all(entry.count >= 1 and entry.name for _, entry in deck.entries())


text_lines = st.lists(
    st.sampled_from(
        [
            "[metadata]",
            "Name=X",
            "[Main]",
            "[Sideboard]",
            "4 Opt|XLN",
            "4 [XLN:65] Opt",
            "SB: 1 Opt",
            "Deck",
            "Sideboard",
            "Commander",
            "About",
            "Name N",
            "2 Opt (XLN) 65",
            "",
            "0 Opt",
            "Opt",
            "// c",
            "# c",
            "LAYOUT x",
        ]
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(lines=text_lines, fmt=st.sampled_from(("forge", "xmage", "arena", "text", "blocklist", None)))
def test_text_format_line_soup(lines: list[str], fmt: str | None) -> None:
    text = "\n".join(lines)
    try:
        deck = read_deck(text, format=fmt)
    except DeckFormatError as exc:
        assert 1 <= exc.line <= len(lines)
        return
    assert all(entry.count >= 1 for _, entry in deck.entries())


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_utf16_with_a_byte_order_mark_is_read_as_cockatrice_reads_it(tmp_path: Path, encoding: str) -> None:
    """Windows Notepad's "Unicode" and PowerShell 5's ``>`` write UTF-16 with a BOM: a list, a deck file and
    a .cod declaring UTF-16 read as their UTF-8 twins do (they were "not UTF-8 text")."""
    bom = "\ufeff" if encoding == "utf-16-be" else ""  # Python's utf-16 writes its own BOM
    listing = tmp_path / "list.txt"
    listing.write_bytes((bom + "4 Lightning Bolt\r\n2 Lim-Dûl's Vault\r\n").encode(encoding))
    cod = tmp_path / "deck.cod"
    cod.write_bytes(
        (
            bom
            + '<?xml version="1.0" encoding="UTF-16"?>\n<cockatrice_deck version="1"><deckname>d</deckname>'
            '<zone name="main"><card number="3" name="Duress"/></zone></cockatrice_deck>\n'
        ).encode(encoding)
    )
    assert [(e.count, e.name) for e in read_deck(listing).main] == [
        (4, "Lightning Bolt"),
        (2, "Lim-Dûl's Vault"),
    ]
    assert [(e.count, e.name) for e in read_deck(cod).main] == [(3, "Duress")]
    assert [e.name for e in read_block_list(listing).main] == ["Lightning Bolt", "Lim-Dûl's Vault"]
    for source in (listing, cod):
        result = CliRunner().invoke(main, ["export", str(source), "--to", "text", "-o", "-"])
        assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["block", "check", str(listing)])
    assert result.exit_code == 0, result.output
