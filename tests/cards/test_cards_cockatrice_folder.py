"""A Cockatrice data folder as ``--card-source``, read the way Cockatrice's ``CardDatabaseLoader`` reads it:
cards.xml, tokens.xml, spoiler.xml, then customsets/ (recursive through links, hidden skipped, by path);
the first definition of a name wins and later files add printings; reverse-related links resolved last."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cockatrice_ext.cards import sources
from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cli import main

CUSTOM = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>{code}</name><longname>Test {code}</longname><settype>Custom</settype>
  <priority>100</priority></set></sets>
  <cards>{cards}</cards>
</cockatrice_carddatabase>
"""
CARD = """<card><name>{name}</name><text>{text}</text><prop><type>Creature — Test</type>
<maintype>Creature</maintype><manacost>1G</manacost><cmc>2</cmc><colors>G</colors><pt>2/2</pt></prop>
<set rarity="common" num="{num}">{code}</set></card>"""


def custom_set(code: str, *cards: tuple[str, str]) -> str:
    body = "".join(
        CARD.format(name=name, text=text, num=i, code=code) for i, (name, text) in enumerate(cards, 1)
    )
    return CUSTOM.format(code=code, cards=body)


@pytest.fixture
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sources.CACHE_DIR_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(sources.ENV_VAR, raising=False)


@pytest.fixture
def data_folder(tmp_path: Path, examples: Path, shared_cockatrice: Path) -> Path:
    """cards.xml (Cockatrice's test cards), Magic-Token's tokens.xml, a spoiler.xml and custom sets."""
    data = tmp_path / "Cockatrice"
    custom = data / "customsets"
    (custom / "sub").mkdir(parents=True)
    (data / "cards.xml").write_bytes((examples / "cockatrice_test_cards.xml").read_bytes())
    (data / "tokens.xml").write_bytes((shared_cockatrice / "tokens-magic-token.xml").read_bytes())
    (data / "spoiler.xml").write_bytes((shared_cockatrice / "spoiler-magic-spoiler.xml").read_bytes())
    creator = token_creator(data / "tokens.xml")[0]
    (custom / "01.mine.xml").write_text(custom_set("ZZZ", ("Cat", "Purr."), (creator, "Makes tokens.")))
    (custom / "sub" / "02.more.xml").write_text(custom_set("YYY", ("Custom Bear", "Grr.")))
    (custom / "05.notes.xml").write_text("<notes>not cards</notes>")
    (custom / "09.broken.xml").write_text(custom_set("BRK", ("Broken Card", "Oops.")).replace("</cards>", ""))
    (custom / "06.UPPER.XML").write_text(custom_set("XXX", ("Upper Card", "Shout.")))
    (custom / ".04.hidden.xml").write_text(custom_set("HID", ("Hidden Card", "Boo.")))
    (custom / ".git").mkdir()
    (custom / ".git" / "08.xml").write_text(custom_set("HID", ("Hidden Card", "Boo.")))
    elsewhere = tmp_path / "shared-sets"
    elsewhere.mkdir()
    (elsewhere / "07.linked.xml").write_text(custom_set("LNK", ("Linked Card", "Link.")))
    (custom / "linked").symlink_to(elsewhere, target_is_directory=True)
    (custom / "sub" / "loop").symlink_to(custom, target_is_directory=True)  # a link loop is walked once
    return data


def token_creator(tokens_xml: Path) -> tuple[str, str]:
    """A (creator, token) pair named by a ``reverse-related`` line of ``tokens_xml`` (no creator is in it)."""
    pending = read_cockatrice_xml(tokens_xml).reverse_related
    creator = sorted(pending)[0]
    return creator, pending[creator][0]


def lookup(*args: str) -> Result:
    return CliRunner().invoke(main, ["cards", "lookup", *args])


def test_files_come_in_cockatrice_order(data_folder: Path) -> None:
    files = [p.relative_to(data_folder).as_posix() for p in sources.cockatrice_folder_files(data_folder)]
    assert files == [
        "cards.xml",
        "tokens.xml",
        "spoiler.xml",
        "customsets/01.mine.xml",
        "customsets/05.notes.xml",
        "customsets/06.UPPER.XML",
        "customsets/09.broken.xml",
        "customsets/linked/07.linked.xml",
        "customsets/sub/02.more.xml",
    ]


@pytest.mark.usefixtures("isolated_cache")
def test_first_definition_wins_later_files_add_printings(data_folder: Path) -> None:
    result = lookup("Cat", "--card-source", str(data_folder), "--no-default-cards")
    assert result.exit_code == 0, result.output
    assert "Meow!" in result.stdout and "Purr." not in result.stdout  # cards.xml's Cat, not the custom set's
    assert "CAT" in result.stdout and "ZZZ" in result.stdout  # the custom set's printing is added
    creator, token = token_creator(data_folder / "tokens.xml")
    result = lookup(creator, "--card-source", str(data_folder), "--no-default-cards")
    assert result.exit_code == 0, result.output
    assert "Makes: " in result.stdout and token in result.stdout  # tokens.xml's link, resolved last
    for name in ("Custom Bear", "Upper Card", "Linked Card"):
        assert lookup(name, "--card-source", str(data_folder), "--no-default-cards").exit_code == 0, name
    hidden = lookup("Hidden Card", "--card-source", str(data_folder), "--no-default-cards")
    assert hidden.exit_code == 2 and "Traceback" not in hidden.output


@pytest.mark.usefixtures("isolated_cache")
def test_a_block_exports_with_the_folder_on_top_of_the_real_cards(data_folder: Path, tmp_path: Path) -> None:
    spoiler = next(iter(read_cockatrice_xml(data_folder / "spoiler.xml").cards))
    block = tmp_path / "block.txt"
    block.write_text(
        f"1 Custom Bear\n1 Linked Card\n1 {spoiler}\n1 Cat\n4 Lightning Bolt\n", encoding="utf-8"
    )
    result = CliRunner().invoke(
        main, ["export", str(block), "--to", "cod", "-o", "-", "--card-source", str(data_folder)]
    )
    assert result.exit_code == 0, result.output
    for name in ("Custom Bear", "Linked Card", "Cat", "Lightning Bolt"):
        assert f'name="{name}"' in result.stdout, name
    assert spoiler.replace("&", "&amp;") in result.stdout


@pytest.mark.usefixtures("isolated_cache")
def test_between_sources_the_later_wins(data_folder: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.xml"
    other.write_text(custom_set("OTH", ("Cat", "Hiss.")))
    result = lookup(
        "Cat", "--card-source", str(data_folder), "--card-source", str(other), "--no-default-cards"
    )
    assert result.exit_code == 0 and "Hiss." in result.stdout and "Meow!" not in result.stdout
    result = lookup(
        "Cat", "--card-source", str(other), "--card-source", str(data_folder), "--no-default-cards"
    )
    assert result.exit_code == 0 and "Meow!" in result.stdout


@pytest.mark.usefixtures("isolated_cache")
def test_files_cockatrice_skips_are_skipped_and_said(
    data_folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        db = sources.load_cards(data_folder)
    assert "05.notes.xml: not a Cockatrice card database, skipped" in caplog.text
    assert "09.broken.xml" in caplog.text and "malformed XML" in caplog.text and "Broken Card" not in db
    assert {"Cat", "Custom Bear", "Upper Card", "Linked Card"} <= set(db.cards) and "Hidden Card" not in db


@pytest.mark.usefixtures("isolated_cache")
def test_a_broken_or_missing_cards_xml(data_folder: Path, caplog: pytest.LogCaptureFixture) -> None:
    (data_folder / "cards.xml").write_text("<html>not cards</html>")
    with pytest.raises(CardDataError, match="Cockatrice would load nothing"):
        sources.load_cards(data_folder)
    result = lookup("Cat", "--card-source", str(data_folder))
    assert result.exit_code != 0 and "Traceback" not in result.output
    (data_folder / "cards.xml").unlink()
    with caplog.at_level(logging.WARNING):
        db = sources.load_cards(data_folder)  # read anyway, with a word
    assert "no cards.xml" in caplog.text and "Custom Bear" in db and "Cat" in db  # the custom set's Cat
    assert "Purr." in db.cards["Cat"].oracle_text
