"""Every warning and note about a line of a list points at it one way: ``FILE:LINE:``, as compilers do.

The resolver's warnings said ``warning: line 3: ...`` (no file), the readers' ``warning: list.txt: line 2:
...``, an error ``list.txt:3: ...``: three forms in one run, and the first named no file at all.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main

MIXED = (
    "4 Lightning Bolt\n"
    "1 Opt\u200b\n"  # an invisible character: the reader's warning
    "1 Shock (M19) 999\n"  # a number the set lacks: the resolver's warning
    "4 Bonecrusher Giant <borderless> [ELD]\n"  # a version the card data cannot tell: the reader's
    "2 Llanowar Elves (DAR) 168\n"  # Arena's code for Dominaria: a note
)
PLACE = re.compile(r"^(warning|note): (?P<file>.+?):(?P<line>\d+): ")
OLD_PLACE = re.compile(r"^(warning|note): (?:\S+: )?lines? \d")
"""``warning: line 3:`` and ``warning: list.txt: line 2:``, the forms before."""


def said_about_lines(stderr: str) -> list[tuple[str, str, int]]:
    """``(kind, file, line)`` of each warning or note that points at a line (``-1`` for an old form)."""
    out = []
    for text in stderr.splitlines():
        if OLD_PLACE.match(text):
            out.append((text.split(":", 1)[0], "", -1))
        elif found := PLACE.match(text):
            out.append((found.group(1), found.group("file"), int(found.group("line"))))
    return out


@pytest.mark.parametrize("command", [["export", "{}", "--to", "cod", "-o", "-"], ["block", "check", "{}"]])
def test_reader_and_resolver_warnings_point_alike(tmp_path: Path, command: list[str]) -> None:
    block = tmp_path / "mixed.txt"
    block.write_text(MIXED, encoding="utf-8")
    result = CliRunner().invoke(main, [arg.format(block) for arg in command])
    assert result.exit_code in (0, 1), result.output  # block check: 1 when a guideline is missed
    assert said_about_lines(result.stderr) == [
        ("note", str(block), 5),
        ("warning", str(block), 2),
        ("warning", str(block), 3),
        ("warning", str(block), 4),
    ], result.stderr


def test_standard_input_is_named_as_an_error_names_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["export", "-", "--to", "cod", "-o", "-"], input=MIXED)
    assert result.exit_code == 0, result.output
    assert [place[1:] for place in said_about_lines(result.stderr)] == [
        ("<stdin>", 5),
        ("<stdin>", 2),
        ("<stdin>", 3),
        ("<stdin>", 4),
    ]
    bad = CliRunner().invoke(main, ["export", "-", "--to", "cod", "-o", "-"], input="1 Opt\n1 Opt\x07\n")
    assert "error: <stdin>:2: card name contains a control character" in bad.stderr


def test_a_warning_about_several_lines_points_at_the_first_and_names_them_all(tmp_path: Path) -> None:
    block = tmp_path / "pasted.txt"
    block.write_text("1 Opt\u200b\n1 Shock\n2 Duress\u200b\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", "-"])
    assert result.exit_code == 0, result.output
    (warning,) = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warning.startswith(f"warning: {block}:1: lines 1 and 3: removed invisible characters (U+200B")


def test_a_token_spelled_otherwise_is_warned_about_at_its_line(tmp_path: Path) -> None:
    cod = tmp_path / "deck.cod"
    cod.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>d</deckname>'
        '<zone name="main"><card number="4" name="Lightning Bolt"/></zone>'
        '<zone name="tokens"><card number="1" name="Treasure Token    "/></zone></cockatrice_deck>\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["export", str(cod), "--to", "cod", "-o", str(tmp_path / "out.cod")])
    assert result.exit_code == 0, result.output
    (token,) = [line for line in result.stderr.splitlines() if "token 'Treasure Token    '" in line]
    assert re.match(rf"^warning: {re.escape(str(cod))}:\d+: token ", token), token
