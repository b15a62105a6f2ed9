"""What the operator and the players are told when the bot stops or loses its session, and the room's
``!games`` (no server needed: a stand-in client, see ``cockatrice_ext.web.demo``)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_runtime import GAME, ROOM, vortex_games

from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.referee import Context, LobbyReferee
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.vortex import VortexReferee
from cockatrice_ext.client import Disconnected
from cockatrice_ext.client.errors import GameNotStarted
from cockatrice_ext.formats import vortex as rules
from cockatrice_ext.journal import JournalError, Table
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.protocol.codes import CardAttribute
from cockatrice_ext.web.demo import StandInClient


def logged_in_elsewhere() -> Disconnected:
    """The client's news of the server's goodbye (``Event_ConnectionClosed`` LOGGEDINELSEWERE)."""
    return Disconnected(
        "server closed the session: logged in elsewhere (LOGGEDINELSEWERE: You have been logged out)",
        False,
        final="LOGGEDINELSEWERE",
    )


REGISTERED = pb.ServerInfo_User.IsUser | pb.ServerInfo_User.IsRegistered


def actions(bot: Bot, referee: VortexReferee) -> int:
    return len(list(bot.journal.entries(referee.table_key)))


def a_pick(referee: VortexReferee) -> rules.AutoPick:
    """An action the engine accepts now (the opening draft's first player runs out of time)."""
    return rules.AutoPick(player=None, target=next(iter(referee.table.engine.players)))  # type: ignore[union-attr]


@dataclasses.dataclass
class ClosableClient(StandInClient):
    """The stand-in client, closable like a real one (``Bot.close``)."""

    async def close(self) -> None:
        return None


def test_a_session_logged_in_elsewhere_stops_the_bot_and_records_nothing_more(tmp_path: Path) -> None:
    """Seen in the field: logged out by a second process with the same account, the bot ran on and its bid
    timer journaled a pass, so the live process's next action was refused for good. Now nothing is recorded
    from the moment the server's goodbye arrives (before its event is handled too), and the bot stops with
    the operator's one line."""

    async def run() -> None:
        bot, (referee,), _ = await vortex_games(tmp_path / "journal.sqlite3", GAME)
        bot.client = ClosableClient(games=bot.client.games)
        before = actions(bot, referee)
        bot.client.closed_for_good = "LOGGEDINELSEWERE"  # as the client sets it when the goodbye arrives
        with pytest.raises(NotAllowed, match="session has ended"):
            referee.apply(a_pick(referee))
        serving = asyncio.create_task(bot.run_forever())
        await asyncio.sleep(0)
        await bot.on_event(logged_in_elsewhere())
        with pytest.raises(JournalError):  # a league's own table.apply, or any other writer, is refused too
            Table.restore(bot.journal, referee.table_key).apply(a_pick(referee))
        assert actions(bot, referee) == before
        from cockatrice_ext.bot.runtime import SessionEnded

        with pytest.raises(SessionEnded) as stopped:
            await asyncio.wait_for(serving, 10)
        assert str(stopped.value) == "another process or client logged in as referee; this one stops"

    async def start(self: Bot) -> None:
        return None

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Bot, "start", start)
        asyncio.run(run())


def test_a_helper_session_logged_in_elsewhere_stops_alone(tmp_path: Path) -> None:
    """Only a helper account (``--extra-user``) is taken: that session stops, its games are no longer
    refereed and their rooms hear how to continue them; the main session goes on."""

    async def run() -> list[tuple[Any, str]]:
        bot, (referee,), chat = await vortex_games(tmp_path / "journal.sqlite3", GAME)
        helper = Bot(dataclasses.replace(bot.options, user="Helper"), journal=bot.journal, main=bot)
        helper.client = ClosableClient(user_name="Helper", games=dict(bot.client.games))
        bot.sessions.append(helper)
        bot.games.pop(GAME)
        helper.games[GAME] = referee
        referee.bot = helper
        helper.client.closed_for_good = "LOGGEDINELSEWERE"
        await helper.on_event(logged_in_elsewhere())
        await bot.chat.flush(timeout=5)
        assert helper not in bot.sessions and not bot.all_games()
        assert not bot.ended and not bot._stopped.is_set()
        with pytest.raises(NotAllowed):
            referee.apply(a_pick(referee))
        assert GAME in [int(handle) for handle in bot.lost_games()]
        return chat

    ((destination, line),) = asyncio.run(run())
    assert destination == ("room", ROOM)
    assert "helper account Helper" in line and "logged in elsewhere" in line and f"!resume {GAME}" in line


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (REGISTERED, "this game is kept: it keeps its seat and resumes here when it is back."),
        (0, f"say !resume {GAME + 1} in the room to continue it in a new game"),
    ],
)
def test_a_normal_stop_tells_each_game_and_the_operator(tmp_path: Path, level: int, expected: str) -> None:
    """Ctrl-C used to stop the bot in silence: players now hear that the referee stops and what becomes of
    their game (true for the account's kind), and the operator how many games the journal keeps."""

    async def run() -> tuple[list[tuple[Any, str]], list[str]]:
        bot, (referee, _), chat = await vortex_games(tmp_path / "journal.sqlite3", GAME, GAME + 1)
        bot.client = ClosableClient(games=bot.client.games)
        bot.client.user_info = SimpleNamespace(user_level=level)  # type: ignore[attr-defined]
        referee.table = None  # the first game has not started: nothing of it is kept
        told: list[str] = []
        serving = asyncio.create_task(bot.run_forever(on_stop=told.append))
        await asyncio.sleep(0)
        bot.stop()
        await asyncio.wait_for(serving, 10)
        return chat, told

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Bot, "start", lambda self: asyncio.sleep(0))
        chat, told = asyncio.run(run())
    lines = dict(chat)
    assert lines[("game", GAME)].startswith("The referee is stopping (the operator's choice);")
    assert "had not started, so nothing is kept" in lines[("game", GAME)]
    assert expected in lines[("game", GAME + 1)]
    assert told[0].startswith("stopping: 1 refereed game(s) kept in the journal") and told[-1] == "stopped"


def test_a_registered_account_lost_seat_is_not_blamed_on_an_unregistered_account(tmp_path: Path) -> None:
    """Seen in the field: a registered referee's lost game read 'an unregistered account loses its seats'."""

    async def run() -> tuple[str, str]:
        bot, (referee,), _ = await vortex_games(tmp_path / "journal.sqlite3", GAME)
        unregistered = bot.lost_line(GAME, referee.table_key)
        bot.client.user_info = SimpleNamespace(user_level=REGISTERED)  # type: ignore[attr-defined]
        return unregistered, bot.lost_line(GAME, referee.table_key)

    unregistered, registered = asyncio.run(run())
    assert "an unregistered account loses its seats" in unregistered
    assert "unregistered" not in registered
    assert "lost its seat in vortex game #12 (alice, bob): the game is gone from the server" in registered
    assert registered.endswith(f"say !resume {GAME} to continue it in a new game.")


def test_games_ends_each_sentence_and_a_resumed_game_waits_for_its_players(tmp_path: Path) -> None:
    """Seen in the field: '#16, #17 auction: in progress Lost in a restart ...' (no full stop), and a game
    continued by ``!resume`` that nobody had joined yet read 'in progress'."""

    async def run() -> list[str]:
        bot, (_, resumed), _ = await vortex_games(tmp_path / "journal.sqlite3", GAME, GAME + 1)
        bot.forget_game(GAME)
        mirror = bot.client.games[GAME + 1]
        mirror.started = False  # a rebuilt game: its record restored, its players not back yet
        for seat in [seat for seat in mirror.players if seat != resumed.me]:
            del mirror.players[seat]
        said: list[str] = []

        async def collect(text: str) -> None:
            said.append(text)

        ctx = Context(bot, "room", "alice", room_id=ROOM, reply_hook=collect)
        await LobbyReferee(bot).handle_command(ctx, "!games")
        return said

    (line,) = asyncio.run(run())
    assert line == (
        f"Refereeing: #{GAME + 1} vortex: waiting for its players (0 of 2 seated)."
        f" Lost in a restart (say !resume GAME): #{GAME}."
    )


def test_a_command_refused_before_the_game_starts_is_sent_once_it_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Seen in the field after ``!resume``: 'game 18: no longer takes game commands (... RespGameNotStarted
    ...)' before its players sat. A game that has not started yet still takes commands: what it refused to
    draw is kept and sent when it starts (a turn passed is not), and nothing says it stopped."""
    sent: list[list[Any]] = []

    async def run() -> None:
        bot, (referee,), _ = await vortex_games(tmp_path / "journal.sqlite3", GAME)
        mirror = bot.client.games[GAME]
        mirror.started = False

        async def game_commands(game_id: int, commands: list[Any]) -> None:
            if not mirror.started:
                raise GameNotStarted(9, command="Command_SetCardAttr")
            sent.append(commands)

        bot.client.game_commands = game_commands  # type: ignore[method-assign]
        note = pc.set_card_attr("table", 1, CardAttribute.AttrAnnotation, "Auction 1")
        await referee.run(note)
        await referee.run(pc.next_turn())  # not a drawing: a turn passed before the start is not replayed
        assert not sent
        mirror.started = True
        event = SimpleNamespace(name="Event_GameStateChanged", game_id=GAME, player_id=-1, is_own=False)
        await referee.on_event(event)  # type: ignore[arg-type]
        assert sent == [[note]]

    with caplog.at_level(logging.INFO, logger="cockatrice_ext.bot.board"):
        asyncio.run(run())
    assert not [r for r in caplog.records if "no longer takes game commands" in r.getMessage()]
