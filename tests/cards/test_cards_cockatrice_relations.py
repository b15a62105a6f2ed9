"""Cockatrice XML reader: relations keep every attribute; a custom transform pair is one two-faced card."""

from __future__ import annotations

from pathlib import Path

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.model import CardDatabase, CardRelation
from cockatrice_ext.cards.resolve import NameIndex

CUSTOM = b"""<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>SMK</name><longname>Smoke Set</longname><settype>Custom</settype>
    <releasedate>2026-01-01</releasedate><priority>10</priority></set></sets>
  <cards>
    <card>
      <name>Auctioneer's Apprentice</name>
      <text>Flying</text>
      <prop><layout>transform</layout><side>front</side><type>Creature \xe2\x80\x94 Human Wizard</type>
        <maintype>Creature</maintype><manacost>1U</manacost><cmc>2</cmc><colors>U</colors>
        <coloridentity>U</coloridentity><pt>1/2</pt></prop>
      <set rarity="rare" num="2" picURL="https://example.org/front.png">SMK</set>
      <related attach="transform">Master of the Block</related>
      <related count="2" exclude="exclude">Gold Servo</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Master of the Block</name>
      <text>Flying, hexproof</text>
      <prop><layout>transform</layout><side>back</side><type>Creature \xe2\x80\x94 Human Wizard</type>
        <maintype>Creature</maintype><cmc>2</cmc><colors>U</colors><coloridentity>U</coloridentity>
        <pt>3/4</pt></prop>
      <set rarity="rare" num="2" picURL="https://example.org/back.png">SMK</set>
      <related attach="transform">Auctioneer's Apprentice</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Gold Servo</name>
      <prop><type>Token Artifact Creature \xe2\x80\x94 Servo</type><maintype>Creature</maintype>
        <pt>1/1</pt></prop>
      <set>SMK</set>
      <reverse-related count="x=1" persistent="persistent">Gavel Golem</reverse-related>
      <reverse-related attach="attach" facedown="facedown">Somebody Elsewhere</reverse-related>
      <token>1</token>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Treasure Hoarder</name>
      <prop><type>Creature \xe2\x80\x94 Dragon</type><manacost>4R</manacost><pt>4/4</pt></prop>
      <set rarity="rare" num="7">SMK</set>
      <related count="2">Treasure Token</related>
      <related count="x" exclude="exclude">Dragon Egg Token</related>
      <tablerow>2</tablerow>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def _read(data: bytes) -> CardDatabase:
    return read_cockatrice_xml(data, name="custom.xml")


def test_relations_keep_every_attribute() -> None:
    db = _read(CUSTOM)
    assert db.cards["Treasure Hoarder"].relations == (
        CardRelation("Treasure Token", count="2"),
        CardRelation("Dragon Egg Token", count="x", exclude=True),
    )
    assert db.cards["Treasure Hoarder"].related == ("Treasure Token", "Dragon Egg Token")
    assert db.cards["Gold Servo"].relations == (
        CardRelation("Gavel Golem", reverse=True, count="x=1", persistent=True),
        CardRelation("Somebody Elsewhere", reverse=True, attach="attach", facedown=True),
    )
    # links to makers outside the file stay pending for a later file, as before
    assert db.reverse_related == {"Gavel Golem": ["Gold Servo"], "Somebody Elsewhere": ["Gold Servo"]}


def test_custom_transform_pair_is_one_card_with_two_faces() -> None:
    db = _read(CUSTOM)
    assert "Auctioneer's Apprentice" not in db.cards and "Master of the Block" not in db.cards
    card = db.cards["Auctioneer's Apprentice // Master of the Block"]
    assert card.layout == "transform" and not card.is_token
    assert [(f.name, f.side, f.power, f.toughness) for f in card.faces] == [
        ("Auctioneer's Apprentice", "a", "1", "2"),
        ("Master of the Block", "b", "3", "4"),
    ]
    assert card.faces[1].oracle_text == "Flying, hexproof"
    assert card.color_identity == ("U",)
    (printing,) = card.printings
    assert (printing.set_code, printing.collector_number, printing.rarity) == ("SMK", "2", "rare")
    assert printing.pic_url == "https://example.org/front.png"
    assert printing.back_pic_url == "https://example.org/back.png"
    # the faces' own relations are kept, each on the face that holds it; the faces are not "related" cards
    assert [(r.name, r.attach, r.face) for r in card.relations] == [
        ("Master of the Block", "transform", "Auctioneer's Apprentice"),
        ("Gold Servo", "", "Auctioneer's Apprentice"),
        ("Auctioneer's Apprentice", "transform", "Master of the Block"),
    ]
    assert card.related == ("Gold Servo",)
    assert next(iter(db.cards)) == card.name  # where the front was, in file order


def test_back_face_name_resolves_with_the_warning_real_cards_get() -> None:
    index = NameIndex(_read(CUSTOM))
    front = index.resolve("Auctioneer's Apprentice")
    assert front is not None and front.card.name == "Auctioneer's Apprentice // Master of the Block"
    assert front.warnings == ()
    back = index.resolve("Master of the Block")
    assert back is not None and back.card.name == "Auctioneer's Apprentice // Master of the Block"
    assert len(back.warnings) == 1 and "back face" in back.warnings[0]


def _pair(front_props: str, back_props: str, *, back_links: bool = True, extra: str = "") -> bytes:
    back_link = "<related attach='transform'>Front</related>" if back_links else ""
    return f"""<cockatrice_carddatabase version="4"><cards>
      <card><name>Front</name><prop>{front_props}<type>Creature</type></prop><set>X</set>
        <related attach="transform">Back</related></card>
      <card><name>Back</name><prop>{back_props}<type>Creature</type></prop><set>X</set>{back_link}</card>
      {extra}
    </cards></cockatrice_carddatabase>""".encode()


def test_pairs_without_side_props_and_other_layouts() -> None:
    # no side props: the card naming the other first in the file is the front; one-way links too
    for data in (_pair("", ""), _pair("", "", back_links=False)):
        db = _read(data)
        assert list(db.cards) == ["Front // Back"] and db.cards["Front // Back"].layout == "transform"
    modal = _read(_pair("<layout>modal_dfc</layout>", "<layout>modal_dfc</layout><side>back</side>"))
    assert modal.cards["Front // Back"].layout == "modal_dfc"
    flip = _read(_pair("<layout>flip</layout>", "<layout>flip</layout><side>back</side>"))
    assert flip.cards["Front // Back"].layout == "flip"
    # a plain layout with a transform link is a transform card
    assert _read(_pair("<layout>normal</layout>", "<side>back</side>")).cards["Front // Back"].layout == (
        "transform"
    )


def test_what_is_not_joined() -> None:
    # meld cards stay apart (as the built-in data keeps them), so do two fronts and tokens (Day // Night)
    meld = _read(_pair("<layout>meld</layout>", "<layout>meld</layout><side>back</side>"))
    assert set(meld.cards) == {"Front", "Back"}
    assert meld.cards["Front"].related == ("Back",)
    fronts = _read(_pair("<side>front</side>", "<side>front</side>"))
    assert set(fronts.cards) == {"Front", "Back"}
    tokens = _read(
        b"""<cockatrice_carddatabase version="4"><cards>
      <card><name>Day</name><set>MID</set><related attach="transform">Night</related><token>1</token></card>
      <card><name>Night</name><set>MID</set><related attach="transform">Day</related><token>1</token></card>
    </cards></cockatrice_carddatabase>"""
    )
    assert set(tokens.cards) == {"Day", "Night"}
    # a back face already taken is not joined twice
    twice = _read(
        _pair(
            "",
            "<side>back</side>",
            extra="<card><name>Other</name><set>X</set><related attach='transform'>Back</related></card>",
        )
    )
    assert set(twice.cards) == {"Front // Back", "Other"}


def test_reverse_related_naming_a_back_face_lands_on_the_card() -> None:
    made_by_back = b"""<cockatrice_carddatabase version="4"><cards>
      <card><name>Clue Token</name><prop><type>Token Artifact \xe2\x80\x94 Clue</type></prop><set>X</set>
        <reverse-related>Master of the Block</reverse-related><token>1</token></card>
    </cards></cockatrice_carddatabase>"""
    db = _read(CUSTOM)
    db.merge(_read(made_by_back))  # another file, as a Cockatrice folder's tokens.xml is
    db.link_reverse_related()
    assert db.cards["Auctioneer's Apprentice // Master of the Block"].related == ("Gold Servo", "Clue Token")
    assert "Master of the Block" not in db.reverse_related


def test_real_tokens_file_keeps_every_relation(shared_cockatrice: Path) -> None:
    path = shared_cockatrice / "tokens-magic-token.xml"
    db = read_cockatrice_xml(path)
    from lxml import etree

    source = etree.parse(str(path)).getroot()
    in_file = sum(1 for e in source.iter("related", "reverse-related") if (e.text or "").strip("\r\n\t"))
    assert sum(len(card.relations) for card in db.cards.values()) == in_file
    incubator = db.cards["Incubator Token"]
    assert CardRelation("Phyrexian Token ", attach="transform") in incubator.relations
    assert CardRelation("Glistening Dawn", reverse=True, count="2") in incubator.relations
