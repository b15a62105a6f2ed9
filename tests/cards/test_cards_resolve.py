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
    # the name a deck line carries: a transform card's front face (deck_line_name)
    assert "Delver of Secrets" in index.suggest("Delver of Secret")
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
    assert info.value.unknown[0].suggestions[0] == "Delver of Secrets"  # its front face, as a deck lists it


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
    assert "\n  my.txt:2: unknown card 'Delver of Secretz'" in message


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


def _printed(name: str, *numbers: tuple[str, str], layout: str = "normal") -> Card:
    """A card ``name`` printed as ``(set, number)`` pairs."""
    printings = tuple(Printing(set_code=code, collector_number=number) for code, number in numbers)
    return Card(name=name, layout=layout, faces=(Face(name=name),), printings=printings)


def _pins() -> NameIndex:
    db = CardDatabase()
    db.add(_printed("Arcane Signet", ("ELD", "331"), ("C21", "234"), ("AFC", "197")))
    db.add(_printed("Alrund, God of the Cosmos", ("KHM", "40"), ("KHM", "302"), ("PKHM", "40s")))
    db.add(_printed("A-Alrund, God of the Cosmos", ("KHM", "A-40")))
    db.add(_printed("Archive Trap", ("ZEN", "A-1")))  # numbered A- but not an Alchemy name
    return NameIndex(db)


def test_a_number_the_named_set_does_not_hold_keeps_that_set_and_names_its_number() -> None:
    """``Arcane Signet (C21) 236`` (C21 has it as 234) used to fall back to the default printing, another
    set's: the set is kept, and the warning says the number the card has there."""
    index = _pins()
    match = index.resolve("Arcane Signet", "c21", "236")
    assert match is not None and match.printing is not None
    assert (match.printing.set_code, match.printing.collector_number) == ("C21", "234")
    assert match.warnings == (
        "'Arcane Signet' has no printing (C21) 236: its number in C21 is 234, not 236; using (C21) 234",
    )
    several = index.resolve("Alrund, God of the Cosmos", "KHM", "41")
    assert several is not None and several.printing is not None
    assert several.printing.collector_number == "40"
    assert "its numbers in KHM are 40, 302, not 41; using (KHM) 40" in several.warnings[0]
    elsewhere = index.resolve("Arcane Signet", "M19", "1")  # a set it is not in: as before
    assert elsewhere is not None and elsewhere.printing is None
    assert elsewhere.warnings == ("'Arcane Signet' has no printing (M19) 1; using the default printing",)


def test_an_alchemy_card_pinned_by_its_number_without_the_a_is_that_printing() -> None:
    """``A-Alrund, God of the Cosmos (KHM) 40``: its one printing is KHM ``A-40``; the ``A-`` of its name
    says which, so the pin is taken without a warning. The paper card keeps its own 40."""
    index = _pins()
    match = index.resolve("A-Alrund, God of the Cosmos", "KHM", "40")
    assert match is not None and match.printing is not None and not match.warnings
    assert match.printing.collector_number == "A-40"
    exact = index.resolve("A-Alrund, God of the Cosmos", "KHM", "A-40")
    assert exact is not None and exact.printing == match.printing and not exact.warnings
    paper = index.resolve("Alrund, God of the Cosmos", "KHM", "40")
    assert paper is not None and paper.printing is not None and paper.printing.collector_number == "40"
    other = index.resolve("Archive Trap", "ZEN", "1")  # not an Alchemy card: A-1 is not its 1
    assert other is not None and other.printing is not None and other.warnings
