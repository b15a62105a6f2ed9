"""Auction Magic's turn words through the real referee, its journal and its chat scheduler (no server): a
refusal about its sender says "you", the early ``!draw`` ask survives a restart, a turn line with nothing to
go with waits for the turn's next line, and ``at=turn`` tables hear their own timing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from bot.test_auction_view import creature, spell

from cockatrice_ext.bot import auction as bot_auction
from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import LoadedBlock
from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.client.mirror import GameMirror, PlayerState
from cockatrice_ext.formats import auction as am
from cockatrice_ext.journal import Journal, JournalError, Table

GAME = 5
ALICE, BOB, REFEREE = 1, 2, 3
NAMES = {ALICE: "alice", BOB: "bob"}
KEY = f"test:game:{GAME}"
HOW = "go to your draw step (or say !auction) and the top card comes up for auction"


async def round_trip() -> None:
    """What a game command costs the referee here: it waits for the server's answer (the chat scheduler
    sends what waits meanwhile)."""
    await asyncio.sleep(0.001)


class Shown(AuctionReferee):
    """The real referee; what it would do on the server's table (card moves, notes, counters) is a round
    trip that changes nothing: only its words are under test."""

    async def to_my_table(self, index: int) -> int | None:
        await round_trip()
        return None

    async def my_table_to_deck(self, index: int, *, top: bool) -> None:
        await round_trip()

    async def hand_over(self, index: int, player: Any, *, hand: bool, hidden: bool = False) -> None:
        await round_trip()

    async def show_lot(self, note: str, *, owned: bool = False) -> None:
        await round_trip()

    async def show_counters(self, gold: dict[Any, int], mana: list[tuple[Any, str, int]]) -> None:
        await round_trip()


class Game:
    """A two-player game (alice, bob) of ``cards`` in that order, journaled at ``path``; ``messages``: every
    chat message the bot's scheduler sent to the game, as sent (merged lines joined with `` | ``)."""

    def __init__(self, path: Path, cards: list[CardFacts], *, judge: bool = False, at: str = "draw") -> None:
        self.path, self.cards, self.judge, self.at = path, cards, judge, at
        self.messages: list[str] = []
        self.private: list[tuple[str, str]] = []
        self.journal = Journal(path)
        config = am.AuctionConfig(players=(ALICE, BOB), cards=tuple(cards), shuffle_block=False)
        self.table = Table.create(self.journal, KEY, am.AuctionEngine(config, seed=1))
        self.referee: Shown | None = None

    def start_referee(self) -> Shown:
        """The referee as a (re)started bot has it: a new one, its table replayed from the journal."""
        seats = {pid: PlayerState(pid, name=name) for pid, name in {**NAMES, REFEREE: "referee"}.items()}
        mirror = GameMirror(
            game_id=GAME, local_player_id=REFEREE, players=seats, judge=self.judge, started=True
        )

        async def send(destination: tuple[str, Any], message: str) -> None:
            if destination == ("game", GAME):
                self.messages.append(message)
            else:
                self.private.append((str(destination[1]), message))

        bot = SimpleNamespace(
            server_key="test",
            journal=self.journal,
            client=SimpleNamespace(games={GAME: mirror}),
            chat=ChatScheduler(send, lambda destination, message: 0.0),
            gone_for_good=False,
            fleet=None,
            main=None,
            view_listeners=[],
        )
        names = [card.name for card in self.cards]
        block = LoadedBlock(name="test", facts=tuple(self.cards), game_names=tuple(names), cod="")
        referee = Shown(bot, GAME, 1, AuctionOptions(auction_at=self.at), block)  # type: ignore[arg-type]
        bot.all_games = lambda: {GAME: referee}
        referee.table = Table.restore(self.journal, KEY)
        referee.engine_names = dict(NAMES)
        referee.live = True
        self.referee = referee
        return referee

    def restart(self) -> Shown:
        """The bot stops and starts again: the journal is closed and opened anew, the table replayed."""
        self.journal.close()
        self.journal = Journal(self.path)
        return self.start_referee()

    async def said(self, player: int, text: str) -> None:
        """``player`` says ``text`` in the game's chat; the bot's answers have left when this returns."""
        referee = self.referee
        assert referee is not None
        ctx = Context(referee.bot, "game", NAMES[player], player_id=player, game_id=GAME)
        ctx.reply_hook = referee.say
        assert await referee.handle_command(ctx, text)
        await self.sent()

    async def apply(self, action: Any) -> None:
        """The referee applies ``action`` (a game event's) and shows its effects."""
        referee = self.referee
        assert referee is not None
        async with referee._lock:
            await referee.perform(referee.apply(action))
        await self.sent()

    async def sent(self) -> None:
        """Until every line the bot queued has left."""
        assert self.referee is not None
        await self.referee.bot.chat.flush(timeout=5)


def play(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 60))


# ---------------------------------------------------------------------------
# 1: a refusal about its sender says "you"
# ---------------------------------------------------------------------------


def test_a_refusal_about_its_sender_says_your_turn_and_you(tmp_path: Path) -> None:
    """Seen: alice's own early ``!bid`` was answered "it is alice's turn; alice: go to your draw step"."""
    game = Game(tmp_path / "j.sqlite3", [spell("Shock"), creature("Bear"), creature("Imp"), creature("Elf")])

    async def scenario() -> None:
        game.start_referee()
        await game.apply(am.BeginTurn(None, active=ALICE))
        await game.said(ALICE, "!bid 3")
        await game.said(BOB, "!bid 3")
        assert game.messages[-2:] == [
            f"alice: nothing is up for auction yet: it is your turn: {HOW}",
            f"bob: nothing is up for auction yet: it is alice's turn; alice: {HOW}",
        ]
        await game.apply(am.StartAuctionStep(None))
        await game.said(ALICE, "!bid 1")
        await game.said(BOB, "!pass")  # Shock sold to alice: the next card waits for her choice
        await game.said(ALICE, "!bid 2")
        await game.said(BOB, "!stop")
        assert game.messages[-2:] == [
            "alice: nothing is up for auction yet: the next card goes up once you say !cast or !keep",
            "bob: no card is up yet: the next goes up once alice says !cast or !keep; !stop then",
        ]
        await game.said(ALICE, "!stop")
        assert game.messages[-1] == (
            "alice: no card is up yet: the next goes up once you say !cast or !keep; !stop then"
        )
        await game.said(ALICE, "!keep")
        await game.said(ALICE, "!bid 1")
        await game.said(BOB, "!pass")  # Bear sold: the turn's auction is over
        await game.said(ALICE, "!cast")
        await game.said(ALICE, "!bid 1")
        await game.said(BOB, "!bid 1")
        assert game.messages[-2:] == [
            "alice: nothing is up for auction: your turn has had its auction; the next comes up at the next"
            " player's draw step (or on their !auction)",
            "bob: nothing is up for auction: alice's turn has had its auction; the next comes up at the next"
            " player's draw step (or on their !auction)",
        ]
        await game.said(ALICE, "!sell Bear")
        await game.said(ALICE, "!stop")
        assert game.messages[-1] == (
            "alice: !stop only ends the auction step; auction 3 (your !sell) is not part of it and ends when"
            " its bidding does (!bid N or !pass); unbid, it stays with you"
        )

    play(scenario)


def test_the_commander_pregame_s_first_bidder_hears_you_take_it_free() -> None:
    from bot.test_auction_view import legend
    from bot.test_auction_wording import referee_for

    config = am.AuctionConfig(
        players=(ALICE, BOB), cards=(legend("Zur"), legend("Rafiq")), shuffle_block=False, commander=True
    )
    engine = am.AuctionEngine(config, seed=1)
    engine.apply(am.StartPregame(None))
    with pytest.raises(am.RulesError) as info:
        engine.apply(am.StopAuctioning(ALICE))
    referee = referee_for(engine)
    assert referee.explain(info.value, to=ALICE).endswith("unbid, you take it free (90Y.4a)")
    assert referee.explain(info.value, to=BOB).endswith("unbid, alice takes it free (90Y.4a)")


# ---------------------------------------------------------------------------
# 2: the early !draw ask is journaled
# ---------------------------------------------------------------------------


def test_the_early_draw_ask_survives_a_restart(tmp_path: Path) -> None:
    """The active player's first ``!draw`` before the turn's auction asks; the bot restarts (its table
    replayed from the journal); the repeat draws, as it would have without the restart. The ask is no
    engine action: the journal's actions are what an older bot recorded, and replay as they did."""
    game = Game(tmp_path / "j.sqlite3", [creature("Bear"), creature("Imp"), creature("Elf")])

    async def scenario() -> None:
        game.start_referee()
        await game.apply(am.BeginTurn(None, active=ALICE))
        await game.said(ALICE, "!draw")
        assert "say !draw again to draw anyway" in game.messages[-1]
        assert game.table.engine.hand[ALICE] == []
        referee = game.restart()
        await game.said(ALICE, "!draw")
        assert referee.engine.hand[ALICE] == [0]  # drawn, not asked again
        assert game.private[-1] == (
            "alice",
            "You drew Bear: face down on your table, drag it into your hand.",
        )
        assert [entry.action["type"] for entry in game.journal.entries(KEY)] == ["BeginTurn", "Draw"]
        await game.apply(am.EndTurn(None))
        await game.apply(am.BeginTurn(None, active=BOB))
        await game.said(BOB, "!draw")  # another turn: asked again
        assert "say !draw again to draw anyway" in game.messages[-1]
        assert referee.engine.hand[BOB] == []

    play(scenario)


def test_a_fenced_process_journals_no_draw_ask(tmp_path: Path) -> None:
    """A process that may no longer act (its journal refuses actions) writes no ask into a table another
    process may play on."""
    game = Game(tmp_path / "j.sqlite3", [creature("Bear"), creature("Imp")])
    game.table.apply(am.BeginTurn(None, active=ALICE))
    referee = game.start_referee()
    game.journal.refuse_actions("another process took the journal")
    with pytest.raises(JournalError, match="another process took the journal"):
        referee.draw_needs_asking(ALICE)
    assert bot_auction.DRAW_ASKED not in game.journal.table_meta(KEY)


# ---------------------------------------------------------------------------
# 3: the turn line with nothing to go with waits for the turn's next line
# ---------------------------------------------------------------------------


def test_a_judge_tables_turn_line_goes_in_the_turns_next_message(tmp_path: Path) -> None:
    """With judge rights there is no income line: the turn line waits for the turn's next line (one
    message for both), and is dropped once the turn's auction opened (the lot's line names the bidder)."""
    game = Game(tmp_path / "j.sqlite3", [creature("Bear"), creature("Imp"), creature("Elf")], judge=True)

    async def scenario() -> None:
        game.start_referee()
        await game.apply(am.BeginTurn(None, active=ALICE))
        assert game.messages == []  # no message of its own
        await game.said(ALICE, "!gold")
        assert game.messages == [f"alice's turn: {HOW}. | Gold: alice 10, bob 10"]
        await game.apply(am.StartAuctionStep(None))
        assert game.messages[1:] == [
            "Auction 1: Bear (creature 2/2) (the card on the referee's table). alice to bid."
        ]
        await game.said(ALICE, "!bid 1")
        await game.said(BOB, "!pass")
        await game.said(ALICE, "!cast")
        await game.apply(am.EndTurn(None))
        before = len(game.messages)
        await game.apply(am.BeginTurn(None, active=BOB))
        await game.apply(am.StartAuctionStep(None))  # bob went to his draw step at once
        assert game.messages[before:] == [
            "Auction 2: Imp (creature 2/2) (the card on the referee's table). bob to bid."
        ]

    play(scenario)


def test_a_held_turn_line_is_said_alone_when_nothing_follows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A newcomer who does not know how their auction starts still reads it, alone, once the wait is over."""
    monkeypatch.setattr(bot_auction, "TURN_LINE_WAIT", 0.0)
    game = Game(tmp_path / "j.sqlite3", [creature("Bear"), creature("Imp")], judge=True)

    async def scenario() -> None:
        referee = game.start_referee()
        await game.apply(am.BeginTurn(None, active=ALICE))
        while referee._turn_wait is not None:
            await asyncio.sleep(0.01)
        await game.sent()
        assert game.messages == [f"alice's turn: {HOW}."]

    play(scenario)


# ---------------------------------------------------------------------------
# 3 and 4: at=turn, the turn's lines with its first lot, and its own timing in words
# ---------------------------------------------------------------------------


def test_at_turn_the_turn_change_and_its_first_lot_are_one_message(tmp_path: Path) -> None:
    """``auction_at="turn"``: the income line (and the end of the turn before) leave with the new turn's
    first lot, not in a message of their own just before it."""
    game = Game(tmp_path / "j.sqlite3", [creature("Bear"), creature("Imp"), creature("Elf")], at="turn")

    async def scenario() -> None:
        referee = game.start_referee()
        referee.mirror.active_player_id = ALICE
        async with referee._lock:
            await referee.on_active_player(ALICE)
        await game.sent()
        assert game.messages == [
            "Auction 1: Bear (creature 2/2) (the card on the referee's table). alice to bid."
        ]
        referee.mirror.active_player_id = BOB
        async with referee._lock:
            await referee.on_active_player(BOB)
        await game.sent()
        assert game.messages[1:] == [
            "The turn ended during auction 1: Bear goes to the bottom unsold. | Income +3: alice 13, bob 13"
            " gold. | Auction 2: Imp (creature 2/2) (the card on the referee's table). bob to bid."
        ]

    play(scenario)


def test_at_turn_the_words_for_a_turn_whose_auction_is_not_up_say_auction_not_draw_step(
    tmp_path: Path,
) -> None:
    """At ``at=turn`` the draw step starts nothing the table waits for: a turn whose auction is not up (the
    bot restarted between the turn's start and its auction) is started with ``!auction``."""
    game = Game(tmp_path / "j.sqlite3", [creature("Bear"), creature("Imp")], at="turn")

    async def scenario() -> None:
        game.table.apply(am.BeginTurn(None, active=ALICE))
        game.start_referee()
        await game.said(BOB, "!bid 2")
        await game.said(ALICE, "!draw")
        assert game.messages == [
            "bob: nothing is up for auction yet: it is alice's turn; alice: say !auction and the top card"
            " comes up for auction",
            "alice: this turn's card comes from its auction: say !auction and the top card comes up for"
            " auction. !draw is for card effects that make you draw (rule 7); say !draw again to draw anyway",
        ]

    play(scenario)
