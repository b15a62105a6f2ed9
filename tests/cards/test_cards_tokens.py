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
    db.add(Card(name="Muster", faces=(Face(name="Muster"),), related=("Soldier",)))  # not in tokens.xml
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
    assert db.cards["Raise the Alarm"].related == ("Soldier Token ",)  # tokens.xml says which one it makes
    assert db.cards["Muster"].related == ("Soldier Token",)  # tokens.xml silent: the name most took
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


def test_a_cod_names_every_token_as_magic_token_does(shared_cockatrice: Path, tmp_path: Path) -> None:
    """The .cod writer keeps the card data's token names: emblems, named tokens, dungeons and helper cards
    used to gain a " Token" Cockatrice does not know ("On an Adventure Token", "Wasp Token"); helper cards
    are no tokens the deck makes, so its tokens zone leaves them out."""
    from lxml import etree

    from cockatrice_ext.cards.store import shipped_store
    from exporters.model import display_name

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    tree = etree.parse(str(shared_cockatrice / "tokens-magic-token.xml"), parser)
    magic_token = {element.text for element in tree.iter("name")}
    known = [card for card in shipped_store().token_cards().cards.values() if card.name in magic_token]
    assert len(known) > 500
    misnamed = [(c.name, display_name(c, "cockatrice")) for c in known if " // " not in c.name]
    misnamed = [(name, written) for name, written in misnamed if written not in magic_token]
    assert not misnamed, misnamed[:10]

    block = tmp_path / "b.txt"
    block.write_text("1 Jace, Vryn's Prodigy\n1 Brazen Borrower\n1 The Hive\n1 Hornet Queen\n")
    out = tmp_path / "b.cod"
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(out)])
    assert result.exit_code == 0, result.output
    tokens = out.read_text().split('<zone name="tokens">')[1]
    for name in ("Jace, Telepath Unbound Emblem", "Wasp", "Insect Token "):
        assert f'name="{name}"' in tokens, tokens
    assert " Token Token" not in tokens and "Emblem Token" not in tokens
    assert "On an Adventure" not in tokens  # a helper card (Brazen Borrower's): no token a card makes


def test_only_a_generic_token_gains_token() -> None:
    """MTGJSON names a generic token by its types (``Goblin``): Magic-Token adds "Token"; a named one
    (``Wasp``, an Insect) keeps its name, as does a legendary one."""
    from exporters.model import cockatrice_token_name

    def token(name: str, subtypes: tuple[str, ...], supertypes: tuple[str, ...] = ()) -> Card:
        face = Face(name=name, types=("Token", "Creature"), subtypes=subtypes, supertypes=supertypes)
        return Card(name=name, layout="token", faces=(face,))

    assert cockatrice_token_name(token("Goblin", ("Goblin",))) == "Goblin Token"
    assert cockatrice_token_name(token("Elf Warrior", ("Elf", "Warrior"))) == "Elf Warrior Token"
    assert cockatrice_token_name(token("Wasp", ("Insect",))) == "Wasp"
    assert cockatrice_token_name(token("Marit Lage", ("Avatar",), ("Legendary",))) == "Marit Lage"
