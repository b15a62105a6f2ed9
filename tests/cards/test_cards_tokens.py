"""Tokens, emblems and dungeons carry Magic-Token's (Cockatrice's) names, in the shipped data and by rule."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cards.model import Card, CardDatabase, Face, Printing
from cockatrice_ext.cards.tokens import apply_cockatrice_token_names
from cockatrice_ext.cli import main


def _lookup(*names: str) -> str:
    result = CliRunner().invoke(main, ["cards", "lookup", *names])
    assert result.exit_code == 0, result.output
    return result.output


def test_shipped_tokens_have_cockatrice_names() -> None:
    out = _lookup("Phyrexian Germ Token", "Arlinn, Embraced by the Moon Emblem", "Batterskull")
    assert out.startswith("Phyrexian Germ Token\n")
    assert "\nArlinn, Embraced by the Moon Emblem\nEmblem" in out
    assert "Makes: Phyrexian Germ Token" in out
    assert "Germ Token Token" not in out and "Arlinn Kord Emblem" not in out


def test_mtgjson_name_still_finds_the_renamed_token() -> None:
    assert _lookup("Germ").startswith("Phyrexian Germ Token\n")


def _token(name: str, *ids: str, colors: tuple[str, ...] = ("W",), pt: str = "1/1") -> Card:
    power, toughness = pt.split("/")
    face = Face(name=name, colors=colors, types=("Token", "Creature"), subtypes=tuple(name.split()),
                power=power, toughness=toughness)  # fmt: skip
    printings = tuple(Printing(set_code=f"T{i}", scryfall_id=sid) for i, sid in enumerate(ids))
    return Card(name=name, faces=(face,), printings=printings, is_token=True)


def test_rename_splits_by_printing_and_follows_links() -> None:
    """One MTGJSON name, two Cockatrice tokens: printings split by Scryfall id, the rest join the majority."""
    db = CardDatabase()
    db.add(_token("Soldier", "a", "b", "c", "d"))
    db.add(Card(name="Raise the Alarm", faces=(Face(name="Raise the Alarm"),), related=("Soldier",)))
    db.add(_token("Triskelavite", "zz", colors=()))  # no id known: derived from NAME Token, same look
    db.add(_token("Ad Card", "yy"))  # nothing alike in tokens.xml: left alone
    reference = CardDatabase()
    reference.add(_token("Soldier Token", "a", "b"))
    reference.add(_token("Soldier Token ", "c", colors=("R",)))
    reference.add(_token("Triskelavite Token", "other", colors=()))
    reference.reverse_related = {"Raise the Alarm": ["Soldier Token "]}
    renamed = apply_cockatrice_token_names(db, reference)
    assert renamed == {"Soldier": "Soldier Token", "Triskelavite": "Triskelavite Token"}
    assert [p.scryfall_id for p in db.cards["Soldier Token"].printings] == ["a", "b", "d"]
    assert db.cards["Soldier Token "].colors == ("R",)  # the second token takes tokens.xml's faces
    assert db.cards["Raise the Alarm"].related == ("Soldier Token", "Soldier Token ")
    assert "Ad Card" in db and "Soldier" not in db


def test_tokens_xml_as_a_source_keeps_names_and_keeps_tokens_out_of_main(
    shared_cockatrice: Path, tmp_path: Path
) -> None:
    """Magic-Token's own file: names as written there, a token listed in main goes to the tokens zone."""
    block = tmp_path / "b.txt"
    block.write_text("1 Duress\n1 Angel Token\n1 Batterskull\n")
    out = tmp_path / "b.cod"
    tokens = str(shared_cockatrice / "tokens-magic-token.xml")
    result = CliRunner().invoke(
        main, ["export", str(block), "--to", "cod", "-o", str(out), "--card-source", tokens]
    )
    assert result.exit_code == 0, result.output
    assert "line 2: 'Angel Token' is a token: moved from main to tokens" in result.output
    main_zone, tokens_zone = out.read_text().split('<zone name="tokens">')
    assert "Angel Token" not in main_zone and 'name="Duress"' in main_zone
    assert 'name="Angel Token"' in tokens_zone and 'name="Phyrexian Germ Token"' in tokens_zone
    assert "Token  Token" not in out.read_text() and "Token Token" not in out.read_text()


def test_an_mtgjson_source_gets_cockatrice_token_names(mtgjson_extract: dict[str, Path]) -> None:
    """Through --card-source, MTGJSON's "Angel" made by Resplendent Angel is named as tokens.xml names it."""
    source = str(mtgjson_extract["allprintings_xz"])
    args = ["Resplendent Angel", "--card-source", source, "--no-default-cards"]
    made = next(line for line in _lookup(*args).splitlines() if line.startswith("Makes: "))
    assert "Angel Token" in made and "Makes: Angel," not in made and not made.endswith(" Angel")
