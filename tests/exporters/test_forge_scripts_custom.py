"""Forge scripts of a designer's Cockatrice custom cards: colours come from the mana cost as Forge reads
them, and ``Colors:`` is written only where the card's colours are not its cost's (devoid, a colour
indicator); an MDFC written as one ``A // B`` card has a land back with no colour; rules text pasted with
HTML markup is all in ``Oracle:``."""

from __future__ import annotations

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.exporters.forge_scripts import write_forge_script

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_carddatabase version="4">\n<cards>\n'
TAIL = "</cards></cockatrice_carddatabase>\n"


def _script(name: str, text: str, props: str) -> str:
    data = f"{HEAD}<card><name>{name}</name><text>{text}</text><prop>{props}</prop><set>GRN9</set></card>\n"
    db = read_cockatrice_xml((data + TAIL).encode("utf-8"), name="g.xml", warn=lambda _: None)
    return write_forge_script(db.cards[name])


def test_no_colors_element_leaves_forge_to_the_cost() -> None:
    script = _script(
        "Green Bear Custom",
        "Trample",
        "<type>Creature — Bear</type><maintype>Creature</maintype><manacost>1G</manacost><pt>2/2</pt>",
    )
    assert "ManaCost:1 G" in script
    assert "Colors:" not in script


def test_hybrid_and_phyrexian_costs_need_no_colors_line() -> None:
    script = _script("Mixed Thing", "", "<type>Creature — Foo</type><manacost>{W/U}{G/P}1</manacost>")
    assert "Colors:" not in script


def test_devoid_and_colour_indicator_are_written() -> None:
    devoid = _script("Void Thing", "Devoid", "<type>Creature — Eldrazi</type><manacost>2U</manacost>")
    assert "Colors:colorless" in devoid
    indicator = _script("Blue Golem", "", "<type>Artifact Creature — Golem</type><colors>U</colors>")
    assert "Colors:blue" in indicator


def test_mdfc_land_back_has_no_colour() -> None:
    script = _script(
        "Hill Giant Mage // Hilltop Shrine",
        "Reach\n---\nHilltop Shrine enters tapped.",
        "<layout>modal_dfc</layout><side>front</side><type>Creature — Giant Wizard // Land</type>"
        "<manacost>3R</manacost><colors>R</colors><pt>4/4</pt>",
    )
    front, back = script.split("\n\nALTERNATE\n\n")
    assert "AlternateMode:Modal" in front and "Colors:" not in front
    assert "Name:Hilltop Shrine" in back and "Types:Land" in back
    assert "Colors:" not in back


def test_markup_pasted_into_text_is_all_in_the_oracle_line() -> None:
    script = _script(
        "Foo Card",
        "Flying<br/>When Foo Card enters, <b>draw two cards</b>, then discard a card.",
        "<type>Creature — Foo</type><manacost>1G</manacost><pt>2/2</pt>",
    )
    assert "K:Flying" in script
    assert "Oracle:Flying\\nWhen Foo Card enters, draw two cards, then discard a card." in script
