"""A Vortex player who is out (conceded) and still types commands hears the refusal, on a real Servatrice.

Seen in the field: after a two-player game ended by a concession, the out player's ``!pick 1`` raised in
the refusal's own path (the refusal asked the engine for the sender's pack, which the engine refuses for a
player who is out): no answer, a traceback in the log. The same in a three-player game going on without
them.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_vortex_bot import THREE_POOL, join_bot_room, open_three, open_vortex, run, start_bot

from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice

OUT = "you are out of this game (you conceded or left)"


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


def test_the_out_player_of_a_two_player_game_over_by_concession_hears_the_refusal(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pool = tmp_path / "pool.txt"
    pool.write_text(THREE_POOL)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_ref_o2", block=str(pool), seed=5)
        (ann, bob), room_id = await join_bot_room(servatrice.ws_url, "ann_o2", "bob_o2")
        try:
            game_id, referee = await open_vortex(bot, ann, room_id)
            for player in (ann, bob):
                await player.sit(room_id, game_id)
            await bot_line(ann, r"Opening turn 1: ", 0)
            mark = ann.mark()
            await bob.client.game_command(game_id, commands.concede())
            await bot_line(ann, r"Game over", mark)
            await wait_until(lambda: bool(referee.finished), what="the game finished")

            for command in ("!pick 1", "!pack"):
                mark = ann.mark()
                await bob.say(game_id, command)
                line = await bot_line(ann, r"^bob_o2: ", mark)
                assert OUT in line or "the game is over" in line, (command, line)
            assert not errors_logged(caplog), errors_logged(caplog)
        finally:
            for p in (ann, bob):
                await p.close()
            await bot.close()

    with caplog.at_level(logging.INFO):
        run(scenario())


def test_an_out_player_of_a_live_three_player_game_hears_the_refusals(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """cat concedes during the opening draft; ann and ben play on. cat's ``!pick 1`` (in the game and
    privately) and ``!pack`` are refused with the reason; ``!packs`` still answers; nothing is logged as an
    error and the game goes on."""
    pool = tmp_path / "pool.txt"
    pool.write_text(THREE_POOL)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_ref_o3", block=str(pool), seed=5)
        game_id, referee, by_name, seats = await open_three(
            bot, servatrice.ws_url, ("ann_o3", "ben_o3", "cat_o3")
        )
        ann, _, cat = by_name.values()
        try:
            await bot_line(ann, r"ann_o3 to pick from", 0)
            mark = ann.mark()
            await cat.client.game_command(game_id, commands.concede())
            await bot_line(ann, r"cat_o3 is out \(conceded\)", mark)
            assert seats["cat_o3"] not in referee.engine.in_game and not referee.finished

            for command in ("!pick 1", "!pack"):
                mark = ann.mark()
                await cat.say(game_id, command)
                line = await bot_line(ann, r"^cat_o3: ", mark)
                assert OUT in line, (command, line)
            await cat.client.send_message(bot.client.user_name, "!pick 1")
            await cat.wait_private(lambda t: OUT in t)
            mark = ann.mark()
            await cat.say(game_id, "!packs")
            await bot_line(ann, r"Packs ann_o3 \d+, ben_o3 \d+; passed \d+; shoe \d+; out: cat_o3", mark)

            mark = ann.mark()
            await ann.say(game_id, "!pick 1")  # the game goes on for the others
            await bot_line(ann, r"ann_o3 picks", mark)
            assert not errors_logged(caplog), errors_logged(caplog)
        finally:
            for p in by_name.values():
                await p.close()
            await bot.close()

    with caplog.at_level(logging.INFO):
        run(scenario(), timeout=180)
