"""Public league pages: the pure board view (never a card) and its live page, served by aiohttp in front of
a real league referee (no Servatrice; the helpers of ``test_league_pages``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from formats.test_autobattler import end_draft, play_round
from formats.test_autobattler import make_engine as make_autobattler
from formats.test_market import finish_draft, make_engine, to_market
from reports.test_charts import svg_lines, svg_texts
from sse_events import events
from test_league_pages import AUTOBATTLERS, League, run_league, settle

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats.autobattler import EndDraft
from cockatrice_ext.formats.league import Start
from cockatrice_ext.web.league_pages import league_board

FAST = {"requests_per_second": 1000.0, "request_burst": 1000}


def names_shown(view: Any, cards: Any) -> set[str]:
    """The card names a view's JSON contains anywhere."""
    text = json.dumps(view)
    return {card.name for card in cards if json.dumps(card.name)[1:-1] in text}


def test_market_board_has_standings_pairings_results_and_no_card() -> None:
    engine = make_engine(n=3, r=2)
    engine.apply(Start(None))
    board = league_board(engine)
    assert board["phase"] == "draft" and board["round"] == 0 and board["pairings"] == []
    assert any(engine.pack(p) for p in engine.config.players)  # packs are open: none may show
    assert not names_shown(board, engine.config.cards)
    finish_draft(engine)
    to_market(engine)
    board = league_board(engine)
    assert board["phase"] == "market" and engine.market  # the market is open: no card of it either
    assert not names_shown(board, engine.config.cards)
    assert board["turn"] == engine.whose_turn() and board["rounds"] == 2
    assert [r["player"] for r in board["standings"]] == [r["player"] for r in engine.league.standings()]
    assert [r["points"] for r in board["standings"]] == [r["points"] for r in engine.league.standings()]
    results = {m["result"] for m in board["pairings"]}
    assert "bye" in results and any(r.endswith(" won") for r in results)  # three players: one bye


def test_autobattler_board_has_poison_treasures_and_earlier_results() -> None:
    engine = make_autobattler()
    engine.apply(Start(None))
    assert any(engine.shop(p) for p in engine.config.players)
    assert not names_shown(league_board(engine), engine.config.cards)
    end_draft(engine)
    play_round(engine)
    end_draft(engine)
    board = league_board(engine)
    assert not names_shown(board, engine.config.cards)
    assert {r["player"]: r["poison"] for r in board["standings"]} == engine.poison
    assert {r["player"]: r["treasures"] for r in board["standings"]} == engine.treasures
    assert (
        board["round"] == 2 and len(board["results"]) == 2 and all(m["round"] == 1 for m in board["results"])
    )
    assert [m["result"] for m in board["pairings"]] == ["to play", "to play"]
    assert board["energy"] == engine.energy and board["phase"] == engine.phase


def recorded(engine: Any) -> list[tuple[int, tuple[str, ...], str]]:
    """Every match the league core has decided (byes too), as the board says it, oldest first."""

    def said(match: core.Match) -> str:
        if len(match.players) == 1:
            return "bye"
        return "draw" if match.draw else f"{match.winner} won"

    return [(m.round, m.players, said(m)) for m in engine.league.matches if m.decided]


def results_shown(board: Any) -> list[tuple[int, tuple[str, ...], str]]:
    return [(m["round"], tuple(m["players"]), m["result"]) for m in board["results"]]


def test_autobattler_results_are_shown_as_soon_as_recorded_and_between_rounds() -> None:
    """A result is on the board's ``results`` once recorded: during its round (beside the pairings that
    say it) and after it while the next draft runs (the round is decided; no other round is paired yet)."""
    engine = make_autobattler()
    engine.apply(Start(None))
    end_draft(engine)
    assert league_board(engine)["results"] == []  # paired, nothing recorded yet
    first, second = engine.league.current_matches()
    engine.apply(core.ReportResult(None, winner=first.players[1]))
    board = league_board(engine)
    assert results_shown(board) == recorded(engine) == [(1, first.players, f"{first.players[1]} won")]
    engine.apply(core.ReportResult(None, draw=True, match_of=second.players[0]))
    board = league_board(engine)
    assert board["phase"] == "draft" and board["round"] == 1 and board["decided_rounds"] == 1
    assert results_shown(board) == recorded(engine) and len(board["results"]) == 2
    assert {(1, tuple(m["players"]), m["result"]) for m in board["pairings"]} == set(results_shown(board))
    assert "draw" in {m["result"] for m in board["results"]}
    assert not names_shown(board, engine.config.cards)


def test_market_results_are_shown_in_the_market_after_their_round() -> None:
    """Market Draft: the round's results (the bye too) are on the board while its market runs."""
    engine = make_engine(n=3, r=2)
    engine.apply(Start(None))
    finish_draft(engine)
    to_market(engine)
    board = league_board(engine)
    assert board["phase"] == "market" and board["round"] == 1 and board["decided_rounds"] == 1
    assert results_shown(board) == recorded(engine) and len(board["results"]) == 2
    assert "bye" in {m["result"] for m in board["results"]}


async def first_view(s: League, url: str) -> Any:
    async for kind, data in events(s.session, url):
        assert kind == "view"
        return data
    raise AssertionError("no view")


def test_league_board_page_is_listed_and_updates_live(tmp_path: Path) -> None:
    async def body(s: League) -> None:
        base = s.links["ann"].split("/league/")[0]
        listing = await first_view(s, base + "/events")
        [row] = listing["leagues"]
        assert row["players"] == list(AUTOBATTLERS) and row["status"].startswith("draft")
        board_url = f"{base}/league/{row['league']}"
        assert s.links["ann"].startswith(board_url + "/private/")  # the same number as the private pages
        async with s.session.get(board_url) as response:
            assert response.status == 200 and 'data-kind="league-board"' in await response.text()
        universe = s.league.block.facts
        stream = events(s.session, board_url + "/events")
        kind, view = await anext(stream)
        assert kind == "view" and view["board"]["phase"] == "draft"
        assert not names_shown(view, universe)
        for player in AUTOBATTLERS:  # every player ends the draft phase: the round's games are paired
            await s.league.perform(s.league.table.apply(EndDraft(player)))
        await settle(s.bot)
        kind, view = await asyncio.wait_for(anext(stream), 5)
        assert view["board"]["phase"] == "play" and len(view["board"]["pairings"]) == 2
        match = s.engine.league.current_matches()[0]
        await s.league.perform(s.league.table.apply(core.ReportResult(player=None, winner=match.players[0])))
        kind, view = await asyncio.wait_for(anext(stream), 5)
        shown = {tuple(m["players"]): m["result"] for m in view["board"]["pairings"]}
        assert shown[match.players] == f"{match.players[0]} won"
        assert results_shown(view["board"]) == [(1, match.players, f"{match.players[0]} won")]
        loser = match.players[1]
        assert next(r for r in view["board"]["standings"] if r["player"] == loser)["poison"] == 1
        assert not names_shown(view, universe)
        await stream.aclose()
        other = s.engine.league.current_matches()[1]  # the round is decided: the chart has its first point
        await s.league.perform(s.league.table.apply(core.ReportResult(player=None, winner=other.players[0])))
        async with s.session.get(board_url + "/standings.svg") as response:
            assert response.status == 200 and response.content_type == "image/svg+xml"
            svg = await response.read()
            assert set(AUTOBATTLERS) <= set(svg_texts(svg)) and svg_lines(svg) == len(AUTOBATTLERS)
            assert f"AutoBattler league #{row['league']}: poison by round" in svg_texts(svg)
            assert not names_shown(svg_texts(svg), universe)
        async with s.session.get(f"{base}/league/99") as response:
            assert response.status == 404

    run_league(tmp_path, body, LeagueOptions(format="autobattler", seed=11), AUTOBATTLERS, **FAST)


def test_a_member_who_left_is_marked_left_in_the_board_and_the_pages_standings(tmp_path: Path) -> None:
    """``!standings`` said "cy 0 (0-0-0) (left)" for a member who left the league (``!leave confirm``), while
    the public board and the others' pages listed cy like everyone else. Both take the mark from the same
    standings rows as chat (``standings_rows``), with the league's journaled ``left``."""
    from cockatrice_ext.bot.referee import Context

    async def body(s: League) -> None:
        board_url = s.links["al"].split("/private/")[0]
        answers: list[str] = []

        async def answer(line: Any) -> None:
            answers.append(str(line() if callable(line) else line))

        ctx = Context(s.bot, "private", "cy", reply_hook=answer)
        assert await s.league.handle_command(ctx, "!leave confirm")
        await settle(s.bot)
        assert answers and answers[0].startswith("You left"), answers
        view = await first_view(s, board_url + "/events")
        marks = {r["player"]: r["mark"] for r in view["board"]["standings"]}
        assert marks == {"al": "", "bo": "", "cy": "left"}, marks
        desk = (await s.view("al"))["private"]
        assert {r["player"]: r["mark"] for r in desk["standings"]} == marks
        assert "cy 0 (0-0-0) (left)" in s.league.standings_line()  # chat says the same mark

    run_league(tmp_path, body, LeagueOptions(format="market", rounds=2, seed=5), ("al", "bo", "cy"), **FAST)


def test_an_autobattler_board_marks_left_and_out_as_standings_does() -> None:
    engine = make_autobattler()
    engine.apply(Start(None))
    engine.dead.append(engine.league.members[0])
    gone = engine.league.members[1]
    board = league_board(engine, left={gone})
    marks = {r["player"]: r["mark"] for r in board["standings"]}
    assert marks[engine.league.members[0]] == "out" and marks[gone] == "left"
    assert {marks[p] for p in engine.league.members[2:]} == {""}
