"""A fleet in the field: two ``bot run`` processes on one PostgreSQL journal, Servatrice with its shipped
settings (auth none), players built on Cockatrice's own protos; one process is killed with SIGKILL.

Skips with the reason when Servatrice, the upstream protos or PostgreSQL are absent.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from field_bot import BOT_NAME, Referee
from field_players import FieldPlayer, Protos
from hidden_cards import Secret, find_leaks, private_secrets
from league_steps import MARKET_POOL, PRIVATE
from postgres_server import postgres_fixture, postgres_url_fixture  # noqa: F401  (fixtures)
from scenario import arrive, close_all, run
from servatrice import ServatriceServer

from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.journal import Journal

pytestmark = pytest.mark.servatrice
OTHER = "RefereeBot2"
TAKE_OVER_BOUND = 30.0
"""Seconds from the kill to the survivor's word: the lease expires (5 s), then the next round, and the
shipped chat budget may hold the line a little."""


def test_what_a_killed_fleet_member_kept_for_an_offline_player_reaches_him_from_the_survivor(
    protos: Protos, shipped_server: ServatriceServer, postgres_url: str, tmp_path: Path
) -> None:
    """kim_ff and lou_ff join a Market Draft lobby; lou_ff logs out and kim_ff starts the league: its referee
    keeps lou_ff's pack for him (the league's lines, kept as its topic), and is killed (``kill -9``). The
    other member takes the league over; when lou_ff logs in again it sends him, from its own account, the
    league's recap: what is true now, his pack as it is then. Nothing private reaches the other player."""
    bots: dict[str, Referee] = {}
    for name in (BOT_NAME, OTHER):
        folder = tmp_path / name
        folder.mkdir()
        bots[name] = Referee(
            shipped_server, folder, "--user", name, "--journal", postgres_url, "--format", "market"
        )
    journal = Journal(postgres_url)
    held = f"{shipped_server.tcp_url}{Bot.HELD_KEY}"

    async def scenario() -> None:
        bots[BOT_NAME].start()
        room_id, players = await arrive(protos, shipped_server, ["kim_ff", "lou_ff"])
        kim, lou = players
        everyone = list(players)
        try:
            bots[OTHER].start()
            await kim.wait_member(room_id, OTHER)
            started = time.monotonic()
            mark = kim.mark()
            for player in (kim, lou):
                await player.room_say(room_id, "!market join")
                await kim.line(rf"{player.name} joins the Market Draft league", since=mark, timeout=30)
            await lou.close()
            await kim.wait_user("lou_ff", present=False)
            await kim.room_say(room_id, "!market start")
            starts = r"Market Draft league #1 starts: (kim_ff, lou_ff|lou_ff, kim_ff)"  # seats are shuffled
            await kim.line(starts, since=mark, timeout=30)
            await kim.line(r"^Your pack \(15\): 1\. ", since=mark, kind=PRIVATE, timeout=30)
            for _ in range(100):
                notes = journal.notes(held)
                if notes:
                    break
                await asyncio.sleep(0.1)
            [(key, note)] = notes.items()
            referee = str(note["session"])
            assert key == f"{held}{referee}\nlou_ff", key
            kept = [str(message) for message, _ in note["messages"]]
            assert kept and all(message.startswith("\x1ftopic:") for message in kept), kept
            survivor = OTHER if referee == BOT_NAME else BOT_NAME

            mark = kim.mark()
            bots[referee].kill9()
            goes_on = r"Market Draft league #1 goes on with me as its referee"
            await kim.line(goes_on, since=mark, kind=PRIVATE, timeout=TAKE_OVER_BOUND)
            assert [who for item, who, text in kim.chat(mark) if "goes on with me" in text] == [survivor]

            lou = await FieldPlayer.connect(protos, shipped_server.tcp_port, "lou_ff")
            everyone.append(lou)
            await lou.line(r"^Market Draft league #1 now: .*your pack \(15\): 1\. ", kind=PRIVATE, timeout=30)
            await asyncio.sleep(1.0)  # anything else on its way arrives too
            heard = [(who, text) for item, who, text in lou.chat() if item.kind == PRIVATE]
            assert {who for who, _ in heard} == {survivor}, heard
            said = " | ".join(text for _, text in heard)
            assert said.count("pack (15)") == 1 and "While you were away: " not in said, said
            assert journal.notes(held) == {}
        finally:
            await close_all(everyone)
        secrets = [  # told privately by either member: hidden from the other player all along
            Secret(s.name, s.holders, started)
            for sender in bots
            for s in private_secrets(everyone, sender, MARKET_POOL)
        ]
        assert {holder for secret in secrets for holder in secret.holders} == {"kim_ff", "lou_ff"}
        assert find_leaks(everyone, secrets) == []

    try:
        run(scenario(), bots[BOT_NAME], timeout=180)
    finally:
        for bot in bots.values():
            bot.stop()
        journal.close()
    for bot in bots.values():
        assert "Traceback" not in bot.log_text(), bot.log_text()[-3000:]
