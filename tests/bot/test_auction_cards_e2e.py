"""The proposed auction cards in a real Servatrice game: !help lists !idol and !claim only when the block
holds the cards, !claim before the reveal, !idol buys the revealed card for 0 and the claim comes back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceServer
from test_auction_e2e import bot_line, open_game, referee_of, run, start_bot

pytestmark = pytest.mark.servatrice

CARDS_BLOCK = """\
1 Gilded Idol
1 Blood Claim
8 Grizzly Bears
2 Shock
"""


def test_gilded_idol_and_stake_your_claim_through_chat(servatrice: ServatriceServer, tmp_path: Path) -> None:
    block = tmp_path / "cards.txt"
    block.write_text(CARDS_BLOCK)

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", block)
        alice = await Player.connect(servatrice.ws_url, "alice_idol")
        bob = await Player.connect(servatrice.ws_url, "bob_idol")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob):
                await p.client.join_room(room_id)
            game_id = await open_game(bot, alice, room_id)
            referee = referee_of(bot, game_id)
            by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
            await wait_until(lambda: referee.table is not None and referee.engine.active is not None)
            engine = referee.engine
            active_id = int(engine.active)  # type: ignore[arg-type]
            active = by_id[active_id]
            mark = active.mark()
            await active.say(game_id, "!help")
            await bot_line(active, r"Commands: .*!claim \[CARD.*!idol \[CARD", mark)

            await active.say(game_id, "!claim")  # refused: no Blood Claim yet
            await bot_line(active, rf"{active.name}: no such card here", mark)
            names = [engine.ref(i).name for i in engine.block]
            wanted = max(names.index("Gilded Idol"), names.index("Blood Claim")) + 1
            await active.say(game_id, f"!draw {wanted}")
            await bot_line(active, rf"{active.name} draws {wanted} from the block", mark)
            await active.say(game_id, "!claim Blood Claim")
            await bot_line(active, rf"{active.name} stakes a claim with Blood Claim", mark)

            await active.phase(game_id, 2)  # the auction step: the top card is revealed
            await bot_line(active, r"Auction 1: ", mark)
            revealed = engine.ref(engine.lot.cards[0]).name  # type: ignore[union-attr]
            await active.say(game_id, "!idol")
            await bot_line(active, rf"{active.name} exiles Gilded Idol to buy auction 1 for 0 gold", mark)
            await bot_line(active, rf"Sold: {re.escape(revealed)} to {active.name} for 0", mark)
            await bot_line(active, r"you may return Blood Claim from your graveyard to your hand", mark)
            assert [engine.ref(i).name for i in engine.exiled[active_id]] == ["Gilded Idol"]
            assert engine.gold(active_id) == 10
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_no_idol_or_claim_command_without_the_cards(servatrice: ServatriceServer, tmp_path: Path) -> None:
    block = tmp_path / "plain.txt"
    block.write_text("10 Grizzly Bears\n")

    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", block)
        alice = await Player.connect(servatrice.ws_url, "alice_plain")
        bob = await Player.connect(servatrice.ws_url, "bob_plain")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for p in (alice, bob):
                await p.client.join_room(room_id)
            game_id = await open_game(bot, alice, room_id)
            referee = referee_of(bot, game_id)
            await alice.sit(room_id, game_id)
            await bob.sit(room_id, game_id)
            await wait_until(lambda: referee.table is not None)
            mark = alice.mark()
            await alice.say(game_id, "!help")
            line = await bot_line(alice, r"!bid", mark)
            assert "!idol" not in line and "!claim" not in line
            await alice.say(game_id, "!idol")
            await bot_line(alice, r"unknown command !idol", mark)
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)
