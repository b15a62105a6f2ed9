"""The Auction players' game-chat commands (:class:`AuctionCommands`): each checks its sender's seat,
turns the words into the engine's action and performs its effects.

Words only: the rules are the engine's (:mod:`cockatrice_ext.formats.auction`). ``!bid 0`` is refused with
how to decline (:func:`with_decline_hint`); the active player's first ``!draw`` before the turn's auction
says how the auction starts instead (rule 7: ``!draw`` is for card effects; journaled as
:data:`~cockatrice_ext.bot.auction_journal.DRAW_ASKED`, so a restart between the two changes nothing);
``!cast``/``!keep`` and ``!sell`` split card lists against the cards the player may mean.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Annotated, Any

from cockatrice_ext.bot.auction_journal import DRAW_ASKED
from cockatrice_ext.bot.auction_parts import AuctionParts
from cockatrice_ext.bot.auction_view import REFUSALS, gold_summary, how_an_auction_starts, listed
from cockatrice_ext.bot.commands import (
    BadArgument,
    CommandSet,
    CommandSpec,
    NotAllowed,
    Range,
    Rest,
    command,
    split_args,
)
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.words import players_named, shorten
from cockatrice_ext.cards.typed import split_names, typed_key
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.journal import JournalError

COLORS = {
    "w": "W",
    "white": "W",
    "u": "U",
    "blue": "U",
    "b": "B",
    "black": "B",
    "r": "R",
    "red": "R",
    "g": "G",
    "green": "G",
}


class _DeclineHint(CommandSpec):
    """``!bid``'s conversion: an amount below 1 is refused with how one declines (``!pass``), a newcomer's
    ``!bid 0``."""

    def convert(self, args: str, scope: str = "game") -> list[Any]:
        try:
            return super().convert(args, scope)
        except BadArgument as exc:
            words = split_args(args)
            try:
                below = bool(words) and int(words[0]) < 1
            except ValueError:
                below = False
            if below:
                raise BadArgument(f"{exc.reason}; to decline the card, say !pass") from None
            raise


def with_decline_hint(commands: CommandSet) -> None:
    """``!bid`` (and its alias) in ``commands`` refusing an amount below 1 with how to decline
    (:class:`_DeclineHint`)."""
    declared = commands.specs["bid"]
    bid = _DeclineHint(**{spec.name: getattr(declared, spec.name) for spec in dataclasses.fields(declared)})
    for key in (bid.name, *bid.aliases):
        commands.specs[key] = bid


class AuctionCommands(AuctionParts):
    """The game's chat commands."""

    async def act(self, ctx: Context, make: Callable[[int], Any]) -> None:
        """Check the sender, apply the action built for their seat, and perform its effects."""
        player = self.engine_player(self.require_player(ctx))
        async with self._lock:
            await self.perform(self.apply(make(player)))

    @command(aliases=("b",))
    async def bid(self, ctx: Context, amount: Annotated[int, Range(1, rules.MAX_BID)]) -> None:
        """Bid AMOUNT gold on the card up for auction."""
        await self.act(ctx, lambda p: rules.Bid(player=p, amount=amount))

    @command(name="pass", aliases=("p",), final=True)  # never suggested: !packs got "did you mean !pass?"
    async def pass_(self, ctx: Context) -> None:
        """Pass on the current auction."""
        await self.act(ctx, lambda p: rules.Pass(player=p))

    def chosen_cards(self, player: Any, card: str | None) -> dict[str, Any]:
        """``!cast``/``!keep``'s words as the engine's fields: no card, one card, or a list (split as
        ``!sell`` splits it, against the cards waiting for the player's choice)."""
        if card is None or self.table is None:
            return {"card": card}
        pending = list(self.engine.pending.get(player, ()))
        known = [n for i in pending for n in (self.engine.ref(i).name, self.block.game_names[i])]
        names = split_names(card, known)
        return {"card": names[0]} if len(names) == 1 else {"cards": tuple(names)}

    @command()
    async def cast(self, ctx: Context, card: Rest | None = None) -> None:
        """Cast the card(s) you just bought (onto the battlefield): !cast A, B."""
        await self.act(ctx, lambda p: rules.Cast(player=p, **self.chosen_cards(p, card)))

    @command()
    async def keep(self, ctx: Context, card: Rest | None = None) -> None:
        """Keep the card(s) you just bought in your hand: !keep A, B."""
        await self.act(ctx, lambda p: rules.Keep(player=p, **self.chosen_cards(p, card)))

    @command()
    async def gold(self, ctx: Context) -> None:
        """Show everyone's gold."""
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        await ctx.reply(
            "Gold: " + gold_summary(self.engine, self.player_name, everyone=self.engine.is_over())
        )

    @command()
    async def rules(self, ctx: Context) -> None:
        """The options this game is played with."""
        title = "Commander Auction" if self.options.commander else "Auction Magic"
        text = game_options.describe_in_force("auction", self.options)
        await ctx.reply(shorten(f"{title}, block {self.options.block}: {text}."))

    @command()
    async def mana(
        self, ctx: Context, color: str, count: Annotated[int, Range(1, 100)] | None = None
    ) -> None:
        """Spend gold for COUNT mana of COLOR (W, U, B, R or G; 1 if no COUNT), 1 gold per mana."""
        letter = COLORS.get(color.lower())
        if letter is None:
            raise BadArgument("colour must be W, U, B, R or G")
        await self.act(ctx, lambda p: rules.BuyMana(player=p, color=letter, count=count or 1))

    @command()
    async def draw(self, ctx: Context, count: Annotated[int, Range(1, 20)] | None = None) -> None:
        """Draw COUNT cards from the block (1 if no COUNT; card effects)."""
        player = self.engine_player(self.require_player(ctx))
        async with self._lock:
            if self.table is not None and self.draw_needs_asking(player):
                how = how_an_auction_starts(self.options.auction_at)
                raise NotAllowed(
                    f"this turn's card comes from its auction: {how}. !draw is for card effects that make you"
                    " draw (rule 7); say !draw again to draw anyway"
                )
            await self.draw_cards(player, count or 1)

    def draw_needs_asking(self, player: Any) -> bool:
        """Whether ``player``'s ``!draw`` is their first this turn before their turn's auction: a newcomer's
        way to take the turn's card, which would hand them a free card. It is answered with how the auction
        starts; a second ``!draw`` (same player, same turn) draws, for an upkeep effect that makes them
        draw. Other players' draws, and draws once the turn's auction happened, are not asked about. The ask
        is journaled first (:data:`DRAW_ASKED` in the table's meta, no engine action: old journals replay as
        they did), so after a restart the repeat still draws.

        Raises:
            JournalError: the ask could not be journaled (it is not made: the next ``!draw`` asks).
        """
        engine = self.engine
        if engine.active != player or engine.phase != "beginning" or engine.lot is not None:
            return False
        asked = [player, engine.turn]
        journal, key = self.bot.journal, self.table.key  # type: ignore[union-attr]
        meta = journal.table_meta(key)
        if meta.get(DRAW_ASKED) == asked:
            return False
        if journal.refusing:  # a process fenced off records nothing (another may play this table on)
            raise JournalError(f"nothing more is recorded by this process: {journal.refusing}")
        journal.set_table_meta(key, {**meta, DRAW_ASKED: asked})
        return True

    @command()
    async def look(self, ctx: Context, count: Annotated[int, Range(1, 20)]) -> None:
        """Look at the top COUNT cards of the block (shown to you only), then !order."""
        await self.act(ctx, lambda p: rules.LookAtTop(player=p, count=count))

    @command(aliases=("reorder",))
    async def order(self, ctx: Context, order: Rest) -> None:
        """!order N... [bottom N...]: put your !look cards back by number, top first (e.g. !order 2 1 3).

        ``[bottom N...]`` is optional: ``!order 2 1 bottom 3`` puts card 3 at the bottom."""
        player = self.engine_player(self.require_player(ctx))
        seen = self.engine.looks.get(player) if self.table is not None else None
        if not seen:
            raise BadArgument("use !look COUNT first")
        words = order.lower().replace(",", " ").split()
        top: list[int] = []
        bottom: list[int] = []
        target = top
        for word in words:
            if word == "bottom":
                target = bottom
                continue
            if not word.isdecimal() or not 1 <= int(word) <= len(seen):
                raise BadArgument(f"use the numbers 1-{len(seen)} from your !look")
            target.append(seen[int(word) - 1])
        await self.act(ctx, lambda p: rules.Reorder(player=p, top=tuple(top), bottom=tuple(bottom)))

    async def _place(self, ctx: Context, position: str) -> None:
        player = self.engine_player(self.require_player(ctx))
        async with self._lock:
            mine = [r for r in self.returned if r.player == player]
            if not mine:
                raise BadArgument("drop a card on the referee's table first")
            await self.place_returned(mine[-1], position)

    @command()
    async def top(self, ctx: Context) -> None:
        """Put the card you gave back on top of the block."""
        await self._place(ctx, "top")

    @command()
    async def bottom(self, ctx: Context) -> None:
        """Put the card you gave back at the bottom of the block."""
        await self._place(ctx, "bottom")

    @command()
    async def shuffle(self, ctx: Context) -> None:
        """Shuffle the block (card effects)."""
        await self.act(ctx, lambda p: rules.Shuffle(player=p))

    @command()
    async def stop(self, ctx: Context) -> None:
        """Vote to end this turn's auction step while its card is unbid (everyone must agree)."""
        await self.act(ctx, lambda p: rules.StopAuctioning(player=p))

    @command(name="auction")
    async def auction_now(self, ctx: Context) -> None:
        """Start this turn's auction step now (for when the draw step was skipped in Cockatrice)."""
        player = self.engine_player(self.require_player(ctx))
        async with self._lock:
            if self.engine.active != player:
                raise NotAllowed("only the active player can start the auction step")
            if self.engine.phase != "beginning":
                raise NotAllowed("the auction step already happened this turn")
            await self.start_auction_step()

    @command()
    async def sell(self, ctx: Context, cards: Rest) -> None:
        """Auction cards you own (90X.6): !sell NAME[, NAME...]; your commander (90Y.6): !sell commander.

        A commander sold this way is exchanged for the winner's commander when that is in the command zone.
        """
        player = self.engine_player(self.require_player(ctx))
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        names: tuple[Any, ...] = tuple(split_names(cards, self.own_card_names(player)))
        if len(names) == 1 and typed_key(names[0]) == "commander":
            index = self.engine.commanders.get(player)
            if not self.options.commander or index is None:
                raise NotAllowed(
                    REFUSALS["not_a_commander" if self.options.commander else "not_commander_game"]
                )
            names = (index,)
        await self.act(ctx, lambda p: rules.AuctionOwnCards(player=p, cards=names))

    @command()
    async def lot(self, ctx: Context, count: Annotated[int, Range(1, 10)]) -> None:
        """Put the top COUNT cards of the block up for auction together (card effects, 90X.8)."""
        await self.act(ctx, lambda p: rules.AuctionFromBlock(player=p, count=count))

    @command()
    async def idol(self, ctx: Context, card: Rest | None = None) -> None:
        """Gilded Idol: exile it as a card is revealed, before you bid on it, to buy that card for 0 gold."""
        await self.act(ctx, lambda p: rules.UseGildedIdol(player=p, card=card))

    @command()
    async def claim(self, ctx: Context, card: Rest | None = None) -> None:
        """Stake your Claim: say it as you cast Blood Claim, before the card is revealed."""
        await self.act(ctx, lambda p: rules.StakeClaim(player=p, card=card))

    @command()
    async def cdamage(
        self, ctx: Context, amount: Annotated[int, Range(1, 100)], owner: Rest | None = None
    ) -> None:
        """Record combat damage a commander dealt you (90Y.7: 21 from one commander loses)."""
        player = self.engine_player(self.require_player(ctx))
        engine = self.engine
        owners = dict(engine.commanders)  # your own commander too: an opponent may attack you with it
        others = [p for p in owners if p != player]
        chosen = players_named(owner, list(owners), self.player_name) if owner else others
        if len(chosen) != 1:
            names = listed(sorted(self.player_name(p) for p in owners), last="or") if owners else "nobody"
            said = f"no player {shorten(owner, 40)!r} has a commander here; " if owner and not chosen else ""
            raise BadArgument(f"{said}name whose commander hit you: !cdamage AMOUNT OWNER ({names})")
        index = owners[chosen[0]]
        async with self._lock:
            await self.perform(
                self.apply(rules.CommanderDamage(player=None, target=player, commander=index, amount=amount))
            )

    @command(final=True)  # never offered for a typo: !cancel answered "did you mean !concede?" lost a game
    async def concede(self, ctx: Context) -> None:
        """Concede the game."""
        await self.act(ctx, lambda p: rules.Concede(player=p))

    @command()
    async def state(self, ctx: Context) -> None:
        """Where the game stands: turn, auction, gold, block size."""
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        await ctx.reply(self.status_line)  # rendered as it leaves: bids made meanwhile are in it
        for line in self.lot_listing():  # a long lot: its cards named in full, below
            await ctx.reply(line)
