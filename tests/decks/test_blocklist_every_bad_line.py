"""A list with several lines that are no card lines names them all in one run, each at ``FILE:LINE``.

Seen as a designer: ``0 Opt`` on line 3 stopped the export with that one line; fixing it showed the next
(``count 1000 is above 999``), and so on, one run per mistake, where unknown names are all said at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main
from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.errors import DeckFormatError

LIST = "4 Lightning Bolt\n0 Opt\n2 Shock\n1000 Island\n4\n1 Counterspell\n"


def test_every_line_that_is_no_card_is_named_at_once() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_block_list(LIST, source="bad.txt")
    lines = str(info.value).splitlines()
    assert lines[0] == "bad.txt:2: 3 lines are not card lines:"
    assert lines[1] == "  bad.txt:2: count must be positive, got 0"
    assert lines[2].startswith("  bad.txt:4: count 1000 is above 999")
    assert lines[3] == "  bad.txt:5: count 4 with no card name"
    assert info.value.line == 2


def test_one_such_line_is_said_as_before() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_block_list("4 Lightning Bolt\n0 Opt\n", source="bad.txt")
    assert str(info.value) == "bad.txt:2: count must be positive, got 0"


def test_export_names_every_such_line_and_writes_nothing(tmp_path: Path) -> None:
    block = tmp_path / "bad.txt"
    block.write_text(LIST, encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(tmp_path / "out.cod")])
    assert result.exit_code == 2
    for line in (2, 4, 5):
        assert f"  {block}:{line}: " in result.stderr
    assert not (tmp_path / "out.cod").exists()
