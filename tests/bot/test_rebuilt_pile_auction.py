"""The game ``!resume`` opens holds, as the bot's deck, only the cards the journal still places in the game.

Seen by reading: the rebuild listed those cards, but the new game's deck was written from the whole block
(and, for Auction, its spares from the whole block too), so the cards a departed player took out of the game
came back in the bot's library: the library count the players saw was wrong, and so was every count-based
step of the referee (``short_of``, the spares) in a rebuilt game.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from killable_bot import CHAT_BOUND, BotProcess
from servatrice import ServatriceServer
from test_auction_e2e import connect_default
from test_auction_shipped_limits import run

from cockatrice_ext.journal import Journal

pytestmark = pytest.mark.servatrice

NAMES = ("Grizzly Bears", "Shock", "Giant Growth", "Naturalize", "Opt", "Duress")
BLOCK = "".join(f"1 {name}\n" for name in NAMES)
"""One of each: a count is a count of distinct cards."""


async def draw_one(drawer: Player, game_id: int) -> str:
    """``drawer`` (the active player) draws one card, as a player does (asked, then confirmed): its name."""
    mark = drawer.mark()
    await drawer.say(game_id, "!draw 1")
    await bot_line(drawer, r"say !draw again", mark, timeout=CHAT_BOUND)
    await drawer.say(game_id, "!draw 1")
    told = await drawer.wait_private(lambda t: t.startswith("You drew "), timeout=CHAT_BOUND)
    return re.match(r"You drew (.+?)(?::|\.$)", told).group(1)  # type: ignore[union-attr]


def journaled_block(path: Path, game_id: int) -> tuple[list[str], dict[str, list[str]]]:
    """The block's card names as the journal of the table played as ``game_id`` has it, and each player's
    hand (by user name)."""
    journal = Journal(path)
    try:
        keys = {entry.table_key for entry in journal.entries(engine="auction")}  # closed since: read all
        key = next(k for k in sorted(keys) if journal.table_meta(k)["game_id"] == game_id)
        meta = journal.table_meta(key)
        engine = journal.replay(key)[0]
        names = meta["game_names"]
        hands = {meta["names"][str(p)]: [names[i] for i in engine.hand[p]] for p in engine.players}  # type: ignore[attr-defined]
        return [names[i] for i in engine.block], hands  # type: ignore[attr-defined]
    finally:
        journal.close()


def test_a_rebuilt_auction_deck_holds_only_the_cards_left_in_the_game(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """Three players; the first active player draws a card and leaves (a loss: the card leaves the game
    with them), the next draws one and stays. After a kill and ``!resume``, once the stayer's card is dealt
    back, the bot's library as the players see it counts the block the journal has (6 - 2), its spares
    the cards still in the game (the block and the stayer's card), and the leaver's card is in neither."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    journal = tmp_path / "journal.sqlite3"
    url = servatrice_strict.ws_url

    async def scenario() -> tuple[int, int, int, str, str, str]:
        dealing = ["--auction-block", str(block), "--auction-seed", "7"]
        bot = BotProcess(url, "referee_p", journal, "auction", *dealing)
        players = [Player(await connect_default(url, name)) for name in ("alice_p", "bob_p", "cat_p")]
        try:
            room_id = await players[0].client.room_id_by_name("Bot room")
            for player in players:
                await player.client.join_room(room_id)
            old_game = await bot.open_game(players[0], room_id, "!auction new 3", "Auction Magic")
            seats = {await p.sit(room_id, old_game): p for p in players}
            await bot_line(players[0], r"Turn order", 0, timeout=CHAT_BOUND)
            mirror = players[0].client.games[old_game]
            await wait_until(lambda: mirror.active_player_id in seats, timeout=CHAT_BOUND, what="a turn")
            leaver = seats[mirror.active_player_id]
            taken = await draw_one(leaver, old_game)
            stayers = [p for p in players if p is not leaver]
            watcher = stayers[0]
            mirror = watcher.client.games[old_game]
            mark = watcher.mark()
            await leaver.client.leave_game(old_game)
            await bot_line(watcher, rf"{leaver.name} .*left the game", mark, timeout=CHAT_BOUND)
            await wait_until(
                lambda: mirror.active_player_id in seats and seats[mirror.active_player_id] is not leaver,
                timeout=CHAT_BOUND,
                what="the next player's turn",
            )
            holder = seats[mirror.active_player_id]
            kept = await draw_one(holder, old_game)
            other = next(p for p in stayers if p is not holder)

            await bot.kill_and_restart(watcher, old_game)
            heard = other.mark()
            new_game = await bot.resume(watcher, room_id, old_game)
            new_seats = {await p.sit(room_id, new_game): p for p in stayers}
            await bot_line(other, rf"Game #{old_game} continues here", heard, timeout=CHAT_BOUND)
            seen = other.client.games[new_game]
            holder_seat = next(pid for pid, p in new_seats.items() if p is holder)
            await wait_until(
                lambda: len(seen.players[holder_seat].zone("table").cards) == 1,
                timeout=CHAT_BOUND,
                what="the kept card dealt back",
            )
            bot_seat = next(pid for pid, p in seen.players.items() if p.name == "referee_p")
            library = seen.players[bot_seat].zone("deck").card_count
            spares = seen.players[bot_seat].zone("sb").card_count
        finally:
            for player in players:
                await player.close()
            bot.stop()
        return new_game, library, spares, taken, kept, leaver.name

    new_game, library, spares, taken, kept, leaver = run(scenario(), timeout=300)
    left, hands = journaled_block(journal, new_game)
    assert taken not in left and kept not in left and len(left) == len(NAMES) - 2, (left, taken, kept)
    assert hands[leaver] == [taken], hands  # the journal keeps it with them: out of the game
    assert library == len(left), f"the bot's library holds {library} cards; the block has {len(left)}"
    assert spares == len(left) + 1, f"{spares} spares for {len(left)} block cards and {kept!r}"
