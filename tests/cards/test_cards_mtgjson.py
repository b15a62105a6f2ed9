"""MTGJSON reader: AllPrintings (plain/.gz/.xz), per-set and AtomicCards shapes from real data."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_paths import ALL_PRINTINGS as ALLPRINTINGS

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.mtgjson import read_mtgjson, read_mtgjson_data
from cockatrice_ext.cards.sources import load_cards, sniff


@pytest.mark.parametrize("kind", ["allprintings_json", "allprintings_gz", "allprintings_xz"])
def test_allprintings_extract_every_compression(mtgjson_extract: dict[str, Path], kind: str) -> None:
    db = read_mtgjson(mtgjson_extract[kind])
    fire_ice = db.cards["Fire // Ice"]
    assert fire_ice.layout == "split"
    assert [f.name for f in fire_ice.faces] == ["Fire", "Ice"]
    assert fire_ice.faces[0].mana_cost == "{1}{R}"
    assert fire_ice.printings[0].set_code == "APC"
    assert fire_ice.printings[0].set_name == "Apocalypse"
    delver = db.cards["Delver of Secrets // Insectile Aberration"]
    assert delver.layout == "transform"
    assert [f.side for f in delver.faces] == ["a", "b"]
    assert delver.faces[1].power == "3"
    jaya = db.cards["Jaya Ballard, Task Mage"]
    assert jaya.supertypes == ("Legendary",) and jaya.rarity == "rare"
    giant = db.cards["Bonecrusher Giant // Stomp"]
    assert giant.layout == "adventure"
    assert giant.faces[1].types == ("Instant",)


def test_tokens_are_linked_to_their_makers(mtgjson_extract: dict[str, Path]) -> None:
    db = read_mtgjson(mtgjson_extract["allprintings_json"])
    # M19 Resplendent Angel makes a 4/4 Angel token with flying and vigilance (MTGJSON TM19 reverseRelated);
    # ISD's Angel is another body of the same name, so one of them is "Angel " (see test_cards_tokens.py)
    (made,) = db.cards["Resplendent Angel"].related
    angel = db.cards[made]
    assert made.rstrip() == "Angel" and angel.is_token
    assert (angel.colors, angel.power, angel.toughness, angel.oracle_text) == (
        ("W",),
        "4",
        "4",
        "Flying, vigilance",
    )
    assert [p.set_code for p in angel.printings] == ["TM19"]
    assert "TM19" in db.sets


def test_real_card_wins_a_name_clash_with_a_token() -> None:
    doc = {
        "data": {
            "AAA": {
                "code": "AAA",
                "cards": [{"name": "Zombie", "layout": "normal", "types": ["Creature"], "number": "1"}],
                "tokens": [
                    {"name": "Zombie", "layout": "token", "types": ["Token", "Creature"], "number": "1"}
                ],
            }
        }
    }
    db = read_mtgjson_data(doc)
    assert db.cards["Zombie"].is_token is False


def test_per_set_file(mtgjson_extract: dict[str, Path]) -> None:
    db = read_mtgjson(mtgjson_extract["set_M19"])
    assert {p.set_code for c in db.cards.values() for p in c.printings} <= {"M19", "TM19"}
    assert "Aegis of the Heavens" in db.cards
    assert sniff(mtgjson_extract["set_M19"]) == "mtgjson"


def test_atomic_cards_shape(mtgjson_extract: dict[str, Path]) -> None:
    db = load_cards(mtgjson_extract["atomic"])
    fire_ice = db.cards["Fire // Ice"]
    assert [f.name for f in fire_ice.faces] == ["Fire", "Ice"]
    assert [p.set_code for p in fire_ice.printings] == ["APC"]


def test_malformed_json_names_file_and_position(tmp_path: Path) -> None:
    path = tmp_path / "AllPrintings.json"
    path.write_text('{"meta": {},\n "data": {"M19": {"cards": [}\n}')
    with pytest.raises(CardDataError) as info:
        read_mtgjson(path)
    assert info.value.source == str(path) and info.value.line == 2
    path.write_text('{"cards": []}')
    with pytest.raises(CardDataError, match="not an MTGJSON file"):
        read_mtgjson(path)


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "data",
                        "cards",
                        "tokens",
                        "name",
                        "code",
                        "colors",
                        "side",
                        "number",
                        "types",
                        "manaValue",
                        "identifiers",
                        "reverseRelated",
                        "printings",
                        "layout",
                    ]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=25,
    )
)
def test_fuzz_structures_only_raise_card_data_error(document: object) -> None:
    with contextlib.suppress(CardDataError):
        read_mtgjson_data(json.loads(json.dumps(document)))


@pytest.mark.skipif(not os.environ.get("COCKATRICE_EXT_FULL_CARDS"), reason="set COCKATRICE_EXT_FULL_CARDS=1")
def test_full_allprintings() -> None:
    db = read_mtgjson(ALLPRINTINGS)
    assert len(db) > 20000
    assert "Jaya Ballard, Task Mage" in db
