"""A Forge deck's file is the one Forge itself gives its name, never a path out of the output folder.

Forge reads ``Name=`` trimmed, makes each ``/`` a ``_`` (the ``DeckBase`` constructor) and expects the deck
in ``getBestFileName() + ".dck"``: that name less ``/:*?"<>|``. A ``.dck`` under another name is moved out of
its decks folder at Forge's next start (``DeckStorage.adjustFileLocation``). The export made ``evil.dck``
of ``../../evil`` (Forge wants ``.._.._evil.dck``) and ``My Deck v1.2.dck`` of ``My Deck v1.2.``. Then it
wrote ``.._.._evil.dck``, a hidden file on Unix the designer could not see: a name whose Forge file starts
with a dot now gets a visible file name and the deck that name. An ``-o`` Forge can never keep a deck in
(``a|b.dck``, ``uw.txt``) replaced the list's own name inside the file: it is kept there now.
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


@pytest.mark.parametrize(
    "name", ["CON", "nul.backup", "back\\slash", "..", "x" * 300, "../../evil", ".hidden"]
)
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
    assert f"warning: wrote {out} as -o asks" in result.stderr
    assert "no deck name gives that file name" in result.stderr
    assert "name the file 'ab.dck'" in result.stderr


@pytest.mark.parametrize("file_name", ["a|b.dck", "uw.txt", ".hidden.dck"])
def test_an_o_forge_never_keeps_a_deck_in_keeps_the_lists_own_name(tmp_path: Path, file_name: str) -> None:
    """Forge moves (``a|b.dck``, ``.hidden.dck``) or never reads (``uw.txt``) that file whatever the deck's
    name: the list's own name stays inside it, and the warning says where the file is, why Forge will not
    keep it there and the file name that would (the one the list's name makes)."""
    out = tmp_path / file_name
    result = export(tmp_path, "# Name: Blue/White\n4 Lightning Bolt\n", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "Name=Blue/White\n" in out.read_text(encoding="utf-8")
    assert f"warning: wrote {out} as -o asks, with the deck named 'Blue/White' inside" in result.stderr
    why = "Forge reads decks only from .dck files" if file_name.endswith(".txt") else "no deck name gives"
    assert why in result.stderr
    assert "name the file 'Blue_White.dck' in Forge's decks folder" in result.stderr


@pytest.mark.parametrize(("name", "file_name"), [("../../evil", "evil.dck"), (". . .Secret", "Secret.dck")])
def test_a_name_whose_forge_file_is_hidden_gets_a_visible_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, file_name: str
) -> None:
    """Forge's own file for ``../../evil`` is ``.._.._evil.dck``: hidden on Unix (Forge loads it, the
    designer's file browser does not show it). The file is named by the one file-name rule instead, the
    deck after its file (so Forge keeps it in Constructed), and the warning says why."""
    monkeypatch.chdir(tmp_path)
    result = export(tmp_path, f"# Name: {name}\n4 Lightning Bolt\n")
    assert result.exit_code == 0, result.output
    (deck,) = written_decks(tmp_path)
    assert deck.parent == tmp_path and deck.name == file_name
    assert forge_file_name(deck.read_text(encoding="utf-8")) == file_name
    assert "would be hidden" in result.stderr and f"after its file, {file_name}" in result.stderr


@pytest.mark.parametrize(("fmt", "file_name"), [("cod", "block.cod"), ("forge", "block.dck")])
def test_a_list_file_starting_with_a_dot_gives_a_visible_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, file_name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".block.txt").write_text("4 Lightning Bolt\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", ".block.txt", "--to", fmt])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [".block.txt", file_name]
    assert "warning" not in result.stderr


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
