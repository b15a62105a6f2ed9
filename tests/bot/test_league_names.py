"""Two leagues in one room are told apart: room lines name the league, and its number is its page's.

Seen in the field: a Market Draft and an AutoBattler league ran in one room; their lines merged ("Round 2:
cat beats ann. League over! ... | Round 4: fay beats hal.") and both were announced as "#1" while their web
pages were /league/1 and /league/2.
"""

from __future__ import annotations

import asyncio
from typing import Any

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Journal, Table
from tests.bot.test_league_bot import _ChattyBot, block_of, fresh_autobattler, market_cards


class _NumberedPages:
    """The web view's side: numbers in the order leagues are first seen (as ``/league/N``)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def number(self, league: Any) -> int:
        return self.numbers.setdefault(league.page_key, len(self.numbers) + 1)

    def link(self, league: Any, player: str) -> str | None:
        return None

    def changed(self, league: Any) -> None:
        self.number(league)


def two_leagues(pages: Any = None) -> tuple[LeagueReferee, LeagueReferee, _ChattyBot]:
    bot = _ChattyBot(Journal(":memory:"))
    bot.league_pages = pages
    market = mk.MarketDraftEngine(
        mk.MarketConfig(players=("ann", "cat"), rounds=1, cards=market_cards()), seed=3
    )
    table = Table.create(bot.journal, "ws://test:league:0:market:1", market)
    first = LeagueReferee(bot, 0, LeagueOptions(format="market"), block_of(market), table)  # type: ignore[arg-type]
    battler: ab.AutoBattlerEngine = fresh_autobattler(("eve", "fay", "gus", "hal"))
    table = Table.create(bot.journal, "ws://test:league:0:autobattler:1", battler)
    second = LeagueReferee(bot, 0, LeagueOptions(format="autobattler"), block_of(battler), table)  # type: ignore[arg-type]
    bot.private_referees += [first, second]
    return first, second, bot


def test_room_lines_name_the_league_while_another_runs_in_the_room() -> None:
    first, second, bot = two_leagues()
    asyncio.run(first.begin())
    asyncio.run(second.begin())
    bot.said.clear()
    engine = first.engine
    while engine.phase == "draft":
        for player in ("ann", "cat"):
            if engine.pack(player):
                effects = first.table.apply(core.Pick(player=player, card=engine.pack(player)[0]))
    asyncio.run(first.perform(effects))
    room = [line for line in bot.said if not line.startswith(("ann: ", "cat: "))]
    assert room and all(line.startswith("Market Draft #1: ") for line in room), room
    second.over = True  # the other league is over: one league in the room, its lines as before
    bot.said.clear()
    asyncio.run(first.perform(first.table.apply(core.ReportResult(player=None, winner="ann"))))
    room = [line for line in bot.said if not line.startswith(("ann: ", "cat: "))]
    assert room[0].startswith("Round 1: ann beats cat."), room


def test_a_league_is_announced_with_its_web_pages_number() -> None:
    pages = _NumberedPages()
    first, second, bot = two_leagues(pages)
    asyncio.run(first.begin())
    asyncio.run(second.begin())
    starts = [line for line in bot.said if " starts: " in line]
    assert starts[0].startswith("Market Draft league #1 starts")
    assert starts[1].startswith("AutoBattler league #2 starts"), starts  # its page is /league/2
