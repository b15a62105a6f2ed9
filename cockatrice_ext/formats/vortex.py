"""Vortex: Magic played from one shared, shuffled pool, where every draw is a draft pick.

RULE INDEX (seed 001, in our words -> where it lives)
------------------------------------------------------
* Shoe holds every card at the start, hidden, one face-down pile -> ``VortexEngine._start`` (shuffle
  with ``self.rng``), ``shoe`` attribute (index 0 is the top).
* Any non-draw effect on a library affects the shoe instead -> ``PutInShoe`` (top/bottom),
  ``ShuffleShoe``, ``LookAtShoe`` (private reveal of the top N), ``ArrangeShoeTop`` (put the top cards
  back in a chosen order / on the bottom, for scry-like effects); handled in ``_shoe_*`` methods.
* Each player is dealt a hidden pack of seven, the passed pack is dealt face down -> ``_start``.
* Packs are hidden; the owner may look, others may only count -> effects revealing a pack carry
  ``visible_to=<owner>``; :meth:`VortexEngine.pack_size` is the public query.
* A pack over seven cards loses a random card (state-based) -> ``_state_based_actions``. The seed says the
  owner *discards* it, so by default it goes to that player's graveyard (``overflow_to="graveyard"``);
  ``"shoe_bottom"`` and ``"exile"`` are configurable house rules. Only ``PutInPack`` can overfill a pack.
  The shoe is hidden: the referee's line counts a card going to its bottom and names none.
* The draw step: the active player draws one card, except the starting player of a two-player game on
  the first turn (Magic 103.8; ``skip_first_draw``) -> ``DrawStep`` (``_draw_step``), effect
  ``FirstDrawSkipped``. Once per turn (``draw_step_done``); an upkeep "draw a card" is an extra pick and
  does not use it up.
* Draw = draft: replenish from the shoe to seven (nothing if the shoe is empty), then pick one card
  into hand and own it -> ``Draw`` queues draws, ``_next_draw`` replenishes and opens a pending pick,
  ``Pick`` (``_pick``) moves the card to ``owned[player]``.
* Picking from an empty pack: the stack is countered, the turn ends, the player loses 1 life ->
  ``_failed_pick`` (effects ``StackCountered``, ``LifeLost``, then the end of turn; cleanup and so the
  pass step still happen, as when a Magic effect ends the turn).
* Pass step: after cleanup the active player swaps their pack with the passed pack (state-based) ->
  ``EndTurn`` -> ``_end_turn_action`` -> ``_finish_turn`` -> ``_pass_packs``. Only the active player's own
  pending pick holds the end of the turn back (``pick_pending``): the pass step swaps the pack that pick is
  made from, and a draw finishes with its pick. Another player's pending pick (an "each player draws" at
  upkeep) is from their own pack, which the pass step does not touch, so the turn ends and that pick (and
  their queued draws) carries on into the next turn; it does not stop the next player's pack mulligan.
* Pick timer (house rule; the write-up has no clock): with ``picktimer`` the bot gives an idle picker that
  many seconds, then the referee picks for them -> ``AutoPick`` (``_auto_pick``, ``PickTimedOut``). The
  write-up has no passing (every draw is a pick into hand, and only an empty pack fails one), so the pick
  is made, at random from the pack with the seeded ``rng`` (replay picks the same card): the referee has
  no card judgement, and a fixed position would let the pack's order choose.
* Opening hand: four turns per player of draw step + pass step, then three basic lands from outside the
  game, no mulligans -> phase ``"opening"`` driven by ``_begin_opening_turn`` / ``_pick`` (each opening
  pick ends that opening turn), phase ``"basics"`` with ``ChooseBasics``.
* Mulligan replacement: at upkeep (before the first draw of the turn) a player whose pack holds five or
  more basic lands may reveal and exile it; until end of turn they replenish to five -> ``PackMulligan``.
* 2 to 5 players -> ``StartGame`` refuses otherwise (``bad_player_count``).
* The pool holds "one of each basic land per player" -> ``pool_for_players`` (the referee shuffles only
  those into the shoe; a pool listing basics for five players plays two with ten basics, not 25).
* A player leaves the game (concedes, or leaves the Cockatrice game; the write-up is silent, Magic 800.4a
  applies) -> ``RemovePlayer`` (referee only, ``_remove_player``, effect ``PlayerOut``): out of the turn
  order for good; their pack goes to the bottom of the shoe in a random order (the seeded ``rng``), so no
  card is lost and nobody learns its order; their picks and graveyard leave the game with them (they stay
  recorded as theirs); their pending pick and draws are dropped. An active player's turn ends there
  (no pass step: the passed pack waits for the next player); in the opening draft they take no more
  opening turns (the next one gets the next number: opening turns are numbered as players get them,
  ``opening_turns_begun``, under ``config.number_opening_turns_given``), in the basics phase the others
  no longer wait for them. One player left: ``GameOver`` names the winner and the game is over (phase
  ``"over"``; every other action is refused).

Refusal codes (``RulesError.code``)
-----------------------------------
``not_started``, ``already_started``, ``bad_player_count``, ``not_a_player``, ``not_your_turn``,
``wrong_phase``, ``pick_pending`` (that player must pick first), ``no_pick_pending``, ``no_such_card``
(bad position, name or index; a pick's details give ``pack_size``, and a number's ``position``; a name's
give ``candidates`` when it names two or more different cards, else ``closest``, both only from cards the
player may see: their pack for a pick, for other actions everything out of the draft but others' picks),
``card_not_available`` (the card is not where the action needs it), ``bad_count``, ``bad_basics`` (wrong
number or not a configured basic), ``already_chose``,
``not_enough_basics``, ``mulligan_too_late`` (already drew this turn), ``already_mulliganed``,
``bad_arrangement``, ``bad_position``, ``bad_config``, ``referee_only``, ``unknown_action``, ``player_out``
(that player left the game). Winning and losing stay with Cockatrice (life, poison); the engine's only
game over is the last player left after the others left (``RemovePlayer``).

Card references: a card's identity is its index in ``config.cards``. ``Pick.choice`` is an ``int``
position in the player's pack (0-based, in the order of :meth:`VortexEngine.pack`) or a card name as the
player typed it (:func:`~cockatrice_ext.cards.typed.match_names`: case, accents, a phone's apostrophe, one
face, a unique start). Other actions take a card index or a name -> ``_resolve_card``.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.cards.typed import closest_names, match_names, typed_key
from cockatrice_ext.formats.base import Action, CardRef, Effect, Engine, PlayerId, RulesError, register

LOGGER = logging.getLogger(__name__)

BASIC_LAND_NAMES = ("Plains", "Island", "Swamp", "Mountain", "Forest")
OVERFLOW_DESTINATIONS = ("graveyard", "shoe_bottom", "exile")
MIN_PLAYERS = 2
MAX_PLAYERS = 5


def pool_for_players(cards: tuple[CardFacts, ...], players: int) -> tuple[int, ...]:
    """The pool's cards a game of ``players`` shuffles into its shoe, as indices into ``cards`` in pool
    order: "one of each basic land per player" (seed 001, Requirements), so of each of the five basic
    lands only the first ``players`` copies; every other card (snow or other basics included) as listed.
    A pool holding fewer copies of a basic keeps what it has (``basics_short`` says which)."""
    kept: list[int] = []
    seen: dict[str, int] = {}
    for index, card in enumerate(cards):
        if card.name in BASIC_LAND_NAMES:
            seen[card.name] = seen.get(card.name, 0) + 1
            if seen[card.name] > players:
                continue
        kept.append(index)
    return tuple(kept)


def basics_short(cards: tuple[CardFacts, ...], players: int) -> tuple[str, ...]:
    """The basic lands a pool holds fewer than one of per player of a ``players`` game."""
    counts = {name: sum(1 for card in cards if card.name == name) for name in BASIC_LAND_NAMES}
    return tuple(name for name, count in counts.items() if count < players)


@dataclass(frozen=True)
class VortexConfig:
    """Options of a Vortex game; defaults follow the seed."""

    players: tuple[PlayerId, ...] = ()
    """Seated players in turn order (server-assigned ids); the first one starts."""
    cards: tuple[CardFacts, ...] = ()
    """The shared pool, one entry per physical card (spells, lands and one of each basic per player)."""
    pack_size: int = 7
    mulligan_pack_size: int = 5
    mulligan_min_basics: int = 5
    opening_draft_turns: int = 4
    opening_basics: int = 3
    basic_land_names: tuple[str, ...] = BASIC_LAND_NAMES
    empty_pick_life_loss: int = 1
    overflow_to: str = "graveyard"
    skip_first_draw: bool = True
    """Two players: the starting player skips their first draw step (Magic 103.8)."""
    number_opening_turns_given: bool = False
    """An opening turn is numbered by the opening turns begun (the turns players got), so the turn after
    an active player left mid-turn gets the next number. False only so that a game journaled before it
    (its config lacks the field) replays as it was played, numbered by the turns finished (the turn after
    such a departure repeated the number); the referee turns it on for every new game."""


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StartGame(Action):
    """Referee: shuffle the shoe, deal the packs and begin the opening draft."""


@dataclass(frozen=True)
class Draw(Action):
    """``player`` draws ``count`` cards, i.e. drafts that many times (one pick each)."""

    count: int = 1


@dataclass(frozen=True)
class DrawStep(Action):
    """Referee: the active player reached the draw step (their turn-based draw, once per turn)."""


@dataclass(frozen=True)
class Pick(Action):
    """``player`` answers their pending pick: a 0-based position in their pack, or a card name."""

    choice: int | str = 0


@dataclass(frozen=True)
class AutoPick(Action):
    """Referee: ``target`` let their pick time run out (the pick timer); pick for them at random."""

    target: PlayerId | None = None


@dataclass(frozen=True)
class ChooseBasics(Action):
    """After the opening draft: the basic lands ``player`` adds to their hand from outside the game."""

    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class PackMulligan(Action):
    """At upkeep: reveal and exile a pack holding enough basic lands; replenish to five this turn."""


@dataclass(frozen=True)
class EndTurn(Action):
    """The active player's turn ended (cleanup done): pass step, then the next player's turn."""


@dataclass(frozen=True)
class PutInShoe(Action):
    """A card leaves the game's open zones for the top or bottom of the shoe (a "library" effect)."""

    card: int | str = 0
    position: str = "top"


@dataclass(frozen=True)
class ShuffleShoe(Action):
    """An effect shuffles a library: the shoe is shuffled."""


@dataclass(frozen=True)
class LookAtShoe(Action):
    """``player`` looks at the top ``count`` cards of the shoe (revealed to them only)."""

    count: int = 1


@dataclass(frozen=True)
class ArrangeShoeTop(Action):
    """Put the top cards of the shoe back: ``top`` (first = new top card) and ``bottom`` (in order).

    ``top`` + ``bottom`` must be exactly the current top ``len(top) + len(bottom)`` cards (indices).
    """

    top: tuple[int, ...] = ()
    bottom: tuple[int, ...] = ()


@dataclass(frozen=True)
class PutInPack(Action):
    """An effect puts a card (outside the hidden zones) into ``player``'s pack."""

    card: int | str = 0


@dataclass(frozen=True)
class RemovePlayer(Action):
    """Referee (``player=None``): ``target`` left the game (``reason``: ``"conceded"`` or ``"left"``).

    Out of the turn order for good; their pack goes to the bottom of the shoe (no card is lost).
    """

    target: PlayerId | None = None
    reason: str = "left"


# ---------------------------------------------------------------------------
# Effects
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted(Effect):
    players: tuple[PlayerId, ...]
    shoe_size: int


@dataclass(frozen=True)
class PackContents(Effect):
    """The current contents of ``owner``'s pack; private to ``visible_to``."""

    owner: PlayerId
    cards: tuple[CardRef, ...]
    visible_to: PlayerId | None


@dataclass(frozen=True)
class PackReplenished(Effect):
    """``added`` cards went from the shoe top into ``player``'s pack (count is public)."""

    player: PlayerId
    added: int
    pack_size: int
    shoe_size: int


@dataclass(frozen=True)
class PickRequired(Effect):
    player: PlayerId
    pack_size: int


@dataclass(frozen=True)
class PickTimedOut(Effect):
    """``player``'s pick time ran out: the referee picks a random card of their pack for them (the
    ``CardPicked`` that follows is private as usual)."""

    player: PlayerId
    pack_size: int


@dataclass(frozen=True)
class CardPicked(Effect):
    """``player`` picked ``card`` into their hand; the card is private to them."""

    player: PlayerId
    card: CardRef
    visible_to: PlayerId | None


@dataclass(frozen=True)
class StackCountered(Effect):
    """Every spell and ability on the stack is countered (failed pick)."""

    player: PlayerId


@dataclass(frozen=True)
class LifeLost(Effect):
    player: PlayerId
    amount: int
    reason: str


@dataclass(frozen=True)
class PacksPassed(Effect):
    """``player`` swapped their pack with the passed pack (sizes are public)."""

    player: PlayerId
    pack_size: int
    passed_size: int


@dataclass(frozen=True)
class TurnEnded(Effect):
    player: PlayerId
    reason: str


@dataclass(frozen=True)
class FirstDrawSkipped(Effect):
    """The starting player of a two-player game skips the first draw (Magic 103.8)."""

    player: PlayerId


@dataclass(frozen=True)
class TurnStarted(Effect):
    player: PlayerId
    turn: int
    phase: str


@dataclass(frozen=True)
class BasicsNeeded(Effect):
    """The opening draft is over; each player chooses ``count`` basic lands."""

    count: int
    choices: tuple[str, ...]


@dataclass(frozen=True)
class BasicsAdded(Effect):
    """Create these basic lands (from outside the game) in ``player``'s hand."""

    player: PlayerId
    names: tuple[str, ...]


@dataclass(frozen=True)
class PackRevealed(Effect):
    """A pack revealed to everyone (mulligan)."""

    player: PlayerId
    cards: tuple[CardRef, ...]


@dataclass(frozen=True)
class CardsExiled(Effect):
    cards: tuple[CardRef, ...]


@dataclass(frozen=True)
class ReplenishLimitChanged(Effect):
    player: PlayerId
    limit: int


@dataclass(frozen=True)
class PackOverflow(Effect):
    """State-based: ``player``'s pack was over the limit and lost ``card`` at random to ``destination``."""

    player: PlayerId
    card: CardRef
    destination: str


@dataclass(frozen=True)
class CardToShoe(Effect):
    """``card`` left ``from_zone`` (``"owned:<p>"``, ``"graveyard:<p>"`` or ``"exile"``) for the shoe."""

    card: CardRef
    from_zone: str
    position: str
    shoe_size: int
    visible_to: PlayerId | None
    """The former owner when the card may have come from a hidden hand; ``None`` = public."""


@dataclass(frozen=True)
class CardToPack(Effect):
    player: PlayerId
    card: CardRef
    from_zone: str
    pack_size: int
    visible_to: PlayerId | None


@dataclass(frozen=True)
class ShoeShuffled(Effect):
    shoe_size: int


@dataclass(frozen=True)
class ShoeTopRevealed(Effect):
    """The top cards of the shoe (first = top), private to ``visible_to``."""

    cards: tuple[CardRef, ...]
    visible_to: PlayerId | None


@dataclass(frozen=True)
class PlayerOut(Effect):
    """``player`` left the game (``reason``); ``pack_to_shoe`` cards of their pack went to the bottom of the
    shoe; ``remaining`` are the players still in, in turn order."""

    player: PlayerId
    reason: str
    pack_to_shoe: int
    shoe_size: int
    remaining: tuple[PlayerId, ...]


@dataclass(frozen=True)
class GameOver(Effect):
    """Every other player left: ``winner`` wins."""

    winner: PlayerId
    reason: str


@dataclass(frozen=True)
class ShoeTopArranged(Effect):
    """Public part of a rearrangement: how many went back on top and how many to the bottom."""

    player: PlayerId | None
    on_top: int
    on_bottom: int


# ---------------------------------------------------------------------------
# Engine
# ---------------------------------------------------------------------------


@dataclass
class _PlayerState:
    pack: list[int] = field(default_factory=list)
    owned: list[int] = field(default_factory=list)
    graveyard: list[int] = field(default_factory=list)
    pending_draws: int = 0
    pick_pending: bool = False
    replenish_to: int = 7
    basics: tuple[str, ...] | None = None
    picks: int = 0
    life_lost: int = 0
    opening_turns: int = 0


@register
class VortexEngine(Engine[VortexConfig]):
    """State machine of one Vortex game: shoe, packs, the passed pack and who owns what."""

    name: ClassVar[str] = "vortex"
    config_type: ClassVar[type[Any]] = VortexConfig
    action_types: ClassVar[tuple[type[Action], ...]] = (
        StartGame,
        Draw,
        DrawStep,
        Pick,
        AutoPick,
        ChooseBasics,
        PackMulligan,
        EndTurn,
        PutInShoe,
        ShuffleShoe,
        LookAtShoe,
        ArrangeShoeTop,
        PutInPack,
        RemovePlayer,
    )

    def __init__(self, config: VortexConfig, *, seed: int) -> None:
        super().__init__(config, seed=seed)
        self.phase = "new"  # new -> opening -> basics -> play
        self.shoe: list[int] = []
        self.passed: list[int] = []
        self.exile: list[int] = []
        self.players: dict[PlayerId, _PlayerState] = {
            p: _PlayerState(replenish_to=config.pack_size) for p in config.players
        }
        self.turn_index = 0  # index into config.players of the active player
        self.turn = 0  # turns of normal play started so far
        self.opening_turns_done = 0
        self.opening_turns_begun = 0
        """Opening turns players got (begun), finished or not: what the opening turns are numbered by."""
        self.drawn_this_turn = False
        """Any card drawn by the active player this turn (ends the upkeep window for a pack mulligan)."""
        self.draw_step_done = False
        """The turn-based draw happened (or was skipped); extra draws at upkeep do not count."""
        self.mulliganed_this_turn = False
        self.out: list[PlayerId] = []
        """Players who left the game, in the order they left (``RemovePlayer``)."""
        self.winner: PlayerId | None = None

    # -- queries ----------------------------------------------------------------
    @property
    def whose_turn(self) -> PlayerId | None:
        """The active player, or ``None`` before the game starts / while basics are chosen."""
        if self.phase not in ("opening", "play"):
            return None
        return self.config.players[self.turn_index]

    @property
    def in_game(self) -> tuple[PlayerId, ...]:
        """The players still in the game, in turn order."""
        return tuple(p for p in self.config.players if p not in self.out)

    def players_in(self) -> tuple[PlayerId, ...]:
        """Not out (left, conceded or dropped)."""
        return self.in_game

    def pack_size(self, player: PlayerId) -> int:
        """Public: how many cards ``player``'s pack holds."""
        return len(self._member(player).pack)

    def pack(self, player: PlayerId) -> list[CardRef]:
        """Private to ``player``: their pack, in the order ``Pick`` positions refer to."""
        return [self._ref(i) for i in self._member(player).pack]

    def shoe_size(self) -> int:
        return len(self.shoe)

    def passed_size(self) -> int:
        return len(self.passed)

    def pending_pick(self, player: PlayerId) -> bool:
        return self._member(player).pick_pending

    def owner_of(self, index: int) -> PlayerId | None:
        """Who picked (owns) card ``index``, or ``None`` if nobody owns it now."""
        for p, st in self.players.items():
            if index in st.owned:
                return p
        return None

    def snapshot(self) -> dict[str, Any]:
        return {
            "engine": self.name,
            "phase": self.phase,
            "active_player": self.whose_turn,
            "turn": self.turn,
            "opening_turns_done": self.opening_turns_done,
            "opening_turns_begun": self.opening_turns_begun,
            "drawn_this_turn": self.drawn_this_turn,
            "draw_step_done": self.draw_step_done,
            "mulliganed_this_turn": self.mulliganed_this_turn,
            "shoe": list(self.shoe),
            "passed": list(self.passed),
            "exile": list(self.exile),
            "out": list(self.out),
            "winner": self.winner,
            "players": [
                {
                    "player": p,
                    "pack": list(st.pack),
                    "owned": list(st.owned),
                    "graveyard": list(st.graveyard),
                    "pending_draws": st.pending_draws,
                    "pick_pending": st.pick_pending,
                    "replenish_to": st.replenish_to,
                    "basics": None if st.basics is None else list(st.basics),
                    "picks": st.picks,
                    "life_lost": st.life_lost,
                }
                for p, st in self.players.items()
            ],
        }

    def card_locations(self) -> dict[int, str]:
        """Where each card is (for invariant checks): ``"shoe"``, ``"passed"``, ``"pack:<p>"``..."""
        where: dict[int, str] = {}

        def put(cards: list[int], zone: str) -> None:
            for c in cards:
                if c in where:
                    raise AssertionError(f"card {c} in {where[c]} and {zone}")
                where[c] = zone

        put(self.shoe, "shoe")
        put(self.passed, "passed")
        put(self.exile, "exile")
        for p, st in self.players.items():
            put(st.pack, f"pack:{p}")
            put(st.owned, f"owned:{p}")
            put(st.graveyard, f"graveyard:{p}")
        return where

    # -- dispatch ---------------------------------------------------------------
    def apply(self, action: Action) -> list[Effect]:
        handler = {
            StartGame: self._start,
            Draw: self._draw,
            DrawStep: self._draw_step,
            Pick: self._pick,
            AutoPick: self._auto_pick,
            ChooseBasics: self._choose_basics,
            PackMulligan: self._mulligan,
            EndTurn: self._end_turn_action,
            PutInShoe: self._shoe_put,
            ShuffleShoe: self._shoe_shuffle,
            LookAtShoe: self._shoe_look,
            ArrangeShoeTop: self._shoe_arrange,
            PutInPack: self._put_in_pack,
            RemovePlayer: self._remove_player,
        }.get(type(action))
        if handler is None:
            raise RulesError("unknown_action", action=type(action).__name__)
        effects: list[Effect] = handler(action)  # type: ignore[operator]
        effects.extend(self._state_based_actions())
        return effects

    # -- helpers ----------------------------------------------------------------
    def _ref(self, index: int) -> CardRef:
        return CardRef(index, self.config.cards[index].name)

    def _member(self, player: PlayerId | None) -> _PlayerState:
        if player is None or player not in self.players:
            raise RulesError("not_a_player", player=player)
        if player in self.out:
            raise RulesError("player_out", player=player)
        return self.players[player]

    def _advance_turn(self) -> None:
        """The next player in turn order who is still in the game becomes active."""
        n = len(self.config.players)
        for step in range(1, n + 1):
            index = (self.turn_index + step) % n
            if self.config.players[index] not in self.out:
                self.turn_index = index
                return

    def _require_phase(self, *phases: str) -> None:
        if self.phase == "new":
            raise RulesError("not_started")
        if self.phase not in phases:
            raise RulesError("wrong_phase", phase=self.phase, needed=list(phases))

    def _resolve_card(self, ref: int | str, candidates: list[int], hidden: Collection[int] = ()) -> int:
        """Find card ``ref`` (an index, or a name as players type it: :func:`match_names`) among
        ``candidates``, the first copy of a name. A ``hidden`` card (another player's pick, maybe in their
        hand) counts only by its whole name (folded) and is never offered in a refusal: ``candidates`` (two
        or more different cards matched) and ``closest`` (none did) come from the others alone."""
        if isinstance(ref, bool) or not isinstance(ref, (int, str)):
            raise RulesError("no_such_card", card=repr(ref))
        if isinstance(ref, int):
            if not 0 <= ref < len(self.config.cards):
                raise RulesError("no_such_card", card=ref)
            if ref not in candidates:
                raise RulesError("card_not_available", card=ref)
            return ref
        names = [self.config.cards[c].name for c in candidates]
        visible = [name for c, name in zip(candidates, names, strict=True) if c not in hidden]
        wanted = ref.strip().casefold()
        exact = next((name for name in names if name.casefold() == wanted), None)  # the old rule: journals
        if exact is not None:
            return candidates[names.index(exact)]
        key = typed_key(ref)
        whole = list(dict.fromkeys(name for name in names if key and typed_key(name) == key))
        matched = [name for name in whole if name in visible] or whole[:1] or match_names(ref, visible)
        if len(matched) > 1:
            raise RulesError("no_such_card", card=ref, candidates=matched)
        if not matched:
            raise RulesError("no_such_card", card=ref, closest=closest_names(ref, visible))
        return candidates[names.index(matched[0])]

    def _out_of_draft_cards(self, preferred: PlayerId | None) -> list[tuple[int, str, PlayerId | None]]:
        """Cards outside the hidden draft zones as (card, zone, zone owner); ``preferred``'s own first."""
        found: list[tuple[int, str, PlayerId | None]] = []
        order = sorted((p for p in self.players if p not in self.out), key=lambda p: p != preferred)
        for p in order:
            st = self.players[p]
            found += [(c, "owned", p) for c in st.owned]
            found += [(c, "graveyard", p) for c in st.graveyard]
        found += [(c, "exile", None) for c in self.exile]
        return found

    def _take_out_of_play(
        self, ref: int | str, preferred: PlayerId | None
    ) -> tuple[int, str, PlayerId | None]:
        """Resolve ``ref`` among the cards outside the draft zones and remove it.

        Returns the card, its zone name and the player whose zone it left (``None`` for exile).
        """
        located = self._out_of_draft_cards(preferred)
        hidden = {
            c
            for c, kind, owner in located
            if preferred is not None and kind == "owned" and owner != preferred
        }
        card = self._resolve_card(ref, [c for c, _, _ in located], hidden)
        kind, owner = next((k, o) for c, k, o in located if c == card)
        if kind == "exile":
            self.exile.remove(card)
            return card, "exile", None
        st = self.players[owner]  # type: ignore[index]
        (st.owned if kind == "owned" else st.graveyard).remove(card)
        return card, f"{kind}:{owner}", owner

    # -- start and opening draft ---------------------------------------------------
    def _start(self, action: StartGame) -> list[Effect]:
        if self.phase != "new":
            raise RulesError("already_started")
        n = len(self.config.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS or len(set(self.config.players)) != n:
            raise RulesError("bad_player_count", players=n, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
        if self.config.overflow_to not in OVERFLOW_DESTINATIONS:
            raise RulesError("bad_config", option="overflow_to", value=self.config.overflow_to)
        self.shoe = list(range(len(self.config.cards)))
        self.rng.shuffle(self.shoe)
        dealt: list[Effect] = []
        for p, st in self.players.items():
            st.pack = self._take_from_shoe(self.config.pack_size)
            dealt.append(PackContents(p, tuple(self._ref(c) for c in st.pack), visible_to=p))
        self.passed = self._take_from_shoe(self.config.pack_size)
        # The shoe as players will find it: after every pack and the passed pack were dealt.
        effects: list[Effect] = [GameStarted(tuple(self.config.players), len(self.shoe)), *dealt]
        self.phase = "opening"
        self.turn_index = 0
        effects += self._begin_opening_turn()
        return effects

    def _take_from_shoe(self, count: int) -> list[int]:
        taken, self.shoe = self.shoe[:count], self.shoe[count:]
        return taken

    def _begin_opening_turn(self) -> list[Effect]:
        """The next opening turn, or the basics once every player still in had their opening turns."""
        if all(self.players[p].opening_turns >= self.config.opening_draft_turns for p in self.in_game):
            self.phase = "basics"
            return [BasicsNeeded(self.config.opening_basics, tuple(self.config.basic_land_names))]
        player = self.config.players[self.turn_index]
        self.opening_turns_begun += 1
        number = (
            self.opening_turns_begun
            if self.config.number_opening_turns_given
            else self.opening_turns_done + 1
        )
        effects: list[Effect] = [TurnStarted(player, number, "opening")]
        self.players[player].pending_draws += 1
        effects += self._next_draw(player)
        return effects

    def _choose_basics(self, action: ChooseBasics) -> list[Effect]:
        st = self._member(action.player)
        self._require_phase("basics")
        if st.basics is not None:
            raise RulesError("already_chose")
        names = tuple(action.names) if isinstance(action.names, (tuple, list)) else ()
        allowed = {n.casefold(): n for n in self.config.basic_land_names}
        if len(names) != self.config.opening_basics or not all(
            isinstance(n, str) and n.strip().casefold() in allowed for n in names
        ):
            unknown = [str(n) for n in names if not (isinstance(n, str) and n.strip().casefold() in allowed)]
            why = f"{', '.join(unknown)}: not a basic land here" if unknown else f"{len(names)} named"
            raise RulesError(
                "bad_basics",
                count=self.config.opening_basics,
                choices=list(self.config.basic_land_names),
                why=why,
            )
        st.basics = tuple(allowed[n.strip().casefold()] for n in names)
        effects: list[Effect] = [BasicsAdded(action.player, st.basics)]  # type: ignore[arg-type]
        return effects + self._play_once_basics_chosen()

    def _play_once_basics_chosen(self) -> list[Effect]:
        """Normal play begins (first player still in) once every player still in chose their basics."""
        if not all(self.players[p].basics is not None for p in self.in_game):
            return []
        self.phase = "play"
        self.turn_index = self.config.players.index(self.in_game[0])
        return self._begin_play_turn()

    # -- drawing = drafting ------------------------------------------------------------
    def _draw(self, action: Draw) -> list[Effect]:
        st = self._member(action.player)
        self._require_phase("play")
        if isinstance(action.count, bool) or not isinstance(action.count, int) or not 1 <= action.count <= 60:
            raise RulesError("bad_count", count=action.count)
        st.pending_draws += action.count
        if action.player == self.whose_turn:
            self.drawn_this_turn = True
        return self._next_draw(action.player)  # type: ignore[arg-type]

    def _draw_step(self, action: DrawStep) -> list[Effect]:
        if action.player is not None:
            raise RulesError("referee_only")
        self._require_phase("play")
        active = self.whose_turn
        if self.draw_step_done or active is None:
            return []
        self.draw_step_done = True
        if self.config.skip_first_draw and self.turn == 1 and len(self.config.players) == 2:
            self.drawn_this_turn = True
            return [FirstDrawSkipped(active)]
        return self._draw(Draw(player=active, count=1))

    def _next_draw(self, player: PlayerId) -> list[Effect]:
        """Start ``player``'s next queued draw: replenish, then open a pick (or fail it)."""
        st = self.players[player]
        if st.pick_pending or st.pending_draws <= 0:
            return []
        st.pending_draws -= 1
        effects: list[Effect] = []
        missing = max(0, st.replenish_to - len(st.pack))
        added = self._take_from_shoe(missing)
        if added:
            st.pack += added
            effects.append(PackReplenished(player, len(added), len(st.pack), len(self.shoe)))
        if not st.pack:
            return effects + self._failed_pick(player)
        st.pick_pending = True
        effects.append(PackContents(player, tuple(self._ref(c) for c in st.pack), visible_to=player))
        effects.append(PickRequired(player, len(st.pack)))
        return effects

    def _pick(self, action: Pick) -> list[Effect]:
        st = self._member(action.player)
        self._require_phase("opening", "play")
        if not st.pick_pending:
            raise RulesError("no_pick_pending")
        choice = action.choice
        if isinstance(choice, bool) or not isinstance(choice, (int, str)):
            raise RulesError("no_such_card", card=repr(choice))
        if isinstance(choice, int):
            if not 0 <= choice < len(st.pack):
                raise RulesError("no_such_card", position=choice, pack_size=len(st.pack))
            card = st.pack[choice]
        else:
            try:
                card = self._resolve_card(choice, st.pack)
            except RulesError as exc:  # with the pack's size (public, !packs): the numbers that may be picked
                raise RulesError("no_such_card", **exc.details, pack_size=len(st.pack)) from None
        player: PlayerId = action.player  # type: ignore[assignment]
        st.pack.remove(card)
        st.owned.append(card)
        st.picks += 1
        st.pick_pending = False
        effects: list[Effect] = [CardPicked(player, self._ref(card), visible_to=player)]
        if self.phase == "opening":
            self.opening_turns_done += 1
            st.opening_turns += 1
            effects += self._pass_packs(player)
            effects.append(TurnEnded(player, "opening_turn"))
            self._advance_turn()
            effects += self._begin_opening_turn()
        else:
            effects += self._next_draw(player)
        return effects

    def _auto_pick(self, action: AutoPick) -> list[Effect]:
        """The pick timer ran out: a random card of the target's pack (the engine's seeded rng, so a replay
        picks the same card)."""
        if action.player is not None:
            raise RulesError("referee_only")
        st = self._member(action.target)
        self._require_phase("opening", "play")
        if not st.pick_pending:
            raise RulesError("no_pick_pending")
        target: PlayerId = action.target  # type: ignore[assignment]
        position = self.rng.randrange(len(st.pack))
        return [PickTimedOut(target, len(st.pack)), *self._pick(Pick(player=target, choice=position))]

    def _failed_pick(self, player: PlayerId) -> list[Effect]:
        """Empty pack at the pick step: counter the stack, lose life, end the turn."""
        st = self.players[player]
        st.life_lost += self.config.empty_pick_life_loss
        for other in self.players.values():
            other.pending_draws = 0
            other.pick_pending = False
        effects: list[Effect] = [
            StackCountered(player),
            LifeLost(player, self.config.empty_pick_life_loss, "failed_pick"),
        ]
        active = self.config.players[self.turn_index]
        if self.phase == "opening":
            self.opening_turns_done += 1
            self.players[active].opening_turns += 1
            effects += self._pass_packs(active)
            effects.append(TurnEnded(active, "failed_pick"))
            self._advance_turn()
            effects += self._begin_opening_turn()
            return effects
        return effects + self._finish_turn(active, "failed_pick")

    # -- turns -------------------------------------------------------------------------------
    def _begin_play_turn(self) -> list[Effect]:
        self.turn += 1
        self.drawn_this_turn = False
        self.draw_step_done = False
        self.mulliganed_this_turn = False
        return [TurnStarted(self.config.players[self.turn_index], self.turn, "play")]

    def _end_turn_action(self, action: EndTurn) -> list[Effect]:
        self._require_phase("play")
        active = self.config.players[self.turn_index]
        if action.player is not None and action.player != active:
            if action.player not in self.players:
                raise RulesError("not_a_player", player=action.player)
            raise RulesError("not_your_turn", active_player=active)
        if self.players[active].pick_pending:  # the pass step swaps the pack the pick is made from
            raise RulesError("pick_pending", player=active)
        return self._finish_turn(active, "end_of_turn")

    def _finish_turn(self, active: PlayerId, reason: str) -> list[Effect]:
        for st in self.players.values():
            if not st.pick_pending:  # another player's draw in progress goes on from their own pack
                st.pending_draws = 0
        self.players[active].replenish_to = self.config.pack_size
        effects = self._pass_packs(active)
        effects.append(TurnEnded(active, reason))
        self._advance_turn()
        return effects + self._begin_play_turn()

    def _pass_packs(self, player: PlayerId) -> list[Effect]:
        st = self.players[player]
        st.pack, self.passed = self.passed, st.pack
        return [
            PacksPassed(player, len(st.pack), len(self.passed)),
            PackContents(player, tuple(self._ref(c) for c in st.pack), visible_to=player),
        ]

    def _mulligan(self, action: PackMulligan) -> list[Effect]:
        st = self._member(action.player)
        self._require_phase("play")
        if action.player != self.whose_turn:
            raise RulesError("not_your_turn", active_player=self.whose_turn)
        if self.mulliganed_this_turn:
            raise RulesError("already_mulliganed")
        if self.drawn_this_turn:
            raise RulesError("mulligan_too_late")
        if st.pick_pending:  # another player's pick is from their own pack: it does not stop this one
            raise RulesError("pick_pending", player=action.player)
        basics = sum(1 for c in st.pack if self.config.cards[c].is_basic_land)
        if basics < self.config.mulligan_min_basics:
            raise RulesError("not_enough_basics", basics=basics, needed=self.config.mulligan_min_basics)
        cards = tuple(self._ref(c) for c in st.pack)
        self.exile += st.pack
        st.pack = []
        st.replenish_to = self.config.mulligan_pack_size
        self.mulliganed_this_turn = True
        player: PlayerId = action.player  # type: ignore[assignment]
        return [
            PackRevealed(player, cards),
            CardsExiled(cards),
            ReplenishLimitChanged(player, st.replenish_to),
        ]

    # -- library effects hit the shoe ---------------------------------------------------------
    def _check_actor(self, player: PlayerId | None) -> None:
        if player is not None:
            self._member(player)

    def _shoe_put(self, action: PutInShoe) -> list[Effect]:
        self._check_actor(action.player)
        self._require_phase("opening", "basics", "play")
        if action.position not in ("top", "bottom"):
            raise RulesError("bad_position", position=action.position)
        card, zone, owner = self._take_out_of_play(action.card, action.player)
        if action.position == "top":
            self.shoe.insert(0, card)
        else:
            self.shoe.append(card)
        # an owned card may come from a hidden hand: only its owner sees which one it was
        visible_to = owner if zone.startswith("owned:") else None
        return [CardToShoe(self._ref(card), zone, action.position, len(self.shoe), visible_to)]

    def _shoe_shuffle(self, action: ShuffleShoe) -> list[Effect]:
        self._check_actor(action.player)
        self._require_phase("opening", "basics", "play")
        self.rng.shuffle(self.shoe)
        return [ShoeShuffled(len(self.shoe))]

    def _shoe_look(self, action: LookAtShoe) -> list[Effect]:
        self._member(action.player)
        self._require_phase("opening", "basics", "play")
        if isinstance(action.count, bool) or not isinstance(action.count, int) or action.count < 1:
            raise RulesError("bad_count", count=action.count)
        top = tuple(self._ref(c) for c in self.shoe[: action.count])
        return [ShoeTopRevealed(top, visible_to=action.player)]

    def _shoe_arrange(self, action: ArrangeShoeTop) -> list[Effect]:
        self._check_actor(action.player)
        self._require_phase("opening", "basics", "play")
        top, bottom = tuple(action.top), tuple(action.bottom)
        k = len(top) + len(bottom)
        if (
            not all(isinstance(c, int) and not isinstance(c, bool) for c in top + bottom)
            or k == 0
            or k > len(self.shoe)
            or sorted(top + bottom) != sorted(self.shoe[:k])
        ):
            raise RulesError("bad_arrangement", expected_count=k)
        self.shoe = list(top) + self.shoe[k:] + list(bottom)
        return [ShoeTopArranged(action.player, len(top), len(bottom))]

    def _put_in_pack(self, action: PutInPack) -> list[Effect]:
        st = self._member(action.player)
        self._require_phase("opening", "basics", "play")
        card, zone, _ = self._take_out_of_play(action.card, action.player)
        st.pack.append(card)
        player: PlayerId = action.player  # type: ignore[assignment]
        return [CardToPack(player, self._ref(card), zone, len(st.pack), visible_to=player)]

    # -- a player leaves the game -------------------------------------------------------------
    def _remove_player(self, action: RemovePlayer) -> list[Effect]:
        """``target`` leaves: pack to the shoe bottom (shuffled), out of the turn order; the last one wins.

        The active player's turn ends without a pass step (their pack is gone; the passed pack waits for
        the next player). The player's picks and graveyard leave the game with them (Magic 800.4a) and
        stay recorded under their name, so every card is still somewhere.
        """
        if action.player is not None:
            raise RulesError("referee_only")
        self._require_phase("opening", "basics", "play")
        st = self._member(action.target)
        target: PlayerId = action.target  # type: ignore[assignment]
        was_active = self.whose_turn == target
        pack = list(st.pack)
        self.rng.shuffle(pack)
        self.shoe += pack
        st.pack = []
        st.pick_pending = False
        st.pending_draws = 0
        self.out.append(target)
        remaining = self.in_game
        reason = str(action.reason)
        effects: list[Effect] = [PlayerOut(target, reason, len(pack), len(self.shoe), remaining)]
        if len(remaining) == 1:
            self.phase = "over"
            self.winner = remaining[0]
            return [*effects, GameOver(remaining[0], reason)]
        if self.phase == "basics":
            return effects + self._play_once_basics_chosen()
        if not was_active:
            return effects
        effects.append(TurnEnded(target, "player_out"))
        self._advance_turn()
        if self.phase == "opening":
            return effects + self._begin_opening_turn()
        for other in self.players.values():
            if not other.pick_pending:
                other.pending_draws = 0
        return effects + self._begin_play_turn()

    # -- state-based actions ------------------------------------------------------------------
    def _state_based_actions(self) -> list[Effect]:
        """A pack over the limit loses random cards (seed: its owner discards one at random)."""
        effects: list[Effect] = []
        for p, st in self.players.items():
            while len(st.pack) > self.config.pack_size:
                card = st.pack.pop(self.rng.randrange(len(st.pack)))
                destination = self.config.overflow_to
                if destination == "shoe_bottom":
                    self.shoe.append(card)
                elif destination == "exile":
                    self.exile.append(card)
                else:
                    st.graveyard.append(card)
                effects.append(PackOverflow(p, self._ref(card), destination))
        return effects
