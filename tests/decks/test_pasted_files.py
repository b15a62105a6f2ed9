"""Files that are lists only in appearance: a TextEdit RTF, a spreadsheet or word-processor file (each
named, with how to save it as a list), names joined by a zero-width space (read as the space it stood for,
and named in the error when a name stays unknown), and a CRLF file converted twice (``\\r\\r\\n``)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cockatrice_ext.cli import main
from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.readers import detect_format, read_deck

RTF = (
    "{\\rtf1\\ansi\\ansicpg1252\\cocoartf2709\n\\cocoatextscaling0\\cocoaplatform0{\\fonttbl\\f0\\fswiss"
    "\\fcharset0 Helvetica;}\n{\\colortbl;\\red255\\green255\\blue255;}\n\\paperw11900\\paperh16840"
    "\n\\pard\\tx566\\pardirnatural\\partightenfactor0\n\n\\f0\\fs24 \\cf0 4 Lightning Bolt\\\n4 Opt}"
)


def invoke(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def zipped(parts: dict[str, str], mimetype: str = "") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if mimetype:  # OpenDocument: stored first, uncompressed
            archive.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        for name, text in parts.items():
            archive.writestr(name, text)
    return buffer.getvalue()


DOCUMENTS = {
    "deck.xlsx": (
        zipped(
            {"[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<workbook/>", "xl/sheet1.xml": "<s/>"}
        ),
        "an Excel workbook (.xlsx): save it as CSV (UTF-8)",
    ),
    "deck.ods": (
        zipped({"content.xml": "<c/>"}, "application/vnd.oasis.opendocument.spreadsheet"),
        "an OpenDocument spreadsheet (.ods): save it as CSV (UTF-8)",
    ),
    "deck.docx": (
        zipped({"[Content_Types].xml": "<Types/>", "word/document.xml": "<d/>"}),
        "a Word document (.docx): save it as plain text",
    ),
    "deck.odt": (
        zipped({"content.xml": "<c/>"}, "application/vnd.oasis.opendocument.text"),
        "an OpenDocument text (.odt): save it as plain text",
    ),
    "deck.xls": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 200, "an old Microsoft Office file"),
    "deck.rtf": (
        RTF.encode("ascii"),
        "an RTF document (TextEdit, WordPad), not plain text: save it as plain",
    ),
    "deck.txt": (RTF.encode("ascii"), "an RTF document"),  # TextEdit's RTF saved under a .txt name
}


@pytest.mark.parametrize("name", DOCUMENTS)
@pytest.mark.parametrize("command", ["export", "block"])
def test_a_document_is_named_with_how_to_save_it_as_a_list(tmp_path: Path, name: str, command: str) -> None:
    data, said = DOCUMENTS[name]
    path = tmp_path / name
    path.write_bytes(data)
    args = (
        ["export", str(path), "--to", "text", "-o", "-"]
        if command == "export"
        else ["block", "check", str(path)]
    )
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {path}: this is {said}"), result.stderr
    assert "unknown card" not in result.stderr and "compressed" not in result.stderr
    assert result.stdout == ""


def test_an_rtf_on_standard_input_and_through_any_reader_is_refused() -> None:
    result = invoke("export", "-", "--to", "text", "-o", "-", stdin=RTF)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: <stdin>: this is an RTF document"), result.stderr
    for fmt in ("text", "arena", "blocklist", "cubecobra", "forge"):
        with pytest.raises(DeckFormatError, match="RTF document"):
            read_deck(RTF.encode("ascii"), format=fmt)


def test_a_zero_width_space_between_words_is_the_space_it_stood_for() -> None:
    deck = parse_block_list("4 Llanowar\u200bElves\n1 Counter\u200bspell\n2 Lightning\u200b\u200dBolt\n")
    assert [(e.count, e.name) for e in deck.main] == [
        (4, "Llanowar Elves"),
        (1, "Counterspell"),
        (2, "Lightning Bolt"),
    ]
    result = invoke("export", "-", "--to", "text", "-o", "-", stdin="4 Llanowar\u200bElves\n")
    assert result.exit_code == 0, result.output
    assert "4 Llanowar Elves" in result.stdout.splitlines()
    assert "U+200B ZERO WIDTH SPACE" in result.stderr  # still said


def test_an_unknown_name_that_held_invisible_characters_says_so() -> None:
    result = invoke("export", "-", "--to", "text", "-o", "-", stdin="1 Opt\n4 Llano\u200bwar Elfs\n")
    assert result.exit_code == 2
    assert "unknown card 'Llanowar Elfs'" in result.stderr
    assert ":2: removed invisible characters (U+200B ZERO WIDTH SPACE)" in result.stderr, result.stderr


MTGO_60_5 = "".join(f"4 {name}\n" for name in ["Lightning Bolt", "Opt", "Shock", "Counterspell", "Duress"])
MTGO_60_5 += "20 Island\n20 Mountain\n\n3 Negate\n2 Pyroblast\n"


def test_a_crlf_file_converted_twice_keeps_its_sideboard(tmp_path: Path) -> None:
    data = MTGO_60_5.replace("\n", "\r\r\n").encode("ascii")
    assert detect_format(data, "deck.txt") == "mtggoldfish"
    path = tmp_path / "deck.txt"
    path.write_bytes(data)
    out = tmp_path / "deck.cod"
    result = invoke("export", str(path), "--to", "cod", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "main 60" in result.stderr and "side 5" in result.stderr, result.stderr
    deck = read_deck(data, format="text")
    assert (deck.count("main"), deck.count("side")) == (60, 5)
    listed = parse_block_list(data.decode("ascii").replace("\r\r\n", "\n"))
    assert [e.line for e in read_deck(data, format="blocklist").main] == [e.line for e in listed.main]
