"""Series over time folded from the journal's effects, for the charts (:mod:`cockatrice_ext.reports.charts`).

* a card's auction prices, one point per sale, in the order the games were played
  (:func:`card_sales`, the same fold as ``stats prices``; the card named as chat names one,
  :func:`named_card`);
* every player's gold over one Auction game, one point per journaled action that changed it
  (:func:`gold_series`);
* a league's standings after each round: points in a Market Draft, poison in the AutoBattler
  (:func:`standings_series`).

A chart names its game or league as players do, not by its journal key (:func:`table_title`: ``Auction
Magic game #7 (server, date)``).

Only what was public when it happened is read: sale prices, gold, results and poison. No pack, pool or
shop is looked at.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cockatrice_ext.cards.typed import closest_names, match_names
from cockatrice_ext.formats import FORMAT_TITLES
from cockatrice_ext.journal import Journal, JournalError
from cockatrice_ext.reports.prices import AUCTION_ENGINE, price_table

Series = dict[str, list[tuple[int, float]]]
"""A line per label: (x, y) points in x order."""


@dataclass(frozen=True)
class Sale:
    """One sale of a card: the game (journal key), the turn and the card's share of the price."""

    game: str
    turn: int
    price: float


def named_card(typed: str, names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The card among ``names`` (the cards the journal's auctions offered) that ``typed`` names, as chat
    reads a card name (:func:`~cockatrice_ext.cards.typed.match_names`: any case, a phone's ``’``, accents,
    one face, a unique start): ``([name], [])``; several: ``(candidates, [])``; none: ``([], closest)``, the
    names it looks like a typo of. A name written exactly is that card, whatever else it folds like."""
    known = list(dict.fromkeys(names))
    if typed in known:
        return [typed], []
    found = match_names(typed, known)
    return (found, []) if found else ([], closest_names(typed, known))


def either(names: list[str]) -> str:
    """``'A' or 'B'`` (``'A', 'B' or 'C'``): candidates as a refusal offers them."""
    quoted = [repr(name) for name in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def card_sales(journal: Journal, card: str) -> list[Sale]:
    """Every sale of the card ``card`` names (:func:`named_card`) across the journal's Auction games, oldest
    game first; none for a card offered but never sold, or a name that is no card of the journal's.

    Raises:
        NoChart: ``card`` could be several of the journal's cards, or looks like a typo of some (the
            message names them).
    """
    table = {stats.name: stats for stats in price_table(journal.entries(engine=AUCTION_ENGINE)).values()}
    found, closest = named_card(card, table)
    if len(found) == 1:
        return [Sale(game, turn, price) for game, turn, price in table[found[0]].sales]
    if found:
        raise _no_chart(f"{card!r} could be {either(found)}, each offered at auction")
    if closest:
        raise _no_chart(f"{card!r} was never sold at auction (did you mean {either(closest)}?)")
    return []


def _no_chart(message: str) -> LookupError:
    """The charts' refusal (:class:`~cockatrice_ext.reports.journal_charts.NoChart`), which ``stats chart``
    and the web view say; imported here when needed, as that module imports this one."""
    from cockatrice_ext.reports.journal_charts import NoChart

    return NoChart(message)


def _player_names(journal: Journal, key: str) -> dict[str, str]:
    """Player id (as text) -> user name, from the table's meta; empty when it holds none."""
    names = journal.table_meta(key).get("names", {})
    return {str(k): str(v) for k, v in dict(names).items()}


def gold_series(journal: Journal, key: str) -> Series:
    """Each player's gold over one Auction game: x is the journaled action's number, y the gold after it.

    Every seated player has a line, from their gold before the first action to their gold now, with a
    point at each action that changed it.

    Raises:
        JournalError: no such table, or not an Auction game.
    """
    engine = journal.restore(key)
    if engine.name != AUCTION_ENGINE:
        raise JournalError(f"table {key!r} is not an Auction game ({engine.name})")
    names = _player_names(journal, key)
    purse: dict[Any, int] = engine.purse  # type: ignore[attr-defined]
    points: dict[str, list[tuple[int, float]]] = {str(p): [] for p in purse}
    last = 0
    for entry in journal.entries(key):
        last = entry.seq
        for effect in entry.effects:
            if effect.get("type") == "GoldChanged":
                line = points[str(effect["player"])]
                if not line:
                    line.append((0, float(effect["old"])))
                line.append((entry.seq, float(effect["new"])))
    for player, gold in purse.items():
        line = points[str(player)]
        if not line:
            line.append((0, float(gold)))
        if line[-1][0] < last:
            line.append((last, float(gold)))
    return {names.get(player, f"player {player}"): line for player, line in points.items()}


STANDINGS_METRIC = {"market": "points", "autobattler": "poison"}
"""What a league's standings chart shows, by league format."""


def standings_series(journal: Journal, key: str) -> tuple[str, Series]:
    """A league's metric (``points`` or ``poison``) for each member after each decided round.

    Points count as the league counts them (its win and draw points); poison is the player's total once
    the round's results are in.

    Raises:
        JournalError: no such table, or not a league.
    """
    engine = journal.restore(key)
    metric = STANDINGS_METRIC.get(engine.name)
    if metric is None:
        raise JournalError(f"table {key!r} is not a league ({engine.name})")
    league = engine.league  # type: ignore[attr-defined]
    values = {member: 0 for member in league.members}
    series: Series = {member: [] for member in league.members}

    def close_round(round_no: int) -> None:
        for member, value in values.items():
            series[member].append((round_no, float(value)))

    for entry in journal.entries(key):
        for effect in entry.effects:
            kind = effect.get("type")
            if kind == "RoundStarted" and int(effect["round"]) > 1:
                close_round(int(effect["round"]) - 1)  # a round starts once the previous one is decided
            elif metric == "poison" and kind == "PoisonChanged":
                values[str(effect["player"])] = int(effect["poison"])
            elif metric == "points" and kind == "ResultRecorded":
                _score(values, effect, league.win_points, league.draw_points)
    if league.round and league.round_done():
        close_round(league.round)
    return metric, series


def _score(points: dict[str, int], result: dict[str, object], win: int, draw: int) -> None:
    """Add a journaled ``ResultRecorded`` to the points (a bye counts as the league recorded it)."""
    players = [str(p) for p in result["players"]]  # type: ignore[attr-defined]
    if result.get("draw"):
        for player in players:
            points[player] += draw
    elif result.get("winner"):
        points[str(result["winner"])] += win


CHARTED_ENGINES = (AUCTION_ENGINE, *STANDINGS_METRIC)

_KEY = re.compile(
    r"(?P<server>(?:(?!:game:|:league:).)+)"
    r":(?:game:(?P<game>\d+(?:@\d+)?)|league:\d+:(?P<format>[a-z]+):(?P<league>\d+))"
)
"""The bot's table keys: ``<server URL>:game:<number>`` (``7@1``: a record moved aside when the server gave
its number again) and ``<server URL>:league:<room>:<format>:<number>``."""


def table_title(journal: Journal, key: str, engine: str = "") -> str:
    """How a chart names table ``key``: ``Auction Magic game #7 (127.0.0.1:4747, 2025-01-05)``,
    ``Market Draft league #2 (...)``: its format and number, then the server and the day its play began
    (local time) when the journal knows them. ``engine`` is the format when the table's meta names none.

    Raises:
        JournalError: no such table.
    """
    meta = journal.table_meta(key)
    found = _KEY.fullmatch(key)
    fmt = str(meta.get("format") or (found and found["format"]) or engine)
    name = FORMAT_TITLES.get(fmt, fmt.capitalize() or "Table")
    if fmt == AUCTION_ENGINE and dict(meta.get("options") or {}).get("commander"):
        name = "Commander Auction"
    if found is None:
        title = f"{name} {key}"  # a key the bot did not make: it is all there is to name it by
    elif found["game"]:
        title = f"{name} game #{found['game']}"
    else:
        title = f"{name} league #{found['league']}"
    about = [found["server"].split("://", 1)[-1]] if found else []
    for entry in journal.entries(key):
        about.append(datetime.fromtimestamp(entry.at).date().isoformat())
        break
    return f"{title} ({', '.join(about)})" if about else title


def chartable_tables(journal: Journal) -> list[tuple[str, str, bool]]:
    """(key, engine, closed) of every table with a chart: Auction games and leagues, oldest first."""
    found: dict[str, str] = {}
    for engine in CHARTED_ENGINES:
        for entry in journal.entries(engine=engine):
            found.setdefault(entry.table_key, engine)
    return [(key, engine, journal.closed_reason(key) is not None) for key, engine in found.items()]
