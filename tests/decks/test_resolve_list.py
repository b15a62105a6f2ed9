"""The one reader of a designer's block list (``export``, ``block check`` and the bot): what it says is data
for its caller, in the order it was found, and it needs no command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cockatrice_ext.cards.resolve import UnknownCardsError
from cockatrice_ext.decks.resolve_list import CustomSetError, read_block

CUSTOM_SET = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>HOME</name><longname>A designer's set</longname><settype>Custom</settype></set></sets>
  <cards>
    <card>
      <name>\u00c6rgeist</name>
      <text>Flying</text>
      <prop>
        <layout>normal</layout><side>front</side><type>Creature</type><maintype>Creature</maintype>
        <manacost>1U</manacost><cmc>2</cmc><colors>U</colors><coloridentity>U</coloridentity><pt>1/1</pt>
      </prop>
      <set rarity="common" num="1">HOME</set>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def designer_block(folder: Path, text: str, *, encoding: str = "utf-8") -> Path:
    path = folder / "home.txt"
    path.write_bytes(text.encode(encoding))
    (folder / "home.xml").write_text(CUSTOM_SET, encoding="utf-8")
    return path


def test_what_the_reader_says_goes_to_the_caller_in_order(tmp_path: Path) -> None:
    path = designer_block(tmp_path, "2 \u00c6rgeist\n1 Ach! Hans, Run!\n", encoding="cp1252")
    said: list[str] = []
    resolved = read_block(path, say=said.append)
    assert [(entry.card.name, entry.count) for _, entry in resolved.entries()] == [
        ("\u00c6rgeist", 2),
        ('"Ach! Hans, Run!"', 1),
    ]
    assert said == [
        "note: custom cards read from home.xml, the card set beside home.txt",
        f"warning: {path} is not UTF-8: read as Windows-1252 (check its accented names; save it as UTF-8 to"
        " be sure)",
    ]


def test_a_note_said_before_an_unknown_card_is_said_and_the_error_is_raised(tmp_path: Path) -> None:
    path = designer_block(tmp_path, "2 \u00c6rgeist\n1 Nosuch Cardname\n")
    said: list[str] = []
    with pytest.raises(UnknownCardsError, match="Nosuch Cardname"):
        read_block(path, say=said.append)
    assert said == ["note: custom cards read from home.xml, the card set beside home.txt"]


def test_a_broken_custom_set_beside_the_list_is_its_own_error(tmp_path: Path) -> None:
    path = designer_block(tmp_path, "2 \u00c6rgeist\n")
    (tmp_path / "home.xml").write_text(CUSTOM_SET.replace("</cards>", ""), encoding="utf-8")
    with pytest.raises(CustomSetError, match="the custom set beside the list"):
        read_block(path, say=lambda line: None)


def test_reading_a_block_needs_no_command_line(tmp_path: Path) -> None:
    """The layer under ``cli/`` and ``bot/``: reading and resolving a list imports no click."""
    path = designer_block(tmp_path, "2 \u00c6rgeist\n1 Ach! Hans, Run!\n")
    code = (
        "import sys\nfrom pathlib import Path\nfrom cockatrice_ext.decks.resolve_list import read_block\n"
        f"read_block(Path({str(path)!r}), say=print)\nassert 'click' not in sys.modules, 'click imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "custom cards read from home.xml" in done.stdout
