"""What the web pages show: pure functions from a format's engine to JSON-able views.

Theory of operation
-------------------
Outputs are views: a page shows what is derived from the engine's state, never a copy kept on the
side. The Auction board reuses the very functions the game's sinks use (:func:`render_view` for the
gold and the lot card's annotation, :func:`lot_note` for a player's own lot), so the board and the
lot card cannot disagree. The auction history is read from the journal's ``LotSold``/``LotUnsold``
effects (what ``stats prices`` reads), so it survives a restart.

Public views hold only what every player at the table may see: sizes of hidden piles, never their
cards. Private views (a Vortex pack, a Combat hand, a league player's pool with their AutoBattler shop or
Market Draft pack) are built for one player only and served only behind that player's token (see
:mod:`cockatrice_ext.web.tokens`). League views number cards as the chat commands count them, so a
button on the page sends exactly the command a player would type (``!swap 2 5``, ``!buy 1 with 3, 4``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from cockatrice_ext.bot.auction import lot_note, render_view
from cockatrice_ext.bot.league_chat import PAGE_CONTENTS
from cockatrice_ext.bot.league_options import TITLES as LEAGUE_TITLES
from cockatrice_ext.bot.league_rooms import Lobby
from cockatrice_ext.bot.league_views import standing_mark
from cockatrice_ext.formats import FORMAT_TITLES
from cockatrice_ext.formats import auction as auction_rules
from cockatrice_ext.formats import autobattler as autobattler_rules
from cockatrice_ext.formats import combat as combat_rules
from cockatrice_ext.formats import market as market_rules
from cockatrice_ext.formats import vortex as vortex_rules

NameOf = Callable[[Any], str]
View = dict[str, Any]

GAME_TITLES = FORMAT_TITLES | {name: f"{title} league" for name, title in LEAGUE_TITLES.items()}
"""How pages name a game's format; a league's game (its format the league's) is named as one."""
HISTORY_EFFECTS = ("LotSold", "LotUnsold")


def game_title(referee: Any) -> str:
    """``Vortex game #12``: how pages and links name a game."""
    return f"{GAME_TITLES.get(referee.format_name, referee.format_name)} game #{referee.game_id}"


def _card_shown(card: dict[str, Any], card_names: Sequence[str] | None) -> str:
    """A card of an effect or lot dict by the name Cockatrice shows (a double-faced card's front face)."""
    index = card.get("index")
    if card_names and isinstance(index, int) and 0 <= index < len(card_names):
        return str(card_names[index])
    return str(card.get("name", ""))


def auction_history(
    effects: Iterable[dict[str, Any]], name_of: NameOf, card_names: Sequence[str] | None = None
) -> list[View]:
    """Every closed lot, oldest first, from journaled effect dicts: cards, buyer and price (or unsold)."""
    rows: list[View] = []
    for effect in effects:
        kind = effect.get("type")
        if kind not in HISTORY_EFFECTS:
            continue
        row: View = {
            "lot": int(effect.get("lot_no", 0)),
            "cards": [_card_shown(card, card_names) for card in effect.get("cards", [])],
            "bids": len(effect.get("bids", [])),
        }
        if kind == "LotSold":
            row.update(sold=True, buyer=name_of(effect.get("winner")), price=int(effect.get("price", 0)))
        else:
            row.update(sold=False, buyer="", price=0)
        rows.append(row)
    return rows


def auction_board(
    engine: auction_rules.AuctionEngine,
    name_of: NameOf,
    history: Iterable[dict[str, Any]],
    card_names: Sequence[str] | None = None,
) -> View:
    """The public Auction board: the open lot as its card's note says it, gold, block size, history; cards
    named as the game shows them (``card_names``: the block's ``game_names``)."""
    view = render_view(
        (), engine, name_of, judge=True, card_names=card_names
    )  # judge: gold apart from the note
    note = view.lot_note or lot_note(engine, name_of, with_gold=False, card_names=card_names)
    lot = engine.current_lot()
    return {
        "format": "auction",
        "turn": engine.turn,
        "active": name_of(engine.active) if engine.active is not None else "",
        "phase": engine.phase.replace("_", " "),
        "lot": {
            "note": note.splitlines(),
            "number": lot["lot_no"] if lot else None,
            "cards": [_card_shown(card, card_names) for card in lot["cards"]] if lot else [],
            "high_bid": lot["high_bid"] if lot else 0,
            "high_bidder": name_of(lot["high_bidder"]) if lot and lot["high_bidder"] is not None else "",
            "to_bid": name_of(lot["to_bid"]) if lot else "",
        },
        "gold": [{"player": name_of(p), "gold": gold} for p, gold in view.gold.items()],
        "out": [name_of(p) for p in engine.eliminated],
        "block_left": engine.block_size(),
        "history": auction_history(history, name_of, card_names),
    }


def vortex_board(engine: vortex_rules.VortexEngine, name_of: NameOf) -> View:
    """The public Vortex board: phase, turn, whose turn, every pack's size, the passed pack, the shoe."""
    turn_player = engine.whose_turn
    return {
        "format": "vortex",
        "phase": engine.phase,
        "turn": engine.turn,
        "active": name_of(turn_player) if turn_player is not None else "",
        "packs": [
            {"player": name_of(p), "size": engine.pack_size(p), "to_pick": engine.pending_pick(p)}
            for p in engine.config.players
        ],
        "passed": engine.passed_size(),
        "shoe": engine.shoe_size(),
    }


def vortex_pack(engine: vortex_rules.VortexEngine, player: Any, name_of: NameOf) -> View:
    """Private to ``player``: their pack, numbered as ``!pick N`` counts, and whether they must pick."""
    return {
        "format": "vortex",
        "player": name_of(player),
        "pack": [{"number": n, "name": ref.name} for n, ref in enumerate(engine.pack(player), start=1)],
        "to_pick": engine.pending_pick(player),
        "board": vortex_board(engine, name_of),
    }


def combat_board(engine: combat_rules.CombatEngine, name_of: NameOf) -> View:
    """The public Combat board: round, the round's spell cap, points and life of each player."""
    board = engine.scoreboard()
    return {
        "format": "combat",
        "phase": engine.phase,
        "round": board["round"],
        "rounds": board["rounds"],
        "cap": board["spell_cap"],
        "active": name_of(board["active_player"]) if board["active_player"] is not None else "",
        "players": [
            {"player": name_of(p), "points": points, "life": life}
            for (p, points), (_, life) in zip(board["points"], board["life"], strict=True)
        ],
        "winner": name_of(board["winner"]) if board["winner"] is not None else "",
    }


def combat_hand(
    engine: combat_rules.CombatEngine,
    player: Any,
    name_of: NameOf,
    shown: Callable[[str], str] = lambda name: name,
) -> View:
    """Private to ``player``: their hand, numbered as ``!place N SLOT`` and ``!set N SLOT`` count; each card
    named by ``shown``, as their Cockatrice names it (a flip card by its front face), as the chat's hand list
    does."""
    hand = engine.seats[engine.config.players.index(player)].hand
    cards = engine.config.cards
    return {
        "format": "combat",
        "player": name_of(player),
        "hand": [{"number": n, "name": shown(cards[i].name)} for n, i in enumerate(hand, start=1)],
        "board": combat_board(engine, name_of),
    }


def game_summary(referee: Any) -> View:
    """One row of the games list: number, format, state and the seated players' names."""
    seated = referee.humans() if referee.game_id in referee.bot.client.games else []
    return {
        "game": referee.game_id,
        "format": referee.format_name,
        "title": GAME_TITLES.get(referee.format_name, referee.format_name),
        "status": referee.status(),
        "players": [player.name for player in seated],
    }


def game_view(referee: Any) -> View:
    """A game's public page: its summary, plus its format's board once the engine runs."""
    view: View = {"summary": game_summary(referee), "board": None}
    table = referee.table
    if table is None:
        return view
    engine = table.engine
    name_of = referee.player_name
    if isinstance(engine, auction_rules.AuctionEngine):
        effects = (effect for entry in referee.bot.journal.entries(table.key) for effect in entry.effects)
        card_names = getattr(getattr(referee, "block", None), "game_names", None)
        view["board"] = auction_board(engine, name_of, effects, card_names)
    elif isinstance(engine, vortex_rules.VortexEngine):
        view["board"] = vortex_board(engine, name_of)
    elif isinstance(engine, combat_rules.CombatEngine):
        view["board"] = combat_board(engine, name_of)
    return view


def private_view(referee: Any, player: Any) -> View | None:
    """What only ``player`` may see of this game on their page, or None if the format has no such page."""
    table = referee.table
    if table is None:
        return None
    engine = table.engine
    if isinstance(engine, vortex_rules.VortexEngine):
        private = vortex_pack(engine, player, referee.player_name)
    elif isinstance(engine, combat_rules.CombatEngine):
        private = combat_hand(engine, player, referee.player_name, referee.shown_card_name)
    else:
        return None
    private["seen"] = seen_lists(private)
    return {"summary": game_summary(referee), "private": private}


PRIVATE_PAGES = {
    "vortex": "your pack; pick there or in chat",
    "combat": "your hand, numbered as !place and !set count",
}
"""Formats whose players get a private page when their game starts, and what the link says it shows."""


# -- leagues ---------------------------------------------------------------------------------------


LEAGUE_COMMANDS = {
    "autobattler": frozenset({"swap", "roll", "done", "pick"}),
    "market": frozenset({"pick", "buy", "pass"}),
}
"""The private chat commands each league's page may send (its buttons), nothing else."""


SEEN_LISTS = ("pack", "market", "pool", "shop", "carousel")
"""The numbered lists of a league desk that a page action's numbers refer to."""
ACTION_LISTS = {
    ("market", "pick"): ("pack",),
    ("market", "buy"): ("market", "pool"),
    ("autobattler", "swap"): ("shop", "pool"),
    ("autobattler", "pick"): ("carousel", "pool"),
    ("vortex", "pick"): ("pack",),
}
"""Which lists each numbered page action reads (``!buy 2 with 1, 3``: the market's 2, the pool's 1 and 3)."""
LIST_WORDS = {
    "pack": "your pack",
    "market": "the market",
    "pool": "your pool",
    "shop": "your shop",
    "carousel": "the carousel",
}


def seen_lists(desk: View) -> str:
    """The version of a desk's numbered lists, as the page sends it back with an action (``seen``):
    ``market=1a2b3c4d;pool=...``, a short digest of each list's card names in order, so the web view can
    refuse an action whose numbers point into lists that changed since the page drew them."""
    parts = []
    for name in SEEN_LISTS:
        if name in desk:
            names = "\n".join(card["name"] for card in desk[name])
            parts.append(f"{name}={hashlib.sha256(names.encode()).hexdigest()[:12]}")
    return ";".join(parts)


def stale_lists(format_name: str, command: str, seen: str, desk: View) -> list[str]:
    """The lists ``command`` reads that are not as the page saw them (``seen``, from :func:`seen_lists`)."""
    then = dict(part.partition("=")[::2] for part in seen.split(";") if "=" in part)
    now = dict(part.partition("=")[::2] for part in seen_lists(desk).split(";") if "=" in part)
    return [name for name in ACTION_LISTS.get((format_name, command), ()) if then.get(name) != now.get(name)]


def stale_answer(stale: list[str], command: str) -> str:
    """What a refused stale action says: ``the market changed: check your choice and press Buy again``."""
    what = " and ".join(LIST_WORDS[name] for name in stale)
    return f"{what} changed: check your choice and press {command.capitalize()} again"


def league_title(league: Any, number: int) -> str:
    """``AutoBattler league #3``: how a league's private page names it (the web view's number)."""
    return f"{LEAGUE_TITLES[league.format_name]} league #{number}"


def _cards(indices: Iterable[int], name_of: Callable[[int], str]) -> list[View]:
    return [{"number": n, "name": name_of(c)} for n, c in enumerate(indices, start=1)]


def autobattler_desk(
    engine: autobattler_rules.AutoBattlerEngine,
    player: str,
    name_of: Callable[[int], str],
    left: Collection[str] = (),
) -> View:
    """Private to ``player``: shop, pool, treasures and what they may do now (numbered as !swap counts);
    the league's rows marked as ``!standings`` marks them (``left``: the members who left the league)."""
    drafting = engine.phase == "draft" and player in engine.active() and player not in engine.done
    turn = engine.whose_carousel_pick()
    return {
        "format": "autobattler",
        "player": player,
        "phase": engine.phase,
        "energy": engine.energy,
        "treasures": engine.treasures[player],
        "poison": engine.poison[player],
        "drafting": drafting,
        "shop": _cards(engine.shop(player), name_of) if drafting else [],
        "pool": _cards(engine.pool(player), name_of),
        "carousel": _cards(engine.carousel, name_of) if engine.phase == "carousel" else [],
        "carousel_turn": turn or "",
        "my_pick": turn == player,
        "command_zone": engine.command_zone(player),
        "standings": [
            {
                "player": p,
                "treasures": engine.treasures[p],
                "poison": engine.poison[p],
                "out": p in engine.dead,
                "mark": standing_mark(engine, p, left),
            }
            for p in engine.league.members
        ],
    }


def market_desk(
    engine: market_rules.MarketDraftEngine,
    player: str,
    name_of: Callable[[int], str],
    left: Collection[str] = (),
) -> View:
    """Private to ``player``: their pack, the market with costs, and their pool with each card's worth
    toward each market card (what ``!buy N with A, B`` adds up), numbered as the chat commands count; the
    standings marked as ``!standings`` marks them (``left``: the members who left the league)."""
    market = list(engine.market) if engine.phase == "market" else []
    pool = engine.pool(player)
    return {
        "format": "market",
        "player": player,
        "phase": engine.phase,
        "round": engine.league.round,
        "pack": _cards(engine.pack(player), name_of),
        "market": [
            {
                "number": n,
                "name": name_of(c),
                "rarity": market_rules.rarity_class(engine.config.cards[c]) or "",
                "cost": engine.cost(c),
            }
            for n, c in enumerate(market, start=1)
        ],
        "pool": [
            {"number": n, "name": name_of(c), "worth": [engine.worth(c, bought) for bought in market]}
            for n, c in enumerate(pool, start=1)
        ],
        "turn": engine.whose_turn() or "",
        "my_turn": engine.whose_turn() == player,
        "standings": [
            {"player": r["player"], "points": r["points"], "mark": standing_mark(engine, r["player"], left)}
            for r in engine.league.standings()
        ],
    }


def lobby_view(lobby: Lobby, player: str, number: int) -> View:
    """A lobby member's page before the start: the format, who joined (names only), how many are needed
    and how to start."""
    return {
        "summary": {"title": league_title(lobby, number), "status": lobby.status_line()},
        "lobby": {
            "format": LEAGUE_TITLES[lobby.format_name],
            "player": player,
            "players": list(lobby.members),
            "needed": lobby.needed,
            "start": f"!{lobby.format_name} start",
            "shows": PAGE_CONTENTS[lobby.format_name],
        },
        "private": None,
        "commands": [],
    }


def league_private_view(league: Any, player: str, number: int) -> View:
    """A league player's private page: the league's state and their own desk (nobody else's cards); the
    lobby while it waits to start."""
    if isinstance(league, Lobby):
        return lobby_view(league, player, number)
    engine = league.engine
    if isinstance(engine, autobattler_rules.AutoBattlerEngine):
        desk = autobattler_desk(engine, player, league.card_name, league.left)
    else:
        desk = market_desk(engine, player, league.card_name, league.left)
    desk["seen"] = seen_lists(desk)
    return {
        "summary": {"title": league_title(league, number), "status": league.status_line()},
        "private": desk,
        "commands": sorted(LEAGUE_COMMANDS[league.format_name]),
    }
