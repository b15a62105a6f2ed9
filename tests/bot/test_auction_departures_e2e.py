"""Auction Magic when every player leaves at once (unregistered players, auth none, shipped settings).

Servatrice removes an unregistered player who disconnects; once the last one is gone it stops the game
(``RespGameNotStarted`` to game commands from then on). What the rules decided (the departure, the game's
end) must still be journaled and said; only the board (the lot card's note) is not shown, and the bot logs
no error. One test holds the referee busy so the game has stopped before it hears of the first departure;
the other runs ``bot run`` in a process, as the tester did, with real timing.
"""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from killable_bot import CHAT_BOUND, BotProcess
from servatrice import ServatriceServer
from test_auction_e2e import BLOCK, connect_default, referee_of, wait_note
from test_auction_shipped_limits import run, seat_players, strict_bot

from cockatrice_ext.journal import Journal

pytestmark = pytest.mark.servatrice


def test_every_players_connection_dropping_at_once_pauses_the_game(
    servatrice_strict: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Both (unregistered) bidders' connections drop mid-lot while the referee is busy: a dropped
    connection is no loss, so nothing is journaled against either, the game is paused (its record kept
    for ``!resume``) and said so to a spectator, the referee leaves the game and the room's ``!games`` lists
    it as paused; no error is logged."""
    caplog.set_level(logging.INFO)

    async def scenario() -> None:
        bot = await strict_bot(servatrice_strict.ws_url, tmp_path)
        room_id, game_id, by_id = await seat_players(bot, servatrice_strict.ws_url, ["ann_g", "ben_g"], 2)
        referee = referee_of(bot, game_id)
        engine = referee.engine
        watcher = Player(await connect_default(servatrice_strict.ws_url, "cat_g"))
        try:
            await watcher.client.join_room(room_id)
            await watcher.sit(room_id, game_id, spectator=True)
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            mark = watcher.mark()
            await active.phase(game_id, 2)
            await bot_line(watcher, r"Auction 1: ", mark, timeout=CHAT_BOUND)
            first = by_id[int(engine.current_lot()["bidders"][0])]  # type: ignore[index]
            await first.say(game_id, "!bid 1")
            await wait_note(watcher, game_id, referee.me, rf"High bid: 1 by {first.name}")

            # The referee is busy (its chat paced, say) while both connections close: by the time it
            # hears of the first departure, Cockatrice has stopped the game.
            mark = watcher.mark()
            async with referee._lock:
                await asyncio.gather(*(player.close() for player in by_id.values()))
                await wait_until(
                    lambda: not referee.mirror.started and not referee.humans(), what="the game stopped"
                )
            await wait_until(lambda: game_id not in bot.games, timeout=CHAT_BOUND, what="the referee gone")
            said = await bot_line(watcher, rf"game #{game_id} is paused, not over", mark, timeout=CHAT_BOUND)
            assert not re.search(r"Game over|left the game", " ".join(t for _, t in watcher.heard[mark:])), (
                said
            )

            assert bot.journal.closed_reason(referee.table_key) is None  # kept for !resume
            await wait_until(  # marked once the referee has left the game (after the table's line)
                lambda: bot.journal.table_meta(referee.table_key).get("lost_how") == "paused",
                what="the record marked paused",
            )
            actions = [entry.action for entry in bot.journal.entries(referee.table_key)]
            assert not [a for a in actions if a["type"] == "DeclareLoss"], actions
            assert not engine.is_over() and referee.closed

            mark = watcher.mark()
            await watcher.client.room_say(room_id, "!games")
            await bot_line(
                watcher, rf"Paused, a player's connection dropped .*#{game_id}\b", mark, timeout=CHAT_BOUND
            )
        finally:
            await watcher.close()
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())
    failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, failures


def test_bot_run_logs_no_error_when_both_players_drop(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """``bot run`` as the tester ran it: two players bid, then close their connections together; the bot's
    log has no error and its journal keeps the game, paused for ``!resume`` (not "abandoned", no loss)."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    journal = tmp_path / "journal.sqlite3"
    url = servatrice_strict.ws_url

    async def scenario() -> None:
        bot = BotProcess(url, "referee_t", journal, "auction", "--auction-block", str(block))
        players = [Player(await connect_default(url, name)) for name in ("ann_t", "ben_t")]
        try:
            room_id = await players[0].client.room_id_by_name("Bot room")
            for player in players:
                await player.client.join_room(room_id)
            game_id = await bot.open_game(players[0], room_id, "!auction new 2", "Auction Magic")
            by_id = {await p.sit(room_id, game_id): p for p in players}
            mark = players[0].mark()
            await bot_line(players[0], r"Turn order", mark, timeout=CHAT_BOUND)
            mirror = players[0].client.games[game_id]
            await wait_until(lambda: mirror.active_player_id in by_id, timeout=CHAT_BOUND)
            active = by_id[mirror.active_player_id]
            await active.phase(game_id, 2)
            line = await bot_line(players[0], r"Auction 1: .* to bid\.", mark, timeout=CHAT_BOUND)
            bidder = next(p for p in players if f"{p.name} to bid" in line)
            await bidder.say(game_id, "!bid 1")
            await wait_note(
                players[0], game_id, _bot_seat(mirror, "referee_t"), rf"High bid: 1 by {bidder.name}"
            )
            await asyncio.gather(*(player.close() for player in players))
            await wait_until(lambda: _paused(journal), timeout=CHAT_BOUND, what="paused")
        finally:
            for player in players:
                await player.close()
            bot.stop()
        log = bot.log.read_text(errors="replace")
        assert "ERROR" not in log and "Traceback" not in log, log
        assert _closed_reasons(journal) == [None]

    run(scenario())


def _bot_seat(mirror: Any, user: str) -> int:
    return next(pid for pid, p in mirror.players.items() if p.name == user)


def _paused(path: Path) -> bool:
    """Whether the one auction table of another process's journal is marked paused."""
    if not path.exists():
        return False
    journal = Journal(path)
    try:
        keys = {entry.table_key for entry in journal.entries(engine="auction")}
        return len(keys) == 1 and journal.table_meta(keys.pop()).get("lost_how") == "paused"
    finally:
        journal.close()


def _closed_reasons(path: Path) -> list[str | None]:
    """Each auction table's closing reason (None while open), read from another process's journal."""
    if not path.exists():
        return [None]
    journal = Journal(path)
    try:
        keys = {entry.table_key for entry in journal.entries(engine="auction")}
        return [journal.closed_reason(key) for key in sorted(keys)] or [None]
    finally:
        journal.close()
