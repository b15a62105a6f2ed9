"""The testers' designer block in a real Servatrice game: ``bot run --auction-block intl.txt`` (saved by a
Windows editor, an Un-card typed without its quote marks) with its custom set ``intl.xml`` beside it starts,
warns of the encoding in its log, and its game's block holds the designer's card and the Un-card."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from killable_bot import CHAT_BOUND, BotProcess
from servatrice import ServatriceServer
from test_auction_e2e import run
from test_blocks_designer import CUSTOM, CUSTOM_SET, UN_CARD

pytestmark = pytest.mark.servatrice


def test_bot_run_deals_the_designers_block(servatrice: ServatriceServer, tmp_path: Path) -> None:
    block = tmp_path / "intl.txt"
    block.write_bytes(f"1 {CUSTOM}\n1 {UN_CARD}\n1 Grizzly Bears\n".encode("cp1252"))
    (tmp_path / "intl.xml").write_text(CUSTOM_SET.format(name=CUSTOM), encoding="utf-8")
    url = servatrice.ws_url

    async def scenario() -> None:
        bot = BotProcess(
            url, "referee_d", tmp_path / "journal.sqlite3", "auction", "--auction-block", str(block)
        )
        players = [await Player.connect(url, name) for name in ("ann_d", "ben_d")]
        try:
            room_id = await players[0].client.room_id_by_name("Bot room")
            for player in players:
                await player.client.join_room(room_id)
            game_id = await bot.open_game(players[0], room_id, "!auction new 2", "Auction Magic")
            by_id = {await p.sit(room_id, game_id): p for p in players}
            mark = players[0].mark()
            await bot_line(players[0], r"Turn order", mark, timeout=CHAT_BOUND)
            mirror = players[0].client.games[game_id]
            await wait_until(lambda: mirror.active_player_id in by_id, timeout=CHAT_BOUND)
            active = by_id[mirror.active_player_id]
            await active.say(game_id, "!look 3")
            listing = await active.wait_private(
                lambda t: t.startswith("Top of the block:"), timeout=CHAT_BOUND
            )
            for name in (CUSTOM, f'"{UN_CARD}"', "Grizzly Bears"):
                assert name in listing, listing
        finally:
            for player in players:
                await player.close()
            bot.stop()
        log = bot.log.read_text(errors="replace")
        assert "custom cards read from intl.xml, the card set beside intl.txt" in log, log
        assert f"{block} is not UTF-8: read as Windows-1252" in log, log
        assert "ERROR" not in log and "Traceback" not in log, log

    run(scenario())
