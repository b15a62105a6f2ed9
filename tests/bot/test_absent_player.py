"""A registered player whose connection stays gone (banned, or never back) no longer stalls a started game.

Found by a smoke test against a real Servatrice (SQL auth): a moderator banned a player whose pick it was
in Vortex; the referee only logged "their seat is kept" and the game's chat stayed silent for good (with no
pick timer nobody could go on, and only the host, the referee, can kick). Now, once the connection has been
gone ``ABSENT_SECONDS``, the game hears who is missing and what the others can do; ``!drop NAME`` (players
only, only while that player is still gone past the bound) takes them out as the format's rules take out a
player who leaves, and they hear privately what happened; a player back in time is said back, and nothing
else happens.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from test_auction_e2e import BLOCK, run, seated_pair
from test_vortex_bot import THREE_POOL, draft_and_basics, take_turn

from cockatrice_ext.bot import absent as absent_module
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.client import FloodLimits

pytestmark = pytest.mark.servatrice

BOUND = 2.0
"""The tests' absence bound (the shipped one is minutes)."""


def test_vortex_players_drop_a_player_whose_connection_stays_gone_and_play_on(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three registered players; ben's connection goes while his pick is owed. ann's early !drop of a
    connected player and a spectator's !drop are refused; after the bound the game hears it once; cat's
    !drop takes ben out (his pack to the shoe), his turn ends and cat plays; back, ben hears what happened."""
    from mariadb_server import sql_config

    monkeypatch.setattr(absent_module, "ABSENT_SECONDS", BOUND, raising=False)
    names = ("ann_dv", "ben_dv", "cat_dv", "sam_dv")
    for name in ("referee_dv", *names):
        mariadb.add_user(name, "secret")
    server = servatrice_factory.start(sql_config(mariadb))
    pool = tmp_path / "pool.txt"
    pool.write_text(THREE_POOL)

    async def scenario() -> None:
        bot = Bot(
            BotOptions(
                url=server.ws_url,
                user="referee_dv",
                password="secret",
                rooms=("Bot room",),
                journal_path=tmp_path / "journal.sqlite3",
                formats=("vortex",),
                format_options={"vortex": VortexOptions(block=str(pool), seed=5, basics_per_player=False)},
                client_options={"reconnect": False, "flood_limits": FloodLimits.unlimited()},
            )
        )
        await bot.start()
        players = [await Player.connect(server.ws_url, name, "secret") for name in names]
        try:
            ann, ben, cat, sam = players
            room_id = await ann.client.room_id_by_name("Bot room")
            for p in players:
                await p.client.join_room(room_id)
            await ann.client.room_say(room_id, "!vortex new 3")
            line = await ann.wait_line(lambda t: "Vortex game #" in t)
            game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
            referee = bot.games[game_id]
            assert isinstance(referee, VortexReferee)
            seats = {p.name: await p.sit(room_id, game_id) for p in (ann, ben, cat)}
            await sam.sit(room_id, game_id, spectator=True)
            await wait_until(
                lambda: referee.table is not None and referee.engine.phase != "new", what="draft"
            )
            engine = referee.engine
            await draft_and_basics(game_id, referee, {seats[p.name]: p for p in (ann, ben, cat)})
            mark = ann.mark()
            await take_turn(game_id, ann, seats[ann.name], ann, mark)
            await wait_until(
                lambda: ann.client.games[game_id].active_player_id == seats[ben.name], what="ben"
            )
            await ben.phase(game_id, 2)
            await bot_line(ann, rf"{ben.name} to pick from", mark)

            # ben's connection goes for good (as a ban closes it): the seat is kept (ping -1).
            seat = referee.mirror.players[seats[ben.name]]
            await ben.client.close()
            await wait_until(lambda: seat.ping_seconds < 0, what="the server reporting the drop")
            mark = ann.mark()
            await ann.say(game_id, f"!drop {cat.name}")
            await bot_line(
                ann, rf"{cat.name} is connected: !drop is only for a player whose connection", mark
            )
            await sam.say(game_id, "!drop ben")
            await bot_line(ann, r"sam_dv: .*spectators can watch but not play", mark)
            assert seats[ben.name] in engine.in_game

            absent = await bot_line(ann, rf"{ben.name}'s connection has been gone", mark)
            assert "they may come back" in absent and f"!drop {ben.name}" in absent, absent
            await cat.say(game_id, "!drop BEN")  # named as typed: case and all
            await bot_line(ann, rf"{cat.name} drops {ben.name}, whose connection has been gone", mark)
            await bot_line(
                ann, rf"{ben.name} is out \(dropped: their connection was gone\): their pack", mark
            )
            assert seats[ben.name] not in engine.in_game
            await bot_line(ann, rf"Turn 3: {cat.name}", mark)
            await wait_until(
                lambda: ann.client.games[game_id].active_player_id == seats[cat.name], what="cat"
            )
            await wait_until(
                lambda: seats[ben.name] not in ann.client.games[game_id].players, what="seat gone"
            )
            await cat.phase(game_id, 2)
            await bot_line(ann, rf"{cat.name} to pick from", mark)
            said = [text for _, text in ann.heard[mark:]]
            assert sum(f"{ben.name}'s connection has been gone" in t for t in said) == 1, said  # said once

            # Back online, ben hears privately what the game said while he was away, his drop included.
            back = await Player.connect(server.ws_url, ben.name, "secret")
            players[1] = back
            await back.client.join_room(room_id)
            recap = await back.wait_private(lambda t: f"Game #{game_id} while you were away" in t)
            assert f"{ben.name} is out (dropped" in recap, recap
        finally:
            for p in players:
                await p.close()
            await bot.close()

    run(scenario(), timeout=240)


def test_an_auction_player_back_in_time_plays_on_and_one_who_stays_gone_loses_as_one_who_leaves(
    servatrice_factory: Any, mariadb: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """alice's connection goes: the game hears it after the bound; she is back before anyone drops her,
    the game says so and !drop is refused. Gone again, bob's !drop is refused before the bound; past it, it
    makes her lose as a player who leaves (DeclareLoss): the last player standing, bob wins."""
    from mariadb_server import sql_config

    monkeypatch.setattr(absent_module, "ABSENT_SECONDS", BOUND, raising=False)
    for name in ("referee_da", "alice_da", "bob_da"):
        mariadb.add_user(name, "secret")
    server = servatrice_factory.start(sql_config(mariadb))

    async def scenario() -> None:
        bot, players, game_id, referee, by_id = await seated_pair(
            server, tmp_path, BLOCK, "da", user="referee_da", password="secret"
        )
        try:
            engine = referee.engine
            alice_id = next(pid for pid, p in by_id.items() if p.name == "alice_da")
            alice, bob = by_id[alice_id], next(p for p in players if p.name == "bob_da")
            seat = referee.mirror.players[alice_id]
            await alice.client.close()
            await wait_until(lambda: seat.ping_seconds < 0, what="the server reporting the drop")
            mark = bob.mark()
            absent = await bot_line(bob, r"alice_da's connection has been gone", mark)
            assert "!drop alice_da: they lose, as a player who leaves" in absent, absent

            alice = await Player.connect(server.ws_url, "alice_da", "secret")
            players[players.index(by_id[alice_id])] = alice
            await bot_line(bob, r"alice_da is back; the game goes on", mark)
            recap = await alice.wait_private(lambda t: f"Game #{game_id} while you were away" in t)
            assert "alice_da's connection has been gone" in recap, recap
            await bob.say(game_id, "!drop alice")
            await bot_line(bob, r"alice_da is connected: !drop is only for", mark)
            assert alice_id in engine.living() and not engine.is_over()

            # Gone again, and this time for good; a !drop before the bound is refused.
            monkeypatch.setattr(absent_module, "ABSENT_SECONDS", 600.0)
            await alice.client.close()
            await wait_until(lambda: seat.ping_seconds < 0, what="the second drop")
            mark = bob.mark()
            await bob.say(game_id, "!drop alice_da")
            await bot_line(
                bob, r"alice_da's connection has been gone .* may be back soon: !drop works once", mark
            )
            assert alice_id in engine.living()
            monkeypatch.setattr(absent_module, "ABSENT_SECONDS", BOUND)
            await wait_until(lambda: (referee.absent_for(alice_id) or 0.0) >= BOUND, what="the bound")
            await bob.say(game_id, "!drop alice_da")
            await bot_line(bob, r"alice_da was dropped \(their connection was gone\)", mark)
            await wait_until(engine.is_over, what="the game over")
            assert list(engine.living()) == [next(pid for pid, p in by_id.items() if p is bob)]
            await wait_until(lambda: bool(referee.finished), what="the game finished")
        finally:
            for player in players:
                await player.close()
            await bot.close()

    run(scenario(), timeout=180)
