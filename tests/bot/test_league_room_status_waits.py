"""The room's ``!market status`` (and ``!autobattler status``) says whom the league waits for, in the words of
``!games``. Field: ``!market status`` answered "...: the draft before round 1" while ``!games`` said "Market
Draft league #1 (the draft before round 1; waits for olim)"."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from cockatrice_ext.bot.referee import LobbyReferee
from cockatrice_ext.formats import league as core
from tests.bot.test_league_stand_in import market_desk


def test_the_room_status_names_whom_the_league_waits_for_as_games_does() -> None:
    desk, bot = market_desk()
    engine = desk.engine
    asyncio.run(desk.perform(desk.table.apply(core.Pick(player="al", card=engine.pack("al")[0]))))
    assert list(engine.waiting_for()) == ["bo"]  # al's next pack is bo's, still in front of bo
    bot.room_referees = [SimpleNamespace(leagues=[desk])]  # type: ignore[attr-defined]
    (games_part,) = LobbyReferee(bot).open_leagues()  # type: ignore[arg-type]
    assert games_part == "Market Draft league #1 (the draft before round 1; waits for bo)", games_part
    stage = games_part[games_part.index("(") + 1 : -1]
    assert desk.room_status_line() == f"Market Draft league (al, bo): {stage}"
