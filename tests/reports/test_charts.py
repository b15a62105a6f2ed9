"""Charts from the journal: the series folded from effects, the SVG drawn from them, ``stats chart``."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner
from formats.test_autobattler import CUBE, end_draft, play_round
from formats.test_autobattler import make_engine as make_autobattler
from formats.test_market import balanced_cards, finish_draft, to_market
from reports.test_prices import CREATURE, play_one_game

from cockatrice_ext.cli import main
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.formats.league import Start
from cockatrice_ext.formats.market import MarketConfig, MarketDraftEngine
from cockatrice_ext.journal import Journal, JournalError, Table
from cockatrice_ext.reports import charts
from cockatrice_ext.reports.history import (
    card_sales,
    chartable_tables,
    gold_series,
    standings_series,
    table_title,
)

SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(svg: bytes) -> list[str]:
    """Every text of a chart (titles, ticks, legend), from the parsed SVG (text is kept as text)."""
    root = ElementTree.fromstring(re.sub(rb"<!DOCTYPE[^>]*>", b"", svg))
    assert root.tag == f"{SVG}svg"
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


def svg_lines(svg: bytes) -> int:
    """How many data lines the chart draws (each is a ``series-N`` group with a path)."""
    root = ElementTree.fromstring(re.sub(rb"<!DOCTYPE[^>]*>", b"", svg))
    return sum(
        1
        for group in root.iter(f"{SVG}g")
        if group.get("id", "").startswith("series-") and group.find(f"{SVG}path") is not None
    )


def auction_game(journal: Journal, key: str) -> None:
    """Alice (1) buys a creature for 4 gold; both players are named in the table's meta, as the bot does."""
    config = rules.AuctionConfig(players=(1, 2), cards=(CREATURE, CREATURE), shuffle_block=False)
    meta = {"format": "auction", "names": {"1": "alice", "2": "bob"}}
    table = Table.create(journal, key, rules.AuctionEngine(config, seed=1), meta=meta)
    table.apply(rules.BeginTurn(player=None, active=1))
    table.apply(rules.StartAuctionStep(player=None))
    table.apply(rules.Bid(player=1, amount=4))
    table.apply(rules.Pass(player=2))
    table.apply(rules.Keep(player=1))
    table.apply(rules.EndTurn(player=None))


def market_league(journal: Journal, key: str) -> MarketDraftEngine:
    """Three players, two rounds played: results through the journal, as the league referee applies them."""
    players = ("ann", "bob", "cat")
    config = MarketConfig(players=players, rounds=2, cards=balanced_cards(3, 2, extra=5))
    table = Table.create(journal, key, MarketDraftEngine(config, seed=5), meta={"kind": "league"})
    engine: MarketDraftEngine = table.engine  # type: ignore[assignment]
    table.apply(Start(None))
    journaled = Journaled(table)
    finish_draft(journaled)  # type: ignore[arg-type]
    to_market(journaled)  # type: ignore[arg-type]
    return engine


class Journaled:
    """An engine stand-in whose ``apply`` goes through the journal (the test helpers call ``apply``)."""

    def __init__(self, table: Table) -> None:
        self._table = table

    def __getattr__(self, name: str) -> object:
        return getattr(self._table.engine, name)

    def apply(self, action: object) -> object:
        return self._table.apply(action)  # type: ignore[arg-type]


# -- series -----------------------------------------------------------------------------------------


def test_card_sales_in_game_order(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    play_one_game(journal, "g1", price=3, seed=1)
    play_one_game(journal, "g2", price=5, seed=2)
    sales = card_sales(journal, "chimney imp")
    assert [(s.game, s.price) for s in sales] == [("g1", 3.0), ("g2", 5.0)]
    assert card_sales(journal, "Orcish Oriflamme") == []  # offered, never sold


def test_gold_series_follows_gold_changes(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    auction_game(journal, "g1")
    series = gold_series(journal, "g1")
    assert set(series) == {"alice", "bob"}
    alice, bob = series["alice"], series["bob"]
    assert alice[0][1] == 10 and 6 in [y for _, y in alice]  # paid 4 of her 10
    assert [x for x, _ in alice] == sorted(x for x, _ in alice)
    assert alice[-1][1] == 9 and bob[-1][1] == 13  # the end-of-turn income of 3
    with pytest.raises(JournalError):
        gold_series(journal, "nope")


def test_market_standings_by_round(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    engine = market_league(journal, "league")
    metric, series = standings_series(journal, "league")
    assert metric == "points"
    assert all(len(points) == 1 for points in series.values())  # one round decided
    assert {p: pts[-1][1] for p, pts in series.items()} == {
        row["player"]: row["points"] for row in engine.league.standings()
    }


def test_autobattler_poison_by_round(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    table = Table.create(journal, "ab", make_autobattler(), meta={"kind": "league"})
    journaled = Journaled(table)
    table.apply(Start(None))
    for _ in range(3):
        end_draft(journaled)  # type: ignore[arg-type]
        play_round(journaled)  # type: ignore[arg-type]
    metric, series = standings_series(journal, "ab")
    assert metric == "poison"
    assert [x for x, _ in series["ann"]] == [1, 2, 3]
    assert {p: pts[-1][1] for p, pts in series.items()} == table.engine.poison  # type: ignore[attr-defined]
    assert sum(pts[0][1] for pts in series.values()) == 2  # two losers of the first round, one poison each
    with pytest.raises(JournalError):
        play_one_game(journal, "g", price=1, seed=1)
        standings_series(journal, "g")  # an auction game is no league
    assert [(k, e) for k, e, _ in chartable_tables(journal)] == [("g", "auction"), ("ab", "autobattler")]


# -- SVG --------------------------------------------------------------------------------------------


def test_charts_are_svg_with_their_series(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    auction_game(journal, "g1")
    gold = charts.gold_chart("g1", gold_series(journal, "g1"))
    texts = svg_texts(gold)
    assert "alice" in texts and "bob" in texts and "Gold over g1" in texts
    assert svg_lines(gold) == 2
    assert gold == charts.gold_chart("g1", gold_series(journal, "g1"))  # same data, same bytes
    price = charts.price_chart("Chimney Imp", card_sales(journal, "Chimney Imp"))
    assert "Chimney Imp: auction prices" in svg_texts(price) and svg_lines(price) == 1
    empty = charts.standings_chart("L", "points", {"ann": []})
    assert "nothing recorded yet" in svg_texts(empty) and svg_lines(empty) == 0


def test_names_are_text_not_markup() -> None:
    """A "$" starts no math mode; "<" and "&" are escaped in the SVG."""
    svg = charts.gold_chart("g", {"$x$ <b>&": [(0, 1.0), (1, 2.0)]})
    assert "$x$ <b>&" in svg_texts(svg)


def test_league_chart_shows_no_card(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    engine = market_league(journal, "league")
    svg = charts.standings_chart("league", *standings_series(journal, "league"))
    names = {card.name for card in engine.config.cards} | {card.name for card in CUBE}
    assert not names & set(svg_texts(svg))
    assert {"ann", "bob", "cat"} <= set(svg_texts(svg))


# -- the command line -------------------------------------------------------------------------------


def test_stats_chart_cli(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    auction_game(journal, "server:game:7")
    market_league(journal, "server:league:1:market:1")
    journal.close()
    runner = CliRunner()
    out = tmp_path / "gold.svg"
    result = runner.invoke(
        main, ["stats", "chart", "gold", "server:game:7", "--journal", str(path), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "alice" in svg_texts(out.read_bytes())
    result = runner.invoke(
        main,
        ["stats", "chart", "prices", "chimney imp", "--journal", str(path), "-o", str(tmp_path / "p.svg")],
    )
    assert result.exit_code == 0 and svg_lines((tmp_path / "p.svg").read_bytes()) == 1
    standings = tmp_path / "s.svg"
    args = [
        "stats",
        "chart",
        "standings",
        "server:league:1:market:1",
        "--journal",
        str(path),
        "-o",
        str(standings),
    ]
    assert runner.invoke(main, args).exit_code == 0 and svg_lines(standings.read_bytes()) == 3
    listing = runner.invoke(main, ["stats", "chart", "tables", "--journal", str(path)])
    assert (
        "server:game:7  auction  open" in listing.output
        and "server:league:1:market:1  market" in listing.output
    )


def test_charts_name_games_and_leagues_as_players_do(tmp_path: Path) -> None:
    """Smoke test: ``stats chart gold`` was titled "Gold over tcp://127.0.0.1:48101:game:1", the journal's
    key. A chart says the format, the number, the server and the day play began."""
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    auction_game(journal, "tcp://127.0.0.1:48101:game:1")
    auction_game(journal, "ws://h:4748/servatrice:game:3@1")
    market_league(journal, "tcp://127.0.0.1:48101:league:1:market:2")
    day = datetime.fromtimestamp(next(journal.entries("tcp://127.0.0.1:48101:game:1")).at).date().isoformat()
    assert (
        table_title(journal, "ws://h:4748/servatrice:game:3@1")
        == f"Auction Magic game #3@1 (h:4748/servatrice, {day})"
    )
    journal.close()
    runner = CliRunner()
    charted = [
        ("gold", "1", f"Gold over Auction Magic game #1 (127.0.0.1:48101, {day})"),
        ("standings", "2", f"Market Draft league #2 (127.0.0.1:48101, {day}): points by round"),
    ]
    for kind, subject, title in charted:
        out = tmp_path / f"{kind}.svg"
        result = runner.invoke(
            main, ["stats", "chart", kind, subject, "--journal", str(path), "-o", str(out)]
        )
        assert result.exit_code == 0, result.output
        texts = svg_texts(out.read_bytes())
        assert title in texts and not any("tcp://" in text for text in texts)
    listing = runner.invoke(main, ["stats", "chart", "tables", "--journal", str(path)]).output
    assert (
        f"tcp://127.0.0.1:48101:game:1  auction  open  Auction Magic game #1 (127.0.0.1:48101, {day})"
        in listing
    )


def test_a_title_without_a_key_the_bot_made(tmp_path: Path) -> None:
    """A table the bot did not key (tests, imports) is named by its key; a Commander Auction as one."""
    journal = Journal(tmp_path / "j.sqlite3")
    config = rules.AuctionConfig(players=(1, 2), cards=(CREATURE, CREATURE), shuffle_block=False)
    meta = {"format": "auction", "options": {"commander": True}}
    Table.create(journal, "mine", rules.AuctionEngine(config, seed=1), meta=meta)
    assert table_title(journal, "mine") == "Commander Auction mine"  # no action yet: no day
    with pytest.raises(JournalError):
        table_title(journal, "nope")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gold", "server:game:9"], "no table"),
        (["standings", "server:game:7"], "is not a league"),
        (["prices", "Nothing Card"], "never sold"),
    ],
)
def test_stats_chart_refusals(tmp_path: Path, args: list[str], message: str) -> None:
    path = tmp_path / "j.sqlite3"
    auction_game(Journal(path), "server:game:7")
    out = tmp_path / "x.svg"
    result = CliRunner().invoke(main, ["stats", "chart", *args, "--journal", str(path), "-o", str(out)])
    assert result.exit_code == 2 and message in result.output and not out.exists()


def test_stats_chart_never_writes_over_a_folder(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    auction_game(Journal(path), "g")
    folder = tmp_path / "folder.svg"
    folder.mkdir()
    result = CliRunner().invoke(
        main, ["stats", "chart", "gold", "g", "--journal", str(path), "-o", str(folder)]
    )
    assert result.exit_code == 2 and folder.is_dir()
    missing = CliRunner().invoke(
        main, ["stats", "chart", "gold", "g", "--journal", str(tmp_path / "no"), "-o", "x"]
    )
    assert missing.exit_code == 2 and "no journal" in missing.output


def test_a_game_is_named_by_its_number_when_one_table_has_it(tmp_path: Path) -> None:
    """``stats chart gold 7`` (or ``#7``) is the journal's one game 7; when two servers' games share the
    number, both keys are listed to choose from; an unknown one points at ``stats chart tables``."""
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    auction_game(journal, "ws://a:4748/servatrice:game:7")
    auction_game(journal, "ws://a:4748/servatrice:game:8")
    auction_game(journal, "tcp://b:4747:game:8")
    journal.close()
    runner = CliRunner()
    for subject in ("7", "#7"):
        out = tmp_path / f"{subject}.svg"
        result = runner.invoke(
            main, ["stats", "chart", "gold", subject, "--journal", str(path), "-o", str(out)]
        )
        assert result.exit_code == 0, result.output
        assert "alice" in svg_texts(out.read_bytes())
    result = runner.invoke(main, ["stats", "chart", "gold", "8", "--journal", str(path), "-o", "x.svg"])
    assert result.exit_code == 2 and "ws://a:4748/servatrice:game:8, tcp://b:4747:game:8" in result.output
    result = runner.invoke(main, ["stats", "chart", "gold", "9", "--journal", str(path), "-o", "x.svg"])
    assert result.exit_code == 2 and "`stats chart tables` lists its games and leagues" in result.output
