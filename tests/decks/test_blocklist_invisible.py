"""Invisible format characters pasted into a list's names are removed (one warning per list naming the
lines); control characters are refused, every such line at once, each naming its characters."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main
from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.errors import DeckFormatError

PASTED = "1 Shock\n1 Counter\u200bspell\nShock\u200d\n1 Opt\n2 Du\ufeffress\n1 Jaya\u00ad Ballard\n"


def _said(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning: ") and "invisible" in line]


def test_invisible_characters_are_removed_with_one_warning_naming_the_lines() -> None:
    deck = parse_block_list(PASTED, source="zw2.txt")
    assert [(e.count, e.name) for e in deck.main] == [
        (1, "Shock"),
        (1, "Counterspell"),
        (1, "Shock"),
        (1, "Opt"),
        (2, "Duress"),
        (1, "Jaya Ballard"),
    ]
    (warning,) = deck.read_warnings
    assert warning.startswith("zw2.txt:2: lines 2, 3, 5 and 6:")
    for code in ("U+200B ZERO WIDTH SPACE", "U+200D ZERO WIDTH JOINER", "U+FEFF", "U+00AD SOFT HYPHEN"):
        assert code in warning


def test_an_invisible_character_hides_neither_a_count_nor_a_comment() -> None:
    deck = parse_block_list("# a family \U0001f468\u200d\U0001f469\n\u200b# a remark\n4\u200b Shock\n")
    assert [(e.count, e.name) for e in deck.main] == [(4, "Shock")]
    assert deck.comments == "a family \U0001f468\u200d\U0001f469\na remark"  # a comment keeps its joiners
    (warning,) = deck.read_warnings
    assert warning.startswith("<text>:3:")


def test_a_clean_list_warns_of_nothing() -> None:
    assert parse_block_list("\ufeff1 Shock\n1 Opt\n", source="clean.txt").read_warnings == []


def test_every_line_with_control_characters_is_refused_at_once_naming_them() -> None:
    text = "1 Sh\x07ock\n1 Opt\n2 Coun\x1bter\x00spell\n1 Pri\ue000vate\n1 Du\u200bress\n"
    with pytest.raises(DeckFormatError) as info:
        parse_block_list(text, source="bad.txt")
    message = str(info.value)
    assert message.startswith("bad.txt:1: 3 card lines")
    lines = message.splitlines()[1:]
    assert lines == [
        "  bad.txt:1: card name contains a control character (U+0007)",
        "  bad.txt:3: card name contains control characters (U+001B, U+0000)",
        "  bad.txt:4: card name contains a private-use character (U+E000)",
    ]


def test_one_line_with_a_control_character_says_which() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_block_list("1 Opt\n1 Sh\x07ock\n", source="bad.txt")
    assert str(info.value) == "bad.txt:2: card name contains a control character (U+0007)"
    assert info.value.line == 2


def test_export_and_block_check_read_a_pasted_list_and_say_what_they_removed(tmp_path: Path) -> None:
    listed = tmp_path / "zw2.txt"
    listed.write_text(PASTED, encoding="utf-8")
    out = tmp_path / "out.txt"
    result = CliRunner().invoke(main, ["export", str(listed), "--to", "text", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    written = out.read_text(encoding="utf-8")
    assert "1 Counterspell" in written and "2 Duress" in written and "\u200b" not in written
    (said,) = _said(result.stderr)  # a warning line, as the resolver's: no logger's time stamp
    assert said.startswith("warning: ") and "lines 2, 3, 5 and 6" in said
    result = CliRunner().invoke(main, ["block", "check", str(listed)])
    assert result.exit_code == 0, result.stderr
    (said,) = _said(result.stderr)
    assert "lines 2, 3, 5 and 6" in said


def test_block_check_names_every_line_with_control_characters(tmp_path: Path) -> None:
    listed = tmp_path / "bad.txt"
    listed.write_text("1 Sh\x07ock\n1 Opt\n1 Coun\x1bterspell\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["block", "check", str(listed)])
    assert result.exit_code == 2
    assert f"  {listed}:1: card name contains a control character (U+0007)" in result.stderr
    assert f"  {listed}:3: card name contains a control character (U+001B)" in result.stderr


def test_the_bot_loads_a_pasted_auction_block_and_logs_what_it_removed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from cockatrice_ext.bot.blocks import load_block

    listed = tmp_path / "zw2.txt"
    listed.write_text(PASTED, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        block = load_block(str(listed))
    assert "Counterspell" in block.game_names and "Duress" in block.game_names
    (logged,) = [r.getMessage() for r in caplog.records if "invisible" in r.getMessage()]
    assert "lines 2, 3, 5 and 6" in logged
