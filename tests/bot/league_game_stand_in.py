"""A league game with no server behind it, for league tests that run the referee alone: ``LeagueGame.create``
patched to hand back :class:`StandInGame` (:func:`games_open_at_once`)."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest

from cockatrice_ext.bot.league_games import LeagueGame

_NUMBERS = count(40)


class StandInGame:
    """What ``LeagueGame.create`` returns here: the game of a pairing, numbered from 40, that does nothing."""

    watching = False

    def __init__(self, round_no: int, players: tuple[str, ...]) -> None:
        self.game_id, self.round_no, self.players = next(_NUMBERS), round_no, players
        self.setup_note = ""

    async def result_recorded(self, effect: Any) -> None:
        return None

    async def close(self, why: str = "") -> None:
        return None

    async def report_treasures(self) -> None:
        return None

    def connected_players(self) -> set[str]:
        return set()


def games_open_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pairing's game opens at once as a :class:`StandInGame`."""

    async def create(cls: Any, bot: Any, league: Any, round_no: int, players: tuple[str, ...]) -> StandInGame:
        return StandInGame(round_no, players)

    monkeypatch.setattr(LeagueGame, "create", classmethod(create))


PLAYERS = ("al", "bo", "cy", "di")


async def a_pairing_in_the_referees_game(bot: Any, room_id: int, game_id: int) -> tuple[LeagueGame, str, str]:
    """An AutoBattler league of :data:`PLAYERS` started in ``room_id`` (seed 3) and past its draft, whose
    first two-player pairing plays in game ``game_id``, a game of the referee's own (seated): the game, and
    the pairing's first and second player (the tests' winner and loser). Its start lines are queued."""
    from cockatrice_ext.bot.league_options import LeagueOptions
    from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
    from cockatrice_ext.bot.referee import Context
    from cockatrice_ext.formats import autobattler as ab
    from cockatrice_ext.web.demo import seat_game

    room = AutoBattlerRoom(bot, LeagueOptions(format="autobattler", seed=3))
    bot.room_referees.append(room)
    for user in PLAYERS:
        assert await room.handle_command(Context(bot, "room", user, room_id=room_id), "!autobattler join")
    assert await room.handle_command(Context(bot, "room", PLAYERS[0], room_id=room_id), "!autobattler start")
    (league,) = room.leagues
    for player in PLAYERS:
        await league.perform(league.table.apply(ab.EndDraft(player=player)))
    match = next(m for m in league.engine.league.current_matches() if len(m.players) == 2)
    first, second = match.players
    stand_in = next(g for g in league.games.values() if set(g.players) == set(match.players))
    del league.games[stand_in.game_id]  # the pairing plays in a game of the referee's own
    seat_game(bot, game_id, [first, second])
    game = LeagueGame(bot, league, game_id, match.round, tuple(match.players))
    league.games[game_id] = game
    bot.adopt_game(game)
    return game, first, second
