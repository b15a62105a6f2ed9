"""Forge outputs through the CLI: editions Forge can load beside its own, decks kept in Constructed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_paths import EXAMPLES

from cockatrice_ext.cards.model import Card
from cockatrice_ext.cards.store import shipped_store
from cockatrice_ext.cli import main
from cockatrice_ext.decks.readers import read_cod, read_forge
from cockatrice_ext.exporters.model import is_real_card


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    return CliRunner()


def _edition(folder: Path) -> dict[str, str]:
    (edition,) = (folder / "editions").iterdir()
    metadata = edition.read_text().split("[cards]")[0]
    return dict(line.split("=", 1) for line in metadata.splitlines() if "=" in line)


def _export(runner: CliRunner, block: Path, fmt: str, out: Path, *extra: str):  # type: ignore[no-untyped-def]
    result = runner.invoke(main, ["export", str(block), "--to", fmt, "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return result


def test_an_edition_of_real_cards_never_takes_a_real_set_code(runner: CliRunner, tmp_path: Path) -> None:
    """Cards all printed in one real set must not make an edition named like Forge's own set: such a block
    makes no edition at all (Forge has its cards); one with a custom card gets a code of its own."""
    block = tmp_path / "bolts.txt"
    block.write_text("4 Lightning Bolt\n")
    result = _export(runner, block, "forge-custom", tmp_path / "out")
    assert not (tmp_path / "out").exists() and "Nothing for Forge's custom folder" in result.output
    block.write_text("4 Lightning Bolt\n1 Auctioneer\n")
    _export(runner, block, "forge-custom", tmp_path / "out")
    edition = _edition(tmp_path / "out")
    assert edition["Code"] not in shipped_store().sets


MOON_IDOL_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>ZZMOON</name><longname>Moon Cards</longname><settype>Custom</settype>
    <releasedate>2020-01-01</releasedate><priority>10</priority></set></sets>
  <cards><card><name>Moon Idol</name><text></text>
    <prop><type>Artifact</type><maintype>Artifact</maintype><manacost>2</manacost><cmc>2</cmc></prop>
    <set rarity="common" num="1">ZZMOON</set><tablerow>1</tablerow></card></cards>
</cockatrice_carddatabase>
"""
"""A designer's card in a custom set of its own (ZZMOON), beside the bundled Auctioneer's AUC: a block of both
is in no one custom set."""


def test_edition_codes_differ_between_blocks_and_repeat_for_one(runner: CliRunner, tmp_path: Path) -> None:
    """The code comes from the block's name and content: same export, same bytes; other block, other code."""
    moon = tmp_path / "moon.xml"
    moon.write_text(MOON_IDOL_SET, encoding="utf-8")
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("1 Lightning Bolt\n1 Auctioneer\n1 Moon Idol\n")
    second.write_text("1 Lightning Bolt\n1 Auctioneer\n1 Moon Idol\n")  # same cards, another block
    codes = []
    for block, out in ((first, "a"), (second, "b"), (first, "c")):
        _export(runner, block, "forge-custom", tmp_path / out, "--card-source", str(moon))
        codes.append(_edition(tmp_path / out)["Code"])
    assert codes[0] != codes[1] and codes[0] == codes[2]
    (a_file,) = (tmp_path / "a" / "editions").iterdir()
    (c_file,) = (tmp_path / "c" / "editions").iterdir()
    assert a_file.read_bytes() == c_file.read_bytes()
    assert sorted(p.name for p in (tmp_path / "a" / "cards").iterdir()) == ["auctioneer.txt", "moon_idol.txt"]


@pytest.mark.parametrize("real", ["5 Mountain\n5 Island\n", "4 Lightning Bolt\n", "1 Snow-Covered Forest\n"])
def test_real_cards_and_basic_lands_keep_the_designers_set_code(
    runner: CliRunner, tmp_path: Path, real: str
) -> None:
    """A block of the designer's AUC cards and real ones (the basic lands nearly every block holds) got an
    edition coded from the block's name (X and hex digits) and named after the list, because the code was
    kept only when every card, real ones too, was printed in AUC: the edition lists none of the real cards,
    so they no longer count, and it is the designer's AUC, with its long name."""
    block = tmp_path / "drgn.txt"
    block.write_text("1 Auctioneer\n1 Packaged Gnome\n" + real, encoding="utf-8")
    _export(runner, block, "forge-custom", tmp_path / "out")
    edition = _edition(tmp_path / "out")
    assert edition["Code"] == "AUC" and edition["Name"] == "Auction Magic Custom Cards"
    cards = (tmp_path / "out" / "editions" / "Auction Magic Custom Cards.txt").read_text().split("[cards]")[1]
    assert cards.split() == ["2", "R", "Auctioneer", "1", "R", "Packaged", "Gnome"]


def test_a_dck_name_follows_its_file_even_against_name(runner: CliRunner, tmp_path: Path) -> None:
    """Forge moves a .dck whose Name= differs from its file name out of Constructed: the file name wins,
    and the user is told."""
    out = tmp_path / "Burn.dck"
    block = tmp_path / "b.txt"
    block.write_text("4 Lightning Bolt\n")
    result = _export(runner, block, "forge", out, "--name", "Red: Deck Wins?")
    assert read_forge(out.read_text()).name == "Burn"
    assert "warning:" in result.output and "Burn" in result.output

    result = _export(runner, block, "forge", tmp_path / "Red Deck Wins.dck", "--name", "Red: Deck Wins?")
    kept = read_forge((tmp_path / "Red Deck Wins.dck").read_text())
    assert kept.name == "Red: Deck Wins?"  # the file name is the name minus what Forge strips
    assert "warning" not in result.output


def test_forge_custom_scripts_only_what_forge_lacks(runner: CliRunner, tmp_path: Path) -> None:
    """The sample block is all real cards and tokens: no script at all, and an edition that lists none of
    them (Forge's own editions have them). The custom set gets a script per card, in its own edition (AUC,
    its own date)."""
    result = runner.invoke(
        main, ["export", "auction-sample", "--to", "forge-custom", "-o", str(tmp_path / "s")]
    )
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "s").exists()  # nothing to write: no edition with an empty [cards]
    assert "Forge: copy" not in result.output
    assert "Nothing for Forge's custom folder: Forge has every real card of the block" in result.output

    result = runner.invoke(
        main, ["export", "auction-custom.xml", "--to", "forge-custom", "-o", str(tmp_path / "c")]
    )
    assert result.exit_code == 0, result.output
    scripts = sorted(p.name for p in (tmp_path / "c" / "cards").iterdir())
    assert "auctioneer.txt" in scripts and "packaged_gnome.txt" in scripts
    folders = ", ".join(f"{p.name}/" for p in sorted((tmp_path / "c").iterdir()) if p.is_dir())
    assert f"Forge: copy {folders} into <Forge user dir>/custom/, restart Forge. Until" in result.output
    assert "have only their keywords scripted: Packaged Gnome; Auctioneer;" in result.output
    names = [
        p.read_text().splitlines()[0].removeprefix("Name:") for p in (tmp_path / "c" / "cards").iterdir()
    ]
    assert "Auctioneer" in names and not any(is_real_card(Card(name=name)) for name in names)
    edition = _edition(tmp_path / "c")
    assert edition["Code"] == "AUC" and edition["Date"] == "2014-06-01"


@pytest.mark.parametrize("block", ["autobattler-cube", "market-pool", "vortex-pool", "combat-deck"])
def test_a_cube_with_headed_sections_is_sized_by_all_its_cards(
    runner: CliRunner, tmp_path: Path, block: str
) -> None:
    """A block's ``## Creatures`` style headers are categories of the library: the draft is sized by every
    card the cube file lists (was sized by the cards before the first header: refused or 5-card packs)."""
    out = tmp_path / "cube"
    _export(runner, Path(block), "forge-cube", out)
    (cube,) = (out / "cube").iterdir()
    (draft,) = (out / "draft").iterdir()
    listed = sum(
        int(line.split(" ", 1)[0]) for line in cube.read_text().split("[Main]")[1].split("\n") if line
    )
    fields = dict(line.split(":", 1) for line in draft.read_text().splitlines() if ":" in line)
    pack = int(fields["Booster"].split()[0])
    assert int(fields["NumPlayers"]) * int(fields["NumPacks"]) * pack <= listed
    assert pack >= 6 if block == "combat-deck" else pack == 15


def test_forge_sections_outside_the_library_stay_out_of_it(runner: CliRunner, tmp_path: Path) -> None:
    """Forge's [Planes], [Schemes] and [Avatar] are written as such, not in [Main]; a companion goes to the
    sideboard (Forge takes it from there; a second [Commander] card would be a partner); formats without a
    place for a section say what they leave out."""
    deck = tmp_path / "planar.dck"
    deck.write_text(
        "[metadata]\nName=planar\n[Main]\n20 Forest\n[Commander]\n1 Kenrith, the Returned King\n"
        "[Planes]\n1 Akoum\n1 Bant\n[Avatar]\n1 Serra Avatar\n[Schemes]\n1 All in Good Time\n"
    )
    arena = tmp_path / "companion.txt"
    arena.write_text(
        "Commander\n1 Kenrith, the Returned King\n\nCompanion\n1 Lurrus of the Dream-Den\n\nDeck\n20 Forest\n"
    )
    _export(runner, deck, "forge", tmp_path / "out" / "planar.dck")
    back = read_forge((tmp_path / "out" / "planar.dck").read_text())
    assert [e.name for e in back.main] == ["Forest"]
    assert {name: [e.name for e in back.sections[name]] for name in ("planes", "avatar", "schemes")} == {
        "planes": ["Akoum", "Bant"],
        "avatar": ["Serra Avatar"],
        "schemes": ["All in Good Time"],
    }
    _export(runner, arena, "forge", tmp_path / "out" / "companion.dck")
    back = read_forge((tmp_path / "out" / "companion.dck").read_text())
    assert [e.name for e in back.sections["commander"]] == ["Kenrith, the Returned King"]
    assert "Lurrus of the Dream-Den" in [e.name for e in back.side]
    result = _export(runner, deck, "text", tmp_path / "planar.txt")
    assert "planes (2 cards) not written: text has no place for it" in result.output
    assert "Akoum" not in (tmp_path / "planar.txt").read_text()
    result = _export(
        runner, deck, "forge-cube", tmp_path / "cube", "--pack-size", "5", "--players", "2", "--packs", "2"
    )
    assert (
        "commander (1 card) not written" in result.output and "schemes (1 card) not written" in result.output
    )


def test_forge_art_indexes_pick_the_printing_and_survive_a_round_trip(
    runner: CliRunner, tmp_path: Path
) -> None:
    """``Plains|M19|3`` is the third art of Plains in M19 (collector numbers 261-264: 263), in a .cod as in
    a Forge deck written back (was the first art, and four lines of arts became one)."""
    welcome = EXAMPLES / "forge_deck_Core_Set_2019_Welcome_Deck_WU.dck"
    if not welcome.is_file():
        pytest.skip(f"{welcome} is absent")
    _export(runner, welcome, "cod", tmp_path / "welcome.cod")
    deck = read_cod((tmp_path / "welcome.cod").read_bytes())
    plains = [(e.count, e.collector_number) for e in deck.main if e.name == "Plains"]
    assert plains == [(3, "261"), (3, "262"), (3, "263"), (4, "264")]
    _export(runner, welcome, "forge", tmp_path / "out" / "welcome.dck")
    written = (tmp_path / "out" / "welcome.dck").read_text().splitlines()
    assert [line for line in written if " Island|" in line] == [
        "3 Island|M19|1",
        "3 Island|M19|2",
        "3 Island|M19|3",
        "4 Island|M19|4",
    ]
    assert "1 Air Elemental|M19" in written  # one art: no index


def test_a_custom_edition_never_takes_a_real_sets_code(runner: CliRunner, tmp_path: Path) -> None:
    """``--set-code M19`` for forge-custom would collide with Forge's own M19 edition: refused, nothing
    written; ``--set-name`` alone names nothing and is refused too (it was ignored)."""
    block = tmp_path / "bolts.txt"
    block.write_text("4 Lightning Bolt\n")
    result = runner.invoke(main, ["export", str(block), "--to", "forge-custom", "--set-code", "m19"])
    assert result.exit_code == 2 and "M19 is a real set (Core Set 2019)" in result.output
    assert result.output.startswith("error: --set-code M19 is a real set") and result.output.endswith(
        "; nothing written.\n"
    )
    result = runner.invoke(main, ["export", str(block), "--to", "cockatrice-xml", "--set-name", "Mine"])
    assert result.exit_code == 2 and "give that too" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bolts.txt"]
    custom = Path("auction-custom.xml")  # the bundled custom set: an edition is written
    _export(runner, custom, "forge-custom", tmp_path / "out", "--set-code", "BLT", "--set-name", "Bolts")
    assert _edition(tmp_path / "out")["Code"] == "BLT"


def test_the_set_code_help_gives_a_code_forge_custom_takes_silently(runner: CliRunner) -> None:
    """The help's example was AUC, a code of fewer than six characters forge-custom now warns about (it may
    be a set newer than the card data); its example is one it takes without a word, and it says what it
    refuses and what it warns about."""
    import re

    from cockatrice_ext.exporters.forge_edition import forge_code_refusal, forge_code_risk

    result = runner.invoke(main, ["export", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    example = re.search(r"custom set \(code\), e\.g\. (\S+)\.", text)
    assert example is not None, text
    assert forge_code_refusal(example[1]) is None and forge_code_risk(example[1]) is None
    assert "refuses USER and ??? (Forge's own editions) and a real set's code" in text
    assert "fewer than six characters the card data does not know (it may be a newer real set)" in text


def test_a_cod_keeps_sections_outside_the_library_as_zones(runner: CliRunner, tmp_path: Path) -> None:
    """Cockatrice keeps a .cod's other zones (shown in its deck editor, not played): Forge's [Planes] become
    a ``planes`` zone, not main cards, and read back as such; another tool's ``maybe`` zone is the
    maybeboard (it was read as main cards)."""
    deck = tmp_path / "planar.dck"
    deck.write_text("[metadata]\nName=planar\n[Main]\n20 Forest\n[Planes]\n1 Akoum\n1 Bant\n")
    _export(runner, deck, "cod", tmp_path / "planar.cod")
    back = read_cod((tmp_path / "planar.cod").read_bytes())
    assert [e.name for e in back.main] == ["Forest"]
    assert [e.name for e in back.sections["planes"]] == ["Akoum", "Bant"]
    other = tmp_path / "other.cod"
    other.write_text(
        '<cockatrice_deck version="1"><deckname>o</deckname><zone name="main"><card number="4" name="Opt"/>'
        '</zone><zone name="maybe"><card number="1" name="Duress"/></zone></cockatrice_deck>'
    )
    result = _export(runner, other, "text", tmp_path / "other.txt")
    assert "maybeboard (1 card) not written" in result.output
    assert "Duress" not in (tmp_path / "other.txt").read_text()


NAMESAKES = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>SKY</name><longname>Skyward</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name>Shimmering Grotto</name>
      <text>Shimmering Grotto enters tapped.
{T}: Add {U} or {R}.</text>
      <prop><type>Land</type><maintype>Land</maintype><cmc>0</cmc></prop>
      <set rarity="common" num="8">SKY</set>
      <tablerow>0</tablerow>
    </card>
    <card>
      <name>Lightning Bolt</name>
      <text>Lightning Bolt deals 3 damage to any target.</text>
      <prop><type>Instant</type><maintype>Instant</maintype><manacost>R</manacost><cmc>1</cmc>
        <colors>R</colors></prop>
      <set rarity="common" num="9">SKY</set>
      <tablerow>3</tablerow>
    </card>
    <card>
      <name>Spirit</name>
      <text>Trample</text>
      <prop><type>Token Creature — Spirit</type><maintype>Creature</maintype><colors>G</colors>
        <pt>3/3</pt></prop>
      <set>SKY</set>
      <token>1</token>
      <tablerow>2</tablerow>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def test_a_designers_card_named_like_a_real_one_is_said(runner: CliRunner, tmp_path: Path) -> None:
    """A custom land named like the real Shimmering Grotto (other rules) is said; its script is not written
    (Forge keys cards by name: it would replace the real Grotto in every deck), nor is it listed. A reprint
    of a real card (same rules) still gets no script; a designer's 3/3 "Spirit" token keeps its name in a
    .cod (it became Magic-Token's "Spirit Token", a 1/1 flier)."""
    source = tmp_path / "sky.xml"
    source.write_text(NAMESAKES)
    result = _export(runner, source, "forge-custom", tmp_path / "forge")
    said = "your card 'Shimmering Grotto' has the name of a real card with other rules"
    assert result.output.count(said) == 1 and "forge-custom does not write it" in result.output
    assert "Lightning Bolt" not in result.output
    assert not (tmp_path / "forge").exists()  # no custom card left: no script, no edition, no token
    assert "no custom card was written (Shimmering Grotto" in result.output
    result = _export(runner, source, "cod", tmp_path / "sky.cod")
    tokens = [e.name for e in read_cod((tmp_path / "sky.cod").read_bytes()).sections["tokens"]]
    assert tokens == ["Spirit"]


ESIKA_ARENA = """About
Name Esika Brawl

Commander
1 Esika, God of the Tree (KHM) 168

Deck
1 Sol Ring (C21) 263
57 Forest (KHM) 398
"""


def test_a_forge_deck_without_o_keeps_the_lists_own_name(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Arena list's ``About`` / ``Name`` names the Forge deck: without -o its file is named after it (Forge
    names a deck after its file), not after the list's file; an -o naming it otherwise says what is lost."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "arena-about.txt").write_text(ESIKA_ARENA)
    result = runner.invoke(main, ["export", "arena-about.txt", "--to", "forge"])
    assert result.exit_code == 0, result.output
    written = tmp_path / "Esika Brawl.dck"
    assert written.is_file() and not (tmp_path / "arena-about.dck").exists()
    assert read_forge(written.read_text()).name == "Esika Brawl"
    result = runner.invoke(main, ["export", "arena-about.txt", "--to", "forge", "-o", "x.dck"])
    assert result.exit_code == 0, result.output
    assert read_forge((tmp_path / "x.dck").read_text()).name == "x"
    assert "to call it Esika Brawl, write it as 'Esika Brawl.dck'" in result.output


def test_a_forge_deck_named_by_its_file_alone_keeps_the_files_name(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list that names itself nowhere is named after its file, silently, as before."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bolts.txt").write_text("4 Lightning Bolt\n")
    result = runner.invoke(main, ["export", "bolts.txt", "--to", "forge"])
    assert result.exit_code == 0, result.output
    assert read_forge((tmp_path / "bolts.dck").read_text()).name == "bolts"
    assert "warning" not in result.output
