"""``export --to cockatrice-xml -o .../customsets/myset.xml``: written straight into Cockatrice's custom sets.

Cockatrice loads every ``*.xml`` below ``customsets`` in its data folder at each start and reload, and makes
that folder at start when it is missing. The export made any missing folders silently (a mistyped data
folder became a tree Cockatrice never reads) and then said to add the file with Card Database > Add custom
sets/cards, which copies it into ``customsets`` a second time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cockatrice_ext.cli import main


@pytest.fixture
def block(tmp_path: Path) -> Path:
    path = tmp_path / "lists" / "auction.txt"
    path.parent.mkdir()
    path.write_text("1 Auctioneer\n1 Packaged Gnome\n4 Mountain\n", encoding="utf-8")
    return path


def export(block: Path, out: Path) -> Result:
    return CliRunner().invoke(main, ["export", str(block), "--to", "cockatrice-xml", "-o", str(out)])


def test_into_an_existing_custom_sets_folder_the_next_step_is_a_reload(tmp_path: Path, block: Path) -> None:
    custom = tmp_path / "Cockatrice" / "customsets"
    custom.mkdir(parents=True)
    result = export(block, custom / "auction.xml")
    assert result.exit_code == 0, result.output
    assert (custom / "auction.xml").is_file()
    assert "Reload card database" in result.stderr and "do not add it again" in result.stderr
    assert "Add custom sets/cards, pick the file" not in result.stderr
    assert "note: made" not in result.stderr


def test_a_missing_custom_sets_folder_in_a_data_folder_is_made_and_said(tmp_path: Path, block: Path) -> None:
    data = tmp_path / "Cockatrice"
    data.mkdir()
    (data / "cards.xml").write_text("<cockatrice_carddatabase version='4'/>", encoding="utf-8")
    result = export(block, data / "customsets" / "auction.xml")
    assert result.exit_code == 0, result.output
    assert (data / "customsets" / "auction.xml").is_file()
    assert f"note: made {data / 'customsets'}, Cockatrice's custom sets folder" in result.stderr
    assert "Reload card database" in result.stderr


def test_a_missing_data_folder_is_refused_saying_what_to_do(tmp_path: Path, block: Path) -> None:
    """A mistyped data folder (``Cockatrix``) or one Cockatrice never made: nothing is written, no folder
    is made, and the error says where Cockatrice keeps the folder and what else to do."""
    (tmp_path / "share").mkdir()
    out = tmp_path / "share" / "Cockatrix" / "Cockatrice" / "customsets" / "auction.xml"
    result = export(block, out)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert f"{out.parent} does not exist, nor the Cockatrice data folder it belongs in" in result.stderr
    assert "~/.local/share/Cockatrice/Cockatrice" in result.stderr
    assert "start Cockatrice once" in result.stderr and "Add custom sets/cards" in result.stderr
    assert list((tmp_path / "share").iterdir()) == []


def test_a_file_outside_a_custom_sets_folder_is_as_before(tmp_path: Path, block: Path) -> None:
    out = tmp_path / "new" / "folder" / "auction.xml"
    result = export(block, out)
    assert result.exit_code == 0, result.output
    assert out.is_file()
    assert "Card Database > Add custom sets/cards, pick the file" in result.stderr
