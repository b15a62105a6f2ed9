"""A line about a draft phase never arrives after that phase as if current. In an eight-player AutoBattler
league on Servatrice's shipped limits, "Your first cards: ..." (the follow-up to a draft phase's first line)
arrived at 137 s, after "You are done drafting" and after the round's game announcement; in another run a
round-1 "Your first cards: ... | Treasures: 1 (+1, draft phase)" reached its player after their round-1
game was lost, stuck onto the round-2 shop, which said "Treasures 2". The shop view of that follow-up was
already dropped once the phase was over; the cards and treasures it brought were plain lines. (A draft
phase's first message now holds its whole view, with no follow-up; the test still holds every phase's line
to its phase.)

Runs the league referee against a chat scheduler with the shipped flood limits on a simulated clock, as
``test_league_stale_views`` does."""

from __future__ import annotations

import asyncio

from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.journal import Journal
from tests.bot.test_chat_budget import run_simulated
from tests.bot.test_league_bot import fresh_autobattler
from tests.bot.test_league_stale_views import _SlowChat, chat_league, drained, private_after

FOUR = ("a", "b", "c", "d")
DRAFT_PHASE_WORDS = ("Your first cards: ", "A random card: ", "(+1, draft phase)")


def test_a_draft_phase_s_cards_and_treasures_still_held_when_it_ends_are_not_sent() -> None:
    """All four read the short first line and finish drafting at once; the follow-ups behind it (the first
    cards, the phase's treasure and random card, the whole view) have not left then: none of them arrives
    afterwards, while the next step (the deck to build) does."""

    async def scenario() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
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
        return before, private_after(bot, mark)

    before, after = run_simulated(scenario)
    assert not any(w in m for _, m in before for w in DRAFT_PHASE_WORDS), before  # all still held then
    late = [(user, message) for user, message in after if any(w in message for w in DRAFT_PHASE_WORDS)]
    assert late == [], late
    assert any("Deck: exactly 3 cards" in message for _, message in after), after
