"""Players' league command arguments read as engine actions: 1-based positions in the lists they were
shown (pack, shop, market, pool) or card names, turned into actions carrying card identities
(:func:`pick_action`, :func:`swap_action`, :func:`buy_action`, :func:`result_action`).

Where a command takes two cards or a list (``!swap A for B``, ``!buy A with B, C``, ``!pick N for M``), the
text is split where the names the player may mean fit (``name_of`` gives a card identity's name: their
pool, the market, the shop), so a name with a comma or the separator word in it stays whole
(``Slimefoot, the Stowaway``; ``Back for More for Shock``); the engine then resolves each name
(:func:`~cockatrice_ext.cards.typed.match_names`). Without ``name_of`` the first separator splits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from cockatrice_ext.bot.commands import BadArgument
from cockatrice_ext.cards.typed import match_names, split_names, split_pair
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


NameOf = Callable[[int], str]
"""A card identity's name (the league's ``card_name``)."""


def names_of(cards: Sequence[int], name_of: NameOf | None) -> list[str]:
    """The names of ``cards`` (none without ``name_of``)."""
    return [name_of(card) for card in cards] if name_of is not None else []


def pick_action(
    player: str,
    text: str,
    pack: Sequence[int],
    *,
    carousel: bool = False,
    put_back_from: Sequence[int] | None = None,
    name_of: NameOf | None = None,
) -> Action:
    """``!pick N|NAME`` -> a :class:`~cockatrice_ext.formats.league.Pick` (or a carousel pick). With a
    put-back carousel (``put_back_from`` is the player's pool): ``!pick N for M`` (M goes back), split where
    the carousel's and the pool's names fit."""
    if put_back_from is not None:
        left, right = split_two(
            text,
            "usage: !pick N for M (N from the carousel, M from your !pool)",
            names_of(pack, name_of),
            names_of(put_back_from, name_of),
        )
        ref, give = by_position(pack, left, "carousel"), by_position(put_back_from, right, "pool")
        return ab.CarouselPick(player=player, card=ref, put_back=give)
    ref = by_position(pack, text, "carousel" if carousel else "pack")
    return ab.CarouselPick(player=player, card=ref) if carousel else core.Pick(player=player, card=ref)


SWAP_USAGE = "usage: !swap SHOP POOL (numbers from !shop), or !swap Shop Card for Pool Card"


def _fit(token: str, names: Sequence[str]) -> int:
    """How well ``token`` names one card of ``names``: 2 a number or one card, 1 several, 0 none."""
    if re.fullmatch(r"#?\d+", token.strip()):
        return 2
    found = match_names(token, names)
    return 2 if len(found) == 1 else 1 if found else 0


def split_two(
    text: str, usage: str = SWAP_USAGE, left: Sequence[str] = (), right: Sequence[str] = ()
) -> tuple[str, str]:
    """``2 5``, ``Name for Other Name`` or ``Name, Other Name`` -> the two card references: of the places a
    separator splits it, the one where ``left`` names the first and ``right`` the second best (a name with
    ``for`` or a comma in it stays whole: ``Back for More for Shock``, ``Mikaeus, the Lunarch, Shock``);
    ties (and no names) go to `` for ``, then a comma, then ``|``, each at its first place."""
    text = text.strip()
    splits: list[tuple[str, str]] = []
    paired = split_pair(text, " for ", left, right)
    if paired is not None:
        splits.append(paired)
    parts = split_names(text, [*left, *right]) if left or right else []
    if len(parts) == 2:
        splits.append((parts[0], parts[1]))
    for separator in (",", "|"):
        if separator in text:
            first, _, rest = text.partition(separator)
            splits.append((first.strip(), rest.strip()))
    splits = [(a, b) for a, b in splits if a and b]
    if splits:
        return max(splits, key=lambda pair: _fit(pair[0], left) + _fit(pair[1], right))
    words = text.split()
    if len(words) == 2:
        return words[0], words[1]
    if len(words) > 2 and words[0].lstrip("#").isdecimal():
        return words[0], " ".join(words[1:])
    if len(words) > 2 and words[-1].lstrip("#").isdecimal():
        return " ".join(words[:-1]), words[-1]
    raise BadArgument(usage)


def swap_action(
    player: str,
    text: str,
    shop: Sequence[int],
    pool: Sequence[int],
    *,
    item: bool = False,
    name_of: NameOf | None = None,
) -> ab.Swap | ab.DraftItem:
    """``!swap A B`` (or ``!item A B``: A becomes an item): A from the shop, B from the pool (1-based
    positions or names, split where the shop's and the pool's names fit)."""
    usage = SWAP_USAGE.replace("!swap", "!item") if item else SWAP_USAGE
    left, right = split_two(text, usage, names_of(shop, name_of), names_of(pool, name_of))
    shop_card, pool_card = by_position(shop, left, "shop"), by_position(pool, right, "pool")
    kind = ab.DraftItem if item else ab.Swap
    return kind(player=player, shop_card=shop_card, pool_card=pool_card)


def pay_refs(text: str, pool: Sequence[int], name_of: NameOf | None = None) -> tuple[int | str, ...]:
    """The cards traded in: pool positions and/or names, separated by commas (or spaces for numbers); a
    pool card's name with a comma in it stays whole (``Slimefoot, the Stowaway``).

    Raises:
        BadArgument: a position out of range or named twice, or nothing to pay with.
    """
    text = text.strip()
    if not text:
        raise BadArgument("name the cards you trade in: !buy N with A, B, ...")
    words = text.replace(",", " ").split()
    if all(w.lstrip("#").isdecimal() for w in words):
        parts = words
    else:
        parts = split_names(text, names_of(pool, name_of))
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


def buy_action(
    player: str, text: str, market: Sequence[int], pool: Sequence[int], *, name_of: NameOf | None = None
) -> mk.Buy:
    """``!buy CARD with CARD, CARD...``: CARD from the market listing, the rest from the pool (split where
    the market's and the pool's names fit: ``Fight with Fire with 2, 3``)."""
    paired = split_pair(" ".join(text.split()), " with ", names_of(market, name_of), names_of(pool, name_of))
    if paired is None or not paired[0] or not paired[1]:
        raise BadArgument("usage: !buy N with A, B, ... (N from !market, A, B from your !pool numbers)")
    wanted = by_position(market, paired[0], "market")
    return mk.Buy(player=player, card=wanted, pay=pay_refs(paired[1], pool, name_of))


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
