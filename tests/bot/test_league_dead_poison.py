"""A new AutoBattler league plays by the rule that a knocked-out player (the Ghost) takes no poison; the
engine keeps it off only for leagues journaled before it (tests/formats/test_autobattler_dead_poison.py)."""

from __future__ import annotations

from pathlib import Path

from test_league_lobby import ROOM, Chat, run_room

from cockatrice_ext.bot.league_rooms import AutoBattlerRoom
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.runtime import Bot


def test_a_league_started_in_the_room_has_the_rule_and_its_journal_keeps_it(tmp_path: Path) -> None:
    async def body(bot: Bot, room: AutoBattlerRoom, chat: Chat) -> None:
        for user in ("al", "bo", "cy", "di"):
            await room.handle_command(Context(bot, "room", user, room_id=ROOM), "!autobattler join")
        await room.handle_command(Context(bot, "room", "al", room_id=ROOM), "!autobattler start")
        await bot.chat.flush(timeout=5)
        (league,) = room.leagues
        assert league.engine.config.dead_take_no_poison is True
        assert bot.journal.restore(league.table.key).config.dead_take_no_poison is True

    run_room(tmp_path, body, None)
