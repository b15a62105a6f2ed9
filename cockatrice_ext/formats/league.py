"""The league core shared by the formats that span an evening of Cockatrice games.

RULE INDEX (what the core implements, for Market Draft and the AutoBattler cube)
--------------------------------------------------------------------------------
- Members are server user names; nothing else identifies a player -> :meth:`League.require_member`.
- Pools: which physical cards (indices into the config's ``cards``) each player owns ->
  ``League.pools``, :meth:`League.give`, :meth:`League.take`, :meth:`League.resolve_owned`,
  :meth:`League.missing_from_pool`.
- Card references from chat: an ``int`` is a card's identity (its index in ``cards``, as every effect
  and snapshot shows it), a ``str`` is a name as players type it (``cards.typed.match_names`` over the cards
  the player may mean: their pack, pool, shop, the market) -> :func:`resolve_card`; a refusal offers
  ``candidates`` (two or more cards matched) or ``closest`` (none did). A deck's names are whole cards
  (a whole name or one face, never a start) -> :func:`deck_card_name`.
- Private drafting: each seat holds a queue of packs; a pick takes one card from the pack at the head of
  the queue and passes the rest to the next seat of the ring; when every pack is empty the next packs are
  opened, until none are left -> :class:`Draft`, :meth:`Draft.pick`.
- Pairings per round: round robin by the circle method (a bye when the count is odd) over the seat order,
  which the referee draws at random from the league's seed (not the join order: the first to join is not
  the first given a bye) -> :func:`round_robin_pairings`, :func:`seat_order`; who gets how many byes when
  the rounds do not share them evenly -> :func:`bye_counts`; engines with their own method pass pairs to
  :meth:`League.start_round`.
- Game results: the referee (the bot, from the game it watched) records a result at once; otherwise both
  players must claim the same result (winner or draw) -> :meth:`League.report`. A bye is a win by default
  (the seeds are silent); ``bye_result`` makes it a draw or a loss -> :meth:`League.start_round`.
  Results by concession may be refused by the format (``allow_concession``).
- Standings: points per win / draw (format's choice) -> :meth:`League.standings`. Members on the same
  points are tied (the seeds name no tie-break; the bot's standings show them as ``T-2``, its final line
  names every leader); among them the list goes by wins, then name, an order for reading that ranks nobody.
- A member who is away or out of time (the seeds are silent; a league of an evening must not wait for ever):
  the referee makes their move for them (:class:`StandIn`): the format's default, a pick at random, a pass or
  the end of their draft. Each engine's ``waiting_for`` says whose move the league waits for, each with a
  token that changes with every new decision (the bot's timers start again) -> ``stand_in`` of each engine.

Error codes (``RulesError.code``) raised here: ``not_a_member``, ``malformed``, ``card_not_found``,
``no_pack``, ``no_round``, ``not_paired``, ``not_in_match``, ``result_already_recorded``,
``concession_not_allowed``, ``no_such_match``, ``referee_only``, ``not_waiting``.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.cards.typed import closest_names, match_names, typed_key, typed_names
from cockatrice_ext.formats.base import Action, Effect, RulesError

BYE_RESULTS = ("win", "draw", "loss")
"""What a bye counts as (``League.bye_result``)."""

CardRef = int | str

# ---------------------------------------------------------------------------
# Actions and effects shared by the league formats
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Start(Action):
    """The referee starts the league (deals the first cards). ``player`` must be ``None``."""


@dataclass(frozen=True)
class Pick(Action):
    """Draft ``card`` (identity index or name) from the pack in front of ``player``."""

    card: CardRef = -1


@dataclass(frozen=True)
class ReportResult(Action):
    """A game's result: ``winner`` (a user name) or ``draw``.

    ``player=None`` is the referee (the bot, from the game it watched): recorded at once. A player's report
    is a claim that counts once their opponent claims the same. ``match_of`` names a player of the match
    (needed only when the referee reports a draw). ``by_concession`` marks a game that ended by a concession.
    """

    winner: str = ""
    draw: bool = False
    match_of: str = ""
    by_concession: bool = False


@dataclass(frozen=True)
class StandIn(Action):
    """The referee makes ``target``'s move for them: they are away, or their time for it ran out.

    ``player`` must be ``None``. What the move is belongs to the format (its ``stand_in``); refused with
    ``not_waiting`` when the league does not wait for ``target``. ``reason`` (one of :data:`STAND_IN_REASONS`)
    goes into the effect, for the players' words.
    """

    target: str = ""
    reason: str = "away"


STAND_IN_REASONS = ("away", "time")
"""Why the referee moves for a member: out of the room a while, or their time for the move ran out."""


@dataclass(frozen=True)
class StoodIn(Effect):
    """The referee made ``player``'s ``move`` (``pick``, ``pass``, ``done``, ``carousel``) for them, for
    ``reason`` (public: that it did, never which card it took)."""

    player: str
    move: str
    reason: str = "away"


@dataclass(frozen=True)
class DeckProblem:
    """One reason a deck is not legal: a stable ``code`` and structured details (no chat text)."""

    code: str
    name: str = ""
    expected: int = 0
    actual: int = 0


@dataclass(frozen=True)
class PackInFront(Effect):
    """``player`` now picks from this pack (private to that player)."""

    player: str
    cards: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class Picked(Effect):
    """``player`` drafted ``card`` (private)."""

    player: str
    card: int
    name: str


@dataclass(frozen=True)
class PackPassed(Effect):
    """A pack of ``size`` cards went from ``source`` to ``target`` (public)."""

    source: str
    target: str
    size: int


@dataclass(frozen=True)
class DraftFinished(Effect):
    """Every pack of a draft has been picked empty."""

    draft: str


@dataclass(frozen=True)
class RoundStarted(Effect):
    """Round ``round`` begins with these pairings (``("alice",)`` alone is a bye)."""

    round: int
    pairings: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ResultClaimed(Effect):
    """``player`` claims a result; it counts when the opponent claims the same."""

    round: int
    player: str
    players: tuple[str, ...]
    winner: str
    draw: bool


@dataclass(frozen=True)
class ResultRecorded(Effect):
    """The result of a match is final."""

    round: int
    players: tuple[str, ...]
    winner: str
    draw: bool


@dataclass(frozen=True)
class CardsGiven(Effect):
    """Cards entered ``player``'s pool (``source`` says from where: booster, market, shop...)."""

    player: str
    cards: tuple[int, ...]
    names: tuple[str, ...]
    source: str


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def require_referee(action: Action) -> None:
    """Raise ``referee_only`` unless the action comes from the referee (``player=None``)."""
    if action.player is not None:
        raise RulesError("referee_only", player=action.player)


def stand_in_target(league: League, action: StandIn) -> str:
    """The member a :class:`StandIn` acts for (the referee's action only, with a known reason)."""
    require_referee(action)
    if action.reason not in STAND_IN_REASONS:
        raise RulesError("malformed", field="reason")
    return league.require_member(action.target)


def resolve_card(cards: Sequence[CardFacts], ref: object, among: Iterable[int]) -> int:
    """Return the identity of the card ``ref`` designates among ``among`` (the first copy of a name).

    Raises:
        RulesError: ``malformed`` (not an int or str) or ``card_not_found`` (for a name: ``candidates`` when
        it names two or more different cards of ``among``, else ``closest``, the typo suggestions).
    """
    candidates = list(among)
    if isinstance(ref, bool) or not isinstance(ref, (int, str)):
        raise RulesError("malformed", field="card")
    if isinstance(ref, int):
        if ref in candidates:
            return ref
        raise RulesError("card_not_found", card=ref)
    names = [cards[index].name for index in candidates]
    matched = typed_names(ref, names)
    if len(matched) > 1:
        raise RulesError("card_not_found", card=ref, candidates=matched)
    if not matched:
        raise RulesError("card_not_found", card=ref, closest=closest_names(ref, names))
    return candidates[names.index(matched[0])]


def _face_keys(name: str) -> set[str]:
    """The comparison keys of the faces of a split or double-faced card's name (none for one face)."""
    faces = [face for face in re.split(r"/{1,2}", name) if face.strip()]
    return {typed_key(face) for face in faces} if len(faces) > 1 else set()


def deck_card_name(name: str, names: Sequence[str]) -> str | None:
    """The card among ``names`` that a deck's line ``name`` is: the old rule (any case), else the whole name
    folded (:func:`typed_key`) or one face of a split or double-faced card (Cockatrice writes a double-faced
    card by its front face); never a start of a name, since a deck's Shock is no Shocking Grasp. None when
    no card, or more than one, is meant."""
    wanted = name.strip().casefold()
    exact = next((card for card in names if card.casefold() == wanted), None)
    if exact is not None:
        return exact
    key = typed_key(name)
    found = [card for card in match_names(name, names) if key == typed_key(card) or key in _face_keys(card)]
    return found[0] if len(found) == 1 else None


def round_robin_pairings(members: Sequence[str], round_index: int) -> list[tuple[str, ...]]:
    """Pairings of round ``round_index`` (0-based) of a cyclic round robin (circle method).

    With an odd number of members one of them has a bye (a 1-tuple) each round.
    """
    seats: list[str | None] = list(members)
    if len(seats) % 2:
        seats.append(None)
    count = len(seats)
    if count == 0:
        return []
    turns = max(count - 1, 1)
    shift = round_index % turns
    rest = seats[1:]
    rest = rest[len(rest) - shift :] + rest[: len(rest) - shift] if shift else rest
    order = [seats[0], *rest]
    pairs: list[tuple[str, ...]] = []
    for i in range(count // 2):
        a, b = order[i], order[count - 1 - i]
        if a is None and b is not None:
            pairs.append((b,))
        elif b is None and a is not None:
            pairs.append((a,))
        elif a is not None and b is not None:
            pairs.append((a, b))
    return pairs


def bye_counts(members: Sequence[str], rounds: int) -> dict[str, int]:
    """How many byes each of ``members`` gets over ``rounds`` rounds of :func:`round_robin_pairings` (every
    member named, 0 included): uneven when ``rounds`` is not a multiple of the rounds of one full cycle."""
    counts = dict.fromkeys(members, 0)
    for index in range(max(rounds, 0)):
        for pair in round_robin_pairings(members, index):
            if len(pair) == 1:
                counts[pair[0]] += 1
    return counts


def seat_order(members: Sequence[str], seed: int) -> list[str]:
    """``members`` (in join order) in a random seat order drawn from the league's ``seed``, so the first to
    join is not the first given a bye. A stream of its own (the engine's ``rng`` is left as it was); the
    order is journaled in the engine's config, so a restored league keeps the order it started with."""
    order = list(members)
    random.Random(f"league-seats:{seed}").shuffle(order)
    return order


def card_names(cards: Sequence[CardFacts], indices: Iterable[int]) -> tuple[str, ...]:
    """Names of the cards ``indices``, in order (effects carry both)."""
    return tuple(cards[i].name for i in indices)


# ---------------------------------------------------------------------------
# Matches and the league
# ---------------------------------------------------------------------------


@dataclass
class Match:
    """One game of a round. ``players`` has one name for a bye."""

    round: int
    players: tuple[str, ...]
    winner: str = ""
    draw: bool = False
    decided: bool = False
    claims: dict[str, str] = field(default_factory=dict)  # player -> winner name, or "" for a draw

    def loser(self) -> str:
        """The player who lost ("" for a draw, a bye, or an undecided match)."""
        if not self.decided or self.draw or len(self.players) < 2:
            return ""
        return self.players[1] if self.players[0] == self.winner else self.players[0]

    def opponent(self, player: str) -> str:
        """The other player of the match ("" for a bye)."""
        others = [p for p in self.players if p != player]
        return others[0] if others else ""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self) | {"players": list(self.players)}


class League:
    """Members, pools, pairings, results and standings of a league (pure, deterministic)."""

    def __init__(
        self,
        members: Sequence[str],
        cards: Sequence[CardFacts],
        *,
        win_points: int = 2,
        draw_points: int = 1,
        allow_concession: bool = True,
        bye_result: str = "win",
    ) -> None:
        if bye_result not in BYE_RESULTS:
            raise RulesError("bad_config", option="bye_result", value=bye_result)
        if len(set(members)) != len(members) or not all(isinstance(m, str) and m for m in members):
            raise ValueError("league members must be distinct, non-empty user names")
        self.members: list[str] = list(members)
        self.cards: tuple[CardFacts, ...] = tuple(cards)
        self.win_points = win_points
        self.draw_points = draw_points
        self.allow_concession = allow_concession
        self.bye_result = bye_result
        self.pools: dict[str, list[int]] = {m: [] for m in self.members}
        self.round = 0
        self.matches: list[Match] = []  # every match of every round, in order

    # -- members and pools ------------------------------------------------------
    def require_member(self, player: object) -> str:
        """Return ``player`` if it is a member, else raise ``not_a_member``."""
        if not isinstance(player, str) or player not in self.pools:
            raise RulesError("not_a_member", player=player if isinstance(player, (str, int)) else None)
        return player

    def give(self, player: str, cards: Sequence[int], source: str) -> CardsGiven:
        """Put ``cards`` into ``player``'s pool."""
        self.pools[player].extend(cards)
        return CardsGiven(player, tuple(cards), card_names(self.cards, cards), source)

    def take(self, player: str, cards: Sequence[int]) -> None:
        """Remove ``cards`` from ``player``'s pool (the caller has checked ownership)."""
        pool = self.pools[player]
        for card in cards:
            pool.remove(card)

    def resolve_owned(self, player: str, refs: Sequence[object]) -> list[int]:
        """Resolve distinct owned cards from references (the same name twice means two copies). A name is
        matched against the whole pool, then takes a copy not yet taken: two "Fire" are two Fire // Ice,
        never one and a Fireball.

        Raises:
            RulesError: ``card_not_found`` (not owned, or fewer copies owned than named; ``candidates`` or
            ``closest`` as :func:`resolve_card`, from the pool).
        """
        pool = self.pools[player]
        remaining = list(pool)
        chosen: list[int] = []
        for ref in refs:
            if isinstance(ref, str):
                wanted = ref.strip().casefold()  # the old rule first, so journals replay
                card = next(
                    (index for index in remaining if self.cards[index].name.casefold() == wanted), None
                )
                if card is None:
                    name = self.cards[resolve_card(self.cards, ref, pool)].name
                    card = next((index for index in remaining if self.cards[index].name == name), None)
                if card is None:
                    raise RulesError("card_not_found", card=ref)
            else:
                card = resolve_card(self.cards, ref, remaining)
            remaining.remove(card)
            chosen.append(card)
        return chosen

    def missing_from_pool(
        self, player: str, names: Iterable[str], free: Iterable[str] = ()
    ) -> list[DeckProblem]:
        """Problems for every name used more often than ``player`` owns it (``free`` names are unlimited).
        Each name is the pool's card it names (:func:`deck_card_name`), else itself (any case)."""
        free_keys = {typed_key(n) for n in free} | {n.casefold() for n in free}
        pool_names = [self.cards[i].name for i in self.pools[player]]
        owned = Counter(pool_names)
        wanted: Counter[str] = Counter()
        display: dict[str, str] = {}
        for n in names:
            if n.strip().casefold() in free_keys or typed_key(n) in free_keys:
                continue
            card = deck_card_name(n, pool_names)
            key = card if card is not None else n.strip().casefold()
            wanted[key] += 1
            display.setdefault(key, card if card is not None else n.strip())
        problems = []
        for key, count in sorted(wanted.items(), key=lambda item: (item[0].casefold(), item[0])):
            have = owned.get(key, 0)
            if count > have:
                problems.append(DeckProblem("not_in_pool", display[key], count, have))
        return problems

    # -- rounds and results -----------------------------------------------------
    def start_round(self, pairings: Sequence[tuple[str, ...]]) -> list[Effect]:
        """Open the next round with ``pairings``; byes are recorded at once, as ``bye_result`` says."""
        self.round += 1
        effects: list[Effect] = [RoundStarted(self.round, tuple(tuple(p) for p in pairings))]
        for players in pairings:
            match = Match(self.round, tuple(players))
            self.matches.append(match)
            if len(players) == 1:
                match.winner = players[0] if self.bye_result == "win" else ""
                match.draw, match.decided = self.bye_result == "draw", True
                effects.append(ResultRecorded(self.round, match.players, match.winner, match.draw))
        return effects

    def current_matches(self) -> list[Match]:
        return [m for m in self.matches if m.round == self.round]

    def round_done(self) -> bool:
        return self.round > 0 and all(m.decided for m in self.current_matches())

    def match_of(self, player: str, round_no: int | None = None) -> Match | None:
        wanted = self.round if round_no is None else round_no
        for match in self.matches:
            if match.round == wanted and player in match.players:
                return match
        return None

    def report(self, action: ReportResult) -> tuple[Match, list[Effect]]:
        """Validate and record a result or a claim. The returned match is ``decided`` once final.

        Raises:
            RulesError: see the module's error codes; nothing changed.
        """
        if not isinstance(action.winner, str) or not isinstance(action.draw, bool):
            raise RulesError("malformed", field="winner")
        if bool(action.winner) == action.draw:
            raise RulesError("malformed", field="winner_or_draw")
        if action.by_concession and not self.allow_concession:
            raise RulesError("concession_not_allowed")
        if self.round == 0:
            raise RulesError("no_round")
        if action.player is None:
            anchor = action.winner or action.match_of
            if not isinstance(anchor, str) or anchor not in self.pools:
                raise RulesError("not_a_member", player=anchor if isinstance(anchor, str) else None)
        else:
            anchor = self.require_member(action.player)
        match = self.match_of(anchor)
        if match is None or len(match.players) < 2:
            raise RulesError("not_paired", player=anchor, round=self.round)
        if action.match_of and action.match_of not in match.players:
            raise RulesError("no_such_match", player=action.match_of)
        if action.winner and action.winner not in match.players:
            raise RulesError("not_in_match", player=action.winner)
        if match.decided:
            raise RulesError("result_already_recorded", players=list(match.players))
        claim = action.winner  # "" is a draw
        if action.player is None:
            match.claims.clear()
            return match, self._decide(match, claim)
        match.claims[anchor] = claim
        effects: list[Effect] = [ResultClaimed(self.round, anchor, match.players, claim, not claim)]
        other = match.opponent(anchor)
        if match.claims.get(other) == claim:
            effects += self._decide(match, claim)
        return match, effects

    def _decide(self, match: Match, winner: str) -> list[Effect]:
        match.winner, match.draw, match.decided = winner, not winner, True
        return [ResultRecorded(match.round, match.players, match.winner, match.draw)]

    def record(self, player: str) -> dict[str, int]:
        """Wins, draws and losses of ``player`` over every decided match."""
        wins = draws = losses = 0
        for match in self.matches:
            if not match.decided or player not in match.players:
                continue
            if match.draw:
                draws += 1
            elif match.winner == player:
                wins += 1
            else:
                losses += 1
        return {"wins": wins, "draws": draws, "losses": losses}

    def points(self, player: str) -> int:
        rec = self.record(player)
        return rec["wins"] * self.win_points + rec["draws"] * self.draw_points

    def standings(self) -> list[dict[str, Any]]:
        """Members by points, the most first. Members on the same points are tied (no tie-break: their rank
        is shared); they are listed by wins, then name, which only orders the list."""
        rows = [{"player": m, "points": self.points(m), **self.record(m)} for m in self.members]
        rows.sort(key=lambda r: (-r["points"], -r["wins"], r["player"]))
        return rows

    def snapshot(self) -> dict[str, Any]:
        return {
            "members": list(self.members),
            "pools": {m: list(p) for m, p in self.pools.items()},
            "round": self.round,
            "matches": [m.to_json() for m in self.matches],
            "standings": self.standings(),
        }


# ---------------------------------------------------------------------------
# Private drafting around a ring
# ---------------------------------------------------------------------------


class Draft:
    """Packs passed around a ring of seats; each pick goes to the picker's pool in ``league``.

    ``rounds[k][seat]`` is the pack seat ``seat`` opens in pack round ``k``. Picks are asynchronous: a seat
    may hold several packs waiting (a queue); it always picks from the first.
    """

    def __init__(
        self, name: str, league: League, seats: Sequence[str], rounds: Sequence[Sequence[list[int]]]
    ):
        self.name = name
        self.league = league
        self.seats: list[str] = list(seats)
        self.unopened: list[list[list[int]]] = [[list(p) for p in packs] for packs in rounds]
        self.queues: dict[str, list[list[int]]] = {s: [] for s in self.seats}
        self.pack_round = 0
        self.finished = False

    def open_next(self) -> list[Effect]:
        """Open the next pack round (or finish); returns the packs now in front of each seat."""
        effects: list[Effect] = []
        while not self.finished and not any(self.queues.values()):
            if not self.unopened:
                self.finished = True
                effects.append(DraftFinished(self.name))
                break
            packs = self.unopened.pop(0)
            self.pack_round += 1
            for seat, pack in zip(self.seats, packs, strict=True):
                if pack:
                    self.queues[seat].append(pack)
                    effects.append(self._front(seat))
        return effects

    def _front(self, seat: str) -> PackInFront:
        pack = self.queues[seat][0]
        return PackInFront(seat, tuple(pack), card_names(self.league.cards, pack))

    def pending(self, seat: str) -> list[int]:
        """The pack ``seat`` picks from now (empty if none)."""
        queue = self.queues.get(seat) or []
        return list(queue[0]) if queue else []

    def pick_at_random(self, seat: str, rng: Any) -> list[Effect]:
        """The referee's pick for ``seat`` (:class:`StandIn`): a card at random from their pack."""
        pack = self.pending(seat)
        if self.finished or not pack:
            raise RulesError("not_waiting", player=seat)
        return self.pick(Pick(player=seat, card=pack[rng.randrange(len(pack))]))

    def pick(self, action: Pick) -> list[Effect]:
        """Validate and apply a pick.

        Raises:
            RulesError: ``not_a_member``, ``no_pack``, ``card_not_found``, ``malformed``.
        """
        seat = self.league.require_member(action.player)
        if seat not in self.queues:
            raise RulesError("not_a_member", player=seat)
        queue = self.queues[seat]
        if self.finished or not queue:
            raise RulesError("no_pack", player=seat)
        pack = queue[0]
        card = resolve_card(self.league.cards, action.card, pack)
        pack.remove(card)
        queue.pop(0)
        self.league.pools[seat].append(card)
        effects: list[Effect] = [Picked(seat, card, self.league.cards[card].name)]
        if pack:
            target = self.seats[(self.seats.index(seat) + 1) % len(self.seats)]
            self.queues[target].append(pack)
            effects.append(PackPassed(seat, target, len(pack)))
            if len(self.queues[target]) == 1:
                effects.append(self._front(target))
        if queue:
            effects.append(self._front(seat))
        effects += self.open_next()
        return effects

    def cards_held(self) -> list[int]:
        """Every card still in a pack (queued or unopened), for conservation checks."""
        held = [c for queue in self.queues.values() for pack in queue for c in pack]
        held += [c for packs in self.unopened for pack in packs for c in pack]
        return held

    def snapshot(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seats": list(self.seats),
            "pack_round": self.pack_round,
            "finished": self.finished,
            "queues": {s: [list(p) for p in q] for s, q in self.queues.items()},
            "unopened": [[list(p) for p in packs] for packs in self.unopened],
        }
