"""Forge card scripts: the real examples, folders and zips, and fuzzing."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.errors import CardDataError
from cockatrice_ext.cards.forge import parse_forge_script, read_forge_cards, read_forge_script
from cockatrice_ext.cards.sources import load_cards


def test_split_card(examples: Path) -> None:
    card = read_forge_script(examples / "forge_card_fire_ice.txt")
    assert card.name == "Fire // Ice" and card.layout == "split"
    assert [f.mana_cost for f in card.faces] == ["{1}{R}", "{1}{U}"]
    assert card.faces[1].oracle_text == "Tap target permanent.\nDraw a card."


def test_double_faced_card(examples: Path) -> None:
    card = read_forge_script(examples / "forge_card_delver_of_secrets_insectile_aberration.txt")
    assert card.name == "Delver of Secrets // Insectile Aberration" and card.layout == "transform"
    front, back = card.faces
    assert (front.power, front.toughness, front.subtypes) == ("1", "1", ("Human", "Wizard"))
    assert back.mana_cost == "" and back.colors == ("U",)  # "no cost", Colors:blue
    assert back.type_line == "Creature — Human Insect"


def test_comma_name_and_x_cost(examples: Path) -> None:
    card = read_forge_script(examples / "forge_card_mikaeus_the_lunarch.txt")
    assert card.name == "Mikaeus, the Lunarch"
    assert card.mana_cost == "{X}{W}" and card.mana_value == 1
    assert card.supertypes == ("Legendary",) and card.subtypes == ("Human", "Cleric")
    assert "\n{T}: Put a +1/+1 counter" in card.oracle_text


def test_folder_and_zip(examples: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cardsfolder" / "f"
    folder.mkdir(parents=True)
    archive = tmp_path / "cardsfolder.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for script in examples.glob("forge_card_*.txt"):
            (folder / script.name).write_bytes(script.read_bytes())
            zf.writestr(f"f/{script.name}", script.read_bytes())
    names = {"Fire // Ice", "Delver of Secrets // Insectile Aberration", "Mikaeus, the Lunarch"}
    assert set(read_forge_cards(tmp_path / "cardsfolder").cards) == names
    assert set(load_cards(archive).cards) == names
    assert set(load_cards(tmp_path / "cardsfolder").cards) == names


def test_errors_name_the_file() -> None:
    with pytest.raises(CardDataError, match=r"x\.txt:1"):
        parse_forge_script(b"ManaCost:1 R\nTypes:Instant\n", source="x.txt")
    with pytest.raises(CardDataError, match="not UTF-8"):
        parse_forge_script(b"Name:\xff\xfe", source="x.txt")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=500))
def test_fuzz_bytes(data: bytes) -> None:
    try:
        card = parse_forge_script(data)
    except CardDataError:
        return
    assert card.name


_LINE = st.sampled_from(
    ["Name:", "ManaCost:", "Types:", "PT:", "Oracle:", "Colors:", "AlternateMode:", "ALTERNATE", "K:"]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_LINE, st.text(max_size=15)), max_size=12))
def test_fuzz_script_like_text(lines: list[tuple[str, str]]) -> None:
    text = "\n".join(key + value for key, value in lines)
    try:
        card = parse_forge_script(text)
    except CardDataError:
        return
    assert all(face.name for face in card.faces)


def test_forges_own_layout_reads_its_zip_and_loose_scripts_win(examples: Path, tmp_path: Path) -> None:
    """Forge keeps its scripts in ``res/cardsfolder/cardsfolder.zip``: the folder, ``res`` and the install
    folder all read it (they read nothing before); a loose script is read before the zip's copy of it, and
    a .txt that is not a script (a README) is skipped, not an error."""
    cardsfolder = tmp_path / "forge" / "res" / "cardsfolder"
    cardsfolder.mkdir(parents=True)
    with zipfile.ZipFile(cardsfolder / "cardsfolder.zip", "w") as zf:
        for script in examples.glob("forge_card_*.txt"):
            zf.writestr(f"{script.name[11]}/{script.name}", script.read_bytes())
    (cardsfolder / "README.txt").write_text("Forge's card scripts are in the zip.\n")
    loose = (examples / "forge_card_mikaeus_the_lunarch.txt").read_text().replace("PT:0/0", "PT:9/9")
    (cardsfolder / "mikaeus_the_lunarch.txt").write_text(loose)
    names = {"Fire // Ice", "Delver of Secrets // Insectile Aberration", "Mikaeus, the Lunarch"}
    for folder in (cardsfolder, cardsfolder.parent, cardsfolder.parent.parent):
        db = load_cards(folder)
        assert set(db.cards) == names
        assert db.cards["Mikaeus, the Lunarch"].faces[0].power == "9"


def test_a_folder_without_card_data_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("shopping list\n")
    (tmp_path / ".venv" / "lib").mkdir(parents=True)
    (tmp_path / ".venv" / "lib" / "x.txt").write_text("Name:Hidden\nTypes:Instant\n")
    with pytest.raises(CardDataError, match="no card data in this folder"):
        load_cards(tmp_path)
