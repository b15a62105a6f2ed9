"""A league member's private league command said in room or game chat is answered with where it belongs.

Seen in the field: a member's ``!pick 1`` in the room and ``!pool`` in their league game were answered
"unknown command", as if the league had no such command.
"""

from __future__ import annotations

from pathlib import Path

from test_league_lobby import PLAYERS, ROOM, Chat, lines, run_room, say

from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.runtime import Bot


def test_private_league_commands_in_room_or_game_chat_say_where_to_send_them(tmp_path: Path) -> None:
    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        await say(bot, room, "al", "!autobattler start")
        (league,) = room.leagues

        async def room_line(user: str, text: str) -> str:
            before = len(chat)
            await bot.answer_room_command(Context(bot, "room", user, room_id=ROOM), text)
            await bot.chat.flush(timeout=5)
            said = [line for line in lines(chat[before:], "room")]
            assert len(said) == 1, said
            return said[0]

        for command in ("!shop", "!swap 1 2", "!pool", "!done", "!roll"):
            name = command.split()[0]
            line = await room_line("bo", command)
            assert (
                line == f"bo: send {name} to me by private message (league commands go there, not here)."
            ), line
        # Room chat answers only typos of room commands: not a member's (not theirs), nor a room command of
        # a format not offered here (nor is it sent to a private message).
        for user, text in (("zed", "!pick 1"), ("bo", "!market")):
            before = len(chat)
            await bot.answer_room_command(Context(bot, "room", user, room_id=ROOM), text)
            await bot.chat.flush(timeout=5)
            assert chat[before:] == [], chat[before:]

        game = LeagueGame(bot, league, 99, 1, ("al", "bo"))
        replies: list[str] = []

        async def reply(line: str) -> None:
            replies.append(line)

        ctx = Context(bot, "game", "al", game_id=99, room_id=ROOM, reply_hook=reply)
        assert await game.handle_command(ctx, "!pool")
        assert replies == ["al: send !pool to me by private message (league commands go there, not here)."]

    run_room(tmp_path, body, None)


def test_pick_in_room_or_game_chat_says_why_it_cannot_be_used_now_and_where_it_would_work(
    tmp_path: Path,
) -> None:
    """Seen in the field: in an AutoBattler league started without a carousel, a member's ``!pick 1`` in
    the room was answered "unknown command", and outside the carousel phase it was sent to a private
    message that refuses it too. Both now say why not, and where ``!pick`` works."""

    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        await say(bot, room, "al", "!autobattler start")
        (league,) = room.leagues
        assert not league.engine.config.carousel

        async def room_line(user: str, text: str) -> str:
            before = len(chat)
            await bot.answer_room_command(Context(bot, "room", user, room_id=ROOM), text)
            await bot.chat.flush(timeout=5)
            (said,) = lines(chat[before:], "room")
            return said

        assert await room_line("bo", "!pick 1") == (
            "bo: this league was started without carousel, so no !pick (a league started with carousel"
            " takes it by private message, at its carousel); !swap SHOP POOL takes a shop card, by private"
            " message to me."
        )
        assert await room_line("bo", "!augment 1") == (
            "bo: this league was started without augments, so no !augment (a league started with augments"
            " takes it by private message)."
        )
        before = len(chat)  # not a member: not theirs, and room chat answers only typos of room commands
        await bot.answer_room_command(Context(bot, "room", "zed", room_id=ROOM), "!pick 1")
        await bot.chat.flush(timeout=5)
        assert lines(chat[before:], "room") == []

        replies: list[str] = []

        async def reply(line: str) -> None:
            replies.append(line)

        game = LeagueGame(bot, league, 99, 1, ("al", "bo"))
        ctx = Context(bot, "game", "al", game_id=99, room_id=ROOM, reply_hook=reply)
        assert await game.handle_command(ctx, "!pick 2")
        assert replies[-1].startswith("al: this league was started without carousel, so no !pick (")

    run_room(tmp_path, body, None)


def test_pick_outside_the_carousel_in_room_chat_says_when_it_works(tmp_path: Path) -> None:
    """A league with a carousel: ``!pick`` said in the room during a draft phase is not sent to a private
    message that would refuse it; the answer says it is for the carousel, and how shop cards are taken."""

    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        await say(bot, room, "al", "!autobattler start carousel")
        (league,) = room.leagues
        assert league.engine.config.carousel and league.engine.phase == "draft"
        before = len(chat)
        await bot.answer_room_command(Context(bot, "room", "cy", room_id=ROOM), "!pick 3")
        await bot.chat.flush(timeout=5)
        assert lines(chat[before:], "room") == [
            "cy: !pick is for the carousel, not now (the league is in its draft phase): send it to me by"
            " private message when the carousel opens; !swap SHOP POOL takes a shop card, by private message."
        ]
        before = len(chat)
        await bot.answer_room_command(Context(bot, "room", "cy", room_id=ROOM), "!shop")  # works privately
        await bot.chat.flush(timeout=5)
        assert lines(chat[before:], "room") == [
            "cy: send !shop to me by private message (league commands go there, not here)."
        ]

    run_room(tmp_path, body, None)


def test_a_misspelt_private_league_command_gets_the_grammars_suggestion(tmp_path: Path) -> None:
    """A member's ``!swpa`` by private message is answered with the league's own commands' closest match,
    from the grammar's one suggestion rule."""

    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        bot.room_referees[:] = [room]
        for user in PLAYERS:
            await say(bot, room, user, "!autobattler join")
        await say(bot, room, "al", "!autobattler start")
        before = len(chat)
        await bot.answer_private("bo", "!swpa 1 2")
        await bot.chat.flush(timeout=5)
        assert lines(chat[before:], "user") == [
            "bo: bo: unknown command !swpa; did you mean !swap? !help lists the commands"
        ]

    run_room(tmp_path, body, None)
