"""An Auction referee back in its seat after a stop or a dropped connection (:class:`AuctionRestart`).

Everything accepted is journaled before it is shown, so a stop can come between an action and its card
moves. Back in place the referee re-reads its cards, settles once the players who went while it was away
("While the referee was away: ..."), and finishes the moves the journal has and the table lacks
(:meth:`AuctionRestart.finish_moves`). The ids of cards dealt before the stop are unknown: the cards players
show that the journal gives them count as dealt (:meth:`AuctionRestart.dealt_from_mirror`). A draw is
journaled with how many cards the referee's deck and spares held as it began
(:data:`~cockatrice_ext.bot.auction_journal.DEALING`), so a draw a stop cut short is finished from the piles'
sizes (:meth:`AuctionRestart.finish_draw`; as a judge, delivered cards still carrying
:data:`~cockatrice_ext.bot.auction_delivery.DRAWN_LABEL` are moved into the hand), or, when its drawer left
meanwhile, its cards leave the game with them (:meth:`AuctionRestart.draw_left_with_drawer`).
"""

from __future__ import annotations

import collections
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cockatrice_ext.bot.auction_delivery import DRAWN_LABEL
from cockatrice_ext.bot.auction_journal import DEALING, drawn_in, drawn_unseen
from cockatrice_ext.bot.auction_parts import AuctionParts
from cockatrice_ext.bot.auction_view import _lost_phrase, agreeing, listed
from cockatrice_ext.bot.words import MAX_CHAT_LINE, shorten
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.journal import JournalError
from cockatrice_ext.protocol import commands as pc

LOGGER = logging.getLogger("cockatrice_ext.bot.auction")  # the referee's one logger


@dataclass(frozen=True)
class CutDraw:
    """A draw a stop may have cut short, as the referee finds it back in place: what the journal says was
    drawn and how big our piles were as it began (:data:`DEALING`), and what our table showed on return."""

    drawn: tuple[tuple[Any, int], ...]
    """(drawer, engine index) of each card drawn, in the order dealt."""
    deck_before: int
    """Our deck's size as the draw began."""
    sb_before: int
    """Our spares' (sideboard's) size as the draw began."""
    deck_read: int
    """Our deck's size as read when the referee came back."""
    face_down: tuple[int, ...]
    """The ids of the nameless, face-down cards on our table: a drawn card may be on its way."""


class AuctionRestart(AuctionParts):
    """Back in place: settling the time away, and finishing the card moves (and draws) a stop cut short."""

    async def on_reconnected(self) -> None:
        """Re-seated after a restart or a dropped connection: re-read our cards, settle once the players who
        went while the referee was away, finish the card moves the journal has and the table does not (a
        restart between a journaled ``!keep`` and its move), say where we are, start the bid timer again."""
        async with self._lock:
            if self.table is None or not await self.until_seats_known():
                return
            await self.read_own_deck()
            deck_read = len(self.own_deck.names)
            table = self.mirror.players[self.me].zone("table")
            here = {card.id for card in table.cards}
            pending = [r for r in self.journaled_returns() if r.card_id in here and r not in self.returned]
            waiting = {r.card_id for r in [*pending, *self.returned]}  # given back: not for finish_moves
            on_table: dict[str, list[int]] = {}
            face_down: list[int] = []  # nameless: a drawn card on its way (one given back is in waiting)
            for card in table.cards:
                if card.id in waiting:
                    continue
                if card.name:
                    on_table.setdefault(card.name, []).append(card.id)
                elif card.face_down:
                    face_down.append(card.id)
            self.on_table = {}
            held = list(self.engine.lot.cards if self.engine.lot else []) + [
                i for cards in self.engine.pending.values() for i in cards
            ]
            for index in held:
                ids = on_table.get(self.block.game_names[index])
                if ids:
                    self.on_table[index] = ids.pop(0)
            if self.live:  # before the departures are journaled: the draw is still the last action
                await self.draw_left_with_drawer(deck_read, face_down)
            if self.live and await self.settle_away():
                return
            if self.live:
                self.dealt_from_mirror()
            moved = await self.finish_moves(on_table) if self.live else []
            if self.live and not self.engine.is_over():
                moved += await self.finish_draw(deck_read, face_down)
                moved += await self.settle_returns(pending)
            said = " ".join(["Referee back.", *moved, ""])
            await self.say(shorten(said + self.status_line(max(100, MAX_CHAT_LINE - len(said)))))
            self.arm_timer()  # the bidder to move gets the whole time again
            if self.live:
                await self.pass_lost_turn()  # a stop may have come before it was passed

    _said_away: frozenset[str] | set[str] = frozenset()
    """While :meth:`settle_away` settles departures: the lines its one line already said ("alice left the
    game."), not said again by the departures' own effects (seen: "While the referee was away: alice left
    the game. | alice left the game.")."""

    async def settle_away(self) -> bool:
        """Players who left or conceded while the referee was away are out now, after one line saying so (the
        game's state read after the rejoin is the server's word). True if the game is over."""
        engine = self.engine
        if engine.is_over():
            return False
        gone = [(p, why) for p in engine.living() if (why := self.departed(p)) is not None]
        if not gone:
            return False
        parts = [f"{self.player_name(p)} {_lost_phrase(why)}" for p, why in gone]
        await self.say(f"While the referee was away: {'; '.join(parts)}.")
        self._said_away = {f"{part}." for part in parts}  # the departures' own lines would say it again
        try:
            await self.settle_departures()
        finally:
            self._said_away = set()
        return engine.is_over()

    def dealt_from_mirror(self) -> None:
        """After a restart the ids dealt before it are unknown: the cards the players show that the journal
        says they hold (by name, as many as they hold) count as dealt, and their hands, which the referee
        cannot see, are trusted for cards that are no token made since (:meth:`dealt_card`). A token made
        while the referee was away under a held card's name may pass here; every card dealt from now on is
        followed by id. A face-down card on a player's table shows no name: as many as the player holds cards
        drawn and never shown (:func:`drawn_unseen`) count as dealt (a drawn card not yet dragged into the
        hand could not be given back), and giving one back still names it to the referee alone."""
        engine = self.engine
        names = self.block.game_names
        unseen = drawn_unseen(self.bot.journal.entries(self.table_key)) if self.table is not None else set()
        for player in engine.living():
            seat = self.seat_of(player)
            if seat is None or seat not in self.mirror.players or self.dealt.get(seat):
                continue
            self.unseen_hands.add(seat)
            wanted: dict[str, int] = {}
            for zone in (engine.hand, engine.played, engine.command):
                for index in zone[player]:
                    wanted[names[index]] = wanted.get(names[index], 0) + 1
            face_down = sum(1 for index in engine.hand[player] if index in unseen)
            for zone_name in ("table", "hand"):
                for card in self.mirror.players[seat].zone(zone_name).cards:
                    if card.name and wanted.get(card.name, 0) > 0:
                        wanted[card.name] -= 1
                        self.note_dealt(seat, card.id)
                    elif zone_name == "table" and not card.name and card.face_down and face_down > 0:
                        face_down -= 1
                        self.note_dealt(seat, card.id)

    async def finish_moves(self, on_table: dict[str, list[int]]) -> list[str]:
        """Cards still on our table that the journal gives to a player (kept, cast, won, drawn) or puts in the
        block: the moves a stop cut short (effects are journaled before they are shown). Each is made now
        and said once; a card the referee cannot tell whose it is (two players hold a card of that name) is
        named with what to drag. ``on_table``: our table's cards by name, those of the lot and of pending
        purchases taken out. Returns the lines to say."""
        engine = self.engine
        names = self.block.game_names
        placed: dict[str, list[tuple[int, Any, bool]]] = {}  # name -> (index, player, into the hand)
        for player in engine.living():
            for zone, into_hand in ((engine.hand, True), (engine.played, False), (engine.command, False)):
                for index in zone[player]:
                    placed.setdefault(names[index], []).append((index, player, into_hand))
        in_block = {name: 0 for name in on_table}
        for index in engine.block:
            if names[index] in in_block:
                in_block[names[index]] += 1
        lines: list[str] = []
        unseen = drawn_unseen(self.bot.journal.entries(self.table_key)) if on_table else set()
        for name, ids in on_table.items():
            for card_id in ids:
                owners = placed.get(name, [])
                if len({player for _, player, _ in owners}) == 1:
                    index, player, into_hand = owners.pop(0)
                    self.on_table[index] = card_id
                    hidden = index in unseen  # a draw: face down, and named to its drawer alone
                    await self.hand_over(index, player, hand=into_hand, hidden=hidden)
                    where = "hand" if into_hand and self.is_judge else "table"
                    drag = " (drag it into your hand)" if into_hand and not self.is_judge else ""
                    if hidden:
                        await self.tell(
                            self.player_name(player), f"{name}, which you drew, is now on your {where}{drag}."
                        )
                    else:
                        lines.append(f"{name}, {self.player_name(player)}'s, is now on their {where}{drag}.")
                elif owners:
                    who = listed(sorted({self.player_name(player) for _, player, _ in owners}), last="or")
                    lines.append(
                        f"{name} is still on the referee's table: it belongs to {who}; its owner drags it"
                        " from there onto their own table."
                    )
                elif self.short_of(name, in_block.get(name, 0)):
                    await self.table_to_own_deck(card_id, name, top=True)  # the block's order is the engine's
        return lines

    def short_of(self, name: str, in_block: int) -> bool:
        """Whether our deck lacks a card the block holds (``in_block`` copies of ``name``): a card on our
        table the journal put back in the block, whose move a stop cut short. Dealing from the spares
        (:meth:`deal_face_down`), the deck counts the block; otherwise it holds the block's very cards."""
        if self.has_spares:
            return len(self.own_deck.names) < len(self.engine.block)
        return in_block > self.own_deck.names.count(name)

    async def draw_cards(self, player: Any, count: int) -> None:
        """``player`` draws ``count`` cards: where our piles stand is journaled first (:data:`DEALING`, for
        the draw's entry to come: a stop right after the draw is journaled still finds it), then the draw,
        then its cards move (:meth:`perform`)."""
        await self.note_dealing()
        await self.perform(self.apply(rules.Draw(player=player, count=count)))

    async def note_dealing(self) -> None:
        """Journal (:data:`DEALING`) how many cards our deck and spares hold before a draw, under the
        sequence number its journal entry will have; a journal that cannot be written only costs that
        repair (a warning)."""
        if self.table is None or self.bot.journal.refusing:
            return
        if self.has_spares:
            await self.read_spares()  # read now, as the draw's first card would (its size is counted)
        journal, key = self.bot.journal, self.table.key
        dealing = {
            "game": self.game_id,
            "seq": self.table.seq + 1,
            "deck": len(self.own_deck.names),
            "sb": len(self.own_sb.names),
        }
        try:
            journal.set_table_meta(key, {**journal.table_meta(key), DEALING: dealing})
        except JournalError as exc:
            LOGGER.warning("game %d: a draw's start was not journaled: %s", self.game_id, exc)

    async def finish_draw(self, deck_read: int, face_down: list[int]) -> list[str]:
        """The cards of the journal's last action, a draw, that a stop kept from reaching their drawer: still
        in our spares (or deck), or face down on our table on their way. ``deck_read``: our deck's size as
        read when the referee came back; ``face_down``: the nameless cards on our table.

        How many left our piles is the deck's size now against :data:`DEALING`'s (each card dealt takes one
        card out of the deck: the spare's deck card burned into the spares in the same message, or the deck's
        own); a spare that left without its burn (a stop between the two) is burned first. The last card to
        leave lies face down on our table unless it reached its drawer: the referee peeks at the newest such
        card and takes it on when its name is that card's. The rest are dealt face down as the draw deals
        them, named to their drawer alone. Returns the public lines (no card named)."""
        cut = self.draw_cut_short(deck_read, face_down)
        if cut is None:
            return []
        lines = await self._finish_draw(cut)
        self.forget_dealing()
        return lines

    def draw_cut_short(self, deck_read: int, face_down: list[int]) -> CutDraw | None:
        """The draw whose moves a stop may have cut short: the journal's last action, when :data:`DEALING`
        was journaled for it, with what our table showed on return (``deck_read``, ``face_down``: see
        :class:`CutDraw`). None when there is none."""
        if self.table is None:
            return None
        journal = self.bot.journal
        dealing = journal.table_meta(self.table_key).get(DEALING)
        entries = collections.deque(journal.entries(self.table_key), maxlen=1)
        if not isinstance(dealing, dict) or not entries:
            return None
        last = entries[0]
        if dealing.get("game") != self.game_id or dealing.get("seq") != last.seq:
            return None  # the draw's moves were done before a later action, or another game's record
        drawn = drawn_in(last)
        if not drawn:
            return None  # the draw was refused: the next action took its number
        try:
            deck_before, sb_before = int(dealing["deck"]), int(dealing["sb"])
        except (KeyError, TypeError, ValueError):
            return None
        return CutDraw(tuple(drawn), deck_before, sb_before, deck_read, tuple(face_down))

    def forget_dealing(self) -> None:
        """The cut draw is settled: a later restart with no action since finds nothing to finish."""
        journal = self.bot.journal
        if self.table is None or journal.refusing:
            return
        with contextlib.suppress(JournalError):
            meta = journal.table_meta(self.table_key)
            meta.pop(DEALING, None)
            journal.set_table_meta(self.table_key, meta)

    async def draw_left_with_drawer(self, deck_read: int, face_down: list[int]) -> None:
        """Back after a stop that cut a draw short, when its drawer left (or conceded, or was dropped) while
        the referee was away: the drawn cards still in our piles leave the game with them (800.4a), so the
        deck counts the block again. Nothing is shown: each card that never left the piles takes one deck
        card into our sideboard (outside the game), and the card on its way, face down on our table, goes
        there too. Settled before the departure is journaled (the draw is still the journal's last action,
        so the record still matches), whether or not the departure ends the game."""
        cut = self.draw_cut_short(deck_read, face_down)
        if cut is None or not self.has_spares:  # a game without spares deals every card from the deck
            return
        drawers = {player for player, _ in cut.drawn}
        if any(self.departed(player) is None for player in drawers):
            return  # a drawer still plays: finish_draw deals them the rest once the others are settled
        delivered, on_way = await self._draw_progress(cut)
        rest = cut.drawn[delivered:]
        moves: list[Any] = []
        if on_way is not None:
            name = self.block.game_names[rest[0][1]]
            moves.append(
                pc.move_card("table", [on_way], target_player_id=self.me, target_zone="sb", x=-1, y=0)
            )
            self.own_sb.put(name, top=False)
            self.on_table.pop(rest[0][1], None)
            rest = rest[1:]
        for _ in rest:
            moves += self.deck_top_to_spares_moves()
        if moves:
            await self.run(*moves)
        self.forget_dealing()

    async def _finish_draw(self, cut: CutDraw) -> list[str]:
        """:meth:`finish_draw` once its record matched: the moves and the lines."""
        drawn = cut.drawn
        delivered, on_way = await self._draw_progress(cut)
        rest = drawn[delivered:]
        unmoved = self.delivered_unmoved(drawn[:delivered])
        if not rest and not unmoved:
            return []
        if on_way is not None:
            self.on_table[rest[0][1]] = on_way
        lines: list[str] = []
        for player in dict.fromkeys(player for player, _ in [*drawn[:delivered], *rest]):
            indices = [index for who, index in rest if who == player]
            await self.hand_over_all(indices, player, hidden=True)
            seat = self.seat_of(player) if player in self.engine.living() else None
            if seat is None:
                continue  # they took them out of the game with them (800.4a)
            if unmoved.get(player):
                await self.into_hand(seat, [card_id for card_id, _ in unmoved[player]])
                indices = [index for _, index in unmoved[player]] + indices
            if not indices:
                continue
            names = [self.block.game_names[i] for i in indices]
            them = agreeing(len(names), "it", "them")
            yours = "in your hand" if self.is_judge else f"on your table (drag {them} into your hand)"
            is_are = agreeing(len(names), "is", "are")
            await self.tell(
                self.player_name(player), f"{listed(names)}, which you drew, {is_are} now {yours}."
            )
            cards = f"{len(names)} {agreeing(len(names), 'card', 'cards')}"
            theirs = "in their hand" if self.is_judge else "on their table, face down"
            lines.append(f"The rest of {self.player_name(player)}'s draw, {cards}, is now {theirs}.")
        return lines

    async def _draw_progress(self, cut: CutDraw) -> tuple[int, int | None]:
        """How far a cut draw got: how many of its cards reached their drawer's table, and the id of the one
        on its way (face down on our table, peeked at), if any. A spare that left without its burn (a stop
        between the two) is burned first."""
        deck_read = cut.deck_read
        if self.has_spares and cut.sb_before > 0:
            await self.read_spares()
            short = cut.sb_before - len(self.own_sb.names)
            for _ in range(max(0, min(short, len(self.own_deck.names)))):
                await self.deck_top_to_spares()
                deck_read -= 1
        left = max(0, min(len(cut.drawn), cut.deck_before - deck_read))  # the drawn cards that left our piles
        on_way = None
        if left and cut.face_down:
            newest = max(cut.face_down)
            if await self.peek_at(newest) == self.block.game_names[cut.drawn[left - 1][1]]:
                on_way = newest
        return left - (on_way is not None), on_way  # delivered: a judge still moves them into the hand

    def delivered_unmoved(self, delivered: Sequence[tuple[Any, int]]) -> dict[Any, list[tuple[int, int]]]:
        """As a judge, the ``delivered`` cards of a draw a stop cut short (drawer, engine index; in the order
        dealt) that lie face down on their drawer's table, never moved into the hand: drawer -> (card id,
        index). They carry :data:`DRAWN_LABEL` (a hand clears a note), and the newest such cards are the
        draw's last ones (Servatrice numbers a player's new cards upwards). Without judge rights they stay:
        the drawer drags them, as the draw's line told them."""
        found: dict[Any, list[tuple[int, int]]] = {}
        if not self.is_judge:
            return found
        for player in dict.fromkeys(player for player, _ in delivered):
            seat = self.seat_of(player) if player in self.engine.living() else None
            if seat is None or seat not in self.mirror.players:
                continue
            indices = [index for who, index in delivered if who == player]
            labelled = sorted(
                card.id
                for card in self.mirror.players[seat].zone("table").cards
                if card.face_down and not card.name and DRAWN_LABEL in card.annotation
            )
            ids = labelled[-len(indices) :] if indices else []
            # the newest labelled cards are this draw's last delivered ones (an earlier card may be in hand)
            found[player] = list(zip(ids, indices[len(indices) - len(ids) :], strict=True))
        return found
