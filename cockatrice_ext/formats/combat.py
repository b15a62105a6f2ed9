"""Magic Combat Rules (Revision 2): a ten-round, two-player, fight-based variant without mana.

RULE INDEX (seed 004, in our words -> where it lives)
------------------------------------------------------
* Deck: exactly 40 cards, singleton, no lands, no planeswalkers -> :func:`check_deck` (pure); the engine
  refuses ``StartGame`` with ``illegal_deck`` when a deck breaks it (``config.check_decks``).
* Setup: each player draws seven -> ``_do_StartGame``; up to five face-down creatures of mana value 3 or
  less in the five creature slots, fixed once set -> ``PlaceFaceDown``; revealed together ->
  ``SetupDone`` (the reveal happens when both players are done: effect ``CreaturesRevealed``).
* No non-creature spell above the round number -> ``CastSpell`` (``spell_above_round``); the cap is
  :meth:`CombatEngine.spell_cap`.
* One non-aura enchantment in play at a time; a new one discards the old -> ``_resolve_spell``
  (``EnchantmentReplaced``). The seed's "no more than one ... at the same time" is read as table-wide by
  default; ``shared_enchantment=False`` makes it one per player.
* Up to one equipment per player (in play or on the stack) -> ``CastSpell`` (``equipment_limit``); equip the
  same turn only if mana value + equip cost <= round, otherwise on a later turn -> ``Equip``.
* Summon in the first main phase only; mana value 3 or less into an open slot; 4-7 sacrifices one creature,
  8+ two -> ``Summon`` (``_sacrifices_needed``); a sacrificed creature's slot may take the new creature.
* Turn: untap skipped (nothing taps), draw three -> ``_begin_turn``. By default the active player draws three
  at their draw step: the seed's arithmetic (7 + 10 turns x 3 = 37 cards of a 40-card deck) fits that reading;
  ``both_players_draw=True`` is the literal "each player draws three cards" at every draw step. Main ->
  ``Summon``/``Equip``, combat -> below, second main skipped, end.
* Cleanup "as normal": the active player discards down to ``max_hand_size`` (seven) before the turn passes ->
  ``_cleanup`` opens step ``"cleanup"`` (effect ``DiscardToHandSize``), ``Discard`` by the active player
  ends the turn once the hand is small enough. The game's last turn skips it (the game is over). Nobody
  else acts in that step (no player gets priority in cleanup): the other player's ``Discard`` is refused
  (``not_your_cleanup``); at any other time of setup and play either player may discard (card effects).
* Combat: each player places up to three non-creature cards face down in five spell slots -> ``BeginCombat``,
  ``PlaceSpell``; then each may use one activated ability costing at most the round -> ``ActivateAbility``;
  ``CombatReady`` from both opens the fights. The write-up limits casting, not setting: a spell that cannot
  be cast in this turn's fights (above the round, or not an instant for the defender) may still be set for
  a later turn; its player is told privately (``FaceDownPlaced.cannot_cast``, from ``cast_refusals``).
* Fights: the active player picks a creature to fight the creature across -> ``DeclareFight``; before it,
  the active player may reveal any spells, the defender instants only -> ``CastSpell``; they resolve last in,
  first out -> ``ResolveFight`` (``SpellsResolved`` lists the order); repeat until the active player passes
  -> ``EndCombat``. The defender's turn to reveal: the active player's ``ResolveFight`` ends their reveals;
  when the defender has a face-down card in a spell slot (public: which card stays hidden) the fight then
  waits for the defender (``DefenderToAnswer``, :meth:`CombatEngine.answering_player`), who casts instants
  and resolves it with their own ``ResolveFight`` (the referee's, ``player=None``, answers for a silent
  defender); with none the fight resolves at once. The defender is asked even when nothing they have face
  down could be cast now (no instant, or none within the round's cap: :meth:`CombatEngine.castable_spells`,
  private): the write-up keeps face-down cards hidden, and asking only a defender with a castable instant
  would tell the attacker they hold one. ``config.defender_answers`` (off only in games journaled before it)
  turns this on. A defender who casts the last card they had face down has nothing left to answer with (a
  public fact): that ``CastSpell`` resolves the fight at once (``config.answer_ends_with_last_spell``, off
  only in games journaled before it).
  "Fight": each creature deals damage equal to its power to the other. The engine
  settles a fight itself (``FightResolved.settled``, a ``CardLeftPlay`` per death) only when it knows both
  creatures' power and toughness: printed numbers, no rules text but fight-neutral keywords, nothing
  attached, nothing it does not model since they entered (``unsure``), no permanent in play whose text it
  cannot judge (``_unsettled_reason``; text kinds judged once from the card data: :func:`fight_text_kind`,
  ``config.fight_texts``). Otherwise ``FightResolved.dies`` names who dies by printed power and toughness and
  the owners confirm with ``LeavePlay`` (the referee/players move cards).
* Scoring: at the end of combat each of the active player's creatures with no creature across (unblocked)
  scores one point -> ``_do_EndCombat`` (``PointsScored``); ``AdjustPoints`` is a referee correction.
* Ten rounds, one turn each per round, most points wins, ties possible -> ``_end_turn`` (``GameOver``).
* A player who concedes or leaves (reported by the referee) ends the game; the other wins -> ``RemovePlayer``
  (``GameOver`` with ``out`` and ``reason``).
* Life starts at 20 and never ends the game; players take no combat damage -> ``AdjustLife`` just tracks it.
* A player who cannot draw: both players shuffle their used cards into their draw piles -> ``_draw_cards``
  (``DrawPileReshuffled``); if still empty the draw does nothing.

Refusal codes (``RulesError.code``)
-----------------------------------
``not_started``, ``already_started``, ``game_over``, ``bad_player_count``, ``bad_config``, ``illegal_deck``,
``not_a_player``, ``not_your_turn``, ``not_your_cleanup``, ``wrong_step``, ``no_such_card``,
``card_not_available`` (both with ``where``: ``"hand"`` or ``"play"``, where the card was looked for),
``settled_death`` (``LeavePlay`` of a creature a settled fight already put in its owner's used pile: ``card``,
the fight's ``slot``, its ``owner`` and the acting ``player``),
``bad_slot``, ``slot_occupied``, ``slot_empty``, ``not_a_creature``, ``not_a_spell``, ``mana_value_too_high``
(setup), ``already_done``, ``wrong_sacrifices``, ``spell_limit``, ``ability_used``, ``cost_above_round``,
``spell_above_round``, ``defender_instants_only``, ``equipment_limit``, ``needs_target``, ``fight_pending``,
``no_fight_pending``, ``defender_answering`` (the fight waits for ``defender``: the active player neither
casts nor resolves), ``active_player_first`` (the defender resolves only once ``active_player`` has),
``already_fought``, ``no_opponent_across``, ``no_equipment``, ``equip_not_yet``,
``bad_count``, ``bad_amount``, ``bad_destination``, ``bad_reason``, ``unknown_action``.

Card references: an ``int`` is the card's index in ``config.cards``; a ``str`` is a name as players type it
(``cards.typed.match_names``: case, accents, a phone's apostrophe, one face, a unique start) among the cards
the action may mean (the player's hand, the permanents in play) -> ``_card``; ``no_such_card`` then carries
``candidates`` (two or more different cards matched) or ``closest`` (none did).
Slots are 0-based (0..4); slot ``i`` faces the opponent's slot ``i``.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.cards.typed import closest_names, typed_names
from cockatrice_ext.formats.base import Action, CardRef, Effect, Engine, PlayerId, RulesError, register

LOGGER = logging.getLogger(__name__)

DECK_SIZE = 40


# ---------------------------------------------------------------------------
# Deck legality (pure)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckProblem:
    """One reason a deck is illegal. ``card`` is ``None`` for whole-deck problems (the size)."""

    code: str  # "deck_size", "not_singleton", "land", "planeswalker"
    card: str | None = None
    count: int = 0


def check_deck(cards: Sequence[CardFacts], *, deck_size: int = DECK_SIZE) -> list[DeckProblem]:
    """List every way ``cards`` breaks the deck rules (empty list = legal).

    Exactly ``deck_size`` cards; at most one copy of a name; no lands; no planeswalkers. Each offending
    card is named once per problem.
    """
    problems: list[DeckProblem] = []
    if len(cards) != deck_size:
        problems.append(DeckProblem("deck_size", None, len(cards)))
    counts = Counter(c.name for c in cards)
    reported: set[tuple[str, str]] = set()
    for card in cards:
        for code, bad in (
            ("not_singleton", counts[card.name] > 1),
            ("land", card.is_land),
            ("planeswalker", "Planeswalker" in card.types),
        ):
            if bad and (code, card.name) not in reported:
                reported.add((code, card.name))
                problems.append(DeckProblem(code, card.name, counts[card.name]))
    return problems


# ---------------------------------------------------------------------------
# What a card's rules text can do in a fight (pure, judged once from the card data)
# ---------------------------------------------------------------------------

PLAIN = "plain"
"""No rules text but keywords that change nothing in a fight: the referee may settle its fights."""
QUIET = "quiet"
"""Rules text that can change no other creature's damage or death (keywords acting on the card itself,
"draw a card", "gain 2 life")."""
ATTACHED = "attached"
"""An aura or equipment whose text acts only on the creature it is attached to."""
OPEN = "open"
"""Anything else: text the referee cannot judge (a pump, a lord, a trigger, an unknown keyword)."""
TEXT_KINDS = (PLAIN, QUIET, ATTACHED, OPEN)

FIGHT_NEUTRAL_KEYWORDS = frozenset(
    {
        "flying",
        "reach",
        "vigilance",
        "haste",
        "trample",
        "menace",
        "defender",
        "hexproof",
        "shroud",
        "flash",
        "fear",
        "intimidate",
        "shadow",
        "horsemanship",
    }
)
"""Keywords about attacking, blocking, targeting or timing: nothing in a fight (each creature deals damage
equal to its power to the other) depends on them."""
SELF_KEYWORDS = frozenset({"first strike", "double strike", "lifelink", "deathtouch", "indestructible"})
"""Keywords acting on the card's own damage or death only. Fight damage is not combat damage, but a
fighter with first strike is still not settled by the referee: players may read the variant's fight as
combat, and only they can say which they play."""
_NEUTRAL_PATTERN = re.compile(r"[a-z]*walk|(nonbasic|legendary) landwalk|hexproof from .+")
_SELF_PATTERN = re.compile(r"protection from .+")
_REMINDER = re.compile(r"\([^)]*\)")
_RISKY = re.compile(
    r"creature|damage|counter|power|toughness|[+-][0-9x]|[0-9x*]/|/[0-9x*]|destroy|\bdie|dying|sacrific"
    r"|exile|return|fight|prevent|regenerat|indestructible|protection|deathtouch|wither|infect|strike"
    r"|lifelink|\beach\b|\ball\b|\bother|control|target|permanent|\bgets?\b|\bhas\b|\bhave\b|becom"
    r"|switch|\bcop(y|ies)\b|attach|enchant|equip|block|attack|phas|transform|\bface\b|morph|manifest"
)
"""Words of a rules text that may reach a creature's power, toughness, damage or death."""
_ATTACHMENT_LINE = re.compile(r"enchant( [a-z]+)* creature|equip\b.*")
_ON_ATTACHED = re.compile(r"(enchanted|equipped) creature [^:\"\u201c]*")
"""A static ability of the attached creature alone (a quoted, granted ability is not one)."""


def printed_number(value: str | None) -> int | None:
    """A printed power or toughness as a number; ``None`` for ``*``, ``1+*``, ``X`` or nothing."""
    return int(value) if value is not None and re.fullmatch(r"-?[0-9]{1,4}", value.strip()) else None


def fight_text_kind(facts: CardFacts, texts: Sequence[str]) -> str:
    """What ``texts`` (the card's rules text, one per face) can do in a fight: :data:`PLAIN`, :data:`QUIET`,
    :data:`ATTACHED` or :data:`OPEN`.

    Conservative: a card without a face is :data:`OPEN`; reminder text is ignored, so a line that is no
    known keyword and no sentence (an unknown keyword such as "Exalted") is :data:`OPEN`, and so is a
    sentence with any word that might touch a creature (:data:`_RISKY`).
    """
    if not texts:  # no face, no text known: not a vanilla card
        return OPEN
    attachment = "Aura" in facts.subtypes or "Equipment" in facts.subtypes
    kind = PLAIN
    for text in texts:
        for raw_line in text.casefold().splitlines():
            line = _REMINDER.sub("", raw_line).strip()
            if not line:
                continue
            parts = [part.strip().rstrip(".") for part in re.split(r"[,;]", line)]
            if all(p in FIGHT_NEUTRAL_KEYWORDS or _NEUTRAL_PATTERN.fullmatch(p) for p in parts):
                continue
            if all(
                p in FIGHT_NEUTRAL_KEYWORDS
                or _NEUTRAL_PATTERN.fullmatch(p)
                or p in SELF_KEYWORDS
                or _SELF_PATTERN.fullmatch(p)
                for p in parts
            ):
                kind = kind if kind == ATTACHED else QUIET
                continue
            sentence = line.rstrip(".")
            if attachment and (_ATTACHMENT_LINE.fullmatch(sentence) or _ON_ATTACHED.fullmatch(sentence)):
                kind = ATTACHED
                continue
            if not line.endswith(".") or _RISKY.search(line):
                return OPEN
            kind = kind if kind == ATTACHED else QUIET
    return kind


# ---------------------------------------------------------------------------
# Config
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CombatConfig:
    """Options of a Magic Combat Rules game; defaults follow the seed."""

    players: tuple[PlayerId, ...] = ()
    """The two players; the first takes the first turn of every round."""
    cards: tuple[CardFacts, ...] = ()
    """Both decks, one entry per physical card."""
    owners: tuple[int, ...] = ()
    """Seat (0 or 1) owning each card of ``cards``."""
    rounds: int = 10
    deck_size: int = DECK_SIZE
    opening_hand: int = 7
    draws_per_turn: int = 3
    both_players_draw: bool = False
    """Both players draw at every draw step (the literal reading) instead of the active player only."""
    max_hand_size: int = 7
    """Cleanup: the active player discards down to this many cards before the turn passes."""
    creature_slots: int = 5
    spell_slots: int = 5
    spells_per_combat: int = 3
    setup_max_mana_value: int = 3
    starting_life: int = 20
    shared_enchantment: bool = True
    check_decks: bool = True
    fight_texts: tuple[str, ...] = ()
    """Per card of ``cards``, what its rules text can do in a fight (:func:`fight_text_kind`), judged from
    the card data when the game was created. Empty (a game journaled before this field, or no card data)
    means nothing is known: the referee then settles no fight itself."""
    defender_answers: bool = False
    """The defender's turn to reveal instants before a fight resolves (the write-up's rule). False only so
    that a game journaled before it (its config lacks the field) replays as it was played, the active
    player's ``ResolveFight`` settling the fight at once; :meth:`from_decks` (every new game) turns it on."""
    answer_ends_with_last_spell: bool = False
    """A defender who casts the last card they had face down has nothing left to answer with (a public
    fact: the table shows their empty spell slots), so the fight resolves at once, as their own
    ``ResolveFight`` would. False only so that a game journaled before it replays as it was played (the
    defender's ``ResolveFight`` or the answer clock then resolved it); :meth:`from_decks` turns it on."""

    @classmethod
    def from_decks(
        cls,
        players: tuple[PlayerId, PlayerId],
        decks: tuple[Sequence[CardFacts], Sequence[CardFacts]],
        *,
        texts: tuple[Sequence[str], Sequence[str]] | None = None,
        **options: Any,
    ) -> CombatConfig:
        """Build a config from each player's deck (in seat order); ``texts``: each deck's fight text kinds,
        card by card (see :attr:`fight_texts`). The defender answers before each fight
        (:attr:`defender_answers`) unless ``options`` says otherwise."""
        options.setdefault("defender_answers", True)
        options.setdefault("answer_ends_with_last_spell", True)
        cards = tuple(decks[0]) + tuple(decks[1])
        owners = (0,) * len(decks[0]) + (1,) * len(decks[1])
        if texts is not None:
            options["fight_texts"] = tuple(texts[0]) + tuple(texts[1])
        return cls(players=tuple(players), cards=cards, owners=owners, **options)


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StartGame(Action):
    """Referee: check the decks, shuffle them and deal the opening hands."""


@dataclass(frozen=True)
class PlaceFaceDown(Action):
    """Setup: put a creature (mana value <= 3) from hand face down into a creature slot."""

    card: int | str = 0
    slot: int = 0


@dataclass(frozen=True)
class SetupDone(Action):
    """Setup: ``player`` has placed their creatures; both done = reveal together."""


@dataclass(frozen=True)
class Summon(Action):
    """First main phase: summon a creature from hand into ``slot``, sacrificing those in ``sacrifices``."""

    card: int | str = 0
    slot: int = 0
    sacrifices: tuple[int, ...] = ()


@dataclass(frozen=True)
class Equip(Action):
    """Attach ``player``'s equipment to their creature in ``slot``; ``cost`` is the card's equip cost."""

    slot: int = 0
    cost: int = 0


@dataclass(frozen=True)
class BeginCombat(Action):
    """The active player leaves the main phase: spell placement starts."""


@dataclass(frozen=True)
class PlaceSpell(Action):
    """Combat: put a non-creature card from hand face down into an empty spell slot (three per combat)."""

    card: int | str = 0
    slot: int = 0


@dataclass(frozen=True)
class ActivateAbility(Action):
    """Combat: ``player`` uses an activated ability of their creature in ``slot``; ``cost`` <= round."""

    slot: int = 0
    cost: int = 0


@dataclass(frozen=True)
class CombatReady(Action):
    """``player`` is done placing spells and using an ability; both ready = fights begin."""


@dataclass(frozen=True)
class DeclareFight(Action):
    """The active player's creature in ``slot`` will fight the creature across."""

    slot: int = 0


@dataclass(frozen=True)
class CastSpell(Action):
    """Before the pending fight: reveal the spell in ``spell_slot``; auras name a target creature."""

    spell_slot: int = 0
    target_player: PlayerId | None = None
    target_slot: int | None = None


@dataclass(frozen=True)
class ResolveFight(Action):
    """The active player is done revealing: the revealed spells resolve (last in, first out), then the
    fight; unless the defender has face-down spells, when the defender's ``ResolveFight`` (or the
    referee's, ``player=None``, for a defender who does not answer) does it after their instants."""


@dataclass(frozen=True)
class EndCombat(Action):
    """The active player has no more fights: unblocked creatures score and the turn ends."""


@dataclass(frozen=True)
class LeavePlay(Action):
    """A permanent leaves play (died, sacrificed, bounced): ``to`` is ``"used"`` or ``"hand"``."""

    card: int | str = 0
    to: str = "used"


@dataclass(frozen=True)
class Discard(Action):
    """``player`` discards a card from hand to their used pile."""

    card: int | str = 0


@dataclass(frozen=True)
class Draw(Action):
    """A card effect makes ``player`` draw ``count`` cards."""

    count: int = 1


@dataclass(frozen=True)
class AdjustLife(Action):
    """Life gained or lost by ``target`` (never ends the game)."""

    target: PlayerId | None = None
    delta: int = 0


@dataclass(frozen=True)
class AdjustPoints(Action):
    """Referee-only correction of ``target``'s points."""

    target: PlayerId | None = None
    delta: int = 0


@dataclass(frozen=True)
class RemovePlayer(Action):
    """Referee (``player=None``): ``target`` conceded or left the started game (``reason``: ``"conceded"``,
    ``"left"``). Two play, so the game is over: the other player wins, whatever the points."""

    target: PlayerId | None = None
    reason: str = "conceded"


# ---------------------------------------------------------------------------
# Effects
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted(Effect):
    players: tuple[PlayerId, ...]
    rounds: int


@dataclass(frozen=True)
class CardsDrawn(Effect):
    """``player`` drew ``cards`` (private to ``visible_to``; the count is public)."""

    player: PlayerId
    cards: tuple[CardRef, ...]
    visible_to: PlayerId | None


@dataclass(frozen=True)
class DrawPileReshuffled(Effect):
    """Both players shuffled their used cards into their draw piles (new pile sizes, seat order)."""

    pile_sizes: tuple[int, ...]


@dataclass(frozen=True)
class FaceDownPlaced(Effect):
    """A face-down card went to a slot (``zone`` "creature" or "spell"); the card is private.

    ``cannot_cast``: a spell set that its player may not cast in this turn's fights, why (the refusal
    codes ``CastSpell`` would give: ``spell_above_round``, ``defender_instants_only``), for ``visible_to``
    only. Setting it is allowed (the write-up limits casting, not setting; it waits in its slot for a
    later turn); the field is newer than the effect, so journals without it replay unchanged.
    """

    player: PlayerId
    zone: str
    slot: int
    card: CardRef
    visible_to: PlayerId | None
    cannot_cast: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerReady(Effect):
    player: PlayerId
    stage: str


@dataclass(frozen=True)
class CreaturesRevealed(Effect):
    """Setup reveal: ``player``'s creatures by slot (``None`` = empty)."""

    player: PlayerId
    slots: tuple[CardRef | None, ...]


@dataclass(frozen=True)
class TurnStarted(Effect):
    player: PlayerId
    round: int
    spell_cap: int


@dataclass(frozen=True)
class StepChanged(Effect):
    step: str


@dataclass(frozen=True)
class DiscardToHandSize(Effect):
    """Cleanup: ``player`` must discard ``count`` cards (down to ``hand_size``) before the turn passes."""

    player: PlayerId
    count: int
    hand_size: int


@dataclass(frozen=True)
class CreatureSummoned(Effect):
    player: PlayerId
    card: CardRef
    slot: int
    sacrificed: tuple[CardRef, ...]


@dataclass(frozen=True)
class AbilityActivated(Effect):
    player: PlayerId
    slot: int
    card: CardRef
    cost: int


@dataclass(frozen=True)
class FightDeclared(Effect):
    player: PlayerId
    slot: int
    attacker: CardRef
    defender: CardRef


@dataclass(frozen=True)
class SpellCast(Effect):
    """A spell slot was revealed onto the stack for the pending fight."""

    player: PlayerId
    card: CardRef
    spell_slot: int
    target_player: PlayerId | None
    target_slot: int | None


@dataclass(frozen=True)
class DefenderToAnswer(Effect):
    """The active player is done revealing for the fight in ``slot``; it waits for ``player``, the defender,
    who has face-down spells: instants (``CastSpell``), then ``ResolveFight``. Said whether or not one of
    them can be cast now (that stays hidden)."""

    player: PlayerId
    slot: int


@dataclass(frozen=True)
class SpellsResolved(Effect):
    """The stack resolved in this order (last cast first)."""

    cards: tuple[CardRef, ...]


@dataclass(frozen=True)
class EnchantmentReplaced(Effect):
    """A new non-aura enchantment entered; the old one (``None`` if none) was discarded."""

    player: PlayerId
    card: CardRef
    discarded: CardRef | None
    discarded_owner: PlayerId | None


@dataclass(frozen=True)
class PermanentEntered(Effect):
    """An aura or equipment resolved; ``attached_to`` is the (player, slot) an aura enchants."""

    player: PlayerId
    card: CardRef
    kind: str
    attached_to: tuple[PlayerId, int] | None


@dataclass(frozen=True)
class SpellFizzled(Effect):
    player: PlayerId
    card: CardRef


@dataclass(frozen=True)
class FightResolved(Effect):
    """The fight in ``slot`` happened (``attacker`` or ``defender`` is ``None`` when it left play first).

    ``settled``: the referee applied its result from power and toughness (each dead creature's
    ``CardLeftPlay`` follows); ``dies`` are then the creatures that died. Not settled, ``dies`` are those
    that die by printed power and toughness (their owners confirm with ``LeavePlay``), ``reason`` says
    why the referee could not settle it (:data:`UNSETTLED_REASONS`) and ``reason_cards`` the face-up cards
    behind that. The last four fields are newer than the effect: journals without them replay unchanged.
    """

    player: PlayerId
    slot: int
    attacker: CardRef | None
    defender: CardRef | None
    settled: bool = False
    dies: tuple[CardRef, ...] = ()
    reason: str = ""
    reason_cards: tuple[CardRef, ...] = ()


UNSETTLED_REASONS = ("no_card_data", "no_fight", "rules_text", "attached", "altered", "in_play")
"""Why a fight is not settled by the referee: the game has no fight text kinds (journaled before them);
a fighter left play before the fight; a fighter's rules text (``reason_cards``: it); an aura or equipment
on a fighter (the attached card, then the fighter); an earlier spell, ability, fight or departed permanent
the engine cannot model may have changed a fighter (its cause, then the fighter); a permanent in play whose
text the referee cannot judge (it)."""


@dataclass(frozen=True)
class Equipped(Effect):
    player: PlayerId
    equipment: CardRef
    slot: int
    creature: CardRef


@dataclass(frozen=True)
class CardLeftPlay(Effect):
    """``card`` went from play to ``to`` (``"used"``/``"hand"``) of ``owner``."""

    owner: PlayerId
    card: CardRef
    to: str


@dataclass(frozen=True)
class CardDiscarded(Effect):
    player: PlayerId
    card: CardRef


@dataclass(frozen=True)
class PointsScored(Effect):
    """End of combat: ``slots`` held unblocked creatures; ``points`` is the new total."""

    player: PlayerId
    slots: tuple[int, ...]
    scored: int
    points: int


@dataclass(frozen=True)
class LifeChanged(Effect):
    player: PlayerId
    delta: int
    life: int


@dataclass(frozen=True)
class TurnEnded(Effect):
    player: PlayerId
    round: int


@dataclass(frozen=True)
class GameOver(Effect):
    """After the last round: ``winner`` is ``None`` on a tie; ``points`` in seat order. Or earlier, when a
    player went (:class:`RemovePlayer`): ``out`` is that player, ``reason`` why (``"conceded"``, ``"left"``),
    and the other player is ``winner``. The last two fields are newer than the effect: journals without them
    replay unchanged."""

    winner: PlayerId | None
    points: tuple[int, ...]
    out: PlayerId | None = None
    reason: str = ""


# ---------------------------------------------------------------------------
# Engine
# ---------------------------------------------------------------------------


@dataclass
class _Seat:
    draw_pile: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    used: list[int] = field(default_factory=list)
    creatures: list[int | None] = field(default_factory=list)
    spells: list[int | None] = field(default_factory=list)
    enchantment: int | None = None
    equipment: int | None = None
    equipment_turn: int = 0
    equipped_slot: int | None = None
    auras: list[tuple[int, int, int]] = field(default_factory=list)  # (aura, enchanted seat, slot)
    points: int = 0
    life: int = 20
    setup_done: bool = False
    combat_ready: bool = False
    placed_this_combat: int = 0
    ability_used: bool = False


@register
class CombatEngine(Engine[CombatConfig]):
    """State machine of one Magic Combat Rules game, tracking what a referee can check."""

    name: ClassVar[str] = "combat"
    config_type: ClassVar[type[Any]] = CombatConfig
    action_types: ClassVar[tuple[type[Action], ...]] = (
        StartGame,
        PlaceFaceDown,
        SetupDone,
        Summon,
        Equip,
        BeginCombat,
        PlaceSpell,
        ActivateAbility,
        CombatReady,
        DeclareFight,
        CastSpell,
        ResolveFight,
        EndCombat,
        LeavePlay,
        Discard,
        Draw,
        AdjustLife,
        AdjustPoints,
        RemovePlayer,
    )

    def __init__(self, config: CombatConfig, *, seed: int) -> None:
        super().__init__(config, seed=seed)
        self.phase = "new"  # new -> setup -> play -> over
        self.round = 0
        self.active = 0  # seat index of the active player
        self.turn = 0  # turns started so far (both players), for "that turn" checks
        self.step = ""  # play phase: main -> combat -> fights
        self.fight_slot: int | None = None
        self.answering = False  # the pending fight waits for the defender's instants and ResolveFight
        self.fought: list[int] = []
        self.stack: list[tuple[int, int, PlayerId | None, int | None]] = []  # (seat, card, target p, slot)
        self.seats = [
            _Seat(
                creatures=[None] * config.creature_slots,
                spells=[None] * config.spell_slots,
                life=config.starting_life,
            )
            for _ in config.players
        ]
        self.winner: PlayerId | None = None
        self.out: PlayerId | None = None  # who conceded or left, ending the game early (RemovePlayer)
        self.out_reason = ""
        # Creatures in play whose power, toughness or damage the engine can no longer vouch for, each with
        # the card that caused it (an open spell resolved, an ability was used, an unsettled fight...):
        # their fights are not settled by the referee until they leave play.
        self.unsure: dict[int, int] = {}
        # Creatures a fight the engine settled put in their owner's used pile, each with the fight's slot, so
        # that a later ``LeavePlay`` of one says where it went (until it leaves that pile).
        self.settled_deaths: dict[int, int] = {}

    # -- queries ----------------------------------------------------------------
    def spell_cap(self) -> int:
        """Highest mana value a non-creature spell (or ability cost) may have now: the round number."""
        return self.round

    @property
    def whose_turn(self) -> PlayerId | None:
        return self.config.players[self.active] if self.phase == "play" else None

    def answering_player(self) -> PlayerId | None:
        """The defender, while the pending fight waits for their instants and ``ResolveFight``; else None."""
        if self.phase != "play" or self.fight_slot is None or not self.answering:
            return None
        return self.config.players[self._other(self.active)]

    def has_face_down_spells(self, player: PlayerId) -> bool:
        """Whether ``player`` has a card face down in a spell slot (public; which card it is stays hidden)."""
        return any(card is not None for card in self.seats[self._seat(player)].spells)

    def castable_spells(self, player: PlayerId) -> list[int]:
        """The spell slots (0-based) whose face-down card ``player`` could cast in the pending fight now, by
        the round's cap and the defender's instants only (:meth:`cast_refusals`). Private: it depends on
        which cards they are, so nothing public may follow from it (the defender is asked either way)."""
        seat = self._seat(player)
        spells = self.seats[seat].spells
        return [
            slot
            for slot, card in enumerate(spells)
            if card is not None and not self.cast_refusals(seat, card)
        ]

    def points(self, player: PlayerId) -> int:
        return self.seats[self._seat(player)].points

    def life(self, player: PlayerId) -> int:
        return self.seats[self._seat(player)].life

    def hand_size(self, player: PlayerId) -> int:
        return len(self.seats[self._seat(player)].hand)

    def is_over(self) -> bool:
        return self.phase == "over"

    def players_in(self) -> tuple[PlayerId, ...]:
        """Both players but the one who conceded or left (``out``, which ends the game)."""
        return tuple(player for player in self.config.players if player != self.out)

    def scoreboard(self) -> dict[str, Any]:
        """The public score the bot shows: round, the round's spell cap, points and life per player."""
        return {
            "round": self.round,
            "rounds": self.config.rounds,
            "spell_cap": self.spell_cap(),
            "active_player": self.whose_turn,
            "points": [[p, s.points] for p, s in zip(self.config.players, self.seats, strict=True)],
            "life": [[p, s.life] for p, s in zip(self.config.players, self.seats, strict=True)],
            "winner": self.winner,
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            "engine": self.name,
            "phase": self.phase,
            "round": self.round,
            "rounds": self.config.rounds,
            "spell_cap": self.spell_cap(),
            "active_player": self.whose_turn,
            "turn": self.turn,
            "step": self.step,
            "fight_slot": self.fight_slot,
            "answering": self.answering,
            "fought": list(self.fought),
            "stack": [list(entry) for entry in self.stack],
            "unsure": sorted([card, cause] for card, cause in self.unsure.items()),
            "settled_deaths": sorted([card, slot] for card, slot in self.settled_deaths.items()),
            "winner": self.winner,
            "out": self.out,
            "out_reason": self.out_reason,
            "players": [
                {
                    "player": p,
                    "points": s.points,
                    "life": s.life,
                    "draw_pile": list(s.draw_pile),
                    "hand": list(s.hand),
                    "used": list(s.used),
                    "creatures": list(s.creatures),
                    "spells": list(s.spells),
                    "enchantment": s.enchantment,
                    "equipment": s.equipment,
                    "equipment_turn": s.equipment_turn,
                    "equipped_slot": s.equipped_slot,
                    "auras": [list(a) for a in s.auras],
                    "setup_done": s.setup_done,
                    "combat_ready": s.combat_ready,
                    "placed_this_combat": s.placed_this_combat,
                    "ability_used": s.ability_used,
                }
                for p, s in zip(self.config.players, self.seats, strict=True)
            ],
        }

    def card_locations(self) -> dict[int, str]:
        """Where each card is, e.g. ``"hand:0"``; raises ``AssertionError`` if a card is in two places."""
        where: dict[int, str] = {}

        def put(cards: Sequence[int | None], zone: str) -> None:
            for c in cards:
                if c is None:
                    continue
                if c in where:
                    raise AssertionError(f"card {c} in {where[c]} and {zone}")
                where[c] = zone

        for i, s in enumerate(self.seats):
            put(s.draw_pile, f"draw_pile:{i}")
            put(s.hand, f"hand:{i}")
            put(s.used, f"used:{i}")
            put(s.creatures, f"creature:{i}")
            put(s.spells, f"spell_slot:{i}")
            put([s.enchantment, s.equipment], f"permanent:{i}")
            put([a for a, _, _ in s.auras], f"aura:{i}")
        put([card for _, card, _, _ in self.stack], "stack")
        return where

    # -- dispatch ---------------------------------------------------------------
    def apply(self, action: Action) -> list[Effect]:
        handler = getattr(self, "_do_" + type(action).__name__, None)
        if handler is None or type(action) not in self.action_types:
            raise RulesError("unknown_action", action=type(action).__name__)
        if self.phase == "over":
            raise RulesError("game_over")
        if self.phase == "new" and not isinstance(action, StartGame):
            raise RulesError("not_started")
        effects: list[Effect] = handler(action)
        return effects

    # -- helpers ----------------------------------------------------------------
    def _ref(self, index: int) -> CardRef:
        return CardRef(index, self.config.cards[index].name)

    def _seat(self, player: PlayerId | None) -> int:
        if player is None or player not in self.config.players:
            raise RulesError("not_a_player", player=player)
        return self.config.players.index(player)

    def _active_seat(self, player: PlayerId | None) -> int:
        seat = self._seat(player)
        if self.phase != "play":
            raise RulesError("wrong_step", phase=self.phase)
        if seat != self.active:
            raise RulesError("not_your_turn", active_player=self.whose_turn)
        return seat

    def _require_step(self, *steps: str) -> None:
        if self.phase != "play" or self.step not in steps:
            raise RulesError("wrong_step", step=self.step or self.phase, needed=list(steps))

    def _slot(self, slot: Any, count: int) -> int:
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < count:
            raise RulesError("bad_slot", slot=slot, slots=count)
        return slot

    def _card(self, ref: Any, candidates: Sequence[int | None], where: str) -> int:
        """Resolve a card index or name (as players type it, :func:`typed_names`; the first copy of a name)
        among ``candidates``, which the acting player sees (their hand, the permanents in play); ``where``
        (``"hand"``, ``"play"``) names them in a refusal, with ``candidates`` or ``closest`` for a name."""
        pool = [c for c in candidates if c is not None]
        if isinstance(ref, bool) or not isinstance(ref, (int, str)):
            raise RulesError("no_such_card", card=repr(ref), where=where)
        if isinstance(ref, int):
            if not 0 <= ref < len(self.config.cards):
                raise RulesError("no_such_card", card=ref, where=where)
            if ref not in pool:
                raise RulesError("card_not_available", card=ref, where=where)
            return ref
        names = [self.config.cards[c].name for c in pool]
        matched = typed_names(ref, names)
        if len(matched) > 1:
            raise RulesError("no_such_card", card=ref, where=where, candidates=matched)
        if not matched:
            raise RulesError("no_such_card", card=ref, where=where, closest=closest_names(ref, names))
        return pool[names.index(matched[0])]

    def _other(self, seat: int) -> int:
        return 1 - seat

    def text_kind(self, card: int) -> str:
        """What ``card``'s rules text can do in a fight (:func:`fight_text_kind`, judged when the game was
        created); :data:`OPEN` when the game does not know."""
        texts = self.config.fight_texts
        kind = texts[card] if len(texts) == len(self.config.cards) else OPEN
        return kind if kind in TEXT_KINDS else OPEN

    def _creatures_in_play(self) -> list[int]:
        return [c for s in self.seats for c in s.creatures if c is not None]

    def permanents_in_play(self) -> list[int]:
        """Every permanent in play (creatures, enchantments, equipment, auras), seat by seat."""
        found: list[int] = []
        for s in self.seats:
            found += [c for c in (*s.creatures, s.enchantment, s.equipment) if c is not None]
            found += [aura for aura, _, _ in s.auras]
        return found

    def _mark_unsure(self, creatures: Sequence[int | None], cause: int) -> None:
        """The engine can no longer vouch for ``creatures``' power, toughness and damage (``cause`` may have
        changed them in a way it does not model) until they leave play; the latest cause is the one named."""
        for creature in creatures:
            if creature is not None:
                self.unsure[creature] = cause

    def _left_play(self, card: int, attached_to: int | None = None) -> None:
        """A permanent left play: an open one may have changed any creature (a lasting counter, a trigger
        as it leaves), an aura or equipment the creature it was on."""
        kind = self.text_kind(card)
        if kind == OPEN:
            self._mark_unsure(self._creatures_in_play(), card)
        elif kind == ATTACHED and attached_to is not None:
            self._mark_unsure([attached_to], card)

    # -- start and setup ---------------------------------------------------------------
    def _do_StartGame(self, action: StartGame) -> list[Effect]:
        if self.phase != "new":
            raise RulesError("already_started")
        cfg = self.config
        if len(cfg.players) != 2 or len(set(cfg.players)) != 2:
            raise RulesError("bad_player_count", players=len(cfg.players), needed=2)
        if len(cfg.owners) != len(cfg.cards) or any(o not in (0, 1) for o in cfg.owners):
            raise RulesError("bad_config", option="owners")
        if cfg.rounds < 1 or cfg.creature_slots < 1 or cfg.spell_slots < 0:
            raise RulesError("bad_config", option="rounds/slots")
        if cfg.max_hand_size < 0:
            raise RulesError("bad_config", option="max_hand_size")
        if cfg.fight_texts and len(cfg.fight_texts) != len(cfg.cards):
            raise RulesError("bad_config", option="fight_texts")
        decks = [[i for i, o in enumerate(cfg.owners) if o == seat] for seat in (0, 1)]
        if cfg.check_decks:
            for seat, deck in enumerate(decks):
                problems = check_deck([cfg.cards[i] for i in deck], deck_size=cfg.deck_size)
                if problems:
                    raise RulesError(
                        "illegal_deck",
                        player=cfg.players[seat],
                        problems=[{"code": p.code, "card": p.card, "count": p.count} for p in problems],
                    )
        effects: list[Effect] = [GameStarted(tuple(cfg.players), cfg.rounds)]
        for seat, deck in enumerate(decks):
            self.rng.shuffle(deck)
            self.seats[seat].draw_pile = deck
        self.phase = "setup"
        for seat in (0, 1):
            effects += self._draw_cards(seat, cfg.opening_hand)
        return effects

    def _do_PlaceFaceDown(self, action: PlaceFaceDown) -> list[Effect]:
        seat = self._seat(action.player)
        if self.phase != "setup":
            raise RulesError("wrong_step", phase=self.phase)
        me = self.seats[seat]
        if me.setup_done:
            raise RulesError("already_done")
        slot = self._slot(action.slot, self.config.creature_slots)
        card = self._card(action.card, me.hand, "hand")
        if (refusal := self._setup_refusal(card)) is not None:
            raise refusal
        if me.creatures[slot] is not None:
            raise RulesError("slot_occupied", slot=slot)
        me.hand.remove(card)
        me.creatures[slot] = card
        return [FaceDownPlaced(action.player, "creature", slot, self._ref(card), visible_to=action.player)]  # type: ignore[arg-type]

    def _setup_refusal(self, card: int) -> RulesError | None:
        """Why ``card`` may not be placed at setup (None: it may): a creature of low enough mana value."""
        facts, cap = self.config.cards[card], self.config.setup_max_mana_value
        if not facts.is_creature:
            return RulesError("not_a_creature", card=facts.name)
        if facts.mana_value > cap:
            return RulesError("mana_value_too_high", card=facts.name, maximum=cap)
        return None

    def setup_choices(self, player: PlayerId) -> list[int]:
        """The positions in ``player``'s hand (0-based) of the cards they may place face down at setup."""
        hand = self.seats[self._seat(player)].hand
        return [position for position, card in enumerate(hand) if self._setup_refusal(card) is None]

    def _do_SetupDone(self, action: SetupDone) -> list[Effect]:
        seat = self._seat(action.player)
        if self.phase != "setup":
            raise RulesError("wrong_step", phase=self.phase)
        if self.seats[seat].setup_done:
            raise RulesError("already_done")
        self.seats[seat].setup_done = True
        effects: list[Effect] = [PlayerReady(action.player, "setup")]  # type: ignore[arg-type]
        if all(s.setup_done for s in self.seats):
            for p, s in zip(self.config.players, self.seats, strict=True):
                effects.append(
                    CreaturesRevealed(p, tuple(None if c is None else self._ref(c) for c in s.creatures))
                )
            self.phase = "play"
            self.round = 1
            self.active = 0
            effects += self._begin_turn()
        return effects

    # -- turns ----------------------------------------------------------------------
    def _begin_turn(self) -> list[Effect]:
        self.turn += 1
        self.step = "main"
        self.fight_slot = None
        self.answering = False
        self.fought = []
        for s in self.seats:
            s.combat_ready = False
            s.placed_this_combat = 0
            s.ability_used = False
        player = self.config.players[self.active]
        effects: list[Effect] = [TurnStarted(player, self.round, self.spell_cap())]
        drawers = (self.active, self._other(self.active)) if self.config.both_players_draw else (self.active,)
        for seat in drawers:
            effects += self._draw_cards(seat, self.config.draws_per_turn)
        return effects

    def _draw_cards(self, seat: int, count: int) -> list[Effect]:
        """Draw ``count``; an empty pile first makes both players shuffle their used cards back in."""
        me = self.seats[seat]
        drawn: list[int] = []
        effects: list[Effect] = []
        for _ in range(count):
            if not me.draw_pile:
                if not any(s.used for s in self.seats):
                    break
                for s in self.seats:
                    s.draw_pile += s.used
                    s.used = []
                    self.rng.shuffle(s.draw_pile)
                self.settled_deaths.clear()  # every used card went back into a draw pile
                effects.append(DrawPileReshuffled(tuple(len(s.draw_pile) for s in self.seats)))
                if not me.draw_pile:
                    break
            card = me.draw_pile.pop(0)
            me.hand.append(card)
            drawn.append(card)
        player = self.config.players[seat]
        effects.append(CardsDrawn(player, tuple(self._ref(c) for c in drawn), visible_to=player))
        return effects

    def _end_turn(self) -> list[Effect]:
        player = self.config.players[self.active]
        effects: list[Effect] = [TurnEnded(player, self.round)]
        self.step = ""
        if self.active == 1:
            if self.round >= self.config.rounds:
                self.phase = "over"
                a, b = (s.points for s in self.seats)
                self.winner = None if a == b else self.config.players[0 if a > b else 1]
                effects.append(GameOver(self.winner, (a, b)))
                return effects
            self.round += 1
        self.active = self._other(self.active)
        return effects + self._begin_turn()

    # -- main phase -----------------------------------------------------------------
    @staticmethod
    def _sacrifices_needed(mana_value: int) -> int:
        if mana_value >= 8:
            return 2
        if mana_value >= 4:
            return 1
        return 0

    def _do_Summon(self, action: Summon) -> list[Effect]:
        seat = self._active_seat(action.player)
        self._require_step("main")
        me = self.seats[seat]
        slot = self._slot(action.slot, self.config.creature_slots)
        card = self._card(action.card, me.hand, "hand")
        facts = self.config.cards[card]
        if not facts.is_creature:
            raise RulesError("not_a_creature", card=facts.name)
        sacrifices = tuple(action.sacrifices) if isinstance(action.sacrifices, (tuple, list)) else (None,)
        needed = self._sacrifices_needed(facts.mana_value)
        sac_slots = [self._slot(s, self.config.creature_slots) for s in sacrifices]
        if len(sac_slots) != needed or len(set(sac_slots)) != needed:
            raise RulesError("wrong_sacrifices", needed=needed, mana_value=facts.mana_value)
        for s in sac_slots:
            if me.creatures[s] is None:
                raise RulesError("slot_empty", slot=s)
        if me.creatures[slot] is not None and slot not in sac_slots:
            raise RulesError("slot_occupied", slot=slot)
        effects: list[Effect] = []
        sacrificed: list[CardRef] = []
        for s in sac_slots:
            victim = me.creatures[s]
            assert victim is not None
            effects += self._remove_creature(seat, s, "used")
            sacrificed.append(self._ref(victim))
        me.hand.remove(card)
        me.creatures[slot] = card
        effects.append(CreatureSummoned(action.player, self._ref(card), slot, tuple(sacrificed)))  # type: ignore[arg-type]
        return effects

    def _do_Equip(self, action: Equip) -> list[Effect]:
        seat = self._active_seat(action.player)
        self._require_step("main", "combat", "fights")
        if self.fight_slot is not None:
            raise RulesError("fight_pending")
        me = self.seats[seat]
        if me.equipment is None:
            raise RulesError("no_equipment")
        slot = self._slot(action.slot, self.config.creature_slots)
        if isinstance(action.cost, bool) or not isinstance(action.cost, int) or action.cost < 0:
            raise RulesError("bad_amount", cost=action.cost)
        creature = me.creatures[slot]
        if creature is None:
            raise RulesError("slot_empty", slot=slot)
        mana_value = self.config.cards[me.equipment].mana_value
        if me.equipment_turn == self.turn and mana_value + action.cost > self.round:
            raise RulesError("equip_not_yet", mana_value=mana_value, cost=action.cost, round=self.round)
        if me.equipped_slot is not None and me.equipped_slot != slot:
            self._mark_unsure([me.creatures[me.equipped_slot]], me.equipment)  # its bonus ends there
        me.equipped_slot = slot
        return [Equipped(action.player, self._ref(me.equipment), slot, self._ref(creature))]  # type: ignore[arg-type]

    # -- combat -----------------------------------------------------------------------
    def _do_BeginCombat(self, action: BeginCombat) -> list[Effect]:
        self._active_seat(action.player)
        self._require_step("main")
        self.step = "combat"
        return [StepChanged("combat")]

    def _combat_player(self, player: PlayerId | None) -> _Seat:
        seat = self._seat(player)
        self._require_step("combat")
        me = self.seats[seat]
        if me.combat_ready:
            raise RulesError("already_done")
        return me

    def cast_refusals(self, seat: int, card: int) -> list[RulesError]:
        """Why ``seat``'s spell ``card`` may not be cast in this turn's fights (empty: it may): only the
        active player casts non-instants, and no spell above the round's cap."""
        facts = self.config.cards[card]
        refusals: list[RulesError] = []
        if seat != self.active and "Instant" not in facts.types:
            refusals.append(RulesError("defender_instants_only", card=facts.name))
        if facts.mana_value > self.spell_cap():
            refusals.append(
                RulesError("spell_above_round", card=facts.name, mana_value=facts.mana_value, cap=self.round)
            )
        return refusals

    def _do_PlaceSpell(self, action: PlaceSpell) -> list[Effect]:
        me = self._combat_player(action.player)
        if me.ability_used:
            raise RulesError("wrong_step", step="abilities")
        if me.placed_this_combat >= self.config.spells_per_combat:
            raise RulesError("spell_limit", limit=self.config.spells_per_combat)
        slot = self._slot(action.slot, self.config.spell_slots)
        card = self._card(action.card, me.hand, "hand")
        facts = self.config.cards[card]
        if facts.is_creature or facts.is_land:
            raise RulesError("not_a_spell", card=facts.name)
        if me.spells[slot] is not None:
            raise RulesError("slot_occupied", slot=slot)
        seat = self.config.players.index(action.player)  # type: ignore[arg-type]
        cannot_cast = tuple(refusal.code for refusal in self.cast_refusals(seat, card))
        me.hand.remove(card)
        me.spells[slot] = card
        me.placed_this_combat += 1
        placed = FaceDownPlaced(
            action.player,  # type: ignore[arg-type]
            "spell",
            slot,
            self._ref(card),
            visible_to=action.player,
            cannot_cast=cannot_cast,
        )
        return [placed]

    def _do_ActivateAbility(self, action: ActivateAbility) -> list[Effect]:
        me = self._combat_player(action.player)
        if me.ability_used:
            raise RulesError("ability_used")
        slot = self._slot(action.slot, self.config.creature_slots)
        if isinstance(action.cost, bool) or not isinstance(action.cost, int) or action.cost < 0:
            raise RulesError("bad_amount", cost=action.cost)
        creature = me.creatures[slot]
        if creature is None:
            raise RulesError("slot_empty", slot=slot)
        if action.cost > self.round:
            raise RulesError("cost_above_round", cost=action.cost, round=self.round)
        me.ability_used = True
        self._mark_unsure(self._creatures_in_play(), creature)  # the engine does not model what it did
        return [AbilityActivated(action.player, slot, self._ref(creature), action.cost)]  # type: ignore[arg-type]

    def _do_CombatReady(self, action: CombatReady) -> list[Effect]:
        me = self._combat_player(action.player)
        me.combat_ready = True
        effects: list[Effect] = [PlayerReady(action.player, "combat")]  # type: ignore[arg-type]
        if all(s.combat_ready for s in self.seats):
            self.step = "fights"
            effects.append(StepChanged("fights"))
        return effects

    def _do_DeclareFight(self, action: DeclareFight) -> list[Effect]:
        seat = self._active_seat(action.player)
        self._require_step("fights")
        if self.fight_slot is not None:
            raise RulesError("fight_pending", slot=self.fight_slot)
        slot = self._slot(action.slot, self.config.creature_slots)
        attacker = self.seats[seat].creatures[slot]
        if attacker is None:
            raise RulesError("slot_empty", slot=slot)
        if slot in self.fought:
            raise RulesError("already_fought", slot=slot)
        defender = self.seats[self._other(seat)].creatures[slot]
        if defender is None:
            raise RulesError("no_opponent_across", slot=slot)
        self.fight_slot = slot
        return [FightDeclared(action.player, slot, self._ref(attacker), self._ref(defender))]  # type: ignore[arg-type]

    def _do_CastSpell(self, action: CastSpell) -> list[Effect]:
        seat = self._seat(action.player)
        self._require_step("fights")
        if self.fight_slot is None:
            raise RulesError("no_fight_pending")
        if self.answering and seat == self.active:  # the active player is done revealing for this fight
            raise RulesError("defender_answering", defender=self.config.players[self._other(seat)])
        me = self.seats[seat]
        slot = self._slot(action.spell_slot, self.config.spell_slots)
        card = me.spells[slot]
        if card is None:
            raise RulesError("slot_empty", slot=slot)
        facts = self.config.cards[card]
        refusals = self.cast_refusals(seat, card)
        if refusals:
            raise refusals[0]
        target_player, target_slot = None, None
        if "Aura" in facts.subtypes:
            target_seat = self._seat(action.target_player) if action.target_player is not None else None
            if target_seat is None or action.target_slot is None:
                raise RulesError("needs_target", card=facts.name)
            target_slot = self._slot(action.target_slot, self.config.creature_slots)
            if self.seats[target_seat].creatures[target_slot] is None:
                raise RulesError("slot_empty", slot=target_slot)
            target_player = action.target_player
        if "Equipment" in facts.subtypes and (
            me.equipment is not None
            or any(s == seat and "Equipment" in self.config.cards[c].subtypes for s, c, _, _ in self.stack)
        ):
            raise RulesError("equipment_limit")
        me.spells[slot] = None
        self.stack.append((seat, card, target_player, target_slot))
        effects: list[Effect] = [SpellCast(action.player, self._ref(card), slot, target_player, target_slot)]  # type: ignore[arg-type]
        if (
            self.answering
            and self.config.answer_ends_with_last_spell
            and not self.has_face_down_spells(action.player)  # type: ignore[arg-type]
        ):
            effects += self._fight()  # the defender has nothing left to answer with
        return effects

    def _do_ResolveFight(self, action: ResolveFight) -> list[Effect]:
        """The active player is done revealing: the fight resolves, or first waits for a defender with
        face-down spells (:class:`DefenderToAnswer`); the defender's (or the referee's, for them) then
        resolves it."""
        if action.player is not None or not self.answering:  # the referee only answers for a defender
            self._seat(action.player)
        if self.phase != "play":
            raise RulesError("wrong_step", phase=self.phase)
        self._require_step("fights")
        if self.fight_slot is None:
            raise RulesError("no_fight_pending")
        seat = self.active
        defending = self.config.players[self._other(seat)]
        acting = None if action.player is None else self._seat(action.player)
        if self.answering:
            if acting == seat:
                raise RulesError("defender_answering", defender=defending)
        elif acting != seat:
            code = "active_player_first" if self.config.defender_answers else "not_your_turn"
            raise RulesError(code, active_player=self.config.players[seat])
        elif self.config.defender_answers and self.has_face_down_spells(defending):
            self.answering = True
            return [DefenderToAnswer(defending, self.fight_slot)]
        return self._fight()

    def _fight(self) -> list[Effect]:
        """The pending fight happens: the revealed spells resolve (last in, first out), then the creatures
        fight; settled by the engine when it knows both creatures' power and toughness."""
        assert self.fight_slot is not None
        seat = self.active
        self.answering = False
        effects: list[Effect] = []
        order = list(reversed(self.stack))
        self.stack = []
        if order:
            effects.append(SpellsResolved(tuple(self._ref(c) for _, c, _, _ in order)))
        for caster, card, target_player, target_slot in order:
            effects += self._resolve_spell(caster, card, target_player, target_slot)
        slot = self.fight_slot
        self.fight_slot = None
        self.fought.append(slot)
        attacker = self.seats[seat].creatures[slot]
        defender = self.seats[self._other(seat)].creatures[slot]
        dies = self._printed_deaths(attacker, defender)
        reason, reason_cards = self._unsettled_reason(slot, attacker, defender)
        effects.append(
            FightResolved(
                self.config.players[seat],
                slot,
                None if attacker is None else self._ref(attacker),
                None if defender is None else self._ref(defender),
                settled=not reason,
                dies=tuple(self._ref(c) for c in dies),
                reason=reason,
                reason_cards=tuple(self._ref(c) for c in reason_cards),
            )
        )
        if reason:
            if attacker is not None and defender is not None:  # the engine cannot vouch for them any more
                self._mark_unsure([attacker], defender)
                self._mark_unsure([defender], attacker)
            return effects
        for card in dies:
            owner_seat = seat if card == attacker else self._other(seat)
            effects += self._remove_creature(owner_seat, slot, "used")
            self.settled_deaths[card] = slot
        return effects

    def _printed_deaths(self, attacker: int | None, defender: int | None) -> list[int]:
        """The fighters that die by printed power and toughness (each deals damage equal to its power to the
        other), attacker first; none when a fighter is gone or a number is not printed."""
        if attacker is None or defender is None:
            return []
        cards = self.config.cards
        numbers = [
            (printed_number(cards[c].power), printed_number(cards[c].toughness)) for c in (attacker, defender)
        ]
        (a_power, a_toughness), (d_power, d_toughness) = numbers
        if None in (a_power, a_toughness, d_power, d_toughness):
            return []
        assert a_power is not None and a_toughness is not None and d_power is not None
        assert d_toughness is not None
        dying = []
        if a_toughness <= max(d_power, 0):
            dying.append(attacker)
        if d_toughness <= max(a_power, 0):
            dying.append(defender)
        return dying

    def _unsettled_reason(
        self, slot: int, attacker: int | None, defender: int | None
    ) -> tuple[str, list[int]]:
        """Why the referee may not apply this fight's result itself (``""``: it may), and the cards behind it.

        It may only when it knows both creatures' power and toughness: both have printed numbers and no
        rules text but fight-neutral keywords (:data:`PLAIN`), nothing is attached to them, nothing it does
        not model has touched them since they entered (``unsure``), and no permanent in play has text it
        cannot judge (:data:`OPEN`: a lord, an anthem, a trigger).
        """
        if attacker is None or defender is None:
            return "no_fight", []
        if len(self.config.fight_texts) != len(self.config.cards):
            return "no_card_data", []
        fighters = (attacker, defender)
        for card in fighters:
            facts = self.config.cards[card]
            printed = (printed_number(facts.power), printed_number(facts.toughness))
            if self.text_kind(card) != PLAIN or None in printed:
                return "rules_text", [card]
        seats = (self.active, self._other(self.active))
        for seat, card in zip(seats, fighters, strict=True):
            for s in self.seats:
                aura = next((a for a, on, at in s.auras if on == seat and at == slot), None)
                if aura is not None:
                    return "attached", [aura, card]
            holder = self.seats[seat]
            if holder.equipment is not None and holder.equipped_slot == slot:
                return "attached", [holder.equipment, card]
        for card in fighters:
            if card in self.unsure:
                return "altered", [self.unsure[card], card]
        for card in self.permanents_in_play():
            if self.text_kind(card) == OPEN:
                return "in_play", [card]
        return "", []

    def _resolve_spell(
        self, seat: int, card: int, target_player: PlayerId | None, target_slot: int | None
    ) -> list[Effect]:
        """Resolve one spell. The engine models where it goes (an aura onto its creature, the one non-aura
        enchantment, the equipment, the rest into the used pile), not what its text does: a spell whose
        text may touch creatures (:data:`OPEN`) leaves every creature in play unsure."""
        effects = self._resolve_spell_card(seat, card, target_player, target_slot)
        fizzled = any(isinstance(effect, SpellFizzled) for effect in effects)
        if not fizzled and self.text_kind(card) == OPEN:
            self._mark_unsure(self._creatures_in_play(), card)
        return effects

    def _resolve_spell_card(
        self, seat: int, card: int, target_player: PlayerId | None, target_slot: int | None
    ) -> list[Effect]:
        facts = self.config.cards[card]
        me = self.seats[seat]
        player = self.config.players[seat]
        if "Aura" in facts.subtypes:
            target_seat = self._seat(target_player)
            assert target_slot is not None
            if self.seats[target_seat].creatures[target_slot] is None:
                me.used.append(card)
                return [SpellFizzled(player, self._ref(card))]
            me.auras.append((card, target_seat, target_slot))
            return [PermanentEntered(player, self._ref(card), "aura", (target_player, target_slot))]  # type: ignore[arg-type]
        if "Enchantment" in facts.types:
            holders = self.seats if self.config.shared_enchantment else [me]
            old: int | None = None
            old_owner: PlayerId | None = None
            for s in holders:
                if s.enchantment is not None:
                    old = s.enchantment
                    old_owner = self.config.players[self.config.owners[old]]
                    self.seats[self.config.owners[old]].used.append(old)
                    s.enchantment = None
                    self._left_play(old)
            me.enchantment = card
            return [
                EnchantmentReplaced(
                    player, self._ref(card), None if old is None else self._ref(old), old_owner
                )
            ]
        if "Equipment" in facts.subtypes:
            me.equipment = card
            me.equipment_turn = self.turn
            me.equipped_slot = None
            return [PermanentEntered(player, self._ref(card), "equipment", None)]
        # instants, sorceries and anything else: done, into the used pile
        me.used.append(card)
        return []

    def _do_EndCombat(self, action: EndCombat) -> list[Effect]:
        seat = self._active_seat(action.player)
        self._require_step("fights")
        if self.fight_slot is not None:
            raise RulesError("fight_pending", slot=self.fight_slot)
        me, them = self.seats[seat], self.seats[self._other(seat)]
        unblocked = tuple(
            i for i, c in enumerate(me.creatures) if c is not None and them.creatures[i] is None
        )
        me.points += len(unblocked)
        effects: list[Effect] = [PointsScored(action.player, unblocked, len(unblocked), me.points)]  # type: ignore[arg-type]
        return effects + self._cleanup()

    def _cleanup(self) -> list[Effect]:
        """End the turn, unless the active player must first discard down to the maximum hand size.

        The game's last turn has no cleanup: nothing after it could use the hand.
        """
        excess = len(self.seats[self.active].hand) - self.config.max_hand_size
        last_turn = self.active == 1 and self.round >= self.config.rounds
        if excess > 0 and not last_turn:
            self.step = "cleanup"
            return [DiscardToHandSize(self.config.players[self.active], excess, self.config.max_hand_size)]
        return self._end_turn()

    # -- leaving play, discards, draws, life -----------------------------------------------
    def _remove_creature(self, seat: int, slot: int, to: str) -> list[Effect]:
        """Move the creature in ``seat``'s ``slot`` out of play; its auras go to the used piles."""
        me = self.seats[seat]
        card = me.creatures[slot]
        assert card is not None
        me.creatures[slot] = None
        self.unsure.pop(card, None)
        self.settled_deaths.pop(card, None)
        if me.equipped_slot == slot:
            me.equipped_slot = None
        effects: list[Effect] = []
        for s_index, s in enumerate(self.seats):
            for aura in [a for a in s.auras if a[1] == seat and a[2] == slot]:
                s.auras.remove(aura)
                s.used.append(aura[0])
                self._left_play(aura[0])
                effects.append(CardLeftPlay(self.config.players[s_index], self._ref(aura[0]), "used"))
        self._left_play(card)
        owner = self.config.owners[card]
        (self.seats[owner].hand if to == "hand" else self.seats[owner].used).append(card)
        effects.insert(0, CardLeftPlay(self.config.players[owner], self._ref(card), to))
        return effects

    def _do_LeavePlay(self, action: LeavePlay) -> list[Effect]:
        if action.player is not None:
            self._seat(action.player)
        if self.phase != "play":
            raise RulesError("wrong_step", phase=self.phase)
        if action.to not in ("used", "hand"):
            raise RulesError("bad_destination", to=action.to)
        in_play: list[int | None] = []
        for s in self.seats:
            in_play += s.creatures + [s.enchantment, s.equipment] + [a for a, _, _ in s.auras]
        try:
            card = self._card(action.card, in_play, "play")
        except RulesError as not_in_play:
            if "candidates" in not_in_play.details:  # the name is in play, only not one card
                raise
            settled = self._settled_death(action.card, action.player)
            if settled is None:
                raise
            raise settled from not_in_play
        owner = self.config.owners[card]
        for seat, s in enumerate(self.seats):
            if card in s.creatures:
                return self._remove_creature(seat, s.creatures.index(card), action.to)
            attached_to: int | None = None
            if card == s.enchantment:
                s.enchantment = None
            elif card == s.equipment:
                if s.equipped_slot is not None:
                    attached_to = s.creatures[s.equipped_slot]
                s.equipment = None
                s.equipped_slot = None
            else:
                aura = next((a for a in s.auras if a[0] == card), None)
                if aura is None:
                    continue
                s.auras.remove(aura)
                attached_to = self.seats[aura[1]].creatures[aura[2]]
            self._left_play(card, attached_to)
            (self.seats[owner].hand if action.to == "hand" else self.seats[owner].used).append(card)
            return [CardLeftPlay(self.config.players[owner], self._ref(card), action.to)]
        raise AssertionError("card in play but not found")  # pragma: no cover

    def _settled_death(self, ref: Any, player: PlayerId | None) -> RulesError | None:
        """The refusal for a ``LeavePlay`` of ``ref`` (an index or a name) when a fight the engine settled
        already put that creature in its owner's used pile (the acting ``player``'s own copy first: both decks
        may hold the card), else ``None``."""
        dead = [card for card in self.settled_deaths if card in self.seats[self.config.owners[card]].used]
        if isinstance(ref, str):
            matched = typed_names(ref, [self.config.cards[card].name for card in dead])
            if len(matched) != 1:
                return None
            dead = [card for card in dead if self.config.cards[card].name == matched[0]]
        elif isinstance(ref, int) and not isinstance(ref, bool):
            dead = [card for card in dead if card == ref]
        else:
            return None
        if not dead:
            return None
        mine = self.config.players.index(player) if player in self.config.players else -1
        dead.sort(key=lambda card: self.config.owners[card] != mine)
        card = dead[0]
        return RulesError(
            "settled_death",
            card=self.config.cards[card].name,
            slot=self.settled_deaths[card],
            owner=self.config.players[self.config.owners[card]],
            player=player,
        )

    def settled_death_of(self, player: PlayerId, name: str) -> int | None:
        """``player``'s own creature called ``name`` that a fight the engine settled put in their used pile
        (its index), or ``None``."""
        seat = self._seat(player)
        dead = [card for card in self.settled_deaths if self.config.owners[card] == seat]
        dead = [card for card in dead if card in self.seats[seat].used]
        matched = typed_names(name, [self.config.cards[card].name for card in dead])
        if len(matched) != 1:
            return None
        return next(card for card in dead if self.config.cards[card].name == matched[0])

    def _do_Discard(self, action: Discard) -> list[Effect]:
        seat = self._seat(action.player)
        if self.phase not in ("setup", "play"):
            raise RulesError("wrong_step", phase=self.phase)
        if self.phase == "play" and self.step == "cleanup" and seat != self.active:  # before any card
            raise RulesError(
                "not_your_cleanup", active_player=self.whose_turn, hand_size=self.config.max_hand_size
            )
        me = self.seats[seat]
        card = self._card(action.card, me.hand, "hand")
        me.hand.remove(card)
        me.used.append(card)
        effects: list[Effect] = [CardDiscarded(action.player, self._ref(card))]  # type: ignore[arg-type]
        if self.phase == "play" and self.step == "cleanup" and seat == self.active:
            effects += self._cleanup()
        return effects

    def _do_Draw(self, action: Draw) -> list[Effect]:
        seat = self._seat(action.player)
        if self.phase != "play":
            raise RulesError("wrong_step", phase=self.phase)
        if isinstance(action.count, bool) or not isinstance(action.count, int) or not 1 <= action.count <= 40:
            raise RulesError("bad_count", count=action.count)
        return self._draw_cards(seat, action.count)

    def _do_AdjustLife(self, action: AdjustLife) -> list[Effect]:
        if action.player is not None:
            self._seat(action.player)
        seat = self._seat(action.target)
        if isinstance(action.delta, bool) or not isinstance(action.delta, int) or abs(action.delta) > 10_000:
            raise RulesError("bad_amount", delta=action.delta)
        self.seats[seat].life += action.delta
        return [LifeChanged(action.target, action.delta, self.seats[seat].life)]  # type: ignore[arg-type]

    def _do_AdjustPoints(self, action: AdjustPoints) -> list[Effect]:
        if action.player is not None:
            raise RulesError("not_a_player", player=action.player, reason="referee_only")
        seat = self._seat(action.target)
        if isinstance(action.delta, bool) or not isinstance(action.delta, int) or abs(action.delta) > 100:
            raise RulesError("bad_amount", delta=action.delta)
        if self.seats[seat].points + action.delta < 0:
            raise RulesError("bad_amount", delta=action.delta, points=self.seats[seat].points)
        self.seats[seat].points += action.delta
        return [PointsScored(action.target, (), action.delta, self.seats[seat].points)]  # type: ignore[arg-type]

    def _do_RemovePlayer(self, action: RemovePlayer) -> list[Effect]:
        if action.player is not None:
            raise RulesError("not_a_player", player=action.player, reason="referee_only")
        seat = self._seat(action.target)
        if action.reason not in ("conceded", "left"):
            raise RulesError("bad_reason", reason=action.reason)
        self.phase = "over"
        self.step = ""
        self.fight_slot = None
        self.answering = False
        self.winner = self.config.players[self._other(seat)]
        self.out, self.out_reason = action.target, action.reason
        points = tuple(s.points for s in self.seats)
        return [GameOver(self.winner, points, out=action.target, reason=action.reason)]
