"""Auction Magic steps the field scenarios share: a lot with bids, the end of an auction step, lot reveals."""

from __future__ import annotations

import asyncio
import re

from field_bot import BOT_NAME
from field_players import FieldPlayer
from hidden_cards import block_names
from scenario import open_game, seat
from shared_paths import ROOT

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
    first_mark, second_mark = first.mark(), second.mark()
    await first.say(game_id, "!bid 1")
    await second.note(rf"High bid: 1 by {first.name}\nTo bid: {second.name}", since=second_mark)
    await second.say(game_id, "!bid 2")
    await first.note(rf"High bid: 2 by {second.name}\nTo bid: {first.name}", since=first_mark)
    await first.say(game_id, "!pass")
    await first.line(rf"Sold: .* to {second.name} for 2", since=first_mark)
    await second.line(rf"{second.name}: !cast or !keep", since=second_mark)
    await second.say(game_id, "!keep")
    await first.line(rf"{second.name} keeps", since=first_mark)
    seat = second.games[game_id].my_id
    await second.wait_for(  # the kept card reaches the buyer (a server refusal must not lose it): their
        lambda item: (  # hand when the bot is a judge, else their table, to be dragged to hand
            item.kind == "Event_MoveCard"
            and item.body.target_player_id == seat
            and item.body.target_zone in ("hand", "table")
            and item.body.card_name in UNIVERSE
        ),
        since=second_mark,
        timeout=30,
    )
    return second


async def auction_step(active: FieldPlayer, other: FieldPlayer, game_id: int) -> FieldPlayer:
    """The active player opens the auction step and one lot is sold. A sold creature ends the step; after a
    noncreature the next lot opens and both players vote to stop. Returns the buyer."""
    mark = other.mark()
    await active.phase(game_id, 2)
    opening = await other.line(r"Auction \d+: .* to bid\.", since=mark)
    first = active if opening.endswith(f"{active.name} to bid.") else other
    buyer = await lot(first, other if first is active else active, game_id)
    await asyncio.sleep(1.0)
    if any(re.search(r"Auction \d+: .* to bid", text) for _, _, text in other.chat(mark)[-1:]):
        for player in (active, other):
            await player.say(game_id, "!stop")
        await other.line(r"votes to stop too", since=mark)
    return buyer


async def open_first_lot(table_players: list[FieldPlayer], room_id: int, game_id: int) -> list[FieldPlayer]:
    """Seat everyone, let the active player open lot 1; returns the players in bidding order."""
    table = await seat(table_players, room_id, game_id)
    await table_players[0].line(r"Turn order", timeout=30)
    active = await table.wait_active()
    mark = active.mark()
    await active.phase(game_id, 2)
    opening = await active.note(r"^Auction 1: ", since=mark)
    first = next(p for p in table_players if f"To bid: {p.name}" in opening)
    return [first, *[p for p in table_players if p is not first]]


async def standing_bid(players: list[FieldPlayer], room_id: int) -> tuple[int, FieldPlayer, FieldPlayer]:
    """A new game whose first lot has a standing bid of 1; returns (game, bidder, player to bid)."""
    game_id = await open_game(players[0], room_id, "!auction new 2", "Auction Magic game")
    first, second = await open_first_lot(players, room_id, game_id)
    mark = second.mark()
    await first.say(game_id, "!bid 1")
    await second.note(rf"High bid: 1 by {first.name}\nTo bid: {second.name}", since=mark)
    return game_id, first, second
