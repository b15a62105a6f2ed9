"""Byes do not go to the first joiners: a league's seats are drawn at random from its seed (journaled, so a
restore keeps them), and a start whose rounds cannot share the byes evenly says who gets how many."""

from __future__ import annotations

import asyncio

from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Journal, Table
from tests.bot.test_league_bot import _ChattyBot, block_of, market_cards

JOINED = ["ada", "bea", "cy"]


def started(seed: int, rounds: int = 5) -> tuple[LeagueReferee, _ChattyBot]:
    """A three-player Market league started from a lobby joined in the order ada, bea, cy."""
    bot = _ChattyBot(Journal(":memory:"))
    cards = market_cards(players=3, rounds=rounds)
    block = block_of(mk.MarketDraftEngine(mk.MarketConfig(players=("a", "b"), rounds=1, cards=cards), seed=1))
    options = LeagueOptions(format="market", rounds=rounds, seed=seed)
    league = asyncio.run(LeagueReferee.create(bot, 0, options, block, list(JOINED)))  # type: ignore[arg-type]
    asyncio.run(league.begin())
    return league, bot


def first_bye(league: LeagueReferee) -> str:
    members = league.engine.league.members
    return next(pair[0] for pair in core.round_robin_pairings(members, 0) if len(pair) == 1)


def test_the_first_joiner_does_not_always_get_the_first_bye() -> None:
    byes = {first_bye(started(seed)[0]) for seed in range(12)}
    assert byes != {"ada"} and len(byes) >= 2


def test_uneven_byes_are_said_at_the_start() -> None:
    league, bot = started(seed=4)
    counts = core.bye_counts(league.engine.league.members, 5)
    assert sorted(counts.values()) == [1, 2, 2]
    start = next(line for line in bot.said if "starts:" in line)
    given = ", ".join(f"{m} {n}" for m, n in counts.items())
    assert f"Byes (a win) cannot be shared evenly over 5 rounds: {given}." in start


def test_even_byes_are_not_mentioned() -> None:
    _, bot = started(seed=4, rounds=3)
    start = next(line for line in bot.said if "starts:" in line)
    assert "Byes" not in start


def test_a_journal_of_a_league_seated_in_join_order_restores_in_that_order() -> None:
    """Leagues journaled before seats were shuffled keep their join order (the config holds it)."""
    journal = Journal(":memory:")
    cards = market_cards(players=3, rounds=5)
    engine = mk.MarketDraftEngine(mk.MarketConfig(players=tuple(JOINED), rounds=5, cards=cards), seed=4)
    meta = {
        "kind": "league",
        "format": "market",
        "options": {"format": "market", "rounds": 5, "seed": 4},
        "room_id": 0,
        "block": "test",
        "game_names": list(block_of(engine).game_names),
        "games": {},
    }
    table = Table.create(journal, "ws://test:league:0:market:1", engine, meta=meta)
    table.apply(core.Start(player=None))
    table.apply(core.Pick(player="ada", card=engine.pack("ada")[0]))
    league = asyncio.run(LeagueReferee.restore(_ChattyBot(journal), table.key))  # type: ignore[arg-type]
    assert league.engine.league.members == JOINED
    assert league.engine.snapshot() == engine.snapshot()
