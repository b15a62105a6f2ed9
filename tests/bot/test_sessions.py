"""Several sessions, one bot: games spread over accounts, each with its own flood budget; the game
lifecycle (a finished or abandoned game is left, the server's per-account game limit is explained)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, wait_until
from servatrice import FloodLimits, ServatriceConfig, ServatriceFactory, ServatriceServer

from cockatrice_ext.bot.auction import AuctionOptions
from cockatrice_ext.bot.runtime import Bot, BotOptions

pytestmark = pytest.mark.servatrice

BLOCK = "2 Grizzly Bears\n2 Chimney Imp\n1 Pacifism\n1 Lightning Bolt\n1 Giant Growth\n1 Serra Angel\n"


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def start_bot(url: str, tmp_path: Path, **options: Any) -> Bot:
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    bot = Bot(
        BotOptions(
            url=url,
            user="referee",
            rooms=("Bot room",),
            journal_path=tmp_path / "journal.sqlite3",
            formats=("auction",),
            format_options={"auction": AuctionOptions(block=str(block), seed=7)},
            client_options={"reconnect": False},  # shipped flood limits: the bot paces itself
            **options,
        )
    )
    await bot.start()
    return bot


async def ask_game(player: Player, room_id: int) -> str:
    since = player.mark()
    await player.client.room_say(room_id, "!auction new 2")
    # Six announcements spend the room's 1,000 characters per 10 s: an answer may wait a window.
    return await player.wait_line(
        lambda t: "Auction Magic game #" in t or "no new game" in t, since=since, timeout=25
    )


def test_new_games_spread_over_the_sessions(servatrice_strict: ServatriceServer, tmp_path: Path) -> None:
    async def scenario() -> None:
        bot = await start_bot(servatrice_strict.ws_url, tmp_path, extra_users=("referee_2",))
        alice = await Player.connect(servatrice_strict.ws_url, "alice_s")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            await alice.client.join_room(room_id)
            first = await ask_game(alice, room_id)
            second = await ask_game(alice, room_id)
            ids = [int(m.group(1)) for m in (re.search(r"#(\d+)", first), re.search(r"#(\d+)", second)) if m]
            assert len(ids) == 2
            owners = {session.options.user for session in bot.sessions for gid in session.games if gid in ids}
            assert owners == {"referee", "referee_2"}, owners
            since = alice.mark()
            await alice.client.room_say(room_id, "!games")
            listing = await alice.wait_line(lambda t: t.startswith("Refereeing"), since=since)
            assert all(f"#{gid}" in listing for gid in ids), listing
        finally:
            await alice.close()
            await bot.close()

    run(scenario())


def test_the_sixth_game_is_explained_and_abandoned_games_are_left(
    servatrice_factory: ServatriceFactory, tmp_path: Path
) -> None:
    """Servatrice's shipped max_games_per_user is 5: the sixth request gets a reason, not silence; a
    game whose only player left is left by the bot, so it closes and frees the slot."""
    server = servatrice_factory.start(
        ServatriceConfig(flood=FloodLimits.servatrice_defaults(), max_games_per_user=5)
    )

    async def scenario() -> None:
        bot = await start_bot(server.ws_url, tmp_path)
        alice = await Player.connect(server.ws_url, "alice_l")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            await alice.client.join_room(room_id)
            lines = [await ask_game(alice, room_id) for _ in range(6)]
            assert all("Auction Magic game #" in line for line in lines[:5]), lines
            assert "no new game" in lines[5] and "limits how many games" in lines[5], lines[5]

            # A player sits in one game, then leaves: the bot leaves the abandoned game too.
            game_id = int(re.search(r"#(\d+)", lines[0]).group(1))  # type: ignore[union-attr]
            await alice.sit(room_id, game_id)
            await asyncio.sleep(0.5)
            await alice.client.leave_game(game_id)
            await wait_until(lambda: game_id not in bot.games, what="the bot leaves the abandoned game")
            assert not bot.journal.has_table(f"{bot.server_key}:game:{game_id}")  # it never started
            again = await ask_game(alice, room_id)
            assert "Auction Magic game #" in again, again
        finally:
            await alice.close()
            await bot.close()

    run(scenario(), timeout=180)
