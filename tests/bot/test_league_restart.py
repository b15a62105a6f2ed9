"""A referee restarted while a finished league game lingered (SQL mode: a registered account keeps its seats).

Seen in the field: a finished league game stays open with the referee as its host until the room needs the
slot (``LeagueGame.leave``). After a restart Servatrice seated the referee's registered account in it again,
but no league claimed it (its result was recorded, its record gone), so nobody ever left it and it used one
of the games per account the server allows, for good. A re-seated game that no journal table or league
claims is now left at the start, and closed when the referee is its host (its players told, then kicked).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from test_market_e2e import BOT, league_in_round_one, league_of, tell

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client import FloodLimits

pytestmark = pytest.mark.servatrice

PASSWORD = "secret"
CLOSED = "This game is over and closes now (the referee restarted meanwhile)."


async def start_registered_bot(url: str, journal: Path, rounds: int) -> Bot:
    """The referee as a registered account of plain user level: it sits in its league games (a judge would
    watch them from a spectator seat, which Servatrice does not keep)."""
    options = BotOptions(
        url=url,
        user=BOT,
        password=PASSWORD,
        rooms=("Bot room",),
        journal_path=journal,
        formats=("market",),
        format_options={"market": LeagueOptions(format="market", rounds=rounds, seed=11)},
        client_options={"reconnect": False, "flood_limits": FloodLimits.unlimited()},
    )
    bot = Bot(options)
    await bot.start()
    return bot


@pytest.mark.parametrize("rounds", [2, 1], ids=["league-goes-on", "league-over"])
def test_a_finished_league_game_the_referee_is_seated_in_again_is_closed_at_the_restart(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture, rounds: int
) -> None:
    """Round 1's result is recorded with both players still in the game; the referee stops and starts
    again. Re-seated in that game, it closes it at the start (a line for its players, who are kicked) and
    leaves; the league, still running or over, is as it was."""
    from mariadb_server import sql_config

    for name in (BOT, "alice_mr", "bob_mr"):
        mariadb.add_user(name, PASSWORD)
    server = servatrice_factory.start(sql_config(mariadb))
    journal = tmp_path / "journal.sqlite3"

    async def scenario() -> None:
        bot = await start_registered_bot(server.ws_url, journal, rounds)
        players = {
            name: await Player.connect(server.ws_url, name, PASSWORD) for name in ("alice_mr", "bob_mr")
        }
        alice, bob = players.values()
        try:
            room_id, league = await league_in_round_one(bot, players)
            game_id = next(iter(league.games))
            for player in players.values():
                await player.client.join_game(room_id, game_id)
            mark = alice.mark()
            await tell(alice, "!result win")
            await tell(bob, "!result loss")
            await alice.wait_line(lambda t: "This game is over: please leave it" in t, since=mark)
            assert bot.games[game_id].finished and game_id in bot.client.games  # it lingers as host
            snapshot = league.engine.snapshot()
        finally:
            await bot.close()  # a registered account's seat is kept

        mark = alice.mark()
        with caplog.at_level(logging.INFO, logger="cockatrice_ext.bot.league"):
            bot = await start_registered_bot(server.ws_url, journal, rounds)
        try:
            await wait_until(lambda: game_id not in bot.client.games, what="the referee left the old game")
            assert game_id not in bot.games
            assert any(f"game {game_id}:" in r.getMessage() for r in caplog.records), caplog.text
            await alice.wait_line(lambda t: t == CLOSED, since=mark)
            await wait_until(
                lambda: all(p.client.games[game_id].kicked for p in players.values()), what="players kicked"
            )
            await alice.client.leave_room(room_id)
            listed = await alice.client.join_room(room_id)
            assert game_id not in {int(game.game_id) for game in listed.game_list}  # closed: no longer counts
            if rounds == 2:  # the league goes on from its market, with no game
                assert league_of(bot).engine.snapshot() == snapshot and not league_of(bot).games
        finally:
            for player in players.values():
                await player.close()
            await bot.close()

    asyncio.run(asyncio.wait_for(scenario(), 180))
