"""Both players at 0 life is a draw (seed 002: a tie is worth 1 point; seed 003: a draw is a loss for both),
not a win for whoever's life counter reached the server first: a life at 0 decides the game only once the
life totals are still. One player at 0 still loses."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import ServatriceServer
from test_market_e2e import paired_and_playing, start_bot

from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


def test_both_players_at_zero_life_is_a_draw(servatrice: ServatriceServer, tmp_path: Path) -> None:
    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", rounds=1)
        jon = await Player.connect(servatrice.ws_url, "jon_d")
        kim = await Player.connect(servatrice.ws_url, "kim_d")
        try:
            _, game_id, league = await paired_and_playing(bot, jon, kim)
            mark = jon.mark()
            await kim.client.game_command(game_id, commands.set_counter(0, 0))  # one spell: kim's first
            await jon.client.game_command(game_id, commands.set_counter(0, -2))
            line = await jon.wait_line(lambda t: "at 0 life" in t, since=mark, timeout=30)
            assert "kim_d and jon_d are both at 0 life: a draw." in line or (
                "jon_d and kim_d are both at 0 life: a draw." in line
            ), line
            await jon.wait_line(lambda t: "Result recorded: a draw." in t, since=mark, timeout=20)
            match = league.engine.league.match_of("jon_d", 1)
            assert match is not None and match.decided and match.draw and not match.winner
            assert league.engine.league.points("jon_d") == league.engine.league.points("kim_d") == 1
            assert not any("wins" in t for _, t in jon.heard[mark:])
        finally:
            for p in (jon, kim):
                await p.close()
            await bot.close()

    run(scenario())


def test_one_player_at_zero_life_loses(servatrice: ServatriceServer, tmp_path: Path) -> None:
    async def scenario() -> None:
        bot = await start_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", rounds=1)
        jon = await Player.connect(servatrice.ws_url, "jon_z")
        kim = await Player.connect(servatrice.ws_url, "kim_z")
        try:
            _, game_id, league = await paired_and_playing(bot, jon, kim)
            mark = jon.mark()
            await jon.client.game_command(game_id, commands.set_counter(0, 3))  # a life change above 0
            await kim.client.game_command(game_id, commands.set_counter(0, 0))
            await jon.wait_line(lambda t: "kim_z is at 0 life: jon_z wins." in t, since=mark, timeout=30)
            match = league.engine.league.match_of("jon_z", 1)
            assert match is not None and match.decided and match.winner == "jon_z"
        finally:
            for p in (jon, kim):
                await p.close()
            await bot.close()

    run(scenario())


def test_autobattler_players_both_at_zero_life_both_lose(
    servatrice: ServatriceServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 003: "A draw counts as a loss for both players": both take the loser's poison (a draw that
    would eliminate both live players is replayed instead, the engine's rule for the same draw)."""
    from test_autobattler_e2e import cod
    from test_autobattler_e2e import start_bot as start_autobattler_bot

    from cockatrice_ext.bot import league_away
    from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
    from cockatrice_ext.formats import autobattler as ab

    monkeypatch.setattr(league_away, "STAND_IN_TICK", 0.2)
    names = ("ann_dr", "ben_dr", "cat_dr", "dan_dr")

    async def scenario() -> None:
        bot = await start_autobattler_bot(servatrice.ws_url, tmp_path / "journal.sqlite3", "referee_dr")
        people = {name: await Player.connect(servatrice.ws_url, name) for name in names}
        ann = people["ann_dr"]
        try:
            room_id = await ann.client.room_id_by_name("Bot room")
            for p in people.values():
                await p.client.join_room(room_id)
            mark = ann.mark()
            for p in people.values():
                await p.client.room_say(room_id, "!autobattler join")
            await ann.wait_line(lambda t: "dan_dr joins" in t, since=mark)
            await ann.client.room_say(room_id, "!autobattler start")
            await ann.wait_line(lambda t: "AutoBattler league #1 starts" in t, since=mark)
            room = next(r for r in bot.room_referees if isinstance(r, AutoBattlerRoom))
            league = room.leagues[0]
            engine: ab.AutoBattlerEngine = league.engine
            for name in names:
                await people[name].client.send_message("referee_dr", "!done")
            await wait_until(lambda: engine.phase == "play" and len(league.games) == 2, what="two games")
            first, second = engine.league.current_matches()[0].players
            game_id = next(gid for gid, g in league.games.items() if first in g.players)
            for name in (first, second):
                deck = cod([league.game_name(c) for c in engine.pool(name)[:3]] + ["Mountain"] * 3)
                await people[name].sit(room_id, game_id, deck=deck)
            await wait_until(lambda: people[first].client.games[game_id].started, what="game started")
            since = people[first].mark()
            for name in (second, first):
                await people[name].client.game_command(game_id, commands.set_counter(0, 0))
            await people[first].wait_line(
                lambda t: "are both at 0 life: a draw." in t, since=since, timeout=30
            )
            match = engine.league.match_of(first, 1)
            assert match is not None and match.decided and match.draw
            await wait_until(lambda: engine.poison[first] > 0 and engine.poison[second] > 0, what="poison")
            assert engine.poison[first] == engine.poison[second]
        finally:
            for p in people.values():
                await p.close()
            await bot.close()

    run(scenario())
