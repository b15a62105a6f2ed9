"""A Vortex game's shoe holds one of each basic land per player (seed 001, Requirements), end to end on a real
Servatrice. Seen: `!vortex new 2` said "(pool vortex-pool, 225 cards)" and the shoe held all 25 basics the
bundled pool lists for five players; "(204 cards left after dealing ...)" where the write-up gives 189."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_vortex_bot import join_bot_room, open_vortex, run, start_bot

from cockatrice_ext.formats.vortex import BASIC_LAND_NAMES

pytestmark = pytest.mark.servatrice


def test_a_two_player_game_shuffles_in_two_of_each_basic(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_pool_ref", seed=5, basics_per_player=True)
        (alice, bob), room_id = await join_bot_room(servatrice.ws_url, "alice_pb", "bob_pb")
        try:
            game_id, referee = await open_vortex(bot, alice, room_id)
            opened = next(text for _, text in alice.heard if f"Vortex game #{game_id}" in text)
            assert "(pool vortex-pool, 210 cards)" in opened  # 225 with every basic of five players
            seats = {await p.sit(room_id, game_id): p for p in (alice, bob)}
            await bot_line(alice, r"the shoe is shuffled \(189 cards left after dealing", 0)
            engine = referee.engine
            counts = Counter(card.name for card in engine.config.cards)
            assert {name: counts[name] for name in BASIC_LAND_NAMES} == dict.fromkeys(BASIC_LAND_NAMES, 2)
            assert len(engine.config.cards) == 210 and engine.shoe_size() == 189
            mirror = alice.client.games[game_id]  # what a player sees: the pile holds the game's pool
            await wait_until(lambda: mirror.players[referee.me].zone("deck").card_count == 210, what="pile")
            assert len(seats) == 2
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_a_pool_with_basics_of_its_own_keeps_them_with_basics_pool(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path, "vortex_pool_ref2", seed=5)  # basics=pool
        (alice,), room_id = await join_bot_room(servatrice.ws_url, "alice_pc")
        try:
            await alice.client.room_say(room_id, "!vortex new 2 basics=players")
            line = await alice.wait_line(lambda t: "Vortex game #" in t)
            assert "(pool vortex-pool, 210 cards)" in line
            await alice.client.room_say(room_id, "!vortex rules")
            await alice.wait_line(lambda t: "basics=players|pool" in t)
        finally:
            await alice.close()
            await bot.close()

    run(scenario(), timeout=60)
