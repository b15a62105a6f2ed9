"""CSV tables of cards from collection and deck sites (Moxfield, Deckbox, ManaBox) and spreadsheets: the
count column gives each row's copies (a bad count is an error naming its line), semicolon- and
tab-separated tables are read as comma-separated ones, and such a table saved as ``.txt`` is still one."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cockatrice_ext.cli import main
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.readers import detect_format, read_cubecobra_csv, read_deck

# Moxfield's and Deckbox's collection export: every cell quoted, a "Tradelist Count" beside the count.
MOXFIELD = (
    '"Count","Tradelist Count","Name","Edition","Condition","Language","Foil","Tags","Last Modified",'
    '"Collector Number","Alter","Proxy","Purchase Price"\r\n'
    '"4","0","Lightning Bolt","m10","Near Mint","English","","","2024-01-01 10:00:00.000000","146",'
    '"False","False",""\r\n'
    '"2","1","Counterspell","Magic 2010","Near Mint","English","foil","","2024-01-01 10:00:00.000000","",'
    '"False","False",""\r\n'
)
# ManaBox's export, quantity late in the row.
MANABOX = (
    "Name,Set code,Set name,Collector number,Foil,Rarity,Quantity,ManaBox ID,Scryfall ID,Purchase price,"
    "Misprint,Altered,Condition,Language,Purchase price currency\n"
    "Lightning Bolt,M10,Magic 2010,146,normal,common,3,1234,e3285e6b,0.5,false,false,near_mint,en,EUR\n"
    "Opt,XLN,Ixalan,65,foil,common,2,1235,a9d3a9d7,0.1,false,false,near_mint,en,EUR\n"
)
PLAIN = "Count,Name\n4,Lightning Bolt\n2,Opt\n"
# What German or French Excel saves as CSV: semicolons, the count column in the local language.
SEMICOLONS = "Name;CMC;Type;Anzahl\nLightning Bolt;1;Instant;3\nOpt;1;Instant;2\n"
TABS = "Quantity\tName\tSet\n4\tLightning Bolt\tM10\n1\tOpt\tXLN\n"


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def counts(text: str) -> list[tuple[int, str]]:
    return [(e.count, e.name) for e in read_cubecobra_csv(text, "t.csv").main]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (MOXFIELD, [(4, "Lightning Bolt"), (2, "Counterspell")]),
        (MANABOX, [(3, "Lightning Bolt"), (2, "Opt")]),
        (PLAIN, [(4, "Lightning Bolt"), (2, "Opt")]),
        (SEMICOLONS, [(3, "Lightning Bolt"), (2, "Opt")]),
        (TABS, [(4, "Lightning Bolt"), (1, "Opt")]),
    ],
)
def test_each_row_counts_the_copies_its_count_column_gives(
    text: str, expected: list[tuple[int, str]]
) -> None:
    assert counts(text) == expected


def test_the_set_comes_from_a_set_code_column_or_an_edition_that_is_a_code_or_a_set_name() -> None:
    moxfield = read_cubecobra_csv(MOXFIELD, "m.csv").main
    # "m10" is a code; "Magic 2010" is the set's full name, which the card data knows as M10
    assert [(e.set_code, e.collector_number) for e in moxfield] == [("M10", "146"), ("M10", "")]
    manabox = read_cubecobra_csv(MANABOX, "m.csv").main
    assert [(e.set_code, e.collector_number) for e in manabox] == [("M10", "146"), ("XLN", "65")]


@pytest.mark.parametrize("bad", ["four", "0", "-1", "", "2.5"])
def test_a_count_that_is_not_a_positive_whole_number_is_an_error_naming_its_line(bad: str) -> None:
    with pytest.raises(DeckFormatError) as info:
        read_cubecobra_csv(f"Count,Name\n4,Opt\n{bad},Lightning Bolt\n", "bad.csv")
    assert info.value.line == 3
    assert str(info.value).startswith("bad.csv:3: 'Count' must be")


@pytest.mark.parametrize(
    ("text", "filename"),
    [(MANABOX, "collection.txt"), (PLAIN, "list.txt"), (SEMICOLONS, "excel.txt"), (TABS, ""), (MOXFIELD, "")],
)
def test_a_table_is_recognised_whatever_its_file_is_called(text: str, filename: str) -> None:
    assert detect_format(text.encode(), filename) == "cubecobra-csv"
    assert read_deck(text.encode("utf-8")).count() == sum(count for count, _ in counts(text))


@pytest.mark.parametrize(
    ("name", "text", "written"),
    [
        ("moxfield.csv", MOXFIELD, ["4 Lightning Bolt (M10) 146", "2 Counterspell"]),
        ("manabox.txt", MANABOX, ["3 Lightning Bolt (M10) 146", "2 Opt (XLN) 65"]),
        ("plain.csv", PLAIN, ["4 Lightning Bolt", "2 Opt"]),
        ("excel.csv", SEMICOLONS, ["3 Lightning Bolt", "2 Opt"]),
    ],
)
def test_export_keeps_the_counts(tmp_path: Path, name: str, text: str, written: list[str]) -> None:
    listed = tmp_path / name
    listed.write_text(text, encoding="utf-8")
    result = invoke("export", str(listed), "--to", "text", "-o", "-")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for line in written:
        assert line in lines, result.stdout


def test_export_refuses_a_bad_count_naming_the_file_and_line(tmp_path: Path) -> None:
    listed = tmp_path / "bad.csv"
    listed.write_text("Count,Name\n4,Opt\nfour,Lightning Bolt\n", encoding="utf-8")
    result = invoke("export", str(listed), "--to", "text", "-o", "-")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {listed}:3: 'Count' must be a positive whole number"), (
        result.stderr
    )
    assert result.stdout == ""


def test_a_header_without_a_name_column_says_which_separators_are_read() -> None:
    with pytest.raises(DeckFormatError) as info:
        read_cubecobra_csv("Karte|Anzahl\nOpt|1\n", "pipes.csv")
    assert "no 'name' column" in str(info.value) and "semicolons" in str(info.value)
