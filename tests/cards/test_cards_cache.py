"""The parsed-file cache: used when current, rebuilt when the source changes or the cache is damaged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards import cache, sources
from cockatrice_ext.cli import main

CARD = """<card><name>{name}</name><text>{text}</text>
  <prop><type>Creature — Test</type><maintype>Creature</maintype><manacost>1</manacost><cmc>1</cmc>
  <pt>1/1</pt></prop><set rarity="common">TST</set>{extra}</card>"""
XML = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4"><sets><set><name>TST</name><longname>Test</longname></set></sets>
<cards>{cards}</cards></cockatrice_carddatabase>
"""


def write_cards(path: Path, *cards: tuple[str, str, str]) -> Path:
    body = "".join(CARD.format(name=name, text=text, extra=extra) for name, text, extra in cards)
    path.write_text(XML.format(cards=body))
    return path


@pytest.fixture(autouse=True)
def small_files_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cache even tiny files (the cache folder is the test's own: conftest's ``own_card_cache``)."""
    monkeypatch.setattr(cache, "MIN_CACHED_BYTES", 0)


def lookup(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["cards", "lookup", *args])
    return result.exit_code, result.output


def test_second_run_reads_the_cache_not_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    xml = write_cards(tmp_path / "cards.xml", ("Cached Wonder", "First text.", ""))
    assert lookup("Cached Wonder", "--card-source", str(xml)) == (
        0,
        lookup("Cached Wonder", "--card-source", str(xml))[1],
    )
    assert cache.index_file(xml).is_file()  # a look-up of some names indexes the XML file

    def no_parse(*_: object, **__: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(sources, "read_file", no_parse)
    code, out = lookup("Cached Wonder", "--card-source", str(xml))
    assert code == 0 and "First text." in out


def test_a_changed_source_is_read_again(tmp_path: Path) -> None:
    xml = write_cards(tmp_path / "cards.xml", ("Cached Wonder", "First text.", ""))
    assert "First text." in lookup("Cached Wonder", "--card-source", str(xml))[1]
    write_cards(xml, ("Cached Wonder", "Second, longer text.", ""))
    code, out = lookup("Cached Wonder", "--card-source", str(xml))
    assert code == 0 and "Second, longer text." in out


@pytest.mark.parametrize("kind", ["parsed", "index"])
@pytest.mark.parametrize("damage", ["garbage", "blob"])
def test_a_damaged_cache_is_rebuilt(tmp_path: Path, damage: str, kind: str) -> None:
    xml = write_cards(tmp_path / "cards.xml", ("Cached Wonder", "First text.", ""))
    if kind == "parsed":
        sources.load_cards(str(xml))  # every card: the parsed cache
        path, blob = cache.cache_file(xml), "chunk:0"
    else:
        lookup("Cached Wonder", "--card-source", str(xml))  # some names: the index
        path, blob = cache.index_file(xml), "starts"
    assert path.is_file()
    if damage == "garbage":
        path.write_bytes(b"not a database at all" * 100)
    else:  # a valid SQLite file whose blob was altered: the digest no longer matches
        con = sqlite3.connect(path)
        con.execute("UPDATE blobs SET data = X'00' WHERE key = ?", (blob,))
        con.commit()
        con.close()
    assert cache.open_cached(xml) is None
    code, out = lookup("Cached Wonder", "--card-source", str(xml))
    assert code == 0 and "First text." in out
    assert cache.open_cached(xml) is not None  # rebuilt


def test_cached_tokens_keep_their_names_and_links(tmp_path: Path) -> None:
    """tokens.xml as a layer: same-folding names stay apart; reverse-related links reach another layer."""
    cards = write_cards(tmp_path / "cards.xml", ("Token Maker", "Makes angels.", ""))
    link = "<reverse-related>Token Maker</reverse-related>"
    tokens = write_cards(
        tmp_path / "tokens.xml",
        ("Angel Token", "Flying.", ""),
        ("Angel Token ", "Vigilance.", link),
    )
    args = ["--card-source", str(cards), "--card-source", str(tokens), "--no-default-cards"]
    for _ in range(2):  # parsed, then cached
        code, out = lookup("Token Maker", "Angel Token ", *args)
        assert code == 0, out
        assert "Makes: 'Angel Token ' (1 trailing space)" in out  # its trailing space shown (shown_name)
        assert "Vigilance." in out and "Flying." not in out


def test_suggestions_come_from_every_cached_name(tmp_path: Path) -> None:
    xml = write_cards(tmp_path / "cards.xml", ("Zyxwv Qutsr", "A.", ""), ("Other Card", "B.", ""))
    lookup("Other Card", "--card-source", str(xml), "--no-default-cards")
    code, out = lookup("Zyxwv Qutsq", "--card-source", str(xml), "--no-default-cards")
    assert code == 2 and "Did you mean: Zyxwv Qutsr" in out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=st.binary(max_size=4096), keep=st.integers(min_value=0, max_value=1 << 16))
def test_fuzzed_cache_files_are_never_trusted(tmp_path: Path, junk: bytes, keep: int) -> None:
    """Any bytes as the cache (random, or a valid cache cut short and padded) give ``None`` or a store."""
    xml = tmp_path / "fuzz.xml"
    if not xml.exists():
        write_cards(xml, ("Cached Wonder", "First text.", ""))
        sources.load_cards(str(xml))
    path = cache.cache_file(xml)
    if not path.exists() or path.stat().st_size < 1024:
        sources.load_cards(str(xml))
    good = path.read_bytes()
    path.write_bytes(good[:keep] + junk)
    store = cache.open_cached(xml)
    if store is not None:
        assert store.find("Cached Wonder") is not None
    path.write_bytes(good)
