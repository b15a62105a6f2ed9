"""A designer's own Cockatrice custom-set XML, with the mistakes hand-made files have: HTML pasted into
``<text>``, no ``<colors>``, a name given twice, an MDFC written as one ``A // B`` card, a typo in a type
line, an entity nothing defines. Each is read as well as it can be, and said once (never refused but the
entity, whose position and reason are told)."""

from __future__ import annotations

import logging

import pytest

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.errors import CardDataError

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_carddatabase version="4">\n<cards>\n'
TAIL = "</cards></cockatrice_carddatabase>\n"
LOGGER = "cockatrice_ext.cards.cockatrice_xml"


def _xml(*cards: str) -> bytes:
    return (HEAD + "\n".join(cards) + "\n" + TAIL).encode("utf-8")


def _card(name: str, text: str, props: str, sets: str = "<set>FOO</set>") -> str:
    return f"<card><name>{name}</name><text>{text}</text><prop>{props}</prop>{sets}</card>"


def _read(data: bytes) -> tuple[object, list[str]]:
    said: list[str] = []
    return read_cockatrice_xml(data, name="my.xml", warn=said.append), said


BEAR = "<type>Creature — Foo</type><maintype>Creature</maintype><manacost>1G</manacost><pt>2/2</pt>"


def test_markup_in_text_is_flattened_not_dropped() -> None:
    text = "Flying<br/>When Foo Card enters, <b>draw two cards</b>, then discard a card."
    db, said = _read(_xml(_card("Foo Card", text, BEAR)))
    card = db.cards["Foo Card"]
    assert card.front.oracle_text == "Flying\nWhen Foo Card enters, draw two cards, then discard a card."
    assert len(said) == 1
    assert said[0].startswith("my.xml:4: ") and "Foo Card" in said[0] and "markup" in said[0]


def test_markup_nested_and_namespaced_keeps_every_word() -> None:
    text = '<p xmlns="http://www.w3.org/1999/xhtml">Tap: <i>add <b>{G}</b></i>.<br/>Draw.</p> End'
    db, said = _read(_xml(_card("Foo Card", text, BEAR)))
    assert db.cards["Foo Card"].front.oracle_text == "Tap: add {G}.\nDraw. End"
    assert len(said) == 1


def test_plain_text_says_nothing() -> None:
    db, said = _read(_xml(_card("Foo Card", "Flying\nTrample", BEAR)))
    assert db.cards["Foo Card"].front.oracle_text == "Flying\nTrample"
    assert said == []


def test_no_colors_takes_the_cost_s_colours() -> None:
    hybrid = "<type>Creature — Foo</type><manacost>{W/U}{G/P}1</manacost><pt>2/2</pt>"
    devoid = "<type>Creature — Eldrazi</type><manacost>2U</manacost><pt>2/2</pt>"
    db, said = _read(
        _xml(
            _card("Green Bear", "Trample", BEAR),
            _card("Hybrid Thing", "", hybrid),
            _card("Void Thing", "Devoid", devoid),
            _card("Said Colorless", "", BEAR.replace("<pt>", "<colors></colors><pt>")),
            _card("Said Red", "", BEAR.replace("<pt>", "<colors>R</colors><pt>")),
        )
    )
    assert db.cards["Green Bear"].front.colors == ("G",)
    assert db.cards["Green Bear"].color_identity == ("G",)
    assert db.cards["Hybrid Thing"].front.colors == ("W", "U", "G")
    assert db.cards["Void Thing"].front.colors == ()  # devoid: colourless whatever its cost
    assert db.cards["Said Colorless"].front.colors == ()  # an empty <colors> is the designer's word
    assert db.cards["Said Red"].front.colors == ("R",)
    assert said == []


def test_a_name_given_twice_is_said_with_both_lines() -> None:
    first = _card("Duplicate Dan", "First version.", BEAR, '<set num="12">FOO</set>')
    second = _card("Duplicate Dan", "Second version.", BEAR.replace("2/2", "3/3"), '<set num="13">FOO</set>')
    db, said = _read(_xml(first, second))
    assert db.cards["Duplicate Dan"].front.oracle_text == "First version."
    assert len(said) == 1
    assert said[0].startswith("my.xml:5: ") and "line 4" in said[0] and "Duplicate Dan" in said[0]
    assert "first is kept" in said[0]


def test_the_same_card_twice_is_another_printing_silently() -> None:
    first = _card("Dan", "Same.", BEAR, '<set num="12">FOO</set>')
    second = _card("Dan", "Same.", BEAR, '<set num="13">FOO</set>')
    db, said = _read(_xml(first, second))
    assert [p.collector_number for p in db.cards["Dan"].printings] == ["12", "13"]
    assert said == []


MDFC = _card(
    "Hill Giant Mage // Hilltop Shrine",
    "Reach\n---\nHilltop Shrine enters tapped.",
    "<layout>modal_dfc</layout><side>front</side><type>Creature — Giant Wizard // Land</type>"
    "<maintype>Creature</maintype><manacost>3R</manacost><cmc>4</cmc><colors>R</colors><pt>4/4</pt>",
    '<set picURL="https://example.com/hg.png">MDX</set>',
)


def test_mdfc_in_one_card_has_a_back_face_of_its_own() -> None:
    db, said = _read(_xml(MDFC))
    card = db.cards["Hill Giant Mage // Hilltop Shrine"]
    front, back = card.faces
    assert (front.side, front.colors) == ("a", ("R",))
    assert (back.side, back.colors, back.types) == ("b", (), ("Land",))
    assert said == []


def test_mdfc_in_one_card_is_written_with_the_picture_on_its_front_only() -> None:
    """Written back as Cockatrice XML, the back face has no picture of its own: it is not given the front's
    (Cockatrice then finds the back's image itself), and it is side back without the front's colours."""
    from lxml import etree

    from cockatrice_ext.exporters.cockatrice import write_card_database

    db, _ = _read(_xml(MDFC))
    written = etree.fromstring(write_card_database(db.cards.values(), db.sets))
    faces = {card.findtext("name"): card for card in written.iter("card")}
    front, back = faces["Hill Giant Mage"], faces["Hilltop Shrine"]
    assert front.find("set").get("picURL") == "https://example.com/hg.png"
    assert back.find("set").get("picURL") is None
    assert (back.findtext("prop/side"), back.find("prop/colors")) == ("back", None)


def test_mdfc_back_with_a_cost_takes_its_own_colours() -> None:
    props = (
        "<layout>modal_dfc</layout><side>front</side><type>Instant // Sorcery</type>"
        "<manacost>1R // 2G</manacost><colors>RG</colors>"
    )
    db, _ = _read(_xml(_card("Zap // Grow", "Zap.\n---\nGrow.", props)))
    front, back = db.cards["Zap // Grow"].faces
    assert (front.colors, back.colors, back.side) == (("R",), ("G",), "b")
    assert db.cards["Zap // Grow"].color_identity == ("R", "G")  # no <coloridentity>: both faces'


def test_transform_back_in_one_card_keeps_the_card_s_colour() -> None:
    props = (
        "<layout>transform</layout><side>front</side><type>Creature — Human // Creature — Horror</type>"
        "<manacost>1G</manacost><colors>G</colors><pt>2/1 // 4/3</pt>"
    )
    db, _ = _read(_xml(_card("Day Guy // Night Guy", "x\n---\ny", props)))
    _front, back = db.cards["Day Guy // Night Guy"].faces
    assert (back.side, back.colors) == ("b", ("G",))  # a colour indicator, as Insectile Aberration's


def test_split_card_halves_stay_front() -> None:
    props = "<layout>split</layout><type>Instant // Sorcery</type><manacost>U // 2U</manacost>"
    db, _ = _read(_xml(_card("Ebb // Flow", "a\n---\nb", props)))
    assert [f.side for f in db.cards["Ebb // Flow"].faces] == ["a", "a"]


def test_type_line_typo_is_said_with_the_closest_type() -> None:
    props = "<type>Artifact Creture — Golem</type><maintype>Creture</maintype><manacost>4</manacost>"
    db, said = _read(_xml(_card("Typo Golem", "", props)))
    assert "Creture" in db.cards["Typo Golem"].front.types  # read as written, not refused
    assert len(said) == 1
    assert said[0].startswith("my.xml:4: ") and "'Creture'" in said[0] and "'Creature'" in said[0]


def test_real_type_lines_say_nothing() -> None:
    lines = [
        "Legendary Snow Artifact Creature — Golem",
        "Token Creature — Faerie",
        "Kindred Instant — Elf",
        "Basic Land — Forest",
        "Legendary Enchantment Creature — God",
    ]
    cards = [_card(f"C{i}", "", f"<type>{line}</type>") for i, line in enumerate(lines)]
    _, said = _read(_xml(*cards))
    assert said == []


def test_undefined_entity_says_where_and_why() -> None:
    data = _xml(_card("Foo Card", "Foo &brand; bar", BEAR))
    with pytest.raises(CardDataError) as caught:
        read_cockatrice_xml(data, name="a.xml")
    error = caught.value
    assert error.line == 4 and error.column and error.column > 0
    assert "&brand;" in str(error) and "not defined" in str(error)
    assert "no element found" not in str(error)


def test_warnings_go_to_the_log_without_a_callback(caplog: pytest.LogCaptureFixture) -> None:
    text = "Flying<br/>Trample"
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        db = read_cockatrice_xml(_xml(_card("Foo Card", text, BEAR)), name="my.xml")
    assert db.cards["Foo Card"].front.oracle_text == "Flying\nTrample"
    assert any("markup" in r.getMessage() for r in caplog.records)


def test_nameless_card_is_said_through_the_callback() -> None:
    _, said = _read(_xml("<card><name></name><text>x</text></card>", _card("Foo Card", "", BEAR)))
    assert said == ["my.xml:4: card without a name skipped"]


def test_warnings_to_reaches_reads_deep_inside(tmp_path: object, caplog: pytest.LogCaptureFixture) -> None:
    from pathlib import Path

    from cockatrice_ext.cards.errors import warnings_to
    from cockatrice_ext.cards.sources import load_cards

    path = Path(str(tmp_path)) / "myset.xml"
    path.write_bytes(_xml(_card("Foo Card", "Flying<br/>Trample", BEAR)))
    said: list[str] = []
    with caplog.at_level(logging.WARNING, logger=LOGGER), warnings_to(said.append):
        db = load_cards(str(path))
    assert db.cards["Foo Card"].front.oracle_text == "Flying\nTrample"
    assert len(said) == 1 and said[0].startswith(f"{path}:4: ") and "markup" in said[0]
    assert not [r for r in caplog.records if r.name == LOGGER]
    read_cockatrice_xml(path, warn=None)  # outside the context: the log again
    assert any("markup" in r.getMessage() for r in caplog.records if r.name == LOGGER)
