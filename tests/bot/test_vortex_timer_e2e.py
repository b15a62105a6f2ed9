"""Vortex's pick timer in a real Servatrice game: chosen in the room command and shown by !rules; an idle
picker is warned, then the referee picks a random card of their pack for them and play goes on."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_vortex_bot import POOL, join_bot_room, open_vortex, run, start_bot

pytestmark = pytest.mark.servatrice

PICK_TIMEOUT = 3
"""The bots' pick timer here (the operator's setting, in seconds): long enough that a player answering their
turn at once is heard in time on a loaded machine, short enough for idle picks to keep the tests short."""


def test_an_idle_picker_gets_a_random_pick(servatrice: ServatriceServer, tmp_path: Path) -> None:
    pool = tmp_path / "pool.txt"
    pool.write_text(POOL)

    async def scenario() -> None:
        # The operator's default (three seconds, below what chat allows) keeps the test short, and gives a
        # player who answers their turn at once (bob's pick below) time to be heard on a loaded machine.
        bot = await start_bot(
            servatrice.ws_url, tmp_path, "vortex_timer", block=str(pool), seed=1, pick_timeout=PICK_TIMEOUT
        )
        (alice, bob), room_id = await join_bot_room(servatrice.ws_url, "alice_t", "bob_t")
        try:
            await alice.client.room_say(room_id, "!vortex new 2 picktimer=5")
            await alice.wait_line(
                lambda t: "picktimer=5: expected a whole number from 10 to 600, or off" in t
            )
            await alice.client.room_say(room_id, "!vortex rules")
            await alice.wait_line(lambda t: f"picktimer=10-600|off[{PICK_TIMEOUT}]" in t)
            game_id, referee = await open_vortex(bot, alice, room_id)
            start = alice.mark()  # what the game says from its start, each line once
            bob_start = bob.mark()
            by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
            await bot_line(alice, r"Opening turn 1: alice_t drafts", start)
            engine = referee.engine
            first = next(pid for pid, p in by_id.items() if p is alice)
            pack = {ref.index for ref in engine.pack(first)}
            mark = alice.mark()
            await alice.say(game_id, "!rules")
            chosen = rf"chosen: (basics=pool )?picktimer={PICK_TIMEOUT}"  # the pool keeps its basics
            await bot_line(alice, chosen, mark)
            await bot_line(alice, rf"alice_t: {PICK_TIMEOUT / 2:g} s left to pick", start)
            await bot_line(
                alice, r"alice_t ran out of time: the referee picks one of their 7 pack cards", start
            )
            # bob picks as soon as he reads it is his turn: a pick in time stops that pick's timer
            await bot_line(bob, r"Opening turn 2: bob_t drafts", bob_start)
            await bob.say(game_id, "!pick 1")
            await bot_line(alice, r"Opening turn 2: bob_t drafts", start)
            mark = alice.mark()  # alice's first time out is before it
            owned = engine.players[first].owned
            assert len(owned) == 1 and owned[0] in pack
            await wait_until(lambda: len(alice.client.games[game_id].players[first].zone("hand").cards) == 1)
            await bot_line(alice, r"Opening turn 3: alice_t drafts", mark)
            await bot_line(alice, r"alice_t ran out of time", mark)  # a second timer's length later
            assert not any("bob_t ran out of time" in text for _, text in alice.heard)
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


BIG_POOL = """\
1 Shock
1 Giant Growth
1 Grizzly Bears
20 Forest
20 Mountain
"""


def test_the_turn_waits_for_the_active_players_own_pick_then_the_timer(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Bob passes the turn with his draw step's pick pending: the turn waits for that pick, which the timer
    makes, then ends (the pass step swaps the pack the pick comes from)."""
    pool = tmp_path / "pool.txt"
    pool.write_text(BIG_POOL)

    async def scenario() -> None:
        bot = await start_bot(
            servatrice.ws_url, tmp_path, "vortex_wait", block=str(pool), seed=2, pick_timeout=PICK_TIMEOUT
        )
        (alice, bob), room_id = await join_bot_room(servatrice.ws_url, "alice_u", "bob_u")
        try:
            game_id, referee = await open_vortex(bot, alice, room_id)
            by_id = {await alice.sit(room_id, game_id): alice, await bob.sit(room_id, game_id): bob}
            pid = {p.name: player_id for player_id, p in by_id.items()}
            # eight idle picks, each made by the timer
            await bot_line(alice, r"Opening draft done", 0, timeout=8 * PICK_TIMEOUT + 30)
            engine = referee.engine
            assert all(len(engine.players[p].owned) == 4 for p in by_id)
            mark = alice.mark()
            await alice.say(game_id, "!basics")
            await bob.say(game_id, "!basics")
            await bot_line(alice, r"Turn 1: alice_u", mark)
            await wait_until(lambda: alice.client.games[game_id].active_player_id == pid["alice_u"])
            await alice.phase(game_id, 2)
            await bot_line(alice, r"alice_u starts and skips the first draw", mark)
            await alice.next_turn(game_id)
            await bot_line(alice, r"Turn 2: bob_u", mark)
            await wait_until(lambda: bob.client.games[game_id].active_player_id == pid["bob_u"])
            await bob.phase(game_id, 2)
            await bot_line(alice, r"bob_u to pick from 7", mark)
            await bob.next_turn(game_id)  # at once, well within the seconds he has
            await bot_line(
                alice, r"bob_u: pick first \(!pick N\); then your turn ends \(or the referee picks", mark
            )
            await bot_line(alice, r"bob_u ran out of time", mark)
            await bot_line(alice, r"bob_u passes: takes the passed pack", mark)
            await bot_line(alice, r"Turn 3: alice_u", mark)
            assert len(engine.players[pid["bob_u"]].owned) == 5 and engine.whose_turn == pid["alice_u"]
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)
