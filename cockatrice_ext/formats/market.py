"""Market Draft: a league where decks grow between games by drafting, dealt boosters and a card market.

RULE INDEX (seed 002, in our words -> where it is implemented)
---------------------------------------------------------------
- Requirements: 45n + 8rn commons, 8r uncommons, 5r rares (mythic counts as rare) for n players and
  r rounds; a shortfall is refused with the numbers per rarity -> :func:`required_counts`,
  :func:`shortfall`, checked in :meth:`MarketDraftEngine.__init__` (``RulesError("not_enough_cards")``).
- Packs are made at setup: 3n common starters, rn common boosters, r uncommon and r rare boosters
  -> :meth:`MarketDraftEngine._make_all_packs`.
- Common starter (15): two mono-colored cards of each color, two colorless, three multicolor; common and
  uncommon boosters (8): one mono of each color and three colorless or multicolor; rare booster: five rares or
  mythics -> :data:`STARTER_SLOTS`, :data:`BOOSTER_SLOTS`, :meth:`MarketDraftEngine._make_pack`. When a color
  slot cannot be filled (the pool is not color-balanced), any card of the rarity fills it. Variant "packs
  not perfectly color-representative": ``color_balanced=False`` fills packs at random within the rarity.
- The referee's :class:`Start` opens the first starter packs -> :meth:`MarketDraftEngine.apply`.
- Initial draft: three starter packs each, pick one and pass around the ring until empty
  -> :class:`~cockatrice_ext.formats.league.Draft` via :class:`Pick`.
- Deck: 40 cards minimum from the drafted pool plus free basic lands -> :meth:`MarketDraftEngine.check_deck`.
- Each round: 1-versus-1 best-of-one games, round-robin pairings -> :meth:`MarketDraftEngine._start_round`;
  results from the referee or both players -> :class:`ReportResult` (league core).
- After the games: one common booster dealt to each player's pool; the market gets one uncommon booster, one
  rare booster and the old rare market -> :meth:`MarketDraftEngine._open_market`.
- Buying in cyclic order from losers to winners (this round's losers first, then draws, then winners; ties
  by fewer total points, then seat), one card or a pass per turn, until every player passes in a row
  -> :meth:`MarketDraftEngine._buy`, :meth:`MarketDraftEngine._pass`, :func:`buy_order`.
- Paying: trade in owned cards whose worth adds up to at least the cost; worth common 1, uncommon 8, rare 14,
  plus 1/2/4 (by the traded card's rarity) per color shared with the bought card; costs uncommon 10, rare 20
  -> :meth:`MarketDraftEngine.worth`, :meth:`MarketDraftEngine.cost`. Traded cards go to the discard. A
  payment worth more than needed stands (the write-up says "at least"); :meth:`MarketDraftEngine.unneeded`
  names the cards it could keep, so the bot warns before an overpaying trade-in.
  Variants (costs, worths, mythic cost/worth) are config options.
- Closing the market: the old rare market and every uncommon are discarded; rares left become the new old
  rare market -> :meth:`MarketDraftEngine._close_market`. The Definitions count 16 cards, which the rule
  reaches only with three rares left (up to 18 otherwise): ``old_rare_limit=3`` keeps three of them, at
  random, so the market never holds more than 16.
- Byes (an odd number of players; the seed is silent): a win by default, or a draw or a loss, for the points
  and the buying order -> ``MarketConfig.bye_result`` (league core ``League.start_round``).
- Scoring: 2 per win, 1 per tie; the most points after the last round wins -> league standings; the league
  ends with the last round's results (a market after the last game could not change any score, so that
  round's packs stay unopened in ``remaining``) -> :meth:`MarketDraftEngine._after_results`.
- A member away or out of time (league core :class:`StandIn`): the referee picks for them at random from the
  pack in front of them, or passes their market turn -> :meth:`MarketDraftEngine.waiting_for`,
  :meth:`MarketDraftEngine._stand_in`.

Error codes: the league core's (``not_a_member``, ``no_pack``, ``card_not_found``, ``malformed``,
``not_paired``, ``result_already_recorded`` ...) plus ``wrong_phase``, ``not_your_turn``,
``not_in_market``, ``not_enough_worth``, ``not_enough_cards`` (setup). A card named as typed and not found
(``not_in_market``; ``card_not_found`` for a card traded in, from the buyer's pool) carries ``card`` and
``candidates`` (two or more different cards matched) or ``closest`` (none did).
Invariant: every card is in exactly one place: a pool, a draft pack, an unopened booster, the market (the
old rare market is part of it while it is open, waits aside between rounds), the discard, or ``remaining``
(cards of the pool no pack used).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cockatrice_ext.cards.model import BASIC_LAND_NAMES, COLORS, CardFacts
from cockatrice_ext.formats.base import Action, Effect, Engine, RulesError, register
from cockatrice_ext.formats.league import (
    CardRef,
    DeckProblem,
    Draft,
    League,
    Match,
    Pick,
    ReportResult,
    StandIn,
    Start,
    StoodIn,
    card_names,
    require_referee,
    resolve_card,
    round_robin_pairings,
    stand_in_target,
)

# A slot is (color classes it accepts, how many). Color classes: "W".."G" mono, "C" colorless, "M" multi.
STARTER_SLOTS: tuple[tuple[tuple[str, ...], int], ...] = (
    *(((c,), 2) for c in COLORS),
    (("C",), 2),
    (("M",), 3),
)
BOOSTER_SLOTS: tuple[tuple[tuple[str, ...], int], ...] = (*(((c,), 1) for c in COLORS), (("C", "M"), 3))
RARE_PACK_SIZE = 5


@dataclass(frozen=True)
class MarketConfig:
    """Options of a Market Draft league (defaults from the seed)."""

    players: tuple[str, ...] = ()
    rounds: int = 5
    cards: tuple[CardFacts, ...] = ()
    uncommon_cost: int = 10
    rare_cost: int = 20
    mythic_cost: int = 20
    common_worth: int = 1
    uncommon_worth: int = 8
    rare_worth: int = 14
    mythic_worth: int = 14
    common_color_bonus: int = 1
    uncommon_color_bonus: int = 2
    rare_color_bonus: int = 4
    mythic_color_bonus: int = 4
    color_balanced: bool = True
    min_deck_size: int = 40
    win_points: int = 2
    draw_points: int = 1
    bye_result: str = "win"
    old_rare_limit: int = 0
    """At most this many rares left in a market stay as the old rare market (chosen at random); 0 = all. Three
    keeps the market at the Definitions' 16 cards (8 uncommons, 5 rares, 3 old rares)."""
    """What a bye (an odd player count) counts as: ``"win"``, ``"draw"`` or ``"loss"`` (seed: silent)."""
    basic_lands: tuple[str, ...] = BASIC_LAND_NAMES


# -- actions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Buy(Action):
    """Buy ``card`` from the market, trading in the owned cards ``pay`` (identities or names)."""

    card: CardRef = -1
    pay: tuple[CardRef, ...] = ()


@dataclass(frozen=True)
class Pass(Action):
    """Pass this market turn."""


# -- effects -------------------------------------------------------------------------


@dataclass(frozen=True)
class MarketOpened(Effect):
    round: int
    cards: tuple[int, ...]
    names: tuple[str, ...]
    old_rares: tuple[int, ...]
    order: tuple[str, ...]


@dataclass(frozen=True)
class MarketTurn(Effect):
    player: str


@dataclass(frozen=True)
class CardBought(Effect):
    player: str
    card: int
    name: str
    paid: tuple[int, ...]
    paid_names: tuple[str, ...]
    worth: int
    cost: int


@dataclass(frozen=True)
class Passed(Effect):
    player: str


@dataclass(frozen=True)
class MarketClosed(Effect):
    round: int
    discarded: tuple[int, ...]
    discarded_names: tuple[str, ...]
    old_rares: tuple[int, ...]
    old_rare_names: tuple[str, ...]


@dataclass(frozen=True)
class LeagueOver(Effect):
    standings: tuple[tuple[str, int], ...]


# -- pure helpers --------------------------------------------------------------------


def rarity_class(card: CardFacts) -> str:
    """``common``, ``uncommon``, ``rare`` or ``mythic`` (lower-cased), or "" for anything else."""
    rarity = card.rarity.strip().lower()
    return rarity if rarity in ("common", "uncommon", "rare", "mythic") else ""


def pack_tier(card: CardFacts) -> str:
    """The pack a card can go in: mythic rares go in rare packs."""
    rarity = rarity_class(card)
    return "rare" if rarity == "mythic" else rarity


def color_class(card: CardFacts) -> str:
    """A color letter for mono-colored cards, ``C`` for colorless, ``M`` for multicolor."""
    colors = [c for c in card.colors if c in COLORS]
    if not colors:
        return "C"
    return colors[0] if len(set(colors)) == 1 else "M"


def required_counts(players: int, rounds: int) -> dict[str, int]:
    """Cards of each pack tier a league of ``players`` over ``rounds`` rounds needs."""
    return {
        "common": 45 * players + 8 * rounds * players,
        "uncommon": 8 * rounds,
        "rare": RARE_PACK_SIZE * rounds,
    }


def shortfall(cards: Sequence[CardFacts], players: int, rounds: int) -> dict[str, dict[str, int]]:
    """Per tier with too few cards: ``{"needed": .., "have": ..}``; empty when the pool suffices."""
    have = Counter(pack_tier(c) for c in cards)
    return {
        tier: {"needed": need, "have": have.get(tier, 0)}
        for tier, need in required_counts(players, rounds).items()
        if have.get(tier, 0) < need
    }


def buy_order(matches: Sequence[Match], league: League) -> list[str]:
    """Losers first, then draws, then winners; ties by fewer total points, then seat order."""

    def key(player: str) -> tuple[int, int, int]:
        match = next((m for m in matches if player in m.players), None)
        outcome = 2
        if match is not None and match.decided and not match.draw and match.winner != player:
            outcome = 0
        elif match is not None and match.draw:
            outcome = 1
        return (outcome, league.points(player), league.members.index(player))

    return sorted(league.members, key=key)


@register
class MarketDraftEngine(Engine[MarketConfig]):
    """The Market Draft league (see the module's rule index)."""

    name: ClassVar[str] = "market"
    config_type: ClassVar[type[Any]] = MarketConfig
    action_types: ClassVar[tuple[type[Action], ...]] = (Start, Pick, ReportResult, Buy, Pass, StandIn)

    def __init__(self, config: MarketConfig, *, seed: int) -> None:
        super().__init__(config, seed=seed)
        players = len(config.players)
        if players < 2 or config.rounds < 1:
            raise ValueError("a Market Draft needs at least 2 players and 1 round")
        if config.old_rare_limit < 0:
            raise RulesError("bad_config", option="old_rare_limit", value=config.old_rare_limit)
        missing = shortfall(config.cards, players, config.rounds)
        if missing:
            raise RulesError("not_enough_cards", shortfall=missing)
        self.league = League(
            config.players,
            config.cards,
            win_points=config.win_points,
            draw_points=config.draw_points,
            bye_result=config.bye_result,
        )
        self.phase = "setup"
        self.market: list[int] = []
        self.old_rares: list[int] = []
        self.discard: list[int] = []
        self.order: list[str] = []
        self.turn = 0
        self.passes = 0
        self.moves = 0  # buys and passes of the open market (each turn a new decision: waiting_for)
        self._make_all_packs()

    # -- setup ----------------------------------------------------------------------
    def _make_all_packs(self) -> None:
        cfg = self.config
        n, r = len(cfg.players), cfg.rounds
        by_tier: dict[str, list[int]] = {"common": [], "uncommon": [], "rare": []}
        self.remaining: list[int] = []
        for index, card in enumerate(cfg.cards):
            tier = pack_tier(card)
            (by_tier[tier] if tier else self.remaining).append(index)
        for cards in by_tier.values():
            self.rng.shuffle(cards)
        starters = [[self._make_pack(by_tier["common"], STARTER_SLOTS) for _ in range(n)] for _ in range(3)]
        self.draft = Draft("initial", self.league, cfg.players, starters)
        self.boosters: dict[str, list[list[int]]] = {
            p: [self._make_pack(by_tier["common"], BOOSTER_SLOTS) for _ in range(r)] for p in cfg.players
        }
        self.uncommon_packs = [self._make_pack(by_tier["uncommon"], BOOSTER_SLOTS) for _ in range(r)]
        self.rare_packs = [self._make_pack(by_tier["rare"], (((), RARE_PACK_SIZE),)) for _ in range(r)]
        for cards in by_tier.values():
            self.remaining.extend(cards)
        self.remaining.sort()

    def _make_pack(self, source: list[int], slots: Sequence[tuple[tuple[str, ...], int]]) -> list[int]:
        """Take a pack out of ``source`` (shuffled cards of one tier); ``()`` accepts any color."""
        pack: list[int] = []
        shortfall_slots = 0
        for accepted, count in slots:
            for _ in range(count):
                pick = None
                if self.config.color_balanced and accepted:
                    pick = next((c for c in source if color_class(self.config.cards[c]) in accepted), None)
                if pick is None:
                    shortfall_slots += 1
                    continue
                source.remove(pick)
                pack.append(pick)
        for _ in range(shortfall_slots):
            pack.append(source.pop(0))
        return pack

    # -- queries ----------------------------------------------------------------------
    def whose_turn(self) -> str | None:
        """The player to buy or pass now (None outside a market)."""
        return self.order[self.turn] if self.phase == "market" else None

    def pool(self, player: str) -> list[int]:
        return list(self.league.pools.get(player, []))

    def waiting_for(self) -> dict[str, tuple[Any, ...]]:
        """Whose move the league waits for now (the drafters with a pack, the player to buy), each with a
        token that is new for each new decision (a pick adds to the pool; each market move counts)."""
        if self.phase == "draft":
            return {p: ("pick", len(self.league.pools[p])) for p in self.league.members if self.pack(p)}
        if self.phase == "market":
            return {self.order[self.turn]: ("buy", self.league.round, self.moves)}
        return {}

    def pack(self, player: str) -> list[int]:
        """The draft pack ``player`` picks from now (empty when none is waiting)."""
        return self.draft.pending(player) if self.phase == "draft" else []

    def cost(self, card: int) -> int:
        """What buying ``card`` costs."""
        rarity = rarity_class(self.config.cards[card])
        return {
            "uncommon": self.config.uncommon_cost,
            "rare": self.config.rare_cost,
            "mythic": self.config.mythic_cost,
        }.get(rarity, 0)

    def worth(self, paid: int, bought: int) -> int:
        """What trading in ``paid`` is worth toward buying ``bought``."""
        cfg = self.config
        paid_card, bought_card = cfg.cards[paid], cfg.cards[bought]
        base, bonus = {
            "common": (cfg.common_worth, cfg.common_color_bonus),
            "uncommon": (cfg.uncommon_worth, cfg.uncommon_color_bonus),
            "rare": (cfg.rare_worth, cfg.rare_color_bonus),
            "mythic": (cfg.mythic_worth, cfg.mythic_color_bonus),
        }.get(rarity_class(paid_card), (0, 0))
        shared = len(set(paid_card.colors) & set(bought_card.colors))
        return base + bonus * shared

    def check_deck(self, player: str, names: Sequence[str]) -> list[DeckProblem]:
        """Problems of a main deck ``player`` loads (empty when legal): size and pool ownership."""
        self.league.require_member(player)
        problems: list[DeckProblem] = []
        if len(names) < self.config.min_deck_size:
            problems.append(DeckProblem("deck_too_small", "", self.config.min_deck_size, len(names)))
        problems += self.league.missing_from_pool(player, names, free=self.config.basic_lands)
        return problems

    def is_over(self) -> bool:
        return self.phase == "over"

    # -- actions ----------------------------------------------------------------------
    def apply(self, action: Action) -> list[Effect]:
        if isinstance(action, Start):
            require_referee(action)
            if self.phase != "setup":
                raise RulesError("wrong_phase", phase=self.phase)
            self.phase = "draft"
            return self.draft.open_next()
        if isinstance(action, Pick):
            if self.phase != "draft":
                raise RulesError("wrong_phase", phase=self.phase)
            effects = self.draft.pick(action)
            if self.draft.finished:
                effects += self._start_round()
            return effects
        if isinstance(action, ReportResult):
            if self.phase != "play":
                raise RulesError("wrong_phase", phase=self.phase)
            match, effects = self.league.report(action)
            if match.decided and self.league.round_done():
                effects += self._after_results()
            return effects
        if isinstance(action, Buy):
            return self._buy(action)
        if isinstance(action, Pass):
            return self._pass(action)
        if isinstance(action, StandIn):
            return self._stand_in(action)
        raise RulesError("malformed", field="action")

    def _stand_in(self, action: StandIn) -> list[Effect]:
        """The referee's move for an away or idle member: a pick at random, or a pass."""
        player = stand_in_target(self.league, action)
        if player not in self.waiting_for():
            raise RulesError("not_waiting", player=player)
        if self.phase == "draft":
            effects: list[Effect] = [
                StoodIn(player, "pick", action.reason),
                *self.draft.pick_at_random(player, self.rng),
            ]
            if self.draft.finished:
                effects += self._start_round()
            return effects
        return [StoodIn(player, "pass", action.reason), *self._pass(Pass(player=player))]

    def _start_round(self) -> list[Effect]:
        self.phase = "play"
        pairings = round_robin_pairings(self.config.players, self.league.round)
        effects = self.league.start_round(pairings)
        if self.league.round_done():  # only byes
            effects += self._after_results()
        return effects

    def _after_results(self) -> list[Effect]:
        if self.league.round >= self.config.rounds:
            self.phase = "over"
            table = tuple((r["player"], r["points"]) for r in self.league.standings())
            return [LeagueOver(table)]
        return self._open_market()

    def _open_market(self) -> list[Effect]:
        effects: list[Effect] = []
        for player in self.config.players:
            effects.append(self.league.give(player, self.boosters[player].pop(0), "booster"))
        self.market = self.uncommon_packs.pop(0) + self.rare_packs.pop(0) + self.old_rares
        self.order = buy_order(self.league.current_matches(), self.league)
        self.turn = 0
        self.passes = 0
        self.phase = "market"
        names = card_names(self.config.cards, self.market)
        effects.append(
            MarketOpened(
                self.league.round, tuple(self.market), names, tuple(self.old_rares), tuple(self.order)
            )
        )
        effects.append(MarketTurn(self.order[0]))
        return effects

    def _require_turn(self, action: Action) -> str:
        if self.phase != "market":
            raise RulesError("wrong_phase", phase=self.phase)
        player = self.league.require_member(action.player)
        if player != self.order[self.turn]:
            raise RulesError("not_your_turn", player=player, turn=self.order[self.turn])
        return player

    def _resolve_buy(self, action: Buy) -> tuple[str, int, list[int]]:
        """The buyer, the market card and the owned cards a :class:`Buy` names (refusals as ``_buy``)."""
        player = self._require_turn(action)
        if not isinstance(action.pay, tuple):
            raise RulesError("malformed", field="pay")
        try:
            card = resolve_card(self.config.cards, action.card, self.market)
        except RulesError as exc:
            if exc.code == "card_not_found":
                raise RulesError("not_in_market", **exc.details) from None
            raise
        return player, card, self.league.resolve_owned(player, action.pay)

    def unneeded(self, action: Buy) -> tuple[int, ...]:
        """The paid cards of ``action`` that could each be left out with the rest still paying the cost: an
        overpaying trade-in, which the bot warns about before it happens. Empty if it would be refused."""
        try:
            _, card, paid = self._resolve_buy(action)
        except RulesError:
            return ()
        worth = sum(self.worth(p, card) for p in paid)
        cost = self.cost(card)
        if worth < cost:
            return ()
        return tuple(p for p in paid if worth - self.worth(p, card) >= cost)

    def _buy(self, action: Buy) -> list[Effect]:
        player, card, paid = self._resolve_buy(action)
        worth = sum(self.worth(p, card) for p in paid)
        cost = self.cost(card)
        if worth < cost:
            raise RulesError("not_enough_worth", worth=worth, cost=cost, card=card)
        self.market.remove(card)
        if card in self.old_rares:
            self.old_rares.remove(card)
        self.league.take(player, paid)
        self.discard.extend(paid)
        self.league.pools[player].append(card)
        self.passes = 0
        self.moves += 1
        effects: list[Effect] = [
            CardBought(
                player,
                card,
                self.config.cards[card].name,
                tuple(paid),
                card_names(self.config.cards, paid),
                worth,
                cost,
            )
        ]
        return effects + self._advance()

    def _pass(self, action: Pass) -> list[Effect]:
        player = self._require_turn(action)
        self.passes += 1
        self.moves += 1
        effects: list[Effect] = [Passed(player)]
        if self.passes >= len(self.order):
            return effects + self._close_market()
        return effects + self._advance()

    def _advance(self) -> list[Effect]:
        self.turn = (self.turn + 1) % len(self.order)
        return [MarketTurn(self.order[self.turn])]

    def _close_market(self) -> list[Effect]:
        cards = self.config.cards
        left = [c for c in self.market if c not in self.old_rares and pack_tier(cards[c]) == "rare"]
        limit = self.config.old_rare_limit
        kept = sorted(self.rng.sample(left, limit)) if 0 < limit < len(left) else left
        discarded = [c for c in self.market if c not in kept]
        self.old_rares = [c for c in self.market if c in kept]
        self.discard.extend(discarded)
        self.market = []
        self.order = []
        self.turn = 0
        self.passes = 0
        effects: list[Effect] = [
            MarketClosed(
                self.league.round,
                tuple(discarded),
                card_names(cards, discarded),
                tuple(self.old_rares),
                card_names(cards, self.old_rares),
            )
        ]
        return effects + self._start_round()

    # -- state --------------------------------------------------------------------------
    def locations(self) -> dict[str, list[int]]:
        """Every place a card can be, for the conservation invariant."""
        places = {f"pool:{p}": list(c) for p, c in self.league.pools.items()}
        places["draft"] = self.draft.cards_held()
        places["boosters"] = [c for packs in self.boosters.values() for pack in packs for c in pack]
        places["uncommon_packs"] = [c for pack in self.uncommon_packs for c in pack]
        places["rare_packs"] = [c for pack in self.rare_packs for c in pack]
        places["market"] = list(self.market)
        places["old_rare_market"] = [c for c in self.old_rares if c not in self.market]
        places["discard"] = list(self.discard)
        places["remaining"] = list(self.remaining)
        return places

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "league": self.league.snapshot(),
            "draft": self.draft.snapshot(),
            "boosters": {p: [list(pk) for pk in packs] for p, packs in self.boosters.items()},
            "uncommon_packs": [list(p) for p in self.uncommon_packs],
            "rare_packs": [list(p) for p in self.rare_packs],
            "market": list(self.market),
            "old_rares": list(self.old_rares),
            "discard": list(self.discard),
            "remaining": list(self.remaining),
            "order": list(self.order),
            "turn": self.whose_turn(),
            "passes": self.passes,
            "moves": self.moves,
        }
