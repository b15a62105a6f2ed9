"""Tokens, emblems and dungeons carry Magic-Token's (Cockatrice's) names, in the shipped data and by rule."""

from __future__ import annotations

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
