"""A Forge deck's file is the one Forge itself gives its name, never a path out of the output folder.

Forge reads ``Name=`` trimmed, makes each ``/`` a ``_`` (the ``DeckBase`` constructor) and expects the deck
in ``getBestFileName() + ".dck"``: that name less ``/:*?"<>|``. A ``.dck`` under another name is moved out of
its decks folder at Forge's next start (``DeckStorage.adjustFileLocation``). The export made ``evil.dck``
of ``../../evil`` (Forge wants ``.._.._evil.dck``) and ``My Deck v1.2.dck`` of ``My Deck v1.2.``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cockatrice_ext.cli import main


def forge_file_name(dck: str) -> str:
    """The file Forge keeps the deck written in ``dck`` under, as Forge derives it from ``Name=``."""
    metadata = dck.split("[Main]")[0]
    line = next(line for line in metadata.splitlines() if line.lower().startswith("name="))
    name = line.split("=", 1)[1].strip().replace("/", "_")
    return re.sub(r'[/:*?"<>|]', "", name) + ".dck"


def export(work: Path, text: str, *args: str) -> Result:
    lists = work / "lists"
    lists.mkdir(exist_ok=True)
    block = lists / "block.txt"
    block.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["export", str(block), "--to", "forge", *args])


def written_decks(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*.dck"))


@pytest.mark.parametrize(
    ("name", "file_name"),
    [
        ("../../evil", ".._.._evil.dck"),
        ("My Deck v1.2.", "My Deck v1.2..dck"),
        ("Blue/White: UW", "Blue_White UW.dck"),
        ("  Esika Brawl  ", "Esika Brawl.dck"),
        ('What? "Burn" <3', "What Burn 3.dck"),
    ],
)
def test_a_lists_own_name_is_written_where_forge_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, file_name: str
) -> None:
    work = tmp_path / "a" / "b" / "work"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    result = export(work, f"# Name: {name}\n4 Lightning Bolt\n4 Mountain\n")
    assert result.exit_code == 0, result.output
    (deck,) = written_decks(tmp_path)
    assert deck.parent == work and deck.name == file_name
    assert forge_file_name(deck.read_text(encoding="utf-8")) == deck.name
    assert "warning" not in result.stderr


def test_a_name_given_with_name_is_written_where_forge_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = export(tmp_path, "4 Lightning Bolt\n", "--name", "Izzet/Boros 2.0")
    assert result.exit_code == 0, result.output
    (deck,) = written_decks(tmp_path)
    assert deck == tmp_path / "Izzet_Boros 2.0.dck"
    assert forge_file_name(deck.read_text(encoding="utf-8")) == deck.name


@pytest.mark.parametrize("name", ["CON", "nul.backup", "back\\slash", "..", "x" * 300])
def test_a_name_forge_cannot_file_is_named_after_a_safe_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A device name (a Windows file Forge cannot write), a backslash (a folder on Windows), dots alone, a
    name too long: the file gets a safe name and the deck is named after it, so Forge keeps it in place."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    result = export(work, f"# Name: {name}\n4 Lightning Bolt\n")
    assert result.exit_code == 0, result.output
    (deck,) = written_decks(tmp_path)
    assert deck.parent == work
    assert forge_file_name(deck.read_text(encoding="utf-8")) == deck.name


def test_an_o_naming_the_deck_otherwise_names_the_file_forge_wants(tmp_path: Path) -> None:
    result = export(tmp_path, "# Name: Blue/White\n4 Lightning Bolt\n", "-o", str(tmp_path / "uw.dck"))
    assert result.exit_code == 0, result.output
    deck = tmp_path / "uw.dck"
    assert forge_file_name(deck.read_text(encoding="utf-8")) == "uw.dck"
    assert "to call it Blue/White, write it as 'Blue_White.dck'" in result.stderr


def test_an_o_forge_gives_no_deck_is_said(tmp_path: Path) -> None:
    """``a|b.dck``: no deck name makes Forge look for that file, so it would move it whatever its name."""
    out = tmp_path / "a|b.dck"
    result = export(tmp_path, "4 Lightning Bolt\n", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert forge_file_name(out.read_text(encoding="utf-8")) == "ab.dck"
    assert "warning: Forge gives no deck the file name 'a|b.dck'" in result.stderr
    assert "name the file 'ab.dck'" in result.stderr


def test_a_cubes_draft_names_it_as_forge_keys_it(tmp_path: Path) -> None:
    """Forge keys a cube by its ``Name=`` with each ``/`` made ``_``, and a draft's ``DeckFile:`` that matches
    no cube drafts Forge's whole card pool: ``DeckFile:Izzet/Boros`` matched nothing."""
    block = tmp_path / "cube.txt"
    block.write_text("# Name: Izzet/Boros\n" + "".join(f"1 {n}\n" for n in CUBE_CARDS), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", str(block), "--to", "forge-cube", "-o", str(out)])
    assert result.exit_code == 0, result.output
    (cube,) = (out / "cube").iterdir()
    (draft,) = (out / "draft").iterdir()
    key = forge_file_name(cube.read_text(encoding="utf-8"))[: -len(".dck")]  # '/' made '_' as Forge reads it
    deck_file = next(
        line for line in draft.read_text(encoding="utf-8").splitlines() if line.startswith("DeckFile:")
    )
    assert deck_file.split(":", 1)[1].strip() == key == "Izzet_Boros"


CUBE_CARDS = ["Lightning Bolt", "Shock", "Opt", "Duress", "Counterspell", "Divination", "Grizzly Bears"] * 2
