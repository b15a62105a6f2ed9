"""Which formats the bot can run, and how each installs itself in a room or resumes a game.

``INSTALLERS[name](bot)`` adds the format's room (and private-message) commands to a running
:class:`~cockatrice_ext.bot.runtime.Bot`. ``RESUMERS[name](bot, game_id, room_id, table_key)``
rebuilds a game referee from the journal when the bot is re-seated after a restart.
``REBUILDERS[name](bot, room_id, table_key, requested_by)`` opens a *new* game from a journaled one
whose seat the bot lost (unregistered accounts lose their seat when they disconnect): ``!resume``.
Modules are imported lazily so one format's failure cannot stop the others.

:class:`SeatsByName` is what a rebuilt game needs from any format: its engine keeps the player ids
of the game it was journaled in, while Servatrice numbers the new game's seats by join order.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from cockatrice_ext.journal import JournalError, Table
from cockatrice_ext.protocol import commands as pc

if TYPE_CHECKING:
    from cockatrice_ext.bot.referee import GameReferee
    from cockatrice_ext.bot.runtime import Bot
    from cockatrice_ext.client import ClientEvent

Installer = Callable[["Bot"], Awaitable[None]]
Resumer = Callable[["Bot", int, int, str], Awaitable["GameReferee"]]
Rebuilder = Callable[["Bot", int, str, str], Awaitable["GameReferee"]]

MODULES = {
    "auction": "cockatrice_ext.bot.auction",
    "vortex": "cockatrice_ext.bot.vortex",
    "combat": "cockatrice_ext.bot.combat",
    "market": "cockatrice_ext.bot.league",
    "autobattler": "cockatrice_ext.bot.league",
}


class _Lazy(dict[str, Any]):
    """A mapping that imports a format's bot module on first lookup."""

    def __init__(self, attribute: str) -> None:
        super().__init__()
        self.attribute = attribute

    def get(self, key: str, default: Any = None) -> Any:
        module_name = MODULES.get(key)
        if module_name is None:
            return default
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return default
            raise
        table = getattr(module, self.attribute, {})
        return table.get(key, default)

    def __getitem__(self, key: str) -> Any:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None


INSTALLERS: dict[str, Installer] = _Lazy("INSTALLERS")
RESUMERS: dict[str, Resumer] = _Lazy("RESUMERS")
REBUILDERS: dict[str, Rebuilder] = _Lazy("REBUILDERS")
LEAGUE_TAKERS: dict[str, Callable[[Bot, str], Awaitable[None]]] = _Lazy("TAKERS")
"""A league whose process died is restored by another fleet process: ``LEAGUE_TAKERS[fmt](bot, key)``."""
LEAGUE_DROPPERS: dict[str, Callable[[Bot, str], None]] = _Lazy("DROPPERS")
"""A league whose lease another process took is dropped: ``LEAGUE_DROPPERS[fmt](bot, key)``."""


class SeatsByName:
    """Engine players <-> seats of the Cockatrice game, by user name (a mixin for game referees).

    In a game the bot created, engine players are the seats' ids; a game rebuilt by ``!resume`` seats
    the same people under new ids, so the referee keeps the engine's ids and translates at its
    boundary: commands in (:meth:`engine_player`), card moves, reveals and counters out
    (:meth:`seat_of`). Until the rebuilt game starts (``live`` false) only its own players may sit.
    """

    engine_names: dict[Any, str]
    live: bool
    continues: int | None

    def bind_seats(self: Any, players: Any) -> None:
        """A new game's engine starts: its players are these seats (remember their names)."""
        self.engine_names = {p: self.player_name(p) for p in players}  # one who left meanwhile: by name too
        self.live = True

    @staticmethod
    def journaled_names(meta: dict[str, Any], players: Any) -> dict[Any, str]:
        """The engine players' user names from a table's journaled meta.

        Raises:
            JournalError: a player of the engine has no journaled name.
        """
        names = dict(meta.get("names", {}))
        missing = [str(p) for p in players if str(p) not in names]
        if missing:
            raise JournalError(f"no name journaled for player(s) {', '.join(missing)}")
        return {p: str(names[str(p)]) for p in players}

    @classmethod
    def journaled_game(
        cls, bot: Bot, key: str, options_type: type[Any], engine_type: type[Any], requested_by: str = ""
    ) -> tuple[dict[str, Any], Any, Any, dict[Any, str]]:
        """What every format's ``!resume`` reads first of the journaled game ``key``: its meta, its table
        options, its engine replayed, and engine player -> user name.

        Raises:
            JournalError: the journal cannot be replayed, or lacks the players' names.
            NotAllowed: the game is over, or ``requested_by`` played in it and is out of it (conceded, left,
                dropped): only its players still in may continue it."""
        from cockatrice_ext.bot.commands import NotAllowed

        meta = bot.journal.table_meta(key)
        options = options_type(**meta["options"])
        engine = Table.restore(bot.journal, key).engine
        assert isinstance(engine, engine_type)
        if engine.is_over():
            raise NotAllowed("that game is over; there is nothing to continue")
        names = cls.journaled_names(meta, engine.config.players)
        still_in = engine.players_in()
        out = still_in is not None and requested_by not in {names[p] for p in still_in}
        if out and requested_by in names.values():
            raise NotAllowed("you are out of that game: only its players still in can continue it")
        return meta, options, engine, names

    def continue_table(self: Any, key: str, meta: dict[str, Any], names: dict[Any, str]) -> None:
        """This new game continues the journaled table ``key``: copy its actions under this game's key and
        replay them; its players are ``names`` (engine player -> user name), seated when they join."""
        new_meta = {**meta, "game_id": self.game_id, "rebuilt_from": key}
        self.bot.journal.copy_table(key, self.table_key, meta=new_meta)
        self.table = Table.restore(self.bot.journal, self.table_key)
        self.engine_names = names
        self.continues = int(meta.get("game_id", 0)) or None

    @classmethod
    async def resume(cls, bot: Bot, game_id: int, room_id: int, key: str) -> Any:
        """Re-seated in the same game after a restart (registered account): the journal as it was, the
        engine's players named as journaled (for a pile referee, whose ``resume`` builds the rest)."""
        referee = await super().resume(bot, game_id, room_id, key)  # type: ignore[misc]
        referee.engine_names = cls.journaled_names(bot.journal.table_meta(key), referee.engine.players)
        referee.live = True
        return referee

    def player_name(self: Any, player_id: Any) -> str:
        """An engine player's user name (also after they left)."""
        name = self.engine_names.get(player_id)
        return name if name is not None else super().player_name(player_id)  # type: ignore[misc]

    def seat_of(self: Any, player: Any) -> int | None:
        """The seat of engine player ``player`` in this game, or None if they are not seated."""
        name = self.engine_names.get(player)
        if name is None or self.game_id not in self.bot.client.games:
            return None
        for seat in self.mirror.players.values():
            if seat.name == name and not seat.spectator and seat.player_id != self.me:
                return int(seat.player_id)
        return None

    def departed(self: Any, player: Any) -> str | None:
        """Why engine player ``player`` is gone (``"left"``, ``"conceded"``, ``"dropped"``), or None.

        A dropped connection keeps its seat (Servatrice keeps a registered player's seat): not gone. Nor is a
        player whose seat the bot cannot see (its own connection went, or the game's state after it rejoined
        has not arrived yet: ``seats_known``): only the server's word makes a player gone.
        """
        if not self.seats_known:
            return None
        seat = self.seat_of(player)
        if seat is None:
            return "left"
        if seat in self.dropping:  # the other players took it out (``!drop``): gone by the rules' word
            return "dropped"
        return "conceded" if self.mirror.players[seat].conceded else None

    def drop_pauses(self: Any, seat: int) -> bool:
        """Whether the seat the server just took away with its player's connection (an unregistered
        account's seat is not kept) pauses the game: its player was one of the rules' players, the game is
        under way, and without them fewer than two would play on, so the rules would end the game for a
        dropped connection. Fewer players still playing after the drop means the leaver was still in."""
        name = self.seat_names.get(seat)
        if not name or name not in self.engine_names.values() or self.table is None or self.finished:
            return False
        still_in = [p.player_id for p in self.humans() if self.plays_on(p.player_id)]
        return len(still_in) < 2

    async def drop_out(self: Any, player_id: int) -> None:
        """``!drop`` (Auction, Vortex): seat ``player_id`` goes as a player who leaves does (the format's
        ``settle_departures`` reads it as ``"dropped"``), then its seat is removed."""
        async with self._lock:
            self.dropping.add(player_id)
            await self.settle_departures()
            await self.remove_dropped(player_id)

    def engine_player(self: Any, seat_id: int | None) -> Any | None:
        """The engine player sitting in seat ``seat_id``, or None."""
        seat = self.mirror.players.get(seat_id) if seat_id is not None else None
        if seat is None or seat.spectator or self.table is None:
            return None
        return next((p for p, name in self.engine_names.items() if name == seat.name), None)

    def is_engine_player(self: Any, player_id: int) -> bool:
        return self.engine_player(player_id) is not None

    async def on_event(self: Any, event: ClientEvent) -> None:
        """As the runtime's, except that a rebuilt game waiting for its players stays open when someone
        who did not play it leaves (or is turned away)."""
        stranger_left = (
            not self.live
            and self.table is not None
            and event.name == "Event_Leave"
            and self.seat_names.get(event.player_id) not in self.engine_names.values()
        )
        if not stranger_left:
            await super().on_event(event)  # type: ignore[misc]

    async def before_play(self: Any, event: ClientEvent) -> bool:
        """Events before the game is refereed live; True when handled here.

        The engine starts when Cockatrice starts the game; a rebuilt game turns strangers away and,
        once its players sat down and Cockatrice started it, puts the board back. A game that stops (or goes)
        right as it starts, before the referee read its deck, is neither: an info line, and it starts (or is
        put back) when Cockatrice starts it again.
        """
        if self.table is not None and self.live:
            return False
        if self.game_id not in self.bot.client.games:  # the game went (we left it) before its news came
            return True
        started_turn = self.mirror.started and event.name == "Event_SetActivePlayer"
        if self.table is None:
            if started_turn:
                await self.start_engine()
                if self.table is not None:
                    await self.on_active_player(int(event.message.active_player_id))  # type: ignore[attr-defined]
        elif event.name == "Event_Join":
            await self.turn_away(event)
        elif started_turn:
            await self.restore_board()
            if self.live:  # the board is back (a game that stopped as it started is put back when it starts)
                await self.on_active_player(int(event.message.active_player_id))  # type: ignore[attr-defined]
        return True

    async def turn_away(self: Any, event: ClientEvent) -> None:
        """Before a rebuilt game starts, only its players still in the game (``Engine.players_in``) may take
        a seat: one who is out (conceded, left, dropped; the rebuilt game has no seat for them) would take
        the seat of one still in, who then finds the game full. They are told why and may watch."""
        props = event.message.player_properties  # type: ignore[attr-defined]
        name = props.user_info.name
        still_in = {self.engine_names.get(p) for p in self.engine.players_in() or self.engine_names}
        if props.spectator or props.player_id == self.me or name in still_in:
            return
        why = "you are out of it; " if name in self.engine_names.values() else ""
        await self.tell(
            name,
            f"Game #{self.game_id} continues game #{self.continues}; {why}only its players still in can sit"
            " (you may watch).",
        )
        await self.run(pc.kick_from_game(props.player_id))


async def finish_if_one_stands(referee: GameReferee) -> bool:
    """Finish a started game in which every player but one has conceded; True if it did.

    Cockatrice ends a game only when fewer than two seats play on, and the referee's seat is one of
    them: without this a two-player game whose player conceded would stay "in progress" for ever.
    """
    if referee.finished or not referee.mirror.started or referee.stopping:
        return False
    players = referee.humans()
    standing = [p for p in players if not p.conceded]
    if len(players) < 2 or len(standing) > 1:
        return False
    gone = ", ".join(referee.player_name(p.player_id) for p in players if p.conceded)
    winner = f"; {referee.player_name(standing[0].player_id)} wins" if standing else ""
    await referee.say(f"Game over: {gone} conceded{winner}.")
    await referee.finish(f"game over: {gone} conceded{winner}")
    return True
