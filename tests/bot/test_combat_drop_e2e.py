"""Combat's ``!drop NAME`` on a real Servatrice (SQL auth: registered accounts, whose seats the server keeps
when their connection goes; the referee seated, no judge rights).

Before, the table was told "alice may say !drop bob" and ``!drop`` answered "unknown command", and taking a
seat out after the game was over would still have kicked the player. Now the away player is taken out as one
who leaves (the other wins) and loses their seat; once the game is over ``!drop`` takes nobody out and kicks
nobody, and answers that the game is over, with its result."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from test_combat_bot import run
from test_combat_endings_e2e import bundled_deck_and_seed

from cockatrice_ext.bot import absent as absent_module
from cockatrice_ext.bot.combat import CombatOptions, CombatReferee
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client import FloodLimits
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice

BOUND = 2.0
"""The tests' absence bound (the shipped one is minutes)."""
PASSWORD = "secret"


async def registered_combat_game(
    server: Any, journal: Path, suffix: str, options: CombatOptions
) -> tuple[Bot, list[Player], int, CombatReferee]:
    """A Combat referee (``referee_<suffix>``) and ``alice_<suffix>`` and ``bob_<suffix>``, registered, both
    seated with the bundled legal deck and ready for round 1: (bot, [alice, bob], game id, referee)."""
    bot = Bot(
        BotOptions(
            url=server.ws_url,
            user=f"referee_{suffix}",
            password=PASSWORD,
            rooms=("Bot room",),
            journal_path=journal,
            formats=("combat",),
            format_options={"combat": options},
            client_options={"reconnect": False, "flood_limits": FloodLimits.unlimited()},
        )
    )
    await bot.start()
    players = [await Player.connect(server.ws_url, f"{name}_{suffix}", PASSWORD) for name in ("alice", "bob")]
    alice, bob = players
    room_id = await alice.client.room_id_by_name("Bot room")
    for player in players:
        await player.client.join_room(room_id)
    await alice.client.room_say(room_id, "!combat new")
    line = await alice.wait_line(lambda t: "Magic Combat Rules game #" in t)
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    referee = bot.games[game_id]
    assert isinstance(referee, CombatReferee)
    deck = bundled_deck_and_seed()[0]
    await alice.sit(room_id, game_id, deck=deck)
    mark = alice.mark()
    await bob.sit(room_id, game_id, deck=deck)
    await bot_line(alice, rf"Magic Combat Rules, 10 rounds: {alice.name} vs {bob.name}", mark)
    for player in players:
        await player.say(game_id, "!ready")
    await wait_until(lambda: referee.table is not None and referee.engine.phase == "play", what="round 1")
    return bot, players, game_id, referee


async def bob_gone_past_the_bound(bob: Player, referee: CombatReferee, bob_id: int) -> None:
    """bob's connection goes (his seat kept) and stays gone :data:`BOUND` seconds."""
    seat = referee.mirror.players[bob_id]
    await bob.client.close()
    await wait_until(lambda: seat.ping_seconds < 0, what="the server reporting the drop")
    await wait_until(lambda: (referee.absent_for(bob_id) or 0.0) >= BOUND, what="the bound")


@pytest.fixture
def registered(servatrice_factory: Any, mariadb: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A Servatrice with SQL auth; ``add(suffix)`` registers the referee and both players of one test."""
    from mariadb_server import sql_config

    monkeypatch.setattr(absent_module, "ABSENT_SECONDS", BOUND, raising=False)

    def add(suffix: str) -> None:
        for name in ("referee", "alice", "bob"):
            mariadb.add_user(f"{name}_{suffix}", PASSWORD)

    return add, lambda: servatrice_factory.start(sql_config(mariadb))


def test_drop_takes_the_away_player_out_and_after_the_game_is_over_says_so(
    registered: Any, tmp_path: Path
) -> None:
    add, start = registered
    add("cd")
    server = start()

    async def scenario() -> None:
        _, seed, _, _ = bundled_deck_and_seed()
        bot, players, game_id, referee = await registered_combat_game(
            server, tmp_path / "journal.sqlite3", "cd", CombatOptions(seed=seed, judge=False)
        )
        alice, bob = players
        try:
            engine = referee.engine
            bob_id = next(pid for pid, p in referee.mirror.players.items() if p.name == bob.name)
            await bob_gone_past_the_bound(bob, referee, bob_id)
            mark = alice.mark()
            await alice.say(game_id, f"!drop {bob.name}")
            await bot_line(alice, rf"{alice.name} drops {bob.name}, whose connection has been gone", mark)
            await bot_line(alice, rf"Game over: {bob.name} left; {alice.name} wins\.", mark)
            assert engine.is_over() and engine.out == bob_id and engine.out_reason == "left"
            await wait_until(lambda: bob_id not in referee.mirror.players, what="bob's seat taken away")

            mark = alice.mark()
            await alice.say(game_id, f"!drop {bob.name}")
            answer = await bot_line(alice, rf"^{alice.name}: ", mark)
            assert answer == f"{alice.name}: the game is over: {bob.name} left; {alice.name} wins", answer
        finally:
            for player in players:
                await player.close()
            await bot.close()

    run(scenario(), timeout=150)


def test_drop_after_the_game_is_over_kicks_nobody(registered: Any, tmp_path: Path) -> None:
    """bob's connection goes and stays gone past the bound; alice concedes (bob wins: the game is over);
    alice's ``!drop bob`` then is refused, and bob keeps his seat in the finished game."""
    add, start = registered
    add("co")
    server = start()

    async def scenario() -> None:
        _, seed, _, _ = bundled_deck_and_seed()
        bot, players, game_id, referee = await registered_combat_game(
            server, tmp_path / "journal.sqlite3", "co", CombatOptions(seed=seed, judge=False)
        )
        alice, bob = players
        try:
            engine = referee.engine
            bob_id = next(pid for pid, p in referee.mirror.players.items() if p.name == bob.name)
            await bob_gone_past_the_bound(bob, referee, bob_id)
            mark = alice.mark()
            await alice.client.game_command(game_id, commands.concede())
            await bot_line(alice, rf"Game over: {alice.name} conceded; {bob.name} wins\.", mark)

            mark = alice.mark()
            await alice.say(game_id, f"!drop {bob.name}")
            answer = await bot_line(alice, rf"^{alice.name}: ", mark)
            assert answer == f"{alice.name}: the game is over: {alice.name} conceded; {bob.name} wins", answer
            assert engine.out_reason == "conceded" and engine.winner == bob_id
            assert bob_id in referee.mirror.players and bob_id not in referee.dropping  # not kicked
        finally:
            for player in players:
                await player.close()
            await bot.close()

    run(scenario(), timeout=150)
