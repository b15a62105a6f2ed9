"""A running league does not wait for ever for a member whose connection died, nor past its ``timer``.

Seen in the field: a Market Draft member who dropped during the ring draft held every pack that reached
them, so the draft (and the league) stood still; nobody could clear them. Now a member out of the league's
room for LOBBY_GRACE seconds (and silent to us) gets the referee's move, the room told once; the league
option ``timer`` gives every member that many seconds per move (warned at half time).
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from typing import Any

import pytest

from cockatrice_ext.bot import league_away
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.journal import Journal, Table
from tests.bot.test_league_bot import _ChattyBot, block_of, market_cards, say

GRACE = league_away.LOBBY_GRACE


def timer(format_name: str, seconds: int) -> dict[str, Any]:
    """The league option ``timer=SECONDS`` as the option grammar reads it from chat."""
    return game_options.split_words(format_name, [f"timer={seconds}"])[1]


def market_referee(bot: Any, engine: mk.MarketDraftEngine, options: LeagueOptions) -> LeagueReferee:
    """A Market Draft league's referee of ``engine`` in room 0, its table new in ``bot``'s journal."""
    meta = {
        "kind": "league",
        "format": "market",
        "options": dataclasses.asdict(options),
        "room_id": 0,
        "block": "test",
        "game_names": list(block_of(engine).game_names),
        "games": {},
    }
    table = Table.create(bot.journal, "ws://test:league:0:market:1", engine, meta=meta)
    return LeagueReferee(bot, 0, options, block_of(engine), table)


def market_desk(options: LeagueOptions | None = None, rounds: int = 1) -> tuple[LeagueReferee, _ChattyBot]:
    """A started two-player Market Draft (al, bo) with both in room 0, its clock at 0."""
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=("al", "bo"), rounds=rounds, cards=market_cards(2, rounds)), seed=3
    )
    bot = _ChattyBot(Journal(":memory:"))
    bot.client.room_users = {0: {"al", "bo"}}  # type: ignore[attr-defined]
    desk = market_referee(bot, engine, options or LeagueOptions(format="market", rounds=rounds))
    asyncio.run(desk.perform(desk.table.apply(core.Start(player=None))))
    desk.seen = {"al": 0.0, "bo": 0.0}
    bot.said.clear()
    return desk, bot


def has(lines: list[str], start: str) -> bool:
    """Whether a line starts with ``start`` (a player's lines of one batch leave joined with " | ")."""
    return any(line.startswith(start) for line in lines)


def due(desk: LeagueReferee, bot: _ChattyBot, now: float) -> list[str]:
    bot.said.clear()
    asyncio.run(desk.stand_in_due(now))
    return list(bot.said)


def test_a_drafter_out_of_the_room_a_while_gets_the_referees_picks() -> None:
    desk, bot = market_desk()
    engine = desk.engine
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]  # bo's connection died
    assert due(desk, bot, 1.0) == []  # the first check sees bo gone
    assert due(desk, bot, GRACE - 1) == []  # within the grace nothing happens
    pool = len(engine.pool("bo"))
    said = due(desk, bot, GRACE + 2)
    assert len(engine.pool("bo")) == pool + 1 and not engine.pack("bo")  # one pick: the next pack is al's
    assert said[0] == "bo is away: the referee makes their moves (at random, or a pass) until they are back."
    assert said[1].startswith("bo: You were away: the referee picked at random for you. | You picked ")
    assert engine.pool("al") == []  # al is here: their pick waits for them
    say(desk, bot, "al", "!pick 1")  # the pack al passes reaches bo: picked at the next check, no new word
    said = due(desk, bot, GRACE + 3)
    assert len(engine.pool("bo")) == pool + 2
    assert not any(line.startswith("bo is away") for line in said)
    bot.client.room_users[0].add("bo")  # type: ignore[attr-defined]
    say(desk, bot, "al", "!pick 1")
    said = due(desk, bot, GRACE + 4)
    assert said[0] == "bo is back: their moves are their own again."
    assert said[1].startswith("bo: Welcome back: your pack (") and said[1].endswith(". !pick N.")
    assert len(said) == 2
    assert engine.pack("bo") and len(engine.pool("bo")) == pool + 2  # bo picks for themselves again


def test_a_member_who_writes_to_us_is_not_away_wherever_they_are() -> None:
    desk, bot = market_desk()
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]  # the room tab closed
    due(desk, bot, 1.0)
    pool = len(desk.engine.pool("bo"))
    asyncio.run(asyncio.sleep(0))
    desk.seen["bo"] = GRACE  # bo's !pack a moment ago (handle_command notes it)
    assert due(desk, bot, GRACE + 2) == []
    assert len(desk.engine.pool("bo")) == pool
    say(desk, bot, "bo", "!status")
    assert desk.seen["bo"] > GRACE + 2  # time.monotonic() of the command


def test_the_timer_warns_at_half_time_then_picks() -> None:
    options = game_options.apply("market", LeagueOptions(format="market"), timer("market", 30))
    desk, bot = market_desk(options)
    assert due(desk, bot, 1.0) == []  # both hold a pack: their clocks start
    assert sorted(due(desk, bot, 16.0)) == ["al: 15 s left for your pick.", "bo: 15 s left for your pick."]
    assert due(desk, bot, 20.0) == []  # warned once
    said = due(desk, bot, 31.0)
    assert has(said, "al: Your time ran out: the referee picked at random for you. | You picked ")
    assert has(said, "bo: Your time ran out: the referee picked at random for you. | You picked ")
    assert not any(" is away: " in line for line in said)
    assert all(len(desk.engine.pool(p)) == 1 for p in ("al", "bo"))
    assert due(desk, bot, 32.0) == []  # the next packs are new picks: new clocks


def test_an_away_buyers_market_turn_is_passed() -> None:
    desk, bot = market_desk(rounds=2)
    engine = desk.engine
    while engine.phase == "draft":
        for player in ("al", "bo"):
            if engine.pack(player):
                desk.table.apply(core.Pick(player=player, card=engine.pack(player)[0]))
    desk.table.apply(core.ReportResult(player=None, winner="al"))
    assert engine.phase == "market" and engine.whose_turn() == "bo"  # the loser buys first
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    due(desk, bot, 1.0)
    said = due(desk, bot, GRACE + 2)
    assert "bo: You were away: the referee passed your market turn." in said
    assert said[-1] == "bo passes. al to buy." and engine.whose_turn() == "al"


def test_the_autobattler_timer_ends_a_draft_phase_and_tells_the_room() -> None:
    options = game_options.apply("autobattler", LeagueOptions(format="autobattler"), timer("autobattler", 60))
    cards = tuple(league_bot_card(i) for i in range(80))
    engine = ab.AutoBattlerEngine(ab.AutoBattlerConfig(players=("a", "b", "c", "d"), cards=cards), seed=9)
    bot = _ChattyBot(Journal(":memory:"))
    table = Table.create(bot.journal, "ws://test:league:0:autobattler:1", engine)
    desk = LeagueReferee(bot, 0, options, block_of(engine), table)  # type: ignore[arg-type]
    asyncio.run(desk.perform(desk.table.apply(core.Start(player=None))))
    for player in ("a", "b", "c"):
        say(desk, bot, player, "!done")
    due(desk, bot, 0.0)
    said = due(desk, bot, 61.0)
    assert has(said, "d: Your time ran out: the referee ended your draft (your pool as it is).")
    assert has(said, "d's time ran out. Draft over.")
    assert engine.phase == "play"


def league_bot_card(i: int) -> Any:
    from tests.bot.test_league_bot import COLORS, card

    return card(f"Cube {i}", "common", (COLORS[i % 5],))


def test_stand_ins_are_journaled_and_restored() -> None:
    desk, bot = market_desk()
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    due(desk, bot, 1.0)
    due(desk, bot, GRACE + 2)
    restored = asyncio.run(LeagueReferee.restore(bot, desk.key))  # type: ignore[arg-type]
    assert restored.engine.snapshot() == desk.engine.snapshot()
    assert len(restored.engine.pool("bo")) == 1


def test_the_watcher_runs_the_checks_by_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(league_away, "STAND_IN_TICK", 0.01)
    monkeypatch.setattr(league_away, "LOBBY_GRACE", 0.05)
    desk, bot = market_desk()
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]

    async def run() -> None:
        bot.private_referees.append(desk)
        desk.seen.clear()
        desk.watch()
        await asyncio.sleep(0.3)
        desk.over = True  # the watcher ends with the league
        await asyncio.sleep(0.05)
        assert desk._watcher is not None and desk._watcher.done()

    asyncio.run(run())
    assert len(desk.engine.pool("bo")) == 1 and desk.engine.pool("al") == []


def drafted_desk(rounds: int = 1) -> tuple[LeagueReferee, _ChattyBot]:
    desk, bot = market_desk(rounds=rounds)
    engine = desk.engine
    while engine.phase == "draft":
        for player in ("al", "bo"):
            if engine.pack(player):
                desk.table.apply(core.Pick(player=player, card=engine.pack(player)[0]))
    assert engine.phase == "play"
    return desk, bot


class _SeatedGame:
    """A league game in which ``names`` sit with their connection alive."""

    round_no = 0  # of no round the league announces: the league leaves it alone
    players = ("al", "bo")

    def __init__(self, *names: str) -> None:
        self.names = set(names)
        self.closed = False

    def connected_players(self) -> set[str]:
        return self.names

    async def close(self) -> None:
        self.closed = True


def test_a_player_gone_from_their_game_a_while_loses_it_by_forfeit() -> None:
    """A paired member who never came (or whose connection died) held the round for good: the opponent could
    not claim the win alone. Gone FORFEIT_GRACE seconds, the opponent wins by forfeit, the room told."""
    desk, bot = drafted_desk()
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    due(desk, bot, 1.0)
    assert due(desk, bot, league_away.FORFEIT_GRACE - 1) == []
    said = due(desk, bot, league_away.FORFEIT_GRACE + 2)
    assert said[0] == "bo has been gone 5 minutes: al wins their round 1 game by forfeit."
    assert said[1] == "bo: You lost your round 1 game to al by forfeit: gone 5 minutes."  # kept till back
    match = desk.engine.league.current_matches()[0]
    assert match.decided and match.winner == "al"
    assert desk.engine.is_over()  # one round: the league ends with it


def test_no_forfeit_for_a_player_connected_in_their_game_nor_when_both_are_gone() -> None:
    desk, bot = drafted_desk()
    bot.client.room_users[0].clear()  # type: ignore[attr-defined]  # both closed the room's tab
    desk.games[7] = _SeatedGame("bo")  # type: ignore[assignment]  # bo plays in the game; al is gone
    due(desk, bot, 1.0)
    said = due(desk, bot, league_away.FORFEIT_GRACE + 2)
    assert said[0] == "al has been gone 5 minutes: bo wins their round 1 game by forfeit."
    desk, bot = drafted_desk()
    bot.client.room_users[0].clear()  # type: ignore[attr-defined]
    due(desk, bot, 1.0)
    assert due(desk, bot, league_away.FORFEIT_GRACE + 2) == []  # both gone: nothing guessed
    assert not desk.engine.league.current_matches()[0].decided


def test_status_says_who_is_out_of_the_room_and_when_the_referee_steps_in() -> None:
    """Seen in the field: two silent minutes while the draft waited for a dropped player, and !status said
    only "the draft waits for dee"."""
    desk, bot = market_desk()
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    desk.seen["bo"] = time.monotonic() - 30  # gone half a minute ago
    due(desk, bot, time.monotonic())
    said = say(desk, bot, "al", "!status")[0]
    assert (
        "the draft waits for bo" in said and "bo is out of the room: the referee moves for them in " in said
    )
    assert re.search(r"moves for them in (8[0-9]|9[0-9]) s", said), said
    desk.standing_in.add("bo")
    assert "bo is away: the referee moves for them" in say(desk, bot, "al", "!status")[0]


def test_a_drafter_back_in_time_is_told_the_pack_they_hold_the_draft_with() -> None:
    desk, bot = market_desk()
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    assert due(desk, bot, 1.0) == []
    bot.client.room_users[0].add("bo")  # type: ignore[attr-defined]  # back after 30 s, before the grace
    said = due(desk, bot, 31.0)
    assert len(said) == 1 and said[0].startswith("bo: Welcome back: your pack (15): 1. ")
    assert due(desk, bot, 36.0) == []  # once
    assert not any(line.startswith("al:") for line in said)


def test_a_member_just_given_what_was_kept_for_them_is_not_told_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Back from offline, a member gets the kept lines (their pack among them); the welcome back would say
    the pack a second time."""
    desk, bot = market_desk()
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    due(desk, bot, 1.0)
    bot.client.room_users[0].add("bo")  # type: ignore[attr-defined]
    monkeypatch.setattr(bot.chat, "got_back_lately", lambda user, within=60.0: user == "bo", raising=False)
    assert due(desk, bot, 31.0) == []


def test_the_timer_starts_once_the_pack_has_left_the_chat_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen in the field (timer=20, one account): the clock ran while the pack still waited its turn in the
    chat queue, so a player had 11-14 s and "10 s left" came with the pack."""
    desk, bot = market_desk(game_options.apply("market", LeagueOptions(format="market"), timer("market", 30)))
    queued = {"bo"}
    monkeypatch.setattr(bot.chat, "pending", lambda destination=None: int(destination[1] in queued))
    due(desk, bot, 1.0)
    said = due(desk, bot, 16.0)
    assert said == ["al: 15 s left for your pick."]  # bo's clock has not started: his pack is still queued
    queued.clear()  # bo's pack went out: his clock starts at the next check
    due(desk, bot, 20.0)
    said = due(desk, bot, 31.0)
    assert has(said, "al: Your time ran out") and not has(said, "bo:")
    assert due(desk, bot, 34.0) == []
    assert due(desk, bot, 35.0) == ["bo: 15 s left for your pick."]
    assert has(due(desk, bot, 50.0), "bo: Your time ran out")


def test_the_winner_of_a_forfeit_is_told_not_to_play_it() -> None:
    desk, bot = drafted_desk()
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    due(desk, bot, 1.0)
    said = due(desk, bot, 8 * 60 + 1.0)
    assert (
        said[0] == "bo has been gone 8 minutes: al wins their round 1 game by forfeit."
    )  # not "5": it was 8
    assert said[2] == "al: bo is gone: you win your round 1 game by forfeit; no need to play it."


def test_status_in_play_counts_down_to_the_forfeit_of_an_opponent_out_of_the_room() -> None:
    desk, bot = drafted_desk()
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    desk.seen["bo"] = time.monotonic() - 60
    due(desk, bot, time.monotonic())
    said = say(desk, bot, "al", "!status")[0]
    assert re.search(
        r"bo is out of the room: you win by forfeit in (23[0-9]|240) s unless they are back", said
    ), said


def test_an_ended_league_still_answers_status() -> None:
    desk, bot = drafted_desk()
    bot.private_referees.append(desk)
    desk.table.apply(core.ReportResult(player=None, winner="al"))
    desk.over = True
    said = say(desk, bot, "bo", "!status")
    assert said and "Market Draft league" in said[0], said


def test_the_rooms_status_names_who_is_away() -> None:
    """The room's !market status said "draft, round 0" and not who the referee was moving for."""
    desk, bot = market_desk()
    stage = "Market Draft league (al, bo): the draft before round 1; waits for al, bo"
    assert desk.room_status_line() == stage
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    due(desk, bot, 1.0)
    assert desk.room_status_line() == f"{stage}; out of the room: bo"
    due(desk, bot, GRACE + 2)
    assert desk.room_status_line().endswith("; away (the referee moves for them): bo")


def test_no_game_is_opened_for_a_pairing_whose_player_is_long_gone() -> None:
    """Seen in the field: a player gone since the draft was paired, their game opened and announced, and
    the forfeit came seconds later. Gone FORFEIT_GRACE seconds when the round starts, the other player wins
    at once and no game is opened."""
    desk, bot = market_desk()
    engine = desk.engine
    bot.client.room_users[0].discard("bo")  # type: ignore[attr-defined]
    gone_at = time.monotonic() - league_away.FORFEIT_GRACE - 10  # the clock perform() reads too
    due(desk, bot, gone_at)
    desk.seen["bo"] = gone_at
    said: list[str] = []
    while engine.phase == "draft":
        if engine.pack("al"):
            said += say(desk, bot, "al", "!pick 1")
        said += due(desk, bot, time.monotonic())
    assert not any("your game vs" in line or "could not open" in line for line in said), said
    assert "bo has been gone 5 minutes: al wins their round 1 game by forfeit." in said
    assert desk.games == {} and engine.is_over()


class HeldLink:
    """The bot's client behind a link that held ``held`` (a member's private line, said in time): the server
    hands it over when the referee catches up, as :meth:`Client.caught_up` makes it wait for; ``took`` is
    how long catching up takes (over ``silence.STALLED``: the link had stalled)."""

    def __init__(self, desk: LeagueReferee, bot: _ChattyBot, held: tuple[str, str] | None = None) -> None:
        self.desk, self.bot, self.held = desk, bot, held
        self.connected = True
        self.took = 0.0
        self.room_users = bot.client.room_users  # type: ignore[attr-defined]
        self.games = bot.client.games

    async def caught_up(self, timeout: float = 10.0) -> float:
        from cockatrice_ext.bot.referee import Context

        if self.held is not None:
            sender, text = self.held
            self.held = None

            async def reply(line: str) -> None:
                self.bot.said.append(line)

            ctx = Context(bot=self.bot, scope="private", sender=sender, reply_hook=reply)  # type: ignore[arg-type]
            await self.desk.handle_command(ctx, text)
        return self.took


def test_a_pick_held_by_a_stalled_link_is_heard_before_the_timer_picks() -> None:
    """The timer picked at random for a member whose `!pick 1`, said in time, was held by the bot's stalled
    link: the referee now catches up with the server before it makes anyone's move (bot/silence.py)."""
    options = game_options.apply("market", LeagueOptions(format="market"), timer("market", 30))
    desk, bot = market_desk(options)
    assert due(desk, bot, 1.0) == []  # both hold a pack: their clocks start
    first = desk.engine.pack("bo")[0]
    bot.client = HeldLink(desk, bot, held=("bo", "!pick 1"))  # type: ignore[assignment]
    said = due(desk, bot, 31.0)
    assert has(said, "al: Your time ran out: the referee picked at random for you.")
    assert not any(line.startswith("bo: Your time ran out") for line in said)
    assert desk.engine.pool("bo") == [first]  # bo's own pick, the first card of the pack


def test_no_move_is_made_for_anyone_while_the_link_is_down_or_stalled() -> None:
    options = game_options.apply("market", LeagueOptions(format="market"), timer("market", 30))
    desk, bot = market_desk(options)
    due(desk, bot, 1.0)
    link = HeldLink(desk, bot)
    bot.client = link  # type: ignore[assignment]
    link.connected = False
    assert not any("time ran out" in line for line in due(desk, bot, 31.0))
    link.connected, link.took = True, 3.0  # back, but the server took 3 s to answer: the link stalled
    assert not any("time ran out" in line for line in due(desk, bot, 32.0))
    assert all(desk.engine.pool(p) == [] for p in ("al", "bo"))
    link.took = 0.0
    assert has(due(desk, bot, 33.0), "al: Your time ran out")
