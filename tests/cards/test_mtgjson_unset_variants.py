"""Unstable's same-named cards (six Very Cryptic Commands) are different cards: named as Cockatrice's Oracle
names them (``Very Cryptic Command (d)``), each with its own text, printing and tokens."""

from __future__ import annotations

from typing import Any

from cockatrice_ext.cards.mtgjson import read_mtgjson_data
from cockatrice_ext.cards.store import shipped_store


def _card(name: str, number: str, text: str, layout: str = "normal") -> dict[str, Any]:
    return {
        "name": name,
        "number": number,
        "layout": layout,
        "text": text,
        "types": ["Instant"],
        "type": "Instant",
        "setCode": "UST",
        "identifiers": {"scryfallId": f"id-{number}"},
    }


def _document(code: str) -> dict[str, Any]:
    cards = [
        _card("Odd Command", "9a", "Draw a card."),
        _card("Odd Command", "9b", "Discard a card."),
        _card("Odd Command", "9c", "Create a 1/1 white Goat creature token."),
        _card("Killbot One", "10a", "Flying."),
        _card("Killbot Two", "10b", "Haste."),
    ]
    for card in cards:
        card["setCode"] = code
    goat = {
        "name": "Goat",
        "number": "1",
        "layout": "token",
        "types": ["Creature"],
        "type": "Token Creature — Goat",
        "colors": ["W"],
        "power": "1",
        "toughness": "1",
        "setCode": "T" + code,
        "reverseRelated": ["Odd Command"],
    }
    return {
        "data": {
            code: {"code": code, "name": "Set", "releaseDate": "2017-12-08", "cards": cards, "tokens": [goat]}
        }
    }


def test_unstable_variants_take_oracles_names() -> None:
    db = read_mtgjson_data(_document("UST"))
    assert {"Odd Command", "Odd Command (b)", "Odd Command (c)", "Killbot One", "Killbot Two"} <= set(
        db.cards
    )
    assert db.cards["Odd Command"].front.oracle_text == "Draw a card."
    variant = db.cards["Odd Command (b)"]
    assert variant.front.oracle_text == "Discard a card."
    assert [(p.set_code, p.collector_number) for p in variant.printings] == [("UST", "9b")]
    assert [(p.set_code, p.collector_number) for p in db.cards["Odd Command"].printings] == [("UST", "9a")]


def test_a_token_goes_to_the_variant_whose_text_makes_it() -> None:
    db = read_mtgjson_data(_document("UST"))
    assert [name.strip() for name in db.cards["Odd Command (c)"].related] == ["Goat"]
    assert db.cards["Odd Command"].related == () and db.cards["Odd Command (b)"].related == ()


def test_same_names_elsewhere_stay_one_card() -> None:
    db = read_mtgjson_data(_document("ZZZ"))  # art variants of other sets are one card, as in Oracle
    assert "Odd Command (b)" not in db.cards
    assert len(db.cards["Odd Command"].printings) == 3


def test_the_printed_name_of_a_variant() -> None:
    from cockatrice_ext.cards.mtgjson import variant_base_name

    db = read_mtgjson_data(_document("UST"))
    variant = db.cards["Odd Command (c)"]
    assert variant_base_name(variant.name, variant.printings) == "Odd Command"
    assert variant_base_name("Odd Command (b)", db.cards["Odd Command"].printings) == "Odd Command (b)"  # 9a
    assert variant_base_name("Fox (b)", ()) == "Fox (b)"  # a designer's card so named: no UST printing


def test_the_shipped_data_has_cockatrices_names() -> None:
    store = shipped_store()
    plain, fourth = store.find("Very Cryptic Command"), store.find("Very Cryptic Command (d)")
    assert plain is not None and fourth is not None
    assert fourth.name == "Very Cryptic Command (d)"
    assert [(p.set_code, p.collector_number) for p in fourth.printings] == [("UST", "49d")]
    assert fourth.front.oracle_text != plain.front.oracle_text
    assert store.find("Sly Spy (c)") is not None and store.find("Extremely Slow Zombie (c)") is not None
