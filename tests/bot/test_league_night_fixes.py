"""What an 8-player AutoBattler and a 6-player Market night taught (a newcomer, a screen-reader user, a
crash tester): the AutoBattler's end names every place, a member who left is no Ghost, the lands' place, one
room line per draft phase, a restart's word to everyone, answers that say what to do, ties marked."""

from __future__ import annotations

import asyncio
from typing import Any

from cockatrice_ext.bot import league_views
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_private_commands import market_closed
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_views import render_effects
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Journal, Table
from tests.bot.test_league_bot import (
    _ChattyBot,
    autobattler_engine,
    card,
    journaled_market_league,
    league_desk,
    market_cards,
    market_engine,
    say,
)

EIGHT = ("a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4")


def journaled_autobattler(journal: Journal) -> Table:
    """A started four-player AutoBattler league in ``journal``, with the metadata the bot writes."""
    cards = tuple(card(f"Cube {i}", "common", ("WUBRG"[i % 5],)) for i in range(80))
    engine = ab.AutoBattlerEngine(ab.AutoBattlerConfig(players=("a", "b", "c", "d"), cards=cards), seed=9)
    meta = {
        "kind": "league",
        "format": "autobattler",
        "options": {"format": "autobattler"},
        "room_id": 0,
        "block": "test",
        "game_names": [c.name for c in cards],
        "games": {},
    }
    table = Table.create(journal, "ws://test:league:0:autobattler:1", engine, meta=meta)
    table.apply(core.Start(player=None))
    return table


def eight_player_engine() -> ab.AutoBattlerEngine:
    cards = tuple(card(f"Cube {i}", "common", ("WUBRG"[i % 5],)) for i in range(200))
    engine = ab.AutoBattlerEngine(ab.AutoBattlerConfig(players=EIGHT, cards=cards), seed=5)
    engine.apply(core.Start(player=None))
    return engine


# -- 1. the end names every place ---------------------------------------------------------------------


def test_the_autobattler_end_tells_every_player_their_place() -> None:
    """The room heard only "ab1_n beats ab5_n. ab1_n is the champion!": players 2-8 never learnt their
    place. The end line lists the engine's standings (champion, finalist, the dead last eliminated first)."""
    engine = eight_player_engine()
    engine.dead[:] = ["a4", "b4", "a3", "b3", "a2", "b2"]  # in order of elimination
    engine.champion = "a1"
    out = render_effects([ab.ChampionDecided("a1")], engine)
    (line,) = out.public
    assert line == (
        "a1 is the champion! Final standings: 1. a1, 2. b1, 3. b2, 4. a2, 5. b3, 6. a3, 7. b4, 8. a4."
    ), line
    assert [r["player"] for r in engine.standings()] == ["a1", "b1", "b2", "a2", "b3", "a3", "b4", "a4"]


def test_a_four_player_end_lists_the_places_once_after_the_winner_line() -> None:
    engine = autobattler_engine()
    engine.dead[:] = ["d", "b", "c"]
    engine.champion = "a"
    out = render_effects([ab.GroupWon(0, "a"), ab.ChampionDecided("a")], engine)
    assert out.public == ["a wins the league: the champion!", "Final standings: 1. a, 2. c, 3. b, 4. d."]


def test_the_end_line_keeps_to_the_room_line_budget_with_long_names() -> None:
    long_names = tuple(f"{'x' * 40}{n}" for n in range(8))
    cards = tuple(card(f"Cube {i}", "common", ("W",)) for i in range(200))
    engine = ab.AutoBattlerEngine(ab.AutoBattlerConfig(players=long_names, cards=cards), seed=5)
    engine.champion = long_names[0]
    (line,) = render_effects([ab.ChampionDecided(long_names[0])], engine).public
    assert len(line) <= 250 and line.startswith(f"{long_names[0]} is the champion! Final standings: ")


# -- 2. a member who left is no Ghost ---------------------------------------------------------------------


def test_leave_confirm_tells_the_engine_so_the_leaver_is_never_the_ghost() -> None:
    bot = _ChattyBot(Journal(":memory:"))
    table = journaled_autobattler(bot.journal)
    league = asyncio.run(LeagueReferee.restore(bot, table.key))  # type: ignore[arg-type]
    engine = league.engine
    say(league, bot, "d", "!leave confirm")
    assert engine.left == ["d"]
    restored = Table.restore(bot.journal, league.key)  # journaled: a restart keeps it
    assert restored.engine.left == ["d"]
    engine.poison["d"] = 9  # d loses the next game by forfeit, and dies first
    for player in ("a", "b", "c"):
        say(league, bot, player, "!done")
    assert engine.phase == "play"  # the referee ended d's draft at once
    bot.said.clear()
    asyncio.run(league.stand_in_due())  # d's game is forfeited; the other is played
    (match,) = [m for m in engine.league.current_matches() if not m.decided]
    effects = league.table.apply(core.ReportResult(player=None, winner=match.players[0]))
    asyncio.run(league.perform(effects))
    assert "d" in engine.dead and engine.ghosts == {}
    said = " ".join(bot.said)
    assert "d is eliminated." in said and "Ghost" not in said, said


def test_a_ghost_who_leaves_is_said_to_play_no_more() -> None:
    engine = autobattler_engine()
    out = render_effects([ab.MemberLeft("d", True)], engine)
    assert out.public == ["d, the Ghost, left the league: no Ghost plays on."]
    assert render_effects([ab.MemberLeft("d", False)], engine).public == []


# -- 3. where the lands go ----------------------------------------------------------------------------------


def test_deckbuilding_and_the_game_start_say_the_lands_start_on_the_battlefield() -> None:
    engine = autobattler_engine()
    effects: list[Any] = []
    for player in ("a", "b", "c", "d"):
        effects += engine.apply(ab.EndDraft(player=player))
    out = render_effects(effects, engine)
    deck = next(line for line in out.private["a"] if line.startswith("Deck: "))
    assert "plus 3 basic lands, which start on the battlefield;" in deck, deck
    setup = next(e for e in effects if isinstance(e, ab.MatchSetup))
    league, _bot = league_desk(LeagueOptions(format="autobattler"), autobattler_engine())
    asyncio.run(league.perform([setup]))
    note = league.setup_notes[(setup.round, frozenset(setup.players))]
    assert note.endswith(
        "Hand 3, life 10, no library; your basic lands and treasures start on the battlefield."
    )


# -- 4. one room line per draft phase ----------------------------------------------------------------------


def test_a_draft_phase_posts_one_waiting_line_not_one_per_finisher() -> None:
    engine = eight_player_engine()
    public: list[str] = []
    private: list[str] = []
    for player in EIGHT:
        out = render_effects(engine.apply(ab.EndDraft(player=player)), engine)
        public += [text for line in out.public if (text := line() if callable(line) else line)]
        private += [str(line) for line in out.private.get(player, [])]
    assert not any("has finished drafting" in line for line in public), public
    assert public[0] == "Waiting for b3 and b4 to finish drafting.", public
    assert sum(line.startswith("Waiting for") for line in public) == 1
    assert "Draft over. Energy 3: build your mini-game decks." in public
    assert private[0] == "You are done drafting this phase (1 of 8 done)."
    assert not any("/8" in line for line in public + private)


def test_the_waiting_line_names_who_is_left_when_it_leaves() -> None:
    engine = autobattler_engine()
    engine.apply(ab.EndDraft(player="a"))
    (line,) = render_effects(engine.apply(ab.EndDraft(player="b")), engine).public
    assert line() == "Waiting for c and d to finish drafting."  # type: ignore[operator]
    engine.apply(ab.EndDraft(player="c"))
    assert line() == "Waiting for d to finish drafting."  # type: ignore[operator]
    engine.apply(ab.EndDraft(player="d"))
    assert line() is None  # type: ignore[operator]  # the phase's end line says it


def test_the_waiting_line_does_not_wait_for_a_member_who_left() -> None:
    """Seen on a night: "Waiting for ab3_r and ab4_r to finish drafting." when ab4_r had left (the referee
    moves for them): only those still playing are named; none left to name, no line."""
    engine = autobattler_engine()
    engine.apply(ab.LeaveLeague(player=None, target="d"))
    engine.apply(ab.EndDraft(player="a"))
    (line,) = render_effects(engine.apply(ab.EndDraft(player="b")), engine).public
    assert line() == "Waiting for c to finish drafting."  # type: ignore[operator]
    engine.apply(ab.EndDraft(player="c"))
    assert line() is None  # type: ignore[operator]  # only the leaver: the referee's move ends the phase


def test_standings_say_n_of_m_rounds() -> None:
    engine = market_engine(rounds=1)
    league, bot = league_desk(LeagueOptions(format="market"), engine)  # type: ignore[arg-type]
    assert say(league, bot, "al", "!standings")[0].startswith("Round 1 of 1: ")


# -- 5. after a restart, everyone hears where they stand ----------------------------------------------------


def test_after_a_restart_a_member_done_drafting_hears_whom_the_league_waits_for() -> None:
    journal = Journal(":memory:")
    table = journaled_autobattler(journal)
    table.apply(ab.EndDraft(player="a"))  # recorded just before the kill
    bot = _ChattyBot(journal)
    league = asyncio.run(LeagueReferee.restore(bot, table.key))  # type: ignore[arg-type]
    asyncio.run(league.tell_members_again())
    told = {line.split(": ", 1)[0]: line for line in bot.said}
    assert told["a"] == (
        "a: The referee is back: you are done drafting this phase; waiting for b, c and d to finish drafting."
    ), told
    assert set(told) == {"a", "b", "c", "d"}


# -- 6. a newcomer's snags ---------------------------------------------------------------------------------


def test_the_closed_market_says_when_it_opens() -> None:
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=3, cards=market_cards(2, 3)), seed=3
    )
    engine.apply(core.Start(player=None))
    assert engine.phase == "draft"
    assert market_closed(engine) == "the market is closed: it opens when round 1's games are over"
    assert "no market" in market_closed(market_engine(rounds=1))


def test_a_leftover_pick_after_the_draft_is_answered_once_with_the_game() -> None:
    journal = Journal(":memory:")
    table = journaled_market_league(journal, room_id=0, number=1)
    engine = table.engine
    while engine.phase == "draft":
        player = next(p for p in ("al", "bo") if engine.pack(p))
        table.apply(core.Pick(player=player, card=engine.pack(player)[0]))
    assert engine.phase == "play"
    bot = _ChattyBot(journal)
    league = asyncio.run(LeagueReferee.restore(bot, table.key))  # type: ignore[arg-type]
    answers = [say(league, bot, "al", "!pick 1") for _ in range(5)]
    assert answers[0] == ["al: the draft is over; your round 1 game vs bo opens soon (deck: !pool)"], answers
    assert answers[1:] == [[]] * 4


def test_the_league_typo_answer_is_the_one_every_scope_gives() -> None:
    engine = autobattler_engine()
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    assert say(league, bot, "a", "!shpo") == [
        "a: unknown command !shpo; did you mean !shop? !help lists the commands"
    ]


# -- 8. ties marked ----------------------------------------------------------------------------------------


def test_market_final_standings_mark_ties_without_a_tie_break() -> None:
    standings = (("mk1_n", 6), ("mk2_n", 4), ("mk4_n", 4), ("mk3_n", 0))
    assert league_views.points_table(standings) == "mk1_n 6, mk2_n 4, mk4_n 4 (tied), mk3_n 0"
    out = render_effects([mk.LeagueOver(standings)], market_engine(rounds=1))
    assert "Final standings (points): mk1_n 6, mk2_n 4, mk4_n 4 (tied), mk3_n 0." in out.public[0]
