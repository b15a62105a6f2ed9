"""A number typed in chat is read against a list the player has had: a race tester's second ``!pick 3``,
typed because the first got no answer yet (the chat budget held it about ten seconds), took a card from the
next pack, which the player had never been shown. While private lines to the player still wait, a command by
number is refused (say it again once the list has arrived); by name, or from the page, it goes through.

Runs the league referee against a chat scheduler with the shipped flood limits on a simulated clock, as
``test_league_stale_views`` does."""

from __future__ import annotations

from cockatrice_ext.bot.referee import NUMBERS_UNREAD, Context
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Journal
from tests.bot.test_chat_budget import run_simulated
from tests.bot.test_league_bot import market_cards
from tests.bot.test_league_stale_views import _SlowChat, chat_league, drained, private_after


def market_league() -> tuple[_SlowChat, mk.MarketDraftEngine, object]:
    bot = _SlowChat(Journal(":memory:"))
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=1, cards=market_cards()), seed=3
    )
    return bot, engine, chat_league(bot, engine, "market")


def test_a_second_pick_by_number_before_the_next_pack_arrives_is_refused() -> None:
    """al's pack has arrived; al says ``!pick 1`` and, before its answer and the next pack's listing reach
    him, ``!pick 1`` again: one card is picked, the second is refused with why; once the lines have arrived,
    the same ``!pick 1`` picks from the pack he was shown."""

    async def scenario() -> tuple[int, int, int, list[str]]:
        bot, engine, league = market_league()
        await league.perform(league.table.apply(core.Start(player=None)))  # type: ignore[attr-defined]
        await bot.chat.flush(timeout=600)  # the first packs are listed
        await league.perform(  # type: ignore[attr-defined]
            league.table.apply(core.Pick(player="bo", card=engine.pack("bo")[0]))  # type: ignore[attr-defined]
        )  # bo's pack is passed on: al's next pack waits for him
        await bot.chat.flush(timeout=600)
        mark = len(bot.server.tries)
        al = Context(bot, "private", "al")  # type: ignore[arg-type]
        assert await league.handle_command(al, "!pick 1")  # type: ignore[attr-defined]
        after_first = len(engine.pool("al"))
        assert await league.handle_command(al, "!pick 1")  # type: ignore[attr-defined]
        after_second = len(engine.pool("al"))
        await bot.chat.flush(timeout=600)  # the answer and the next listing reach al
        assert await league.handle_command(al, "!pick 1")  # type: ignore[attr-defined]
        after_third = len(engine.pool("al"))
        said = [message for user, message in private_after(bot, mark) if user == "al"]
        await drained(bot, league)  # type: ignore[arg-type]
        return after_first, after_second, after_third, said

    first, second, third, said = run_simulated(scenario)
    assert (first, second, third) == (1, 1, 2), (first, second, third, said)
    assert any(NUMBERS_UNREAD in message for message in said), said


def test_a_pick_by_name_or_from_the_page_is_not_held_up() -> None:
    """A name means the same card in any pack, and a page button says which lists it drew: neither waits."""

    async def scenario() -> tuple[int, list[str]]:
        bot, engine, league = market_league()
        await league.perform(league.table.apply(core.Start(player=None)))  # type: ignore[attr-defined]
        # al's listing is still queued: he has read nothing yet.
        name = engine.config.cards[engine.pack("al")[0]].name
        assert await league.handle_command(Context(bot, "private", "al"), f"!pick {name}")  # type: ignore[arg-type,attr-defined]
        replies: list[str] = []

        async def answer(line: str) -> None:
            replies.append(line)

        page = Context(bot, "private", "bo", reply_hook=answer, page=True)  # type: ignore[arg-type]
        assert await league.handle_command(page, "!pick 1")  # type: ignore[attr-defined]
        picked = len(engine.pool("al")) + len(engine.pool("bo"))
        await drained(bot, league)  # type: ignore[arg-type]
        return picked, replies

    picked, replies = run_simulated(scenario)
    assert picked == 2 and not any(NUMBERS_UNREAD in reply for reply in replies), replies


def test_a_list_waiting_on_another_session_holds_a_number_too() -> None:
    """With ``--extra-user`` a game's private lines leave from the game's own session, while the player's
    conversation may be on another: the guard looked at the conversation's queue alone (a re-check tester)."""
    from types import SimpleNamespace

    import pytest

    from cockatrice_ext.bot.commands import NotAllowed
    from cockatrice_ext.bot.referee import require_lists_read

    quiet = SimpleNamespace(chat=SimpleNamespace(pending=lambda destination: 0))
    busy = SimpleNamespace(
        chat=SimpleNamespace(pending=lambda destination: int(destination == ("user", "al")))
    )
    main = SimpleNamespace(main=None, sessions=[quiet, busy], conversation_with=lambda user: quiet)
    with pytest.raises(NotAllowed, match="still on its way"):
        require_lists_read(Context(main, "game", "al"), 2)  # type: ignore[arg-type]
    require_lists_read(Context(main, "game", "al"), "Opt")  # type: ignore[arg-type]  # by name: goes through
    require_lists_read(Context(main, "game", "bo"), 2)  # type: ignore[arg-type]  # nothing waits for bo
