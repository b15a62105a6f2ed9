"""A Cockatrice card database is known by its root element, as Cockatrice reads it: in UTF-16 with a
byte-order mark (Windows PowerShell's ``>``, Notepad's "Unicode") and after a long licence comment too, in
each place a custom set is met: beside a list, as ``--card-source``, in a data folder's ``customsets/``."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cockatrice_ext.cards.sources import is_card_database_xml, load_cards, sniff, xml_root
from cockatrice_ext.cli import main


def custom_set(card: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<!-- "
        + "This custom set may be shared under the licence below. "
        * 100  # over 4 KB before the root
        + "-->\n"
        '<cockatrice_carddatabase version="4">\n'
        "  <sets><set><name>ZTS</name><longname>Test Set</longname><settype>Custom</settype>"
        "<releasedate>2024-01-01</releasedate></set></sets>\n"
        f"  <cards><card><name>{card}</name><text>Flying</text><prop><type>Creature — Bird</type>"
        "<maintype>Creature</maintype><manacost>W</manacost><cmc>1</cmc><colors>W</colors><pt>1/1</pt>"
        '</prop><set rarity="common">ZTS</set><tablerow>2</tablerow></card></cards>\n'
        "</cockatrice_carddatabase>\n"
    )


def utf16(text: str) -> bytes:
    """As Windows PowerShell 5's ``>`` and Notepad's "Unicode" save it: UTF-16 LE with a byte-order mark."""
    return text.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")


SAVED = {
    "utf-16": lambda card: utf16(custom_set(card)),
    "utf-16-be": lambda card: b"\xfe\xff" + custom_set(card).replace("UTF-8", "UTF-16").encode("utf-16-be"),
    "long comment": lambda card: custom_set(card).encode("utf-8"),
    "bom and comment": lambda card: b"\xef\xbb\xbf" + custom_set(card).encode("utf-8"),
}


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


@pytest.mark.parametrize(
    ("head", "root"),
    [
        (b'<?xml version="1.0"?>\n<!-- a -- b --><?pi x?>\n<cockatrice_carddatabase version="4">', None),
        (b"<!DOCTYPE x [<!ENTITY a 'b'>]><cards:cockatrice_carddatabase>", "cockatrice_carddatabase"),
        (b"<cockatrice_deck version='1'>", "cockatrice_deck"),
        (b"<!-- " + b"x" * 5000, None),
        (b"   ", None),
        (b"4 Lightning Bolt\n", ""),
        (b'{"data": {}}', ""),
    ],
)
def test_the_root_is_the_first_start_element(head: bytes, root: str | None) -> None:
    expected = "cockatrice_carddatabase" if head.startswith(b"<?xml") else root
    assert xml_root(head) == expected


@pytest.mark.parametrize("kind", SAVED)
def test_a_custom_set_is_recognised_however_it_was_saved(tmp_path: Path, kind: str) -> None:
    xml = tmp_path / "set.xml"
    xml.write_bytes(SAVED[kind]("Zzyzx Test Sparrow"))
    assert is_card_database_xml(xml)
    assert sniff(xml) == "xml"
    assert "Zzyzx Test Sparrow" in load_cards(str(xml)).cards


@pytest.mark.parametrize("kind", SAVED)
def test_the_custom_set_beside_a_list_is_read(tmp_path: Path, kind: str) -> None:
    (tmp_path / "myblock.xml").write_bytes(SAVED[kind]("Zzyzx Test Sparrow"))
    (tmp_path / "myblock.txt").write_text("3 Zzyzx Test Sparrow\n1 Opt\n", encoding="utf-8")
    result = invoke("export", str(tmp_path / "myblock.txt"), "--to", "text", "-o", "-")
    assert result.exit_code == 0, result.output
    assert "3 Zzyzx Test Sparrow" in result.stdout.splitlines()
    assert "the card set beside myblock.txt" in result.stderr


@pytest.mark.parametrize("kind", SAVED)
def test_a_custom_set_given_as_card_source_is_read(tmp_path: Path, kind: str) -> None:
    xml = tmp_path / "custom.xml"
    xml.write_bytes(SAVED[kind]("Zzyzx Test Sparrow"))
    result = invoke(
        "export", "-", "--card-source", str(xml), "--to", "text", "-o", "-", stdin="2 Zzyzx Test Sparrow\n"
    )
    assert result.exit_code == 0, result.output
    assert "2 Zzyzx Test Sparrow" in result.stdout.splitlines()


def test_a_data_folders_custom_sets_are_read_however_saved(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "cards.xml").write_text(custom_set("Zzyzx Main Card"), encoding="utf-8")
    customsets = tmp_path / "customsets"
    customsets.mkdir()
    names = {kind: f"Zzyzx {kind.title()} Card" for kind in SAVED}
    for number, (kind, name) in enumerate(names.items()):
        (customsets / f"set{number}.xml").write_bytes(SAVED[kind](name))
    (customsets / "notes.xml").write_text("<notes>not cards</notes>\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        db = load_cards(str(tmp_path))
    assert all(name in db.cards for name in names.values())
    skipped = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    assert len(skipped) == 1 and "notes.xml" in skipped[0]  # what Cockatrice skips is still said


def test_a_card_database_given_as_the_list_itself_is_read_as_cards(tmp_path: Path) -> None:
    xml = tmp_path / "custom.xml"
    xml.write_bytes(utf16(custom_set("Zzyzx Test Sparrow")))
    result = invoke("export", str(xml), "--to", "text", "-o", "-")
    assert result.exit_code == 0, result.output
    assert "Zzyzx Test Sparrow" in result.stdout
