"""No one sender floods a game's chat queue, on a real Servatrice.

Seen by testers (Servatrice 3.1.0, shipped limits): a spectator saying ``!help`` 9 times in 9 s delayed a
player's ``!gold`` answer by 15 s (with 4 spectators, 54-76 s): every answer waited in the game's one chat
queue. Game chat now gives each sender an allowance of informational answers while that queue waits, and an
answer the same as one still waiting is not queued again. A spectator's ``!life`` in Vortex got the players'
long advice; a spectator's answers are short. The test holds the game's queue (as a spent chat budget holds
it) while the commands are said, then lets it go.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from bot_players import bot_line, room_players, start_room_bot
from servatrice import ServatriceServer
from test_game_departures_e2e import started_game
from test_room_commands import run
from test_vortex_bot import join_bot_room, open_vortex
from test_vortex_bot import start_bot as start_vortex_bot

pytestmark = pytest.mark.servatrice

ALLOWANCE = 3
"""Informational answers per sender while the game's answers wait (``referee.ALLOWANCE``)."""
SHORT = 120
"""The longest answer a spectator gets (``referee.SHORT``)."""


def test_a_spectator_asking_for_help_again_and_again_does_not_fill_the_game_s_queue(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """Shipped limits: cat (a spectator) says ``!help`` nine times and ann ``!gold`` once. cat gets at most
    the allowance of help answers (the same one is not queued twice while it waits) and one notice, and
    ann's ``!gold`` is answered."""

    async def scenario() -> str:
        bot = await start_room_bot(servatrice_strict, tmp_path, "referee_ga1", relaxed=False)
        room_id, (ann, ben, cat) = await room_players(servatrice_strict, "ann_ga1", "ben_ga1", "cat_ga1")
        try:
            game_id, _ = await started_game(bot, room_id, ann, ben)
            await cat.sit(room_id, game_id, spectator=True)
            await bot.client.caught_up()
            since = ben.mark()
            for _ in range(9):
                await cat.say(game_id, "!help")
            await ann.say(game_id, "!gold")
            await bot_line(ben, r"Gold: ", since, timeout=60)
            await bot.chat.flush(("game", game_id), timeout=60)
            await asyncio.sleep(0.5)
            return " | ".join(text for _, text in ben.heard[since:])
        finally:
            for player in (ann, ben, cat):
                await player.close()
            await bot.close()

    heard = run(scenario())
    assert 1 <= heard.count("Commands:") <= ALLOWANCE, heard
    assert heard.count("too many questions") <= 1, heard
    assert "!help NAME" not in heard, heard  # a spectator's help is one short line, not the whole listing


def test_a_spectator_s_life_question_in_vortex_gets_a_short_answer(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """``!life`` in a Vortex game: a seated player gets the whole advice, a spectator one short sentence."""

    async def scenario() -> tuple[str, str]:
        bot = await start_vortex_bot(servatrice.ws_url, tmp_path, "referee_ga2")
        (ann, cat), room_id = await join_bot_room(servatrice.ws_url, "ann_ga2", "cat_ga2")
        try:
            game_id, _ = await open_vortex(bot, ann, room_id)
            await ann.sit(room_id, game_id)
            await cat.sit(room_id, game_id, spectator=True)
            since = ann.mark()
            await ann.say(game_id, "!life")
            player_answer = await bot_line(ann, r"^ann_ga2: life is", since)
            await cat.say(game_id, "!life")
            spectator_answer = await bot_line(ann, r"^cat_ga2: ", since)
            return player_answer, spectator_answer
        finally:
            for player in (ann, cat):
                await player.close()
            await bot.close()

    player_answer, spectator_answer = run(scenario())
    assert "concede" in player_answer, player_answer
    assert len(spectator_answer) <= SHORT and "concede" not in spectator_answer, spectator_answer
