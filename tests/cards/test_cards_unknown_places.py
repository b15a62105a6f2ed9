"""Where the unknown-card listing points, and how often it names a name. Every other listing about a list's
lines says ``FILE:LINE`` (``decks.errors.line_place``, as compilers do, so an editor jumps to it); the
unknown names said ``line 12: unknown card ...``. A name the list holds on several lines (Forge's beginner
cube lists ``Dazzling Angel|FDN`` twice) was said once per line, each with the same suggestions: it is said
once, with every line it is on."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cards.errors import UnknownCard, UnknownCardsError
from cockatrice_ext.cards.model import CardDatabase
from cockatrice_ext.cards.resolve import resolve_deck
from cockatrice_ext.cards.store import shipped_store
from cockatrice_ext.cli import main
from cockatrice_ext.decks.blocklist import parse_block_list


def test_each_unknown_name_points_at_file_and_line() -> None:
    error = UnknownCardsError(
        [UnknownCard("Lightning Blot", line=12, suggestions=("Lightning Bolt",))], source="cube.txt"
    )
    listed = str(error).splitlines()[1]
    assert listed == "  cube.txt:12: unknown card 'Lightning Blot' (did you mean: Lightning Bolt?)"


def test_a_name_on_several_lines_is_said_once_with_all_its_lines() -> None:
    error = UnknownCardsError(
        [
            UnknownCard("Dazling Angel", line=12, suggestions=("Dazzling Angel",)),
            UnknownCard("Grizzly Bars", line=20, suggestions=("Grizzly Bears",)),
            UnknownCard("Dazling Angel", line=40, section="side", suggestions=("Dazzling Angel",)),
        ],
        source="cube.txt",
    )
    message = str(error)
    assert message.startswith("cube.txt: 2 unknown card name(s):\n")
    assert message.count("Dazling Angel") == 1
    assert "  cube.txt:12: lines 12 and 40: unknown card 'Dazling Angel' (did you mean: Dazzling Angel?)" in (
        message
    )
    assert [u.line for u in error.unknown] == [12, 20, 40]  # every line's name kept for the callers


def test_a_name_repeated_past_the_names_shown_leaves_the_others_their_suggestions() -> None:
    """Suggestions were looked for the first 25 *lines*: 30 lines of one typo left the next typo without."""
    text = "".join("1 Lightning Blot\n" for _ in range(30)) + "1 Grizzly Bars\n"
    deck = parse_block_list(text, "typos.txt")
    db: CardDatabase = shipped_store().cards_for(["Lightning Bolt", "Grizzly Bears"])
    try:
        resolve_deck(deck, db, source="typos.txt")
    except UnknownCardsError as error:
        message = str(error)
    else:
        raise AssertionError("typos resolved")
    assert message.startswith("typos.txt: 2 unknown card name(s):\n")
    assert message.count("unknown card 'Lightning Blot'") == 1
    assert "typos.txt:31: unknown card 'Grizzly Bars' (did you mean: Grizzly Bears" in message
    assert "... and" not in message


def test_export_says_a_repeated_unknown_name_once(tmp_path: Path) -> None:
    block = tmp_path / "cube.txt"
    block.write_text("1 Dazling Angel|FDN\n1 Serra Angel\n1 Dazling Angel|FDN\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(tmp_path / "c.cod")])
    assert result.exit_code == 2
    listed = [line for line in result.stderr.splitlines() if "unknown card 'Dazling Angel'" in line]
    assert len(listed) == 1 and listed[0].startswith(f"  {block}:1: lines 1 and 3: unknown card"), listed
    assert "1 unknown card name(s)" in result.stderr
