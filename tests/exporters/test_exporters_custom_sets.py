"""A designer's custom set (Cockatrice card XML) exported: its two-faced cards numbered as real ones are, the
same cards whatever the file's size, and its tokens listed by the edition under Forge's own script names."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from export_samples import parse_xml
from lxml import etree
from test_exporters_cockatrice_relations import _card, _export

from cockatrice_ext.cards import cache
from cockatrice_ext.cards.model import Card, CardSet, Face, Printing
from cockatrice_ext.cards.sources import load_cards
from cockatrice_ext.cards.text import split_type_line
from cockatrice_ext.exporters import deck_from_cards, write_forge_custom_set
from cockatrice_ext.exporters.forge_scripts import forge_token_script_name

SET = """<?xml version="1.0" encoding="UTF-8"?>
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
      <related>Gold Servo</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Auctioneer's Apprentice</name>
      <text>Flying</text>
      <prop><layout>transform</layout><side>front</side><type>Creature — Human Wizard</type>
        <maintype>Creature</maintype><manacost>1U</manacost><cmc>2</cmc><colors>U</colors><pt>1/2</pt></prop>
      <set rarity="rare" num="2a" picURL="https://example.org/front.png">SMK</set>
      <related attach="transform">Master of the Block</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Haunted Bidder</name>
      <text>When Haunted Bidder dies, create a 1/1 white Bidder creature token with flying.</text>
      <prop><layout>normal</layout><type>Creature — Spirit</type><maintype>Creature</maintype>
        <manacost>2W</manacost><cmc>3</cmc><colors>W</colors><pt>2/2</pt></prop>
      <set rarity="common" num="3">SMK</set>
      <related>Bidder</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Master of the Block</name>
      <text>Flying, hexproof</text>
      <prop><layout>transform</layout><side>back</side><type>Creature — Human Wizard</type>
        <maintype>Creature</maintype><cmc>2</cmc><colors>U</colors><pt>3/4</pt></prop>
      <set rarity="rare" num="2b" picURL="https://example.org/back.png">SMK</set>
      <related attach="transform">Auctioneer's Apprentice</related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Appraisal Office</name>
      <text>{2}, {T}: Create a 2/2 blue and red Goblin Appraiser creature token.</text>
      <prop><layout>normal</layout><type>Artifact</type><maintype>Artifact</maintype>
        <manacost>2</manacost><cmc>2</cmc></prop>
      <set rarity="uncommon" num="4">SMK</set>
      <related>Goblin Appraiser</related>
      <tablerow>1</tablerow>
    </card>
    <card>
      <name>Gold Servo</name>
      <text></text>
      <prop><type>Token Artifact Creature — Servo</type><maintype>Creature</maintype><pt>1/1</pt>
        <cmc>0</cmc></prop>
      <set>SMK</set>
      <reverse-related>Gavel Golem</reverse-related>
      <token>1</token>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Bidder</name>
      <text>Flying</text>
      <prop><type>Token Creature — Bidder</type><maintype>Creature</maintype><colors>W</colors><pt>1/1</pt>
        <cmc>0</cmc></prop>
      <set num="T2">SMK</set>
      <token>1</token>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Goblin Appraiser</name>
      <text>Haste
When this creature dies, draw a card.</text>
      <prop><type>Token Creature — Goblin Appraiser</type><maintype>Creature</maintype><colors>UR</colors>
        <pt>2/2</pt><cmc>0</cmc></prop>
      <set>SMK</set>
      <token>1</token>
      <tablerow>2</tablerow>
    </card>
  </cards>
</cockatrice_carddatabase>
"""
BLOCK = "2 Auctioneer's Apprentice\n1 Gavel Golem\n1 Haunted Bidder\n1 Appraisal Office\n"


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setenv("COCKATRICE_EXT_CACHE", str(tmp_path / "card-cache"))  # never the user's cache
    return CliRunner()


@pytest.fixture
def custom(tmp_path: Path) -> Path:
    path = tmp_path / "smoke.xml"
    path.write_text(SET, encoding="utf-8")
    return path


def _numbers(root: etree._Element, name: str) -> list[tuple[str, str | None]]:
    return [(s.text or "", s.get("num")) for s in _card(root, name).findall("set")]


# -- 1: a back face's collector number ---------------------------------------------------------------------
def test_a_real_transform_cards_faces_share_its_number(runner: CliRunner, tmp_path: Path) -> None:
    """The convention the custom faces follow: MTGJSON numbers both sides of a transform card alike (ISD
    Delver of Secrets is 51, sides a and b) and Cockatrice's Oracle writes each face's own number, so the
    back face's <set num> is its front's."""
    block = tmp_path / "delver.txt"
    block.write_text("1 Delver of Secrets\n")
    out = tmp_path / "delver.xml"
    _export(runner, block, "cockatrice-xml", out)
    root = parse_xml(out.read_bytes())
    front, back = _numbers(root, "Delver of Secrets"), _numbers(root, "Insectile Aberration")
    assert ("ISD", "51") in front
    assert back == front


def test_a_custom_back_face_keeps_its_own_number(runner: CliRunner, custom: Path, tmp_path: Path) -> None:
    """Each face takes the number its own <card> gives it in the set, as Oracle writes each face's own: a set
    numbering its faces 2a and 2b keeps 2b on the back (it was written 2a, the front's)."""
    out = tmp_path / "out.xml"
    _export(runner, custom, "cockatrice-xml", out)
    root = parse_xml(out.read_bytes())
    assert _numbers(root, "Auctioneer's Apprentice") == [("SMK", "2a")]
    assert _numbers(root, "Master of the Block") == [("SMK", "2b")]
    assert _card(root, "Master of the Block").find("set").get("picURL") == "https://example.org/back.png"


def test_a_custom_back_face_without_a_number_of_its_own_takes_its_fronts(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    unnumbered = tmp_path / "unnumbered.xml"
    unnumbered.write_text(SET.replace(' num="2b"', ""), encoding="utf-8")
    out = tmp_path / "out.xml"
    _export(runner, unnumbered, "cockatrice-xml", out)
    root = parse_xml(out.read_bytes())
    assert _numbers(root, "Master of the Block") == [("SMK", "2a")]


# -- 2: the same cards whatever the file's size ------------------------------------------------------------
def _padded(tmp_path: Path) -> Path:
    """The same set past the size from which a card file is read through its byte-range index."""
    filler = "".join(
        f"""    <card>
      <name>Filler {i}</name>
      <text>{"A card the block does not name. " * 8}</text>
      <prop><type>Creature — Filler</type><maintype>Creature</maintype><manacost>2</manacost>
        <cmc>2</cmc><pt>2/2</pt></prop>
      <set rarity="common" num="{100 + i}">SMK</set>
      <tablerow>2</tablerow>
    </card>
"""
        for i in range(3000)
    )
    path = tmp_path / "padded" / "smoke.xml"
    path.parent.mkdir()
    path.write_text(SET.replace("  </cards>", filler + "  </cards>"), encoding="utf-8")
    assert path.stat().st_size > cache.MIN_CACHED_BYTES
    return path


@pytest.mark.parametrize("fmt", ["cockatrice-xml", "cod", "forge-custom"])
def test_a_custom_set_past_the_index_threshold_exports_the_same(
    runner: CliRunner, custom: Path, tmp_path: Path, fmt: str
) -> None:
    """A custom set over 1 MB is read through its index, which left the front and back <card>s apart: the
    back face became a card of its own (in the card file, the cod's tokens and the Forge scripts)."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    padded = _padded(tmp_path)
    outputs = []
    for source, name in ((custom, "small"), (padded, "padded"), (padded, "padded-again")):
        out = tmp_path / name / "out"
        _export(runner, block, fmt, out, "--card-source", str(source))
        files = sorted(p for p in out.rglob("*") if p.is_file()) if out.is_dir() else [out]
        outputs.append({str(p.relative_to(out)) if p != out else "": p.read_bytes() for p in files})
    assert outputs[1] == outputs[0]
    assert outputs[2] == outputs[0]  # and again from the index kept in the cache


@pytest.mark.parametrize("fmt", ["cockatrice-xml", "forge-custom"])
def test_a_big_custom_set_once_read_whole_exports_the_same(
    runner: CliRunner, custom: Path, tmp_path: Path, fmt: str
) -> None:
    """Read whole once (a load of every card), a big file is kept parsed in the cache, and later runs read
    that: it kept neither the links the file gave (the tokens' makers, attributes) nor a back face's own
    picture and number."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    padded = _padded(tmp_path)
    load_cards(str(padded))  # no names: every card, parsed and cached
    outputs = []
    for source, name in ((custom, "small"), (padded, "padded")):
        out = tmp_path / name / "out"
        _export(runner, block, fmt, out, "--card-source", str(source))
        files = sorted(p for p in out.rglob("*") if p.is_file()) if out.is_dir() else [out]
        outputs.append({str(p.relative_to(out)) if p != out else "": p.read_bytes() for p in files})
    assert outputs[1] == outputs[0]


def test_a_back_face_named_in_a_block_is_found_alike_in_a_big_set(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    block = tmp_path / "block.txt"
    block.write_text("1 Master of the Block\n")
    said = []
    for source in (custom, _padded(tmp_path)):
        result = _export(runner, block, "cod", tmp_path / "out.cod", "--card-source", str(source))
        said.append([line for line in result.output.splitlines() if "back face" in line])
    assert said[0] and said[1] == said[0]


# -- 3: custom tokens in a Forge edition --------------------------------------------------------------------
def _forge(runner: CliRunner, custom: Path, tmp_path: Path) -> tuple[Path, list[str]]:
    out = tmp_path / "forge"
    _export(runner, custom, "forge-custom", out)
    edition = (out / "editions" / "Smoke Set.txt").read_text()
    return out, edition.split("[tokens]\n", 1)[1].splitlines() if "[tokens]" in edition else []


def test_forge_edition_lists_the_custom_tokens_it_scripts(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    """Forge finds a set's tokens through its edition's [tokens] section (``number script-name``), the name
    being the token script's file name; without the section the edition has no tokens."""
    out, tokens = _forge(runner, custom, tmp_path)
    scripts = sorted(p.stem for p in (out / "tokens").iterdir())
    assert sorted(line.split(" ", 1)[1] for line in tokens) == scripts
    assert tokens == [
        "1 gold_servo",
        "T2 w_1_1_bidder_flying",
        "3 ur_2_2_goblin_appraiser_haste_appraisal_office",
    ]


def test_forge_token_scripts_are_named_as_forge_names_its_own(
    runner: CliRunner, custom: Path, tmp_path: Path
) -> None:
    """Forge's convention (res/tokenscripts, TokenDb): a token named otherwise than by its types by its name
    (``gold``, ``marit_lage``); others ``colors_power_toughness_types_subtypes_keywords``
    (``w_1_1_spirit_flying``, ``c_1_1_a_servo``, ``rw_1_1_goblin_soldier``), with what else it does named
    after it (``g_x_x_ooze_gutter_grime``): here the card that makes it."""
    out, _ = _forge(runner, custom, tmp_path)
    assert sorted(p.name for p in (out / "tokens").iterdir()) == [
        "gold_servo.txt",
        "ur_2_2_goblin_appraiser_haste_appraisal_office.txt",
        "w_1_1_bidder_flying.txt",
    ]
    bidder = (out / "tokens" / "w_1_1_bidder_flying.txt").read_text()
    assert bidder.startswith("Name:Bidder Token\nManaCost:no cost\nColors:white\nTypes:Creature Bidder\n")
    assert (out / "tokens" / "gold_servo.txt").read_text().startswith("Name:Gold Servo\n")


@pytest.mark.parametrize(
    ("type_line", "colors", "pt", "text", "expected"),
    [
        ("Token Creature — Spirit", ("W",), ("1", "1"), "Flying", "w_1_1_spirit_flying"),
        ("Token Artifact Creature — Servo", (), ("1", "1"), "", "c_1_1_a_servo"),
        ("Token Creature — Goblin Soldier", ("R", "W"), ("1", "1"), "", "rw_1_1_goblin_soldier"),
        ("Token Creature — Knight", ("W",), ("2", "2"), "First strike", "w_2_2_knight_first_strike"),
        ("Token Creature — Angel", ("W",), ("4", "4"), "Flying, vigilance", "w_4_4_angel_flying_vigilance"),
        ("Token Creature — Fractal", ("G", "U"), ("0", "0"), "", "gu_0_0_fractal"),
        ("Token Enchantment Creature — Zombie", ("B",), ("2", "2"), "", "b_2_2_e_zombie"),
        ("Token Creature — Ooze", ("G",), ("*", "*"), "", "g_x_x_ooze"),
    ],
)
def test_generic_token_names_match_forges_own_scripts(
    type_line: str, colors: tuple[str, ...], pt: tuple[str, str], text: str, expected: str
) -> None:
    """Each expected name is a real script of Forge's res/tokenscripts (types as the readers give them:
    with Token)."""
    supers, types, subs = split_type_line(type_line)
    name = " ".join(subs)
    face = Face(
        name,
        colors=colors,
        supertypes=supers,
        types=types,
        subtypes=subs,
        type_line=type_line,
        oracle_text=text,
        power=pt[0],
        toughness=pt[1],
    )
    assert forge_token_script_name(Card(name=name, layout="token", faces=(face,), is_token=True)) == expected


def test_a_token_number_forge_cannot_read_gives_way_to_its_position() -> None:
    """Forge reads ``tk-1 w_1_1_bidder`` as a token named ``tk-1 w_1_1_bidder``, has no such script and
    stops loading its tokens ("wrong token name"): such a number is replaced by the token's position."""
    face = Face(
        "Bidder", colors=("W",), types=("Token", "Creature"), subtypes=("Bidder",), power="1", toughness="1"
    )
    token = Card("Bidder", "token", (face,), printings=(Printing("SMK", "tk-1"),), is_token=True)
    maker_face = Face("Haunted Bidder", types=("Creature",))
    maker = Card(
        "Haunted Bidder", faces=(maker_face,), printings=(Printing("SMK", "3"),), related=("Bidder",)
    )
    bundle = write_forge_custom_set(
        deck_from_cards("Smoke", [maker, token], {"SMK": CardSet("SMK", "Smoke Set")})
    )
    assert bundle["editions/Smoke Set.txt"].decode().endswith("\n[tokens]\n1 w_1_1_bidder\n")
    assert "tokens/w_1_1_bidder.txt" in bundle
