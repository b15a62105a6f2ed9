"""Auction Magic as players meet it: Servatrice's shipped flood limits, auth none, no judge rights.

Each test plays through what issue 12 saw go wrong and checks what the players' own clients show:
the lot card's note, where dealt cards lie, and the chat lines (or their absence).
"""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from killable_bot import BotProcess
from servatrice import ServatriceServer
from test_auction_e2e import BLOCK, connect_default, open_game, referee_of, wait_note

from cockatrice_ext.bot.auction import AuctionOptions
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice


STATE_LINE = r"; gold .*; block \d+\."
"""Words only the answer to !state has (a sale or an income line also says "gold ")."""


def run(coroutine: Any, timeout: float = 240.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def strict_bot(url: str, tmp_path: Path, **extra: Any) -> Bot:
    """An in-process bot that paces itself under the shipped limits (the client's defaults)."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    options = BotOptions(
        url=url,
        user="referee",
        rooms=("Bot room",),
        journal_path=tmp_path / "journal.sqlite3",
        formats=("auction",),
        format_options={"auction": AuctionOptions(block=str(block), seed=7, **extra)},
        client_options={"reconnect": False},
    )
    bot = Bot(options)
    await bot.start()
    return bot


async def seat_players(
    bot: Bot, url: str, names: list[str], seats: int
) -> tuple[int, int, dict[int, Player]]:
    players = [Player(await connect_default(url, name)) for name in names]
    room_id = await players[0].client.room_id_by_name("Bot room")
    for player in players:
        await player.client.join_room(room_id)
    game_id = await open_game(bot, players[0], room_id, f"!auction new {seats}")
    by_id = {await p.sit(room_id, game_id): p for p in players}
    referee = referee_of(bot, game_id)
    await wait_until(lambda: referee.table is not None and referee.engine.active is not None, timeout=30)
    return room_id, game_id, by_id


def table_columns(viewer: Player, game_id: int, seat: int) -> list[tuple[int, int]]:
    """(card column, row) of every card on ``seat``'s table as ``viewer`` sees it."""
    cards = viewer.client.games[game_id].players[seat].zone("table").cards
    return [(card.x // 3, card.y) for card in cards]


def lines_since(player: Player, mark: int) -> list[str]:
    return [text for _, text in player.heard[mark:]]


def test_one_turn_as_players_see_it(servatrice_strict: ServatriceServer, tmp_path: Path) -> None:
    """Stop votes, a block lot with cast-or-keep, draws, !look 1, !mana, !sell, the bid cap, the help,
    a standing bid voided by the end of turn; every dealt card in a column of its own."""

    async def scenario() -> None:
        bot = await strict_bot(servatrice_strict.ws_url, tmp_path)
        _, game_id, by_id = await seat_players(bot, servatrice_strict.ws_url, ["alice_f", "bob_f"], 2)
        referee = referee_of(bot, game_id)
        engine = referee.engine
        bot_pid = referee.me
        try:
            active_pid = int(engine.active)  # type: ignore[arg-type]
            active = by_id[active_pid]
            other_pid, other = next((pid, p) for pid, p in by_id.items() if p is not active)

            mark = active.mark()
            await active.say(game_id, "!help")
            await bot_line(active, r"Commands", mark)
            await asyncio.sleep(1.0)
            helptext = " ".join(lines_since(active, mark))
            assert "!bid" in helptext and "!cdamage" not in helptext  # Commander Auction only

            # Lot 1 (Giant Growth): both vote to stop; the last vote waits for nobody.
            await active.phase(game_id, 2)
            await bot_line(active, rf"Auction 1: Giant Growth .*{active.name} to bid\.", mark)
            await wait_note(other, game_id, bot_pid, r"^Auction 1: Giant Growth\nNo bid yet")
            assert table_columns(other, game_id, bot_pid) == [(0, 0)]  # the lot card, readable, alone
            await active.say(game_id, "!stop")
            await bot_line(
                active, rf"{active.name} votes to stop auctioning \(waiting for {other.name}\)", mark
            )
            await other.say(game_id, "!stop")
            await bot_line(active, rf"{other.name} votes to stop too: no more auctions this turn", mark)
            assert not any("(waiting for )" in line for line in lines_since(active, mark))
            await wait_until(lambda: engine.phase == "main", what="auction step over")

            # !lot 2 (Naturalize + Chimney Imp): side by side on the referee's table; the sale offers
            # cast or keep for each card (90X.4c); the bid cap is above the largest starting gold.
            await active.say(game_id, "!lot 2")
            await bot_line(active, r"Auction 2: Naturalize .*Chimney Imp", mark)
            await wait_until(lambda: sorted(table_columns(other, game_id, bot_pid)) == [(0, 0), (1, 0)])
            await active.say(game_id, "!bid 20000000")
            await bot_line(active, rf"{active.name}: you have only 10 gold", mark)
            await active.say(game_id, "!bid 1")
            await wait_note(other, game_id, bot_pid, rf"High bid: 1 by {active.name}\nTo bid: {other.name}")
            await other.say(game_id, "!stop")  # seen in the field: "nothing is up for auction"
            await bot_line(
                active,
                rf"{other.name}: !stop only ends the auction step; auction 2 \(put up with !lot\) is not part"
                r" of it and ends when its bidding does",
                mark,
            )
            await other.say(game_id, "!pass")
            await bot_line(
                active,
                rf"{active.name}: !cast or !keep each of (Naturalize, Chimney Imp|Chimney Imp, Naturalize)",
                mark,
            )
            await active.say(game_id, "!keep Naturalize")
            await bot_line(active, rf"{active.name}: drag Naturalize from your table to your hand\.", mark)
            await active.say(game_id, "!cast Chimney Imp")
            await bot_line(active, rf"{active.name} casts Chimney Imp", mark)
            mine = active.client.games[game_id].players[active_pid].zone("table")
            await wait_until(lambda: len(mine.cards) == 2, what="bought cards on the buyer's table")
            assert all(c.annotation.startswith(f"Owner: {active.name}") for c in mine.cards)

            # Draws: two cards, face down in two columns, named to the drawer alone (a hand card is hidden).
            await active.say(game_id, "!draw 2")
            told = await active.wait_private(lambda t: t.startswith("You drew"))
            assert (
                told == "You drew Shock and Serra Angel: face down on your table, drag them into your hand."
            )
            await wait_until(lambda: len(mine.cards) == 4, what="drawn cards on the table")
            assert sum(c.face_down for c in mine.cards) == 2
            assert not [t for t in lines_since(other, mark) if "Shock" in t or "Serra Angel" in t]

            # !look 1 suggests an !order that fits one card; !mana names the counter to raise.
            await active.say(game_id, "!look 1")
            listing = await active.wait_private(lambda t: t.startswith("Top of the block"))
            assert "!order 1 (or !order bottom 1)" in listing and "2 1 3" not in listing
            await active.say(game_id, "!mana R 2")
            await bot_line(
                active, rf"{active.name} buys 2 R mana \(7 gold left\): add 2 to your R counter", mark
            )

            # !sell: the seller is told what to do with the sold card.
            await active.say(game_id, "!sell Naturalize")
            await bot_line(active, rf"Auction 3: Naturalize .*{other.name} to bid", mark)
            await other.say(game_id, "!bid 1")
            await bot_line(
                active, rf"{active.name}: drag Naturalize onto {other.name}'s table; {other.name}: then", mark
            )

            # A standing bid voided by the end of the turn is not "No bids".
            await active.next_turn(game_id)
            await wait_until(lambda: engine.active == other_pid, what="the other player's turn")
            mark = active.mark()
            await other.phase(game_id, 2)
            await bot_line(active, rf"Auction 4: Pacifism .*{other.name} to bid", mark)
            await other.say(game_id, "!bid 1")
            await wait_note(active, game_id, bot_pid, rf"High bid: 1 by {other.name}")
            await other.next_turn(game_id)
            await bot_line(
                active, rf"auction 4: {other.name}'s bid of 1 is void and Pacifism goes to the bottom", mark
            )
            assert not any("No bids" in line for line in lines_since(active, mark))

            # No card the referee dealt hides another.
            for seat in (active_pid, other_pid, bot_pid):
                columns = table_columns(other, game_id, seat)
                assert len(columns) == len(set(columns)), (seat, columns)
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())


def test_departures_mid_lot_are_named_and_nothing_breaks(
    servatrice_strict: ServatriceServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A bidder who disconnects mid-lot leaves (by name, not "conceded", never an id) and the lot goes on
    without them, the standing bid standing; a high bidder who disconnects voids the bids and bidding starts
    over in the same lot; a buyer who leaves with a cast-or-keep choice pending does not crash the referee;
    !state stops listing them."""
    caplog.set_level(logging.INFO)

    async def scenario() -> None:
        bot = await strict_bot(servatrice_strict.ws_url, tmp_path)
        names = ["ann_d", "ben_d", "cid_d", "dot_d", "eve_d"]
        _, game_id, by_id = await seat_players(bot, servatrice_strict.ws_url, names, 5)
        referee = referee_of(bot, game_id)
        engine = referee.engine
        try:
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            mark = active.mark()
            await active.phase(game_id, 2)
            await bot_line(active, r"Auction 1: Giant Growth", mark)
            order = [by_id[int(p)] for p in engine.current_lot()["bidders"]]  # type: ignore[index]
            first, second, third, fourth, watcher = order
            await first.say(game_id, "!bid 1")
            await wait_note(watcher, game_id, referee.me, rf"To bid: {second.name}")

            # Seen in the field: the next bidder left and "Giant Growth goes up again without them", the
            # standing bid void. It stands, and the next player bids.
            mark = watcher.mark()
            await second.close()
            await bot_line(
                watcher,
                rf"{second.name} left the game; auction 1 goes on without them: {first.name}'s bid of 1"
                rf" stands, {third.name} to bid\.",
                mark,
            )
            await wait_note(
                watcher,
                game_id,
                referee.me,
                rf"^Auction 1: Giant Growth\nHigh bid: 1 by {first.name}\nTo bid:"
                rf" {third.name}",
            )

            # The high bidder leaves: the bids are void and bidding starts over in the same lot.
            await third.say(game_id, "!bid 2")
            await wait_note(watcher, game_id, referee.me, rf"High bid: 2 by {third.name}")
            await third.close()
            await bot_line(
                watcher,
                rf"{third.name} left the game with the high bid of 2: the bids on auction 1 are void and"
                rf" bidding starts again with {first.name}\.",
                mark,
            )
            said = " ".join(lines_since(watcher, mark))
            assert "conceded" not in said and not re.search(r"player \d", said), said
            assert "Auction 2" not in said and "goes up again" not in said, said

            # The same lot: its first bidder buys it, then leaves with the choice pending.
            buyer, rest = first, [fourth, watcher]
            await buyer.say(game_id, "!bid 1")
            for player in rest:
                await wait_note(watcher, game_id, referee.me, rf"To bid: {player.name}")
                await player.say(game_id, "!pass")
            await bot_line(watcher, rf"Sold: Giant Growth to {buyer.name} for 1", mark)
            await bot_line(watcher, rf"{buyer.name}: !cast or !keep Giant Growth", mark)
            mark = watcher.mark()  # seen in the field: !state did not say whose choice the game waits for
            await watcher.say(game_id, "!state")
            state = await bot_line(watcher, STATE_LINE, mark)
            assert f"{buyer.name} to choose !cast or !keep for Giant Growth" in state, state
            mark = watcher.mark()
            await buyer.close()
            await bot_line(watcher, rf"{buyer.name} left the game\.", mark)
            await bot_line(watcher, r"Auction 2: Naturalize", mark)  # the follow-up goes on without them
            mark = watcher.mark()
            await watcher.say(game_id, "!state")
            state = await bot_line(watcher, STATE_LINE, mark, timeout=40)
            assert all(p.name not in state for p in (second, third, buyer)), state
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())
    failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, failures


def test_a_concession_ends_the_game_before_anything_else(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """The active player, holding a card they bought, concedes in Cockatrice: game over comes first,
    with no !top/!bottom prompt and no income for them."""

    async def scenario() -> None:
        bot = await strict_bot(servatrice_strict.ws_url, tmp_path)
        _, game_id, by_id = await seat_players(bot, servatrice_strict.ws_url, ["amy_c", "bo_c"], 2)
        referee = referee_of(bot, game_id)
        engine = referee.engine
        try:
            active_pid = int(engine.active)  # type: ignore[arg-type]
            active = by_id[active_pid]
            other = next(p for p in by_id.values() if p is not active)
            mark = other.mark()
            await active.phase(game_id, 2)
            await bot_line(other, r"Auction 1: Giant Growth", mark)
            await active.say(game_id, "!bid 1")
            await wait_note(other, game_id, referee.me, rf"To bid: {other.name}")
            await other.say(game_id, "!pass")
            await active.say(game_id, "!keep")
            await wait_until(
                lambda: len(active.client.games[game_id].players[active_pid].zone("table").cards) == 1,
                what="the kept card on the buyer's table",
            )
            await bot_line(other, r"Auction 2: Naturalize", mark)
            mark = other.mark()
            await active.client.game_command(game_id, commands.concede())
            await bot_line(other, rf"Game over: {other.name} wins \({active.name} conceded\)", mark)
            await asyncio.sleep(1.5)
            said = lines_since(other, mark)
            assert said[0].startswith("Game over"), said
            assert not any("!top" in line or "Income" in line or "gives back" in line for line in said), said
            assert engine.gold(active_pid) == 9  # no income paid to the conceder
            bot_table = other.client.games[game_id].players[referee.me].zone("table").cards
            assert "Giant Growth" not in [c.name for c in bot_table]  # the buyer's card left with them
            assert referee.finished
            mark = other.mark()  # seen in the field: after "Game over", !state read as a game going on
            await other.say(game_id, "!state")
            state = await bot_line(other, STATE_LINE, mark, timeout=40)
            assert state.startswith(f"Game over: {other.name} won ({active.name} conceded) on turn"), state
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())


def test_resume_after_kill_rebuilds_the_game(servatrice_strict: ServatriceServer, tmp_path: Path) -> None:
    """``kill -9`` under auth none: the restarted bot names the lost game in the room within 5 s;
    ``!resume`` opens a new game with the gold, the open lot and its standing bid, and every bought
    card back on its owner's table."""
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    journal = tmp_path / "journal.sqlite3"
    url = servatrice_strict.ws_url

    async def scenario() -> None:
        dealing = ["--auction-block", str(block), "--auction-seed", "7"]
        bot = BotProcess(url, "referee_k", journal, "auction", *dealing)
        alice = Player(await connect_default(url, "alice_k"))
        bob = Player(await connect_default(url, "bob_k"))
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for player in (alice, bob):
                await player.client.join_room(room_id)
            marks = {
                alice.name: alice.mark(),
                bob.name: bob.mark(),
            }  # each player's own place in what they heard
            old_game = await bot.open_game(alice, room_id, "!auction new 2", "Auction Magic")
            seats = {await alice.sit(room_id, old_game): alice, await bob.sit(room_id, old_game): bob}
            await bot_line(alice, r"Turn order", marks[alice.name], timeout=20)
            mirror = alice.client.games[old_game]
            bot_pid = next(pid for pid, p in mirror.players.items() if p.name == "referee_k")
            await wait_until(lambda: mirror.active_player_id in seats, timeout=20, what="a player's turn")
            active = seats[mirror.active_player_id]
            other = bob if active is alice else alice
            # Lot 1 (Giant Growth): the active player buys it for 1 and keeps it; lot 2 follows.
            await active.phase(old_game, 2)
            await wait_note(
                other, old_game, bot_pid, rf"Auction 1: Giant Growth\nNo bid yet\nTo bid: {active.name}"
            )
            await active.say(old_game, "!bid 1")
            await wait_note(other, old_game, bot_pid, rf"To bid: {other.name}")
            await other.say(old_game, "!pass")
            await bot_line(other, rf"{active.name}: !cast or !keep Giant Growth", marks[other.name])
            await active.say(old_game, "!keep")
            await wait_note(
                other, old_game, bot_pid, rf"Auction 2: Naturalize\nNo bid yet\nTo bid: {active.name}"
            )
            await active.say(old_game, "!bid 2")
            before = await wait_note(
                other, old_game, bot_pid, rf"High bid: 2 by {active.name}\nTo bid: {other.name}"
            )
            assert (
                f"Gold: {active.name} 9, {other.name} 10" in before
                or f"{other.name} 10, {active.name} 9" in before
            )

            # kill -9: the seat goes with the connection (auth none), the journal stays.
            await bot.kill_and_restart(alice, old_game)
            new_game = await bot.resume(alice, room_id, old_game)
            mark = alice.mark()
            # Only the game's own players may sit in the rebuilt game.
            eve = Player(await connect_default(url, "eve_k"))
            try:
                await eve.client.join_room(room_id)
                stranger = await eve.client.join_game(room_id, new_game)
                await wait_until(lambda: stranger.kicked, what="the stranger turned away")
                told = await eve.wait_private(lambda t: "only its players still in can sit" in t)
                assert f"continues game #{old_game}" in told
            finally:
                await eve.close()
            new_seats = {await alice.sit(room_id, new_game): alice, await bob.sit(room_id, new_game): bob}
            await bot_line(
                alice, rf"Game #{old_game} continues here: .*auction 2: Naturalize, high bid 2", mark
            )
            new_mirror = alice.client.games[new_game]
            new_bot = next(pid for pid, p in new_mirror.players.items() if p.name == "referee_k")
            after = await wait_note(
                other, new_game, new_bot, rf"High bid: 2 by {active.name}\nTo bid: {other.name}"
            )
            assert after == before, (before, after)
            # The kept card is back on its owner's table, labelled with its owner and price as it was, with
            # one instruction.
            active_seat = next(pid for pid, p in new_seats.items() if p is active)
            table = new_mirror.players[active_seat].zone("table")
            await wait_until(
                lambda: (
                    [(c.name, c.annotation) for c in table.cards]
                    == [
                        ("Giant Growth", f"Owner: {active.name} (from the referee)\nBought for 1 (auction 1)")
                    ]
                ),
                what="the kept card back with its owner and price",
            )
            await bot_line(alice, rf"{active.name}: drag Giant Growth from your table to your hand", mark)
            # The game goes on where it stopped.
            await other.say(new_game, "!pass")
            await bot_line(alice, rf"Sold: Naturalize to {active.name} for 2 \(7 gold left\)", mark)
        finally:
            for player in (alice, bob):
                await player.close()
            bot.stop()

    run(scenario(), timeout=300)
