"""Only a card the referee dealt goes back to the block: a token named like it is sent back (real Servatrice).

Seen in the security test: bob made a token named like a card he held (``Command_CreateToken``), moved it to
the referee's table and said ``!top``: the referee took it as the card ("bob gives back Thrummingbird"), bob
kept the real one, and the referee's deck mirror listed a card the server did not have.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_auction_e2e import referee_of
from test_auction_shipped_limits import run, seat_players, strict_bot

from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice


def test_a_token_named_like_a_held_card_is_refused_and_the_real_card_accepted(
    servatrice_strict: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)

    async def scenario() -> None:
        bot = await strict_bot(servatrice_strict.ws_url, tmp_path)
        _, game_id, by_id = await seat_players(bot, servatrice_strict.ws_url, ["alice_t", "bob_t"], 2)
        referee = referee_of(bot, game_id)
        engine = referee.engine
        try:
            active_pid = int(engine.active)  # type: ignore[arg-type]
            active = by_id[active_pid]
            mark = active.mark()
            await active.say(game_id, "!draw 1")  # before the turn's auction: asked once, then drawn
            await bot_line(active, r"say !draw again to draw anyway", mark)
            await active.say(game_id, "!draw 1")
            told = await active.wait_private(lambda t: t.startswith("You drew"))
            drawn = told.removeprefix("You drew ").split(":")[0]
            held = list(engine.hand[active_pid])
            table = active.client.games[game_id].players[active_pid].zone("table")
            await wait_until(lambda: any(c.face_down for c in table.cards), what="the drawn card, face down")
            real = next(c for c in table.cards if c.face_down)

            # A token under the drawn card's name, face up on the player's own table, moved to the referee's.
            await active.client.game_command(
                game_id, commands.create_token(drawn, zone="table", x=9, y=0, destroy_on_zone_change=True)
            )
            await wait_until(
                lambda: any(c.name == drawn and not c.face_down for c in table.cards), what="the token"
            )
            token = next(c for c in table.cards if c.name == drawn and not c.face_down)
            await active.client.game_command(
                game_id,
                commands.move_card(
                    "table", [token.id], target_player_id=referee.me, target_zone="table", x=6, y=0
                ),
            )
            await bot_line(
                active,
                rf"{active.name}: the referee takes back only a card it dealt you"
                r" \(that card is not one: a token",
                mark,
            )
            await wait_until(
                lambda: any(c.name == drawn and not c.face_down for c in table.cards),
                what="the token back on its maker's table",
            )
            bot_table = active.client.games[game_id].players[referee.me].zone("table").cards
            assert drawn not in [c.name for c in bot_table]
            await active.say(game_id, "!top")
            await bot_line(active, rf"{active.name}: drop a card on the referee's table first", mark)
            assert list(engine.hand[active_pid]) == held
            block_seen = active.client.games[game_id].players[referee.me].zone("deck")
            assert block_seen.card_count == len(engine.block)  # the token did not go into the block

            # The real card goes back as before.
            await active.client.game_command(
                game_id,
                commands.move_card(
                    "table",
                    [real.id],
                    target_player_id=referee.me,
                    target_zone="table",
                    x=9,
                    y=0,
                    face_down=True,
                ),
            )
            await bot_line(active, rf"{active.name} gives back a face-down card: !top or !bottom", mark)
            await active.say(game_id, "!top")
            await bot_line(active, rf"{active.name} puts a face-down card on the top of the block\.", mark)
            assert engine.config.cards[engine.block[0]].name == drawn and not engine.hand[active_pid]
            await wait_until(lambda: block_seen.card_count == len(engine.block), what="the card in the deck")
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())
    problems = [r.getMessage() for r in caplog.records if "not in the bot's deck" in r.getMessage()]
    assert not problems, problems
