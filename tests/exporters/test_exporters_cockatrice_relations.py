"""Card-database XML: relations kept through read -> write; a custom transform pair exported as real DFCs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import shared_paths
from click.testing import CliRunner
from export_samples import ALL_CARDS, SETS, load_schema, parse_xml
from lxml import etree

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.model import Card, CardRelation, Face, Printing
from cockatrice_ext.cli import main
from cockatrice_ext.decks.readers import read_cod
from cockatrice_ext.exporters import write_card_database

CUSTOM = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>SMK</name><longname>Smoke Set</longname><settype>Custom</settype>
    <releasedate>2026-01-01</releasedate><priority>10</priority></set></sets>
  <cards>
    <card>
      <name>Gavel Golem</name>
      <text>Whenever you win an auction, create a 1/1 colorless Gold Servo artifact creature token.</text>
      <prop><layout>normal</layout><side>front</side><type>Artifact Creature — Golem</type>
        <maintype>Creature</maintype><manacost>3</manacost><cmc>3</cmc><pt>2/2</pt></prop>
      <set rarity="uncommon" num="1">SMK</set>
      <related count="1">Gold Servo</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Auctioneer's Apprentice</name>
      <text>Flying</text>
      <prop><layout>transform</layout><side>front</side><type>Creature — Human Wizard</type>
        <maintype>Creature</maintype><manacost>1U</manacost><cmc>2</cmc><colors>U</colors>
        <coloridentity>U</coloridentity><pt>1/2</pt></prop>
      <set rarity="rare" num="2" picURL="https://example.org/front.png">SMK</set>
      <related attach="transform">Master of the Block</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Master of the Block</name>
      <text>Flying, hexproof</text>
      <prop><layout>transform</layout><side>back</side><type>Creature — Human Wizard</type>
        <maintype>Creature</maintype><cmc>2</cmc><colors>U</colors><coloridentity>U</coloridentity>
        <pt>3/4</pt></prop>
      <set rarity="rare" num="2" picURL="https://example.org/back.png">SMK</set>
      <related attach="transform">Auctioneer's Apprentice</related>
      <related count="2" exclude="exclude">Treasure Token</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Gold Servo</name>
      <text></text>
      <prop><type>Token Artifact Creature — Servo</type><maintype>Creature</maintype><pt>1/1</pt>
        <cmc>0</cmc></prop>
      <set>SMK</set>
      <reverse-related>Gavel Golem</reverse-related>
      <reverse-related count="x=2" persistent="persistent">Hammer of Elsewhere</reverse-related>
      <token>1</token>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Treasure Hoarder</name>
      <text>When Treasure Hoarder enters the battlefield, create two Treasure tokens.</text>
      <prop><layout>normal</layout><type>Creature — Dragon</type><maintype>Creature</maintype>
        <manacost>4R</manacost><cmc>5</cmc><colors>R</colors><pt>4/4</pt></prop>
      <set rarity="rare" num="7">SMK</set>
      <related count="2">Treasure Token</related>
      <related count="x" exclude="exclude">Dragon Egg Token</related>
      <related attach="attach" facedown="facedown">Aura Elsewhere</related>
      <tablerow>2</tablerow>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    return CliRunner()


@pytest.fixture
def custom(tmp_path: Path) -> Path:
    path = tmp_path / "custom.xml"
    path.write_text(CUSTOM, encoding="utf-8")
    return path


def _export(runner: CliRunner, source: Path, fmt: str, out: Path, *extra: str):  # type: ignore[no-untyped-def]
    result = runner.invoke(
        main, ["export", str(source), "--to", fmt, "-o", str(out), *extra], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return result


Relation = tuple[str, str, str, tuple[tuple[str, str], ...]]


def _relations(root: etree._Element) -> Counter[Relation]:
    """(card, related or reverse-related, named card, attributes) of every relation in a card database."""
    out: Counter[Relation] = Counter()
    for card in root.iter("card"):
        name = card.findtext("name") or ""
        for rel in card:
            if rel.tag in ("related", "reverse-related"):
                out[(name, str(rel.tag), rel.text or "", tuple(sorted(rel.attrib.items())))] += 1
    return out


def _unheld(relations: Counter[Relation]) -> Counter[tuple[str, str, tuple[tuple[str, str], ...]]]:
    """The same relations without the name of the card holding them."""
    out: Counter[tuple[str, str, tuple[tuple[str, str], ...]]] = Counter()
    for (_, tag, name, attrs), count in relations.items():
        out[(tag, name, attrs)] += count
    return out


def _card(root: etree._Element, name: str) -> etree._Element:
    return next(c for c in root.iter("card") if c.findtext("name") == name)


def _valid(data: bytes) -> etree._Element:
    """``data`` parsed, and validated against Cockatrice's cards-v4.xsd when ../shared has it (the other
    checks run without it)."""
    root = parse_xml(data)
    if (shared_paths.SCHEMAS / "cards-v4.xsd").is_file():
        schema = load_schema("cards-v4.xsd")
        assert schema.validate(root), schema.error_log
    return root


def test_outputs_with_relations_are_valid_against_cards_v4_xsd(custom: Path) -> None:
    schema = load_schema("cards-v4.xsd")  # skips without ../shared
    cards = read_cockatrice_xml(custom).cards.values()
    assert schema.validate(parse_xml(write_card_database(cards))), schema.error_log


# -- A: relations survive read -> write -------------------------------------------------------------------
def test_cli_cockatrice_xml_keeps_every_relation_and_attribute(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.xml"
    _export(runner, custom, "cockatrice-xml", out)
    root = _valid(out.read_bytes())
    assert _relations(root) == _relations(parse_xml(CUSTOM.encode()))
    hoarder = _card(root, "Treasure Hoarder")
    assert [(r.text, dict(r.attrib)) for r in hoarder.findall("related")] == [
        ("Treasure Token", {"count": "2"}),
        ("Dragon Egg Token", {"count": "x", "exclude": "exclude"}),
        ("Aura Elsewhere", {"attach": "attach", "facedown": "facedown"}),
    ]
    servo = _card(root, "Gold Servo")
    assert [(r.text, dict(r.attrib)) for r in servo.findall("reverse-related")] == [
        ("Gavel Golem", {}),
        ("Hammer of Elsewhere", {"count": "x=2", "persistent": "persistent"}),  # maker not in the file
    ]


@pytest.mark.parametrize("name", ["examples/tokens_snippet.xml", "cockatrice/tokens-magic-token.xml"])
def test_cli_cockatrice_xml_keeps_a_tokens_files_links_to_makers(
    runner: CliRunner, tmp_path: Path, name: str
) -> None:
    source = shared_paths.SHARED / name
    if not source.is_file():
        pytest.skip(f"{source} not available")
    out = tmp_path / "tokens.xml"
    _export(runner, source, "cockatrice-xml", out)
    root = _valid(out.read_bytes())
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
    before = _relations(etree.parse(str(source), parser).getroot())
    assert sum(before.values()) >= 6
    after = _relations(root)
    # every link, with its attributes (a token named by its type alone, Cyberman, is written Cyberman Token)
    assert _unheld(after) == _unheld(before)
    assert {k[0].removesuffix(" Token") for k in after} == {k[0].removesuffix(" Token") for k in before}


def test_relations_the_writer_derives_are_unchanged_and_not_doubled() -> None:
    # real cards (no relations read from a file): as before, the token names its makers, DFC faces transform
    root = _valid(write_card_database(ALL_CARDS, SETS))
    assert {k[:3]: v for k, v in _relations(root).items()} == {
        ("Delver of Secrets", "related", "Insectile Aberration"): 1,
        ("Insectile Aberration", "related", "Delver of Secrets"): 1,
        ("Spirit Token", "reverse-related", 'Minsc & Boo, "Timeless" <Heroes>'): 1,
        ("Spirit Token", "reverse-related", "Spectral Procession"): 1,
    }
    # a relation the card data knows as well as the file: written once, as the file has it
    token = Card(
        name="Servo", faces=(Face("Servo", types=("Creature",), subtypes=("Servo",)),), is_token=True
    )
    maker = Card(
        name="Maker",
        faces=(Face("Maker", types=("Artifact",)),),
        related=("Servo", "Other Card"),
        relations=(CardRelation("Servo Token", count="3"), CardRelation("Other Card", exclude=True)),
    )
    root = _valid(write_card_database([maker, token]))
    assert _relations(root) == Counter(
        {
            ("Maker", "related", "Servo Token", (("count", "3"),)): 1,
            ("Maker", "related", "Other Card", (("exclude", "exclude"),)): 1,
        }
    )


# -- B: a custom transform pair is one card with two faces ------------------------------------------------
def test_cockatrice_xml_round_trip_of_a_custom_transform_card(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.xml"
    _export(runner, custom, "cockatrice-xml", out)
    root = _valid(out.read_bytes())
    front, back = _card(root, "Auctioneer's Apprentice"), _card(root, "Master of the Block")
    assert [(r.text, r.get("attach")) for r in front.findall("related")] == [
        ("Master of the Block", "transform")
    ]
    first = back.find("related")
    assert (first.text, first.get("attach")) == ("Auctioneer's Apprentice", "transform")
    assert (front.findtext("prop/side"), back.findtext("prop/side")) == ("front", "back")
    assert (front.findtext("prop/pt"), back.findtext("prop/pt")) == ("1/2", "3/4")
    assert front.find("set").get("picURL") == "https://example.org/front.png"
    assert back.find("set").get("picURL") == "https://example.org/back.png"
    again = read_cockatrice_xml(out.read_bytes())
    card = again.cards["Auctioneer's Apprentice // Master of the Block"]
    assert card.layout == "transform" and [f.name for f in card.faces] == [
        "Auctioneer's Apprentice",
        "Master of the Block",
    ]
    # and once more: the same bytes
    out2 = tmp_path / "out2.xml"
    _export(runner, out, "cockatrice-xml", out2)
    assert out2.read_bytes() == out.read_bytes()


def test_custom_transform_card_is_one_forge_script_with_its_back(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    out = tmp_path / "forge"
    _export(runner, custom, "forge-custom", out)
    scripts = sorted(p.name for p in (out / "cards").iterdir())
    assert scripts == ["auctioneers_apprentice.txt", "gavel_golem.txt", "treasure_hoarder.txt"]
    script = (out / "cards" / "auctioneers_apprentice.txt").read_text()
    front, back = script.split("\n\nALTERNATE\n\n")
    assert "Name:Auctioneer's Apprentice" in front and "AlternateMode:DoubleFaced" in front
    assert "Name:Master of the Block" in back and "PT:3/4" in back and "ManaCost:no cost" in back
    edition = next((out / "editions").iterdir()).read_text()
    assert "Auctioneer's Apprentice" in edition and "Master of the Block" not in edition


def test_custom_transform_card_goes_to_a_cod_by_its_front(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.cod"
    _export(runner, custom, "cod", out)
    deck = read_cod(out.read_bytes(), "out.cod")
    main_names = [e.name for e in deck.sections["main"]]
    assert main_names == ["Gavel Golem", "Auctioneer's Apprentice", "Treasure Hoarder"]
    assert [e.name for e in deck.sections["tokens"]] == ["Gold Servo"]


def test_a_list_naming_the_back_face_warns_as_for_real_cards(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("2 Master of the Block\n1 Delver of Secrets\n1 Insectile Aberration\n")
    out = tmp_path / "deck.cod"
    result = _export(runner, deck, "cod", out, "--card-source", str(custom))
    warnings = [line for line in result.stderr.splitlines() if "back face" in line]
    assert len(warnings) == 2
    whole = "Auctioneer's Apprentice // Master of the Block"
    assert f"'Master of the Block' is the back face of {whole!r}" in warnings[0]
    rows = [(e.name, e.count) for e in read_cod(out.read_bytes(), "deck.cod").sections["main"]]
    assert rows == [("Auctioneer's Apprentice", 2), ("Delver of Secrets", 2)]


def test_writer_puts_each_faces_relations_on_its_own_card() -> None:
    card = Card(
        name="Up // Down",
        layout="transform",
        faces=(Face("Up", types=("Creature",)), Face("Down", types=("Creature",), side="b")),
        printings=(Printing("ABC", "1", pic_url="https://x/up.png", back_pic_url="https://x/down.png"),),
        relations=(
            CardRelation("Clue Token", count="2", face="Down"),
            CardRelation("Food Token", reverse=True, face="Up"),
        ),
    )
    root = _valid(write_card_database([card]))
    up, down = _card(root, "Up"), _card(root, "Down")
    assert [(r.tag, r.text, dict(r.attrib)) for r in up if "related" in str(r.tag)] == [
        ("reverse-related", "Food Token", {}),
        ("related", "Down", {"attach": "transform"}),
    ]
    assert [(r.tag, r.text, dict(r.attrib)) for r in down if "related" in str(r.tag)] == [
        ("related", "Clue Token", {"count": "2"}),
        ("related", "Up", {"attach": "transform"}),
    ]
    assert up.find("set").get("picURL") == "https://x/up.png"
    assert down.find("set").get("picURL") == "https://x/down.png"


def test_faces_numbered_a_and_b_keep_one_printing_each(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    """A custom set numbering the faces 2a and 2b: each face keeps one printing of the set (each had both,
    one with the other face's number), the back its own picture."""
    lettered = tmp_path / "lettered.xml"
    text = custom.read_text()
    text = text.replace(
        'num="2" picURL="https://example.org/front.png"', 'num="2a" picURL="https://example.org/front.png"'
    )
    text = text.replace(
        'num="2" picURL="https://example.org/back.png"', 'num="2b" picURL="https://example.org/back.png"'
    )
    lettered.write_text(text)
    out = tmp_path / "out.xml"
    _export(runner, lettered, "cockatrice-xml", out)
    root = _valid(out.read_bytes())
    front, back = _card(root, "Auctioneer's Apprentice"), _card(root, "Master of the Block")
    assert [s.get("picURL") for s in front.findall("set")] == ["https://example.org/front.png"]
    assert [s.get("picURL") for s in back.findall("set")] == ["https://example.org/back.png"]
