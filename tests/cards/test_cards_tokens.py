"""Tokens, emblems and dungeons carry Magic-Token's (Cockatrice's) names, in the shipped data and by rule."""

from __future__ import annotations

from dataclasses import replace
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
    assert ":2: 'Angel Token' is a token: moved from main to tokens" in result.output
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


def _spirit(number: str, sid: str, *makers: str, colors: tuple[str, ...] = (), text: str = "") -> dict:
    return {"name": "Spirit", "layout": "token", "type": "Token Creature — Spirit", "types": ["Creature"],
            "subtypes": ["Spirit"], "colors": list(colors), "power": "1", "toughness": "1", "text": text,
            "number": number, "identifiers": {"scryfallId": sid}, "reverseRelated": list(makers)}  # fmt: skip


def test_same_named_tokens_keep_their_own_bodies_and_makers() -> None:
    """MTGJSON's one "Spirit" is several tokens: each Cockatrice name gets its own body (tokens.xml's), and
    a card links to the one it makes. The first "Spirit" MTGJSON lists (colourless) used to be every one's
    body, so Lingering Souls made a colourless Spirit without flying."""
    from cockatrice_ext.cards.mtgjson import read_mtgjson_data

    def card_set(code: str, cards: list[str], tokens: list[dict]) -> dict:
        entries = [
            {"name": n, "layout": "normal", "type": "Sorcery", "number": str(i)} for i, n in enumerate(cards)
        ]
        return {"code": code, "name": code, "releaseDate": "2011-01-01", "cards": entries, "tokens": tokens}

    data = {
        "AAA": card_set("AAA", ["Kami Call"], [_spirit("1", "c1", "Kami Call")]),
        "BBB": card_set(
            "BBB",
            ["Lingering Souls", "Orzhov Call", "Gutter Call"],
            [
                _spirit("1", "w1", "Lingering Souls", colors=("W",), text="Flying"),
                _spirit("2", "wb", "Orzhov Call", colors=("W", "B"), text="Flying"),
                _spirit("3", "gg", "Gutter Call", colors=("W",), text="Slime (reminder)."),
            ],
        ),
        "CCC": card_set("CCC", [], [_spirit(n, f"w{n}", colors=("W",), text="Flying") for n in ("2", "3")]),
    }
    db = read_mtgjson_data({"data": data})
    spirits = {name: db.cards[name] for name in db.cards if name.rstrip() == "Spirit"}
    assert [(n, c.colors, c.oracle_text, len(c.printings)) for n, c in spirits.items()] == [
        ("Spirit", ("W",), "Flying", 3),  # the body most printings have keeps the name
        ("Spirit ", (), "", 1),
        ("Spirit  ", ("W", "B"), "Flying", 1),
        ("Spirit   ", ("W",), "Slime (reminder).", 1),
    ]
    assert db.cards["Lingering Souls"].related == ("Spirit",)
    assert db.cards["Kami Call"].related == ("Spirit ",)

    reference = CardDatabase()
    reference.add(replace(_token("Spirit Token", "w1", "w2"), faces=(_flier("Spirit Token", ("W",)),)))
    reference.add(_token("Spirit Token ", "c1", colors=()))
    reference.add(replace(_token("Spirit Token  ", "wb"), faces=(_flier("Spirit Token  ", ("W", "B")),)))
    gutter = _token("Spirit Token   ", "not-in-mtgjson")
    reference.add(replace(gutter, faces=(replace(gutter.front, oracle_text="Slime."),)))
    apply_cockatrice_token_names(db, reference)
    white = db.cards["Spirit Token"]
    assert (white.colors, white.oracle_text, white.front.name) == (("W",), "Flying", "Spirit")
    assert [p.scryfall_id for p in white.printings] == ["w1", "w2", "w3"]  # w3: no id match, same body
    assert db.cards["Spirit Token "].colors == () and db.cards["Spirit Token  "].colors == ("W", "B")
    assert [p.scryfall_id for p in db.cards["Spirit Token   "].printings] == ["gg"]  # same look, text
    assert db.cards["Lingering Souls"].related == ("Spirit Token",)
    assert db.cards["Kami Call"].related == ("Spirit Token ",)
    assert db.cards["Orzhov Call"].related == ("Spirit Token  ",)


def _flier(name: str, colors: tuple[str, ...]) -> Face:
    return Face(name=name, colors=colors, types=("Creature",), subtypes=("Spirit",), power="1", toughness="1",
                type_line="Token Creature — Spirit", oracle_text="Flying")  # fmt: skip


def test_shipped_lingering_souls_makes_white_flying_spirits(tmp_path: Path) -> None:
    """The shipped data: Lingering Souls' Spirit is the white 1/1 flier, in an export and in a lookup (it was
    MTGJSON's first "Spirit", a colourless 1/1 without text, with the printings of every Spirit)."""
    from lxml import etree

    from cockatrice_ext.cards.store import shipped_store

    deck = tmp_path / "ls.txt"
    deck.write_text("1 Lingering Souls\n")
    out = tmp_path / "ls.xml"
    result = CliRunner().invoke(main, ["export", str(deck), "--to", "cockatrice-xml", "-o", str(out)])
    assert result.exit_code == 0, result.output
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    (spirit,) = [
        c for c in etree.parse(str(out), parser).iter("card") if c.findtext("name") == "Spirit Token"
    ]
    assert (spirit.findtext("prop/colors"), spirit.findtext("text"), spirit.findtext("prop/pt")) == (
        "W",
        "Flying",
        "1/1",
    )

    out_text = _lookup("Spirit Token")
    assert "Token Creature — Spirit  1/1\nFlying\n" in out_text
    store = shipped_store()
    white, orzhov = store.find("Spirit Token"), store.find("Spirit Token  ")
    assert white is not None and orzhov is not None
    assert (white.colors, orzhov.colors, orzhov.oracle_text) == (("W",), ("W", "B"), "Flying")
    assert not {p.scryfall_id for p in white.printings} & {p.scryfall_id for p in orzhov.printings}
    assert "Makes: Spirit Token\n" in _lookup("Lingering Souls")
