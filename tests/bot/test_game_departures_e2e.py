"""Who leaves a refereed game, and who removes the referee from one, on a real Servatrice.

Seen by testers (Servatrice 3.1.0, shipped limits): a spectator who joined and left a game nobody sat in yet
closed it silently (the room not told, ``!games`` silent, joining refused), and so did a player who sat in the
empty game and left to choose another deck. A started game every player left closed without a word to the
room. A moderator removing the referee (``Command_KickFromGame``) was silent everywhere, listed as "lost in a
restart" and never expired. A spectator's private ``!bid`` was sent to the game chat, which refuses them too.
"""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path

import pytest
from bot_players import (
    EMPTY_DECK,
    Player,
    bot_line,
    room_players,
    start_room_bot,
    still_on_server,
    wait_until,
)
from servatrice import ServatriceServer
from test_room_commands import OPENED, run

from cockatrice_ext.bot.referee import GameReferee
from cockatrice_ext.bot.runtime import LOST_KEEP_SECONDS, Bot
from cockatrice_ext.protocol import commands as pc

pytestmark = pytest.mark.servatrice


async def asked_game(player: Player, room_id: int, command: str = "!auction new 2") -> int:
    """``player`` asks for a game in the room: its number (from the announcement naming them as who asked:
    another player's announcement may still be on its way to them)."""
    announced = re.compile(rf"{OPENED.pattern}.*, asked by {re.escape(player.name)}\b")
    since = player.mark()
    await player.client.room_say(room_id, command)
    line = await player.wait_line(lambda t: announced.search(t) is not None, since=since, timeout=30)
    return int(announced.search(line).group(1))  # type: ignore[union-attr]


async def started_game(bot: Bot, room_id: int, first: Player, second: Player) -> tuple[int, GameReferee]:
    """``first`` asks for an Auction game, both sit, and it starts: its number and its referee."""
    game_id = await asked_game(first, room_id)
    await first.sit(room_id, game_id)
    await second.sit(room_id, game_id)
    referee = bot.games[game_id]
    await wait_until(lambda: referee.table is not None, timeout=30, what="the game started")
    return game_id, referee


def test_a_spectator_or_a_player_leaving_an_empty_game_before_its_start_does_not_close_it(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """cat watches ann's new game and leaves; then ben sits down in it and leaves (to choose another deck):
    the game is still refereed and on the server, ``!games`` lists it, and both players then sit and start
    it."""

    async def scenario() -> None:
        bot = await start_room_bot(servatrice, tmp_path, "referee_dp1")
        room_id, (ann, ben, cat) = await room_players(servatrice, "ann_dp1", "ben_dp1", "cat_dp1")
        try:
            game_id = await asked_game(ann, room_id)
            await cat.sit(room_id, game_id, spectator=True)
            await cat.client.leave_game(game_id)
            await ben.sit(room_id, game_id)
            await ben.client.leave_game(game_id)
            await cat.sit(room_id, game_id, spectator=True)
            await cat.close()  # a spectator's connection gone: the same as leaving
            await bot.client.caught_up()
            assert game_id in bot.games, "the game was closed by a departure before its start"
            assert await still_on_server(ann, room_id, game_id)
            since = ann.mark()
            await ann.client.room_say(room_id, "!games")
            listed = await bot_line(ann, r"Refereeing|No refereed games", since)
            assert f"#{game_id} auction: waiting for players" in listed, listed
            await ann.sit(room_id, game_id)
            await ben.sit(room_id, game_id)
            referee = bot.games[game_id]
            await wait_until(lambda: referee.table is not None, timeout=30, what="the game started")
        finally:
            for player in (ann, ben, cat):
                await player.close()
            await bot.close()

    run(scenario())


def test_a_started_game_every_player_left_is_closed_and_the_room_hears_it(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A spectator leaving a started game changes nothing; when both players have left (the referee hears
    of both departures after both are gone), the game is over in the journal, the room hears that every player
    left (naming them), and the log says so at INFO."""
    caplog.set_level(logging.INFO, logger="cockatrice_ext.bot")

    async def scenario() -> None:
        bot = await start_room_bot(servatrice, tmp_path, "referee_dp2")
        room_id, (ann, ben, cat) = await room_players(servatrice, "ann_dp2", "ben_dp2", "cat_dp2")
        try:
            game_id, referee = await started_game(bot, room_id, ann, ben)
            await cat.sit(room_id, game_id, spectator=True)
            await cat.client.leave_game(game_id)
            await bot.client.caught_up()
            assert game_id in bot.games and not referee.finished
            since = cat.mark()
            async with referee._lock:  # busy (its chat paced, say) while both leave: hears both gone at once
                await ann.client.leave_game(game_id)
                await ben.client.leave_game(game_id)
                await wait_until(lambda: not referee.humans(), what="both players gone")
            line = await bot_line(cat, rf"game #{game_id}.*every player left", since)
            assert "ann_dp2" in line and "ben_dp2" in line, line
            assert bot.journal.closed_reason(referee.table_key) is not None
            assert game_id not in bot.games
        finally:
            for player in (ann, ben, cat):
                await player.close()
            await bot.close()

    run(scenario())
    infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert any("every player left" in message for message in infos), infos


def test_a_referee_removed_from_its_game_says_so_and_its_record_is_resumable_and_expires(
    servatrice: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The referee is removed from a started game (``Event_Kicked``: the host may kick anyone, the referee
    itself here, as a moderator would): a warning names the game, the room hears it once with ``!resume``,
    ``!games`` lists it as removed, not lost in a restart; the client does not sit there again; its record
    expires like any lost game's; ``!resume`` continues it."""
    caplog.set_level(logging.INFO, logger="cockatrice_ext")

    async def scenario() -> None:
        bot = await start_room_bot(servatrice, tmp_path, "referee_dp3")
        room_id, (ann, ben) = await room_players(servatrice, "ann_dp3", "ben_dp3")
        try:
            game_id, referee = await started_game(bot, room_id, ann, ben)
            since = ann.mark()
            await bot.client.game_command(game_id, pc.kick_from_game(referee.me))
            line = await bot_line(ann, r"removed the referee", since)
            assert f"game #{game_id} (ann_dp3, ben_dp3)" in line and f"!resume {game_id}" in line, line
            assert game_id not in bot.games and game_id not in bot.client._seats  # not sat in again
            await ann.client.room_say(room_id, "!games")
            listed = await bot_line(ann, r"Refereeing", since)
            assert f"Removed by a moderator (say !resume GAME): #{game_id}" in listed, listed
            assert "Lost in a restart" not in listed, listed
            told = " | ".join(t for _, t in ann.heard[since:])
            assert told.count("removed the referee") == 1, told

            # The record expires as a lost game's does (its wait counted from the room's line).
            key = referee.table_key
            meta = bot.journal.table_meta(key)
            assert isinstance(meta.get("lost_at"), float)
            bot.journal.set_table_meta(key, {**meta, "lost_at": time.time() - LOST_KEEP_SECONDS - 1})
            assert bot.expire_lost_games() == [str(game_id)]
            assert str(game_id) not in bot.lost_games()
        finally:
            for player in (ann, ben):
                await player.close()
            await bot.close()

    run(scenario())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("removed the referee" in message and "game #" in message for message in warnings), warnings


def test_a_removed_game_can_be_resumed(servatrice: ServatriceServer, tmp_path: Path) -> None:
    """After the referee is removed from a started game, ``!resume N`` continues it in a new game."""

    async def scenario() -> None:
        bot = await start_room_bot(servatrice, tmp_path, "referee_dp4")
        room_id, (ann, ben) = await room_players(servatrice, "ann_dp4", "ben_dp4")
        try:
            game_id, referee = await started_game(bot, room_id, ann, ben)
            since = ann.mark()
            await bot.client.game_command(game_id, pc.kick_from_game(referee.me))
            await bot_line(ann, r"removed the referee", since)
            await ann.client.leave_game(game_id)
            await ben.client.leave_game(game_id)
            await ann.client.room_say(room_id, f"!resume {game_id}")
            line = await bot_line(ann, rf"Game #{game_id} continues as game #(\d+)", since)
            new_id = int(re.search(r"continues as game #(\d+)", line).group(1))  # type: ignore[union-attr]
            assert new_id in bot.games
            assert not bot.was_removed(referee.table_key) or str(game_id) not in bot.lost_games()
        finally:
            for player in (ann, ben):
                await player.close()
            await bot.close()

    run(scenario())


def test_a_spectator_s_private_game_command_is_told_spectators_cannot_play(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """cat watches a game and sends ``!bid 3`` privately: the answer says spectators can watch but not play,
    not that game commands go in the game's chat (where a spectator is refused as well)."""

    async def scenario() -> None:
        bot = await start_room_bot(servatrice, tmp_path, "referee_dp5")
        room_id, (ann, cat) = await room_players(servatrice, "ann_dp5", "cat_dp5")
        try:
            game_id = await asked_game(ann, room_id)
            await ann.sit(room_id, game_id, deck=EMPTY_DECK)
            await cat.sit(room_id, game_id, spectator=True)
            await bot.client.caught_up()
            await cat.client.send_message(bot.client.user_name, "!bid 3")
            answer = await cat.wait_private(lambda t: True, timeout=15)
            assert "spectators can watch but not play" in answer.lower(), answer
            assert "go in the game's own chat" not in answer, answer
        finally:
            for player in (ann, cat):
                await player.close()
            await bot.close()

    run(scenario())
