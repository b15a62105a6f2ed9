"""Auction Magic in the field: ``bot run`` as the README starts it, Cockatrice-proto players, shipped limits.

A whole game (lots with bids, a sale with !keep, stop votes, a look at the top of the block, the other
player's turn, a concession) and then the hidden-card scan over everything each player received.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable

import pytest
from field_bot import BOT_NAME, Referee
from field_players import FieldPlayer, Protos
from hidden_cards import Secret, block_names, find_leaks, private_secrets
from scenario import arrive, close_all, open_game, run, seat
from servatrice import ServatriceServer
from shared_paths import ROOT

pytestmark = pytest.mark.servatrice

UNIVERSE = block_names(ROOT / "blocks" / "auction-sample.txt")


def lot_reveals(players: list[FieldPlayer]) -> dict[str, float]:
    """When each card name was first put up for auction: a lot opens when the bot lays its card face up on
    its own table (the auction stage) and names it in an ``Auction N:`` line; from then on it is public."""
    reveals: dict[str, float] = {}

    def seen(name: str, at: float) -> None:
        reveals[name] = min(at, reveals.get(name, at))

    for player in players:
        for item in player.received:
            names = player.games[item.game_id].names if item.game_id in player.games else {}
            on_stage = (
                item.kind == "Event_MoveCard"
                and names.get(item.player_id) == BOT_NAME
                and names.get(item.body.target_player_id) == BOT_NAME
                and item.body.target_zone == "table"
                and not item.body.face_down
            )
            if on_stage and item.body.card_name in UNIVERSE:
                seen(item.body.card_name, item.at)
        for item, who, text in player.chat():
            if who == BOT_NAME and (match := re.search(r"Auction \d+: (.*)", text)):
                for name in UNIVERSE:
                    if name in match.group(1):
                        seen(name, item.at)
    return reveals


async def lot(first: FieldPlayer, second: FieldPlayer, game_id: int) -> FieldPlayer:
    """One lot between two players: 1, 2, pass; the buyer keeps the card. Returns the buyer."""
    mark = second.mark()
    await first.say(game_id, "!bid 1")
    await second.note(rf"High bid: 1 by {first.name}\nTo bid: {second.name}", since=mark)
    await second.say(game_id, "!bid 2")
    await first.note(rf"High bid: 2 by {second.name}\nTo bid: {first.name}", since=mark)
    await first.say(game_id, "!pass")
    await first.line(rf"Sold: .* to {second.name} for 2", since=mark)
    await second.line(rf"{second.name}: !cast or !keep", since=mark)
    await second.say(game_id, "!keep")
    await first.line(rf"{second.name} keeps", since=mark)
    return second


async def end_auction_step(players: list[FieldPlayer], game_id: int, mark: int) -> None:
    """A sold creature ends the auction step; after a noncreature both players vote to stop."""
    watcher = players[0]
    await asyncio.sleep(1.0)
    if any(re.search(r"Auction \d+: .* to bid", text) for _, _, text in watcher.chat(mark)[-1:]):
        for player in players:
            await player.say(game_id, "!stop")
        await watcher.line(r"votes to stop too", since=mark)


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
            await active.phase(game_id, 2)
            opening = await other.line(r"Auction 1: .* to bid\.", since=mark)
            first = active if opening.endswith(f"{active.name} to bid.") else other
            await lot(first, table.others(first)[0], game_id)
            await end_auction_step([active, other], game_id, mark)

            mark = other.mark()
            await active.game(game_id, "Command_NextTurn")
            await table.wait_active()
            assert table.active() is other
            await other.phase(game_id, 2)
            opening = await active.line(r"Auction \d+: .* to bid\.", since=mark)
            first = active if opening.endswith(f"{active.name} to bid.") else other
            await lot(first, table.others(first)[0], game_id)
            await end_auction_step([active, other], game_id, mark)

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

    try:
        run(scenario())
    except BaseException:
        print(bot.log_text()[-4000:])
        raise
