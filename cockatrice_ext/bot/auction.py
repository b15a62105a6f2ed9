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
:data:`RETURNED`, wait again); one that lost its seat
rebuilds the game on ``!resume``
(:meth:`AuctionReferee.rebuild`): the remaining block as its deck, every card back with the player
who holds it, gold, and the open lot with its standing bid.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
import secrets
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from cockatrice_ext.bot.blocks import LoadedBlock, chat_block_name, load_block
from cockatrice_ext.bot.chat import Line, bidi_isolated
from cockatrice_ext.bot.commands import (
    BadArgument,
    CommandSet,
    CommandSpec,
    NotAllowed,
    Range,
    Rest,
    command,
    split_args,
)
from cockatrice_ext.bot.formats import SeatsByName
from cockatrice_ext.bot.referee import (
    MAX_CHAT_LINE,
    Context,
    FormatRoom,
    OwnDeck,
    PileReferee,
    Refusal,
    asked_by,
    owner_note,
    players_named,
    render_refusal,
    shorten,
)
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.silence import silence_is_heard, told
from cockatrice_ext.cards.typed import split_names, typed_key
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.formats.base import CardRef, Effect, RulesError
from cockatrice_ext.journal import JournalEntry, JournalError, Table
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol.codes import CardAttribute

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
MANA_COUNTERS = {"W": 1, "U": 2, "B": 3, "R": 4, "G": 5}
"""Cockatrice's fixed player counters for each colour of mana (0 is life)."""
GOLD_CARD = "Gold"  # judge rights: a token on each player's own table, its number their gold
LOT_CARD = "Auction lot"
"""A note token on the referee's table carrying the lot of a player's own cards (``!sell``): they stay
with their seller until sold, so no block card of ours can carry the lot's annotation."""
DEAL_ROW = 0
SETTLE_SECONDS = 0.15
"""How long a turn change waits for the concession or departure Servatrice sends just after it."""
LIFE_COUNTER = 0
"""The server's own life counter (``Server_Player`` creates it with id 0): a counter a player creates and
names "life" is not their life total."""
NOTE_LIMIT = 255
"""The most UTF-8 bytes of a card's annotation Servatrice keeps (``MAX_NAME_LENGTH``: the value of
``Command_SetCardAttr`` goes through ``nameFromStdString``); a longer lot note was cut mid-card-name, its bid
lines lost."""


@dataclass(frozen=True)
class AuctionOptions:
    """Table options chosen when the game is created (journaled with the table)."""

    seats: int = 2
    block: str = "auction-sample"
    starting_gold: int = 10
    income: int = 3
    one_round_bidding: bool = False
    empty_block_rule: str = "active_player_loses"
    noncreature_follow_up: str = rules.AuctionConfig.noncreature_follow_up  # game option noncreature
    commander: bool = False
    auction_at: str = "draw"  # "draw" (the draw step) or "turn" (as soon as the turn begins)
    bid_timeout: float = 0.0  # seconds; 0 = no bid timer
    password: str = ""
    judge: bool = False  # ask for a judge seat even if the account has no judge rights
    seed: int | None = None  # fixed shuffle for reproducible games; None = a fresh random seed


HOW_AN_AUCTION_STARTS = "go to your draw step (or say !auction) and the top card comes up for auction"
"""What the active player does for their turn's auction (rule 3: the auction step replaces the draw step):
said on each turn's line and when ``!bid`` finds nothing up (a tester who had never read the rules bid into
silence)."""
HOW_AT_TURN = "say !auction and the top card comes up for auction"
""":data:`HOW_AN_AUCTION_STARTS` at a table whose auction opens as the turn begins (``auction_at="turn"``):
there it is due already, and the draw step is no part of it."""


def how_an_auction_starts(auction_at: str) -> str:
    """What the active player does for the turn's auction at a table with option ``auction_at``."""
    return HOW_AT_TURN if auction_at == "turn" else HOW_AN_AUCTION_STARTS


TURN_LINE_WAIT = 5.0
"""Seconds a turn line with no other line to leave with (a judge's table: no income line) waits for the turn's
next line, to go in its message; it is dropped once the turn's auction has begun (the lot's line names the
bidder), and said alone when nothing else was said by then."""
DEALING = "dealing"
"""Table meta: ``{"game", "seq", "deck", "sb"}``, journaled as a draw's cards start to move: the game, the
draw's journal entry and how many cards our deck and spares held then. Back in its seat after a stop that
cut the draw short, the referee counts how many of the drawn cards left them and deals the rest
(:meth:`AuctionReferee.finish_draw`)."""
DRAWN_LABEL = "Face down: drag it into your hand (its name came to you)."
"""The note under ``Owner: NAME`` on a drawn card dealt face down to its drawer's table: a judge moves it into
the hand at once, and a hand clears a card's note, so a face-down card still carrying it is a drawn card that
has not reached the hand (:meth:`AuctionReferee.delivered_unmoved`)."""
RETURNED = "returned"
"""Table meta: ``{"game", "cards": [{"card", "name", "player", "face_down"}]}``: the cards players gave
back onto game ``game``'s referee table that still wait for ``!top`` / ``!bottom``
(:attr:`AuctionReferee.returned`), journaled as they come and go. A face-down one is nameless to a referee
back after a stop, which knew neither that it waited nor which card it was
(:meth:`AuctionReferee.journaled_returns`); a game ``!resume`` rebuilds puts them back on its referee's
table (:meth:`AuctionReferee.returns_to_deal`)."""
DRAW_ASKED = "draw_asked"
"""Table meta: ``[player, turn]`` of the active player's early ``!draw`` that was answered with how the
auction starts (journaled, so that after a restart the repeat draws instead of asking again)."""

REFUSALS: dict[str, str] = {
    "not_your_bid": "it is {to_bid}'s bid, not yours",
    "bid_too_high": "you have only {gold} gold",
    "bid_not_higher": "the bid must be higher than {high_bid}",
    "bid_below_minimum": "bids start at {minimum}",
    "no_lot": "nothing is up for auction",
    "no_lot/step_to_come": "nothing is up for auction yet: it is {active}'s turn; {active}: {how}",
    "no_lot/step_to_come/you": "nothing is up for auction yet: it is your turn: {how}",
    "no_lot/choice": "nothing is up for auction yet: the next card goes up once {player} says !cast or !keep",
    "no_lot/choice/you": "nothing is up for auction yet: the next card goes up once you say !cast or !keep",
    "no_lot/step_over": (
        "nothing is up for auction: {active}'s turn has had its auction; the next comes up {when}"
    ),
    "no_lot/step_over/you": (
        "nothing is up for auction: your turn has had its auction; the next comes up {when}"
    ),
    "no_lot/between_turns": "nothing is up for auction: the next comes up {when}",
    "not_revealed_lot": (
        "Gilded Idol buys a card as it is revealed from the block; auction {lot_no} was not revealed from it"
    ),
    "no_auction_step": "!stop is a vote to end the auction step, and none is running",
    "choice_pending": "no card is up yet: the next goes up once {player} says !cast or !keep; !stop then",
    "choice_pending/you": "no card is up yet: the next goes up once you say !cast or !keep; !stop then",
    "not_auction_step_lot": "!stop only ends the auction step; auction {lot_no} ends when its bidding does",
    "not_auction_step_lot/from_block": (
        "!stop only ends the auction step; auction {lot_no} (put up with !lot) is not part of it and ends"
        " when its bidding does (!bid N or !pass); unbid, it goes to the bottom of the block"
    ),
    "not_auction_step_lot/owned": (
        "!stop only ends the auction step; auction {lot_no} ({seller}'s !sell) is not part of it and ends"
        " when its bidding does (!bid N or !pass); unbid, it stays with {seller}"
    ),
    "not_auction_step_lot/owned/you": (
        "!stop only ends the auction step; auction {lot_no} (your !sell) is not part of it and ends when its"
        " bidding does (!bid N or !pass); unbid, it stays with you"
    ),
    "not_auction_step_lot/commander": (
        "!stop only ends the auction step; the commander auction ends when its bidding does (!bid N or"
        " !pass); unbid, {first_bidder} takes it free (90Y.4a)"
    ),
    "not_auction_step_lot/commander/you": (
        "!stop only ends the auction step; the commander auction ends when its bidding does (!bid N or"
        " !pass); unbid, you take it free (90Y.4a)"
    ),
    "not_eligible": "you may not bid on this lot",
    "gold_committed": "that gold is committed to your bid",
    "not_enough_gold": "not enough gold (you have {gold})",
    "no_pending_choice": "you have no bought card waiting for !cast or !keep",
    "missing_card": "no such card here",
    "ambiguous_card": "which one? name it exactly",
    "ambiguous_card/pending": "which one: {pending}? say it with the card's name",
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
    "already_voted": "you already voted to stop",
    "bids_placed": "a bid was placed on this lot: bid or pass",
    "already_bid": "you have bid on this lot already: Gilded Idol works only before you bid",
    "wrong_card": "{card} cannot do that",
    "already_claimed": "you already staked a claim with {card}",
    "commander_alone": "a commander goes up for auction alone",
    "not_a_commander": "you have no commander",
    "not_commander_game": "this is not a Commander Auction game",
    "not_enough_copies": "you hold only {held} {card}",
    "not_enough_copies/several": "you hold only {held} copies of {card}",
    "duplicate_card": "you named {card} twice",
    "not_in_command_zone": "{card} is not in the command zone",
    "not_permitted": "you may do that only for yourself",
    "pregame_done": "every player has a commander already",
    "bad_position": "a card goes back on the top or the bottom of the block",
    "referee_only": "only the referee does that",
    "malformed": "the referee could not read that command",
    "unknown_action": "the referee does not know that action",
    "bad_option": "that table option is not allowed",
    "bad_player_count": "Auction Magic takes {minimum} to {maximum} players",
    "duplicate_player": "a player is seated twice",
    "block_not_singleton": "every card of a Commander Auction block must have a different name",
    "not_enough_legends": "the block needs at least {players} legendary creatures",
}
"""Every reason the engine gives for a refusal, in words (a test checks that none is missing: a bare code such
as ``malformed`` once reached players). A ``/you`` form is the words for the player the reason is about when
they asked: nobody is told about themselves by name (:data:`ABOUT_SENDER`)."""

ABOUT_SENDER: dict[str, str] = {
    "no_lot/step_to_come": "active",
    "no_lot/choice": "player",
    "no_lot/step_over": "active",
    "choice_pending": "player",
    "not_auction_step_lot/owned": "seller",
    "not_auction_step_lot/commander": "first_bidder",
}
"""Refusals that name a player (by this detail): said to that very player, they take their ``/you`` form."""

COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


# ---------------------------------------------------------------------------------------------
# What players see: one pure view of the engine after some effects (tested without a server)
# ---------------------------------------------------------------------------------------------

NameOf = Callable[[Any], str]


@dataclass
class AuctionView:
    """What players should see after a batch of effects; the referee sends it through its sinks."""

    chat: list[str] = field(default_factory=list)
    """Lines that need words, in order (the game-over line first)."""
    lot_note: str = ""
    """The open lot's annotation ("" when no lot is open): on its card(s) on the referee's table, or on the
    :data:`LOT_CARD` note token when the lot is a player's own cards (``owned_lot``)."""
    owned_lot: bool = False
    gold: dict[Any, int] = field(default_factory=dict)
    """Every living player's gold (the judge's counters are brought to these values)."""
    mana: list[tuple[Any, str, int]] = field(default_factory=list)
    """Mana bought: (player, colour letter, count), for the player's mana counter."""
    private: list[tuple[Any, str]] = field(default_factory=list)
    """(player, line) only that player may read: the names of the cards they drew."""
    turn: str = ""
    """The turn line (:func:`turn_line`) when ``chat`` ends with one: alone there, the referee holds it for
    the turn's next line (:data:`TURN_LINE_WAIT`)."""


CardNames = Sequence[str] | None
"""Each engine card's name as Cockatrice shows it, by index (``LoadedBlock.game_names``: a double-faced card
by its front face, a split card whole); None: the engine's names."""


def _as_shown(value: Any, card_names: Sequence[str]) -> Any:
    """``value`` with every :class:`CardRef` in it (alone, or in a tuple or list) named as Cockatrice shows
    its card."""
    if isinstance(value, CardRef):
        if 0 <= value.index < len(card_names) and card_names[value.index] != value.name:
            return CardRef(value.index, card_names[value.index])
        return value
    if isinstance(value, (tuple, list)) and any(isinstance(item, CardRef) for item in value):
        return type(value)(_as_shown(item, card_names) for item in value)
    return value


def shown_effect(effect: Effect, card_names: CardNames) -> Effect:
    """``effect`` with its cards named as Cockatrice shows them: the bot moves a card called "Delver of
    Secrets", so its lines say that, not the engine's "Delver of Secrets // Insectile Aberration"."""
    if not card_names or not dataclasses.is_dataclass(effect):
        return effect
    changes = {}
    for spec in dataclasses.fields(effect):
        value = getattr(effect, spec.name)
        shown = _as_shown(value, card_names)
        if shown is not value:
            changes[spec.name] = shown
    return dataclasses.replace(effect, **changes) if changes else effect  # type: ignore[type-var]


def shown_name(engine: rules.AuctionEngine, index: int, card_names: CardNames) -> str:
    """Engine card ``index``'s name as Cockatrice shows it (:data:`CardNames`)."""
    if card_names and 0 <= index < len(card_names):
        return card_names[index]
    return engine.ref(index).name


def card_label(facts: Any, name: str | None = None) -> str:
    """``Chimney Imp (creature 2/1)`` from a CardFacts (``name``: as Cockatrice shows the card)."""
    kind = "creature" if facts.is_creature else (facts.types[0].lower() if facts.types else "card")
    shown = name or facts.name
    if facts.is_creature and facts.power is not None:
        return f"{shown} ({kind} {facts.power}/{facts.toughness})"
    return f"{shown} ({kind})"


def gold_summary(engine: rules.AuctionEngine, name_of: NameOf, *, everyone: bool = False) -> str:
    """``Alice 7, Bob 10``: the players still in the game (a player who left is not listed); ``everyone``:
    every player, those out of the game too (once it is over, the loser's gold is part of the result)."""
    players = engine.players if everyone else engine.living()
    return ", ".join(f"{name_of(p)} {engine.gold(p)}" for p in players)


def utf8_size(text: str) -> int:
    """What ``text`` weighs where Servatrice counts bytes (card annotations)."""
    return len(text.encode("utf-8"))


def clip_bytes(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` UTF-8 bytes, cut at a character (an ellipsis marks the cut)."""
    if utf8_size(text) <= limit:
        return text
    cut = text.encode("utf-8")[: max(0, limit - utf8_size("…"))].decode("utf-8", "ignore")
    return cut + "…"


def fitted_names(
    names: Sequence[str], budget: int, *, size: Callable[[str], int] = len, more: str = ""
) -> str:
    """``A, B, C`` in at most ``budget`` (measured by ``size``): as many names as fit, whole, then ``and N
    more`` (followed by ``more``, e.g. where the rest are named); a first name alone too long is cut."""
    whole = ", ".join(names)
    if size(whole) <= budget:
        return whole
    for keep in range(len(names) - 1, 0, -1):
        text = ", ".join(names[:keep]) + f" and {len(names) - keep} more{more}"
        if size(text) <= budget:
            return text
    rest = f" and {len(names) - 1} more{more}" if len(names) > 1 else ""
    if size(rest) >= budget:
        return f"{len(names)} cards" if len(names) > 1 else clip_bytes(names[0], max(budget, 8))
    room = budget - size(rest)
    first = names[0] if size(names[0]) <= room else clip_bytes(names[0], room)
    return first + rest


def lot_note(
    engine: rules.AuctionEngine, name_of: NameOf, *, with_gold: bool, card_names: CardNames = None
) -> str:
    """The open lot as the annotation on its card: lot, high bid and bidder, who is to bid, gold; within the
    server's :data:`NOTE_LIMIT`, the card list shortened (``and 3 more``) so the bid lines always show and
    change with every bid. Once the game is over nobody is to bid."""
    lot = engine.lot  # read in place: this runs on every bid, and the lot's bid history can be long
    if lot is None:
        return ""
    plain_name_of = name_of

    def name_of(seat: Any) -> str:  # measured as sent: a right-to-left name between isolates (as in chat)
        return bidi_isolated(plain_name_of(seat))

    head = f"Auction {lot.lot_no}: "
    lines: list[str] = []
    if engine.is_over():
        lines.append("Game over: no more bids")
    else:
        if lot.high_bidder is not None:
            lines.append(f"High bid: {lot.high_bid} by {name_of(lot.high_bidder)}")
        else:
            lines.append("No bid yet")
        lines.append(f"To bid: {name_of(lot.whose_bid())} (!bid N or !pass)")
        if lot.stakes:
            times = f" x{lot.stakes}" if lot.stakes > 1 else ""
            lines.append(f"Raise the Stakes{times}: the buyer drains {rules.STAKES_LIFE} life")
        if with_gold:
            lines.append("Gold: " + gold_summary(engine, name_of))
    names = [shown_name(engine, index, card_names) for index in lot.cards]
    budget = NOTE_LIMIT - utf8_size(head) - sum(utf8_size("\n" + line) for line in lines)
    note = head + fitted_names(names, budget, size=utf8_size) + "".join("\n" + line for line in lines)
    return clip_bytes(note, NOTE_LIMIT)  # only when the bid lines alone are too long (six long player names)


def bought_label(price: int, lot_no: int) -> str:
    """The line under ``Owner: NAME`` on a bought card's note."""
    return f"Bought for {price} (auction {lot_no})"


def bought_labels(entries: Iterable[JournalEntry]) -> dict[int, str]:
    """Each card bought so far (engine card index) -> :func:`bought_label`, from a game's journaled
    effects: a game rebuilt by ``!resume`` labels its cards as the first game did."""
    labels: dict[int, str] = {}
    for entry in entries:
        for effect in entry.effects:
            if effect.get("type") != "LotSold":
                continue
            try:
                label = bought_label(int(effect["price"]), int(effect["lot_no"]))
                labels.update((int(card["index"]), label) for card in effect.get("cards", ()))
            except (KeyError, TypeError, ValueError):  # an effect of another shape: no label, nothing else
                continue
    return labels


SHOWN_EFFECTS = frozenset(
    {
        "LotOpened",
        "LotSold",
        "LotUnsold",
        "CardKept",
        "CardCast",
        "CardsRevealed",
        "RevealedUntilCreature",
        "CardsAwarded",
        "CommanderChosen",
    }
)
"""Journaled effects that name their cards to the whole table."""


def drawn_unseen(entries: Iterable[JournalEntry]) -> set[int]:
    """Engine card indices whose last journaled way into a hand was a draw (``CardsDrawn``: the name told
    to the drawer alone) with no effect naming them to the table since: a game rebuilt by ``!resume``
    deals them face down and tells their names privately, as the draw did."""
    unseen: set[int] = set()
    for entry in entries:
        for effect in entry.effects:
            kind = effect.get("type")
            if kind != "CardsDrawn" and kind not in SHOWN_EFFECTS:
                continue
            refs = [
                *effect.get("cards", ()),
                *([effect["card"]] if isinstance(effect.get("card"), dict) else []),
            ]
            try:
                indices = {int(ref["index"]) for ref in refs}
            except (KeyError, TypeError, ValueError):  # an effect of another shape: hidden stays hidden
                continue
            if kind == "CardsDrawn":
                unseen |= indices
            else:
                unseen -= indices
    return unseen


def drawn_in(entry: JournalEntry) -> list[tuple[Any, int]]:
    """(drawer, engine card index) for each card ``entry``'s draws (``CardsDrawn``) gave, in the order the
    referee deals them; an effect of another shape gives none."""
    drawn: list[tuple[Any, int]] = []
    for effect in entry.effects:
        if effect.get("type") != "CardsDrawn":
            continue
        with contextlib.suppress(KeyError, TypeError, ValueError):
            drawn += [(effect["player"], int(ref["index"])) for ref in effect.get("cards", ())]
    return drawn


PUT_BACK_EFFECTS = frozenset({"LotUnsold", "CardReturned"})
"""Journaled effects that put block cards back into the referee's deck, their ids seen with their names."""


def put_back(entries: Iterable[JournalEntry]) -> set[int]:
    """Engine card indices the journal says went back into the block at some point (an unsold lot, a card
    given back): after a restart the referee cannot tell which of its deck's cards of those names they are
    (Servatrice numbers a hidden zone's cards by position when it lists them), so it takes every card of
    those names in its deck for seen."""
    back: set[int] = set()
    for entry in entries:
        for effect in entry.effects:
            if effect.get("type") not in PUT_BACK_EFFECTS:
                continue
            refs = [
                *effect.get("cards", ()),
                *([effect["card"]] if isinstance(effect.get("card"), dict) else []),
            ]
            with contextlib.suppress(KeyError, TypeError, ValueError):
                back |= {int(ref["index"]) for ref in refs}
    return back


def listed(names: Iterable[str], *, last: str = "and") -> str:
    """``A``, ``A and B``, ``A, B and C`` (``last="or"``: ``A, B or C``)."""
    items = list(names)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def to_hand_line(who: str, cards: Iterable[str]) -> str:
    """The one instruction a player without a judge's help needs for cards dealt onto their table."""
    names = list(cards)
    return f"{who}: drag {listed(names)} from your table to your hand."


def sell_line(seller: str, winner: str, cards: Iterable[str]) -> str:
    """What a seller does with cards sold by ``!sell`` when the referee cannot move them."""
    return f"{seller}: drag {listed(cards)} onto {winner}'s table; {winner}: then into your hand."


def order_example(count: int) -> str:
    """A ``!order`` that fits ``count`` looked-at cards (the first two swapped)."""
    if count == 1:
        return "!order 1 (or !order bottom 1)"
    numbers = [2, 1, *range(3, count + 1)]
    return "!order " + " ".join(str(n) for n in numbers)


def turn_line(who: str) -> str:
    """A turn's one line when its auction waits for the draw step: whose turn it is and how the auction
    starts."""
    return f"{who}'s turn: {HOW_AN_AUCTION_STARTS}."


UNSOLD_WHERE: dict[str, tuple[str, str]] = {
    "returned": ("stays with its owner", "stay with their owner"),
    "top": ("goes back on top of the block", "go back on top of the block"),
    "free_commander": ("goes free to the first bidder", "go free to the first bidder"),
    "bottom_random": ("goes to the bottom", "go to the bottom"),
}
"""Where an unsold lot goes, said of one card and of several: "Bear and 1 more go", never "goes"."""


def agreeing(count: int, one: str, several: str) -> str:
    """``one`` when ``count`` is 1, else ``several``: a count's noun or verb agrees with it."""
    return one if count == 1 else several


def _unsold_line(effect: rules.LotUnsold, name_of: NameOf) -> str:
    names = fitted_names([c.name for c in effect.cards], MAX_CHAT_LINE - 140)  # the words around take < 140
    where = agreeing(len(effect.cards), *UNSOLD_WHERE.get(effect.destination, UNSOLD_WHERE["bottom_random"]))
    if effect.reason == "turn_ended":
        if effect.bids:
            last = effect.bids[-1]
            return (
                f"The turn ended during auction {effect.lot_no}: {name_of(last.player)}'s bid of"
                f" {last.amount} is void and {names} {where}."
            )
        return f"The turn ended during auction {effect.lot_no}: {names} {where} unsold."
    if effect.reason == "player_left" and effect.destination == "returned":
        leaves = agreeing(len(effect.cards), "leaves", "leave")
        return f"The seller left during auction {effect.lot_no}: {names} {leaves} the game with them."
    if effect.reason == "player_left":
        return f"Nobody is left to bid on auction {effect.lot_no}: {names} {where}."
    if effect.reason == "players_stopped":
        return f"Unsold: {names} {where}."
    return f"No bids: {names} {where}."


LOST_PHRASES = {
    "conceded": "conceded",
    "left": "left the game",
    "dropped": "was dropped (their connection was gone)",
    "commander_damage": "lost to commander damage",
    "block_empty_at_auction": "lost: the block was empty when their auction was due",
    "drew_from_empty_block": "lost by drawing from the empty block",
}
"""How a player's loss reads after their name, by the engine's reason: who lost and why in one phrase
(90X.3f's losses say "lost": "alice drew from the empty block" left the table asking who had lost, and
whether the game went on)."""


def _lost_phrase(reason: str) -> str:
    return LOST_PHRASES.get(reason, f"lost: {reason.replace('_', ' ')}")


def _ended_phrase(reason: str) -> str:
    """A game's end that is no one player's loss (90X.3f's other rules, a declared win), in words."""
    cause, _, rule = reason.partition(":")
    if cause in ("block_empty_at_auction", "drew_from_empty_block"):
        return "the block ran out" + ("; the highest life total wins" if rule == "higher_life" else "")
    return reason.replace("_", " ")


def end_reason(engine: rules.AuctionEngine, name_of: NameOf) -> str:
    """Why the game ended: whose loss ended it (``bob conceded``), or ``the block ran out``."""
    why = "; ".join(f"{name_of(p)} {_lost_phrase(engine.end_reason)}" for p in engine.ended_by)
    return why or _ended_phrase(engine.end_reason)


def game_result(engine: rules.AuctionEngine, name_of: NameOf, *, past: bool = False) -> str:
    """``alice wins (bob conceded)``, ``a draw (the block ran out)``: who won and why (``past``: ``won``),
    the same words in the game-over line and ``!state``."""
    why = end_reason(engine, name_of)
    if not engine.winners:
        return f"a draw ({why})"
    verb = "won" if past else ("wins" if len(engine.winners) == 1 else "win")
    return f"{listed(name_of(p) for p in engine.winners)} {verb} ({why})"


def _exchange_lines(effect: Effect, name_of: NameOf, *, judge: bool) -> list[str]:
    """90Y.6, a commander sold: the exchange (and, without judge rights, who drags what), or why none."""
    if isinstance(effect, rules.CommandersExchanged):
        seller, winner = name_of(effect.seller), name_of(effect.winner)
        lines = [
            f"90Y.6: the commanders are exchanged: {winner} now commands {effect.sold.name} and {seller}"
            f" commands {effect.given.name}."
        ]
        if not judge:
            lines.append(
                f"{seller}: drag {effect.sold.name} onto {winner}'s table; {winner}: drag {effect.given.name}"
                f" onto {seller}'s table."
            )
        return lines
    if isinstance(effect, rules.CommanderExchangeFailed):
        return [
            f"90Y.6: {name_of(effect.winner)}'s commander is not in the command zone, so no exchange:"
            f" {effect.card.name} goes to {name_of(effect.winner)}'s hand and {name_of(effect.seller)} has no"
            " commander now."
        ]
    return []


def _proposed_card_line(effect: Effect, name_of: NameOf) -> str:
    """The prompt or notice for an effect of the proposed auction cards (seed 000), or ``""``."""
    life = rules.STAKES_LIFE
    if isinstance(effect, rules.IdolExiled):
        return (
            f"{name_of(effect.player)} exiles {effect.card.name} to buy auction {effect.lot_no} for 0 gold"
            " (move it to your exile zone)."
        )
    if isinstance(effect, rules.PackageRevealed):
        names = listed(c.name for c in effect.cards)
        return f"{effect.package.name} brings {names} into auction {effect.lot_no}: one price buys them all."
    if isinstance(effect, rules.StakesRaised):
        return (
            f"Raise the Stakes ({effect.card.name}): the next card bid on this turn gains 'when you purchase"
            f" this card, target player loses {life} life and you gain {life} life'."
        )
    if isinstance(effect, rules.StakesTriggered):
        times = f" ({effect.count} times)" if effect.count > 1 else ""
        return (
            f"Raise the Stakes{times}: {name_of(effect.player)}, choose a target player: they lose {life}"
            f" life and you gain {life} life (change the life counters)."
        )
    if isinstance(effect, rules.HighBidCast):
        return (
            f"High Bid: {name_of(effect.player)} paid {effect.price} and cast {effect.card.name} at once, so"
            " its High Bid effect applies."
        )
    if isinstance(effect, rules.ClaimStaked):
        who = name_of(effect.player)
        card = effect.card.name
        return f"{who} stakes a claim with {card}: it returns when {who} next wins an auction this turn."
    if isinstance(effect, rules.ClaimReturned):
        who = name_of(effect.player)
        return (
            f"Stake your Claim: {who} won auction {effect.lot_no}; {who}: you may return {effect.card.name}"
            " from your graveyard to your hand."
        )
    return ""


def lot_opened_line(effect: rules.LotOpened, engine: rules.AuctionEngine, name_of: NameOf) -> str:
    """A lot's one announcement line, within a chat message: who is to bid always shows; a long lot's cards
    are shortened (``and 3 more``: ``!state`` names every card)."""
    labels = [card_label(engine.config.cards[c.index], c.name) for c in effect.cards]
    on_table = "the card" if len(effect.cards) == 1 else "the cards"
    where = "" if effect.kind == "owned" else f" ({on_table} on the referee's table)"
    head, tail = f"Auction {effect.lot_no}: ", f"{where}. {name_of(effect.first_bidder)} to bid."
    cards = fitted_names(labels, MAX_CHAT_LINE - len(head) - len(tail), more=" (!state names them)")
    return head + cards + tail


def render_view(
    effects: Iterable[Effect],
    engine: rules.AuctionEngine,
    name_of: NameOf,
    *,
    judge: bool,
    card_names: CardNames = None,
    auction_at: str = "draw",
) -> AuctionView:
    """What players should see after ``effects`` (already applied to ``engine``).

    ``judge``: the referee holds judge rights, so it moves cards into hands and keeps gold and mana
    on the players' own tables and counters; without them, gold shows on the lot card and in chat,
    and players are told once what to drag where. Private information (looked-at cards) is left out.
    ``card_names``: cards are named as Cockatrice shows them (:data:`CardNames`). ``auction_at``: the table's
    option; at ``"draw"`` a turn that begins is said with how its auction starts (:func:`turn_line`), after
    the income line when the turn change has one (one chat message for both).
    """
    effects = [shown_effect(effect, card_names) for effect in effects]
    lot = engine.lot
    owned_lot = lot is not None and lot.kind == "owned"  # the seller's own cards: on a note token instead
    view = AuctionView(
        lot_note=lot_note(engine, name_of, with_gold=not judge, card_names=card_names),
        owned_lot=owned_lot,
        gold={p: engine.gold(p) for p in engine.living()},
    )
    gone = set(engine.eliminated)
    pending: dict[Any, list[str]] = {}  # a buyer's cards to cast or keep: one line for them all
    for effect in effects:
        if isinstance(effect, rules.PurchaseChoicePending):
            pending.setdefault(effect.player, []).append(effect.card.name)
    lines: list[str] = []
    ending: list[str] = []
    income: list[str] = []
    income_at: int | None = None  # where the turn ended: its income line goes there, before the next turn's
    departures = {e.player: e.reason for e in effects if isinstance(e, rules.PlayerLost)}
    left_mid_lot = {  # said in one line with what became of their lot
        e.player
        for e in effects
        if isinstance(e, rules.BidderLeft)
        or (isinstance(e, rules.BiddingRestarted) and e.reason == "player_left")
    }
    unanimous_stop = any(isinstance(e, rules.StopVoted) and not e.waiting_for for e in effects)
    owned_sale: rules.LotSold | None = None
    for effect in effects:
        if isinstance(effect, rules.LotOpened):
            lines.append(lot_opened_line(effect, engine, name_of))
            if lot is not None and effect.seller is not None and "command" in lot.origins.values():
                lines.append(
                    f"90Y.6: {name_of(effect.seller)}'s commander; if the winner's commander is in the"
                    f" command zone, it goes to {name_of(effect.seller)} in exchange."
                )
        elif isinstance(effect, rules.LotSold):
            to = f" to {name_of(effect.winner)} for {effect.price} ({engine.gold(effect.winner)} gold left)."
            names = fitted_names([c.name for c in effect.cards], MAX_CHAT_LINE - len("Sold: ") - len(to))
            lines.append(f"Sold: {names}{to}")  # the buyer and price always show; each card is prompted below
            owned_sale = effect if effect.kind == "owned" else None
        elif isinstance(effect, rules.LotUnsold):
            lines.append(_unsold_line(effect, name_of))
        elif isinstance(effect, rules.BiddingRestarted):
            bid = effect.voided[-1].amount if effect.voided else 0
            again = f" with {name_of(lot.whose_bid())}" if lot is not None else ""
            who = name_of(effect.player)
            if effect.reason == "player_left":
                why = (
                    f"{who} {_lost_phrase(departures.get(effect.player, 'left'))} with the high bid of {bid}"
                )
            else:
                why = f"{who} can no longer cover their bid of {bid}"
            lines.append(
                f"{why}: the bids on auction {effect.lot_no} are void and bidding starts again{again}."
            )
        elif isinstance(effect, rules.BidderLeft):
            who = f"{name_of(effect.player)} {_lost_phrase(departures.get(effect.player, 'left'))}"
            if effect.to_bid is None:
                lines.append(f"{who}; everyone else has passed on auction {effect.lot_no}.")
            else:
                stands = (
                    f"{name_of(effect.high_bidder)}'s bid of {effect.high_bid} stands"
                    if effect.high_bidder is not None
                    else "no bid yet"
                )
                lines.append(
                    f"{who}; auction {effect.lot_no} goes on without them: {stands}, {name_of(effect.to_bid)}"
                    " to bid."
                )
        elif isinstance(effect, rules.PurchaseChoicePending):
            cards = pending.pop(effect.player, [])
            if len(cards) == 1:
                lines.append(f"{name_of(effect.player)}: !cast or !keep {cards[0]}.")
            elif cards:
                head, tail = f"{name_of(effect.player)}: !cast or !keep each of ", " (several: !keep A, B)."
                listing = fitted_names(cards, MAX_CHAT_LINE - len(head) - len(tail), more=" (see !state)")
                lines.append(head + listing + tail)
        elif isinstance(effect, rules.CardCast):
            lines.append(f"{name_of(effect.player)} casts {effect.card.name}.")
        elif isinstance(effect, rules.CardKept) and effect.player not in gone:
            who = name_of(effect.player)
            if effect.automatic:
                lines.append(
                    f"{effect.card.name} goes to {who}'s hand (no !cast or !keep by the end of turn)."
                )
            else:
                lines.append(f"{who} keeps {effect.card.name}.")
            if not judge:
                lines.append(to_hand_line(who, [effect.card.name]))
        elif isinstance(effect, rules.CardsDrawn):
            who = name_of(effect.player)
            lines.append(f"{who} draws {len(effect.cards)} from the block ({engine.block_size()} left).")
            if effect.cards and effect.player not in gone:  # a drawn card is a hand card: named to its drawer
                them = "it" if len(effect.cards) == 1 else "them"
                where = (
                    " (in your hand)" if judge else f": face down on your table, drag {them} into your hand"
                )
                view.private.append(
                    (effect.player, f"You drew {listed([c.name for c in effect.cards])}{where}.")
                )
        elif isinstance(effect, rules.RevealedUntilCreature) and effect.player not in gone:
            who, names = name_of(effect.player), [c.name for c in effect.cards]
            end = "" if effect.creature_found else " (no creature: the block ran out)"
            lines.append(f"{who} reveals until a creature: {', '.join(names) or 'nothing'}{end}.")
            if names and not judge and not effect.pending:  # pending cards wait for !cast or !keep
                lines.append(to_hand_line(who, names))
        elif isinstance(effect, rules.CardsAwarded) and effect.player not in gone:
            names = [c.name for c in effect.cards]
            if owned_sale is not None and owned_sale.seller is not None:
                if not judge:
                    lines.append(sell_line(name_of(owned_sale.seller), name_of(effect.player), names))
            elif not judge:
                lines.append(to_hand_line(name_of(effect.player), names))
        elif isinstance(effect, Effect) and (card_line := _proposed_card_line(effect, name_of)):
            lines.append(card_line)
        elif isinstance(effect, (rules.CommandersExchanged, rules.CommanderExchangeFailed)):
            lines += _exchange_lines(effect, name_of, judge=judge)
        elif isinstance(effect, rules.CardReturned):
            who = name_of(effect.player) if effect.player is not None else "The referee"
            what = "a face-down card" if effect.face_down else effect.card.name
            lines.append(f"{who} puts {what} on the {effect.position} of the block.")
        elif isinstance(effect, rules.BlockReordered):
            lines.append(
                f"{name_of(effect.player)} reorders the top of the block"
                + (f" ({len(effect.bottom)} to the bottom)." if effect.bottom else ".")
            )
        elif isinstance(effect, rules.BlockShuffled):
            lines.append(f"The block is shuffled ({effect.size} {agreeing(effect.size, 'card', 'cards')}).")
        elif isinstance(effect, rules.ManaBought):
            view.mana.append((effect.player, effect.color, effect.count))
            line = (
                f"{name_of(effect.player)} buys {effect.count} {effect.color} mana"
                f" ({engine.gold(effect.player)} gold left)"
            )
            if not judge:
                line += f": add {effect.count} to your {effect.color} counter"
            lines.append(line + ".")
        elif isinstance(effect, rules.GoldChanged) and effect.reason == "income":
            if income_at is None:  # paid as the turn ended: what follows is the next turn's
                income_at = len(lines)
            if not judge:
                income.append(f"{name_of(effect.player)} {effect.new}")
        elif isinstance(effect, rules.GoldChanged) and effect.reason.startswith("sold_lot"):
            lines.append(f"{name_of(effect.player)} receives {effect.new - effect.old} gold ({effect.new}).")
        elif isinstance(effect, rules.GoldChanged) and not effect.reason.startswith(("bought_lot", "mana")):
            lines.append(f"{name_of(effect.player)} gold {effect.old} -> {effect.new} ({effect.reason}).")
        elif isinstance(effect, rules.AuctionStepEnded):
            if effect.reason == "block_empty":
                lines.append("The block is empty.")
            elif effect.reason == "players_stopped" and not unanimous_stop:
                lines.append("Everyone voted to stop: no more auctions this turn.")
            elif effect.reason == "block_went_round":
                lines.append("Every card of the block went up unbid: no more auctions this turn.")
        elif isinstance(effect, rules.StopVoted):
            if effect.waiting_for:
                waiting = ", ".join(name_of(p) for p in effect.waiting_for)
                lines.append(f"{name_of(effect.player)} votes to stop auctioning (waiting for {waiting}).")
            else:
                lines.append(f"{name_of(effect.player)} votes to stop too: no more auctions this turn.")
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
            over = any(isinstance(e, rules.GameOver) for e in effects)
            if not over and effect.player not in left_mid_lot:
                lines.append(f"{name_of(effect.player)} {_lost_phrase(effect.reason)}.")
        elif isinstance(effect, rules.GameOver):
            ending.append(f"Game over: {game_result(engine, name_of)}.")
    if income:
        at = len(lines) if income_at is None else income_at
        lines.insert(at, f"Income +{engine.config.income}: " + ", ".join(income) + " gold.")
    began = next((e for e in effects if isinstance(e, rules.TurnBegan)), None)
    if (
        began is not None
        and auction_at == "draw"
        and engine.phase == "beginning"  # not yet started (and not started in this batch)
        and engine.active == began.active
        and engine.lot is None
    ):
        view.turn = turn_line(name_of(began.active))
        lines.append(view.turn)
    view.chat = ending + lines
    return view


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
        cards = agreeing(len(loaded), "card", "cards")
        await ctx.reply(
            shorten(
                f"{title} game #{referee.game_id} is open for {options.seats} players{asked_by(ctx.sender)}"
                f" (block {loaded.name}, {len(loaded)} {cards}). Join it, load any deck (an empty one is"
                " fine) and press ready. In game: !help."
            )
        )


# ---------------------------------------------------------------------------------------------
# The game referee
# ---------------------------------------------------------------------------------------------


class _DeclineHint(CommandSpec):
    """``!bid``'s conversion: an amount below 1 is refused with how one declines (``!pass``), a newcomer's
    ``!bid 0``."""

    def convert(self, args: str, scope: str = "game") -> list[Any]:
        try:
            return super().convert(args, scope)
        except BadArgument as exc:
            words = split_args(args)
            try:
                below = bool(words) and int(words[0]) < 1
            except ValueError:
                below = False
            if below:
                raise BadArgument(f"{exc.reason}; to decline the card, say !pass") from None
            raise


def with_decline_hint(commands: CommandSet) -> None:
    """``!bid`` (and its alias) in ``commands`` refusing an amount below 1 with how to decline
    (:class:`_DeclineHint`)."""
    declared = commands.specs["bid"]
    bid = _DeclineHint(**{spec.name: getattr(declared, spec.name) for spec in dataclasses.fields(declared)})
    for key in (bid.name, *bid.aliases):
        commands.specs[key] = bid


@dataclass
class _Returned:
    """A card a player dropped on the bot's table, waiting for !top / !bottom (``face_down``: its name, which
    the referee peeked at, is not said)."""

    card_id: int
    name: str
    player: Any  # engine player
    face_down: bool = False


class AuctionReferee(SeatsByName, PileReferee):
    """One Auction Magic game."""

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

    @classmethod
    async def rebuild(cls, bot: Bot, room_id: int, key: str, requested_by: str) -> AuctionReferee:
        """``!resume``: a new Cockatrice game continuing the journaled game ``key`` whose seat was lost.

        The bot's deck is every card the journal says is not out of the game: the remaining block, the
        open lot and bought cards waiting for a choice (back on the bot's table), and what each player
        held (dealt back to them when the game starts). Gold and the open lot come from the journal.

        Raises:
            JournalError: the journal cannot be replayed, or lacks what a rebuild needs.
            NotAllowed: the game is over.
        """
        meta = bot.journal.table_meta(key)
        options = AuctionOptions(**meta["options"])
        engine = Table.restore(bot.journal, key).engine
        assert isinstance(engine, rules.AuctionEngine)
        if engine.is_over():
            raise NotAllowed("that game is over; there is nothing to continue")
        engine_names = cls.journaled_names(meta, engine.players)
        game_names = [str(n) for n in meta.get("game_names", [])]
        if len(game_names) != len(engine.config.cards):
            raise JournalError("the journaled block does not match its cards")
        living = engine.living()
        held = [
            *engine.block,
            *(engine.lot.cards if engine.lot is not None else []),
            *(i for p in engine.players for i in engine.pending[p]),
            *(i for p in living for zone in (engine.hand, engine.played, engine.command) for i in zone[p]),
        ]
        block = LoadedBlock(
            name=options.block,
            facts=tuple(engine.config.cards),
            game_names=tuple(game_names),
            pile=tuple(game_names[i] for i in held),  # the deck and its spares (create)
        )
        options = dataclasses.replace(options, seats=len(living))
        referee: AuctionReferee = await cls.create(
            bot,
            room_id,
            options,
            block,
            requested_by=requested_by,
            starting_life=40 if options.commander else 20,
        )
        new_meta = {**meta, "options": asdict(options), "game_id": referee.game_id, "rebuilt_from": key}
        new_meta.pop(DEALING, None)  # the old game's piles: the rebuilt game deals every card anew
        referee.bot.journal.copy_table(key, referee.table_key, meta=new_meta)
        referee.table = Table.restore(referee.bot.journal, referee.table_key)
        referee.engine_names = engine_names
        referee.continues = int(meta.get("game_id", 0)) or None
        return referee

    async def restore_board(self) -> None:
        """The rebuilt game started: deal every card back where the journal says it is (a bought card
        labelled with its price again), show gold and the open lot, then pass the turn to the player whose
        turn it was."""
        engine = self.engine
        if not await self.read_own_deck():  # stopped as it started: put back when it starts again
            return
        self.live = True
        self._labels.update(bought_labels(self.bot.journal.entries(self.table_key)))
        lot = engine.lot
        for index in list(lot.cards if lot is not None else []):
            if lot is not None and lot.kind == "owned":  # cards up for sale by a player stay with them
                await self.hand_over(index, lot.seller, hand=lot.origins.get(index) == "hand")
            else:
                await self.to_my_table(index)
        for player in engine.players:
            for index in engine.pending[player]:
                card_id = await self.to_my_table(index)
                if card_id is not None:
                    await self.annotate(card_id, f"Bought by {self.player_name(player)}: !cast or !keep")
        instructions: list[str] = []
        unseen = drawn_unseen(self.bot.journal.entries(self.table_key))
        waiting = self.returns_to_deal(unseen)
        for player in engine.living():
            aside = {index for index, _ in waiting.get(player, [])}  # given back: onto our table instead
            in_hand = [i for i in engine.hand[player] if i not in unseen and i not in aside]  # named to all
            drawn = [i for i in engine.hand[player] if i in unseen and i not in aside]  # to them alone
            for index in in_hand:
                await self.hand_over(index, player, hand=True)
            for index in drawn:
                await self.hand_over(index, player, hand=True, hidden=True)
            for index in [*engine.played[player], *engine.command[player]]:
                if index not in aside:
                    await self.hand_over(index, player, hand=False)
            for index, returned in waiting.get(player, []):
                if returned.face_down:  # dealt as a draw is: an id nobody saw with its name
                    card_id = await self.deal_face_down(self.block.game_names[index])
                else:
                    card_id = await self.to_my_table(index)
                    self.on_table.pop(index, None)
                if card_id is not None:
                    self.returned.append(dataclasses.replace(returned, card_id=card_id))
                    given = "a face-down card" if returned.face_down else returned.name
                    instructions.append(
                        f"{self.player_name(player)} gave back {given}: it waits on the referee's table;"
                        " !top or !bottom of the block (default top)."
                    )
            if in_hand and not self.is_judge:
                instructions.append(
                    to_hand_line(self.player_name(player), [self.block.game_names[i] for i in in_hand])
                )
            if drawn:
                names = listed(self.block.game_names[i] for i in drawn)
                where = (
                    "in your hand" if self.is_judge else "face down on your table: drag them into your hand"
                )
                game = f" in game #{self.continues}" if self.continues else ""
                await self.tell(
                    self.player_name(player),
                    f"The cards you drew{game}, back {where}: {names}.",
                )
        self.note_returned()
        continued = f"Game #{self.continues}" if self.continues else "The game"
        said = f"{continued} continues here: "
        await self.say(said + self.status_line(MAX_CHAT_LINE - len(said)))
        for line in instructions:
            await self.say(line)
        await self.show_lot(
            lot_note(engine, self.player_name, with_gold=not self.is_judge, card_names=self.block.game_names)
        )
        await self.show_counters({p: engine.gold(p) for p in engine.living()}, [])
        if engine.active is not None:
            self._turn_target = self.seat_of(engine.active)
        self.arm_timer()

    def returns_to_deal(self, unseen: set[int]) -> dict[Any, list[tuple[int, _Returned]]]:
        """A game rebuilt by ``!resume``: the cards given back in the lost game that still waited for
        ``!top`` / ``!bottom`` (:data:`RETURNED`), each matched to one card its player holds (for a face-down
        one, a card drawn unseen first): player -> (engine index, the wait). They go onto the new referee
        table to wait again, not into their player's hands."""
        if self.continues is None:
            return {}
        chosen: dict[Any, list[tuple[int, _Returned]]] = {}
        taken: set[int] = set()
        for returned in self.journaled_returns(self.continues):
            if returned.player not in self.engine.living():
                continue
            held = [i for i in self.holds(returned.player, returned.name) if i not in taken]
            if returned.face_down:
                held.sort(key=lambda index: index not in unseen)
            if held:
                taken.add(held[0])
                chosen.setdefault(returned.player, []).append((held[0], returned))
        return chosen

    async def turn_away(self, event: ClientEvent) -> None:
        """Before a rebuilt game starts, only its own players still in the game may take a seat."""
        props = event.message.player_properties  # type: ignore[attr-defined]
        name = props.user_info.name
        living = {self.engine_names[p] for p in self.engine.living()}
        if props.spectator or props.player_id == self.me or name in living:
            return
        await self.tell(
            name, f"Game #{self.game_id} continues game #{self.continues}; only its players can sit."
        )
        await self.run(pc.kick_from_game(props.player_id))

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

    async def on_card_moved(self, event: ClientEvent) -> None:
        """A player dropped a card on our table: it goes back to the block (top unless they say !bottom).

        Cards that come back because their holder conceded leave the game with them (800.4a).
        """
        move = event.message
        if move.target_player_id != self.me or move.target_zone != "table":  # type: ignore[attr-defined]
            return
        card_id = move.new_card_id if move.new_card_id >= 0 else move.card_id  # type: ignore[attr-defined]
        name = move.card_name  # type: ignore[attr-defined]
        if event.context_name == "Context_Concede":
            await self.settle_departures()
        mover = self.engine_player(event.player_id)
        if mover is None or mover not in self.engine.living():
            await self.run(pc.move_card("table", [card_id], target_player_id=self.me, target_zone="rfg"))
            return
        if not self.dealt_card(event):
            # Seen in the security test: a token named like a bought card was taken back, the real card kept.
            await self.back_to_player(card_id, mover)
            await self.say(  # its name is not said: a token's name is any text its maker chose
                f"{self.player_name(mover)}: the referee takes back only a card it dealt you (that card is"
                " not one: a token or a card of your own); it is back on your table."
            )
            return
        face_down = bool(getattr(move, "face_down", False))
        if not name:
            name = await self.peek_at(card_id)
        if not name:  # never seen: it cannot go back to the block by name, so it goes back to its player
            await self.back_to_player(card_id, mover)
            await self.say(
                f"{self.player_name(mover)}: the referee cannot read that face-down card; it is back on your"
                " table: give it back face up."
            )
            return
        self.returned.append(_Returned(card_id, name, mover, face_down))
        self.note_returned()
        given = "a face-down card" if face_down else name
        await self.say(
            f"{self.player_name(mover)} gives back {given}: !top or !bottom of the block (default top)."
        )

    def dealt_card(self, event: ClientEvent) -> bool:
        """Whether the card a player moved (``Event_MoveCard``) is one the referee dealt, by its server id
        before the move. After a restart a card from a hand the referee could not see passes unless it is a
        token made since (the engine still checks that its player holds a card of that name)."""
        move = event.message
        start, old = int(move.start_player_id), int(move.card_id)  # type: ignore[attr-defined]
        if start != event.player_id or old < 0:
            return False
        if old in self.dealt.get(start, ()):
            return True
        from_hand = move.start_zone == "hand"  # type: ignore[attr-defined]
        if from_hand and start in self.unseen_hands and old not in self.made.get(start, ()):
            self.note_dealt(start, old)  # followed from now on, wherever it goes
            return True
        return False

    def follow_move(self, event: ClientEvent) -> None:
        """Keep :attr:`dealt` and :attr:`made` in step with a card move: a dealt card (or a token) keeps being
        one under its new id, wherever it goes (another player's table: a sale's seller dragging it to the
        buyer)."""
        move = event.message
        start, old = int(move.start_player_id), int(move.card_id)  # type: ignore[attr-defined]
        new = int(move.new_card_id) if move.new_card_id >= 0 else old  # type: ignore[attr-defined]
        target = int(move.target_player_id) if move.target_player_id >= 0 else start  # type: ignore[attr-defined]
        if event.player_id == self.me == start and move.start_zone == "deck":  # type: ignore[attr-defined]
            if new >= 0:  # a block card out of our deck: followed from here (a slow server's deal too)
                self.dealt.setdefault(target, set()).add(new)
            return
        if event.player_id == self.me == start and old in self._handing:  # a block card we handed over
            self._handing.discard(old)
            if new >= 0 and target != self.me:  # seen: given back at once, it was refused as not dealt
                self.dealt.setdefault(target, set()).add(new)
            return
        for followed in (self.dealt, self.made):
            ids = followed.get(start)
            if ids is None or old < 0 or old not in ids:
                continue
            ids.discard(old)
            if new >= 0:
                followed.setdefault(target, set()).add(new)

    def note_dealt(self, seat: int, card_id: int) -> None:
        """Card ``card_id`` on ``seat``'s side is a block card the referee handed over."""
        self.dealt.setdefault(seat, set()).add(card_id)

    def dealt_from_mirror(self) -> None:
        """After a restart the ids dealt before it are unknown: the cards the players show that the journal
        says they hold (by name, as many as they hold) count as dealt, and their hands, which the referee
        cannot see, are trusted for cards that are no token made since (:meth:`dealt_card`). A token made
        while the referee was away under a held card's name may pass here; every card dealt from now on is
        followed by id. A face-down card on a player's table shows no name: as many as the player holds cards
        drawn and never shown (:func:`drawn_unseen`) count as dealt (a drawn card not yet dragged into the
        hand could not be given back), and giving one back still names it to the referee alone."""
        engine = self.engine
        names = self.block.game_names
        unseen = drawn_unseen(self.bot.journal.entries(self.table_key)) if self.table is not None else set()
        for player in engine.living():
            seat = self.seat_of(player)
            if seat is None or seat not in self.mirror.players or self.dealt.get(seat):
                continue
            self.unseen_hands.add(seat)
            wanted: dict[str, int] = {}
            for zone in (engine.hand, engine.played, engine.command):
                for index in zone[player]:
                    wanted[names[index]] = wanted.get(names[index], 0) + 1
            face_down = sum(1 for index in engine.hand[player] if index in unseen)
            for zone_name in ("table", "hand"):
                for card in self.mirror.players[seat].zone(zone_name).cards:
                    if card.name and wanted.get(card.name, 0) > 0:
                        wanted[card.name] -= 1
                        self.note_dealt(seat, card.id)
                    elif zone_name == "table" and not card.name and card.face_down and face_down > 0:
                        face_down -= 1
                        self.note_dealt(seat, card.id)

    async def back_to_player(self, card_id: int, player: Any) -> None:
        """A card a player gave back that cannot go to the block: onto their table again, in a free column."""
        seat = self.seat_of(player)
        if seat is not None:
            x = self.free_x(seat, DEAL_ROW)
            await self.run(
                pc.move_card("table", [card_id], target_player_id=seat, target_zone="table", x=x, y=DEAL_ROW)
            )

    async def peek_at(self, card_id: int) -> str:
        """The name of a face-down card on our table, revealed to the referee alone (Cockatrice's "peek"):
        a player may give a card back face down, and only its name says which card goes back to the block."""
        card = self.mirror.players[self.me].zone("table").find(card_id)
        if card is not None and card.name:
            return card.name
        await self.run(pc.reveal_cards("table", [card_id], player_id=self.me))
        card = self.mirror.players[self.me].zone("table").find(card_id)  # the reveal came before its answer
        return card.name if card is not None else ""

    async def place_returned(self, pending: _Returned, position: str) -> None:
        """A card given back goes to the block's ``position``, or back to its player when the rules refuse.
        Its journaled wait (:data:`RETURNED`) ends once its card has moved: a stop before that finds it
        again (:meth:`settle_returns`)."""
        self.returned.remove(pending)
        try:
            effects = self.apply(
                rules.ReturnToBlock(
                    player=pending.player, card=pending.name, position=position, face_down=pending.face_down
                )
            )
        except RulesError as exc:
            await self.back_to_player(pending.card_id, pending.player)
            self.note_returned()
            await self.say(
                shorten(
                    f"{self.player_name(pending.player)}:"
                    f" {'that card' if pending.face_down else pending.name} sent back ({self.explain(exc)})."
                )
            )
            return
        await self.perform(effects, returned_card_id=pending.card_id)
        self.note_returned()

    def note_returned(self) -> None:
        """Journal (:data:`RETURNED`) the cards given back that wait for ``!top`` / ``!bottom``; a journal
        that cannot be written only costs their memory across a stop (a warning)."""
        if self.table is None or self.bot.journal.refusing:
            return
        journal, key = self.bot.journal, self.table_key
        cards = [
            {"card": r.card_id, "name": r.name, "player": r.player, "face_down": r.face_down}
            for r in self.returned
        ]
        try:
            meta = journal.table_meta(key)
            if not cards and RETURNED not in meta:
                return
            journal.set_table_meta(key, {**meta, RETURNED: {"game": self.game_id, "cards": cards}})
        except JournalError as exc:
            LOGGER.warning("game %d: a card given back was not journaled: %s", self.game_id, exc)

    def journaled_returns(self, game_id: int | None = None) -> list[_Returned]:
        """The cards given back that :data:`RETURNED` says wait on game ``game_id``'s referee table (this
        game's by default), as players gave them."""
        if self.table is None:
            return []
        record = self.bot.journal.table_meta(self.table_key).get(RETURNED)
        wanted = self.game_id if game_id is None else game_id
        if not isinstance(record, dict) or record.get("game") != wanted:
            return []
        players = {str(p): p for p in self.engine.players}  # journaled as JSON: a player as it was stored
        found: list[_Returned] = []
        for item in record.get("cards", ()):
            with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError):
                player = players.get(str(item["player"]))
                if player is not None:
                    found.append(
                        _Returned(int(item["card"]), str(item["name"]), player, bool(item["face_down"]))
                    )
        return found

    def holds(self, player: Any, name: str) -> list[int]:
        """The engine indices of ``player``'s cards called ``name`` that may go back to the block (hand, then
        in play: as ``ReturnToBlock`` finds them)."""
        engine, names = self.engine, self.block.game_names
        return [
            index
            for zone in (engine.hand, engine.played)
            for index in zone.get(player, ())
            if name in (names[index], engine.ref(index).name)
        ]

    async def settle_returns(self, pending: list[_Returned]) -> list[str]:
        """Back after a stop: the cards given back that the journal says wait on our table (``pending``,
        still there) wait again; one the rules put in the block already (the stop came before its move) goes
        into our deck; one whose player is out leaves the game with them. Returns the public lines."""
        lines: list[str] = []
        engine = self.engine
        for returned in pending:
            player = returned.player
            if player not in engine.living():
                await self.run(
                    pc.move_card("table", [returned.card_id], target_player_id=self.me, target_zone="rfg")
                )
            elif self.holds(player, returned.name):
                self.returned.append(returned)
                given = "a face-down card" if returned.face_down else returned.name
                who = self.player_name(player)
                lines.append(f"{who} gave back {given}: !top or !bottom of the block (default top).")
            else:
                in_block = sum(1 for i in engine.block if self.block.game_names[i] == returned.name)
                if self.short_of(returned.name, in_block):
                    await self.table_to_own_deck(returned.card_id, returned.name, top=True)
        self.note_returned()
        return lines

    async def on_reconnected(self) -> None:
        """Re-seated after a restart or a dropped connection: re-read our cards, settle once the players who
        went while the referee was away, finish the card moves the journal has and the table does not (a
        restart between a journaled ``!keep`` and its move), say where we are, start the bid timer again."""
        async with self._lock:
            if self.table is None or not await self.until_seats_known():
                return
            await self.read_own_deck()
            deck_read = len(self.own_deck.names)
            table = self.mirror.players[self.me].zone("table")
            here = {card.id for card in table.cards}
            pending = [r for r in self.journaled_returns() if r.card_id in here and r not in self.returned]
            waiting = {r.card_id for r in [*pending, *self.returned]}  # given back: not for finish_moves
            on_table: dict[str, list[int]] = {}
            face_down: list[int] = []  # nameless: a drawn card on its way (one given back is in waiting)
            for card in table.cards:
                if card.id in waiting:
                    continue
                if card.name:
                    on_table.setdefault(card.name, []).append(card.id)
                elif card.face_down:
                    face_down.append(card.id)
            self.on_table = {}
            held = list(self.engine.lot.cards if self.engine.lot else []) + [
                i for cards in self.engine.pending.values() for i in cards
            ]
            for index in held:
                ids = on_table.get(self.block.game_names[index])
                if ids:
                    self.on_table[index] = ids.pop(0)
            if self.live:  # before the departures are journaled: the draw is still the last action
                await self.draw_left_with_drawer(deck_read, face_down)
            if self.live and await self.settle_away():
                return
            if self.live:
                self.dealt_from_mirror()
            moved = await self.finish_moves(on_table) if self.live else []
            if self.live and not self.engine.is_over():
                moved += await self.finish_draw(deck_read, face_down)
                moved += await self.settle_returns(pending)
            said = " ".join(["Referee back.", *moved, ""])
            await self.say(shorten(said + self.status_line(max(100, MAX_CHAT_LINE - len(said)))))
            self.arm_timer()  # the bidder to move gets the whole time again
            if self.live:
                await self.pass_lost_turn()  # a stop may have come before it was passed

    async def settle_away(self) -> bool:
        """Players who left or conceded while the referee was away are out now, after one line saying so (the
        game's state read after the rejoin is the server's word). True if the game is over."""
        engine = self.engine
        if engine.is_over():
            return False
        gone = [(p, why) for p in engine.living() if (why := self.departed(p)) is not None]
        if not gone:
            return False
        parts = [f"{self.player_name(p)} {_lost_phrase(why)}" for p, why in gone]
        await self.say(f"While the referee was away: {'; '.join(parts)}.")
        self._said_away = {f"{part}." for part in parts}  # the departures' own lines would say it again
        try:
            await self.settle_departures()
        finally:
            self._said_away = set()
        return engine.is_over()

    async def finish_moves(self, on_table: dict[str, list[int]]) -> list[str]:
        """Cards still on our table that the journal gives to a player (kept, cast, won, drawn) or puts in the
        block: the moves a stop cut short (effects are journaled before they are shown). Each is made now
        and said once; a card the referee cannot tell whose it is (two players hold a card of that name) is
        named with what to drag. ``on_table``: our table's cards by name, those of the lot and of pending
        purchases taken out. Returns the lines to say."""
        engine = self.engine
        names = self.block.game_names
        placed: dict[str, list[tuple[int, Any, bool]]] = {}  # name -> (index, player, into the hand)
        for player in engine.living():
            for zone, into_hand in ((engine.hand, True), (engine.played, False), (engine.command, False)):
                for index in zone[player]:
                    placed.setdefault(names[index], []).append((index, player, into_hand))
        in_block = {name: 0 for name in on_table}
        for index in engine.block:
            if names[index] in in_block:
                in_block[names[index]] += 1
        lines: list[str] = []
        unseen = drawn_unseen(self.bot.journal.entries(self.table_key)) if on_table else set()
        for name, ids in on_table.items():
            for card_id in ids:
                owners = placed.get(name, [])
                if len({player for _, player, _ in owners}) == 1:
                    index, player, into_hand = owners.pop(0)
                    self.on_table[index] = card_id
                    hidden = index in unseen  # a draw: face down, and named to its drawer alone
                    await self.hand_over(index, player, hand=into_hand, hidden=hidden)
                    where = "hand" if into_hand and self.is_judge else "table"
                    drag = " (drag it into your hand)" if into_hand and not self.is_judge else ""
                    if hidden:
                        await self.tell(
                            self.player_name(player), f"{name}, which you drew, is now on your {where}{drag}."
                        )
                    else:
                        lines.append(f"{name}, {self.player_name(player)}'s, is now on their {where}{drag}.")
                elif owners:
                    who = listed(sorted({self.player_name(player) for _, player, _ in owners}), last="or")
                    lines.append(
                        f"{name} is still on the referee's table: it belongs to {who}; its owner drags it"
                        " from there onto their own table."
                    )
                elif self.short_of(name, in_block.get(name, 0)):
                    await self.table_to_own_deck(card_id, name, top=True)  # the block's order is the engine's
        return lines

    async def draw_cards(self, player: Any, count: int) -> None:
        """``player`` draws ``count`` cards: where our piles stand is journaled first (:data:`DEALING`, for
        the draw's entry to come: a stop right after the draw is journaled still finds it), then the draw,
        then its cards move (:meth:`perform`)."""
        await self.note_dealing()
        await self.perform(self.apply(rules.Draw(player=player, count=count)))

    async def note_dealing(self) -> None:
        """Journal (:data:`DEALING`) how many cards our deck and spares hold before a draw, under the
        sequence number its journal entry will have; a journal that cannot be written only costs that
        repair (a warning)."""
        if self.table is None or self.bot.journal.refusing:
            return
        if self.has_spares:
            await self.read_spares()  # read now, as the draw's first card would (its size is counted)
        journal, key = self.bot.journal, self.table.key
        dealing = {
            "game": self.game_id,
            "seq": self.table.seq + 1,
            "deck": len(self.own_deck.names),
            "sb": len(self.own_sb.names),
        }
        try:
            journal.set_table_meta(key, {**journal.table_meta(key), DEALING: dealing})
        except JournalError as exc:
            LOGGER.warning("game %d: a draw's start was not journaled: %s", self.game_id, exc)

    async def finish_draw(self, deck_read: int, face_down: list[int]) -> list[str]:
        """The cards of the journal's last action, a draw, that a stop kept from reaching their drawer: still
        in our spares (or deck), or face down on our table on their way. ``deck_read``: our deck's size as
        read when the referee came back; ``face_down``: the nameless cards on our table.

        How many left our piles is the deck's size now against :data:`DEALING`'s (each card dealt takes one
        card out of the deck: the spare's deck card burned into the spares in the same message, or the deck's
        own); a spare that left without its burn (a stop between the two) is burned first. The last card to
        leave lies face down on our table unless it reached its drawer: the referee peeks at the newest such
        card and takes it on when its name is that card's. The rest are dealt face down as the draw deals
        them, named to their drawer alone. Returns the public lines (no card named)."""
        cut = self.draw_cut_short()
        if cut is None:
            return []
        lines = await self._finish_draw(*cut, deck_read, face_down)
        self.forget_dealing()
        return lines

    def draw_cut_short(self) -> tuple[list[tuple[Any, int]], int, int] | None:
        """The draw whose moves a stop may have cut short: the journal's last action, when :data:`DEALING`
        was journaled for it; its (drawer, engine index) cards in the order dealt, and how many cards our
        deck and spares held as it started. None when there is none."""
        if self.table is None:
            return None
        journal = self.bot.journal
        dealing = journal.table_meta(self.table_key).get(DEALING)
        entries = collections.deque(journal.entries(self.table_key), maxlen=1)
        if not isinstance(dealing, dict) or not entries:
            return None
        last = entries[0]
        if dealing.get("game") != self.game_id or dealing.get("seq") != last.seq:
            return None  # the draw's moves were done before a later action, or another game's record
        drawn = drawn_in(last)
        if not drawn:
            return None  # the draw was refused: the next action took its number
        try:
            return drawn, int(dealing["deck"]), int(dealing["sb"])
        except (KeyError, TypeError, ValueError):
            return None

    def forget_dealing(self) -> None:
        """The cut draw is settled: a later restart with no action since finds nothing to finish."""
        journal = self.bot.journal
        if self.table is None or journal.refusing:
            return
        with contextlib.suppress(JournalError):
            meta = journal.table_meta(self.table_key)
            meta.pop(DEALING, None)
            journal.set_table_meta(self.table_key, meta)

    async def draw_left_with_drawer(self, deck_read: int, face_down: list[int]) -> None:
        """Back after a stop that cut a draw short, when its drawer left (or conceded, or was dropped) while
        the referee was away: the drawn cards still in our piles leave the game with them (800.4a), so the
        deck counts the block again. Nothing is shown: each card that never left the piles takes one deck
        card into our sideboard (outside the game), and the card on its way, face down on our table, goes
        there too. Settled before the departure is journaled (the draw is still the journal's last action,
        so the record still matches), whether or not the departure ends the game."""
        cut = self.draw_cut_short()
        if cut is None or not self.has_spares:  # a game without spares deals every card from the deck
            return
        drawn, deck_before, sb_before = cut
        drawers = {player for player, _ in drawn}
        if any(self.departed(player) is None for player in drawers):
            return  # a drawer still plays: finish_draw deals them the rest once the others are settled
        delivered, on_way = await self._draw_progress(drawn, deck_before, sb_before, deck_read, face_down)
        rest = drawn[delivered:]
        moves: list[Any] = []
        if on_way is not None:
            name = self.block.game_names[rest[0][1]]
            moves.append(
                pc.move_card("table", [on_way], target_player_id=self.me, target_zone="sb", x=-1, y=0)
            )
            self.own_sb.put(name, top=False)
            self.on_table.pop(rest[0][1], None)
            rest = rest[1:]
        for _ in rest:
            moves += self.deck_top_to_spares_moves()
        if moves:
            await self.run(*moves)
        self.forget_dealing()

    async def _finish_draw(
        self,
        drawn: list[tuple[Any, int]],
        deck_before: int,
        sb_before: int,
        deck_read: int,
        face_down: list[int],
    ) -> list[str]:
        """:meth:`finish_draw` once its record matched: the moves and the lines."""
        delivered, on_way = await self._draw_progress(drawn, deck_before, sb_before, deck_read, face_down)
        rest = drawn[delivered:]
        unmoved = self.delivered_unmoved(drawn[:delivered])
        if not rest and not unmoved:
            return []
        if on_way is not None:
            self.on_table[rest[0][1]] = on_way
        lines: list[str] = []
        for player in dict.fromkeys(player for player, _ in [*drawn[:delivered], *rest]):
            indices = [index for who, index in rest if who == player]
            await self.hand_over_all(indices, player, hidden=True)
            seat = self.seat_of(player) if player in self.engine.living() else None
            if seat is None:
                continue  # they took them out of the game with them (800.4a)
            if unmoved.get(player):
                await self.into_hand(seat, [card_id for card_id, _ in unmoved[player]])
                indices = [index for _, index in unmoved[player]] + indices
            if not indices:
                continue
            names = [self.block.game_names[i] for i in indices]
            them = agreeing(len(names), "it", "them")
            yours = "in your hand" if self.is_judge else f"on your table (drag {them} into your hand)"
            is_are = agreeing(len(names), "is", "are")
            await self.tell(
                self.player_name(player), f"{listed(names)}, which you drew, {is_are} now {yours}."
            )
            cards = f"{len(names)} {agreeing(len(names), 'card', 'cards')}"
            theirs = "in their hand" if self.is_judge else "on their table, face down"
            lines.append(f"The rest of {self.player_name(player)}'s draw, {cards}, is now {theirs}.")
        return lines

    async def _draw_progress(
        self,
        drawn: list[tuple[Any, int]],
        deck_before: int,
        sb_before: int,
        deck_read: int,
        face_down: list[int],
    ) -> tuple[int, int | None]:
        """How far a cut draw got: how many of its cards reached their drawer's table, and the id of the one
        on its way (face down on our table, peeked at), if any. A spare that left without its burn (a stop
        between the two) is burned first."""
        if self.has_spares and sb_before > 0:
            await self.read_spares()
            short = sb_before - len(self.own_sb.names)
            for _ in range(max(0, min(short, len(self.own_deck.names)))):
                await self.deck_top_to_spares()
                deck_read -= 1
        left = max(0, min(len(drawn), deck_before - deck_read))  # the drawn cards that left our piles
        on_way = None
        if left and face_down:
            newest = max(face_down)
            if await self.peek_at(newest) == self.block.game_names[drawn[left - 1][1]]:
                on_way = newest
        return left - (on_way is not None), on_way  # delivered: a judge still moves them into the hand

    def delivered_unmoved(self, delivered: list[tuple[Any, int]]) -> dict[Any, list[tuple[int, int]]]:
        """As a judge, the ``delivered`` cards of a draw a stop cut short (drawer, engine index; in the order
        dealt) that lie face down on their drawer's table, never moved into the hand: drawer -> (card id,
        index). They carry :data:`DRAWN_LABEL` (a hand clears a note), and the newest such cards are the
        draw's last ones (Servatrice numbers a player's new cards upwards). Without judge rights they stay:
        the drawer drags them, as the draw's line told them."""
        found: dict[Any, list[tuple[int, int]]] = {}
        if not self.is_judge:
            return found
        for player in dict.fromkeys(player for player, _ in delivered):
            seat = self.seat_of(player) if player in self.engine.living() else None
            if seat is None or seat not in self.mirror.players:
                continue
            indices = [index for who, index in delivered if who == player]
            labelled = sorted(
                card.id
                for card in self.mirror.players[seat].zone("table").cards
                if card.face_down and not card.name and DRAWN_LABEL in card.annotation
            )
            ids = labelled[-len(indices) :] if indices else []
            # the newest labelled cards are this draw's last delivered ones (an earlier card may be in hand)
            found[player] = list(zip(ids, indices[len(indices) - len(ids) :], strict=True))
        return found

    def short_of(self, name: str, in_block: int) -> bool:
        """Whether our deck lacks a card the block holds (``in_block`` copies of ``name``): a card on our
        table the journal put back in the block, whose move a stop cut short. Dealing from the spares
        (:meth:`deal_face_down`), the deck counts the block; otherwise it holds the block's very cards."""
        if self.has_spares:
            return len(self.own_deck.names) < len(self.engine.block)
        return in_block > self.own_deck.names.count(name)

    @property
    def has_spares(self) -> bool:
        """Whether this game's pile came with spares (a game made before them has an empty sideboard)."""
        if self.own_sb.names:
            return True
        seat = self.mirror.players.get(self.me) if self.game_id in self.bot.client.games else None
        return seat is not None and seat.zone("sb").card_count > 0

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

    _said_away: frozenset[str] | set[str] = frozenset()
    """While :meth:`settle_away` settles departures: the lines its one line already said ("alice left the
    game."), not said again by the departures' own effects (seen: "While the referee was away: alice left
    the game. | alice left the game.")."""

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

    # -- sinks: cards ------------------------------------------------------------------------------------

    async def to_my_table(self, index: int) -> int | None:
        """Engine card ``index`` face up on our table, in its own column (from our deck if needed)."""
        card_id = self.on_table.get(index)
        if card_id is not None:
            return card_id
        name = self.block.game_names[index]
        zone, pile = "deck", self.own_deck
        # Shown face up now: a copy whose id everyone saw already, if there is one.
        position = pile.position(name, seen=True)  # a copy whose id everyone saw: unseen ones stay unseen
        if position is None:
            position = pile.position(name)
        if position is None:
            await self.read_spares()
        if position is None and self.own_sb.names:  # its deck card went to the spares: a spare, face up
            zone, pile = "sb", self.own_sb
            position = pile.position(name)
        if position is None:
            LOGGER.warning("game %d: %s is not in the bot's deck", self.game_id, name)
            return None
        before = self.table_ids(self.me)
        pile.take(position)
        move = pc.move_card(
            zone,
            [position],
            target_player_id=self.me,
            target_zone="table",
            x=self.free_x(self.me, DEAL_ROW),
            y=DEAL_ROW,
        )
        await self.run(move, *(self.deck_top_to_spares_moves() if zone == "sb" else []))
        card_id = await self.wait_new_card(self.me, before, name=name)
        if card_id is not None:
            self.on_table[index] = card_id
        return card_id

    async def deal_face_down(self, name: str) -> int | None:
        """A card called ``name`` face down on our table, on its way to a player (a draw), its id one nobody
        has seen with a name: a spare from our sideboard whose id was never shown, while our deck's top card
        goes to the sideboard (the deck still counts the block).

        Why: a card keeps its id while it stays hidden, and Servatrice shows the id to everyone when the card
        goes face down onto a table; a block card once seen face up (an unsold lot, a card given back) is
        back in our deck under that id, so dealing it would tell everyone what the drawer got. Every face-down
        deal comes from the sideboard, so where it comes from says nothing either. Moves cost no game-command
        budget. A game without spares (made before them), or with no unseen spare of that name left, deals
        from the deck: an unseen copy there if it has one (a spare of that name was drawn earlier while its
        deck copy stayed). Only when no card of that name the referee holds is unseen does the deal show an
        id seen with its name (an INFO line): every copy of it was shown face up (a lot, a card given back)
        or drawn and given back, or, after a restart in place, lies in the deck under a name the journal put
        back (:meth:`seen_in_deck`). Face-up deals spend seen copies first (:meth:`to_my_table`) and the
        deck's unseen cards of such names are moved into the spares first (:meth:`deck_top_to_spares`), so
        that this is rare."""
        await self.read_spares()
        position = self.own_sb.position(name, unseen=True)
        if position is None:
            if self.own_sb.names and self.own_deck.position(name, unseen=True) is None:
                LOGGER.info(
                    "game %d: every %s the referee holds was seen with its id: a seen one is dealt face down",
                    self.game_id,
                    name,
                )
            return await self.deal_from_deck(
                name, self.me, face_down=True, exclude=self.on_table.values(), unseen_first=True
            )
        before = self.table_ids(self.me)
        self.own_sb.take(position)
        move = pc.move_card(
            "sb", [position], target_player_id=self.me, target_zone="table", x=0, y=0, face_down=True
        )
        await self.run(move, *self.deck_top_to_spares_moves())  # one message: a stop cuts neither off alone
        return await self.wait_new_card(self.me, before, exclude=self.on_table.values())

    async def deck_top_to_spares(self) -> None:
        """:meth:`deck_top_to_spares_moves`, sent."""
        await self.run(*self.deck_top_to_spares_moves())

    def deck_top_to_spares_moves(self) -> list[Any]:
        """Our deck's top card to the bottom of our sideboard (the move, the lists already changed): a card
        dealt from the spares leaves the deck one card too many. Both zones are hidden, so nobody is shown an
        id. A card everyone saw (one put back on top) is passed over for the next: the spares then never hold
        such a card, even after a restart, when the referee can no longer tell which is which; where it lies
        was public already. An unseen card of a name put back goes first: after a restart in place every deck
        card of such a name counts as seen (:meth:`seen_in_deck`), while in the spares it stays a card to deal
        face down."""
        if not self.own_deck.names:
            return []
        position = self.burn_position()
        name = self.own_deck.take(position)
        seen = self.own_deck.took_seen
        self.own_sb.put(name, top=False, seen=seen)
        return [pc.move_card("deck", [position], target_player_id=self.me, target_zone="sb", x=-1, y=0)]

    def burn_position(self) -> int:
        """The deck card :meth:`deck_top_to_spares_moves` moves: the first unseen one of a name some card of
        which was put back, else the first unseen one (the top when every card was seen)."""
        deck = self.own_deck
        shown = self.put_back_names | {n for n, seen in zip(deck.names, deck.seen, strict=False) if seen}
        for position, name in enumerate(deck.names):
            if name in shown and not (position < len(deck.seen) and deck.seen[position]):
                return position
        return deck.position_unseen()

    put_back_names: frozenset[str] = frozenset()
    """Names some card of which went back into our deck after everyone saw its id (:func:`put_back`, kept
    up to date as cards go back): after a restart in place the deck's cards of these names count as seen."""

    async def read_own_deck(self, zone_name: str = "deck", into: OwnDeck | None = None) -> bool:
        """Our deck (its cards of names put back marked seen); our sideboard's spares are read when the first
        card is dealt from them (:meth:`read_spares`)."""
        if not await super().read_own_deck(zone_name, into):
            return False
        if zone_name == "deck" and into is None:
            seen = self.seen_in_deck()
            self.put_back_names = self.put_back_names | seen
            self.own_deck.load(self.own_deck.names, [name in seen for name in self.own_deck.names])
            self.spares_read = False
        return True

    spares_read: bool = False
    """Whether :attr:`own_sb` holds what the server's sideboard holds."""

    async def read_spares(self) -> None:
        """Read our sideboard (the spares) once, when the first card is dealt from it: a ``Command_DumpZone``
        counts against the connection's game-command budget, and at a game's start, with the other commands
        of a start, it went past a strict server's budget (four per ten seconds)."""
        if not self.spares_read:
            self.spares_read = await super().read_own_deck("sb", self.own_sb)

    def seen_in_deck(self) -> set[str]:
        """After a restart, the names whose cards in our deck may be ones everyone saw: every card the journal
        put back into the block (:func:`put_back`). The spares are never such a card
        (:meth:`deck_top_to_spares` keeps them out), so the sideboard is read as unseen."""
        if self.table is None:
            return set()
        names = self.block.game_names
        return {names[i] for i in put_back(self.bot.journal.entries(self.table_key)) if 0 <= i < len(names)}

    async def my_table_to_deck(self, index: int, *, top: bool) -> None:
        card_id = self.on_table.pop(index, None)
        if card_id is not None:
            self._notes.pop(card_id, None)
            await self.table_to_own_deck(card_id, self.block.game_names[index], top=top)

    async def table_to_own_deck(self, card_id: int, name: str, *, top: bool) -> None:
        """A card from our table into our deck, seen (:meth:`PileReferee.table_to_own_deck`); its name is one
        put back from now on (:attr:`put_back_names`)."""
        self.put_back_names = self.put_back_names | {name}
        await super().table_to_own_deck(card_id, name, top=top)

    async def hand_over_all(self, indices: list[int], player: Any, *, hidden: bool = False) -> None:
        """:meth:`hand_over` of each card into ``player``'s hand; as a judge, the cards go from their table
        into their hand in one command (a command each spent the game-command budget of every game of the
        session: a judge's ``!draw 20`` held them all up for ten seconds)."""
        arrived: list[int] = []
        for index in indices:
            await self.hand_over(index, player, hand=True, hidden=hidden, arrived=arrived)
        seat = self.seat_of(player) if arrived else None
        if seat is not None:
            await self.into_hand(seat, arrived)

    async def hand_over(
        self, index: int, player: Any, *, hand: bool, hidden: bool = False, arrived: list[int] | None = None
    ) -> None:
        """Give engine card ``index`` to ``player``: labelled with its owner (and price), onto their table
        in a column of its own, then (as a judge, for ``hand``) into their hand. A player who is out of
        the game takes it out of the game with them (800.4a): into our exile, or a ``hidden`` one into our
        sideboard (outside the game too, and nobody reads its name there). A ``hidden`` card (a draw) travels
        face down from the block and its note tells the player to drag it into their hand: nobody else reads
        it."""
        if hidden and index not in self.on_table:
            card_id = await self.deal_face_down(self.block.game_names[index])
        else:  # a hidden card already on our table (a deal a stop cut short) is there face down: it stays so
            card_id = await self.to_my_table(index)
        if card_id is None:
            return
        self.on_table.pop(index, None)
        label = self._labels.pop(index, "")
        if hidden:
            label = DRAWN_LABEL
        seat = self.seat_of(player) if player in self.engine.living() else None
        if seat is None and player in self.engine.living() and not self.seats_known:
            return  # the referee cannot see the seats now: the card waits on its table (finish_moves)
        if seat is None:  # a drawn card (hidden) goes to our sideboard, outside the game, never face up
            if hidden:
                out = pc.move_card("table", [card_id], target_player_id=self.me, target_zone="sb", x=-1, y=0)
                self.own_sb.put(self.block.game_names[index], top=False)
            else:
                out = pc.move_card("table", [card_id], target_player_id=self.me, target_zone="rfg")
            await self.run(out)
            return
        with contextlib.suppress(KeyError):  # their seat went while the card moved: it went with them
            await self.annotate(
                card_id, owner_note(self.player_name(player)) + (f"\n{label}" if label else "")
            )
            before = self.table_ids(seat)
            move = pc.move_card(
                "table",
                [card_id],
                target_player_id=seat,
                target_zone="table",
                x=self.free_x(seat, DEAL_ROW),
                y=DEAL_ROW,
                face_down=hidden,
            )
            self._handing.add(card_id)
            await self.run(move)
            new_id = await self.wait_new_card(
                seat, before, name="" if hidden else self.block.game_names[index]
            )
            if new_id is not None:
                self.note_dealt(seat, new_id)
            if hand and new_id is not None and arrived is not None:
                arrived.append(new_id)  # into the hand with the others (hand_over_all)
            elif hand and new_id is not None:
                await self.into_hand(seat, new_id)
        self._notes.pop(card_id, None)

    async def deliver_sold(self, awarded: rules.CardsAwarded, seller: Any) -> None:
        """Cards sold with ``!sell`` are in the seller's hand or on their table: a judge moves them into
        the winner's hand; otherwise (or if it cannot see them) the seller is told what to drag where."""
        names = [self.block.game_names[ref.index] for ref in awarded.cards]
        if self.is_judge:
            moved = [await self.judge_transfer(name, seller, awarded.player) for name in names]
            if all(moved):
                return
            await self.say(sell_line(self.player_name(seller), self.player_name(awarded.player), names))

    async def exchange_commanders(self, effect: rules.CommandersExchanged) -> None:
        """90Y.6 as a judge: each commander from its old commander's table onto the other's; if a move
        fails the players are told what to drag."""
        sold, given = (self.block.game_names[ref.index] for ref in (effect.sold, effect.given))
        moved = [
            await self.judge_transfer(sold, effect.seller, effect.winner, hand=False),
            await self.judge_transfer(given, effect.winner, effect.seller, hand=False),
        ]
        if not all(moved):
            for line in _exchange_lines(effect, self.player_name, judge=False)[1:]:
                await self.say(line)

    async def judge_transfer(self, name: str, seller: Any, winner: Any, *, hand: bool = True) -> bool:
        """As a judge: move a card called ``name`` from the seller's table or hand onto the winner's table and
        (``hand``) into their hand."""
        seller_seat, winner_seat = self.seat_of(seller), self.seat_of(winner)
        if seller_seat is None or winner_seat is None:
            return False
        for zone in ("table", "hand"):
            card = next(
                (c for c in self.mirror.players[seller_seat].zone(zone).cards if c.name == name), None
            )
            if card is not None:
                break
        else:
            return False
        with contextlib.suppress(KeyError):  # a seat went meanwhile: the referee says what to drag instead
            return await self._judge_move(zone, card.id, name, seller_seat, winner_seat, hand=hand)
        return False

    async def _judge_move(
        self, zone: str, card_id: int, name: str, seller_seat: int, winner_seat: int, *, hand: bool
    ) -> bool:
        before = self.table_ids(winner_seat)
        move = pc.move_card(
            zone,
            [card_id],
            target_player_id=winner_seat,
            target_zone="table",
            x=self.free_x(winner_seat, DEAL_ROW),
            y=DEAL_ROW,
        )
        await self.judge(seller_seat, [move])
        new_id = await self.wait_new_card(winner_seat, before, name=name)
        if not hand:
            return new_id is not None
        return new_id is not None and await self.into_hand(winner_seat, new_id)

    # -- sinks: annotation and counters (free game commands) ------------------------------------------

    async def annotate(self, card_id: int, note: str) -> None:
        """Set the annotation of a card on our table (a free command; skipped when unchanged)."""
        note = bidi_isolated(note)  # a right-to-left name keeps its place, as in chat
        if self._notes.get(card_id) == note:
            return
        self._notes[card_id] = note
        await self.run(pc.set_card_attr("table", card_id, CardAttribute.AttrAnnotation, note))

    async def show_lot(self, note: str, *, owned: bool = False) -> None:
        """The open lot's note on each of its cards, or on the :data:`LOT_CARD` token for a lot of a
        player's own cards (taken off the table once that lot is closed)."""
        if owned and note:
            await self.show_note_card(self.me, LOT_CARD, note)
            return
        lot_card = self.note_card(self.me, LOT_CARD)
        if lot_card is not None:  # a token leaving the table is gone
            gone = pc.move_card("table", [lot_card.id], target_player_id=self.me, target_zone="grave")
            await self.run(gone)
        lot = self.engine.lot
        if lot is None or not note:
            return
        for index in lot.cards:
            card_id = self.on_table.get(index)
            if card_id is not None:
                await self.annotate(card_id, note)

    async def show_counters(self, gold: dict[Any, int], mana: list[tuple[Any, str, int]]) -> None:
        """As a judge: each player's gold on a "Gold" card of their own table (its number: the real client
        prints it there, while an eighth counter spills past the player's area), and mana they bought on
        their colour counter. Without judge rights, gold is on the lot card's note."""
        if not self.is_judge:
            return
        for player, value in gold.items():
            seat = self.seat_of(player)
            if seat is not None:
                await self.show_note_card(
                    seat, GOLD_CARD, f"{self.player_name(player)}'s gold: {value}", str(value)
                )
        commands: dict[int, list[Any]] = {}
        for player, color, count in mana:
            seat = self.seat_of(player)
            if seat is not None:
                commands.setdefault(seat, []).append(pc.inc_counter(MANA_COUNTERS[color], count))
        for seat, wanted in commands.items():
            await self.judge(seat, wanted)

    async def show_top(self, effect: rules.TopCardsShown) -> None:
        """Private: list the looked-at cards by number to that player. Not a Command_RevealCards: a reveal
        hands its reader each card's id, and Servatrice shows that id to everyone when the card is later
        dealt face down (a draw), so the looker would learn what another player drew, even after a shuffle."""
        names = self.block.game_names
        listing = "; ".join(f"{n}. {names[ref.index]}" for n, ref in enumerate(effect.cards, start=1))
        await self.tell(
            self.player_name(effect.player),
            shorten(
                f"Top of the block: {listing}. Reorder in game chat: {order_example(len(effect.cards))}"
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

    # -- commands ------------------------------------------------------------------------------------

    async def act(self, ctx: Context, make: Callable[[int], Any]) -> None:
        """Check the sender, apply the action built for their seat, and perform its effects."""
        player = self.engine_player(self.require_player(ctx))
        async with self._lock:
            await self.perform(self.apply(make(player)))

    @command(aliases=("b",))
    async def bid(self, ctx: Context, amount: Annotated[int, Range(1, rules.MAX_BID)]) -> None:
        """Bid AMOUNT gold on the card up for auction."""
        await self.act(ctx, lambda p: rules.Bid(player=p, amount=amount))

    @command(name="pass", aliases=("p",))
    async def pass_(self, ctx: Context) -> None:
        """Pass on the current auction."""
        await self.act(ctx, lambda p: rules.Pass(player=p))

    def chosen_cards(self, player: Any, card: str | None) -> dict[str, Any]:
        """``!cast``/``!keep``'s words as the engine's fields: no card, one card, or a list (split as
        ``!sell`` splits it, against the cards waiting for the player's choice)."""
        if card is None or self.table is None:
            return {"card": card}
        pending = list(self.engine.pending.get(player, ()))
        known = [n for i in pending for n in (self.engine.ref(i).name, self.block.game_names[i])]
        names = split_names(card, known)
        return {"card": names[0]} if len(names) == 1 else {"cards": tuple(names)}

    @command()
    async def cast(self, ctx: Context, card: Rest | None = None) -> None:
        """Cast the card(s) you just bought (onto the battlefield): !cast A, B."""
        await self.act(ctx, lambda p: rules.Cast(player=p, **self.chosen_cards(p, card)))

    @command()
    async def keep(self, ctx: Context, card: Rest | None = None) -> None:
        """Keep the card(s) you just bought in your hand: !keep A, B."""
        await self.act(ctx, lambda p: rules.Keep(player=p, **self.chosen_cards(p, card)))

    @command()
    async def gold(self, ctx: Context) -> None:
        """Show everyone's gold."""
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        await ctx.reply(
            "Gold: " + gold_summary(self.engine, self.player_name, everyone=self.engine.is_over())
        )

    @command()
    async def rules(self, ctx: Context) -> None:
        """The options this game is played with."""
        title = "Commander Auction" if self.options.commander else "Auction Magic"
        text = game_options.describe_in_force("auction", self.options)
        await ctx.reply(shorten(f"{title}, block {self.options.block}: {text}."))

    @command()
    async def mana(
        self, ctx: Context, color: str, count: Annotated[int, Range(1, 100)] | None = None
    ) -> None:
        """Spend gold for COUNT mana of COLOR (W, U, B, R or G; 1 if no COUNT), 1 gold per mana."""
        letter = COLORS.get(color.lower())
        if letter is None:
            raise BadArgument("colour must be W, U, B, R or G")
        await self.act(ctx, lambda p: rules.BuyMana(player=p, color=letter, count=count or 1))

    @command()
    async def draw(self, ctx: Context, count: Annotated[int, Range(1, 20)] | None = None) -> None:
        """Draw COUNT cards from the block (1 if no COUNT; card effects)."""
        player = self.engine_player(self.require_player(ctx))
        async with self._lock:
            if self.table is not None and self.draw_needs_asking(player):
                how = how_an_auction_starts(self.options.auction_at)
                raise NotAllowed(
                    f"this turn's card comes from its auction: {how}. !draw is for card effects that make you"
                    " draw (rule 7); say !draw again to draw anyway"
                )
            await self.draw_cards(player, count or 1)

    def draw_needs_asking(self, player: Any) -> bool:
        """Whether ``player``'s ``!draw`` is their first this turn before their turn's auction: a newcomer's
        way to take the turn's card, which would hand them a free card. It is answered with how the auction
        starts; a second ``!draw`` (same player, same turn) draws, for an upkeep effect that makes them
        draw. Other players' draws, and draws once the turn's auction happened, are not asked about. The ask
        is journaled first (:data:`DRAW_ASKED` in the table's meta, no engine action: old journals replay as
        they did), so after a restart the repeat still draws.

        Raises:
            JournalError: the ask could not be journaled (it is not made: the next ``!draw`` asks).
        """
        engine = self.engine
        if engine.active != player or engine.phase != "beginning" or engine.lot is not None:
            return False
        asked = [player, engine.turn]
        journal, key = self.bot.journal, self.table.key  # type: ignore[union-attr]
        meta = journal.table_meta(key)
        if meta.get(DRAW_ASKED) == asked:
            return False
        if journal.refusing:  # a process fenced off records nothing (another may play this table on)
            raise JournalError(f"nothing more is recorded by this process: {journal.refusing}")
        journal.set_table_meta(key, {**meta, DRAW_ASKED: asked})
        return True

    @command()
    async def look(self, ctx: Context, count: Annotated[int, Range(1, 20)]) -> None:
        """Look at the top COUNT cards of the block (shown to you only), then !order."""
        await self.act(ctx, lambda p: rules.LookAtTop(player=p, count=count))

    @command(aliases=("reorder",))
    async def order(self, ctx: Context, order: Rest) -> None:
        """!order N... [bottom N...]: put your !look cards back by number, top first (e.g. !order 2 1 3).

        ``[bottom N...]`` is optional: ``!order 2 1 bottom 3`` puts card 3 at the bottom."""
        player = self.engine_player(self.require_player(ctx))
        seen = self.engine.looks.get(player) if self.table is not None else None
        if not seen:
            raise BadArgument("use !look COUNT first")
        words = order.lower().replace(",", " ").split()
        top: list[int] = []
        bottom: list[int] = []
        target = top
        for word in words:
            if word == "bottom":
                target = bottom
                continue
            if not word.isdecimal() or not 1 <= int(word) <= len(seen):
                raise BadArgument(f"use the numbers 1-{len(seen)} from your !look")
            target.append(seen[int(word) - 1])
        await self.act(ctx, lambda p: rules.Reorder(player=p, top=tuple(top), bottom=tuple(bottom)))

    async def _place(self, ctx: Context, position: str) -> None:
        player = self.engine_player(self.require_player(ctx))
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
        """Vote to end this turn's auction step while its card is unbid (everyone must agree)."""
        await self.act(ctx, lambda p: rules.StopAuctioning(player=p))

    @command(name="auction")
    async def auction_now(self, ctx: Context) -> None:
        """Start this turn's auction step now (for when the draw step was skipped in Cockatrice)."""
        player = self.engine_player(self.require_player(ctx))
        async with self._lock:
            if self.engine.active != player:
                raise NotAllowed("only the active player can start the auction step")
            if self.engine.phase != "beginning":
                raise NotAllowed("the auction step already happened this turn")
            await self.start_auction_step()

    @command()
    async def sell(self, ctx: Context, cards: Rest) -> None:
        """Auction cards you own (90X.6): !sell NAME[, NAME...]; your commander (90Y.6): !sell commander.

        A commander sold this way is exchanged for the winner's commander when that is in the command zone.
        """
        player = self.engine_player(self.require_player(ctx))
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        names: tuple[Any, ...] = tuple(split_names(cards, self.own_card_names(player)))
        if len(names) == 1 and typed_key(names[0]) == "commander":
            index = self.engine.commanders.get(player)
            if not self.options.commander or index is None:
                raise NotAllowed(
                    REFUSALS["not_a_commander" if self.options.commander else "not_commander_game"]
                )
            names = (index,)
        await self.act(ctx, lambda p: rules.AuctionOwnCards(player=p, cards=names))

    @command()
    async def lot(self, ctx: Context, count: Annotated[int, Range(1, 10)]) -> None:
        """Put the top COUNT cards of the block up for auction together (card effects, 90X.8)."""
        await self.act(ctx, lambda p: rules.AuctionFromBlock(player=p, count=count))

    @command()
    async def idol(self, ctx: Context, card: Rest | None = None) -> None:
        """Gilded Idol: exile it as a card is revealed, before you bid on it, to buy that card for 0 gold."""
        await self.act(ctx, lambda p: rules.UseGildedIdol(player=p, card=card))

    @command()
    async def claim(self, ctx: Context, card: Rest | None = None) -> None:
        """Stake your Claim: say it as you cast Blood Claim, before the card is revealed."""
        await self.act(ctx, lambda p: rules.StakeClaim(player=p, card=card))

    @command()
    async def cdamage(
        self, ctx: Context, amount: Annotated[int, Range(1, 100)], owner: Rest | None = None
    ) -> None:
        """Record combat damage a commander dealt you (90Y.7: 21 from one commander loses)."""
        player = self.engine_player(self.require_player(ctx))
        engine = self.engine
        owners = dict(engine.commanders)  # your own commander too: an opponent may attack you with it
        others = [p for p in owners if p != player]
        chosen = players_named(owner, list(owners), self.player_name) if owner else others
        if len(chosen) != 1:
            names = listed(sorted(self.player_name(p) for p in owners), last="or") if owners else "nobody"
            said = f"no player {shorten(owner, 40)!r} has a commander here; " if owner and not chosen else ""
            raise BadArgument(f"{said}name whose commander hit you: !cdamage AMOUNT OWNER ({names})")
        index = owners[chosen[0]]
        async with self._lock:
            await self.perform(
                self.apply(rules.CommanderDamage(player=None, target=player, commander=index, amount=amount))
            )

    @command(final=True)  # never offered for a typo: !cancel answered "did you mean !concede?" lost a game
    async def concede(self, ctx: Context) -> None:
        """Concede the game."""
        await self.act(ctx, lambda p: rules.Concede(player=p))

    @command()
    async def state(self, ctx: Context) -> None:
        """Where the game stands: turn, auction, gold, block size."""
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        await ctx.reply(self.status_line)  # rendered as it leaves: bids made meanwhile are in it
        for line in self.lot_listing():  # a long lot: its cards named in full, below
            await ctx.reply(line)


INSTALLERS = {"auction": AuctionRoom.install}
RESUMERS = {"auction": AuctionReferee.resume}
REBUILDERS = {"auction": AuctionReferee.rebuild}
