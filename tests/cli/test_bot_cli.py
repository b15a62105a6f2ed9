"""``cockatrice-ext bot run`` as an operator starts it: a real process on a real Servatrice."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from bot_process import ask_in_room, bot_process
from servatrice import ServatriceServer

pytestmark = pytest.mark.servatrice


def test_bot_process_answers_room_commands_and_stops_cleanly(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite3"
    with bot_process(servatrice.ws_url, "cli_referee", journal):
        help_line, refusal, created = asyncio.run(
            ask_in_room(
                servatrice.ws_url,
                "cli_player",
                "cli_referee",
                ["!help", "!auction new 2 /etc/passwd", "!auction new 2"],
            )
        )
    assert "!auction new" in help_line
    assert "no block called '/etc/passwd'" in refusal
    assert "Auction Magic game #" in created
    assert journal.exists()
