"""A timer acting for a silent player (Auction's bid timer, Vortex's pick timer) must hear what the player
said in time first (bot/silence.py), on a real Servatrice with the bot's link stalled by a proxy.

Seen: with `timer=10`, the bot's link stalled for 12 s while bo sent `!bid 2` three seconds into his ten;
when the link came back bo read "bo ran out of time. | Sold: Thrummingbird to al for 1" and his bid was
refused: the timer had passed for him while his bid waited in the stalled link, and the journal kept the
sale."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from link_proxy import LinkProxy
from servatrice import ServatriceServer
from test_auction_e2e import BLOCK, open_game, referee_of, run, start_bot
from test_vortex_bot import POOL, join_bot_room, open_vortex
from test_vortex_bot import start_bot as start_vortex

pytestmark = pytest.mark.servatrice


def test_a_bid_sent_in_time_through_a_stalled_link_beats_the_bid_timer(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)

    async def scenario() -> None:
        proxy = LinkProxy(servatrice.tcp_port)
        await proxy.start()
        bot = await start_bot(proxy.url, tmp_path / "journal.sqlite3", block, bid_timeout=3.0)
        players = [await Player.connect(servatrice.ws_url, f"{name}_stall") for name in ("al", "bo")]
        try:
            room_id = await players[0].client.room_id_by_name("Bot room")
            for p in players:
                await p.client.join_room(room_id)
            game_id = await open_game(bot, players[0], room_id)
            referee = referee_of(bot, game_id)
            by_id = {await p.sit(room_id, game_id): p for p in players}
            await wait_until(lambda: referee.table is not None and referee.engine.active is not None)
            engine = referee.engine
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            marks = {player: player.mark() for player in players}  # each player's own chat, read from here
            await active.say(game_id, "!auction")
            await bot_line(active, r"Auction 1: ", marks[active])
            order = list(engine.current_lot()["bidders"])  # type: ignore[index]
            first, second = (by_id[int(p)] for p in order)
            await first.say(game_id, "!bid 1")
            await wait_until(lambda: engine.whose_bid() == order[1], what="the second bidder's turn")
            proxy.hold()  # the bot's link stalls as the silent bidder's three seconds begin
            await asyncio.sleep(1.0)
            await second.say(game_id, "!bid 2")  # in time, but held in the stalled link
            await asyncio.sleep(4.0)  # the timer's three seconds run out meanwhile
            proxy.release()
            await wait_until(
                lambda: (engine.current_lot() or {}).get("high_bid") == 2, timeout=20, what="bid 2"
            )
            assert engine.whose_bid() == order[0]
            assert not any(
                f"{second.name} ran out of time" in text for _, text in first.heard[marks[first] :]
            )
            await first.say(game_id, "!pass")
            await bot_line(first, rf"Sold: .* to {second.name} for 2", marks[first])
        finally:
            for p in players:
                await p.close()
            await bot.close()
            await proxy.close()

    run(scenario(), timeout=120)


def test_a_pick_sent_in_time_through_a_stalled_link_beats_the_pick_timer(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    pool = tmp_path / "pool.txt"
    pool.write_text(POOL)

    async def scenario() -> None:
        proxy = LinkProxy(servatrice.tcp_port)
        await proxy.start()
        bot = await start_vortex(proxy.url, tmp_path, "vortex_stall", block=str(pool), seed=1, pick_timeout=3)
        (alice, bob), room_id = await join_bot_room(servatrice.ws_url, "alice_stall", "bob_stall")
        try:
            game_id, referee = await open_vortex(bot, alice, room_id)
            by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
            await bot_line(alice, r"Opening turn 1: alice_stall drafts", 0)
            engine = referee.engine
            picker = by_id[int(engine.whose_turn)]  # type: ignore[arg-type]
            mark = alice.mark()
            proxy.hold()
            await asyncio.sleep(1.0)
            await picker.say(game_id, "!pick 1")  # in time, but held in the stalled link
            await asyncio.sleep(4.0)  # the pick timer's three seconds run out meanwhile
            proxy.release()
            await bot_line(alice, rf"{picker.name} picks a card", mark, timeout=20)
            await wait_until(lambda: engine.opening_turns_done == 1, what="the pick")
            assert not any("ran out of time" in text for _, text in alice.heard[mark:])
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()
            await proxy.close()

    run(scenario(), timeout=120)
