"""What league players read: engine effects rendered as room and private lines (pure:
:func:`render_effects`), the shop and market listings, the prompts and the refusals' words."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cockatrice_ext.bot.words import shorten
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.formats.base import Effect, Engine

Line = str | Callable[[], str | None]
"""A chat line, or how to render it when it leaves the chat queue (None: no longer true, not sent): a line
stating the league's state (a result waiting for confirmation, whose turn it is) is true when it arrives."""


class Live:
    """A line rendered when it leaves (None: no longer true). It reads, and compares, as its text now."""

    def __init__(self, render: Callable[[], str | None]) -> None:
        self.render = render

    def __call__(self) -> str | None:
        return self.render()

    def __str__(self) -> str:
        return self.render() or ""

    def __repr__(self) -> str:
        return f"Live({self.render()!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return self.render() == other
        return self is other

    __hash__ = object.__hash__

    def __contains__(self, part: str) -> bool:
        return part in str(self)

    def __len__(self) -> int:
        return len(str(self))

    def __bool__(self) -> bool:  # a line to say (whether it says anything is decided when it leaves)
        return True

    def __getattr__(self, name: str) -> Any:  # reads as its text: .startswith, .lower...
        if name == "render":
            raise AttributeError(name)
        return getattr(str(self), name)


ROOM_LINE = 250
"""The most characters a room line of one effect takes (the room's messages are cut at 300, and a league's
name may lead them)."""

STAND_IN_WORDS = {
    "pick": "picked at random for you",
    "pass": "passed your market turn",
    "done": "ended your draft (your pool as it is)",
    "carousel": "made your carousel pick at random",
}
"""What the referee did for a member, as their private line says it."""


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


def carousel_prompt(engine: ab.AutoBattlerEngine) -> str:
    """What the player whose carousel pick it is should type, with the carousel as it is now: each pick takes
    a card out (and a put-back adds one at the end), so the numbers of the opening list no longer hold, and
    ``!pick N`` counts in this one."""
    now = numbered(core.card_names(engine.config.cards, engine.carousel))
    if engine.config.carousel_put_back:
        return shorten(
            f"Your carousel pick, from {now}: !pick N for M (M: a card of your !pool goes back into the"
            " carousel).",
            900,
        )
    return shorten(f"Your carousel pick, from {now}: !pick N.", 900)


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


def worth_rule(engine: Any) -> str:
    """What a card traded in is worth, from the league's options (``cworth`` ... ``mworth`` and the colour
    bonus the engine's :meth:`~cockatrice_ext.formats.market.MarketDraftEngine.worth` adds), in one line:
    the market lists costs, and without this a player learns the worths only by trial."""
    cfg = engine.config
    rows = [("common", cfg.common_worth, cfg.common_color_bonus)]
    rows += [("uncommon", cfg.uncommon_worth, cfg.uncommon_color_bonus)]
    rows += [("rare", cfg.rare_worth, cfg.rare_color_bonus)]
    if (cfg.mythic_worth, cfg.mythic_color_bonus) != (cfg.rare_worth, cfg.rare_color_bonus):
        rows.append(("mythic", cfg.mythic_worth, cfg.mythic_color_bonus))
    base = ", ".join(f"{name}s {worth}" for name, worth, _ in rows)
    bonuses = [(name, bonus) for name, _, bonus in rows if bonus]
    if not bonuses:
        return f"Worth of a card you trade in: {base}."
    if len(bonuses) == len(rows) and len({bonus for _, bonus in bonuses}) == 1:
        plus = f"+{bonuses[0][1]}"
    else:
        plus = "/".join(f"+{bonus}" for _, bonus in bonuses) + f" ({'/'.join(n for n, _ in bonuses)})"
    return f"Worth of a card you trade in: {base}; {plus} for each colour it shares with the card you buy."


def pool_with_worths(engine: Any, pool: Sequence[int], name_of: Any = None) -> str:
    """The numbered pool as ``!buy`` reads it, each card above a common with its rarity and base worth
    (commons are worth what :func:`worth_rule` says; marking each would double a 50-card line)."""
    cards = engine.config.cards
    name = name_of or (lambda c: cards[c].name)
    worths = {
        "uncommon": engine.config.uncommon_worth,
        "rare": engine.config.rare_worth,
        "mythic": engine.config.mythic_worth,
    }

    def shown(card: int) -> str:
        rarity = mk.rarity_class(cards[card])
        return f"{name(card)} ({rarity}, worth {worths[rarity]})" if rarity in worths else name(card)

    return numbered([shown(c) for c in pool])


def market_prompt(engine: Any) -> str:
    """The buyer's prompt with the market as it is now: numbers move after each buy, so the number a
    buyer reads is always that of the listing given with their turn."""
    return (
        f"Your turn to buy. The market now: {market_listing(engine)}. !buy N with A, B... (N from this list;"
        " A, B...: your pool numbers, !market lists both) or !pass."
    )


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


def points_table(standings: Sequence[tuple[str, int]]) -> str:
    """A Market league's standings in words, players with equal points marked as tied ("al 4, cy 4 (tied),
    bo 2"): the write-up names no tie-break, so their order (the league's listing) decides nothing."""
    groups: list[list[tuple[str, int]]] = []
    for row in standings:
        if groups and groups[-1][0][1] == row[1]:
            groups[-1].append(row)
        else:
            groups.append([row])
    return ", ".join(
        ", ".join(f"{p} {pts}" for p, pts in group) + (" (tied)" if len(group) > 1 else "")
        for group in groups
    )


MARKET_RANKED_BY = ("points",)
"""What ranks a Market Draft league's players: its write-up names no tie-break, so players on the same points
are tied, as the final line says (:func:`points_table`); the listing's order among them (the league core's
``League.standings``: wins, then name) decides nothing."""


def standing_mark(engine: Engine[Any], member: str, left: Collection[str] = ()) -> str:
    """What the standings say after ``member``'s name, ``!standings`` and the web pages alike: ``"left"``
    for a member who left the league for good (``left``: the league's journaled list; an AutoBattler
    engine's own too), ``"out"`` for one eliminated (AutoBattler), else ``""``."""
    if member in left or member in getattr(engine, "left", ()):
        return "left"
    return "out" if isinstance(engine, ab.AutoBattlerEngine) and member in engine.dead else ""


def standings_rows(engine: Engine[Any], left: Collection[str] = ()) -> list[dict[str, Any]]:
    """The league table as ``!standings`` and the web page both show it: the engine's rows in order, each with
    its ``place``, shared by players level on every tie-break (AutoBattler: the engine's own places; Market
    Draft: :data:`MARKET_RANKED_BY`), its ``rank``, the place as a standings table prints it: ``"2"``,
    or ``"T-2"`` for each player sharing second place (the next player is fourth), and its ``mark``
    (:func:`standing_mark`; ``left``: the members who left the league)."""
    if isinstance(engine, ab.AutoBattlerEngine):
        rows = [dict(row) for row in engine.standings()]
    else:
        rows = [dict(row) for row in engine.league.standings()]  # type: ignore[attr-defined]
        for n, row in enumerate(rows):
            level = n > 0 and all(rows[n - 1][k] == row[k] for k in MARKET_RANKED_BY)
            row["place"] = rows[n - 1]["place"] if level else n + 1
    sharing = Counter(row["place"] for row in rows)
    for row in rows:
        row["rank"] = f"T-{row['place']}" if sharing[row["place"]] > 1 else str(row["place"])
        row["mark"] = standing_mark(engine, row["player"], left)
    return rows


def marked(row: dict[str, Any]) -> str:
    """A standings row's mark as chat says it after the name: ``" (left)"``, ``" (out)"`` or ``""``."""
    return f" ({row['mark']})" if row.get("mark") else ""


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


@dataclass
class Rendered:
    """Chat for a batch of effects: ``public`` lines for the room, ``private`` lines per player.

    ``on_page`` marks the (player, line) pairs of ``private`` that the player's private page shows by
    itself (their own pick or swap, the pack waiting there): a player who plays from the page gets them as
    the page's answer, not in chat. ``answers``: lines only for the answer to a page's button (the room's
    line says it in chat: a buy, a pass).
    """

    public: list[Line] = field(default_factory=list)
    private: dict[str, list[Line]] = field(default_factory=dict)
    on_page: set[tuple[str, Line]] = field(default_factory=set)
    answers: dict[str, list[str]] = field(default_factory=dict)

    def tell(self, player: str, line: Line, *, on_page: bool = False) -> None:
        self.private.setdefault(player, []).append(line)
        if on_page:
            self.on_page.add((player, line))

    def answer(self, player: str, line: str) -> None:
        self.answers.setdefault(player, []).append(line)


def _rarity(card: CardFacts) -> str:
    return mk.rarity_class(card) or card.rarity or "card"


ITEM_HINT = " !item SHOP POOL takes an Aura or Equipment as an item (treasures: its mana value)."
"""How to draft an item, said in each shop view of a league started with items."""


def shop_view(engine: ab.AutoBattlerEngine, player: str, names: Sequence[str]) -> str:
    """The whole chat view of an AutoBattler shop: the shop, the numbered pool and the commands."""
    cards = engine.config.cards
    pool = engine.league.pools[player]
    items = ITEM_HINT if engine.config.item_drafting else ""
    return (
        f"Your shop: {numbered(names)}. Your pool: {numbered([cards[c].name for c in pool])}."
        " !swap SHOP POOL to take a card, !roll (1 treasure) for a new shop, !done when finished." + items
    )


def shop_names(engine: ab.AutoBattlerEngine, player: str) -> list[str]:
    """The names of ``player``'s shop as it is now, in its order (its numbers)."""
    return [engine.config.cards[c].name for c in engine.shop(player)]


def while_drafting(engine: ab.AutoBattlerEngine, player: str, view: Callable[[list[str]], str]) -> Live:
    """A draft phase's view for ``player``, drawn as it leaves from their shop then (a swap or a roll while it
    waited changed it: the current one is sent); None once the drafting it was made for is over (their
    ``!done``, the stand-in's, the phase's end): a view queued behind a slow chat never arrives after the
    phase it lists, inviting a ``!swap`` the league refuses."""
    decision = engine.waiting_for().get(player)

    def render() -> str | None:
        if decision is None or engine.waiting_for().get(player) != decision:
            return None
        return view(shop_names(engine, player))

    return Live(render)


PackShown = Callable[[str, tuple[int, ...]], None]
"""Told the player and the pack a listing shows whenever its line is drawn (measured as it is queued, drawn
as it leaves): the listing is on its way to them (see ``render_effects``)."""


def while_in_front(engine: Any, effect: core.PackInFront, text: str, shown: PackShown | None = None) -> Live:
    """``text``, a line about the pack ``effect`` put in front of its player, while that pack is still the one
    they pick from (None once they, or the stand-in, picked from it, or the draft is over): a pack listing
    queued behind a slow chat never arrives after the pick or the phase it was for. ``shown`` hears of the
    listing each time it is drawn."""

    def render() -> str | None:
        if tuple(engine.pack(effect.player)) != tuple(effect.cards):
            return None
        if shown is not None:
            shown(effect.player, tuple(effect.cards))
        return text

    return Live(render)


def shop_first_line(engine: ab.AutoBattlerEngine, player: str, names: Sequence[str]) -> str:
    """A draft phase's first view in chat, the only one: the shop, the numbered pool, the treasures and what
    to type, so that a player can act on the first message they get. It replaced a short first line (the
    shop alone) followed by the cards and treasures the phase brought and the whole view: under the shipped
    limits (1,000 characters per 10 s) four such follow-ups of ~700 characters took three windows, so a
    ``!swap 1 1`` typed on the shop alone numbered a pool not listed yet, and its refusal queued behind the
    long follow-up (field: refusal and pool 11-44 s after the start). One message of ~320 characters each
    costs four players two windows in all, and each is actionable when it arrives; the pool it lists says
    the first cards, its ``Treasures N`` the phase's treasure."""
    cards = engine.config.cards
    pool = numbered([cards[c].name for c in engine.league.pools[player]])
    items = ITEM_HINT if engine.config.item_drafting else ""
    return (
        f"Your shop: {numbered(names)}. Your pool: {pool}. Treasures {engine.treasures[player]}."
        " !swap SHOP POOL, !roll, !done." + items
    )


def opened_shops(effects: Sequence[Effect]) -> set[str]:
    """Players whose batch opens a draft phase's first shop (a shop not opened by their own !roll)."""
    rolled = {e.player for e in effects if isinstance(e, ab.Rolled)}
    return {e.player for e in effects if isinstance(e, ab.ShopOpened) and e.player not in rolled}


def render_effects(
    effects: Iterable[Effect],
    engine: Engine[Any],
    *,
    pages: bool | Collection[str] = False,
    shown: PackShown | None = None,
) -> Rendered:
    """Short lines for ``effects`` of a Market Draft or AutoBattler engine (pure; ``shown`` hears of each
    pack listed in chat when its line is drawn: a welcome-back need not list it again).

    With ``pages`` (True: every player; else the players who watch their private web page now) private
    lines point to the page instead of listing packs, shops and markets; other players get the listing. A
    draft phase's first view is one line, the shop with the numbered pool and the treasures (its first cards
    and treasures are in it, or on the page).
    """
    out = Rendered()

    def paged(player: str) -> bool:
        return pages if isinstance(pages, bool) else player in pages

    cards: Sequence[CardFacts] = engine.config.cards
    effects = list(effects)
    pools_shown: set[str] = set()
    opening = opened_shops(effects)
    set_up = {e.player for e in effects if isinstance(e, core.CardsGiven) and e.source == "setup"}
    stood_in = {e.player for e in effects if isinstance(e, core.StoodIn)}  # told once, by StoodIn's line
    done_so_far = _done_counts(effects, engine)

    def of_this_phase(player: str, text: str) -> Line:
        """``text``, a line about the AutoBattler draft phase ``player`` drafts in now (the cards and
        treasures it brought), said only while they still draft in it: queued behind a slow chat, it never
        arrives after their ``!done`` or the phase's end, stuck onto the next phase's shop and contradicting
        it."""
        if not isinstance(engine, ab.AutoBattlerEngine) or player not in engine.waiting_for():
            return text
        return while_drafting(engine, player, lambda _names: text)

    for effect in effects:
        # -- shared league effects --
        if isinstance(effect, core.PackInFront):
            size = len(effect.cards)
            # How to pick is said with a player's first pack only: 44 more times would cost a chat-only
            # two-player draft some 2,000 characters of the budget (20 s).
            how = " !pick N (or the name)." if not engine.league.pools[effect.player] else ""  # type: ignore[attr-defined]
            out.tell(
                effect.player,
                while_in_front(engine, effect, f"Your pack ({size}) is on your page; or !pack.")
                if paged(effect.player)
                else while_in_front(
                    engine, effect, f"Your pack ({size}): {numbered(effect.names)}.{how}", shown
                ),
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
                # the claim that confirms the other's: the result line says it, and the claimer's next view
                # (a shop, a market turn) follows; where none ever will, a private word (see confirmed_line)
                if line := confirmed_line(engine, effect, effects):
                    out.tell(effect.player, line)
                continue
            opponent = next((p for p in effect.players if p != effect.player), "")
            said = "a draw" if effect.draw else f"{effect.winner} won"
            match = engine.league.match_of(effect.player, effect.round) if opponent else None  # type: ignore[attr-defined]
            theirs = match.claims.get(opponent) if match is not None and not match.decided else None
            if theirs is not None and theirs != effect.winner:  # both claimed, differently: nothing counts
                their_said = f"{theirs} won" if theirs else "a draw"
                ends = (
                    "a life total at 0; concessions decide nothing in AutoBattler"
                    if isinstance(engine, ab.AutoBattlerEngine)
                    else "a life total at 0, a concession"
                )
                settle = (
                    "One of you corrects it with !result win|loss|draw, or the game decides it if the"
                    f" referee sees its end ({ends})."
                )
                out.tell(
                    effect.player,
                    claim_line(
                        engine,
                        effect,
                        f"Noted: {said}. But {opponent} reported {their_said}: your reports disagree."
                        f" {settle}",
                    ),
                )
                out.tell(
                    opponent,
                    claim_line(
                        engine,
                        effect,
                        f"{effect.player} reports {said}, but you reported {their_said}: your reports"
                        f" disagree. {settle}",
                        answer=False,
                    ),
                )
                continue
            out.tell(
                effect.player,
                claim_line(engine, effect, f"Noted: {said}. Waiting for {opponent} to confirm."),
            )
            if opponent:
                confirm = "draw" if effect.draw else "win" if effect.winner == opponent else "loss"
                out.tell(
                    opponent,
                    claim_line(
                        engine,
                        effect,
                        f"{effect.player} reports {said}. Confirm with !result {confirm}.",
                        answer=False,
                    ),
                )
        elif isinstance(effect, core.ResultRecorded):
            if len(effect.players) == 1 and isinstance(engine, ab.AutoBattlerEngine):
                out.public.append(sits_out_line(engine, effect))
            elif len(effect.players) == 1:
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
            given = f"{source}: {grouped(effect.names)} (now in your pool)."
            # a draft phase's (AutoBattler's first cards, its random card): said while that phase lasts
            given_line = (
                of_this_phase(effect.player, given) if effect.source in ("setup", "random") else given
            )
            # A draft phase's first view (or page) lists the pool: the first cards are in it; a later
            # phase's random card is told before it (news in a pool the player knows).
            news = effect.source == "random" and effect.player not in set_up and not paged(effect.player)
            if effect.player not in opening or news:
                out.tell(effect.player, given_line)
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
            out.public.append(while_turn(engine, effect.player, f"{effect.player} to buy."))
            opened = any(isinstance(e, mk.MarketOpened) for e in effects)
            if (
                paged(effect.player) or opened
            ):  # the page shows the market as it is; an opening listing is current
                out.tell(effect.player, while_turn(engine, effect.player, BUY_PROMPT))
            else:  # a buy renumbers the market: the buyer gets the numbers their !buy is read against
                out.tell(effect.player, while_turn(engine, effect.player, lambda: market_prompt(engine)))
        elif isinstance(effect, mk.CardBought):
            out.public.append(bought_line(effect))
            out.answer(
                effect.player,
                f"You bought {effect.name} for {grouped(effect.paid_names)} (worth {effect.worth}, cost"
                f" {effect.cost}).",
            )
        elif isinstance(effect, mk.Passed):
            out.public.append(f"{effect.player} passes.")
            out.answer(effect.player, "You passed your market turn.")
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
            table = points_table(effect.standings)
            out.public.append(
                f"League over! {market_winners(effect.standings)}. Final standings (points): {table}."
            )
        # -- AutoBattler --
        elif isinstance(effect, ab.TreasuresChanged):
            if effect.reason in ("draft", "kept", "excess", "interest", "streak") and effect.delta:
                why = {
                    "draft": "draft phase",
                    "kept": "kept from the game" if effect.delta > 0 else _treasure_tokens(effect.treasures),
                    "excess": "more than five",
                    "interest": "interest",
                    "streak": "win streak",
                }[effect.reason]
                mark = ":" if effect.reason == "kept" and effect.delta < 0 else ","
                said = f"Treasures: {effect.treasures} ({effect.delta:+d}{mark} {why})."
                treasure_line = of_this_phase(effect.player, said) if effect.reason == "draft" else said
                if effect.reason != "draft" or effect.player not in opening:  # the first view says them
                    out.tell(effect.player, treasure_line)
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
                player = effect.player
                out.tell(
                    player,
                    while_drafting(engine, player, lambda names, p=player: shop_first_line(engine, p, names)),
                )
            else:
                player = effect.player
                out.tell(
                    player,
                    while_drafting(engine, player, lambda names, p=player: shop_view(engine, p, names)),
                )
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
            assert isinstance(engine, ab.AutoBattlerEngine)
            done = done_so_far.get(effect.player, len(engine.done))
            total = len(engine.active())
            waiting = drafting_waits_for(engine)
            if total - done == min(2, total - 1) and waiting():  # one room line a phase, not one per finisher
                out.public.append(waiting)
            paged_done = paged(effect.player)
            if (paged_done or done < total) and effect.player not in stood_in:  # the answer to their !done
                out.tell(
                    effect.player,
                    f"You are done drafting this phase ({done} of {total} done).",
                    on_page=paged_done,
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
                    f" lands, which start on the battlefield; put your {treasures} treasure(s) on the"
                    " battlefield as Treasure tokens (they are counted when the game ends)"
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
        elif isinstance(effect, ab.MemberLeft) and effect.was_ghost:
            out.public.append(f"{effect.player}, the Ghost, left the league: no Ghost plays on.")
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
            assert isinstance(engine, ab.AutoBattlerEngine)
            said = len(engine.groups) == 1  # four players: the group's winner line named the champion
            out.public.append(champion_line(engine, effect.player, named=said))
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


def _done_counts(effects: Sequence[Effect], engine: Any) -> dict[str, int]:
    """How many had finished drafting when each :class:`ab.PlayerDone` of ``effects`` happened (the engine
    is rendered after the whole batch: a stand-in batch ends several drafts, and the last may end the phase).
    """
    if not isinstance(engine, ab.AutoBattlerEngine):
        return {}
    dones = [e.player for e in effects if isinstance(e, ab.PlayerDone)]
    if not dones:
        return {}
    if engine.phase == "draft" and all(p in engine.done for p in dones):
        before = len(engine.done) - len(dones)
    else:  # the batch ended the phase: every active player had finished
        before = len(engine.active()) - len(dones)
    return {player: before + n for n, player in enumerate(dones, start=1)}


def drafting_waits_for(engine: ab.AutoBattlerEngine) -> Line:
    """The room's one line of a draft phase: who everyone waits for, as it is when the line leaves (dropped
    once nobody is left: the phase's end line says that). A member who left is not waited for: the referee
    moves for them."""

    def render() -> str | None:
        drafting = engine.active() if engine.phase == "draft" else []
        waiting = [p for p in drafting if p not in engine.done and p not in engine.left]
        if not waiting:
            return None
        return f"Waiting for {' and '.join(waiting)} to finish drafting."

    return Live(render)


def _treasure_tokens(count: int) -> str:
    """Why a game's end took treasures away: only the Treasure tokens left on the battlefield are kept (a
    winner told "lost in the game" read it as a loss)."""
    left = "no Treasure token" if count == 0 else counted(count, "Treasure token")
    return f"{left} on your battlefield at the game's end"


def result_rule(format_name: str) -> str:
    """How a ``format_name`` league game's result reaches the referee (``LeagueGame.life_changed``, a
    Market game's concession, the private ``!result``): the one wording of an AutoBattler game's start line
    and every league game's ``!status`` and ``!help``. Concessions do not decide AutoBattler games."""
    concession = "" if format_name == "autobattler" else ", a concession"
    told = "or both tell me !result win|loss|draw privately"
    return f"Result: a life at 0 (both at 0: a draw){concession}, {told}."


RESULT_WORDS = result_rule("autobattler")
"""An AutoBattler game's :func:`result_rule`, as its start line says it."""


def setup_words(effect: ab.MatchSetup) -> str:
    """A mini-game's start as its game's chat says it: hand, life, where the lands and treasures are."""
    return (
        f"Hand {effect.hand_size}, life {effect.starting_life}, no library; your basic lands and treasures"
        " start on the battlefield."
    )


def champion_line(engine: ab.AutoBattlerEngine, champion: str, *, named: bool = False) -> str:
    """The AutoBattler's end: the champion (unless ``named`` already) and every player's place, from the
    engine's standings (the champion, the living by poison, the dead last eliminated first; knocked out in
    the same mini-game: fewer poison first, else tied, sharing a place)."""
    rows = engine.standings()
    head = "" if named else f"{champion} is the champion! "
    line = f"{head}Final standings: {places_words(rows)}."
    if len(line) <= ROOM_LINE:
        return line
    return shorten(f"{head}Final standings: {places_words(rows, numbered=False)}.", ROOM_LINE)


def places_words(rows: Sequence[dict[str, Any]], *, numbered: bool = True, poison: bool = False) -> str:
    """AutoBattler standings' rows in words, players sharing a place said together and marked tied ("1. a,
    2. b, 3. c and d (tied)"; ``poison``: each with their poison, "c 11 poison and d 11 poison (tied)")."""
    groups: list[list[dict[str, Any]]] = []
    for row in rows:
        if groups and groups[-1][0].get("place", 0) == row.get("place", -1):
            groups[-1].append(row)
        else:
            groups.append([row])
    said = []
    for group in groups:
        names = [f"{r['player']} {r['poison']} poison" if poison else str(r["player"]) for r in group]
        together = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
        place = f"{group[0].get('place', '')}. " if numbered else ""
        said.append(place + together + (" (tied)" if len(group) > 1 else ""))
    return ", ".join(said)


def claim_line(engine: Any, effect: core.ResultClaimed, text: str, *, answer: bool = True) -> Line:
    """A line about a result claim, true when it leaves: once the match is decided (the other's claim, the
    game's end, a forfeit) the claimer's ``answer`` says the result, and the opponent's prompt is dropped."""

    def render() -> str | None:
        match = engine.league.match_of(effect.player, effect.round)
        if match is None or not match.decided:
            return text
        if not answer:
            return None
        said = "a draw" if effect.draw else f"{effect.winner} won"
        return f"Noted: {said}. The result is in: {result_words(match)}."

    return Live(render)


def confirmed_line(engine: Any, effect: core.ResultClaimed, effects: Sequence[Effect]) -> str | None:
    """The private answer to a ``!result`` that confirms the other player's claim, when the result leaves its
    claimer no later private line to read it in: the league is over, they are out (eliminated and not the
    Ghost, or a Ghost whose run a second death ends), or they won their group (their final waits for the
    other group). At most once per member and league, so its message costs the chat budget next to nothing.
    None otherwise: the room's line and their game's chat say the result, and their next shop, pack or
    market turn follows in this conversation; a message for every confirmed game would spend one of the
    bot's few per window each time."""
    match = engine.league.match_of(effect.player, effect.round)
    if match is None or not match.decided:
        return None
    noted = f"Noted: the result is in: {result_words(match)}."
    for over in effects:
        if isinstance(over, ab.ChampionDecided):
            who = "you are" if over.player == effect.player else f"{over.player} is"
            return f"{noted} The league is over: {who} the champion; !standings shows every place."
        if isinstance(over, mk.LeagueOver):
            return (
                f"{noted} The league is over: {market_winners(over.standings)}; !standings shows the table."
            )
    if not isinstance(engine, ab.AutoBattlerEngine):
        return None
    # their death, or another's that ends their run as the Ghost
    deaths = any(isinstance(e, ab.PlayerEliminated) for e in effects)
    if deaths and effect.player in engine.dead and not engine.is_ghost(effect.player):
        return f"{noted} You are out of the league (eliminated); you may watch its games."
    won = next((e for e in effects if isinstance(e, ab.GroupWon) and e.player == effect.player), None)
    paired = any(isinstance(e, core.RoundStarted) and effect.player in sum(e.pairings, ()) for e in effects)
    if won is not None and not paired:  # a final set up at once is announced with its game
        return f"{noted} You win group {won.group + 1}: your final follows once the other group has a winner."
    return None


def sits_out_line(engine: ab.AutoBattlerEngine, effect: core.ResultRecorded) -> str:
    """The room's line for a player who sits a mini-game out (their group has three players left and no
    Ghost): which group's mini-game (with eight players) and who plays it."""
    player = effect.players[0]
    group = engine.group_of(player)
    seated = set(engine.groups[group])
    games = [
        " vs ".join(m.players)
        for m in engine.league.matches
        if m.round == effect.round and len(m.players) == 2 and set(m.players) <= seated
    ]
    where = f"sits out group {group + 1}'s mini-game" if len(engine.groups) > 1 else "sits this mini-game out"
    who = f": {'; '.join(games)} play it" if games else ""
    return f"Round {effect.round}: {player} {where} (three left, no Ghost{who}): no poison."


def result_words(match: core.Match) -> str:
    """A decided match's result in words ("ann beats cat", "bob and dan draw")."""
    if match.draw:
        return f"{' and '.join(match.players)} draw"
    if len(match.players) < 2:
        return f"{match.players[0]} has a bye"
    return f"{match.winner} beats {match.loser()}"


def while_turn(engine: Any, player: str, line: str | Callable[[], str]) -> Line:
    """A market line true only while it is ``player``'s turn to buy: dropped when it would leave later."""

    def render() -> str | None:
        if engine.phase != "market" or engine.whose_turn() != player:
            return None
        return line() if callable(line) else line

    return Live(render)


def bought_line(effect: mk.CardBought, limit: int = ROOM_LINE) -> str:
    """The room's line for a purchase, within ``limit``: who bought what and for how much always; the cards
    traded in as many as fit, then how many more."""
    head = f"{effect.player} buys {effect.name} (worth {effect.worth}, cost {effect.cost})"
    names = [f"{n}x {name}" if n > 1 else name for name, n in Counter(effect.paid_names).items()]
    for shown in range(len(names), -1, -1):
        more = len(names) - shown
        listed = ", ".join(names[:shown]) + (f" and {more} more" if shown and more else "")
        line = (
            f"{head}, trading in {listed}."
            if shown
            else f"{head}, trading in {len(effect.paid_names)} cards."
        )
        if len(line) <= limit or not shown:
            return line
    return head + "."  # unreachable: the loop ends with nothing listed


def led(lead: str, line: str) -> str:
    """``line`` (a sentence) after ``lead`` and a colon: "Welcome back: your pack (13): ..."."""
    return f"{lead}: {line[:1].lower()}{line[1:]}"


def decision_name(token: tuple[Any, ...]) -> str:
    """A waited-for move as a player's warning names it (the first word of the engine's token)."""
    kind = token[0] if token else ""
    return {"pick": "pick", "buy": "market turn", "done": "draft", "carousel": "carousel pick"}.get(
        str(kind), "move"
    )
