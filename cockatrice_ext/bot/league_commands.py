"""Players' league command arguments read as engine actions: 1-based positions in the lists they were
shown (pack, shop, market, pool) or card names, turned into actions carrying card identities
(:func:`pick_action`, :func:`swap_action`, :func:`buy_action`, :func:`result_action`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cockatrice_ext.bot.commands import BadArgument
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.formats.base import Action


def by_position(cards: Sequence[int], token: str, what: str) -> int | str:
    """The card identity at 1-based position ``token`` of ``cards``, or the token itself as a name.

    Raises:
        BadArgument: a number outside ``1..len(cards)``.
    """
    token = token.strip()
    if re.fullmatch(r"#?\d+", token):
        number = int(token.lstrip("#"))
        if not 1 <= number <= len(cards):
            if not cards:
                raise BadArgument(f"your {what} is empty")
            raise BadArgument(f"there is no card {number} in your {what} (1-{len(cards)})")
        return cards[number - 1]
    if not token:
        raise BadArgument(f"name a card of your {what} by number or name")
    return token


def pick_action(
    player: str,
    text: str,
    pack: Sequence[int],
    *,
    carousel: bool = False,
    put_back_from: Sequence[int] | None = None,
) -> Action:
    """``!pick N|NAME`` -> a :class:`~cockatrice_ext.formats.league.Pick` (or a carousel pick). With a
    put-back carousel (``put_back_from`` is the player's pool): ``!pick N for M`` (M goes back)."""
    if put_back_from is not None:
        left, right = split_two(text, "usage: !pick N for M (N from the carousel, M from your !pool)")
        ref, give = by_position(pack, left, "carousel"), by_position(put_back_from, right, "pool")
        return ab.CarouselPick(player=player, card=ref, put_back=give)
    ref = by_position(pack, text, "carousel" if carousel else "pack")
    return ab.CarouselPick(player=player, card=ref) if carousel else core.Pick(player=player, card=ref)


SWAP_USAGE = "usage: !swap SHOP POOL (numbers from !shop), or !swap Shop Card for Pool Card"


def split_two(text: str, usage: str = SWAP_USAGE) -> tuple[str, str]:
    """``2 5``, ``Name for Other Name`` or ``Name, Other Name`` -> the two card references."""
    text = text.strip()
    for separator in (" for ", ",", "|"):
        if separator in text.lower():
            index = text.lower().index(separator)
            left, right = text[:index], text[index + len(separator) :]
            if left.strip() and right.strip():
                return left.strip(), right.strip()
    words = text.split()
    if len(words) == 2:
        return words[0], words[1]
    if len(words) > 2 and words[0].lstrip("#").isdecimal():
        return words[0], " ".join(words[1:])
    if len(words) > 2 and words[-1].lstrip("#").isdecimal():
        return " ".join(words[:-1]), words[-1]
    raise BadArgument(usage)


def swap_action(
    player: str, text: str, shop: Sequence[int], pool: Sequence[int], *, item: bool = False
) -> ab.Swap | ab.DraftItem:
    """``!swap A B`` (or ``!item A B``: A becomes an item): A from the shop, B from the pool (1-based
    positions or names)."""
    left, right = split_two(text, SWAP_USAGE.replace("!swap", "!item") if item else SWAP_USAGE)
    shop_card, pool_card = by_position(shop, left, "shop"), by_position(pool, right, "pool")
    kind = ab.DraftItem if item else ab.Swap
    return kind(player=player, shop_card=shop_card, pool_card=pool_card)


def pay_refs(text: str, pool: Sequence[int]) -> tuple[int | str, ...]:
    """The cards traded in: pool positions and/or names, separated by commas (or spaces for numbers).

    Raises:
        BadArgument: a position out of range or named twice, or nothing to pay with.
    """
    text = text.strip()
    if not text:
        raise BadArgument("name the cards you trade in: !buy N with A, B, ...")
    words = text.replace(",", " ").split()
    parts = words if all(w.lstrip("#").isdecimal() for w in words) else [p for p in text.split(",")]
    refs: list[int | str] = []
    positions: set[str] = set()
    for part in (p.strip() for p in parts):
        if not part:
            continue
        if part.lstrip("#").isdecimal():
            if part.lstrip("#") in positions:
                raise BadArgument(f"card {part} is named twice")
            positions.add(part.lstrip("#"))
        refs.append(by_position(pool, part, "pool"))
    if not refs:
        raise BadArgument("name the cards you trade in: !buy N with A, B, ...")
    return tuple(refs)


def buy_action(player: str, text: str, market: Sequence[int], pool: Sequence[int]) -> mk.Buy:
    """``!buy CARD with CARD, CARD...``: CARD from the market listing, the rest from the pool."""
    match = re.match(r"(?is)^(.*?)\s+with\s+(.*)$", text.strip())
    if match is None:
        raise BadArgument("usage: !buy N with A, B, ... (N from !market, A, B from your !pool numbers)")
    wanted = by_position(market, match.group(1), "market")
    return mk.Buy(player=player, card=wanted, pay=pay_refs(match.group(2), pool))


def result_action(player: str, outcome: str, opponent: str) -> core.ReportResult:
    """``!result win|loss|draw`` -> a claim (counts when the opponent claims the same)."""
    outcome = outcome.strip().lower()
    if outcome in ("win", "won", "w"):
        return core.ReportResult(player=player, winner=player)
    if outcome in ("loss", "lose", "lost", "l"):
        return core.ReportResult(player=player, winner=opponent)
    if outcome in ("draw", "d", "tie"):
        return core.ReportResult(player=player, draw=True)
    raise BadArgument("usage: !result win|loss|draw")
