"""A chat-only AutoBattler league started right after its four joins: every player's first shop view leaves
in the window of the join answers. The field test (``test_autobattler_views_reach_every_player_promptly``)
failed about one start in twenty: the four join answers (300 bytes for its six-character names) and the
four first views went past Servatrice's 1,000 characters per window whenever the shops' card names were
long, and the last player's view waited a whole window (11 s). Which shops a league deals is its seed's
doing, so both tests here fix the seeds: one start through the room commands and the chat scheduler on a
simulated clock (``test_chat_budget``), with the longest-named shops of 10,000 seeds; and the budget's
arithmetic over 200 seeds of the bundled cube."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cockatrice_ext.bot.chat import client_scheduler
from cockatrice_ext.bot.league_cards import load_league_block
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
from cockatrice_ext.bot.league_views import render_effects
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.client.flood import FloodLimits
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.web.demo import demo_bot
from tests.bot.test_chat_budget import ROUND_TRIP, WINDOW, FakeClient, now, run_simulated

ROOM = 1
PLAYERS = ("kay_fp", "lee_fp", "max_fp", "ned_fp")
"""The field test's players (their names make the join answers as long as there)."""
LONG_SHOPS_SEED = 52410001732657
"""Of 10,000 random seeds, the one whose four first shops had the longest card names (the first views came
to 736 bytes with ``; pool next``): the field test failed with it every time."""
SHOP = "Your shop: 1. "


async def nowhere(_destination: object, _message: str) -> None:
    raise AssertionError("demo_bot's own sink is replaced by the scheduler under test")


async def join_all(bot: Bot, room: AutoBattlerRoom) -> None:
    """The four players join in the room, one after the other, each waiting for the answer to theirs."""
    for player in PLAYERS:
        assert await room.handle_command(Context(bot, "room", player, room_id=ROOM), "!autobattler join")
        await bot.chat.flush(timeout=60)


def test_no_first_view_waits_for_the_budget_after_four_joins(tmp_path: Path) -> None:
    """Four joins, the last player's ``!autobattler start`` at once: no player's first shop view waits for
    the chat budget; each is handed to the server right after the one before it (the last one waited a
    whole window before)."""

    async def scenario() -> dict[str, float]:
        server = FakeClient()
        bot = demo_bot(tmp_path / "journal.sqlite3", nowhere)
        bot.chat = client_scheduler(server)  # the shipped limits, as the bot builds its scheduler
        room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", seed=LONG_SHOPS_SEED))
        bot.room_referees.append(room)
        try:
            await join_all(bot, room)
            started = now()
            start = Context(bot, "room", PLAYERS[-1], room_id=ROOM)
            assert await room.handle_command(start, "!autobattler start")
            deadline = started + 6 * WINDOW
            while not all(any(SHOP in m for m in server.to(("user", p))) for p in PLAYERS):
                assert now() < deadline, f"a first view never left: {server.tries}"
                await asyncio.sleep(0.5)
            return {p: server.first_sent(("user", p), SHOP) - started for p in PLAYERS}
        finally:
            bot.chat.close()

    waited = run_simulated(scenario)
    # Simulated time: a view that waits for the budget leaves a window later (the last one did, at 10.76 s);
    # one that does not leaves after the round trips of the messages handed to the server before it.
    assert all(seconds <= n * ROUND_TRIP + 1e-9 for n, seconds in enumerate(sorted(waited.values()))), waited


def test_four_join_answers_and_four_first_views_fit_one_window(tmp_path: Path) -> None:
    """The bundled cube's four-player starts (seeds 0-199, the field test's names): the join answers and
    the four first shop views together stay within one window's character budget (shipped limits)."""

    async def answers() -> int:
        said: list[str] = []

        async def send(_destination: object, message: str) -> None:
            said.append(message)

        bot = demo_bot(tmp_path / "journal.sqlite3", send)
        room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler"))
        try:
            await join_all(bot, room)
        finally:
            bot.chat.close()
        assert len(said) == len(PLAYERS) and all(" joins the AutoBattler league (" in m for m in said)
        return sum(len(m.encode()) for m in said)

    joins = asyncio.run(answers())
    budget = FloodLimits().chat_chars
    block = load_league_block("autobattler-cube")
    over = {}
    for seed in range(200):
        config = ab.AutoBattlerConfig(players=PLAYERS, cards=block.facts, dead_take_no_poison=True)
        engine = ab.AutoBattlerEngine(config, seed=seed)
        out = render_effects(engine.apply(core.Start(player=None)), engine)
        firsts = [str(out.private[p][0]) for p in PLAYERS]
        assert all(f.startswith(SHOP) for f in firsts)
        total = joins + sum(len(f.encode()) for f in firsts)
        if total > budget:
            over[seed] = total
    assert not over, f"join answers ({joins} bytes) and first views past {budget} bytes: {over}"
