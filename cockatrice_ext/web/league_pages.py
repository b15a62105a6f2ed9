"""Public league pages, live: standings, pairings, results, poison and treasures, the round's phase.

Theory of operation
-------------------
:func:`league_board` is the one view, a pure function of the league engine's state (Market Draft or
AutoBattler). It reads members, matches, points, poison, treasures and the phase, and never a card: no
pool, pack, shop, market or carousel is looked at, so no hidden card can reach a public page.

:class:`LeagueBoards` serves it at ``/league/N`` (N is the web view's number for the league, the same as
in its private links) with a server-sent-events stream at ``/league/N/events``, and lists the bot's
leagues on ``/``. The web view republishes the board whenever the league says it changed (the same hook
that refreshes its players' private pages); unchanged views are not resent. A league's standings chart
is ``/league/N/standings.svg`` (:mod:`cockatrice_ext.web.charts`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from aiohttp import web

from cockatrice_ext.bot.league_rooms import Lobby
from cockatrice_ext.bot.league_views import standings_rows
from cockatrice_ext.formats import autobattler as autobattler_rules
from cockatrice_ext.web.views import LEAGUE_TITLES, View, league_title

if TYPE_CHECKING:
    from cockatrice_ext.web.server import WebView


def _result(match: Any) -> str:
    """A match's result as the board says it: the winner, a draw, a bye, or still to play."""
    if len(match.players) == 1:
        return "bye"
    if not match.decided:
        return "to play"
    return "draw" if match.draw else f"{match.winner} won"


def _match(match: Any) -> View:
    return {"round": match.round, "players": list(match.players), "result": _result(match)}


def league_board(engine: Any, left: Collection[str] = ()) -> View:
    """The public state of a Market Draft or AutoBattler league (pure; no card of any kind).

    ``standings``: the table in order, each row's ``rank`` as ``!standings`` says it (players level on every
    tie-break share it, "T-2": :func:`~cockatrice_ext.bot.league_views.standings_rows`, the one reckoning),
    and its ``mark`` as ``!standings`` says it after the name: "left" for a member who left the league
    (``left``: the league's journaled list), "out" for one eliminated, else "".

    ``pairings``: the current round's matches, with their results so far; ``results``: every decided match
    (byes too), oldest first, from when it is recorded (so also between rounds, before the next pairings).
    Both from one reading of the league's matches, so they cannot disagree."""
    league = engine.league
    shown = [(match, _match(match)) for match in league.matches]
    board: View = {
        "format": engine.name,
        "phase": engine.phase,
        "round": league.round,
        "decided_rounds": league.round if league.round_done() else max(league.round - 1, 0),
        "pairings": [row for match, row in shown if match.round == league.round],
        "results": [row for match, row in shown if match.decided],
    }
    if isinstance(engine, autobattler_rules.AutoBattlerEngine):
        board.update(
            energy=engine.energy,
            games_played=engine.games_played,
            champion=engine.champion,
            carousel_turn=engine.whose_carousel_pick() or "",
            standings=[
                {
                    "rank": row["rank"],
                    "player": row["player"],
                    "poison": row["poison"],
                    "treasures": row["treasures"],
                    "out": row["player"] in engine.dead,
                    "mark": row["mark"],
                }
                for row in standings_rows(engine, left)
            ],
        )
    else:
        board.update(
            rounds=engine.config.rounds,
            turn=engine.whose_turn() or "",
            standings=[
                {k: row[k] for k in ("rank", "player", "points", "wins", "draws", "losses", "mark")}
                for row in standings_rows(engine, left)
            ],
        )
    return board


def league_summary(league: Any, number: int) -> View:
    """One row of the list on ``/``: number, title, state and members."""
    engine = league.engine
    state = "over" if league.over else f"{engine.phase}, round {engine.league.round}"
    return {
        "league": number,
        "title": league_title(league, number),
        "format": LEAGUE_TITLES[league.format_name],
        "status": state,
        "players": list(engine.league.members),
    }


def board_view(league: Any, number: int) -> View:
    """A league's public page: its summary and its board."""
    return {"summary": league_summary(league, number), "board": league_board(league.engine, league.left)}


class LeagueBoards:
    """The public league pages of one web view."""

    def __init__(self, view: WebView) -> None:
        self.view = view

    def routes(self) -> list[web.RouteDef]:
        """A league's public page and its stream."""
        return [
            web.get(r"/league/{league:\d{1,9}}", self._page),
            web.get(r"/league/{league:\d{1,9}}/events", self._events),
        ]

    def running(self) -> dict[int, Any]:
        """Every league this bot referees, by the web view's number (leagues restored at start-up too; not
        the lobbies, whose pages are their members' alone)."""
        for referee in self.view.bot.private_referees:
            if getattr(referee, "format_name", None) in LEAGUE_TITLES:
                self.view._league_number(referee)
        return {n: league for n, league in sorted(self.view.leagues.items()) if not isinstance(league, Lobby)}

    def summaries(self) -> list[View]:
        """The leagues' rows of the list on ``/``."""
        return [league_summary(league, number) for number, league in self.running().items()]

    def league(self, request: web.Request) -> tuple[int, Any]:
        """The league a request names, or 404."""
        number = int(request.match_info["league"])
        league = self.running().get(number)
        if league is None:
            raise web.HTTPNotFound()
        return number, league

    def publish(self, number: int) -> None:
        """Send the league's board to its open public pages (the web view calls this when it changed)."""
        league = self.view.leagues[number]
        self.view._publish(("board", number), lambda: board_view(league, number))

    async def _page(self, request: web.Request) -> web.Response:
        number, league = self.league(request)
        return self.view._html("league-board", league_title(league, number))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        number, league = self.league(request)
        return await self.view._stream(request, ("board", number), lambda: board_view(league, number))
