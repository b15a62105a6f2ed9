"""Vortex in the field: the opening draft and a turn's pick, then the hidden-card scan (packs and picks
are private; a card is public only once it goes to a graveyard or exile)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from field_bot import BOT_NAME, Referee
from field_players import FieldPlayer, Mark, Protos
from hidden_cards import Secret, block_names, find_id_links, find_leaks, private_secrets
from scenario import arrive, close_all, open_game, run, seat
from servatrice import ServatriceServer
from shared_paths import ROOT

pytestmark = pytest.mark.servatrice

BASICS = {"Plains", "Island", "Swamp", "Mountain", "Forest"}
UNIVERSE = block_names(ROOT / "blocks" / "vortex-pool.txt") - BASICS
"""Basic lands are left out: the opening basics go to the battlefield in view of everyone."""
PUBLIC_MOVES = re.compile(r"mulligans their pack: (.*)\. It is exiled|pack is too big: (.*) goes")


def public_from(readers: list[FieldPlayer]) -> dict[str, float]:
    """When a card went to a public zone (exiled by a mulligan, a pack overflow to a graveyard or exile)."""
    reveals: dict[str, float] = {}
    for reader in readers:
        for item, who, text in reader.chat():
            for match in PUBLIC_MOVES.finditer(text) if who == BOT_NAME else ():
                for name in UNIVERSE:
                    if name in (match.group(1) or match.group(2)):
                        reveals[name] = min(item.at, reveals.get(name, item.at))
    return reveals


def last_name(text: str, pattern: str) -> str:
    return re.findall(pattern, text)[-1]


def test_vortex_draft_and_a_pick_hide_the_packs(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Eight opening picks by number, the default basics, the second turn's pick (the starter skips the
    first draw); nobody is shown a card of another player's pack or picks."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        room_id, everyone = await arrive(protos, shipped_server, ["ada_fv", "bea_fv", "cat_fv"])
        *players, spectator = everyone
        by_name = {p.name: p for p in players}
        watcher = players[0]
        try:
            started = time.monotonic()
            mark = watcher.mark()
            game_id = await open_game(watcher, room_id, "!vortex new 2", "Vortex game")
            table = await seat(players, room_id, game_id)
            await spectator.watch(room_id, game_id)
            # A player reads their pack (sent after their previous pick), then picks.
            told_since: dict[str, Mark | None] = {player.name: None for player in players}
            for _ in range(8):
                line = await watcher.line(r"Opening turn \d+: \S+ drafts", since=mark, timeout=30)
                picker = by_name[last_name(line, r"Opening turn \d+: (\S+) drafts")]
                await picker.line(
                    r"^Your pack: 1\. ", since=told_since[picker.name], kind="Event_UserMessage"
                )
                mark, told_since[picker.name] = watcher.mark(), picker.mark()
                await picker.say(game_id, "!pick 1")
                await watcher.line(rf"{picker.name} picks a card", since=mark)
            await watcher.line(r"Opening draft done", since=mark, timeout=20)
            for player in players:
                await player.say(game_id, "!basics")
            line = await watcher.line(r"Turn 1: \S+\.", since=mark, timeout=30)
            starter = by_name[last_name(line, r"Turn 1: (\S+)\.")]
            mark = watcher.mark()
            assert await table.wait_active() is starter
            await starter.game(game_id, "Command_NextTurn")
            line = await watcher.line(r"Turn 2: \S+\.", since=mark, timeout=30)
            active = by_name[last_name(line, r"Turn 2: (\S+)\.")]
            assert active is not starter
            mark = watcher.mark()
            await active.phase(game_id, 2)
            await watcher.line(rf"{active.name} to pick from \d+", since=mark, timeout=20)
            await active.say(game_id, "!pick 1")
            await watcher.line(rf"{active.name} picks a card", since=mark)
        finally:
            await close_all(everyone)

        reveals = public_from(everyone)  # a public line counts from the first reader who got it
        secrets = [
            Secret(s.name, s.holders, started, reveals.get(s.name, float("inf")))
            for s in private_secrets(players, BOT_NAME, UNIVERSE)
        ]
        for player in players:
            assert {s.name for s in secrets if player.name in s.holders}, f"{player.name} was told a pack"
        leaks = find_leaks(everyone, secrets)
        assert not leaks, "\n".join(map(str, leaks))
        # Nor by card ids: a pack shown as cards (a reveal) paired ids with names, and each pick dealt face
        # down carries its id, so a player learned which card another picked.
        links = find_id_links(everyone, secrets)
        assert not links, "\n".join(map(str, links))

    run(scenario(), bot)


def test_a_player_out_of_a_vortex_game_cannot_take_a_seat_of_its_rebuilt_game(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Three players; the third concedes at their first opening turn, mid-pick; the referee is killed (auth
    none: its seat is lost) and ``!resume`` rebuilds the game with a seat for each player still in. The
    player who is out sits down first (the room line invites "its players"): they are told why and turned
    away, and the two players still in take their seats and play on, their picks back with them. Before,
    the out player was let in: they took a seat meant for one still in, who found the game full, and the
    game never went on."""
    from test_lifecycle_field import kill_9_and_restart

    bot = referee(shipped_server)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["ada_fr", "bea_fr", "cat_fr"])
        by_name = {p.name: p for p in players}
        watcher = players[0]
        try:
            mark = watcher.mark()
            old_game = await open_game(watcher, room_id, "!vortex new 3", "Vortex game")
            await seat(players, room_id, old_game)
            order: list[FieldPlayer] = []
            for _ in range(3):
                line = await watcher.line(r"Opening turn \d+: \S+ drafts", since=mark, timeout=30)
                picker = by_name[last_name(line, r"Opening turn \d+: (\S+) drafts")]
                order.append(picker)
                await watcher.line(rf"{picker.name} to pick from", since=mark, timeout=30)
                mark = watcher.mark()
                if len(order) < 3:
                    await picker.say(old_game, "!pick 1")
                    await watcher.line(rf"{picker.name} picks a card", since=mark)
            out = order[2]
            stay = order[:2]
            await out.game(old_game, "Command_Concede")
            await watcher.line(rf"{out.name} is out \(conceded\)", since=mark, timeout=30)

            mark = watcher.mark()
            await kill_9_and_restart(bot, watcher)
            await watcher.line(rf"!resume {old_game}\b", since=mark, timeout=30)
            await stay[0].room_say(room_id, f"!resume {old_game}")
            line = await watcher.line(r"continues as game #\d+", since=mark, timeout=30)
            new_game = int(re.findall(r"as game #(\d+)", line)[-1])

            told = out.mark()
            await out.watch(room_id, new_game, spectator=False)  # the out player is first to sit
            await out.line(rf"Game #{new_game} continues game #{old_game}", since=told, timeout=20)
            await out.wait_for(
                lambda r: r.kind == "Event_Kicked" and r.game_id == new_game, since=told, timeout=20
            )
            seated = {player.name: player.mark() for player in stay}
            for player in stay:
                await player.sit(room_id, new_game)
            await watcher.line(rf"Game #{old_game} continues here", since=mark, timeout=40)
            for player in stay:  # their one opening pick each, face down on their table
                await player.wait_for(
                    lambda r, p=player: (
                        r.kind == "Event_SetCardAttr"
                        and r.game_id == new_game
                        and r.body.attr_value.startswith(f"Owner: {p.name}")
                    ),
                    since=seated[player.name],
                    timeout=30,
                )
            await watcher.line(rf"Opening turn \d+: \S+ drafts|{stay[0].name} to pick from", since=mark)
        finally:
            await close_all(players)

    run(scenario(), bot, timeout=300)


def test_a_registered_referee_restarted_mid_pick_asks_the_pick_again(
    protos: Protos, servatrice_factory: Any, mariadb: Any, referee: Callable[..., Referee]
) -> None:
    """SQL mode, the referee registered (it keeps its seat through ``kill -9``): killed while the second
    opening pick is pending, the new process lists the picker's pack again and tells the table who picks,
    after "Referee back." (the old process may have died with both still waiting for the chat budget);
    the pick then goes on. Before, the table heard only where the game stands, and the picker nothing."""
    from test_lifecycle_field import kill_9_and_restart, sql_shipped_server

    server = sql_shipped_server(servatrice_factory, mariadb, BOT_NAME)
    bot = referee(server, "--password", "field-secret")

    async def scenario() -> None:
        room_id, players = await arrive(protos, server, ["ada_fs", "bea_fs"])
        by_name = {p.name: p for p in players}
        watcher = players[0]
        try:
            mark = watcher.mark()
            game_id = await open_game(watcher, room_id, "!vortex new 2", "Vortex game")
            await seat(players, room_id, game_id)
            line = await watcher.line(r"Opening turn 1: \S+ drafts", since=mark, timeout=30)
            first = by_name[last_name(line, r"Opening turn 1: (\S+) drafts")]
            await watcher.line(rf"{first.name} to pick from", since=mark, timeout=30)
            mark = watcher.mark()
            await first.say(game_id, "!pick 1")
            line = await watcher.line(r"Opening turn 2: \S+ drafts", since=mark, timeout=30)
            second = by_name[last_name(line, r"Opening turn 2: (\S+) drafts")]
            await second.line(r"^Your pack: 1\. ", kind="Event_UserMessage", timeout=30)

            mark, told = watcher.mark(), second.mark()
            await kill_9_and_restart(bot, watcher)
            await watcher.line(r"Referee back\.", since=mark, timeout=30)
            await second.line(r"^Your pack: 1\. ", since=told, kind="Event_UserMessage", timeout=30)
            await watcher.line(rf"{second.name} to pick from 7", since=mark, timeout=30)
            await second.say(game_id, "!pick 1")
            await watcher.line(rf"{second.name} picks a card", since=mark, timeout=30)
        finally:
            await close_all(players)

    run(scenario(), bot, timeout=300)
