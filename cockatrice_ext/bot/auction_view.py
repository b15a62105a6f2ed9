"""What Auction players see: one pure view of the engine after some effects, and every line it is said in.

The referee (:mod:`cockatrice_ext.bot.auction`) sends what :func:`render_view` computes through three sinks:
the open lot's annotation (:func:`lot_note`, within Servatrice's :data:`NOTE_LIMIT` bytes), the judge's Gold
cards and mana counters, and chat, only for what needs words. The web view (:mod:`cockatrice_ext.web.views`)
draws its boards from the same functions. Everything here is pure (no I/O, tested without a server):
cards are named as Cockatrice shows them (:func:`shown_effect`), a loss reads as who lost and why
(:data:`LOST_PHRASES`, 90X.3f), an unsold lot says where it goes (:data:`UNSOLD_WHERE`), a turn's line says
how its auction starts (rule 3: :func:`turn_line`), and the engine's refusals are worded here too
(:data:`REFUSALS`, their ``/you`` forms for the player they are about: :data:`ABOUT_SENDER`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cockatrice_ext.bot.chat import bidi_isolated
from cockatrice_ext.bot.words import MAX_CHAT_LINE
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.formats.base import CardRef, Effect

NOTE_LIMIT = 255
"""The most UTF-8 bytes of a card's annotation Servatrice keeps (``MAX_NAME_LENGTH``: the value of
``Command_SetCardAttr`` goes through ``nameFromStdString``); a longer lot note was cut mid-card-name, its bid
lines lost."""

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
