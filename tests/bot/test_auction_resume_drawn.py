"""A card drawn before the bot was killed comes back, in the game ``!resume`` opens, as it was dealt: face
down, its name told to its drawer alone (a tester saw the rebuilt game deal it face up and name it in the
game's chat, to the other players and spectators)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from killable_bot import BotProcess
from servatrice import ServatriceServer
from test_auction_e2e import connect_default
from test_auction_shipped_limits import run

from cockatrice_ext.journal import JournalEntry

pytestmark = pytest.mark.servatrice

NAMES = ("Grizzly Bears", "Shock", "Giant Growth", "Naturalize", "Opt", "Duress")
BLOCK = "".join(f"1 {name}\n" for name in NAMES)
"""One of each: a name heard anywhere is that very card."""


def test_a_drawn_card_comes_back_face_down_named_to_its_drawer_alone(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    url = servatrice_strict.ws_url

    async def scenario() -> None:
        dealing = ["--auction-block", str(block), "--auction-seed", "7"]
        bot = BotProcess(url, "referee_d", tmp_path / "journal.sqlite3", "auction", *dealing)
        alice = Player(await connect_default(url, "alice_d"))
        bob = Player(await connect_default(url, "bob_d"))
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for player in (alice, bob):
                await player.client.join_room(room_id)
            old_game = await bot.open_game(alice, room_id, "!auction new 2", "Auction Magic")
            seats = {await alice.sit(room_id, old_game): alice, await bob.sit(room_id, old_game): bob}
            await bot_line(alice, r"Turn order", 0, timeout=20)
            mirror = alice.client.games[old_game]
            await wait_until(lambda: mirror.active_player_id in seats, timeout=20, what="a player's turn")
            drawer = seats[mirror.active_player_id]
            other = bob if drawer is alice else alice
            mark = drawer.mark()
            await drawer.say(old_game, "!draw 1")  # asked first (a free card otherwise)
            await bot_line(drawer, r"say !draw again", mark, timeout=20)
            await drawer.say(old_game, "!draw 1")
            told = await drawer.wait_private(lambda t: t.startswith("You drew "), timeout=20)
            drawn = re.match(r"You drew (.+?)(?::|\.$)", told).group(1)  # type: ignore[union-attr]

            await bot.kill_and_restart(alice, old_game)
            heard = len(other.heard)
            new_game = await bot.resume(alice, room_id, old_game)
            late = bob.mark()  # a second !resume, typed as the first was answered
            await bob.client.room_say(room_id, f"!resume {old_game}")
            await bot_line(
                bob, rf"game #{old_game} already continues as game #{new_game}: join that one", late
            )
            new_seats = {await alice.sit(room_id, new_game): alice, await bob.sit(room_id, new_game): bob}
            back = await drawer.wait_private(lambda t: t.startswith("The cards you drew"), timeout=30)
            assert back == (
                f"The cards you drew in game #{old_game}, back face down on your table: drag them into your"
                f" hand: {drawn}."
            )
            seat = next(pid for pid, p in new_seats.items() if p is drawer)
            seen = other.client.games[new_game].players[seat].zone("table")
            await wait_until(lambda: len(seen.cards) == 1, timeout=30, what="the drawn card back")
            assert [c.name for c in seen.cards] == [""], "face down: the other player reads no name"
            await bot_line(other, rf"Game #{old_game} continues here", heard, timeout=30)
            assert all(drawn not in text for _, text in other.heard[heard:]), other.heard[heard:]
        finally:
            for player in (alice, bob):
                await player.close()
            bot.stop()

    run(scenario(), timeout=300)


def entry(*effects: dict[str, object]) -> JournalEntry:
    return JournalEntry("t", 1, 0.0, {}, list(effects), "a")


def test_drawn_unseen_keeps_draws_that_nobody_else_was_shown() -> None:
    """A draw stays unseen until an effect names the card to the table (a lot, a keep, a cast)."""
    from cockatrice_ext.bot.auction import drawn_unseen

    drawn = entry({"type": "CardsDrawn", "player": 1, "cards": [{"index": 3}, {"index": 4}]})
    opened = entry({"type": "LotOpened", "cards": [{"index": 4}]})
    kept = entry({"type": "CardKept", "player": 1, "card": {"index": 5}})
    looked = entry({"type": "TopCardsShown", "player": 2, "cards": [{"index": 3}]})
    odd = entry({"type": "CardsDrawn", "cards": "junk"})
    assert drawn_unseen([drawn, opened, kept, looked, odd]) == {3}
    assert drawn_unseen([kept, entry({"type": "CardsDrawn", "cards": [{"index": 5}]})]) == {5}
