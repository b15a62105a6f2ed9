"""A draft view waiting for the chat budget is drawn as it leaves, or dropped when what it lists is over: a
Market pack listing queued behind a slow chat reached its player after they (or the stand-in) had picked
from it, even after the draft had ended; an AutoBattler shop view (the whole view that follows a draft
phase's first line) arrived after the phase had ended, inviting a ``!swap`` the league refuses.

Each scenario runs the league referee against a chat scheduler with the shipped flood limits on a simulated
clock (``test_chat_budget``): what the server was handed, and in what order, is what players read."""

from __future__ import annotations

import asyncio
from typing import Any

from cockatrice_ext.bot.chat import ChatScheduler, client_scheduler
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Journal, Table
from tests.bot.test_chat_budget import FakeClient, run_simulated
from tests.bot.test_league_bot import _FakeBot, block_of, fresh_autobattler, market_cards

FOUR = ("a", "b", "c", "d")


class _SlowChat(_FakeBot):
    """One session whose chat goes through a real scheduler (the shipped limits) to a fake server."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal)
        self.server = FakeClient()
        self.chat: ChatScheduler = client_scheduler(self.server)  # type: ignore[assignment]

    async def room_say(self, room_id: int, text: Any) -> None:
        self.chat.say(("room", room_id), text)

    async def tell(self, user: str, text: Any, *, raw: bool = False) -> None:
        self.chat.say(("user", user), text, raw=raw)


def chat_league(bot: _SlowChat, engine: Any, fmt: str) -> LeagueReferee:
    table = Table.create(bot.journal, f"ws://test:league:0:{fmt}:1", engine)
    league = LeagueReferee(bot, 0, LeagueOptions(format=fmt), block_of(engine), table)  # type: ignore[arg-type]
    league.chat_players.update(engine.league.members)  # chat players: every view comes listed in chat
    return league


async def drained(bot: _SlowChat, league: LeagueReferee) -> None:
    """Until every line queued has left."""
    for _ in range(60):
        await asyncio.sleep(10)
        await bot.chat.flush(timeout=600)
        if not bot.chat.pending():
            break
    bot.chat.close()


def private_after(bot: _SlowChat, mark: int) -> list[tuple[str, str]]:
    return [(d[1], message) for _, d, message in bot.server.tries[mark:] if d[0] == "user"]


def test_a_shop_view_still_queued_when_the_draft_phase_ends_is_not_sent() -> None:
    """All four read the short first line and finish drafting at once; the whole views behind it (their
    pool, the shop again) are still waiting for the budget then: they are no longer sent."""

    async def scenario() -> tuple[list[tuple[str, str]], list[tuple[str, str]], str]:
        bot = _SlowChat(Journal(":memory:"))
        engine = fresh_autobattler(FOUR)
        league = chat_league(bot, engine, "autobattler")
        await league.perform(league.table.apply(core.Start(player=None)))
        while len(private_after(bot, 0)) < len(FOUR):  # each has their short first line (the shop, !done)
            await asyncio.sleep(0.05)
        before = private_after(bot, 0)
        for player in FOUR:
            await league.perform(league.table.apply(ab.EndDraft(player=player)))
        assert engine.phase == "play"
        mark = len(bot.server.tries)  # the draft phase is over: what leaves from here on is read after it
        await drained(bot, league)
        return before, private_after(bot, mark), engine.phase

    before, after, phase = run_simulated(scenario)
    assert phase == "play"
    assert {user for user, message in before if message.startswith("Your shop: 1. ")} == set(FOUR), before
    stale = [(user, message) for user, message in after if "Your shop: " in message]
    assert stale == [], stale
    assert any("Deck: exactly 3 cards" in message for _, message in after), after  # the next step is said


def test_a_pack_listing_still_queued_after_its_pick_is_not_sent() -> None:
    """Two players pick fast (on their pages, or the stand-in for them) while their pack listings wait for
    the chat budget; the draft ends: no listing of a pack already picked from reaches them afterwards."""

    async def scenario() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        bot = _SlowChat(Journal(":memory:"))
        engine = mk.MarketDraftEngine(
            mk.MarketConfig(players=("al", "bo"), rounds=1, cards=market_cards()), seed=3
        )
        league = chat_league(bot, engine, "market")
        await league.perform(league.table.apply(core.Start(player=None)))
        await bot.chat.flush(timeout=600)  # the first packs are listed
        before = private_after(bot, 0)
        while engine.phase == "draft":
            for player in ("al", "bo"):
                if pack := engine.pack(player):
                    await league.perform(league.table.apply(core.Pick(player=player, card=pack[0])))
        mark = len(bot.server.tries)  # the draft is over
        await drained(bot, league)
        return before, private_after(bot, mark)

    before, after = run_simulated(scenario)
    assert {user for user, message in before if message.startswith("Your pack (15): ")} == {"al", "bo"}
    stale = [(user, message) for user, message in after if "Your pack (" in message]
    assert stale == [], stale
    assert any("Draft over" in message for _, message in after), after


def test_a_pack_answer_still_queued_after_a_pick_lists_the_pack_as_it_is_then() -> None:
    """``!pack`` asked while the chat budget is spent; the player picks (on their page) before the answer
    leaves: the answer lists what waits for them then, not the pack they already picked from."""

    async def scenario() -> tuple[list[str], list[str]]:
        bot = _SlowChat(Journal(":memory:"))
        engine = mk.MarketDraftEngine(
            mk.MarketConfig(players=("al", "bo"), rounds=1, cards=market_cards()), seed=3
        )
        league = chat_league(bot, engine, "market")
        await league.perform(league.table.apply(core.Start(player=None)))
        for _ in range(3):  # the budget is spent on al's pack, listed again and again
            assert await league.handle_command(Context(bot, "private", "al"), "!pack")  # type: ignore[arg-type]
        asked = [m for u, m in private_after(bot, 0) if u == "al"]
        pack = engine.pack("al")
        await league.perform(league.table.apply(core.Pick(player="al", card=pack[0])))
        mark = len(bot.server.tries)
        await drained(bot, league)
        return asked, [m for u, m in private_after(bot, mark) if u == "al"]

    asked, after = run_simulated(scenario)
    assert not any("Your pack (15)" in message for message in after), (asked, after)
    assert any("No pack is waiting for you now." in message for message in after), (asked, after)
