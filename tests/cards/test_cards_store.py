"""Every real card offline: the shipped store, read lazily, behind the default card source."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_paths import ALL_PRINTINGS

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.sources import load_cards_covering
from cockatrice_ext.cards.store import CardStore, shipped_store
from cockatrice_ext.cli import main

REAL_BLOCK = """\
4 Duress
4 Delver of Secrets
2 Fire // Ice
1 Aether Vial
1 Bruna, the Fading Light
1 Gisela, the Broken Blade
1 _____
1 Grizzly Bears (10E) 256
"""


@pytest.mark.parametrize(
    ("name", "card"),
    [
        ("Duress", "Duress"),
        ("delver of secrets", "Delver of Secrets // Insectile Aberration"),
        ("Insectile Aberration", "Delver of Secrets // Insectile Aberration"),
        ("Fire // Ice", "Fire // Ice"),
        ("Æther Vial", "Aether Vial"),
        ("Bruna, the Fading Light", "Bruna, the Fading Light"),
        ("Graf Rats", "Graf Rats"),
        ("Hanweir Battlements", "Hanweir Battlements"),
        ("_____", "_____"),
    ],
)
def test_the_store_knows_every_real_card(name: str, card: str) -> None:
    found = shipped_store().find(name)
    assert found is not None and found.name == card


def test_meld_cards_point_at_each_other() -> None:
    store = shipped_store()
    bruna, brisela = store.find("Bruna, the Fading Light"), store.find("Brisela, Voice of Nightmares")
    assert bruna is not None and brisela is not None
    assert "Brisela, Voice of Nightmares" in bruna.related
    assert set(brisela.related) >= {"Bruna, the Fading Light", "Gisela, the Broken Blade"}


def test_a_card_brings_its_tokens() -> None:
    db = shipped_store().cards_for(["Young Pyromancer"])
    tokens = [c for c in db.cards.values() if c.is_token]
    assert tokens and all(t.name in db.cards["Young Pyromancer"].related for t in tokens)


def test_default_source_covers_real_blocks_and_suggests_real_names() -> None:
    db = load_cards_covering(["Duress", "Delver of Secretz"])
    assert "Duress" in db.cards
    from cockatrice_ext.cards.resolve import NameIndex

    assert NameIndex(db).suggest("Delver of Secretz")[0] == "Delver of Secrets"


def test_export_of_a_real_block_offline(tmp_path: Path) -> None:
    block = tmp_path / "real.txt"
    block.write_text(REAL_BLOCK)
    out = tmp_path / "real.cod"
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    for name in (
        "Duress",
        "Delver of Secrets",
        "Fire // Ice",
        "Aether Vial",
        "Bruna, the Fading Light",
        "_____",
    ):
        assert f'name="{name}"' in text
    assert ":8: 'Grizzly Bears' has no printing (10E) 256" in result.stderr


def test_a_melded_back_face_is_refused_with_its_pair(tmp_path: Path) -> None:
    block = tmp_path / "meld.txt"
    block.write_text("1 Brisela, Voice of Nightmares\n")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(tmp_path / "x.cod")])
    assert result.exit_code == 2
    assert "melded back face" in result.stderr and "Gisela, the Broken Blade" in result.stderr
    assert not (tmp_path / "x.cod").exists()


def test_many_unknown_names_are_capped(tmp_path: Path) -> None:
    block = tmp_path / "noise.txt"
    block.write_text("".join(f"1 Zzqx Nonsense {n}\n" for n in range(300)))
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(tmp_path / "x.cod")])
    assert result.exit_code == 2
    assert "300 unknown card name(s)" in result.stderr and "... and 275 more" in result.stderr
    assert result.stderr.count("unknown card 'Zzqx") == 25


def test_a_corrupt_store_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "allcards.sqlite3"
    bad.write_bytes(b"not a database at all" * 100)
    with pytest.raises(CardDataError):
        CardStore(bad)


@pytest.mark.skipif(not ALL_PRINTINGS.is_file(), reason="../shared/carddata/AllPrintings.json.xz is absent")
def test_the_shipped_card_files_are_rebuilt_byte_for_byte() -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "build_card_subset.py"
    done = subprocess.run(
        [sys.executable, str(script), "--allprintings", str(ALL_PRINTINGS), "--check"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr


def test_a_meld_card_named_with_its_back_is_its_front(tmp_path: Path) -> None:
    """MTGJSON names a meld card ``Front // Melded`` (a list made from its data has that name): it is the
    front card, as a transform card's full name is; the melded card alone is still refused."""
    block = tmp_path / "meld.txt"
    block.write_text(
        "1 Bruna, the Fading Light // Brisela, Voice of Nightmares\n1 Gisela, the Broken Blade\n"
    )
    out = tmp_path / "x.cod"
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert 'name="Bruna, the Fading Light"' in text and 'name="Gisela, the Broken Blade"' in text
    assert "Brisela" not in text
    block.write_text("1 Bruna, the Fading Light // Lightning Bolt\n")  # not what it melds into
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(out)])
    assert result.exit_code == 2 and "unknown card" in result.stderr


def test_a_name_with_a_parenthesis_is_not_taken_for_a_set(tmp_path: Path) -> None:
    """``Hazmat Suit (Used)`` is a card: its parenthesis is read as a set code first, and when no card is
    called ``Hazmat Suit`` the name with it is tried (it was unknown, with itself as the suggestion)."""
    block = tmp_path / "un.txt"
    block.write_text("1 Hazmat Suit (Used)\n1 Lightning Bolt (M10)\n")
    out = tmp_path / "un.cod"
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert 'name="Hazmat Suit (Used)"' in text and 'name="Lightning Bolt" setShortName="M10"' in text


def test_a_split_cards_mana_value_adds_its_halves() -> None:
    """Fire // Ice is 4 where it is not on the stack (block check's curve had it at 2, the Combat engine's
    spell cap too); an adventure or a transform card counts its front."""
    store = shipped_store()
    values = {
        name: store.find(name).mana_value
        for name in ("Fire // Ice", "Bonecrusher Giant", "Delver of Secrets")
    }
    assert values == {"Fire // Ice": 4, "Bonecrusher Giant": 3, "Delver of Secrets": 1}


def test_the_shipped_store_serves_every_thread() -> None:
    """The bot's loop writes a league's decks (token names look the store up) and a worker thread then
    loads every card for Combat: one store, two threads (a Combat game failed: "SQLite objects created
    in a thread can only be used in that same thread")."""
    import threading

    from cockatrice_ext.cards.store import CardStore

    store = CardStore()
    assert store.find("Lightning Bolt") is not None
    found: list[object] = []
    errors: list[BaseException] = []

    def elsewhere() -> None:
        try:
            found.append(len(store.all_cards().cards))
            found.append(store.find("Fire // Ice"))
        except BaseException as exc:  # reported to the test below
            errors.append(exc)

    workers = [threading.Thread(target=elsewhere) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert not errors, errors
    assert len(found) == 6 and all(found)
