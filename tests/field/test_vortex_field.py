"""Vortex in the field: the opening draft and a turn's pick, then the hidden-card scan (packs and picks
are private; a card is public only once it goes to a graveyard or exile)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

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
