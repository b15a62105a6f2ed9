"""Every bundled block against the real MTGJSON data: names, sizes and each block's documented properties."""

from __future__ import annotations

import json
import lzma
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import shared_paths
from lxml import etree

from cockatrice_ext.blocks import block_path, custom_cards_path, list_blocks, open_block
from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.model import Deck

ALL_PRINTINGS = shared_paths.ALL_PRINTINGS
SEEDS = shared_paths.SEEDS
XSD = shared_paths.SCHEMAS / "cards-v4.xsd"
REAL_BLOCKS = [
    "auction-sample",
    "auction-commander",
    "vortex-pool",
    "autobattler-cube",
    "market-pool",
    "combat-deck",
]
BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
COLORS = ("W", "U", "B", "R", "G")

needs_mtgjson = pytest.mark.skipif(not ALL_PRINTINGS.is_file(), reason="MTGJSON AllPrintings not present")


class Oracle:
    """The few MTGJSON facts the block checks need, by card name."""

    def __init__(self, path: Path) -> None:
        with lzma.open(path) as handle:
            data = json.load(handle)["data"]
        self.faces: dict[str, list[dict[str, Any]]] = {}
        self.printings: dict[tuple[str, str], dict[str, Any]] = {}
        for code, card_set in data.items():
            for card in card_set["cards"]:
                faces = self.faces.setdefault(card["name"], [])
                if card.get("side", "a") not in {f.get("side", "a") for f in faces}:
                    faces.append(card)
                self.printings[(code, card.get("number", ""))] = card

    def card(self, name: str) -> dict[str, Any]:
        return self.faces[name][0]

    def text(self, name: str) -> str:
        return "\n".join(face.get("text", "") for face in self.faces[name])

    def types(self, name: str) -> list[str]:
        return list(self.card(name)["types"])

    def colors(self, name: str) -> list[str]:
        return list(self.card(name).get("colors", []))


@pytest.fixture(scope="module")
def oracle() -> Oracle:
    return Oracle(ALL_PRINTINGS)


def counted(deck: Deck) -> Counter[str]:
    out: Counter[str] = Counter()
    for _, entry in deck.entries():
        out[entry.name] += entry.count
    return out


def test_list_and_open() -> None:
    assert set(list_blocks()) == {*REAL_BLOCKS, "auction-custom"}
    assert block_path("auction-sample.txt") == block_path("auction-sample")
    with pytest.raises(KeyError, match="known blocks"):
        block_path("nope")
    assert custom_cards_path("auction-custom") is not None
    assert custom_cards_path("auction-sample") is None


@pytest.mark.parametrize("name", sorted({*REAL_BLOCKS, "auction-custom"}))
def test_every_block_has_a_header_comment(name: str) -> None:
    text = block_path(name).read_text(encoding="utf-8")
    assert text.startswith("# Name: ")
    deck = open_block(name)
    assert deck.name and len(deck.comments.splitlines()) >= 2


@needs_mtgjson
@pytest.mark.parametrize("name", REAL_BLOCKS)
def test_every_name_is_a_real_card(oracle: Oracle, name: str) -> None:
    unknown = [(e.line, e.name) for _, e in open_block(name).entries() if e.name not in oracle.faces]
    assert unknown == []


@needs_mtgjson
@pytest.mark.parametrize("name", REAL_BLOCKS)
def test_pinned_printings_exist(oracle: Oracle, name: str) -> None:
    for _, entry in open_block(name).entries():
        if entry.set_code:
            printing = oracle.printings[(entry.set_code, entry.collector_number)]
            assert printing["name"] == entry.name, entry


@needs_mtgjson
def test_auction_sample_is_the_seed_list(oracle: Oracle) -> None:
    seed = next(SEEDS.glob("000_*.txt")).read_text(encoding="utf-8").splitlines()
    start = seed.index("1 Accorder Paladin")
    end = seed.index("1 AEther Figment")
    posted = parse_block_list("\n".join(seed[start : end + 1]))
    fixes = {"AEther Adept": "Aether Adept", "AEther Figment": "Aether Figment"}
    expected = [(fixes.get(e.name, e.name), e.count) for e in posted.main]
    deck = open_block("auction-sample")
    assert [(e.name, e.count) for e in deck.main] == expected
    # The post says 200 cards; the list as posted sums to 199 (documented in the file's header).
    assert deck.count() == 199
    assert "sums to\n199" in deck.comments
    doubles = sorted(name for name, n in counted(deck).items() if n > 1)
    assert len(doubles) == 11 and all(n <= 2 for n in counted(deck).values())


def test_auction_commander_block_fits_rule_90y(oracle: Oracle) -> None:
    """Singleton by name (90Y.3) and enough legendary creatures for six players, built from the sample."""
    from cockatrice_ext.cards.sources import load_default_cards

    deck = open_block("auction-commander")
    names = [entry.name for _, entry in deck.entries()]
    assert deck.count() == 200 and all(n == 1 for n in counted(deck).values())
    assert set(e.name for e in open_block("auction-sample").main) <= set(names)
    cards = load_default_cards().cards
    legends = [n for n in names if "Legendary" in cards[n].supertypes and "Creature" in cards[n].types]
    assert len(legends) >= 6


def test_auction_custom_set_is_valid_and_matches_its_list(tmp_path: Path) -> None:
    xml_path = custom_cards_path("auction-custom")
    assert xml_path is not None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    document = etree.parse(str(xml_path), parser)
    if XSD.is_file():
        schema = etree.XMLSchema(etree.parse(str(XSD), parser))
        assert schema.validate(document), schema.error_log
    cards = document.findall("cards/card")
    names = [c.findtext("name") for c in cards]
    expected = [
        "Packaged Gnome",
        "Auctioneer",
        "Alchemy Lab",
        "Gilded Idol",
        "Resell",
        "Deadly Stakes",
        "Fiery Bid",
        "Blood Claim",
        "Auction Property",
    ]
    assert names == expected
    assert [e.name for e in open_block("auction-custom").main] == expected
    costs = {c.findtext("name"): c.findtext("prop/manacost") for c in cards}
    assert (costs["Deadly Stakes"], costs["Fiery Bid"], costs["Blood Claim"]) == ("1B", "2R", "1B")
    pts = {c.findtext("name"): c.findtext("prop/pt") for c in cards if c.findtext("prop/pt")}
    assert pts == {"Packaged Gnome": "2/2", "Auctioneer": "2/1"}
    for card in cards:
        assert card.findtext("set") == "AUC" and card.find("set").get("rarity")
        assert document.findtext("sets/set/priority") is not None


@needs_mtgjson
def test_custom_names_do_not_collide_with_real_cards(oracle: Oracle) -> None:
    assert not [e.name for e in open_block("auction-custom").main if e.name in oracle.faces]


@needs_mtgjson
def test_vortex_pool(oracle: Oracle) -> None:
    deck = open_block("vortex-pool")
    cards = counted(deck)
    assert 180 <= deck.count() <= 250
    for basic in BASICS:
        assert cards[basic] == 5  # one of each basic per player, five players
    assert all(n == 1 for name, n in cards.items() if name not in BASICS)
    lands = [n for n in cards if "Land" in oracle.types(n) and n not in BASICS]
    spells = [n for n in cards if "Land" not in oracle.types(n)]
    assert len(lands) >= 5 and len(spells) >= 150
    for color in COLORS:
        assert sum(1 for n in spells if oracle.colors(n) == [color]) >= 25


AUTOBATTLER_EXCLUDED = re.compile(
    r"\bdraws?\b|\blibrar(?:y|ies)\b|\bscry\b|\bsurveil\b|\bmills?\b|\bexplores?\b|\binvestigate\b|\blearn\b"
    r"|\bcycling\b|\bconnives?\b|\bcascade\b|\bdiscover\b|\bsearch\b|\bshuffle"
    r"|discards? (?:a|two|that|those|\w+) cards?|\breveals? (?:his or her|their|your) hand"
    r"|\bpoison\b|\binfect\b|\btoxic\b|\benergy\b|\bextra (?:turn|combat)\b|\badditional combat\b"
    r"|\b(?:win|lose)s? the game\b|\bdungeons?\b|\bventure\b|\binitiative\b|\bmonarch\b",
    re.IGNORECASE,
)


@needs_mtgjson
def test_autobattler_cube_respects_the_exclusions(oracle: Oracle) -> None:
    deck = open_block("autobattler-cube")
    cards = counted(deck)
    assert 150 <= deck.count() <= 325
    assert all(n == 1 for n in cards.values())  # singleton
    offending = {n: m.group(0) for n in cards if (m := AUTOBATTLER_EXCLUDED.search(oracle.text(n)))}
    assert offending == {}
    assert "Broadside Bombardiers" not in cards
    assert not [n for n in cards if "Land" in oracle.types(n)]
    assert sum(1 for n in cards if "Treasure" in oracle.text(n)) >= 5
    assert sum(1 for n in cards if "Creature" in oracle.types(n)) >= deck.count() // 2


@needs_mtgjson
def test_market_pool_rarities_and_colors(oracle: Oracle) -> None:
    """The bundled pool holds the largest league the bot offers (8 players, 5 rounds): it held two players
    only, and a four-player league was refused (common 170/212) though the README offers 2 to 8."""
    n_players, rounds = 8, 5
    deck = open_block("market-pool")
    assert all(n == 4 for n in counted(deck).values())
    by_rarity: dict[str, list[str]] = {"common": [], "uncommon": [], "rare": []}
    for _, entry in deck.entries():
        assert entry.set_code and entry.collector_number, f"line {entry.line} is not pinned"
        rarity = oracle.printings[(entry.set_code, entry.collector_number)]["rarity"]
        by_rarity["rare" if rarity == "mythic" else rarity] += [entry.name] * entry.count
        assert "Land" not in oracle.types(entry.name)
    commons, uncommons, rares = by_rarity["common"], by_rarity["uncommon"], by_rarity["rare"]
    assert len(commons) >= 45 * n_players + 8 * rounds * n_players
    assert len(uncommons) >= 8 * rounds
    assert len(rares) >= 5 * rounds

    def mono(names: list[str], color: str) -> int:
        return sum(1 for n in names if oracle.colors(n) == [color])

    def colorless(names: list[str]) -> int:
        return sum(1 for n in names if not oracle.colors(n))

    def multi(names: list[str]) -> int:
        return sum(1 for n in names if len(oracle.colors(n)) >= 2)

    starter_packs, common_boosters = 3 * n_players, rounds * n_players
    for color in COLORS:
        # starter packs need 2 of each colour, common boosters 1; uncommon boosters 1
        assert mono(commons, color) >= 2 * starter_packs + common_boosters
        assert mono(uncommons, color) >= rounds
    assert colorless(commons) >= 2 * starter_packs and multi(commons) >= 3 * starter_packs
    assert colorless(commons) + multi(commons) >= 5 * starter_packs + 3 * common_boosters
    assert colorless(uncommons) + multi(uncommons) >= 3 * rounds


@needs_mtgjson
def test_combat_deck_is_legal(oracle: Oracle) -> None:
    deck = open_block("combat-deck")
    cards = counted(deck)
    assert deck.count() == 40
    assert all(n == 1 for n in cards.values())
    types = {n: oracle.types(n) for n in cards}
    assert not [n for n, t in types.items() if "Land" in t or "Planeswalker" in t]
    assert any("Creature" in t for t in types.values())
    assert any("Instant" in t for t in types.values())
    assert any("Sorcery" in t for t in types.values())
    auras = [n for n in cards if "Aura" in oracle.card(n).get("subtypes", [])]
    assert auras
    small = [n for n, t in types.items() if "Creature" in t and oracle.card(n)["manaValue"] <= 3]
    assert len(small) >= 5  # enough to fill the five opening slots
    values = {oracle.card(n)["manaValue"] for n in cards}
    assert min(values) <= 1 and max(values) >= 6  # increasing mana values across the game's ten rounds


def test_blocks_resolve_against_the_default_cards() -> None:
    """The shipped card data (built from these block lists) resolves every bundled block."""
    from cockatrice_ext.cards.resolve import resolve_deck
    from cockatrice_ext.cards.sources import load_default_cards

    db = load_default_cards()
    for name in list_blocks():
        deck = open_block(name)
        assert resolve_deck(deck, db, source=name).count() == deck.count()
