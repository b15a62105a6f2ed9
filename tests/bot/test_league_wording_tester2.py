"""Wording a league tester found untrue on a real Servatrice: AutoBattler ``!standings`` said "games 0"
with half of round 1 decided (its poison in the table already); a player who left a game but not the room
was told to be back in the room; Market ``!standings`` showed a member who left the league like any other;
``!market status`` said "lobby 0 (nobody)"."""

from __future__ import annotations

import asyncio
from typing import Any

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_rooms import MarketRoom
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from tests.bot.test_league_bot import autobattler_engine, league_desk, market_engine, say


def test_autobattler_standings_say_a_round_under_way_with_its_decided_games() -> None:
    """Round 1 is played, one of its two games decided (its loser has poison): the standings say so, not
    "games 0"; before the first round they say no round was played."""
    engine = autobattler_engine()
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    (before,) = say(league, bot, "a", "!standings")
    assert before.startswith("Energy 3, games 0: "), before  # no round played, none under way
    for player in ("a", "b", "c", "d"):
        engine.apply(ab.EndDraft(player=player))
    first = engine.league.current_matches()[0]
    engine.apply(core.ReportResult(player=None, winner=first.players[0]))
    (line,) = say(league, bot, "a", "!standings")
    assert line.startswith("Energy 3, games 0, round 1 under way: 1 of 2 games decided: "), line
    assert f"{first.players[1]} 1 poison" in line, line


def test_market_standings_mark_a_member_who_left_the_league() -> None:
    engine = market_engine(rounds=2)
    league, bot = league_desk(LeagueOptions(format="market"), engine)  # type: ignore[arg-type]
    league.left.add("bo")
    (line,) = say(league, bot, "al", "!standings")
    assert "bo 0 (0-0-0) (left)" in line and "al 0 (0-0-0)," in line + ",", line


class _Game:
    """The parts of a started league game that cutting it short uses."""

    def __init__(self, players: tuple[str, str]) -> None:
        self.game_id, self.round_no, self.players = 7, 1, players
        self.said: list[str] = []

    def opponent(self, player: str) -> str:
        return next(p for p in self.players if p != player)

    async def say(self, text: str) -> None:
        self.said.append(text)

    async def close(self, reason: str = "") -> None:
        return None


def cut_words(in_room: bool, dropped: bool) -> tuple[list[str], list[str]]:
    engine = autobattler_engine()
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    bot.client.room_users = {league.room_id: {"b"} | ({"a"} if in_room else set())}
    game = _Game(("a", "b"))
    bot.said.clear()
    asyncio.run(league.cut_short(game, "a", dropped))  # type: ignore[arg-type]
    return game.said, [line for line in bot.said if line.startswith("a: ")]


def test_a_player_who_left_the_game_but_not_the_room_is_not_told_to_come_back() -> None:
    said, told = cut_words(in_room=True, dropped=False)
    assert told and not any("Be back in the room" in line for line in told), told
    assert any("still in the room" in line for line in told), told
    assert not any("Back in the room within" in line for line in said), said
    said, told = cut_words(in_room=False, dropped=True)  # their connection dropped: out of the room
    assert any("Be back in the room within 5 minutes" in line for line in told), told


def test_an_empty_lobby_status_says_it_is_empty() -> None:
    bot: Any = league_desk(LeagueOptions(format="market"), market_engine())[1]
    bot.room_referees = []
    room = MarketRoom(bot)
    replies: list[str] = []

    async def reply(line: str) -> None:
        replies.append(line)

    ctx = Context(bot=bot, scope="room", sender="al", room_id=1, reply_hook=reply)
    assert asyncio.run(room.handle_command(ctx, "!market status"))
    assert replies and "(nobody)" not in replies[0] and "lobby 0" not in replies[0], replies
    assert "lobby empty" in replies[0], replies
