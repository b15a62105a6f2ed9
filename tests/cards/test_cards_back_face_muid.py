"""A double-faced card's back face keeps its own multiverse id (Oracle writes each face its own ``muid``)
through every reader, the card database writer and a read back; without one it shares the front's."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from lxml import etree

from cockatrice_ext.cards.cockatrice_xml import PARSER_SETTINGS, read_cockatrice_xml
from cockatrice_ext.cards.embedded import card_from_json, card_to_json
from cockatrice_ext.cards.mtgjson import read_mtgjson
from cockatrice_ext.cards.scryfall import card_from_scryfall
from cockatrice_ext.cards.store import CardStore, write_store
from cockatrice_ext.cards.xml_index import XmlIndexStore, build_index
from cockatrice_ext.exporters.cockatrice import write_card_database

DELVER = "Delver of Secrets // Insectile Aberration"
# Oracle's shape: one <card> per face, each <set> with that face's own muid (Gatherer's ids for ISD 51)
ORACLE = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>ISD</name><longname>Innistrad</longname><settype>Expansion</settype>
    <releasedate>2011-09-30</releasedate><priority>10</priority></set></sets>
  <cards>
    <card><name>Delver of Secrets</name><text>At the beginning of your upkeep, look at the top card.</text>
      <prop><layout>transform</layout><side>front</side><type>Creature \u2014 Human Wizard</type>
        <maintype>Creature</maintype><manacost>U</manacost><cmc>1</cmc><colors>U</colors><pt>1/1</pt></prop>
      <set rarity="common" uuid="11bf83bb-c95b-4b4f-9a56-ce7a1816307a" num="51"{front}>ISD</set>
      <related attach="transform">Insectile Aberration</related><tablerow>2</tablerow></card>
    <card><name>Insectile Aberration</name><text>Flying</text>
      <prop><layout>transform</layout><side>back</side><type>Creature \u2014 Human Insect</type>
        <maintype>Creature</maintype><cmc>1</cmc><colors>U</colors><pt>3/2</pt></prop>
      <set rarity="common" uuid="11bf83bb-c95b-4b4f-9a56-ce7a1816307a" num="51"{back}>ISD</set>
      <related attach="transform">Delver of Secrets</related><tablerow>2</tablerow></card>
  </cards>
</cockatrice_carddatabase>
"""


def _muids(xml: bytes) -> dict[str, list[str | None]]:
    """Each written ``<card>``'s name -> the ``muid`` of each of its ``<set>``s."""
    root = etree.fromstring(xml, etree.XMLParser(**PARSER_SETTINGS))
    return {card.findtext("name"): [s.get("muid") for s in card.iter("set")] for card in root.iter("card")}


def _oracle(front: str, back: str) -> bytes:
    return ORACLE.format(front=front, back=back).encode("utf-8")


def test_oracle_shaped_back_face_keeps_its_muid_through_a_round_trip() -> None:
    card = read_cockatrice_xml(_oracle(' muid="226749"', ' muid="226755"'), name="cards.xml").cards[DELVER]
    written = write_card_database([card])
    assert _muids(written) == {"Delver of Secrets": ["226749"], "Insectile Aberration": ["226755"]}
    assert [(p.multiverse_id, p.back_multiverse_id) for p in card.printings] == [("226749", "226755")]
    again = read_cockatrice_xml(written, name="again.xml").cards[DELVER]
    assert _muids(write_card_database([again])) == _muids(written)


def test_back_face_without_a_muid_shares_the_front_one() -> None:
    card = read_cockatrice_xml(_oracle(' muid="226749"', ""), name="cards.xml").cards[DELVER]
    assert _muids(write_card_database([card])) == {
        "Delver of Secrets": ["226749"],
        "Insectile Aberration": ["226749"],
    }


def test_printing_only_the_back_gives_keeps_its_muid_on_the_back() -> None:
    xml = _oracle(' muid="226749"', ' muid="226755"').replace(b'num="51" muid="226755">ISD', b'muid="9">PRM')
    card = read_cockatrice_xml(xml, name="cards.xml").cards[DELVER]
    written = _muids(write_card_database([card]))
    assert written["Delver of Secrets"] == ["226749", None]
    assert written["Insectile Aberration"] == ["226749", "9"]


def test_indexed_cards_xml_keeps_the_back_muid(tmp_path: Path) -> None:
    source = tmp_path / "cards.xml"
    source.write_bytes(_oracle(' muid="226749"', ' muid="226755"'))
    assert build_index(source, tmp_path / "index.sqlite3", {})
    found = XmlIndexStore(tmp_path / "index.sqlite3", source, label="x").cards_for(["Insectile Aberration"])
    assert [p.back_multiverse_id for p in found.cards[DELVER].printings] == ["226755"]


def test_mtgjson_back_face_muid_survives_writer_and_read_back(mtgjson_extract: dict[str, Path]) -> None:
    card = read_mtgjson(mtgjson_extract["allprintings_json"]).cards[DELVER]
    written = write_card_database([card])
    muids = _muids(written)
    assert "226749" in muids["Delver of Secrets"] and "226755" not in muids["Delver of Secrets"]
    assert "226755" in muids["Insectile Aberration"] and "226749" not in muids["Insectile Aberration"]
    isd = [p for p in card.printings if p.set_code == "ISD"]
    assert [(p.multiverse_id, p.back_multiverse_id) for p in isd] == [("226749", "226755")]
    again = read_cockatrice_xml(written, name="again.xml").cards[DELVER]
    assert _muids(write_card_database([again])) == muids


def test_cached_and_embedded_forms_keep_the_back_muid(tmp_path: Path) -> None:
    card = read_cockatrice_xml(_oracle(' muid="226749"', ' muid="226755"'), name="cards.xml").cards[DELVER]
    back = card_from_json(card_to_json(card), {})
    assert [p.back_multiverse_id for p in back.printings] == ["226755"]
    shared = replace(card, printings=tuple(replace(p, back_multiverse_id="") for p in card.printings))
    assert "backs" not in card_to_json(shared)  # a file without back muids is written as before
    db = read_cockatrice_xml(_oracle(' muid="226749"', ' muid="226755"'), name="cards.xml")
    for compact, expected in ((False, ["226755"]), (True, [""])):  # the shipped file keeps no muids
        write_store(db, tmp_path / f"{compact}.sqlite3", meta={}, compact=compact, level=1)
        stored = CardStore(tmp_path / f"{compact}.sqlite3").find(DELVER)
        assert stored is not None and [p.back_multiverse_id for p in stored.printings] == expected


def test_scryfall_double_faced_card_gives_the_back_its_muid() -> None:
    obj = {
        "name": DELVER,
        "layout": "transform",
        "set": "isd",
        "collector_number": "51",
        "multiverse_ids": [226749, 226755],
        "card_faces": [
            {"name": "Delver of Secrets", "type_line": "Creature — Human Wizard", "mana_cost": "{U}"},
            {"name": "Insectile Aberration", "type_line": "Creature — Human Insect", "mana_cost": ""},
        ],
    }
    card = card_from_scryfall(obj)
    assert [(p.multiverse_id, p.back_multiverse_id) for p in card.printings] == [("226749", "226755")]
    single = card_from_scryfall({"name": "Shock", "set": "m19", "multiverse_ids": [447190]})
    assert [(p.multiverse_id, p.back_multiverse_id) for p in single.printings] == [("447190", "")]
