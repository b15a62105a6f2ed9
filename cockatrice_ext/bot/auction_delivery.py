"""Cards the Auction referee hands to players, and what it shows on their tables (:class:`AuctionDelivery`).

Every card handed over is labelled with its owner first (:func:`~cockatrice_ext.bot.referee.owner_note`:
bought cards belong to the buyer, 90X.3e, and Servatrice's concession return leaves a card so labelled with
its holder), goes onto the player's table in a column of its own and, as a judge, into their hand; a drawn
card travels face down and is named to its drawer alone (:data:`DRAWN_LABEL`). A player who is out takes a
card out of the game with them (800.4a). Only a card the referee dealt is ever taken back to the block, so
the server ids of dealt cards (and of the tokens players make) are followed through every move
(:meth:`AuctionDelivery.follow_move`): a token or a card of the player's own named like a block card stays
theirs. ``!sell`` lots and the commander exchange (90Y.6) are moved by a judge, or the players are told who
drags what. The free sinks are here too: card annotations, the lot's note (on its cards, or on the
:data:`LOT_CARD` token for a player's own cards), the judge's :data:`GOLD_CARD` and mana counters, and the
private ``!look`` listing (never a reveal: a reveal's ids follow the cards into later face-down deals).
"""

from __future__ import annotations

import contextlib
from typing import Any

from cockatrice_ext.bot.auction_parts import AuctionParts
from cockatrice_ext.bot.auction_piles import DEAL_ROW
from cockatrice_ext.bot.auction_view import _exchange_lines, order_example, sell_line
from cockatrice_ext.bot.chat import bidi_isolated
from cockatrice_ext.bot.referee import owner_note
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol.codes import CardAttribute

MANA_COUNTERS = {"W": 1, "U": 2, "B": 3, "R": 4, "G": 5}
"""Cockatrice's fixed player counters for each colour of mana (0 is life)."""
GOLD_CARD = "Gold"  # judge rights: a token on each player's own table, its number their gold
LOT_CARD = "Auction lot"
"""A note token on the referee's table carrying the lot of a player's own cards (``!sell``): they stay
with their seller until sold, so no block card of ours can carry the lot's annotation."""

DRAWN_LABEL = "Face down: drag it into your hand (its name came to you)."
"""The note under ``Owner: NAME`` on a drawn card dealt face down to its drawer's table: a judge moves it into
the hand at once, and a hand clears a card's note, so a face-down card still carrying it is a drawn card that
has not reached the hand (:meth:`AuctionReferee.delivered_unmoved`)."""


class AuctionDelivery(AuctionParts):
    """Handing block cards to players and following them, judge moves between players, and the board's notes
    and counters."""

    def dealt_card(self, event: ClientEvent) -> bool:
        """Whether the card a player moved (``Event_MoveCard``) is one the referee dealt, by its server id
        before the move. After a restart a card from a hand the referee could not see passes unless it is a
        token made since (the engine still checks that its player holds a card of that name)."""
        move = event.message
        start, old = int(move.start_player_id), int(move.card_id)  # type: ignore[attr-defined]
        if start != event.player_id or old < 0:
            return False
        if old in self.dealt.get(start, ()):
            return True
        from_hand = move.start_zone == "hand"  # type: ignore[attr-defined]
        if from_hand and start in self.unseen_hands and old not in self.made.get(start, ()):
            self.note_dealt(start, old)  # followed from now on, wherever it goes
            return True
        return False

    def follow_move(self, event: ClientEvent) -> None:
        """Keep :attr:`dealt` and :attr:`made` in step with a card move: a dealt card (or a token) keeps being
        one under its new id, wherever it goes (another player's table: a sale's seller dragging it to the
        buyer)."""
        move = event.message
        start, old = int(move.start_player_id), int(move.card_id)  # type: ignore[attr-defined]
        new = int(move.new_card_id) if move.new_card_id >= 0 else old  # type: ignore[attr-defined]
        target = int(move.target_player_id) if move.target_player_id >= 0 else start  # type: ignore[attr-defined]
        if event.player_id == self.me == start and move.start_zone == "deck":  # type: ignore[attr-defined]
            if new >= 0:  # a block card out of our deck: followed from here (a slow server's deal too)
                self.dealt.setdefault(target, set()).add(new)
            return
        if event.player_id == self.me == start and old in self._handing:  # a block card we handed over
            self._handing.discard(old)
            if new >= 0 and target != self.me:  # seen: given back at once, it was refused as not dealt
                self.dealt.setdefault(target, set()).add(new)
            return
        for followed in (self.dealt, self.made):
            ids = followed.get(start)
            if ids is None or old < 0 or old not in ids:
                continue
            ids.discard(old)
            if new >= 0:
                followed.setdefault(target, set()).add(new)

    def note_dealt(self, seat: int, card_id: int) -> None:
        """Card ``card_id`` on ``seat``'s side is a block card the referee handed over."""
        self.dealt.setdefault(seat, set()).add(card_id)

    async def hand_over_all(self, indices: list[int], player: Any, *, hidden: bool = False) -> None:
        """:meth:`hand_over` of each card into ``player``'s hand; as a judge, the cards go from their table
        into their hand in one command (a command each spent the game-command budget of every game of the
        session: a judge's ``!draw 20`` held them all up for ten seconds)."""
        arrived: list[int] = []
        for index in indices:
            await self.hand_over(index, player, hand=True, hidden=hidden, arrived=arrived)
        seat = self.seat_of(player) if arrived else None
        if seat is not None:
            await self.into_hand(seat, arrived)

    async def hand_over(
        self, index: int, player: Any, *, hand: bool, hidden: bool = False, arrived: list[int] | None = None
    ) -> None:
        """Give engine card ``index`` to ``player``: labelled with its owner (and price), onto their table
        in a column of its own, then (as a judge, for ``hand``) into their hand. A player who is out of
        the game takes it out of the game with them (800.4a): into our exile, or a ``hidden`` one into our
        sideboard (outside the game too, and nobody reads its name there). A ``hidden`` card (a draw) travels
        face down from the block and its note tells the player to drag it into their hand: nobody else reads
        it."""
        if hidden and index not in self.on_table:
            card_id = await self.deal_face_down(self.block.game_names[index])
        else:  # a hidden card already on our table (a deal a stop cut short) is there face down: it stays so
            card_id = await self.to_my_table(index)
        if card_id is None:
            return
        self.on_table.pop(index, None)
        label = self._labels.pop(index, "")
        if hidden:
            label = DRAWN_LABEL
        seat = self.seat_of(player) if player in self.engine.living() else None
        if seat is None and player in self.engine.living() and not self.seats_known:
            return  # the referee cannot see the seats now: the card waits on its table (finish_moves)
        if seat is None:  # a drawn card (hidden) goes to our sideboard, outside the game, never face up
            if hidden:
                out = pc.move_card("table", [card_id], target_player_id=self.me, target_zone="sb", x=-1, y=0)
                self.own_sb.put(self.block.game_names[index], top=False)
            else:
                out = pc.move_card("table", [card_id], target_player_id=self.me, target_zone="rfg")
            await self.run(out)
            return
        with contextlib.suppress(KeyError):  # their seat went while the card moved: it went with them
            await self.annotate(
                card_id, owner_note(self.player_name(player)) + (f"\n{label}" if label else "")
            )
            before = self.table_ids(seat)
            move = pc.move_card(
                "table",
                [card_id],
                target_player_id=seat,
                target_zone="table",
                x=self.free_x(seat, DEAL_ROW),
                y=DEAL_ROW,
                face_down=hidden,
            )
            self._handing.add(card_id)
            await self.run(move)
            new_id = await self.wait_new_card(
                seat, before, name="" if hidden else self.block.game_names[index]
            )
            if new_id is not None:
                self.note_dealt(seat, new_id)
            if hand and new_id is not None and arrived is not None:
                arrived.append(new_id)  # into the hand with the others (hand_over_all)
            elif hand and new_id is not None:
                await self.into_hand(seat, new_id)
        self._notes.pop(card_id, None)

    async def deliver_sold(self, awarded: rules.CardsAwarded, seller: Any) -> None:
        """Cards sold with ``!sell`` are in the seller's hand or on their table: a judge moves them into
        the winner's hand; otherwise (or if it cannot see them) the seller is told what to drag where."""
        names = [self.block.game_names[ref.index] for ref in awarded.cards]
        if self.is_judge:
            moved = [await self.judge_transfer(name, seller, awarded.player) for name in names]
            if all(moved):
                return
            await self.say(sell_line(self.player_name(seller), self.player_name(awarded.player), names))

    async def exchange_commanders(self, effect: rules.CommandersExchanged) -> None:
        """90Y.6 as a judge: each commander from its old commander's table onto the other's; if a move
        fails the players are told what to drag."""
        sold, given = (self.block.game_names[ref.index] for ref in (effect.sold, effect.given))
        moved = [
            await self.judge_transfer(sold, effect.seller, effect.winner, hand=False),
            await self.judge_transfer(given, effect.winner, effect.seller, hand=False),
        ]
        if not all(moved):
            for line in _exchange_lines(effect, self.player_name, judge=False)[1:]:
                await self.say(line)

    async def judge_transfer(self, name: str, seller: Any, winner: Any, *, hand: bool = True) -> bool:
        """As a judge: move a card called ``name`` from the seller's table or hand onto the winner's table and
        (``hand``) into their hand."""
        seller_seat, winner_seat = self.seat_of(seller), self.seat_of(winner)
        if seller_seat is None or winner_seat is None:
            return False
        for zone in ("table", "hand"):
            card = next(
                (c for c in self.mirror.players[seller_seat].zone(zone).cards if c.name == name), None
            )
            if card is not None:
                break
        else:
            return False
        with contextlib.suppress(KeyError):  # a seat went meanwhile: the referee says what to drag instead
            return await self._judge_move(zone, card.id, name, seller_seat, winner_seat, hand=hand)
        return False

    async def _judge_move(
        self, zone: str, card_id: int, name: str, seller_seat: int, winner_seat: int, *, hand: bool
    ) -> bool:
        before = self.table_ids(winner_seat)
        move = pc.move_card(
            zone,
            [card_id],
            target_player_id=winner_seat,
            target_zone="table",
            x=self.free_x(winner_seat, DEAL_ROW),
            y=DEAL_ROW,
        )
        await self.judge(seller_seat, [move])
        new_id = await self.wait_new_card(winner_seat, before, name=name)
        if not hand:
            return new_id is not None
        return new_id is not None and await self.into_hand(winner_seat, new_id)

    # -- notes and counters (free game commands) -------------------------------------------------------------

    async def annotate(self, card_id: int, note: str) -> None:
        """Set the annotation of a card on our table (a free command; skipped when unchanged)."""
        note = bidi_isolated(note)  # a right-to-left name keeps its place, as in chat
        if self._notes.get(card_id) == note:
            return
        self._notes[card_id] = note
        await self.run(pc.set_card_attr("table", card_id, CardAttribute.AttrAnnotation, note))

    async def show_lot(self, note: str, *, owned: bool = False) -> None:
        """The open lot's note on each of its cards, or on the :data:`LOT_CARD` token for a lot of a
        player's own cards (taken off the table once that lot is closed)."""
        if owned and note:
            await self.show_note_card(self.me, LOT_CARD, note)
            return
        lot_card = self.note_card(self.me, LOT_CARD)
        if lot_card is not None:  # a token leaving the table is gone
            gone = pc.move_card("table", [lot_card.id], target_player_id=self.me, target_zone="grave")
            await self.run(gone)
        lot = self.engine.lot
        if lot is None or not note:
            return
        for index in lot.cards:
            card_id = self.on_table.get(index)
            if card_id is not None:
                await self.annotate(card_id, note)

    async def show_counters(self, gold: dict[Any, int], mana: list[tuple[Any, str, int]]) -> None:
        """As a judge: each player's gold on a "Gold" card of their own table (its number: the real client
        prints it there, while an eighth counter spills past the player's area), and mana they bought on
        their colour counter. Without judge rights, gold is on the lot card's note."""
        if not self.is_judge:
            return
        for player, value in gold.items():
            seat = self.seat_of(player)
            if seat is not None:
                await self.show_note_card(
                    seat, GOLD_CARD, f"{self.player_name(player)}'s gold: {value}", str(value)
                )
        commands: dict[int, list[Any]] = {}
        for player, color, count in mana:
            seat = self.seat_of(player)
            if seat is not None:
                commands.setdefault(seat, []).append(pc.inc_counter(MANA_COUNTERS[color], count))
        for seat, wanted in commands.items():
            await self.judge(seat, wanted)

    async def show_top(self, effect: rules.TopCardsShown) -> None:
        """Private: list the looked-at cards by number to that player. Not a Command_RevealCards: a reveal
        hands its reader each card's id, and Servatrice shows that id to everyone when the card is later
        dealt face down (a draw), so the looker would learn what another player drew, even after a shuffle."""
        names = self.block.game_names
        listing = "; ".join(f"{n}. {names[ref.index]}" for n, ref in enumerate(effect.cards, start=1))
        await self.tell(
            self.player_name(effect.player),
            shorten(
                f"Top of the block: {listing}. Reorder in game chat: {order_example(len(effect.cards))}"
                " ('bottom N' puts N at the bottom).",
                900,
            ),
        )
