"""A block designer's report: Forge custom sets that say what they leave to the user, editions Forge
reads as meant (unique numbers, real rarities, a date from the input), and messages that help."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main

SET_XML = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>{code}</name><longname>{code} block</longname><settype>Custom</settype>
  <releasedate>{date}</releasedate></set></sets>
  <cards>{cards}</cards>
</cockatrice_carddatabase>
"""
CARD_XML = """<card><name>{name}</name><text>{text}</text>
  <prop><layout>{layout}</layout><side>front</side><type>{type}</type><maintype>{type}</maintype>
  <manacost>{cost}</manacost>{pt}</prop>
  <set rarity="{rarity}" num="{num}">{code}</set></card>"""


def card_xml(name: str, text: str, *, code: str = "DAN", num: str = "1", **kw: str) -> str:
    """One ``<card>`` of a hand-made custom set."""
    values = {"layout": "normal", "type": "Creature", "cost": "1W", "pt": "<pt>2/2</pt>", "rarity": "common"}
    values.update(kw)
    return CARD_XML.format(name=name, text=text, code=code, num=num, **values)


def set_xml(folder: Path, file: str, *cards: str, code: str = "DAN", date: str = "2026-11-01") -> Path:
    """A custom set file holding ``cards``."""
    path = folder / file
    path.write_text(SET_XML.format(code=code, date=date, cards="".join(cards)), encoding="utf-8")
    return path


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    """The output (stdout and stderr) of ``cockatrice-ext ARGS``, which must exit with ``code``."""
    result = runner.invoke(main, list(args))
    assert result.exit_code == code, result.output
    return result.output


def test_forge_scripts_that_hold_only_keywords_are_said(runner: CliRunner, tmp_path: Path) -> None:
    """A creature's ETB trigger and a sorcery's spell ability are not scripted: each such card is named,
    a card of keywords only (or an Aura's Enchant line) is not, and the next step does not sound ready."""
    source = set_xml(
        tmp_path,
        "dan.xml",
        card_xml("Glimmer Tyrant", "Flying\nWhen Glimmer Tyrant enters, you gain 2 life.", num="1"),
        card_xml("Dan's Reckoning", "Destroy all creatures.", num="2", type="Sorcery", pt=""),
        card_xml("Plain Flier", "Flying, vigilance", num="3"),
    )
    out = run(runner, "export", str(source), "--to", "forge-custom", "-o", str(tmp_path / "f"))
    by_hand = "only its keywords are scripted; script its other rules text by hand (A:, T:, SVar: lines)"
    assert f"warning: Glimmer Tyrant: {by_hand}" in out
    assert f"warning: Dan's Reckoning: {by_hand}" in out
    assert "Plain Flier:" not in out
    assert "do nothing but their keywords" in out


def test_many_keywords_only_cards_share_one_line(runner: CliRunner, tmp_path: Path) -> None:
    cards = [card_xml(f"Dan Card {i}", "Draw a card.", num=str(i), type="Sorcery", pt="") for i in range(8)]
    source = set_xml(tmp_path, "dan.xml", *cards)
    out = run(runner, "export", str(source), "--to", "forge-custom", "-o", str(tmp_path / "f"))
    lines = [line for line in out.splitlines() if "only their keywords scripted" in line]
    assert len(lines) == 1 and "8 cards" in lines[0] and "Dan Card 7" in lines[0]


def _edition_lines(folder: Path) -> list[str]:
    (edition,) = (folder / "editions").iterdir()
    return edition.read_text(encoding="utf-8").splitlines()


def test_edition_numbers_are_unique_across_custom_sets(runner: CliRunner, tmp_path: Path) -> None:
    """Card 1 of DAN and card 1 of DN2 (and a card without a DAN number) got the same number in one
    edition; a card keeps its own number where it is free."""
    dan = set_xml(tmp_path, "dan.xml", card_xml("Glimmer Tyrant", "Flying", num="1"))
    dn2 = set_xml(
        tmp_path,
        "dn2.xml",
        card_xml("Moonlit Pupil", "Flying", code="DN2", num="1"),
        card_xml("Moonlit Sage", "Flying", code="DN2", num="2"),
        code="DN2",
    )
    block = tmp_path / "block.txt"
    block.write_text("1 Moonlit Pupil\n1 Glimmer Tyrant\n1 Moonlit Sage\n", encoding="utf-8")
    sources = ["--card-source", str(dan), "--card-source", str(dn2)]
    for extra in ([], ["--set-code", "DAN"]):
        out_dir = tmp_path / f"f{len(extra)}"
        run(runner, "export", str(block), *sources, "--to", "forge-custom", "-o", str(out_dir), *extra)
        cards = _edition_lines(out_dir)[_edition_lines(out_dir).index("[cards]") + 1 :]
        numbers = [line.split()[0] for line in cards if line]
        assert len(numbers) == len(set(numbers)) == 3, cards
    assert "1 C Glimmer Tyrant" in cards  # its own number in DAN


def _edition_cards(folder: Path) -> list[str]:
    """The ``[cards]`` lines of the one Forge edition in ``folder``."""
    lines = _edition_lines(folder)
    cards = [*lines[lines.index("[cards]") + 1 :], ""]
    return cards[: cards.index("")]


def test_edition_rarity_is_the_real_sets_not_a_promos(runner: CliRunner, tmp_path: Path) -> None:
    """Duress is common in every booster set; its first printing is a rare promo (PMEI). A Forge edition
    lists only the designer's cards (Forge's own editions have Duress, with its rarity), so there Duress
    is neither listed nor scripted; a --set-code card file gives it its real sets' rarity."""
    block = tmp_path / "block.txt"
    block.write_text("24 Duress\n", encoding="utf-8")
    run(runner, "export", str(block), "--to", "forge-custom", "-o", str(tmp_path / "f"))
    assert not (tmp_path / "f").exists()  # no script, no edition with an empty [cards]
    run(
        runner, "export", str(block), "--to", "cockatrice-xml", "--set-code", "FRM", "-o", str(tmp_path / "x")
    )
    assert 'rarity="common">FRM</set>' in (tmp_path / "x").read_text(encoding="utf-8")


def test_edition_dates_come_from_the_input(runner: CliRunner, tmp_path: Path) -> None:
    """Date= was today (reproducible within a day only) and --set-code wrote no <releasedate>: the newest
    release of the printings held, a fixed date for custom cards without one, SOURCE_DATE_EPOCH first. A
    Forge edition lists only the designer's cards, so only their printings date it: Duress's do not."""
    from cockatrice_ext.cards.store import shipped_store

    store = shipped_store()
    newest = max(store.sets[p.set_code].release_date for p in store.find("Duress").printings)
    assert newest > "2000-06-01"
    dan = set_xml(tmp_path, "dan.xml", card_xml("Glimmer Tyrant", "Flying"), date="2000-06-01")
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("1 Duress\n1 Glimmer Tyrant\n", encoding="utf-8")
    run(
        runner,
        "export",
        str(mixed),
        "--card-source",
        str(dan),
        "--to",
        "forge-custom",
        "-o",
        str(tmp_path / "m"),
    )
    assert "Date=2000-06-01" in _edition_lines(tmp_path / "m")  # DAN's, the newer Duress printings aside
    assert [line.split(" ", 2)[2] for line in _edition_cards(tmp_path / "m")] == ["Glimmer Tyrant"]
    block = tmp_path / "block.txt"
    block.write_text("1 Duress\n", encoding="utf-8")
    run(runner, "export", str(block), "--to", "forge-custom", "-o", str(tmp_path / "f"))
    assert not (tmp_path / "f").exists()  # no card of the designer's: no edition to date
    run(
        runner, "export", str(block), "--to", "cockatrice-xml", "--set-code", "FRM", "-o", str(tmp_path / "x")
    )
    assert f"<releasedate>{newest}</releasedate>" in (tmp_path / "x").read_text(encoding="utf-8")

    undated = tmp_path / "undated.xml"
    undated.write_text(
        set_xml(tmp_path, "u.xml", card_xml("Glimmer Tyrant", "Flying"))
        .read_text(encoding="utf-8")
        .replace("<releasedate>2026-11-01</releasedate>", ""),
        encoding="utf-8",
    )
    run(runner, "export", str(undated), "--to", "forge-custom", "-o", str(tmp_path / "u"))
    assert "Date=2000-01-01" in _edition_lines(tmp_path / "u")
    help_text = run(runner, "export", "--help")
    assert "--set-name" in help_text and "release date" in help_text


BLOOD_CRYPT = (
    "({T}: Add {B} or {R}.)\nAs this land enters, you may pay 2 life. If you don't, it enters tapped."
)

REAL_WORDING = BLOOD_CRYPT.replace("As this land enters", "As Blood Crypt enters the battlefield").replace(
    "enters tapped", "enters the battlefield tapped"
)


@pytest.mark.parametrize(
    ("kw", "warned"),
    [
        ({}, False),  # Oracle's rewording of the real card
        ({"text": BLOOD_CRYPT.replace("this land", "Blood Crypt") + "  "}, False),
        ({"text": REAL_WORDING, "type": "Land — Swamp Mountain Cave"}, True),  # same words, other card
        ({"text": REAL_WORDING, "cost": "B"}, True),
        ({"text": "{T}: Add {B}. Blood Crypt deals 1 damage to you."}, True),
    ],
)
def test_a_real_reprint_reworded_is_no_namesake(
    runner: CliRunner, tmp_path: Path, kw: dict[str, str], warned: bool
) -> None:
    """Blood Crypt as the spoiler site words it now ("As this land enters") was said to be a designer's
    card with other rules; one with other types, cost or text still is."""
    values = {"text": BLOOD_CRYPT, "type": "Land — Swamp Mountain", "cost": "", "pt": "", "rarity": "rare"}
    values.update(kw)
    source = set_xml(tmp_path, "spoiler.xml", card_xml("Blood Crypt", code="SPO", **values), code="SPO")
    out = run(runner, "export", str(source), "--to", "text", "-o", "-")
    assert ("'Blood Crypt' has the name of a real card" in out) is warned, out


def test_the_spoiler_files_shocklands_are_no_namesakes(runner: CliRunner) -> None:
    from shared_paths import COCKATRICE_FILES

    spoiler = COCKATRICE_FILES / "spoiler-magic-spoiler.xml"
    if not spoiler.is_file():
        pytest.skip("shared spoiler file not available")
    out = run(runner, "export", str(spoiler), "--to", "text", "-o", "-")
    assert "has the name of a real card" not in out


def test_a_re_export_names_the_scripts_it_did_not_write(runner: CliRunner, tmp_path: Path) -> None:
    """A card dropped from the block kept its script in cards/, which Forge loads: it is named (the user's
    files are not deleted), and one the export wrote is not."""
    first = set_xml(
        tmp_path, "a.xml", card_xml("Glimmer Tyrant", "Flying"), card_xml("Old Card", "Flying", num="2")
    )
    out_dir = tmp_path / "custom"
    run(runner, "export", str(first), "--to", "forge-custom", "-o", str(out_dir))
    (out_dir / "cards" / "my_own.txt").write_text("Name:My Own\n", encoding="utf-8")
    second = set_xml(tmp_path, "a.xml", card_xml("Glimmer Tyrant", "Flying"))
    out = run(runner, "export", str(second), "--to", "forge-custom", "-o", str(out_dir))
    assert f"warning: {out_dir / 'cards' / 'old_card.txt'} was not written by this export" in out
    assert "my_own.txt was not written" in out and "glimmer_tyrant.txt was not" not in out
    assert (out_dir / "cards" / "old_card.txt").is_file()


def test_a_forge_deck_named_against_its_file_says_how_to_keep_the_name(
    runner: CliRunner, tmp_path: Path
) -> None:
    block = tmp_path / "block.txt"
    block.write_text("4 Lightning Bolt\n", encoding="utf-8")
    out = run(
        runner,
        "export",
        str(block),
        "--to",
        "forge",
        "--name",
        "Dan's Block",
        "-o",
        str(tmp_path / "named.dck"),
    )
    assert (
        "Forge names a deck after its file: named; to call it Dan's Block, write it as \"Dan's Block.dck\""
        in out
    )
    assert "Name=named" in (tmp_path / "named.dck").read_text(encoding="utf-8")


@pytest.mark.parametrize(("fmt", "program"), [("mtgo", "MTGO"), ("arena", "MTG Arena")])
def test_mtgo_and_arena_decks_name_the_custom_cards(
    runner: CliRunner, tmp_path: Path, fmt: str, program: str
) -> None:
    source = set_xml(tmp_path, "dan.xml", card_xml("Glimmer Tyrant", "Flying"))
    block = tmp_path / "block.txt"
    block.write_text("1 Glimmer Tyrant\n4 Lightning Bolt\n", encoding="utf-8")
    out = run(runner, "export", str(block), "--card-source", str(source), "--to", fmt, "-o", "-")
    assert f"warning: {program} does not have Glimmer Tyrant: the card is not in the real card data" in out
    assert "Lightning Bolt:" not in out and "have Lightning Bolt" not in out
