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
