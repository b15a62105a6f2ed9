"""In a Combat game rebuilt by ``!resume``, a player is known by name, not by the seat number they had.

Seen in a review: Combat asked whether a seat takes part by the engine's own player numbers, the seats of
the lost game. A rebuilt game gives new seats; the tests passed only because the two new seat numbers
happened to be the two old ones. Seated elsewhere (a spectator joined first, a player sat down and left),
a player of the game was told "you are not a player of this game", and ``!drop`` could not find them.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from cockatrice_ext.bot.combat import CombatReferee
from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.referee import Context


def rebuilt(seats: dict[int, str]) -> Any:
    """A rebuilt game's referee (engine players 1 and 2, ann and ben) whose mirror seats ``seats``."""
    referee = CombatReferee.__new__(CombatReferee)
    players = {
        seat: SimpleNamespace(name=name, spectator=name.startswith("watcher"), player_id=seat)
        for seat, name in seats.items()
    }
    mirror = SimpleNamespace(players=players, local_player_id=0)
    referee.__dict__.update(
        bot=SimpleNamespace(client=SimpleNamespace(games={12: mirror})),
        game_id=12,
        table=SimpleNamespace(engine=SimpleNamespace(config=SimpleNamespace(players=(1, 2)))),
        engine_names={1: "ann", 2: "ben"},
    )
    return referee


def test_players_seated_under_new_numbers_are_the_games_players() -> None:
    referee = rebuilt({0: "referee", 3: "watcher", 4: "ben", 5: "ann", 1: "cat"})
    assert referee.is_engine_player(5) and referee.is_engine_player(4)
    assert not referee.is_engine_player(1)  # seat 1 was ann's in the lost game; cat sits there now
    assert referee.require_player(Context(referee.bot, "game", "ann", game_id=12, player_id=5)) == 5
    with pytest.raises(NotAllowed, match="not a player of this game"):
        referee.require_player(Context(referee.bot, "game", "cat", game_id=12, player_id=1))
