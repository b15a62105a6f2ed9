"""Cockatrice writers: .cod, card database v4, clipboard text — schema-valid, readable back, exact."""

from __future__ import annotations

from export_samples import (
    ALL_CARDS,
    BONECRUSHER,
    DELVER,
    FIRE_ICE,
    GUILDGATE,
    MINSC,
    SETS,
    SPECTRAL,
    SPIRIT,
    load_schema,
    parse_xml,
    sample_deck,
)

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.model import Card, CardSet, Face, Printing
from cockatrice_ext.decks.readers import read_cod, read_text
from cockatrice_ext.exporters import ExportDeck, ExportEntry, write_card_database, write_cod, write_text
from cockatrice_ext.exporters.cockatrice import maintype, mana_cost_text, tablerow


def _zone_rows(data: bytes) -> dict[str, list[tuple[str, int, str, str]]]:
    deck = read_cod(data, "test.cod")
    return {
        zone: [(e.name, e.count, e.set_code, e.collector_number) for e in entries]
        for zone, entries in deck.sections.items()
    }


# -- .cod ------------------------------------------------------------------------------------------
def test_cod_without_printings_is_valid_against_cockatrice_deck_xsd() -> None:
    data = write_cod(sample_deck(), printings=False)
    schema = load_schema("deck.xsd")
    doc = parse_xml(data)
    assert schema.validate(doc), schema.error_log


def test_cod_with_printings_is_valid_against_deck_xsd_plus_printing_attributes() -> None:
    data = write_cod(sample_deck())
    schema = load_schema("deck.xsd", cod_printing_attributes=True)
    assert schema.validate(parse_xml(data)), schema.error_log
    # and the strict, older schema rejects exactly those attributes, nothing else
    strict = load_schema("deck.xsd")
    assert not strict.validate(parse_xml(data))
    allowed = ("setShortName", "collectorNumber", "uuid")
    assert all(any(a in e.message for a in allowed) for e in strict.error_log)


def test_cod_reads_back_with_cockatrice_names_and_printings() -> None:
    rows = _zone_rows(write_cod(sample_deck()))
    assert rows["main"] == [
        ("Angelic Edict", 2, "M14", "3"),
        ("Fire // Ice", 1, "MH2", "290"),  # split cards keep both halves
        ("Delver of Secrets", 4, "", ""),  # transform cards: front face only
        ('Minsc & Boo, "Timeless" <Heroes>', 1, "", ""),
        ("Azorius Guildgate", 1, "RNA", "243"),
        ("Spectral Procession", 1, "", ""),
    ]
    assert rows["side"] == [("Bonecrusher Giant // Stomp", 3, "ELD", "115")]  # adventure: whole name
    assert rows["tokens"] == [("Spirit Token", 1, "", "")]  # Magic-Token spelling


def test_cod_header_and_uuid() -> None:
    data = write_cod(sample_deck())
    root = parse_xml(data)
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">')
    assert root.findtext("deckname") == "Sample & <Test>"
    assert root.findtext("comments") == 'Line one\nLine "two" & more'
    edict = root.find("zone/card[@name='Angelic Edict']")
    assert edict is not None and edict.get("uuid") == "11111111-2222-3333-4444-555555555555"


def test_cod_sums_duplicate_lines_and_drops_empty_zones() -> None:
    deck = ExportDeck(name="d")
    deck.sections["main"] = [ExportEntry(FIRE_ICE, 1), ExportEntry(FIRE_ICE, 2), ExportEntry(DELVER, 0)]
    deck.sections["Removal"] = [ExportEntry(GUILDGATE, 1)]  # other sections fold into main
    rows = _zone_rows(write_cod(deck))
    assert rows == {"main": [("Fire // Ice", 3, "", ""), ("Azorius Guildgate", 1, "", "")]}


def test_cod_strips_characters_xml_cannot_carry() -> None:
    nasty = Card(name="Bad\x00Name\x1f\ud800", faces=(Face(name="Bad\x00Name\x1f\ud800"),))
    deck = ExportDeck(name="x\x07y", sections={"main": [ExportEntry(nasty, 1)]})
    data = write_cod(deck)
    assert _zone_rows(data)["main"] == [("BadName", 1, "", "")]
    assert parse_xml(data).findtext("deckname") == "xy"


def test_cod_is_deterministic() -> None:
    assert write_cod(sample_deck()) == write_cod(sample_deck())


# -- clipboard text ------------------------------------------------------------------------------------
def test_text_reads_back_with_cockatrice_rules() -> None:
    text = write_text(sample_deck())
    deck = read_text(text)
    assert deck.name == "Sample & <Test>"
    main = [(e.name, e.count, e.set_code, e.collector_number) for e in deck.sections["main"]]
    assert main[0] == ("Angelic Edict", 2, "M14", "3")
    assert ("Delver of Secrets", 4, "", "") in main
    assert [(e.name, e.count) for e in deck.sections["side"]] == [("Bonecrusher Giant // Stomp", 3)]


def test_text_never_writes_a_set_without_a_number_or_a_short_code() -> None:
    deck = ExportDeck(name="")
    deck.sections["main"] = [
        ExportEntry(FIRE_ICE, 1, Printing("MH2", "")),
        ExportEntry(DELVER, 1, Printing("XL", "12")),
        ExportEntry(GUILDGATE, 1, Printing("RNA", "243a")),
    ]
    assert write_text(deck) == "1 Fire // Ice\n1 Delver of Secrets\n1 Azorius Guildgate\n"


def test_text_sideboard_only_uses_sb_prefix() -> None:
    deck = ExportDeck(name="", sections={"side": [ExportEntry(FIRE_ICE, 2)]})
    assert write_text(deck) == "SB: 2 Fire // Ice\n"
    assert [(e.name, e.count) for e in read_text(write_text(deck)).sections["side"]] == [("Fire // Ice", 2)]


# -- card database v4 ----------------------------------------------------------------------------------
def _cards_xml(**kw: object) -> bytes:
    return write_card_database(ALL_CARDS, SETS, **kw)  # type: ignore[arg-type]


def test_card_database_is_valid_against_cards_v4_xsd() -> None:
    schema = load_schema("cards-v4.xsd")
    for data in (_cards_xml(), _cards_xml(custom_set=CardSet("AUC", "Auction", "Custom", "2014-06-01"))):
        assert schema.validate(parse_xml(data)), schema.error_log


def test_card_database_follows_cockatrice_naming_rules() -> None:
    root = parse_xml(_cards_xml())
    names = [c.findtext("name") for c in root.iter("card")]
    assert names == [
        "Angelic Edict",
        "Fire // Ice",
        "Delver of Secrets",
        "Insectile Aberration",
        "Bonecrusher Giant // Stomp",
        'Minsc & Boo, "Timeless" <Heroes>',
        "Azorius Guildgate",
        "Spectral Procession",
        "Spirit Token",
    ]


def _card(root, name: str):  # type: ignore[no-untyped-def]
    return next(c for c in root.iter("card") if c.findtext("name") == name)


def test_card_database_props_and_relations() -> None:
    root = parse_xml(_cards_xml())
    fire = _card(root, "Fire // Ice")
    assert fire.findtext("text").startswith("Fire deals 2") and "\n\n---\n\nTap target" in fire.findtext(
        "text"
    )
    assert fire.findtext("prop/manacost") == "1R // 1U"
    assert fire.findtext("prop/cmc") == "4"  # both halves
    assert fire.findtext("prop/colors") == "UR"
    assert fire.findtext("landscapeOrientation") == "1"
    assert fire.findtext("tablerow") == "3"

    delver = _card(root, "Delver of Secrets")
    back = _card(root, "Insectile Aberration")
    assert [(r.text, r.get("attach")) for r in delver.findall("related")] == [
        ("Insectile Aberration", "transform")
    ]
    assert [(r.text, r.get("attach")) for r in back.findall("related")] == [
        ("Delver of Secrets", "transform")
    ]
    assert delver.findtext("prop/side") == "front" and back.findtext("prop/side") == "back"
    assert back.findtext("prop/pt") == "3/2" and back.findtext("prop/cmc") == "0"
    assert delver.findtext("prop/type") == "Creature — Human Wizard"
    assert delver.findtext("tablerow") == "2"

    giant = _card(root, "Bonecrusher Giant // Stomp")
    assert giant.findtext("prop/maintype") == "Creature"
    assert giant.findtext("prop/cmc") == "3"  # adventure: the creature's mana value
    assert giant.find("landscapeOrientation") is None

    gate = _card(root, "Azorius Guildgate")
    assert gate.findtext("cipt") == "1" and gate.findtext("tablerow") == "0"

    spirit = _card(root, "Spirit Token")
    assert spirit.findtext("token") == "1"
    assert sorted(r.text for r in spirit.findall("reverse-related")) == [
        'Minsc & Boo, "Timeless" <Heroes>',
        "Spectral Procession",
    ]
    assert _card(root, "Spectral Procession").find("related") is None  # the token names its maker

    minsc = _card(root, 'Minsc & Boo, "Timeless" <Heroes>')
    assert minsc.findtext("prop/loyalty") == "3" and minsc.findtext("prop/maintype") == "Planeswalker"


def test_card_database_sets_always_have_priority() -> None:
    root = parse_xml(_cards_xml())
    sets = {s.findtext("name"): s for s in root.find("sets")}
    assert sorted(sets) == ["CUSTOM", "ELD", "ISD", "M14", "MH2", "RNA", "SHM", "TM14"]
    assert all(s.findtext("priority") for s in sets.values())
    assert sets["M14"].findtext("longname") == "Magic 2014"
    assert sets["M14"].findtext("releasedate") == "2013-07-19"
    assert sets["M14"].findtext("priority") == "10"
    # Minsc has no printing: it lands in the CUSTOM fallback set, numbered by position
    minsc_set = _card(root, 'Minsc & Boo, "Timeless" <Heroes>').find("set")
    assert minsc_set.text == "CUSTOM" and minsc_set.get("num") == "5"


def test_custom_set_gives_every_card_one_printing_in_it() -> None:
    root = parse_xml(_cards_xml(custom_set=CardSet("AUC", "Auction", "Custom", "2014-06-01")))
    assert [s.findtext("name") for s in root.find("sets")] == ["AUC"]
    printings = [
        (c.findtext("name"), c.find("set").get("num"), c.find("set").get("rarity")) for c in root.iter("card")
    ]
    assert printings[0] == ("Angelic Edict", "1", "common")
    assert all(len(c.findall("set")) == 1 and c.findtext("set") == "AUC" for c in root.iter("card"))


def test_card_database_reads_back_through_the_card_layer() -> None:
    db = read_cockatrice_xml(_cards_xml(), name="roundtrip.xml")
    # the two faces of a double-faced card, linked by attach="transform", read back as one card
    assert set(db.cards) >= {
        "Angelic Edict",
        "Fire // Ice",
        "Delver of Secrets // Insectile Aberration",
        "Spirit Token",
    }
    delver = db.cards["Delver of Secrets // Insectile Aberration"]
    assert delver.layout == "transform" and [f.name for f in delver.faces] == [f.name for f in DELVER.faces]
    edict = db.cards["Angelic Edict"]
    assert edict.mana_cost in ("{4}{W}", "4W")
    assert edict.types == ("Sorcery",)
    assert {(p.set_code, p.collector_number, p.rarity) for p in edict.printings} == {("M14", "3", "common")}
    assert "Spirit Token" in db.cards["Spectral Procession"].related  # reverse-related linked back
    assert db.sets["M14"].name == "Magic 2014"


def test_card_database_merges_cards_sharing_a_name() -> None:
    again = Card(name="Angelic Edict", faces=FIRE_ICE.faces[:1], printings=(Printing("M15", "9", "common"),))
    root = parse_xml(write_card_database([ALL_CARDS[0], again]))
    cards = list(root.iter("card"))
    assert len(cards) == 1
    assert [s.text for s in cards[0].findall("set")] == ["M14", "M15"]


def test_card_database_is_deterministic() -> None:
    assert _cards_xml() == _cards_xml()


def test_helpers() -> None:
    assert mana_cost_text("{2}{W/U}{X}{G/P}") == "2{W/U}X{G/P}"
    assert mana_cost_text("") == ""
    assert maintype(("Artifact", "Creature")) == "Creature"
    assert maintype(("Battle",)) == "Battle"
    assert tablerow(("Artifact", "Land")) == 0 and tablerow(("Enchantment",)) == 1


def test_spirit_and_bonecrusher_fixtures_are_what_the_tests_think() -> None:
    # guards the fixtures themselves: the naming assertions above rely on these layouts
    assert SPIRIT.is_token and BONECRUSHER.layout == "adventure" and DELVER.layout == "transform"
    assert SPECTRAL.related == ("Spirit",) and MINSC.related == ("Spirit",)


def test_cod_commander_goes_to_side_and_maybeboard_keeps_its_zone() -> None:
    deck = ExportDeck(
        name="cmd",
        sections={
            "main": [ExportEntry(GUILDGATE, 1)],
            "commander": [ExportEntry(MINSC, 1)],
            "maybeboard": [ExportEntry(FIRE_ICE, 2)],
        },
    )
    rows = _zone_rows(write_cod(deck))
    assert rows == {
        "main": [("Azorius Guildgate", 1, "", "")],
        "side": [('Minsc & Boo, "Timeless" <Heroes>', 1, "", "")],
        "maybeboard": [("Fire // Ice", 2, "", "")],
    }
