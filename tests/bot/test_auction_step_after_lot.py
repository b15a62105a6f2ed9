"""An auction step that comes while a card effect's lot is up waits for that lot, then starts.

Seen in review: ``!lot 1`` in the upkeep, then the draw step, made the referee's ``StartAuctionStep`` fail
inside the phase event (``auction_in_progress``); the turn's auction step started only at a later phase
change, if any, and the log had a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_auction_e2e import referee_of, wait_note
from test_auction_shipped_limits import run, seat_players, strict_bot

pytestmark = pytest.mark.servatrice


def test_the_draw_steps_auction_follows_an_upkeep_lot(
    servatrice_strict: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        bot = await strict_bot(servatrice_strict.ws_url, tmp_path)
        _, game_id, by_id = await seat_players(bot, servatrice_strict.ws_url, ["alice_u", "bob_u"], 2)
        referee = referee_of(bot, game_id)
        engine = referee.engine
        try:
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            other = next(p for p in by_id.values() if p is not active)
            mark = active.mark()
            await active.say(game_id, "!lot 1")  # in the upkeep: a card effect's lot (90X.8)
            await bot_line(active, r"Auction 1: ", mark)
            await active.phase(game_id, 2)  # the draw step: its auction step must wait for lot 1
            await bot_line(active, r"The auction step starts once auction 1 is over\.", mark)
            assert engine.phase == "beginning" and engine.lot is not None and engine.lot.lot_no == 1
            await active.say(game_id, "!bid 1")
            await wait_note(other, game_id, referee.me, rf"High bid: 1 by {active.name}")
            await other.say(game_id, "!pass")
            await bot_line(active, rf"Auction 2: .*{re.escape(active.name)} to bid", mark)
            await wait_until(lambda: engine.phase == "auction", what="the auction step")
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())
    assert not [r for r in caplog.records if r.exc_info], "a fault of the referee was logged"
