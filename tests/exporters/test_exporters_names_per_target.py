"""Each writer spells a designer's card as the program that reads it matches it: a name with ``Æ`` as the card
data has it (Cockatrice matches a ``.cod``'s names exactly against the card files it loaded; Forge against
its scripts' ``Name:``), a ``pt`` given by half the same in both programs (and said), Forge's file names as
Forge names its own scripts and tokens, and a custom set's long name no code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from export_samples import parse_xml

from cockatrice_ext.cards.model import Card, Face
from cockatrice_ext.cli import main
from cockatrice_ext.exporters.forge_scripts import forge_token_script_name, script_file_name

SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>{code}</name><longname>{longname}</longname><settype>Custom</settype>
    <releasedate>2026-01-01</releasedate><priority>10</priority></set></sets>
  <cards>
    <card>
      <name>\u00c6rgeist</name>
      <text>Flying</text>
      <prop><layout>normal</layout><side>front</side><type>Creature — Spirit</type>
        <maintype>Creature</maintype><manacost>1U</manacost><cmc>2</cmc><colors>U</colors><coloridentity>U</coloridentity><pt>1/1</pt></prop>
      <set rarity="common" num="1">{code}</set>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>Halfmade Golem</name>
      <text></text>
      <prop><layout>normal</layout><side>front</side><type>Artifact Creature — Golem</type>
        <maintype>Creature</maintype><manacost>2</manacost><cmc>2</cmc><pt>{pt}</pt></prop>
      <set rarity="common" num="2">{code}</set>
      <tablerow>2</tablerow>
    </card>
  </cards>
</cockatrice_carddatabase>
"""
CUSTOM = "\u00c6rgeist"  # Ærgeist


@pytest.fixture
def designer(tmp_path: Path) -> Path:
    """``ice.txt`` naming the designer's cards and a real one, with their custom set ``ice.xml`` beside it."""
    (tmp_path / "ice.xml").write_text(
        SET.format(code="ZIC", longname="Glacier Tales", pt="2/2"), encoding="utf-8"
    )
    path = tmp_path / "ice.txt"
    path.write_text(f"2 {CUSTOM}\n1 Halfmade Golem\n1 Grizzly Bears\n", encoding="utf-8")
    return path


def _export(runner: CliRunner, path: Path, fmt: str, out: Path, *extra: str) -> str:
    result = runner.invoke(main, ["export", str(path), "--to", fmt, "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return result.output


# -- 1: Æ, per target ---------------------------------------------------------------------------------------
def test_a_cod_names_the_designers_card_as_their_card_set_does(
    runner: CliRunner, designer: Path, tmp_path: Path
) -> None:
    """Cockatrice looks a .cod's names up exactly among the <name>s of the card files it loaded, and changes
    no name it reads from a custom set: the designer's Ærgeist is ``Ærgeist`` there (Oracle's Æ -> AE is for
    MTGJSON's names, which spell real cards Aether). ``AErgeist`` was an unknown card."""
    out = tmp_path / "ice.cod"
    _export(runner, designer, "cod", out)
    names = [card.get("name") for card in parse_xml(out.read_bytes()).iter("card")]
    assert CUSTOM in names and "AErgeist" not in names
    in_set = [n.text for n in parse_xml((tmp_path / "ice.xml").read_bytes()).iter("name")]
    assert CUSTOM in in_set  # the name the .cod gives is one Cockatrice has


def test_the_card_database_written_names_it_as_the_cod_does(
    runner: CliRunner, designer: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ice.cards.xml"
    _export(runner, designer, "cockatrice-xml", out)
    names = [card.findtext("name") for card in parse_xml(out.read_bytes()).iter("card")]
    assert CUSTOM in names and "AErgeist" not in names


def test_forge_names_it_alike_in_the_deck_the_script_and_the_edition(
    runner: CliRunner, designer: Path, tmp_path: Path
) -> None:
    """Forge matches a deck's line against its scripts' ``Name:`` (ignoring case): the .dck, the script and
    the edition's line all say ``Ærgeist``; the file is named as Forge names scripts (``aergeist.txt``)."""
    deck = tmp_path / "ice.dck"
    _export(runner, designer, "forge", deck)
    assert re.search(rf"^2 {CUSTOM}(\|\S+)?$", deck.read_text(encoding="utf-8"), re.MULTILINE)
    folder = tmp_path / "custom"
    _export(runner, designer, "forge-custom", folder)
    script = (folder / "cards" / "aergeist.txt").read_text(encoding="utf-8")
    assert script.startswith(f"Name:{CUSTOM}\n")
    (edition,) = (folder / "editions").iterdir()
    assert re.search(rf"^\S+ C {CUSTOM}$", edition.read_text(encoding="utf-8"), re.MULTILINE)


# -- 2: a pt given by half ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("pt", "written", "given"), [("2/", "2/0", "power 2"), ("/3", "0/3", "toughness 3")])
def test_a_pt_given_by_half_is_said_once_and_written_alike(
    runner: CliRunner, tmp_path: Path, pt: str, written: str, given: str
) -> None:
    """``<pt>2/</pt>`` showed 2 in Cockatrice and 2/0 in Forge, unsaid: both now get 2/0, and one
    ``warning:`` line says so."""
    (tmp_path / "ice.xml").write_text(
        SET.format(code="ZIC", longname="Glacier Tales", pt=pt), encoding="utf-8"
    )
    path = tmp_path / "ice.txt"
    path.write_text("1 Halfmade Golem\n", encoding="utf-8")
    said = _export(runner, path, "cockatrice-xml", tmp_path / "ice.cards.xml")
    warnings = [line for line in said.splitlines() if "Halfmade Golem" in line and "pt" in line]
    assert len(warnings) == 1 and warnings[0].startswith("warning: "), said
    assert given in warnings[0] and written in warnings[0]
    golem = next(
        card
        for card in parse_xml((tmp_path / "ice.cards.xml").read_bytes()).iter("card")
        if card.findtext("name") == "Halfmade Golem"
    )
    assert golem.findtext("prop/pt") == written
    _export(runner, path, "forge-custom", tmp_path / "custom")
    script = (tmp_path / "custom" / "cards" / "halfmade_golem.txt").read_text(encoding="utf-8")
    assert f"\nPT:{written}\n" in script


def test_a_whole_pt_is_not_warned_about(runner: CliRunner, designer: Path, tmp_path: Path) -> None:
    said = _export(runner, designer, "cod", tmp_path / "ice.cod")
    assert "pt gives" not in said


# -- 3: Forge's file names keep every letter ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "file"),
    [
        ("Lim-Dûl's Vault", "lim_duls_vault.txt"),  # Forge's res/cardsfolder/l/lim_duls_vault.txt
        ("Jötun Grunt", "jotun_grunt.txt"),  # res/cardsfolder/j/jotun_grunt.txt
        ("Ærathi Berserker", "aerathi_berserker.txt"),
        ("Sjøstrand Skald", "sjostrand_skald.txt"),  # ø has no accent to drop: Forge writes o
        ("Øresund Ferry", "oresund_ferry.txt"),
        ("Straße der Toten", "strasse_der_toten.txt"),
        ("Łukasz’s Þing", "lukaszs_thing.txt"),  # a curly apostrophe is left out as a straight one is
    ],
)
def test_forge_script_file_names_transliterate_every_letter(name: str, file: str) -> None:
    """Forge names a script by its name in ASCII (its oracleScript.py transliterates, then lower-cases and
    drops apostrophes and punctuation): a letter with no accent to strip (ø, ß, Þ, Ł) becomes its ASCII
    spelling. It was dropped (``sjstrand_skald.txt``)."""
    assert script_file_name(name) == file


# -- 4: token scripts, one rule ----------------------------------------------------------------------------
def _token(name: str, subtypes: tuple[str, ...], supertypes: tuple[str, ...] = ()) -> Card:
    face = Face(
        name,
        colors=("R",),
        supertypes=supertypes,
        types=("Token", "Creature"),
        subtypes=subtypes,
        power="4",
        toughness="4",
    )
    return Card(name=name, layout="token", faces=(face,), is_token=True)


@pytest.mark.parametrize(
    ("name", "subtypes", "script_name", "file"),
    [
        ("Giant", ("Giant",), "Giant Token", "r_4_4_giant"),  # named by its types: TYPES Token
        ("Giant Token", ("Giant",), "Giant Token", "r_4_4_giant"),  # Magic-Token's spelling, the same token
        ("Glimmer Sprite", ("Faerie",), "Glimmer Sprite", "glimmer_sprite"),  # its own name: alone
        ("Glimmer Sprite Token", ("Faerie",), "Glimmer Sprite", "glimmer_sprite"),
        ("Glimmer Sprite (Token)", ("Faerie",), "Glimmer Sprite", "glimmer_sprite"),  # Magic-Token's copies
        ("Glimmer Sprite ", ("Faerie",), "Glimmer Sprite", "glimmer_sprite"),  # a variant's trailing space
    ],
)
def test_token_scripts_are_named_by_one_rule(
    name: str, subtypes: tuple[str, ...], script_name: str, file: str
) -> None:
    """Forge's own token scripts: ``b_2_2_zombie.txt`` says ``Name:Zombie Token``; ``avacyn.txt`` says
    ``Name:Avacyn``; ``ajanis_pridemate.txt`` says ``Name:Ajani's Pridemate`` (Magic-Token's ``Ajani's
    Pridemate (Token)``). However the card data decorates a token's name, its script and file follow that
    rule (a named token kept Magic-Token's ``Token`` word: ``Glimmer Sprite Token``, in
    ``glimmer_sprite_token.txt``)."""
    from cockatrice_ext.exporters.forge_scripts import _token_script

    token = _token(name, subtypes)
    assert forge_token_script_name(token) == file
    assert _token_script(token).startswith(f"Name:{script_name}\n")


# -- 5: --set-code keeps the set's long name ---------------------------------------------------------------
def test_set_code_alone_keeps_the_designers_set_name(
    runner: CliRunner, designer: Path, tmp_path: Path
) -> None:
    """``--set-code ZICE26`` puts the cards in that code; the set's long name is the designer's set's
    (``Glacier Tales``), not the code again, in Cockatrice's <longname> and Forge's Name=."""
    out = tmp_path / "ice.cards.xml"
    _export(runner, designer, "cockatrice-xml", out, "--set-code", "ZICE26")
    sets = {s.findtext("name"): s.findtext("longname") for s in parse_xml(out.read_bytes()).iter("set")}
    assert sets.get("ZICE26") == "Glacier Tales", sets
    folder = tmp_path / "custom"
    _export(runner, designer, "forge-custom", folder, "--set-code", "ZICE26")
    (edition,) = (folder / "editions").iterdir()
    text = edition.read_text(encoding="utf-8")
    assert "\nCode=ZICE26\n" in text and "\nName=Glacier Tales\n" in text, text


def test_set_code_without_a_designers_set_takes_the_lists_name(runner: CliRunner, tmp_path: Path) -> None:
    """A designer's set whose long name is only its code gives none: the list's name is the set's."""
    (tmp_path / "frost.xml").write_text(SET.format(code="ZIC", longname="ZIC", pt="2/2"), encoding="utf-8")
    path = tmp_path / "frost.txt"
    path.write_text(f"1 {CUSTOM}\n", encoding="utf-8")
    out = tmp_path / "frost.cards.xml"
    _export(runner, path, "cockatrice-xml", out, "--set-code", "ZFROST")
    sets = {s.findtext("name"): s.findtext("longname") for s in parse_xml(out.read_bytes()).iter("set")}
    assert sets.get("ZFROST") == "frost", sets


def test_set_name_still_wins(runner: CliRunner, designer: Path, tmp_path: Path) -> None:
    out = tmp_path / "ice.cards.xml"
    _export(runner, designer, "cockatrice-xml", out, "--set-code", "ZICE26", "--set-name", "Winter Block")
    sets = {s.findtext("name"): s.findtext("longname") for s in parse_xml(out.read_bytes()).iter("set")}
    assert sets.get("ZICE26") == "Winter Block"


def test_a_two_faced_tokens_script_keeps_each_faces_name() -> None:
    from cockatrice_ext.exporters.forge_scripts import _token_script

    day = Face("Sun Spirit", types=("Token", "Creature"), subtypes=("Spirit",), power="1", toughness="1")
    night = Face("Moon Spirit", types=("Token", "Creature"), subtypes=("Spirit",), power="2", toughness="2")
    token = Card("Sun Spirit // Moon Spirit", "double_faced_token", (day, night), is_token=True)
    script = _token_script(token)
    assert script.startswith("Name:Sun Spirit\n") and "\nName:Moon Spirit\n" in script
    assert forge_token_script_name(token) == "sun_spirit_moon_spirit"  # Forge joins its faces' names
