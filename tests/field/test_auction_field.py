"""Auction Magic in the field: ``bot run`` as the README starts it, Cockatrice-proto players, shipped limits.

A whole game (lots with bids, a sale with !keep, stop votes, a look at the top of the block, the other
player's turn, a concession) and then the hidden-card scan over everything each player received.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from auction_steps import UNIVERSE, auction_step, lot_reveals
from field_bot import BOT_NAME, Referee
from field_players import Protos
from hidden_cards import Secret, find_leaks, private_secrets
from scenario import arrive, close_all, open_game, run, seat
from servatrice import ServatriceServer

pytestmark = pytest.mark.servatrice


def test_auction_game_hides_what_it_must(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Two players, two turns, a concession; nobody is ever shown a card hidden from them, and the
    public lines name players, never ids."""
    bot = referee(shipped_server, "--auction-seed", "7")

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["alice_fa", "bob_fa"])
        try:
            started = time.monotonic()
            game_id = await open_game(players[0], room_id, "!auction new 2", "Auction Magic game")
            table = await seat(players, room_id, game_id)
            await players[0].line(r"Turn order", timeout=30)
            active = await table.wait_active()
            other = table.others(active)[0]

            mark = active.mark()
            await active.say(game_id, "!look 3")
            await active.line(r"^Top of the block: ", since=mark, kind="Event_UserMessage")
            await auction_step(active, other, game_id)
            await active.game(game_id, "Command_NextTurn")
            await table.wait_active()
            assert table.active() is other
            await auction_step(other, active, game_id)

            mark = other.mark()
            await active.game(game_id, "Command_Concede")
            await other.line(rf"Game over: {other.name} wins", since=mark)
        finally:
            await close_all(players)

        reveals = lot_reveals(players)
        secrets = [
            Secret(s.name, s.holders, started, reveals.get(s.name, float("inf")))
            for s in private_secrets(players, BOT_NAME, UNIVERSE)
        ]
        assert len({s.name for s in secrets}) >= 2, "the look told the active player some cards"
        leaks = find_leaks(players, secrets)
        assert not leaks, "\n".join(map(str, leaks))
        public = [text for p in players for item, who, text in p.chat() if item.kind != "Event_UserMessage"]
        assert not [line for line in public if re.search(r"\bplayer \d", line)], public

    run(scenario(), bot)
