"""A registered player whose connection drops keeps their seat; back in the game, they are told what the
referee said while they were away (Servatrice seats them again but does not repeat the game's chat)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from test_auction_e2e import BLOCK, run, seated_pair, wait_note

pytestmark = pytest.mark.servatrice


def test_a_player_back_from_a_dropped_connection_hears_what_they_missed(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path
) -> None:
    from mariadb_server import sql_config

    for name in ("referee_aw", "alice_aw", "bob_aw"):
        mariadb.add_user(name, "secret")
    server = servatrice_factory.start(sql_config(mariadb))

    async def scenario() -> None:
        bot, players, game_id, referee, by_id = await seated_pair(
            server, tmp_path, BLOCK, "aw", user="referee_aw", password="secret"
        )
        try:
            engine = referee.engine
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            mark = active.mark()
            await active.phase(game_id, 2)
            await bot_line(active, r"Auction 1: ", mark)
            await asyncio.sleep(4.0)  # the lot's opening line is now older than the bidder's silence will be
            first_id = int(engine.whose_bid())  # type: ignore[arg-type]
            first = by_id[first_id]
            second = next(player for player in players if player is not first)
            await first.say(game_id, "!bid 3")
            await wait_note(second, game_id, referee.me, rf"High bid: 3 by {first.name}")
            lot_card = engine.current_lot()["cards"][0]["name"]  # type: ignore[index]
            seat = referee.mirror.players[first_id]
            # The game's clock has reported the bid as the bidder's last sign of life.
            await wait_until(lambda: 0 <= seat.ping_seconds <= 1, what="a fresh ping")

            # The bidder's connection drops: a registered player keeps the seat (ping -1).
            await first.client.close()
            await wait_until(lambda: seat.ping_seconds < 0, what="the server reporting the drop")
            mark = second.mark()
            await second.say(game_id, "!pass")
            sold = await bot_line(second, rf"Sold: {re.escape(lot_card)} to {first.name} for 3", mark)

            # Back: Servatrice seats them again, and the referee tells them what the game's chat said.
            back = await Player.connect(server.ws_url, first.name, "secret")
            players[players.index(first)] = back
            recap = await back.wait_private(lambda text: f"Game #{game_id} while you were away" in text)
            assert sold in recap, recap
            assert "Auction 1: " not in recap, recap  # said well before the drop: they saw it
            assert game_id in back.client.games  # re-seated by the server, not by the referee
            await asyncio.sleep(1.0)
            assert [text for _, text in back.private].count(recap) == 1  # told once
        finally:
            for player in players:
                await player.close()
            await bot.close()

    run(scenario(), timeout=120)
