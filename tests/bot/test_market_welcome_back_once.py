"""A member back in the room is not sent the pack their chat has just listed again. Field (Market Draft on
Servatrice's shipped limits): olim came back and typed ``!pick 1`` at once; its answer "You picked Gorging
Vulture (5 in your pool). | Your pack (10): 1. Blade Juggler ..." was followed two seconds later by
"Welcome back: your pack (10): 1. Blade Juggler ...", some 300 characters of the budget spent twice.

Runs the league referee against a chat scheduler with the shipped flood limits on a simulated clock (as
``test_league_stale_views`` does) and counts what the server was handed."""

from __future__ import annotations

from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Journal
from tests.bot.test_chat_budget import run_simulated
from tests.bot.test_league_bot import market_cards
from tests.bot.test_league_stale_views import _SlowChat, chat_league, drained


def _league() -> tuple[_SlowChat, mk.MarketDraftEngine, LeagueReferee]:
    bot = _SlowChat(Journal(":memory:"))
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=1, cards=market_cards()), seed=3
    )
    return bot, engine, chat_league(bot, engine, "market")


def test_a_pick_typed_on_the_way_back_lists_the_next_pack_once() -> None:
    """bo leaves the room and comes back; their ``!pick 1`` is answered (with their next pack) before the
    league's check sees them back: that pack is listed to them once, not again as a welcome-back."""

    async def scenario() -> tuple[list[str], str]:
        bot, engine, league = _league()
        await league.perform(league.table.apply(core.Start(player=None)))
        await league.perform(league.table.apply(core.Pick(player="al", card=engine.pack("al")[0])))
        await bot.chat.flush(timeout=600)
        bot.client.room_users = {0: {"al"}}  # type: ignore[attr-defined]
        await league.stand_in_due()
        assert "bo" in league.out_of_room
        mark = len(bot.server.tries)
        bot.client.room_users = {0: {"al", "bo"}}  # type: ignore[attr-defined]
        assert await league.handle_command(Context(bot, "private", "bo"), "!pick 1")  # type: ignore[arg-type]
        pack = engine.pack("bo")
        listing = f"pack ({len(pack)}): 1. {engine.config.cards[pack[0]].name}; "
        await league.stand_in_due()  # sees them back
        await drained(bot, league)
        return [m for _, d, m in bot.server.tries[mark:] if d == ("user", "bo")], listing

    told, listing = run_simulated(scenario)
    assert any("You picked " in m for m in told), told
    assert sum(m.count(listing) for m in told) == 1, told


def test_a_member_back_whose_pack_was_listed_before_they_left_hears_it_again() -> None:
    """Listed before they left the room (their client may have started again since): the welcome-back
    lists it."""

    async def scenario() -> tuple[list[str], str]:
        bot, engine, league = _league()
        await league.perform(league.table.apply(core.Start(player=None)))
        await bot.chat.flush(timeout=600)
        bot.client.room_users = {0: {"al"}}  # type: ignore[attr-defined]
        await league.stand_in_due()
        mark = len(bot.server.tries)
        bot.client.room_users = {0: {"al", "bo"}}  # type: ignore[attr-defined]
        await league.stand_in_due()
        pack = engine.pack("bo")
        await drained(bot, league)
        listing = f"pack ({len(pack)}): 1. {engine.config.cards[pack[0]].name}; "
        return [m for _, d, m in bot.server.tries[mark:] if d == ("user", "bo")], listing

    told, listing = run_simulated(scenario)
    assert len(told) == 1 and told[0].startswith("Welcome back: your ") and listing in told[0], told
