"""A life at 0 in a league game is decided however the loser's counter moves afterwards (real Servatrice).

Seen in the field: a life of 0 followed within the settling wait by Command_DelCounter of the life counter
was never decided (a missing counter counted as "not at 0"), and a loser setting their life to 0 and -1
over and over held the decision off for ever (each change started the wait again).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceServer
from test_market_e2e import paired_and_playing, start_bot

from cockatrice_ext.bot.league_games import LIFE_COUNTER
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


def test_a_life_at_zero_whose_counter_is_deleted_still_loses(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", rounds=1)
        jon = await Player.connect(servatrice.ws_url, "jon_dc")
        kim = await Player.connect(servatrice.ws_url, "kim_dc")
        try:
            _, game_id, league = await paired_and_playing(bot, jon, kim)
            mark = jon.mark()
            await kim.client.game_command(game_id, commands.set_counter(LIFE_COUNTER, 0))
            await kim.client.game_command(game_id, commands.del_counter(LIFE_COUNTER))
            mirror = jon.client.games[game_id]
            await wait_until(
                lambda: all(
                    LIFE_COUNTER not in p.counters for p in mirror.players.values() if p.name == "kim_dc"
                ),
                what="kim's life counter gone",
            )
            await jon.wait_line(lambda t: "kim_dc is at 0 life: jon_dc wins." in t, since=mark, timeout=30)
            match = league.engine.league.match_of("jon_dc", 1)
            assert match is not None and match.decided and match.winner == "jon_dc"
        finally:
            for p in (jon, kim):
                await p.close()
            await bot.close()

    run(scenario())


def test_a_loser_nudging_their_life_below_zero_does_not_hold_the_decision_off(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """kim's life goes to 0, then -1, 0, -1 ... twice a second, for much longer than the settling wait: the
    game is decided while she goes on (before, every change started the wait again: never)."""

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", rounds=1)
        jon = await Player.connect(servatrice.ws_url, "jon_nu")
        kim = await Player.connect(servatrice.ws_url, "kim_nu")
        try:
            _, game_id, league = await paired_and_playing(bot, jon, kim)
            mark = jon.mark()
            decided = asyncio.ensure_future(
                jon.wait_line(lambda t: "kim_nu is at 0 life: jon_nu wins." in t, since=mark, timeout=60)
            )
            nudges = 0
            for nudges in range(1, 61):  # 30 s of nudges, ten times the settling wait
                await kim.client.game_command(game_id, commands.set_counter(LIFE_COUNTER, -(nudges % 2)))
                await asyncio.wait([decided], timeout=0.5)
                if decided.done():
                    break
            assert decided.done(), "never decided while kim's life moved at or below 0"
            decided.result()
            assert nudges < 60
            match = league.engine.league.match_of("jon_nu", 1)
            assert match is not None and match.decided and match.winner == "jon_nu"
        finally:
            for p in (jon, kim):
                await p.close()
            await bot.close()

    run(scenario())
