"""The board of one refereed game: the game commands a referee sends, and the bot's own hidden zones.

Why a module of its own: what the rules decide is journaled and said whatever the board shows, so every
game command goes out through one place (:meth:`GameBoard._send`) that drops it once the game no longer
takes commands, and keeps what only draws the board for a game that has not started yet. The shared piles
(an auction block, a Vortex shoe) are the bot's own deck: :class:`OwnDeck` keeps its order in step with every
card moved, because Servatrice addresses a hidden zone's cards by position, not by id.

:class:`GameBoard` is a mixin of :class:`~cockatrice_ext.bot.referee.GameReferee`, which holds the state
it reads (its bot, game number, mirror, own deck).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from cockatrice_ext.bot.chat import bidi_isolated
from cockatrice_ext.client._wire import command_name
from cockatrice_ext.client.errors import ClientError, GameNotStarted, NotInRoom
from cockatrice_ext.client.mirror import CardState, GameMirror
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol.codes import CardAttribute, Zone

if TYPE_CHECKING:
    from cockatrice_ext.bot.runtime import Bot

LOGGER = logging.getLogger(__name__)

GRID_POINTS_PER_CARD = 3
"""Cockatrice's table grid: x // 3 is the card column; x % 3 stacks cards on one another."""


@dataclass
class OwnDeck:
    """One of the bot's own hidden zones (its deck, its sideboard) as the server holds it: card names by
    position (0 = top), and whether each card's id was ever shown with its name (``seen``: a card the referee
    put back, or one it cannot vouch for after a restart; Servatrice lists a hidden zone's cards by position,
    not by id).

    Cards in a hidden zone are addressed by position, and the server shuffles every deck when the
    game starts, so a referee reads its deck once (``Command_DumpZone``) and then keeps this list in
    step with every card it moves in or out. The engine decides *which* card; this finds *where*.
    """

    names: list[str] = field(default_factory=list)
    seen: list[bool] = field(default_factory=list)

    def load(self, names: Iterable[str], seen: Iterable[bool] = ()) -> None:
        """The zone as read from the server, with each card's seen mark (unseen where none is given)."""
        self.names = list(names)
        marks = list(seen)[: len(self.names)]
        self.seen = marks + [False] * (len(self.names) - len(marks))

    def position(
        self, name: str, exclude: set[int] | None = None, *, unseen: bool = False, seen: bool = False
    ) -> int | None:
        """The first position holding ``name`` (skipping ``exclude``; with ``unseen``, only a card whose id
        was never shown with its name; with ``seen``, only one whose id was), or None."""
        for position, candidate in enumerate(self.names):
            if candidate != name or (exclude is not None and position in exclude):
                continue
            if (unseen and self._seen(position)) or (seen and not self._seen(position)):
                continue
            return position
        return None

    def positions(self, names: list[str]) -> list[int]:
        """Distinct positions for ``names`` (two copies of a card get two positions)."""
        found: list[int] = []
        for name in names:
            position = self.position(name, exclude=set(found))
            if position is not None:
                found.append(position)
        return found

    def position_unseen(self) -> int:
        """The first position whose card was never seen (0 when every card was)."""
        return next((p for p in range(len(self.names)) if not self._seen(p)), 0)

    def _seen(self, position: int) -> bool:
        return position < len(self.seen) and self.seen[position]

    def take(self, position: int) -> str:
        """Take the card at ``position`` out (its seen mark goes with it: :meth:`took_seen`)."""
        self.took_seen = self._seen(position)
        if position < len(self.seen):
            self.seen.pop(position)
        return self.names.pop(position)

    took_seen: bool = False
    """Whether the card :meth:`take` last took had been seen."""

    def put(self, name: str, *, top: bool, seen: bool = False) -> None:
        """A card called ``name`` in, on top or at the bottom; ``seen``: its id was shown with its name."""
        self.seen += [False] * (len(self.names) - len(self.seen))
        if top:
            self.names.insert(0, name)
            self.seen.insert(0, seen)
        else:
            self.names.append(name)
            self.seen.append(seen)


class RefereeParts:
    """What each part of ``GameReferee`` (:class:`GameBoard`, ``absent.AbsentPlayers``) reads of the whole:
    declared for type checkers, given by ``GameReferee`` at run time."""

    bot: Bot
    game_id: int
    closed: bool

    if TYPE_CHECKING:

        @property
        def mirror(self) -> GameMirror: ...

        @property
        def me(self) -> int: ...


class GameBoard(RefereeParts):
    """Game commands and the bot's own cards of one game (a mixin of ``GameReferee``)."""

    own_deck: OwnDeck
    _was_started: bool
    _before_start: list[tuple[tuple[Any, ...], int | None]]

    @property
    def board_open(self) -> bool:
        """Whether the game's board still takes game commands: we referee it, the server still has us in it
        and it is started (Cockatrice stops a game, clearing its zones, once fewer than two seats play on)."""
        if self.closed or self.game_id not in self.bot.client.games:
            return False
        mirror = self.mirror
        return mirror.started and not (mirror.closed or mirror.kicked)

    async def run(self, *commands: Any) -> None:
        """Send game commands in order (paced by the client's flood gate).

        Game commands only show things on the board. Once the game no longer takes them (we left it; it
        stopped, closed or is gone: ``RespGameNotStarted``, ``RespNotInRoom``) they are dropped with an info
        line, never an error: what the rules decided is journaled and said whatever the board shows.
        """
        await self._send(commands)

    async def judge(self, seat: int, commands: Iterable[Any]) -> Any:
        """Run ``commands`` acting as player ``seat`` (``Command_Judge``), dropped as :meth:`run` drops
        them; the response, or None when dropped."""
        return await self._send(tuple(commands), seat=seat)

    async def _send(self, commands: tuple[Any, ...], *, seat: int | None = None) -> Any:
        """The one place game commands are sent from, and dropped once the game no longer takes them."""
        if not commands:
            return None
        if self.closed or self.game_id not in self.bot.client.games:
            LOGGER.debug("game %d: no longer ours; %d game command(s) dropped", self.game_id, len(commands))
            return None
        try:
            if seat is None:
                return await self.bot.client.game_commands(self.game_id, list(commands))
            return await self.bot.client.judge_commands(self.game_id, seat, list(commands))
        except (GameNotStarted, NotInRoom) as exc:
            if isinstance(exc, GameNotStarted) and self.not_started_yet:
                self._hold_until_started(commands, seat)
                return None
            LOGGER.info(
                "game %d: no longer takes game commands (%s); the board is not updated", self.game_id, exc
            )
            return None

    MAX_HELD_COMMANDS: ClassVar[int] = 200
    """Game commands kept, at most, while a game has not started yet (the oldest go first)."""
    DRAWING_COMMANDS: ClassVar[frozenset[str]] = frozenset(
        {"Command_SetCardAttr", "Command_CreateToken", "Command_SetCounter", "Command_CreateCounter"}
    )
    """What a not-yet-started game's refusal keeps for its start: commands that only draw the board. A turn
    passed or a card moved before the start would act on a game that is not the one meant: dropped."""

    @property
    def not_started_yet(self) -> bool:
        """Whether the game has never started here (players still joining): not a game that stopped."""
        if self._was_started or self.closed or self.game_id not in self.bot.client.games:
            return False
        mirror = self.mirror
        return not (mirror.started or mirror.closed or mirror.kicked)

    def _hold_until_started(self, commands: tuple[Any, ...], seat: int | None) -> None:
        """The server refused commands because the game has not started yet: keep them for its start
        (:meth:`send_held`), when the board takes them; the game still takes commands."""
        drawing = tuple(c for c in commands if command_name(c) in self.DRAWING_COMMANDS)
        if drawing:
            self._before_start.append((drawing, seat))
            del self._before_start[: -self.MAX_HELD_COMMANDS]
        LOGGER.debug(
            "game %d has not started yet: %d game command(s) kept until it starts, %d dropped",
            self.game_id,
            len(drawing),
            len(commands) - len(drawing),
        )

    async def send_held(self) -> None:
        """The game started: send what it refused before, in order, ahead of what the start itself draws
        (which then has the last word); a refusal now is logged, never fatal."""
        held, self._before_start = self._before_start, []
        for commands, seat in held:
            try:
                await self._send(commands, seat=seat)
            except ClientError as exc:
                LOGGER.info("game %d: a command kept until the start was refused: %s", self.game_id, exc)

    # -- the bot's own cards (shared piles live in its deck) ------------------------------------------

    def free_x(self, seat: int, row: int | None = None) -> int:
        """The grid x of the first card column of ``seat``'s table with no card in ``row`` (any row when
        None), so that no card hides another."""
        player = self.mirror.players.get(seat)  # a player gone meanwhile has no table left
        cards = player.zone(Zone.TABLE.value).cards if player is not None else []
        used = {
            card.x // GRID_POINTS_PER_CARD for card in cards if card.x >= 0 and (row is None or card.y == row)
        }
        return GRID_POINTS_PER_CARD * next(column for column in itertools.count() if column not in used)

    @property
    def is_judge(self) -> bool:
        """Whether the server seated us as a judge (we may then act for players)."""
        return bool(self.mirror.judge)

    @property
    def watching(self) -> bool:
        """Whether we referee from a judge's spectator seat (no zones, counters or turns of our own: note
        cards go on the players' tables and turns are passed for the player whose turn it is)."""
        return bool(self.mirror.spectator)

    def note_card(self, seat: int, name: str) -> CardState | None:
        """The card named ``name`` on ``seat``'s table, as the mirror knows it."""
        player = self.mirror.players.get(seat)
        table = player.zones.get(Zone.TABLE.value) if player is not None else None
        return next((card for card in table.cards if card.name == name), None) if table else None

    async def show_note_card(self, seat: int, name: str, note: str, number: str = "") -> None:
        """Show words (``note``, the card's annotation) and a short ``number`` (where the client prints
        power and toughness) on a token named ``name`` on ``seat``'s table: ours directly, a player's
        acting as them (a judge only). The real client prints both on the table; extra counters, by
        contrast, stack unlabelled below a player's seven standard ones and spill into the next player's
        area. Created on first use (and again if a player moved it away); then only changes are sent."""
        if seat != self.me and not self.is_judge:
            return
        note = bidi_isolated(note)  # a right-to-left name keeps its place, as in chat

        async def commands(wanted: list[Any]) -> None:
            if seat == self.me:
                await self.run(*wanted)
            else:
                await self.judge(seat, wanted)

        card = self.note_card(seat, name)
        if card is None:
            token = pc.create_token(
                name, pt=number or None, annotation=note, destroy_on_zone_change=True, x=0, y=2
            )
            await commands([token])
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 3.0  # wait for its event, so the next change updates this card
            while self.note_card(seat, name) is None and loop.time() < deadline and self.board_open:
                await asyncio.sleep(0.01)
            return
        wanted = []
        if card.annotation != note:
            wanted.append(pc.set_card_attr(Zone.TABLE.value, card.id, CardAttribute.AttrAnnotation, note))
        if number and card.pt != number:
            wanted.append(pc.set_card_attr(Zone.TABLE.value, card.id, CardAttribute.AttrPT, number))
        if wanted:
            await commands(wanted)

    async def pass_turn(self) -> None:
        """End the current Cockatrice turn: ours, or (watching as a judge) the active player's for them."""
        active = self.mirror.active_player_id
        try:
            if not self.watching:
                await self.run(pc.next_turn())
            elif self.is_judge and active in self.mirror.players:
                await self.judge(active, [pc.next_turn()])
        except ClientError as exc:
            LOGGER.info("game %d: could not pass the turn: %s", self.game_id, exc)

    async def read_own_deck(self, zone_name: str = "deck", into: OwnDeck | None = None) -> bool:
        """Learn our deck's order (names) from the server (or that of our ``zone_name``, into ``into``);
        False (an info line, the list unchanged) when the game stopped or went before the server answered: a
        player who leaves the moment the game starts stops it (``RespGameNotStarted``) or closes it, and the
        referee then has no deck to read. Every card read is taken for unseen (:meth:`seen_before`)."""
        game = None if self.closed else self.bot.client.games.get(self.game_id)
        if game is None or game.closed or game.kicked:
            LOGGER.info("game %d is gone: the referee did not read its deck", self.game_id)
            return False
        try:
            response = await self.bot.client.game_command(self.game_id, pc.dump_zone(self.me, zone_name))
        except (GameNotStarted, NotInRoom) as exc:
            LOGGER.info("game %d stopped before the referee read its deck (%s)", self.game_id, exc)
            return False
        zone = getattr(response.payload, "zone_info", None)
        names = [card.name for card in zone.card_list] if zone is not None else []
        (self.own_deck if into is None else into).load(names)  # a format that puts cards back marks them
        return True

    async def wait_new_card(
        self,
        player: int,
        before: set[int],
        *,
        name: str = "",
        exclude: Iterable[int] = (),
        timeout: float = 3.0,
    ) -> int | None:
        """The id of a card that appeared on ``player``'s table (not in ``before``), as the mirror sees it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        skip = set(before) | set(exclude)
        while loop.time() < deadline and self.board_open:  # a stopped game's board shows nothing new
            seat = self.mirror.players.get(player)
            if seat is None:  # the player left meanwhile
                return None
            for card in seat.zone("table").cards:
                if card.id not in skip and (not name or card.name == name):
                    return card.id
            await asyncio.sleep(0.01)
        return None

    def table_ids(self, player: int) -> set[int]:
        """The ids of the cards on ``player``'s table (none once they left)."""
        seat = self.mirror.players.get(player) if self.game_id in self.bot.client.games else None
        return {card.id for card in seat.zone("table").cards} if seat is not None else set()

    async def deal_from_deck(
        self,
        name: str,
        player: int,
        *,
        face_down: bool = False,
        exclude: Iterable[int] = (),
        unseen_first: bool = False,
    ) -> int | None:
        """Move a card called ``name`` from our deck onto ``player``'s table; return its new id if seen.
        ``unseen_first``: a card of that name whose id was never shown with it, if the deck has one.

        Any player may put cards onto another player's table, so this needs no judge rights.
        """
        position = self.own_deck.position(name, unseen=True) if unseen_first else None
        if position is None:
            position = self.own_deck.position(name)
        if position is None:
            LOGGER.warning("game %d: %s is not in the bot's deck", self.game_id, name)
            return None
        before = self.table_ids(player)
        move = pc.move_card(
            "deck", [position], target_player_id=player, target_zone="table", x=0, y=0, face_down=face_down
        )
        self.own_deck.take(position)
        await self.run(move)
        return await self.wait_new_card(player, before, exclude=exclude)

    async def into_hand(self, player: int, card_id: int | list[int], zone: str = "hand") -> bool:
        """As a judge, move a card (or several: one command) from ``player``'s table into their ``zone``,
        acting as them.

        The server names a card moved into a hand only to whoever moved it, so acting as the owner is
        what lets them see it. Each ``Command_Judge`` counts against the connection's game-command budget
        (twenty per ten seconds under the shipped limits), so the cards of one draw go in one. Returns False
        (nothing done) without judge rights.
        """
        if not self.is_judge:
            return False
        ids = card_id if isinstance(card_id, list) else [card_id]
        if not ids:
            return True
        take = pc.move_card("table", ids, target_player_id=player, target_zone=zone, x=0, y=0)
        await self.judge(player, [take])
        return True

    async def table_to_own_deck(self, card_id: int, name: str, *, top: bool) -> None:
        """Put a card lying on our table into our deck, on top or at the bottom."""
        move = pc.move_card(
            "table", [card_id], target_player_id=self.me, target_zone="deck", x=0 if top else -1, y=0
        )
        await self.run(move)
        self.own_deck.put(name, top=top, seen=True)  # everyone saw its id with its name, or dealt it
