"""Auction Magic in a real Cockatrice game: the bot holds the block, runs every auction and keeps the bank.

Theory of operation
-------------------
The rules live in :mod:`cockatrice_ext.formats.auction`; this module only adapts them.

* **Seat.** The bot sits in the game as a player whose deck is the auction block (the physical
  cards). Where the server grants judge rights it joins as a judge player too, which lets it put
  kept cards straight into a winner's hand; otherwise bought cards go onto the winner's table
  (the only zone of another player a non-judge may use) for them to pick up. The bot passes its
  own turns.
* **Turns.** ``Event_SetActivePlayer`` ends the previous turn (income) and begins the next;
  the auction step starts when the active player reaches the draw step (or at once, with
  ``auction_at="turn"``).
* **Cards.** The engine decides which block card is revealed; the bot finds a card of that name
  in its own deck (it reads its deck with ``Command_DumpZone`` and keeps the order as it moves
  cards) and moves it: to its table for a lot, to a player for a sale or a draw, back into the
  deck for an unsold lot. A card a player drops on the bot's table goes back to the block.
* **Gold** is shown as counters on the bot's player area, one per player ("Alice gold"), and
  announced after every sale.
* **Chat.** Players use ``!bid N``, ``!pass`` and the rest (``!help``); every refusal is one line.
  Identity is the server's player id of the chat event.

Everything accepted goes through the journaled table first, so a restarted bot (a registered
account keeps its seat) resumes with every gold total, the block order and the open lot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Annotated, Any, ClassVar

from cockatrice_ext.bot.blocks import LoadedBlock, chat_block_name, load_block
from cockatrice_ext.bot.commands import BadArgument, NotAllowed, Range, Rest, command
from cockatrice_ext.bot.runtime import Bot, Context, FormatRoom, PileReferee, shorten
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.formats.base import Effect, RulesError
from cockatrice_ext.protocol import commands as pc

LOGGER = logging.getLogger(__name__)

DRAW_PHASE = 2
COLORS = {
    "w": "W",
    "white": "W",
    "u": "U",
    "blue": "U",
    "b": "B",
    "black": "B",
    "r": "R",
    "red": "R",
    "g": "G",
    "green": "G",
}


@dataclass(frozen=True)
class AuctionOptions:
    """Table options chosen when the game is created (journaled with the table)."""

    seats: int = 2
    block: str = "auction-sample"
    starting_gold: int = 10
    income: int = 3
    one_round_bidding: bool = False
    empty_block_rule: str = "active_player_loses"
    commander: bool = False
    auction_at: str = "draw"  # "draw" (the draw step) or "turn" (as soon as the turn begins)
    bid_timeout: float = 0.0  # seconds; 0 = no bid timer
    password: str = ""
    judge: bool = False  # ask for a judge seat even if the account has no judge rights
    seed: int | None = None  # fixed shuffle for reproducible games; None = a fresh random seed


REFUSALS: dict[str, str] = {
    "not_your_bid": "it is {to_bid}'s bid, not yours",
    "bid_too_high": "you have only {gold} gold",
    "bid_not_higher": "the bid must be higher than {high_bid}",
    "bid_below_minimum": "bids start at {minimum}",
    "no_lot": "nothing is up for auction",
    "not_eligible": "you may not bid on this lot",
    "gold_committed": "that gold is committed to your bid",
    "not_enough_gold": "not enough gold (you have {gold})",
    "no_pending_choice": "you have no bought card waiting for !cast or !keep",
    "missing_card": "no such card here",
    "ambiguous_card": "which one? name it exactly",
    "nothing_to_reorder": "use !look N first",
    "look_stale": "the block changed since you looked; !look again",
    "not_a_permutation": "name each card you looked at exactly once",
    "auction_in_progress": "wait until the auction is over",
    "turn_in_progress": "a turn is in progress",
    "no_turn": "no turn is in progress",
    "game_over": "the game is over",
    "eliminated": "you are out of the game",
    "bad_color": "colour must be W, U, B, R or G",
    "bad_count": "that number is out of range",
    "pregame_pending": "the commander auction is still running",
    "not_a_player": "you are not a player of this game",
    "feature_disabled": "that option is off for this table",
    "auction_step_taken": "the auction step already happened this turn",
}


# ---------------------------------------------------------------------------------------------
# Rendering: effects -> short chat lines (pure, so it is tested without a server)
# ---------------------------------------------------------------------------------------------


def card_label(facts: Any) -> str:
    """``Chimney Imp (creature 2/1)`` from a CardFacts."""
    kind = "creature" if facts.is_creature else (facts.types[0].lower() if facts.types else "card")
    if facts.is_creature and facts.power is not None:
        return f"{facts.name} ({kind} {facts.power}/{facts.toughness})"
    return f"{facts.name} ({kind})"


def render_effects(
    effects: Iterable[Effect], engine: rules.AuctionEngine, name_of: Callable[[Any], str]
) -> list[str]:
    """Public chat lines for ``effects``; private information (looked-at cards) is left out."""
    lines: list[str] = []
    gold_moves: list[str] = []
    effects = list(effects)
    for position, effect in enumerate(effects):
        previous = effects[position - 1] if position else None

        if isinstance(effect, rules.LotOpened):
            cards = ", ".join(card_label(engine.config.cards[c.index]) for c in effect.cards)
            first = effect.first_bidder
            lines.append(
                f"Auction {effect.lot_no}: {cards}. {name_of(first)} to bid, has {engine.gold(first)} gold."
            )
        elif isinstance(effect, rules.BidAccepted):
            lines.append(f"{name_of(effect.player)} bids {effect.amount}.")
        elif isinstance(effect, rules.Passed):
            lines.append(f"{name_of(effect.player)} passes.")
        elif isinstance(effect, rules.NextToBid):
            if isinstance(previous, rules.LotOpened):
                continue  # the lot's opening line already says who bids first
            lines.append(f"{name_of(effect.player)} to bid ({engine.gold(effect.player)} gold).")
        elif isinstance(effect, rules.LotSold):
            names = ", ".join(c.name for c in effect.cards)
            winner = effect.winner
            lines.append(
                f"Sold: {names} to {name_of(winner)} for {effect.price} ({engine.gold(winner)} gold left)."
            )
        elif isinstance(effect, rules.LotUnsold):
            names = ", ".join(c.name for c in effect.cards)
            where = {"returned": "goes back to its owner", "top": "goes back on top"}.get(
                effect.destination, "goes to the bottom"
            )
            lines.append(f"No bids: {names} {where}.")
        elif isinstance(effect, rules.PurchaseChoicePending):
            lines.append(f"{name_of(effect.player)}: !cast or !keep {effect.card.name}.")
        elif isinstance(effect, rules.CardCast):
            lines.append(f"{name_of(effect.player)} casts {effect.card.name}.")
        elif isinstance(effect, rules.CardKept):
            lines.append(f"{name_of(effect.player)} keeps {effect.card.name}.")
        elif isinstance(effect, rules.CardsDrawn):
            got = len(effect.cards)
            lines.append(f"{name_of(effect.player)} draws {got} from the block ({engine.block_size()} left).")
        elif isinstance(effect, rules.CardReturned):
            who = name_of(effect.player) if effect.player is not None else "The referee"
            lines.append(f"{who} puts {effect.card.name} on the {effect.position} of the block.")
        elif isinstance(effect, rules.BlockReordered):
            lines.append(
                f"{name_of(effect.player)} reorders the top of the block"
                + (f" ({len(effect.bottom)} to the bottom)." if effect.bottom else ".")
            )
        elif isinstance(effect, rules.BlockShuffled):
            lines.append(f"The block is shuffled ({effect.size} cards).")
        elif isinstance(effect, rules.ManaBought):
            lines.append(
                f"{name_of(effect.player)} buys {effect.count} {effect.color} mana"
                f" ({engine.gold(effect.player)} gold left)."
            )
        elif isinstance(effect, rules.GoldChanged) and effect.reason == "income":
            gold_moves.append(f"{name_of(effect.player)} {effect.new}")
        elif isinstance(effect, rules.GoldChanged) and effect.reason.startswith("sold_lot"):
            lines.append(f"{name_of(effect.player)} receives {effect.new - effect.old} gold ({effect.new}).")
        elif isinstance(effect, rules.GoldChanged) and not effect.reason.startswith(("bought_lot", "mana")):
            lines.append(f"{name_of(effect.player)} gold {effect.old} -> {effect.new} ({effect.reason}).")
        elif isinstance(effect, rules.AuctionStepEnded) and effect.reason == "block_empty":
            lines.append("The block is empty.")
        elif isinstance(effect, rules.StopVoted):
            waiting = ", ".join(name_of(p) for p in effect.waiting_for)
            lines.append(f"{name_of(effect.player)} votes to stop auctioning (waiting for {waiting}).")
        elif isinstance(effect, rules.CommanderChosen):
            lines.append(
                f"{name_of(effect.player)} takes {effect.card.name} as commander for {effect.price}."
            )
        elif isinstance(effect, rules.CommanderDamageTaken):
            lines.append(
                f"{name_of(effect.player)} has taken {effect.total} commander damage"
                f" from {effect.commander.name}."
            )
        elif isinstance(effect, rules.PregameFinished):
            lines.append("Every player has a commander: life totals are now 40. Good luck!")
        elif isinstance(effect, rules.PlayerLost):
            lines.append(f"{name_of(effect.player)} loses ({effect.reason.replace('_', ' ')}).")
        elif isinstance(effect, rules.GameOver):
            if effect.winners:
                lines.append(
                    "Game over: " + ", ".join(name_of(p) for p in effect.winners) + " wins"
                    f" ({effect.reason.replace('_', ' ')})."
                )
            else:
                lines.append(f"Game over: a draw ({effect.reason.replace('_', ' ')}).")
    if gold_moves:
        lines.append(f"Income +{engine.config.income}: " + ", ".join(gold_moves) + " gold.")
    return lines


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
        self,
        ctx: Context,
        what: str,
        players: Annotated[int, Range(2, 6)] | None = None,
        block: str | None = None,
    ) -> None:
        """!auction new|commander [PLAYERS] [BLOCK]: create an Auction Magic (or Commander Auction) game."""
        kind = what.lower()
        if kind not in ("new", "commander"):
            raise BadArgument("usage: !auction new|commander [PLAYERS 2-6] [BLOCK]")
        assert ctx.room_id is not None
        options = AuctionOptions(**{**asdict(self.defaults), "seats": players or self.defaults.seats})
        if kind == "commander":
            options = AuctionOptions(
                **{
                    **asdict(options),
                    "commander": True,
                    "block": COMMANDER_BLOCK if not block else options.block,
                }
            )
        if block:
            try:
                options = AuctionOptions(
                    **{**asdict(options), "block": chat_block_name(block, self.defaults.block)}
                )
            except ValueError as exc:
                raise BadArgument(str(exc)) from None
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
        await ctx.reply(
            shorten(
                f"{title} game #{referee.game_id} is open for {options.seats} players"
                f" (block {loaded.name}, {len(loaded)} cards). Join it, load any deck (an empty one is fine)"
                " and press ready. In game: !help."
            )
        )


# ---------------------------------------------------------------------------------------------
# The game referee
# ---------------------------------------------------------------------------------------------


@dataclass
class _Returned:
    """A card a player dropped on the bot's table, waiting for !top / !bottom."""

    card_id: int
    name: str
    player: int


class AuctionReferee(PileReferee):
    """One Auction Magic game."""

    format_name = "auction"
    game_title = "Auction Magic"
    options_type = AuctionOptions
    refusals: ClassVar[dict[str, str]] = REFUSALS

    def __init__(
        self, bot: Bot, game_id: int, room_id: int, options: AuctionOptions, block: LoadedBlock
    ) -> None:
        super().__init__(bot, game_id, room_id, options, block)
        self.options: AuctionOptions = options
        self.block: LoadedBlock = block
        self.on_table: dict[int, int] = {}  # engine card index -> its Cockatrice id on our table
        self.returned: list[_Returned] = []
        self._lock = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = None

    @property
    def engine(self) -> rules.AuctionEngine:
        assert self.table is not None
        engine: rules.AuctionEngine = self.table.engine  # type: ignore[assignment]
        return engine

    # -- starting ------------------------------------------------------------------------------------

    async def start_engine(self) -> None:
        """The Cockatrice game started: seat the engine players in turn order and open the bank."""
        humans = [p.player_id for p in self.humans()]
        if len(humans) < 2:
            await self.say("Auction Magic needs at least two players; this game has too few.")
            return
        active = self.mirror.active_player_id
        if active in humans:
            start = humans.index(active)
            humans = humans[start:] + humans[:start]
        config = rules.AuctionConfig(
            players=tuple(humans),
            cards=self.block.facts,
            starting_gold=self.options.starting_gold,
            income=self.options.income,
            one_round_bidding=self.options.one_round_bidding,
            empty_block_rule=self.options.empty_block_rule,
            commander=self.options.commander,
        )
        seed = self.options.seed if self.options.seed is not None else secrets.randbits(48)
        engine = rules.AuctionEngine(config, seed=seed)
        self.open_table(engine, humans)
        await self.read_own_deck()
        gold_color = (212, 175, 55, 255)
        counters = [
            pc.create_counter(self.counter_name(p), value=engine.gold(p), color=gold_color) for p in humans
        ]
        await self.run(*counters)
        order = ", ".join(self.player_name(p) for p in humans)
        await self.say(
            f"Auction Magic: {len(self.block)}-card block shuffled. Turn order {order}."
            f" Everyone has {self.options.starting_gold} gold, +{self.options.income} at each end of turn."
        )
        if self.options.commander:
            await self.perform(self.apply(rules.StartPregame(player=None)))

    def counter_name(self, player: Any) -> str:
        return f"{self.player_name(player)[:20]} gold"

    # -- events ----------------------------------------------------------------------------------

    async def on_game_event(self, event: ClientEvent) -> None:
        name = event.name
        async with self._lock:
            if self.table is None:
                # The engine starts with the game's first turn, so turn order begins with that player.
                if self.mirror.started and name == "Event_SetActivePlayer":
                    await self.start_engine()
                    if self.table is not None:
                        await self.on_active_player(int(event.message.active_player_id))  # type: ignore[attr-defined]
                return
            if self.engine.is_over():
                return
            if name == "Event_SetActivePlayer":
                await self.on_active_player(int(event.message.active_player_id))  # type: ignore[attr-defined]
            elif name == "Event_SetActivePhase":
                await self.on_phase(int(event.message.phase))  # type: ignore[attr-defined]
            elif name == "Event_MoveCard" and not event.is_own:
                await self.on_card_moved(event)
            elif name in ("Event_Leave", "Event_Kicked") and self.is_engine_player(event.player_id):
                await self.try_apply(rules.Concede(player=event.player_id))
            elif name == "Event_PlayerPropertiesChanged" and self.is_engine_player(event.player_id):
                props = event.message.player_properties  # type: ignore[attr-defined]
                if props.HasField("conceded") and props.conceded:
                    await self.try_apply(rules.Concede(player=event.player_id))

    async def on_active_player(self, active: int) -> None:
        engine = self.engine
        if engine.phase == "pregame":  # 90Y.4a: commanders first; the turn begins when the pregame ends
            if active == self.me:
                await self.run(pc.next_turn())
            return
        if engine.active is not None and engine.active != active:
            await self.perform(self.apply(rules.EndTurn(player=None)))
        if active == self.me:
            await self.run(pc.next_turn())
            return
        if active in engine.players and engine.active != active and not engine.is_over():
            await self.perform(self.apply(rules.BeginTurn(player=None, active=active)))
            if self.options.auction_at == "turn":
                await self.start_auction_step()

    async def on_phase(self, phase: int) -> None:
        engine = self.engine
        if (
            phase >= DRAW_PHASE
            and engine.active == self.mirror.active_player_id
            and engine.phase == "beginning"
        ):
            await self.start_auction_step()

    async def start_auction_step(self) -> None:
        for pending in list(self.returned):  # dropped cards nobody placed: default top
            await self.place_returned(pending, "top")
        await self.perform(self.apply(rules.StartAuctionStep(player=None)))

    async def on_card_moved(self, event: ClientEvent) -> None:
        """A player dropped a card on our table: it goes back to the block (top unless they say !bottom)."""
        move = event.message
        if move.target_player_id != self.me or move.target_zone != "table":  # type: ignore[attr-defined]
            return
        card_id = move.new_card_id if move.new_card_id >= 0 else move.card_id  # type: ignore[attr-defined]
        name = move.card_name  # type: ignore[attr-defined]
        mover = event.player_id
        if not name:
            card = self.mirror.players[self.me].zone("table").find(card_id)
            name = card.name if card is not None else ""
        self.returned.append(_Returned(card_id, name, mover))
        await self.say(
            f"{self.player_name(mover)} gives back {name}: !top or !bottom of the block (default top)."
        )

    async def place_returned(self, pending: _Returned, position: str) -> None:
        self.returned.remove(pending)
        try:
            effects = self.apply(
                rules.ReturnToBlock(player=pending.player, card=pending.name, position=position)
            )
        except RulesError as exc:
            back = pc.move_card(
                "table", [pending.card_id], target_player_id=pending.player, target_zone="table", x=0, y=0
            )
            await self.run(back)
            await self.say(
                shorten(
                    f"{self.player_name(pending.player)}: {pending.name} sent back ({self.explain(exc)})."
                )
            )
            return
        await self.perform(effects, returned_card_id=pending.card_id)

    async def on_reconnected(self) -> None:
        """Re-seated after a restart or a dropped connection: re-read our cards and say where we are."""
        async with self._lock:
            if self.table is None or self.game_id not in self.bot.client.games:
                return
            await self.read_own_deck()
            table = self.mirror.players[self.me].zone("table")
            on_table: dict[str, list[int]] = {}
            for card in table.cards:
                on_table.setdefault(card.name, []).append(card.id)
            self.on_table = {}
            held = list(self.engine.lot.cards if self.engine.lot else []) + [
                i for cards in self.engine.pending.values() for i in cards
            ]
            for index in held:
                ids = on_table.get(self.block.game_names[index])
                if ids:
                    self.on_table[index] = ids.pop(0)
            await self.say("Referee back. " + self.status_line())

    # -- performing effects -------------------------------------------------------------------------

    async def try_apply(self, action: Any) -> None:
        try:
            await self.perform(self.apply(action))
        except RulesError as exc:
            LOGGER.info("game %d: %r refused: %s", self.game_id, action, exc)

    async def perform(self, effects: list[Effect], *, returned_card_id: int | None = None) -> None:
        """Move the physical cards, update the gold counters, and announce, for ``effects``."""
        engine = self.engine
        pregame_over = False
        for effect in effects:
            if isinstance(effect, rules.LotOpened):
                if effect.kind != "owned":  # a player's own card stays with them until sold
                    for ref in effect.cards:
                        await self.deck_to_my_table(ref.index)
            elif isinstance(effect, rules.LotUnsold):
                if effect.destination != "returned":
                    for ref in effect.cards:
                        await self.my_table_to_deck(ref.index, top=effect.destination == "top")
            elif isinstance(effect, (rules.CardCast, rules.CommanderChosen)):
                await self.give(effect.card.index, effect.player, hand=False)
            elif isinstance(effect, rules.CardKept):
                await self.give(effect.card.index, effect.player, hand=True)
            elif isinstance(effect, (rules.CardsDrawn, rules.CardsAwarded)):
                for ref in effect.cards:
                    await self.give(ref.index, effect.player, hand=True)
            elif isinstance(effect, rules.CardReturned) and returned_card_id is not None:
                name = self.block.game_names[effect.card.index]
                await self.table_to_own_deck(returned_card_id, name, top=effect.position == "top")
            elif isinstance(effect, rules.TopCardsShown):
                await self.show_top(effect)
            elif isinstance(effect, rules.GoldChanged) and effect.new != effect.old:
                counter = self.my_counter(self.counter_name(effect.player))
                if counter is not None:
                    await self.run(pc.inc_counter(counter, effect.new - effect.old))
            elif isinstance(effect, rules.GameOver) and self.table is not None:
                self.bot.journal.close_table(self.table_key)
            elif isinstance(effect, rules.PregameFinished):
                pregame_over = True
        lines = render_effects(effects, engine, self.player_name)
        for line in lines:  # queued lines are merged into as few chat messages as fit
            await self.say(line)
        self.arm_timer()
        if pregame_over and self.mirror.active_player_id in engine.players:
            await self.on_active_player(self.mirror.active_player_id)

    def my_counter(self, name: str) -> int | None:
        me = self.mirror.players.get(self.me)
        if me is None:
            return None
        for counter in me.counters.values():
            if counter.name == name:
                return counter.id
        return None

    async def deck_to_my_table(self, index: int) -> None:
        """Reveal a lot: the card goes face up onto our table."""
        card_id = await self.deal_from_deck(
            self.block.game_names[index], self.me, exclude=self.on_table.values()
        )
        if card_id is not None:
            self.on_table[index] = card_id

    async def my_table_to_deck(self, index: int, *, top: bool) -> None:
        card_id = self.on_table.pop(index, None)
        if card_id is not None:
            await self.table_to_own_deck(card_id, self.block.game_names[index], top=top)

    async def give(self, index: int, player: Any, *, hand: bool) -> None:
        """Hand engine card ``index`` to ``player``: onto their table, then (as a judge, for ``hand``) into
        their hand. It comes from our table if it was up for auction, else from our deck (a draw)."""
        player = int(player)
        card_id = self.on_table.pop(index, None)
        if card_id is None:
            new_id = await self.deal_from_deck(self.block.game_names[index], player)
        else:
            before = self.table_ids(player)
            await self.run(
                pc.move_card("table", [card_id], target_player_id=player, target_zone="table", x=0, y=0)
            )
            new_id = await self.wait_new_card(player, before) if hand and self.is_judge else None
        if hand and new_id is not None:
            await self.into_hand(player, new_id)

    async def show_top(self, effect: rules.TopCardsShown) -> None:
        """Private: reveal the looked-at cards to that player only, and list them by number."""
        positions = self.own_deck.positions([self.block.game_names[ref.index] for ref in effect.cards])
        if positions:
            with contextlib.suppress(Exception):
                await self.run(pc.reveal_cards("deck", positions, player_id=int(effect.player)))
        listing = "; ".join(f"{n}. {ref.name}" for n, ref in enumerate(effect.cards, start=1))
        await self.bot.tell(
            self.player_name(effect.player),
            shorten(
                f"Top of the block: {listing}. Reorder in game chat: !order 2 1 3"
                " ('bottom N' puts N at the bottom).",
                900,
            ),
        )

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
        timeout = self.options.bid_timeout
        await asyncio.sleep(timeout / 2)
        await self.say(f"{self.player_name(bidder)}: {timeout / 2:g} s left to bid.")
        await asyncio.sleep(timeout / 2)
        async with self._lock:
            lot = self.engine.current_lot()
            if self.engine.whose_bid() == bidder and lot is not None and lot["lot_no"] == lot_no:
                self._timer = None
                await self.say(f"{self.player_name(bidder)} ran out of time.")
                await self.perform(self.apply(rules.Pass(player=None)))

    # -- status --------------------------------------------------------------------------------------

    def status_line(self) -> str:
        engine = self.engine
        parts = [
            f"Turn {engine.turn}"
            + (f" ({self.player_name(engine.active)})" if engine.active is not None else "")
        ]
        lot = engine.current_lot()
        if lot is not None:
            names = ", ".join(card["name"] for card in lot["cards"])
            high = lot.get("high_bid") or 0
            parts.append(f"auction {lot['lot_no']}: {names}, high bid {high}")
            bidder = engine.whose_bid()
            if bidder is not None:
                parts.append(f"{self.player_name(bidder)} to bid")
        parts.append("gold " + ", ".join(f"{self.player_name(p)} {engine.gold(p)}" for p in engine.players))
        parts.append(f"block {engine.block_size()}")
        return "; ".join(parts) + "."

    # -- commands ------------------------------------------------------------------------------------

    async def act(self, ctx: Context, make: Callable[[int], Any]) -> None:
        """Check the sender, apply the action built for their seat, and perform its effects."""
        player = self.require_player(ctx)
        async with self._lock:
            await self.perform(self.apply(make(player)))

    @command(aliases=("b",))
    async def bid(self, ctx: Context, amount: Annotated[int, Range(1, 100000)]) -> None:
        """Bid AMOUNT gold on the card up for auction."""
        await self.act(ctx, lambda p: rules.Bid(player=p, amount=amount))

    @command(name="pass", aliases=("p",))
    async def pass_(self, ctx: Context) -> None:
        """Pass on the current auction."""
        await self.act(ctx, lambda p: rules.Pass(player=p))

    @command()
    async def cast(self, ctx: Context, card: Rest | None = None) -> None:
        """Cast the card you just bought (onto the battlefield)."""
        await self.act(ctx, lambda p: rules.Cast(player=p, card=card))

    @command()
    async def keep(self, ctx: Context, card: Rest | None = None) -> None:
        """Keep the card you just bought in your hand."""
        await self.act(ctx, lambda p: rules.Keep(player=p, card=card))

    @command()
    async def gold(self, ctx: Context) -> None:
        """Show everyone's gold."""
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        await ctx.reply(
            ", ".join(f"{self.player_name(p)} {self.engine.gold(p)}" for p in self.engine.players)
        )

    @command()
    async def mana(
        self, ctx: Context, color: str, count: Annotated[int, Range(1, 100)] | None = None
    ) -> None:
        """Spend gold for mana: !mana COLOR [N] (1 gold per mana)."""
        letter = COLORS.get(color.lower())
        if letter is None:
            raise BadArgument("colour must be W, U, B, R or G")
        await self.act(ctx, lambda p: rules.BuyMana(player=p, color=letter, count=count or 1))

    @command()
    async def draw(self, ctx: Context, count: Annotated[int, Range(1, 20)] | None = None) -> None:
        """Draw N cards from the block (card effects)."""
        await self.act(ctx, lambda p: rules.Draw(player=p, count=count or 1))

    @command()
    async def look(self, ctx: Context, count: Annotated[int, Range(1, 20)]) -> None:
        """Look at the top N cards of the block (shown to you only), then !order."""
        await self.act(ctx, lambda p: rules.LookAtTop(player=p, count=count))

    @command(aliases=("reorder",))
    async def order(self, ctx: Context, order: Rest) -> None:
        """Put the cards you looked at back: !order 2 1 3 [bottom 4] (numbers from your !look)."""
        player = self.require_player(ctx)
        seen = self.engine.looks.get(player) if self.table is not None else None
        if not seen:
            raise BadArgument("use !look N first")
        words = order.lower().replace(",", " ").split()
        top: list[int] = []
        bottom: list[int] = []
        target = top
        for word in words:
            if word == "bottom":
                target = bottom
                continue
            if not word.isdigit() or not 1 <= int(word) <= len(seen):
                raise BadArgument(f"use the numbers 1-{len(seen)} from your !look")
            target.append(seen[int(word) - 1])
        await self.act(ctx, lambda p: rules.Reorder(player=p, top=tuple(top), bottom=tuple(bottom)))

    async def _place(self, ctx: Context, position: str) -> None:
        player = self.require_player(ctx)
        async with self._lock:
            mine = [r for r in self.returned if r.player == player]
            if not mine:
                raise BadArgument("drop a card on the referee's table first")
            await self.place_returned(mine[-1], position)

    @command()
    async def top(self, ctx: Context) -> None:
        """Put the card you gave back on top of the block."""
        await self._place(ctx, "top")

    @command()
    async def bottom(self, ctx: Context) -> None:
        """Put the card you gave back at the bottom of the block."""
        await self._place(ctx, "bottom")

    @command()
    async def shuffle(self, ctx: Context) -> None:
        """Shuffle the block (card effects)."""
        await self.act(ctx, lambda p: rules.Shuffle(player=p))

    @command()
    async def stop(self, ctx: Context) -> None:
        """Vote to stop auctioning after unsold cards (everyone must agree)."""
        await self.act(ctx, lambda p: rules.StopAuctioning(player=p))

    @command(name="auction")
    async def auction_now(self, ctx: Context) -> None:
        """Start this turn's auction step now (for when the draw step was skipped in Cockatrice)."""
        player = self.require_player(ctx)
        async with self._lock:
            if self.engine.active != player:
                raise NotAllowed("only the active player can start the auction step")
            if self.engine.phase != "beginning":
                raise NotAllowed("the auction step already happened this turn")
            await self.start_auction_step()

    @command()
    async def sell(self, ctx: Context, cards: Rest) -> None:
        """Put cards you own up for auction (card effects, 90X.6): !sell NAME[, NAME...]."""
        names = tuple(n.strip() for n in cards.split(",") if n.strip())
        await self.act(ctx, lambda p: rules.AuctionOwnCards(player=p, cards=names))

    @command()
    async def lot(self, ctx: Context, count: Annotated[int, Range(1, 10)]) -> None:
        """Put the top N cards of the block up for auction together (card effects, 90X.8)."""
        await self.act(ctx, lambda p: rules.AuctionFromBlock(player=p, count=count))

    @command()
    async def cdamage(
        self, ctx: Context, amount: Annotated[int, Range(1, 100)], owner: Rest | None = None
    ) -> None:
        """Record combat damage a commander dealt you: !cdamage N [OWNER] (90Y.7: 21 from one loses)."""
        player = self.require_player(ctx)
        engine = self.engine
        others = {p: i for p, i in engine.commanders.items() if p != player}
        if owner:
            chosen = [p for p in others if self.player_name(p).casefold() == owner.strip().casefold()]
        else:
            chosen = list(others) if len(others) == 1 else []
        if len(chosen) != 1:
            raise BadArgument("name whose commander hit you: !cdamage N OWNER")
        index = others[chosen[0]]
        async with self._lock:
            await self.perform(
                self.apply(rules.CommanderDamage(player=None, target=player, commander=index, amount=amount))
            )

    @command()
    async def concede(self, ctx: Context) -> None:
        """Concede the game."""
        await self.act(ctx, lambda p: rules.Concede(player=p))

    @command()
    async def state(self, ctx: Context) -> None:
        """Where the game stands: turn, auction, gold, block size."""
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        await ctx.reply(self.status_line())


INSTALLERS = {"auction": AuctionRoom.install}
RESUMERS = {"auction": AuctionReferee.resume}
