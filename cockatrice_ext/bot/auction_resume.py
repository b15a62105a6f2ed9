"""An Auction game whose seat the referee lost, rebuilt by ``!resume`` (:class:`AuctionResume`).

An unregistered account loses its seat when it disconnects, so ``!resume`` opens a new Cockatrice game that
continues the journaled one (:meth:`AuctionResume.rebuild`): the referee's deck is every card the journal
says is not out of the game, and once the game starts every card goes back where the journal says it is
(:meth:`AuctionResume.restore_board`): bought cards labelled with their price again, drawn cards never named
to the table dealt face down and named to their drawer alone, cards given back waiting again on the
referee's table, gold, the open lot with its standing bid, and the turn passed on to the player whose turn it
was. Until then only the game's players still in it may sit (:meth:`SeatsByName.turn_away`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict
from typing import TYPE_CHECKING

from cockatrice_ext.bot.auction_journal import DEALING, bought_labels, drawn_unseen
from cockatrice_ext.bot.auction_options import AuctionOptions
from cockatrice_ext.bot.auction_parts import AuctionParts
from cockatrice_ext.bot.auction_view import listed, lot_note, to_hand_line
from cockatrice_ext.bot.blocks import LoadedBlock
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.words import MAX_CHAT_LINE
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.journal import JournalError, Table

if TYPE_CHECKING:
    from cockatrice_ext.bot.auction import AuctionReferee


class AuctionResume(AuctionParts):
    """``!resume``: a new game continuing a journaled one, its board dealt back as the journal has it."""

    @classmethod
    async def rebuild(cls, bot: Bot, room_id: int, key: str, requested_by: str) -> AuctionReferee:
        """``!resume``: a new Cockatrice game continuing the journaled game ``key`` whose seat was lost.

        The bot's deck is every card the journal says is not out of the game: the remaining block, the
        open lot and bought cards waiting for a choice (back on the bot's table), and what each player
        held (dealt back to them when the game starts). Gold and the open lot come from the journal.

        Raises:
            JournalError: the journal cannot be replayed, or lacks what a rebuild needs.
            NotAllowed: the game is over.
        """
        journaled = cls.journaled_game(bot, key, AuctionOptions, rules.AuctionEngine, requested_by)
        meta, options, engine, engine_names = journaled
        game_names = [str(n) for n in meta.get("game_names", [])]
        if len(game_names) != len(engine.config.cards):
            raise JournalError("the journaled block does not match its cards")
        living = engine.living()
        held = [
            *engine.block,
            *(engine.lot.cards if engine.lot is not None else []),
            *(i for p in engine.players for i in engine.pending[p]),
            *(i for p in living for zone in (engine.hand, engine.played, engine.command) for i in zone[p]),
        ]
        block = LoadedBlock(
            name=options.block,
            facts=tuple(engine.config.cards),
            game_names=tuple(game_names),
            pile=tuple(game_names[i] for i in held),  # the deck and its spares (create)
        )
        options = dataclasses.replace(options, seats=len(living))
        referee: AuctionReferee = await cls.create(
            bot,
            room_id,
            options,
            block,
            requested_by=requested_by,
            starting_life=40 if options.commander else 20,
        )
        new_meta = {**meta, "options": asdict(options), "game_id": referee.game_id, "rebuilt_from": key}
        new_meta.pop(DEALING, None)  # the old game's piles: the rebuilt game deals every card anew
        referee.bot.journal.copy_table(key, referee.table_key, meta=new_meta)
        referee.table = Table.restore(referee.bot.journal, referee.table_key)
        referee.engine_names = engine_names
        referee.continues = int(meta.get("game_id", 0)) or None
        return referee

    async def restore_board(self) -> None:
        """The rebuilt game started: deal every card back where the journal says it is (a bought card
        labelled with its price again), show gold and the open lot, then pass the turn to the player whose
        turn it was."""
        engine = self.engine
        if not await self.read_own_deck():  # stopped as it started: put back when it starts again
            return
        self.live = True
        self._labels.update(bought_labels(self.bot.journal.entries(self.table_key)))
        lot = engine.lot
        for index in list(lot.cards if lot is not None else []):
            if lot is not None and lot.kind == "owned":  # cards up for sale by a player stay with them
                await self.hand_over(index, lot.seller, hand=lot.origins.get(index) == "hand")
            else:
                await self.to_my_table(index)
        for player in engine.players:
            for index in engine.pending[player]:
                card_id = await self.to_my_table(index)
                if card_id is not None:
                    await self.annotate(card_id, f"Bought by {self.player_name(player)}: !cast or !keep")
        instructions: list[str] = []
        unseen = drawn_unseen(self.bot.journal.entries(self.table_key))
        waiting = self.returns_to_deal(unseen)
        for player in engine.living():
            aside = {index for index, _ in waiting.get(player, [])}  # given back: onto our table instead
            in_hand = [i for i in engine.hand[player] if i not in unseen and i not in aside]  # named to all
            drawn = [i for i in engine.hand[player] if i in unseen and i not in aside]  # to them alone
            for index in in_hand:
                await self.hand_over(index, player, hand=True)
            for index in drawn:
                await self.hand_over(index, player, hand=True, hidden=True)
            for index in [*engine.played[player], *engine.command[player]]:
                if index not in aside:
                    await self.hand_over(index, player, hand=False)
            for index, returned in waiting.get(player, []):
                if returned.face_down:  # dealt as a draw is: an id nobody saw with its name
                    card_id = await self.deal_face_down(self.block.game_names[index])
                else:
                    card_id = await self.to_my_table(index)
                    self.on_table.pop(index, None)
                if card_id is not None:
                    self.returned.append(dataclasses.replace(returned, card_id=card_id))
                    given = "a face-down card" if returned.face_down else returned.name
                    instructions.append(
                        f"{self.player_name(player)} gave back {given}: it waits on the referee's table;"
                        " !top or !bottom of the block (default top)."
                    )
            if in_hand and not self.is_judge:
                instructions.append(
                    to_hand_line(self.player_name(player), [self.block.game_names[i] for i in in_hand])
                )
            if drawn:
                names = listed(self.block.game_names[i] for i in drawn)
                where = (
                    "in your hand" if self.is_judge else "face down on your table: drag them into your hand"
                )
                game = f" in game #{self.continues}" if self.continues else ""
                await self.tell(
                    self.player_name(player),
                    f"The cards you drew{game}, back {where}: {names}.",
                )
        self.note_returned()
        continued = f"Game #{self.continues}" if self.continues else "The game"
        said = f"{continued} continues here: "
        await self.say(said + self.status_line(MAX_CHAT_LINE - len(said)))
        for line in instructions:
            await self.say(line)
        await self.show_lot(
            lot_note(engine, self.player_name, with_gold=not self.is_judge, card_names=self.block.game_names)
        )
        await self.show_counters({p: engine.gold(p) for p in engine.living()}, [])
        if engine.active is not None:
            self._turn_target = self.seat_of(engine.active)
        self.arm_timer()
