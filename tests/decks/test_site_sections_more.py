"""More of what deck sites and programs write: Magic Workstation's ``// NAME :`` header, Deckstats'
``#!Commander`` tag, Cockatrice's ``||`` split separator, saved web pages, MTGGoldfish's frame variants,
Cockatrice's annotated plain text, Arena's own set codes and warnings said in line order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.readers import read_deck

MWS = (
    "// Deck file for Magic Workstation (http://www.magicworkstation.com)\n"
    "// NAME : Burn\n// CREATOR : me\n// FORMAT : Modern\n"
    "        4 [M10] Lightning Bolt\n        20 [ZEN] Mountain\nSB:  2 [ZEN] Forest\n"
)


def test_a_magic_workstation_name_line_names_the_deck() -> None:
    """``// NAME : Burn`` names the deck; ``CREATOR`` and ``FORMAT`` are its comments, and the line that
    says the file is Magic Workstation's is none of the user's."""
    deck = read_deck(MWS.encode(), "text", source="burn.mwDeck")
    assert deck.name == "Burn"
    assert deck.comments == "Creator: me\nFormat: Modern"
    assert [(e.name, e.count) for e in deck.sections["side"]] == [("Forest", 2)]
    with_blank = MWS.replace("// FORMAT : Modern\n", "// FORMAT : Modern\n\n")  # Cockatrice's header rule
    deck = read_deck(with_blank.encode(), "text", source="burn.mwDeck")
    assert (deck.name, deck.comments) == ("Burn", "Creator: me\nFormat: Modern")
    assert read_deck(MWS.encode(), "blocklist", source="burn.txt").name == "Burn"  # a .txt: a block list


DECKSTATS = (
    "//Main\n1 [M21] Duress #Discard\n1 [MH2] Fire // Ice #!Commander\n2 [2XM] Lightning Bolt #Burn #!cheap\n"
    "\n//Sideboard\nSB: 2 [M21] Duress\n"
)


def test_deckstats_commander_tag_marks_the_commander() -> None:
    """Deckstats' ``#!Commander`` puts the card in the commander section; its other ``#`` tags stay
    comments, the card in the main deck."""
    deck = read_deck(DECKSTATS.encode(), "blocklist", source="deckstats.txt")
    assert [(e.name, e.set_code) for e in deck.sections["commander"]] == [("Fire // Ice", "MH2")]
    assert [e.name for e in deck.sections["main"]] == ["Duress", "Lightning Bolt"]
    assert [e.name for e in deck.sections["side"]] == ["Duress"]


def test_a_double_pipe_separates_split_halves_as_in_cockatrice() -> None:
    """``Fire || Ice`` (and ``Fire||Ice``, which is not Forge's ``Name|SET``) is ``Fire // Ice``, in every
    text reader; Forge's single ``|`` still pins a set."""
    text = "1 Fire || Ice\n1 Fire||Ice (MH2) 290\n1 Opt|ELD\n"
    for fmt in ("blocklist", "arena", "text"):
        deck = read_deck(text.encode(), fmt, source="split.txt")
        got = [(e.name, e.set_code, e.collector_number) for _, e in deck.entries()]
        assert got == [("Fire // Ice", "", ""), ("Fire // Ice", "MH2", "290"), ("Opt", "ELD", "")], fmt


@pytest.mark.parametrize(
    "page",
    [
        "<!DOCTYPE html>\n<html><head><title>Esika | Moxfield</title></head><body>1 Sol Ring</body></html>\n",
        "<html><head><title>Deck</title></head><body><p>4 Opt</p></body></html>\n",
        "\ufeff<!-- saved from url=(0014)about:internet -->\n<!doctype HTML><html></html>",
    ],
)
def test_a_saved_web_page_is_named_as_one(page: str, tmp_path: Path) -> None:
    """A deck site's page saved from the browser is said to be a web page, with what to give instead,
    whatever reader is asked for; not an XML refusal about its DOCTYPE."""
    for fmt in (None, "cod", "blocklist"):
        with pytest.raises(DeckFormatError) as caught:
            read_deck(page.encode(), fmt, source="page.html")
        assert "a saved web page (HTML)" in str(caught.value) and "export" in str(caught.value)
    file = tmp_path / "page.html"
    file.write_text(page)
    result = CliRunner().invoke(main, ["export", str(file), "--to", "cod", "-o", str(tmp_path / "p.cod")])
    assert result.exit_code == 2 and "a saved web page (HTML)" in result.output
    assert "DOCTYPE" not in result.output


GOLDFISH_VERSIONS = (
    "Creatures (8)\n4 Delver of Secrets [ISD]\n4 Bonecrusher Giant <borderless> [ELD]\nSpells (4)\n"
    "4 Fire // Ice [MH2]\nLands (20)\n20 Island <271> [ZNR]\n"
)


def test_an_unknown_goldfish_version_is_warned_about_with_the_printing_used(tmp_path: Path) -> None:
    """``<borderless>`` (a frame the card data does not hold) is said once for its line, with the printing
    used; a numeric version (``<271>``) pins that number, silently."""
    deck = read_deck(GOLDFISH_VERSIONS.encode(), "blocklist", source="goldfish.txt")
    assert len(deck.read_warnings) == 1 and ":3: version <borderless> is not known" in deck.read_warnings[0]
    assert read_deck(GOLDFISH_VERSIONS.encode(), "mtggoldfish", source="g.txt").read_warnings == [
        deck.read_warnings[0].replace("goldfish.txt", "g.txt")
    ]
    island = next(e for _, e in deck.entries() if e.name == "Island")
    assert (island.set_code, island.collector_number) == ("ZNR", "271")
    file = tmp_path / "goldfish.txt"
    file.write_text(GOLDFISH_VERSIONS)
    result = CliRunner().invoke(main, ["export", str(file), "--to", "cod", "-o", str(tmp_path / "g.cod")])
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "<borderless>" in line]
    assert len(said) == 1 and "the first ELD printing is used, (ELD) 115" in said[0]
    assert "<271>" not in result.output


# What Cockatrice's "save to clipboard, annotated" writes (no SB: prefixes here: the totals alone split).
COCKATRICE_ANNOTATED = (
    "// Izzet Delver\n\n// Some comment here\n\n// 8 Maindeck\n// 4 Creature\n4 Delver of Secrets\n\n"
    "// 2 Instant\n2 Fire // Ice\n\n// 2 Land\n2 Island\n\n// 3 Sideboard\n// 3 Instant\n3 Duress\n"
)


@pytest.mark.parametrize("fmt", ["blocklist", "text", None])
def test_cockatrice_annotated_totals_are_no_comments_and_open_the_sideboard(fmt: str | None) -> None:
    """``// 8 Maindeck`` and ``// 4 Creature`` are Cockatrice's own totals, not the user's comments;
    ``// 3 Sideboard`` opens the sideboard."""
    for text in (
        COCKATRICE_ANNOTATED,
        COCKATRICE_ANNOTATED.replace("// Izzet Delver\n\n// Some comment here\n\n", ""),
    ):
        deck = read_deck(text.encode(), fmt, source="annotated.txt")
        if "Izzet" in text:
            assert (deck.name, deck.comments) == ("Izzet Delver", "Some comment here"), fmt
        else:
            assert deck.comments == "" and deck.name in ("annotated", ""), fmt
        assert [(e.name, e.count) for e in deck.sections["main"]] == [
            ("Delver of Secrets", 4),
            ("Fire // Ice", 2),
            ("Island", 2),
        ], fmt
        assert [(e.name, e.count) for e in deck.sections["side"]] == [("Duress", 3)], fmt


def test_annotated_text_exports_without_its_totals_in_the_comments(tmp_path: Path) -> None:
    file = tmp_path / "annotated.txt"
    file.write_text(COCKATRICE_ANNOTATED.replace("\n3 Duress", "\nSB: 3 Duress"))
    out = tmp_path / "a.cod"
    result = CliRunner().invoke(main, ["export", str(file), "--to", "cod", "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = out.read_text()
    assert "<comments>Some comment here</comments>" in written and "Maindeck" not in written


ARENA_CODES = "Deck\n4 Llanowar Elves (DAR) 168\n2 Path to Exile (CONF) 15\n1 Sol Ring (C21) 263\n"


def test_arenas_own_set_codes_pin_the_card_datas_sets(tmp_path: Path) -> None:
    """Arena's ``DAR`` (Dominaria) and ``CONF`` (Conflux) are the card data's ``DOM`` and ``CON``: the pins
    hold, with a note, instead of a warning that the printing is missing."""
    file = tmp_path / "arena.txt"
    file.write_text(ARENA_CODES)
    out = tmp_path / "a.cod"
    result = CliRunner().invoke(main, ["export", str(file), "--to", "cod", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "has no printing" not in result.output
    assert ":2: (DAR) is MTG Arena's code for the set the card data calls DOM" in result.output
    cards = {e.name: (e.set_code, e.collector_number) for _, e in read_deck(out).entries()}
    assert cards == {
        "Llanowar Elves": ("DOM", "168"),
        "Path to Exile": ("CON", "15"),
        "Sol Ring": ("C21", "263"),
    }


def test_warnings_are_said_in_line_order(tmp_path: Path) -> None:
    """A maybeboard card's warning (line 2) comes before a main card's (line 3), though the maybeboard is
    resolved after the main deck; a reader's warning about one line takes its place among them."""
    file = tmp_path / "archidekt.txt"
    file.write_text(
        "1x Sol Ring (C21) 263\n1x Lightning Bolt (C21) 999 [Maybeboard{noDeck}]\n"
        "20x Forest (ZZZ) 1\n4 Bonecrusher Giant <borderless> [ELD]\n1x Opt (XLN) 999 [Maybeboard]\n"
    )
    result = CliRunner().invoke(main, ["export", str(file), "--to", "cod", "-o", str(tmp_path / "a.cod")])
    assert result.exit_code == 0, result.output
    lines = [
        int(m.group(1)) for m in re.finditer(rf"^warning: {re.escape(str(file))}:(\d+):", result.output, re.M)
    ]
    assert lines == [2, 3, 4, 5], result.output
