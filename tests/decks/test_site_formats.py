"""Lists from deck and cube sites, through the command line as a user gives them: MTGGoldfish / MTGO text,
Arena with its Commander and Companion headers, CubeCobra's card-name list and CSV; ``--from``; ``-``."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shared_paths import EXAMPLES

from cockatrice_ext.cli import main
from cockatrice_ext.cli.block import read_block
from cockatrice_ext.decks.blocklist import read_block_list
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.model import MAYBE, Deck
from cockatrice_ext.decks.readers import (
    FORMAT_ALIASES,
    FORMATS,
    detect_format,
    read_arena,
    read_cod,
    read_cubecobra,
    read_cubecobra_csv,
)

BLOCKS = Path(__file__).resolve().parents[2] / "blocks"

# CubeCobra's CSV as its download writes it: quoted name, type, set and number; tags joined by ", ".
CUBECOBRA_CSV = (
    "name,CMC,Type,Color,Set,Collector Number,Rarity,Color Category,status,Finish,maybeboard,"
    "image URL,image Back URL,tags,Notes,MTGO ID\r\n"
    '"Lightning Bolt",1,"Instant",R,"m10","146",common,r,Owned,Non-foil,false,,,"Burn, Removal","",\r\n'
    '"Counterspell",2,"Instant",U,"mh2","267",uncommon,u,Not Owned,Foil,false,,,"","two\r\nlines",\r\n'
    '"Duress",1,"Sorcery",B,"m19","94",common,b,Owned,Non-foil,true,,,"Discard","",\r\n'
)
# an older export: capitalised titles, no image Back URL column, columns in another order
OLD_CUBECOBRA_CSV = (
    "Name,CMC,Type,Color,Set,Collector Number,Rarity,Color Category,Status,Finish,Maybeboard,Image URL,"
    "Tags,Notes,MTGO ID\n"
    '"Opt",1,"Instant",U,"xln","65",common,u,Owned,,false,,"Cantrip","",\n'
)
CUBECOBRA_NAMES = (
    "# mainboard\r\nLightning Bolt\r\n1996 World Champion\r\nOpt\r\n\r\n# maybeboard\r\nDuress\r\n\r\n"
)
MTGO_DECK = "".join(f"4 {name}\n" for name in ["Lightning Bolt", "Opt", "Duress", "Shock", "Counterspell"])
MTGO_DECK += "20 Island\n20 Mountain\n\n2 Negate\n1 Pyroblast\n"
GOLDFISH_PAGE = (
    "Creatures (4)\n4 Delver of Secrets\n\nSpells (8)\n4 Lightning Bolt\n4 Fire // Ice\n\n"
    "Lands (20)\n10 Island\n10 Mountain\n\nSideboard (2)\n2 Duress\n"
)
ARENA_COMMANDER = (
    "Commander\n1 Mikaeus, the Lunarch (ISD) 23\n\nCompanion\n1 Lurrus of the Dream-Den (IKO) 226\n\n"
    "Deck\n4 Lightning Bolt (M10) 146\n2 Opt (XLN) 65\n\nSideboard\n2 Duress (M19) 94\n"
)


def invoke(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def export_cod(tmp_path: Path, *args: str, stdin: str | None = None) -> tuple[Deck, Result]:
    out = tmp_path / "out.cod"
    result = invoke("export", *args, "--to", "cod", "-o", str(out), stdin=stdin)
    assert result.exit_code == 0, result.output
    return read_cod(out.read_bytes(), source=str(out)), result


def cards(deck: Deck, section: str = "main") -> list[tuple[int, str, str, str]]:
    return [(e.count, e.name, e.set_code, e.collector_number) for e in deck.sections.get(section, [])]


def test_cubecobra_csv_pins_printings_keeps_the_maybeboard_and_announces_tags(tmp_path: Path) -> None:
    path = tmp_path / "my-cube.csv"
    path.write_text(CUBECOBRA_CSV, encoding="utf-8")
    deck, result = export_cod(tmp_path, str(path))
    assert cards(deck) == [(1, "Lightning Bolt", "M10", "146"), (1, "Counterspell", "MH2", "267")]
    assert cards(deck, MAYBE) == [(1, "Duress", "M19", "94")]
    assert deck.name == "my-cube"
    assert "card tags (Burn, Discard, Removal; on 2 cards) not written" in result.stderr
    # the reader itself keeps each card's tags, and reads an older export's capitalised columns
    read = read_cubecobra_csv(CUBECOBRA_CSV)
    assert [e.tags for e in read.main] == [("Burn", "Removal"), ()]
    old = tmp_path / "old.txt"  # not even named .csv: the header tells
    old.write_text(OLD_CUBECOBRA_CSV, encoding="utf-8")
    deck, _ = export_cod(tmp_path, str(old))
    assert cards(deck) == [(1, "Opt", "XLN", "65")]


def test_cubecobra_name_list_takes_whole_names_and_boards(tmp_path: Path) -> None:
    deck, _ = export_cod(tmp_path, "-", stdin=CUBECOBRA_NAMES)
    assert [e.name for e in deck.main] == ["Lightning Bolt", "1996 World Champion", "Opt"]
    assert [e.name for e in deck.sections[MAYBE]] == ["Duress"]
    # an old export without board lines: --from cubecobra still reads "1996 ..." as a name
    old = "Lightning Bolt\n1996 World Champion\n"
    result = invoke("export", "-", "--to", "text", "-o", "-", stdin=old)
    assert result.exit_code == 2 and "1 1996 World Champion" in result.stderr  # a block list needs a count
    result = invoke("export", "-", "--to", "text", "-o", "-", "--from", "cubecobra", stdin=old)
    assert result.exit_code == 0 and "1 1996 World Champion" in result.stdout


def test_mtggoldfish_download_gets_its_sideboard_and_says_so(tmp_path: Path) -> None:
    deck, result = export_cod(tmp_path, "-", stdin=MTGO_DECK)
    assert sum(e.count for e in deck.main) == 60
    assert [e.name for e in deck.side] == ["Negate", "Pyroblast"]
    assert "read as an MTGO / MTGGoldfish deck: the 3 cards after the blank line" in result.stderr
    deck, _ = export_cod(tmp_path, "-", "--from", "blocklist", stdin=MTGO_DECK)
    assert sum(e.count for e in deck.main) == 63 and not deck.side
    # the real generic export of a peer tool: too small to be taken for a deck, unless asked
    generic = EXAMPLES / "architrice_test_deck_generic.txt"
    if not generic.is_file():
        pytest.skip(f"{generic} is absent")
    deck, result = export_cod(tmp_path, str(generic))
    assert not deck.side  # but the reading is said, with the option that reads a sideboard
    assert "read as a block list: the card after the blank line is a main card (" in result.stderr
    assert "(--from text reads them as a sideboard)" in result.stderr
    deck, _ = export_cod(tmp_path, str(generic), "--from", "text")
    assert [e.name for e in deck.side] == ["Blex, Vexing Pest"]
    deck, _ = export_cod(tmp_path, str(generic), "--from", "mtgo")
    assert [e.name for e in deck.side] == ["Blex, Vexing Pest"]


def test_mtggoldfish_group_headings_are_sections_not_cards(tmp_path: Path) -> None:
    deck, _ = export_cod(tmp_path, "-", stdin=GOLDFISH_PAGE)
    assert {e.name for e in deck.main} == {
        "Delver of Secrets",
        "Lightning Bolt",
        "Fire // Ice",
        "Island",
        "Mountain",
    }
    assert cards(deck, "side") == [(2, "Duress", "", "")]


def test_mtggoldfish_exact_versions_and_deckstats_codes_pin_printings(tmp_path: Path) -> None:
    """MTGGoldfish's "exact card versions" put the set after the name in brackets, with a variant in angle
    brackets (a number is the collector number); Deckstats writes ``[SET#NUM]`` first. The set used to be
    taken for an Archidekt category and dropped, and ``<variant>`` kept in the name (an unknown card)."""
    text = (
        "4 Lightning Bolt [M10]\n1 Llanowar Elves <314> [M19]\n2 Counterspell <showcase> [7ED]\n"
        "1 [M19#314] Llanowar Elves\n1 Shock [Removal]\n"
    )
    deck, _ = export_cod(tmp_path, "-", stdin=text)
    assert cards(deck) == [
        (4, "Lightning Bolt", "M10", "146"),
        (2, "Llanowar Elves", "M19", "314"),
        (2, "Counterspell", "7ED", "67"),
        (1, "Shock", "", ""),  # Archidekt's category is not a set code
    ]


def test_arena_commander_and_companion_are_sections(tmp_path: Path) -> None:
    for fmt in ("auto", "arena", "mtga", "mtggoldfish"):
        result = invoke("export", "-", "--to", "text", "-o", "-", "--from", fmt, stdin=ARENA_COMMANDER)
        assert result.exit_code == 0, result.output
        assert "Commander" not in result.stdout and "Companion" not in result.stdout
        assert "1 Mikaeus, the Lunarch (ISD) 23" in result.stdout
    deck = read_arena(ARENA_COMMANDER)
    assert cards(deck, "commander") == [(1, "Mikaeus, the Lunarch", "ISD", "23")]
    assert cards(deck, "companion") == [(1, "Lurrus of the Dream-Den", "IKO", "226")]
    assert cards(deck) == [(4, "Lightning Bolt", "M10", "146"), (2, "Opt", "XLN", "65")]


def test_bundled_blocks_still_read_as_block_lists() -> None:
    files = sorted(BLOCKS.glob("*.txt"))
    assert files
    for path in files:
        assert detect_format(path.read_bytes(), path.name) == "blocklist", path
        assert read_block(path).entries() == read_block_list(path).entries(), path
    result = invoke("export", "auction-sample", "--to", "text", "-o", "-")
    assert (
        result.stdout
        == invoke("export", "auction-sample", "--to", "text", "-o", "-", "--from", "blocklist").stdout
    )


def test_detection_leaves_block_lists_whole() -> None:
    # blank lines between groups, pins, a small tail: a block, not a deck with a sideboard
    assert detect_format(b"4 Opt (XLN) 65\n\n2 Shock (M19) 156\n") == "blocklist"
    assert detect_format(MTGO_DECK.replace("\n\n", "\n\n# tail\n").encode()) == "blocklist"
    big_tail = MTGO_DECK.replace("2 Negate", "20 Negate").encode()
    assert detect_format(big_tail) == "blocklist"  # more than a sideboard's 15 cards
    assert detect_format(MTGO_DECK.encode()) == "mtggoldfish"
    assert detect_format(b"4 Opt\n\n2 Shock\n", "deck.dec") == "text"  # Cockatrice's own rules for .dec
    assert detect_format(CUBECOBRA_NAMES.encode()) == "cubecobra"
    assert detect_format(CUBECOBRA_CSV.encode()) == "cubecobra-csv"
    assert detect_format(ARENA_COMMANDER.encode()) == "arena"


def test_a_sideboard_made_by_a_blank_line_is_announced(tmp_path: Path) -> None:
    deck, result = export_cod(tmp_path, "-", stdin="Deck\n4 Opt\n\n2 Shock\n")
    assert cards(deck, "side") == [(2, "Shock", "", "")]
    assert "read as Arena text: the 2 cards after the blank line are its sideboard" in result.stderr
    deck, result = export_cod(tmp_path, "-", "--from", "blocklist", stdin="Deck\n4 Opt\n\n2 Shock\n")
    assert not deck.sections.get("side") and "note:" not in result.stderr
    result = invoke("block", "check", "-", stdin=ARENA_COMMANDER)  # a Sideboard header: nothing to say
    assert result.exit_code == 0 and "note:" not in result.stderr


def test_block_check_takes_no_sideboard_from_a_blank_line() -> None:
    """A block has no sideboard: the cards after a blank line are the block's, as the bot deals a block file
    (read as a block list), and nothing needs saying."""
    result = invoke("block", "check", "-", stdin="Deck\n4 Opt\n\n2 Shock\n")
    assert result.exit_code == 0 and "Block stdin: 6 cards" in result.stdout
    assert "note:" not in result.stderr


def test_standard_input_for_export_and_block_check(tmp_path: Path) -> None:
    text = "# Name: Piped\n5 Grizzly Bears\n1 Murder\n4 Wild Guess\n"
    deck, result = export_cod(tmp_path, "-", stdin=text)
    assert deck.name == "Piped" and sum(e.count for e in deck.main) == 10
    result = invoke("block", "check", "-", "--json", stdin=text)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["total"] == 10
    result = invoke("block", "check", "-", stdin=CUBECOBRA_CSV)
    assert (
        result.exit_code == 0 and "Block stdin: 2 cards" in result.stdout
    )  # the maybeboard is not the block
    result = invoke("export", "-", "--to", "cod", stdin=text)
    assert result.exit_code == 2 and "give -o PATH" in result.output
    for args in (("export", "-", "--to", "cod", "-o", "-"), ("block", "check", "-")):
        result = invoke(*args, stdin="")
        assert result.exit_code == 2 and "error:" in result.stderr and "no cards" in result.stderr


def test_bad_input_is_one_error_line(tmp_path: Path) -> None:
    result = invoke(
        "export", "-", "--to", "cod", "-o", "-", "--from", "cubecobra-csv", stdin="Card,Qty\nOpt,1\n"
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: <stdin>:1: CSV header has no 'name' column")
    result = invoke("block", "check", str(BLOCKS / "auction-custom.xml"))
    assert result.exit_code == 2 and "not a block list" in result.stderr
    result = invoke("export", "-", "--to", "cod", "-o", "-", "--from", "nope", stdin="1 Opt\n")
    assert result.exit_code == 2 and "Traceback" not in result.output


# ------------------------------------------------------------------------------------------------
# fuzzing: every new reader, and the command line on whatever comes in on standard input

csv_cells = st.sampled_from(
    ["Opt", "Lightning Bolt", "xln", "65", "true", "false", "a, b", "", '"', "\x00", "é"]
)


@st.composite
def csv_texts(draw: st.DrawFn) -> str:
    header = draw(
        st.lists(st.sampled_from(["name", "Set", "Collector Number", "maybeboard", "tags", "x"]), max_size=6)
    )
    rows = draw(st.lists(st.lists(csv_cells, max_size=7), max_size=6))
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in [header, *rows]:
        writer.writerow(row)
    return draw(st.sampled_from([buffer.getvalue(), buffer.getvalue()[: draw(st.integers(0, 200))]]))


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(csv_texts(), st.text(max_size=300)))
def test_cubecobra_csv_reader_fuzz(text: str) -> None:
    with contextlib.suppress(DeckFormatError):
        deck = read_cubecobra_csv(text, "fuzz.csv")
        assert all(e.count == 1 and e.name for _, e in deck.entries())


site_lines = st.sampled_from(
    ["Deck", "Sideboard", "Commander", "Companion", "Creatures (4)", "Sideboard (15)", "# mainboard",
     "# maybeboard", "4 Opt", "4 Opt (XLN) 65", "1996 World Champion", "Opt", "", "//", "[]", "0 Opt",
     "About", "Name X", "SB: 1 Opt", "name,Set,tags"]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.one_of(site_lines, st.text(max_size=40)), max_size=30))
def test_site_readers_and_detection_fuzz(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert detect_format(text.encode("utf-8", "surrogatepass")) in FORMATS
    for reader in (read_arena, read_cubecobra):
        try:
            deck = reader(text, "fuzz")
        except DeckFormatError as exc:
            assert exc.source == "fuzz" and 1 <= exc.line <= len(text.splitlines())
            continue
        assert all(e.count >= 1 and e.name for _, e in deck.entries())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.one_of(st.binary(max_size=300), st.lists(site_lines, max_size=12).map("\n".join)),
    fmt=st.sampled_from(["auto", *FORMATS, *FORMAT_ALIASES]),
    command=st.sampled_from(["export", "block"]),
)
@example(data="name,Set,tags\nname,Set,tags", fmt="auto", command="export")  # a tag warning before the error
@example(data=b"\xad", fmt="auto", command="export")  # "warning: <stdin> is not UTF-8" before the error
def test_command_line_fuzz_never_shows_a_traceback(data: bytes | str, fmt: str, command: str) -> None:
    """Any input ends in a result or in one ``error:`` line (warnings and notes may come before it, as a
    list that is not UTF-8 is announced before its unknown cards), never in a traceback."""
    args = ["export", "-", "--to", "cod", "-o", "-"] if command == "export" else ["block", "check", "-"]
    result = invoke(*args, "--from", fmt, stdin=data)
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        first_error = next((i for i, line in enumerate(lines) if line.startswith("error: ")), None)
        assert first_error is not None, result.stderr
        before = lines[:first_error]
        assert all(line.startswith(("warning: ", "note: ", "  ")) for line in before), result.stderr


def test_our_text_output_reads_back_with_its_sideboard_and_name(tmp_path: Path) -> None:
    """``--to text`` writes a ``// name`` header, the main deck, a blank line, a ``Sideboard`` header and the
    sideboard, as Cockatrice's clipboard reads it; read back, the header names the deck and the sideboard
    stays one, said by its header (no blank line is guessed at)."""
    text = tmp_path / "goldfish.txt"
    result = invoke("export", "-", "--to", "text", "-o", str(text), "--name", "Burn", stdin=MTGO_DECK)
    assert result.exit_code == 0, result.output
    assert text.read_text().startswith("// Burn\n\n")
    deck, result = export_cod(tmp_path, str(text))
    assert deck.name == "Burn"
    assert sum(e.count for e in deck.main) == 60
    assert [e.name for e in deck.side] == ["Negate", "Pyroblast"]
    assert "\n\nSideboard\n2 Negate" in text.read_text()
    assert "blank line" not in result.stderr


def test_an_arena_companion_listed_in_the_sideboard_too_is_one_card(tmp_path: Path) -> None:
    """Arena exports the companion under Companion and again in the sideboard: one Lurrus, not two, in
    every output (a Forge deck's sideboard, where Forge takes a companion from)."""
    text = (
        "Companion\n1 Lurrus of the Dream-Den (IKO) 226\n\nDeck\n20 Forest\n\n"
        "Sideboard\n1 Lurrus of the Dream-Den (IKO) 226\n2 Duress\n"
    )
    deck, _ = export_cod(tmp_path, "-", stdin=text)
    assert [(e.count, e.name) for e in deck.side] == [(2, "Duress"), (1, "Lurrus of the Dream-Den")]
    result = invoke("export", "-", "--to", "forge", "-o", "-", stdin=text)
    assert result.exit_code == 0 and result.stdout.count("Lurrus") == 1
    assert "1 Lurrus of the Dream-Den|IKO" in result.stdout.split("[Sideboard]")[1]


def test_a_commander_written_in_the_sideboard_is_said() -> None:
    """Formats without a command zone put the commander in the sideboard, as peer tools do: now said
    (a Forge deck keeps its [Commander], Arena text its Commander section; a companion belongs in the
    sideboard anyway)."""
    text = (
        "Commander\n1 Kenrith, the Returned King\n\nCompanion\n1 Lurrus of the Dream-Den\n\nDeck\n20 Forest\n"
    )
    for fmt in ("cod", "text", "mtgo"):
        result = invoke("export", "-", "--to", fmt, "-o", "-", stdin=text)
        assert result.exit_code == 0, result.output
        assert (
            f"note: commander (1 card) written in the sideboard: {fmt} has no command zone" in result.stderr
        )
        assert "companion" not in result.stderr
    result = invoke("export", "-", "--to", "forge", "-o", "-", stdin=text)
    assert result.exit_code == 0 and "note:" not in result.stderr and "[Commander]" in result.stdout
    result = invoke("export", "-", "--to", "arena", "-o", "-", stdin=text)  # Arena's own sections (Brawl)
    assert result.exit_code == 0 and "note:" not in result.stderr
    assert result.stdout.startswith(
        "Commander\n1 Kenrith, the Returned King\n\nCompanion\n1 Lurrus of the Dream-Den\n\nDeck\n"
    ), result.stdout
