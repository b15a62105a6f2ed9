"""Three players: after the active player loses by drawing from the empty block, the table reads true.

Found last session: ``!state`` still read "Turn 1 (alice)" once alice had lost, Cockatrice's turn stayed with
her (nobody passes a lost player's turn), and her draw step then ran an auction for her from the empty block:
she "lost" a second time. Now the referee says whose turn comes next, passes the lost player's turn in
Cockatrice (as Servatrice does for one who concedes), and runs no auction step for a player who is out.

No server: the referee's commands are recorded; the turn changes Servatrice would send are fed back.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.web.demo import demo_bot, seat_game

GAME, ROOM = 7, 1


async def three_players(bot: Any) -> AuctionReferee:
    """A started game of alice, bobby and carol (seats 1-3; the referee in seat 0), alice's turn begun."""
    seat_game(bot, GAME, ["alice", "bobby", "carol"])
    options = AuctionOptions(seats=3, seed=7)
    referee = AuctionReferee(bot, GAME, ROOM, options, load_block("auction-sample"))
    bot.adopt_game(referee)
    await referee.start_engine()
    await referee.on_active_player(1)
    return referee


def passes(sent: list[Any]) -> int:
    """How many ``Command_NextTurn`` the referee sent."""
    return sum(1 for command in sent if command.HasExtension(pb.Command_NextTurn.ext))


def test_state_after_the_active_player_loses_by_drawing_from_the_empty_block(tmp_path: Path) -> None:
    sent: list[Any] = []
    chat: list[str] = []

    async def send(_: Any, message: str) -> None:
        chat.append(message)

    async def game_commands(_game_id: int, commands: list[Any], **__: Any) -> None:
        sent.extend(commands)

    async def run() -> list[str]:
        bot = demo_bot(tmp_path / "j.sqlite3", send)
        bot.client.game_commands = game_commands  # type: ignore[method-assign]
        referee = await three_players(bot)
        mirror, engine = referee.mirror, referee.engine
        del engine.block[2:]  # two cards left
        states: list[str] = []
        async with referee._lock:
            await referee.draw_cards(1, 3)  # alice draws past the block: she loses, the game goes on
        assert engine.eliminated == [1] and not engine.is_over()
        states.append(referee.status_line())
        assert passes(sent) == 1, "the referee passes the lost player's turn in Cockatrice"
        mirror.active_player_id = 1
        await referee.on_phase(2)  # her draw step, before the pass arrives: no auction for her
        assert engine.eliminated == [1], "alice lost once"
        mirror.active_player_id = 2
        await referee.on_active_player(2)  # the pass arrives: bobby's turn
        states.append(referee.status_line())
        for seat in (3, 0):  # carol's turn, the referee's (passed), then alice's seat again
            mirror.active_player_id = seat
            await referee.on_active_player(seat)
        before = passes(sent)
        mirror.active_player_id = 1
        await referee.on_active_player(1)
        assert passes(sent) == before + 1, "a lost player's later turn is passed too"
        mirror.active_player_id = 2
        await referee.on_active_player(2)
        states.append(referee.status_line())
        await bot.chat.flush(timeout=5)
        return states

    after_loss, bobby, bobby_again = asyncio.run(run())
    assert after_loss.startswith("Turn 1: alice lost; bobby's turn is next;"), after_loss
    assert bobby.startswith("Turn 2 (bobby);"), bobby
    assert bobby_again.startswith("Turn 4 (bobby);"), bobby_again
    said = " | ".join(chat)
    assert said.count("alice lost") == 1, said


def test_state_when_a_player_who_is_not_active_loses(tmp_path: Path) -> None:
    """bobby draws past the block in alice's turn (a card effect): the turn stays alice's and says so."""

    async def send(_: Any, __: str) -> None:
        return None

    async def run() -> tuple[str, Any]:
        bot = demo_bot(tmp_path / "j.sqlite3", send)
        referee = await three_players(bot)
        engine = referee.engine
        del engine.block[1:]
        async with referee._lock:
            await referee.perform(referee.apply(rules.Draw(player=2, count=2)))
        return referee.status_line(), engine

    state, engine = asyncio.run(run())
    assert engine.eliminated == [2]
    assert state.startswith("Turn 1 (alice);"), state


def test_a_bid_after_the_active_player_lost_is_told_the_next_turn_s_draw_step(tmp_path: Path) -> None:
    """A ``!bid`` before the lost player's turn has passed: not "it is alice's turn; alice: go to your draw
    step", since alice plays no more."""

    async def send(_: Any, __: str) -> None:
        return None

    async def run() -> str:
        bot = demo_bot(tmp_path / "j.sqlite3", send)
        referee = await three_players(bot)
        del referee.engine.block[:]
        async with referee._lock:
            await referee.draw_cards(1, 1)
        try:
            referee.apply(rules.Bid(player=2, amount=1))
        except rules.RulesError as exc:
            return referee.explain(exc, to=2)
        raise AssertionError("the bid was taken")

    said = asyncio.run(run())
    assert said == "nothing is up for auction: the next comes up at the next player's draw step", said


def test_a_lost_player_s_turn_is_passed_once_its_lot_is_over(tmp_path: Path) -> None:
    """alice concedes in chat while auction 1 is up: the lot goes on without her (bobby and carol end the
    step), and her turn is passed once it closes, once only, whatever is done before the turn change
    arrives."""
    sent: list[Any] = []

    async def send(_: Any, __: str) -> None:
        return None

    async def game_commands(_game_id: int, commands: list[Any], **__: Any) -> None:
        sent.extend(commands)

    async def run() -> tuple[int, int]:
        bot = demo_bot(tmp_path / "j.sqlite3", send)
        bot.client.game_commands = game_commands  # type: ignore[method-assign]
        referee = await three_players(bot)
        engine = referee.engine
        async with referee._lock:
            await referee.start_auction_step()
            await referee.perform(referee.apply(rules.Concede(player=1)))
        during = passes(sent)
        async with referee._lock:
            for player in (2, 3):  # the two left vote to stop: the step ends, the lot goes to the bottom
                await referee.perform(referee.apply(rules.StopAuctioning(player=player)))
            assert engine.lot is None
            for player in (2, 3):
                with contextlib.suppress(rules.RulesError):
                    await referee.perform(referee.apply(rules.BuyMana(player=player, color="G", count=1)))
        return during, passes(sent)

    during, after = asyncio.run(run())
    assert during == 0, "not while the lot is up"
    assert after == 1, "passed once"
