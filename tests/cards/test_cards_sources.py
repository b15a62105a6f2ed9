"""load_cards dispatch, Cockatrice auto-discovery, the environment override and the embedded default."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cockatrice_ext.cards import sources
from cockatrice_ext.cards.discover import (
    cockatrice_card_files,
    cockatrice_data_dirs,
    discover_cockatrice_files,
)
from cockatrice_ext.cards.embedded import decode_database, encode_database
from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.resolve import NameIndex, resolve_deck
from cockatrice_ext.decks.blocklist import read_block_list

REPO = Path(__file__).resolve().parents[2]
CUSTOM_XML = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>ZZZ</name><longname>Test Customs</longname><settype>Custom</settype>
  <priority>100</priority></set></sets>
  <cards><card><name>{name}</name><text>Test.</text><prop><type>Creature — Test</type><manacost>1W</manacost>
  <cmc>2</cmc><colors>W</colors><pt>2/2</pt></prop><set rarity="common" num="1">ZZZ</set></card></cards>
</cockatrice_carddatabase>
"""


def _cockatrice_home(root: Path, examples: Path) -> Path:
    data = root / ".local" / "share" / "Cockatrice" / "Cockatrice"
    (data / "customsets" / "sub").mkdir(parents=True)
    (data / "cards.xml").write_bytes((examples / "cockatrice_test_cards.xml").read_bytes())
    (data / "tokens.xml").write_bytes((examples / "cockatrice_test_tokens.xml").read_bytes())
    (data / "customsets" / "sub" / "02.birds.xml").write_bytes(
        (examples / "cockatrice_test_customset1.xml").read_bytes()
    )
    (data / "customsets" / "01.mine.xml").write_text(CUSTOM_XML.format(name="Custom Bear"))
    (data / "customsets" / "notes.txt").write_text("not a card file")
    return data


def test_data_dirs_per_platform(tmp_path: Path) -> None:
    home = tmp_path
    linux = cockatrice_data_dirs(platform="linux", env={}, home=home)
    assert linux[0] == home / ".local/share/Cockatrice/Cockatrice"
    assert cockatrice_data_dirs(platform="linux", env={"XDG_DATA_HOME": "/x"}, home=home)[0] == Path(
        "/x/Cockatrice/Cockatrice"
    )
    assert cockatrice_data_dirs(platform="darwin", env={}, home=home)[0] == (
        home / "Library/Application Support/Cockatrice/Cockatrice"
    )
    win = cockatrice_data_dirs(platform="win32", env={"LOCALAPPDATA": "C:/Users/u/AppData/Local"}, home=home)
    assert win[0] == Path("C:/Users/u/AppData/Local/Cockatrice/Cockatrice")


def test_discovery_follows_cockatrice_load_order(tmp_path: Path, examples: Path) -> None:
    data = _cockatrice_home(tmp_path, examples)
    files = discover_cockatrice_files(platform="linux", env={}, home=tmp_path)
    assert [p.relative_to(data).as_posix() for p in files] == [
        "cards.xml",
        "tokens.xml",
        "customsets/01.mine.xml",
        "customsets/sub/02.birds.xml",
    ]


def test_paths_ini_overrides(tmp_path: Path, examples: Path) -> None:
    data = tmp_path / "data"
    (data / "settings").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.xml"
    elsewhere.write_bytes((examples / "cockatrice_test_cards.xml").read_bytes())
    (data / "settings" / "paths.ini").write_text(f"[paths]\ncardDatabase={elsewhere}\n")
    assert cockatrice_card_files(data) == [elsewhere]
    assert cockatrice_card_files(tmp_path / "empty") == []


def test_load_cards_cockatrice_keyword_and_folder(
    tmp_path: Path, examples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _cockatrice_home(tmp_path, examples)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    db = sources.load_cards("cockatrice")
    assert {"Cat", "Kitten", "Crow", "Custom Bear"} <= set(db.cards)
    assert set(sources.load_cards(data).cards) == set(db.cards)


def test_environment_variable_overrides_default(
    tmp_path: Path, examples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(sources.ENV_VAR, str(examples / "cockatrice_test_cards.xml"))
    assert sources.default_source() == str(examples / "cockatrice_test_cards.xml")
    assert set(sources.load_cards().cards) == {"Cat", "Dog", "Doctor", "Not Dead", "Truth"}
    monkeypatch.delenv(sources.ENV_VAR)
    assert sources.default_source() == "default"


def test_unrecognised_and_missing_sources(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01garbage")
    with pytest.raises(CardDataError, match="unrecognised card data"):
        sources.load_cards(junk)
    with pytest.raises(CardDataError, match="no such file"):
        sources.load_cards(tmp_path / "nope.xml")


def test_load_cards_covering_falls_back_to_cockatrice(
    tmp_path: Path, examples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _cockatrice_home(tmp_path, examples)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv(sources.ENV_VAR, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    fast = sources.load_cards_covering(["Lightning Bolt"])
    assert fast is sources.load_default_cards()
    merged = sources.load_cards_covering(["Lightning Bolt", "Custom Bear"])
    assert "Custom Bear" in merged and "Lightning Bolt" in merged


def test_embedded_round_trip_is_exact_and_reproducible(examples: Path) -> None:
    db = sources.load_cards(examples / "cockatrice_test_cards.xml")
    data = encode_database(db, meta={"x": 1})
    again, meta = decode_database(data)
    assert meta == {"x": 1}
    assert again.cards == db.cards
    assert encode_database(again, meta={"x": 1}) == data
    with pytest.raises(CardDataError, match="corrupt"):
        decode_database(data[:-10])


def test_embedded_file_is_a_card_source(examples: Path, tmp_path: Path) -> None:
    path = tmp_path / "cards.json.gz"
    path.write_bytes(encode_database(sources.load_cards(examples / "cockatrice_test_cards.xml")))
    assert sources.sniff(path) == "embedded"
    assert "Doctor" in sources.load_cards(path)


def test_shipped_card_file_covers_every_block_list() -> None:
    db = sources.load_default_cards()
    index = NameIndex(db)
    block_files = sorted((REPO / "blocks").glob("*.txt"))
    assert block_files
    for path in block_files:
        resolved = resolve_deck(read_block_list(path), index, source=str(path))
        assert resolved.count() > 0
    for basic in ("Plains", "Island", "Swamp", "Mountain", "Forest"):
        assert db.cards[basic].supertypes == ("Basic",)
    makers = [c for c in db.cards.values() if c.related]
    assert makers and all(any(r in db.cards for r in c.related) for c in makers)


def test_default_merges_custom_sets_changed_since_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "new.xml").write_text(CUSTOM_XML.format(name="Brand New Custom"))
    monkeypatch.setattr(sources, "blocks_dir", lambda: tmp_path)
    try:
        db = sources.load_default_cards(refresh=True)
        assert "Brand New Custom" in db and "Island" in db
    finally:
        monkeypatch.undo()
        sources.load_default_cards(refresh=True)


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_card_subset", REPO / "scripts" / "build_card_subset.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_subset_script_covers_blocks_reproducibly(mtgjson_extract: dict[str, Path], tmp_path: Path) -> None:
    script = _load_script()
    blocks = tmp_path / "blocks"
    blocks.mkdir()
    (blocks / "a.txt").write_text(
        "# Name: A\n2 Fire // Ice\n1 Delver of Secrets (ISD) 51\n1 Resplendent Angel\n"
    )
    (blocks / "b.txt").write_text("1 AEther Figment\n1 Jaya Ballard, Task Mage\n1 Brand New Custom\n")
    (blocks / "custom.xml").write_text(CUSTOM_XML.format(name="Brand New Custom"))
    out = tmp_path / "cards.json.gz"
    args = [
        "--allprintings",
        str(mtgjson_extract["allprintings_xz"]),
        "--blocks",
        str(blocks),
        "--out",
        str(out),
    ]
    assert script.main(args) == 0
    first = out.read_bytes()
    assert script.main(args) == 0
    assert out.read_bytes() == first
    assert script.main([*args, "--check"]) == 0
    db, meta = decode_database(first)
    for name in (
        "Fire // Ice",
        "Delver of Secrets // Insectile Aberration",
        "Aether Figment",
        "Brand New Custom",
        "Jaya Ballard, Task Mage",
        "Island",
    ):
        assert name in db, name
    # the Angel token Resplendent Angel makes, named as Cockatrice's tokens.xml names it
    made = [db.cards[name] for name in db.cards["Resplendent Angel"].related if name in db]
    assert any(card.is_token and card.name.startswith("Angel Token") for card in made), made
    assert "custom.xml" in meta["custom_sets"]
    (blocks / "c.txt").write_text("1 Delvre of Secrets\n")
    assert script.main(args) == 1  # unknown names fail the build


def test_rules_cards_know_every_real_card_offline() -> None:
    """Deck checks must recognise cards outside the bundled blocks (players bring their own decks)."""
    from cockatrice_ext.cards.sources import load_default_cards, load_rules_cards

    rules_db = load_rules_cards()
    assert "Force of Will" not in load_default_cards()
    season = rules_db.cards["Force of Will"]
    assert (
        season.types == ("Instant",)
        and season.mana_value == 5
        and "Counter target spell" in season.oracle_text
    )
    assert season.printings and season.printings[0].set_code  # the one card layer: printings too
    jace = rules_db.cards["Jace, the Mind Sculptor"]
    assert jace.types == ("Planeswalker",) and "Legendary" in jace.supertypes
    assert len(rules_db) > 20000
    # Cards of the default database keep their full definition (printings, custom cards).
    assert rules_db.cards["Chimney Imp"].printings
    assert "Packaged Gnome" in rules_db
