"""A card given back to the block face down: the referee peeks at it and keeps its name to itself.

Seen in the security test: a drawn card (face down on its drawer's table) dropped face down on the referee's
table was announced as "alice gives back : !top or !bottom", and ``!top`` answered "sent back (no such card
here)": the referee never learnt which card it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_auction_e2e import referee_of
from test_auction_shipped_limits import lines_since, run, seat_players, strict_bot

from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice


def test_a_drawn_card_given_back_face_down_goes_to_the_block_unnamed(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    async def scenario() -> None:
        bot = await strict_bot(servatrice_strict.ws_url, tmp_path)
        _, game_id, by_id = await seat_players(bot, servatrice_strict.ws_url, ["alice_d", "bob_d"], 2)
        referee = referee_of(bot, game_id)
        engine = referee.engine
        try:
            active_pid = int(engine.active)  # type: ignore[arg-type]
            active = by_id[active_pid]
            other = next(p for p in by_id.values() if p is not active)
            mark = active.mark()
            await active.say(game_id, "!draw 1")  # before the turn's auction: asked once, then drawn
            await bot_line(active, r"say !draw again to draw anyway", mark)
            await active.say(game_id, "!draw 1")
            told = await active.wait_private(lambda t: t.startswith("You drew"))
            drawn = told.removeprefix("You drew ").split(":")[0]
            table = active.client.games[game_id].players[active_pid].zone("table")
            await wait_until(lambda: any(c.face_down for c in table.cards), what="the drawn card, face down")
            card = next(c for c in table.cards if c.face_down)
            await active.client.game_command(
                game_id,
                commands.move_card(
                    "table",
                    [card.id],
                    target_player_id=referee.me,
                    target_zone="table",
                    x=6,
                    y=0,
                    face_down=True,
                ),
            )
            await bot_line(active, rf"{active.name} gives back a face-down card: !top or !bottom", mark)
            await active.say(game_id, "!top")
            await bot_line(active, rf"{active.name} puts a face-down card on the top of the block\.", mark)
            assert engine.config.cards[engine.block[0]].name == drawn  # the referee knew which card it was
            assert not [line for line in lines_since(other, mark) if drawn in line]
            assert not [text for _, text in other.private if drawn in text]
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())
