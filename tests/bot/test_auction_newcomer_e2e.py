"""A turn of Auction Magic as a player who never read the rules meets it, on a real Servatrice with the
shipped flood limits: the chat says how a turn's auction starts, ``!bid 0`` says how to decline, and an
early ``!draw`` is asked about once instead of handing out the turn's card."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_auction_e2e import referee_of
from test_auction_shipped_limits import run, seat_players, strict_bot

pytestmark = pytest.mark.servatrice

HOW = r"go to your draw step \(or say !auction\) and the top card comes up for auction"


def test_a_newcomer_learns_from_chat_how_the_auction_starts(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    async def scenario() -> None:
        bot = await strict_bot(servatrice_strict.ws_url, tmp_path)
        _, game_id, by_id = await seat_players(bot, servatrice_strict.ws_url, ["alice_n", "bob_n"], 2)
        referee = referee_of(bot, game_id)
        engine = referee.engine
        try:
            active_pid = int(engine.active)  # type: ignore[arg-type]
            active = by_id[active_pid]
            other_pid, other = next((pid, p) for pid, p in by_id.items() if p is not active)
            await bot_line(active, r"Each turn's auction starts at the active player's draw step", 0)
            await bot_line(active, rf"{active.name}'s turn: {HOW}\.", 0)

            mark = active.mark()
            await other.say(game_id, "!bid 3")
            await bot_line(
                active,
                rf"{other.name}: nothing is up for auction yet: it is {active.name}'s turn;"
                rf" {active.name}: {HOW}",
                mark,
            )
            await active.say(game_id, "!bid 3")  # the same refusal, said to the active player: "your turn"
            await bot_line(
                active, rf"{active.name}: nothing is up for auction yet: it is your turn: {HOW}", mark
            )
            await active.say(game_id, "!bid 0")
            await bot_line(
                active,
                rf"{active.name}: AMOUNT must be between 1 and \d+; to decline the card, say !pass",
                mark,
            )

            await active.say(game_id, "!draw")  # the newcomer's try at taking the turn's card
            await bot_line(
                active,
                rf"{active.name}: this turn's card comes from its auction: {HOW}\. !draw is for card effects",
                mark,
            )
            assert engine.hand[active_pid] == [] and engine.lot is None  # nothing was drawn
            await other.say(game_id, "!draw")  # another player's draw (a card effect) is not asked about
            await other.wait_private(lambda t: t.startswith("You drew"), timeout=15)
            await active.say(game_id, "!draw")  # the repeat draws
            await active.wait_private(lambda t: t.startswith("You drew"), timeout=15)
            assert len(engine.hand[active_pid]) == 1 and len(engine.hand[other_pid]) == 1

            await active.phase(game_id, 2)  # the draw step: the auction step replaces it
            await bot_line(active, rf"Auction 1: .* {active.name} to bid\.", mark)
            mark = active.mark()
            await active.next_turn(game_id)
            turn = await bot_line(active, rf"{other.name}'s turn: {HOW}\.", mark)
            # One chat message: the income line carries the next turn's words.
            assert re.search(rf"Income \+3: .* gold\. \| {other.name}'s turn", turn), turn
            await wait_until(lambda: engine.active == other_pid, what="the next turn")
            mark = active.mark()
            await other.next_turn(game_id)  # of the two turn changes, one passes the referee's own turn
            turn = await bot_line(active, rf"{active.name}'s turn: {HOW}\.", mark)
            assert re.search(rf"Income \+3: .* gold\. \| {active.name}'s turn", turn), turn
            assert engine.gold(active_pid) == engine.gold(other_pid) == 16
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())
