"""The referee's own piles in an Auction game: its deck (the block) and its spares, and which card ids
everyone has seen with their names (:class:`AuctionPiles`).

Why: a card keeps its id while it stays hidden, and Servatrice shows everyone the id of a card that goes face
down onto a table, so a block card once seen face up (an unsold lot, a card given back) would tell everyone
what a player drew if it were dealt face down again. The game's ``.cod`` therefore holds a second copy of the
pile in the sideboard (``pile_cod(spares=True)``): every face-down deal is a spare whose id was never shown
with its name, while the deck's top card goes to the sideboard so that the deck still counts the block
(:meth:`AuctionPiles.deal_face_down`); face-up deals spend seen copies first
(:meth:`AuctionPiles.to_my_table`) and a seen card is never burned into the spares. After a restart in
place, when Servatrice lists a hidden zone's cards by position only, every deck card of a name the journal
put back counts as seen (:func:`~cockatrice_ext.bot.auction_journal.put_back`), and the spares need no
marks.
"""

from __future__ import annotations

import logging
from typing import Any

from cockatrice_ext.bot.auction_journal import put_back
from cockatrice_ext.bot.auction_parts import AuctionParts
from cockatrice_ext.bot.board import OwnDeck
from cockatrice_ext.protocol import commands as pc

LOGGER = logging.getLogger("cockatrice_ext.bot.auction")  # the referee's one logger

DEAL_ROW = 0
"""The row of a table every card the referee deals goes to, each in a column of its own."""


class AuctionPiles(AuctionParts):
    """The referee's deck and spares: face-up and face-down deals from them, and cards back into the deck."""

    @property
    def has_spares(self) -> bool:
        """Whether this game's pile came with spares (a game made before them has an empty sideboard)."""
        if self.own_sb.names:
            return True
        seat = self.mirror.players.get(self.me) if self.game_id in self.bot.client.games else None
        return seat is not None and seat.zone("sb").card_count > 0

    async def to_my_table(self, index: int) -> int | None:
        """Engine card ``index`` face up on our table, in its own column (from our deck if needed)."""
        card_id = self.on_table.get(index)
        if card_id is not None:
            return card_id
        name = self.block.game_names[index]
        zone, pile = "deck", self.own_deck
        # Shown face up now: a copy whose id everyone saw already, if there is one.
        position = pile.position(name, seen=True)  # a copy whose id everyone saw: unseen ones stay unseen
        if position is None:
            position = pile.position(name)
        if position is None:
            await self.read_spares()
        if position is None and self.own_sb.names:  # its deck card went to the spares: a spare, face up
            zone, pile = "sb", self.own_sb
            position = pile.position(name)
        if position is None:
            LOGGER.warning("game %d: %s is not in the bot's deck", self.game_id, name)
            return None
        before = self.table_ids(self.me)
        pile.take(position)
        move = pc.move_card(
            zone,
            [position],
            target_player_id=self.me,
            target_zone="table",
            x=self.free_x(self.me, DEAL_ROW),
            y=DEAL_ROW,
        )
        await self.run(move, *(self.deck_top_to_spares_moves() if zone == "sb" else []))
        card_id = await self.wait_new_card(self.me, before, name=name)
        if card_id is not None:
            self.on_table[index] = card_id
        return card_id

    async def deal_face_down(self, name: str) -> int | None:
        """A card called ``name`` face down on our table, on its way to a player (a draw), its id one nobody
        has seen with a name: a spare from our sideboard whose id was never shown, while our deck's top card
        goes to the sideboard (the deck still counts the block).

        Why: a card keeps its id while it stays hidden, and Servatrice shows the id to everyone when the card
        goes face down onto a table; a block card once seen face up (an unsold lot, a card given back) is
        back in our deck under that id, so dealing it would tell everyone what the drawer got. Every face-down
        deal comes from the sideboard, so where it comes from says nothing either. Moves cost no game-command
        budget. A game without spares (made before them), or with no unseen spare of that name left, deals
        from the deck: an unseen copy there if it has one (a spare of that name was drawn earlier while its
        deck copy stayed). Only when no card of that name the referee holds is unseen does the deal show an
        id seen with its name (an INFO line): every copy of it was shown face up (a lot, a card given back)
        or drawn and given back, or, after a restart in place, lies in the deck under a name the journal put
        back (:meth:`seen_in_deck`). Face-up deals spend seen copies first (:meth:`to_my_table`) and the
        deck's unseen cards of such names are moved into the spares first (:meth:`deck_top_to_spares`), so
        that this is rare."""
        await self.read_spares()
        position = self.own_sb.position(name, unseen=True)
        if position is None:
            if self.own_sb.names and self.own_deck.position(name, unseen=True) is None:
                LOGGER.info(
                    "game %d: every %s the referee holds was seen with its id: a seen one is dealt face down",
                    self.game_id,
                    name,
                )
            return await self.deal_from_deck(
                name, self.me, face_down=True, exclude=self.on_table.values(), unseen_first=True
            )
        before = self.table_ids(self.me)
        self.own_sb.take(position)
        move = pc.move_card(
            "sb", [position], target_player_id=self.me, target_zone="table", x=0, y=0, face_down=True
        )
        await self.run(move, *self.deck_top_to_spares_moves())  # one message: a stop cuts neither off alone
        return await self.wait_new_card(self.me, before, exclude=self.on_table.values())

    async def deck_top_to_spares(self) -> None:
        """:meth:`deck_top_to_spares_moves`, sent."""
        await self.run(*self.deck_top_to_spares_moves())

    def deck_top_to_spares_moves(self) -> list[Any]:
        """Our deck's top card to the bottom of our sideboard (the move, the lists already changed): a card
        dealt from the spares leaves the deck one card too many. Both zones are hidden, so nobody is shown an
        id. A card everyone saw (one put back on top) is passed over for the next: the spares then never hold
        such a card, even after a restart, when the referee can no longer tell which is which; where it lies
        was public already. An unseen card of a name put back goes first: after a restart in place every deck
        card of such a name counts as seen (:meth:`seen_in_deck`), while in the spares it stays a card to deal
        face down."""
        if not self.own_deck.names:
            return []
        position = self.burn_position()
        name = self.own_deck.take(position)
        seen = self.own_deck.took_seen
        self.own_sb.put(name, top=False, seen=seen)
        return [pc.move_card("deck", [position], target_player_id=self.me, target_zone="sb", x=-1, y=0)]

    def burn_position(self) -> int:
        """The deck card :meth:`deck_top_to_spares_moves` moves: the first unseen one of a name some card of
        which was put back, else the first unseen one (the top when every card was seen)."""
        deck = self.own_deck
        shown = self.put_back_names | {n for n, seen in zip(deck.names, deck.seen, strict=False) if seen}
        for position, name in enumerate(deck.names):
            if name in shown and not (position < len(deck.seen) and deck.seen[position]):
                return position
        return deck.position_unseen()

    put_back_names: frozenset[str] = frozenset()
    """Names some card of which went back into our deck after everyone saw its id (:func:`put_back`, kept
    up to date as cards go back): after a restart in place the deck's cards of these names count as seen."""

    async def read_own_deck(self, zone_name: str = "deck", into: OwnDeck | None = None) -> bool:
        """Our deck (its cards of names put back marked seen); our sideboard's spares are read when the first
        card is dealt from them (:meth:`read_spares`)."""
        if not await super().read_own_deck(zone_name, into):
            return False
        if zone_name == "deck" and into is None:
            seen = self.seen_in_deck()
            self.put_back_names = self.put_back_names | seen
            self.own_deck.load(self.own_deck.names, [name in seen for name in self.own_deck.names])
            self.spares_read = False
        return True

    spares_read: bool = False
    """Whether :attr:`own_sb` holds what the server's sideboard holds."""

    async def read_spares(self) -> None:
        """Read our sideboard (the spares) once, when the first card is dealt from it: a ``Command_DumpZone``
        counts against the connection's game-command budget, and at a game's start, with the other commands
        of a start, it went past a strict server's budget (four per ten seconds)."""
        if not self.spares_read:
            self.spares_read = await super().read_own_deck("sb", self.own_sb)

    def seen_in_deck(self) -> set[str]:
        """After a restart, the names whose cards in our deck may be ones everyone saw: every card the journal
        put back into the block (:func:`put_back`). The spares are never such a card
        (:meth:`deck_top_to_spares` keeps them out), so the sideboard is read as unseen."""
        if self.table is None:
            return set()
        names = self.block.game_names
        return {names[i] for i in put_back(self.bot.journal.entries(self.table_key)) if 0 <= i < len(names)}

    async def my_table_to_deck(self, index: int, *, top: bool) -> None:
        card_id = self.on_table.pop(index, None)
        if card_id is not None:
            self._notes.pop(card_id, None)
            await self.table_to_own_deck(card_id, self.block.game_names[index], top=top)

    async def table_to_own_deck(self, card_id: int, name: str, *, top: bool) -> None:
        """A card from our table into our deck, seen (:meth:`PileReferee.table_to_own_deck`); its name is one
        put back from now on (:attr:`put_back_names`)."""
        self.put_back_names = self.put_back_names | {name}
        await super().table_to_own_deck(card_id, name, top=top)
