"""90Y.6 in a real Servatrice game: ``!sell commander`` auctions a commander and the commanders swap."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from servatrice import ServatriceServer
from test_auction_e2e import BLOCK, referee_of, run, start_bot

pytestmark = pytest.mark.servatrice


def test_sell_commander_exchanges_the_commanders(servatrice: ServatriceServer, tmp_path: Path) -> None:
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", block)
        alice = await Player.connect(servatrice.ws_url, "alice_swap")
        bob = await Player.connect(servatrice.ws_url, "bob_swap")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob):
                await p.client.join_room(room_id)
            await alice.client.room_say(room_id, "!auction commander 2")
            line = await alice.wait_line(lambda t: "Commander Auction game #" in t)
            game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
            referee = referee_of(bot, game_id)
            opening = alice.mark()
            by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
            await wait_until(lambda: referee.table is not None and referee.engine.lot is not None, timeout=15)
            await bot_line(alice, r"Commander Auction: \d+-card block shuffled", opening)
            engine = referee.engine
            while engine.phase == "pregame":  # nobody bids: each commander goes free to its first bidder
                lot_no, bidder = engine.lots_opened, engine.whose_bid()
                await by_id[int(bidder)].say(game_id, "!pass")  # type: ignore[arg-type]
                await wait_until(
                    lambda n=lot_no, b=bidder: (engine.lots_opened, engine.whose_bid()) != (n, b)
                )
            await wait_until(lambda: engine.active is not None, timeout=15)
            before = dict(engine.commanders)
            seller_id = int(engine.active)  # type: ignore[arg-type]
            seller = by_id[seller_id]
            buyer_id = next(p for p in by_id if p != seller_id)
            mark = seller.mark()
            await seller.say(game_id, "!sell commander")
            await bot_line(seller, rf"90Y\.6: {seller.name}'s commander; if the winner's commander", mark)
            await by_id[buyer_id].say(game_id, "!bid 2")
            await bot_line(seller, r"90Y\.6: the commanders are exchanged", mark)
            await bot_line(seller, rf"{seller.name}: drag .* onto {by_id[buyer_id].name}'s table", mark)
            assert engine.commanders == {seller_id: before[buyer_id], buyer_id: before[seller_id]}
            assert engine.gold(seller_id) == 12 and engine.gold(buyer_id) == 8
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)
