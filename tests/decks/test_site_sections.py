"""Where deck sites' exports put their sections: a commander or companion section ended by a blank line
(the deck follows without a header of its own), comment-style headers (``// Sideboard``, ``# Maybeboard``),
TappedOut's ``*CMDR*``, Deckbox's set names and Archidekt's CSV categories, and our own ``--to text``
read back with its sideboard whatever its size."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cockatrice_ext.cards.model import Card
from cockatrice_ext.cli import main
from cockatrice_ext.decks.blocklist import parse_block_list, strip_markers
from cockatrice_ext.decks.model import MAYBE, Deck
from cockatrice_ext.decks.readers import (
    detect_format,
    read_arena,
    read_cod,
    read_cubecobra_csv,
    read_deck,
    read_text,
)
from cockatrice_ext.exporters import ExportDeck, ExportEntry, write_text

# Moxfield's commander export: the commander, a blank line, the deck with no header.
MOXFIELD_COMMANDER = (
    "COMMANDER:\n1 Esika, God of the Tree // The Prismatic Bridge (KHM) 168\n\n1 Sol Ring (C21) 263\n"
    "1 Arcane Signet (C21) 236 *F*\n1 Command Tower (C21) 284\n30 Forest (KHM) 394\n"
)
ARENA_COMMANDER = "Commander\n1 Esika, God of the Tree\n\n1 Sol Ring\n98 Forest\n"
MOXFIELD_COMPANION = (
    "Companion:\n1 Lurrus of the Dream-Den (IKO) 226\n\n4 Opt (ELD) 59\n56 Island (M21) 264\n\n"
    "Sideboard:\n3 Duress (M21) 96\n"
)
DECKSTATS = (
    "//Main\n1 [M21] Duress #Discard\n4 [ELD#115] Bonecrusher Giant\n2 Lightning Bolt\n\n"
    "//Sideboard\nSB: 2 [M21] Duress\n1 Pyroblast\n\n//Maybeboard\n1 Counterspell\n"
)
TAPPEDOUT = (
    "1x Esika, God of the Tree *CMDR*\n1x Sol Ring *F*\n1x Arcane Signet *f*\n30x Forest\nSB: 2x Duress\n"
)
DECKBOX = (
    "Count,Tradelist Count,Name,Edition,Card Number,Condition,Language,Foil,Signed\n"
    "2,0,Duress,Core Set 2021,96,Near Mint,English,,\n"
    "4,0,Lightning Bolt,magic 2010,146,Near Mint,English,,\n"
    "1,0,Island,Zendikar Rising,381,Near Mint,English,,\n"
    "1,0,Opt,Core Set 2099,59,Near Mint,English,,\n"
    "1,0,Thoughtseize,Theros,107,Near Mint,English,,\n"
)
ARCHIDEKT_CSV = (
    "Quantity,Name,Finish,Condition,Date Added,Language,Purchase Price,Tags,Edition Name,Edition Code,"
    "Multiverse Id,Scryfall ID,MTGO ID,Collector Number,Categories\n"
    '1,"Esika, God of the Tree // The Prismatic Bridge",Normal,NM,2024-01-01,EN,,,Kaldheim,khm,,,,168,'
    "Commander\n"
    '1,Sol Ring,Normal,NM,2024-01-01,EN,,,Commander 2021,c21,,,,263,"Ramp,Artifact"\n'
    "2,Duress,Normal,NM,2024-01-01,EN,,,Core Set 2021,m21,,,,96,Sideboard\n"
    '1,Cultivate,Normal,NM,2024-01-01,EN,,,Core Set 2021,m21,,,,177,"Maybeboard{noDeck}{noPrice},Ramp"\n'
)


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def detected(text: str) -> Deck:
    """``text`` read as the command line reads it: its format detected."""
    data = text.encode("utf-8")
    return read_deck(data, format=detect_format(data))


def names(deck: Deck, section: str = "main") -> list[tuple[int, str]]:
    return [(e.count, e.name) for e in deck.sections.get(section, [])]


def pins(deck: Deck, section: str = "main") -> list[tuple[str, str, str]]:
    return [(e.name, e.set_code, e.collector_number) for e in deck.sections.get(section, [])]


def export_cod(tmp_path: Path, name: str, text: str) -> tuple[Deck, Result]:
    listed = tmp_path / name
    listed.write_text(text, encoding="utf-8")
    out = tmp_path / "out.cod"
    result = invoke("export", str(listed), "--to", "cod", "-o", str(out))
    assert result.exit_code == 0, result.output
    return read_cod(out.read_bytes(), source=str(out)), result


# -- a commander's or companion's blank line ---------------------------------------------------------------


@pytest.mark.parametrize("text", [MOXFIELD_COMMANDER, ARENA_COMMANDER])
def test_a_blank_line_after_the_commander_goes_back_to_the_main_deck(text: str) -> None:
    for deck in (detected(text), parse_block_list(text), read_arena(text)):
        assert next(name for _, name in names(deck, "commander")).startswith("Esika")
        assert len(deck.sections["commander"]) == 1
        assert (1, "Sol Ring") in names(deck) and names(deck)[-1][1] == "Forest"
        assert not deck.sections.get("side") and not deck.read_warnings


def test_a_blank_line_after_the_companion_goes_back_to_the_main_deck(tmp_path: Path) -> None:
    deck, result = export_cod(tmp_path, "lurrus.txt", MOXFIELD_COMPANION)
    assert names(deck) == [(4, "Opt"), (56, "Island")]
    assert names(deck, "side") == [(3, "Duress"), (1, "Lurrus of the Dream-Den")]  # the companion's place
    assert "blank line" not in result.stderr
    assert names(read_arena(MOXFIELD_COMPANION)) == [(4, "Opt"), (56, "Island")]


def test_arenas_explicit_deck_header_still_opens_the_deck_and_a_blank_line_the_sideboard() -> None:
    text = "Commander\n1 Mikaeus, the Lunarch (ISD) 23\n\nDeck\n4 Opt (XLN) 65\n\n2 Duress (M19) 94\n"
    deck = detected(text)
    assert names(deck, "commander") == [(1, "Mikaeus, the Lunarch")]
    assert names(deck) == [(4, "Opt")] and names(deck, "side") == [(2, "Duress")]
    headed = parse_block_list("COMMANDER:\n1 Mikaeus, the Lunarch\n\nSIDEBOARD:\n2 Duress\n\nDECK:\n4 Opt\n")
    assert names(headed, "side") == [(2, "Duress")] and names(headed) == [(4, "Opt")]


def test_a_blank_line_ending_a_commander_section_of_many_cards_is_said() -> None:
    text = "Commander\n1 Isamaru, Hound of Konda\n1 Tetsuo Umezawa\n1 Rhys the Exiled\n\n1 Sol Ring\n"
    for deck in (parse_block_list(text, "pool.txt"), read_arena(text, "pool.txt")):
        assert len(deck.sections["commander"]) == 3 and names(deck) == [(1, "Sol Ring")]
        assert len(deck.read_warnings) == 1
        assert deck.read_warnings[0].startswith("pool.txt:6: read as a main card")


# -- comment-style headers ---------------------------------------------------------------------------------


def test_deckstats_comment_headers_are_sections_never_the_decks_name() -> None:
    deck = parse_block_list(DECKSTATS)
    assert deck.name == "" and deck.comments == ""
    assert names(deck) == [(1, "Duress"), (4, "Bonecrusher Giant"), (2, "Lightning Bolt")]
    assert names(deck, "side") == [(2, "Duress"), (1, "Pyroblast")]
    assert names(deck, MAYBE) == [(1, "Counterspell")]


@pytest.mark.parametrize(
    ("header", "section"),
    [
        ("// Sideboard", "side"),
        ("//Sideboard", "side"),
        ("# Sideboard", "side"),
        ("// Sideboard (3)", "side"),
        ("// Maybeboard", MAYBE),
        ("// Commander", "commander"),
        ("//Main", "main"),
    ],
)
def test_a_comment_naming_exactly_a_section_opens_it(header: str, section: str) -> None:
    text = f"4 Opt\n56 Island\n{header}\n3 Duress\n"
    for deck in (parse_block_list(text), read_arena(text), detected(text)):
        assert names(deck, section)[-1] == (3, "Duress"), deck.sections
        if section != "main":
            assert names(deck) == [(4, "Opt"), (56, "Island")]


def test_other_comments_stay_comments() -> None:
    deck = parse_block_list(
        "// Sideboard plan\n# Main idea: burn\n// Deck: Izzet\n4 Opt\n// Sideboard notes\n1 Shock\n"
    )
    assert deck.name == "Sideboard plan" and names(deck) == [(4, "Opt"), (1, "Shock")]
    assert deck.comments == "Main idea: burn\nDeck: Izzet"


# -- TappedOut's *CMDR* -----------------------------------------------------------------------------------


def test_tappedouts_cmdr_marks_the_commander_and_foil_marks_stay_dropped() -> None:
    assert strip_markers("1x Esika, God of the Tree *CMDR*") == ("1x Esika, God of the Tree", "commander")
    assert strip_markers("1x Sol Ring *F*") == ("1x Sol Ring", "")
    for deck in (detected(TAPPEDOUT), parse_block_list(TAPPEDOUT)):
        assert names(deck, "commander") == [(1, "Esika, God of the Tree")]
        assert names(deck) == [(1, "Sol Ring"), (1, "Arcane Signet"), (30, "Forest")]
        assert names(deck, "side") == [(2, "Duress")]
    assert names(read_arena("1 Esika, God of the Tree *CMDR*\n1 Sol Ring\n"), "commander")[0][1].startswith(
        "Esika"
    )
    assert names(read_text("1 Esika, God of the Tree *CMDR*\n1 Sol Ring\n"), "commander")[0][1].startswith(
        "Esika"
    )


# -- CSV: set names and categories -------------------------------------------------------------------------


def test_deckbox_set_names_pin_their_sets_and_a_number_without_a_set_is_dropped_with_a_warning() -> None:
    deck = read_cubecobra_csv(DECKBOX, "deckbox.csv")
    assert pins(deck) == [
        ("Duress", "M21", "96"),
        ("Lightning Bolt", "M10", "146"),  # any case
        ("Island", "ZNR", "381"),
        ("Opt", "", ""),  # no such set: its number would pin the first printing numbered 59 in any set
        ("Thoughtseize", "THS", "107"),  # a six-letter name is a name, not a code
    ]
    assert deck.read_warnings == [
        "deckbox.csv:5: collector number dropped (no set is named 'Core Set 2099' in the card data);"
        " the card's usual printing is used (a set code column, such as 'Set Code' or 'Edition Code', pins"
        " the printing)"
    ]
    numbered = read_cubecobra_csv("Count,Name,Card Number\n1,Opt,59\n2,Duress,96\n", "n.csv")
    assert pins(numbered) == [("Opt", "", ""), ("Duress", "", "")]
    assert numbered.read_warnings[0].startswith("n.csv:2: lines 2 and 3: collector numbers dropped (the row")


def test_a_deckbox_export_pins_the_printing_it_names(tmp_path: Path) -> None:
    deck, result = export_cod(tmp_path, "deckbox.csv", DECKBOX)
    assert ("Duress", "M21", "96") in pins(deck)
    assert "warning: " in result.stderr and ":5: collector number dropped" in result.stderr


def test_an_edition_code_column_wins_and_archidekt_categories_are_sections() -> None:
    deck = read_cubecobra_csv(ARCHIDEKT_CSV, "archidekt.csv")
    assert pins(deck, "commander") == [("Esika, God of the Tree // The Prismatic Bridge", "KHM", "168")]
    assert pins(deck) == [("Sol Ring", "C21", "263")]
    assert pins(deck, "side") == [("Duress", "M21", "96")]
    assert pins(deck, MAYBE) == [("Cultivate", "M21", "177")]
    assert not deck.read_warnings


# -- our own text, read back --------------------------------------------------------------------------------


def _card(name: str) -> Card:
    return Card(name=name)


def test_short_text_output_reads_back_with_its_sideboard_everywhere(tmp_path: Path) -> None:
    deck = ExportDeck(name="Tiny")
    deck.sections["main"] = [ExportEntry(_card("Opt"), 4), ExportEntry(_card("Lightning Bolt"), 4)]
    deck.sections["side"] = [ExportEntry(_card("Duress"), 2)]
    text = write_text(deck)
    assert text == "// Tiny\n\n4 Opt\n4 Lightning Bolt\n\nSideboard\n2 Duress\n"
    for back in (detected(text), read_text(text), read_arena(text), parse_block_list(text)):
        assert names(back) == [(4, "Opt"), (4, "Lightning Bolt")] and names(back, "side") == [(2, "Duress")]
    assert detected(text).name == read_text(text).name == "Tiny"


def test_text_export_of_a_short_deck_reads_back_through_the_command_line(tmp_path: Path) -> None:
    listed = tmp_path / "tiny.txt"
    listed.write_text("# Name: Tiny\n4 Opt\n4 Lightning Bolt\n\nSideboard\n2 Duress\n", encoding="utf-8")
    written = tmp_path / "tiny.text.txt"
    result = invoke("export", str(listed), "--to", "text", "-o", str(written))
    assert result.exit_code == 0, result.output
    deck, result = export_cod(tmp_path, "again.txt", written.read_text())
    assert deck.name == "Tiny"
    assert names(deck) == [(4, "Opt"), (4, "Lightning Bolt")] and names(deck, "side") == [(2, "Duress")]


def test_a_deck_named_like_a_section_keeps_its_name_in_text() -> None:
    deck = ExportDeck(name="Sideboard")
    deck.sections["main"] = [ExportEntry(_card("Opt"), 4)]
    text = write_text(deck)
    assert text.startswith("// Name: Sideboard\n\n")
    back = detected(text)
    assert back.name == "Sideboard" and names(back) == [(4, "Opt")]
