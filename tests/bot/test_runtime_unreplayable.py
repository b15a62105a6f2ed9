"""A journaled game this version can no longer replay (a table recorded under rules that changed since).

Seen in a smoke test: after a restart the room heard the replay failure, then "the referee lost its seat ...
say !resume 1" though game and seat were still there; ``!resume 1`` was refused with the replay failure;
``!games`` listed it as lost; in the game ``!state`` and ``!bid 2`` got no answer at all. Such a table is
not lost: no ``!resume`` is offered, and a command said in its game is answered once per player with why
and what can be done.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.referee import Context, LobbyReferee
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.formats import auction as am
from cockatrice_ext.journal import PLAYED_WITH, open_database
from cockatrice_ext.protocol.pb import game_events_pb2
from cockatrice_ext.web.demo import demo_bot, seat_game

GAME, ROOM = 1, 1
OLD_VERSION = "0.0.1"
Chat = list[tuple[Any, str]]


async def journal_an_auction(path: Path) -> str:
    """An auction table played under "older rules": its first recorded effects differ from what the engine
    now produces (as a table written by another version), recorded by version ``OLD_VERSION``. Its key."""

    async def nowhere(_destination: Any, _message: str) -> None:
        return None

    bot = demo_bot(path, nowhere)
    seat_game(bot, GAME, ["alice", "bob"])
    referee = AuctionReferee(bot, GAME, ROOM, AuctionOptions(seed=7), load_block("auction-sample"))
    bot.adopt_game(referee)
    await referee.start_engine()
    referee.apply(am.BeginTurn(None, active=referee.engine.players[0]))
    referee.apply(am.StartAuctionStep(None))  # a lot is shown: effects to record
    await bot.chat.flush(timeout=5)
    key = referee.table_key
    bot.journal.set_table_meta(key, {**bot.journal.table_meta(key), PLAYED_WITH: OLD_VERSION})
    bot.chat.close()
    bot.journal.close()
    database = open_database(str(path))
    (seq,) = database.execute(
        "SELECT MIN(seq) FROM actions WHERE table_key=? AND effects != '[]'", (key,)
    ).fetchone()
    assert seq is not None
    database.execute(
        "UPDATE actions SET effects=? WHERE table_key=? AND seq=?",
        ('[{"type": "RecordedByOlderRules"}]', key, seq),
    )
    database.close()
    return key


async def restarted(path: Path) -> tuple[Bot, Chat]:
    """A new bot on the journal, re-seated in the game (a registered account keeps its seat), doing what
    :meth:`Bot.start` does with it: resume the games it sits in, then announce the lost ones."""
    chat: Chat = []

    async def send(destination: Any, message: str) -> None:
        chat.append((destination, message))

    bot = demo_bot(path, send)
    bot.room_ids.append(ROOM)
    seat_game(bot, GAME, ["alice", "bob"])
    for game_id, mirror in list(bot.client.games.items()):
        await bot.resume_game(game_id, mirror.room_id)
    await bot.announce_lost_games()
    await bot.chat.flush(timeout=5)
    return bot, chat


async def room_command(bot: Bot, sender: str, text: str) -> list[str]:
    said: list[str] = []

    async def collect(line: Any) -> None:
        said.append(str(line))

    await LobbyReferee(bot).handle_command(
        Context(bot, "room", sender, room_id=ROOM, reply_hook=collect), text
    )
    return said


async def game_say(bot: Bot, player_id: int, text: str) -> None:
    message = game_events_pb2.Event_GameSay(message=text)
    await bot.on_event(ClientEvent(kind="game", message=message, game_id=GAME, player_id=player_id))


def test_an_unreplayable_reseated_game_is_not_called_lost_nor_offered_to_resume(tmp_path: Path) -> None:
    async def run() -> tuple[Chat, list[str], list[str], dict[str, str]]:
        path = tmp_path / "journal.sqlite3"
        await journal_an_auction(path)
        bot, chat = await restarted(path)
        assert GAME not in bot.games
        games = await room_command(bot, "alice", "!games")
        resume = await room_command(bot, "alice", "!resume 1")
        await bot.chat.flush(timeout=5)
        unreplayable = bot.unreplayable_games()
        bot.chat.close()
        return chat, games, resume, unreplayable

    chat, games, resume, unreplayable = asyncio.run(run())
    room = [
        line
        for destination, message in chat
        if destination == ("room", ROOM)
        for line in message.split(" | ")
    ]
    assert len(room) == 1, room  # the replay failure, and no "lost its seat ... say !resume 1" after it
    assert (
        room[0].startswith(f"game #{GAME}'s record cannot be replayed (") and "replays differently" in room[0]
    )
    assert not any("!resume" in line or "lost" in line for line in room)
    assert not any("Lost in a restart" in line or "!resume" in line for line in games), games
    assert any(f"Cannot be replayed by this version: #{GAME}" in line for line in games), games
    (refusal,) = resume
    assert refusal.startswith(f"alice: game #{GAME}'s record cannot be replayed by this version (")
    assert f"finish it with cockatrice-ext {OLD_VERSION}" in refusal and "new game" in refusal
    assert list(unreplayable) == [str(GAME)] and "replays differently" in unreplayable[str(GAME)]


def test_a_command_in_an_unreplayable_game_is_answered_once_per_player(tmp_path: Path) -> None:
    async def run() -> Chat:
        path = tmp_path / "journal.sqlite3"
        await journal_an_auction(path)
        bot, chat = await restarted(path)
        chat.clear()
        await game_say(bot, 1, "!state")  # alice
        await game_say(bot, 1, "!bid 2")  # alice again: she has her answer
        await game_say(bot, 2, "hello all")  # not a command
        await game_say(bot, 2, "!bid 2")  # bob
        await bot.chat.flush(timeout=5)
        bot.chat.close()
        return chat

    chat = asyncio.run(run())
    assert {destination for destination, _ in chat} == {("game", GAME)}, chat
    lines = [line for _, message in chat for line in message.split(" | ")]
    assert [line.split(":", 1)[0] for line in lines] == ["alice", "bob"]
    for line in lines:
        assert "nothing done, the referee cannot go on" in line
        assert f"game #{GAME}'s record cannot be replayed by this version" in line
        assert "replays differently" in line
        assert line.endswith(
            f"the operator can finish it with cockatrice-ext {OLD_VERSION}; players may start a new game."
        )
        assert len(line) <= 300


def test_a_lost_game_that_cannot_be_replayed_is_not_offered_to_resume(tmp_path: Path) -> None:
    """Its seat gone too (an unregistered account, or the server restarted): the room used to hear "say
    !resume 1", and !resume then failed on the replay. It hears that the record cannot be replayed here."""

    async def run() -> tuple[Chat, list[str]]:
        path = tmp_path / "journal.sqlite3"
        await journal_an_auction(path)
        chat: Chat = []

        async def send(destination: Any, message: str) -> None:
            chat.append((destination, message))

        bot = demo_bot(path, send)
        bot.room_ids.append(ROOM)
        await bot.announce_lost_games()  # not seated in any game
        await bot.chat.flush(timeout=5)
        resume = await room_command(bot, "alice", "!resume 1")
        bot.chat.close()
        return chat, resume

    chat, resume = asyncio.run(run())
    ((destination, line),) = chat
    assert destination == ("room", ROOM)
    assert line.startswith(f"auction game #{GAME}'s record cannot be replayed by this version (")
    assert "!resume" not in line and f"finish it with cockatrice-ext {OLD_VERSION}" in line
    (refusal,) = resume
    assert refusal.startswith(f"alice: game #{GAME}'s record cannot be replayed by this version (")


def test_a_long_replay_failure_keeps_what_players_must_hear_within_one_chat_line() -> None:
    from cockatrice_ext.bot.referee import unreplayable_line
    from cockatrice_ext.bot.words import MAX_CHAT_LINE, shorten
    from cockatrice_ext.journal import JournalError

    words = "action 4 (DeclareLoss) replays differently: " + "effect " * 60 + "; it was played with 0.1.0"
    line = shorten(unreplayable_line("game #1", JournalError("x", key="k", public=words)))
    assert len(line) <= MAX_CHAT_LINE and line.endswith("it is kept, and nothing was changed"), line
