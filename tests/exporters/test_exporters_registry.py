"""The registry, atomic export, determinism of every format, and property tests over hostile input."""

from __future__ import annotations

from pathlib import Path

import pytest
from export_samples import ALL_CARDS, load_schema, parse_xml, sample_deck
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import Card, Face, Printing
from cockatrice_ext.exporters import (
    EXPORT_FORMATS,
    ExportDeck,
    ExportEntry,
    ExportFormat,
    deck_from_cards,
    export,
    left_out,
    render,
    write_card_database,
    write_cod,
    write_forge_dck,
    write_mtgo_dek,
    write_text,
)
from cockatrice_ext.exporters.xmlutil import clean

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_registry_lists_every_required_format() -> None:
    assert set(EXPORT_FORMATS) == {
        "cod",
        "cockatrice-xml",
        "text",
        "forge",
        "forge-cube",
        "forge-custom",
        "mtgo",
        "arena",
    }
    for name, fmt in EXPORT_FORMATS.items():
        assert fmt.name == name and fmt.description
        assert fmt.is_bundle == (name in ("forge-cube", "forge-custom"))


@pytest.mark.parametrize("fmt", sorted(EXPORT_FORMATS))
def test_every_format_is_deterministic(fmt: str) -> None:
    assert render(sample_deck(), fmt) == render(sample_deck(), fmt)


@pytest.mark.parametrize("fmt", sorted(EXPORT_FORMATS))
def test_export_writes_what_render_returns(fmt: str, tmp_path: Path) -> None:
    rendered = render(sample_deck(), fmt)
    written = export(sample_deck(), fmt, tmp_path / "out")
    if isinstance(rendered, dict):
        assert {p.relative_to(tmp_path / "out").as_posix() for p in written} == set(rendered)
        for path in written:
            assert path.read_bytes() == rendered[path.relative_to(tmp_path / "out").as_posix()]
    else:
        data = rendered.encode() if isinstance(rendered, str) else rendered
        assert written == [tmp_path / "out"]
        assert (tmp_path / "out").read_bytes() == data
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]


def test_export_accepts_plain_cards(tmp_path: Path) -> None:
    export(ALL_CARDS, "cockatrice-xml", tmp_path / "cards.xml")
    assert load_schema("cards-v4.xsd").validate(parse_xml((tmp_path / "cards.xml").read_bytes()))


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown export format 'nope'"):
        render(sample_deck(), "nope")


def test_failed_render_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deck.cod"
    target.write_bytes(b"old")

    def broken(deck: ExportDeck) -> bytes:
        raise RuntimeError("boom")

    monkeypatch.setitem(EXPORT_FORMATS, "cod", ExportFormat("cod", broken, ".cod", "broken"))
    with pytest.raises(RuntimeError):
        export(sample_deck(), "cod", target)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.cod"]


def test_bundle_cannot_escape_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def evil(deck: ExportDeck) -> dict[str, bytes]:
        return {"ok.txt": b"1", "../escaped.txt": b"2"}

    monkeypatch.setitem(EXPORT_FORMATS, "forge-cube", ExportFormat("forge-cube", evil, "", "evil"))
    with pytest.raises(ValueError, match="outside"):
        export(sample_deck(), "forge-cube", tmp_path / "out")
    assert not (tmp_path / "escaped.txt").exists() and not (tmp_path / "out").exists()


def test_deck_from_cards_puts_tokens_in_the_token_zone() -> None:
    deck = deck_from_cards("x", ALL_CARDS)
    assert [e.card.name for e in deck.tokens] == ["Spirit"]
    assert len(deck.main) == len(ALL_CARDS) - 1


def test_a_card_files_tokens_are_named_where_a_format_drops_them() -> None:
    # a card database's tokens are its own cards, not tokens its cards make: text or Forge leaving them
    # out says so (they used to go silently)
    deck = deck_from_cards("x", ALL_CARDS)
    assert [e.line for e in deck.main + deck.tokens] == list(range(1, len(ALL_CARDS) + 1))
    for fmt in ("text", "forge", "mtgo", "arena"):
        assert "tokens (1 card)" in left_out(deck, fmt), fmt
    assert not any(p.startswith("tokens") for p in left_out(deck, "cod"))


# -- property tests ------------------------------------------------------------------------------------------
names = st.text(min_size=1, max_size=24)
CARD_TYPES = ["Creature", "Land", "Instant", "Battle"]
texts = st.text(max_size=60)


@st.composite
def hostile_cards(draw: st.DrawFn) -> Card:
    name = draw(names)
    layout = draw(st.sampled_from(["normal", "split", "transform", "adventure", "flip", "token"]))
    face_names = [name] if layout in ("normal", "token") else [name, draw(names)]
    faces = tuple(
        Face(
            name=n,
            mana_cost=draw(st.sampled_from(["", "{1}{W}", "{X}{R/G}", "{2/W}", draw(st.text(max_size=8))])),
            mana_value=draw(st.floats(min_value=0, max_value=20, allow_nan=False)),
            types=tuple(
                draw(st.lists(st.sampled_from(["Creature", "Land", "Instant", "Battle"]), max_size=2))
            ),
            subtypes=tuple(draw(st.lists(names, max_size=2))),
            oracle_text=draw(texts),
            power=draw(st.none() | st.text(max_size=3)),
            toughness=draw(st.none() | st.text(max_size=3)),
            side="ab"[i],
        )
        for i, n in enumerate(face_names)
    )
    full = " // ".join(face_names)
    printings = tuple(
        Printing(set_code=draw(st.text(min_size=1, max_size=5)), collector_number=draw(st.text(max_size=5)))
        for _ in range(draw(st.integers(0, 2)))
    )
    related = tuple(draw(st.lists(names, max_size=2)))
    return Card(
        name=full,
        layout=layout,
        faces=faces,
        printings=printings,
        is_token=layout == "token",
        related=related,
    )


@st.composite
def hostile_decks(draw: st.DrawFn) -> ExportDeck:
    deck = ExportDeck(name=draw(texts), comments=draw(texts))
    for section in draw(
        st.lists(st.sampled_from(["main", "side", "tokens", "Removal"]), max_size=3, unique=True)
    ):
        deck.sections[section] = [
            ExportEntry(card, draw(st.integers(0, 99)), card.printings[0] if card.printings else None)
            for card in draw(st.lists(hostile_cards(), max_size=3))
        ]
    return deck


@FUZZ
@given(hostile_decks())
def test_cod_is_always_well_formed_and_keeps_names(deck: ExportDeck) -> None:
    root = parse_xml(write_cod(deck))
    assert root.findtext("deckname") == clean(deck.name) and root.findtext("comments") == clean(deck.comments)
    written = sum(int(c.get("number")) for c in root.iter("card"))
    assert written == sum(e.count for entries in deck.sections.values() for e in entries if e.count > 0)
    assert all(int(c.get("number")) > 0 for c in root.iter("card"))


@FUZZ
@given(st.lists(hostile_cards(), max_size=6))
def test_card_database_is_always_schema_valid(cards: list[Card]) -> None:
    schema = load_schema("cards-v4.xsd")
    root = parse_xml(write_card_database(cards))
    assert schema.validate(root), schema.error_log
    assert all(c.findtext("name") is not None for c in root.iter("card"))


@FUZZ
@given(hostile_decks())
def test_mtgo_is_always_well_formed(deck: ExportDeck) -> None:
    parse_xml(write_mtgo_dek(deck))


@FUZZ
@given(hostile_decks())
def test_line_formats_never_break_a_line(deck: ExportDeck) -> None:
    """One card per line, whatever the names contain: no injected lines or sections."""
    library = [e for e in deck.main if e.count > 0]
    for text in (write_forge_dck(deck), render(deck, "arena"), write_text(deck)):
        assert isinstance(text, str)
        lines = text.splitlines()
        assert len(lines) <= 8 + len(deck.comments.splitlines()) + sum(
            1 for entries in deck.sections.values() for _ in entries
        )
    forge_lines = write_forge_dck(deck).splitlines()
    assert forge_lines[0] == "[metadata]" and forge_lines[1].startswith("Name=")
    card_lines = [line for line in forge_lines[2:] if not line.startswith(("[", "Comment="))]
    assert sum(int(line.split(" ", 1)[0]) for line in card_lines) == sum(e.count for e in library) + sum(
        e.count for e in deck.side if e.count > 0
    )
