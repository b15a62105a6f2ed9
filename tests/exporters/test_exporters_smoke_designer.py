"""What a block designer's smoke test found: a re-export that overwrote scripts edited by hand, a custom
card named like a real one taken for it, meld cards without their melded card, a Cockatrice file's set
priority and cipt changed, a set code that changed with every edit, token counts that disagreed, a
cube's draft shrunk unsaid, and Windows device names as file names."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from export_samples import parse_xml
from test_exporters_designer_report import run

from cockatrice_ext.cards.model import Card, CardSet, Face, Printing
from cockatrice_ext.exporters import (
    MANIFEST,
    NEW_SUFFIX,
    ExportDeck,
    ExportEntry,
    deck_from_cards,
    export,
    kept_edit_warning,
    kept_edits,
    left_out,
    section_counts,
    write_card_database,
)
from cockatrice_ext.exporters.forge import draft_note, safe_file_stem, write_forge_cube
from cockatrice_ext.exporters.forge_edition import block_set_code, write_forge_custom_set
from cockatrice_ext.exporters.forge_scripts import script_file_name
from cockatrice_ext.exporters.model import real_namesake

# A designer's set, cut down from the smoke test's custom2/myblock.xml: a transform card, a vanilla
# flier, and a "Lightning Bolt" that deals 4.
BLOCK_XML = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>MYB</name><longname>My Block</longname><settype>Custom</settype>
  <releasedate>2024-05-01</releasedate><priority>10</priority></set></sets>
  <cards>
    <card><name>Gavel Sprite</name><text>{sprite}</text>
      <prop><layout>normal</layout><side>front</side><type>Creature — Faerie</type>
      <maintype>Creature</maintype><manacost>1U</manacost><cmc>2</cmc><colors>U</colors><pt>1/1</pt></prop>
      <set rarity="common" num="1">MYB</set><tablerow>2</tablerow></card>
    <card><name>Hammer Knight</name><text>Vigilance
{{2}}{{W}}: Transform Hammer Knight.</text>
      <prop><layout>transform</layout><side>front</side><type>Creature — Human Knight</type>
      <maintype>Creature</maintype><manacost>2W</manacost><cmc>3</cmc><colors>W</colors><pt>2/3</pt></prop>
      <set rarity="uncommon" num="2">MYB</set>
      <related attach="transform">Gavel of Judgment</related><tablerow>2</tablerow></card>
    <card><name>Gavel of Judgment</name><text>Equipped creature gets +2/+2.
Equip {{2}}</text>
      <prop><layout>transform</layout><side>back</side><type>Artifact — Equipment</type>
      <maintype>Artifact</maintype><cmc>3</cmc><colors>W</colors></prop>
      <set rarity="uncommon" num="2">MYB</set>
      <related attach="transform">Hammer Knight</related><tablerow>1</tablerow></card>
    {bolt}
  </cards>
</cockatrice_carddatabase>
"""
BOLT_XML = """<card><name>Lightning Bolt</name><text>{text}</text>
      <prop><layout>normal</layout><side>front</side><type>Instant</type><maintype>Instant</maintype>
      <manacost>R</manacost><cmc>1</cmc><colors>R</colors></prop>
      <set rarity="common" num="4">MYB</set><tablerow>3</tablerow></card>"""
FOUR_DAMAGE = "Lightning Bolt deals 4 damage to any target."


def block_xml(folder: Path, *, sprite: str = "Flying", bolt: str = "") -> Path:
    path = folder / "myblock.xml"
    path.write_text(BLOCK_XML.format(sprite=sprite, bolt=bolt), encoding="utf-8")
    return path


# -- 1. scripts edited by hand -----------------------------------------------------------------------------
def _forge_custom(runner: CliRunner, source: Path, out: Path) -> str:
    return run(runner, "export", str(source), "--to", "forge-custom", "--set-code", "MYB", "-o", str(out))


def test_a_re_export_keeps_a_script_edited_by_hand(runner: CliRunner, tmp_path: Path) -> None:
    """The A: line the user added (as the keywords-only warning invites) was lost at the next export: the
    edited script is kept, the export's version written beside it under a name Forge does not load; a
    script nobody touched is replaced as before."""
    out = tmp_path / "fc"
    _forge_custom(runner, block_xml(tmp_path), out)
    knight = out / "cards" / "hammer_knight.txt"
    sprite = out / "cards" / "gavel_sprite.txt"
    ours = knight.read_text(encoding="utf-8")
    edited = ours + "A:AB$ Pump | Cost$ 2 W | Defined$ Self | NumAtt$ +1\n"
    knight.write_text(edited, encoding="utf-8")

    _forge_custom(runner, block_xml(tmp_path, sprite="Flying, vigilance"), out)
    assert knight.read_text(encoding="utf-8") == edited
    offered = out / "cards" / ("hammer_knight.txt" + NEW_SUFFIX)
    assert offered.read_text(encoding="utf-8") == ours
    assert "K:Vigilance" in sprite.read_text(encoding="utf-8")  # untouched since: replaced
    assert not (out / "cards" / ("gavel_sprite.txt" + NEW_SUFFIX)).exists()

    _forge_custom(runner, block_xml(tmp_path, sprite="Flying, vigilance"), out)  # again: still kept
    assert knight.read_text(encoding="utf-8") == edited

    offered.replace(knight)  # the user takes the new version: the next export replaces it as usual
    _forge_custom(runner, block_xml(tmp_path, sprite="Flying, vigilance"), out)
    assert knight.read_text(encoding="utf-8") == ours and not offered.exists()


def test_kept_edits_are_named_with_how_to_take_the_new_version(tmp_path: Path) -> None:
    """The library says which files it kept (new version beside each), and one line per file names both."""
    deck = deck_from_cards("My Block", [_card("Glimmer Tyrant", "Flying")])
    written = export(deck, "forge-custom", tmp_path)
    script = tmp_path / "cards" / "glimmer_tyrant.txt"
    assert script in written and (tmp_path / MANIFEST).is_file() and tmp_path / MANIFEST not in written
    assert kept_edits(written) == []
    script.write_text("Name:Glimmer Tyrant\nA:AB$ Draw | Cost$ T\n", encoding="utf-8")
    written = export(deck, "forge-custom", tmp_path)
    new = tmp_path / "cards" / "glimmer_tyrant.txt.new"
    assert kept_edits(written) == [(script, new)] and script not in written
    line = kept_edit_warning(script, new)
    assert str(script) in line and "glimmer_tyrant.txt.new" in line and "to take it" in line


def test_a_file_the_tool_did_not_write_is_kept_too(tmp_path: Path) -> None:
    """A script already there with no record of this tool writing it (a user's own, or a folder exported
    before the manifest existed) is not replaced; a damaged manifest records nothing."""
    (tmp_path / "cards").mkdir()
    mine = tmp_path / "cards" / "glimmer_tyrant.txt"
    mine.write_text("Name:Glimmer Tyrant\nmy own\n", encoding="utf-8")
    (tmp_path / MANIFEST).write_text("{not json", encoding="utf-8")
    export(deck_from_cards("My Block", [_card("Glimmer Tyrant", "Flying")]), "forge-custom", tmp_path)
    assert mine.read_text(encoding="utf-8") == "Name:Glimmer Tyrant\nmy own\n"
    assert (tmp_path / "cards" / "glimmer_tyrant.txt.new").is_file()
    assert "cards/glimmer_tyrant.txt" in json.loads((tmp_path / MANIFEST).read_text())["files"]


# -- 2. a custom card under a real card's name ---------------------------------------------------------------
def test_a_custom_lightning_bolt_that_deals_4_is_not_the_real_one(runner: CliRunner, tmp_path: Path) -> None:
    """A 4-damage Lightning Bolt read as alike enough to the real one (3 damage): no warning, and Forge and
    Cockatrice played the real card. One warning per such card; the same card reworded is no namesake.
    forge-custom writes no script for it (Forge keys cards by name: it would replace the real Lightning
    Bolt in every deck), and its warning says so."""
    source = block_xml(tmp_path, bolt=BOLT_XML.format(text=FOUR_DAMAGE))
    for fmt in ("forge-custom", "cockatrice-xml"):
        out = run(runner, "export", str(source), "--to", fmt, "-o", str(tmp_path / fmt))
        warned = [line for line in out.splitlines() if "'Lightning Bolt' has the name of a real card" in line]
        assert len(warned) == 1 and "give yours a name of its own" in warned[0], out
        if fmt == "forge-custom":
            assert "forge-custom does not write it (no script, no edition line)" in warned[0]
    assert not (tmp_path / "forge-custom" / "cards" / "lightning_bolt.txt").exists()
    (edition,) = (tmp_path / "forge-custom" / "editions").iterdir()
    assert "Lightning Bolt" not in edition.read_text(encoding="utf-8")

    def bolt(text: str) -> Card:
        printing = Printing(set_code="MYB", collector_number="4")
        faces = (Face(name="Lightning Bolt", mana_cost="{R}", types=("Instant",), oracle_text=text),)
        return Card(name="Lightning Bolt", faces=faces, printings=(printing,))

    assert real_namesake(bolt(FOUR_DAMAGE)) is not None
    assert real_namesake(bolt("Lightning Bolt deals 3 damage to any target.")) is None
    assert real_namesake(bolt("This spell deals 3 damage to any target")) is None


# -- 4. meld cards ---------------------------------------------------------------------------------------
def test_meld_cards_link_to_their_melded_card_as_oracle_does_and_it_is_written(
    runner: CliRunner, tmp_path: Path
) -> None:
    """Bruna and Gisela carried a bare <related>Brisela</related> and Brisela was not written: Oracle links
    each half with attach="transform" to the melded card, a card of its own (side back, no links back)."""
    block = tmp_path / "meld.txt"
    block.write_text("1 Bruna, the Fading Light\n1 Gisela, the Broken Blade\n1 Graf Rats\n", encoding="utf-8")
    run(runner, "export", str(block), "--to", "cockatrice-xml", "-o", str(tmp_path / "meld.xml"))
    root = parse_xml((tmp_path / "meld.xml").read_bytes())
    cards = {card.findtext("name"): card for card in root.iter("card")}
    for half, melded in (
        ("Bruna, the Fading Light", "Brisela, Voice of Nightmares"),
        ("Gisela, the Broken Blade", "Brisela, Voice of Nightmares"),
        ("Graf Rats", "Chittering Host"),
    ):
        links = [(r.get("attach"), r.text) for r in cards[half].iter("related")]
        assert links == [("transform", melded)], (half, links)
    for melded in ("Brisela, Voice of Nightmares", "Chittering Host"):
        assert (
            cards[melded].findtext("prop/side") == "back" and cards[melded].findtext("prop/layout") == "meld"
        )
        assert cards[melded].find("related") is None and cards[melded].find("reverse-related") is None
    assert len(cards) == 5


# -- 5. a Cockatrice card file's own priority and cipt ------------------------------------------------------
@dataclass
class _SetAsGiven(CardSet):
    """A set as a card reader that keeps ``<priority>`` gives it."""

    priority: int | None = None


@dataclass(frozen=True)
class _FaceAsGiven(Face):
    """A face as a card reader that keeps ``<cipt>`` gives it."""

    cipt: bool | None = None


SHOCK = "({T}: Add {B} or {R}.)\nAs this land enters, you may pay 2 life. If you don't, it enters tapped."


def test_a_sets_priority_and_a_cards_cipt_as_given_are_kept() -> None:
    """A set's <priority>0</priority> became 40 (by its type) and a shock land the file gave no <cipt> got
    one: what the card data says is written; what it does not say is still derived."""
    given = _SetAsGiven(code="TMC~", name="Eternal", set_type="Eternal", priority=0)
    plain = CardSet(code="TMT~", name="Spoiler", set_type="Eternal")
    crypt = Card(
        name="Blood Crypt",
        faces=(_FaceAsGiven(name="Blood Crypt", types=("Land",), oracle_text=SHOCK, cipt=False),),
        printings=(Printing(set_code="TMC~"),),
    )
    derived = Card(
        name="Steam Vents",
        faces=(Face(name="Steam Vents", types=("Land",), oracle_text=SHOCK),),
        printings=(Printing(set_code="TMT~"),),
    )
    root = parse_xml(write_card_database([crypt, derived], {"TMC~": given, "TMT~": plain}))
    priorities = {
        s.findtext("name"): s.findtext("priority") for s in root.iter("set") if s.find("priority") is not None
    }
    assert priorities == {"TMC~": "0", "TMT~": "40"}
    cipt = {card.findtext("name"): card.findtext("cipt") for card in root.iter("card")}
    assert cipt == {"Blood Crypt": None, "Steam Vents": "1"}


# -- 6a. a set code that stays ----------------------------------------------------------------------------
def test_the_made_set_code_stays_when_the_list_changes(runner: CliRunner, tmp_path: Path) -> None:
    """X84805 became XFFA43 when one card was added (a hash of the counts): Forge decks pinning it broke."""
    from test_exporters_forge_cli import MOON_IDOL_SET

    block = tmp_path / "myblock.txt"
    moon = tmp_path / "moon.xml"  # a designer's card in a set of its own: the block is in no one custom set
    moon.write_text(MOON_IDOL_SET, encoding="utf-8")
    editions = []
    for extra in ("", "1 Duress\n"):
        block.write_text("4 Lightning Bolt\n1 Auctioneer\n1 Moon Idol\n" + extra, encoding="utf-8")
        out = tmp_path / f"out{len(editions)}"
        run(runner, "export", str(block), "--to", "forge-custom", "-o", str(out), "--card-source", str(moon))
        (edition,) = (out / "editions").iterdir()
        lines = edition.read_text(encoding="utf-8").splitlines()
        editions.append([line for line in lines if line.startswith(("Code=", "Name="))])
    assert editions[0] == editions[1] == [f"Code={block_set_code('myblock')}", "Name=myblock"]
    assert block_set_code("Other Block") != block_set_code("myblock") == block_set_code(" MyBlock ")


# -- 6b. token counts that agree ---------------------------------------------------------------------------
def test_listed_tokens_are_counted_apart_from_the_ones_the_cards_make() -> None:
    """The summary said tokens 12 while the same run warned tokens (3 cards) not written: 3 are listed, 9
    made by the cards (for Cockatrice's token menu)."""
    listed = ExportEntry(Card(name="Goblin", is_token=True), 3, line=7)
    made = [ExportEntry(Card(name=f"Spirit {i}", is_token=True), 1) for i in range(9)]
    deck = ExportDeck(
        sections={"main": [ExportEntry(Card(name="Duress"), 4, line=1)], "tokens": [listed, *made]}
    )
    assert section_counts(deck) == "main 4, tokens 3, and 9 tokens its cards make"
    assert left_out(deck, "forge") == ["tokens (3 cards)"]


# -- 6c. a shrunk draft is said ------------------------------------------------------------------------------
def test_a_draft_shrunk_to_fit_a_small_cube_is_said() -> None:
    deck = ExportDeck(name="tiny", sections={"main": [ExportEntry(Card(name=f"C{i}"), 1) for i in range(12)]})
    draft = write_forge_cube(deck)["draft/tiny.draft"].decode()
    assert "Booster: 5 Any" in draft and "NumPacks: 1" in draft
    note = draft_note(deck)
    assert "2 players x 1 pack of 5 cards" in note and "15" in note and "--pack-size" in note
    assert draft_note(deck, 2, 1, 5) == ""  # all chosen by the user: nothing to say
    big = ExportDeck(sections={"main": [ExportEntry(Card(name=f"C{i}"), 1) for i in range(360)]})
    assert draft_note(big) == ""


# -- 6d. Windows device names --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "stem"),
    [
        *[("CON", "CON_"), ("con.txt", "con_.txt"), ("Lpt9", "Lpt9_"), ("NUL ", "NUL_"), ("AUX. .", "AUX_")],
        *[("com1", "com1_"), ("My Block. ", "My Block"), ("Console", "Console"), ("COM0", "COM0")],
    ],
)
def test_file_names_are_never_windows_device_names(name: str, stem: str) -> None:
    assert safe_file_stem(name) == stem


def test_bundles_named_after_a_device_name_get_other_file_names() -> None:
    """--name CON wrote CON.dck and CON.draft, which Windows cannot hold; a card named Con, con.txt."""
    deck = ExportDeck(name="CON", sections={"main": [ExportEntry(Card(name=f"C{i}"), 1) for i in range(45)]})
    assert sorted(write_forge_cube(deck)) == ["cube/CON_.dck", "draft/CON_.draft"]
    assert "DeckFile:CON" in write_forge_cube(deck)["draft/CON_.draft"].decode()  # Forge keys it by Name=
    assert script_file_name("Con") == "con_.txt"
    custom = write_forge_custom_set(
        deck_from_cards("AUX", [_card("Con", "Flying")]), edition=CardSet(code="AUX", name="AUX")
    )
    assert sorted(custom) == ["cards/con_.txt", "editions/AUX_.txt"]


def _card(name: str, text: str) -> Card:
    face = Face(
        name=name, mana_cost="{1}{W}", types=("Creature",), oracle_text=text, power="2", toughness="2"
    )
    return Card(name=name, faces=(face,), printings=(Printing(set_code="DAN", collector_number="1"),))


def test_the_command_line_names_each_kept_script_and_how_to_take_the_new_one(
    runner: CliRunner, tmp_path: Path
) -> None:
    """The export said nothing when it replaced an edited script; now one warning line per kept file names
    both files, and the kept file is not called stale (not written by this export: delete it)."""
    out = tmp_path / "fc"
    _forge_custom(runner, block_xml(tmp_path), out)
    knight = out / "cards" / "hammer_knight.txt"
    knight.write_text(knight.read_text(encoding="utf-8") + "A:AB$ Draw | Cost$ T\n", encoding="utf-8")
    said = _forge_custom(runner, block_xml(tmp_path), out)
    (line,) = [line for line in said.splitlines() if "hammer_knight" in line and line.startswith("warning")]
    assert line.startswith(f"warning: {knight} was edited since the last export: kept as it is")
    assert "hammer_knight.txt.new" in line and "not written by this export" not in said
    assert MANIFEST not in said  # bookkeeping, not a file for the user


def test_the_command_line_says_a_shrunk_draft_and_counts_listed_tokens_apart(
    runner: CliRunner, tmp_path: Path
) -> None:
    block = tmp_path / "tiny.txt"
    block.write_text("".join(f"1 {name}\n" for name in ("Lightning Bolt", "Opt", "Duress", "Shock")) * 3)
    said = run(runner, "export", str(block), "--to", "forge-cube", "-o", str(tmp_path / "cube"))
    assert "note: the cube's 12 cards make a draft of 2 players x 1 pack of 5 cards" in said
    listed = tmp_path / "tokens.txt"
    listed.write_text("4 Young Pyromancer\n\nTokens\n1 Elemental\n")
    said = run(runner, "export", str(listed), "--to", "forge", "-o", str(tmp_path / "d.dck"))
    assert "warning: tokens (1 card) not written" in said
    assert ": main 4, tokens 1" in said, said
