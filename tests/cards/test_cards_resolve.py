"""Name resolution and whole-deck resolution."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.errors import UnknownCardsError
from cockatrice_ext.cards.model import Card, CardDatabase, Face, Printing
from cockatrice_ext.cards.mtgjson import read_mtgjson
from cockatrice_ext.cards.resolve import NameIndex, fold_name, resolve_deck, resolve_name
from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.model import Deck, DeckEntry


@pytest.fixture(scope="module")
def index(mtgjson_extract: dict[str, Path]) -> NameIndex:
    return NameIndex(read_mtgjson(mtgjson_extract["allprintings_json"]))


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Aether Figment", "Aether Figment"),
        ("AEther Figment", "Aether Figment"),
        ("Æther Figment", "Aether Figment"),
        ("æther  figment", "Aether Figment"),
        ("Āether Fígment", "Aether Figment"),
        ("Fire // Ice", "Fire // Ice"),
        ("fire//ice", "Fire // Ice"),
        ("Fire / Ice", "Fire // Ice"),
        ("Fire", "Fire // Ice"),
        ("Ice", "Fire // Ice"),
        ("Bonecrusher Giant", "Bonecrusher Giant // Stomp"),
        ("Stomp", "Bonecrusher Giant // Stomp"),
        ("Delver of Secrets", "Delver of Secrets // Insectile Aberration"),
        ("Jaya Ballard, Task Mage", "Jaya Ballard, Task Mage"),
        ("jaya ballard, task mage", "Jaya Ballard, Task Mage"),
        ("Jaya Ballard’s Apprentice", None),
    ],
)
def test_name_forms(index: NameIndex, typed: str, expected: str | None) -> None:
    match = index.resolve(typed)
    if expected is None:
        assert match is None
    else:
        assert match is not None and match.card.name == expected
        assert match.warnings == ()


def test_back_face_resolves_with_a_warning(index: NameIndex) -> None:
    match = index.resolve("Insectile Aberration")
    assert match is not None
    assert match.card.name == "Delver of Secrets // Insectile Aberration"  # not the token of that name
    assert len(match.warnings) == 1 and "back face" in match.warnings[0]


def test_set_and_collector_number_pick_the_printing(index: NameIndex) -> None:
    match = index.resolve("Delver of Secrets", "isd", "51")
    assert match is not None and match.printing is not None
    assert (match.printing.set_code, match.printing.collector_number) == ("ISD", "51")
    assert index.resolve("Delver of Secrets", "ISD").printing.collector_number == "51"  # type: ignore[union-attr]
    unpinned = index.resolve("Delver of Secrets")
    assert unpinned is not None and unpinned.printing is None
    wrong = index.resolve("Delver of Secrets", "M19", "1")
    assert wrong is not None and wrong.printing is None and "no printing (M19) 1" in wrong.warnings[0]


def test_suggestions(index: NameIndex) -> None:
    assert index.suggest("Jaya Balard, Task Mage")[0] == "Jaya Ballard, Task Mage"
    assert "Delver of Secrets // Insectile Aberration" in index.suggest("Delver of Secret")
    assert "Jaya Ballard, Task Mage" in index.suggest("Jaya Ballard")
    assert index.suggest("") == []


def test_suggestions_on_30k_names_use_a_shortlist() -> None:
    db = CardDatabase()
    for i in range(30000):
        name = f"Card {i:05d} of {['Fire', 'Ice', 'Storm', 'Stone'][i % 4]}{i % 97}"
        db.cards[name] = Card(name=name, faces=(Face(name=name),))
    index = NameIndex(db)
    assert index.suggest("Card 12347 of Ston")[0] == "Card 12347 of Stone28"
    assert index.suggest("Crad 00001 of Ice1")[0] == "Card 00001 of Ice1"
    assert index.suggest("zzz") == []


def test_trailing_space_tokens_and_real_card_preference() -> None:
    db = CardDatabase()
    for name in ("Angel Token", "Angel Token ", "Angel Token  "):
        db.add(Card(name=name, faces=(Face(name=name.strip(), types=("Token",)),), is_token=True))
    db.add(Card(name="Angel", faces=(Face(name="Angel"),), is_token=True))
    db.add(Card(name="Serra Angel", faces=(Face(name="Serra Angel"),)))
    index = NameIndex(db)
    assert index.resolve("Angel Token ").card.name == "Angel Token "  # type: ignore[union-attr]
    assert index.resolve("angel token").card.name == "Angel Token"  # type: ignore[union-attr]


def test_resolve_name_raises_with_suggestions(index: NameIndex) -> None:
    with pytest.raises(UnknownCardsError) as info:
        resolve_name(index, "Delvr of Secrets")
    assert info.value.unknown[0].suggestions[0] == "Delver of Secrets // Insectile Aberration"


def test_resolve_deck_sections_counts_printings(index: NameIndex) -> None:
    deck = parse_block_list(
        "# Name: test\n4 Fire // Ice\n2 Delver of Secrets (ISD) 51\nSideboard\n1 Insectile Aberration\n",
        "test.txt",
    )
    resolved = resolve_deck(deck, index)
    assert resolved.count() == 7 and resolved.count("main") == 6
    card, printing, count = resolved.main[1]
    assert (
        card.name.startswith("Delver") and printing is not None and printing.set_code == "ISD" and count == 2
    )
    assert resolved.main[0].printing is None
    assert resolved.side[0].card.name.startswith("Delver")
    assert len(resolved.warnings) == 1 and resolved.warnings[0].startswith("line 5:")
    assert [c.name for c in resolved.cards()] == ["Fire // Ice", "Delver of Secrets // Insectile Aberration"]


def test_resolve_deck_reports_every_unknown_with_line_and_suggestions(index: NameIndex) -> None:
    deck = Deck(
        sections={
            "main": [DeckEntry("Fire // Ice", 1, line=1), DeckEntry("Delver of Secretz", 1, line=2)],
            "side": [DeckEntry("Jaya Balard, Task Mage", 2, line=4), DeckEntry("Xyzzy Plugh", 1, line=5)],
        }
    )
    with pytest.raises(UnknownCardsError) as info:
        resolve_deck(deck, index, source="my.txt")
    unknown = info.value.unknown
    assert [(u.name, u.line, u.section) for u in unknown] == [
        ("Delver of Secretz", 2, "main"),
        ("Jaya Balard, Task Mage", 4, "side"),
        ("Xyzzy Plugh", 5, "side"),
    ]
    assert unknown[1].suggestions[0] == "Jaya Ballard, Task Mage"
    message = str(info.value)
    assert message.startswith("my.txt: 3 unknown")
    assert "line 2: unknown card 'Delver of Secretz'" in message


def test_tokens_of_a_resolved_deck(index: NameIndex) -> None:
    resolved = resolve_deck(parse_block_list("1 Resplendent Angel\n", "t.txt"), index)
    # MTGJSON's name of Resplendent Angel's 4/4 flier with vigilance, padded: ISD's Angel is another body
    assert [(t.name.rstrip(), t.oracle_text) for t in resolved.tokens(index.db)] == [
        ("Angel", "Flying, vigilance")
    ]


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_fold_is_idempotent_and_resolution_never_crashes(text: str) -> None:
    assert fold_name(fold_name(text)) == fold_name(text)
    db = CardDatabase()
    db.add(
        Card(
            name="Fire // Ice",
            layout="split",
            faces=(Face(name="Fire"), Face(name="Ice")),
            printings=(Printing(set_code="APC", collector_number="128"),),
        )
    )
    index = NameIndex(db)
    index.resolve(text, text[:3], text[3:6])
    assert len(index.suggest(text)) <= 5


def test_a_melded_result_stays_a_back_face_through_cockatrice_xml(tmp_path: Path) -> None:
    """A cards.xml we write marks Brisela a back face, so a block naming it is refused with its meld pair."""
    from click.testing import CliRunner

    from cockatrice_ext.cards.store import shipped_store
    from cockatrice_ext.cli import main
    from cockatrice_ext.exporters import write_card_database

    store = shipped_store()
    names = ("Bruna, the Fading Light", "Gisela, the Broken Blade", "Brisela, Voice of Nightmares")
    cards = [store.find(name) for name in names]
    xml = tmp_path / "meld.xml"
    xml.write_bytes(write_card_database([c for c in cards if c is not None], store.sets))
    block = tmp_path / "b.txt"
    block.write_text("1 Brisela, Voice of Nightmares\n")
    args = ["export", str(block), "--to", "cod", "-o", str(tmp_path / "b.cod"), "--card-source", str(xml)]
    result = CliRunner().invoke(main, [*args, "--no-default-cards"])
    assert result.exit_code == 2, result.output
    assert "Bruna, the Fading Light" in result.output and "Gisela, the Broken Blade" in result.output


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=30))
def test_the_ascii_shortcut_folds_as_the_general_path(name: str) -> None:
    """Two trailing spaces force the general path; the result must not change."""
    assert fold_name(name) == fold_name(name + "  ")
