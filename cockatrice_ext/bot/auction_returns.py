"""Cards players give back to the Auction block (:class:`AuctionReturns`): a card dropped on the referee's
table waits for its player's ``!top`` or ``!bottom`` (default top, once the auction step starts), then goes
into the block where the rules put it (``ReturnToBlock``).

Only a card the referee dealt is taken back
(:meth:`~cockatrice_ext.bot.auction_delivery.AuctionDelivery.dealt_card`); anything else goes back onto its
player's table. A face-down card is peeked at (its name alone says which card goes back) and is not named to
the table. Cards that come back because their holder conceded leave the game with them (800.4a). The cards
still waiting are journaled (:data:`~cockatrice_ext.bot.auction_journal.RETURNED`), so they wait again
after a restart in place (:meth:`AuctionReturns.settle_returns`) or on the referee's table of the game
``!resume`` opens (:meth:`AuctionReturns.returns_to_deal`).
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from cockatrice_ext.bot.auction_journal import RETURNED
from cockatrice_ext.bot.auction_parts import AuctionParts
from cockatrice_ext.bot.auction_piles import DEAL_ROW
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.formats.base import RulesError
from cockatrice_ext.journal import JournalError
from cockatrice_ext.protocol import commands as pc

LOGGER = logging.getLogger("cockatrice_ext.bot.auction")  # the referee's one logger


@dataclass
class _Returned:
    """A card a player dropped on the bot's table, waiting for !top / !bottom (``face_down``: its name, which
    the referee peeked at, is not said)."""

    card_id: int
    name: str
    player: Any  # engine player
    face_down: bool = False


class AuctionReturns(AuctionParts):
    """Cards given back: taken on, placed on the block, journaled while they wait."""

    async def on_card_moved(self, event: ClientEvent) -> None:
        """A player dropped a card on our table: it goes back to the block (top unless they say !bottom).

        Cards that come back because their holder conceded leave the game with them (800.4a).
        """
        move = event.message
        if move.target_player_id != self.me or move.target_zone != "table":  # type: ignore[attr-defined]
            return
        card_id = move.new_card_id if move.new_card_id >= 0 else move.card_id  # type: ignore[attr-defined]
        name = move.card_name  # type: ignore[attr-defined]
        if event.context_name == "Context_Concede":
            await self.settle_departures()
        mover = self.engine_player(event.player_id)
        if mover is None or mover not in self.engine.living():
            await self.run(pc.move_card("table", [card_id], target_player_id=self.me, target_zone="rfg"))
            return
        if not self.dealt_card(event):
            # Seen in the security test: a token named like a bought card was taken back, the real card kept.
            await self.back_to_player(card_id, mover)
            await self.say(  # its name is not said: a token's name is any text its maker chose
                f"{self.player_name(mover)}: the referee takes back only a card it dealt you (that card is"
                " not one: a token or a card of your own); it is back on your table."
            )
            return
        face_down = bool(getattr(move, "face_down", False))
        if not name:
            name = await self.peek_at(card_id)
        if not name:  # never seen: it cannot go back to the block by name, so it goes back to its player
            await self.back_to_player(card_id, mover)
            await self.say(
                f"{self.player_name(mover)}: the referee cannot read that face-down card; it is back on your"
                " table: give it back face up."
            )
            return
        self.returned.append(_Returned(card_id, name, mover, face_down))
        self.note_returned()
        given = "a face-down card" if face_down else name
        await self.say(
            f"{self.player_name(mover)} gives back {given}: !top or !bottom of the block (default top)."
        )

    async def back_to_player(self, card_id: int, player: Any) -> None:
        """A card a player gave back that cannot go to the block: onto their table again, in a free column."""
        seat = self.seat_of(player)
        if seat is not None:
            x = self.free_x(seat, DEAL_ROW)
            await self.run(
                pc.move_card("table", [card_id], target_player_id=seat, target_zone="table", x=x, y=DEAL_ROW)
            )

    async def peek_at(self, card_id: int) -> str:
        """The name of a face-down card on our table, revealed to the referee alone (Cockatrice's "peek"):
        a player may give a card back face down, and only its name says which card goes back to the block."""
        card = self.mirror.players[self.me].zone("table").find(card_id)
        if card is not None and card.name:
            return card.name
        await self.run(pc.reveal_cards("table", [card_id], player_id=self.me))
        card = self.mirror.players[self.me].zone("table").find(card_id)  # the reveal came before its answer
        return card.name if card is not None else ""

    async def place_returned(self, pending: _Returned, position: str) -> None:
        """A card given back goes to the block's ``position``, or back to its player when the rules refuse.
        Its journaled wait (:data:`RETURNED`) ends once its card has moved: a stop before that finds it
        again (:meth:`settle_returns`)."""
        self.returned.remove(pending)
        try:
            effects = self.apply(
                rules.ReturnToBlock(
                    player=pending.player, card=pending.name, position=position, face_down=pending.face_down
                )
            )
        except RulesError as exc:
            await self.back_to_player(pending.card_id, pending.player)
            self.note_returned()
            await self.say(
                shorten(
                    f"{self.player_name(pending.player)}:"
                    f" {'that card' if pending.face_down else pending.name} sent back ({self.explain(exc)})."
                )
            )
            return
        await self.perform(effects, returned_card_id=pending.card_id)
        self.note_returned()

    def note_returned(self) -> None:
        """Journal (:data:`RETURNED`) the cards given back that wait for ``!top`` / ``!bottom``; a journal
        that cannot be written only costs their memory across a stop (a warning)."""
        if self.table is None or self.bot.journal.refusing:
            return
        journal, key = self.bot.journal, self.table_key
        cards = [
            {"card": r.card_id, "name": r.name, "player": r.player, "face_down": r.face_down}
            for r in self.returned
        ]
        try:
            meta = journal.table_meta(key)
            if not cards and RETURNED not in meta:
                return
            journal.set_table_meta(key, {**meta, RETURNED: {"game": self.game_id, "cards": cards}})
        except JournalError as exc:
            LOGGER.warning("game %d: a card given back was not journaled: %s", self.game_id, exc)

    def journaled_returns(self, game_id: int | None = None) -> list[_Returned]:
        """The cards given back that :data:`RETURNED` says wait on game ``game_id``'s referee table (this
        game's by default), as players gave them."""
        if self.table is None:
            return []
        record = self.bot.journal.table_meta(self.table_key).get(RETURNED)
        wanted = self.game_id if game_id is None else game_id
        if not isinstance(record, dict) or record.get("game") != wanted:
            return []
        players = {str(p): p for p in self.engine.players}  # journaled as JSON: a player as it was stored
        found: list[_Returned] = []
        for item in record.get("cards", ()):
            with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError):
                player = players.get(str(item["player"]))
                if player is not None:
                    found.append(
                        _Returned(int(item["card"]), str(item["name"]), player, bool(item["face_down"]))
                    )
        return found

    def holds(self, player: Any, name: str) -> list[int]:
        """The engine indices of ``player``'s cards called ``name`` that may go back to the block (hand, then
        in play: as ``ReturnToBlock`` finds them)."""
        engine, names = self.engine, self.block.game_names
        return [
            index
            for zone in (engine.hand, engine.played)
            for index in zone.get(player, ())
            if name in (names[index], engine.ref(index).name)
        ]

    async def settle_returns(self, pending: list[_Returned]) -> list[str]:
        """Back after a stop: the cards given back that the journal says wait on our table (``pending``,
        still there) wait again; one the rules put in the block already (the stop came before its move) goes
        into our deck; one whose player is out leaves the game with them. Returns the public lines."""
        lines: list[str] = []
        engine = self.engine
        for returned in pending:
            player = returned.player
            if player not in engine.living():
                await self.run(
                    pc.move_card("table", [returned.card_id], target_player_id=self.me, target_zone="rfg")
                )
            elif self.holds(player, returned.name):
                self.returned.append(returned)
                given = "a face-down card" if returned.face_down else returned.name
                who = self.player_name(player)
                lines.append(f"{who} gave back {given}: !top or !bottom of the block (default top).")
            else:
                in_block = sum(1 for i in engine.block if self.block.game_names[i] == returned.name)
                if self.short_of(returned.name, in_block):
                    await self.table_to_own_deck(returned.card_id, returned.name, top=True)
        self.note_returned()
        return lines

    def returns_to_deal(self, unseen: set[int]) -> dict[Any, list[tuple[int, _Returned]]]:
        """A game rebuilt by ``!resume``: the cards given back in the lost game that still waited for
        ``!top`` / ``!bottom`` (:data:`RETURNED`), each matched to one card its player holds (for a face-down
        one, a card drawn unseen first): player -> (engine index, the wait). They go onto the new referee
        table to wait again, not into their player's hands."""
        if self.continues is None:
            return {}
        chosen: dict[Any, list[tuple[int, _Returned]]] = {}
        taken: set[int] = set()
        for returned in self.journaled_returns(self.continues):
            if returned.player not in self.engine.living():
                continue
            held = [i for i in self.holds(returned.player, returned.name) if i not in taken]
            if returned.face_down:
                held.sort(key=lambda index: index not in unseen)
            if held:
                taken.add(held[0])
                chosen.setdefault(returned.player, []).append((held[0], returned))
        return chosen
