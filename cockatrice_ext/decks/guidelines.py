"""Auction-block building guidelines, measured (``cockatrice-ext block check``).

The Auction Magic write-up ("Building your Auction Block") gives six guidelines; the
measurable ones are checked here from each card's oracle text and types:

1. about 50-60% creatures (:data:`CREATURE_SHARE`);
2. removal about 15% of the block (:data:`REMOVAL_TARGET` +- :data:`REMOVAL_TOLERANCE`), detected from
   oracle text: destroy/exile target creature or permanent, N damage to a creature or any target,
   -N/-N, fight, "can't attack or block", bounce to hand, edicts, tuck, stealing;
3. no board-stall cards: defenders, Walls, "can't attack", high-toughness low-power creatures
   (power <= 2 and toughness >= power + 3), fogs;
4. no cards that draw more than one card;
5. the mana-value curve is reported (the write-up says the curve does not matter, but it is useful).

The analysis is pure: it takes resolved cards and returns a :class:`BlockReport`; the CLI prints it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from cockatrice_ext.cards.model import Card

CREATURE_SHARE = (0.50, 0.60)
REMOVAL_TARGET = 0.15
REMOVAL_TOLERANCE = 0.05
STALL_POWER_MAX = 2
STALL_TOUGHNESS_MARGIN = 3

_ADJ = r"(?:[\w'-]+ )*?"
REMOVAL_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        rf"destroy (?:up to \w+ )?(?:another )?(?:target|each|all) {_ADJ}(?:creature|permanent)",
        rf"exile (?:up to \w+ )?(?:another )?(?:target|each|all) {_ADJ}(?:creature|permanent)",
        rf"deals? (?:\d+|x|that much|twice \w+ much) damage to "
        rf"(?:any target|{_ADJ}target {_ADJ}creature|each {_ADJ}creature|"
        rf"(?:up to \w+ )?target {_ADJ}creature)",
        rf"deals? damage equal to [^.]*? to (?:any target|(?:up to \w+ )?(?:another )?target {_ADJ}creature)",
        r"deals? (?:\d+|x) damage divided [^.]*?among [^.]*?targets",
        r"gets? -(?:\d+|x)/-(?:\d+|x)",
        r"-1/-1 counters? on (?:target|each)",
        r"\bfights?\b",
        r"(?:enchanted|target|that|those|each) creatures? (?:\w+ )*?can't attack or block",
        rf"return (?:up to \w+ )?(?:another )?target {_ADJ}(?:creature|permanent)s? "
        r"to (?:its|their) owner'?s'? hands?",
        rf"(?:target|each) (?:player|opponent) sacrifices (?:a|an|two|that) {_ADJ}creature",
        rf"put target {_ADJ}creature on (?:the )?(?:top|bottom) of its owner's library",
        rf"gain control of target {_ADJ}creature(?![^.]*until end of turn)",
    )
)
DRAW_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        r"draws? (?:two|three|four|five|six|seven|eight|x|\d+|that many) (?:additional )?cards",
        r"draws? cards equal to",
        r"draws? a card for each",
    )
)
_DEFENDER = re.compile(r"(?:^|\n|, )defender\b")
_CANT_ATTACK = re.compile(
    r"\bthis (?:creature )?can't attack\b|\bcan't attack you\b|^creatures can't attack", re.MULTILINE
)
_REMINDER = re.compile(r"\([^()]*\)")
_FOG = re.compile(r"prevent all combat damage")


@dataclass(frozen=True)
class GuidelineWarning:
    """One guideline the block misses: a stable ``code``, a message, the cards concerned."""

    code: str
    message: str
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class BlockReport:
    """What :func:`analyze_block` measured. Counts include copies; card lists name each card once."""

    total: int
    creatures: int
    lands: int
    removal: tuple[str, ...]
    removal_count: int
    draw: tuple[str, ...]
    stall: dict[str, str]
    curve: dict[int, int]
    warnings: tuple[GuidelineWarning, ...] = field(default=())

    @property
    def creature_share(self) -> float:
        return self.creatures / self.total if self.total else 0.0

    @property
    def removal_share(self) -> float:
        return self.removal_count / self.total if self.total else 0.0


def _text(card: Card) -> str:
    """Lower-case oracle text without reminder text, the card's own (face) names replaced by ``this``."""
    text = _REMINDER.sub("", card.oracle_text.lower())
    names = sorted({card.name, *(face.name for face in card.faces)}, key=len, reverse=True)
    for name in names:
        if name:
            text = text.replace(name.lower(), "this")
    return text


def is_removal(card: Card) -> bool:
    """Whether the card's text can remove or neutralise an opposing creature."""
    text = _text(card)
    return any(p.search(text) for p in REMOVAL_PATTERNS)


def draws_more_than_one(card: Card) -> bool:
    """Whether the card makes someone draw two or more cards at once."""
    text = _text(card)
    return any(p.search(text) for p in DRAW_PATTERNS)


def _number(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None


def stall_reason(card: Card) -> str | None:
    """Why the card tends to stall the board, or None."""
    text = _text(card)
    if card.is_type("Creature"):
        if _DEFENDER.search(text):
            return "defender"
        if "Wall" in card.subtypes:
            return "Wall"
        if _CANT_ATTACK.search(text):
            return "can't attack"
        power, toughness = _number(card.power), _number(card.toughness)
        if (
            power is not None
            and toughness is not None
            and power <= STALL_POWER_MAX
            and toughness >= power + STALL_TOUGHNESS_MARGIN
        ):
            return f"{power}/{toughness} blocker"
        return None
    if _FOG.search(text):
        return "prevents combat damage"
    if _CANT_ATTACK.search(text):
        return "stops attacks"
    return None


def analyze_block(cards: Iterable[tuple[Card, int]]) -> BlockReport:
    """Measure a block given as ``(card, copies)`` pairs (resolved block-list lines)."""
    total = creatures = lands = removal_count = 0
    removal: dict[str, None] = {}
    draw: dict[str, None] = {}
    stall: dict[str, str] = {}
    curve: Counter[int] = Counter()
    for card, copies in cards:
        total += copies
        if card.is_type("Land"):
            lands += copies
        else:
            curve[int(card.mana_value)] += copies
        if card.is_type("Creature"):
            creatures += copies
        if is_removal(card):
            removal_count += copies
            removal.setdefault(card.name)
        if draws_more_than_one(card):
            draw.setdefault(card.name)
        reason = stall_reason(card)
        if reason:
            stall.setdefault(card.name, reason)
    report = BlockReport(
        total=total,
        creatures=creatures,
        lands=lands,
        removal=tuple(removal),
        removal_count=removal_count,
        draw=tuple(draw),
        stall=stall,
        curve=dict(sorted(curve.items())),
    )
    return BlockReport(**{**report.__dict__, "warnings": tuple(_warnings(report))})


def _percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def _warnings(report: BlockReport) -> list[GuidelineWarning]:
    out: list[GuidelineWarning] = []
    if report.total == 0:
        return [GuidelineWarning("empty", "the block has no cards")]
    low, high = CREATURE_SHARE
    share = report.creature_share
    if share < low:
        out.append(
            GuidelineWarning(
                "creatures-low",
                f"creatures are {_percent(share)} of the block; guideline {_percent(low)}-{_percent(high)}",
            )
        )
    elif share > high:
        out.append(
            GuidelineWarning(
                "creatures-high",
                f"creatures are {_percent(share)} of the block; guideline {_percent(low)}-{_percent(high)}",
            )
        )
    removal = report.removal_share
    if removal < REMOVAL_TARGET - REMOVAL_TOLERANCE:
        out.append(
            GuidelineWarning(
                "removal-low",
                f"removal is {_percent(removal)} of the block; aim for about {_percent(REMOVAL_TARGET)}",
            )
        )
    elif removal > REMOVAL_TARGET + REMOVAL_TOLERANCE:
        out.append(
            GuidelineWarning(
                "removal-high",
                f"removal is {_percent(removal)} of the block; aim for about {_percent(REMOVAL_TARGET)}",
                report.removal,
            )
        )
    if report.draw:
        out.append(
            GuidelineWarning(
                "draw",
                f"{len(report.draw)} card(s) draw more than one card (cards in hand are free to cast)",
                report.draw,
            )
        )
    if report.stall:
        out.append(
            GuidelineWarning(
                "board-stall",
                f"{len(report.stall)} card(s) tend to stall the board",
                tuple(f"{name} ({why})" for name, why in report.stall.items()),
            )
        )
    return out
