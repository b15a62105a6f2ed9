"""A ten-card lot of long card names on a real Servatrice with its shipped limits, as players see it.

Seen by testers on Servatrice 3.1.0: the lot card's note was cut by the server mid-card-name (it keeps 255
bytes of a card attribute), so "High bid / To bid / Gold" never showed and a bid changed nothing a player
could see; ``!state`` was cut before who is to bid; the announcement ended "(inst…"; ``!keep A, B`` was
refused.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import Player, bot_line, wait_until
from servatrice import ServatriceServer
from test_auction_e2e import referee_of
from test_auction_long_lots import LONG
from test_auction_shipped_limits import lines_since, run, seat_players

from cockatrice_ext.bot.auction import AuctionOptions, lot_note
from cockatrice_ext.bot.runtime import Bot, BotOptions

pytestmark = pytest.mark.servatrice

BLOCK = "".join(f"1 {name}\n" for name in [*LONG, "Grizzly Bears"])


async def long_lot_bot(url: str, tmp_path: Path) -> Bot:
    """An in-process bot under the shipped limits, refereeing the block of long names."""
    block = tmp_path / "long.txt"
    block.write_text(BLOCK)
    options = BotOptions(
        url=url,
        user="referee",
        rooms=("Bot room",),
        journal_path=tmp_path / "journal.sqlite3",
        formats=("auction",),
        format_options={"auction": AuctionOptions(block=str(block), seed=7)},
        client_options={"reconnect": False},
    )
    bot = Bot(options)
    await bot.start()
    return bot


async def one_note(player: Player, game_id: int, bot_pid: int, pattern: str) -> str:
    """The note every card of the lot carries, as ``player``'s client has it from the server, once it matches
    ``pattern``."""

    def seen() -> set[str]:
        cards = player.client.games[game_id].players[bot_pid].zone("table").cards
        return {c.annotation for c in cards if c.annotation.startswith("Auction ")}

    await wait_until(
        lambda: len(seen()) == 1 and re.search(pattern, next(iter(seen()))) is not None,
        what=f"one lot note matching {pattern!r} (seen: {seen()!r})",
    )
    return next(iter(seen()))


def test_a_ten_card_lot_shows_its_bids_and_names_every_card(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    async def scenario() -> None:
        bot = await long_lot_bot(servatrice_strict.ws_url, tmp_path)
        _, game_id, by_id = await seat_players(bot, servatrice_strict.ws_url, ["ann_l", "ben_l"], 2)
        referee = referee_of(bot, game_id)
        engine = referee.engine
        try:
            active = by_id[int(engine.active)]  # type: ignore[arg-type]
            other = next(p for p in by_id.values() if p is not active)
            mark = other.mark()
            await active.say(game_id, "!lot 10")
            opened = await bot_line(
                other, rf"Auction 1: .* more \(!state names them\).*{active.name} to bid\.", mark
            )
            assert "…" not in opened, opened
            first = await one_note(
                other,
                game_id,
                referee.me,
                rf"^Auction 1: .* more\nNo bid yet\nTo bid: {active.name} .*\nGold: ",
            )
            assert len(first.encode()) <= 255 and first.endswith(f"{other.name} 10"), first
            assert first == lot_note(
                engine, referee.player_name, with_gold=True, card_names=referee.block.game_names
            )
            await active.say(game_id, "!bid 1")
            second = await one_note(
                other,
                game_id,
                referee.me,
                rf"\nHigh bid: 1 by {active.name}\nTo bid: {other.name} .*\nGold: ",
            )
            assert second != first and len(second.encode()) <= 255

            # The welcome line also says "gold" and may still be queued under the shipped limits: wait for
            # the state's own words, heard after the question.
            asked = other.mark()
            await other.say(game_id, "!state")
            status = await bot_line(other, r"high bid \d+ by ", asked)
            assert f"high bid 1 by {active.name}; {other.name} to bid" in status, status
            await bot_line(other, r"Auction 1's 10 cards: ", asked)
            lot = [engine.ref(i).name for i in engine.lot.cards]  # type: ignore[union-attr]
            await bot_line(other, re.escape(referee.shown_card_name(lot[-1])) + r"\.", asked)
            heard = " ".join(lines_since(other, asked))
            assert all(referee.shown_card_name(name) in heard for name in lot), heard

            await other.say(game_id, "!pass")
            await bot_line(other, rf"Sold: .* to {active.name} for 1", mark)
            shown = [referee.shown_card_name(name) for name in lot]
            await active.say(game_id, f"!keep {shown[0]}, {shown[1]}")
            await bot_line(other, rf"{active.name} keeps {re.escape(shown[0])}\.", mark)
            await bot_line(other, rf"{active.name} keeps {re.escape(shown[1])}\.", mark)
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())
