"""Game options from the command line: ``bot options`` lists them, ``bot run --option`` sets room defaults."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner
from servatrice import ServatriceServer

from cockatrice_ext.cli import main
from cockatrice_ext.formats import options as opts


def test_bot_options_lists_every_format_and_option() -> None:
    result = CliRunner().invoke(main, ["bot", "options"])
    assert result.exit_code == 0, result.output
    for fmt, options in opts.OPTIONS.items():
        assert f"{fmt}:\n" in result.output
        for option in options:
            assert f"  {option.name}={option.allowed()} (default " in result.output
    only = CliRunner().invoke(main, ["bot", "options", "autobattler"])
    assert only.exit_code == 0 and "carousel=off|drop|putback (default off)" in only.output
    assert "auction:" not in only.output


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("auction.timr=60", "unknown option 'timr' (did you mean timer?)"),
        ("timer=60", "expected FORMAT.key=value"),
        ("chess.timer=60", "unknown format 'chess'"),
        ("combat.hand=99", "hand=99: expected a whole number from 1 to 40"),
    ],
)
def test_bot_run_refuses_a_bad_option_with_one_line(option: str, message: str) -> None:
    result = CliRunner().invoke(
        main, ["bot", "run", "ws://127.0.0.1:9/servatrice", "--user", "ref", "--option", option]
    )
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.servatrice
def test_room_defaults_from_the_command_line_and_options_in_room_chat(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    from bot_process import ask_in_room, bot_process

    options = ("--format", "auction", "--option", "auction.timer=60", "--option", "auction.boards")
    with bot_process(servatrice.ws_url, "opt_referee", tmp_path / "journal.sqlite3", *options):
        rules, typo, extra, created = asyncio.run(
            ask_in_room(
                servatrice.ws_url,
                "opt_player",
                "opt_referee",
                [
                    "!auction rules",
                    "!auction new 2 timr=4",
                    "!auction new 2 bords",
                    "!auction new 3 empty=draw",
                ],
            )
        )
    assert "boards=on|off[on]" in rules and "timer=10-3600|off[60]" in rules
    assert "empty=lose|draw|life[lose]" in rules
    assert "unknown option 'timr' (did you mean timer?)" in typo
    assert "no option or block called 'bords' (did you mean boards?)" in extra
    assert "Auction Magic game #" in created and "open for 3 players" in created
