"""Which game a private line is about: a player in two conversations with the referee reads the mark."""

from __future__ import annotations

from types import SimpleNamespace

from cockatrice_ext.bot.combat import CombatReferee
from cockatrice_ext.bot.referee import GameReferee


def referee(game_id: int, players: set[str], bot: object) -> GameReferee:
    found = CombatReferee.__new__(CombatReferee)
    found.game_id, found.bot = game_id, bot
    found.finished, found.closed = "", False
    found.is_at_table = lambda name: name in players  # type: ignore[method-assign]
    return found


def league(members: set[str]) -> SimpleNamespace:
    return SimpleNamespace(is_member=lambda name: name in members)


def test_a_game_line_names_its_game_when_its_player_is_also_in_a_league() -> None:
    """Seen: a Combat hand ("Your hand: 1. Rancor; ...") merged after an AutoBattler shop line read as the
    AutoBattler hand. A player in a league of the referee is told which game a game's private line is about;
    one in this game alone is not; a league's own game speaks for its league (no mark)."""
    running = league({"alice"})
    bot = SimpleNamespace(all_games=lambda: {}, private_referees=[running])
    combat = referee(3, {"alice", "bob"}, bot)
    bot.all_games = lambda: {3: combat}
    assert combat.game_mark("alice") == "#3: "
    assert combat.game_mark("bob") == ""
    assert combat.game_mark("carol") == ""  # not at this table
    combat.league = running  # type: ignore[attr-defined]  # as a league's own game
    assert combat.game_mark("alice") == ""


def test_a_game_line_names_its_game_when_its_player_sits_in_another() -> None:
    bot = SimpleNamespace(all_games=lambda: {}, private_referees=[])
    first, second = referee(3, {"alice"}, bot), referee(4, {"alice", "bob"}, bot)
    bot.all_games = lambda: {3: first, 4: second}
    assert first.game_mark("alice") == "#3: " and second.game_mark("alice") == "#4: "
    assert second.game_mark("bob") == ""


def test_a_game_that_is_over_no_longer_marks_the_lines_of_another() -> None:
    """Seen in the field: a Vortex player's private lines kept their "#3: " for minutes after their other
    game (#1) had ended, while it stayed open for its players to leave."""
    bot = SimpleNamespace(all_games=lambda: {}, private_referees=[])
    over, going_on = referee(1, {"alice"}, bot), referee(3, {"alice"}, bot)
    bot.all_games = lambda: {1: over, 3: going_on}
    assert going_on.game_mark("alice") == "#3: "
    over.finished = "game over (alice wins)"
    assert going_on.game_mark("alice") == ""
    over.finished, over.closed = "", True
    assert going_on.game_mark("alice") == ""
