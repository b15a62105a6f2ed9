"""The AutoBattler cube: draft from a five-card shop, play short mini-games, the loser takes poison.

RULE INDEX (seed 003, in our words -> where it is implemented)
---------------------------------------------------------------
- Energy starts at 3 (it is the starting hand size) and rises by 1 every three mini-games
  -> ``AutoBattlerConfig.starting_energy`` / ``games_per_energy``, :meth:`AutoBattlerEngine._finish_minigame`.
- Setup: six random cards from the cube to each player (the referee's :class:`Start`)
  -> :meth:`AutoBattlerEngine._start`.
- Start of each draft phase: one treasure and one random card each; from 6 energy two treasures and no card
  (the pool stays at 15 cards, as the seed notes; ``random_card_at_high_energy`` keeps the card)
  -> :meth:`AutoBattlerEngine._start_draft`.
- Shop: five cards from the cube per player; drafting swaps a shop card with a pool card -> :class:`Swap`;
  a treasure buys a new shop, the old one is discarded -> :class:`Roll`; a player ends with
  :class:`EndDraft`; when all have, the shops (always five cards) go back to the cube and the discards are
  shuffled in -> :meth:`AutoBattlerEngine._end_draft`.
- Deckbuilding: a starting hand of exactly ``energy`` pool cards, an empty library, three basic lands and
  up to five treasures on the battlefield; excess treasures are discarded
  -> :meth:`AutoBattlerEngine.check_deck`, :meth:`AutoBattlerEngine._end_draft`.
- Mini-games: 10 life, an empty library does not lose (``starting_life``, ``empty_library_loses`` are for the
  bot to set up the game); the player with more poison chooses play or draw, a tie or the final two are
  decided at random -> :meth:`AutoBattlerEngine._setup_matches` (:class:`MatchSetup`).
- Loser's poison by energy: 3:1, 4:1, 5:2, 6:3, 7+:5, or a flat amount (``flat_poison``, the seed's 2)
  -> :meth:`AutoBattlerEngine.poison_for_loss`; a draw is a loss for both
  -> :meth:`AutoBattlerEngine._result`. Poison is for the living: a player already knocked out (the Ghost,
  playing on) takes none for a loss (``dead_take_no_poison``, on in every new league; off only in leagues
  journaled before it, which replay as they were played).
- Concessions are not allowed: a result by concession is refused (``concession_not_allowed``, league core).
- After a game each player keeps at most five treasures -> :class:`ReportTreasures` (the bot counts them
  when the game ends and reports them before, or with, that game's result: the next draft phase starts as
  soon as the last result of the mini-game is in; unreported players keep what they placed).
- Pairing: first mini-game uniformly random; later the D20: 1 or 20 replays the roller's last opponent, even
  and odd pick the other two (10% / 45% / 45%) -> :func:`d20_pairings`.
- Elimination at 10 poison; the first player to die is the Ghost and keeps playing until a second player
  dies; then only the final two play -> :meth:`AutoBattlerEngine._finish_minigame`,
  :meth:`AutoBattlerEngine.active`. A member who left the league (the referee's :class:`LeaveLeague`: their
  games are forfeits) cannot "continue to play as normal": dying first they are not named the Ghost (the
  group has none), and a Ghost who leaves plays no more -> :meth:`AutoBattlerEngine.is_ghost`; of the three
  living players of such a group one sits each mini-game out, at random (a bye: no poison)
  -> :meth:`AutoBattlerEngine._start_minigame`.
- Final places (the write-up names only the last player standing; ours): the champion, the living by poison,
  then the dead, last knocked out first; players knocked out in the same mini-game by their poison then,
  fewer first (poison is how the write-up measures who fares worse: the most chooses play or draw); the
  same poison too: tied, one shared place -> :meth:`AutoBattlerEngine.standings` (``knocked_out``, derived
  as the actions replay: old journals replay unchanged).
- The Ghost cannot decide the winner: if deaths at once would leave fewer than two, whoever lost to the Ghost
  goes to 9 poison and plays the final -> :meth:`AutoBattlerEngine._finish_minigame`.
- A draw that would eliminate two live players is replayed (no drafting in between) until there is a
  winner -> :meth:`AutoBattlerEngine._result` (:class:`ReplayRequired`); if they cannot, the referee's
  :class:`AbandonReplay` puts both at 9 poison.
- 4 or 8 players; 8 are two isolated groups of four sharing the cube, whose winners play a final
  -> ``AutoBattlerConfig.group_size``, :meth:`AutoBattlerEngine._after_groups`; or (option
  ``reseat_on_energy``) players are re-seated whenever hand sizes increase: while both tables are
  undecided, the living change tables at random, each table keeping its dead (and Ghost) and its number of
  living players (the D20 pairs at random when the roller's last opponent now sits elsewhere)
  -> :meth:`AutoBattlerEngine._reseat`.
- Options: interest (``interest_threshold``: X+ treasures after a mini-game -> +1), streaks
  (``streak_length``: a 3+ win streak -> +1), flat poison (``flat_poison``), carousel: every three
  mini-games 3*N face-up cards are snake-drafted, most poison first -> :class:`CarouselPick`,
  :meth:`AutoBattlerEngine._open_carousel`. The carousel must not change pool sizes; the seed's two ways:
  ``carousel_put_back`` (each pick puts a pool card back into the carousel, ``_carousel_put_back``) or, by
  default, the draft phase's random card is withheld and a carousel runs only once three have been
  withheld since the last one (``random_cards_withheld``), so pools still end at the static 15.
- Fun Ways to Spend Money: pay 6 treasures (``permanent_basic_cost``) during the draft for one more basic
  land in every later mini-game -> :class:`BuyPermanentBasic`, :meth:`AutoBattlerEngine.check_deck`.
- Changing Basic Lands: a treasure (``basics_change_fee``) to play other basics than in one's last mini-game;
  the deck check leaves that treasure off the battlefield -> :meth:`AutoBattlerEngine.basics_fee`,
  :class:`PlayWithBasics` (the referee, as the mini-game starts; once per mini-game).
- Items (option ``item_drafting``): an Aura or Equipment drafted from the shop (a swap, so the shop still
  returns five cards) for treasures equal to its mana value becomes an item in the command zone, out of the
  pool, for every later mini-game; the players attach it as its text says ("when a permanent enters the
  battlefield under your control, you may put this card onto the battlefield and attach it")
  -> :class:`DraftItem`, :meth:`AutoBattlerEngine.command_zone`, :meth:`AutoBattlerEngine.check_deck`.
- Upgrades: not implemented; the write-up leaves both the condition and the upgraded card open ("We are still
  unsure what an 'upgraded' version would look like"), and its only concrete trigger (three copies of a card)
  never fires in a singleton cube.
- Augments (option ``augment_packs``; the curated list ``augment_cards``, each card's rarity its power
  level; the bot's default: :data:`DEFAULT_AUGMENTS`): at the beginning of the game a D6 picks the rarity,
  1-3 uncommon, 4-5 rare, 6 mythic -> :func:`augment_rarity_for_roll`,
  :meth:`AutoBattlerEngine._roll_augment_rarity`; a player (still in the game) who gets more than 5 poison is
  dealt a pack of three augments of that rarity when the mini-game ends (once: poison passes 5 only once;
  fewer when the rarity runs out) -> :meth:`AutoBattlerEngine._deal_augment_packs`; they keep one, the rest
  are discarded for good -> :class:`ChooseAugment` (before they finish drafting: ``augment_pending``); a
  kept augment starts every mini-game in the command zone, not counted in the hand
  -> :meth:`AutoBattlerEngine.command_zone`, :meth:`AutoBattlerEngine.check_deck`.
- A member away or out of time (league core :class:`StandIn`): the referee ends their draft (keeping their
  pool as it is, after keeping an augment of their pack at random) or makes their carousel pick at random
  (putting back a pool card at random where the league puts back) -> :meth:`AutoBattlerEngine.waiting_for`,
  :meth:`AutoBattlerEngine._stand_in`.

Error codes: the league core's plus ``wrong_phase``, ``not_active``, ``already_done``, ``no_treasure``,
``not_in_shop``, ``not_your_pick``, ``not_in_carousel``, ``put_back_needed``, ``no_put_back``,
``not_in_pool``, ``feature_disabled``, ``not_enough_treasures``, ``cube_empty``, ``already_declared``,
``no_replay``, ``referee_only``, ``no_augment_pack``, ``not_in_augment_pack``, ``augment_pending``,
``not_an_item``.
A card named as typed (league core :func:`~cockatrice_ext.formats.league.resolve_card`) and not found:
``not_in_shop``, ``not_in_carousel``, ``not_in_pool``, ``not_in_augment_pack`` carry ``card`` and
``candidates`` (two or more different cards matched) or ``closest`` (none did), as ``card_not_found`` does.
Invariants: every card is in exactly one place (a pool, a shop, items, the carousel, the draft discard, the
cube), every augment in one (the augment deck, a pack, a player's augments, the augment discard, unused: of
another rarity) -> :meth:`AutoBattlerEngine.locations`, :meth:`AutoBattlerEngine.augment_locations`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cockatrice_ext.cards.model import BASIC_LAND_NAMES, CardFacts
from cockatrice_ext.formats.base import Action, Effect, Engine, RulesError, register
from cockatrice_ext.formats.league import (
    CardRef,
    DeckProblem,
    League,
    ReportResult,
    StandIn,
    Start,
    StoodIn,
    card_names,
    deck_card_name,
    require_referee,
    resolve_card,
    stand_in_target,
)


def _land_key(lands: Sequence[str]) -> tuple[str, ...]:
    """Basic lands compared as a multiset, whatever their order and case."""
    return tuple(sorted(land.strip().casefold() for land in lands))


CAROUSEL_PICKS = 3
"""Cards each player drafts from a carousel (the seed lays out 3 * players)."""

AUGMENT_RARITIES = ("uncommon", "rare", "mythic")
AUGMENT_PACK_SIZE = 3
"""Augments in the pack a player is dealt (the seed: "a pack of 3 augments")."""
AUGMENT_AFTER_POISON = 5
"""A player who gets more than this much poison is dealt an augment pack."""


DEFAULT_AUGMENTS: tuple[tuple[str, str], ...] = (
    ("Adriana's Valor", "uncommon"),
    ("Assemble the Rank and Vile", "uncommon"),
    ("Incendiary Dissent", "uncommon"),
    ("Natural Unity", "uncommon"),
    ("Sentinel Dispatch", "uncommon"),
    ("Unexpected Potential", "uncommon"),
    ("Brago's Favor", "rare"),
    ("Echoing Boon", "rare"),
    ("Immediate Action", "rare"),
    ("Muzzio's Preparations", "rare"),
    ("Double Stroke", "mythic"),
    ("Hold the Perimeter", "mythic"),
    ("Hymn of the Wilds", "mythic"),
    ("Secrets of Paradise", "mythic"),
    ("Weight Advantage", "mythic"),
)
"""The project's curated augments (real Conspiracy cards) and their power levels, for a cube that brings
none: the cube's own exclusions applied to their rules text (reminder text aside): nothing that draws,
searches or names the library, nothing about deck sizes, the starting player or the starting hand."""


def augment_rarity_for_roll(roll: int) -> str:
    """The seed's D6: 1, 2 or 3 -> uncommon augments; 4 or 5 -> rare; 6 -> mythic."""
    return "uncommon" if roll <= 3 else "rare" if roll <= 5 else "mythic"


@dataclass(frozen=True)
class AutoBattlerConfig:
    """Options of an AutoBattler league (defaults from the seed)."""

    players: tuple[str, ...] = ()
    cards: tuple[CardFacts, ...] = ()
    starting_energy: int = 3
    games_per_energy: int = 3
    starting_cards: int = 6
    shop_size: int = 5
    treasures_per_draft: int = 1
    treasures_per_draft_high: int = 2
    high_energy: int = 6
    random_card_at_high_energy: bool = False
    max_treasures: int = 5
    basic_lands: int = 3
    basic_land_names: tuple[str, ...] = BASIC_LAND_NAMES
    poison_by_energy: tuple[tuple[int, int], ...] = ((3, 1), (4, 1), (5, 2), (6, 3), (7, 5))
    flat_poison: int = 0
    lethal_poison: int = 10
    starting_life: int = 10
    empty_library_loses: bool = False
    group_size: int = 4
    interest_threshold: int = 0
    streak_length: int = 0
    carousel: bool = False
    carousel_put_back: bool = False
    """With the carousel: each pick puts a pool card back into the carousel (the seed's first way to keep
    pool sizes); otherwise the random card of the draft phase is withheld and a carousel only hands out
    cards withheld since the last one (the seed's second way)."""
    permanent_basic_cost: int = 0
    """Treasures that buy one more basic land for every later mini-game (the seed's 6); 0: not offered."""
    basics_change_fee: int = 0
    """Treasures paid to play other basic lands than in one's last mini-game (the seed's 1); 0: free."""
    reseat_on_energy: bool = False
    """Eight players: re-seat them at new tables of four whenever the hand size grows (the seed's second way);
    otherwise the two groups stay isolated."""
    item_drafting: bool = False
    """Items: an Aura or Equipment drafted for treasures equal to its mana value goes to the command zone."""
    augment_packs: bool = False
    """Augments: a D6 at the start picks their rarity; more than 5 poison deals a pack of three."""
    augment_cards: tuple[CardFacts, ...] = ()
    """The curated augments, each card's ``rarity`` its curated power level (uncommon, rare, mythic)."""
    dead_take_no_poison: bool = False
    """A player already knocked out (the Ghost, who plays on) takes no poison for a lost or drawn mini-game:
    their poison stays what it was when they died. False only so that a league journaled before this rule (its
    config lacks the field) replays as it was played, the Ghost's losses adding poison; every new league
    turns it on (the referee's ``LeagueReferee.create``)."""


# -- actions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Swap(Action):
    """Take ``shop_card`` from the shop, putting ``pool_card`` from the pool in its place."""

    shop_card: CardRef = -1
    pool_card: CardRef = -1


@dataclass(frozen=True)
class Roll(Action):
    """Spend a treasure: discard the shop and open a new one."""


@dataclass(frozen=True)
class EndDraft(Action):
    """The player has finished drafting this phase."""


@dataclass(frozen=True)
class CarouselPick(Action):
    """Take ``card`` from the carousel on one's snake-draft turn, putting ``put_back`` from one's pool into
    the carousel when the league plays the put-back carousel (``carousel_put_back``)."""

    card: CardRef = -1
    put_back: CardRef | None = None


@dataclass(frozen=True)
class BuyPermanentBasic(Action):
    """During the draft: spend ``permanent_basic_cost`` treasures for one more basic land in every later
    mini-game."""


@dataclass(frozen=True)
class DraftItem(Action):
    """Draft ``shop_card`` (an Aura or Equipment) as an item: pay treasures equal to its mana value; it goes
    to the command zone, ``pool_card`` from the pool takes its place in the shop."""

    shop_card: CardRef = -1
    pool_card: CardRef = -1


@dataclass(frozen=True)
class ChooseAugment(Action):
    """Keep ``card`` (an index into ``augment_cards``, or its name) from one's augment pack; the others
    are discarded."""

    card: CardRef = -1


@dataclass(frozen=True)
class PlayWithBasics(Action):
    """Referee: ``target``'s mini-game starts with these basic ``lands`` (once per mini-game); the
    ``basics_change_fee`` is paid when they differ from the last mini-game's."""

    target: str = ""
    lands: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReportTreasures(Action):
    """``target`` ends the mini-game with ``count`` treasures on the battlefield (at most five are kept).

    The referee reports for anyone; a player may report only their own (``target`` "" or themselves).
    """

    target: str = ""
    count: int = 0


@dataclass(frozen=True)
class LeaveLeague(Action):
    """Referee: ``target`` left the league for good (``!leave confirm``). Their moves are the referee's and
    their games forfeits from now on, so they cannot be the Ghost: the Ghost "continues to play as normal".
    A Ghost who leaves stops playing; a player who left and is the first to die is not named the Ghost."""

    target: str = ""


@dataclass(frozen=True)
class AbandonReplay(Action):
    """Referee: the replay of ``match_of``'s drawn game cannot go on; both players go to 9 poison."""

    match_of: str = ""


# -- effects -------------------------------------------------------------------------


@dataclass(frozen=True)
class TreasuresChanged(Effect):
    player: str
    treasures: int
    delta: int
    reason: str


@dataclass(frozen=True)
class PermanentBasicBought(Effect):
    """``player`` now places ``basics`` basic lands in every mini-game."""

    player: str
    basics: int


@dataclass(frozen=True)
class BasicsPlayed(Effect):
    """``player`` plays this mini-game with ``lands`` (casefolded, sorted), paying ``fee`` treasures."""

    player: str
    lands: tuple[str, ...]
    fee: int


@dataclass(frozen=True)
class ShopOpened(Effect):
    """Private to ``player``."""

    player: str
    cards: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class Swapped(Effect):
    player: str
    taken: int
    taken_name: str
    given: int
    given_name: str


@dataclass(frozen=True)
class Rolled(Effect):
    player: str
    discarded: tuple[int, ...]
    discarded_names: tuple[str, ...]


@dataclass(frozen=True)
class PlayerDone(Effect):
    player: str


@dataclass(frozen=True)
class DraftEnded(Effect):
    returned: tuple[int, ...]
    returned_names: tuple[str, ...]


@dataclass(frozen=True)
class MatchSetup(Effect):
    """``chooser`` picks play or draw; when "" the draw was random and ``first`` plays first."""

    round: int
    players: tuple[str, ...]
    chooser: str
    first: str
    hand_size: int
    starting_life: int


@dataclass(frozen=True)
class PoisonChanged(Effect):
    player: str
    poison: int
    delta: int
    reason: str


@dataclass(frozen=True)
class ReplayRequired(Effect):
    players: tuple[str, ...]


@dataclass(frozen=True)
class PlayerEliminated(Effect):
    player: str


@dataclass(frozen=True)
class GhostNamed(Effect):
    player: str


@dataclass(frozen=True)
class MemberLeft(Effect):
    """``player`` left the league (:class:`LeaveLeague`); ``was_ghost``: they were the Ghost, who plays no
    more."""

    player: str
    was_ghost: bool = False


@dataclass(frozen=True)
class EnergyChanged(Effect):
    energy: int


@dataclass(frozen=True)
class GroupWon(Effect):
    group: int
    player: str


@dataclass(frozen=True)
class ChampionDecided(Effect):
    player: str


@dataclass(frozen=True)
class PlayersReseated(Effect):
    """The hand size grew: these are the new tables (groups) of four."""

    groups: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class CarouselOpened(Effect):
    cards: tuple[int, ...]
    names: tuple[str, ...]
    order: tuple[str, ...]


@dataclass(frozen=True)
class CarouselPicked(Effect):
    player: str
    card: int
    name: str
    put_back: int | None = None
    put_back_name: str = ""


@dataclass(frozen=True)
class ItemDrafted(Effect):
    """``player`` drafted ``taken`` as an item for ``cost`` treasures, giving ``given`` to the shop."""

    player: str
    taken: int
    taken_name: str
    given: int
    given_name: str
    cost: int


@dataclass(frozen=True)
class AugmentRarityRolled(Effect):
    """The D6 at the start of the game: augments of ``rarity`` are dealt all game."""

    roll: int
    rarity: str


@dataclass(frozen=True)
class AugmentPackDealt(Effect):
    """``player`` got more than 5 poison: their pack (private; empty when no augment is left)."""

    player: str
    cards: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class AugmentChosen(Effect):
    """``player`` keeps augment ``card``; the ``discarded`` ones leave the game."""

    player: str
    card: int
    name: str
    discarded: tuple[int, ...]


# -- pairing -------------------------------------------------------------------------


def d20_pairings(
    active: Sequence[str], last_opponent: Mapping[str, str], rng: random.Random
) -> list[tuple[str, str]]:
    """Pair an even number of players with the seed's D20 method (uniform when there is no history).

    The first player in seat order rolls; 1 or 20 replays their last opponent, an even roll the first of the
    two others in seat order, an odd roll the second; the remaining two play each other.
    """
    players = list(active)
    if len(players) == 2:
        return [(players[0], players[1])]
    roller = players[0]
    last = last_opponent.get(roller, "")
    others = [p for p in players if p not in (roller, last)]
    if len(players) != 4 or last not in players or len(others) != 2:
        rng.shuffle(players)
        return [(players[i], players[i + 1]) for i in range(0, len(players) - 1, 2)]
    roll = rng.randint(1, 20)
    if roll in (1, 20):
        opponent = last
    elif roll % 2 == 0:
        opponent = others[0]
    else:
        opponent = others[1]
    rest = [p for p in players if p not in (roller, opponent)]
    return [(roller, opponent), (rest[0], rest[1])]


@register
class AutoBattlerEngine(Engine[AutoBattlerConfig]):
    """The AutoBattler cube league (see the module's rule index)."""

    name: ClassVar[str] = "autobattler"
    config_type: ClassVar[type[Any]] = AutoBattlerConfig
    action_types: ClassVar[tuple[type[Action], ...]] = (
        Start,
        Swap,
        Roll,
        EndDraft,
        CarouselPick,
        ReportResult,
        ReportTreasures,
        AbandonReplay,
        BuyPermanentBasic,
        PlayWithBasics,
        ChooseAugment,
        DraftItem,
        StandIn,
        LeaveLeague,
    )

    def __init__(self, config: AutoBattlerConfig, *, seed: int) -> None:
        super().__init__(config, seed=seed)
        if len(config.players) not in (4, 8) or config.group_size != 4:
            raise ValueError("the AutoBattler cube is played by 4 or 8 players (groups of four)")
        self.league = League(
            config.players, config.cards, win_points=1, draw_points=0, allow_concession=False
        )
        size = config.group_size
        self.groups: list[list[str]] = [
            list(config.players[i : i + size]) for i in range(0, len(config.players), size)
        ]
        self.cube: list[int] = list(range(len(config.cards)))
        self.discard: list[int] = []
        self.shops: dict[str, list[int]] = {p: [] for p in config.players}
        self.treasures: dict[str, int] = {p: 0 for p in config.players}
        self.extra_basics: dict[str, int] = {p: 0 for p in config.players}
        self.basics: dict[str, tuple[str, ...]] = {}  # the basic lands of each player's last mini-game
        self.basics_game: dict[str, int] = {}  # the mini-game (games played before it) they were declared in
        self.poison: dict[str, int] = {p: 0 for p in config.players}
        self.streak: dict[str, int] = {p: 0 for p in config.players}
        self.last_opponent: dict[str, str] = {}
        self.energy = config.starting_energy
        self.games_played = 0
        self.phase = "setup"
        self.done: list[str] = []
        self.dead: list[str] = []  # in order of elimination
        self.knocked_out: dict[str, tuple[int, int]] = {}
        """Each eliminated player's mini-game (games played before it) and poison then, for the standings'
        tie-break (derived while the actions replay: no effect carries it)."""
        self.ghosts: dict[int, str] = {}  # group index -> its Ghost
        self.left: list[str] = []  # members who left the league for good (LeaveLeague), in order
        self.group_winners: dict[int, str] = {}
        self.champion = ""
        self.carousel: list[int] = []
        self.carousel_order: list[str] = []
        self.carousel_turn = 0
        self.random_cards_withheld = 0  # per player, since the last carousel (carousel without put-back)
        self.replays: list[tuple[str, str]] = []  # pairs that must replay a drawn game
        self.replay_round = False  # the current league round only replays drawn games
        self.lost_to_ghost: list[str] = []  # this mini-game (across replays)
        self.playing: list[str] = []  # who plays the current mini-game
        self.items: dict[str, list[int]] = {p: [] for p in config.players}  # in the command zone
        self.augment_rarity = ""  # rolled at the start (augment_packs)
        self.augment_deck: list[int] = []  # augments of that rarity not dealt yet
        self.augment_packs: dict[str, list[int]] = {}  # a pack waiting for its player's choice
        self.augments: dict[str, list[int]] = {p: [] for p in config.players}  # kept, in the command zone
        self.augment_discard: list[int] = []
        self.augment_dealt: list[str] = []  # players who were dealt their pack, in order

    # -- queries ----------------------------------------------------------------------
    def group_of(self, player: str) -> int:
        return next(i for i, g in enumerate(self.groups) if player in g)

    def active(self, group: int | None = None) -> list[str]:
        """Players who draft and play now: the living, plus the Ghost while only one player is dead (and
        still in the league)."""
        groups = range(len(self.groups)) if group is None else (group,)
        result: list[str] = []
        for g in groups:
            if g in self.group_winners:
                continue
            result += [p for p in self.groups[g] if p not in self.dead or self.is_ghost(p)]
        return result

    def is_ghost(self, player: str) -> bool:
        """Whether ``player`` is a Ghost who plays on (dead first, and still in the league)."""
        return player in self.ghosts.values() and player not in self.left

    def alive(self, group: int) -> list[str]:
        return [p for p in self.groups[group] if p not in self.dead]

    def pool(self, player: str) -> list[int]:
        return list(self.league.pools.get(player, []))

    def shop(self, player: str) -> list[int]:
        return list(self.shops.get(player, []))

    def poison_for_loss(self) -> int:
        """Poison the loser of a mini-game gets at the current energy."""
        if self.config.flat_poison > 0:
            return self.config.flat_poison
        table = sorted(self.config.poison_by_energy)
        amount = table[0][1] if table else 1
        for energy, poison in table:
            if self.energy >= energy:
                amount = poison
        return amount

    def whose_carousel_pick(self) -> str | None:
        if self.phase != "carousel":
            return None
        return self.carousel_order[self.carousel_turn]

    def waiting_for(self) -> dict[str, tuple[Any, ...]]:
        """Whose move the league waits for now (drafters not done, the carousel's picker), each with a token
        that is new for each new decision (a draft phase, a carousel turn). Games are not moves here."""
        if self.phase == "draft":
            return {p: ("done", self.games_played) for p in self.active() if p not in self.done}
        if self.phase == "carousel":
            picker = self.carousel_order[self.carousel_turn]
            return {picker: ("carousel", self.games_played, self.carousel_turn)}
        return {}

    def check_deck(
        self,
        player: str,
        hand: Sequence[str],
        library: Sequence[str] = (),
        lands: Sequence[str] = (),
        treasures: int = 0,
    ) -> list[DeckProblem]:
        """Problems of the mini-game setup ``player`` loads (empty when legal). ``hand`` may also hold the
        player's command-zone cards (their augments), which do not count as hand cards."""
        self.league.require_member(player)
        cfg = self.config
        hand = self._without_command_zone(player, hand)
        problems: list[DeckProblem] = []
        if len(hand) != self.energy:
            problems.append(DeckProblem("wrong_hand_size", "", self.energy, len(hand)))
        problems += self.league.missing_from_pool(player, hand)
        if library:
            problems.append(DeckProblem("library_not_empty", "", 0, len(library)))
        basic_lands = cfg.basic_lands + self.extra_basics[player]
        if len(lands) != basic_lands:
            problems.append(DeckProblem("wrong_land_count", "", basic_lands, len(lands)))
        basics = {n.casefold() for n in cfg.basic_land_names}
        for land in lands:
            if land.strip().casefold() not in basics:
                problems.append(DeckProblem("not_basic_land", land, 0, 0))
        fee = self.basics_fee(player, lands)
        if fee > self.treasures[player]:
            problems.append(DeckProblem("basics_fee_unpaid", "", fee, self.treasures[player]))
        allowed = min(cfg.max_treasures, max(0, self.treasures[player] - fee))
        if not 0 <= treasures <= allowed:
            problems.append(DeckProblem("too_many_treasures", "", allowed, treasures))
        return problems

    def command_zone(self, player: str) -> list[str]:
        """Names of the cards ``player`` starts every mini-game with in the command zone (items, augments)."""
        items = [self.config.cards[c].name for c in self.items.get(player, [])]
        return items + [self.config.augment_cards[c].name for c in self.augments.get(player, [])]

    def _without_command_zone(self, player: str, names: Sequence[str]) -> list[str]:
        """``names`` less one copy of each of ``player``'s command-zone cards (a name as a deck's line names a
        card: :func:`~cockatrice_ext.formats.league.deck_card_name`)."""
        rest = list(names)
        for card in self.command_zone(player):
            match = next((n for n in rest if deck_card_name(n, (card,)) is not None), None)
            if match is not None:
                rest.remove(match)
        return rest

    def basics_fee(self, player: str, lands: Sequence[str]) -> int:
        """The treasures ``player`` pays to play ``lands`` in this mini-game (``basics_change_fee`` when they
        differ from the last mini-game's basic lands, else 0)."""
        previous = self.basics.get(player)
        if previous is None or previous == _land_key(lands):
            return 0
        return self.config.basics_change_fee

    def standings(self) -> list[dict[str, Any]]:
        """The champion, then the living by poison, then the dead, last eliminated first; players knocked out
        in the same mini-game by their poison then, fewer first. ``place`` is shared by players still even
        (the same poison, living; or knocked out together with the same poison): they are tied."""
        living = sorted(
            (p for p in self.config.players if p not in self.dead),
            key=lambda p: (p != self.champion, self.poison[p], self.config.players.index(p)),
        )
        keys: dict[str, tuple[int, ...]] = {p: (0, p != self.champion, self.poison[p]) for p in living}
        dead = list(reversed(self.dead))
        if all(p in self.knocked_out for p in dead):
            knocked = {p: (1, -self.knocked_out[p][0], self.knocked_out[p][1]) for p in dead}
            keys |= knocked
            dead.sort(key=knocked.__getitem__)  # stable: equal keys stay last eliminated first
        else:  # dead set by hand, with no record of when: in elimination order, none tied
            keys |= {p: (1, n) for n, p in enumerate(dead)}
        rows: list[dict[str, Any]] = []
        for n, player in enumerate(living + dead, start=1):
            tied = bool(rows) and keys[rows[-1]["player"]] == keys[player]
            row = {"player": player, "poison": self.poison[player], "treasures": self.treasures[player]}
            rows.append(row | {"place": rows[-1]["place"] if tied else n})
        return rows

    def is_over(self) -> bool:
        return self.phase == "over"

    # -- dispatch ---------------------------------------------------------------------
    def apply(self, action: Action) -> list[Effect]:
        handlers = {
            Start: self._start,
            Swap: self._swap,
            Roll: self._roll,
            EndDraft: self._end_draft_for,
            CarouselPick: self._carousel_pick,
            ReportResult: self._result,
            ReportTreasures: self._report_treasures,
            AbandonReplay: self._abandon_replay,
            BuyPermanentBasic: self._buy_permanent_basic,
            PlayWithBasics: self._play_with_basics,
            ChooseAugment: self._choose_augment,
            DraftItem: self._draft_item,
            StandIn: self._stand_in,
            LeaveLeague: self._leave,
        }
        handler = handlers.get(type(action))
        if handler is None:
            raise RulesError("malformed", field="action")
        return handler(action)  # type: ignore[operator]

    def _require_phase(self, *phases: str) -> None:
        if self.phase not in phases:
            raise RulesError("wrong_phase", phase=self.phase)

    def _require_active(self, action: Action) -> str:
        player = self.league.require_member(action.player)
        if player not in self.active():
            raise RulesError("not_active", player=player)
        return player

    def _draw(self, count: int) -> list[int]:
        """Take up to ``count`` random cards from the cube."""
        drawn = []
        for _ in range(min(count, len(self.cube))):
            drawn.append(self.cube.pop(self.rng.randrange(len(self.cube))))
        return drawn

    def _give_treasures(self, player: str, delta: int, reason: str) -> TreasuresChanged:
        self.treasures[player] = max(0, self.treasures[player] + delta)
        return TreasuresChanged(player, self.treasures[player], delta, reason)

    # -- setup and drafting -----------------------------------------------------------
    def _start(self, action: Action) -> list[Effect]:
        require_referee(action)
        self._require_phase("setup")
        effects: list[Effect] = []
        for player in self.config.players:
            effects.append(self.league.give(player, self._draw(self.config.starting_cards), "setup"))
        if self.config.augment_packs:
            effects.append(self._roll_augment_rarity())
        return effects + self._start_draft()

    # -- augments -----------------------------------------------------------------------
    def _roll_augment_rarity(self) -> AugmentRarityRolled:
        """The D6 at the beginning of the game fixes the augments' rarity."""
        roll = self.rng.randint(1, 6)
        self.augment_rarity = augment_rarity_for_roll(roll)
        cards = self.config.augment_cards
        self.augment_deck = [i for i, card in enumerate(cards) if card.rarity.lower() == self.augment_rarity]
        return AugmentRarityRolled(roll, self.augment_rarity)

    def _deal_augment_packs(self) -> list[Effect]:
        """A pack of three to every player still in the game who got more than 5 poison (once each: poison
        only passes 5 once)."""
        effects: list[Effect] = []
        if not self.config.augment_packs:
            return effects
        for player in self.config.players:
            in_game = player not in self.dead or self.is_ghost(player)
            if in_game and self.poison[player] > AUGMENT_AFTER_POISON and player not in self.augment_dealt:
                self.augment_dealt.append(player)
                pack = []
                for _ in range(min(AUGMENT_PACK_SIZE, len(self.augment_deck))):
                    pack.append(self.augment_deck.pop(self.rng.randrange(len(self.augment_deck))))
                if pack:
                    self.augment_packs[player] = pack
                names = card_names(self.config.augment_cards, pack)
                effects.append(AugmentPackDealt(player, tuple(pack), names))
        return effects

    def _choose_augment(self, action: ChooseAugment) -> list[Effect]:
        if not self.config.augment_packs:
            raise RulesError("feature_disabled", feature="augment_packs")
        player = self.league.require_member(action.player)
        pack = self.augment_packs.get(player)
        if not pack:
            raise RulesError("no_augment_pack", player=player)
        try:
            card = resolve_card(self.config.augment_cards, action.card, pack)
        except RulesError as exc:
            if exc.code == "card_not_found":
                raise RulesError("not_in_augment_pack", **exc.details) from None
            raise
        del self.augment_packs[player]
        discarded = tuple(c for c in pack if c != card)
        self.augments[player].append(card)
        self.augment_discard.extend(discarded)
        return [AugmentChosen(player, card, self.config.augment_cards[card].name, discarded)]

    def _start_draft(self) -> list[Effect]:
        cfg = self.config
        due = cfg.carousel and self.games_played > 0 and self.games_played % cfg.games_per_energy == 0
        if not cfg.carousel_put_back:  # a carousel hands out only cards withheld since the last one
            due = due and self.random_cards_withheld >= CAROUSEL_PICKS
        if due and self.phase != "carousel_done":
            return self._open_carousel()
        self.phase = "draft"
        self.done = []
        high = self.energy >= cfg.high_energy
        random_card = not high or cfg.random_card_at_high_energy
        withhold = random_card and cfg.carousel and not cfg.carousel_put_back
        if withhold:
            self.random_cards_withheld += 1
        effects: list[Effect] = []
        for player in self.active():
            amount = cfg.treasures_per_draft_high if high else cfg.treasures_per_draft
            effects.append(self._give_treasures(player, amount, "draft"))
            if random_card and not withhold:
                effects.append(self.league.give(player, self._draw(1), "random"))
        for player in self.active():
            self.shops[player] = self._draw(cfg.shop_size)
            shop = self.shops[player]
            effects.append(ShopOpened(player, tuple(shop), card_names(cfg.cards, shop)))
        return effects

    def _open_carousel(self) -> list[Effect]:
        players = self.active()
        self.carousel = self._draw(CAROUSEL_PICKS * len(players))
        by_poison = sorted(players, key=lambda p: (-self.poison[p], self.config.players.index(p)))
        order: list[str] = []
        if not self.config.carousel_put_back:
            self.random_cards_withheld -= CAROUSEL_PICKS
        for lap in range(CAROUSEL_PICKS):
            order += by_poison if lap % 2 == 0 else list(reversed(by_poison))
        self.carousel_order = order[: len(self.carousel)]
        self.carousel_turn = 0
        self.phase = "carousel"
        if not self.carousel_order:
            self.phase = "carousel_done"
            return self._start_draft()
        names = card_names(self.config.cards, self.carousel)
        return [CarouselOpened(tuple(self.carousel), names, tuple(self.carousel_order))]

    def _carousel_pick(self, action: CarouselPick) -> list[Effect]:
        self._require_phase("carousel")
        player = self._require_active(action)
        if player != self.carousel_order[self.carousel_turn]:
            raise RulesError("not_your_pick", player=player, turn=self.carousel_order[self.carousel_turn])
        try:
            card = resolve_card(self.config.cards, action.card, self.carousel)
        except RulesError as exc:
            if exc.code == "card_not_found":
                raise RulesError("not_in_carousel", **exc.details) from None
            raise
        given = self._carousel_put_back(player, action.put_back)
        self.carousel.remove(card)
        self.league.pools[player].append(card)
        put_back_name = ""
        if given is not None:
            self.league.pools[player].remove(given)
            self.carousel.append(given)
            put_back_name = self.config.cards[given].name
        self.carousel_turn += 1
        effects: list[Effect] = [
            CarouselPicked(player, card, self.config.cards[card].name, given, put_back_name)
        ]
        if self.carousel_turn >= len(self.carousel_order):
            self.cube.extend(self.carousel)
            self.carousel = []
            self.carousel_order = []
            self.carousel_turn = 0
            self.phase = "carousel_done"
            effects += self._start_draft()
        return effects

    def _carousel_put_back(self, player: str, ref: object) -> int | None:
        """The pool card ``player`` puts back for a carousel pick: required with ``carousel_put_back``,
        refused without it."""
        if not self.config.carousel_put_back:
            if ref is not None:
                raise RulesError("no_put_back", card=ref)
            return None
        if ref is None:
            raise RulesError("put_back_needed")
        try:
            return resolve_card(self.config.cards, ref, self.league.pools[player])
        except RulesError as exc:
            if exc.code == "card_not_found":
                raise RulesError("not_in_pool", **exc.details) from None
            raise

    def _require_drafting(self, action: Action) -> str:
        self._require_phase("draft")
        player = self._require_active(action)
        if player in self.done:
            raise RulesError("already_done", player=player)
        return player

    def _shop_and_pool_cards(self, player: str, shop_ref: object, pool_ref: object) -> tuple[int, int]:
        """The shop card and the pool card a draft exchanges (checked, nothing moved yet)."""
        try:
            taken = resolve_card(self.config.cards, shop_ref, self.shops[player])
        except RulesError as exc:
            if exc.code == "card_not_found":
                raise RulesError("not_in_shop", **exc.details) from None
            raise
        return taken, resolve_card(self.config.cards, pool_ref, self.league.pools[player])

    def _swap(self, action: Swap) -> list[Effect]:
        player = self._require_drafting(action)
        taken, given = self._shop_and_pool_cards(player, action.shop_card, action.pool_card)
        shop = self.shops[player]
        shop[shop.index(taken)] = given
        pool = self.league.pools[player]
        pool[pool.index(given)] = taken
        names = self.config.cards
        return [Swapped(player, taken, names[taken].name, given, names[given].name)]

    def _draft_item(self, action: DraftItem) -> list[Effect]:
        player = self._require_drafting(action)
        if not self.config.item_drafting:
            raise RulesError("feature_disabled", feature="item_drafting")
        taken, given = self._shop_and_pool_cards(player, action.shop_card, action.pool_card)
        card = self.config.cards[taken]
        if not {"Aura", "Equipment"} & set(card.subtypes):
            raise RulesError("not_an_item", card=taken)
        cost = max(0, card.mana_value)
        if self.treasures[player] < cost:
            raise RulesError("not_enough_treasures", needed=cost, treasures=self.treasures[player])
        shop = self.shops[player]
        shop[shop.index(taken)] = given
        self.league.pools[player].remove(given)
        self.items[player].append(taken)
        effects: list[Effect] = [self._give_treasures(player, -cost, "item")] if cost else []
        names = self.config.cards
        return [*effects, ItemDrafted(player, taken, card.name, given, names[given].name, cost)]

    def _roll(self, action: Roll) -> list[Effect]:
        player = self._require_drafting(action)
        if self.treasures[player] < 1:
            raise RulesError("no_treasure", player=player)
        if not self.cube:  # the seed's roll opens a new pack: none to open, so nothing is spent
            raise RulesError("cube_empty", player=player)
        old = self.shops[player]
        self.discard.extend(old)
        effects: list[Effect] = [
            self._give_treasures(player, -1, "roll"),
            Rolled(player, tuple(old), card_names(self.config.cards, old)),
        ]
        self.shops[player] = self._draw(self.config.shop_size)
        shop = self.shops[player]
        effects.append(ShopOpened(player, tuple(shop), card_names(self.config.cards, shop)))
        return effects

    def _buy_permanent_basic(self, action: BuyPermanentBasic) -> list[Effect]:
        player = self._require_drafting(action)
        cost = self.config.permanent_basic_cost
        if cost <= 0:
            raise RulesError("feature_disabled", feature="permanent_basic_cost")
        if self.treasures[player] < cost:
            raise RulesError("not_enough_treasures", needed=cost, treasures=self.treasures[player])
        self.extra_basics[player] += 1
        return [
            self._give_treasures(player, -cost, "permanent_basic"),
            PermanentBasicBought(player, self.config.basic_lands + self.extra_basics[player]),
        ]

    def _play_with_basics(self, action: PlayWithBasics) -> list[Effect]:
        require_referee(action)
        self._require_phase("play", "final")
        target = self.league.require_member(action.target)
        if target not in self.playing:
            raise RulesError("not_active", player=target)
        if not isinstance(action.lands, tuple) or not all(isinstance(land, str) for land in action.lands):
            raise RulesError("malformed", field="lands")
        if self.basics_game.get(target) == self.games_played:
            raise RulesError("already_declared", player=target)
        fee = min(self.basics_fee(target, action.lands), self.treasures[target])
        self.basics_game[target] = self.games_played
        self.basics[target] = _land_key(action.lands)
        effects: list[Effect] = []
        if fee:
            effects.append(self._give_treasures(target, -fee, "basics_fee"))
        return [*effects, BasicsPlayed(target, self.basics[target], fee)]

    def _end_draft_for(self, action: EndDraft) -> list[Effect]:
        player = self._require_drafting(action)
        if player in self.augment_packs:
            raise RulesError("augment_pending", player=player)
        self.done.append(player)
        effects: list[Effect] = [PlayerDone(player)]
        if len(self.done) == len(self.active()):
            effects += self._end_draft()
        return effects

    def _stand_in(self, action: StandIn) -> list[Effect]:
        """The referee's move for an away or idle member: end their draft as it stands (an augment pack
        waiting first: one kept at random), or make their carousel pick at random."""
        player = stand_in_target(self.league, action)
        if player not in self.waiting_for():
            raise RulesError("not_waiting", player=player)
        if self.phase == "carousel":
            card = self.carousel[self.rng.randrange(len(self.carousel))]
            pool = self.league.pools[player]
            put_back = pool[self.rng.randrange(len(pool))] if self.config.carousel_put_back and pool else None
            pick = CarouselPick(player=player, card=card, put_back=put_back)
            return [StoodIn(player, "carousel", action.reason), *self._carousel_pick(pick)]
        effects: list[Effect] = [StoodIn(player, "done", action.reason)]
        pack = self.augment_packs.get(player)
        if pack:
            choice = ChooseAugment(player=player, card=pack[self.rng.randrange(len(pack))])
            effects += self._choose_augment(choice)
        return effects + self._end_draft_for(EndDraft(player=player))

    def _leave(self, action: LeaveLeague) -> list[Effect]:
        """``target`` left the league: never the Ghost from now on; a Ghost who leaves drafts and plays no
        more (a draft phase that waited only for them ends)."""
        require_referee(action)
        player = action.target
        if player not in self.config.players:
            raise RulesError("not_a_member", player=player)
        if player in self.left:
            return []
        was_ghost = self.is_ghost(player)
        self.left.append(player)
        effects: list[Effect] = [MemberLeft(player, was_ghost)]
        if was_ghost and self.phase == "draft":
            self.augment_packs.pop(player, None)
            if player in self.done:
                self.done.remove(player)
            if self.active() and all(p in self.done for p in self.active()):
                effects += self._end_draft()
        return effects

    def _end_draft(self) -> list[Effect]:
        returned: list[int] = []
        for player in self.config.players:
            returned += self.shops[player]
            self.shops[player] = []
        returned += self.discard
        self.discard = []
        self.cube.extend(returned)
        self.cube.sort()
        effects: list[Effect] = [DraftEnded(tuple(returned), card_names(self.config.cards, returned))]
        for player in self.active():
            excess = self.treasures[player] - self.config.max_treasures
            if excess > 0:
                effects.append(self._give_treasures(player, -excess, "excess"))
        return effects + self._start_minigame()

    # -- mini-games -------------------------------------------------------------------
    def _start_minigame(self) -> list[Effect]:
        self.phase = "play"
        self.lost_to_ghost = []
        self.replay_round = False
        pairs: list[tuple[str, ...]] = []
        for group in range(len(self.groups)):
            players = self.active(group)
            if len(players) >= 2:
                paired = d20_pairings(players, self.last_opponent, self.rng)
                pairs += paired
                seated = {p for pair in paired for p in pair}
                pairs += [(p,) for p in players if p not in seated]  # odd (no Ghost: they left): sits out
        self.playing = [p for pair in pairs if len(pair) == 2 for p in pair]
        return self._setup_matches(pairs)

    def _setup_matches(self, pairs: Sequence[tuple[str, ...]]) -> list[Effect]:
        effects = self.league.start_round(pairs)
        for pair in pairs:
            if len(pair) != 2:
                continue
            a, b = pair
            final_two = self.phase == "final" or len(self.alive(self.group_of(a))) == 2
            chooser = first = ""
            if final_two or self.poison[a] == self.poison[b]:
                first = self.rng.choice(pair)
            else:
                chooser = a if self.poison[a] > self.poison[b] else b
            effects.append(
                MatchSetup(self.league.round, pair, chooser, first, self.energy, self.config.starting_life)
            )
        return effects

    def _report_treasures(self, action: ReportTreasures) -> list[Effect]:
        self._require_phase("play")
        if not isinstance(action.count, int) or isinstance(action.count, bool) or action.count < 0:
            raise RulesError("malformed", field="count")
        if not isinstance(action.target, str):
            raise RulesError("malformed", field="target")
        if action.player is None:
            target = self.league.require_member(action.target)
        else:
            player = self.league.require_member(action.player)
            if action.target not in ("", player):
                raise RulesError("referee_only", player=player)
            target = player
        if target not in self.playing:
            raise RulesError("not_active", player=target)
        kept = min(action.count, self.config.max_treasures)
        return [self._give_treasures(target, kept - self.treasures[target], "kept")]

    def _result(self, action: ReportResult) -> list[Effect]:
        self._require_phase("play", "final")
        match, effects = self.league.report(action)
        if not match.decided:
            return effects
        a, b = match.players
        if self.phase == "final":
            if match.draw:
                effects.append(ReplayRequired(match.players))
                return effects + self.league.start_round([match.players])
            self.phase = "over"
            self.champion = match.winner
            return [*effects, ChampionDecided(match.winner)]
        self.last_opponent[a], self.last_opponent[b] = b, a
        amount = self.poison_for_loss()
        lethal = self.config.lethal_poison
        if match.draw:
            live = [p for p in match.players if p not in self.dead]
            if len(live) == 2 and all(self.poison[p] + amount >= lethal for p in live):
                self.replays.append((a, b))
                effects.append(ReplayRequired(match.players))
                return effects + self._maybe_finish()
            losers = [a, b]
        else:
            losers = [match.loser()]
        for player in match.players:
            self.streak[player] = self.streak[player] + 1 if player == match.winner else 0
        group = self.group_of(a)
        ghost = self.ghosts.get(group, "")
        for loser in losers:
            if self.config.dead_take_no_poison and loser in self.dead:
                continue  # knocked out already (the Ghost): poison is for the living
            self.poison[loser] += amount
            effects.append(PoisonChanged(loser, self.poison[loser], amount, "loss"))
            if ghost and ghost in match.players and loser != ghost:
                self.lost_to_ghost.append(loser)
        return effects + self._maybe_finish()

    def _abandon_replay(self, action: AbandonReplay) -> list[Effect]:
        require_referee(action)
        self._require_phase("play")
        pair = next((p for p in self.replays if action.match_of in p), None)
        if pair is not None:
            self.replays.remove(pair)
        elif self.replay_round:
            match = self.league.match_of(action.match_of) if isinstance(action.match_of, str) else None
            if match is None or match.decided:
                raise RulesError("no_replay", player=action.match_of)
            match.decided, match.draw = True, True  # the replay ends without a winner
            pair = (match.players[0], match.players[1])
        else:
            raise RulesError("no_replay", player=action.match_of)
        effects: list[Effect] = []
        target = self.config.lethal_poison - 1
        for player in pair:
            delta = target - self.poison[player]
            self.poison[player] = target
            effects.append(PoisonChanged(player, target, delta, "replay_abandoned"))
        return effects + self._maybe_finish()

    def _maybe_finish(self) -> list[Effect]:
        """After a decided match: start pending replays, or finish the mini-game when all is decided."""
        if not self.league.round_done():
            return []
        if self.replays:
            pairs: list[tuple[str, ...]] = list(self.replays)
            self.replays = []
            self.replay_round = True
            return self._setup_matches(pairs)
        return self._finish_minigame()

    def _finish_minigame(self) -> list[Effect]:
        cfg = self.config
        effects: list[Effect] = []
        lethal = cfg.lethal_poison
        for group in range(len(self.groups)):
            if group in self.group_winners:
                continue
            alive_before = self.alive(group)
            newly_dead = [p for p in alive_before if self.poison[p] >= lethal]
            survivors = [p for p in alive_before if p not in newly_dead]
            if len(survivors) < 2 and newly_dead:
                revived = [p for p in newly_dead if p in self.lost_to_ghost]
                if not survivors and not revived:
                    revived = list(newly_dead)  # safety net: a group never ends without a winner
                for player in revived:
                    delta = lethal - 1 - self.poison[player]
                    self.poison[player] = lethal - 1
                    effects.append(PoisonChanged(player, lethal - 1, delta, "ghost_rule"))
                    newly_dead.remove(player)
            for player in newly_dead:
                self.dead.append(player)
                self.knocked_out[player] = (self.games_played, self.poison[player])
                effects.append(PlayerEliminated(player))
            dead_here = [p for p in self.groups[group] if p in self.dead]
            if len(dead_here) == 1 and newly_dead and dead_here[0] not in self.left:  # the Ghost plays on
                self.ghosts[group] = dead_here[0]
                effects.append(GhostNamed(dead_here[0]))
            elif len(dead_here) >= 2:
                self.ghosts.pop(group, None)
            alive = self.alive(group)
            if len(alive) == 1:
                self.group_winners[group] = alive[0]
                effects.append(GroupWon(group, alive[0]))
        effects += self._deal_augment_packs()
        for player in self.playing:
            if cfg.streak_length > 0 and self.streak[player] >= cfg.streak_length:
                effects.append(self._give_treasures(player, 1, "streak"))
            if cfg.interest_threshold > 0 and self.treasures[player] >= cfg.interest_threshold:
                effects.append(self._give_treasures(player, 1, "interest"))
        self.playing = []
        self.games_played += 1
        if self.games_played % cfg.games_per_energy == 0:
            self.energy += 1
            effects.append(EnergyChanged(self.energy))
            if cfg.reseat_on_energy and len(self.groups) > 1 and not self.group_winners:
                effects.append(self._reseat())
        return effects + self._after_groups()

    def _reseat(self) -> PlayersReseated:
        """New tables: the living are shuffled over the living seats of every table; the dead (the Ghost
        among them) keep theirs, so each table keeps its Ghost and its count of living players."""
        living = [p for group in self.groups for p in group if p not in self.dead]
        self.rng.shuffle(living)
        self.groups = [[p if p in self.dead else living.pop() for p in group] for group in self.groups]
        return PlayersReseated(tuple(tuple(g) for g in self.groups))

    def _after_groups(self) -> list[Effect]:
        if len(self.group_winners) < len(self.groups):
            return self._start_draft()
        winners = [self.group_winners[g] for g in range(len(self.groups))]
        if len(winners) == 1:
            self.phase = "over"
            self.champion = winners[0]
            return [ChampionDecided(winners[0])]
        self.phase = "final"
        self.playing = list(winners)
        return self._setup_matches([(winners[0], winners[1])])

    # -- state --------------------------------------------------------------------------
    def locations(self) -> dict[str, list[int]]:
        """Every place a card can be, for the conservation invariant."""
        places = {f"pool:{p}": list(c) for p, c in self.league.pools.items()}
        places |= {f"shop:{p}": list(c) for p, c in self.shops.items()}
        places |= {f"items:{p}": list(c) for p, c in self.items.items()}
        places["carousel"] = list(self.carousel)
        places["discard"] = list(self.discard)
        places["cube"] = list(self.cube)
        return places

    def augment_locations(self) -> dict[str, list[int]]:
        """Every place an augment can be (the other rarities stay unused), for the conservation invariant."""
        places = {f"pack:{p}": list(c) for p, c in self.augment_packs.items()}
        places |= {f"augments:{p}": list(c) for p, c in self.augments.items()}
        places["deck"] = list(self.augment_deck)
        places["discard"] = list(self.augment_discard)
        cards = self.config.augment_cards
        places["unused"] = [i for i, c in enumerate(cards) if c.rarity.lower() != self.augment_rarity]
        return places

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "energy": self.energy,
            "games_played": self.games_played,
            "league": self.league.snapshot(),
            "groups": [list(g) for g in self.groups],
            "cube": sorted(self.cube),
            "discard": list(self.discard),
            "shops": {p: list(s) for p, s in self.shops.items()},
            "treasures": dict(self.treasures),
            "extra_basics": dict(self.extra_basics),
            "basics": {p: list(lands) for p, lands in self.basics.items()},
            "basics_game": dict(self.basics_game),
            "poison": dict(self.poison),
            "streak": dict(self.streak),
            "last_opponent": dict(self.last_opponent),
            "done": list(self.done),
            "dead": list(self.dead),
            "knocked_out": {p: list(when) for p, when in self.knocked_out.items()},
            "ghosts": {str(g): p for g, p in self.ghosts.items()},
            "left": list(self.left),
            "group_winners": {str(g): p for g, p in self.group_winners.items()},
            "champion": self.champion,
            "carousel": list(self.carousel),
            "carousel_order": list(self.carousel_order),
            "carousel_turn": self.carousel_turn,
            "random_cards_withheld": self.random_cards_withheld,
            "replays": [list(p) for p in self.replays],
            "replay_round": self.replay_round,
            "lost_to_ghost": list(self.lost_to_ghost),
            "playing": list(self.playing),
            "items": {p: list(c) for p, c in self.items.items()},
            "augment_rarity": self.augment_rarity,
            "augment_deck": list(self.augment_deck),
            "augment_packs": {p: list(c) for p, c in self.augment_packs.items()},
            "augments": {p: list(c) for p, c in self.augments.items()},
            "augment_discard": list(self.augment_discard),
            "augment_dealt": list(self.augment_dealt),
            "standings": self.standings(),
        }
