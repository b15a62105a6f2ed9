"""The leagues in the field: Market Draft and AutoBattler, from the room commands through their first private
steps, then the hidden-card scan (packs, pools and shops are private to their player)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from field_bot import BOT_NAME, Referee
from field_players import FieldPlayer, Mark, Protos
from hidden_cards import Secret, block_names, find_leaks, private_secrets
from scenario import arrive, close_all, run
from servatrice import ServatriceServer
from shared_paths import ROOT

pytestmark = pytest.mark.servatrice


async def form_league(players: list[FieldPlayer], room_id: int, league: str, starts: str) -> float:
    """Everyone says ``!LEAGUE join`` in the room, the last one ``!LEAGUE start``; returns when they did."""
    watcher = players[0]
    mark = watcher.mark()
    for player in players:
        await player.room_say(room_id, f"!{league} join")
        await watcher.line(rf"{player.name} joins", since=mark, timeout=20)
    asked = time.monotonic()
    await players[-1].room_say(room_id, f"!{league} start")
    await watcher.line(starts, since=mark, timeout=60)
    return asked


def assert_no_leaks(players: list[FieldPlayer], universe: set[str], started: float) -> None:
    """Nothing told privately to one player reached another (the scenarios reveal nothing by the rules)."""
    secrets = [Secret(s.name, s.holders, started) for s in private_secrets(players, BOT_NAME, universe)]
    for player in players:
        assert any(player.name in s.holders for s in secrets), f"{player.name} was told their cards"
    leaks = find_leaks(players, secrets)
    assert not leaks, "\n".join(map(str, leaks))


def test_market_draft_picks_stay_private(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Two players form a Market Draft league in the room and make three picks each by private message; the
    packs passed between them are named only to the player holding them."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["eli_fm", "fay_fm"])
        try:
            started = time.monotonic()
            await form_league(players, room_id, "market", r"Market Draft league #\d+ starts")
            told_since: dict[str, Mark | None] = {player.name: None for player in players}
            for _ in range(3):
                for player in players:
                    await player.line(
                        r"Your pack \(\d+\): 1\. ", since=told_since[player.name], kind="Event_UserMessage"
                    )
                    told_since[player.name] = player.mark()
                    await player.tell(BOT_NAME, "!pick 1")
        finally:
            await close_all(players)
        assert_no_leaks(players, block_names(ROOT / "blocks" / "market-pool.txt"), started)

    run(scenario(), bot)


def test_autobattler_draft_stays_private(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Four players form an AutoBattler league; each swaps a card, rolls the shop and says !done, by private
    message; every shop and pool is named only to its player, and the league moves on to its games."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        names = ["gus_fb", "hal_fb", "ivy_fb", "jo_fb"]
        room_id, players = await arrive(protos, shipped_server, names)
        try:
            started = time.monotonic()
            await form_league(players, room_id, "autobattler", r"AutoBattler league #\d+ starts")
            for player in players:
                await player.line(r"Your shop: 1\. .*Your pool: 1\. ", kind="Event_UserMessage", timeout=60)
            for player in players:
                mark = player.mark()
                await player.tell(BOT_NAME, "!swap 1 1")
                await player.line(r"You took .* and gave ", since=mark, kind="Event_UserMessage", timeout=30)
                await player.tell(BOT_NAME, "!roll")
                await player.line(r"Your shop: ", since=mark, kind="Event_UserMessage", timeout=30)
            marks = [player.mark() for player in players]
            for player in players:
                await player.tell(BOT_NAME, "!done")
            for player, mark in zip(players, marks, strict=True):
                await player.line(r"your game vs \S+ is #\d+", since=mark, timeout=60)
        finally:
            await close_all(players)
        assert_no_leaks(players, block_names(ROOT / "blocks" / "autobattler-cube.txt"), started)

    run(scenario(), bot)


def test_autobattler_views_reach_every_player_promptly(
    protos: Protos, shipped_server: ServatriceServer, referee: Callable[..., Referee]
) -> None:
    """Every player of a four-player AutoBattler league can start drafting within 5 s of the start."""
    bot = referee(shipped_server)

    async def scenario() -> None:
        room_id, players = await arrive(protos, shipped_server, ["kay_fp", "lee_fp", "max_fp", "ned_fp"])
        try:
            asked = await form_league(players, room_id, "autobattler", r"AutoBattler league #\d+ starts")
            for player in players:
                view = await player.line(r"Your shop: 1\. ", kind="Event_UserMessage", timeout=60)
                view_at = next(item.at for item, _, text in player.chat() if text == view)
                assert view_at - asked < 5.0, (
                    f"{player.name} got their view {view_at - asked:.1f} s after start"
                )
        finally:
            await close_all(players)

    run(scenario(), bot)
