"""Names said to a person: a token's trailing spaces are shown (quoted and counted), never mistaken for the
space of a separator; a suggestion is the name a deck line carries (a modal DFC's front face); a Forge art
index past a set's arts keeps that set's first art.

Seen as a block designer: ``cards lookup`` said ``Makes: Rogue Token ; Gnome Token`` and suggested ``Pest
Token `` (Cockatrice's Magic-Token file tells tokens apart by trailing spaces); a typed ``Valki`` was offered
``Valki, God of Lies // Tibalt, Cosmic Impostor``, which a deck file does not list; ``Island|M19|9`` (M19
has four Islands) lost its printing.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cockatrice_ext.cards import resolve
from cockatrice_ext.cards.errors import UnknownCardsError
from cockatrice_ext.cards.model import Card, CardDatabase, Face, Printing
from cockatrice_ext.cards.resolve import NameIndex, fold_name, resolve_deck
from cockatrice_ext.cli import main
from cockatrice_ext.cli.cards import format_card
from cockatrice_ext.decks.model import Deck, DeckEntry


def _token(name: str) -> Card:
    return Card(
        name=name,
        layout="token",
        faces=(Face(name=name.rstrip(), type_line="Token Creature"),),
        is_token=True,
    )


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Pest Token", "Pest Token"),
        ("Pest Token ", "'Pest Token ' (1 trailing space)"),
        ("Wurm Token    ", "'Wurm Token    ' (4 trailing spaces)"),
        ("Valki, God of Lies", "Valki, God of Lies"),
    ],
)
def test_a_name_with_trailing_spaces_is_quoted_and_counted(name: str, shown: str) -> None:
    assert resolve.shown_name(name) == shown


def test_what_a_card_makes_shows_each_token_name_whole() -> None:
    maker = Card(
        name="Tinker's Call",
        faces=(Face(name="Tinker's Call", type_line="Sorcery"),),
        related=("Rogue Token ", "Gnome Token"),
    )
    db = CardDatabase(cards={c.name: c for c in (maker, _token("Rogue Token "), _token("Gnome Token"))})
    text = format_card(maker, find=db.cards.get)
    assert "Makes: 'Rogue Token ' (1 trailing space); Gnome Token" in text.splitlines()


def test_a_token_shown_alone_shows_its_trailing_space() -> None:
    assert format_card(_token("Pest Token ")).splitlines()[0] == "'Pest Token ' (1 trailing space)"


def test_an_unknown_name_in_a_list_is_offered_the_token_readably() -> None:
    db = CardDatabase(cards={"Pest Token ": _token("Pest Token ")})
    deck = Deck(sections={"tokens": [DeckEntry(name="Pest Tokn", line=3)]})
    with pytest.raises(UnknownCardsError) as info:
        resolve_deck(deck, db, source="pool.txt")
    assert "did you mean: 'Pest Token ' (1 trailing space)?" in str(info.value)


def test_lookup_suggests_the_token_readably(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    result = CliRunner().invoke(main, ["cards", "lookup", "Pest Tokn"])
    assert result.exit_code == 2
    assert "Did you mean: 'Pest Token ' (1 trailing space);" in result.stderr


def test_a_modal_dfc_only_hinted_at_is_suggested_by_its_front_face() -> None:
    # as the card data offers every real card's name (name_hints) without loading them
    db = CardDatabase(cards={"Opt": Card(name="Opt", faces=(Face(name="Opt"),))})
    whole = "Valki, God of Lies // Tibalt, Cosmic Impostor"
    db.name_hints = {fold_name(n): n for n in (whole, "Valki, God of Lies", "Tibalt, Cosmic Impostor")}
    suggestions = NameIndex(db).suggest("Valki")
    assert "Valki, God of Lies" in suggestions
    assert whole not in suggestions


def test_a_loaded_modal_dfc_is_suggested_by_its_front_face_a_split_card_whole() -> None:
    valki = Card(
        name="Valki, God of Lies // Tibalt, Cosmic Impostor",
        layout="modal_dfc",
        faces=(Face(name="Valki, God of Lies"), Face(name="Tibalt, Cosmic Impostor", side="b")),
    )
    fire = Card(name="Fire // Ice", layout="split", faces=(Face(name="Fire"), Face(name="Ice", side="b")))
    index = NameIndex(CardDatabase(cards={valki.name: valki, fire.name: fire}))
    assert index.suggest("Valki, God of Lies // Tibalt, Cosmic Imposter")[0] == "Valki, God of Lies"
    assert index.suggest("Fire // Ise")[0] == "Fire // Ice"


def test_lookup_suggests_valki_by_its_front_face(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    result = CliRunner().invoke(main, ["cards", "lookup", "Valki"])
    assert result.exit_code == 2
    assert "Valki, God of Lies" in result.stderr
    assert "Valki, God of Lies // Tibalt" not in result.stderr


def test_a_forge_art_index_past_the_sets_arts_keeps_its_first_art() -> None:
    island = Card(
        name="Island",
        faces=(Face(name="Island", type_line="Basic Land — Island"),),
        printings=(
            Printing(set_code="DOM", collector_number="254"),
            *(Printing(set_code="M19", collector_number=str(n)) for n in (266, 265, 268, 267)),
        ),
    )
    index = NameIndex(CardDatabase(cards={"Island": island}))
    match = index.resolve("Island", "M19", "", 9)
    assert match is not None and match.printing is not None
    assert (match.printing.set_code, match.printing.collector_number) == ("M19", "265")
    (warning,) = match.warnings
    assert "art 9" in warning and "4 arts" in warning and "M19" in warning
    in_range = index.resolve("Island", "M19", "", 2)
    assert in_range is not None and in_range.printing is not None
    assert in_range.printing.collector_number == "266" and in_range.warnings == ()
