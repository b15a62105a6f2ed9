"""A Vortex game rebuilt by ``!resume`` after a player left: the picks of a player who left the game went out
of it with them (the engine's ``RemovePlayer``), so the rebuilt game's referee neither deals them again nor
keeps them in its library (they came back into the referee's deck, and the library players saw counted
them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from killable_bot import CHAT_BOUND, BotProcess
from servatrice import ServatriceServer
from test_auction_e2e import connect_default
from test_auction_shipped_limits import run

from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice


def undealt(line: str) -> int:
    """The cards in nobody's hands, from ``!packs`` ("Packs alice_vp 3, bob_vp 3; passed 0; shoe 40; out:
    carol_vp."): the packs, the passed pack and the shoe, all in the referee's deck."""
    found = re.search(r"Packs (.*?); passed (\d+); shoe (\d+)", line)
    assert found is not None, line
    packs = [int(size) for size in re.findall(r" (\d+)(?:,|$)", found.group(1))]
    return sum(packs) + int(found.group(2)) + int(found.group(3))


def test_a_player_who_left_does_not_get_their_picks_back_in_the_rebuilt_game(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    url = servatrice_strict.ws_url

    def hand(player: Player, game_id: int) -> list[str]:
        mirror = player.client.games[game_id]
        return sorted(c.name for c in mirror.players[mirror.local_player_id].zone("hand").cards)

    async def scenario() -> tuple[int, int, list[str]]:
        bot = BotProcess(url, "referee_vp", tmp_path / "journal.sqlite3", "vortex")
        players = [Player(await connect_default(url, f"{name}_vp")) for name in ("alice", "bob", "carol")]
        alice, bob, carol = players
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for player in players:
                await player.client.join_room(room_id)
            mark = alice.mark()
            old_game = await bot.open_game(alice, room_id, "!vortex new 3", "Vortex")
            for player in players:
                await player.sit(room_id, old_game)
            by_name = {p.name: p for p in players}
            picked = 0
            while (
                not hand(carol, old_game) or picked < 3
            ):  # everyone's opening turns until carol holds a card
                line = await bot_line(alice, r"(\S+) to pick from", mark, timeout=CHAT_BOUND)
                picker = by_name[re.search(r"(\S+) to pick from", line).group(1)]  # type: ignore[union-attr]
                mark = alice.mark()
                held = len(hand(picker, old_game))
                await picker.say(old_game, "!pick 1")
                await wait_until(lambda p=picker, h=held: len(hand(p, old_game)) == h + 1, timeout=CHAT_BOUND)
                picked += 1
            gone = hand(carol, old_game)
            mark = alice.mark()
            await carol.client.game_command(old_game, commands.concede())
            await bot_line(alice, r"carol_vp", mark, timeout=CHAT_BOUND)  # the table hears that she left
            await carol.close()

            await bot.kill_and_restart(alice, old_game)
            new_game = await bot.resume(alice, room_id, old_game)
            for player in (alice, bob):
                await player.sit(room_id, new_game)
            mark_new = alice.mark()
            await bot_line(alice, rf"Game #{old_game} continues here", 0, timeout=CHAT_BOUND)
            await alice.say(new_game, "!packs")
            line = await bot_line(alice, r"Packs .*; shoe \d+", mark_new, timeout=CHAT_BOUND)
            mirror = alice.client.games[new_game]
            bot_seat = next(pid for pid, p in mirror.players.items() if p.name == "referee_vp")
            library = mirror.players[bot_seat].zone("deck").card_count
            return library, undealt(line), gone
        finally:
            for player in players:
                await player.close()
            bot.stop()

    library, left, gone = run(scenario(), timeout=300)
    assert gone, "carol held a pick when she left"
    assert library == left, f"the referee's library holds {library}; packs, passed pack and shoe {left}"
