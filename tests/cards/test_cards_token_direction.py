"""``Card.related`` is what a card makes: MTGJSON's two-way token links do not turn a token into a maker.

MTGJSON 5.2's ``reverseRelated`` on a token names its makers *and* the tokens it is linked to, both
ways: Goblin lists Lost Mine of Phandelver (which makes Goblins), Lost Mine lists Goblin and Treasure
(which it makes), Treasure lists both dungeons and Goblin Shaman (which make Treasure).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from shared_paths import ALL_PRINTINGS

from cockatrice_ext.cards.model import Card, CardDatabase, Face, Printing
from cockatrice_ext.cards.mtgjson import creates_token, read_mtgjson, read_mtgjson_data
from cockatrice_ext.cards.store import shipped_store
from cockatrice_ext.cards.tokens import apply_cockatrice_token_names
from cockatrice_ext.cli import main

LOST_MINE_TEXT = (
    "Cave Entrance — Scry 1. (→ Goblin Lair or Mine Tunnels)\nGoblin Lair — Create a 1/1 red Goblin "
    "creature token. (→ Storeroom or Dark Pool)\nMine Tunnels — Create a Treasure token."
)


def _token(name: str, text: str, *makers: str) -> dict[str, Any]:
    return {"name": name, "layout": "token", "type": f"Token {name}", "text": text, "number": "1",
            "setCode": "TAFR", "reverseRelated": list(makers)}  # fmt: skip


def test_a_token_linked_to_a_token_is_made_only_if_the_text_creates_it() -> None:
    """The reverseRelated fields as AFR's tokens have them (shortened): quirk in, right direction out."""
    cards = [{"name": n, "layout": "normal", "type": "Creature", "number": str(i), "setCode": "AFR"}
             for i, n in enumerate(("Krenko, Mob Boss", "Acererak the Archlich"))]  # fmt: skip
    tokens = [
        _token("Goblin", "", "Krenko, Mob Boss", "Lost Mine of Phandelver"),
        _token(
            "Treasure",
            "{T}, Sacrifice this artifact: Add one mana of any color.",
            "Lost Mine of Phandelver",
            "Goblin Shaman",
        ),
        _token("Goblin Shaman", "Whenever this creature attacks, create a Treasure token.", "Treasure"),
        _token("Lost Mine of Phandelver", LOST_MINE_TEXT, "Acererak the Archlich", "Goblin", "Treasure"),
    ]
    db = read_mtgjson_data({"data": {"AFR": {"code": "AFR", "cards": cards, "tokens": tokens}}})
    assert db.cards["Goblin"].related == ()
    assert db.cards["Treasure"].related == ()
    assert db.cards["Goblin Shaman"].related == ("Treasure",)
    assert db.cards["Lost Mine of Phandelver"].related == ("Goblin", "Treasure")
    assert db.cards["Krenko, Mob Boss"].related == ("Goblin",)
    assert db.cards["Acererak the Archlich"].related == ("Lost Mine of Phandelver",)


def test_creates_token_reads_create_clauses_not_granted_abilities() -> None:
    fish = 'When this creature dies, create a 6/6 blue Whale creature token with "When this creature dies, '
    fish += 'create a 9/9 blue Kraken creature token."'
    assert creates_token([fish], "Whale") and not creates_token([fish], "Kraken")
    assert creates_token(["Create a 4/4 black God Horror creature token named The Atropal."], "The Atropal")
    assert not creates_token(["Flying"], "Wolf") and not creates_token(
        [LOST_MINE_TEXT], "Tomb of Annihilation"
    )


@pytest.fixture(scope="module")
def all_printings() -> CardDatabase:
    if not ALL_PRINTINGS.exists():
        pytest.skip(f"{ALL_PRINTINGS} not available")
    return read_mtgjson(ALL_PRINTINGS)


def test_real_mtgjson_tokens_and_dungeons(all_printings: CardDatabase) -> None:
    cards = all_printings.cards
    assert cards["Goblin"].related == () and cards["Treasure"].related == ()
    assert (
        "Goblin" in cards["Krenko, Mob Boss"].related and "Goblin" in cards["Lost Mine of Phandelver"].related
    )
    assert cards["Lost Mine of Phandelver"].related == ("Goblin", "Treasure")
    # the dungeon's Skeleton is AFR's plain 1/1, not the regenerating one most printings have ("Skeleton")
    assert set(cards["Dungeon of the Mad Mage"].related) == {"Treasure", "Skeleton "}
    assert cards["Skeleton "].oracle_text == "" and "Regenerate" in cards["Skeleton"].oracle_text
    assert cards["Tomb of Annihilation"].related == ("The Atropal",)
    assert cards["Goblin Shaman"].related == ("Treasure",)
    assert cards["Fish"].related == ("Whale",) and cards["Whale"].related == ("Kraken",)
    assert not any(cards[n].related for n in ("Skeleton", "The Atropal", "Bird", "Wolf", "Food", "Giant"))
    dungeons = {"Dungeon of the Mad Mage", "Lost Mine of Phandelver", "Tomb of Annihilation"}
    assert dungeons <= set(cards["Acererak the Archlich"].related)  # venturing brings the dungeon


def _fish(name: str, text: str, sid: str) -> Card:
    face = Face(name=name, types=("Token", "Creature"), subtypes=("Fish",), oracle_text=text, power="1",
                toughness="1", colors=("U",))  # fmt: skip
    return Card(name=name, faces=(face,), printings=(Printing(set_code="T", scryfall_id=sid),), is_token=True)


def test_split_token_keeps_what_it_makes_on_the_name_whose_text_says_so() -> None:
    """MTGJSON's one "Fish" is two Cockatrice tokens: only Reef Worm's makes a Whale."""
    worm_text = "When this creature dies, create a 6/6 blue Whale creature token."
    worm = _fish("Fish", worm_text, "a")
    printings = (*worm.printings, Printing("T", "2", scryfall_id="b"))
    merged = Card(name="Fish", faces=worm.faces, printings=printings, is_token=True, related=("Whale",))
    db = CardDatabase()
    db.add(merged)
    db.add(Card(name="Exotic Pets", faces=(Face(name="Exotic Pets"),), related=("Fish",)))
    reference = CardDatabase()
    reference.add(_fish("Fish Token", worm_text, "a"))
    reference.add(_fish("Fish Token ", "This creature can't be blocked.", "b"))
    reference.reverse_related = {"Exotic Pets": ["Fish Token "]}
    apply_cockatrice_token_names(db, reference)
    assert db.cards["Fish Token"].related == ("Whale",) and db.cards["Fish Token "].related == ()
    assert db.cards["Exotic Pets"].related == ("Fish Token ",)  # tokens.xml says which Fish it makes


def test_shipped_data_relations() -> None:
    store = shipped_store()

    def makes(name: str) -> tuple[str, ...]:
        card = store.find(name)
        assert card is not None, name
        return card.related

    assert makes("Goblin Token") == () and makes("Treasure Token") == ()
    assert "Goblin Token" in makes("Krenko, Mob Boss")
    assert makes("Lost Mine of Phandelver") == ("Goblin Token", "Treasure Token")
    assert makes("Dungeon of the Mad Mage") == ("Treasure Token", "Skeleton Token ")  # a plain 1/1
    assert makes("Tomb of Annihilation") == ("The Atropal",)
    assert makes("Goblin Shaman Token") == ("Treasure Token",)
    assert makes("Fish Token") == ("Whale Token",) and makes("Fish Token ") == ()
    assert makes("Boar Token  ") == ("Food Token",) and makes("Boar Token ") == ()


def test_lookup_goblin_and_treasure_make_nothing() -> None:
    result = CliRunner().invoke(main, ["cards", "lookup", "Goblin", "Treasure", "Lost Mine of Phandelver"])
    assert result.exit_code == 0, result.output
    goblin, treasure, mine = re.split(r"\n\n(?=Treasure Token\n|Lost Mine of Phandelver\n)", result.output)
    assert "Makes:" not in goblin and "Makes:" not in treasure
    assert "Makes: Goblin Token; Treasure Token" in mine


def _tokens_zone(runner: CliRunner, source: Path | str, out: Path) -> list[str]:
    result = runner.invoke(
        main, ["export", str(source), "--to", "cod", "-o", str(out)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    return re.findall(r'<card [^>]*name="([^"]*)"', text[text.index('<zone name="tokens">') :])


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    return CliRunner()


def test_treasure_list_exports_no_dungeons(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "list.txt").write_text("2 Treasure\n", encoding="utf-8")
    assert _tokens_zone(runner, tmp_path / "list.txt", tmp_path / "list.cod") == ["Treasure Token"]


def test_real_makers_still_get_their_tokens(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "list.txt").write_text("1 Krenko, Mob Boss\n1 Nadaar, Selfless Paladin\n", encoding="utf-8")
    tokens = _tokens_zone(runner, tmp_path / "list.txt", tmp_path / "list.cod")
    assert "Goblin Token" in tokens
    assert {"Dungeon of the Mad Mage", "Lost Mine of Phandelver", "Tomb of Annihilation"} <= set(tokens)


def test_reexported_market_pool_gains_no_unrelated_tokens(runner: CliRunner, tmp_path: Path) -> None:
    """The tokens zone read back: no token makes a Wolf, Giant or Kraken just because MTGJSON links them."""
    first = _tokens_zone(runner, "market-pool", tmp_path / "mp.cod")
    again = _tokens_zone(runner, tmp_path / "mp.cod", tmp_path / "mp2.cod")
    # (Curse of the Swine does make "Boar Token "; a Kraken comes through Exotic Pets, which the data
    # credits with both Fish variants, one of which makes a Whale, which makes a Kraken)
    unrelated = {"Wolf Token", "Giant Token", "Goblin Shaman Token"}
    assert not unrelated & set(first) and not unrelated & set(again)
    assert again == first


def test_store_loads_the_tokens_a_loaded_token_makes() -> None:
    """A venture card's dungeons come with what they make, for an exporter that follows them."""
    db = shipped_store().cards_for(["Nadaar, Selfless Paladin"])
    assert {"Lost Mine of Phandelver", "Goblin Token", "Treasure Token", "The Atropal"} <= set(db.cards)
    assert "Lost Mine of Phandelver" not in db.cards["Goblin Token"].related
