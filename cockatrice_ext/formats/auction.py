"""Auction Magic (and Commander Auction): players bid gold for cards revealed from a shared block.

RULE INDEX (seed 000: the opening rules 1-9, the forum rulings, draft rules 90X and 90Y)
--------------------------------------------------------------------------------------
* Rule 1 / 90X.5b: start with 10 gold -> ``AuctionConfig.starting_gold``, ``AuctionEngine.__init__``.
  Every player gains 3 gold at the end of each turn -> ``_end_turn`` (``AuctionConfig.income``).
* Rule 2 / 90X.3a: one shared block, shuffled before play -> ``__init__`` (``shuffle_block``).
* Rule 3 / 90X.3b / 90X.4a-b: the auction step replaces the draw step; the top card is revealed and bidding
  starts with the active player, in turn order -> ``_start_auction_step`` / ``_open_lot``.
  Each bid tops the high bid and is at least 1 -> ``_bid``; bidding ends when every other player has passed
  in succession (nobody bid: when everyone passed) -> ``_after_bid_or_pass``.
* Rule 3 note / 90X.5c: nobody may bid more gold than they have -> ``_bid`` (``bid_too_high``); gold a player
  has bid cannot be spent elsewhere while the lot is open -> ``_require_uncommitted``.
* Rule 3 note / 90X.4b: no bid -> the card goes to the bottom and the step repeats with another lot
  -> ``_close_lot`` (unsold branch) -> ``_continue_auction_step``. "Until each player agrees to stop
  auctioning cards" -> ``StopAuctioning`` / ``_stop_auctioning``: a vote counts while a card of the
  auction step is up with no bid; a lot put up by a card effect (90X.6-8) or in the commander pregame is
  not part of the step and ends only by bidding (``not_auction_step_lot``; ``no_auction_step`` and
  ``choice_pending`` when no card is up). Once every card of the block went up unbid in a row nobody wants
  any of them, so the step ends as if all had agreed (``unsold_in_a_row``, ``AuctionStepEnded``
  ``block_went_round``) rather than offering the same cards for ever.
* Rule 4 / 90X.4c: a card bought in the auction step may be cast at once or kept in hand: a pending choice
  -> ``PurchaseChoicePending``, ``Cast`` / ``Keep`` (``_choose``; ``cards`` chooses several at once, all or
  none); unresolved choices are kept at the end of the turn (``_end_turn``). The next lot waits for the
  choice, so a bought Augury Owl can look at the block before the next reveal.
* Rule 5 / 90X.4b: a bought noncreature card means another auction, until a creature is bought
  -> ``_close_lot`` (``follow_up_due``) and ``_continue_follow_up``. The draft 90X.4b instead has the buyer
  reveal cards until a creature, all auctioned off to them; the author rejected that reading in the thread,
  so it is an option: ``noncreature_follow_up="reveal"`` -> ``_reveal_until_creature`` (``pending``: each
  revealed card waits for cast or keep, 90X.4c), and the auction step ends (``creature_revealed``).
* Rule 6 / 90X.3d: the block is everyone's library: ``LookAtTop`` + ``Reorder`` (a permutation of exactly the
  cards looked at, some possibly to the bottom), ``ReturnToBlock`` (top or bottom), ``Shuffle``.
* Rule 7 / 90X.3d: draws come from the top of the block -> ``Draw`` / ``_draw``.
* Rule 8 / 90X.5a: 1 gold buys 1 mana of any color at any time -> ``BuyMana`` / ``_buy_mana``.
* Rule 9 / 90X.9: hands are revealed -> nothing hidden in ``snapshot`` (the bot decides who sees what;
  only ``TopCardsShown`` is private to one player).
* 90X.2 / 800.4a: a player who leaves a multiplayer game is skipped. The draft says nothing of a bidder who
  leaves mid-lot and 800.4a takes away only what they own, so the lot goes on without them: a standing bid
  of another player stands, their turn to bid passes on, and the lot closes as usual once every remaining
  player has passed in succession (``BidderLeft``). Only the high bidder's leaving voids the bids, and
  bidding starts over among the rest as when a high bidder can no longer pay (90X.5d,
  ``BiddingRestarted`` ``player_left``). A seller who leaves takes their unsold cards with them; a
  commander lot left without bidders goes back on top -> ``_lose`` / ``_drop_from_lot``.
* 90X.2: two to six players, free-for-all, turn order = ``AuctionConfig.players`` -> ``_validate_config``.
* 90X.3e / forum ruling 3: cards in the block have no owner; the player who gets a card owns it
  -> ``self.owner`` (cleared by ``ReturnToBlock``).
* 90X.3f / forum ruling 1: an auction due (or a draw) from an empty block ends the game by
  ``AuctionConfig.empty_block_rule``: ``"active_player_loses"`` (the author's ruling, default; for a draw the
  drawing player loses), ``"draw"``, or ``"higher_life_wins"`` (life reported by the bot: ``ReportLife``)
  -> ``_block_ran_out``.
* 90X.5d: gold never goes below 0 -> ``LoseGold`` clamps (``_change_gold``); ``AdjustGold`` for card
  effects such as Resell (permissions: ``_adjust_gold``). A loss applies even to gold standing as the high
  bid; if the high bidder can no longer cover it, every bid on the lot is voided and bidding starts over
  from the lot's first bidder -> ``_apply_gold_delta`` / ``_restart_bidding`` (``BiddingRestarted``). A
  player's own payment (``BuyMana``, a negative ``AdjustGold``) still may not touch that gold.
* 90X.6 (``AuctionOwnCards`` with one card): a card a player owns is auctioned; the owner may not bid,
  bidding starts with the next player; the price goes to the owner; the winner owns it and puts it into
  hand; no follow-up auction; unsold -> back where it was, owner unchanged -> ``_close_lot`` (``owned``).
* 90X.7 (``AuctionOwnCards`` with several cards): all go to the winner, as 90X.6. A name listed twice is
  two copies (``_resolve_held``'s ``taken``; ``not_enough_copies`` when the seller holds fewer).
* 90X.8 (``AuctionFromBlock``): the top N cards go up together; all to the winner, who may cast or keep each
  one (90X.4c, like any auctioned card: ``PurchaseChoicePending``); if every card bought is a noncreature,
  the winner reveals from the top of the block until a creature and puts the revealed cards into hand (no
  further auction) -> ``_reveal_until_creature`` (``RevealedUntilCreature``); unsold -> bottom of the block
  in random order.
* 90X.10: casting costs no mana -> nothing to model (the bot shows no costs).
* 90X.11: simultaneous wins / losses are decided by gold -> ``resolve_simultaneous``, used by
  ``DeclareWin`` / ``DeclareLoss`` and ``_block_ran_out``.
* 90Y.3: a Commander Auction block holds at least as many legendary creatures as players and is singleton by
  English name -> ``_validate_config`` (RulesError ``not_enough_legends`` / ``block_not_singleton``).
* 90Y.4a: pregame: reveal until a legendary creature; only players without a commander bid, beginning with
  the starting player; no bid -> the player the bidding began with takes it for free; repeat until everyone
  has a commander -> ``StartPregame`` / ``_open_commander_lot`` / ``_close_lot`` (``commander``).
  Non-legendary cards revealed on the way go to the bottom in the order revealed (the draft does not say).
* 90Y.4b: then every life total becomes 40 -> ``_finish_pregame``.
* 90Y.5: a commander may go back to the command zone -> ``CommanderToCommandZone``; casting it from there
  -> ``CastCommander``.
* 90Y.6: a player whose commander is in the command zone may put it up for auction (a card effect allows it:
  ``AuctionOwnCards`` naming the commander, alone: ``commander_alone``), following 90X.6 (others bid, the
  price goes to the seller, unsold -> back to the command zone). If the winner's commander is in the
  command zone the two commanders exchange: each goes to the other player's command zone, owned and
  commanded by them -> ``_close_lot`` / ``_sell_commander`` (``CommandersExchanged``). If it is not, that
  half of the exchange cannot be completed, so the exchange does not occur and the plain 90X.6 sale stands:
  the card goes to the winner's hand, and the seller has no commander from then on
  (``CommanderExchangeFailed``); commander damage is followed only for current commanders.
* 90Y.7: 21 combat damage from one commander loses -> ``CommanderDamage`` / ``_commander_damage``.
* "Boards" variant (one round of bidding: each player bids or passes exactly once, in turn order, highest
  wins) -> ``AuctionConfig.one_round_bidding`` and ``_after_bid_or_pass``.

Proposed auction cards from the thread (seed 000), recognised by English name (``_named``; the bundled
``auction-custom`` block holds them):

* Gilded Idol: when a card is revealed for auction, before its holder bids on it ("before you bid on it":
  another player's bid does not stop it), its holder may exile it and buy the revealed card(s) for 0 gold
  -> ``UseGildedIdol`` (``_use_gilded_idol``, ``IdolExiled`` then the usual ``LotSold`` at price 0; the idol
  goes to ``exiled``). Lots revealed from the block only (``BLOCK_LOT_KINDS``), not a player's own cards nor
  the commander pregame.
* Packaged Gnome: revealed for auction from the block, the next two cards of the block join its lot; one
  price buys all three -> ``_open_lot`` (``PackageRevealed``). Only the card(s) put up trigger it: a gnome
  among the two extra cards adds nothing (they are revealed, not put up for auction).
* Raise the Stakes (Deadly Stakes): when bought, the next card bid on this turn gains "when you purchase this
  card, target player loses 3 life and you gain 3 life" -> ``_purchase_triggers`` (``StakesRaised``), the
  first bid on a later lot attaches it (``_bid``, ``StakesAttached``), its purchase prompts the buyer
  (``StakesTriggered``: players change life in Cockatrice). A lot that ends unbought loses it; so does the
  end of the turn.
* High Bid (Fiery Bid): bought for 5 or more gold and cast at once (``Cast`` of the pending card, 90X.4c),
  its bigger effect applies -> ``_choose`` (``HighBidCast``; the lot's price is in ``paid``).
* Stake your Claim (Blood Claim): cast before the card to be auctioned is revealed (no lot open) ->
  ``StakeClaim`` (``_stake_claim``, ``ClaimStaked``); when its caster next wins a lot this turn it returns
  to their hand ("may": the referee returns it, the player may leave it in the graveyard) ->
  ``_purchase_triggers`` (``ClaimReturned``). Claims end with the turn.

The engine does not follow cards cast from hand in Cockatrice, so Gilded Idol and Stake your Claim accept
the card in hand or cast (``_mechanic_card``).


Turn structure is fed by the bot from game events: ``BeginTurn`` -> ``StartAuctionStep`` -> ... ->
``EndTurn``. During a turn ``EndTurn`` always succeeds (it reflects what already happened in Cockatrice): a
lot still open is abandoned (cards to the bottom), unresolved purchase choices are kept, then income is paid.

Who may do what (``player=None`` is the referee, i.e. the bot acting on game events or a moderator):
referee only: ``StartPregame``, ``BeginTurn``, ``StartAuctionStep``, ``EndTurn``, ``ReportLife``,
``CommanderDamage``, ``DeclareLoss``, ``DeclareWin``. A seated player, for themselves: ``Bid``, ``Pass``,
``StopAuctioning``, ``Cast``, ``Keep``, ``Draw``, ``LookAtTop``, ``Reorder``, ``ReturnToBlock`` (cards they
hold), ``BuyMana``, ``AuctionOwnCards``, ``UseGildedIdol``, ``StakeClaim``, ``CastCommander``,
``CommanderToCommandZone``, ``Concede``; the referee may also ``Pass`` for whoever is to bid (a timeout) and
``Draw`` / ``ReturnToBlock`` for anyone.
``Shuffle`` and ``AuctionFromBlock``: any seated player or the referee. ``AdjustGold``: the referee for
anyone; a player only their own gold, gains only if ``players_may_gain_gold``. ``LoseGold``: the referee for
anyone; a player for themselves, and for others if ``players_may_drain_others``.

Refusal codes (``RulesError.code``)
-----------------------------------
``game_over``, ``unknown_action``, ``malformed``, ``not_a_player``, ``eliminated``, ``referee_only``,
``not_permitted``, ``pregame_pending``, ``pregame_done``, ``not_commander_game``, ``turn_in_progress``,
``no_turn``, ``auction_step_taken``, ``auction_in_progress``, ``no_lot``, ``not_your_bid``,
``not_eligible``, ``bid_below_minimum``, ``bid_not_higher``, ``bid_too_high``, ``gold_committed``,
``not_auction_step_lot``, ``not_revealed_lot``, ``no_auction_step``, ``choice_pending``,
``no_pending_choice``, ``ambiguous_card``, ``missing_card``, ``bad_count``, ``nothing_to_reorder``,
``look_stale``, ``not_a_permutation``, ``bad_position``, ``bad_color``, ``not_enough_gold``,
``already_voted``, ``bids_placed``, ``already_bid``, ``not_a_commander``, ``not_in_command_zone``,
``feature_disabled``,
``wrong_card``, ``already_claimed``, ``commander_alone``, ``bad_player_count``, ``duplicate_player``,
``not_enough_legends``, ``block_not_singleton``, ``bad_option``.

A card a player names is read as players type it (``cards.typed.match_names``: case, accents, a phone's
apostrophe, one face, a unique start) among the cards the action may mean -> ``_resolve_held``;
``missing_card`` then carries ``candidates`` (two or more different cards matched) or ``closest``.

Card zones as the engine models them: ``block`` (top first), ``lot`` (up for auction), ``pending`` (bought,
cast-or-keep not chosen yet), ``hand``, ``played`` (cast: on the battlefield, or resolved; the engine stops
following it), ``command`` (a commander), ``exiled`` (a Gilded Idol used). Every card index is in exactly
one of them.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.cards.typed import closest_names, match_names
from cockatrice_ext.formats.base import Action, CardRef, Effect, Engine, PlayerId, RulesError, register

LOGGER = logging.getLogger(__name__)

MAX_PLAYERS = 6
MAX_STARTING_GOLD = 10_000_000
"""The most gold a table may start with (``--auction-starting-gold`` takes its range from it)."""
MAX_BID = 1000 * MAX_STARTING_GOLD
"""The largest bid the bot's ``!bid`` parses: far above any gold total a game reaches, so a bid above a
player's gold is answered with how much they have rather than with a range error."""
MANA_COLORS = ("W", "U", "B", "R", "G")
EMPTY_BLOCK_RULES = ("active_player_loses", "draw", "higher_life_wins")
NONCREATURE_FOLLOW_UPS = ("auction", "reveal")
GILDED_IDOL = "Gilded Idol"
"""Proposed card: exile it as a card is revealed for auction to buy that card for 0 gold."""
PACKAGED_GNOME = "Packaged Gnome"
"""Proposed card: revealed for auction, it brings the next two cards of the block into its lot."""
PACKAGE_EXTRA = 2
RAISE_THE_STAKES_CARDS = ("Deadly Stakes",)
"""Proposed cards with Raise the Stakes: the next card bid on this turn gains a drain-3 purchase trigger."""
STAKES_LIFE = 3
HIGH_BID_CARDS = ("Fiery Bid",)
"""Proposed cards with High Bid: bought for 5+ gold and cast at once, they deal 5 damage instead of 3."""
HIGH_BID_GOLD = 5
STAKE_YOUR_CLAIM_CARDS = ("Blood Claim",)
"""Proposed cards with Stake your Claim: cast before a reveal, back to hand when the caster next wins."""
CardRefValue = int | str


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AuctionConfig:
    """Options of one Auction Magic game; defaults are the seed's."""

    players: tuple[PlayerId, ...] = ()
    """Seated players in turn order; the first is the starting player."""
    cards: tuple[CardFacts, ...] = ()
    """The auction block, one entry per physical card; a card is known by its index here."""
    starting_gold: int = 10
    income: int = 3
    """Gold every player gains at the end of each turn."""
    starting_life: int = 20
    one_round_bidding: bool = False
    """The "boards" variant: each eligible player bids or passes exactly once."""
    empty_block_rule: str = "active_player_loses"
    """One of ``EMPTY_BLOCK_RULES``."""
    noncreature_follow_up: str = "auction"
    """A noncreature bought in the auction step: ``"auction"`` (rule 5, the author's ruling: another card goes
    up) or ``"reveal"`` (the draft's 90X.4b: the buyer reveals until a creature, into hand)."""
    shuffle_block: bool = True
    """Shuffle the block (with the engine's seed) before play, 90X.3a."""
    allow_own_card_auctions: bool = True
    """Allow ``AuctionOwnCards`` (90X.6 / 90X.7) for card effects like Auction Property."""
    allow_block_lots: bool = True
    """Allow ``AuctionFromBlock`` (90X.8) for card effects like Packaged Gnome."""
    players_may_gain_gold: bool = True
    """Whether a player may raise their own gold with ``AdjustGold`` (Resell, Alchemy Lab) without the
    referee. Every change is announced publicly by the bot."""
    players_may_drain_others: bool = True
    """Whether a player may make another player lose gold with ``LoseGold`` (a card effect they resolved)."""
    commander: bool = False
    """Commander Auction, 90Y."""
    commander_life: int = 40
    commander_damage_limit: int = 21


# ---------------------------------------------------------------------------
# Value objects carried by effects
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BidRecord:
    """One accepted bid."""

    player: PlayerId
    amount: int


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StartPregame(Action):
    """Referee: begin the Commander Auction pregame (90Y.4a)."""


@dataclass(frozen=True)
class BeginTurn(Action):
    """Referee: ``active`` began a turn."""

    active: PlayerId = 0


@dataclass(frozen=True)
class StartAuctionStep(Action):
    """Referee: the turn's auction step began (at the active player's draw step, which it replaces, or as the
    turn begins at a table that skips upkeep: the bot's ``auction_at``)."""


@dataclass(frozen=True)
class EndTurn(Action):
    """Referee: the turn ended (cleanup income is paid)."""


@dataclass(frozen=True)
class Bid(Action):
    """Bid ``amount`` gold on the open lot."""

    amount: int = 0


@dataclass(frozen=True)
class Pass(Action):
    """Decline to bid. ``player=None``: the referee passes for whoever is to bid (a timeout)."""


@dataclass(frozen=True)
class StopAuctioning(Action):
    """Vote to stop the auction step after unsold lots (90X.4b: "each player agrees to stop")."""


@dataclass(frozen=True)
class Cast(Action):
    """Cast a card just bought in the auction step (to the battlefield / stack). ``card`` may be omitted when
    exactly one choice is pending; ``cards`` names several at once (all or none: a name twice is two
    copies)."""

    card: CardRefValue | None = None
    cards: tuple[CardRefValue, ...] = ()


@dataclass(frozen=True)
class Keep(Action):
    """Put a card just bought in the auction step into hand (``cards``: several, as :class:`Cast`)."""

    card: CardRefValue | None = None
    cards: tuple[CardRefValue, ...] = ()


@dataclass(frozen=True)
class Draw(Action):
    """Draw ``count`` cards from the block. ``target`` defaults to the acting player; only the referee may
    draw for another player."""

    count: int = 1
    target: PlayerId | None = None


@dataclass(frozen=True)
class LookAtTop(Action):
    """Look at the top ``count`` cards of the block (privately)."""

    count: int = 1


@dataclass(frozen=True)
class Reorder(Action):
    """Put the cards last looked at back: ``top`` (first = new top card) then ``bottom`` (last = very bottom).
    ``top + bottom`` must be a permutation of exactly the cards looked at."""

    top: tuple[int, ...] = ()
    bottom: tuple[int, ...] = ()


@dataclass(frozen=True)
class ReturnToBlock(Action):
    """Put a card the acting player holds (hand or played) on the top or bottom of the block; ``face_down``:
    they gave it back face down, so where it went is said without its name."""

    card: CardRefValue = 0
    position: str = "top"
    face_down: bool = False


@dataclass(frozen=True)
class Shuffle(Action):
    """Shuffle the block."""


@dataclass(frozen=True)
class BuyMana(Action):
    """Spend ``count`` gold for ``count`` mana of ``color``."""

    color: str = "W"
    count: int = 1


@dataclass(frozen=True)
class AdjustGold(Action):
    """Change ``target``'s gold by ``delta`` (card effects, referee fixes); result clamped at 0."""

    target: PlayerId | None = None
    delta: int = 0
    reason: str = ""


@dataclass(frozen=True)
class LoseGold(Action):
    """``target`` loses ``amount`` gold; clamped at 0 (90X.5d)."""

    target: PlayerId | None = None
    amount: int = 0
    reason: str = ""


@dataclass(frozen=True)
class AuctionOwnCards(Action):
    """Put cards the acting player owns (hand or played) up for auction (90X.6 / 90X.7)."""

    cards: tuple[CardRefValue, ...] = ()


@dataclass(frozen=True)
class AuctionFromBlock(Action):
    """Put the top ``count`` cards of the block up for auction together (90X.8)."""

    count: int = 1


@dataclass(frozen=True)
class UseGildedIdol(Action):
    """Exile the acting player's Gilded Idol to buy the card(s) just revealed for auction for 0 gold.
    ``card`` may be omitted when the player holds one Gilded Idol."""

    card: CardRefValue | None = None


@dataclass(frozen=True)
class StakeClaim(Action):
    """The acting player casts a Stake your Claim card (Blood Claim) before the next card is revealed.
    ``card`` may be omitted when the player holds one such card."""

    card: CardRefValue | None = None


@dataclass(frozen=True)
class ReportLife(Action):
    """Referee: ``target``'s life total is now ``life`` (read from the game)."""

    target: PlayerId = 0
    life: int = 0


@dataclass(frozen=True)
class CommanderDamage(Action):
    """Referee: ``target`` was dealt ``amount`` combat damage by the commander card ``commander``."""

    target: PlayerId = 0
    commander: int = 0
    amount: int = 0


@dataclass(frozen=True)
class CastCommander(Action):
    """Cast the acting player's commander from the command zone."""


@dataclass(frozen=True)
class CommanderToCommandZone(Action):
    """Put the acting player's commander (from hand or play) back into the command zone (90Y.5)."""


@dataclass(frozen=True)
class Concede(Action):
    """The acting player concedes."""


@dataclass(frozen=True)
class DeclareLoss(Action):
    """Referee: these players would lose simultaneously (life 0, ...); 90X.11 decides who does."""

    targets: tuple[PlayerId, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class DeclareWin(Action):
    """Referee: these players would win simultaneously; 90X.11 decides who does; the game ends."""

    targets: tuple[PlayerId, ...] = ()
    reason: str = ""


# ---------------------------------------------------------------------------
# Effects
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BlockPrepared(Effect):
    size: int


@dataclass(frozen=True)
class TurnBegan(Effect):
    turn: int
    active: PlayerId


@dataclass(frozen=True)
class AuctionStepStarted(Effect):
    turn: int
    active: PlayerId


@dataclass(frozen=True)
class AuctionStepEnded(Effect):
    """``reason``: ``creature_bought``, ``creature_revealed``, ``players_stopped``, ``block_went_round``,
    ``turn_ended`` or ``block_empty``."""

    turn: int
    reason: str


@dataclass(frozen=True)
class CardsRevealed(Effect):
    """Cards revealed on the way to a legendary creature (90Y.4a) and where they went."""

    cards: tuple[CardRef, ...]
    destination: str


@dataclass(frozen=True)
class LotOpened(Effect):
    """``kind``: ``auction_step``, ``follow_up``, ``from_block``, ``owned`` or ``commander``."""

    lot_no: int
    kind: str
    cards: tuple[CardRef, ...]
    first_bidder: PlayerId
    bidders: tuple[PlayerId, ...]
    is_creature: bool
    seller: PlayerId | None
    turn: int


@dataclass(frozen=True)
class BidAccepted(Effect):
    lot_no: int
    player: PlayerId
    amount: int


@dataclass(frozen=True)
class Passed(Effect):
    lot_no: int
    player: PlayerId
    by_referee: bool


@dataclass(frozen=True)
class NextToBid(Effect):
    lot_no: int
    player: PlayerId
    high_bid: int
    high_bidder: PlayerId | None


@dataclass(frozen=True)
class BiddingRestarted(Effect):
    """The high bidder ``player`` can no longer buy lot ``lot_no``, so the ``voided`` bids no longer count and
    bidding starts over: ``reason`` ``gold_lost`` (90X.5d: they lost gold below their bid) or ``player_left``
    (they left the game)."""

    lot_no: int
    player: PlayerId
    voided: tuple[BidRecord, ...]
    reason: str = "gold_lost"


@dataclass(frozen=True)
class BidderLeft(Effect):
    """``player`` (not the high bidder) left the game during lot ``lot_no``: it goes on without them, the
    standing bid (``high_bid`` by ``high_bidder``, 0 and None without one) stands; ``to_bid`` is who bids
    next, None when everyone left has passed and the lot closes (a ``LotSold`` or ``LotUnsold`` follows)."""

    lot_no: int
    player: PlayerId
    high_bid: int
    high_bidder: PlayerId | None
    to_bid: PlayerId | None


@dataclass(frozen=True)
class LotSold(Effect):
    """Everything ``stats prices`` needs: the cards, every bid in order, the winner, the price, the turn."""

    lot_no: int
    kind: str
    cards: tuple[CardRef, ...]
    bids: tuple[BidRecord, ...]
    winner: PlayerId
    price: int
    turn: int
    seller: PlayerId | None
    destination: str


@dataclass(frozen=True)
class LotUnsold(Effect):
    """``destination``: ``bottom``, ``bottom_random`` (90X.8), ``returned`` (90X.6d), ``free_commander``
    (90Y.4a), ``top`` (the last bidder on a commander lot left the game: back on top of the block)."""

    lot_no: int
    kind: str
    cards: tuple[CardRef, ...]
    bids: tuple[BidRecord, ...]
    turn: int
    destination: str
    reason: str


@dataclass(frozen=True)
class GoldChanged(Effect):
    player: PlayerId
    old: int
    new: int
    reason: str


@dataclass(frozen=True)
class PurchaseChoicePending(Effect):
    player: PlayerId
    card: CardRef


@dataclass(frozen=True)
class CardCast(Effect):
    player: PlayerId
    card: CardRef
    source: str


@dataclass(frozen=True)
class CardKept(Effect):
    player: PlayerId
    card: CardRef
    automatic: bool


@dataclass(frozen=True)
class CardsDrawn(Effect):
    player: PlayerId
    cards: tuple[CardRef, ...]
    wanted: int


@dataclass(frozen=True)
class TopCardsShown(Effect):
    """Private to ``player``."""

    player: PlayerId
    cards: tuple[CardRef, ...]


@dataclass(frozen=True)
class BlockReordered(Effect):
    """The card lists are hidden information; others should only learn the counts."""

    player: PlayerId
    top: tuple[CardRef, ...]
    bottom: tuple[CardRef, ...]


@dataclass(frozen=True)
class CardReturned(Effect):
    player: PlayerId | None
    card: CardRef
    position: str
    from_zone: str
    previous_owner: PlayerId | None
    face_down: bool = False


@dataclass(frozen=True)
class BlockShuffled(Effect):
    player: PlayerId | None
    size: int


@dataclass(frozen=True)
class ManaBought(Effect):
    player: PlayerId
    color: str
    count: int


@dataclass(frozen=True)
class CardsAwarded(Effect):
    """Cards moved to a player by a sale outside the auction step (90X.6-8): into hand."""

    player: PlayerId
    cards: tuple[CardRef, ...]


@dataclass(frozen=True)
class RevealedUntilCreature(Effect):
    """90X.8: the buyer of an all-noncreature block lot revealed ``cards`` from the top of the block into
    hand, stopping at a creature (``creature_found``) or when the block ran out."""

    player: PlayerId
    cards: tuple[CardRef, ...]
    creature_found: bool
    pending: bool = False
    """The cards were auctioned off in the auction step (90X.4b reading): cast or keep each (90X.4c)."""


@dataclass(frozen=True)
class CardsReturnedToOwner(Effect):
    """90X.6d: unsold owned cards go back to their previous zone."""

    player: PlayerId
    cards: tuple[CardRef, ...]


@dataclass(frozen=True)
class StopVoted(Effect):
    player: PlayerId
    waiting_for: tuple[PlayerId, ...]


@dataclass(frozen=True)
class CommanderChosen(Effect):
    player: PlayerId
    card: CardRef
    price: int


@dataclass(frozen=True)
class PregameFinished(Effect):
    commanders: tuple[tuple[PlayerId, CardRef], ...]


@dataclass(frozen=True)
class CommanderMoved(Effect):
    player: PlayerId
    card: CardRef
    from_zone: str
    to_zone: str


@dataclass(frozen=True)
class CommandersExchanged(Effect):
    """90Y.6: ``seller`` auctioned their commander ``sold`` and ``winner`` bought it; ``winner``'s commander
    ``given`` went to ``seller``'s command zone in exchange (each now owns and commands the other card)."""

    lot_no: int
    seller: PlayerId
    winner: PlayerId
    sold: CardRef
    given: CardRef


@dataclass(frozen=True)
class CommanderExchangeFailed(Effect):
    """90Y.6: ``winner``'s commander was not in the command zone, so no exchange: ``card`` went to their hand
    (90X.6) and ``seller`` has no commander any more."""

    lot_no: int
    seller: PlayerId
    winner: PlayerId
    card: CardRef


@dataclass(frozen=True)
class IdolExiled(Effect):
    """``player`` exiled Gilded Idol ``card``: lot ``lot_no`` is theirs for 0 gold (a ``LotSold`` follows)."""

    player: PlayerId
    card: CardRef
    lot_no: int


@dataclass(frozen=True)
class PackageRevealed(Effect):
    """Packaged Gnome ``package`` was revealed for auction: ``cards`` joined its lot ``lot_no``."""

    lot_no: int
    package: CardRef
    cards: tuple[CardRef, ...]


@dataclass(frozen=True)
class StakesRaised(Effect):
    """``player`` bought the Raise the Stakes card ``card``: ``waiting`` stakes wait for the next card bid on
    this turn."""

    player: PlayerId
    card: CardRef
    waiting: int


@dataclass(frozen=True)
class StakesAttached(Effect):
    """The first bid on lot ``lot_no``: it carries ``count`` Raise the Stakes triggers for its buyer."""

    lot_no: int
    count: int


@dataclass(frozen=True)
class StakesTriggered(Effect):
    """``player`` bought lot ``lot_no``: ``count`` times, a target player of their choice loses ``life`` life
    and ``player`` gains ``life`` life (players change the life counters; the referee only prompts)."""

    player: PlayerId
    lot_no: int
    count: int
    life: int


@dataclass(frozen=True)
class HighBidCast(Effect):
    """High Bid: ``card`` was bought for ``price`` (5 or more) and cast at once, so its bigger effect
    applies."""

    player: PlayerId
    card: CardRef
    price: int


@dataclass(frozen=True)
class ClaimStaked(Effect):
    """``player`` cast the Stake your Claim card ``card`` before a reveal."""

    player: PlayerId
    card: CardRef


@dataclass(frozen=True)
class ClaimReturned(Effect):
    """``player`` won lot ``lot_no``: their Stake your Claim card ``card`` returns from graveyard to hand."""

    player: PlayerId
    card: CardRef
    lot_no: int


@dataclass(frozen=True)
class LifeChanged(Effect):
    player: PlayerId
    old: int
    new: int


@dataclass(frozen=True)
class CommanderDamageTaken(Effect):
    player: PlayerId
    commander: CardRef
    amount: int
    total: int


@dataclass(frozen=True)
class PlayerLost(Effect):
    player: PlayerId
    reason: str


@dataclass(frozen=True)
class GameOver(Effect):
    winners: tuple[PlayerId, ...]
    losers: tuple[PlayerId, ...]
    reason: str


@dataclass(frozen=True)
class TurnEnded(Effect):
    turn: int
    active: PlayerId


# ---------------------------------------------------------------------------
# Internal state
# ---------------------------------------------------------------------------


@dataclass
class _Lot:
    """An open lot (mutable; only inside the engine)."""

    lot_no: int
    kind: str
    cards: list[int]
    bidders: tuple[PlayerId, ...]
    seller: PlayerId | None = None
    origins: dict[int, str] = field(default_factory=dict)
    to_act: int = 0
    high_bid: int = 0
    high_bidder: PlayerId | None = None
    bids: list[BidRecord] = field(default_factory=list)
    passes_in_row: int = 0
    acted: int = 0
    stakes: int = 0
    """Raise the Stakes triggers the lot's buyer gets (attached at its first bid)."""

    def whose_bid(self) -> PlayerId:
        return self.bidders[self.to_act]


PHASES = ("pregame", "between_turns", "beginning", "auction", "main", "over")
BLOCK_LOT_KINDS = ("auction_step", "follow_up", "from_block")
"""Lots of cards revealed from the block (what Gilded Idol and Packaged Gnome react to)."""


def resolve_simultaneous(
    candidates: Iterable[PlayerId], outcome: str, gold: dict[PlayerId, int]
) -> tuple[PlayerId, ...]:
    """90X.11: of the players who would win (``outcome="win"``) or lose (``"lose"``) at once, return those
    who actually do: the highest gold total(s) win, the lowest gold total(s) lose, in ``candidates`` order."""
    if outcome not in ("win", "lose"):
        raise ValueError(f"outcome must be 'win' or 'lose', not {outcome!r}")
    players = list(dict.fromkeys(candidates))
    if len(players) <= 1:
        return tuple(players)
    totals = [gold[p] for p in players]
    pick = max(totals) if outcome == "win" else min(totals)
    return tuple(p for p in players if gold[p] == pick)


def _copy_state(value: Any) -> Any:
    """A copy of one engine attribute deep enough that mutating the engine cannot reach it.

    Called for every attribute before every action (a bid too), so immutable values return at once and
    nothing goes through :func:`dataclasses.replace`.
    """
    kind = type(value)
    if kind is dict:
        return {k: _copy_state(v) if type(v) in _MUTABLE_STATE else v for k, v in value.items()}
    if kind is list:
        return value.copy()  # lists hold ints, player ids or frozen records
    if kind is _Lot:
        lot = object.__new__(_Lot)
        lot.__dict__.update(value.__dict__)
        lot.cards, lot.origins, lot.bids = value.cards.copy(), value.origins.copy(), value.bids.copy()
        return lot
    return value  # ints, strs, tuples, None


_MUTABLE_STATE = frozenset({dict, list, _Lot})
"""The types :func:`_copy_state` copies; everything else an engine holds is immutable."""
_NOT_SAVED = frozenset({"config", "rng"})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@register
class AuctionEngine(Engine[AuctionConfig]):
    """The Auction Magic referee: a fold of accepted actions into gold, lots and card zones."""

    name: ClassVar[str] = "auction"
    config_type: ClassVar[type[Any]] = AuctionConfig
    action_types: ClassVar[tuple[type[Action], ...]] = (
        StartPregame,
        BeginTurn,
        StartAuctionStep,
        EndTurn,
        Bid,
        Pass,
        StopAuctioning,
        Cast,
        Keep,
        Draw,
        LookAtTop,
        Reorder,
        ReturnToBlock,
        Shuffle,
        BuyMana,
        AdjustGold,
        LoseGold,
        AuctionOwnCards,
        AuctionFromBlock,
        UseGildedIdol,
        StakeClaim,
        ReportLife,
        CommanderDamage,
        CastCommander,
        CommanderToCommandZone,
        Concede,
        DeclareLoss,
        DeclareWin,
    )

    def __init__(self, config: AuctionConfig, *, seed: int) -> None:
        super().__init__(config, seed=seed)
        self._validate_config(config)
        self.players: tuple[PlayerId, ...] = tuple(config.players)
        self.purse: dict[PlayerId, int] = {p: config.starting_gold for p in self.players}
        self.life: dict[PlayerId, int] = {p: config.starting_life for p in self.players}
        self.block: list[int] = list(range(len(config.cards)))
        if config.shuffle_block:
            self.rng.shuffle(self.block)
        self.hand: dict[PlayerId, list[int]] = {p: [] for p in self.players}
        self.played: dict[PlayerId, list[int]] = {p: [] for p in self.players}
        self.command: dict[PlayerId, list[int]] = {p: [] for p in self.players}
        self.exiled: dict[PlayerId, list[int]] = {p: [] for p in self.players}  # Gilded Idols used
        self.pending: dict[PlayerId, list[int]] = {p: [] for p in self.players}
        self.owner: dict[int, PlayerId] = {}
        self.commanders: dict[PlayerId, int] = {}
        self.commander_damage: dict[PlayerId, dict[int, int]] = {p: {} for p in self.players}
        self.eliminated: list[PlayerId] = []
        self.winners: tuple[PlayerId, ...] = ()
        self.end_reason = ""
        self.ended_by: tuple[PlayerId, ...] = ()  # the players whose loss ended the game (for ``end_reason``)
        self.phase = "pregame" if config.commander else "between_turns"
        self.turn = 0
        self.active: PlayerId | None = None
        self.auction_step_taken = False
        self.follow_up_due = False
        self.unsold_in_a_row = 0  # auction-step lots closed unbid since the step began or the last sale
        self.stop_votes: list[PlayerId] = []
        self.lot: _Lot | None = None
        self.lots_opened = 0
        self.looks: dict[PlayerId, tuple[int, ...]] = {}
        self.ledger: dict[str, int] = {"income": 0, "lots": 0, "mana": 0, "gained": 0, "lost": 0}
        self.stakes = 0  # Raise the Stakes triggers waiting for the next card bid on this turn
        self.paid: dict[int, int] = {}  # pending card -> the price of its lot (High Bid)
        self.claims: dict[PlayerId, list[int]] = {p: [] for p in self.players}  # Stake your Claim, this turn

    # -- construction checks ----------------------------------------------------
    @staticmethod
    def _validate_config(config: AuctionConfig) -> None:
        players = tuple(config.players)
        if not 2 <= len(players) <= MAX_PLAYERS:
            raise RulesError("bad_player_count", count=len(players), minimum=2, maximum=MAX_PLAYERS)
        if len(set(players)) != len(players):
            raise RulesError("duplicate_player", players=list(players))
        if config.empty_block_rule not in EMPTY_BLOCK_RULES:
            raise RulesError("bad_option", option="empty_block_rule", value=config.empty_block_rule)
        if config.noncreature_follow_up not in NONCREATURE_FOLLOW_UPS:
            raise RulesError("bad_option", option="noncreature_follow_up", value=config.noncreature_follow_up)
        for option in (
            "starting_gold",
            "income",
            "starting_life",
            "commander_life",
            "commander_damage_limit",
        ):
            value = getattr(config, option)
            if not _is_int(value) or value < 0:
                raise RulesError("bad_option", option=option, value=value)
        if config.starting_gold > MAX_STARTING_GOLD:
            raise RulesError("bad_option", option="starting_gold", value=config.starting_gold)
        if config.commander:
            names = [c.name.casefold() for c in config.cards]
            if len(set(names)) != len(names):
                dupes = sorted({c.name for c in config.cards if names.count(c.name.casefold()) > 1})
                raise RulesError("block_not_singleton", names=dupes)
            legends = sum(1 for c in config.cards if c.is_legendary_creature)
            if legends < len(players):
                raise RulesError("not_enough_legends", legends=legends, players=len(players))

    # -- queries for the bot ------------------------------------------------------
    def ref(self, index: int) -> CardRef:
        return CardRef(index, self.config.cards[index].name)

    def whose_turn(self) -> PlayerId | None:
        return self.active

    def whose_bid(self) -> PlayerId | None:
        return self.lot.whose_bid() if self.lot is not None else None

    def current_lot(self) -> dict[str, Any] | None:
        """The open lot as a JSON-able dict, or None."""
        lot = self.lot
        if lot is None:
            return None
        return {
            "lot_no": lot.lot_no,
            "kind": lot.kind,
            "cards": [dataclasses.asdict(self.ref(i)) for i in lot.cards],
            "bidders": list(lot.bidders),
            "seller": lot.seller,
            "to_bid": lot.whose_bid(),
            "high_bid": lot.high_bid,
            "high_bidder": lot.high_bidder,
            "bids": [dataclasses.asdict(b) for b in lot.bids],
            "passes_in_row": lot.passes_in_row,
        }

    def gold(self, player: PlayerId) -> int:
        """``player``'s gold total."""
        return self.purse[player]

    def block_size(self) -> int:
        return len(self.block)

    def pending_choice(self, player: PlayerId) -> tuple[CardRef, ...]:
        return tuple(self.ref(i) for i in self.pending.get(player, ()))

    def living(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in self.players if p not in self.eliminated)

    def players_in(self) -> tuple[PlayerId, ...]:
        """Not eliminated (conceded, left, dropped or lost)."""
        return self.living()

    def is_over(self) -> bool:
        return self.phase == "over"

    def card_zone(self, index: int) -> tuple[str, PlayerId | None]:
        """Where card ``index`` is: (zone, player or None)."""
        if index in self.block:
            return ("block", None)
        if self.lot is not None and index in self.lot.cards:
            return ("lot", None)
        for zone_name, zones in self._player_zones():
            for player, cards in zones.items():
                if index in cards:
                    return (zone_name, player)
        raise KeyError(index)

    def snapshot(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "phase": self.phase,
            "turn": self.turn,
            "active": self.active,
            "gold": {str(p): g for p, g in self.purse.items()},
            "life": {str(p): v for p, v in self.life.items()},
            "block": list(self.block),
            "lot": self.current_lot(),
            "lots_opened": self.lots_opened,
            "hand": {str(p): list(c) for p, c in self.hand.items()},
            "played": {str(p): list(c) for p, c in self.played.items()},
            "command": {str(p): list(c) for p, c in self.command.items()},
            "exiled": {str(p): list(c) for p, c in self.exiled.items()},
            "pending": {str(p): list(c) for p, c in self.pending.items()},
            "owner": {str(i): p for i, p in sorted(self.owner.items())},
            "commanders": {str(p): c for p, c in self.commanders.items()},
            "commander_damage": {
                str(p): {str(c): d for c, d in sorted(v.items())} for p, v in self.commander_damage.items()
            },
            "auction_step_taken": self.auction_step_taken,
            "follow_up_due": self.follow_up_due,
            "stop_votes": list(self.stop_votes),
            "unsold_in_a_row": self.unsold_in_a_row,
            "looks": {str(p): list(c) for p, c in self.looks.items()},
            "eliminated": list(self.eliminated),
            "winners": list(self.winners),
            "end_reason": self.end_reason,
            "ended_by": list(self.ended_by),
            "ledger": dict(self.ledger),
            "stakes": self.stakes,
            "paid": {str(i): price for i, price in sorted(self.paid.items())},
            "claims": {str(p): list(c) for p, c in self.claims.items()},
        }

    # -- dispatch -------------------------------------------------------------------
    def apply(self, action: Action) -> list[Effect]:
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise RulesError("unknown_action", action=type(action).__name__)
        if self.phase == "over":
            raise RulesError("game_over", winners=list(self.winners))
        # Handlers check before they change anything; this restore is a second line of defence so that a
        # refused action can never leave a half-applied state behind.
        saved = {
            k: _copy_state(v) if type(v) in _MUTABLE_STATE else v
            for k, v in self.__dict__.items()
            if k not in _NOT_SAVED
        }
        self.rng.checkpoint()
        try:
            effects: list[Effect] = handler(self, action)
        except BaseException as exc:
            if isinstance(exc, RulesError):
                self.__dict__.update(saved)
            self.rng.rollback()
            raise
        self.rng.release()
        return effects

    # -- common checks ----------------------------------------------------------------
    def _require_player(self, player: object) -> PlayerId:
        if not isinstance(player, (int, str)) or isinstance(player, bool) or player not in self.purse:
            raise RulesError("not_a_player", player=player)
        if player in self.eliminated:
            raise RulesError("eliminated", player=player)
        return player  # type: ignore[return-value]

    @staticmethod
    def _require_referee(action: Action) -> None:
        if action.player is not None:
            raise RulesError("referee_only", player=action.player)

    @staticmethod
    def _require_count(value: object, minimum: int = 1) -> int:
        if not _is_int(value) or value < minimum:  # type: ignore[operator]
            raise RulesError("bad_count", value=value, minimum=minimum)
        return value  # type: ignore[return-value]

    @staticmethod
    def _reason(reason: object, default: str) -> str:
        """A short free-text reason from an action (shown to players by the bot), or ``default``."""
        if not isinstance(reason, str):
            raise RulesError("malformed", field="reason")
        return reason.strip()[:80] or default

    def _require_no_lot(self) -> None:
        if self.lot is not None or self.follow_up_due:
            raise RulesError("auction_in_progress", lot_no=self.lot.lot_no if self.lot else None)

    def _require_turn(self) -> None:
        if self.phase == "pregame":
            raise RulesError("pregame_pending")
        if self.phase not in ("beginning", "auction", "main"):
            raise RulesError("no_turn", phase=self.phase)

    def _require_uncommitted(self, player: PlayerId, spend: int) -> None:
        """Gold standing as the high bid cannot be spent while the lot is open."""
        lot = self.lot
        if lot is not None and lot.high_bidder == player and self.purse[player] - spend < lot.high_bid:
            raise RulesError("gold_committed", player=player, high_bid=lot.high_bid, gold=self.purse[player])

    def _player_zones(self) -> tuple[tuple[str, dict[PlayerId, list[int]]], ...]:
        return (
            ("pending", self.pending),
            ("hand", self.hand),
            ("played", self.played),
            ("command", self.command),
            ("exiled", self.exiled),
        )

    def _resolve_held(
        self,
        player: PlayerId | None,
        ref: object,
        zones: tuple[str, ...],
        taken: Collection[int] = (),
    ) -> tuple[int, str, PlayerId]:
        """Find a card by index or name among the given zones of ``player`` (or everyone's if None). A name
        is read as players type it (:func:`match_names`; the old rule, the whole name in any case, first,
        so journals replay); several copies of one card are one card (the first not in ``taken`` is taken:
        a list naming a card twice means two copies, ``not_enough_copies`` when fewer are held). Hands are
        revealed (90X.9), so every card searched may be named in a refusal: ``missing_card`` carries
        ``candidates`` when the name matches two or more different cards, else ``closest``."""
        if isinstance(ref, bool) or not isinstance(ref, (int, str)):
            raise RulesError("malformed", field="card", value=ref)
        owners = [player] if player is not None else list(self.players)
        held = [
            (index, zone_name, holder)
            for zone_name, zone_map in self._player_zones()
            if zone_name in zones
            for holder in owners
            for index in zone_map[holder]
        ]
        if isinstance(ref, int):
            found = [entry for entry in held if entry[0] == ref]
        else:
            names = [self.config.cards[index].name for index, _, _ in held]
            wanted = ref.strip().casefold()
            found = [entry for entry, name in zip(held, names, strict=True) if name.casefold() == wanted]
            if not found:
                matched = match_names(ref, names)
                if len(matched) > 1:
                    raise RulesError("missing_card", card=ref, player=player, candidates=matched)
                if not matched:
                    raise RulesError(
                        "missing_card", card=ref, player=player, closest=closest_names(ref, names)
                    )
                found = [entry for entry, name in zip(held, names, strict=True) if name == matched[0]]
        if not found:
            raise RulesError("missing_card", card=ref, player=player)
        if player is None and len({h for _, _, h in found}) > 1:
            raise RulesError("ambiguous_card", card=ref)
        free = [entry for entry in found if entry[0] not in taken]
        if not free:
            name = self.config.cards[found[0][0]].name
            raise RulesError("not_enough_copies", card=name, held=len(found), player=player)
        return free[0]

    # -- money -------------------------------------------------------------------------
    def _change_gold(self, player: PlayerId, delta: int, reason: str) -> GoldChanged:
        old = self.purse[player]
        new = max(0, old + delta)
        self.purse[player] = new
        return GoldChanged(player, old, new, reason)

    # -- turn structure ----------------------------------------------------------------
    def _start_pregame(self, action: StartPregame) -> list[Effect]:
        self._require_referee(action)
        if not self.config.commander:
            raise RulesError("not_commander_game")
        if self.phase != "pregame" or self.lot is not None:
            raise RulesError("pregame_done")
        return self._open_commander_lot()

    def _begin_turn(self, action: BeginTurn) -> list[Effect]:
        self._require_referee(action)
        if self.phase == "pregame":
            raise RulesError("pregame_pending")
        if self.phase != "between_turns":
            raise RulesError("turn_in_progress", turn=self.turn, active=self.active)
        active = self._require_player(action.active)
        self.turn += 1
        self.active = active
        self.phase = "beginning"
        self.auction_step_taken = False
        self.stop_votes = []
        return [TurnBegan(self.turn, active)]

    def _start_auction_step(self, action: StartAuctionStep) -> list[Effect]:
        self._require_referee(action)
        self._require_turn()
        if self.auction_step_taken:
            raise RulesError("auction_step_taken", turn=self.turn)
        self._require_no_lot()
        assert self.active is not None
        self.auction_step_taken = True
        self.phase = "auction"
        self.stop_votes = []
        self.unsold_in_a_row = 0
        effects: list[Effect] = [AuctionStepStarted(self.turn, self.active)]
        effects += self._continue_auction_step("auction_step")
        return effects

    def _continue_auction_step(self, kind: str) -> list[Effect]:
        """Open the next lot of the auction step, or end the game if the block is empty (90X.3f)."""
        assert self.active is not None
        self.follow_up_due = False
        if not self.block:
            effects = self._block_ran_out(self.active, "block_empty_at_auction")
            if self.phase != "over":
                self.phase = "main"
                effects.append(AuctionStepEnded(self.turn, "block_empty"))
            return effects
        card = self.block.pop(0)
        return self._open_lot(kind, [card], first=self.active, seller=None)

    def _end_turn(self, action: EndTurn) -> list[Effect]:
        self._require_referee(action)
        self._require_turn()
        assert self.active is not None
        effects: list[Effect] = []
        lot = self.lot
        if lot is not None:
            effects += self._abandon_lot(lot)
        if self.phase == "auction":
            effects.append(AuctionStepEnded(self.turn, "turn_ended"))
        self.follow_up_due = False
        for player in self.players:
            for index in list(self.pending[player]):
                self.pending[player].remove(index)
                self.hand[player].append(index)
                effects.append(CardKept(player, self.ref(index), automatic=True))
        effects.append(TurnEnded(self.turn, self.active))
        for player in self.living():
            change = self._change_gold(player, self.config.income, "income")
            self.ledger["income"] += change.new - change.old
            effects.append(change)
        self.phase = "between_turns"
        self.active = None
        self.looks = {}
        self.stakes, self.paid = 0, {}
        self.claims = {p: [] for p in self.players}
        return effects

    def _abandon_lot(self, lot: _Lot) -> list[Effect]:
        """The turn ended with a lot open: nobody gets it; cards go where unsold cards go."""
        return self._close_unsold(lot, reason="turn_ended")

    # -- lots ----------------------------------------------------------------------------
    def _bidding_order(self, first: PlayerId, exclude: Iterable[PlayerId] = ()) -> tuple[PlayerId, ...]:
        excluded = set(exclude)
        start = self.players.index(first)
        rotated = self.players[start:] + self.players[:start]
        return tuple(p for p in rotated if p not in excluded and p not in self.eliminated)

    def _open_lot(
        self, kind: str, cards: list[int], *, first: PlayerId, seller: PlayerId | None
    ) -> list[Effect]:
        exclude = [seller] if seller is not None else []
        if kind == "commander":
            exclude += list(self.commanders)
        bidders = self._bidding_order(first, exclude)
        self.lots_opened += 1
        package = next((i for i in cards if self._named(i, (PACKAGED_GNOME,))), None)
        extra: list[int] = []
        if kind in BLOCK_LOT_KINDS and package is not None:
            extra = self.block[:PACKAGE_EXTRA]
            del self.block[:PACKAGE_EXTRA]
            cards = [*cards, *extra]
        lot = _Lot(self.lots_opened, kind, list(cards), bidders, seller=seller)
        self.lot = lot
        packaged: list[Effect] = []
        if extra:
            assert package is not None
            packaged.append(PackageRevealed(lot.lot_no, self.ref(package), tuple(self.ref(i) for i in extra)))
        return [
            LotOpened(
                lot.lot_no,
                kind,
                tuple(self.ref(i) for i in cards),
                bidders[0],
                bidders,
                any(self.config.cards[i].is_creature for i in cards),
                seller,
                self.turn,
            ),
            *packaged,
            NextToBid(lot.lot_no, bidders[0], 0, None),
        ]

    def _named(self, index: int, names: tuple[str, ...]) -> bool:
        """Whether card ``index`` is one of the proposed cards ``names`` (by English name)."""
        name = self.config.cards[index].name.casefold()
        return any(name == n.casefold() for n in names)

    def _require_lot_bidder(self, action: Action) -> tuple[_Lot, PlayerId]:
        lot = self.lot
        if lot is None:
            raise RulesError("no_lot")
        if action.player is None and isinstance(action, Pass):
            return lot, lot.whose_bid()
        player = self._require_player(action.player)
        if player not in lot.bidders:
            raise RulesError("not_eligible", player=player, lot_no=lot.lot_no)
        if player != lot.whose_bid():
            raise RulesError("not_your_bid", player=player, to_bid=lot.whose_bid())
        return lot, player

    def _bid(self, action: Bid) -> list[Effect]:
        lot, player = self._require_lot_bidder(action)
        amount = action.amount
        if not _is_int(amount):
            raise RulesError("malformed", field="amount", value=amount)
        if amount < 1:
            raise RulesError("bid_below_minimum", amount=amount, minimum=1)
        if amount <= lot.high_bid:
            raise RulesError("bid_not_higher", amount=amount, high_bid=lot.high_bid)
        if amount > self.purse[player]:
            raise RulesError("bid_too_high", amount=amount, gold=self.purse[player])
        effects: list[Effect] = [BidAccepted(lot.lot_no, player, amount)]
        if not lot.bids and self.stakes:  # Raise the Stakes: the next card to be bid on this turn
            lot.stakes, self.stakes = lot.stakes + self.stakes, 0
            effects.append(StakesAttached(lot.lot_no, lot.stakes))
        lot.high_bid = amount
        lot.high_bidder = player
        lot.bids.append(BidRecord(player, amount))
        lot.passes_in_row = 0
        lot.acted += 1
        self.stop_votes = []
        return effects + self._after_bid_or_pass(lot)

    def _pass(self, action: Pass) -> list[Effect]:
        lot, player = self._require_lot_bidder(action)
        lot.passes_in_row += 1
        lot.acted += 1
        effects: list[Effect] = [Passed(lot.lot_no, player, by_referee=action.player is None)]
        return effects + self._after_bid_or_pass(lot)

    def _after_bid_or_pass(self, lot: _Lot) -> list[Effect]:
        """Close the lot when bidding is over, else name the next bidder."""
        if self._bidding_over(lot):
            return self._close_lot(lot)
        lot.to_act = (lot.to_act + 1) % len(lot.bidders)
        return [NextToBid(lot.lot_no, lot.whose_bid(), lot.high_bid, lot.high_bidder)]

    def _bidding_over(self, lot: _Lot) -> bool:
        """Whether the bidding on ``lot`` is over: every other player passed in succession after the high bid
        (everyone, without a bid), or in the boards variant everyone acted once."""
        count = len(lot.bidders)
        if self.config.one_round_bidding:
            return lot.acted >= count
        if lot.high_bidder is None:
            return lot.passes_in_row >= count
        return lot.passes_in_row >= count - 1

    def _close_lot(self, lot: _Lot) -> list[Effect]:
        if lot.high_bidder is None:
            return self._close_unsold(lot, reason="no_bid")
        winner, price = lot.high_bidder, lot.high_bid
        self.lot = None
        self.unsold_in_a_row = 0
        refs = tuple(self.ref(i) for i in lot.cards)
        effects: list[Effect] = []
        if lot.kind == "owned":
            assert lot.seller is not None
            effects.append(self._change_gold(winner, -price, f"bought_lot_{lot.lot_no}"))
            effects.append(self._change_gold(lot.seller, price, f"sold_lot_{lot.lot_no}"))
        else:
            effects.append(self._change_gold(winner, -price, f"bought_lot_{lot.lot_no}"))
            self.ledger["lots"] += price
        sold_commander = next((i for i in lot.cards if lot.origins.get(i) == "command"), None)
        exchange = sold_commander is not None and self._in_command_zone(winner)
        destination = (
            "command"
            if exchange
            else {
                "auction_step": "pending",
                "follow_up": "pending",
                "from_block": "pending",
                "commander": "command",
            }.get(lot.kind, "hand")
        )
        effects.insert(
            0,
            LotSold(
                lot.lot_no, lot.kind, refs, tuple(lot.bids), winner, price, self.turn, lot.seller, destination
            ),
        )
        for index in lot.cards:
            self.owner[index] = winner
        if lot.kind == "commander":
            return effects + self._award_commander(winner, lot.cards[0], price)
        if sold_commander is not None:
            effects += self._sell_commander(lot, winner, sold_commander)
        elif destination == "pending":
            for index in lot.cards:
                self.pending[winner].append(index)
                self.paid[index] = price
                effects.append(PurchaseChoicePending(winner, self.ref(index)))
        else:
            self.hand[winner].extend(lot.cards)
            effects.append(CardsAwarded(winner, refs))
        effects += self._purchase_triggers(lot, winner)
        all_noncreature = not any(self.config.cards[i].is_creature for i in lot.cards)
        reveal_rule = self.config.noncreature_follow_up == "reveal"
        if lot.kind == "from_block" and all_noncreature:
            effects += self._reveal_until_creature(winner, pending=False)
        elif lot.kind in ("auction_step", "follow_up") and all_noncreature and reveal_rule:
            effects += self._reveal_until_creature(winner, pending=True)
            self.phase = "main"
            effects.append(AuctionStepEnded(self.turn, "creature_revealed"))
        elif lot.kind in ("auction_step", "follow_up") and all_noncreature:
            self.follow_up_due = True
            self.stop_votes = []
            if not self._choices_outstanding():
                effects += self._continue_follow_up()
        elif lot.kind in ("auction_step", "follow_up") and self.phase == "auction":
            self.phase = "main"
            effects.append(AuctionStepEnded(self.turn, "creature_bought"))
        return effects

    def _in_command_zone(self, player: PlayerId) -> bool:
        """Whether ``player``'s commander card is in the command zone (90Y.6)."""
        index = self.commanders.get(player)
        return index is not None and index in self.command[player]

    def _sell_commander(self, lot: _Lot, winner: PlayerId, sold: int) -> list[Effect]:
        """90Y.6: the seller's commander was bought. If the winner's commander is in the command zone the two
        commanders exchange (each is the other player's commander, in their command zone, theirs); otherwise
        the exchange does not occur and the normal 90X.6 sale stands: the card goes to the winner's hand and
        the seller has no commander any more."""
        seller = lot.seller
        assert seller is not None
        if not self._in_command_zone(winner):
            self.hand[winner].append(sold)
            del self.commanders[seller]
            return [
                CardsAwarded(winner, (self.ref(sold),)),
                CommanderExchangeFailed(lot.lot_no, seller, winner, self.ref(sold)),
            ]
        given = self.commanders[winner]
        self.command[winner].remove(given)
        self.command[winner].append(sold)
        self.command[seller].append(given)
        self.commanders[winner], self.commanders[seller] = sold, given
        self.owner[given] = seller
        return [CommandersExchanged(lot.lot_no, seller, winner, self.ref(sold), self.ref(given))]

    def _purchase_triggers(self, lot: _Lot, winner: PlayerId) -> list[Effect]:
        """The proposed cards' purchase triggers: the lot's Raise the Stakes triggers, a Raise the Stakes card
        bought (waits for the next card bid on), the winner's staked claims (back to hand)."""
        effects: list[Effect] = []
        if lot.stakes:
            effects.append(StakesTriggered(winner, lot.lot_no, lot.stakes, STAKES_LIFE))
        for index in lot.cards:
            if self._named(index, RAISE_THE_STAKES_CARDS):
                self.stakes += 1
                effects.append(StakesRaised(winner, self.ref(index), self.stakes))
        for index in self.claims[winner]:
            if index in self.played[winner]:
                self.played[winner].remove(index)
                self.hand[winner].append(index)
                effects.append(ClaimReturned(winner, self.ref(index), lot.lot_no))
        self.claims[winner] = []
        return effects

    def _reveal_until_creature(self, player: PlayerId, *, pending: bool) -> list[Effect]:
        """90X.8 (and the 90X.4b reading): reveal from the top of the block until a creature; the revealed
        cards go to ``player``'s hand, or wait for cast-or-keep when auctioned off in the auction step
        (``pending``). Revealing is not drawing, so an empty block just stops it."""
        revealed: list[int] = []
        while self.block and not (revealed and self.config.cards[revealed[-1]].is_creature):
            revealed.append(self.block.pop(0))
        for index in revealed:
            self.owner[index] = player
        found = bool(revealed) and self.config.cards[revealed[-1]].is_creature
        refs = tuple(self.ref(i) for i in revealed)
        effects: list[Effect] = [RevealedUntilCreature(player, refs, found, pending)]
        if pending:
            self.pending[player].extend(revealed)
            effects += [PurchaseChoicePending(player, ref) for ref in refs]
        else:
            self.hand[player].extend(revealed)
        return effects

    def _continue_follow_up(self) -> list[Effect]:
        """Rule 5: a noncreature was bought, so another card goes up."""
        return self._continue_auction_step("follow_up")

    def _choices_outstanding(self) -> bool:
        return any(self.pending[p] for p in self.players)

    def _close_unsold(self, lot: _Lot, *, reason: str) -> list[Effect]:
        self.lot = None
        refs = tuple(self.ref(i) for i in lot.cards)
        effects: list[Effect] = []
        if lot.kind == "owned":
            assert lot.seller is not None
            for index in lot.cards:
                zone = {"hand": self.hand, "command": self.command}.get(
                    lot.origins.get(index, ""), self.played
                )
                zone[lot.seller].append(index)
            effects.append(
                LotUnsold(lot.lot_no, lot.kind, refs, tuple(lot.bids), self.turn, "returned", reason)
            )
            effects.append(CardsReturnedToOwner(lot.seller, refs))
            return effects
        if lot.kind == "commander" and reason == "no_bid":
            taker = lot.bidders[0]
            effects.append(LotUnsold(lot.lot_no, lot.kind, refs, (), self.turn, "free_commander", reason))
            self.owner[lot.cards[0]] = taker
            return effects + self._award_commander(taker, lot.cards[0], 0)
        if lot.kind == "from_block":
            cards = list(lot.cards)
            self.rng.shuffle(cards)
            self.block.extend(cards)
            destination = "bottom_random"
        else:
            self.block.extend(lot.cards)
            destination = "bottom"
        effects.append(LotUnsold(lot.lot_no, lot.kind, refs, tuple(lot.bids), self.turn, destination, reason))
        if lot.kind in ("auction_step", "follow_up") and reason == "no_bid":
            self.unsold_in_a_row += 1
            living = self.living()
            if living and all(p in self.stop_votes for p in living):
                self.phase = "main"
                effects.append(AuctionStepEnded(self.turn, "players_stopped"))
            elif self.unsold_in_a_row >= len(self.block):
                self.phase = "main"
                effects.append(AuctionStepEnded(self.turn, "block_went_round"))
            else:
                effects += self._continue_auction_step(lot.kind)
        return effects

    def _stop_auctioning(self, action: StopAuctioning) -> list[Effect]:
        """A vote to end the auction step ("until each player agrees to stop auctioning cards", 90X.4b). It
        counts while a card of the auction step is up with no bid; a lot put up otherwise (a card effect's,
        90X.6-8, or the commander pregame's) is not part of the step and ends only by bidding."""
        player = self._require_player(action.player)
        lot = self.lot
        if lot is not None and lot.kind not in ("auction_step", "follow_up"):
            raise RulesError(
                "not_auction_step_lot",
                lot_no=lot.lot_no,
                kind=lot.kind,
                seller=lot.seller,
                first_bidder=lot.bidders[0],
            )
        if lot is None or self.phase != "auction":
            choosing = [p for p in self.players if self.pending[p]]
            if self.phase == "auction" and self.follow_up_due and choosing:
                raise RulesError("choice_pending", player=choosing[0])
            raise RulesError("no_auction_step", phase=self.phase)
        if lot.bids:
            raise RulesError("bids_placed", lot_no=lot.lot_no)
        if player in self.stop_votes:
            raise RulesError("already_voted", player=player)
        self.stop_votes.append(player)
        waiting = tuple(p for p in self.living() if p not in self.stop_votes)
        effects: list[Effect] = [StopVoted(player, waiting)]
        if not waiting:
            effects += self._close_unsold(lot, reason="players_stopped")
            self.phase = "main"
            effects.append(AuctionStepEnded(self.turn, "players_stopped"))
        return effects

    # -- purchase choice ---------------------------------------------------------------
    def _choose(self, action: Cast | Keep) -> list[Effect]:
        player = self._require_player(action.player)
        pending = self.pending[player]
        if not pending:
            raise RulesError("no_pending_choice", player=player)
        refs = tuple(action.cards) if isinstance(action.cards, (tuple, list)) else ()
        if action.card is not None:
            refs = (action.card, *refs)
        chosen: list[int] = []
        if not refs:
            if len(pending) > 1:
                raise RulesError("ambiguous_card", card=None, pending=[self.ref(i).name for i in pending])
            chosen.append(pending[0])
        for ref in refs:  # every name is checked before any card moves: all or none
            chosen.append(self._resolve_held(player, ref, ("pending",), taken=chosen)[0])
        effects: list[Effect] = []
        for index in chosen:
            pending.remove(index)
            price = self.paid.pop(index, 0)
            if isinstance(action, Cast):
                self.played[player].append(index)
                effects.append(CardCast(player, self.ref(index), source="auction"))
                if price >= HIGH_BID_GOLD and self._named(index, HIGH_BID_CARDS):
                    effects.append(HighBidCast(player, self.ref(index), price))
            else:
                self.hand[player].append(index)
                effects.append(CardKept(player, self.ref(index), automatic=False))
        if self.follow_up_due and not self._choices_outstanding():
            effects += self._continue_follow_up()
        return effects

    # -- library effects on the block --------------------------------------------------
    def _actor_target(self, action: Action, target: object) -> PlayerId:
        """The player an effect acts on: a player may only act on themselves; the referee must name one."""
        if action.player is None:
            return self._require_player(target)
        actor = self._require_player(action.player)
        if target is not None and target != actor:
            raise RulesError("not_permitted", player=actor, target=target)
        return actor

    def _draw(self, action: Draw) -> list[Effect]:
        target = self._actor_target(action, action.target)
        count = self._require_count(action.count)
        self._require_turn()
        self._require_no_lot()
        drawn = self.block[:count]
        del self.block[:count]
        self.hand[target].extend(drawn)
        for index in drawn:
            self.owner[index] = target
        effects: list[Effect] = [CardsDrawn(target, tuple(self.ref(i) for i in drawn), count)]
        if len(drawn) < count:
            effects += self._block_ran_out(target, "drew_from_empty_block")
        return effects

    def _look_at_top(self, action: LookAtTop) -> list[Effect]:
        player = self._require_player(action.player)
        count = self._require_count(action.count)
        self._require_turn()
        self._require_no_lot()
        seen = tuple(self.block[:count])
        self.looks[player] = seen
        return [TopCardsShown(player, tuple(self.ref(i) for i in seen))]

    def _reorder(self, action: Reorder) -> list[Effect]:
        player = self._require_player(action.player)
        self._require_turn()
        self._require_no_lot()
        seen = self.looks.get(player)
        if seen is None:
            raise RulesError("nothing_to_reorder", player=player)
        if tuple(self.block[: len(seen)]) != seen:
            raise RulesError("look_stale", player=player)
        top, bottom = action.top, action.bottom
        if (
            not isinstance(top, tuple)
            or not isinstance(bottom, tuple)
            or not all(_is_int(i) for i in top + bottom)
        ):
            raise RulesError("malformed", field="top/bottom")
        if sorted(top + bottom) != sorted(seen):
            raise RulesError("not_a_permutation", expected=sorted(seen), got=list(top + bottom))
        del self.looks[player]
        self.block[: len(seen)] = list(top)
        self.block.extend(bottom)
        return [BlockReordered(player, tuple(self.ref(i) for i in top), tuple(self.ref(i) for i in bottom))]

    def _return_to_block(self, action: ReturnToBlock) -> list[Effect]:
        actor = None if action.player is None else self._require_player(action.player)
        if action.position not in ("top", "bottom"):
            raise RulesError("bad_position", position=action.position)
        self._require_turn()
        self._require_no_lot()
        index, zone_name, holder = self._resolve_held(actor, action.card, ("hand", "played"))
        {"hand": self.hand, "played": self.played}[zone_name][holder].remove(index)
        previous = self.owner.pop(index, None)
        if action.position == "top":
            self.block.insert(0, index)
        else:
            self.block.append(index)
        return [CardReturned(actor, self.ref(index), action.position, zone_name, previous, action.face_down)]

    def _shuffle(self, action: Shuffle) -> list[Effect]:
        if action.player is not None:
            self._require_player(action.player)
        self._require_turn()
        self._require_no_lot()
        self.rng.shuffle(self.block)
        return [BlockShuffled(action.player, len(self.block))]

    # -- gold --------------------------------------------------------------------------
    def _buy_mana(self, action: BuyMana) -> list[Effect]:
        player = self._require_player(action.player)
        if not isinstance(action.color, str) or action.color.upper() not in MANA_COLORS:
            raise RulesError("bad_color", color=action.color, colors=list(MANA_COLORS))
        count = self._require_count(action.count)
        if count > self.purse[player]:
            raise RulesError("not_enough_gold", needed=count, gold=self.purse[player])
        self._require_uncommitted(player, count)
        change = self._change_gold(player, -count, "mana")
        self.ledger["mana"] += count
        return [change, ManaBought(player, action.color.upper(), count)]

    def _adjust_gold(self, action: AdjustGold) -> list[Effect]:
        delta = action.delta
        if not _is_int(delta) or delta == 0:
            raise RulesError("malformed", field="delta", value=delta)
        target = self._actor_target(action, action.target)
        if action.player is not None and delta > 0 and not self.config.players_may_gain_gold:
            raise RulesError("not_permitted", player=action.player, delta=delta)
        payment = action.player is not None and delta < 0  # a player paying with their own gold
        return self._apply_gold_delta(target, delta, self._reason(action.reason, "adjusted"), payment=payment)

    def _lose_gold(self, action: LoseGold) -> list[Effect]:
        amount = self._require_count(action.amount)
        if action.player is None:
            target = self._require_player(action.target)
        else:
            actor = self._require_player(action.player)
            target = self._require_player(action.target if action.target is not None else actor)
            if target != actor and not self.config.players_may_drain_others:
                raise RulesError("not_permitted", player=actor, target=target)
        return self._apply_gold_delta(target, -amount, self._reason(action.reason, "lost"), payment=False)

    def _apply_gold_delta(self, target: PlayerId, delta: int, reason: str, *, payment: bool) -> list[Effect]:
        """Change ``target``'s gold. A payment may not touch gold standing as the high bid; a loss (90X.5d)
        always applies, and if the high bidder can no longer cover their bid the lot's bidding starts over."""
        if payment:
            self._require_uncommitted(target, min(-delta, self.purse[target]))
        change = self._change_gold(target, delta, reason)
        moved = change.new - change.old
        if moved >= 0:
            self.ledger["gained"] += moved
        else:
            self.ledger["lost"] += -moved
        effects: list[Effect] = [change]
        lot = self.lot
        if lot is not None and lot.high_bidder == target and self.purse[target] < lot.high_bid:
            effects += self._restart_bidding(lot, target)
        return effects

    def _restart_bidding(self, lot: _Lot, player: PlayerId, *, reason: str = "gold_lost") -> list[Effect]:
        """The high bidder ``player`` can no longer buy the lot (their standing bid is more gold than they now
        hold, or they left the game): every bid on it is voided and bidding starts over from the lot's first
        bidder (the cards stay up)."""
        voided = tuple(lot.bids)
        lot.bids, lot.high_bid, lot.high_bidder = [], 0, None
        lot.to_act, lot.passes_in_row, lot.acted = 0, 0, 0
        self.stop_votes = []
        return [
            BiddingRestarted(lot.lot_no, player, voided, reason),
            NextToBid(lot.lot_no, lot.whose_bid(), 0, None),
        ]

    # -- auctions started by card effects ------------------------------------------------
    def _auction_own_cards(self, action: AuctionOwnCards) -> list[Effect]:
        seller = self._require_player(action.player)
        if not self.config.allow_own_card_auctions:
            raise RulesError("feature_disabled", feature="allow_own_card_auctions")
        self._require_turn()
        self._require_no_lot()
        if not isinstance(action.cards, tuple) or not action.cards:
            raise RulesError("malformed", field="cards")
        chosen: list[tuple[int, str]] = []
        zones = ("hand", "played", "command") if self.config.commander else ("hand", "played")
        for ref in action.cards:  # a name said twice is two copies (the seller must hold both)
            if isinstance(ref, int) and any(ref == c for c, _ in chosen):
                raise RulesError("duplicate_card", card=self.ref(ref).name)
            index, zone_name, _ = self._resolve_held(seller, ref, zones, taken=[c for c, _ in chosen])
            chosen.append((index, zone_name))
        if len(chosen) > 1 and any(zone_name == "command" for _, zone_name in chosen):
            raise RulesError("commander_alone")
        if len(self.living()) < 2:
            raise RulesError("not_eligible", player=seller)
        for index, zone_name in chosen:
            {"hand": self.hand, "played": self.played, "command": self.command}[zone_name][seller].remove(
                index
            )
        after = self.players[(self.players.index(seller) + 1) % len(self.players)]
        while after in self.eliminated:
            after = self.players[(self.players.index(after) + 1) % len(self.players)]
        effects = self._open_lot("owned", [c for c, _ in chosen], first=after, seller=seller)
        assert self.lot is not None
        self.lot.origins = dict(chosen)
        return effects

    def _auction_from_block(self, action: AuctionFromBlock) -> list[Effect]:
        actor = None if action.player is None else self._require_player(action.player)
        if not self.config.allow_block_lots:
            raise RulesError("feature_disabled", feature="allow_block_lots")
        count = self._require_count(action.count)
        self._require_turn()
        self._require_no_lot()
        if not self.block:
            return self._block_ran_out(self.active if actor is None else actor, "block_empty_at_auction")
        cards = self.block[:count]
        del self.block[:count]
        assert self.active is not None
        first = self.active if self.active not in self.eliminated else self.living()[0]
        return self._open_lot("from_block", cards, first=first, seller=None)

    # -- the proposed auction cards that need the referee ------------------------------------
    def _mechanic_card(self, player: PlayerId, ref: object, names: tuple[str, ...]) -> tuple[int, str]:
        """A card of ``names`` that ``player`` holds (in hand, or cast), by ``ref`` or the first one; the
        engine does not follow cards cast from hand, so both zones count."""
        if ref is None:
            held = [
                (index, zone_name)
                for zone_name, zone in (("hand", self.hand), ("played", self.played))
                for index in zone[player]
                if self._named(index, names)
            ]
            if not held:
                raise RulesError("missing_card", card=names[0], player=player)
            return held[0]
        index, zone_name, _ = self._resolve_held(player, ref, ("hand", "played"))
        if not self._named(index, names):
            raise RulesError("wrong_card", card=self.ref(index).name, needed=names[0])
        return index, zone_name

    def _use_gilded_idol(self, action: UseGildedIdol) -> list[Effect]:
        """Gilded Idol: as a card is revealed for auction, before its holder bids on it (others may have), the
        holder exiles it and buys the lot for 0 gold."""
        player = self._require_player(action.player)
        lot = self.lot
        if lot is None:
            raise RulesError("no_lot")
        if lot.kind not in BLOCK_LOT_KINDS:  # a player's own cards (!sell), a commander: not revealed
            raise RulesError("not_revealed_lot", lot_no=lot.lot_no, kind=lot.kind)
        if player not in lot.bidders:
            raise RulesError("not_eligible", player=player, lot_no=lot.lot_no)
        if any(bid.player == player for bid in lot.bids):  # "before you bid on it": others' bids do not count
            raise RulesError("already_bid", lot_no=lot.lot_no)
        index, zone_name = self._mechanic_card(player, action.card, (GILDED_IDOL,))
        {"hand": self.hand, "played": self.played}[zone_name][player].remove(index)
        self.exiled[player].append(index)
        lot.high_bidder, lot.high_bid = player, 0
        return [IdolExiled(player, self.ref(index), lot.lot_no), *self._close_lot(lot)]

    def _stake_claim(self, action: StakeClaim) -> list[Effect]:
        """Stake your Claim: cast before the next card is revealed; it returns to hand when its caster next
        wins an auction this turn (``_purchase_triggers``)."""
        player = self._require_player(action.player)
        self._require_turn()
        if self.lot is not None:
            raise RulesError("auction_in_progress", lot_no=self.lot.lot_no)
        index, zone_name = self._mechanic_card(player, action.card, STAKE_YOUR_CLAIM_CARDS)
        if index in self.claims[player]:
            raise RulesError("already_claimed", card=self.ref(index).name)
        if zone_name == "hand":
            self.hand[player].remove(index)
            self.played[player].append(index)
        self.claims[player].append(index)
        return [ClaimStaked(player, self.ref(index))]

    # -- life, commanders, game end ------------------------------------------------------
    def _report_life(self, action: ReportLife) -> list[Effect]:
        self._require_referee(action)
        target = self._require_player(action.target)
        if not _is_int(action.life):
            raise RulesError("malformed", field="life", value=action.life)
        old = self.life[target]
        self.life[target] = action.life
        return [LifeChanged(target, old, action.life)]

    def _open_commander_lot(self) -> list[Effect]:
        """90Y.4a: reveal until a legendary creature, then bid among players without a commander."""
        revealed: list[int] = []
        found: int | None = None
        while self.block:
            index = self.block.pop(0)
            if self.config.cards[index].is_legendary_creature:
                found = index
                break
            revealed.append(index)
        effects: list[Effect] = []
        self.block.extend(revealed)
        if revealed:
            effects.append(CardsRevealed(tuple(self.ref(i) for i in revealed), "bottom"))
        assert found is not None, "validated: enough legendary creatures"
        starter = next(p for p in self.living() if p not in self.commanders)
        return effects + self._open_lot("commander", [found], first=starter, seller=None)

    def _award_commander(self, player: PlayerId, index: int, price: int) -> list[Effect]:
        self.commanders[player] = index
        self.command[player].append(index)
        effects: list[Effect] = [CommanderChosen(player, self.ref(index), price)]
        if all(p in self.commanders for p in self.living()):
            effects += self._finish_pregame()
        else:
            effects += self._open_commander_lot()
        return effects

    def _finish_pregame(self) -> list[Effect]:
        effects: list[Effect] = [PregameFinished(tuple((p, self.ref(c)) for p, c in self.commanders.items()))]
        for player in self.players:
            old = self.life[player]
            self.life[player] = self.config.commander_life
            effects.append(LifeChanged(player, old, self.config.commander_life))
        self.phase = "between_turns"
        return effects

    def _require_commander(self, player: PlayerId) -> int:
        if not self.config.commander:
            raise RulesError("not_commander_game")
        if player not in self.commanders:
            raise RulesError("not_a_commander", player=player)
        return self.commanders[player]

    def _cast_commander(self, action: CastCommander) -> list[Effect]:
        player = self._require_player(action.player)
        index = self._require_commander(player)
        self._require_turn()
        if index not in self.command[player]:
            raise RulesError("not_in_command_zone", card=self.ref(index).name)
        self.command[player].remove(index)
        self.played[player].append(index)
        return [CardCast(player, self.ref(index), source="command")]

    def _commander_home(self, action: CommanderToCommandZone) -> list[Effect]:
        player = self._require_player(action.player)
        index = self._require_commander(player)
        for zone_name, zone in (("hand", self.hand), ("played", self.played)):
            if index in zone[player]:
                zone[player].remove(index)
                self.command[player].append(index)
                return [CommanderMoved(player, self.ref(index), zone_name, "command")]
        raise RulesError("missing_card", card=self.ref(index).name, player=player)

    def _commander_damage(self, action: CommanderDamage) -> list[Effect]:
        self._require_referee(action)
        if not self.config.commander:
            raise RulesError("not_commander_game")
        target = self._require_player(action.target)
        if not _is_int(action.commander) or action.commander not in self.commanders.values():
            raise RulesError("not_a_commander", card=action.commander)
        amount = self._require_count(action.amount)
        total = self.commander_damage[target].get(action.commander, 0) + amount
        self.commander_damage[target][action.commander] = total
        effects: list[Effect] = [CommanderDamageTaken(target, self.ref(action.commander), amount, total)]
        if total >= self.config.commander_damage_limit:
            effects += self._lose((target,), "commander_damage")
        return effects

    def _concede(self, action: Concede) -> list[Effect]:
        player = self._require_player(action.player)
        return self._lose((player,), "conceded", simultaneous=False)

    def _declare_loss(self, action: DeclareLoss) -> list[Effect]:
        self._require_referee(action)
        targets = self._require_targets(action.targets)
        return self._lose(targets, self._reason(action.reason, "declared"))

    def _declare_win(self, action: DeclareWin) -> list[Effect]:
        self._require_referee(action)
        targets = self._require_targets(action.targets)
        winners = resolve_simultaneous(targets, "win", self.purse)
        return self._game_over(winners, self._reason(action.reason, "declared"))

    def _require_targets(self, targets: object) -> tuple[PlayerId, ...]:
        if not isinstance(targets, tuple) or not targets:
            raise RulesError("malformed", field="targets")
        return tuple(self._require_player(p) for p in dict.fromkeys(targets))

    def _lose(
        self, candidates: tuple[PlayerId, ...], reason: str, *, simultaneous: bool = True
    ) -> list[Effect]:
        """Players lose (90X.11 for several at once); the game ends when at most one is left."""
        losers = resolve_simultaneous(candidates, "lose", self.purse) if simultaneous else candidates
        effects: list[Effect] = []
        for player in losers:
            self.eliminated.append(player)
            effects.append(PlayerLost(player, reason))
        living = self.living()
        if len(living) <= 1:
            return effects + self._game_over(living, reason, ended_by=losers)
        for player in losers:  # a player who left keeps nothing pending (it would block a follow-up)
            for index in list(self.pending[player]):
                self.pending[player].remove(index)
                self.paid.pop(index, None)
                self.hand[player].append(index)
                effects.append(CardKept(player, self.ref(index), automatic=True))
        for player in losers:
            lot = self.lot
            if lot is not None and (player in lot.bidders or player == lot.seller):
                effects += self._drop_from_lot(lot, player)
        lot = self.lot
        if lot is None and self.follow_up_due and not self._choices_outstanding():
            effects += self._continue_follow_up()
        elif (
            lot is not None
            and lot.kind in ("auction_step", "follow_up")
            and not lot.bids
            and self.stop_votes
            and all(p in self.stop_votes for p in self.living())
        ):  # everyone still in the game had voted to stop
            effects += self._close_unsold(lot, reason="players_stopped")
            self.phase = "main"
            effects.append(AuctionStepEnded(self.turn, "players_stopped"))
        return effects

    def _drop_from_lot(self, lot: _Lot, player: PlayerId) -> list[Effect]:
        """``player`` left the game during ``lot`` (90X.2 / 800.4a). A seller takes their unsold cards with
        them. Otherwise the lot goes on among the players still in it: a standing bid of another player
        stands and, if it was theirs to bid, the next player bids; if everyone left has passed, the lot
        closes as usual. Only a high bidder's leaving voids the bids: bidding starts over among the rest
        (as when the high bidder can no longer pay, 90X.5d). A commander lot with nobody left to bid goes
        back on top of the block."""
        if player == lot.seller:
            return self._close_unsold(lot, reason="player_left")
        old = lot.bidders
        count = len(old)
        passed = {old[(lot.to_act - back) % count] for back in range(1, lot.passes_in_row + 1)}
        following = old[lot.to_act] if old[lot.to_act] != player else old[(lot.to_act + 1) % count]
        position = old.index(player)
        lot.bidders = tuple(p for p in old if p != player)
        if not lot.bidders:
            return self._put_back_on_top(lot)
        if lot.high_bidder == player:
            return self._restart_bidding(lot, player, reason="player_left")
        if player in passed:
            lot.passes_in_row -= 1
        if self.config.one_round_bidding and position < lot.to_act:
            lot.acted -= 1  # the boards variant: their one turn no longer counts
        lot.to_act = lot.bidders.index(following)
        left = BidderLeft(lot.lot_no, player, lot.high_bid, lot.high_bidder, None)
        if self._bidding_over(lot):
            return [left, *self._close_lot(lot)]
        return [dataclasses.replace(left, to_bid=lot.whose_bid())]

    def _put_back_on_top(self, lot: _Lot) -> list[Effect]:
        """The last player bidding on a commander lot left: the card goes back on top of the block and the
        pregame goes on (or ends, every player left having a commander)."""
        refs = tuple(self.ref(i) for i in lot.cards)
        self.lot = None
        self.block[:0] = lot.cards
        effects: list[Effect] = [
            LotUnsold(lot.lot_no, lot.kind, refs, tuple(lot.bids), self.turn, "top", "player_left")
        ]
        if lot.kind != "commander":  # only a commander lot's bidders can all be gone while players remain
            return effects
        if all(p in self.commanders for p in self.living()):
            return effects + self._finish_pregame()
        return effects + self._open_commander_lot()

    def _game_over(
        self, winners: tuple[PlayerId, ...], reason: str, *, ended_by: tuple[PlayerId, ...] = ()
    ) -> list[Effect]:
        """The game ends with ``winners``; ``ended_by``: the players whose loss (for ``reason``) ended it."""
        self.winners = tuple(winners)
        self.end_reason = reason
        self.ended_by = tuple(ended_by)
        self.phase = "over"
        losers = tuple(p for p in self.players if p not in winners)
        for player in losers:
            if player not in self.eliminated:
                self.eliminated.append(player)
        return [GameOver(self.winners, losers, reason)]

    def _block_ran_out(self, responsible: PlayerId | None, reason: str) -> list[Effect]:
        """90X.3f and the forum ruling: the configured rule for an empty block."""
        rule = self.config.empty_block_rule
        if rule == "draw":
            return self._game_over((), f"{reason}:draw")
        if rule == "higher_life_wins":
            living = self.living()
            best = max(self.life[p] for p in living)
            leaders = tuple(p for p in living if self.life[p] == best)
            return self._game_over(resolve_simultaneous(leaders, "win", self.purse), f"{reason}:higher_life")
        loser = responsible if responsible is not None else self.active
        assert loser is not None
        return self._lose((loser,), reason, simultaneous=False)

    _HANDLERS: ClassVar[dict[type[Action], Any]] = {
        StartPregame: _start_pregame,
        BeginTurn: _begin_turn,
        StartAuctionStep: _start_auction_step,
        EndTurn: _end_turn,
        Bid: _bid,
        Pass: _pass,
        StopAuctioning: _stop_auctioning,
        Cast: _choose,
        Keep: _choose,
        Draw: _draw,
        LookAtTop: _look_at_top,
        Reorder: _reorder,
        ReturnToBlock: _return_to_block,
        Shuffle: _shuffle,
        BuyMana: _buy_mana,
        AdjustGold: _adjust_gold,
        LoseGold: _lose_gold,
        AuctionOwnCards: _auction_own_cards,
        AuctionFromBlock: _auction_from_block,
        UseGildedIdol: _use_gilded_idol,
        StakeClaim: _stake_claim,
        ReportLife: _report_life,
        CommanderDamage: _commander_damage,
        CastCommander: _cast_commander,
        CommanderToCommandZone: _commander_home,
        Concede: _concede,
        DeclareLoss: _declare_loss,
        DeclareWin: _declare_win,
    }
