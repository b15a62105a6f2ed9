"""The Cockatrice game of one pairing (:class:`LeagueGame`): deck checks, its start, its result, and
the finished game that lingers with the referee as its host until the room needs the slot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, ClassVar

from cockatrice_ext.bot.commands import command
from cockatrice_ext.bot.league_cards import check_loaded_deck, deck_names, deck_verdict
from cockatrice_ext.bot.league_options import TITLES
from cockatrice_ext.bot.league_views import REFUSALS, result_rule, result_words
from cockatrice_ext.bot.referee import Context, GameReferee, describe_command, room_referees_of
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.client.errors import ClientError
from cockatrice_ext.client.mirror import PlayerState
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats.base import RulesError
from cockatrice_ext.journal import JournalWriteError
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol.codes import LeaveReason

if TYPE_CHECKING:
    from cockatrice_ext.bot.league_referee import LeagueReferee

LOGGER = logging.getLogger(__name__)


LIFE_COUNTER = 0


CLOSED_FOR_ROOM = "This game is closed to make room for new games; the result stands."
"""What a finished league game hears before the referee closes it for a new game (LeagueGame.leave)."""
CLOSED_AFTER_LINGER = "This game is over and closes now; the result stands."
"""The same when the referee's stay in a finished game ends (:attr:`GameReferee.LINGER_SECONDS`)."""
CLOSING_LINE_WAIT = 5.0
"""Seconds a finished league game closed to make room for a new game waits for its closing line before its
players are kicked. The new game waits for the slot (at most the runtime's ``SLOT_WAIT``, 20 s, then its
pairing waits for the league's next try): a busy referee's game lines run 20-50 s behind (one account, eight
players), and waiting for them made a round-2 game wait about a minute. The result is said to the pairing
privately when its line has not left (:meth:`LeagueGame.tell_result_unsaid`)."""
LINGER_LINE_WAIT = 60.0
"""The same when the referee's stay ends: nothing waits for the slot, so the line gets the chat's usual
wait."""


EMPTY_DECK = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>referee</deckname>'
    '<comments/><zone name="main"/></cockatrice_deck>'
)


class LeagueGame(GameReferee):
    """The Cockatrice game of one pairing: deck checks, starting it, and learning its result."""

    refusals: ClassVar[dict[str, str]] = REFUSALS
    LIFE_SETTLE_SECONDS: ClassVar[float] = 3.0
    """How long after a life total reached 0 (staying at or below 0 meanwhile) the game is decided (see
    :meth:`settle_life`)."""

    def __init__(
        self, bot: Bot, league: LeagueReferee, game_id: int, round_no: int, players: tuple[str, ...]
    ) -> None:
        super().__init__(bot, game_id, league.room_id, table_key=f"{league.key}:game:{game_id}")
        self.league = league
        self.format_name = league.format_name
        self.round_no = round_no
        self.players = players
        self.legal: dict[str, bool] = {}
        self.problems: dict[str, str] = {}  # player -> what is wrong with their deck, in full (private)
        self.checked: dict[str, str] = {}  # player -> deck text last checked
        self.trusted: dict[str, str] = {}  # player -> hash of the deck taken unchecked (no shared lists)
        self.ready_sent = False  # seated: our ready; watching: "both decks are legal" was said
        self.played = False  # the game has started (a concession may have stopped it since)
        self.announced = False  # "The game is on" was said (before a restart too)
        self.finished = ""  # why the game is over: it lingers then (see close), counting against our limit
        self.basics_declared = False
        self.setup_note = ""
        self.table = league.table
        self._life_settle: asyncio.Task[None] | None = None  # the wait before a life at 0 decides the game
        self._last_life: dict[str, int] = {}  # player -> their life counter's last value the server told
        self._down_since: dict[str, float] = {}  # player -> when their life reached 0 (the loop's clock)
        self.result_said: list[tuple[str, str]] = []
        """The game lines that said its result (``decide``, ``result_recorded``), each with its words for a
        private message: told so when the game is left before its chat could send them (:meth:`leave`)."""

    @classmethod
    async def create(
        cls, bot: Bot, league: LeagueReferee, round_no: int, players: tuple[str, ...]
    ) -> LeagueGame:
        title = TITLES[league.format_name]
        life = league.engine.config.starting_life if league.format_name == "autobattler" else 20
        game_id = await bot.open_game(
            league.room_id,
            description=f"{title} league round {round_no}: {players[0]} vs {players[1]}, open deck lists",
            seats=2,
            type_hint="autobattler" if league.format_name == "autobattler" else "market",
            password=league.options.game_password,
            share_decklists=True,
            # every spectator receives both shared deck lists (both pools): none, unless the referee itself
            # watches from a judge's spectator seat, which it must be able to take again after a restart
            spectators_allowed=bot.judge_level,
            starting_life=life,
            watch=True,
        )
        game = cls(bot, league, game_id, round_no, players)
        bot.adopt_game(game)
        if not game.watching:
            game.set_up(lambda: bot.client.select_deck(game_id, EMPTY_DECK))
        return game

    @command("status", aliases=("state",))  # not ``status``: GameReferee.status() feeds !games and /
    async def pairing_status(self, ctx: Context) -> None:
        """The pairing, whose deck is legal, and how the result is reported."""
        parts = []
        for name in self.players:
            seat = self.seat_of(name)
            if seat is None:
                parts.append(f"{name} not seated")
            elif name not in self.legal:
                parts.append(f"{name} no deck yet")
            elif name in self.trusted:
                parts.append(f"{name} deck loaded (not checked: the server does not share deck lists)")
            else:
                parts.append(f"{name} deck {'OK' if self.legal[name] else 'not legal'}")
        title = TITLES[self.format_name]
        match = self.match()
        result = (
            f"The result is in: {result_words(match)}."
            if match is not None and match.decided
            else result_rule(self.format_name)
        )
        await ctx.reply(shorten(f"{title} league round {self.round_no}: " + ", ".join(parts) + f". {result}"))

    async def say_help(self, topic: str, *, short: bool = False) -> None:
        """As every game's ``!help``, and how the result reaches the referee (:func:`result_rule`, the game's
        start line's words) after the list of commands or ``!help result``."""
        described = describe_command(topic, "game", [self], room_referees_of(self.bot))
        await super().say_help(topic, short=short)
        if not described and not short:
            await self.say_once(result_rule(self.format_name))

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """Game commands; a member's private league command said here is answered with where it belongs."""
        if await super().handle_command(ctx, text):
            return True
        line = self.league.misplaced_line(ctx, text, [self])
        if line:
            await ctx.reply(line)
        return bool(line)

    # -- helpers ----------------------------------------------------------------------------------------

    def seat_of(self, name: str) -> int | None:
        for player in self.mirror.players.values():
            if player.name == name and not player.spectator:
                return player.player_id
        return None

    def name_of(self, player_id: int) -> str:
        player = self.mirror.players.get(player_id)
        return player.name if player is not None else ""

    def is_engine_player(self, player_id: int) -> bool:
        return self.name_of(player_id) in self.players

    def match(self) -> core.Match | None:
        return self.league.engine.league.match_of(self.players[0], self.round_no)

    def connected_players(self) -> set[str]:
        """The pairing's players seated here whose connection the server still has (ping not -1)."""
        mirror = self.bot.client.games.get(self.game_id)
        if mirror is None:
            return set()
        return {
            p.name
            for p in mirror.players.values()
            if p.name in self.players and not p.spectator and p.ping_seconds != -1
        }

    # -- events -------------------------------------------------------------------------------------------

    async def on_game_event(self, event: ClientEvent) -> None:
        if self.finished or self.game_id not in self.bot.client.games:
            return
        name = event.name
        mirror = self.mirror
        if name in ("Event_Join", "Event_PlayerPropertiesChanged", "Event_GameStateChanged"):
            await self.check_seats()
            await self.check_decks()  # also once started: both players may have pressed ready at once
            if not mirror.started:
                self.stopped()
                await self.maybe_ready()
        # The mirror may have started while a line above waited (events are read meanwhile): check again.
        if mirror.started and not self.played and await self.stop_if_illegal():
            return
        if self.stopping:
            return
        if mirror.started:
            if self.watching and not self.announced:  # the players' own ready started it
                self.announced = True
                await self.say(f"The game is on. {self.start_note()} Good luck!")
            self.played = True
            await self.declare_basics()
        if not self.played:
            return
        if name == "Event_SetActivePlayer" and int(event.message.active_player_id) == self.me:  # type: ignore[attr-defined]
            with contextlib.suppress(ClientError, ConnectionError):  # refused, or not connected
                await self.run(pc.next_turn())
        elif name == "Event_SetCounter" and int(event.message.counter_id) == LIFE_COUNTER:  # type: ignore[attr-defined]
            player = self.name_of(event.player_id)
            if player in self.players:  # a life at 0 decides the game soon after (both at 0: a draw)
                self.life_changed(player, int(event.message.value))  # type: ignore[attr-defined]
        elif name == "Event_PlayerPropertiesChanged" and self.is_engine_player(event.player_id):
            props = event.message.player_properties  # type: ignore[attr-defined]
            if props.HasField("conceded") and props.conceded:
                loser = self.name_of(event.player_id)
                await self.decide(winner=self.opponent(loser), reason=f"{loser} concedes", concession=True)
        elif name == "Event_Leave":
            loser = self.left_player(event)
            match = self.match()
            reason = int(getattr(event.message, "reason", 0) or 0)
            dropped = reason == LeaveReason.USER_DISCONNECTED
            if loser and match is not None and not match.decided and (dropped or self.concessions_refused):
                await self.league.cut_short(self, loser, dropped)
            elif loser:
                await self.decide(winner=self.opponent(loser), reason=f"{loser} left", concession=True)
                match = self.match()
                if match is not None and match.decided and match.winner == self.opponent(loser):
                    # told privately too: kept for them if they go offline meanwhile
                    await self.bot.tell(loser, f"You left game #{self.game_id}: {match.winner} wins it.")

    def life_changed(self, name: str, value: int) -> None:
        """``name``'s life counter is ``value`` now: remember it, and when it first reaches 0 or below
        start the wait before the game is decided (:meth:`settle_life`)."""
        self._last_life[name] = value
        if value > 0:
            self._down_since.pop(name, None)
        else:
            self._down_since.setdefault(name, asyncio.get_running_loop().time())
        self.settle_life()

    def settle_life(self) -> None:
        """A life total of the pairing is at 0 or below: decide :attr:`LIFE_SETTLE_SECONDS` after it first
        reached 0, however it moves while at or below 0. Each player sets their own counter, so both at 0
        from one spell (a Magic draw) reach the server one after the other; deciding at the first would give
        the game to whoever was slower. The wait counts from the first 0, not from the last change: a loser
        nudging their life between 0 and -1 would otherwise hold the decision off for ever. A life set back
        above 0 meanwhile takes its player's wait away (the other player's, if at 0 too, goes on)."""
        if self._down_since and (self._life_settle is None or self._life_settle.done()):
            self._life_settle = asyncio.get_running_loop().create_task(self._settle_life())

    def life_deadline(self) -> float | None:
        """When the lives at 0 or below decide the game (the loop's clock): :attr:`LIFE_SETTLE_SECONDS` after
        the first of the players now at 0 or below reached it; None when nobody is."""
        started = [
            since
            for name, since in self._down_since.items()
            if (life := self.life_of(name)) is not None and life <= 0
        ]
        return min(started) + self.LIFE_SETTLE_SECONDS if started else None

    async def _settle_life(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while (deadline := self.life_deadline()) is not None:
                if deadline > loop.time():
                    await asyncio.sleep(deadline - loop.time())
                    continue  # a life may have gone back above 0 meanwhile: its wait is gone
                await self.life_settled()
                return
        except JournalWriteError:  # the journal said why, once; the players may still report the result
            LOGGER.debug("game %d: the result from the life totals was not recorded", self.game_id)
        except Exception:  # a task of its own: nobody else would hear of it
            LOGGER.exception("game %d: deciding from the life totals failed", self.game_id)
        finally:
            self._life_settle = None

    def life_of(self, name: str) -> int | None:
        """``name``'s life counter as the game mirror has it; a seated player whose life counter was deleted
        (Command_DelCounter) keeps the last value the server told (a player at 0 who deletes the counter is
        still at 0). None: not seated, or no life known."""
        mirror = self.bot.client.games.get(self.game_id)
        if mirror is None:
            return None
        for seat in mirror.players.values():
            if seat.name == name and not seat.spectator:
                counter = seat.counters.get(LIFE_COUNTER)
                return counter.value if counter is not None else self._last_life.get(name)
        return None

    async def life_settled(self) -> None:
        """The life totals are still: every player at 0 or below is a draw (the league's draw, as both
        players' ``!result draw``: AutoBattler's replay of a double elimination, Market's point); one player
        at 0 or below loses; nobody (a life set back up meanwhile) decides nothing."""
        if self.finished or self.stopping or self.game_id not in self.bot.client.games:
            return
        lives = {name: self.life_of(name) for name in self.players}
        down = [name for name, life in lives.items() if life is not None and life <= 0]
        if len(down) == len(self.players) > 1:
            both = "both" if len(down) == 2 else "all"
            await self.decide(winner="", draw=True, reason=f"{' and '.join(down)} are {both} at 0 life")
        elif len(down) == 1:
            await self.decide(winner=self.opponent(down[0]), reason=f"{down[0]} is at 0 life")

    @property
    def concessions_refused(self) -> bool:
        """AutoBattler games are played out: a concession (or leaving) decides nothing."""
        return isinstance(self.league.engine, ab.AutoBattlerEngine)

    def left_player(self, event: ClientEvent) -> str:
        """The match player who just left (the mirror has dropped them; find who is missing)."""
        present = {p.name for p in self.mirror.players.values() if not p.spectator}
        missing = [p for p in self.players if p not in present]
        return missing[0] if len(missing) == 1 else ""

    def opponent(self, player: str) -> str:
        return next((p for p in self.players if p != player), "")

    async def check_seats(self) -> None:
        """Only the two players of the pairing may sit; others are told so and kicked (league games take no
        spectators: their shared deck lists would show both pools)."""
        for player in list(self.mirror.players.values()):
            if player.spectator or player.player_id == self.me or not player.name:
                continue
            if player.name not in self.players:
                pairing = " and ".join(self.players)
                watch = " (it takes no spectators)"
                if self.bot.judge_level:  # the judge's game lets spectators in (see create)
                    watch = "; you may join it as a spectator"
                note = f"Game #{self.game_id} is for {pairing}{watch}."
                await self.bot.tell(player.name, note)
                await self.say(f"{player.name}: this seat is for {pairing}.")
                with contextlib.suppress(
                    ClientError, ConnectionError
                ):  # refused or disconnected: nothing to do
                    await self.flush_chat()
                    await self.run(pc.kick_from_game(player.player_id))

    async def check_decks(self) -> None:
        """Check every newly loaded deck of the pairing and say whether it is legal."""
        if unshared := self.deck_lists_unshared():
            await self.trust_loaded_decks(unshared)
            return
        for name in self.players:
            seat = self.seat_of(name)
            if seat is None:
                continue
            deck = self.mirror.players[seat].deck_list
            if not deck or self.checked.get(name) == deck:
                continue
            public, private = self.record_deck(name, deck)
            if private:  # it says what their pool holds, which is theirs alone (the deck list is shared)
                await self.bot.tell(name, shorten(f"Game #{self.game_id}, your {private}.", 900))
                public = f"{public} (the cards: told to {name} privately)"
            await self.say(shorten(f"{name}: {public}."))

    async def trust_loaded_decks(self, unshared: str) -> None:
        """A server whose games cannot share deck lists: a loaded deck (its hash is public) is taken on
        trust, and its player hears once per deck that it was not checked; the game can start."""
        for name in self.players:
            seat = self.seat_of(name)
            deck_hash = self.mirror.players[seat].deck_hash if seat is not None else ""
            if not deck_hash or self.trusted.get(name) == deck_hash:
                continue
            self.trusted[name] = deck_hash
            self.legal[name] = True
            self.problems.pop(name, None)
            await self.say(
                shorten(f"{name}: deck loaded, not checked: {unshared}. Play the deck your pool makes.")
            )

    def start_note(self) -> str:
        """What the game's start line says between its first words and "Good luck!": an AutoBattler
        mini-game's setup (who plays first, hand and life, and :func:`result_rule`), else how the result
        reaches the referee (:func:`result_rule`, as ``!status`` and ``!help`` say it): a Market game's
        start line said nothing of it. Either start line stays one game line (300 characters)."""
        return self.setup_note or result_rule(self.format_name)

    def decks_are(self) -> str:
        """What the referee knows of the pairing's decks, said when the game can start."""
        return "loaded (not checked)" if self.trusted else "legal"

    def record_deck(self, name: str, deck: str) -> tuple[str, str]:
        """Check ``name``'s loaded deck and keep the verdict; return its (public, private) words."""
        self.checked[name] = deck
        problems = check_loaded_deck(self.league.engine, name, deck, self.league.block)
        self.legal[name] = not problems
        public, private = deck_verdict(problems)
        self.problems[name] = private or public
        return public, private

    def take_over_under_way(self) -> None:
        """A restarted referee adopts this game already started: its decks were checked and its start
        announced before the restart, so the loaded decks are recorded without a word and play is
        followed from here (a concession or a life total at 0 decides the match)."""
        for name in self.players:
            seat = self.seat_of(name)
            deck = self.mirror.players[seat].deck_list if seat is not None else ""
            if deck:
                self.record_deck(name, deck)
        self.played = self.announced = self.ready_sent = True

    async def maybe_ready(self) -> None:
        """Seated: press ready once both players sit, ready, with legal decks. Watching: the players'
        own ready starts the game, so take it back while a deck is missing or not legal."""
        seats = [self.seat_of(p) for p in self.players]
        if self.watching:
            legal = all(
                s is not None and self.legal.get(p, False) for s, p in zip(seats, self.players, strict=True)
            )
            if legal and not self.ready_sent:
                self.ready_sent = True
                await self.say(f"Both decks are {self.decks_are()}: press ready to start.")
            self.ready_sent = self.ready_sent and legal
            await self.take_back_ready(legal, self.why_not_started)
            return
        all_ready = all(
            s is not None and self.mirror.players[s].ready_start and self.legal.get(p, False)
            for s, p in zip(seats, self.players, strict=True)
        )
        if all_ready and not self.ready_sent:
            self.ready_sent = True
            await self.say(f"Both decks are {self.decks_are()}: starting. {self.start_note()} Good luck!")
            await self.bot.client.ready_start(self.game_id, True)
        elif not all_ready and self.ready_sent and not self.mirror.started:
            self.ready_sent = False
            with contextlib.suppress(ClientError, ConnectionError):  # refused, or not connected
                await self.bot.client.ready_start(self.game_id, False)

    async def stop_if_illegal(self) -> bool:
        """Watching: the game started before a deck of the pairing was found legal; stop it."""
        for name in self.players:
            seat = self.seat_of(name)
            if seat is not None and not self.legal.get(name, False):
                return await self.stop_started_game(seat)
        return False

    def why_not_started(self, player: PlayerState) -> str:
        if not self.legal.get(player.name, False):
            problems = self.problems.get(player.name, "deck not legal")
            return f"The game cannot start yet: your {problems}. Load a legal deck, then press ready again."
        opponent = self.opponent(player.name)
        waiting = f"{opponent}'s legal deck" if self.seat_of(opponent) is not None else f"{opponent} to sit"
        return self.waiting_line(waiting)

    async def declare_basics(self) -> None:
        """AutoBattler: the mini-game started; tell the engine each player's basic lands, once (a change
        from the last mini-game's costs ``basics_change_fee``)."""
        engine = self.league.engine
        if not isinstance(engine, ab.AutoBattlerEngine) or self.basics_declared:
            return
        self.basics_declared = True
        if engine.config.basics_change_fee <= 0:
            return
        basics = {n.casefold() for n in engine.config.basic_land_names}
        for name in self.players:
            read = deck_names(self.checked.get(name, ""))
            if read is None:  # not checked by this process (it restarted mid-game): nothing to compare
                continue
            lands = tuple(n for n in read[0] if n.casefold() in basics)
            try:
                effects = self.league.table.apply(ab.PlayWithBasics(player=None, target=name, lands=lands))
            except RulesError as exc:  # declared before a restart, or not playing (a Ghost's opponent...)
                LOGGER.info("game %d: basics of %s not taken: %s", self.game_id, name, exc)
                continue
            await self.league.perform(effects)

    def count_treasures(self, name: str) -> int | None:
        seat = self.seat_of(name)
        if seat is None:
            return None
        player = self.mirror.players[seat]
        if player.conceded:
            return None
        return sum(
            1 for c in player.zone("table").cards if c.name.casefold() in ("treasure", "treasure token")
        )

    async def report_treasures(self) -> None:
        """AutoBattler: report the Treasures each player still has on the battlefield."""
        engine = self.league.engine
        if not isinstance(engine, ab.AutoBattlerEngine) or not self.mirror.started:
            return
        for name in self.players:
            count = self.count_treasures(name)
            if count is None:
                continue
            try:
                await self.league.perform(
                    self.league.table.apply(ab.ReportTreasures(player=None, target=name, count=count))
                )
            except RulesError as exc:
                LOGGER.info("game %d: treasures of %s refused: %s", self.game_id, name, exc)

    async def decide(self, *, winner: str, reason: str, concession: bool = False, draw: bool = False) -> None:
        """The game showed a result: record it (the engine may refuse a concession). ``draw``: the same
        draw both players' ``!result draw`` would record."""
        match = self.match()
        if match is None or match.decided or not (winner or draw):
            return
        if isinstance(self.league.engine, ab.AutoBattlerEngine) and not concession:
            await self.report_treasures()
        if draw:
            action = core.ReportResult(player=None, draw=True, match_of=self.players[0])
        else:
            action = core.ReportResult(player=None, winner=winner, by_concession=concession)
        try:
            effects = self.league.table.apply(action)
        except RulesError as exc:
            if exc.code == "concession_not_allowed":
                again = (  # watching, Cockatrice stops a two-player game at a concession
                    "Both press ready to play it again"
                    if self.watching
                    else "Unconcede and play on to 0 life"
                )
                await self.say(
                    f"{reason}: concessions do not decide AutoBattler games. {again},"
                    " or both send me !result win|loss|draw by private message."
                )
                return
            LOGGER.info("game %d: result refused: %s", self.game_id, exc)
            return
        line = f"{reason}: a draw." if draw else f"{reason}: {winner} wins."
        self.result_said.append((line, line))
        await self.say(line)
        await self.league.perform(effects)

    async def result_recorded(self, effect: core.ResultRecorded) -> None:
        """The match is decided: thank the players, say they may leave, and stay (see :meth:`close`)."""
        if self.finished:
            return
        result = "a draw" if effect.draw else f"{effect.winner} wins"
        line = (
            f"Result recorded: {result}. Thanks for playing! This game is over: please leave it (the server"
            " counts an open game against the referee's games until its last player leaves)."
        )
        self.result_said.append((line, f"Result recorded: {result}."))
        await self.say(line)
        await self.close(f"game over ({result})")

    async def finish(self, reason: str, *, linger: float | None = None) -> None:
        """Every player left. A finished game: leave it too (it closes). Otherwise the game still waits for
        its pairing (the league's result for the match closes it, see :meth:`result_recorded`)."""
        if self.finished:
            await self.leave()

    async def close(self, reason: str = "game over") -> None:
        """The game is over (its result recorded, or cut short): the league forgets it; the referee stays in
        it, finished, so the room can close it for a new game (:meth:`leave`, which the bot calls when the
        server's limit of games per account is reached). It leaves when the last player has gone, or after
        :attr:`LINGER_SECONDS`."""
        if self.finished or self.closed:
            return
        self.finished = reason
        if self._life_settle is not None and self._life_settle is not asyncio.current_task():
            self._life_settle.cancel()  # decided otherwise (a concession, both players' !result)
        self._life_settle = None
        self.league.forget(self)
        if reason.startswith("game over"):  # played out; one cut short keeps its record (see mark_cut)
            self.league.forget_game_record(self.game_id, over=True)
        self.views_changed()
        if self.game_id not in self.bot.client.games or not self.humans():
            await self.leave()
        elif self._leave_timer is None:
            loop = asyncio.get_running_loop()
            self._leave_timer = loop.call_later(
                self.LINGER_SECONDS,
                lambda: loop.create_task(self.leave(CLOSED_AFTER_LINGER, line_wait=LINGER_LINE_WAIT)),
            )

    async def leave(self, line: str = CLOSED_FOR_ROOM, *, line_wait: float = CLOSING_LINE_WAIT) -> None:
        """Leave the game. A finished one is closed first: its players still in it hear ``line`` and are
        kicked (we are its host), so the server closes it and it stops counting against our limit.

        The slot is not held for the chat: the players wait for ``line`` at most ``line_wait`` seconds (by
        default :data:`CLOSING_LINE_WAIT`, as the runtime's ``_create_game`` calls it at the server's game
        limit), then what the game's chat still holds is dropped (a busy referee's lines can wait longer, and
        a kicked player reads no more of it): a line that says the result and has not left by then reaches
        the pairing privately (:meth:`tell_result_unsaid`), before any kick."""
        if self.closed:
            return
        hosting = self.finished and self.game_id in self.bot.client.games and not self.watching
        humans = self.humans() if hosting else []
        if humans:  # nobody left in the game: no wait, a result line still queued goes privately at once
            with contextlib.suppress(ClientError, ConnectionError):  # refused, or not connected
                await self.say(line)
                await self.bot.chat.flush(self.chat_destination, timeout=line_wait)
        await self.tell_result_unsaid()
        for player in humans:
            with contextlib.suppress(ClientError, ConnectionError):
                await self.run(pc.kick_from_game(player.player_id))
        if hosting:  # nobody is left to read the game's chat: leaving does not wait for it
            self.bot.chat.drop(self.chat_destination)
        with contextlib.suppress(ClientError, ConnectionError):  # refused, or not connected
            await super().leave()

    async def tell_result_unsaid(self) -> None:
        """The game is left while its chat still holds a line that says its result (waiting for the chat
        budget, it would be dropped with the game): each player of the pairing hears the result privately
        instead (kept for them while they are offline). A player who left the league hears nothing of it."""
        unsaid = [
            words for line, words in self.result_said if self.bot.chat.queued(self.chat_destination, line)
        ]
        self.result_said.clear()
        if not unsaid:
            return
        for name in self.players:
            if name not in self.league.left:
                await self.bot.tell(
                    name, f"Game #{self.game_id} closes before its chat could say it: {unsaid[0]}"
                )

    def stopping_line(self) -> tuple[str, bool]:
        """A league game is kept in its league's record: a restart opens the pairing's game again."""
        return f"{self.STOPPING} this league game is kept in the league's record for when it is back.", True

    async def on_seat_lost(self, *, renumbered: bool = False) -> None:
        """A league game is the league's to open again (a new game for the pairing), not a ``!resume``."""
        LOGGER.warning(
            "league %s: game %d is gone from the server; opening it again", self.league.key, self.game_id
        )
        self.finished = "lost"
        await self.league.game_lost(self)

    async def on_helper_closed(self, closed: str) -> None:
        """The helper account that refereed it was closed: its league opens the game again."""
        await self.on_seat_lost()

    async def on_reconnected(self) -> None:
        """Re-seated (restart or reconnect): re-check the decks of a game not started yet."""
        if self.finished or self.game_id not in self.bot.client.games:
            return
        if not self.mirror.started:
            self.checked.clear()
            self.trusted.clear()
            await self.check_decks()
            await self.maybe_ready()
