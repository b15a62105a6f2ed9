"""A lobby member's early league commands answered once per burst (a newcomer heard the same line seven
times), and a late join while a league is under way said to open a new league's lobby (it read as joining
the league under way)."""

from __future__ import annotations

from pathlib import Path

from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
from cockatrice_ext.bot.runtime import Bot
from tests.bot.test_league_lobby import PLAYERS, Chat, Pages, lines, run_room, say


def test_a_lobby_members_early_commands_are_answered_once_per_burst(tmp_path: Path) -> None:
    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        bot.room_referees[:] = [room]
        await say(bot, room, "al", "!autobattler join")
        for text in ("!status", "!shop", "!swap 1 2", "!done", "!status", "!pool", "!shop"):
            await bot.answer_private("al", text)
        await bot.chat.flush(timeout=5)
        assert lines(chat, "user") == [
            "al: You are in the AutoBattler lobby: its commands work here once the league starts."
        ]
        await bot.answer_private("al", "!help")  # the lobby desk's own words are still answered
        await bot.chat.flush(timeout=5)
        assert "once it starts" in lines(chat, "user")[-1]

    run_room(tmp_path, body, None)


def test_a_late_join_says_the_league_under_way_takes_no_new_players(tmp_path: Path) -> None:
    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        bot.room_referees[:] = [room]
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        await say(bot, room, "al", "!autobattler start")
        assert room.leagues and not room.leagues[0].over
        before = len(chat)
        await say(bot, room, "late", "!autobattler join")
        await bot.chat.flush(timeout=5)
        said = " ".join(lines(chat[before:], "room"))
        assert (
            "AutoBattler league #1 is under way and cannot take new players; late joins the lobby of a new"
            " AutoBattler league (1: 3 more needed; who is in: !autobattler status)." in said
        ), said

    run_room(tmp_path, body, None)


def test_with_the_web_view_the_late_lobby_opening_says_so_in_the_room(tmp_path: Path) -> None:
    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        bot.room_referees[:] = [room]
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        await say(bot, room, "al", "!autobattler start")
        before = len(chat)
        await say(bot, room, "late", "!autobattler join")
        await say(bot, room, "later", "!autobattler join")
        await bot.chat.flush(timeout=5)
        room_said = " ".join(lines(chat[before:], "room"))
        assert (
            "AutoBattler league #1 is under way and cannot take new players; late opened the lobby of a new"
            " AutoBattler league: !autobattler join" in room_said
        ), room_said
        assert "later" not in room_said  # the room heard it once; the next joiner hears it privately
        to_later = " ".join(line for line in lines(chat[before:], "user") if line.startswith("later: "))
        assert (
            "AutoBattler league #1 is under way and cannot take new players: you joined the lobby of a new"
            " AutoBattler league." in to_later
        ), to_later

    run_room(tmp_path, body, Pages())
