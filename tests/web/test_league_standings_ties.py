"""Players level on every tie-break share their place, on the public board and in ``!standings`` alike: both
listed them one after another as if ranked (by name), nothing saying they were even (only the end of a
league marked ties). One reckoning
(``league_views.standings_rows``) gives each row its rank ("T-2": tied for second); the page shows it in a
Place column and the chat line leads each player with it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from formats.test_autobattler import end_draft, play_round
from formats.test_autobattler import make_engine as make_autobattler
from formats.test_market import finish_draft, make_engine, to_market
from test_league_pages import settle
from test_page_behaviour import Served, until

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.formats import league as core
from cockatrice_ext.journal import Journal, Table
from cockatrice_ext.web.league_pages import league_board
from tests.bot.test_league_bot import _ChattyBot, block_of


def chat_ranks(league: LeagueReferee) -> list[tuple[str, str]]:
    """``(rank, player)`` as the ``!standings`` line says them, in its order."""
    _, rows = league.standings_line().split(": ", 1)
    return [(m.group(1), m.group(2)) for m in re.finditer(r"(?:^|, )(T-\d+|\d+)\. (\S+) ", rows)]


def board_ranks(engine: Any) -> list[tuple[str, str]]:
    return [(row["rank"], row["player"]) for row in league_board(engine)["standings"]]


def referee_of(engine: Any, fmt: str) -> LeagueReferee:
    bot = _ChattyBot(Journal(":memory:"))
    table = Table.create(bot.journal, f"ws://test:league:0:{fmt}:1", engine)
    return LeagueReferee(bot, 0, LeagueOptions(format=fmt), block_of(engine), table)  # type: ignore[arg-type]


def test_market_players_level_on_points_share_a_place() -> None:
    """Three players: a win, a bye (a win too) and a loss: the winner and the bye are level, tied for first;
    the loser is third, not second. Before any game all three are tied for first."""
    engine = make_engine(n=3, r=2)
    engine.apply(core.Start(None))
    league = referee_of(engine, "market")
    assert board_ranks(engine) == chat_ranks(league) == [("T-1", p) for p in sorted(engine.config.players)]
    finish_draft(engine)
    to_market(engine)
    (game,) = [m for m in engine.league.current_matches() if len(m.players) == 2]
    (bye,) = [m.players[0] for m in engine.league.current_matches() if len(m.players) == 1]
    winner, loser = game.winner, game.opponent(game.winner)
    expected = [("T-1", p) for p in sorted((winner, bye))] + [("3", loser)]
    assert board_ranks(engine) == chat_ranks(league) == expected
    assert league.standings_line().startswith(f"Round 1 of 2: T-1. {min(winner, bye)} 2 (1-0-0), T-1. ")


def test_market_players_on_the_same_points_are_tied_as_the_final_line_says() -> None:
    """The write-up names no tie-break: the same points are a shared place whatever the wins (a win and a loss
    against two draws), as the league's final line marks them (``points_table``), so ``!standings`` after
    the end does not contradict it."""
    from cockatrice_ext.bot.league_views import points_table, standings_rows

    rows = [
        {"player": "al", "points": 4, "wins": 2, "draws": 0, "losses": 1},
        {"player": "bo", "points": 2, "wins": 1, "draws": 0, "losses": 2},
        {"player": "cy", "points": 2, "wins": 0, "draws": 2, "losses": 1},
    ]

    class Standings:  # just enough of a Market engine for the reckoning
        league = type("L", (), {"standings": staticmethod(lambda: rows)})

    ranked = [(r["rank"], r["player"]) for r in standings_rows(Standings())]  # type: ignore[arg-type]
    assert ranked == [("1", "al"), ("T-2", "bo"), ("T-2", "cy")]
    assert points_table([(r["player"], r["points"]) for r in rows]) == "al 4, bo 2, cy 2 (tied)"


def test_autobattler_players_on_the_same_poison_share_a_place() -> None:
    engine = make_autobattler()
    engine.apply(core.Start(None))
    league = referee_of(engine, "autobattler")
    assert board_ranks(engine) == chat_ranks(league) and {r for r, _ in board_ranks(engine)} == {"T-1"}
    end_draft(engine)
    play_round(engine)  # two losers with one poison each
    ranks = [rank for rank, _ in board_ranks(engine)]
    assert ranks == ["T-1", "T-1", "T-3", "T-3"], ranks
    assert board_ranks(engine) == chat_ranks(league)
    assert [r["place"] for r in engine.standings()] == [1, 1, 3, 3]  # the engine's own places


def test_the_page_shows_the_place_column_as_the_chat_says_it(
    browser: Any, served: Callable[..., Served]
) -> None:
    """The public board in a real browser: a Place column whose cells are the ranks ``!standings`` gives."""
    one = served("ann", "bob", "cid")
    league = one.s.league

    async def play_round_one() -> None:
        engine = league.engine
        while engine.phase == "draft":
            for player in engine.config.players:
                if pack := engine.pack(player):
                    await league.perform(league.table.apply(core.Pick(player=player, card=pack[0])))
        (game,) = [m for m in engine.league.current_matches() if len(m.players) == 2]
        await league.perform(league.table.apply(core.ReportResult(player=None, winner=game.players[0])))
        await settle(one.s.bot)

    one.run(play_round_one())
    expected = chat_ranks(league)
    assert [rank for rank, _ in expected] == ["T-1", "T-1", "3"], expected
    browser.get(one.s.links["ann"].split("/private/")[0])
    until(browser, "return document.querySelectorAll('#standings tbody tr').length === 3", "the standings")
    until(
        browser,
        "return document.querySelector('#standings tbody tr:last-child td').textContent === '3'",
        "ranks",
    )
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#standings tbody tr')]"
        ".map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent])"
    )
    headers = browser.execute_script(
        "return [...document.querySelectorAll('#standings thead th')].map((th) => th.textContent)"
    )
    assert headers[:2] == ["Place", "Player"], headers
    assert [tuple(row) for row in shown] == expected, shown
