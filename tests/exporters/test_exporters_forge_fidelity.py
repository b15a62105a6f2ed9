"""What Forge makes of forge-custom's files, judged by Forge's own readers: a custom card never replaces a
real one, an edition never takes a code Forge holds, reminder text never stops a keyword, the edition
lists only the designer's cards, names Forge cannot read back are not written, and Auras and aftermath
halves are scripted as Forge's current scripts are."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from export_samples import creature_token, instant_xml

from cockatrice_ext.cards.model import Card, CardSet, Face, Printing
from cockatrice_ext.cards.store import shipped_store
from cockatrice_ext.cli import main
from cockatrice_ext.exporters import deck_from_cards, write_forge_custom_set, write_forge_dck
from cockatrice_ext.exporters.forge import forge_misread_names
from cockatrice_ext.exporters.forge_edition import (
    FORGE_RESERVED_CODES,
    block_set_code,
    forge_code_refusal,
    forge_code_risk,
    forge_edition_notes,
    forge_has_card,
    forge_real_namesake,
    forge_unwritable_cards,
    keywords_only_cards,
)
from cockatrice_ext.exporters.forge_scripts import forge_token_script_name, write_forge_script

FORGE_LOGGER = "cockatrice_ext.exporters.forge"
SKY = CardSet("SKYRCH", "Skyreach", "Custom", "2026-03-01")


def _card(name: str, text: str, *, types: tuple[str, ...] = ("Instant",), **face: object) -> Card:
    """A designer's card printed in the custom set SKYRCH (a code no real set can have)."""
    face.setdefault("colors", ("R",))
    return Card(
        name=name,
        faces=(Face(name=name, mana_cost="{R}", types=types, oracle_text=text, **face),),  # type: ignore[arg-type]
        printings=(Printing("SKYRCH", "1", "common"),),
    )


def _real(name: str) -> Card:
    card = shipped_store().find(name)
    assert card is not None, name
    return card


def _edition_cards(bundle: dict[str, bytes]) -> list[str]:
    """The ``[cards]`` lines of the one edition in ``bundle``."""
    (edition,) = (v.decode() for k, v in bundle.items() if k.startswith("editions/"))
    section = edition.split("[cards]\n", 1)[1].split("\n\n", 1)[0]
    return [line for line in section.splitlines() if line]


FOUR_DAMAGE_BOLT = _card("Lightning Bolt", "Lightning Bolt deals 4 damage to any target.")
CARD_XML = """<card><name>{name}</name><text>{text}</text>
  <prop><type>Instant</type><maintype>Instant</maintype><manacost>R</manacost><cmc>1</cmc>
    <colors>R</colors></prop>
  <set rarity="common" num="{num}">{code}</set></card>"""


def _block(folder: Path, *cards: tuple[str, str], code: str = "SKYRCH") -> Path:
    """A designer's Cockatrice set ``code`` (long name Skyreach) of red instants, each ``(name, text)``."""
    body = "".join(
        CARD_XML.format(name=name, text=text, num=number, code=code)
        for number, (name, text) in enumerate(cards, start=1)
    )
    path = folder / "sky.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_carddatabase version="4">'
        f"<sets><set><name>{code}</name><longname>Skyreach</longname><settype>Custom</settype>"
        f"<releasedate>2026-03-01</releasedate></set></sets><cards>{body}</cards></cockatrice_carddatabase>",
        encoding="utf-8",
    )
    return path


def _warnings(runner: CliRunner, *args: str, code: int = 0) -> list[str]:
    """The ``warning:`` lines of ``cockatrice-ext export ARGS``, which must exit with ``code``."""
    result = runner.invoke(main, ["export", *args])
    assert result.exit_code == code, result.output
    return [line for line in result.output.splitlines() if line.startswith("warning: ")]


# -- 1. a custom card under a real card's name -------------------------------------------------------------
def test_a_custom_card_named_like_a_real_one_is_not_written() -> None:
    """Forge reads custom scripts after its own into one name-keyed, case-insensitive map: a script for a
    4-damage Lightning Bolt (or a "lightning bolt") replaced the real card in every Forge deck. Neither
    is written, nor listed in the edition; the designer's other cards are."""
    lower = _card("lightning bolt", "Deal 5 damage to any target.")
    other = _card("Skyreach Spark", "Skyreach Spark deals 2 damage to any target.")
    deck = deck_from_cards("Sky", [FOUR_DAMAGE_BOLT, other], {"SKYRCH": SKY})
    bundle = write_forge_custom_set(deck)
    assert "cards/lightning_bolt.txt" not in bundle and "cards/skyreach_spark.txt" in bundle
    assert [line.split(" ", 2)[2] for line in _edition_cards(bundle)] == ["Skyreach Spark"]
    assert "Lightning Bolt" in forge_unwritable_cards(deck)
    assert keywords_only_cards(deck) == ["Skyreach Spark"]  # not a card that was not written

    cased = deck_from_cards("Sky", [lower, other], {"SKYRCH": SKY})
    bundle = write_forge_custom_set(cased)
    assert "cards/lightning_bolt.txt" not in bundle  # Forge's map ignores case
    assert list(forge_unwritable_cards(cased)) == ["lightning bolt"]


def test_cards_not_written_are_warning_lines_said_once(
    runner: CliRunner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The forge module logged the cards it left out ("<time> WARNING cockatrice_ext.exporters.forge:
    ..." on the command line): each is now a ``warning:`` line like the command's others, said once (the
    namesake warning already names a same-cased Lightning Bolt; a "lightning bolt" it does not name is
    said here), and nothing is logged."""
    source = _block(
        tmp_path,
        ("Lightning Bolt", "Lightning Bolt deals 4 damage to any target."),
        ("lightning bolt", "Deal 5 damage to any target."),
        ("Skyreach Spark", "Skyreach Spark deals 2 damage to any target."),
    )
    with caplog.at_level(logging.WARNING, logger=FORGE_LOGGER):
        warned = _warnings(runner, str(source), "--to", "forge-custom", "-o", str(tmp_path / "f"))
    assert not [record for record in caplog.records if record.name.startswith(FORGE_LOGGER)]
    assert len([line for line in warned if "'Lightning Bolt'" in line]) == 1, warned
    (lower,) = [line for line in warned if "'lightning bolt'" in line]
    assert lower == (
        "warning: 'lightning bolt' not written for Forge (no script, no edition line): a script would replace"
        " the real Lightning Bolt in every Forge deck; give it a name of its own"
    )
    assert sorted(p.name for p in (tmp_path / "f" / "cards").iterdir()) == ["skyreach_spark.txt"]


def test_no_script_because_none_was_written_is_said_truly(runner: CliRunner, tmp_path: Path) -> None:
    """A block whose only custom card was left out was told "No card scripts: Forge has every card of the
    block", which Forge does not: the next step says the custom cards were not written."""
    source = _block(tmp_path, ("Lightning Bolt", "Lightning Bolt deals 4 damage to any target."))
    result = runner.invoke(main, ["export", str(source), "--to", "forge-custom", "-o", str(tmp_path / "f")])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "f").exists()  # nor an edition with an empty [cards]
    assert "Forge has every card of the block" not in result.output and "Forge: copy" not in result.output
    assert "Nothing for Forge's custom folder: no custom card was written (Lightning Bolt" in result.output


NAMESAKE_XML = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_carddatabase version="4">'
    "<sets><set><name>SKYRCH</name><longname>Skyreach</longname><settype>Custom</settype></set></sets><cards>"
    + instant_xml("Lightning Bolt", "Lightning Bolt deals 4 damage to any target.", "SKYRCH", 1)
    + instant_xml("Skyreach Spark", "Skyreach Spark deals 2 damage to any target.", "SKYRCH", 2)
    + "</cards></cockatrice_carddatabase>\n"
)


def test_the_namesake_warning_is_true_for_forge(runner: CliRunner, tmp_path: Path) -> None:
    """The warning said "Cockatrice and Forge would show the real one": in Forge the custom script replaced
    the real card. It now says what forge-custom does (leaves it out) and what to do, once."""
    source = tmp_path / "sky.xml"
    source.write_text(NAMESAKE_XML, encoding="utf-8")
    result = runner.invoke(main, ["export", str(source), "--to", "forge-custom", "-o", str(tmp_path / "f")])
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if "'Lightning Bolt'" in line]
    assert len(warned) == 1, result.output
    assert "Forge would show the real one" not in warned[0]
    assert "forge-custom does not write it" in warned[0] and "give yours a name of its own" in warned[0]
    assert sorted(p.name for p in (tmp_path / "f" / "cards").iterdir()) == ["skyreach_spark.txt"]


# -- 2. edition codes Forge holds ----------------------------------------------------------------------------
@pytest.mark.parametrize("code", ["USER", "user", "???"])
def test_forge_reserved_codes_are_refused(code: str, runner: CliRunner, tmp_path: Path) -> None:
    """``USER`` is the edition Forge makes for custom cards no edition lists, ``???`` its unknown edition:
    an edition under either replaced Forge's. Refused by the writer and the command line, nothing
    written; the command line refuses it before reading the list (a list with an unknown name is not
    reported: the code is the first thing to fix)."""
    deck = deck_from_cards("Sky", [_card("Skyreach Spark", "Flying")], {"SKYRCH": SKY})
    with pytest.raises(ValueError, match="reserved by Forge"):
        write_forge_custom_set(deck, edition=CardSet(code, "Mine"))
    assert code.upper() in FORGE_RESERVED_CODES
    block = tmp_path / "sky.xml"
    block.write_text(NAMESAKE_XML, encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(
        main, ["export", str(block), "--to", "forge-custom", "--set-code", code, "-o", str(out)]
    )
    assert (
        result.exit_code == 2 and "reserved by Forge" in result.output and "nothing written" in result.output
    )
    assert not out.exists()
    unknown = tmp_path / "unknown.txt"
    unknown.write_text("1 Skyreach Nonesuch\n", encoding="utf-8")
    result = runner.invoke(
        main, ["export", str(unknown), "--to", "forge-custom", "--set-code", code, "-o", str(out)]
    )
    (line,) = result.output.splitlines()
    assert result.exit_code == 2 and line.startswith(f"error: --set-code {code.upper()} is reserved by Forge")
    assert line.endswith("; nothing written.") and not out.exists()


def test_a_designers_set_under_a_reserved_code_gets_a_code_of_its_own(
    runner: CliRunner, tmp_path: Path
) -> None:
    """A designer's Cockatrice set called USER made an edition that replaced Forge's USER bucket: the
    edition takes the block's own code (name and date kept), and the command line says so."""
    user = CardSet("USER", "Skyreach", "Custom", "2026-03-01")
    card = Card(
        name="Skyreach Spark",
        faces=(Face(name="Skyreach Spark", mana_cost="{R}", types=("Instant",), oracle_text="Flying"),),
        printings=(Printing("USER", "1", "common"),),
    )
    deck = deck_from_cards("Sky", [card], {"USER": user})
    bundle = write_forge_custom_set(deck)
    edition = bundle["editions/Skyreach.txt"].decode()
    assert f"\nCode={block_set_code('Skyreach')}\n" in edition and "Date=2026-03-01" in edition
    assert "Code=USER" not in edition
    (note,) = forge_edition_notes(deck)
    assert note.startswith("USER is reserved by Forge") and note.endswith(
        "the Forge edition gets another code"
    )
    source = _block(tmp_path, ("Skyreach Spark", "Flying"), code="USER")
    warned = _warnings(runner, str(source), "--to", "forge-custom", "-o", str(tmp_path / "f"))
    assert warned == [f"warning: {note}"]
    (written,) = (tmp_path / "f" / "editions").iterdir()
    assert f"\nCode={block_set_code('Skyreach')}\n" in written.read_text(encoding="utf-8")


def test_a_code_that_may_be_a_newer_real_set_is_not_used_silently(runner: CliRunner, tmp_path: Path) -> None:
    """The card data stops in 2022: FDN (2024) was taken as a custom code and replaced Forge's
    Foundations. A code shorter than six characters that the data does not know is warned about, in one
    ``warning:`` line saying how to choose a safe one; a longer one, and every code made from a block's
    name, is not."""
    deck = deck_from_cards("Sky", [_card("Skyreach Spark", "Flying")], {"SKYRCH": SKY})
    source = _block(tmp_path, ("Skyreach Spark", "Flying"))
    warned = _warnings(
        runner, str(source), "--to", "forge-custom", "--set-code", "FDN", "-o", str(tmp_path / "f")
    )
    assert len(warned) == 1 and "edition code FDN" in warned[0], warned
    assert "6 or more letters and digits" in warned[0] and warned[0] == f"warning: {forge_code_risk('FDN')}"
    assert forge_edition_notes(deck, CardSet("FDN", "Mine")) == [forge_code_risk("FDN")]
    assert not _warnings(runner, str(source), "--to", "forge-custom", "-o", str(tmp_path / "g"))  # SKYRCH
    assert forge_code_risk("DSK") and forge_code_risk("one")
    assert forge_code_risk("SKYRCH") is None and forge_code_risk(block_set_code("Any block")) is None
    assert forge_code_refusal("M19") is not None  # a real set of the data: refused, as before
    assert not forge_edition_notes(deck)  # the designer's SKYRCH


# -- 3. reminder text ----------------------------------------------------------------------------------------
def test_reminder_text_does_not_stop_keywords_or_enchant() -> None:
    """``Flying (This creature can't be blocked ...)`` got no ``K:Flying``, and an Aura's ``Enchant creature
    you control (Target ...)`` no ``K:Enchant``: the writers read the raw text while the check that says
    what is scripted stripped reminder text. One stripping serves both."""
    wyvern = _card(
        "Ashen Wyvern",
        "Flying (This creature can't be blocked except by creatures with flying or reach.)\nHaste",
        types=("Creature",),
        power="4",
        toughness="4",
    )
    mantle = _card(
        "Warden's Mantle",
        "Enchant creature you control (Target a creature you control as you cast this. This Aura enters"
        " attached to that creature.)\nEnchanted creature gets +1/+1 and has vigilance.",
        types=("Enchantment",),
        subtypes=("Aura",),
    )
    script = write_forge_script(wyvern)
    assert "\nK:Flying\nK:Haste\n" in script
    assert "\nK:Enchant:Creature.YouCtrl:creature you control\n" in write_forge_script(mantle)
    deck = deck_from_cards("Sky", [wyvern, mantle], {"SKYRCH": SKY})
    assert keywords_only_cards(deck) == ["Warden's Mantle"]  # its +1/+1 is unscripted; the wyvern is whole
    flying = "Flying (This creature can't be blocked except by creatures with flying or reach.)"
    spirit = creature_token("Spirit", "W", "1", "1", flying)
    assert forge_token_script_name(spirit) == "w_1_1_spirit_flying"  # Forge's own Spirit token's name


# -- 4. the edition lists the designer's cards only ----------------------------------------------------------
def test_the_edition_lists_only_the_designers_cards() -> None:
    """Real cards were listed under the custom code with its late date (``41 C Island``): Forge would give
    them a picture-less custom printing, its newest, in decks that name no set. No draft or booster reads
    the edition, so only the designer's cards are listed."""
    spark = _card("Skyreach Spark", "Flying")
    bundle = write_forge_custom_set(deck_from_cards("Sky", [_real("Island"), _real("Duress"), spark]))
    assert [line.split(" ", 2)[2] for line in _edition_cards(bundle)] == ["Skyreach Spark"]
    assert not [path for path in bundle if "island" in path or "duress" in path]


# -- 5. names Forge cannot read back -------------------------------------------------------------------------
def test_names_forge_cannot_read_back_are_not_written(
    runner: CliRunner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``Blade+`` is read as a foil ``Blade``; an edition line's name stops at ``@`` or ``$`` (its pattern
    is ``[^@$]+``): those cards are not written and each reason is said once, as a ``warning:`` line; a
    Forge deck or cube naming them says which lines Forge misreads. Nothing is logged."""
    names = ("Blade+", "Mail@Arms", "Cash $ Grab", "Sword of Wit 1")
    deck = deck_from_cards("Odd", [_card(name, "Flying") for name in names], {"SKYRCH": SKY})
    bundle = write_forge_custom_set(deck)
    assert sorted(path for path in bundle if path.startswith("cards/")) == ["cards/sword_of_wit_1.txt"]
    assert [line.split(" ", 2)[2] for line in _edition_cards(bundle)] == ["Sword of Wit 1"]
    assert forge_misread_names(deck) == ["Blade+"]

    source = _block(tmp_path, *((name, "Flying") for name in names))
    with caplog.at_level(logging.WARNING, logger=FORGE_LOGGER):
        warned = _warnings(runner, str(source), "--to", "forge-custom", "-o", str(tmp_path / "f"))
        assert len(warned) == 3, warned
        assert "'Blade+' not written for Forge" in warned[0] and "foil" in warned[0]
        assert "'Mail@Arms' not written" in warned[1] and "@ or $" in warned[1]
        assert "'Cash $ Grab' not written" in warned[2] and "@ or $" in warned[2]
        for fmt, what in (("forge", "deck"), ("forge-cube", "cube")):
            out = ["-o", str(tmp_path / "odd.dck")] if fmt == "forge" else ["-o", str(tmp_path / "cube")]
            draft = ["--players", "2", "--packs", "1", "--pack-size", "2"] if fmt == "forge-cube" else []
            (line,) = _warnings(runner, str(source), "--to", fmt, *out, *draft)
            assert line.startswith(f"warning: Forge would misread the {what} lines of 'Blade+' (")
            assert "Mail@Arms" not in line
        (line,) = _warnings(runner, str(source), "--to", "forge", "-o", "-")  # the deck on standard output
        assert "misread the deck lines of 'Blade+'" in line
        write_forge_dck(deck)
    assert not [record for record in caplog.records if record.name.startswith(FORGE_LOGGER)]


# -- 6. Auras, aftermath, basic lands as Forge scripts them ------------------------------------------------
def test_auras_are_scripted_as_forges_current_scripts() -> None:
    """Forge makes an Aura's spell from ``K:Enchant:Valid`` and reads its AI's choice from
    ``SVar:AttachAILogic`` (pacifism.txt: ``K:Enchant:Creature`` and ``Curse``); a harmful Aura was
    written with ``AILogic$ Pump`` (the AI put it on its own creature)."""
    chains = _card(
        "Binding Chains",
        "Enchant creature\nEnchanted creature can't attack or block.",
        types=("Enchantment",),
        subtypes=("Aura",),
    )
    blessing = _card(
        "Sky Blessing",
        "Enchant creature\nEnchanted creature gets +2/+2 and can't be blocked.",
        types=("Enchantment",),
        subtypes=("Aura",),
    )
    odd = _card(
        "Odd Bond", "Enchant creature\nAt the beginning of your upkeep, scry 1.", types=("Enchantment",)
    )
    curse = write_forge_script(chains)
    assert "\nK:Enchant:Creature\nSVar:AttachAILogic:Curse\n" in curse
    assert "A:SP$ Attach" not in curse and "AILogic$ Pump" not in curse
    assert "\nK:Enchant:Creature\nSVar:AttachAILogic:Pump\n" in write_forge_script(blessing)
    assert "K:Enchant" not in write_forge_script(odd)  # no Aura: nothing to attach


def test_an_aftermath_half_says_aftermath() -> None:
    """Forge's Dusk // Dawn has ``K:Aftermath`` on Dawn: without it the second half was cast from the hand."""
    card = Card(
        name="Dig // Bury",
        layout="aftermath",
        faces=(
            Face(name="Dig", mana_cost="{1}{G}", types=("Sorcery",), oracle_text="Draw a card."),
            Face(
                name="Bury",
                mana_cost="{2}{B}",
                types=("Sorcery",),
                oracle_text="Aftermath (Cast this spell only from your graveyard. Then exile it.)\n"
                "Target opponent sacrifices a creature.",
            ),
        ),
        printings=(Printing("SKYRCH", "7", "uncommon"),),
    )
    first, second = write_forge_script(card).split("\n\nALTERNATE\n\n")
    assert "K:Aftermath" not in first and "AlternateMode:Split" in first
    assert "\nK:Aftermath\n" in second


def test_a_basic_land_has_forges_basic_land_rarity() -> None:
    """Forge's editions give basic lands rarity ``L``; a designer's basic land was written ``C``."""
    wastes = Card(
        name="Skyreach Wastes",
        faces=(
            Face(name="Skyreach Wastes", supertypes=("Basic",), types=("Land",), oracle_text="{T}: Add {C}."),
        ),
        printings=(Printing("SKYRCH", "9", "common"),),
    )
    bundle = write_forge_custom_set(deck_from_cards("Sky", [wastes], {"SKYRCH": SKY}))
    assert _edition_cards(bundle) == ["9 L Skyreach Wastes"]


# -- 7. re-checked: what forge-custom says and leaves ---------------------------------------------------
def test_a_left_over_script_of_a_refused_card_is_said_to_replace_the_real_one(
    runner: CliRunner, tmp_path: Path
) -> None:
    """An older export left ``cards/lightning_bolt.txt`` (a 4-damage Bolt, now refused) in the folder; the
    warning said "delete it if its card is no longer in the block", but the card is in the block and the
    file replaces the real Lightning Bolt in Forge: it now says so, and to delete it. A file of a card gone
    from the block keeps the old advice."""
    source = _block(
        tmp_path,
        ("Lightning Bolt", "Lightning Bolt deals 4 damage to any target."),
        ("Skyreach Spark", "Skyreach Spark deals 2 damage to any target."),
    )
    out = tmp_path / "f"
    (out / "cards").mkdir(parents=True)
    (out / "cards" / "lightning_bolt.txt").write_text("Name:Lightning Bolt\nManaCost:R\n", encoding="utf-8")
    (out / "cards" / "gone_card.txt").write_text("Name:Gone Card\nManaCost:R\n", encoding="utf-8")
    warned = _warnings(runner, str(source), "--to", "forge-custom", "-o", str(out))
    (bolt,) = [line for line in warned if "lightning_bolt.txt" in line]
    assert "no longer in the block" not in bolt
    assert "in place of the real Lightning Bolt" in bolt and bolt.endswith("; delete it")
    (gone,) = [line for line in warned if "gone_card.txt" in line]
    assert gone.endswith("delete it if its card is no longer in the block")


def test_no_custom_card_left_writes_no_edition(runner: CliRunner, tmp_path: Path) -> None:
    """With every custom card refused, or a block of real cards only, an edition with an empty [cards] was
    written and the next step said to copy editions/ into Forge. Nothing is written now and the next step
    says there is nothing for Forge's custom folder (naming what was refused); the exit code stays 0."""
    deck = deck_from_cards("Sky", [FOUR_DAMAGE_BOLT, _real("Duress")], {"SKYRCH": SKY})
    assert write_forge_custom_set(deck) == {}
    source = _block(tmp_path, ("Lightning Bolt", "Lightning Bolt deals 4 damage to any target."))
    result = runner.invoke(main, ["export", str(source), "--to", "forge-custom", "-o", str(tmp_path / "f")])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "f").exists() and "copy" not in result.output
    assert "Nothing for Forge's custom folder: no custom card was written (Lightning Bolt" in result.output
    block = tmp_path / "real.txt"
    block.write_text("4 Duress\n", encoding="utf-8")
    result = runner.invoke(main, ["export", str(block), "--to", "forge-custom", "-o", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "r").exists() and "copy" not in result.output
    assert "Nothing for Forge's custom folder: Forge has every real card of the block" in result.output


def test_the_real_card_in_other_capitals_is_the_real_card(runner: CliRunner, tmp_path: Path) -> None:
    """ "LIGHTNING BOLT" with the real 3-damage text (or the real text but for punctuation) was refused as a
    card that would replace the real Lightning Bolt: it is the real card (Forge's names ignore case), so
    it gets no script, no edition line and no warning, like a real card."""
    for text in (
        "LIGHTNING BOLT deals 3 damage to any target.",
        "Lightning Bolt deals 3 damage to any target",
    ):
        caps = _card("LIGHTNING BOLT", text)
        spark = _card("Skyreach Spark", "Skyreach Spark deals 2 damage to any target.")
        deck = deck_from_cards("Sky", [caps, spark], {"SKYRCH": SKY})
        assert forge_unwritable_cards(deck) == {}
        assert forge_has_card(caps) and forge_real_namesake(caps) is None
        bundle = write_forge_custom_set(deck)
        assert sorted(path for path in bundle if path.startswith("cards/")) == ["cards/skyreach_spark.txt"]
        assert _edition_cards(bundle) == ["1 C Skyreach Spark"]
        assert keywords_only_cards(deck) == ["Skyreach Spark"]
    assert not forge_has_card(_card("LIGHTNING BOLT", "LIGHTNING BOLT deals 4 damage to any target."))
    source = _block(
        tmp_path,
        ("LIGHTNING BOLT", "LIGHTNING BOLT deals 3 damage to any target."),
        ("Skyreach Spark", "Skyreach Spark deals 2 damage to any target."),
    )
    warned = _warnings(runner, str(source), "--to", "forge-custom", "-o", str(tmp_path / "f"))
    assert not [line for line in warned if "LIGHTNING BOLT" in line.upper()], warned
    assert sorted(p.name for p in (tmp_path / "f" / "cards").iterdir()) == ["skyreach_spark.txt"]


@pytest.mark.parametrize(("fmt", "out"), [("forge", "sky.dck"), ("cod", "sky.cod"), ("mtgo", "sky.dek")])
def test_the_namesake_warning_says_what_a_deck_does(
    fmt: str, out: str, runner: CliRunner, tmp_path: Path
) -> None:
    """The warning about a 4-damage "Lightning Bolt" said "so forge-custom does not write it" on every
    target: a deck names the card, so it will play the real one; that is what it says now."""
    source = tmp_path / "sky.xml"
    source.write_text(NAMESAKE_XML, encoding="utf-8")
    warned = _warnings(runner, str(source), "--to", fmt, "-o", str(tmp_path / out))
    (bolt,) = [line for line in warned if "'Lightning Bolt' has the name of a real card" in line]
    assert "forge-custom" not in bolt
    assert "the deck will play the real Lightning Bolt" in bolt and bolt.endswith(
        "give yours a name of its own"
    )


def test_enchant_lines_forge_scripts_have() -> None:
    """ "Enchant creature or planeswalker" (and other Enchant lines Forge's own scripts have) got no
    ``K:Enchant``, so Forge could not cast the Aura onto anything; they are written as Forge's scripts
    write them (akki_war_paint.txt: ``K:Enchant:Artifact,Creature:artifact or creature``)."""
    expected = {
        "Enchant creature or planeswalker": "K:Enchant:Creature,Planeswalker:creature or planeswalker",
        "Enchant artifact or creature": "K:Enchant:Artifact,Creature:artifact or creature",
        "Enchant land you control": "K:Enchant:Land.YouCtrl:land you control",
        "Enchant nonland permanent": "K:Enchant:Permanent.nonLand:nonland permanent",
        "Enchant creature you don't control": "K:Enchant:Creature.YouDontCtrl:creature you don't control",
        "Enchant creature or Vehicle": "K:Enchant:Creature,Vehicle:creature or vehicle",
    }
    for line, keyword in expected.items():
        aura = _card(
            "Sky Chains", f"{line}\nEnchanted permanent can't attack or block.", types=("Enchantment",)
        )
        aura = replace(aura, faces=(replace(aura.faces[0], subtypes=("Aura",)),))
        script = write_forge_script(aura)
        assert f"\n{keyword}\nSVar:AttachAILogic:Curse\n" in script, script
