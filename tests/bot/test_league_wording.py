"""League wording from a tester's 4- and 8-player games: plurals, lost treasures, the last market, what the
buyer's numbers are, a 4-player AutoBattler's winner, offered commands, eliminated players, the end."""

from __future__ import annotations

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_views import render_effects
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from tests.bot.test_league_bot import autobattler_engine, league_desk, market_engine, say


def test_treasures_lost_in_a_game_are_not_said_to_be_kept() -> None:
    engine = autobattler_engine()
    out = render_effects([ab.TreasuresChanged("a", 0, -2, "kept")], engine)
    assert out.private["a"] == ["Treasures: 0 (-2: no Treasure token on your battlefield at the game's end)."]
    out = render_effects([ab.TreasuresChanged("a", 3, 1, "kept")], engine)
    assert out.private["a"] == ["Treasures: 3 (+1, kept from the game)."]


def test_no_rare_is_said_to_stay_for_a_market_that_will_not_come() -> None:
    engine = market_engine(rounds=2)
    engine.apply(core.ReportResult(player=None, winner="al"))
    assert engine.phase == "market"
    effects: list = []
    while engine.phase == "market":
        effects = engine.apply(mk.Pass(player=engine.whose_turn()))
    closed = next(e for e in effects if isinstance(e, mk.MarketClosed))
    assert closed.old_rares and engine.league.round == 2  # the last round: no market follows it
    out = render_effects(effects, engine)
    assert "Market closed." in out.public and not any("stay for the next market" in p for p in out.public)


def test_the_market_league_end_names_its_winner_and_status_after_the_end_too() -> None:
    engine = market_engine(rounds=1)
    out = render_effects(engine.apply(core.ReportResult(player=None, winner="bo")), engine)
    assert any("League over! bo wins the league (2 points)." in line for line in out.public), out.public


def test_a_four_player_autobattler_group_is_the_league() -> None:
    engine = autobattler_engine()
    out = render_effects([ab.GroupWon(0, "c")], engine)
    assert out.public == ["c wins the league: the champion!"]


def test_help_lists_only_the_commands_the_leagues_options_offer() -> None:
    league, bot = league_desk(LeagueOptions(format="autobattler"), autobattler_engine())
    (line,) = say(league, bot, "a", "!help")
    assert "!swap" in line and "!basic" not in line and "!pick" not in line, line
    assert say(league, bot, "a", "!basic") == ["a: this league was started without permbasic, so no !basic"]


def test_an_eliminated_player_hears_they_are_out() -> None:
    engine = autobattler_engine()
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    engine.dead.append("d")
    engine.shops.pop("d", None)
    assert say(league, bot, "d", "!shop")[0].startswith("d: you are out of the league (eliminated)")
    assert "you are out of the league" in say(league, bot, "d", "!status")[0]


def test_status_after_the_end_names_the_winner() -> None:
    engine = market_engine(rounds=1)
    league, bot = league_desk(LeagueOptions(format="market"), engine)  # type: ignore[arg-type]
    engine.apply(core.ReportResult(player=None, winner="al"))
    league.over = True
    bot.private_referees.append(league)
    (line,) = say(league, bot, "bo", "!status")
    assert "is over: al wins the league (2 points); standings (points): al 2, bo 0" in line, line
