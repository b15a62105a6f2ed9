"""A league member's private league command said in room or game chat is answered with where it belongs.

Seen in the field: a member's ``!pick 1`` in the room and ``!pool`` in their league game were answered
"unknown command", as if the league had no such command.
"""

from __future__ import annotations

from pathlib import Path

from test_league_lobby import PLAYERS, ROOM, Chat, lines, run_room, say

from cockatrice_ext.bot.league import AutoBattlerRoom, LeagueGame
from cockatrice_ext.bot.runtime import Bot, Context


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
        assert "unknown command" in (await room_line("zed", "!pick 1")).lower()  # not a member: not theirs
        assert "private message" not in await room_line("bo", "!market")  # a market room command elsewhere

        game = LeagueGame(bot, league, 99, 1, ("al", "bo"))
        replies: list[str] = []

        async def reply(line: str) -> None:
            replies.append(line)

        ctx = Context(bot, "game", "al", game_id=99, room_id=ROOM, reply_hook=reply)
        assert await game.handle_command(ctx, "!pool")
        assert replies == ["al: send !pool to me by private message (league commands go there, not here)."]

    run_room(tmp_path, body, None)
