"""Per-card auction price statistics across every journaled Auction Magic game.

Block designers ask "is Orcish Oriflamme worth 1 gold?": this answers with what players
actually paid. Each ``LotSold`` effect carries the cards, every bid, the winner, the price and
the turn; ``LotUnsold`` records a card nobody wanted. A multi-card lot's price is shared
evenly between its cards (reported as such), so totals still add up.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from cockatrice_ext.journal import Journal, JournalEntry

AUCTION_ENGINE = "auction"


@dataclass
class CardPrices:
    """What one card fetched across games."""

    name: str
    prices: list[float] = field(default_factory=list)
    unsold: int = 0
    bids: int = 0
    games: set[str] = field(default_factory=set)
    turns: list[int] = field(default_factory=list)
    sales: list[tuple[str, int, float]] = field(default_factory=list)
    """Each sale as (game, turn, price share), in journal order (for the price chart)."""

    @property
    def offered(self) -> int:
        return len(self.prices) + self.unsold

    @property
    def sold(self) -> int:
        return len(self.prices)

    @property
    def median(self) -> float | None:
        return statistics.median(self.prices) if self.prices else None

    @property
    def mean(self) -> float | None:
        return statistics.fmean(self.prices) if self.prices else None

    @property
    def low(self) -> float | None:
        return min(self.prices) if self.prices else None

    @property
    def high(self) -> float | None:
        return max(self.prices) if self.prices else None


def format_price(value: float | None) -> str:
    """A price as reports show it: whole numbers bare, shares to one decimal, ``-`` when never sold."""
    if value is None:
        return "-"
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def played_once(entries: Iterable[JournalEntry]) -> Iterator[JournalEntry]:
    """``entries`` without the copies a resumed game carries: ``!resume`` opens a new table holding its
    predecessor's actions (the same ids, numbers and times), so each action is counted once, in the game it
    was played in (the oldest table first, as :meth:`~cockatrice_ext.journal.Journal.entries` orders them)."""
    seen: set[tuple[str | None, int, float, str]] = set()
    for entry in entries:
        identity = (entry.action_id, entry.seq, entry.at, json.dumps(entry.action, sort_keys=True))
        if identity in seen:
            continue
        seen.add(identity)
        yield entry


def price_table(entries: Iterable[JournalEntry]) -> dict[str, CardPrices]:
    """Fold journal entries into per-card statistics, keyed by card name (a resumed game's copy of its
    predecessor's actions counted once, see :func:`played_once`)."""
    table: dict[str, CardPrices] = defaultdict(lambda: CardPrices(""))
    for entry in played_once(entries):
        for effect in entry.effects:
            kind = effect.get("type")
            if kind not in ("LotSold", "LotUnsold"):
                continue
            cards = [c["name"] for c in effect.get("cards", [])]
            if not cards:
                continue
            share = effect["price"] / len(cards) if kind == "LotSold" else 0.0
            for name in cards:
                stats = table[name]
                stats.name = name
                stats.games.add(entry.table_key)
                stats.bids += len(effect.get("bids", []))
                if kind == "LotSold":
                    stats.prices.append(share)
                    stats.turns.append(int(effect.get("turn", 0)))
                    stats.sales.append((entry.table_key, stats.turns[-1], share))
                elif effect.get("destination") != "free_commander":
                    stats.unsold += 1
    return dict(table)


def journal_prices(journal: Journal) -> dict[str, CardPrices]:
    """Per-card statistics over every auction game in ``journal``."""
    return price_table(journal.entries(engine=AUCTION_ENGINE))
