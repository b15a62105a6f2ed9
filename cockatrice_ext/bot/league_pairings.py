"""The Cockatrice game of each pairing: opened, waiting for a free slot, cut short, lost and opened again
(:class:`LeaguePairings`, a part of :class:`~cockatrice_ext.bot.league_referee.LeagueReferee`).

The rules:

* each pairing of a round gets a game of its own, both players told its number and how to load their deck
  (:meth:`LeaguePairings.open_game`); it is journaled in the league's meta (``games``), so a restart takes
  it back;
* a game the server will not open (its limit of games per account, a shutdown announced) waits
  (:meth:`LeaguePairings.game_waits`): both players hear why, the room hears it once (till none wait), and
  the league's check tries again every :data:`WAIT_RETRY` seconds (journaled in ``waiting``); a pairing
  decided meanwhile (both players' ``!result``) needs none;
* a started game a player left (their connection dropped or, in an AutoBattler league, on purpose) is cut
  short (:meth:`LeaguePairings.cut_short`): Cockatrice seats nobody in a started game again, so the pairing
  gets a new game once that player is back in the room (journaled in ``cut``), or the other player wins by
  forfeit after :data:`~cockatrice_ext.bot.league_away.FORFEIT_GRACE`;
* a game the bot comes back without (a server restart, a seat dropped) is forgotten and, while its match is
  undecided, opened anew (:meth:`LeaguePairings.game_lost`);
* the room's ``!games`` lists the games cut short and the pairings waiting (:meth:`LeaguePairings.cut_games`).

Why: a pairing's game may fail for reasons no player controls; the match must neither be lost with it nor
wait for ever.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field

from cockatrice_ext.bot import league_away  # its graces read where they are set (tests patch them)
from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.league_chat import PRIVATE_LIMIT
from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.league_options import TITLES
from cockatrice_ext.bot.league_parts import LeagueParts
from cockatrice_ext.bot.league_views import departure
from cockatrice_ext.bot.words import shorten

LOGGER = logging.getLogger("cockatrice_ext.bot.league_referee")  # the league referee's one logger


WAIT_RETRY = 20.0
"""Seconds between tries to open the game of a pairing the server refused a game (its limit of games per
account): the league's check (:meth:`LeagueReferee.stand_in_due`) tries again no more often than this."""


@dataclass
class WaitingGame:
    """A pairing whose game the server would not open yet: why, when it was last tried (``time.monotonic``),
    and what the game replaces (``open_game``'s ``instead_of``, ``why``, ``whys``)."""

    reason: str
    tried: float
    instead_of: int | None = None
    why: str = ""
    whys: dict[str, str] = field(default_factory=dict)


class LeaguePairings(LeagueParts):
    """The games of the league's pairings (a part of ``LeagueReferee``: see the module)."""

    async def open_game(
        self,
        round_no: int,
        players: tuple[str, ...],
        *,
        instead_of: int | None = None,
        why: str = "lost in a restart",
        whys: dict[str, str] | None = None,
    ) -> None:
        """Create the Cockatrice game of one pairing and tell both players where it is (and, when it
        replaces game ``instead_of``, ``why`` it does; ``whys``: the reason as told to one player). A game
        the server refuses (its limit of games per account) waits: see :meth:`game_waits`."""
        pairing = (round_no, tuple(players))
        try:
            game = await LeagueGame.create(self.bot, self, round_no, players)
        except Exception as exc:
            LOGGER.warning("league %s: could not create a game for %s: %s", self.key, players, exc)
            reason = exc.reason if isinstance(exc, NotAllowed) else "the server refused it"
            await self.game_waits(pairing, WaitingGame(reason, time.monotonic(), instead_of, why, whys or {}))
            return
        was_waiting = pairing in self.waiting
        self.drop_waiting(pairing)
        if note := self.setup_notes.get((round_no, frozenset(players))):
            game.setup_note = note  # a game opened again for the pairing starts with its setup too
        self.games[game.game_id] = game
        meta = self.bot.journal.table_meta(self.key)
        meta.setdefault("games", {})[str(game.game_id)] = [round_no, *players]
        self.bot.journal.set_table_meta(self.key, meta)
        hint = "your pool (!pool): 40+ cards, basic lands free" if self.format_name == "market" else "!pool"
        for player in players:
            opponent = next(p for p in players if p != player)
            replaced = (
                "" if instead_of is None else f"Game #{instead_of} was {(whys or {}).get(player, why)}. "
            )
            if was_waiting:
                replaced = f"A game slot is free: {replaced}"
            await self.tell(
                player,
                replaced
                + f"Round {round_no}: your game vs {opponent} is #{game.game_id} in this room"
                + (f" (password {self.options.game_password})" if self.options.game_password else "")
                + f". Join it, load your deck from {hint} and press ready (deck lists are open: the referee"
                + " checks them, your opponent sees yours);"
                + (
                    " it starts when both decks are legal and both of you are ready."
                    if game.watching
                    else " I start it when both decks are legal."
                ),
            )

    async def game_waits(self, pairing: tuple[int, tuple[str, ...]], wait: WaitingGame) -> None:
        """The server would not open ``pairing``'s game: it waits (:meth:`open_waiting_games` tries again).
        The first time, both players hear the server's reason and what happens next, and the room hears once
        (till no game waits) that games wait for a free slot."""
        first = pairing not in self.waiting
        if not first:
            self.waiting[pairing].reason, self.waiting[pairing].tried = wait.reason, wait.tried
            return
        self.waiting[pairing] = wait
        self.save_waiting()
        round_no, players = pairing
        for player in players:
            opponent = next(p for p in players if p != player)
            await self.tell(
                player,
                shorten(
                    f"Round {round_no}: the referee cannot open your game vs {opponent} yet: {wait.reason}."
                    " It opens it as soon as the server lets it and tells you its number (or play elsewhere"
                    " and both send me !result).",
                    PRIVATE_LIMIT,
                ),
            )
        if not self.room_told_waiting:
            self.room_told_waiting = True
            shutting_down = getattr(self.bot.client, "shutdown_due", None) is not None
            why = (
                "it announced a shutdown"
                if shutting_down
                else "its limit of games per account; finished games count until their last player leaves"
            )
            await self.room_say(
                shorten(
                    f"{self.room_title()}: the server will not open more games for the referee now ({why})."
                    " Waiting games open as soon as it lets them: !games lists them."
                ),
            )

    async def open_waiting_games(self, now: float) -> None:
        """Try again to open each waiting pairing's game, at most every :data:`WAIT_RETRY` seconds (each try
        is a command to the server); a pairing decided meanwhile (both sent ``!result``) needs none."""
        for pairing, wait in sorted(self.waiting.items()):
            match = self.engine.league.match_of(pairing[1][0], pairing[0])
            if match is None or match.decided or self.over:
                self.drop_waiting(pairing)
            elif now - wait.tried >= WAIT_RETRY:
                wait.tried = now
                await self.open_game(
                    pairing[0], pairing[1], instead_of=wait.instead_of, why=wait.why, whys=wait.whys
                )

    def drop_waiting(self, pairing: tuple[int, tuple[str, ...]]) -> None:
        """``pairing`` waits for a game no longer (opened, or decided without one)."""
        if self.waiting.pop(pairing, None) is not None:
            self.save_waiting()
        if not self.waiting:
            self.room_told_waiting = False

    def save_waiting(self) -> None:
        meta = self.bot.journal.table_meta(self.key)
        meta["waiting"] = [[round_no, *players] for round_no, players in sorted(self.waiting)]
        self.bot.journal.set_table_meta(self.key, meta)

    def waiting_for_slot(self, player: str) -> tuple[int, tuple[str, ...]] | None:
        """The waiting pairing of ``player`` (see :attr:`waiting`), if any."""
        return next((pairing for pairing in self.waiting if player in pairing[1]), None)

    async def cut_short(self, game: LeagueGame, gone: str, dropped: bool) -> None:
        """``gone`` left the started ``game`` (their connection ``dropped``, or, in an AutoBattler league,
        on purpose: its concessions decide nothing) and Cockatrice will not seat them in it again. The
        referee leaves it; once ``gone`` is back in the room the pairing gets a new game, and if they stay
        away :data:`FORFEIT_GRACE` seconds the other player wins by forfeit. The game's record stays in
        the journal until then: a restart opens the pairing's game again."""
        other = game.opponent(gone)
        minutes = f"{league_away.FORFEIT_GRACE / 60:g} minutes"
        present = getattr(self.bot.client, "room_users", {}).get(self.room_id)
        in_room = not dropped and present is not None and gone in present  # left the game, not the room
        if in_room:
            await game.say(
                f"{departure(gone, dropped)}: this game cannot go on (Cockatrice seats nobody in a started"
                f" game again). {gone} is still in the room, so {gone} gets a new game with {other} in a"
                " moment."
            )
            await self.tell(
                gone,
                f"Game #{game.game_id} vs {other} stopped when you left it. You are still in the room: the"
                f" referee opens a new game for you both (out of the room {minutes}, {other} wins it by"
                " forfeit).",
            )
        else:
            await game.say(
                f"{departure(gone, dropped)}: this game cannot go on (Cockatrice seats nobody in a started"
                f" game again). Back in the room within {minutes}, {gone} gets a new game with {other};"
                f" gone longer, {other} wins by forfeit."
            )
            await self.tell(  # offline: their recap (self.recap) says where the game stands when back
                gone,
                f"Game #{game.game_id} vs {other} stopped when {departure(gone, dropped, to_them=True)}."
                f" Be back in the room within {minutes} and the referee opens a new game for you both;"
                f" later, {other} wins it by forfeit.",
            )
        self.cut[game.game_id] = (game.round_no, game.players, gone, dropped)
        self.out_of_room.add(gone)  # counted as away now, not at the next check
        self.mark_cut(game.game_id)
        await game.close(f"cut short when {departure(gone, dropped)}")

    def mark_cut(self, game_id: int) -> None:
        """Move ``game_id``'s record among the games cut short: a restart opens its pairing a new game (the
        cut game, finished, is not taken back)."""
        meta = self.bot.journal.table_meta(self.key)
        record = meta.get("games", {}).pop(str(game_id), None)
        if record is not None:
            meta.setdefault("cut", {})[str(game_id)] = record
            self.bot.journal.set_table_meta(self.key, meta)

    async def reopen_cut_games(self) -> None:
        """A new game for each pairing whose game was cut short by a player who is now back in the room
        (both told where it is); a pairing decided meanwhile (a forfeit) needs none."""
        for game_id, (round_no, players, gone, dropped) in sorted(self.cut.items()):
            match = self.engine.league.match_of(players[0], round_no)
            decided = match is None or match.decided or self.over
            if not decided and gone in self.out_of_room:
                continue
            del self.cut[game_id]
            self.forget_game_record(game_id)
            if not decided:
                await self.open_game(
                    round_no,
                    players,
                    instead_of=game_id,
                    why=f"cut short when {departure(gone, dropped)}",
                    whys={gone: f"cut short when {departure(gone, dropped, to_them=True)}"},
                )

    def cut_games(self, now: float | None = None) -> list[str]:
        """The games cut short that wait for their player, and the pairings whose game waits for a free slot
        on the server, in words for the room's ``!games``."""
        now = time.monotonic() if now is None else now
        title = TITLES[self.format_name]
        lines = [
            f"{title} round {round_no} {' vs '.join(players)} waits for a free game slot (the server's limit"
            " of games per account): the referee opens it as soon as the server lets it"
            for round_no, players in sorted(self.waiting)
        ]
        for game_id, (round_no, players, gone, _dropped) in sorted(self.cut.items()):
            left = max(0.0, league_away.FORFEIT_GRACE - (now - self.seen.get(gone, now)))
            lines.append(
                f"#{game_id} {title} round {round_no} {' vs '.join(players)} was cut short: a new game when"
                f" {gone} is back in the room (forfeit in {max(1, math.ceil(left / 60))} min)"
            )
        return lines

    async def game_lost(self, game: LeagueGame) -> None:
        """The bot came back without ``game`` (the server restarted, or dropped the seat): forget its
        number (a restarted server may give it to another game) and, while its match is undecided, open
        the pairing's game again and tell both players the new number."""
        self.forget(game)
        self.forget_game_record(game.game_id)
        match = self.engine.league.match_of(game.players[0], game.round_no)
        if match is not None and not match.decided and not self.over:
            await self.open_game(game.round_no, game.players, instead_of=game.game_id)

    def forget(self, game: LeagueGame) -> None:
        self.games.pop(game.game_id, None)

    def forget_game_record(self, game_id: int, *, over: bool = False) -> None:
        """Take a game that is gone out of the journal's list of the league's games (a restart would
        look for it), as a game played or as one cut short. A game played out (``over``) is listed among the
        league's finished games (its last 20, meta ``over``): it lingers with the referee as its host, and a
        restart that finds the account seated in it again closes it (``league.leave_unclaimed_games``)."""
        meta = self.bot.journal.table_meta(self.key)
        meta["games"] = {k: v for k, v in meta.get("games", {}).items() if k != str(game_id)}
        meta["cut"] = {k: v for k, v in meta.get("cut", {}).items() if k != str(game_id)}
        if over:
            earlier = meta.get("over")
            kept = [n for n in earlier if n != game_id][-19:] if isinstance(earlier, list) else []
            meta["over"] = [*kept, game_id]
        self.bot.journal.set_table_meta(self.key, meta)
