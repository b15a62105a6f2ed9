"""A member leaving a league for good, ``!leave confirm`` (:class:`LeagueLeaving`, a part of
:class:`~cockatrice_ext.bot.league_referee.LeagueReferee`).

The rules:

* ``!leave`` alone says what leaving means; ``!leave confirm`` is journaled first (the meta's ``left``), so a
  restart keeps it (:meth:`LeagueLeaving.leave_for_good`); an AutoBattler engine is told too
  (``ab.LeaveLeague``: a member who left is never the Ghost);
* the other members are told once; the referee makes the leaver's every move at once and their matches go
  to their opponents by forfeit (:meth:`LeagueLeaving.left_forfeit`); a match whose two players both left is
  a draw (:meth:`LeagueLeaving.both_left`; an AutoBattler replay of it is abandoned);
* the leaver hears no more of the league and their page's link dies; ``!standings``, ``!pool`` and
  ``!status`` still answer, other league commands get :meth:`LeagueLeaving.left_line`, unless a league they
  joined since, or a lobby they wait in (:meth:`LeagueLeaving.in_a_lobby`), answers them.

Why: a member who has to go must not hold the league up, and may join another league.
"""

from __future__ import annotations

import logging
import time
from typing import Literal

from cockatrice_ext.bot.commands import NotAllowed, command
from cockatrice_ext.bot.league_parts import LeagueParts
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats.base import Effect, RulesError

LOGGER = logging.getLogger("cockatrice_ext.bot.league_referee")  # the league referee's one logger


class LeagueLeaving(LeagueParts):
    """Leaving the league for good (a part of ``LeagueReferee``: see the module)."""

    @command(scopes=("private",))
    async def leave(self, ctx: Context, confirm: Literal["confirm"] | None = None) -> None:
        """Leave this league for good: !leave confirm (the referee then makes your moves and your games are
        lost by forfeit; it cannot be undone)."""
        if confirm is None:
            await ctx.reply(
                f"Leaving {self.room_title()} cannot be undone: the referee makes your moves from then on (at"
                " random, or a pass) and you lose your games by forfeit. To leave, send !leave confirm."
            )
            return
        await self.leave_for_good(ctx)

    async def leave_for_good(self, ctx: Context) -> None:
        """``!leave confirm``: ``ctx.sender`` leaves the league. Journaled first (the meta's ``left``), so a
        restart keeps it; then the others are told once, and the referee makes the leaver's moves and forfeits
        their games at once (:meth:`stand_in_due`)."""
        member = ctx.sender
        if self.bot.fleet is not None and not self.bot.fleet.may_act(self.key):
            raise NotAllowed("this league is refereed by another process of the fleet now: try again")
        meta = self.bot.journal.table_meta(self.key)
        meta["left"] = sorted(self.left | {member})
        self.bot.journal.set_table_meta(self.key, meta)
        self.left.add(member)
        told = await self.tell_engine_left(member)
        for kept in (self.page_players, self.chat_players, self.standing_in, self.out_of_room):
            kept.discard(member)
        self.decisions.pop(member, None)
        self.missed.pop(member, None)
        self.missed_moves.pop(member, None)
        fmt = self.format_name
        await ctx.reply(
            f"You left {self.room_title()}: the referee makes your moves from now on and your games are lost"
            f" by forfeit. You may join another league (!{fmt} join in the room); !standings and !pool still"
            " answer here." + (" Your page's link no longer works." if self.pages is not None else "")
        )
        for other in self.engine.league.members:
            if other not in self.left:
                await self.tell(
                    other,
                    f"{member} left {self.room_title()}: the referee makes their moves from now on (at"
                    " random, or a pass), and their games are lost by forfeit.",
                )
        if (pages := self.pages) is not None:
            revoke = getattr(pages, "revoke", None)
            if callable(revoke):
                revoke(self, member)  # their page's link dies, as a lobby leaver's does
            pages.changed(self)
        await self.perform(told)
        await self.stand_in_due(time.monotonic())

    async def tell_engine_left(self, member: str) -> list[Effect]:
        """An AutoBattler engine hears that ``member`` left (``ab.LeaveLeague``, journaled: a member who
        left is never the Ghost); its effects, to perform ([] for a Market league, or when refused)."""
        if not isinstance(self.engine, ab.AutoBattlerEngine) or self.over or member in self.engine.left:
            return []
        try:
            return self.table.apply(ab.LeaveLeague(player=None, target=member))
        except RulesError as exc:
            LOGGER.info("league %s: the engine was not told that %s left (%s)", self.key, member, exc.code)
            return []

    async def left_forfeit(self, match: core.Match, loser: str, winner: str) -> None:
        """``loser`` left the league: ``winner`` wins their match by forfeit (the referee's result), said in
        the room and to the winner (the one who left hears no more of the league)."""
        try:
            effects = self.table.apply(core.ReportResult(player=None, winner=winner))
        except RulesError as exc:
            LOGGER.info("league %s: no forfeit for %s, who left (%s)", self.key, loser, exc.code)
            return
        await self.room_say(
            f"{loser} left the league: {winner} wins their round {match.round} game by forfeit."
        )
        await self.tell(
            winner,
            f"{loser} left the league: you win your round {match.round} game by forfeit; no need to play it.",
        )
        await self.perform(effects)

    async def both_left(self, match: core.Match) -> None:
        """Both players of ``match`` left the league: the referee records a draw (an AutoBattler replay of
        it is abandoned: both go to the poison a replay that cannot go on gives), so the league goes on."""
        first = match.players[0]
        try:
            effects = self.table.apply(core.ReportResult(player=None, draw=True, match_of=first))
        except RulesError as exc:
            LOGGER.info("league %s: no result for %s, who both left (%s)", self.key, match.players, exc.code)
            return
        if any(isinstance(e, ab.ReplayRequired) for e in effects):
            try:
                effects += self.table.apply(ab.AbandonReplay(player=None, match_of=first))
            except RulesError as exc:  # a final's replay: it waits, as a match of two gone members does
                LOGGER.info("league %s: the replay of %s goes on (%s)", self.key, match.players, exc.code)
        both = " and ".join(match.players)
        await self.room_say(f"{both} both left the league: their round {match.round} game counts as a draw.")
        await self.perform(effects)

    def left_line(self) -> str:
        """What a member who left hears when they send a league command other than ``!standings``,
        ``!pool``, ``!status``."""
        return (
            f"You left {self.room_title()}: the referee makes your moves and your games are lost by forfeit."
            " !standings, !pool and !status still answer here."
        )

    def in_a_lobby(self, user: str) -> bool:
        """Whether ``user`` waits in a league lobby of any room (its room commands answer them)."""
        for room in self.bot.room_referees:
            lobbies = getattr(room, "lobbies", None)
            waiting = lobbies.values() if isinstance(lobbies, dict) else ()
            if any(user in getattr(lobby, "members", ()) for lobby in waiting):
                return True
        return False
