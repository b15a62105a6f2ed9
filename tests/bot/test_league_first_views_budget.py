"""A chat-only AutoBattler league started right after its four joins: every player's first message is their
whole view (the shop, the numbered pool, the treasures and the commands), and the four leave within two
windows of the start. History: the first view was once the shop alone, so that the four fitted the window of
the join answers (the field test, ``test_autobattler_views_reach_every_player_promptly``, failed about one
start in twenty when they did not); but the pool a ``!swap SHOP POOL`` numbers came 11-44 s later in four
follow-ups of ~700 characters, and a swap typed meanwhile was refused behind them. One whole view each
(~320 bytes) costs two windows for four players and nothing after. Which shops a league deals is its seed's
doing, so both tests here fix the seeds: one start through the room commands and the chat scheduler on a
simulated clock (``test_chat_budget``), with the longest-named shops of 10,000 seeds; and the budget's
arithmetic over 200 seeds of the bundled cube. Both run with the field test's names and with 16-character
ones: each join answer listed every player who had joined so far; a join answer now names its joiner and
says the count, whoever else joined (``!autobattler status`` lists them). Eight long-named joins are
answered without waiting too."""

from __future__ import annotations

import asyncio
from itertools import pairwise
from pathlib import Path

import pytest

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
LONG_PLAYERS = ("kay_fp_sixteen_1", "lee_fp_sixteen_2", "max_fp_sixteen_3", "ned_fp_sixteen_4")
"""Four 16-character names (longer than Servatrice's shipped maximum of 12, as a server may allow)."""
EIGHT_LONG = tuple(f"player{n}_longname" for n in range(8))
"""Eight 16-character names: the most an AutoBattler lobby takes."""
NAMES = pytest.mark.parametrize(
    "players", [PLAYERS, LONG_PLAYERS], ids=["six-character", "sixteen-character"]
)
LONG_SHOPS_SEED = 52410001732657
"""Of 10,000 random seeds, the one whose four first shops had the longest card names (the first views came
to 736 bytes with ``; pool next``): the field test failed with it every time."""
SHOP = "Your shop: 1. "


async def nowhere(_destination: object, _message: str) -> None:
    raise AssertionError("demo_bot's own sink is replaced by the scheduler under test")


async def join_all(bot: Bot, room: AutoBattlerRoom, players: tuple[str, ...] = PLAYERS) -> None:
    """The players join in the room, one after the other, each waiting for the answer to theirs."""
    for player in players:
        assert await room.handle_command(Context(bot, "room", player, room_id=ROOM), "!autobattler join")
        await bot.chat.flush(timeout=60)


@NAMES
def test_every_first_view_is_whole_and_the_four_leave_within_two_windows(
    tmp_path: Path, players: tuple[str, ...]
) -> None:
    """Four joins, the last player's ``!autobattler start`` at once: each player's first message lists their
    shop and their numbered pool, the four leave within two windows of the start (simulated clock), and no
    second view follows them."""

    async def scenario() -> tuple[dict[str, float], dict[str, list[str]]]:
        server = FakeClient()
        bot = demo_bot(tmp_path / "journal.sqlite3", nowhere)
        bot.chat = client_scheduler(server)  # the shipped limits, as the bot builds its scheduler
        room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", seed=LONG_SHOPS_SEED))
        bot.room_referees.append(room)
        try:
            await join_all(bot, room, players)
            started = now()
            start = Context(bot, "room", players[-1], room_id=ROOM)
            assert await room.handle_command(start, "!autobattler start")
            deadline = started + 6 * WINDOW
            while not all(any(SHOP in m for m in server.to(("user", p))) for p in players):
                assert now() < deadline, f"a first view never left: {server.tries}"
                await asyncio.sleep(0.5)
            await asyncio.sleep(3 * WINDOW)  # what else would come
            told = {p: server.to(("user", p)) for p in players}
            return {p: server.first_sent(("user", p), SHOP) - started for p in players}, told
        finally:
            bot.chat.close()

    waited, told = run_simulated(scenario)
    assert all(seconds < 2 * WINDOW for seconds in waited.values()), waited  # the last two: one window
    for player, messages in told.items():
        assert len(messages) == 1 and messages[0].startswith(SHOP), (player, messages)
        assert "Your pool: 1. " in messages[0] and "!swap SHOP POOL" in messages[0], messages


def join_answers(journal: Path, players: tuple[str, ...]) -> list[str]:
    """What the room hears when ``players`` join an AutoBattler lobby one after the other (no web view)."""

    async def answers() -> list[str]:
        said: list[str] = []

        async def send(_destination: object, message: str) -> None:
            said.append(message)

        bot = demo_bot(journal, send)
        room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler"))
        try:
            await join_all(bot, room, players)
        finally:
            bot.chat.close()
        return said

    said = asyncio.run(answers())
    assert len(said) == len(players) and all(" joins the AutoBattler league (" in m for m in said), said
    return said


@NAMES
def test_four_join_answers_and_four_first_views_fit_two_windows(
    tmp_path: Path, players: tuple[str, ...]
) -> None:
    """The bundled cube's four-player starts (seeds 0-199): the join answers and the four whole first views
    together stay within two windows' character budget (shipped limits)."""
    joins = sum(len(m.encode()) for m in join_answers(tmp_path / "journal.sqlite3", players))
    budget = FloodLimits().chat_chars
    block = load_league_block("autobattler-cube")
    over = {}
    for seed in range(200):
        config = ab.AutoBattlerConfig(players=players, cards=block.facts, dead_take_no_poison=True)
        engine = ab.AutoBattlerEngine(config, seed=seed)
        out = render_effects(engine.apply(core.Start(player=None)), engine)
        firsts = [str(out.private[p][0]) for p in players]
        assert all(f.startswith(SHOP) and "Your pool: 1. " in f for f in firsts)
        total = joins + sum(len(f.encode()) for f in firsts)
        if total > 2 * budget:
            over[seed] = total
    assert not over, f"join answers ({joins} bytes) and first views past {2 * budget} bytes: {over}"


def test_a_join_answer_grows_with_its_joiner_s_name_alone(tmp_path: Path) -> None:
    """Eight joins: the answer to each is as long whatever the others' names (it names its joiner and says
    the count, never the list of who joined), and a name longer than any server's is shown cut, so that no
    answer passes 120 bytes (the eighth join's answer listed eight 16-character names, 209 bytes)."""
    short = tuple(f"pl{n}_ab" for n in range(8))  # six characters
    said_short = join_answers(tmp_path / "short.sqlite3", short)
    said_long = join_answers(tmp_path / "long.sqlite3", EIGHT_LONG)
    grown = [len(b) - len(a) for a, b in zip(said_short, said_long, strict=True)]
    assert grown == [len(b) - len(a) for a, b in zip(short, EIGHT_LONG, strict=True)], (said_short, said_long)
    said_huge = join_answers(tmp_path / "huge.sqlite3", tuple(f"player{n}_" + "x" * 90 for n in range(8)))
    assert max(len(m.encode()) for m in said_huge) <= 120, said_huge  # 100-character names
    said_big = join_answers(tmp_path / "big.sqlite3", tuple(f"player{n}_" + "x" * 30 for n in range(8)))
    assert [len(m) for m in said_huge] == [len(m) for m in said_big], (said_huge, said_big)


def test_eight_long_named_joins_are_answered_without_waiting(tmp_path: Path) -> None:
    """Eight players with 16-character names join one after the other at once (eight room messages, within
    the ten a window allows): no answer waits for the character budget; each is handed to the server right
    after the one before it (the eighth waited a whole window while the answers listed the names)."""

    async def scenario() -> list[float]:
        server = FakeClient()
        bot = demo_bot(tmp_path / "journal.sqlite3", nowhere)
        bot.chat = client_scheduler(server)  # the shipped limits, as the bot builds its scheduler
        room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler"))
        bot.room_referees.append(room)
        try:
            began = now()
            await join_all(bot, room, EIGHT_LONG)
            answers = [(at, m) for at, d, m in server.tries if d == ("room", ROOM)]
            assert [m.split(" ")[0] for _, m in answers] == list(EIGHT_LONG), answers
            return [at - began for at, _ in answers]
        finally:
            bot.chat.close()

    handed = run_simulated(scenario)
    # Simulated time: an answer that waits for the budget leaves a window later (the eighth did, at 11.06 s);
    # one that does not leaves after the round trip of the one before and its own command's turn.
    assert all(later - earlier < 2 * ROUND_TRIP for earlier, later in pairwise([0.0, *handed])), handed
