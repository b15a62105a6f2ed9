"""A league member's private commands (:class:`LeaguePrivateCommands`, a part of
:class:`~cockatrice_ext.bot.league_referee.LeagueReferee`).

The rules:

* each format offers only its own commands (:meth:`LeaguePrivateCommands._offers`): Market Draft
  ``!pack``, ``!pick``, ``!market``, ``!buy``, ``!pass``; AutoBattler ``!shop``, ``!swap``, ``!roll``,
  ``!done``, ``!treasures`` and, only in a league started with that option, ``!augment``, ``!item``,
  ``!basic`` and ``!pick`` (the carousel); a command of the other format is answered with this one's nearest
  (``EQUIVALENT``); both have ``!help``, ``!rules``, ``!pool``, ``!standings``, ``!result``, ``!status``
  (and ``!leave``: :mod:`~cockatrice_ext.bot.league_leaving`);
* a wrong phase is refused before numbers are read against empty lists (:func:`require_phase`); numbers are
  read against the lists the member was shown, and refused while a list they may point into has not reached
  them (``require_lists_read``: lines for them still wait in the chat queue);
* a leftover command said again and again is answered once per :data:`BURST_SECONDS`
  (:meth:`LeaguePrivateCommands.first_in_burst`); a ``!buy`` that overpays is warned about once, and the
  same ``!buy`` again pays it all;
* ``!pack``, ``!shop``, ``!standings`` and ``!status`` are rendered as they leave the chat queue.

Why: each answer is a private message under the bot's one chat budget; it must be true when it is read and
say what to do next.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from cockatrice_ext.bot import league_away  # its graces read where they are set (tests patch them)
from cockatrice_ext.bot.commands import BadArgument, NotAllowed, Rest, command
from cockatrice_ext.bot.league_cards import pool_cod
from cockatrice_ext.bot.league_commands import (
    buy_action,
    by_position,
    pick_action,
    result_action,
    swap_action,
)
from cockatrice_ext.bot.league_options import TITLES
from cockatrice_ext.bot.league_parts import LeagueParts
from cockatrice_ext.bot.league_views import (
    counted,
    marked,
    market_listing,
    numbered,
    pool_with_worths,
    standings_rows,
    worth_rule,
)
from cockatrice_ext.bot.referee import Context, require_lists_read
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import market as mk
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.formats.base import RulesError

BURST_SECONDS = 30.0
"""A leftover command repeated within this many seconds of its answer is not answered again."""


class LeaguePrivateCommands(LeagueParts):
    """The private commands of a league member (a part of ``LeagueReferee``: see the module)."""

    MARKET_ONLY: ClassVar[frozenset[str]] = frozenset({"pack", "market", "buy", "pass"})

    AUTOBATTLER_ONLY: ClassVar[frozenset[str]] = frozenset(
        {"shop", "swap", "roll", "done", "treasures", "basic", "augment", "item"}
    )

    EQUIVALENT: ClassVar[dict[str, str]] = {
        "buy": "swap",
        "market": "shop",
        "pack": "shop",
        "swap": "buy",
        "shop": "market",
    }
    """The other format's command a player types out of habit -> this one's nearest (each format offers
    only its own: a name in the other's list is never this league's)."""

    @command(scopes=("private",), aliases=("commands",))
    async def help(self, ctx: Context, topic: Rest | None = None) -> None:
        """List the league commands; !help COMMAND: that command's usage."""
        words = (topic or "").split()
        name = words[0].lstrip("!").casefold() if words else ""
        spec = self.commands.find(name, "private") if name else None
        if spec is not None and self._offers(spec.name):
            line = spec.described
            if spec.name in ("buy", "market") and isinstance(self.engine, mk.MarketDraftEngine):
                line = f"{line} {worth_rule(self.engine)}"  # the numbers in force (league options)
            await ctx.reply(shorten(line, 900))
            return
        if name == "worth" and isinstance(self.engine, mk.MarketDraftEngine):
            await ctx.reply(shorten(worth_rule(self.engine), 900))
            return
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
            action = pick_action(
                ctx.sender, card, engine.carousel, carousel=True, put_back_from=pool, name_of=self.card_name
            )
            given = getattr(action, "put_back", None)  # a number of their pool, with the put-back carousel
            require_lists_read(ctx, action.card, given)
            await self.act(ctx, action)
        else:
            if engine.phase in ("play", "market", "over"):  # a leftover !pick, often several at once
                if self.first_in_burst(ctx.sender, "pick"):
                    raise NotAllowed(self.after_draft_line(ctx.sender))
                return  # answered a moment ago: the same line again would only take the chat's budget
            require_phase(engine, "draft")
            if not engine.pack(ctx.sender):
                raise RulesError("no_pack", player=ctx.sender)
            action = pick_action(ctx.sender, card, engine.pack(ctx.sender))
            require_lists_read(ctx, action.card)
            await self.act(ctx, action)

    def first_in_burst(self, member: str, what: str, now: float | None = None) -> bool:
        """Whether ``member``'s ``what`` (a leftover command said again and again) gets its answer now: once
        per :data:`BURST_SECONDS` (a newcomer's five !pick after the draft heard the same refusal five
        times)."""
        now = time.monotonic() if now is None else now
        last = self.answered.get((member, what))
        if last is not None and now - last < BURST_SECONDS:
            return False
        self.answered[(member, what)] = now
        return True

    def after_draft_line(self, member: str) -> str:
        """The answer to a Market member's ``!pick`` once the draft is over: what to do now (their game, the
        market, or the result)."""
        engine = self.engine
        if self.over:
            return f"the draft is over, and so is the league: {self.final_line()}"
        if engine.phase == "market":
            return f"the draft is over; the market is open: {engine.whose_turn()} to buy (!market shows it)"
        match = engine.league.match_of(member)
        if match is None or match.decided or len(match.players) != 2:
            return f"the draft is over; {self.stage()} (!status says where you stand)"
        opponent = match.opponent(member)
        game = next(
            (g for g in self.games.values() if member in g.players and g.round_no == match.round), None
        )
        where = f"is #{game.game_id} in this room" if game is not None else "opens soon"
        return f"the draft is over; your round {match.round} game vs {opponent} {where} (deck: !pool)"

    @command(scopes=("private",))
    async def pack(self, ctx: Context) -> None:
        """Show the pack you pick from now."""
        if not self.engine.pack(ctx.sender):
            raise NotAllowed("no pack is waiting for you")
        await ctx.reply(lambda: self.pack_answer(ctx.sender))  # drawn as it leaves: a pick may come first

    def pack_answer(self, player: str) -> str:
        """``!pack``'s answer as it leaves: the pack ``player`` picks from then (a listing waiting for the
        chat budget never shows a pack already picked from, nor one of a draft that is over)."""
        pack = self.engine.pack(player)
        if not pack:
            return "No pack is waiting for you now."
        self.pack_listed(player, tuple(pack))
        return shorten(f"Your pack ({len(pack)}): {numbered([self.card_name(c) for c in pack])}.", 900)

    @command(scopes=("private",))
    async def market(self, ctx: Context) -> None:
        """Show the market (with costs) and your pool numbers."""
        engine: mk.MarketDraftEngine = self.engine
        if engine.phase != "market":
            raise NotAllowed(market_closed(engine))
        listing = market_listing(engine, self.card_name)
        turn = engine.whose_turn()
        await self.tell_lines(
            ctx.sender,
            [
                f"Market: {listing}.",
                f"{turn} to buy.",
                worth_rule(engine),
                f"Your pool: {pool_with_worths(engine, engine.pool(ctx.sender), self.card_name)}.",
            ],
        )

    @command(scopes=("private",))
    async def buy(self, ctx: Context, what: Rest) -> None:
        """Buy from the market: !buy N with A, B... (N from !market, A, B... pool numbers or names); the
        cards you trade in must be worth the card's cost together (!market says what each is worth)."""
        engine: mk.MarketDraftEngine = self.engine
        require_phase(engine, "market")
        action = buy_action(ctx.sender, what, engine.market, engine.pool(ctx.sender), name_of=self.card_name)
        require_lists_read(ctx, action.card, *action.pay)
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
        if not engine.shop(ctx.sender):
            if self.is_out(ctx.sender):
                raise NotAllowed("you are out of the league (eliminated): no more shops; !standings shows it")
            raise NotAllowed(self.no_shop(ctx.sender))
        await ctx.reply(lambda: self.shop_answer(ctx.sender))  # drawn as it leaves: the phase may end first

    def no_shop(self, player: str) -> str:
        """Why ``player`` has no shop to list (their pool instead), as a refusal says it."""
        pool = [self.card_name(c) for c in self.engine.pool(player)]
        return f"no shop is open for you (phase {self.engine.phase}); your pool: {numbered(pool)}"

    def shop_answer(self, player: str) -> str:
        """``!shop``'s answer as it leaves: the shop, pool and treasures then (a listing waiting for the chat
        budget never shows a shop of a draft phase that is over)."""
        engine: ab.AutoBattlerEngine = self.engine
        shop = engine.shop(player)
        if not shop:
            return shorten(f"Now {self.no_shop(player)}.", 900)
        pool = [self.card_name(c) for c in engine.pool(player)]
        return shorten(
            f"Shop: {numbered([self.card_name(c) for c in shop])}. Pool: {numbered(pool)}."
            f" Treasures {engine.treasures[player]}, energy {engine.energy}.",
            900,
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
        action = swap_action(ctx.sender, cards, shop, pool, item=item, name_of=self.card_name)
        require_lists_read(ctx, action.shop_card, action.pool_card)
        await self.act(ctx, action)

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
        choice = by_position(pack, card, "augment pack")
        require_lists_read(ctx, choice)  # a number read off the listing
        await self.act(ctx, ab.ChooseAugment(player=ctx.sender, card=choice))

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
        await ctx.reply(self.standings_line)  # rendered as it leaves: results may come in meanwhile

    def standings_line(self) -> str:
        """The league table in one line."""
        engine = self.engine
        table = standings_rows(engine, self.left)  # the web page's table too: the same places and marks
        if isinstance(engine, ab.AutoBattlerEngine):
            rows = [f"{r['rank']}. {r['player']} {r['poison']} poison" + marked(r) for r in table]
            text = f"Energy {engine.energy}, {self.games_so_far()}: " + ", ".join(rows)
        else:
            rows = [
                f"{r['rank']}. {r['player']} {r['points']} ({r['wins']}-{r['draws']}-{r['losses']})"
                + marked(r)
                for r in table
            ]
            text = f"Round {engine.league.round} of {engine.config.rounds}: " + ", ".join(rows)
        return shorten(text, 900)

    def games_so_far(self) -> str:
        """How far an AutoBattler league's mini-games are, in words: ``games N`` counts finished rounds
        (the engine counts one once all its games are decided), so while one is played the poison of its
        decided games is in the table already and the words say so ("games 0, round 1 under way: 2 of 4
        games decided"), not "games 0" alone."""
        engine = self.engine
        played = f"games {engine.games_played}"
        games = [m for m in engine.league.current_matches() if len(m.players) == 2]
        if engine.phase != "play" or not games:
            return played
        decided = sum(1 for m in games if m.decided)
        under_way = f"round {engine.league.round} under way"
        return f"{played}, {under_way}: {decided} of {counted(len(games), 'game')} decided"

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
        sender = ctx.sender
        await ctx.reply(lambda: self.status_answer(sender))  # rendered as it leaves: true when it arrives

    def status_answer(self, sender: str) -> str:
        """The answer to ``sender``'s ``!status``."""
        engine = self.engine
        parts = [self.status_line()]
        if sender in self.left and not self.over:
            parts.append("you left it: the referee makes your moves, your games are lost by forfeit")
        elif self.is_out(sender) and not self.over:
            parts.append("you are out of the league (eliminated); you may watch its games")
        waiting_for = engine.waiting_for()
        if isinstance(engine, mk.MarketDraftEngine):
            if engine.pack(sender):
                parts.append("you have a pack: !pack")
            if engine.whose_turn():
                parts.append(f"{engine.whose_turn()} to buy")
        else:
            if engine.phase == "draft" and sender in waiting_for:
                parts.append("you are drafting: !shop")
            if sender in engine.augment_packs:
                parts.append("keep one augment of your pack: !augment")
        waiting = [p for p in waiting_for if p != sender] if engine.phase == "draft" else []
        if waiting:  # a player gone quiet (or offline) holds the draft: say who
            parts.append("the draft waits for " + ", ".join(waiting))
        now = time.monotonic()
        for member in (p for p in waiting_for if p != sender):
            if member in self.left:
                parts.append(f"{member} left the league: the referee moves for them")
            elif member in self.standing_in:
                parts.append(f"{member} is away: the referee moves for them")
            elif member in self.out_of_room:
                left = max(1, round(league_away.LOBBY_GRACE - (now - self.seen.get(member, now))))
                parts.append(f"{member} is out of the room: the referee moves for them in {left} s")
        match = engine.league.match_of(sender)
        if match is not None and len(match.players) == 2 and not match.decided:
            game = next(
                (g for g in self.games.values() if sender in g.players and g.round_no == match.round),
                None,
            )
            opponent = match.opponent(sender)
            if game is None and self.waiting_for_slot(sender) is not None:
                parts.append(
                    f"your game vs {opponent} waits for a free game slot on the server: the referee opens it"
                    " as soon as it can (or play elsewhere and both send !result)"
                )
            else:
                parts.append(f"your game vs {opponent}" + (f" is #{game.game_id}" if game else ""))
            if opponent in self.out_of_room:
                left = max(1, round(league_away.FORFEIT_GRACE - (now - self.seen.get(opponent, now))))
                parts.append(
                    f"{opponent} is out of the room: you win by forfeit in {left} s unless they are back"
                )
        return shorten("; ".join(parts) + ".")


def market_closed(engine: mk.MarketDraftEngine) -> str:
    """Why ``!market`` shows no market now, and when one opens: after each round's games but the last's
    (a newcomer asked during the draft and heard only "the market is closed")."""
    rounds, round_no = engine.config.rounds, engine.league.round
    if rounds <= 1:
        return "this league has no market (one round: the market opens between rounds)"
    if engine.phase == "over":
        return "the market is closed: the league is over"
    if engine.phase == "play" and round_no >= rounds:
        return f"the market is closed: round {round_no} is the last, and no market follows it"
    after = round_no if engine.phase == "play" else round_no + 1
    return f"the market is closed: it opens when round {after}'s games are over"


def require_phase(engine: Any, phase: str) -> None:
    """Refuse with the engine's own ``wrong_phase`` before numbers are read against empty lists."""
    if engine.phase != phase:
        raise RulesError("wrong_phase", phase=engine.phase)
