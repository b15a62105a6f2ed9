"""A member of a running league is told which league holds them and what they can do, and has a way out.

Seen in the field (a real Servatrice, the bot started as the README says): ada, a member of running Market
Draft league #1, said ``!market start`` in the room and heard "join first: !market join"; ``!market join``
answered "you are already in a running Market Draft league; one league at a time", ``!market leave`` "you
are not in the lobby", and a private ``!leave`` "!leave is not a Market Draft command": a loop with no way
out. A lobby member's private ``!help`` said the league's commands work "once the league starts" without
saying where its options are read now. Now every such answer names the league and what to do, a private
``!leave`` (then ``!leave confirm``) takes a member out for good (the referee moves for them and their
games are lost by forfeit at once; journaled, so a restart keeps it), and a lobby member's private ``!help``
points to the room's ``!market rules``.

These run the real :class:`Bot` (its private routing and installer) and league referee, chat going to a
list; ``test_market_e2e``-style tests against a real Servatrice are in ``test_league_way_out_e2e.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from cockatrice_ext.bot.league import install_market
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_rooms import MarketRoom
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.formats import market as mk
from cockatrice_ext.web.demo import demo_bot

ROOM = 1
Chat = list[tuple[tuple[str, Any], str]]
Body = Callable[[Bot, MarketRoom, Chat], Awaitable[None]]


def run_market(journal: Path, body: Body) -> None:
    """A demo bot (a real :class:`Bot`, chat to a list) in room 1 with Market Draft installed by its own
    installer (two rounds, a fixed seed), running ``body``."""

    async def run() -> None:
        chat: Chat = []

        async def send(destination: tuple[str, Any], message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(journal, send)
        bot.options.format_options["market"] = LeagueOptions(format="market", rounds=2, seed=5)
        bot.room_ids.append(ROOM)
        bot.client.room_users = {ROOM: {"ada", "bea", "cy"}}
        await install_market(bot)
        (room,) = [r for r in bot.room_referees if isinstance(r, MarketRoom)]
        try:
            await body(bot, room, chat)
        finally:
            bot.chat.close()

    asyncio.run(run())


async def room_line(bot: Bot, chat: Chat, user: str, text: str) -> list[str]:
    """What the room hears after ``user`` says ``text`` there."""
    before = len(chat)
    await bot.answer_room_command(Context(bot, "room", user, room_id=ROOM), text)
    await bot.chat.flush(timeout=5)
    return [message for (kind, _), message in chat[before:] if kind == "room"]


async def private(bot: Bot, chat: Chat, user: str, text: str) -> list[str]:
    """What anyone hears privately ("name: line") after ``user`` sends ``text`` to the bot."""
    before = len(chat)
    await bot.answer_private(user, text)
    await bot.chat.flush(timeout=5)
    return [f"{name}: {message}" for (kind, name), message in chat[before:] if kind == "user"]


def mine_of(user: str, heard: list[str]) -> list[str]:
    """The lines of ``heard`` (see :func:`private`) that went to ``user``."""
    return [line for line in heard if line.startswith(f"{user}: ")]


async def started(bot: Bot, room: MarketRoom, chat: Chat) -> LeagueReferee:
    """ada and bea start Market Draft league #1 in the room."""
    for user in ("ada", "bea"):
        await room_line(bot, chat, user, "!market join")
    await room_line(bot, chat, "bea", "!market start")
    (league,) = room.leagues
    return league


STUCK = (
    "ada: you are in Market Draft league #1 (the draft before round 1); one league at a time. Its commands"
    " work by private message to me (!help there); you can join another once it ends, or after leaving it"
    " for good (!leave by private message)."
)


def test_room_league_commands_from_a_running_member_name_the_league_and_the_way_out(tmp_path: Path) -> None:
    async def body(bot: Bot, room: MarketRoom, chat: Chat) -> None:
        await started(bot, room, chat)
        assert await room_line(bot, chat, "ada", "!market start") == [STUCK]
        assert await room_line(bot, chat, "ada", "!market join") == [STUCK]  # the same words
        assert await room_line(bot, chat, "ada", "!market leave") == [
            "ada: you are not in the lobby but in Market Draft league #1 (the draft before round 1): to leave"
            " it for good, send me !leave by private message (the referee then makes your moves and your"
            " games are lost by forfeit)."
        ]
        assert await room_line(bot, chat, "cy", "!market start") == ["cy: join first: !market join"]

    run_market(tmp_path / "journal.sqlite3", body)


def test_a_private_leave_asks_then_the_referee_moves_and_forfeits_for_the_leaver(tmp_path: Path) -> None:
    async def body(bot: Bot, room: MarketRoom, chat: Chat) -> None:
        league = await started(bot, room, chat)
        engine: mk.MarketDraftEngine = league.engine
        ada_pool = len(engine.pool("ada"))
        assert await private(bot, chat, "ada", "!leave") == [
            "ada: Leaving Market Draft league #1 cannot be undone: the referee makes your moves from then on"
            " (at random, or a pass) and you lose your games by forfeit. To leave, send !leave confirm."
        ]
        assert len(engine.pool("ada")) == ada_pool and not league.left  # nothing happened yet
        heard = await private(bot, chat, "ada", "!leave confirm")
        assert mine_of("ada", heard) == [
            "ada: You left Market Draft league #1: the referee makes your moves from now on and your games"
            " are lost by forfeit. You may join another league (!market join in the room); !standings and"
            " !pool still answer here."
        ]  # and no news of the referee's pick for them
        assert (
            heard.count(
                "bea: ada left Market Draft league #1: the referee makes their moves from now on (at random,"
                " or a pass), and their games are lost by forfeit."
            )
            == 1
        )
        assert len(engine.pool("ada")) == ada_pool + 1  # the pack in front of ada is picked at once
        assert "is away" not in " ".join(message for _, message in chat)  # not "away": gone for good
        while engine.phase == "draft":  # bea drafts; the referee picks each pack that reaches ada
            if engine.pack("bea"):
                await private(bot, chat, "bea", "!pick 1")
            await league.stand_in_due()
        assert engine.league.round == 1 and engine.phase == "market"  # round 1 is decided: the market opens
        match = engine.league.match_of("bea")
        assert match is not None and match.decided and match.winner == "bea"  # ada's game: forfeit, no game
        assert not league.games
        room_said = " | ".join(message for (kind, _), message in chat if kind == "room")  # lines merge
        assert "ada left the league: bea wins their round 1 game by forfeit." in room_said
        to_bea = " | ".join(message for (kind, name), message in chat if kind == "user" and name == "bea")
        assert "ada left the league: you win your round 1 game by forfeit; no need to play it." in to_bea
        assert mine_of("ada", await private(bot, chat, "ada", "!pick 1")) == [
            "ada: You left Market Draft league #1: the referee makes your moves and your games are lost by"
            " forfeit. !standings, !pool and !status still answer here."
        ]
        (standings,) = mine_of("ada", await private(bot, chat, "ada", "!standings"))
        assert standings == "ada: Round 1 of 2: 1. bea 2 (1-0-0), 2. ada 0 (0-0-1) (left)"
        assert await room_line(bot, chat, "ada", "!market join") == [
            "Market Draft league #1 is under way and cannot take new players; ada joins the lobby of a new"
            " Market Draft league (1: 1 more needed; who is in: !market status)."
        ]  # out of the loop: another league is theirs to join

    run_market(tmp_path / "journal.sqlite3", body)


def test_a_member_who_left_stays_gone_after_a_restart(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    kept: dict[str, Any] = {}

    async def before(bot: Bot, room: MarketRoom, chat: Chat) -> None:
        league = await started(bot, room, chat)
        await private(bot, chat, "ada", "!leave confirm")
        kept["picked"] = len(league.engine.pool("ada"))
        await private(bot, chat, "bea", "!pick 1")  # the pack bea passes waits in front of ada
        assert league.engine.pack("ada")
        kept["key"] = league.key

    async def after(bot: Bot, room: MarketRoom, chat: Chat) -> None:
        (league,) = room.leagues  # restored by the installer from the journal
        assert league.key == kept["key"] and league.left == {"ada"}
        assert room.membership("ada") == ""  # free to join another league
        await league.stand_in_due()
        assert len(league.engine.pool("ada")) == kept["picked"] + 1  # the referee picks for ada at once
        said = " ".join(message for _, message in chat)
        assert "is away" not in said and "ada: " not in " ".join(
            f"{name}: {m}" for (kind, name), m in chat if kind == "user"
        )
        status = await room_line(bot, chat, "bea", "!market status")
        assert status[0].endswith("; left (the referee moves for them): ada")

    run_market(journal, before)
    run_market(journal, after)


def test_a_lobby_members_private_help_and_rules_say_where_the_options_are_read_now(tmp_path: Path) -> None:
    async def body(bot: Bot, room: MarketRoom, chat: Chat) -> None:
        for user in ("ada", "bea"):
            await room_line(bot, chat, user, "!market join")
        expected = (
            "ada: You are in the Market Draft lobby (2 waiting: ada, bea); the league's commands work here"
            " once it starts. Its options now: !market rules in the room; !market start there starts it"
            " (2 to 8 players), !market leave leaves the lobby."
        )
        assert await private(bot, chat, "ada", "!help") == [expected]
        assert await private(bot, chat, "ada", "!rules") == [expected]
        assert await private(bot, chat, "ada", "!leave") == [
            "ada: You are in the Market Draft lobby, not a running league: !market leave in the room"
            " leaves it."
        ]
        (stranger,) = await private(bot, chat, "cy", "!help")  # in no lobby: the runtime's own answer
        assert stranger.startswith("cy: Join a league in the room first")

    run_market(tmp_path / "journal.sqlite3", body)


def test_a_league_whose_members_all_left_plays_itself_out(tmp_path: Path) -> None:
    """Both players of a match left: nobody wins it, the referee records a draw, and the league still ends
    (the market's turns passed for them, round 2 drawn too)."""

    async def body(bot: Bot, room: MarketRoom, chat: Chat) -> None:
        league = await started(bot, room, chat)
        await private(bot, chat, "ada", "!leave confirm")
        heard = await private(bot, chat, "bea", "!leave confirm")
        assert not [line for line in heard if "bea left" in line]  # nobody is left to tell
        for _ in range(200):
            if league.over:
                break
            await league.stand_in_due()
        assert league.over
        matches = league.engine.league.matches
        assert [(m.round, m.decided, m.draw) for m in matches] == [(1, True, True), (2, True, True)]
        room_said = " | ".join(message for (kind, _), message in chat if kind == "room")
        assert "ada and bea both left the league: their round 1 game counts as a draw." in room_said

    run_market(tmp_path / "journal.sqlite3", body)


def test_autobattler_members_who_left_have_their_draft_ended_and_their_games_forfeited(
    tmp_path: Path,
) -> None:
    from cockatrice_ext.bot.league import install_autobattler
    from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
    from cockatrice_ext.formats import autobattler as ab

    async def run() -> None:
        chat: Chat = []

        async def send(destination: tuple[str, Any], message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(tmp_path / "journal.sqlite3", send)
        bot.options.format_options["autobattler"] = LeagueOptions(format="autobattler", seed=3)
        bot.room_ids.append(ROOM)
        bot.client.room_users = {ROOM: {"al", "bo", "cy", "di"}}
        await install_autobattler(bot)
        (room,) = [r for r in bot.room_referees if isinstance(r, AutoBattlerRoom)]
        try:
            for user in ("al", "bo", "cy", "di"):
                await room_line(bot, chat, user, "!autobattler join")
            await room_line(bot, chat, "al", "!autobattler start")
            (league,) = room.leagues
            engine: ab.AutoBattlerEngine = league.engine
            await private(bot, chat, "al", "!leave confirm")
            assert set(engine.waiting_for()) == {"bo", "cy", "di"}  # al's draft is ended for them at once
            await private(bot, chat, "bo", "!leave confirm")
            for user in ("cy", "di"):
                await private(bot, chat, user, "!done")
            await league.stand_in_due()
            round_one = [m for m in engine.league.matches if m.round == 1]
            assert {m.players for m in round_one} == {("al", "cy"), ("bo", "di")}
            assert all(m.decided and m.winner in ("cy", "di") for m in round_one)  # forfeits, no game opened
            assert not league.games and engine.poison["al"] > 0 and engine.poison["bo"] > 0
            # Seen on a night: a member who left got the whole draft view (shop, treasures) every phase.
            assert engine.phase == "draft"  # the next draft phase has begun
            await bot.chat.flush()
            for leaver in ("al", "bo"):
                said = [m for d, m in chat if d == ("user", leaver)]
                gone = next(i for i, m in enumerate(said) if "You left AutoBattler league" in m)
                assert not any("Your shop" in m for m in said[gone + 1 :]), said[gone:]
            assert any("Your shop" in m for d, m in chat if d == ("user", "cy"))
        finally:
            bot.chat.close()

    asyncio.run(run())
