"""Auction Magic in a real Cockatrice game: the bot holds the block, runs every auction and keeps the bank.

Theory of operation
-------------------
The rules live in :mod:`cockatrice_ext.formats.auction`; this module only adapts them.

* **Seat.** The bot sits in the game as a player whose deck is the auction block (the physical
  cards). Where the server grants judge rights it joins as a judge player too, which lets it put
  kept and drawn cards straight into a player's hand and keep each player's gold on a "Gold" card on
  their own table; otherwise those cards go onto the player's table (the only zone of another player a
  non-judge may use) and the bot says once exactly what to drag where. The bot passes its own turns.
* **Channels.** Servatrice gives the bot's connection ten chat messages per ten seconds for every
  game, room and private message together, but card annotations, counters and card moves are free.
  So what players see is computed once from the engine by the pure :func:`render_view` and sent
  through three sinks: the open lot's **annotation** on its card (lot, high bid, bidder, who is to
  bid and, without judge rights, everyone's gold), with judge rights a **Gold card** on each player's
  own table (its number is their gold: an eighth counter would spill past the player's area in the
  real client) and their mana **counters** after ``!mana``, and **chat**, only for what needs words
  (a lot opening, a sale, instructions, refusals), merged by the runtime's scheduler. A bid costs no
  chat message.
* **Turns.** ``Event_SetActivePlayer`` ends the previous turn (income) and begins the next; the
  auction step starts when the active player reaches the draw step or says ``!auction`` (or at once, with
  ``auction_at="turn"``). Players learn that from the chat alone: the opening line, each turn's line
  (:func:`turn_line`, shown with the turn's end, so the income line and it leave as one message even when
  the referee's own turn comes between them; with nothing to go with, at a judge's table, it waits a moment
  for the turn's next line: :data:`TURN_LINE_WAIT`) and a bid with nothing up (``no_lot``) say how the card
  comes up; the active player's first ``!draw`` before it is answered with that too (a second one draws:
  ``!draw`` is for card effects, rule 7; the ask is journaled in the table's meta, so a restart between the
  two changes nothing). With ``auction_at="turn"`` the turn's lines (the income line) go with its first
  lot's. A refusal about its sender says "you" (:data:`ABOUT_SENDER`). Servatrice passes a conceding or
  leaving player's turn before it tells the game why, so a turn change first waits a moment and settles
  departures (no income, no prompts for a player who is gone). A player whose connection stays gone past
  :data:`~cockatrice_ext.bot.referee.ABSENT_SECONDS` is announced, and another player may ``!drop NAME``
  them: they lose as a player who leaves (``DeclareLoss``, reason ``dropped``) and their seat is taken away.
  An active player who loses and still sits (a draw from the empty block) plays no more: once no lot is
  open the referee passes their turn, and any later turn Cockatrice gives them
  (:meth:`AuctionReferee.pass_lost_turn`); ``!state`` says whose turn comes next meanwhile.
* **Cards.** The engine decides which block card moves; the bot finds a card of that name in its own
  deck (read with ``Command_DumpZone`` and kept in step) and moves it. Its ``.cod`` also holds a second copy
  of the pile in its sideboard, the spares, and every card dealt face down (a draw) is a spare whose id was
  never shown with its name, while the deck's top card goes to the sideboard, so the deck still counts the
  block (:meth:`AuctionReferee.deal_face_down`): Servatrice shows everyone a card's id as it goes face down,
  and a block card once seen face up (an unsold lot, a card given back) is back in the deck under that id.
  Moves cost no game-command budget. Every card it deals gets
  its own column on the target table (Cockatrice's table has three grid points per card column;
  none hides another). A card handed to a player is labelled with its owner first (:func:`owner_note`):
  bought cards belong to the buyer (90X.3e), and they stay with them when they concede. A card a
  player drops on the bot's table goes back to the block (``!top`` / ``!bottom``).
* **Proposed cards.** Gilded Idol (``!idol``) and Stake your Claim (``!claim``, as Blood Claim is cast)
  are commands, listed only when the block holds such a card; Packaged Gnome, Raise the Stakes and High
  Bid trigger by themselves and the referee says what they do (life is the players' to change). ``!sell
  commander`` (Commander Auction, 90Y.6) auctions the seller's commander; the exchange of commanders is
  moved by a judge, or the players are told who drags what.
* **Identity.** Engine players are the seats of the game the table was created in; a game rebuilt
  after a restart (``!resume``) seats the same people under new ids, so the referee maps engine
  players to seats by user name at its boundary (commands in, card moves and counters out).

Everything accepted goes through the journaled table first. A restarted bot with a registered
account keeps its seat and resumes in place, finishing the card moves the journal has and the table lacks
(a draw's cards still in its piles too, and as a judge the ones left on the drawer's table:
:meth:`AuctionReferee.finish_draw`; cards given back still waiting for ``!top`` / ``!bottom``, journaled as
:data:`~cockatrice_ext.bot.auction_journal.RETURNED`, wait again); one that lost its seat
rebuilds the game on ``!resume``
(:meth:`AuctionReferee.rebuild`): the remaining block as its deck, every card back with the player
who holds it, gold, and the open lot with its standing bid.

Where each part lives
---------------------
This module is the referee's core: the room command, seating and turns, the auction step, performing effects
(one view, then its sinks), the turn line, the bid timer and the status line. The rest is split along the
rules it implements, pure modules and mixins of :class:`AuctionReferee` (their names are re-exported here):

* :mod:`~cockatrice_ext.bot.auction_options`: the options a table is created with.
* :mod:`~cockatrice_ext.bot.auction_view`: what players see (pure): the view, the lot note, every chat line,
  the refusals in words.
* :mod:`~cockatrice_ext.bot.auction_journal`: what is read back from the journal besides the replay: the
  table-meta records, bought labels, cards drawn unseen, cards put back.
* :mod:`~cockatrice_ext.bot.auction_piles`: the referee's deck and spares (face-down deals show no seen id).
* :mod:`~cockatrice_ext.bot.auction_delivery`: cards handed to players and followed by id, judge moves, notes
  and counters.
* :mod:`~cockatrice_ext.bot.auction_returns`: cards given back (``!top`` / ``!bottom``).
* :mod:`~cockatrice_ext.bot.auction_restart`: back in place after a stop (moves and draws cut short).
* :mod:`~cockatrice_ext.bot.auction_resume`: a lost seat's game rebuilt by ``!resume``.
* :mod:`~cockatrice_ext.bot.auction_commands`: the players' game-chat commands.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections.abc import Collection
from typing import Any, ClassVar, Literal

from cockatrice_ext.bot.auction_commands import AuctionCommands, with_decline_hint
from cockatrice_ext.bot.auction_delivery import AuctionDelivery
from cockatrice_ext.bot.auction_journal import DRAW_ASKED, drawn_unseen, put_back
from cockatrice_ext.bot.auction_options import AuctionOptions
from cockatrice_ext.bot.auction_piles import AuctionPiles
from cockatrice_ext.bot.auction_restart import AuctionRestart
from cockatrice_ext.bot.auction_resume import AuctionResume
from cockatrice_ext.bot.auction_returns import AuctionReturns, _Returned
from cockatrice_ext.bot.auction_view import (
    ABOUT_SENDER,
    COUNT_WORDS,
    REFUSALS,
    AuctionView,
    agreeing,
    bought_label,
    end_reason,
    fitted_names,
    game_result,
    gold_summary,
    how_an_auction_starts,
    listed,
    lot_note,
    order_example,
    render_view,
)
from cockatrice_ext.bot.blocks import LoadedBlock, chat_block_name, load_block
from cockatrice_ext.bot.board import OwnDeck
from cockatrice_ext.bot.chat import Line
from cockatrice_ext.bot.commands import BadArgument, Rest, command
from cockatrice_ext.bot.formats import SeatsByName
from cockatrice_ext.bot.referee import Context, FormatRoom, PileReferee, asked_by
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.silence import silence_is_heard, told
from cockatrice_ext.bot.words import MAX_CHAT_LINE, Refusal, render_refusal, shorten
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.formats.base import Effect, RulesError
from cockatrice_ext.protocol import commands as pc

__all__ = [  # what the bot, the web view, tests and scripts import from here
    "DRAW_ASKED",
    "INSTALLERS",
    "REBUILDERS",
    "REFUSALS",
    "RESUMERS",
    "TURN_LINE_WAIT",
    "AuctionOptions",
    "AuctionReferee",
    "AuctionRoom",
    "AuctionView",
    "drawn_unseen",
    "lot_note",
    "order_example",
    "put_back",
    "render_view",
    "with_decline_hint",
]

LOGGER = logging.getLogger(__name__)

DRAW_PHASE = 2
SETTLE_SECONDS = 0.15
"""How long a turn change waits for the concession or departure Servatrice sends just after it."""
LIFE_COUNTER = 0
"""The server's own life counter (``Server_Player`` creates it with id 0): a counter a player creates and
names "life" is not their life total."""
TURN_LINE_WAIT = 5.0
"""Seconds a turn line with no other line to leave with (a judge's table: no income line) waits for the turn's
next line, to go in its message; it is dropped once the turn's auction has begun (the lot's line names the
bidder), and said alone when nothing else was said by then."""


COMMANDER_BLOCK = "auction-commander"


def check_commander_block(block: LoadedBlock, seats: int) -> None:
    """90Y.3 before a game is created: singleton by name, a legendary creature for every player.

    Raises:
        BadArgument: with the engine's reason.
    """
    try:
        rules.AuctionEngine._validate_config(
            rules.AuctionConfig(players=tuple(range(1, seats + 1)), cards=block.facts, commander=True)
        )
    except RulesError as exc:
        reasons = {
            "not_enough_legends": f"the block needs at least {seats} legendary creatures",
            "block_not_singleton": "every card of a Commander Auction block must have a different name",
        }
        raise BadArgument(reasons.get(exc.code, exc.code.replace("_", " "))) from None


# ---------------------------------------------------------------------------------------------
# Room commands
# ---------------------------------------------------------------------------------------------


class AuctionRoom(FormatRoom):
    """``!auction new`` in room chat creates a refereed Auction Magic game."""

    format_name = "auction"
    options_type = AuctionOptions
    defaults: AuctionOptions

    @command(scopes=("room",))
    async def auction(
        self, ctx: Context, what: Literal["new", "commander", "rules"], args: Rest | None = None
    ) -> None:
        """!auction new|commander [PLAYERS] [BLOCK] [OPTS]: create an Auction Magic (or Commander Auction)
        game, e.g. !auction new 2 boards timer=45 empty=draw; !auction rules lists the options."""
        kind = what
        if kind == "rules":
            for line in game_options.room_rules("auction", self.defaults):
                await ctx.reply(shorten(line))
            return
        assert ctx.room_id is not None
        try:
            words, chosen = game_options.split_words("auction", (args or "").split())
        except game_options.OptionError as exc:
            raise BadArgument(str(exc)) from None
        players = int(words.pop(0)) if words and words[0].isdecimal() else None
        if players is not None and not 2 <= players <= 6:
            raise BadArgument("PLAYERS must be between 2 and 6")
        if len(words) > 1:
            raise BadArgument(f"unexpected '{words[1][:40]}'{game_options.suggestion('auction', words[1])}")
        block = words[0] if words else None
        options = game_options.apply("auction", self.defaults, chosen)
        options = dataclasses.replace(options, seats=players or self.defaults.seats)
        if kind == "commander":
            options = dataclasses.replace(options, commander=True, block=block or COMMANDER_BLOCK)
        elif block:
            options = dataclasses.replace(options, block=block)
        if block:
            try:
                chat_block_name(block, self.defaults.block)
            except ValueError as exc:
                raise BadArgument(game_options.misspelt("auction", block) or str(exc)) from None
        try:
            loaded = load_block(options.block)
        except (LookupError, ValueError) as exc:
            LOGGER.warning("auction block %r does not load: %s", options.block, exc)
            raise BadArgument(f"block {options.block!r} does not load; the operator's log says why") from None
        if options.commander:
            check_commander_block(loaded, options.seats)
        referee = await AuctionReferee.create(
            self.bot,
            ctx.room_id,
            options,
            loaded,
            requested_by=ctx.sender,
            starting_life=40 if options.commander else 20,
        )
        title = "Commander Auction" if options.commander else "Auction Magic"
        await ctx.reply(  # short: every room line takes a share of the connection's chat budget
            shorten(  # the block's size is in the game's opening line ("199-card block shuffled")
                f"{title} game #{referee.game_id} is open for {options.seats} players{asked_by(ctx.sender)}"
                f" (block {loaded.name}): join with any deck (even empty), press ready."
            )
        )


# ---------------------------------------------------------------------------------------------
# The game referee
# ---------------------------------------------------------------------------------------------


class AuctionReferee(
    AuctionCommands,
    AuctionRestart,
    AuctionResume,
    AuctionReturns,
    AuctionDelivery,
    AuctionPiles,
    SeatsByName,
    PileReferee,
):
    """One Auction Magic game: the core here, and a mixin before :class:`SeatsByName` for each other concern
    (the module's "Where each part lives")."""

    format_name = "auction"
    game_title = "Auction Magic"
    options_type = AuctionOptions
    spares = True
    refusals: ClassVar[dict[str, str]] = REFUSALS
    PLAYER_DETAILS: ClassVar[frozenset[str]] = PileReferee.PLAYER_DETAILS | {"seller", "first_bidder"}
    _held_turn: tuple[int, str] | None = None
    """(turn, line): a turn line that had no other line to go with, waiting for the turn's next one."""
    _turn_wait: asyncio.Task[None] | None = None
    """The task that says :attr:`_held_turn` alone once :data:`TURN_LINE_WAIT` is over."""

    def __init__(
        self, bot: Bot, game_id: int, room_id: int, options: AuctionOptions, block: LoadedBlock
    ) -> None:
        super().__init__(bot, game_id, room_id, options, block)
        self.options: AuctionOptions = options
        self.block: LoadedBlock = block
        if not options.commander:  # !cdamage belongs to Commander Auction only (and its !help)
            self.commands.specs.pop("cdamage", None)
        for name, cards in (("idol", (rules.GILDED_IDOL,)), ("claim", rules.STAKE_YOUR_CLAIM_CARDS)):
            if not any(facts.name in cards for facts in block.facts):  # no such card: no such command
                self.commands.specs.pop(name, None)
        self.on_table: dict[int, int] = {}  # engine card index -> its Cockatrice id on our table
        self.returned: list[_Returned] = []
        self.dealt: dict[int, set[int]] = {}
        """Seat -> the server ids of the block cards the referee handed to it, followed as they move (a card
        gets a new id when it changes hands or goes face down): only such a card is taken back to the block,
        never a token or a card of the player's own named like one."""
        self.made: dict[int, set[int]] = {}
        """Seat -> the tokens the referee saw its player make (``Event_CreateToken``), followed as they
        move."""
        self.unseen_hands: set[int] = set()
        """Seats whose hand the referee could not see since it came back (:meth:`dealt_from_mirror`)."""
        self.engine_names: dict[Any, str] = {}  # engine player -> user name (seats are found by name)
        self.live = False  # the engine is bound to the seated players (started, resumed or rebuilt)
        self.continues: int | None = None  # the lost game this one rebuilds
        self.own_sb = OwnDeck()  # the spares: a second copy of the pile, face-down deals come from
        self._turn_target: int | None = None  # after a rebuild: the seat whose turn the journal says it is
        self._notes: dict[int, str] = {}  # card id on our table -> the annotation we gave it
        self._handing: set[int] = set()
        """Ids on our table of the block cards :meth:`hand_over` is moving to a player: our own move event
        names the id each gets there (:meth:`follow_move`), even when the player moved it on before the
        referee's look at their table found it."""
        self._labels: dict[int, str] = {}  # engine card index -> what it was bought for
        self._lock = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = None
        self._step_waits = False  # the draw step came while a card effect's lot was up: the step follows it
        self._held_turn = None
        self._turn_wait = None
        self._unshown: list[Effect] = []
        """A turn's end applied as the referee's own turn began: shown with the next player's turn line."""
        with_decline_hint(self.commands)  # !bid 0 says how to decline

    def explain(self, error: RulesError, *, to: Any | None = None) -> str:
        """The engine's refusal in words; ``!stop`` during a lot outside the auction step says how that kind
        of lot ends, and a bid with nothing up says whose turn it is and how its card comes up. ``to``: the
        engine player it is said to; a refusal about them says "you" (:data:`ABOUT_SENDER`)."""
        if error.code == "no_lot" and getattr(self, "table", None) is not None:
            error = self.why_no_lot(error)
        kind = error.details.get("kind")
        if error.code == "not_auction_step_lot" and f"{error.code}/{kind}" in self.refusals:
            error = RulesError(f"{error.code}/{kind}", **error.details)
        about = ABOUT_SENDER.get(error.code)
        if to is not None and about is not None and error.details.get(about) == to:
            error = RulesError(f"{error.code}/you", **error.details)
        pending = error.details.get("pending")
        if error.code == "ambiguous_card" and isinstance(pending, list) and pending:  # !cast/!keep, no name
            shown = dict.fromkeys(self.shown_card_name(str(name)) for name in pending)
            error = RulesError(f"{error.code}/pending", pending=listed(shown, last="or"))
        card = error.details.get("card")
        if isinstance(card, str) and card in self.shown_names:
            error = RulesError(error.code, **{**error.details, "card": self.shown_card_name(card)})
        held = error.details.get("held")
        if error.code == "not_enough_copies" and isinstance(held, int) and 0 <= held < len(COUNT_WORDS):
            code = agreeing(held, error.code, f"{error.code}/several")  # "only two copies of X", not "two X"
            error = RulesError(code, **{**error.details, "held": COUNT_WORDS[held]})
        return super().explain(error)

    def refusal(self, error: RulesError, ctx: Context) -> Refusal:
        """As every format renders a refusal, worded for its sender: one about them says "you"."""
        return render_refusal(
            self.explain(error, to=self.sender_player(ctx)),
            error,
            hidden=self.hidden_card_names(ctx),
            shown=self.shown_card_name,
        )

    def sender_player(self, ctx: Context) -> Any | None:
        """The engine player who said ``ctx``'s command (by the server's user name), or None."""
        if getattr(self, "table", None) is None:
            return None
        return next((p for p, name in self.engine_names.items() if name == ctx.sender), None)

    def why_no_lot(self, error: RulesError) -> RulesError:
        """``no_lot`` as the turn stands: its auction still to come (and how it comes), a bought card waiting
        for its buyer's choice, the turn's auction over, or no turn going on."""
        engine = self.engine
        options: AuctionOptions = getattr(self, "options", AuctionOptions())
        if engine.active is not None and engine.active not in engine.living():  # lost: their turn is over
            turn = options.auction_at == "turn"
            when = "as the next turn begins" if turn else "at the next player's draw step"
            return RulesError("no_lot/between_turns", **{**error.details, "when": when})
        if engine.phase == "beginning" and engine.active is not None:
            how = how_an_auction_starts(options.auction_at)
            return RulesError("no_lot/step_to_come", **{**error.details, "active": engine.active, "how": how})
        choosing = [p for p in engine.players if engine.pending.get(p)]
        if engine.phase == "auction" and choosing:
            return RulesError("no_lot/choice", **{**error.details, "player": choosing[0]})
        when = (
            "as the next turn begins"
            if options.auction_at == "turn"
            else "at the next player's draw step (or on their !auction)"
        )
        if engine.phase in ("auction", "main") and engine.active is not None:
            return RulesError("no_lot/step_over", **{**error.details, "active": engine.active, "when": when})
        if engine.phase == "between_turns":
            return RulesError("no_lot/between_turns", **{**error.details, "when": when})
        return error

    @property
    def shown_names(self) -> dict[str, str]:
        """Engine card name -> the name Cockatrice shows (a double-faced card's front face); none before the
        block is known."""
        block: LoadedBlock | None = getattr(self, "block", None)
        if block is None:
            return {}
        return dict(zip((facts.name for facts in block.facts), block.game_names, strict=True))

    def shown_card_name(self, name: str) -> str:
        return self.shown_names.get(name, name)

    def hidden_card_names(self, ctx: Context) -> Collection[str]:
        """The sender's hand: a card drawn from the block went there face down, so a refusal that names a
        hand card (``which one``, ``did you mean``) goes to its holder alone; bought and cast cards are
        public."""
        if self.table is None:
            return ()
        player = self.sender_player(ctx)
        if player is None or player not in self.engine.hand:
            return ()
        return {self.engine.ref(index).name for index in self.engine.hand[player]}

    def own_card_names(self, player: Any) -> list[str]:
        """The names of the cards ``player`` holds and may sell (hand, in play, their commander), as the
        engine and as Cockatrice names them: what a ``!sell`` list is split against."""
        engine = self.engine
        zones = (engine.hand, engine.played, engine.command)
        indexes = [index for zone in zones for index in zone.get(player, ())]
        return [name for index in indexes for name in (engine.ref(index).name, self.block.game_names[index])]

    @property
    def engine(self) -> rules.AuctionEngine:
        assert self.table is not None
        engine: rules.AuctionEngine = self.table.engine  # type: ignore[assignment]
        return engine

    # -- starting ------------------------------------------------------------------------------------

    async def start_engine(self) -> None:
        """The Cockatrice game started: seat the engine players in turn order and open the bank."""
        humans = self.players_at_start()
        if len(humans) < 2:
            await self.say("Auction Magic needs at least two players; this game has too few.")
            return
        active = self.mirror.active_player_id
        if active in humans:
            start = humans.index(active)
            humans = humans[start:] + humans[:start]
        settings = game_options.config_settings(rules.AuctionConfig, self.options)
        config = rules.AuctionConfig(players=tuple(humans), cards=self.block.facts, **settings)
        seed = self.options.seed if self.options.seed is not None else secrets.randbits(48)
        engine = rules.AuctionEngine(config, seed=seed)
        engine_names = {p: self.player_name(p) for p in humans}  # one who left meanwhile: by name too
        if not await self.read_own_deck():  # the game stopped or went as it started: nothing to referee
            return
        self.engine_names = engine_names
        self.open_table(engine, humans)
        self.live = True
        order = ", ".join(self.player_name(p) for p in humans)
        gold_where = "on the Gold card on your table" if self.is_judge else "on the lot card and with !gold"
        title = "Commander Auction" if self.options.commander else "Auction Magic"
        opening = (
            f"{title}: {len(self.block)}-card block shuffled. Turn order {order}."
            f" Everyone has {self.options.starting_gold} gold ({gold_where}), +{self.options.income}"
            " at each end of turn."
        )
        how = f"{self.auction_how()}: !bid N or !pass; bids show on the lot card's note."
        for line in [f"{opening} {how}"] if len(opening) + 1 + len(how) <= MAX_CHAT_LINE else [opening, how]:
            await self.say(line)  # a game's chat message is cut at MAX_CHAT_LINE: six long names need two
        await self.show_counters({p: engine.gold(p) for p in humans}, [])
        if self.options.commander:
            await self.perform(self.apply(rules.StartPregame(player=None)))

    def auction_how(self) -> str:
        """How each turn's auction starts, for the opening line (rule 3: the auction step replaces the draw
        step)."""
        if self.options.auction_at == "turn":
            return "Each turn begins with the top card of the block up for auction"
        return "Each turn's auction starts at the active player's draw step (or on their !auction)"

    # -- events ----------------------------------------------------------------------------------

    async def on_game_event(self, event: ClientEvent) -> None:
        name = event.name
        async with self._lock:
            # The engine starts with the game's first turn, so turn order begins with that player.
            if await self.before_play(event):
                return
            if self.engine.is_over():
                return
            if name == "Event_SetActivePlayer":
                await self.on_active_player(int(event.message.active_player_id))  # type: ignore[attr-defined]
            elif name == "Event_SetActivePhase":
                await self.on_phase(int(event.message.phase))  # type: ignore[attr-defined]
            elif name == "Event_MoveCard":
                if not event.is_own:
                    await self.on_card_moved(event)
                self.follow_move(event)
            elif name == "Event_CreateToken" and event.player_id is not None:
                self.made.setdefault(event.player_id, set()).add(int(event.message.card_id))  # type: ignore[attr-defined]
            elif name in ("Event_Leave", "Event_PlayerPropertiesChanged"):
                await self.settle_departures()
            elif name == "Event_SetCounter":
                await self.on_counter_set(event)

    async def on_counter_set(self, event: ClientEvent) -> None:
        """A player's life counter changed: the engine hears it when a life total can decide the game
        (``empty=life``: the highest life wins when the block runs out), so the journal keeps it."""
        if self.engine.config.empty_block_rule != "higher_life_wins":
            return
        player = self.engine_player(event.player_id)
        seat = self.mirror.players.get(event.player_id)
        counter_id = int(event.message.counter_id)  # type: ignore[attr-defined]
        if counter_id != LIFE_COUNTER:  # a counter a player made and called "life" is no life total
            return
        counter = seat.counters.get(counter_id) if seat else None
        if player is None or counter is None:
            return
        if player in self.engine.living() and self.engine.life.get(player) != counter.value:
            await self.try_apply(rules.ReportLife(player=None, target=player, life=counter.value))

    async def settle_departures(self) -> None:
        """Players whose seat is gone have left; a conceded seat has conceded: tell the engine first."""
        if not self.live or not self.seats_known:
            return
        for player in self.engine.living():
            if self.engine.is_over():
                return
            why = self.departed(player)
            if why in ("left", "dropped"):
                await self.try_apply(rules.DeclareLoss(player=None, targets=(player,), reason=why))
            elif why == "conceded":
                await self.try_apply(rules.Concede(player=player))

    def plays_on(self, player_id: int) -> bool:
        """Whether seat ``player_id`` is still in the auction game (has not lost, the game not over)."""
        if self.table is None or not self.live or self.engine.is_over():
            return False
        return self.engine_player(player_id) in self.engine.living()

    def absent_choices(self, name: str) -> str:
        """The way on: ``!drop NAME`` (a loss, as for a player who leaves)."""
        return (
            f"If they are not back, another player may say !drop {name}: they lose, as a player who leaves"
            " the game does, and the game goes on."
        )

    async def on_active_player(self, seat: int) -> None:
        engine = self.engine
        if self._turn_target is not None:  # a rebuilt game: pass the turn on to the journal's active player
            if seat == self._turn_target or self._turn_target not in self.mirror.players:
                self._turn_target = None
            else:
                await self.run(pc.next_turn())
            return
        if engine.phase == "pregame":  # 90Y.4a: commanders first; the turn begins when the pregame ends
            if seat == self.me:
                await self.run(pc.next_turn())
            return
        if engine.active is not None:
            # A conceding or leaving active player's turn passes before the server says why.
            await asyncio.sleep(SETTLE_SECONDS)
            await self.settle_departures()
            if engine.is_over():
                return
        active = self.engine_player(seat)
        ended: list[Effect] = []
        if engine.active is not None and engine.active != active:
            ended = self.apply(rules.EndTurn(player=None))
        lost = active in engine.players and active not in engine.living() and self.departed(active) is None
        if seat == self.me or lost:  # the turn's end is shown with the next player's turn line: one message
            self._unshown += ended  # shown by the next perform whatever it is, should the turn not come
            await self.run(pc.next_turn())  # a player who lost (still seated) plays no turn: passed too
            return
        begun: list[Effect] = []
        if active in engine.living() and engine.active != active and not engine.is_over():
            begun = self.apply(rules.BeginTurn(player=None, active=active))
        if begun and self.options.auction_at == "turn":
            # Shown with the turn's first lot: the turn's lines (the income line) in one message.
            self._unshown += [*ended, *begun]
            try:
                await self.start_auction_step()
            finally:
                if self._unshown:  # no lot opened (the step waits, or it was refused): shown now
                    await self.perform([])
        elif ended or begun or self._unshown:
            await self.perform([*ended, *begun])

    async def on_phase(self, phase: int) -> None:
        engine = self.engine
        if (
            phase >= DRAW_PHASE
            and engine.active is not None
            and engine.active == self.engine_player(self.mirror.active_player_id)
            and engine.phase == "beginning"
        ):
            await self.start_auction_step()

    async def start_auction_step(self) -> None:
        """The turn's auction step (90X.4). A lot a card effect put up before the draw step (an upkeep
        ``!lot`` or ``!sell``) is not part of it: the step starts once that lot is over (:meth:`perform`).
        A player who lost during their turn has no auction step (their turn is passed: :meth:`pass_lost_turn`;
        seen: their draw step ran one from the empty block, and they lost a second time)."""
        if self.engine.active is not None and self.engine.active not in self.engine.living():
            return
        for pending in list(self.returned):  # dropped cards nobody placed: default top
            await self.place_returned(pending, "top")
        lot = self.engine.lot
        if lot is not None:
            if not self._step_waits:
                self._step_waits = True
                await self.say(f"The auction step starts once auction {lot.lot_no} is over.")
            return
        self._step_waits = False
        await self.perform(self.apply(rules.StartAuctionStep(player=None)))

    # -- performing effects: one view, then the sinks (cards, annotation, counters, chat) ----------------

    async def try_apply(self, action: Any) -> None:
        try:
            await self.perform(self.apply(action))
        except RulesError as exc:
            LOGGER.info("game %d: %r refused: %s", self.game_id, action, exc)

    async def perform(self, effects: list[Effect], *, returned_card_id: int | None = None) -> None:
        """Show ``effects``: chat lines are queued first, and the game's end is journaled (:meth:`finish`);
        then cards move, then the lot note and counters. The board comes last: a game Cockatrice stopped
        (its last player gone) takes no game commands, which are then dropped (:meth:`GameReferee.run`)."""
        engine = self.engine
        effects, self._unshown = [*self._unshown, *effects], []
        view = render_view(
            effects,
            engine,
            self.player_name,
            judge=self.is_judge,
            card_names=self.block.game_names,
            auction_at=self.options.auction_at,
        )
        chat = [line for line in view.chat if line not in self._said_away]  # said once (settle_away)
        if view.turn and chat == [view.turn] and not self.bot.chat.pending(self.chat_destination):
            self.hold_turn_line(view.turn)  # alone, nothing to join: it goes with the turn's next line
            chat = []
        for line in chat:  # queued lines are merged into as few chat messages as fit
            await self.say(line)
        for player, line in view.private:
            await self.tell(self.player_name(player), line)
        if engine.is_over():
            await self.finish(f"game over ({end_reason(engine, self.player_name)})")
            if self.closed:  # nobody was left seated, so the referee left: no board to show
                return
        pregame_over = False
        owned_sale: rules.LotSold | None = None
        for effect in effects:
            if isinstance(effect, rules.LotOpened):
                if effect.kind != "owned":  # a player's own card stays with them until sold
                    for ref in effect.cards:
                        await self.to_my_table(ref.index)
            elif isinstance(effect, rules.LotSold):
                owned_sale = effect if effect.kind == "owned" else None
                for ref in effect.cards:
                    self._labels[ref.index] = bought_label(effect.price, effect.lot_no)
            elif isinstance(effect, rules.LotUnsold):
                if effect.destination not in ("returned", "free_commander"):
                    for ref in effect.cards:
                        await self.my_table_to_deck(ref.index, top=effect.destination == "top")
            elif isinstance(effect, rules.PurchaseChoicePending):
                card_id = self.on_table.get(effect.card.index)
                if card_id is not None:
                    await self.annotate(
                        card_id, f"Bought by {self.player_name(effect.player)}: !cast or !keep"
                    )
            elif isinstance(effect, (rules.CardCast, rules.CommanderChosen)):
                await self.hand_over(effect.card.index, effect.player, hand=False)
            elif isinstance(effect, rules.CardKept):
                await self.hand_over(effect.card.index, effect.player, hand=True)
            elif isinstance(effect, rules.RevealedUntilCreature) and effect.pending:
                for ref in effect.cards:  # on our table until the buyer's !cast or !keep
                    await self.to_my_table(ref.index)
            elif isinstance(effect, rules.CardsDrawn):
                await self.hand_over_all([r.index for r in effect.cards], effect.player, hidden=True)
            elif isinstance(effect, rules.RevealedUntilCreature):
                await self.hand_over_all([r.index for r in effect.cards], effect.player)
            elif isinstance(effect, rules.CardsAwarded):
                if owned_sale is not None and owned_sale.seller is not None:
                    await self.deliver_sold(effect, owned_sale.seller)
                else:
                    await self.hand_over_all([r.index for r in effect.cards], effect.player)
            elif isinstance(effect, rules.CommandersExchanged) and self.is_judge:
                await self.exchange_commanders(effect)
            elif isinstance(effect, rules.CardReturned) and returned_card_id is not None:
                name = self.block.game_names[effect.card.index]
                await self.table_to_own_deck(returned_card_id, name, top=effect.position == "top")
            elif isinstance(effect, rules.TopCardsShown):
                await self.show_top(effect)
            elif isinstance(effect, rules.PregameFinished):
                pregame_over = True
        await self.show_lot(view.lot_note, owned=view.owned_lot)
        await self.show_counters(view.gold, view.mana)
        self.arm_timer()
        if engine.is_over():
            return
        await self.pass_lost_turn()
        if pregame_over and self.engine_player(self.mirror.active_player_id) in engine.players:
            await self.on_active_player(self.mirror.active_player_id)
        if self._step_waits and engine.lot is None:
            if engine.phase == "beginning":
                await self.start_auction_step()
            else:  # the turn ended meanwhile
                self._step_waits = False

    _lost_turn_passed: int | None = None
    """The engine turn whose lost active player's turn the referee passed (once: a second pass before the
    turn change arrives would skip the next player)."""

    async def pass_lost_turn(self) -> None:
        """The active player lost and still sits (a draw from the empty block, commander damage, a
        ``!concede`` in chat): they play no more, so once no lot is open and no bought card waits for a
        choice the referee passes their turn in Cockatrice, as Servatrice does for a player who concedes
        there; the turn change ends the turn and begins the next player's (:meth:`on_active_player`). A seat
        Cockatrice has moved on from already is left alone."""
        engine = self.engine
        active = engine.active
        if active is None or active in engine.living() or engine.is_over():
            return
        if engine.lot is not None or any(engine.pending.values()) or self._lost_turn_passed == engine.turn:
            return
        seat = self.seat_of(active)
        if seat is None or seat != self.mirror.active_player_id or self.departed(active) is not None:
            return
        self._lost_turn_passed = engine.turn
        await self.run(pc.next_turn())

    def next_in_turn(self, after: Any) -> Any | None:
        """The first player still in the game after ``after`` in turn order (whose turn comes next)."""
        players = list(self.engine.players)
        if after not in players:
            return None
        start = players.index(after)
        living = self.engine.living()
        return next((p for p in players[start + 1 :] + players[: start + 1] if p in living), None)

    # -- the turn line: with the turn's next line when it has none of its own ------------------------------

    async def say(self, text: Line) -> None:
        """The game's chat line, after a turn line still held for it (one message for both; none when the line
        says how the turn's auction starts itself: a refusal of an early ``!bid`` or ``!draw``)."""
        if self._held_turn is not None:
            held = self.take_turn_line()
            how = how_an_auction_starts(self.options.auction_at)
            if held and not (isinstance(text, str) and how in text):
                await super().say(held)
        await super().say(text)

    def hold_turn_line(self, line: str) -> None:
        """Keep the turn line ``line`` for the turn's next chat line, at most :data:`TURN_LINE_WAIT` s: a
        judge's table has no income line to carry it, and a message of its own each turn spends the scarcest
        budget."""
        self.take_turn_line()
        self._held_turn = (self.engine.turn, line)
        self._turn_wait = asyncio.create_task(self._turn_line_due())

    def take_turn_line(self) -> str:
        """The held turn line, forgotten here: "" when there is none or it is stale (the turn's auction began,
        another turn began, the game is over)."""
        held, self._held_turn = self._held_turn, None
        wait, self._turn_wait = self._turn_wait, None
        if wait is not None and wait is not asyncio.current_task():
            wait.cancel()
        if held is None or self.table is None:
            return ""
        engine = self.engine
        turn, line = held
        return line if engine.turn == turn and engine.phase == "beginning" and engine.lot is None else ""

    async def _turn_line_due(self) -> None:
        """Nothing else was said in time: the held turn line goes alone (the player may not know how their
        auction starts)."""
        await asyncio.sleep(TURN_LINE_WAIT)
        async with self._lock:
            due = self._turn_wait is asyncio.current_task() and not self.closed
            if due and (line := self.take_turn_line()):
                await super().say(line)

    # -- bid timer ---------------------------------------------------------------------------------

    def arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.options.bid_timeout <= 0 or self.table is None:
            return
        bidder = self.engine.whose_bid()
        if bidder is None:
            return
        lot = self.engine.current_lot()
        self._timer = asyncio.create_task(self._expire(bidder, lot["lot_no"] if lot else -1))

    async def _expire(self, bidder: Any, lot_no: int) -> None:
        """Warn at half time; at the end pass for the silent bidder, once what they said in time is heard
        (``silence_is_heard``; a link down or stalled meanwhile gives them their whole time again)."""
        timeout = self.options.bid_timeout
        await told(self, self.player_name(bidder))  # the clock runs once the bidder can read it is their turn
        await asyncio.sleep(timeout / 2)
        if await silence_is_heard(self):  # said while the link is down or stalled, it would arrive stale
            await self.say(f"{self.player_name(bidder)}: {timeout / 2:g} s left to bid.")
        await asyncio.sleep(timeout / 2)
        heard = await silence_is_heard(self)
        async with self._lock:
            if self.closed:
                return
            lot = self.engine.current_lot()
            if self.engine.whose_bid() == bidder and lot is not None and lot["lot_no"] == lot_no:
                self._timer = None
                if not heard:
                    self.arm_timer()
                    return
                await self.say(f"{self.player_name(bidder)} ran out of time.")
                await self.perform(self.apply(rules.Pass(player=None)))

    # -- status --------------------------------------------------------------------------------------

    def status_line(self, limit: int = MAX_CHAT_LINE) -> str:
        """Where the game stands in one chat line of at most ``limit`` characters: whose bid and the gold
        always show; a long lot's (or choice's) card list is shortened (``and 3 more``: :meth:`lot_listing`
        names them). Once the game is over nobody is to bid or choose."""
        return self._status(limit)[0]

    def _status(self, limit: int = MAX_CHAT_LINE) -> tuple[str, bool]:
        """:meth:`status_line`, and whether it shortened a card list."""
        engine = self.engine
        over = engine.is_over()
        turn = f"Turn {engine.turn}" + (
            f" ({self.player_name(engine.active)})" if engine.active is not None else ""
        )
        if engine.active is not None and engine.active not in engine.living() and not over:
            # seen: "Turn 1 (alice)" after alice had lost; her turn is over and the next player's comes
            following = self.next_in_turn(engine.active)
            turn = f"Turn {engine.turn}: {self.player_name(engine.active)} lost" + (
                f"; {self.player_name(following)}'s turn is next" if following is not None else ""
            )
        if over:  # seen in the field: after "Game over", !state still read as a game going on
            turn = f"Game over: {game_result(engine, self.player_name, past=True)} on turn {engine.turn}"
        lists: list[tuple[str, list[str], str]] = []  # (before the names, the names, after them)
        lot = None if over else engine.current_lot()  # seen: "ann to bid" after the game was over
        if lot is not None:
            names = [self.shown_card_name(str(card["name"])) for card in lot["cards"]]
            high = f"high bid {lot['high_bid']} by {self.player_name(lot['high_bidder'])}"
            bid = f", {high}" if lot["bids"] else ", no bid yet"
            bidder = engine.whose_bid()
            if bidder is not None:
                bid += f"; {self.player_name(bidder)} to bid"
            lists.append((f"auction {lot['lot_no']}: ", names, bid))
        for player in () if over else engine.players:  # nothing is chosen after the end
            if choice := engine.pending_choice(player):
                names = [self.shown_card_name(ref.name) for ref in choice]
                lists.append((f"{self.player_name(player)} to choose !cast or !keep for ", names, ""))
        tail = [
            "gold " + gold_summary(engine, self.player_name, everyone=over),
            f"block {engine.block_size()}",
        ]
        fixed = len("; ".join([turn, *(before + after for before, _, after in lists), *tail]) + ".")
        share = max(12, (limit - fixed) // max(1, len(lists)))
        parts = [turn]
        shortened = False
        for before, names, after in lists:
            fitted = fitted_names(names, share)
            shortened = shortened or fitted != ", ".join(names)
            parts.append(before + fitted + after)
        return shorten("; ".join([*parts, *tail]) + ".", limit), shortened

    def lot_listing(self) -> list[str]:
        """Every card of the open lot and of the choices waiting, by name, in as many chat lines as they need,
        when :meth:`status_line` had to shorten them ([] otherwise): each card is named somewhere a player
        can read."""
        engine = self.engine
        if engine.is_over() or not self._status()[1]:
            return []
        groups: list[tuple[str, list[str]]] = []
        lot = engine.current_lot()
        if lot is not None:
            names = [self.shown_card_name(str(card["name"])) for card in lot["cards"]]
            cards = agreeing(len(names), "card", "cards")
            groups.append((f"Auction {lot['lot_no']}'s {len(names)} {cards}: ", names))
        for player in engine.players:
            if choice := engine.pending_choice(player):
                names = [self.shown_card_name(ref.name) for ref in choice]
                groups.append((f"{self.player_name(player)}'s cards to !cast or !keep: ", names))
        lines: list[str] = []
        for head, names in groups:
            line = head
            for name in names:
                if line not in (head, "(more) ") and len(line) + len(name) + 3 > MAX_CHAT_LINE:
                    lines.append(line + ",")
                    line = "(more) "
                line += name if line in (head, "(more) ") else f", {name}"
            lines.append(line + ".")
        return lines


INSTALLERS = {"auction": AuctionRoom.install}
RESUMERS = {"auction": AuctionReferee.resume}
REBUILDERS = {"auction": AuctionReferee.rebuild}
