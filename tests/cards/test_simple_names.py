"""Names Cockatrice accepts by its "simple name" (case, spaces and punctuation ignored): a name no card has
exactly but one card has so (``Gaeas Cradle``, ``Sol-Ring``, ``Birds of Paradise.``, ``Kongming, Sleeping
Dragon``) is read as that card, with a warning at its line naming it; one that several cards have so
(``Waste-Land``: ``Waste Land`` and ``Wasteland``) stays unknown, suggesting them."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cards.model import Card, CardDatabase, Face
from cockatrice_ext.cards.resolve import NameIndex
from cockatrice_ext.cli import main


def test_simple_name_is_cockatrices() -> None:
    from cockatrice_ext.cards.resolve import simple_name

    assert simple_name("Gaea's Cradle") == simple_name("Gaeas Cradle") == "gaeascradle"
    assert simple_name("Fire // Ice") == "fire"
    assert simple_name("Æther Vial") == "aethervial"
    assert simple_name("Jötun Grunt") == "jotungrunt"
    assert simple_name("...") == ""


def test_simple_matches_count_a_card_and_its_faces_once() -> None:
    fire = Card(name="Fire // Ice", layout="split", faces=(Face(name="Fire"), Face(name="Ice", side="b")))
    db = CardDatabase(cards={"Fire // Ice": fire, "Wasteland": Card(name="Wasteland")})
    db.name_hints.update({"waste land": "Waste Land", "fire": "Fire"})
    index = NameIndex(db)
    (fire_match,) = index.simple_matches("fire.")  # the card and its face "Fire": one card
    assert index.find(fire_match) is fire
    assert sorted(index.simple_matches("Waste-Land")) == ["Waste Land", "Wasteland"]


def _export(tmp_path: Path, text: str) -> object:
    path = tmp_path / "apos.txt"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["export", str(path), "--to", "cod", "-o", "-"])


def test_a_name_one_card_has_by_its_simple_name_is_read_with_a_warning(tmp_path: Path) -> None:
    result = _export(
        tmp_path, "1 Gaeas Cradle\n1 Sol-Ring\n1 Birds of Paradise.\n1 Kongming, Sleeping Dragon\n"
    )
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    out = result.stdout  # type: ignore[attr-defined]
    for name in ("Gaea's Cradle", "Sol Ring", "Birds of Paradise", "Kongming, &quot;Sleeping Dragon&quot;"):
        assert f'name="{name}"' in out
    said = [line for line in result.stderr.splitlines() if "read as" in line]  # type: ignore[attr-defined]
    assert said[0].startswith(f"warning: {tmp_path / 'apos.txt'}:1: 'Gaeas Cradle' read as \"Gaea's Cradle\"")
    assert [line.split(":")[2] for line in said] == ["1", "2", "3", "4"]


def test_a_name_several_cards_have_by_its_simple_name_stays_unknown(tmp_path: Path) -> None:
    result = _export(tmp_path, "1 Waste-Land\n")
    assert result.exit_code == 2  # type: ignore[attr-defined]
    said = result.stderr  # type: ignore[attr-defined]
    assert "unknown card 'Waste-Land' (did you mean: " in said
    assert "Waste Land" in said and "Wasteland" in said
