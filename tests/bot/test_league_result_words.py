"""League words from the closing list of the last session: a confirming ``!result`` that eliminates its
reporter or ends the league was answered only in the room; "sits this mini-game out" named no group; a
league game's ``!status`` and ``!help`` did not say how results are reported (its start line did); no
tie-break between AutoBattler players knocked out in the same mini-game; one merged message listed the same
shop twice (the draft phase's short shop line and its whole view, both waiting in a helper session's chat)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from league_game_stand_in import games_open_at_once as open_at_once
from test_league_lobby import ROOM, Chat, run_room

from cockatrice_ext.bot.chat import ChatScheduler, client_scheduler
from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
from cockatrice_ext.bot.league_views import render_effects
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.client.mirror import GameMirror
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.journal import Journal, Table
from tests.bot.test_chat_budget import FakeClient, run_simulated
from tests.bot.test_league_bot import (
    _FakeBot,
    block_of,
    card,
    fresh_autobattler,
    league_desk,
    market_engine,
    say,
)

FOUR = ("a", "b", "c", "d")
EIGHT = ("a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4")


@pytest.fixture(autouse=True)
def games_open_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    open_at_once(monkeypatch)


def knockout_league(players: tuple[str, ...] = FOUR) -> tuple[LeagueReferee, Any, ab.AutoBattlerEngine]:
    """A started AutoBattler league whose every loss is lethal (flat 10 poison), in its first mini-game."""
    cards = tuple(card(f"Cube {i}", "common", ("WUBRG"[i % 5],)) for i in range(240))
    engine = ab.AutoBattlerEngine(ab.AutoBattlerConfig(players=players, cards=cards, flat_poison=10), seed=9)
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    asyncio.run(league.perform(league.table.apply(core.Start(player=None))))
    for player in players:
        say(league, bot, player, "!done")
    assert engine.phase == "play"
    return league, bot, engine


def decide(league: LeagueReferee, match: core.Match) -> None:
    """The referee records ``match`` (its first player wins), as a game at 0 life does."""
    winner = match.players[0]
    asyncio.run(league.perform(league.table.apply(core.ReportResult(player=None, winner=winner))))


def confirm(league: LeagueReferee, bot: Any, match: core.Match) -> tuple[str, list[str]]:
    """The winner reports first, the loser confirms: the loser and what the confirmation told them."""
    winner, loser = match.players
    say(league, bot, winner, "!result win")
    told = say(league, bot, loser, "!result loss")
    return loser, [line.removeprefix(f"{loser}: ") for line in told if line.startswith(f"{loser}: ")]


# -- 1. a confirming !result is answered privately when no later private line will ------------------------


def test_a_confirmation_that_eliminates_its_reporter_is_answered_privately() -> None:
    league, bot, engine = knockout_league()
    first, last = engine.league.current_matches()
    decide(league, first)
    loser, told = confirm(league, bot, last)  # both losers die at once: no Ghost, so the reporter is out
    assert loser in engine.dead and not engine.is_ghost(loser)
    winner = last.players[0]
    assert told == [
        f"Noted: the result is in: {winner} beats {loser}. You are out of the league (eliminated); you may"
        " watch its games."
    ], told


def test_a_ghost_whose_run_the_confirmed_game_ends_is_answered_privately() -> None:
    """The Ghost plays until a second player dies: a Ghost confirming the mini-game's last result, when that
    second death comes with it, drafts and plays no more."""
    engine = fresh_autobattler(FOUR)
    league, bot = league_desk(LeagueOptions(format="autobattler"), engine)
    asyncio.run(league.perform(league.table.apply(core.Start(player=None))))
    for player in FOUR:
        say(league, bot, player, "!done")
    ghost = engine.league.current_matches()[0].players[1]
    engine.poison[ghost] = 9
    for match in engine.league.current_matches():
        decide(league, match)  # the ghost loses: dead first, the Ghost
    assert engine.is_ghost(ghost)
    for player in engine.active():
        say(league, bot, player, "!done")
    theirs = next(m for m in engine.league.current_matches() if ghost in m.players)
    other = next(m for m in engine.league.current_matches() if m is not theirs)
    engine.poison[other.players[1]] = 9
    decide(league, other)  # its loser dies with the last result: the second death
    winner = theirs.opponent(ghost)
    say(league, bot, winner, "!result win")
    told = [line for line in say(league, bot, ghost, "!result loss") if line.startswith(f"{ghost}: ")]
    assert not engine.is_ghost(ghost) and ghost not in engine.active()
    assert told == [
        f"{ghost}: Noted: the result is in: {winner} beats {ghost}. You are out of the league (eliminated);"
        " you may watch its games."
    ], told


def test_a_confirmation_that_ends_the_league_is_answered_privately() -> None:
    league, bot, engine = knockout_league()
    for match in engine.league.current_matches():
        decide(league, match)
    for player in engine.active():
        say(league, bot, player, "!done")
    (final,) = engine.league.current_matches()
    loser, told = confirm(league, bot, final)
    assert engine.is_over() and engine.champion == final.players[0]
    assert told == [
        f"Noted: the result is in: {final.players[0]} beats {loser}. The league is over:"
        f" {final.players[0]} is the champion; !standings shows every place."
    ], told


def test_a_confirmation_that_wins_a_group_of_eight_is_answered_privately() -> None:
    """The other group plays on (its loser survives this time): the group's winner waits for the final."""
    league, bot, engine = knockout_league(EIGHT)
    for match in engine.league.current_matches():
        decide(league, match)  # four die at once: two left in each group, no Ghost
    for player in engine.active():
        say(league, bot, player, "!done")
    first, last = engine.league.current_matches()
    engine.poison[first.players[1]] = -5  # their loss leaves them at 5: their group has no winner yet
    decide(league, first)
    winner, loser = last.players
    say(league, bot, loser, "!result loss")
    told = [line for line in say(league, bot, winner, "!result win") if line.startswith(f"{winner}: ")]
    assert engine.group_winners == {engine.group_of(winner): winner} and engine.phase == "draft"
    group = engine.group_of(winner) + 1
    assert told == [
        f"{winner}: Noted: the result is in: {winner} beats {loser}. You win group {group}: your final"
        " follows once the other group has a winner."
    ], told


def test_a_market_confirmation_that_ends_the_league_is_answered_privately() -> None:
    engine = market_engine(rounds=1)
    league, bot = league_desk(LeagueOptions(format="market", rounds=1), engine)  # type: ignore[arg-type]
    say(league, bot, "al", "!result win")
    told = say(league, bot, "bo", "!result loss")
    assert (
        "bo: Noted: the result is in: al beats bo. The league is over: al wins the league (2 points);"
        " !standings shows the table."
    ) in told, told


def test_a_confirmation_the_next_view_answers_costs_no_extra_message() -> None:
    """The budget: a result that leaves the reporter in the league spends no private message on them (the
    room's line and their game's chat say it; their next shop follows when the mini-game ends)."""
    league, bot, engine = knockout_league()
    first, _ = engine.league.current_matches()
    loser, told = confirm(league, bot, first)
    assert told == [], told
    assert f"Round 1: {first.players[0]} beats {loser}." in " ".join(bot.said)


# -- 2. the player who sits a mini-game out, and of which group ---------------------------------------------


def sitting_out(players: tuple[str, ...]) -> tuple[ab.AutoBattlerEngine, list[str]]:
    """``players[0]`` leaves and dies first (no Ghost): the next mini-game's room lines."""
    cards = tuple(card(f"Cube {i}", "common", ("WUBRG"[i % 5],)) for i in range(240))
    engine = ab.AutoBattlerEngine(ab.AutoBattlerConfig(players=players, cards=cards), seed=3)
    engine.apply(core.Start(player=None))
    engine.apply(ab.LeaveLeague(player=None, target=players[0]))
    for player in engine.active():
        engine.apply(ab.EndDraft(player=player))
    engine.poison[players[0]] = 9
    for match in engine.league.current_matches():
        gone = players[0] in match.players
        winner = match.opponent(players[0]) if gone else match.players[0]
        engine.apply(core.ReportResult(player=None, winner=winner))
    assert engine.dead == [players[0]] and not engine.ghosts
    effects: list[Any] = []
    for player in engine.active():
        effects += engine.apply(ab.EndDraft(player=player))
    return engine, [str(line) for line in render_effects(effects, engine).public]


def test_the_player_sitting_out_is_told_with_the_game_they_sit_out_of() -> None:
    engine, public = sitting_out(FOUR)
    (bye,) = [m for m in engine.league.current_matches() if len(m.players) == 1]
    (game,) = [m for m in engine.league.current_matches() if len(m.players) == 2]
    a, b = game.players
    line = (
        f"Round 2: {bye.players[0]} sits this mini-game out (three left, no Ghost: {a} vs {b} play it):"
        " no poison."
    )
    assert line in public, public


def test_with_eight_players_the_line_names_the_group() -> None:
    engine, public = sitting_out(EIGHT)
    (bye,) = [m for m in engine.league.current_matches() if len(m.players) == 1]
    group = engine.group_of(bye.players[0])
    (game,) = [
        m
        for m in engine.league.current_matches()
        if len(m.players) == 2 and set(m.players) <= set(engine.groups[group])
    ]
    a, b = game.players
    line = (
        f"Round 2: {bye.players[0]} sits out group {group + 1}'s mini-game (three left, no Ghost: {a} vs {b}"
        " play it): no poison."
    )
    assert line in public, public


# -- 3. a league game's !status and !help say how the result is reported -------------------------------------


def test_a_league_games_status_and_help_say_how_the_result_is_reported(tmp_path: Path) -> None:
    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in ("al", "bo", "cy", "di"):
            await room.handle_command(Context(bot, "room", user, room_id=ROOM), "!autobattler join")
        await room.handle_command(Context(bot, "room", "al", room_id=ROOM), "!autobattler start")
        await bot.chat.flush(timeout=5)
        (league,) = room.leagues
        bot.client.games[99] = GameMirror(game_id=99, room_id=ROOM, local_player_id=0)
        game = LeagueGame(bot, league, 99, 1, ("al", "bo"))
        replies: list[str] = []

        async def reply(line: str) -> None:
            replies.append(line)

        ctx = Context(bot, "game", "al", game_id=99, room_id=ROOM, reply_hook=reply)
        assert await game.handle_command(ctx, "!status")
        rule = "Result: a life at 0 (both at 0: a draw), or both tell me !result win|loss|draw privately."
        assert replies == [f"AutoBattler league round 1: al not seated, bo not seated. {rule}"], replies
        before = len(chat)
        await game.say_help("")
        await bot.chat.flush(timeout=5)
        said = " | ".join(message for (kind, _), message in chat[before:] if kind == "game")
        assert said.startswith("Commands: !status") and said.endswith(rule), said

    run_room(tmp_path, body, None)


def test_the_result_rule_is_one_wording_for_both_formats() -> None:
    from cockatrice_ext.bot.league_views import result_rule

    assert result_rule("autobattler") == (
        "Result: a life at 0 (both at 0: a draw), or both tell me !result win|loss|draw privately."
    )
    assert result_rule("market") == (
        "Result: a life at 0 (both at 0: a draw), a concession, or both tell me !result win|loss|draw"
        " privately."
    )


# -- 4. knocked out in the same mini-game: fewer poison first, else tied ------------------------------------


def test_the_final_standings_order_a_same_round_knockout_by_poison_and_mark_ties() -> None:
    for extra, expected in ((0, "tied"), (4, "ordered")):
        league, bot, engine = knockout_league()
        losers = sorted((m.players[1] for m in engine.league.current_matches()), key=FOUR.index)
        engine.poison[losers[1]] = extra  # the later seat (last in the old order's reversal) has more poison
        for match in engine.league.current_matches():
            decide(league, match)
        for player in engine.active():
            say(league, bot, player, "!done")
        (final,) = engine.league.current_matches()
        bot.said.clear()
        decide(league, final)
        champion, finalist = final.players
        said = " ".join(bot.said)
        if expected == "tied":
            first, second = losers  # equal: the last eliminated (the later seat) first, one shared place
            places = f"1. {champion}, 2. {finalist}, 3. {second} and {first} (tied)."
            assert f"{second} 10 poison and {first} 10 poison (tied)" in league.final_line()
        else:
            places = f"1. {champion}, 2. {finalist}, 3. {losers[0]}, 4. {losers[1]}."
        assert f"Final standings: {places}" in said, said


# -- 5. the same shop is listed once in a message ---------------------------------------------------------


class _TwoSessions(_FakeBot):
    """A main session and a helper (``--extra-user``) that holds the players' private conversations, each
    with its own chat scheduler (the shipped limits) to its own fake server."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal)
        self.server, self.helper_server = FakeClient(), FakeClient()
        self.chat: ChatScheduler = client_scheduler(self.server)  # type: ignore[assignment]
        self.helper = _FakeBot(journal)
        self.helper.chat = client_scheduler(self.helper_server)  # type: ignore[assignment]
        self.sessions = [self, self.helper]

    def conversation_with(self, user: str) -> Any:
        return self.helper

    async def room_say(self, room_id: int, text: Any) -> None:
        self.chat.say(("room", room_id), text)

    async def tell(self, user: str, text: Any, *, raw: bool = False) -> None:
        self.helper.chat.say(("user", user), text, raw=raw)


def test_a_helper_sessions_player_gets_the_shop_listed_once_per_message() -> None:
    async def scenario() -> dict[str, list[str]]:
        bot = _TwoSessions(Journal(":memory:"))
        engine = fresh_autobattler(FOUR)
        table = Table.create(bot.journal, "ws://test:league:0:autobattler:1", engine)
        league = LeagueReferee(bot, 0, LeagueOptions(format="autobattler"), block_of(engine), table)  # type: ignore[arg-type]
        league.chat_players.update(FOUR)
        await league.perform(league.table.apply(core.Start(player=None)))
        for _ in range(600):  # each player's whole view (their pool) follows their first line
            await asyncio.sleep(1)
            pools = [m for _, d, m in bot.helper_server.sent if d[0] == "user" and "Your pool: 1. " in m]
            if len(pools) == len(FOUR):
                break
        await bot.helper.chat.flush(timeout=600)
        bot.chat.close()
        bot.helper.chat.close()
        return {p: [m for _, d, m in bot.helper_server.sent if d == ("user", p)] for p in FOUR}

    sent = run_simulated(scenario)
    for player, messages in sent.items():
        assert any("Your pool: 1. " in message for message in messages), (player, messages)
        for message in messages:
            assert message.count("Your shop: 1. ") <= 1, (player, message)


def test_the_standings_rule_survives_a_replay_of_the_journal() -> None:
    league, bot, engine = knockout_league()
    for match in engine.league.current_matches():
        decide(league, match)
    restored = Table.restore(bot.journal, league.table.key).engine
    assert restored.standings() == engine.standings()
    assert [r["place"] for r in engine.standings()] == [1, 1, 3, 3]  # two alive, even; two out together
