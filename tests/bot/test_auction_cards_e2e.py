"""The proposed auction cards in a real Servatrice game: !help lists !idol and !claim only when the block
holds the cards, !claim before the reveal, !idol buys the revealed card for 0 and the claim comes back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import bot_line
from servatrice import ServatriceServer
from test_auction_e2e import close_all, run, seated_pair

pytestmark = pytest.mark.servatrice

CARDS_BLOCK = """\
1 Gilded Idol
1 Blood Claim
8 Grizzly Bears
2 Shock
"""


def test_gilded_idol_and_stake_your_claim_through_chat(servatrice: ServatriceServer, tmp_path: Path) -> None:
    async def scenario() -> None:
        bot, players, game_id, referee, by_id = await seated_pair(servatrice, tmp_path, CARDS_BLOCK, "idol")
        try:
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
            await active.say(game_id, f"!draw {wanted}")  # before the turn's auction: asked once, then drawn
            await bot_line(active, r"say !draw again to draw anyway", mark)
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
            await close_all(bot, players)

    run(scenario(), timeout=120)


def test_no_idol_or_claim_command_without_the_cards(servatrice: ServatriceServer, tmp_path: Path) -> None:
    async def scenario() -> None:
        bot, players, game_id, _, _ = await seated_pair(servatrice, tmp_path, "10 Grizzly Bears\n", "plain")
        alice = players[0]
        try:
            mark = alice.mark()
            await alice.say(game_id, "!help")
            line = await bot_line(alice, r"!bid", mark)
            assert "!idol" not in line and "!claim" not in line
            await alice.say(game_id, "!idol")
            await bot_line(alice, r"unknown command !idol", mark)
        finally:
            await close_all(bot, players)

    run(scenario(), timeout=120)
