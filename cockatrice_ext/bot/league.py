"""Market Draft and AutoBattler leagues: one journaled league, run over private messages and many games.

Theory of operation
-------------------
The rules live in :mod:`cockatrice_ext.formats.market` and :mod:`cockatrice_ext.formats.autobattler`
(on the shared core :mod:`cockatrice_ext.formats.league`); this module only adapts them.

* **Lobby.** In room chat players ``!market join`` (or ``!autobattler join``); any member then says
  ``!market start [ROUNDS] [BLOCK]`` / ``!autobattler start [BLOCK]``. The league becomes one journaled
  :class:`~cockatrice_ext.journal.Table` keyed by server, room, format and league number. With the web
  view on, a join is answered by private message with the joiner's page link (the room hears only that a
  lobby opened): the page shows the :class:`Lobby` live, and becomes the league's page at the start.
* **Private desk.** Everything else is a private message to the bot (``!pick``, ``!shop``, ``!swap``,
  ``!buy``, ``!pool``, ``!standings``, ``!result``...). Identity is the server's sender name. Players see
  numbered lists (packs, shops, the market, their pool) and answer with those 1-based positions or with
  card names; :func:`pick_action`, :func:`swap_action` and :func:`buy_action` turn them into engine
  actions carrying card identities.
* **Games.** Each pairing gets its own Cockatrice game created by the bot with shared decklists. The bot
  sits with an empty deck and presses ready only once both players of the match are seated with legal
  decks (the engines' ``check_deck``), so an illegal deck cannot start. An account with the server's judge
  level watches instead, from a judge's spectator seat that the per-user game limit does not count, and
  takes back (acting as the player) any ready given before both decks are legal. It learns the result from the
  game: a life total reaching 0, a concession or a player leaving (AutoBattler refuses concessions, as
  its engine does); ``!result win|loss|draw`` from both players is the fallback. For AutoBattler the
  Treasure tokens on each player's battlefield are reported before the result.
* **Away and idle members.** A running league checks every :data:`STAND_IN_TICK` seconds whose move it
  waits for (each engine's ``waiting_for``): a member out of its room :data:`LOBBY_GRACE` seconds, and silent
  to us since, or past the league option ``timer`` (warned at half time), gets the referee's move
  (``core.StandIn``: a pick at random, a pass, the end of a draft phase), journaled like any other; the room
  hears once that the referee moves for an away member, and when they are back. A paired member gone
  :data:`FORFEIT_GRACE` seconds (out of the room and not connected in their game) loses the match by forfeit
  (a referee's result; both gone, nothing is guessed).
* **Restart.** The installer restores every open league of its format from the journal; the games of
  undecided matches are adopted again where the bot is re-seated (a registered account) or, with judge
  rights, watches them again; a game under way is taken over without a word (its decks were checked and
  its start announced before); a game gone from the server is created anew. An open lobby is a journal
  note, written before a join or leave is answered: a restarted bot opens it again and says so in the room
  (a fleet keeps its lobbies in memory).

Rendering effects to chat lines is pure (:func:`render_effects`): public lines go to the league's room,
private ones (packs, shops, pools) to the player concerned.

**Private views and the chat budget.** Every room, game and private message shares the bot's one chat
budget (about 1,000 characters per 10 s), so a view listing a shop and a pool (~300 characters) for each
of eight players would reach the last one tens of seconds late. With the web view on (``bot run --web``,
which sets ``bot.league_pages``), each player's view lives on a private page, whose link the join's
answer carried (a player without one gets it with their first private message: ``Your shop and pool:
URL or !shop``); later lines point there instead of listing cards, and players watching their page (its
live stream open) get no chat copy of what it shows: the start of an eight-player league costs the room's
line, no private message. Without it, the first view of a draft phase is the actionable part (the shop
with the commands, ~150 characters); what the phase brought (cards, treasures) and the whole view (shop
and numbered pool) follow once that line has gone out. Rolls show the whole view at once. ``!shop`` and
``!pool`` answer in full at any time.
A batch's private lines are queued before its room lines (the chat scheduler serves the least recently
served destination first, so a player's first view does not wait behind the room's announcements).
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import logging
import math
import re
import secrets
import time
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from cockatrice_ext.bot.blocks import LoadedBlock, chat_block_name, load_block
from cockatrice_ext.bot.commands import BadArgument, NotAllowed, Rest, command, parse_invocation
from cockatrice_ext.bot.runtime import Bot, Context, GameReferee, Referee, shorten, unreplayable_line
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.client.errors import ClientError
from cockatrice_ext.client.mirror import PlayerState
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.formats.base import Action, Effect, Engine, RulesError
from cockatrice_ext.journal import JournalError, Table
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol.codes import LeaveReason

LOGGER = logging.getLogger(__name__)

FORMATS = ("market", "autobattler")
TITLES = {"market": "Market Draft", "autobattler": "AutoBattler"}
DEFAULT_BLOCKS = {"market": "market-pool", "autobattler": "autobattler-cube"}
LIFE_COUNTER = 0
MAX_DECK_CARDS = 1000
"""Loaded decks are read up to this many cards (untrusted input; no league deck comes close)."""
PRIVATE_LIMIT = 900
"""Private messages are cut into pieces of at most this many characters (the server's chat budget)."""
PAGE_CONTENTS = {"market": "pack, market and pool", "autobattler": "shop and pool"}
"""What a league player's private web page shows, as its link's message says it."""
SEATS = {"market": (2, 8), "autobattler": (4, 8)}
"""How many players a league of each format takes (AutoBattler: 4 or 8, nothing between)."""
AFTER_THE_END = frozenset({"standings", "pool", "status"})
"""Private commands an ended league still answers, for its members (who are in no league then)."""
LOBBY_GRACE = 120.0
"""Seconds a lobby member may be out of the room (a dropped connection, a client restarted) before the lobby
lets them go."""
OPTION_OF_COMMAND = {"augment": "augments", "item": "items", "basic": "permbasic", "pick": "carousel"}
"""AutoBattler commands that only a league started with that option offers (``!autobattler start items``)."""
STAND_IN_TICK = 5.0
"""Seconds between a running league's checks of whose move it waits for: a member out of the room
:data:`LOBBY_GRACE` seconds, or past the league's ``timer``, gets the referee's move (``core.StandIn``)."""
FORFEIT_GRACE = 300.0
"""Seconds a paired member may be gone (out of the room and not connected in their game) before their
opponent wins the match by forfeit: a game is worth longer than a pick (a client restarted comes back)."""
WAIT_RETRY = 20.0
"""Seconds between tries to open the game of a pairing the server refused a game (its limit of games per
account): the league's check (:meth:`LeagueReferee.stand_in_due`) tries again no more often than this."""
CLOSED_FOR_ROOM = "This game is closed to make room for new games; the result stands."
"""What a finished league game hears before the referee closes it for a new game (LeagueGame.leave)."""
CLOSED_AFTER_LINGER = "This game is over and closes now; the result stands."
"""The same when the referee's stay in a finished game ends (:attr:`GameReferee.LINGER_SECONDS`)."""
STAND_IN_WORDS = {
    "pick": "picked at random for you",
    "pass": "passed your market turn",
    "done": "ended your draft (your pool as it is)",
    "carousel": "made your carousel pick at random",
}
"""What the referee did for a member, as their private line says it."""
NEEDED = {"market": "2 to 8", "autobattler": "4 or 8"}
"""The same, as a lobby's page says it."""

EMPTY_DECK = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>referee</deckname>'
    '<comments/><zone name="main"/></cockatrice_deck>'
)

REFUSALS: dict[str, str] = {
    "not_a_member": "you are not in this league",
    "malformed": "that does not make sense here",
    "card_not_found": "no such card ({card})",
    "no_pack": "you have no pack to pick from right now",
    "no_round": "no round is being played",
    "not_paired": "you have no game this round",
    "not_in_match": "{player} is not in your match",
    "result_already_recorded": "that result is already recorded",
    "concession_not_allowed": "concessions do not decide AutoBattler games; play it out",
    "no_such_match": "no such match",
    "referee_only": "only the referee can do that",
    "wrong_phase": "not now (the league is in its {phase} phase)",
    "not_your_turn": "it is {turn}'s turn to buy, not yours",
    "not_in_market": "{card} is not in the market",
    "not_enough_worth": "those cards are worth {worth}; {card} costs {cost}",
    "not_enough_cards": "the card pool is too small for this league",
    "not_active": "you are not drafting or playing now",
    "already_done": "you already finished drafting this phase",
    "no_treasure": "you have no treasure to roll with",
    "not_in_shop": "{card} is not in your shop",
    "not_your_pick": "it is {turn}'s carousel pick",
    "not_in_carousel": "{card} is not in the carousel",
    "put_back_needed": "name a card of your pool to put back: !pick N for M",
    "no_put_back": "this carousel takes nothing back: !pick N",
    "not_in_pool": "{card} is not in your pool",
    "no_replay": "no replay is pending",
    "feature_disabled": "this league does not offer that",
    "not_enough_treasures": "that costs {needed} treasures; you have {treasures}",
    "no_augment_pack": "you have no augment pack to choose from",
    "not_in_augment_pack": "{card} is not in your augment pack",
    "augment_pending": "keep one augment of your pack first: !augment N",
    "not_an_item": "{card} is not an Aura or Equipment: only those become items",
}

PROBLEMS: dict[str, str] = {
    "deck_too_small": "{actual} cards, at least {expected} needed",
    "not_in_pool": "{name} x{expected} but you own {actual}",
    "wrong_hand_size": "{actual} hand cards, exactly {expected} needed (the energy)",
    "library_not_empty": "the library must be empty",
    "wrong_land_count": "{actual} basic lands, exactly {expected} needed",
    "not_basic_land": "{name} is not a basic land",
    "too_many_treasures": "{actual} treasures, at most {expected}",
    "basics_fee_unpaid": "other basic lands than last game cost {expected} treasure(s); you have {actual}",
    "unreadable": "the deck could not be read",
    "no_deck": "no deck loaded",
}


# ---------------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeagueOptions:
    """League options chosen at ``start`` (journaled with the league)."""

    format: str = "market"
    block: str = ""
    rounds: int = 3  # Market Draft only
    seed: int | None = None  # fixed shuffles for reproducible leagues; None = a fresh random seed
    game_password: str = ""
    # The game options (formats/options.py) set these: each is the engine config field of the same name,
    # with the engine's default.
    uncommon_cost: int = mk.MarketConfig.uncommon_cost
    rare_cost: int = mk.MarketConfig.rare_cost
    mythic_cost: int = mk.MarketConfig.mythic_cost
    common_worth: int = mk.MarketConfig.common_worth
    uncommon_worth: int = mk.MarketConfig.uncommon_worth
    rare_worth: int = mk.MarketConfig.rare_worth
    mythic_worth: int = mk.MarketConfig.mythic_worth
    color_balanced: bool = mk.MarketConfig.color_balanced
    bye_result: str = mk.MarketConfig.bye_result
    old_rare_limit: int = mk.MarketConfig.old_rare_limit
    flat_poison: int = ab.AutoBattlerConfig.flat_poison
    interest_threshold: int = ab.AutoBattlerConfig.interest_threshold
    streak_length: int = ab.AutoBattlerConfig.streak_length
    carousel: bool = ab.AutoBattlerConfig.carousel
    carousel_put_back: bool = ab.AutoBattlerConfig.carousel_put_back
    permanent_basic_cost: int = ab.AutoBattlerConfig.permanent_basic_cost
    basics_change_fee: int = ab.AutoBattlerConfig.basics_change_fee
    augment_packs: bool = ab.AutoBattlerConfig.augment_packs
    item_drafting: bool = ab.AutoBattlerConfig.item_drafting
    reseat_on_energy: bool = ab.AutoBattlerConfig.reseat_on_energy
    pick_timeout: int = 0  # the option timer: seconds per draft decision before the referee moves; 0 = none

    @property
    def block_name(self) -> str:
        return self.block or DEFAULT_BLOCKS[self.format]


# ---------------------------------------------------------------------------------------------
# Pure helpers: positions -> card identities, deck checks, rendering
# ---------------------------------------------------------------------------------------------


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


def carousel_prompt(engine: ab.AutoBattlerEngine) -> str:
    """What the player whose carousel pick it is should type."""
    if engine.config.carousel_put_back:
        return "Your carousel pick: !pick N for M (M: a card of your !pool goes back into the carousel)."
    return "Your carousel pick: !pick N."


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


BUY_PROMPT = (
    "Your turn to buy: !buy N with A, B... (N: the card's market number, A, B...: your pool numbers; !market"
    " lists both) or !pass."
)
"""The buyer's prompt when they see the market as it is now (just opened, or on their page)."""


def market_listing(engine: Any, name_of: Any = None) -> str:
    """The open market, numbered as ``!buy`` reads it now (a buy renumbers the cards after it)."""
    cards = engine.config.cards
    name = name_of or (lambda c: cards[c].name)
    return numbered([f"{name(c)} ({_rarity(cards[c])}, {engine.cost(c)})" for c in engine.market])


def market_prompt(engine: Any) -> str:
    """The buyer's prompt with the market as it is now: numbers move after each buy, so the number a
    buyer reads is always that of the listing given with their turn."""
    return (
        f"Your turn to buy. The market now: {market_listing(engine)}. !buy N with A, B... (N from this list;"
        " A, B...: your pool numbers, !market lists both) or !pass."
    )


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


def deck_names(cod_text: str) -> tuple[list[str], list[str]] | None:
    """(main, side) card names of a .cod deck, one entry per copy; ``None`` if it cannot be read."""
    from cockatrice_ext.decks.errors import DeckFormatError
    from cockatrice_ext.decks.readers import read_cod

    try:
        deck = read_cod(cod_text.encode("utf-8"), source="loaded deck")
    except (DeckFormatError, ValueError):
        return None
    main: list[str] = []
    side: list[str] = []
    for section, entries in deck.sections.items():
        target = side if section in ("side", "tokens", "maybeboard") else main
        for entry in entries:
            room = MAX_DECK_CARDS - len(main) - len(side)
            target.extend([entry.name] * max(0, min(entry.count, room)))
    return main, side


def canonical_names(names: Iterable[str], facts: Sequence[CardFacts], game_names: Sequence[str]) -> list[str]:
    """Translate Cockatrice spellings back to the engine's card names (others are kept as written)."""
    table = {n.casefold(): f.name for f, n in zip(facts, game_names, strict=False)}
    table.update({f.name.casefold(): f.name for f in facts})
    return [table.get(n.strip().casefold(), n.strip()) for n in names]


def check_loaded_deck(
    engine: Engine[Any], player: str, cod_text: str, block: LoadedBlock
) -> list[core.DeckProblem]:
    """The deck rules of the league's format applied to a loaded .cod (empty when legal).

    Market: the main deck (sideboard ignored). AutoBattler: main-deck basic lands are the three lands,
    cards named Treasure are treasures, every other main-deck card is the starting hand; the library is
    empty by construction (the whole deck is hand and lands).
    """
    if not cod_text.strip():
        return [core.DeckProblem("no_deck")]
    read = deck_names(cod_text)
    if read is None:
        return [core.DeckProblem("unreadable")]
    main = canonical_names(read[0], block.facts, block.game_names)
    if isinstance(engine, mk.MarketDraftEngine):
        return engine.check_deck(player, main)
    assert isinstance(engine, ab.AutoBattlerEngine)
    basics = {n.casefold() for n in engine.config.basic_land_names}
    lands = [n for n in main if n.casefold() in basics]
    treasures = sum(1 for n in main if n.casefold() in ("treasure", "treasure token"))
    hand = [
        n for n in main if n.casefold() not in basics and n.casefold() not in ("treasure", "treasure token")
    ]
    return engine.check_deck(player, hand, (), lands, treasures)


def default_augments() -> tuple[CardFacts, ...]:
    """The engine's curated augments as cards (from the shipped card data), each card's rarity its
    curated power level."""
    from cockatrice_ext.cards.store import shipped_store

    store = shipped_store()
    facts = []
    for name, rarity in ab.DEFAULT_AUGMENTS:
        card = store.find(name)
        if card is None:
            raise LookupError(f"augment {name!r} is not in the card data")
        facts.append(replace(card.facts(), rarity=rarity))
    return tuple(facts)


def describe_problems(problems: Sequence[core.DeckProblem]) -> str:
    """One line naming every problem of a deck."""
    parts = []
    for problem in problems:
        template = PROBLEMS.get(problem.code, problem.code.replace("_", " "))
        parts.append(template.format(**asdict(problem)))
    return "; ".join(parts)


def deck_verdict(problems: Sequence[core.DeckProblem]) -> tuple[str, str]:
    """A deck's verdict as said in the game, naming no card, and in full for its player alone (``""`` when
    that would say no more): "X x2 but you own 1" tells what a pool holds, and pools are private."""
    if not problems:
        return "deck OK", ""
    unnamed = [problem for problem in problems if not problem.name]
    at_fault = len(problems) - len(unnamed)
    public = describe_problems(unnamed)
    if not at_fault:
        return f"deck not legal: {public}", ""
    public = "; ".join(filter(None, [public, f"{at_fault} card(s) not allowed"]))
    return f"deck not legal: {public}", f"deck not legal: {describe_problems(problems)}"


def counted(n: int, word: str) -> str:
    """``1 treasure``, ``2 treasures``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def market_winners(standings: Sequence[tuple[str, int]]) -> str:
    """Who won a Market Draft league (its top score; shared when several have it), in words."""
    if not standings:
        return ""
    top = [p for p, points in standings if points == standings[0][1]]
    if len(top) == 1:
        return f"{top[0]} wins the league ({counted(standings[0][1], 'point')})"
    return f"{' and '.join(top)} share first place ({counted(standings[0][1], 'point')} each)"


def numbered(names: Sequence[str]) -> str:
    return "; ".join(f"{n}. {name}" for n, name in enumerate(names, start=1))


def grouped(names: Iterable[str]) -> str:
    counts = Counter(names)
    return ", ".join(f"{n}x {name}" if n > 1 else name for name, n in counts.items())


def departure(gone: str, dropped: bool, *, to_them: bool = False) -> str:
    """How ``gone`` left a league game cut short, in words (``to_them``: as told to that player)."""
    if to_them:
        return "your connection dropped" if dropped else "you left"
    return f"{gone}'s connection dropped" if dropped else f"{gone} left"


def pool_list(game_names: Sequence[str]) -> str:
    """A deck list (one ``N Name`` line per card) Cockatrice's deck editor accepts from the clipboard."""
    counts = Counter(game_names)
    return "\n".join(f"{count} {name}" for name, count in sorted(counts.items()))


def pool_cod(name: str, game_names: Sequence[str]) -> str:
    """The pool as a Cockatrice .cod (through the exporters; tokens the cards make are listed too)."""
    from cockatrice_ext.bot.blocks import default_cards
    from cockatrice_ext.decks.model import Deck, DeckEntry
    from cockatrice_ext.exporters.cockatrice import write_cod
    from cockatrice_ext.exporters.model import build_export_deck

    deck = Deck(name=name, comments="League pool from the cockatrice-ext referee")
    counts = Counter(game_names)
    deck.sections["main"] = [DeckEntry(n, c) for n, c in sorted(counts.items())]
    export = build_export_deck(deck, default_cards(), source="pool")
    return write_cod(export, printings=False).decode("utf-8")


@dataclass
class Rendered:
    """Chat for a batch of effects: ``public`` lines for the room, ``private`` lines per player.

    ``follow_up`` holds, per player, lines to send once their first (short) line has gone out: the cards
    and treasures a draft phase brought, and the whole view. ``on_page`` marks the (player, line) pairs of
    ``private`` that the player's private page shows by itself (their own pick or swap, the pack waiting
    there): a player who plays from the page gets them as the page's answer, not in chat.
    """

    public: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    follow_up: dict[str, list[str]] = field(default_factory=dict)
    on_page: set[tuple[str, str]] = field(default_factory=set)

    def tell(self, player: str, line: str, *, on_page: bool = False) -> None:
        self.private.setdefault(player, []).append(line)
        if on_page:
            self.on_page.add((player, line))

    def later(self, player: str, line: str) -> None:
        self.follow_up.setdefault(player, []).append(line)


def _rarity(card: CardFacts) -> str:
    return mk.rarity_class(card) or card.rarity or "card"


def shop_view(engine: ab.AutoBattlerEngine, player: str, names: Sequence[str]) -> str:
    """The whole chat view of an AutoBattler shop: the shop, the numbered pool and the commands."""
    cards = engine.config.cards
    pool = engine.league.pools[player]
    items = (
        " !item SHOP POOL takes an Aura or Equipment as an item (treasures: its mana value)."
        if engine.config.item_drafting
        else ""
    )
    return (
        f"Your shop: {numbered(names)}. Your pool: {numbered([cards[c].name for c in pool])}."
        " !swap SHOP POOL to take a card, !roll (1 treasure) for a new shop, !done when finished." + items
    )


def shop_first_line(engine: ab.AutoBattlerEngine, player: str, names: Sequence[str]) -> str:
    """The short first view of a draft phase in chat: the shop and what to do (the pool follows)."""
    return (
        f"Your shop: {numbered(names)}. Treasures {engine.treasures[player]}. !swap SHOP POOL, !roll, !done;"
        " pool next."
    )


def opened_shops(effects: Sequence[Effect]) -> set[str]:
    """Players whose batch opens a draft phase's first shop (a shop not opened by their own !roll)."""
    rolled = {e.player for e in effects if isinstance(e, ab.Rolled)}
    return {e.player for e in effects if isinstance(e, ab.ShopOpened) and e.player not in rolled}


def render_effects(
    effects: Iterable[Effect], engine: Engine[Any], *, pages: bool | Collection[str] = False
) -> Rendered:
    """Short lines for ``effects`` of a Market Draft or AutoBattler engine (pure).

    With ``pages`` (True: every player; else the players who watch their private web page now) private
    lines point to the page instead of listing packs, shops and markets; other players get the listing. A
    draft phase's first shop comes alone (its first cards and treasures are on the page, or in the whole
    view that follows the short first line).
    """
    out = Rendered()

    def paged(player: str) -> bool:
        return pages if isinstance(pages, bool) else player in pages

    cards: Sequence[CardFacts] = engine.config.cards
    effects = list(effects)
    pools_shown: set[str] = set()
    opening = opened_shops(effects)
    stood_in = {e.player for e in effects if isinstance(e, core.StoodIn)}  # told once, by StoodIn's line
    for effect in effects:
        # -- shared league effects --
        if isinstance(effect, core.PackInFront):
            size = len(effect.cards)
            # How to pick is said with a player's first pack only: 44 more times would cost a chat-only
            # two-player draft some 2,000 characters of the budget (20 s).
            how = " !pick N (or the name)." if not engine.league.pools[effect.player] else ""  # type: ignore[attr-defined]
            out.tell(
                effect.player,
                f"Your pack ({size}) is on your page; or !pack."
                if paged(effect.player)
                else f"Your pack ({size}): {numbered(effect.names)}.{how}",
                on_page=paged(effect.player),
            )
        elif isinstance(effect, core.StoodIn):
            why = "You were away" if effect.reason == "away" else "Your time ran out"
            out.tell(effect.player, f"{why}: the referee {STAND_IN_WORDS.get(effect.move, 'moved for you')}.")
            if effect.reason == "time" and effect.move != "pick":  # the others wait for that turn
                out.public.append(f"{effect.player}'s time ran out.")
        elif isinstance(effect, core.Picked):
            size = len(engine.league.pools[effect.player])  # type: ignore[attr-defined]
            out.tell(
                effect.player,
                f"You picked {effect.name} ({size} in your pool).",
                on_page=paged(effect.player),
            )
        elif isinstance(effect, core.DraftFinished):
            out.public.append(
                "The draft is over: everyone has their pool. Decks: !pool in a private message."
            )
            for player in engine.league.members:  # type: ignore[attr-defined]
                out.tell(player, "Draft over. Your pool as a deck list: !pool (or !pool cod).")
        elif isinstance(effect, core.RoundStarted):
            games = [" vs ".join(p) for p in effect.pairings if len(p) == 2]
            byes = [p[0] for p in effect.pairings if len(p) == 1]
            line = f"Round {effect.round}: " + ("; ".join(games) or "no games")
            if byes:
                line += "; bye: " + ", ".join(byes)
            out.public.append(line + ". The referee opens a game for each pairing.")
        elif isinstance(effect, core.ResultClaimed):
            if any(isinstance(e, core.ResultRecorded) and e.players == effect.players for e in effects):
                continue  # the claim that confirms the other's: the result line says it all
            opponent = next((p for p in effect.players if p != effect.player), "")
            said = "a draw" if effect.draw else f"{effect.winner} won"
            match = engine.league.match_of(effect.player, effect.round) if opponent else None  # type: ignore[attr-defined]
            theirs = match.claims.get(opponent) if match is not None and not match.decided else None
            if theirs is not None and theirs != effect.winner:  # both claimed, differently: nothing counts
                their_said = f"{theirs} won" if theirs else "a draw"
                settle = (
                    "One of you corrects it with !result win|loss|draw, or the game decides it if the"
                    " referee sees its end (a life total at 0, a concession)."
                )
                out.tell(
                    effect.player,
                    f"Noted: {said}. But {opponent} reported {their_said}: your reports disagree. {settle}",
                )
                out.tell(
                    opponent,
                    f"{effect.player} reports {said}, but you reported {their_said}: your reports disagree."
                    f" {settle}",
                )
                continue
            out.tell(effect.player, f"Noted: {said}. Waiting for {opponent} to confirm.")
            if opponent:
                confirm = "draw" if effect.draw else "win" if effect.winner == opponent else "loss"
                out.tell(opponent, f"{effect.player} reports {said}. Confirm with !result {confirm}.")
        elif isinstance(effect, core.ResultRecorded):
            if len(effect.players) == 1:
                worth = "a win" if effect.winner else "a draw" if effect.draw else "a loss"
                out.public.append(f"Round {effect.round}: {effect.players[0]} has a bye ({worth}).")
            elif effect.draw:
                out.public.append(f"Round {effect.round}: {' and '.join(effect.players)} draw.")
            else:
                loser = next(p for p in effect.players if p != effect.winner)
                out.public.append(f"Round {effect.round}: {effect.winner} beats {loser}.")
        elif isinstance(effect, core.CardsGiven):
            source = {"booster": "Your booster", "setup": "Your first cards", "random": "A random card"}.get(
                effect.source, f"From the {effect.source}"
            )
            line = f"{source}: {grouped(effect.names)} (now in your pool)."
            if effect.player not in opening:
                out.tell(effect.player, line)
            elif not paged(
                effect.player
            ):  # the shop's first line comes alone; this follows it (the page shows the pool)
                out.later(effect.player, line)
        # -- Market Draft --
        elif isinstance(effect, mk.MarketOpened):
            listing = numbered(
                [f"{cards[c].name} ({_rarity(cards[c])}, {engine.cost(c)})" for c in effect.cards]  # type: ignore[attr-defined]
            )
            out.public.append(f"Market open: {listing}.")
            out.public.append("Buying order: " + ", ".join(effect.order) + ".")
            for player in effect.order:
                out.tell(
                    player,
                    "The market is open: buy on your page, or !market."
                    if paged(player)
                    else f"Market: {listing}. !market shows it with your pool numbers.",
                )
        elif isinstance(effect, mk.MarketTurn):
            out.public.append(f"{effect.player} to buy.")
            opened = any(isinstance(e, mk.MarketOpened) for e in effects)
            if (
                paged(effect.player) or opened
            ):  # the page shows the market as it is; an opening listing is current
                out.tell(effect.player, BUY_PROMPT)
            else:  # a buy renumbers the market: the buyer gets the numbers their !buy is read against
                out.tell(effect.player, market_prompt(engine))
        elif isinstance(effect, mk.CardBought):
            out.public.append(
                f"{effect.player} buys {effect.name}, trading in {grouped(effect.paid_names)}"
                f" (worth {effect.worth}, cost {effect.cost})."
            )
        elif isinstance(effect, mk.Passed):
            out.public.append(f"{effect.player} passes.")
        elif isinstance(effect, mk.MarketClosed):
            rares = len(effect.old_rares)
            last = engine.league.round >= engine.config.rounds  # type: ignore[attr-defined]  # no market follows
            stay = "stays" if rares == 1 else "stay"
            kept = f" {counted(rares, 'rare')} {stay} for the next market." if rares and not last else ""
            out.public.append(f"Market closed.{kept}")
            for player in engine.league.members:  # type: ignore[attr-defined]
                if player not in pools_shown:
                    pools_shown.add(player)
                    out.tell(player, "The market closed; update your deck from !pool.")
        elif isinstance(effect, mk.LeagueOver):
            table = ", ".join(f"{p} {pts}" for p, pts in effect.standings)
            out.public.append(
                f"League over! {market_winners(effect.standings)}. Final standings (points): {table}."
            )
        # -- AutoBattler --
        elif isinstance(effect, ab.TreasuresChanged):
            if effect.reason in ("draft", "kept", "excess", "interest", "streak") and effect.delta:
                why = {
                    "draft": "draft phase",
                    "kept": "kept from the game" if effect.delta > 0 else "lost in the game",
                    "excess": "more than five",
                    "interest": "interest",
                    "streak": "win streak",
                }[effect.reason]
                line = f"Treasures: {effect.treasures} ({effect.delta:+d}, {why})."
                if effect.reason != "draft" or effect.player not in opening:
                    out.tell(effect.player, line)
                elif not paged(effect.player):  # the shop's first line says the treasures; this follows it
                    out.later(effect.player, line)
        elif isinstance(effect, ab.ShopOpened):
            assert isinstance(engine, ab.AutoBattlerEngine)
            if paged(effect.player):
                if effect.player in opening:
                    treasures = engine.treasures[effect.player]
                    out.tell(
                        effect.player,
                        f"Your shop is open ({counted(treasures, 'treasure')}): on your page, or !shop.",
                        on_page=True,
                    )
            elif effect.player in opening:
                out.tell(effect.player, shop_first_line(engine, effect.player, effect.names))
                out.later(effect.player, shop_view(engine, effect.player, effect.names))
            else:
                out.tell(effect.player, shop_view(engine, effect.player, effect.names))
        elif isinstance(effect, ab.Swapped):
            out.tell(
                effect.player,
                f"You took {effect.taken_name} and gave {effect.given_name}.",
                on_page=paged(effect.player),
            )
        elif isinstance(effect, ab.ItemDrafted):
            treasures = engine.treasures[effect.player]  # type: ignore[attr-defined]
            out.tell(
                effect.player,
                f"{effect.taken_name} is now your item ({effect.cost} treasure(s) paid, {treasures} left;"
                f" {effect.given_name} went to the shop). It starts every mini-game in the command zone"
                " (your table): when a permanent enters the battlefield under your control, you may put it"
                " onto the battlefield attached to that permanent.",
            )
        elif isinstance(effect, ab.Rolled):
            out.tell(effect.player, "Rolled: a new shop.", on_page=paged(effect.player))
        elif isinstance(effect, ab.BasicsPlayed) and effect.fee:
            treasures = engine.treasures[effect.player]  # type: ignore[attr-defined]
            out.tell(
                effect.player,
                f"Other basic lands than last game: {effect.fee} treasure(s) paid ({treasures} left).",
            )
        elif isinstance(effect, ab.PermanentBasicBought):
            out.public.append(
                f"{effect.player} pays {engine.config.permanent_basic_cost} treasures: {effect.basics} basic"
                " lands in every mini-game from now on."
            )
        elif isinstance(effect, ab.PlayerDone):
            done = len(engine.done)  # type: ignore[attr-defined]
            total = len(engine.active())  # type: ignore[attr-defined]
            if done < total:
                out.public.append(f"{effect.player} has finished drafting ({done}/{total}).")
            paged_done = paged(effect.player)
            if (paged_done or done < total) and effect.player not in stood_in:  # the answer to their !done
                out.tell(
                    effect.player, f"You are done drafting this phase ({done}/{total}).", on_page=paged_done
                )
        elif isinstance(effect, ab.DraftEnded):
            energy = engine.energy  # type: ignore[attr-defined]
            out.public.append(f"Draft over. Energy {energy}: build your mini-game decks.")
            for player in engine.active():  # type: ignore[attr-defined]
                treasures = min(engine.treasures[player], engine.config.max_treasures)  # type: ignore[attr-defined]
                lands = engine.config.basic_lands + engine.extra_basics[player]  # type: ignore[attr-defined]
                command = engine.command_zone(player)  # type: ignore[attr-defined]
                out.tell(
                    player,
                    f"Deck: exactly {energy} cards of your pool (your starting hand) plus {lands} basic"
                    f" lands; put your {treasures} treasure(s) on the battlefield as Treasure tokens (they"
                    " are counted when the game ends)"
                    + (f"; add {', '.join(command)} (command zone)" if command else "")
                    + ". !pool lists it.",
                )
        elif isinstance(effect, ab.MatchSetup):
            a, b = effect.players
            if effect.chooser:
                who = f"{effect.chooser} (more poison) chooses to play or draw"
            else:
                who = f"{effect.first} plays first (random)"
            out.public.append(
                f"{a} vs {b}: {who}; hand {effect.hand_size}, life {effect.starting_life}, no library."
            )
        elif isinstance(effect, ab.PoisonChanged):
            why = {"loss": "lost", "ghost_rule": "Ghost rule", "replay_abandoned": "replay abandoned"}.get(
                effect.reason, effect.reason
            )
            out.public.append(f"{effect.player}: {effect.poison} poison ({effect.delta:+d}, {why}).")
        elif isinstance(effect, ab.ReplayRequired):
            out.public.append(f"{' and '.join(effect.players)} drew and must play again.")
        elif isinstance(effect, ab.PlayerEliminated):
            out.public.append(f"{effect.player} is eliminated.")
        elif isinstance(effect, ab.GhostNamed):
            out.public.append(f"{effect.player} is the Ghost and keeps playing.")
        elif isinstance(effect, ab.EnergyChanged):
            out.public.append(f"Energy rises to {effect.energy}.")
        elif isinstance(effect, ab.PlayersReseated):
            tables = "; ".join(f"group {n}: {', '.join(g)}" for n, g in enumerate(effect.groups, start=1))
            out.public.append(f"Hand sizes grow: everyone changes tables. {tables}.")
        elif isinstance(effect, ab.GroupWon):
            if len(engine.groups) == 1:  # type: ignore[attr-defined]  # four players: the group is the league
                out.public.append(f"{effect.player} wins the league: the champion!")
            else:
                out.public.append(f"{effect.player} wins group {effect.group + 1}.")
        elif isinstance(effect, ab.ChampionDecided):
            out.public.append(f"{effect.player} is the champion!")
        elif isinstance(effect, ab.AugmentRarityRolled):
            out.public.append(
                f"Augments: the D6 rolled {effect.roll}, so {effect.rarity} augments this game (a pack of"
                " three for each player past 5 poison)."
            )
        elif isinstance(effect, ab.AugmentPackDealt):
            out.public.append(f"{effect.player} is past 5 poison and gets an augment pack.")
            if effect.cards:
                out.tell(
                    effect.player,
                    f"Your augment pack: {numbered(effect.names)}. Keep one with !augment N before you"
                    " finish drafting; the others are discarded.",
                )
            else:
                out.tell(effect.player, "No augments of this game's rarity are left: your pack is empty.")
        elif isinstance(effect, ab.AugmentChosen):
            out.public.append(f"{effect.player} keeps an augment.")
            out.tell(
                effect.player,
                f"You keep {effect.name}: put it in every mini-game deck; it starts in the command zone"
                " (your table) and is not a hand card.",
            )
        elif isinstance(effect, ab.CarouselOpened):
            out.public.append(f"Carousel: {numbered(effect.names)}. Order: {', '.join(effect.order)}.")
            if effect.order:
                out.tell(effect.order[0], carousel_prompt(engine))
        elif isinstance(effect, ab.CarouselPicked):
            given = f", putting back {effect.put_back_name}" if effect.put_back_name else ""
            out.public.append(f"{effect.player} takes {effect.name} from the carousel{given}.")
            turn = engine.whose_carousel_pick()  # type: ignore[attr-defined]
            if turn:
                out.tell(turn, carousel_prompt(engine))
    return out


# ---------------------------------------------------------------------------------------------
# Room: the lobby
# ---------------------------------------------------------------------------------------------


def _block_sections(spec: str) -> tuple[str, ...]:
    """Every library section of a block (blocks group their cards under headers)."""
    from cockatrice_ext import blocks
    from cockatrice_ext.decks.blocklist import read_block_list
    from cockatrice_ext.exporters.model import NON_LIBRARY_SECTIONS

    path = Path(spec)
    deck = read_block_list(path) if path.is_file() else blocks.open_block(spec)
    sections = tuple(s for s, e in deck.sections.items() if e and s not in NON_LIBRARY_SECTIONS)
    return sections or ("main",)


def load_league_block(spec: str) -> LoadedBlock:
    """Load a block for a league.

    Raises:
        BadArgument: no such block, or it does not load.
    """
    try:
        return load_block(spec, sections=_block_sections(spec))
    except KeyError:
        raise BadArgument(f"no block called {spec!r}") from None
    except (LookupError, ValueError, OSError) as exc:
        raise BadArgument(f"block {spec!r} does not load: {str(exc)[:120]}") from None


def league_pages(bot: Bot) -> Any:
    """The web view's league pages (``link``, ``changed``, ``revoke``, ``number``), or None when the bot
    serves none."""
    return (bot.main or bot).league_pages


@dataclass
class WaitingGame:
    """A pairing whose game the server would not open yet: why, when it was last tried (``time.monotonic``),
    and what the game replaces (``open_game``'s ``instead_of``, ``why``, ``whys``)."""

    reason: str
    tried: float
    instead_of: int | None = None
    why: str = ""
    whys: dict[str, str] = field(default_factory=dict)


@dataclass
class Decision:
    """A move a running league waits for from one member: the engine's token for it, since when (the
    ``timer``'s clock: None until the lines that show it to them have left the chat queue), and whether the
    half-time warning went out."""

    token: tuple[Any, ...]
    since: float | None
    warned: bool = False


def led(lead: str, line: str) -> str:
    """``line`` (a sentence) after ``lead`` and a colon: "Welcome back: your pack (13): ..."."""
    return f"{lead}: {line[:1].lower()}{line[1:]}"


def decision_name(token: tuple[Any, ...]) -> str:
    """A waited-for move as a player's warning names it (the first word of the engine's token)."""
    kind = token[0] if token else ""
    return {"pick": "pick", "buy": "market turn", "done": "draft", "carousel": "carousel pick"}.get(
        str(kind), "move"
    )


@dataclass(eq=False)
class Lobby:
    """The players waiting in one room for a league of one format: one generation, from its first join to
    its start (or until it empties). With the web view on, each member's private page shows it, under the
    web view's key ``page_key``; the league started from it keeps that key, so the same links go on."""

    room_id: int
    format_name: str
    page_key: str
    members: list[str] = field(default_factory=list)
    page_players: set[str] = field(default_factory=set)
    """Members whose page's live stream is open (kept by the web view; the league inherits them)."""
    over: bool = False
    """Emptied before it started: its pages expire."""
    away: dict[str, float] = field(default_factory=dict)
    """Members out of the room, since when (``time.monotonic``)."""

    @property
    def needed(self) -> str:
        return NEEDED[self.format_name]

    def status_line(self) -> str:
        """What the lobby page's heading says: who waits, how many are needed, how to start."""
        return (
            f"lobby, {len(self.members)} joined; {TITLES[self.format_name]} needs {self.needed} players;"
            f" any of you starts it with !{self.format_name} start in the room"
        )


def misplaced_command(bot: Bot, ctx: Context, text: str, here: Iterable[Referee]) -> str:
    """The answer to a league member's private league command said in room or game chat, where nobody
    ``here`` knows it: where to send it ("" when it is no such command)."""
    try:
        invocation = parse_invocation(text)
    except BadArgument:
        return ""
    if invocation is None or any(r.commands.find(invocation.name, ctx.scope) is not None for r in here):
        return ""
    name = invocation.name
    for league in reversed(bot.private_referees):
        if not isinstance(league, LeagueReferee) or not league.is_member(ctx.sender):
            continue
        if league.over and name not in AFTER_THE_END:
            continue
        spec = league.commands.find(name, "private")
        if spec is not None and league._offers(spec.name):
            return (
                f"{ctx.sender}: send !{name} to me by private message (league commands go there, not here)."
            )
    return ""


class LeagueRoom(Referee):
    """Room commands of one league format: join, leave, start, status."""

    format_name: ClassVar[str] = ""
    refusals: ClassVar[dict[str, str]] = REFUSALS

    def __init__(self, bot: Bot, defaults: LeagueOptions | None = None) -> None:
        super().__init__(bot)
        self.defaults = defaults or LeagueOptions(format=self.format_name)
        self.lobbies: dict[int, Lobby] = {}  # each room's lobby now (a new one after a start or when emptied)
        self.leagues: list[LeagueReferee] = []

    def membership(self, user: str) -> str:
        """Which league or lobby ``user`` is in, in any room and any format ("" when none)."""
        for room in self.bot.room_referees:
            if not isinstance(room, LeagueRoom):
                continue
            title = TITLES[room.format_name]
            if any(user in lg.engine.league.members for lg in room.leagues if not lg.over):
                return f"a running {title} league"
            if any(user in lobby.members for lobby in room.lobbies.values()):
                return f"the {title} lobby"
        return ""

    def waiting_games(self) -> list[str]:
        return [line for league in self.leagues if not league.over for line in league.cut_games()]

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """Room commands; a member's private league command said here (no room referee knows it) is
        answered with where it belongs."""
        if await super().handle_command(ctx, text):
            return True
        line = misplaced_command(self.bot, ctx, text, self.bot.room_referees)
        if line:
            await ctx.reply(line)
        return bool(line)

    def seats_range(self) -> tuple[int, int]:
        return SEATS[self.format_name]

    def _lobby(self, room_id: int, page_key: str = "") -> Lobby:
        """The room's lobby, a new generation if none is open: its own page key, never one used before,
        not even by an earlier process (the web view keeps page numbers by key across restarts)."""
        lobby = self.lobbies.get(room_id)
        if lobby is None:
            generation = secrets.token_hex(6)
            key = page_key or f"{self.bot.server_key}:lobby:{room_id}:{self.format_name}:{generation}"
            lobby = self.lobbies[room_id] = Lobby(room_id, self.format_name, key)
        return lobby

    async def lobby(self, ctx: Context, what: str, args: str) -> None:
        assert ctx.room_id is not None
        fmt, title = self.format_name, TITLES[self.format_name]
        if ctx.room_id in self.lobbies:
            await self.drop_gone(self.lobbies[ctx.room_id])
        lobby = self._lobby(ctx.room_id)
        members = lobby.members
        running = [lg for lg in self.leagues if lg.room_id == ctx.room_id and not lg.over]
        what = what.lower()
        low, high = self.seats_range()
        if what == "join":
            elsewhere = self.membership(ctx.sender)
            if elsewhere:  # private commands name no league: one player, one league at a time
                raise NotAllowed(f"you are already in {elsewhere}; one league at a time")
            if ctx.sender in members:
                raise NotAllowed(f"you already joined ({len(members)} waiting)")
            if len(members) >= high:
                raise NotAllowed(f"the {title} lobby is full ({high})")
            members.append(ctx.sender)
            self.keep_lobby(lobby)
            await self._joined(ctx, lobby)
        elif what == "leave":
            if ctx.sender not in members:
                raise NotAllowed("you are not in the lobby")
            members.remove(ctx.sender)
            self.keep_lobby(lobby)
            await self._left(ctx, lobby)
        elif what == "start":
            if ctx.sender not in members:
                raise NotAllowed(f"join first: !{fmt} join")
            if fmt == "autobattler" and len(members) not in (4, 8):
                raise NotAllowed(f"AutoBattler needs 4 or 8 players; {len(members)} joined")
            if len(members) < low:
                raise NotAllowed(f"{title} needs at least {low} players; {len(members)} joined")
            options = self._start_options(args)
            if options.reseat_on_energy and len(members) != 8:
                raise NotAllowed(
                    f"tables=reseat moves eight players between two tables; {len(members)} joined"
                    " (start with tables=isolated, or wait for eight)"
                )
            block = load_league_block(options.block_name)
            league = await LeagueReferee.create(self.bot, ctx.room_id, options, block, list(members), lobby)
            del self.lobbies[ctx.room_id]
            self.keep_lobby(lobby)  # the league's own journal holds them now
            self.leagues.append(league)
            await league.begin()
        elif what == "rules":
            await ctx.reply(shorten(f"{title} options: " + game_options.brief(fmt, self.defaults)))
        elif what == "status":
            parts = [f"{title}: lobby {len(members)} ({', '.join(members) or 'nobody'})"]
            parts += [lg.room_status_line() for lg in running]
            await ctx.reply(shorten("; ".join(parts)))
        else:
            raise BadArgument(f"usage: !{fmt} join | leave | start {self._start_usage()} | status | rules")

    async def on_room_left(self, room_id: int, user: str) -> None:
        """A lobby member left the room (logged off, or went): noted, so that the lobby lets them go once they
        have been away :data:`LOBBY_GRACE` seconds (:meth:`drop_gone`)."""
        lobby = self.lobbies.get(room_id)
        if lobby is not None and user in lobby.members:
            lobby.away.setdefault(user, time.monotonic())

    async def drop_gone(self, lobby: Lobby) -> None:
        """Let go of the members out of the room for :data:`LOBBY_GRACE` seconds or more, and tell the room: a
        league would otherwise start with a drafter who is gone, and later players could not clear them. One
        back in the room (the client's ``room_users``) keeps their place."""
        present = getattr(self.bot.client, "room_users", {}).get(lobby.room_id)
        now, gone = time.monotonic(), []
        for user, since in list(lobby.away.items()):
            if user not in lobby.members or (present is not None and user in present):
                del lobby.away[user]
            elif now - since >= LOBBY_GRACE:
                gone.append(user)
        title = TITLES[self.format_name]
        for user in gone:
            del lobby.away[user]
            lobby.members.remove(user)
            self.keep_lobby(lobby)
            if not lobby.members:
                lobby.over = True
                self.lobbies.pop(lobby.room_id, None)
            pages = league_pages(self.bot)
            if pages is not None:
                pages.revoke(lobby, user)
                pages.changed(lobby)
            line = f"{user} has been out of the room a while: out of the {title} lobby"
            await self.bot.room_say(lobby.room_id, f"{line} ({len(lobby.members)} waiting).")

    def lobby_note(self, room_id: int) -> str:
        """The journal note that keeps who waits in this format's lobby of ``room_id``."""
        return f"{self.bot.server_key}:lobby:{room_id}:{self.format_name}"

    def keep_lobby(self, lobby: Lobby) -> None:
        """Write who waits in ``lobby`` to the journal before answering (forget it once the lobby started
        or emptied), so that a restart loses nobody; in a fleet, the process that takes the room over
        opens it again (:meth:`restore_lobbies`)."""
        if lobby.members and self.lobbies.get(lobby.room_id) is lobby:
            value = {
                "room_id": lobby.room_id,
                "format": self.format_name,
                "members": list(lobby.members),
                "page_key": lobby.page_key,
            }
            self.bot.journal.put_note(self.lobby_note(lobby.room_id), value)
        else:
            self.bot.journal.drop_note(self.lobby_note(lobby.room_id))

    async def restore_lobbies(self, room_ids: Iterable[int] | None = None) -> None:
        """After a restart: open again each lobby of this format the journal kept in our rooms (in a fleet:
        in ``room_ids``, the rooms this process has just taken) and say in the room who waits. With the web
        view the lobby keeps its page key, so the links its members were given still open it (the web view
        keeps them); a member without a kept link gets a new one."""
        if self.bot.fleet is not None and room_ids is None:
            return  # the fleet calls again for each room it takes, once it has it
        rooms = set(self.bot.room_ids if room_ids is None else room_ids) & set(self.bot.room_ids)
        title, fmt = TITLES[self.format_name], self.format_name
        for key, note in self.bot.journal.notes(f"{self.bot.server_key}:lobby:").items():
            room_id = note.get("room_id")
            if note.get("format") != fmt or not isinstance(room_id, int) or room_id not in rooms:
                continue
            if room_id in self.lobbies:  # opened here meanwhile (a join came first): that one is kept
                continue
            kept = [m for m in note.get("members", []) if isinstance(m, str) and m and not self.membership(m)]
            present = getattr(self.bot.client, "room_users", {}).get(room_id)
            if present is not None:  # who left the room while the referee was away left the lobby too
                kept = [m for m in kept if m in present]
            members = list(dict.fromkeys(kept))[: self.seats_range()[1]]
            if not members:
                self.bot.journal.drop_note(key)
                continue
            page_key = note.get("page_key")
            lobby = self._lobby(room_id, page_key if isinstance(page_key, str) else "")
            lobby.members[:] = members
            self.keep_lobby(lobby)
            waiting = f"{', '.join(members)} ({len(members)} joined)"
            kept_line = f"The {title} lobby is still open after the referee's restart: {waiting}."
            await self.bot.room_say(room_id, shorten(f"{kept_line} !{fmt} join, !{fmt} start."))
            pages = league_pages(self.bot)
            if pages is not None:
                for member in members:
                    link = pages.link(lobby, member)
                    if link is not None:
                        await self.bot.tell(member, f"Your {title} page: {link}")  # none kept for them
                pages.changed(lobby)

    def drop_lobbies(self, room_id: int) -> None:
        """A fleet process lost ``room_id`` to another one: forget its lobby here (the journal keeps it for
        the process that answers the room now)."""
        self.lobbies.pop(room_id, None)

    async def _joined(self, ctx: Context, lobby: Lobby) -> None:
        """Answer a join: in the room without the web view; with it, the joiner's page link by private
        message (the page lists who joined, live), and the room hears only that a lobby opened."""
        title, members = TITLES[self.format_name], lobby.members
        pages = league_pages(self.bot)
        if pages is None:
            joined = f"{len(members)}: {', '.join(members)}; {lobby.needed} needed"
            await ctx.reply(shorten(f"{ctx.sender} joins the {title} league ({joined})."))
            return
        if len(members) == 1:
            opened = f"{ctx.sender} opened a lobby for {title}: !{self.format_name} join"
            await self.bot.room_say(lobby.room_id, opened)
        link = pages.link(lobby, ctx.sender)
        if link is not None:
            await self.bot.tell(ctx.sender, f"Your {title} page: {link}")
        pages.changed(lobby)

    async def _left(self, ctx: Context, lobby: Lobby) -> None:
        """Answer a leave (privately with the web view: the leaver's link dies); an emptied lobby is over."""
        title = TITLES[self.format_name]
        if not lobby.members:
            lobby.over = True
            del self.lobbies[lobby.room_id]
        pages = league_pages(self.bot)
        if pages is None:
            await ctx.reply(f"{ctx.sender} leaves the {title} lobby ({len(lobby.members)} waiting).")
            return
        pages.revoke(lobby, ctx.sender)
        await self.bot.tell(ctx.sender, f"You left the {title} lobby; your page's link no longer works.")
        pages.changed(lobby)

    def _start_usage(self) -> str:
        return "[ROUNDS] [BLOCK] [OPTIONS]" if self.format_name == "market" else "[BLOCK] [OPTIONS]"

    def _start_options(self, args: str) -> LeagueOptions:
        """The league's options: the room's defaults, then ``[ROUNDS] [BLOCK]`` and the game options."""
        fmt = self.format_name
        try:
            words, chosen = game_options.split_words(fmt, args.split())
        except game_options.OptionError as exc:
            raise BadArgument(str(exc)) from None
        options = replace(game_options.apply(fmt, self.defaults, chosen), format=fmt)
        if fmt == "market" and words and words[0].isdecimal():
            rounds = int(words.pop(0))
            if not 1 <= rounds <= 20:
                raise BadArgument("ROUNDS must be between 1 and 20")
            options = replace(options, rounds=rounds)
        if words:
            block = " ".join(words)
            try:
                options = replace(options, block=self._chat_block(block))
            except BadArgument as exc:
                raise BadArgument(game_options.misspelt(fmt, block) or exc.reason) from None
        return options

    def _chat_block(self, name: str) -> str:
        """A block named in chat (see :func:`~cockatrice_ext.bot.blocks.chat_block_name`).

        Raises:
            BadArgument: not a bundled block nor the operator's.
        """
        try:
            return chat_block_name(name, self.defaults.block)
        except ValueError as exc:
            raise BadArgument(shorten(str(exc))) from None


class MarketRoom(LeagueRoom):
    format_name = "market"

    @command(scopes=("room",))
    async def market(self, ctx: Context, what: str, args: Rest | None = None) -> None:
        """!market join|leave|status|start [ROUNDS] [BLOCK] [OPTS]: a Market Draft league, e.g. !market start
        5 ucost=12 packs=random; !market rules lists the options."""
        await self.lobby(ctx, what, args or "")


class AutoBattlerRoom(LeagueRoom):
    format_name = "autobattler"

    @command(scopes=("room",))
    async def autobattler(self, ctx: Context, what: str, args: Rest | None = None) -> None:
        """!autobattler join|leave|status|start [BLOCK] [OPTS]: an AutoBattler cube league, e.g.
        !autobattler start poison=flat2 interest=5 carousel; !autobattler rules lists the options."""
        await self.lobby(ctx, what, args or "")


# ---------------------------------------------------------------------------------------------
# The league: private desk, effects, games
# ---------------------------------------------------------------------------------------------


class LeagueReferee(Referee):
    """One running league: its journaled table, its private commands and its games."""

    refusals: ClassVar[dict[str, str]] = REFUSALS
    MARKET_ONLY: ClassVar[frozenset[str]] = frozenset({"pack", "market", "buy", "pass"})
    AUTOBATTLER_ONLY: ClassVar[frozenset[str]] = frozenset(
        {"shop", "swap", "roll", "done", "treasures", "basic", "augment", "item"}
    )

    def __init__(
        self,
        bot: Bot,
        room_id: int,
        options: LeagueOptions,
        block: LoadedBlock,
        table: Table,
        page_key: str = "",
    ):
        super().__init__(bot)
        self.page_key = page_key or table.key
        """The web view's key for the league's pages: its lobby's (the joiners' links go on), else its own."""
        self.room_id = room_id
        self.options = options
        self.format_name = options.format
        self.block = block
        self.table = table
        self.games: dict[int, LeagueGame] = {}
        self.over = table.engine.is_over()
        self.overpay_warned: dict[str, mk.Buy] = {}  # the buy each player was warned about, once
        self.page_players: set[str] = set()
        """Who watches their private page (the web view adds them when its live stream opens and takes them
        out when their last one closes): they get no chat copy of what the page shows. A chat command takes
        them out too (they play from chat now)."""
        self.chat_players: set[str] = set()
        """Members who play from chat (an action typed in chat since their page last showed): their packs,
        shops and markets come listed in chat. Until then, with a web view, chat points to their page
        (their first message holds its link), so eight players' first lines fit one chat budget."""
        self._follow_ups: set[asyncio.Task[None]] = set()
        self.seen: dict[str, float] = {}
        """When each member was last seen: in the league's room, or writing to us (``time.monotonic``)."""
        self.decisions: dict[str, Decision] = {}
        """The move the league waits for from each member, and since when (the ``timer``'s clock)."""
        self.out_of_room: set[str] = set()
        """Members out of the room (and not connected in a game) at the last check."""
        self.standing_in: set[str] = set()
        """Away members the referee moves for (the room was told once; told again when they are back)."""
        self.cut: dict[int, tuple[int, tuple[str, ...], str, bool]] = {}
        """Games cut short by a player who is gone (game id -> round, pairing, that player, whether their
        connection dropped rather than they left): Servatrice does
        not seat anyone in a started game again, so the pairing gets a new game once that player is back
        (see :meth:`reopen_cut_games`), or the other player wins by forfeit after :data:`FORFEIT_GRACE`."""
        self.waiting: dict[tuple[int, tuple[str, ...]], WaitingGame] = {}
        """Pairings whose game the server would not open yet (its limit of games per account): the league's
        check tries again every :data:`WAIT_RETRY` seconds (:meth:`open_waiting_games`); journaled in the
        meta's ``waiting`` so a restart opens them."""
        self.room_told_waiting = (
            False  # the room heard that games wait for a free slot (once, till none wait)
        )
        self._watcher: asyncio.Task[None] | None = None

    # -- creation and restore ------------------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        bot: Bot,
        room_id: int,
        options: LeagueOptions,
        block: LoadedBlock,
        members: list[str],
        lobby: Lobby | None = None,
    ) -> LeagueReferee:
        """Build the engine and journal it (:meth:`begin` starts it); from ``lobby``, it takes the lobby's
        pages (their key and who watches them)."""
        seed = options.seed if options.seed is not None else secrets.randbits(48)
        engine: Engine[Any]
        try:
            if options.format == "market":
                settings = game_options.config_settings(mk.MarketConfig, options)
                engine = mk.MarketDraftEngine(
                    mk.MarketConfig(players=tuple(members), cards=block.facts, **settings), seed=seed
                )
            else:
                settings = game_options.config_settings(ab.AutoBattlerConfig, options)
                augments = default_augments() if options.augment_packs else ()
                engine = ab.AutoBattlerEngine(
                    ab.AutoBattlerConfig(
                        players=tuple(members), cards=block.facts, augment_cards=augments, **settings
                    ),
                    seed=seed,
                )
        except RulesError as exc:
            if exc.code == "not_enough_cards":
                short = exc.details.get("shortfall", {})
                need = ", ".join(f"{t} {v['have']}/{v['needed']}" for t, v in short.items())
                raise NotAllowed(f"block {block.name} is too small for this league ({need})") from None
            raise
        except ValueError as exc:
            raise NotAllowed(str(exc)) from None
        number = 1
        prefix = f"{bot.server_key}:league:{room_id}:{options.format}"
        while bot.journal.has_table(f"{prefix}:{number}"):
            number += 1
        meta = {
            "kind": "league",
            "format": options.format,
            "options": asdict(options),
            "room_id": room_id,
            "block": block.name,
            "game_names": list(block.game_names),
            "games": {},
            "page_key": lobby.page_key if lobby else "",
        }
        if bot.fleet is not None and not bot.fleet.acquire(f"{prefix}:{number}"):
            raise NotAllowed("another referee of this room is opening that league: try again")
        table = Table.create(bot.journal, f"{prefix}:{number}", engine, meta=meta)
        league = cls(bot, room_id, options, block, table, page_key=lobby.page_key if lobby else "")
        if lobby is not None:
            league.page_players |= lobby.page_players
        bot.private_referees.append(league)
        return league

    async def begin(self) -> None:
        """Announce the league in its room and deal the first cards (the referee's ``Start``)."""
        options, block, bot, room_id = self.options, self.block, self.bot, self.room_id
        members = self.engine.league.members
        number = self.number  # the web view's number for it when there is one (its page is /league/N)
        title = TITLES[options.format]
        rounds = "1 round" if options.rounds == 1 else f"{options.rounds} rounds"
        markets = {1: "no market", 2: "a market after round 1"}.get(options.rounds, "a market between rounds")
        extra = f", {rounds}, {markets}" if options.format == "market" else ""  # markets: between games
        effects = self.table.apply(core.Start(player=None))
        await bot.room_say(
            room_id,
            f"{title} league #{number} starts: {', '.join(members)}"
            f" ({block.name}, {len(block)} cards{extra}). Everything else by private message to me: !help.",
        )
        await self.perform(effects)
        self.watch()

    @classmethod
    async def restore(cls, bot: Bot, key: str) -> LeagueReferee:
        """Rebuild an open league from the journal and take its games back: in place where the account kept
        its seat or, with judge rights, watches the game again; a game that is gone is opened anew."""
        meta = bot.journal.table_meta(key)
        options = LeagueOptions(**meta["options"])
        table = Table.restore(bot.journal, key)
        facts = tuple(table.engine.config.cards)
        block = LoadedBlock(
            name=str(meta.get("block", "")), facts=facts, game_names=tuple(meta["game_names"]), cod=""
        )
        page_key = meta.get("page_key")
        league = cls(bot, int(meta["room_id"]), options, block, table, page_key=str(page_key or ""))
        bot.private_referees.append(league)
        if (pages := league_pages(bot)) is not None:
            pages.changed(league)  # its pages' links, kept by the web view, open it again
        newest: dict[tuple[int, tuple[str, ...]], int] = {}
        for game_key, (round_no, *players) in meta.get("games", {}).items():
            pairing = (int(round_no), tuple(players))
            newest[pairing] = max(newest.get(pairing, -1), int(game_key))
        stale = {
            k for k, v in meta.get("games", {}).items() if newest.get((int(v[0]), tuple(v[1:]))) != int(k)
        }
        reopen: list[tuple[int, tuple[str, ...], int]] = []
        for (round_no, players), game_id in sorted(newest.items()):
            match = league.engine.league.match_of(players[0], round_no)
            if match is None or match.decided:
                stale.add(str(game_id))
                continue
            watched_again = (
                game_id not in bot.client.games  # a seat is kept by a registered account, not a spectator's
                and bot.judge_level
                and league.room_id in bot.room_ids
                and await bot.watch_game_again(league.room_id, game_id)
            )
            if game_id in bot.client.games or watched_again:
                game = LeagueGame(bot, league, game_id, round_no, players)
                if bot.client.games[game_id].started:
                    game.take_over_under_way()
                league.games[game_id] = game
                bot.adopt_game(game)
            else:
                stale.add(str(game_id))
                reopen.append((round_no, players, game_id))
        for game_key, (round_no, *players) in meta.get("cut", {}).items():  # cut short: a new game now
            match = league.engine.league.match_of(players[0], int(round_no))
            if match is not None and not match.decided:
                reopen.append((int(round_no), tuple(players), int(game_key)))
        waiting = [
            (int(round_no), tuple(players))
            for round_no, *players in meta.get("waiting", [])
            if (m := league.engine.league.match_of(players[0], int(round_no))) is not None and not m.decided
        ]
        if stale or meta.get("cut") or meta.get("waiting"):  # before any new game: the server may give a new
            meta = bot.journal.table_meta(key)  # one the number of a stale one
            meta["games"] = {k: v for k, v in meta.get("games", {}).items() if k not in stale}
            meta["cut"], meta["waiting"] = {}, []
            bot.journal.set_table_meta(key, meta)
        for round_no, players, lost in reopen:
            await league.open_game(round_no, players, instead_of=lost)
        for round_no, players in waiting:
            if not any(set(g.players) == set(players) for g in league.games.values()):
                await league.open_game(round_no, players)
        league.watch()
        return league

    # -- away and idle members ------------------------------------------------------------------------

    def watch(self) -> None:
        """Start the check of away and idle members (:meth:`stand_in_due` every :data:`STAND_IN_TICK` s);
        it ends with the league. Everyone counts as seen now (a restart does not make anyone away)."""
        if self.over or (self._watcher is not None and not self._watcher.done()):
            return
        now = time.monotonic()
        for member in self.engine.league.members:
            self.seen.setdefault(member, now)
        self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        while not self.over and self in self.bot.private_referees:
            await asyncio.sleep(STAND_IN_TICK)
            try:
                await self.stand_in_due()
            except Exception:  # the next check tries again; the league must not lose its clock
                LOGGER.exception("league %s: the check of away players failed", self.key)

    async def stand_in_due(self, now: float | None = None) -> None:
        """Make the move the league waits for from each member out of the room :data:`LOBBY_GRACE` seconds
        (silent since: no line to us either), or past the ``timer`` (warned at half time): a ring draft, a
        market or a draft phase must not wait for ever for a connection that died. The room hears once
        that the referee moves for an away member, and when they are back."""
        if self.over or (self.bot.fleet is not None and not self.bot.fleet.may_act(self.key)):
            return
        now = time.monotonic() if now is None else now
        present = getattr(self.bot.client, "room_users", {}).get(self.room_id)
        playing = {name for game in self.games.values() for name in game.connected_players()}
        waiting_for = self.engine.waiting_for()
        for member in self.engine.league.members:
            if not (present is None or member in present or member in playing):
                self.out_of_room.add(member)
                continue
            self.seen[member] = now
            if member in self.out_of_room:
                self.out_of_room.discard(member)
                if member in waiting_for and member not in self.standing_in:
                    await self.welcome_back(member)  # back in time: what they hold the league up with
        for member in sorted(self.standing_in):
            if now - self.seen.get(member, now) < LOBBY_GRACE:
                self.standing_in.discard(member)
                await self.room_say(f"{member} is back: their moves are their own again.")
                await self.welcome_back(member)
        timeout = self.options.pick_timeout
        for _ in range(len(self.engine.league.members) * 50):  # an away member's packs may queue up
            waiting = self.engine.waiting_for()
            for member in set(self.decisions) - set(waiting):
                del self.decisions[member]
            for member, token in waiting.items():
                if member not in self.decisions or self.decisions[member].token != token:
                    self.decisions[member] = Decision(token, None)
            due = ""
            for member, decision in sorted(self.decisions.items()):
                if now - self.seen.get(member, now) >= LOBBY_GRACE:
                    due, reason = member, "away"
                    break
                if decision.since is None:  # the clock starts once they can see the move (the pack sent)
                    if self.bot.conversation_with(member).chat.pending(("user", member)):
                        continue
                    decision.since = now
                if timeout and now - decision.since >= timeout:
                    due, reason = member, "time"
                    break
                if timeout and not decision.warned and now - decision.since >= timeout / 2:
                    decision.warned = True
                    left = max(1, round(timeout - (now - decision.since)))
                    await self.bot.tell(member, f"{left} s left for your {decision_name(decision.token)}.")
            if not due:
                break
            await self.stand_in(due, reason)
        await self.forfeit_due(now)
        await self.reopen_cut_games()
        await self.open_waiting_games(time.monotonic())

    async def reopen_cut_games(self) -> None:
        """A new game for each pairing whose game was cut short by a player who is now back in the room
        (both told where it is); a pairing decided meanwhile (a forfeit) needs none."""
        for game_id, (round_no, players, gone, dropped) in sorted(self.cut.items()):
            match = self.engine.league.match_of(players[0], round_no)
            decided = match is None or match.decided or self.over
            if not decided and gone in self.out_of_room:
                continue
            del self.cut[game_id]
            self.forget_game_record(game_id)
            if not decided:
                await self.open_game(
                    round_no,
                    players,
                    instead_of=game_id,
                    why=f"cut short when {departure(gone, dropped)}",
                    whys={gone: f"cut short when {departure(gone, dropped, to_them=True)}"},
                )

    async def open_waiting_games(self, now: float) -> None:
        """Try again to open each waiting pairing's game, at most every :data:`WAIT_RETRY` seconds (each try
        is a command to the server); a pairing decided meanwhile (both sent ``!result``) needs none."""
        for pairing, wait in sorted(self.waiting.items()):
            match = self.engine.league.match_of(pairing[1][0], pairing[0])
            if match is None or match.decided or self.over:
                self.drop_waiting(pairing)
            elif now - wait.tried >= WAIT_RETRY:
                wait.tried = now
                await self.open_game(
                    pairing[0], pairing[1], instead_of=wait.instead_of, why=wait.why, whys=wait.whys
                )

    def drop_waiting(self, pairing: tuple[int, tuple[str, ...]]) -> None:
        """``pairing`` waits for a game no longer (opened, or decided without one)."""
        if self.waiting.pop(pairing, None) is not None:
            self.save_waiting()
        if not self.waiting:
            self.room_told_waiting = False

    def save_waiting(self) -> None:
        meta = self.bot.journal.table_meta(self.key)
        meta["waiting"] = [[round_no, *players] for round_no, players in sorted(self.waiting)]
        self.bot.journal.set_table_meta(self.key, meta)

    def waiting_for_slot(self, player: str) -> tuple[int, tuple[str, ...]] | None:
        """The waiting pairing of ``player`` (see :attr:`waiting`), if any."""
        return next((pairing for pairing in self.waiting if player in pairing[1]), None)

    def cut_games(self, now: float | None = None) -> list[str]:
        """The games cut short that wait for their player, and the pairings whose game waits for a free slot
        on the server, in words for the room's ``!games``."""
        now = time.monotonic() if now is None else now
        title = TITLES[self.format_name]
        lines = [
            f"{title} round {round_no} {' vs '.join(players)} waits for a free game slot (the server's limit"
            " of games per account): the referee opens it as soon as the server lets it"
            for round_no, players in sorted(self.waiting)
        ]
        for game_id, (round_no, players, gone, _dropped) in sorted(self.cut.items()):
            left = max(0.0, FORFEIT_GRACE - (now - self.seen.get(gone, now)))
            lines.append(
                f"#{game_id} {title} round {round_no} {' vs '.join(players)} was cut short: a new game when"
                f" {gone} is back in the room (forfeit in {max(1, math.ceil(left / 60))} min)"
            )
        return lines

    def forfeit_certain(self, pair: Sequence[str], now: float | None = None) -> bool:
        """Whether exactly one player of ``pair`` has been gone :data:`FORFEIT_GRACE` seconds already (out of
        the room since): their match goes to the other by forfeit, so no game is opened for it."""
        now = time.monotonic() if now is None else now
        return sum(self.gone_long(p, now) for p in pair) == 1

    def gone_long(self, member: str, now: float) -> bool:
        """Out of the room (and not connected in a game) for :data:`FORFEIT_GRACE` seconds or more."""
        return member in self.out_of_room and now - self.seen.get(member, now) >= FORFEIT_GRACE

    async def forfeit_due(self, now: float) -> None:
        """A match of the round whose one player has been gone :data:`FORFEIT_GRACE` seconds (out of the room
        and not connected in their game) goes to the other by forfeit, recorded by the referee (no
        concession: the AutoBattler's refusal of those is about players who choose to lose). Both gone:
        nothing is guessed; the match waits for them or for both players' ``!result``."""
        if self.engine.phase != "play":
            return
        for match in self.engine.league.current_matches():
            if match.decided or len(match.players) != 2:
                continue
            gone = [p for p in match.players if self.gone_long(p, now)]
            if len(gone) != 1:
                continue
            winner = match.opponent(gone[0])
            try:
                effects = self.table.apply(core.ReportResult(player=None, winner=winner))
            except RulesError as exc:
                LOGGER.info("league %s: no forfeit for %s (%s)", self.key, gone[0], exc.code)
                continue
            minutes = f"{int(max(FORFEIT_GRACE, now - self.seen.get(gone[0], now)) // 60)} minutes"
            await self.room_say(
                f"{gone[0]} has been gone {minutes}: {winner} wins their round {match.round} game"
                " by forfeit.",
            )
            await self.bot.tell(
                gone[0], f"You lost your round {match.round} game to {winner} by forfeit: gone {minutes}."
            )
            await self.bot.tell(  # their game may have been announced a moment ago: no need to join it
                winner,
                f"{gone[0]} is gone: you win your round {match.round} game by forfeit; no need to play it.",
            )
            await self.perform(effects)

    async def welcome_back(self, member: str) -> None:
        """Tell a member back in the room what the league waits for from them (their pack again...), unless
        they have just been given what was kept for them while they were offline (it said so already)."""
        if self.bot.conversation_with(member).chat.got_back_lately(member):
            return
        if line := self.waiting_line(member):
            await self.bot.tell(member, shorten(led("Welcome back", line), PRIVATE_LIMIT))

    async def stand_in(self, member: str, reason: str) -> None:
        """The referee's move for ``member`` (``core.StandIn``), journaled like a player's."""
        try:
            effects = self.table.apply(core.StandIn(player=None, target=member, reason=reason))
        except RulesError as exc:  # the move was made meanwhile: nothing to do
            LOGGER.info("league %s: no stand-in for %s (%s)", self.key, member, exc.code)
            self.decisions.pop(member, None)
            return
        self.decisions.pop(member, None)
        if reason == "away" and member not in self.standing_in:
            self.standing_in.add(member)  # no duration: said after a forfeit, "2 minutes" read as a slip
            await self.room_say(
                f"{member} is away: the referee makes their moves (at random, or a pass) until they are"
                " back.",
            )
        await self.perform(effects)

    # -- state ----------------------------------------------------------------------------------------

    @property
    def engine(self) -> Any:
        return self.table.engine

    @property
    def key(self) -> str:
        return self.table.key

    def is_member(self, name: str) -> bool:
        return name in self.engine.league.members

    @property
    def number(self) -> int:
        """The league's number as players see it: its web pages' (``/league/N``) when the bot serves a web
        view, else its journal key's (per room and format)."""
        number_of = getattr(self.pages, "number", None)  # the web view's numbering (WebView.number)
        return int(number_of(self)) if callable(number_of) else int(self.key.rsplit(":", 1)[-1])

    def room_title(self) -> str:
        """How room lines name this league ("Market Draft league #2")."""
        return f"{TITLES[self.format_name]} league #{self.number}"

    def room_prefix(self) -> str:
        """How the league's room lines begin: its name ("Market Draft #1: ") while another league runs in the
        same room (their lines would read as one league's), else nothing."""
        others = [
            r
            for r in self.bot.private_referees
            if isinstance(r, LeagueReferee) and r is not self and r.room_id == self.room_id and not r.over
        ]
        return f"{TITLES[self.format_name]} #{self.number}: " if others else ""

    async def room_say(self, line: str) -> None:
        """A line to the league's room, named by :meth:`room_prefix`."""
        await self.bot.room_say(self.room_id, shorten(self.room_prefix() + line))

    def _latest_for(self, user: str) -> LeagueReferee | None:
        """The league ``user`` joined last (running or ended)."""
        mine = [r for r in self.bot.private_referees if isinstance(r, LeagueReferee) and r.is_member(user)]
        return mine[-1] if mine else None

    def is_out(self, member: str) -> bool:
        """An AutoBattler member eliminated (not the Ghost, who plays on)."""
        engine = self.engine
        if not isinstance(engine, ab.AutoBattlerEngine):
            return False
        return member in engine.dead and member not in engine.ghosts.values()

    def final_line(self) -> str:
        """Who won the ended league, and the standings, in words."""
        engine = self.engine
        if isinstance(engine, ab.AutoBattlerEngine):
            rows = ", ".join(f"{r['player']} {r['poison']} poison" for r in engine.standings())
            winner = engine.champion or ", ".join(engine.group_winners.values())
            return (f"{winner} is the champion; " if winner else "") + f"standings: {rows}"
        table = tuple((r["player"], r["points"]) for r in engine.league.standings())
        rows = ", ".join(f"{p} {pts}" for p, pts in table)
        return f"{market_winners(table)}; standings (points): {rows}"

    def card_name(self, index: int) -> str:
        return self.block.facts[index].name

    def game_name(self, index: int) -> str:
        return self.block.game_names[index] if index < len(self.block.game_names) else self.card_name(index)

    def status_line(self) -> str:
        engine = self.engine
        title = TITLES[self.format_name]
        members = ", ".join(engine.league.members)
        if self.over:
            return f"{title} league ({members}) is over: {self.final_line()}"
        return f"{title} league ({members}): {self.stage()}"

    def stage(self) -> str:
        """Where the league is, in words ("the draft before round 1" read better than "draft, round 0")."""
        engine = self.engine
        round_no = engine.league.round
        if engine.phase == "play":
            return f"round {round_no} is being played"
        what = {"draft": "the draft", "market": "the market", "setup": "setting up"}.get(
            engine.phase, "the carousel"
        )
        return f"{what} before round {round_no + 1}"

    def room_status_line(self) -> str:
        """The room's ``status``: the league's stage, who is away (the referee moves for them) and who is out
        of the room for now (their game cut short, or their move waiting)."""
        line = self.status_line()
        if self.over:
            return line
        if self.standing_in:
            line += f"; away (the referee moves for them): {', '.join(sorted(self.standing_in))}"
        if out := sorted(self.out_of_room - self.standing_in):
            line += f"; out of the room: {', '.join(out)}"
        return line

    def explain(self, error: RulesError) -> str:
        details = dict(error.details)
        card = details.get("card")
        if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(self.block.facts):
            details["card"] = self.card_name(card)
        return super().explain(RulesError(error.code, **details))

    # -- private command routing ------------------------------------------------------------------------

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """Only members are served here; other leagues (or the bot's default line) answer the rest."""
        if ctx.scope != "private" or not self.is_member(ctx.sender):
            return False
        self.seen[ctx.sender] = time.monotonic()  # writing to us: not away, wherever they are
        try:
            invocation = parse_invocation(text)
        except BadArgument as exc:
            if self.over:
                return False
            await ctx.reply(f"{ctx.sender}: {exc.reason}")
            return True
        if invocation is None:
            return False
        name = invocation.name
        if self.over and (name not in AFTER_THE_END or self is not self._latest_for(ctx.sender)):
            return False  # an ended league still shows its table and your pool, from your latest league
        if self.commands.find(name, "private") is None or not self._offers(name):
            others = [
                r
                for r in self.bot.private_referees
                if isinstance(r, LeagueReferee) and r is not self and r.is_member(ctx.sender) and not r.over
            ]
            if any(r.commands.find(name, "private") is not None and r._offers(name) for r in others):
                return False
            title = TITLES[self.format_name]
            option = OPTION_OF_COMMAND.get(name)
            if option and self.format_name == "autobattler":  # the format's command, not this league's
                instead = "; !swap SHOP POOL takes a shop card" if name == "pick" else ""
                await ctx.reply(
                    f"{ctx.sender}: this league was started without {option}, so no !{name}{instead}"
                )
                return True
            spec = self.commands.find  # an alias (augments) goes with its command
            offered = [n for n in self.commands.names("private") if self._offers(spec(n, "private").name)]
            close = difflib.get_close_matches(name, offered, n=1, cutoff=0.6)
            hint = f" (did you mean !{close[0]}?)" if close else ""
            article = "an" if title[0] in "AEIOU" else "a"
            await ctx.reply(f"{ctx.sender}: !{name} is not {article} {title} command; try !help{hint}")
            return True
        return await super().handle_command(ctx, text)

    async def act(self, ctx: Context, action: Action) -> None:
        """Apply a player's action through the journal and perform its effects."""
        if self.bot.fleet is not None and not self.bot.fleet.may_act(self.key):
            raise NotAllowed("this league is refereed by another process of the fleet now: try again")
        from_page = ctx.scope == "private" and ctx.reply_hook is not None  # a button of the private page
        if not from_page:
            self.page_players.discard(ctx.sender)
            self.chat_players.add(ctx.sender)
        await self.perform(self.table.apply(action), answer=ctx if from_page else None)

    @property
    def pages(self) -> Any:
        """The web view's league pages (``link``, ``changed``), or None when the bot serves no web view."""
        return league_pages(self.bot)

    def link_line(self, player: str) -> str | None:
        """A new link to ``player``'s private page, as its message says it; None without a web view or when
        they have a link that works."""
        pages = self.pages
        link = pages.link(self, player) if pages is not None else None
        if link is None:
            return None
        command = "!shop" if self.format_name == "autobattler" else "!pack"
        return f"Your {PAGE_CONTENTS[self.format_name]}: {link} or {command}"

    async def tell_members_again(self, line: str = "") -> None:
        """After a restore: ``line`` (when given) to each member, with a new link to their page for those
        whose link died (the pages are served at another address now, or by another process), and to each
        member the league waits for, what it waits for (:meth:`waiting_line`: the lines queued for them
        before the restart went with the old process)."""
        present = getattr(self.bot.client, "room_users", {}).get(self.room_id)
        for member in self.engine.league.members:
            link = self.link_line(member)  # their page shows what the league waits for
            here = present is None or member in present  # one away is welcomed back when they return
            waiting = "" if link or not here else self.waiting_line(member)
            back = led("The referee is back", waiting) if waiting and not line else waiting
            text = " ".join(part for part in (line, link, back) if part)
            if text:
                await self.bot.tell(member, shorten(text, PRIVATE_LIMIT))

    def waiting_line(self, member: str) -> str:
        """What the league waits for from ``member`` now, as one line with its command ("" for nothing)."""
        engine = self.engine
        kind = (engine.waiting_for().get(member) or ("",))[0]
        if kind == "pick":
            pack = engine.pack(member)
            return f"Your pack ({len(pack)}): {numbered([self.card_name(c) for c in pack])}. !pick N."
        if kind == "buy":
            return market_prompt(engine)
        if kind == "done":
            return "Your shop is open: !shop lists it; !swap SHOP POOL, !roll, !done."
        if kind == "carousel":
            return carousel_prompt(engine)
        return ""

    async def perform(self, effects: list[Effect], answer: Context | None = None) -> None:
        """Announce ``effects`` (room and private), open games for new pairings, close decided ones.

        ``answer``: the private page whose button caused them. Lines a page shows by itself are not sent to
        the chat of players who watch their page (the chat budget is the scarcest sink: a web draft's pick
        confirmations would delay every other line by minutes); the button's player gets them as its
        answer.
        """
        engine = self.engine
        pages = self.pages
        pointed = {m for m in self.engine.league.members if m not in self.chat_players} | self.page_players
        watching = pointed | ({answer.sender} if answer is not None else set())
        rendered = render_effects(effects, engine, pages=watching if pages is not None else False)
        for player, lines in rendered.private.items():  # players first: the room's line can wait
            link_line = self.link_line(player)
            answering = answer is not None and answer.sender == player
            if link_line is not None:  # the first private message: the link, and what the page does not show
                lines = [link_line, *(line for line in lines if (player, line) not in rendered.on_page)]
            elif player in self.page_players or answering:
                shown = [line for line in lines if (player, line) in rendered.on_page]
                lines = [line for line in lines if (player, line) not in rendered.on_page]
                if answering:
                    assert answer is not None
                    for line in shown:
                        await answer.reply(line)
            await self.tell_lines(player, lines)
        for player, later in rendered.follow_up.items():
            task = asyncio.get_running_loop().create_task(self._follow_up(player, later))
            self._follow_ups.add(task)
            task.add_done_callback(self._follow_ups.discard)
        prefix = self.room_prefix()
        for line in _pack_lines(rendered.public, limit=280 - len(prefix)):
            await self.bot.room_say(self.room_id, prefix + line)
        forfeits = False
        for effect in effects:
            if isinstance(effect, core.RoundStarted):
                for pair in effect.pairings:
                    if len(pair) == 2 and self.forfeit_certain(pair):
                        forfeits = True  # no game to announce: the other player wins it at once
                    elif len(pair) == 2:
                        await self.open_game(effect.round, tuple(pair))
            elif isinstance(effect, ab.MatchSetup):
                for game in self.games.values():
                    if game.round_no == effect.round and set(game.players) == set(effect.players):
                        game.setup_note = (
                            f"{effect.chooser} (more poison) chooses to play or draw."
                            if effect.chooser
                            else f"{effect.first} plays first (decided at random)."
                        ) + f" Hand {effect.hand_size}, life {effect.starting_life}, no library."
            elif isinstance(effect, core.ResultRecorded):
                for pairing in [
                    w for w in self.waiting if w[0] == effect.round and set(w[1]) == set(effect.players)
                ]:
                    self.drop_waiting(pairing)  # decided by both players' !result: no game needed now
                for game in list(self.games.values()):
                    if game.round_no == effect.round and set(game.players) == set(effect.players):
                        await game.result_recorded(effect)
        if any(isinstance(e, (core.DraftFinished, ab.DraftEnded, mk.MarketClosed)) for e in effects):
            # After the round's game announcements: a pool list is long, and the game is what to do next.
            playing = engine.active() if isinstance(engine, ab.AutoBattlerEngine) else engine.league.members
            for player in playing:
                await self.send_pool(player)
        if forfeits:
            await self.forfeit_due(time.monotonic())
        if engine.is_over() and not self.over:
            self.over = True
            self.bot.journal.close_table(self.key)
            for game in list(self.games.values()):
                await game.close()
        if pages is not None:
            pages.changed(self)

    async def _follow_up(self, player: str, lines: list[str]) -> None:
        """Send ``lines`` once the player's earlier lines have gone out (so those go out short, and first)."""
        await self.bot.chat.flush(("user", player), timeout=120)
        await self.tell_lines(player, lines)

    async def tell_lines(self, player: str, lines: Sequence[str]) -> None:
        """Private lines to ``player``, joined into as few messages as the budget allows."""
        for chunk in _pack_lines(list(lines), limit=PRIVATE_LIMIT, separator=" | "):
            await self.bot.tell(player, chunk)

    async def send_pool(self, player: str) -> None:
        """The player's pool as a deck list to paste into Cockatrice's deck editor."""
        names = [self.game_name(c) for c in self.engine.pool(player)]
        if names:
            await self.bot.tell(player, f"Your pool ({len(names)} cards), to paste into the deck editor:")
            await self.tell_raw(player, pool_list(names))

    async def tell_raw(self, player: str, text: str) -> None:
        """A multi-line private text (deck lists keep their line breaks), in pieces under the budget,
        queued after the player's earlier lines like any other private message."""
        piece = ""
        for line in text.splitlines():
            if piece and len(piece) + 1 + len(line) > PRIVATE_LIMIT:
                await self.bot.tell(player, piece, raw=True)
                piece = ""
            piece = f"{piece}\n{line}" if piece else line[:PRIVATE_LIMIT]
        if piece:
            await self.bot.tell(player, piece, raw=True)

    # -- games ----------------------------------------------------------------------------------------

    async def open_game(
        self,
        round_no: int,
        players: tuple[str, ...],
        *,
        instead_of: int | None = None,
        why: str = "lost in a restart",
        whys: dict[str, str] | None = None,
    ) -> None:
        """Create the Cockatrice game of one pairing and tell both players where it is (and, when it
        replaces game ``instead_of``, ``why`` it does; ``whys``: the reason as told to one player). A game
        the server refuses (its limit of games per account) waits: see :meth:`game_waits`."""
        pairing = (round_no, tuple(players))
        try:
            game = await LeagueGame.create(self.bot, self, round_no, players)
        except Exception as exc:
            LOGGER.warning("league %s: could not create a game for %s: %s", self.key, players, exc)
            reason = exc.reason if isinstance(exc, NotAllowed) else "the server refused it"
            await self.game_waits(pairing, WaitingGame(reason, time.monotonic(), instead_of, why, whys or {}))
            return
        was_waiting = pairing in self.waiting
        self.drop_waiting(pairing)
        self.games[game.game_id] = game
        meta = self.bot.journal.table_meta(self.key)
        meta.setdefault("games", {})[str(game.game_id)] = [round_no, *players]
        self.bot.journal.set_table_meta(self.key, meta)
        hint = "your pool (!pool): 40+ cards, basic lands free" if self.format_name == "market" else "!pool"
        for player in players:
            opponent = next(p for p in players if p != player)
            replaced = (
                "" if instead_of is None else f"Game #{instead_of} was {(whys or {}).get(player, why)}. "
            )
            if was_waiting:
                replaced = f"A game slot is free: {replaced}"
            await self.bot.tell(
                player,
                replaced
                + f"Round {round_no}: your game vs {opponent} is #{game.game_id} in this room"
                + (f" (password {self.options.game_password})" if self.options.game_password else "")
                + f". Join it, load your deck from {hint} and press ready (deck lists are open: the referee"
                + " checks them, your opponent sees yours);"
                + (
                    " it starts when both decks are legal and both of you are ready."
                    if game.watching
                    else " I start it when both decks are legal."
                ),
            )

    async def game_waits(self, pairing: tuple[int, tuple[str, ...]], wait: WaitingGame) -> None:
        """The server would not open ``pairing``'s game: it waits (:meth:`open_waiting_games` tries again).
        The first time, both players hear the server's reason and what happens next, and the room hears once
        (till no game waits) that games wait for a free slot."""
        first = pairing not in self.waiting
        if not first:
            self.waiting[pairing].reason, self.waiting[pairing].tried = wait.reason, wait.tried
            return
        self.waiting[pairing] = wait
        self.save_waiting()
        round_no, players = pairing
        for player in players:
            opponent = next(p for p in players if p != player)
            await self.bot.tell(
                player,
                shorten(
                    f"Round {round_no}: the referee cannot open your game vs {opponent} yet: {wait.reason}."
                    " It opens it as soon as the server lets it and tells you its number (or play elsewhere"
                    " and both send me !result).",
                    PRIVATE_LIMIT,
                ),
            )
        if not self.room_told_waiting:
            self.room_told_waiting = True
            await self.room_say(
                shorten(
                    f"{self.room_title()}: the server will not open more games for the referee now (its limit"
                    " of games per account; finished games count until their last player leaves). Waiting"
                    " games open as soon as it lets them: !games lists them."
                ),
            )

    def forget(self, game: LeagueGame) -> None:
        self.games.pop(game.game_id, None)

    def forget_game_record(self, game_id: int) -> None:
        """Take a game that is gone out of the journal's list of the league's games (a restart would
        look for it), as a game played or as one cut short."""
        meta = self.bot.journal.table_meta(self.key)
        meta["games"] = {k: v for k, v in meta.get("games", {}).items() if k != str(game_id)}
        meta["cut"] = {k: v for k, v in meta.get("cut", {}).items() if k != str(game_id)}
        self.bot.journal.set_table_meta(self.key, meta)

    def mark_cut(self, game_id: int) -> None:
        """Move ``game_id``'s record among the games cut short: a restart opens its pairing a new game (the
        cut game, finished, is not taken back)."""
        meta = self.bot.journal.table_meta(self.key)
        record = meta.get("games", {}).pop(str(game_id), None)
        if record is not None:
            meta.setdefault("cut", {})[str(game_id)] = record
            self.bot.journal.set_table_meta(self.key, meta)

    async def cut_short(self, game: LeagueGame, gone: str, dropped: bool) -> None:
        """``gone`` left the started ``game`` (their connection ``dropped``, or, in an AutoBattler league,
        on purpose: its concessions decide nothing) and Cockatrice will not seat them in it again. The
        referee leaves it; once ``gone`` is back in the room the pairing gets a new game, and if they stay
        away :data:`FORFEIT_GRACE` seconds the other player wins by forfeit. The game's record stays in
        the journal until then: a restart opens the pairing's game again."""
        other = game.opponent(gone)
        minutes = f"{FORFEIT_GRACE / 60:g} minutes"
        await game.say(
            f"{departure(gone, dropped)}: this game cannot go on (Cockatrice seats nobody in a started game"
            f" again). Back in the room within {minutes}, {gone} gets a new game with {other}; gone longer,"
            f" {other} wins by forfeit."
        )
        await self.bot.tell(  # kept while they are offline, given when they are back
            gone,
            f"Game #{game.game_id} vs {other} stopped when {departure(gone, dropped, to_them=True)}."
            f" Be back in the room within {minutes} and the referee opens a new game for you both;"
            f" later, {other} wins it by forfeit.",
        )
        self.cut[game.game_id] = (game.round_no, game.players, gone, dropped)
        self.out_of_room.add(gone)  # counted as away now, not at the next check
        self.mark_cut(game.game_id)
        await game.close(f"cut short when {departure(gone, dropped)}")

    async def game_lost(self, game: LeagueGame) -> None:
        """The bot came back without ``game`` (the server restarted, or dropped the seat): forget its
        number (a restarted server may give it to another game) and, while its match is undecided, open
        the pairing's game again and tell both players the new number."""
        self.forget(game)
        self.forget_game_record(game.game_id)
        match = self.engine.league.match_of(game.players[0], game.round_no)
        if match is not None and not match.decided and not self.over:
            await self.open_game(game.round_no, game.players, instead_of=game.game_id)

    # -- private commands --------------------------------------------------------------------------------

    @command(scopes=("private",), aliases=("commands",))
    async def help(self, ctx: Context) -> None:
        """List the league commands."""
        usages = [spec.usage for spec in self.commands.listing("private") if self._offers(spec.name)]
        await ctx.reply(shorten(f"{TITLES[self.format_name]} league commands: " + " | ".join(usages), 900))

    @command(scopes=("private",))
    async def rules(self, ctx: Context) -> None:
        """The options this league is played with."""
        text = game_options.describe_in_force(self.format_name, self.options)
        await ctx.reply(shorten(f"{TITLES[self.format_name]} league, block {self.block.name}: {text}.", 900))

    def _offers(self, name: str) -> bool:
        if self.format_name == "market":
            return name not in self.AUTOBATTLER_ONLY
        if name == "augment":
            return self.options.augment_packs
        if name == "item":
            return self.options.item_drafting
        if name == "basic":
            return self.engine.config.permanent_basic_cost > 0
        if name == "pick":
            return bool(self.engine.config.carousel)
        return name not in self.MARKET_ONLY

    @command(scopes=("private",))
    async def pick(self, ctx: Context, card: Rest) -> None:
        """Pick a card from your pack (or the carousel) by number or name."""
        engine = self.engine
        if isinstance(engine, ab.AutoBattlerEngine):
            if engine.phase == "draft":  # "not now (the league is in its draft phase)" read as a paradox
                raise NotAllowed(
                    "!pick is for the carousel; in a draft phase !swap SHOP POOL takes a shop card"
                )
            require_phase(engine, "carousel")
            pool = engine.pool(ctx.sender) if engine.config.carousel_put_back else None
            action = pick_action(ctx.sender, card, engine.carousel, carousel=True, put_back_from=pool)
            await self.act(ctx, action)
        else:
            require_phase(engine, "draft")
            if not engine.pack(ctx.sender):
                raise RulesError("no_pack", player=ctx.sender)
            await self.act(ctx, pick_action(ctx.sender, card, engine.pack(ctx.sender)))

    @command(scopes=("private",))
    async def pack(self, ctx: Context) -> None:
        """Show the pack you pick from now."""
        pack = self.engine.pack(ctx.sender)
        if not pack:
            raise NotAllowed("no pack is waiting for you")
        await ctx.reply(
            shorten(f"Your pack ({len(pack)}): {numbered([self.card_name(c) for c in pack])}.", 900)
        )

    @command(scopes=("private",))
    async def market(self, ctx: Context) -> None:
        """Show the market (with costs) and your pool numbers."""
        engine: mk.MarketDraftEngine = self.engine
        if engine.phase != "market":
            raise NotAllowed("the market is closed")
        listing = market_listing(engine, self.card_name)
        turn = engine.whose_turn()
        await self.tell_lines(
            ctx.sender,
            [
                f"Market: {listing}.",
                f"{turn} to buy.",
                f"Your pool: {numbered([self.card_name(c) for c in engine.pool(ctx.sender)])}.",
            ],
        )

    @command(scopes=("private",))
    async def buy(self, ctx: Context, what: Rest) -> None:
        """Buy from the market: !buy N with A, B... (N from !market, A, B... pool numbers or names)."""
        engine: mk.MarketDraftEngine = self.engine
        require_phase(engine, "market")
        action = buy_action(ctx.sender, what, engine.market, engine.pool(ctx.sender))
        spare = engine.unneeded(action)
        if spare and self.overpay_warned.get(ctx.sender) != action:
            self.overpay_warned[ctx.sender] = action
            names = ", ".join(self.card_name(c) for c in spare)
            wanted = action.card if isinstance(action.card, str) else self.card_name(action.card)
            await ctx.reply(
                shorten(
                    f"That overpays for {wanted}: the cost is met even without any one of {names}. Say the"
                    " same !buy again to pay it all.",
                    900,
                )
            )
            return
        self.overpay_warned.pop(ctx.sender, None)
        await self.act(ctx, action)

    @command(name="pass", scopes=("private",))
    async def pass_(self, ctx: Context) -> None:
        """Pass your market turn."""
        await self.act(ctx, mk.Pass(player=ctx.sender))

    @command(scopes=("private",))
    async def shop(self, ctx: Context) -> None:
        """Show your shop, your pool and your treasures."""
        engine: ab.AutoBattlerEngine = self.engine
        shop = engine.shop(ctx.sender)
        pool = [self.card_name(c) for c in engine.pool(ctx.sender)]
        if not shop:
            if self.is_out(ctx.sender):
                raise NotAllowed("you are out of the league (eliminated): no more shops; !standings shows it")
            raise NotAllowed(f"no shop is open for you (phase {engine.phase}); your pool: {numbered(pool)}")
        await ctx.reply(
            shorten(
                f"Shop: {numbered([self.card_name(c) for c in shop])}. Pool: {numbered(pool)}."
                f" Treasures {engine.treasures[ctx.sender]}, energy {engine.energy}.",
                900,
            )
        )

    @command(scopes=("private",))
    async def swap(self, ctx: Context, cards: Rest) -> None:
        """Swap a shop card for a pool card: !swap SHOP POOL (numbers from !shop, or names)."""
        await self._draft(ctx, cards, item=False)

    async def _draft(self, ctx: Context, cards: str, *, item: bool) -> None:
        """``!swap`` or ``!item``: the shop and pool cards read against the sender's lists, then applied."""
        engine: ab.AutoBattlerEngine = self.engine
        require_phase(engine, "draft")
        if ctx.sender in engine.done:
            raise RulesError("already_done", player=ctx.sender)
        shop, pool = engine.shop(ctx.sender), engine.pool(ctx.sender)
        await self.act(ctx, swap_action(ctx.sender, cards, shop, pool, item=item))

    @command(scopes=("private",))
    async def item(self, ctx: Context, cards: Rest) -> None:
        """Take an Aura or Equipment from your shop as an item for treasures equal to its mana value:
        !item SHOP POOL (POOL goes to the shop; the item to your command zone)."""
        await self._draft(ctx, cards, item=True)

    @command(scopes=("private",))
    async def roll(self, ctx: Context) -> None:
        """Spend a treasure for a new shop."""
        await self.act(ctx, ab.Roll(player=ctx.sender))

    @command(scopes=("private",))
    async def basic(self, ctx: Context) -> None:
        """Pay treasures for one more basic land in every later mini-game (when the league offers it)."""
        await self.act(ctx, ab.BuyPermanentBasic(player=ctx.sender))

    @command(scopes=("private",), aliases=("augments",))
    async def augment(self, ctx: Context, card: Rest | None = None) -> None:
        """Keep one augment of your pack: !augment N (or the name); !augment alone shows your pack and
        your augments."""
        engine: ab.AutoBattlerEngine = self.engine
        pack = engine.augment_packs.get(ctx.sender, [])
        if card is None:
            names = engine.config.augment_cards
            kept = ", ".join(engine.command_zone(ctx.sender)) or "none"
            waiting = f"Your augment pack: {numbered([names[c].name for c in pack])}. " if pack else ""
            rarity = engine.augment_rarity or "not rolled yet"
            await ctx.reply(shorten(f"{waiting}Your augments: {kept}. This game's rarity: {rarity}.", 900))
            return
        if not pack:
            raise RulesError("no_augment_pack", player=ctx.sender)
        await self.act(ctx, ab.ChooseAugment(player=ctx.sender, card=by_position(pack, card, "augment pack")))

    @command(scopes=("private",), aliases=("enddraft",))
    async def done(self, ctx: Context) -> None:
        """Finish drafting for this phase."""
        await self.act(ctx, ab.EndDraft(player=ctx.sender))

    @command(scopes=("private",))
    async def treasures(self, ctx: Context) -> None:
        """Show everyone's treasures and poison."""
        engine: ab.AutoBattlerEngine = self.engine
        rows = [f"{p} {engine.treasures[p]}T/{engine.poison[p]}P" for p in engine.league.members]
        await ctx.reply(shorten(f"Energy {engine.energy}. " + ", ".join(rows)))

    @command(scopes=("private",))
    async def pool(self, ctx: Context, form: str | None = None) -> None:
        """Your pool: a deck list to paste into the deck editor (!pool cod: a .cod file's text)."""
        names = [self.game_name(c) for c in self.engine.pool(ctx.sender)]
        if not names:
            raise NotAllowed("your pool is empty")
        form = (form or "list").lower()
        if form == "cod":
            try:
                text = pool_cod(f"{ctx.sender} pool", names)
            except (LookupError, ValueError) as exc:
                raise NotAllowed(f"cannot write a .cod for this pool ({str(exc)[:80]}); use !pool") from None
            await self.tell_raw(ctx.sender, text)
        elif form in ("list", "text"):
            await self.send_pool(ctx.sender)
        elif form in ("numbers", "n"):
            await self.tell_lines(
                ctx.sender,
                [f"Your pool: {numbered([self.card_name(c) for c in self.engine.pool(ctx.sender)])}."],
            )
        else:
            raise BadArgument("usage: !pool [list|cod|numbers]")

    @command(scopes=("private",))
    async def standings(self, ctx: Context) -> None:
        """The league table."""
        engine = self.engine
        if isinstance(engine, ab.AutoBattlerEngine):
            rows = [
                f"{r['player']} {r['poison']} poison" + (" (out)" if r["player"] in engine.dead else "")
                for r in engine.standings()
            ]
            text = f"Energy {engine.energy}, games {engine.games_played}: " + ", ".join(rows)
        else:
            rows = [
                f"{r['player']} {r['points']} ({r['wins']}-{r['draws']}-{r['losses']})"
                for r in engine.league.standings()
            ]
            text = f"Round {engine.league.round}/{engine.config.rounds}: " + ", ".join(rows)
        await ctx.reply(shorten(text, 900))

    @command(scopes=("private",))
    async def result(self, ctx: Context, outcome: str) -> None:
        """Report your game's result: !result win|loss|draw (counts when your opponent agrees)."""
        engine = self.engine
        match = engine.league.match_of(ctx.sender)
        if match is None or len(match.players) < 2:
            raise NotAllowed("you have no game this round")
        action = result_action(ctx.sender, outcome, match.opponent(ctx.sender))
        if isinstance(engine, ab.AutoBattlerEngine) and not match.decided:
            game = next(
                (g for g in self.games.values() if ctx.sender in g.players and g.round_no == match.round),
                None,
            )
            opponent_claim = match.claims.get(match.opponent(ctx.sender))
            if game is not None and opponent_claim is not None and opponent_claim == (action.winner or ""):
                await game.report_treasures()
        await self.act(ctx, action)

    @command(scopes=("private",))
    async def status(self, ctx: Context) -> None:
        """Where the league stands and what you can do now."""
        engine = self.engine
        parts = [self.status_line()]
        if self.is_out(ctx.sender) and not self.over:
            parts.append("you are out of the league (eliminated); you may watch its games")
        waiting_for = engine.waiting_for()
        if isinstance(engine, mk.MarketDraftEngine):
            if engine.pack(ctx.sender):
                parts.append("you have a pack: !pack")
            if engine.whose_turn():
                parts.append(f"{engine.whose_turn()} to buy")
        else:
            if engine.phase == "draft" and ctx.sender in waiting_for:
                parts.append("you are drafting: !shop")
            if ctx.sender in engine.augment_packs:
                parts.append("keep one augment of your pack: !augment")
        waiting = [p for p in waiting_for if p != ctx.sender] if engine.phase == "draft" else []
        if waiting:  # a player gone quiet (or offline) holds the draft: say who
            parts.append("the draft waits for " + ", ".join(waiting))
        now = time.monotonic()
        for member in (p for p in waiting_for if p != ctx.sender):
            if member in self.standing_in:
                parts.append(f"{member} is away: the referee moves for them")
            elif member in self.out_of_room:
                left = max(1, round(LOBBY_GRACE - (now - self.seen.get(member, now))))
                parts.append(f"{member} is out of the room: the referee moves for them in {left} s")
        match = engine.league.match_of(ctx.sender)
        if match is not None and len(match.players) == 2 and not match.decided:
            game = next(
                (g for g in self.games.values() if ctx.sender in g.players and g.round_no == match.round),
                None,
            )
            opponent = match.opponent(ctx.sender)
            if game is None and self.waiting_for_slot(ctx.sender) is not None:
                parts.append(
                    f"your game vs {opponent} waits for a free game slot on the server: the referee opens it"
                    " as soon as it can (or play elsewhere and both send !result)"
                )
            else:
                parts.append(f"your game vs {opponent}" + (f" is #{game.game_id}" if game else ""))
            if opponent in self.out_of_room:
                left = max(1, round(FORFEIT_GRACE - (now - self.seen.get(opponent, now))))
                parts.append(
                    f"{opponent} is out of the room: you win by forfeit in {left} s unless they are back"
                )
        await ctx.reply(shorten("; ".join(parts) + "."))


def require_phase(engine: Any, phase: str) -> None:
    """Refuse with the engine's own ``wrong_phase`` before numbers are read against empty lists."""
    if engine.phase != phase:
        raise RulesError("wrong_phase", phase=engine.phase)


def _split_long(line: str, limit: int) -> list[str]:
    """Cut a line longer than ``limit`` at "; " boundaries (a long listing becomes several messages)."""
    if len(line) <= limit:
        return [line]
    pieces: list[str] = []
    current = ""
    for part in line.split("; "):
        candidate = f"{current}; {part}" if current else part
        if current and len(candidate) + 1 > limit:  # room for the ";" that ends a piece
            pieces.append(current + ";")
            current = part
        else:
            current = candidate
    if current:
        pieces.append(current)
    return [p if len(p) <= limit else p[: limit - 1] + "…" for p in pieces]


def _pack_lines(lines: list[str], limit: int = 280, separator: str = " ") -> list[str]:
    """Join lines into as few messages as fit ``limit`` characters each (long lines are cut up)."""
    out: list[str] = []
    current = ""
    for line in (piece for raw in lines for piece in _split_long(raw, limit)):
        if current and len(current) + len(separator) + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}{separator}{line}" if current else line
    if current:
        out.append(current)
    return out


# ---------------------------------------------------------------------------------------------
# One game of a pairing
# ---------------------------------------------------------------------------------------------


class LeagueGame(GameReferee):
    """The Cockatrice game of one pairing: deck checks, starting it, and learning its result."""

    refusals: ClassVar[dict[str, str]] = REFUSALS

    def __init__(
        self, bot: Bot, league: LeagueReferee, game_id: int, round_no: int, players: tuple[str, ...]
    ) -> None:
        super().__init__(bot, game_id, league.room_id, table_key=f"{league.key}:game:{game_id}")
        self.league = league
        self.format_name = league.format_name
        self.round_no = round_no
        self.players = players
        self.legal: dict[str, bool] = {}
        self.problems: dict[str, str] = {}  # player -> what is wrong with their deck, in full (private)
        self.checked: dict[str, str] = {}  # player -> deck text last checked
        self.ready_sent = False  # seated: our ready; watching: "both decks are legal" was said
        self.played = False  # the game has started (a concession may have stopped it since)
        self.announced = False  # "The game is on" was said (before a restart too)
        self.finished = ""  # why the game is over: it lingers then (see close), counting against our limit
        self.basics_declared = False
        self.setup_note = ""
        self.table = league.table

    @classmethod
    async def create(
        cls, bot: Bot, league: LeagueReferee, round_no: int, players: tuple[str, ...]
    ) -> LeagueGame:
        title = TITLES[league.format_name]
        life = league.engine.config.starting_life if league.format_name == "autobattler" else 20
        game_id = await bot.open_game(
            league.room_id,
            description=f"{title} league round {round_no}: {players[0]} vs {players[1]}, open deck lists",
            seats=2,
            type_hint="autobattler" if league.format_name == "autobattler" else "market",
            password=league.options.game_password,
            share_decklists=True,
            starting_life=life,
            watch=True,
        )
        game = cls(bot, league, game_id, round_no, players)
        bot.adopt_game(game)
        if not game.watching:
            await bot.client.select_deck(game_id, EMPTY_DECK)
        return game

    @command("status", aliases=("state",))
    async def pairing_status(self, ctx: Context) -> None:
        """The pairing and whose deck is legal."""  # not ``status``: GameReferee.status() feeds !games and /
        parts = []
        for name in self.players:
            seat = self.seat_of(name)
            if seat is None:
                parts.append(f"{name} not seated")
            elif name not in self.legal:
                parts.append(f"{name} no deck yet")
            else:
                parts.append(f"{name} deck {'OK' if self.legal[name] else 'not legal'}")
        title = TITLES[self.format_name]
        await ctx.reply(shorten(f"{title} league round {self.round_no}: " + ", ".join(parts) + "."))

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """Game commands; a member's private league command said here is answered with where it belongs."""
        if await super().handle_command(ctx, text):
            return True
        line = misplaced_command(self.bot, ctx, text, [self])
        if line:
            await ctx.reply(line)
        return bool(line)

    # -- helpers ----------------------------------------------------------------------------------------

    def seat_of(self, name: str) -> int | None:
        for player in self.mirror.players.values():
            if player.name == name and not player.spectator:
                return player.player_id
        return None

    def name_of(self, player_id: int) -> str:
        player = self.mirror.players.get(player_id)
        return player.name if player is not None else ""

    def is_engine_player(self, player_id: int) -> bool:
        return self.name_of(player_id) in self.players

    def match(self) -> core.Match | None:
        return self.league.engine.league.match_of(self.players[0], self.round_no)

    def connected_players(self) -> set[str]:
        """The pairing's players seated here whose connection the server still has (ping not -1)."""
        mirror = self.bot.client.games.get(self.game_id)
        if mirror is None:
            return set()
        return {
            p.name
            for p in mirror.players.values()
            if p.name in self.players and not p.spectator and p.ping_seconds != -1
        }

    # -- events -------------------------------------------------------------------------------------------

    async def on_game_event(self, event: ClientEvent) -> None:
        if self.finished or self.game_id not in self.bot.client.games:
            return
        name = event.name
        mirror = self.mirror
        if name in ("Event_Join", "Event_PlayerPropertiesChanged", "Event_GameStateChanged"):
            await self.check_seats()
            await self.check_decks()  # also once started: both players may have pressed ready at once
            if not mirror.started:
                self.stopped()
                await self.maybe_ready()
        # The mirror may have started while a line above waited (events are read meanwhile): check again.
        if mirror.started and not self.played and await self.stop_if_illegal():
            return
        if self.stopping:
            return
        if mirror.started:
            if self.watching and not self.announced:  # the players' own ready started it
                self.announced = True
                await self.say(f"The game is on. {self.setup_note} Good luck!")
            self.played = True
            await self.declare_basics()
        if not self.played:
            return
        if name == "Event_SetActivePlayer" and int(event.message.active_player_id) == self.me:  # type: ignore[attr-defined]
            with contextlib.suppress(ClientError, ConnectionError):  # refused, or not connected
                await self.run(pc.next_turn())
        elif name == "Event_SetCounter" and int(event.message.counter_id) == LIFE_COUNTER:  # type: ignore[attr-defined]
            loser = self.name_of(event.player_id)
            if loser in self.players and int(event.message.value) <= 0:  # type: ignore[attr-defined]
                await self.decide(winner=self.opponent(loser), reason=f"{loser} is at 0 life")
        elif name == "Event_PlayerPropertiesChanged" and self.is_engine_player(event.player_id):
            props = event.message.player_properties  # type: ignore[attr-defined]
            if props.HasField("conceded") and props.conceded:
                loser = self.name_of(event.player_id)
                await self.decide(winner=self.opponent(loser), reason=f"{loser} concedes", concession=True)
        elif name == "Event_Leave":
            loser = self.left_player(event)
            match = self.match()
            reason = int(getattr(event.message, "reason", 0) or 0)
            dropped = reason == LeaveReason.USER_DISCONNECTED
            if loser and match is not None and not match.decided and (dropped or self.concessions_refused):
                await self.league.cut_short(self, loser, dropped)
            elif loser:
                await self.decide(winner=self.opponent(loser), reason=f"{loser} left", concession=True)
                match = self.match()
                if match is not None and match.decided and match.winner == self.opponent(loser):
                    # told privately too: kept for them if they go offline meanwhile
                    await self.bot.tell(loser, f"You left game #{self.game_id}: {match.winner} wins it.")

    @property
    def concessions_refused(self) -> bool:
        """AutoBattler games are played out: a concession (or leaving) decides nothing."""
        return isinstance(self.league.engine, ab.AutoBattlerEngine)

    def left_player(self, event: ClientEvent) -> str:
        """The match player who just left (the mirror has dropped them; find who is missing)."""
        present = {p.name for p in self.mirror.players.values() if not p.spectator}
        missing = [p for p in self.players if p not in present]
        return missing[0] if len(missing) == 1 else ""

    def opponent(self, player: str) -> str:
        return next((p for p in self.players if p != player), "")

    async def check_seats(self) -> None:
        """Only the two players of the pairing may sit; others are asked to spectate and kicked."""
        for player in list(self.mirror.players.values()):
            if player.spectator or player.player_id == self.me or not player.name:
                continue
            if player.name not in self.players:
                pairing = " and ".join(self.players)
                note = f"Game #{self.game_id} is for {pairing}; you may join it as a spectator."
                await self.bot.tell(player.name, note)
                await self.say(
                    f"{player.name}: this seat is for {' and '.join(self.players)}; join as a spectator."
                )
                with contextlib.suppress(
                    ClientError, ConnectionError
                ):  # refused or disconnected: nothing to do
                    await self.flush_chat()
                    await self.run(pc.kick_from_game(player.player_id))

    async def check_decks(self) -> None:
        """Check every newly loaded deck of the pairing and say whether it is legal."""
        for name in self.players:
            seat = self.seat_of(name)
            if seat is None:
                continue
            deck = self.mirror.players[seat].deck_list
            if not deck or self.checked.get(name) == deck:
                continue
            public, private = self.record_deck(name, deck)
            if private:  # it says what their pool holds, which is theirs alone (the deck list is shared)
                await self.bot.tell(name, shorten(f"Game #{self.game_id}, your {private}.", 900))
                public = f"{public} (the cards: told to {name} privately)"
            await self.say(shorten(f"{name}: {public}."))

    def record_deck(self, name: str, deck: str) -> tuple[str, str]:
        """Check ``name``'s loaded deck and keep the verdict; return its (public, private) words."""
        self.checked[name] = deck
        problems = check_loaded_deck(self.league.engine, name, deck, self.league.block)
        self.legal[name] = not problems
        public, private = deck_verdict(problems)
        self.problems[name] = private or public
        return public, private

    def take_over_under_way(self) -> None:
        """A restarted referee adopts this game already started: its decks were checked and its start
        announced before the restart, so the loaded decks are recorded without a word and play is
        followed from here (a concession or a life total at 0 decides the match)."""
        for name in self.players:
            seat = self.seat_of(name)
            deck = self.mirror.players[seat].deck_list if seat is not None else ""
            if deck:
                self.record_deck(name, deck)
        self.played = self.announced = self.ready_sent = True

    async def maybe_ready(self) -> None:
        """Seated: press ready once both players sit, ready, with legal decks. Watching: the players'
        own ready starts the game, so take it back while a deck is missing or not legal."""
        seats = [self.seat_of(p) for p in self.players]
        if self.watching:
            legal = all(
                s is not None and self.legal.get(p, False) for s, p in zip(seats, self.players, strict=True)
            )
            if legal and not self.ready_sent:
                self.ready_sent = True
                await self.say("Both decks are legal: press ready to start.")
            self.ready_sent = self.ready_sent and legal
            await self.take_back_ready(legal, self.why_not_started)
            return
        all_ready = all(
            s is not None and self.mirror.players[s].ready_start and self.legal.get(p, False)
            for s, p in zip(seats, self.players, strict=True)
        )
        if all_ready and not self.ready_sent:
            self.ready_sent = True
            await self.say(f"Both decks are legal: starting. {self.setup_note} Good luck!")
            await self.bot.client.ready_start(self.game_id, True)
        elif not all_ready and self.ready_sent and not self.mirror.started:
            self.ready_sent = False
            with contextlib.suppress(ClientError, ConnectionError):  # refused, or not connected
                await self.bot.client.ready_start(self.game_id, False)

    async def stop_if_illegal(self) -> bool:
        """Watching: the game started before a deck of the pairing was found legal; stop it."""
        for name in self.players:
            seat = self.seat_of(name)
            if seat is not None and not self.legal.get(name, False):
                return await self.stop_started_game(seat)
        return False

    def why_not_started(self, player: PlayerState) -> str:
        if not self.legal.get(player.name, False):
            problems = self.problems.get(player.name, "deck not legal")
            return f"The game cannot start yet: your {problems}. Load a legal deck, then press ready again."
        opponent = self.opponent(player.name)
        waiting = f"{opponent}'s legal deck" if self.seat_of(opponent) is not None else f"{opponent} to sit"
        return self.waiting_line(waiting)

    async def declare_basics(self) -> None:
        """AutoBattler: the mini-game started; tell the engine each player's basic lands, once (a change
        from the last mini-game's costs ``basics_change_fee``)."""
        engine = self.league.engine
        if not isinstance(engine, ab.AutoBattlerEngine) or self.basics_declared:
            return
        self.basics_declared = True
        if engine.config.basics_change_fee <= 0:
            return
        basics = {n.casefold() for n in engine.config.basic_land_names}
        for name in self.players:
            read = deck_names(self.checked.get(name, ""))
            if read is None:  # not checked by this process (it restarted mid-game): nothing to compare
                continue
            lands = tuple(n for n in read[0] if n.casefold() in basics)
            try:
                effects = self.league.table.apply(ab.PlayWithBasics(player=None, target=name, lands=lands))
            except RulesError as exc:  # declared before a restart, or not playing (a Ghost's opponent...)
                LOGGER.info("game %d: basics of %s not taken: %s", self.game_id, name, exc)
                continue
            await self.league.perform(effects)

    def count_treasures(self, name: str) -> int | None:
        seat = self.seat_of(name)
        if seat is None:
            return None
        player = self.mirror.players[seat]
        if player.conceded:
            return None
        return sum(
            1 for c in player.zone("table").cards if c.name.casefold() in ("treasure", "treasure token")
        )

    async def report_treasures(self) -> None:
        """AutoBattler: report the Treasures each player still has on the battlefield."""
        engine = self.league.engine
        if not isinstance(engine, ab.AutoBattlerEngine) or not self.mirror.started:
            return
        for name in self.players:
            count = self.count_treasures(name)
            if count is None:
                continue
            try:
                await self.league.perform(
                    self.league.table.apply(ab.ReportTreasures(player=None, target=name, count=count))
                )
            except RulesError as exc:
                LOGGER.info("game %d: treasures of %s refused: %s", self.game_id, name, exc)

    async def decide(self, *, winner: str, reason: str, concession: bool = False) -> None:
        """The game showed a result: record it (the engine may refuse a concession)."""
        match = self.match()
        if match is None or match.decided or not winner:
            return
        if isinstance(self.league.engine, ab.AutoBattlerEngine) and not concession:
            await self.report_treasures()
        action = core.ReportResult(player=None, winner=winner, by_concession=concession)
        try:
            effects = self.league.table.apply(action)
        except RulesError as exc:
            if exc.code == "concession_not_allowed":
                again = (  # watching, Cockatrice stops a two-player game at a concession
                    "Both press ready to play it again"
                    if self.watching
                    else "Unconcede and play on to 0 life"
                )
                await self.say(
                    f"{reason}: concessions do not decide AutoBattler games. {again},"
                    " or both send me !result win|loss|draw by private message."
                )
                return
            LOGGER.info("game %d: result refused: %s", self.game_id, exc)
            return
        await self.say(f"{reason}: {winner} wins.")
        await self.league.perform(effects)

    async def result_recorded(self, effect: core.ResultRecorded) -> None:
        """The match is decided: thank the players, say they may leave, and stay (see :meth:`close`)."""
        if self.finished:
            return
        result = "a draw" if effect.draw else f"{effect.winner} wins"
        await self.say(
            f"Result recorded: {result}. Thanks for playing! This game is over: please leave it (the server"
            " counts an open game against the referee's games until its last player leaves)."
        )
        await self.close(f"game over ({result})")

    async def finish(self, reason: str, *, linger: float | None = None) -> None:
        """Every player left. A finished game: leave it too (it closes). Otherwise the game still waits for
        its pairing (the league's result for the match closes it, see :meth:`result_recorded`)."""
        if self.finished:
            await self.leave()

    async def close(self, reason: str = "game over") -> None:
        """The game is over (its result recorded, or cut short): the league forgets it; the referee stays in
        it, finished, so the room can close it for a new game (:meth:`leave`, which the bot calls when the
        server's limit of games per account is reached). It leaves when the last player has gone, or after
        :attr:`LINGER_SECONDS`."""
        if self.finished or self.closed:
            return
        self.finished = reason
        self.league.forget(self)
        if reason.startswith("game over"):  # played out; one cut short keeps its record (see mark_cut)
            self.league.forget_game_record(self.game_id)
        self.views_changed()
        if self.game_id not in self.bot.client.games or not self.humans():
            await self.leave()
        elif self._leave_timer is None:
            loop = asyncio.get_running_loop()
            self._leave_timer = loop.call_later(
                self.LINGER_SECONDS, lambda: loop.create_task(self.leave(CLOSED_AFTER_LINGER))
            )

    async def leave(self, line: str = CLOSED_FOR_ROOM) -> None:
        """Leave the game. A finished one is closed first: its players still in it hear ``line`` and are
        kicked (we are its host), so the server closes it and it stops counting against our limit."""
        if self.closed:
            return
        if self.finished and self.game_id in self.bot.client.games and not self.watching:
            humans = self.humans()
            if humans:
                with contextlib.suppress(ClientError, ConnectionError):  # refused, or not connected
                    await self.say(line)
                    await self.flush_chat()
                for player in humans:
                    with contextlib.suppress(ClientError, ConnectionError):
                        await self.run(pc.kick_from_game(player.player_id))
        with contextlib.suppress(ClientError, ConnectionError):  # refused, or not connected
            await super().leave()

    def stopping_line(self) -> tuple[str, bool]:
        """A league game is kept in its league's record: a restart opens the pairing's game again."""
        return f"{self.STOPPING} this league game is kept in the league's record for when it is back.", True

    async def on_seat_lost(self, *, renumbered: bool = False) -> None:
        """A league game is the league's to open again (a new game for the pairing), not a ``!resume``."""
        LOGGER.warning(
            "league %s: game %d is gone from the server; opening it again", self.league.key, self.game_id
        )
        self.finished = "lost"
        await self.league.game_lost(self)

    async def on_reconnected(self) -> None:
        """Re-seated (restart or reconnect): re-check the decks of a game not started yet."""
        if self.finished or self.game_id not in self.bot.client.games:
            return
        if not self.mirror.started:
            self.checked.clear()
            await self.check_decks()
            await self.maybe_ready()


# ---------------------------------------------------------------------------------------------
# Installation
# ---------------------------------------------------------------------------------------------


async def _install(bot: Bot, fmt: str) -> None:
    defaults = bot.options.format_options.get(fmt)
    room_cls = MarketRoom if fmt == "market" else AutoBattlerRoom
    room = room_cls(bot, defaults if isinstance(defaults, LeagueOptions) else None)
    bot.room_referees.append(room)
    engine_name = "market" if fmt == "market" else "autobattler"
    for key in bot.journal.open_tables(engine_name):
        if not key.startswith(f"{bot.server_key}:league:"):
            continue
        try:
            meta = bot.journal.table_meta(key)
            if meta.get("kind") != "league" or meta.get("format") != fmt:
                continue
            if bot.fleet is not None and not bot.fleet.acquire(key):
                continue  # another live process of the fleet referees it
            league = await LeagueReferee.restore(bot, key)
            room.leagues.append(league)
            LOGGER.info("restored league %s", key)
            await league.tell_members_again()
        except JournalError as exc:  # its players are told, not left waiting for a referee that is gone
            LOGGER.error("could not restore league %s: %s", key, exc)
            room_id = int(bot.journal.table_meta(key).get("room_id", -1))
            if room_id in bot.room_ids:
                what = f"The {TITLES[fmt]} league #{key.rsplit(':', 1)[-1]}"
                await bot.room_say(room_id, unreplayable_line(what, exc))
        except Exception:
            LOGGER.exception("could not restore league %s", key)
    await room.restore_lobbies()


async def take_over_league(bot: Bot, key: str) -> None:
    """Referee league ``key`` from now on (its process died; the fleet holds its lease for us): restore it
    into this format's room and tell its members where to send their commands."""
    meta = bot.journal.table_meta(key)
    fmt = str(meta.get("format", ""))
    room = next((r for r in bot.room_referees if isinstance(r, LeagueRoom) and r.format_name == fmt), None)
    if room is None or any(league.key == key for league in room.leagues):
        return
    league = await LeagueReferee.restore(bot, key)
    room.leagues.append(league)
    number = league.number
    await league.tell_members_again(
        f"{TITLES[fmt]} league #{number} goes on with me as its referee: send me your commands (!help)."
    )


def drop_league(bot: Bot, key: str) -> None:
    """Stop refereeing league ``key`` (another process of the fleet holds it now)."""
    for room in bot.room_referees:
        if isinstance(room, LeagueRoom):
            room.leagues = [league for league in room.leagues if league.key != key]
    bot.private_referees = [
        r for r in bot.private_referees if not (isinstance(r, LeagueReferee) and r.key == key)
    ]


TAKERS = {"market": take_over_league, "autobattler": take_over_league}
DROPPERS = {"market": drop_league, "autobattler": drop_league}


async def install_market(bot: Bot) -> None:
    await _install(bot, "market")


async def install_autobattler(bot: Bot) -> None:
    await _install(bot, "autobattler")


async def resume(bot: Bot, game_id: int, room_id: int, key: str) -> GameReferee:
    """League games are not tables of their own: their league adopts them when it is restored."""
    for referee in bot.private_referees:
        if isinstance(referee, LeagueReferee) and game_id in referee.games:
            return referee.games[game_id]
    raise LookupError(f"no league owns game {game_id}")


INSTALLERS = {"market": install_market, "autobattler": install_autobattler}
RESUMERS = {"market": resume, "autobattler": resume}
