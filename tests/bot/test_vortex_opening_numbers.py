"""Vortex: the opening turns are announced with the numbers of the turns players get, on a real Servatrice.

Seen in the field: when the active player left mid-opening, the next turn was announced with the same number
("Opening turn 5" twice): the engine numbered the turns finished, and the turn of the player who left never
finished.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_vortex_bot import THREE_POOL, open_three, run, start_bot

from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice


def test_the_turn_after_the_active_player_conceded_mid_opening_gets_the_next_number(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """ann picks on opening turn 1; the player of opening turn 2 concedes before picking; the next turn is
    "Opening turn 3", and no opening turn number is said twice."""
    pool = tmp_path / "pool.txt"
    pool.write_text(THREE_POOL)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_ref_on", block=str(pool), seed=5)
        game_id, referee, by_name, seats = await open_three(
            bot, servatrice.ws_url, ("ann_on", "ben_on", "cat_on")
        )
        by_seat = {seat: by_name[name] for name, seat in seats.items()}
        watcher = by_name["ann_on"]
        try:
            await bot_line(watcher, r"Opening turn 1: ", 0)
            first = by_seat[int(referee.engine.whose_turn)]  # type: ignore[arg-type]
            await first.say(game_id, "!pick 1")
            await bot_line(watcher, r"Opening turn 2: ", 0)
            second = by_seat[int(referee.engine.whose_turn)]  # type: ignore[arg-type]
            observer = next(p for p in by_name.values() if p not in (first, second))
            mark = observer.mark()
            await second.client.game_command(game_id, commands.concede())
            line = await bot_line(observer, r"Opening turn \d+: ", mark)
            assert re.search(r"Opening turn 3: ", line), line
            await wait_until(lambda: referee.engine.opening_turns_begun == 3, what="the third opening turn")
            said = [n for _, t in observer.heard for n in re.findall(r"Opening turn (\d+): ", t)]
            assert said == sorted(set(said), key=int), said  # each number once, in order
        finally:
            for p in by_name.values():
                await p.close()
            await bot.close()

    run(scenario(), timeout=180)
