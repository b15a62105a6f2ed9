"""One referee session, many games: a game waiting for the server's game-command budget holds up no other
game's answers (the issue's fair queue: "no game, room or player can delay another's answers")."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable

import pytest
from auction_steps import standing_bid
from field_bot import BOT_NAME, SHIPPED, Referee
from field_players import FieldPlayer, Protos, Received
from scenario import arrive, close_all, run, seat
from servatrice import ServatriceFactory

pytestmark = pytest.mark.servatrice

NEW_GAMES = 11
BUSY_ROOM = dataclasses.replace(SHIPPED, max_games_per_user=NEW_GAMES + 2)
"""The shipped flood limits (20 counted game commands per 10 s per connection), on a server whose
administrator lets one user sit in more than five games. An Auction game's start spends two counted
commands of the referee as it happens (a library read, its first turn passed on; its opening two more,
its game lines more as they leave), so eleven games starting at once go past the whole budget whatever
their openings spent before."""


def first_human_turn(player: FieldPlayer, game_id: int) -> Received | None:
    """When ``player`` saw the turn pass from the referee to a player in ``game_id`` (the referee passes its
    own first turn on: a counted command), or None."""
    bot_id = next((pid for pid, name in player.games[game_id].names.items() if name == BOT_NAME), None)
    for item in player.received:
        turn = item.game_id == game_id and item.kind == "Event_SetActivePlayer"
        if turn and item.body.active_player_id != bot_id:
            return item
    return None


def test_games_starting_at_once_do_not_hold_up_a_bid_elsewhere(
    protos: Protos,
    servatrice_factory: ServatriceFactory,
    referee: Callable[..., Referee],
) -> None:
    """A bid goes on in one game while eleven new games start at once; the referee's commands for their
    starts go past the server's game-command budget and wait for it. The bid's acknowledgement (the lot
    card's note, a command Servatrice does not count) reaches the bidder before at least one of those games
    has its first turn: before, the referee handled one thing at a time, and the bid waited about ten
    seconds behind a start waiting for the budget."""
    server = servatrice_factory.start(BUSY_ROOM)
    bot = referee(server, "--auction-seed", "7")

    async def scenario() -> None:
        newcomers = [f"p{n}{side}_bs" for n in range(NEW_GAMES) for side in "ab"]
        room_id, everyone = await arrive(protos, server, ["ann_bs", "bea_bs", *newcomers])
        players, others = everyone[:2], everyone[2:]
        pairs = [others[n : n + 2] for n in range(0, len(others), 2)]
        try:
            game_id, first, second = await standing_bid(players, room_id)
            await asyncio.sleep(11)  # the first game's counted commands leave the budget's window
            marks = [host.mark() for host, _ in pairs]
            await asyncio.gather(*(host.room_say(room_id, "!auction new 2") for host, _ in pairs))
            games: list[int] = []
            for (host, _), since in zip(pairs, marks, strict=True):
                answer = rf"game #\d+ is open .* asked by {host.name}"
                line = await host.line(answer, since=since, timeout=60)
                mine = next(part for part in line.split(" | ") if re.search(answer, part))  # lines merge
                games.append(int(re.search(r"#(\d+)", mine).group(1)))  # type: ignore[union-attr]
            await asyncio.gather(
                *(seat(pair, room_id, game) for pair, game in zip(pairs, games, strict=True))
            )  # every new game starts as its second player presses ready
            mark = first.mark()
            await second.say(game_id, "!bid 2")
            acknowledged = await first.wait_for(
                lambda r: r.kind == "Event_SetCardAttr" and "High bid: 2" in r.body.attr_value, since=mark
            )
            turns: list[float] = []
            for (host, _), game in zip(pairs, games, strict=True):
                turn = await host.wait_for(lambda r, h=host, g=game: first_human_turn(h, g) is r, timeout=90)
                turns.append(turn.at - acknowledged.at)
            assert max(turns) > 0, (
                "every new game had its first turn before the bid was acknowledged",
                turns,
            )
        finally:
            await close_all(everyone)

    run(scenario(), bot)
    log = bot.log_text()
    assert "Traceback" not in log and "as flood" not in log, log
