"""The tokens a card makes, as every writer lists them: Magic-Token's exact names (a trailing space is part of
a name: Cockatrice tells same-named tokens apart by it and looks names up exactly), and no helper card."""

from __future__ import annotations

from pathlib import Path

import pytest
import shared_paths
from lxml import etree

from cockatrice_ext.bot.blocks import default_cards
from cockatrice_ext.cards.cockatrice_xml import PARSER_SETTINGS, read_cockatrice_xml
from cockatrice_ext.cards.model import CardDatabase
from cockatrice_ext.cards.store import shipped_store
from cockatrice_ext.cards.tokens import is_helper_card, tokens_made
from cockatrice_ext.decks.model import Deck, DeckEntry
from cockatrice_ext.exporters.cockatrice import write_cockatrice_xml, write_cod
from cockatrice_ext.exporters.model import build_export_deck, display_name

TOKENS_XML = shared_paths.COCKATRICE_FILES / "tokens-magic-token.xml"
# tokens.xml's reminder and helper cards (by its types: State, Counter, Companion, a bare Token, reminder
# cards for face-down creatures): no card creates them as tokens
HELPERS = {
    "Foretell", "The Monarch", "The Initiative", "City's Blessing", "Day", "Night", "On an Adventure", "Plot",
    "Poison Counter", "Energy Reserve", "Experience Counter", "Companion ", "Copy ", "Morph", "Manifest",
    "A Mysterious Creature", "Cyberman", "The Ring Tempts You",
}  # fmt: skip
# what cards do make: tokens (same-named ones told apart by trailing spaces), emblems, dungeons, the Ring
MADE = {
    "Zombie Token", "Zombie Token    ", "Treasure Token", "Clue Token", "Arlinn, Embraced by the Moon Emblem",
    "The Ring", "Dungeon of the Mad Mage", "Lost Mine of Phandelver", "Undercity",
}  # fmt: skip


@pytest.fixture(scope="module")
def magic_tokens() -> CardDatabase:
    if not TOKENS_XML.is_file():
        pytest.skip(f"{TOKENS_XML} not available")
    return read_cockatrice_xml(TOKENS_XML)


def _deck(*names: str) -> Deck:
    deck = Deck(name="pool")
    deck.sections["main"] = [DeckEntry(name, 1) for name in names]
    return deck


def _zone(cod: bytes, zone: str) -> list[str]:
    root = etree.fromstring(cod, etree.XMLParser(**PARSER_SETTINGS))
    return [card.get("name", "") for z in root.iter("zone") if z.get("name") == zone for card in z]


def test_league_pool_tokens_are_made_tokens_with_exact_names() -> None:
    # what the referee's "!pool cod" does (bot/league.py pool_cod): bundled cards, a .cod without printings
    names = ("Hobbling Zombie", "Ravenform", "Kaya's Onslaught", "Jegantha, the Wellspring",
             "Radiant Destiny", "Write into Being", "Rotten Reunion")  # fmt: skip
    export = build_export_deck(_deck(*names), default_cards(), source="pool")
    # decayed Zombies and Ravenform's Bird, spelled as tokens.xml spells them; no Foretell, Companion,
    # City's Blessing or Manifest
    assert _zone(write_cod(export, printings=False), "tokens") == ["Zombie Token    ", "Bird Token  "]


def test_real_cards_list_tokens_emblems_and_dungeons_but_no_helpers() -> None:
    names = ["Grave Titan", "Diregraf Horde", "Saw It Coming", "Jace, Mirror Mage", "Lurrus of the Dream-Den",
             "Arlinn Kord", "Acererak the Archlich", "Blackcleave Goblin", "Archon of Coronation",
             "Bonecrusher Giant", "Hidden Dragonslayer", "Aether Chaser"]  # fmt: skip
    db = shipped_store().cards_for(names)
    export = build_export_deck(_deck(*names), db, source="list")
    assert _zone(write_cod(export), "tokens") == [
        "Zombie Token",
        "Zombie Token    ",  # Diregraf Horde's decayed Zombie: another card in Cockatrice
        "Wolf Token",
        "Arlinn, Embraced by the Moon Emblem",
        "Dungeon of the Mad Mage",
        "Lost Mine of Phandelver",
        "Tomb of Annihilation",
        "Servo Token",
        "Treasure Token",
        "Skeleton Token ",  # Muiral's Graveyard's plain 1/1 (Magic-Token's "Skeleton Token" regenerates)
        "Goblin Token",
        "The Atropal",
    ]
    # the card database of the same deck: no link to a helper card either way
    root = etree.fromstring(write_cockatrice_xml(export), etree.XMLParser(**PARSER_SETTINGS))
    written = {card.findtext("name") for card in root.iter("card")}
    links = {link.text for tag in ("related", "reverse-related") for link in root.iter(tag)}
    assert not (written | links) & HELPERS
    assert {"Grave Titan", "Diregraf Horde"} <= links and "Zombie Token    " in written


def test_helper_cards_of_the_real_token_file(magic_tokens: CardDatabase) -> None:
    helpers = {name for name, card in magic_tokens.cards.items() if is_helper_card(card)}
    assert helpers >= HELPERS
    assert not MADE & helpers and magic_tokens.cards.keys() >= MADE
    for name in helpers:  # every helper is typed as no token, emblem or dungeon is, or a reminder card
        type_line = magic_tokens.cards[name].front.type_line
        assert not type_line.startswith("Token ") and "Emblem" not in type_line and "Dungeon" not in type_line
    emblems = [card for card in magic_tokens.cards.values() if card.front.type_line.startswith("Emblem")]
    assert len(emblems) > 50 and not any(is_helper_card(card) for card in emblems)


def test_every_token_the_shipped_data_makes_is_named_as_in_tokens_xml(magic_tokens: CardDatabase) -> None:
    db = shipped_store().all_cards()
    made = {display_name(t, "cockatrice") for c in db.cards.values() for t in tokens_made(c, db.cards.get)}
    assert len(made) > 400
    assert sorted(made - magic_tokens.cards.keys()) == []
    assert not made & HELPERS
    spaced = {name for name in made if name != name.strip()}
    assert "Zombie Token    " in spaced and all(name == name.lstrip() for name in spaced)


def test_a_token_without_a_type_line_is_still_a_token(tmp_path: Path) -> None:
    xml = b"""<cockatrice_carddatabase version="4"><cards>
      <card><name>Gold Servo</name><set>SMK</set><token>1</token></card>
      <card><name>Maker</name><prop><type>Creature</type></prop><set>SMK</set>
        <related>Gold Servo</related></card>
    </cards></cockatrice_carddatabase>"""
    db = read_cockatrice_xml(xml, name="custom.xml")
    assert not is_helper_card(db.cards["Gold Servo"])
    assert [t.name for t in tokens_made(db.cards["Maker"], db.cards.get)] == ["Gold Servo"]
