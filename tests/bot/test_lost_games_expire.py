"""Games lost in a restart are announced once and not kept for ever.

Seen in a soak test (one bot, 112 games, 4 restarts): after restart 1 the room heard "The referee lost its
seat in vortex game #26 ... say !resume 26", after restart 2 #26 and #52, after restart 3 #26, #52 and #73,
players long gone; ``!games`` ended "Lost in a restart (say !resume GAME): #26, #52, #73" for good. Now the
first start that finds a game lost tells its room, later ones do not; a lost record nobody resumes within
``LOST_KEEP_SECONDS`` of that is closed in the journal with why (its record still readable) and no longer
listed. No server needed: the stand-in client of ``cockatrice_ext.web.demo`` and real Vortex referees.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_runtime import GAME, ROOM, vortex_games

from cockatrice_ext.bot import lost_games as runtime  # its clock and keep times are patched
from cockatrice_ext.bot.referee import Context, LobbyReferee
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client import Reconnected
from cockatrice_ext.journal import Journal
from cockatrice_ext.web.demo import demo_bot

Chat = list[tuple[Any, str]]


async def journal_lost_games(path: Path, *game_ids: int) -> list[str]:
    """A bot referees started Vortex games and stops (an unregistered account: its seats die with it). The
    games' table keys."""
    bot, referees, _ = await vortex_games(path, *game_ids)
    keys = [referee.table_key for referee in referees]
    bot.chat.close()
    bot.journal.close()
    return keys


async def restart(path: Path, *, fleet: bool = False) -> tuple[Bot, Chat]:
    """A new bot on the journal, seated nowhere, doing what :meth:`Bot.start` does for lost games (in a
    fleet, the take-over of records no live process holds announces them), its chat collected."""
    chat: Chat = []

    async def send(destination: Any, message: str) -> None:
        chat.append((destination, message))

    bot = demo_bot(path, send) if not fleet else fleet_bot(path, send)
    bot.room_ids.append(ROOM)
    if bot.fleet is not None:
        await bot.fleet.take_over()
    else:
        await bot.announce_lost_games()
    await bot.chat.flush(timeout=5)
    return bot, chat


def fleet_bot(path: Path, send: Any) -> Bot:
    """A stand-in bot that is a fleet member on the journal (leases in the SQLite journal)."""
    from cockatrice_ext.bot.chat import ChatScheduler
    from cockatrice_ext.web.demo import REFEREE_NAME, StandInClient

    options = BotOptions(url="demo://cockatrice-ext", user=REFEREE_NAME, journal_path=path, fleet=True)
    bot = Bot(options, journal=Journal(path))
    bot.chat = ChatScheduler(send, lambda _destination, _message: 0.0)
    bot.client = StandInClient()
    bot.mark_ready()
    return bot


async def stop(bot: Bot) -> None:
    if bot.fleet is not None:
        await bot.fleet.stop()
    bot.chat.close()
    bot.journal.close()


async def room_command(bot: Bot, sender: str, text: str) -> list[str]:
    said: list[str] = []

    async def collect(line: Any) -> None:
        said.append(str(line))

    await LobbyReferee(bot).handle_command(
        Context(bot, "room", sender, room_id=ROOM, reply_hook=collect), text
    )
    return said


def lost_lines(chat: Chat) -> list[str]:
    return [line for destination, line in chat if destination == ("room", ROOM) and "lost its seat" in line]


@pytest.mark.parametrize("fleet", [False, True], ids=["alone", "fleet"])
def test_a_lost_game_is_announced_by_the_first_start_only(tmp_path: Path, fleet: bool) -> None:
    """Three restarts: the first tells the room both games are lost; the second and third say nothing of
    them, while ``!games`` still lists them and ``!resume`` still works (alone, or as a fleet member whose
    take-over finds them expired each time)."""

    async def run() -> tuple[list[list[str]], list[str]]:
        path = tmp_path / "journal.sqlite3"
        await journal_lost_games(path, GAME, GAME + 1)
        heard, games = [], []
        for _ in range(3):
            bot, chat = await restart(path, fleet=fleet)
            heard.append(lost_lines(chat))
            games = await room_command(bot, "alice", "!games")
            await stop(bot)
        return heard, games

    heard, games = asyncio.run(run())
    first, *later = heard
    assert len(first) == 2, first
    assert f"vortex game #{GAME} (alice, bob)" in first[0] and f"say !resume {GAME} " in first[0]
    assert f"say !resume {GAME + 1} " in first[1]
    assert later == [[], []], later
    (answer,) = games
    assert answer.endswith(f"Lost in a restart (say !resume GAME): #{GAME}, #{GAME + 1}."), answer


def test_a_game_lost_in_a_reconnect_is_not_announced_again_at_the_next_start(tmp_path: Path) -> None:
    """The bot comes back from a lost connection without its seat: the room hears it once then; the next
    start of the bot does not tell it again."""

    async def run() -> tuple[Chat, Chat]:
        path = tmp_path / "journal.sqlite3"
        bot, _, chat = await vortex_games(path, GAME)
        bot.client.games.pop(GAME)  # as the client does with a game it reports lost
        await bot.on_event(Reconnected(1, bot.client.user_name, (ROOM,), (), (GAME,)))
        await bot.chat.flush(timeout=5)
        await stop(bot)
        again, chat_again = await restart(path)
        await stop(again)
        return chat, chat_again

    chat, chat_again = asyncio.run(run())
    assert len(lost_lines(chat)) == 1, chat
    assert lost_lines(chat_again) == [], chat_again


def later_by(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """The runtime's wall clock (when a game was found lost, whether its wait ran out) ``seconds`` ahead."""
    real = time.time
    monkeypatch.setattr(runtime, "time", SimpleNamespace(time=lambda: real() + seconds), raising=False)


def test_a_lost_game_not_resumed_in_time_is_closed_and_no_longer_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wait for ``!resume`` lowered to an hour. Announced at one start; half an hour later a restart
    keeps it; two hours later its record is closed with why, ``!games`` no longer lists it, ``!resume``
    says why not, and the record still replays (reports read it). A game lost since is still announced and
    listed."""
    monkeypatch.setattr(runtime, "LOST_KEEP_SECONDS", 3600.0, raising=False)

    async def run() -> dict[str, Any]:
        path = tmp_path / "journal.sqlite3"
        (old,) = await journal_lost_games(path, GAME)
        bot, first = await restart(path)
        listed_before = await room_command(bot, "alice", "!games")
        await stop(bot)
        later_by(monkeypatch, 1800)
        bot, _ = await restart(path)
        kept = bot.journal.closed_reason(old)
        await stop(bot)
        await journal_lost_games(path, GAME + 5)  # a game lost since, not yet announced
        later_by(monkeypatch, 7200)
        bot, second = await restart(path)
        result = {
            "first": lost_lines(first),
            "listed_before": listed_before,
            "kept": kept,
            "second": lost_lines(second),
            "games": await room_command(bot, "alice", "!games"),
            "resume": await room_command(bot, "alice", f"!resume {GAME}"),
            "reason": bot.journal.closed_reason(old),
            "actions": len(list(bot.journal.entries(old))),
            "replays": bot.journal.replay(old)[1],
        }
        await stop(bot)
        return result

    found = asyncio.run(run())
    assert len(found["first"]) == 1 and f"!resume {GAME} " in found["first"][0]
    assert found["listed_before"][0].endswith(f"Lost in a restart (say !resume GAME): #{GAME}.")
    assert found["kept"] is None  # half an hour was not enough to close it
    assert found["reason"] == "lost in a restart and not resumed within 1 hour"
    (games,) = found["games"]
    assert f"#{GAME}," not in games and f"#{GAME}." not in games, games
    assert games.endswith(f"Lost in a restart (say !resume GAME): #{GAME + 5}."), games
    assert len(found["second"]) == 1 and f"#{GAME + 5} " in found["second"][0]  # the new one, announced
    (resume,) = found["resume"]
    assert resume.startswith(f"alice: game #{GAME} was lost in a restart and not resumed within"), resume
    assert found["actions"] > 0 and found["replays"] == found["actions"]


def test_a_running_bot_closes_a_lost_record_whose_wait_ran_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a restart: a day and an hour after its room was told, the record is no longer listed, and
    the bot's regular check closes it with the shipped wait in its reason."""

    async def run() -> tuple[str | None, dict[str, str]]:
        path = tmp_path / "journal.sqlite3"
        (key,) = await journal_lost_games(path, GAME)
        bot, _ = await restart(path)
        later_by(monkeypatch, 25 * 3600)
        lost = bot.lost_games()
        monkeypatch.setattr(runtime, "LOST_CHECK_SECONDS", 0.01, raising=False)
        checking = asyncio.get_running_loop().create_task(bot._expire_lost_regularly())
        for _ in range(500):
            if bot.journal.closed_reason(key) is not None:
                break
            await asyncio.sleep(0.01)
        checking.cancel()
        reason = bot.journal.closed_reason(key)
        await stop(bot)
        return reason, lost

    reason, lost = asyncio.run(run())
    assert lost == {}
    assert reason == "lost in a restart and not resumed within 24 hours"


def test_in_a_fleet_only_the_holder_of_a_lost_game_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes share the journal. The one whose take-over announced the lost game holds it: when its
    wait has run out, the other leaves it alone (never two closings, nor one racing a ``!resume`` there),
    the holder closes it once."""

    async def run() -> tuple[list[str], list[str], str | None, list[str]]:
        path = tmp_path / "journal.sqlite3"
        (key,) = await journal_lost_games(path, GAME)
        holder, chat = await restart(path, fleet=True)
        other, other_chat = await restart(path, fleet=True)
        later_by(monkeypatch, 25 * 3600)
        by_other = other.expire_lost_games()
        by_holder = holder.expire_lost_games()
        reason = holder.journal.closed_reason(key)
        await stop(other)
        await stop(holder)
        return by_other, by_holder, reason, lost_lines(chat) + lost_lines(other_chat)

    by_other, by_holder, reason, announced = asyncio.run(run())
    assert len(announced) == 1, announced
    assert by_other == [] and by_holder == [str(GAME)]
    assert reason == "lost in a restart and not resumed within 24 hours"
