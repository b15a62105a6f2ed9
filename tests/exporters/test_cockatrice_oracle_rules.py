"""Card XML as Cockatrice's Oracle builds it from the same card data: the face that makes a token is its
maker, sideways cards come into play turned (cipt), and the table row follows Oracle's main type."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from export_samples import parse_xml

from cockatrice_ext.cards.model import Card, Face, Printing
from cockatrice_ext.cli import main
from cockatrice_ext.exporters import write_card_database
from cockatrice_ext.exporters.cockatrice import tablerow


def _card(root, name: str):  # type: ignore[no-untyped-def]
    return next(c for c in root.iter("card") if c.findtext("name") == name)


def _makers(root, token: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [r.text for r in _card(root, token).findall("reverse-related")]


PLANESWALKER_DFC = Card(
    name="Moon Seer // Moon Tyrant",
    layout="transform",
    faces=(
        Face(
            name="Moon Seer",
            types=("Planeswalker",),
            subtypes=("Seer",),
            oracle_text="[+1]: Create a 2/2 green Wolf creature token.",
            loyalty="3",
        ),
        Face(
            name="Moon Tyrant",
            types=("Planeswalker",),
            subtypes=("Seer",),
            oracle_text="[+1]: Create a 1/1 black Wolf creature token with deathtouch.\n"
            '[-6]: You get an emblem with "Creatures you control have haste."',
            side="b",
        ),
    ),
    printings=(Printing(set_code="ZZT", collector_number="1"),),
    related=("Wolf Token", "Wolf Token ", "Moon Tyrant Emblem"),
)


def _token(name: str, types: tuple[str, ...], power: str | None = None, toughness: str | None = None) -> Card:
    return Card(
        name=name,
        layout="token",
        faces=(Face(name=name.strip(), types=types, subtypes=("Wolf",), power=power, toughness=toughness),),
        printings=(Printing(set_code="TZZT", collector_number="1"),),
        is_token=True,
    )


def test_a_token_a_back_face_makes_names_that_face_as_its_maker() -> None:
    cards = [
        PLANESWALKER_DFC,
        _token("Wolf Token", ("Token", "Creature"), "2", "2"),
        _token("Wolf Token ", ("Token", "Creature"), "1", "1"),
        Card(
            name="Moon Tyrant Emblem",
            layout="emblem",
            faces=(Face(name="Moon Tyrant Emblem", types=("Emblem",)),),
            printings=(Printing(set_code="TZZT", collector_number="2"),),
            is_token=True,
        ),
    ]
    root = parse_xml(write_card_database(cards))
    assert _makers(root, "Moon Tyrant Emblem") == ["Moon Tyrant"]
    assert _makers(root, "Wolf Token") == ["Moon Seer"]
    assert _makers(root, "Wolf Token ") == ["Moon Tyrant"]  # the 1/1 one: the face naming 1/1


def test_a_token_no_face_text_names_stays_with_the_front() -> None:
    card = Card(
        name="Quiet Seer // Loud Seer",
        layout="transform",
        faces=(
            Face(name="Quiet Seer", types=("Creature",)),
            Face(name="Loud Seer", types=("Creature",), side="b"),
        ),
        printings=(Printing(set_code="ZZT", collector_number="2"),),
        related=("Clue Token",),
    )
    clue = _token("Clue Token", ("Token", "Artifact"))
    root = parse_xml(write_card_database([card, clue]))
    assert _makers(root, "Clue Token") == ["Quiet Seer"]


def test_arlinn_emblem_is_made_by_the_back_face(runner: CliRunner, tmp_path: Path) -> None:
    listing = tmp_path / "arlinn.txt"
    listing.write_text("1 Arlinn Kord\n1 Huntmaster of the Fells\n", encoding="utf-8")
    out = tmp_path / "out" / "arlinn.xml"
    result = runner.invoke(main, ["export", str(listing), "--to", "cockatrice-xml", "-o", str(out)])
    assert result.exit_code == 0, result.output
    root = parse_xml(out.read_bytes())
    assert _makers(root, "Arlinn, Embraced by the Moon Emblem") == ["Arlinn, Embraced by the Moon"]
    assert set(_makers(root, "Wolf Token")) == {"Arlinn Kord", "Huntmaster of the Fells"}


def _single(name: str, layout: str, *types: str, text: str = "") -> Card:
    return Card(
        name=name,
        layout=layout,
        faces=(Face(name=name, types=types, oracle_text=text),),
        printings=(Printing(set_code="ZZT", collector_number="9"),),
    )


def test_sideways_cards_come_into_play_turned() -> None:
    split = Card(
        name="Heat // Haze",
        layout="split",
        faces=(Face(name="Heat", types=("Instant",)), Face(name="Haze", types=("Instant",))),
        printings=(Printing(set_code="ZZT", collector_number="3"),),
    )
    plane = _single("Quiet Plains", "planar", "Plane")
    battle = _single("Invasion of Nowhere", "normal", "Battle")
    bolt = _single("Plain Bolt", "normal", "Instant")
    root = parse_xml(write_card_database([split, plane, battle, bolt]))
    for name in ("Heat // Haze", "Quiet Plains", "Invasion of Nowhere"):
        card = _card(root, name)
        assert card.findtext("landscapeOrientation") == "1", name
        assert card.findtext("cipt") == "1", name
    assert _card(root, "Plain Bolt").find("cipt") is None


def test_table_row_follows_oracles_main_type() -> None:
    assert tablerow(("Land", "Creature")) == 2  # Dryad Arbor sits with the creatures
    assert tablerow(("Artifact", "Land")) == 0
    assert tablerow(("Enchantment", "Land")) == 0
    assert tablerow(("Creature", "Planeswalker")) == 1  # maintype Planeswalker
    assert tablerow(("Kindred", "Sorcery")) == 3
    root = parse_xml(write_card_database([_single("Arbor Sprite", "normal", "Land", "Creature")]))
    assert _card(root, "Arbor Sprite").findtext("tablerow") == "2"


def test_a_token_made_by_an_ability_a_back_face_grants_names_that_face() -> None:
    """Dorothea's Retribution (an Aura back face) gives "create a 4/4 white Spirit" in quotes."""
    card = Card(
        name="Grim Ghost // Grim Gift",
        layout="transform",
        faces=(
            Face(name="Grim Ghost", types=("Creature",), oracle_text="Flying"),
            Face(
                name="Grim Gift",
                types=("Enchantment",),
                subtypes=("Aura",),
                oracle_text='Enchanted creature has "Whenever this creature attacks, create a 4/4 white '
                'Spirit creature token with flying."',
                side="b",
            ),
        ),
        printings=(Printing(set_code="ZZT", collector_number="4"),),
        related=("Spirit Token",),
    )
    spirit = _token("Spirit Token", ("Token", "Creature"), "4", "4")
    root = parse_xml(write_card_database([card, spirit]))
    assert _makers(root, "Spirit Token") == ["Grim Gift"]
