"""Room ``!games`` names the open leagues too: while a Market league stalled on a drafter it answered only
"Refereeing: #1 vortex: in progress.", so nobody in the room could tell the league waited, or for whom."""

from __future__ import annotations

import asyncio

from test_league_bot import journaled_market_league

from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_rooms import MarketRoom
from cockatrice_ext.bot.referee import Context, LobbyReferee
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.formats import league as core
from cockatrice_ext.journal import Journal


def games_answer(*, over: bool = False) -> str:
    """``!games`` said in the room of a bot that runs one Market Draft league (al picked, bo to pick)."""

    async def scenario() -> str:
        journal = Journal(":memory:")
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=journal)
        table = journaled_market_league(journal, room_id=1, number=1)
        table.apply(core.Pick(player="al", card=table.engine.pack("al")[0]))  # the draft waits for bo
        league = await LeagueReferee.restore(bot, table.key)
        market = MarketRoom(bot)
        market.leagues.append(league)
        if over:
            league.over = True
        bot.room_referees += [LobbyReferee(bot), market]
        said: list[str] = []

        async def collect(text: str) -> None:
            said.append(text)

        ctx = Context(bot, "room", "carol", room_id=1, reply_hook=collect)
        assert await bot.room_referees[0].handle_command(ctx, "!games")
        return said[0]

    return asyncio.run(scenario())


def test_games_lists_an_open_league_with_its_stage_and_whom_it_waits_for() -> None:
    answer = games_answer()
    assert "Open leagues: Market Draft league #1 (the draft before round 1; waits for bo)" in answer, answer
    assert "No refereed games" not in answer


def test_a_league_that_is_over_is_not_listed() -> None:
    assert games_answer(over=True) == "No refereed games right now."


def test_a_queued_games_answer_is_worded_when_it_leaves_and_a_second_ask_waits_for_it() -> None:
    """Seen in the field: with the chat budget spent, ``!games`` was answered 56 s later with games "waiting
    for players (0 seated)" that had started meanwhile, and every ask queued one more answer."""

    async def scenario() -> list[str]:
        journal = Journal(":memory:")
        bot = Bot(BotOptions(url="ws://127.0.0.1:1/none", user="referee"), journal=journal)
        lobby = LobbyReferee(bot)
        market = MarketRoom(bot)
        bot.room_referees += [lobby, market]
        queued: list[object] = []

        async def hold(line: object) -> None:  # the chat queue: the line is rendered when it leaves
            queued.append(line)

        for sender in ("carol", "dan"):
            ctx = Context(bot, "room", sender, room_id=1, line_hook=hold)  # type: ignore[arg-type]
            assert await lobby.handle_command(ctx, "!games")
        assert len(queued) == 1  # dan's ask is answered by the answer already waiting
        table = journaled_market_league(journal, room_id=1, number=1)
        market.leagues.append(await LeagueReferee.restore(bot, table.key))  # a league opened meanwhile
        rendered = [line() if callable(line) else line for line in queued]
        ctx = Context(bot, "room", "erin", room_id=1, line_hook=hold)  # type: ignore[arg-type]
        assert await lobby.handle_command(ctx, "!games")  # answered again once the first has left
        return [*rendered, *(line() if callable(line) else line for line in queued[1:])]

    first, second = asyncio.run(scenario())
    assert "Open leagues: Market Draft league #1" in first, first
    assert second == first
