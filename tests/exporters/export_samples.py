"""Hand-built cards covering every naming rule the exporters must get right, and the Cockatrice schemas.

Imported by the exporter tests as ``export_samples`` (a unique module name: ``conftest`` is taken).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import shared_paths
from lxml import etree

from cockatrice_ext.cards.model import Card, CardSet, Face, Printing
from cockatrice_ext.exporters import ExportDeck, ExportEntry

# Cockatrice's XSDs are GPL text and are not copied into this repository; point
# $COCKATRICE_SCHEMAS at a folder holding deck.xsd and cards-v4.xsd (doc/ in Cockatrice's source).
SCHEMAS = shared_paths.SCHEMAS


def schema_path(name: str) -> Path:
    if (SCHEMAS / name).is_file():
        return SCHEMAS / name
    pytest.skip(f"Cockatrice schema {name} not available (set COCKATRICE_SCHEMAS)")


@functools.cache
def load_schema(name: str, *, cod_printing_attributes: bool = False) -> etree.XMLSchema:
    """An XSD from the Cockatrice repository; optionally ``deck.xsd`` plus the printing attributes.

    Cockatrice's ``deck.xsd`` predates the ``setShortName``/``collectorNumber``/``uuid`` card
    attributes its reader and writer use today (deck_list.cpp); the extended variant adds
    exactly those three optional string attributes and nothing else.
    """
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    doc = etree.parse(str(schema_path(name)), parser)
    if cod_printing_attributes:
        xs = "{http://www.w3.org/2001/XMLSchema}"
        for ext in doc.iter(f"{xs}extension"):
            names = {a.get("name") for a in ext.findall(f"{xs}attribute")}
            if "number" in names:
                for extra in ("setShortName", "collectorNumber", "uuid"):
                    etree.SubElement(ext, f"{xs}attribute", name=extra, type="xs:string", use="optional")
    return etree.XMLSchema(doc)


def parse_xml(data: bytes) -> etree._Element:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.fromstring(data, parser)


def face(name: str, **kw: object) -> Face:
    return Face(name=name, **kw)  # type: ignore[arg-type]


def creature_token(name: str, color: str, power: str, toughness: str, oracle_text: str = "") -> Card:
    """A one-colour creature token of subtype ``name``, as a designer's list makes one."""
    token_face = face(
        name,
        types=("Token", "Creature"),
        subtypes=(name,),
        colors=(color,),
        power=power,
        toughness=toughness,
        oracle_text=oracle_text,
    )
    return Card(name=name, faces=(token_face,), is_token=True)


def instant_xml(name: str, text: str, set_code: str, number: int) -> str:
    """One red one-mana instant as a designer's Cockatrice card XML holds it (a ``<card>`` element)."""
    return (
        f"<card><name>{name}</name><text>{text}</text><prop><type>Instant</type><maintype>Instant</maintype>"
        f"<manacost>R</manacost><cmc>1</cmc><colors>R</colors></prop>"
        f'<set rarity="common" num="{number}">{set_code}</set></card>'
    )


ANGELIC_EDICT = Card(
    name="Angelic Edict",
    faces=(
        face(
            "Angelic Edict",
            mana_cost="{4}{W}",
            mana_value=5,
            colors=("W",),
            types=("Sorcery",),
            type_line="Sorcery",
            oracle_text="Exile target creature or enchantment.",
        ),
    ),
    color_identity=("W",),
    printings=(Printing("M14", "3", "common", scryfall_id="11111111-2222-3333-4444-555555555555"),),
)
FIRE_ICE = Card(
    name="Fire // Ice",
    layout="split",
    faces=(
        face(
            "Fire",
            mana_cost="{1}{R}",
            mana_value=2,
            colors=("R",),
            types=("Instant",),
            type_line="Instant",
            oracle_text="Fire deals 2 damage divided as you choose among one or two targets.",
        ),
        face(
            "Ice",
            mana_cost="{1}{U}",
            mana_value=2,
            colors=("U",),
            types=("Instant",),
            type_line="Instant",
            oracle_text="Tap target permanent.\nDraw a card.",
            side="b",
        ),
    ),
    color_identity=("U", "R"),
    printings=(Printing("MH2", "290", "uncommon"),),
)
DELVER = Card(
    name="Delver of Secrets // Insectile Aberration",
    layout="transform",
    faces=(
        face(
            "Delver of Secrets",
            mana_cost="{U}",
            mana_value=1,
            colors=("U",),
            types=("Creature",),
            subtypes=("Human", "Wizard"),
            type_line="Creature — Human Wizard",
            power="1",
            toughness="1",
            oracle_text="At the beginning of your upkeep, look at the top card of your library.",
        ),
        face(
            "Insectile Aberration",
            colors=("U",),
            types=("Creature",),
            subtypes=("Human", "Insect"),
            type_line="Creature — Human Insect",
            power="3",
            toughness="2",
            oracle_text="Flying",
            side="b",
        ),
    ),
    color_identity=("U",),
    printings=(Printing("ISD", "51", "common"),),
)
BONECRUSHER = Card(
    name="Bonecrusher Giant // Stomp",
    layout="adventure",
    faces=(
        face(
            "Bonecrusher Giant",
            mana_cost="{2}{R}",
            mana_value=3,
            colors=("R",),
            types=("Creature",),
            subtypes=("Giant",),
            type_line="Creature — Giant",
            power="4",
            toughness="3",
            oracle_text="Whenever Bonecrusher Giant becomes the target of a spell, it deals 2 damage to that "
            "spell's controller.",
        ),
        face(
            "Stomp",
            mana_cost="{1}{R}",
            mana_value=2,
            colors=("R",),
            types=("Instant",),
            subtypes=("Adventure",),
            type_line="Instant — Adventure",
            oracle_text="Stomp deals 2 damage to any target.",
            side="b",
        ),
    ),
    color_identity=("R",),
    printings=(Printing("ELD", "115", "rare"),),
)
MINSC = Card(
    name='Minsc & Boo, "Timeless" <Heroes>',
    faces=(
        face(
            'Minsc & Boo, "Timeless" <Heroes>',
            mana_cost="{R}{G}",
            mana_value=2,
            colors=("R", "G"),
            supertypes=("Legendary",),
            types=("Planeswalker",),
            subtypes=("Minsc",),
            loyalty="3",
            oracle_text="When Minsc & Boo enters and at the beginning of your upkeep, you may create Boo.",
        ),
    ),
    color_identity=("R", "G"),
    related=("Spirit",),
)
GUILDGATE = Card(
    name="Azorius Guildgate",
    faces=(
        face(
            "Azorius Guildgate",
            types=("Land",),
            subtypes=("Gate",),
            type_line="Land — Gate",
            oracle_text="Azorius Guildgate enters tapped.\n{T}: Add {W} or {U}.",
        ),
    ),
    printings=(Printing("RNA", "243", "common"),),
)
SPIRIT = Card(
    name="Spirit",
    layout="token",
    faces=(
        face(
            "Spirit",
            colors=("W",),
            types=("Creature",),
            subtypes=("Spirit",),
            type_line="Token Creature — Spirit",
            power="1",
            toughness="1",
            oracle_text="Flying",
        ),
    ),
    printings=(Printing("TM14", "1", "token"),),
    is_token=True,
)
SPECTRAL = Card(
    name="Spectral Procession",
    faces=(
        face(
            "Spectral Procession",
            mana_cost="{2/W}{2/W}{2/W}",
            mana_value=6,
            colors=("W",),
            types=("Sorcery",),
            type_line="Sorcery",
            oracle_text="Create three 1/1 white Spirit creature tokens with flying.",
        ),
    ),
    color_identity=("W",),
    printings=(Printing("SHM", "14", "uncommon"),),
    related=("Spirit",),
)

ALL_CARDS = (ANGELIC_EDICT, FIRE_ICE, DELVER, BONECRUSHER, MINSC, GUILDGATE, SPECTRAL, SPIRIT)
SETS = {
    "M14": CardSet("M14", "Magic 2014", "core", "2013-07-19"),
    "MH2": CardSet("MH2", "Modern Horizons 2", "draft_innovation", "2021-06-18"),
}


def sample_deck() -> ExportDeck:
    """A deck with every kind of card, a pinned printing, a sideboard and a token."""
    deck = ExportDeck(name="Sample & <Test>", comments='Line one\nLine "two" & more')
    deck.sections["main"] = [
        ExportEntry(ANGELIC_EDICT, 2, ANGELIC_EDICT.printings[0]),
        ExportEntry(FIRE_ICE, 1, FIRE_ICE.printings[0]),
        ExportEntry(DELVER, 4),
        ExportEntry(MINSC, 1),
        ExportEntry(GUILDGATE, 1, GUILDGATE.printings[0]),
        ExportEntry(SPECTRAL, 1),
    ]
    deck.sections["side"] = [ExportEntry(BONECRUSHER, 3, BONECRUSHER.printings[0])]
    deck.sections["tokens"] = [ExportEntry(SPIRIT, 1)]
    deck.sets = dict(SETS)
    return deck
