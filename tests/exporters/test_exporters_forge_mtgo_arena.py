"""Forge (.dck, cube, scripts, edition), MTGO .dek and Arena writers, read back with the project's readers."""

from __future__ import annotations

import re

import pytest
from export_samples import (
    ANGELIC_EDICT,
    BONECRUSHER,
    DELVER,
    FIRE_ICE,
    SPIRIT,
    creature_token,
    parse_xml,
    sample_deck,
)

from cockatrice_ext.cards.forge import parse_forge_script
from cockatrice_ext.cards.model import Card, CardSet, Face, Printing
from cockatrice_ext.decks.readers import read_arena, read_dek, read_forge
from cockatrice_ext.exporters import (
    ExportDeck,
    ExportEntry,
    deck_from_cards,
    moved_to_side,
    write_arena,
    write_forge_cube,
    write_forge_custom_set,
    write_forge_dck,
    write_mtgo_dek,
)
from cockatrice_ext.exporters.forge_scripts import forge_mana_cost, script_file_name, write_forge_script


def _rows(deck, section: str) -> list[tuple[str, int, str]]:  # type: ignore[no-untyped-def]
    return [(e.name, e.count, e.set_code) for e in deck.sections.get(section, [])]


# -- Forge deck -----------------------------------------------------------------------------------
def test_forge_dck_reads_back() -> None:
    text = write_forge_dck(sample_deck())
    deck = read_forge(text)
    assert deck.name == "Sample & <Test>"
    assert _rows(deck, "main") == [
        ("Angelic Edict", 2, "M14"),
        ("Fire // Ice", 1, "MH2"),  # split: both halves
        ("Delver of Secrets", 4, ""),  # DFC: front face
        ('Minsc & Boo, "Timeless" <Heroes>', 1, ""),
        ("Azorius Guildgate", 1, "RNA"),
        ("Spectral Procession", 1, ""),
    ]
    assert _rows(deck, "side") == [("Bonecrusher Giant", 3, "ELD")]  # adventure: front face in Forge
    assert '[metadata]\nName=Sample & <Test>\nComment=Line one Line "two" & more\n[Main]\n' in text


def test_forge_dck_metadata_is_one_line_even_with_hostile_names() -> None:
    deck = ExportDeck(name="evil\n[Main]\n99 Black Lotus", sections={"main": [ExportEntry(ANGELIC_EDICT, 1)]})
    parsed = read_forge(write_forge_dck(deck))
    assert _rows(parsed, "main") == [("Angelic Edict", 1, "")]
    assert parsed.name == "evil [Main] 99 Black Lotus"


def test_forge_cube_draft_file_matches_the_cube_name() -> None:
    deck = sample_deck()
    deck.name = "Auction: Cube/1"
    bundle = write_forge_cube(deck, num_players=2, num_packs=1, booster_size=5)
    assert sorted(bundle) == ["cube/Auction Cube_1.dck", "draft/Auction Cube_1.draft"]
    cube = read_forge(bundle["cube/Auction Cube_1.dck"].decode())
    draft = dict(
        line.split(":", 1)
        for line in bundle["draft/Auction Cube_1.draft"].decode().splitlines()
        if ":" in line
    )
    assert draft["DeckFile"] == cube.name == "Auction: Cube_1"  # as Forge keys it: each / made _
    assert draft["Name"] == cube.name
    assert draft["NumPlayers"].strip() == "2"
    assert "Singleton" not in draft  # Angelic Edict appears twice
    assert sum(e.count for e in cube.sections["main"]) == deck.count() - deck.count("side") - deck.count(
        "tokens"
    )
    assert all(e.count == 1 for e in cube.sections["main"])  # one line per copy, as Forge's cubes


def test_forge_cube_singleton_flag() -> None:
    bundle = write_forge_cube(deck_from_cards("Tiny", [ANGELIC_EDICT, FIRE_ICE]), num_players=2, num_packs=1,
                              booster_size=1)  # fmt: skip
    assert "Singleton:True" in bundle["draft/Tiny.draft"].decode()


@pytest.mark.parametrize(("size", "expected"), [(199, (4, 3, 15)), (250, (5, 3, 15)), (60, (2, 3, 10))])
def test_the_draft_is_sized_to_the_cube(size: int, expected: tuple[int, int, int]) -> None:
    from cockatrice_ext.exporters.forge import draft_size

    players, packs, pack_size = draft_size(size)
    assert (players, packs, pack_size) == expected and players * packs * pack_size <= size
    with pytest.raises(ValueError, match="needs 360 cards; the cube has 199"):
        draft_size(199, players=8, packs=3, pack_size=15)


# -- Forge scripts -----------------------------------------------------------------------------------
def test_forge_script_round_trips_through_the_card_layer() -> None:
    for card in (ANGELIC_EDICT, FIRE_ICE, DELVER):
        parsed = parse_forge_script(write_forge_script(card))
        assert [f.name for f in parsed.faces] == [f.name for f in card.faces]
        assert [f.types for f in parsed.faces] == [f.types for f in card.faces]
        assert [f.subtypes for f in parsed.faces] == [f.subtypes for f in card.faces]
        assert [(f.power, f.toughness) for f in parsed.faces] == [(f.power, f.toughness) for f in card.faces]
        assert [f.oracle_text for f in parsed.faces] == [f.oracle_text for f in card.faces]
        assert parsed.layout == card.layout


def test_forge_script_details() -> None:
    text = write_forge_script(DELVER)
    assert text.startswith("Name:Delver of Secrets\nManaCost:U\nTypes:Creature Human Wizard\nPT:1/1\n")
    assert "AlternateMode:DoubleFaced" in text
    back = text.split("\n\nALTERNATE\n\n")[1]
    assert "ManaCost:no cost" in back and "Colors:blue" in back and "K:Flying" in back
    assert "Oracle:Tap target permanent.\\nDraw a card." in write_forge_script(FIRE_ICE)
    assert forge_mana_cost("{2}{W/U}{X}") == "2 W/U X"
    assert script_file_name("Mikaeus, the Lunarch") == "mikaeus_the_lunarch.txt"
    assert script_file_name("Æther Vial") == "aether_vial.txt"
    assert script_file_name("../../etc/passwd") == "etc_passwd.txt"


def test_forge_custom_set_bundle() -> None:
    auc = CardSet("AUC", "Auction Magic Custom Cards", "Custom", "2014-06-01")
    gnome = Card(
        name="Packaged Gnome",
        faces=(Face("Packaged Gnome", mana_cost="{3}", types=("Creature",), power="2", toughness="2"),),
        printings=(Printing("AUC", "1", "rare"),),
    )
    lab = Card(
        name="Alchemy Lab",
        faces=(Face("Alchemy Lab", mana_cost="{2}", types=("Artifact",)),),
        printings=(Printing("AUC", "3", "uncommon"),),
    )
    deck = deck_from_cards("Auction", [gnome, lab], {"AUC": auc})
    bundle = write_forge_custom_set(deck)
    assert sorted(bundle) == [
        "cards/alchemy_lab.txt",
        "cards/packaged_gnome.txt",
        "editions/Auction Magic Custom Cards.txt",
    ]
    edition = bundle["editions/Auction Magic Custom Cards.txt"].decode()
    assert edition == (
        "[metadata]\nCode=AUC\nDate=2014-06-01\nName=Auction Magic Custom Cards\nType=Other\n\n"
        "[cards]\n1 R Packaged Gnome\n3 U Alchemy Lab\n"
    )
    # real cards beside the designer's (which the edition does not list) leave it the designer's code
    beside_real = write_forge_custom_set(deck_from_cards("Beside", [ANGELIC_EDICT, FIRE_ICE, SPIRIT, gnome]))
    assert "Code=AUC" in beside_real["editions/Beside.txt"].decode()
    # the designer's cards from several sets: an edition named after the deck, numbered by position, with a
    # code and a date of its own (Forge will not start without Date=; two blocks must not share a code)
    moon = Card(
        name="Moon Idol",
        faces=(Face("Moon Idol", mana_cost="{2}", types=("Artifact",)),),
        printings=(Printing("ZZMOON", "1", "common"),),
    )
    mixed = write_forge_custom_set(deck_from_cards("Mixed", [ANGELIC_EDICT, FIRE_ICE, SPIRIT, gnome, moon]))
    edition = mixed["editions/Mixed.txt"].decode()
    assert "Code=CUSTOM" not in edition and re.search(r"^Code=X[0-9A-F]{5}$", edition, re.M)
    assert re.search(r"^Date=\d{4}-\d{2}-\d{2}$", edition, re.M)
    edited = write_forge_custom_set(deck_from_cards("Mixed", [ANGELIC_EDICT, SPIRIT, gnome, moon]))[
        "editions/Mixed.txt"
    ].decode()
    assert edited.split("\n")[1] == edition.split("\n")[1]  # the block edited keeps its code (decks pin it)
    other = write_forge_custom_set(deck_from_cards("Other", [ANGELIC_EDICT, SPIRIT, gnome, moon]))[
        "editions/Other.txt"
    ].decode()
    assert other.split("\n")[1] != edition.split("\n")[1]  # another block, another code
    assert "Spirit" not in edition.split("[tokens]")[0]  # tokens are not cards of the edition...
    assert edition.endswith("\n[tokens]\n1 w_1_1_spirit_flying\n")  # ...but its tokens, by script name
    # real cards are neither listed (Forge would give them the custom, picture-less printing) nor scripted
    assert "Fire" not in edition and "Angelic Edict" not in edition
    assert [path for path in mixed if path.startswith("cards/")] == [
        "cards/packaged_gnome.txt",
        "cards/moon_idol.txt",
    ]
    # no custom card at all: nothing, not an edition with an empty [cards] (nor a token no card makes)
    assert write_forge_custom_set(deck_from_cards("Real", [ANGELIC_EDICT, FIRE_ICE, SPIRIT])) == {}
    script = mixed["tokens/w_1_1_spirit_flying.txt"].decode()  # named as Forge's own Spirit token script
    assert script.startswith("Name:Spirit Token\nManaCost:no cost\nColors:white\n")


# -- MTGO ------------------------------------------------------------------------------------------------
def test_mtgo_dek_reads_back() -> None:
    data = write_mtgo_dek(sample_deck())
    root = parse_xml(data)
    assert root.tag == "Deck" and root.findtext("NetDeckID") == "0"
    deck = read_dek(data)
    names = [c.get("Name") for c in root.iter("Cards")]
    assert "Fire/Ice" in names  # MTGO spells split cards with one slash
    assert ("Fire // Ice", 1, "") in _rows(deck, "main")  # which readers normalise back
    assert ("Delver of Secrets", 4, "") in _rows(deck, "main")
    assert _rows(deck, "side") == [("Bonecrusher Giant", 3, "")]
    assert all(c.get("CatID") is None for c in root.iter("Cards"))  # no MTGO ids in our card data


# -- Arena -----------------------------------------------------------------------------------------------
def test_arena_reads_back() -> None:
    text = write_arena(sample_deck())
    assert text.startswith("Deck\n2 Angelic Edict (M14) 3\n1 Fire // Ice (MH2) 290\n4 Delver of Secrets\n")
    deck = read_arena(text)
    assert [(e.name, e.count) for e in deck.sections["main"]][:3] == [
        ("Angelic Edict", 2),
        ("Fire // Ice", 1),
        ("Delver of Secrets", 4),
    ]
    assert [(e.name, e.count, e.set_code, e.collector_number) for e in deck.sections["side"]] == [
        ("Bonecrusher Giant", 3, "ELD", "115")
    ]
    assert "Commander" not in text and "Companion" not in text


def test_arena_set_renames() -> None:
    deck = ExportDeck(sections={"main": [ExportEntry(BONECRUSHER, 1, Printing("DOM", "1"))]})
    assert write_arena(deck) == "Deck\n1 Bonecrusher Giant (DAR) 1\n"


def test_commander_and_maybeboard_sections() -> None:
    deck = ExportDeck(
        name="cmd",
        sections={
            "main": [ExportEntry(ANGELIC_EDICT, 1)],
            "Removal": [ExportEntry(FIRE_ICE, 1)],
            "commander": [ExportEntry(DELVER, 1)],
            "maybeboard": [ExportEntry(BONECRUSHER, 1)],
        },
    )
    forge = read_forge(write_forge_dck(deck))
    assert _rows(forge, "main") == [("Angelic Edict", 1, ""), ("Fire // Ice", 1, "")]
    assert _rows(forge, "commander") == [("Delver of Secrets", 1, "")]
    assert "Bonecrusher" not in write_forge_dck(deck)
    arena = write_arena(deck)  # Arena's own Commander section (Brawl), before the Deck; not the sideboard
    assert arena.startswith("Commander\n1 Delver of Secrets\n\nDeck\n") and "Sideboard" not in arena


def test_arena_writes_commander_and_companion_as_arena_does() -> None:
    """The commander and companion went to the sideboard ("arena has no command zone"): Arena's import
    text has Commander and Companion sections, read back as such."""
    deck = ExportDeck(
        sections={
            "commander": [ExportEntry(DELVER, 1, Printing("MID", "47"))],
            "companion": [ExportEntry(BONECRUSHER, 1, Printing("ELD", "115"))],
            "main": [ExportEntry(ANGELIC_EDICT, 2)],
            "side": [ExportEntry(FIRE_ICE, 1)],
        },
    )
    text = write_arena(deck)
    assert text == (
        "Commander\n1 Delver of Secrets (MID) 47\n\nCompanion\n1 Bonecrusher Giant (ELD) 115\n\n"
        "Deck\n2 Angelic Edict\n\nSideboard\n1 Fire // Ice\n"
    )
    back = read_arena(text)
    assert [e.name for e in back.sections["commander"]] == ["Delver of Secrets"]
    assert [e.name for e in back.sections["companion"]] == ["Bonecrusher Giant"]
    assert [e.name for e in back.sections["side"]] == ["Fire // Ice"]
    assert moved_to_side(deck, "arena") == []


def test_forge_script_colors_of_a_devoid_card_and_a_tokens_types() -> None:
    """A colorless card with a colored cost (devoid) says ``Colors:colorless`` (Forge made it black); a
    token's ``Token`` type word is left out (Forge would take it for a creature type)."""
    stalker = Card(
        name="Hollow Stalker",
        faces=(
            Face(
                name="Hollow Stalker",
                mana_cost="{1}{B}",
                types=("Creature",),
                subtypes=("Eldrazi",),
                colors=(),
                power="2",
                toughness="1",
                oracle_text="Devoid",
            ),
        ),
    )
    assert "\nColors:colorless\n" in write_forge_script(stalker)
    spirit = creature_token("Spirit", "G", "3", "3")
    text = write_forge_script(spirit)
    assert "\nTypes:Creature Spirit\n" in text and "Colors:green" in text


def test_forge_script_lets_an_aura_be_cast_and_an_equipment_equip() -> None:
    """A custom Aura without Forge's enchant keyword goes to the graveyard when cast; Equipment without
    ``K:Equip`` never equips: both are written as Forge's current scripts have them (pacifism.txt:
    ``K:Enchant:Creature``, from which Forge makes the Aura's spell, and ``SVar:AttachAILogic:Curse``)."""
    aura = Card(
        name="Binding Chains",
        faces=(
            Face(
                name="Binding Chains",
                mana_cost="{1}{W}",
                types=("Enchantment",),
                subtypes=("Aura",),
                colors=("W",),
                oracle_text="Enchant creature\nEnchanted creature can't attack or block.",
            ),
        ),
    )
    text = write_forge_script(aura)
    assert "\nK:Enchant:Creature\nSVar:AttachAILogic:Curse\nOracle:" in text and "A:SP$" not in text
    cleaver = Card(
        name="Runed Cleaver",
        faces=(
            Face(
                name="Runed Cleaver",
                mana_cost="{2}",
                types=("Artifact",),
                subtypes=("Equipment",),
                oracle_text="Equipped creature gets +2/+0.\nEquip {1}{R} ({1}{R}: Attach to target creature"
                " you control. Equip only as a sorcery.)",
            ),
        ),
    )
    assert "\nK:Equip:1 R\n" in write_forge_script(cleaver)
    assert (
        parse_forge_script(write_forge_script(aura).encode(), source="x")
        .faces[0]
        .oracle_text.startswith("Enchant creature")
    )
