"""Away and idle league members: the referee moves for them, and a member gone long loses their game by
forfeit (:class:`LeagueAway`, a part of :class:`~cockatrice_ext.bot.league_referee.LeagueReferee`).

The rules:

* a running league checks every :data:`STAND_IN_TICK` seconds whose move it waits for (each engine's
  ``waiting_for``: :meth:`LeagueAway.stand_in_due`); a member out of the room :data:`LOBBY_GRACE` seconds
  (and silent to us since), or past the league's ``timer`` (warned at half time; the clock starts once the
  lines that show them the move have left the chat queue), gets the referee's move (``core.StandIn``: a pick
  at random, a pass, the end of a draft phase), journaled like a player's; what a stalled link still holds
  is heard first;
* the room hears once that the referee moves for an away member, and again when they are back;
* a paired member gone :data:`FORFEIT_GRACE` seconds (out of the room and not connected in their game) loses
  the match by forfeit, a referee's result (:meth:`LeagueAway.forfeit_due`); both gone, nothing is guessed;
  a pairing whose forfeit is certain gets no game (:meth:`LeagueAway.forfeit_certain`);
* each check then opens the games of pairings cut short or waiting for a slot
  (:mod:`~cockatrice_ext.bot.league_pairings`).

Why: a ring draft, a market or a draft phase must not wait for ever for a connection that died, and a game
is worth a longer wait than a pick (a client restarted comes back).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cockatrice_ext.bot.league_parts import LeagueParts
from cockatrice_ext.bot.league_views import decision_name
from cockatrice_ext.bot.silence import link_heard
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats.base import RulesError
from cockatrice_ext.journal import JournalWriteError

LOGGER = logging.getLogger("cockatrice_ext.bot.league_referee")  # the league referee's one logger


LOBBY_GRACE = 120.0
"""Seconds a lobby member may be out of the room (a dropped connection, a client restarted) before the lobby
lets them go."""
STAND_IN_TICK = 5.0
"""Seconds between a running league's checks of whose move it waits for: a member out of the room
:data:`LOBBY_GRACE` seconds, or past the league's ``timer``, gets the referee's move (``core.StandIn``)."""
FORFEIT_GRACE = 300.0
"""Seconds a paired member may be gone (out of the room and not connected in their game) before their
opponent wins the match by forfeit: a game is worth longer than a pick (a client restarted comes back)."""


@dataclass
class Decision:
    """A move a running league waits for from one member: the engine's token for it, since when (the
    ``timer``'s clock: None until the lines that show it to them have left the chat queue), and whether the
    half-time warning went out."""

    token: tuple[Any, ...]
    since: float | None
    warned: bool = False


class LeagueAway(LeagueParts):
    """Away and idle members (a part of ``LeagueReferee``: see the module)."""

    def watch(self) -> None:
        """Start the check of away and idle members (:meth:`stand_in_due` every :data:`STAND_IN_TICK` s);
        it ends with the league. Everyone counts as seen now (a restart does not make anyone away)."""
        if self.over or (self._watcher is not None and not self._watcher.done()):
            return
        now = time.monotonic()
        for member in self.engine.league.members:
            self.seen.setdefault(member, now)
        self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        while not self.over and self in self.bot.private_referees:
            await asyncio.sleep(STAND_IN_TICK)
            try:
                await self.stand_in_due()
            except JournalWriteError:  # the journal said why, once; the next check tries again
                pass
            except Exception:  # the next check tries again; the league must not lose its clock
                LOGGER.exception("league %s: the check of away players failed", self.key)

    async def stand_in_due(self, now: float | None = None) -> None:
        """Make the move the league waits for from each member out of the room :data:`LOBBY_GRACE` seconds
        (silent since: no line to us either), or past the ``timer`` (warned at half time): a ring draft, a
        market or a draft phase must not wait for ever for a connection that died. The room hears once
        that the referee moves for an away member, and when they are back."""
        if self.over or (self.bot.fleet is not None and not self.bot.fleet.may_act(self.key)):
            return
        now = time.monotonic() if now is None else now
        present = getattr(self.bot.client, "room_users", {}).get(self.room_id)
        playing = {name for game in self.games.values() for name in game.connected_players()}
        waiting_for = self.engine.waiting_for()
        for member in self.engine.league.members:
            if member in self.left:  # gone for good: neither away nor back
                continue
            if not (present is None or member in present or member in playing):
                self.out_of_room.add(member)
                self.packs_listed.pop(member, None)  # gone a while: the welcome-back lists their pack again
                continue
            self.seen[member] = now
            if member in self.out_of_room:
                self.out_of_room.discard(member)
                self.heard_while_out.discard(member)
                if not self.kept_for(member):  # they were online: told of the referee's moves as made
                    self.missed.pop(member, None)
                    self.missed_moves.pop(member, None)
                if member in waiting_for and member not in self.standing_in:
                    await self.welcome_back(member)  # back in time: what they hold the league up with
        for member in sorted(self.standing_in):
            if now - self.seen.get(member, now) < LOBBY_GRACE:
                self.standing_in.discard(member)
                await self.room_say(f"{member} is back: their moves are their own again.")
                await self.welcome_back(member)
        timeout = self.options.pick_timeout
        heard = False  # whether what members said before now is heard (once per check, before any move)
        for _ in range(len(self.engine.league.members) * 50):  # an away member's packs may queue up
            waiting = self.engine.waiting_for()
            for member in set(self.decisions) - set(waiting):
                del self.decisions[member]
            for member, token in waiting.items():
                if member not in self.decisions or self.decisions[member].token != token:
                    self.decisions[member] = Decision(token, None)
            due = ""
            for member, decision in sorted(self.decisions.items()):
                if member in self.left or now - self.seen.get(member, now) >= LOBBY_GRACE:
                    due, reason = member, "away"
                    break
                if decision.since is None:  # the clock starts once they can see the move (the pack sent)
                    if self.bot.conversation_with(member).chat.pending(("user", member)):
                        continue
                    decision.since = now
                if timeout and now - decision.since >= timeout:
                    due, reason = member, "time"
                    break
                if timeout and not decision.warned and now - decision.since >= timeout / 2:
                    decision.warned = True
                    left = max(1, round(timeout - (now - decision.since)))
                    await self.tell(member, f"{left} s left for your {decision_name(decision.token)}.")
            if not due:
                break
            if not heard:  # a pick held by a stalled link is heard first (bot/silence.py); else next check
                if not await link_heard(self.bot.client, f"league {self.key}"):
                    return
                if not await self.bot.commands_handled(self.decisions):  # and run from the member's queue
                    return
                heard = True
                continue  # what was heard may be that very move
            await self.stand_in(due, reason)
        await self.forfeit_due(now)
        await self.reopen_cut_games()
        await self.open_waiting_games(time.monotonic())

    async def stand_in(self, member: str, reason: str) -> None:
        """The referee's move for ``member`` (``core.StandIn``), journaled like a player's."""
        try:
            effects = self.table.apply(core.StandIn(player=None, target=member, reason=reason))
        except RulesError as exc:  # the move was made meanwhile: nothing to do
            LOGGER.info("league %s: no stand-in for %s (%s)", self.key, member, exc.code)
            self.decisions.pop(member, None)
            return
        self.decisions.pop(member, None)
        if member in self.left:  # they left for good: nobody is told of these moves
            await self.perform(effects)
            return
        if reason == "away":
            moves = self.missed_moves.setdefault(member, Counter())
            for effect in effects:
                if isinstance(effect, core.StoodIn) and effect.player == member:
                    moves[effect.move] += 1
        if reason == "away" and member not in self.standing_in:
            self.standing_in.add(member)  # no duration: said after a forfeit, "2 minutes" read as a slip
            await self.room_say(
                f"{member} is away: the referee makes their moves (at random, or a pass) until they are"
                " back.",
            )
        await self.perform(effects)

    async def forfeit_due(self, now: float) -> None:
        """A match of the round whose one player has been gone :data:`FORFEIT_GRACE` seconds (out of the room
        and not connected in their game) goes to the other by forfeit, recorded by the referee (no
        concession: the AutoBattler's refusal of those is about players who choose to lose). Both gone:
        nothing is guessed; the match waits for them or for both players' ``!result``."""
        if self.engine.phase != "play":
            return
        for match in self.engine.league.current_matches():
            if match.decided or len(match.players) != 2:
                continue
            if all(p in self.left for p in match.players):  # both left the league: nobody wins it
                await self.both_left(match)
                continue
            gone = [p for p in match.players if p in self.left] or [
                p for p in match.players if self.gone_long(p, now)
            ]
            if len(gone) != 1:
                continue
            winner = match.opponent(gone[0])
            if gone[0] in self.left:
                await self.left_forfeit(match, gone[0], winner)
                continue
            try:
                effects = self.table.apply(core.ReportResult(player=None, winner=winner))
            except RulesError as exc:
                LOGGER.info("league %s: no forfeit for %s (%s)", self.key, gone[0], exc.code)
                continue
            minutes = f"{int(max(FORFEIT_GRACE, now - self.seen.get(gone[0], now)) // 60)} minutes"
            await self.room_say(
                f"{gone[0]} has been gone {minutes}: {winner} wins their round {match.round} game"
                " by forfeit.",
            )
            self.missed.setdefault(gone[0], []).append(
                f"you lost your round {match.round} game to {winner} by forfeit (gone {minutes})"
            )
            await self.tell(
                gone[0], f"You lost your round {match.round} game to {winner} by forfeit: gone {minutes}."
            )
            await self.tell(  # their game may have been announced a moment ago: no need to join it
                winner,
                f"{gone[0]} is gone: you win your round {match.round} game by forfeit; no need to play it.",
            )
            await self.perform(effects)

    def forfeit_certain(self, pair: Sequence[str], now: float | None = None) -> bool:
        """Whether exactly one player of ``pair`` has been gone :data:`FORFEIT_GRACE` seconds already (out of
        the room since): their match goes to the other by forfeit, so no game is opened for it."""
        now = time.monotonic() if now is None else now
        return sum(self.gone_long(p, now) for p in pair) == 1 or all(p in self.left for p in pair)

    def gone_long(self, member: str, now: float) -> bool:
        """Out of the room (and not connected in a game) for :data:`FORFEIT_GRACE` seconds or more, or left
        the league (:meth:`leave`)."""
        if member in self.left:
            return True
        return member in self.out_of_room and now - self.seen.get(member, now) >= FORFEIT_GRACE
