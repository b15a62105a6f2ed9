"""Referees: what binds one room's commands, or one game, to a format engine and its journaled table.

A :class:`Referee` answers chat commands of one scope (room, game, private); a :class:`GameReferee` binds one
Cockatrice game to one journaled :class:`~cockatrice_ext.journal.Table`: it turns chat commands and game
events into engine actions and the engine's effects into short chat lines and game commands, tracks the
bot's own deck (the shared pile) and deals from it, and runs the game's lifecycle (finish, linger, leave,
a lost seat). Refusals (a :class:`~cockatrice_ext.bot.commands.CommandError` or the engine's ``RulesError``)
become one line addressed to the sender; nothing changes. The session that routes events to referees is
:class:`~cockatrice_ext.bot.runtime.Bot`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import inspect
import logging
import math
import re
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from cockatrice_ext.bot.absent import AbsentPlayers
from cockatrice_ext.bot.blocks import pile_cod
from cockatrice_ext.bot.board import GameBoard, OwnDeck
from cockatrice_ext.bot.chat import Line
from cockatrice_ext.bot.commands import (
    PREFIX,
    BadArgument,
    CommandError,
    CommandSet,
    Invocation,
    NotAllowed,
    Rest,
    command,
    elsewhere_reason,
    help_topic,
    looks_like_command,
    parse_invocation,
    unknown_reply,
)
from cockatrice_ext.bot.missed import MissedLines
from cockatrice_ext.bot.serial import SerialWork
from cockatrice_ext.bot.words import (
    MAX_CHAT_LINE,
    SPECTATOR_LINE,
    Refusal,
    brief,
    either,
    over_words,
    render_refusal,
    shorten,
)
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.client.errors import ClientError
from cockatrice_ext.client.mirror import GameMirror, PlayerState
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.formats.base import Effect, RulesError
from cockatrice_ext.journal import DuplicateAction, JournalWriteError, Table
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol.codes import LeaveReason

if TYPE_CHECKING:
    from cockatrice_ext.bot.runtime import Bot

LOGGER = logging.getLogger(__name__)


ABANDONED = "abandoned: every player left"
"""The journal's reason for a started game every seated player left."""


@dataclass
class ActionIds:
    """Ids for the actions one chat command applies: the command's id and a running number."""

    command: str
    count: int = 0
    recorded: int = 0
    """Actions the journal accepted for this command (a server refusal after one does not undo it)."""

    def next(self) -> str:
        self.count += 1
        return f"{self.command}/{self.count}"


COMMAND_ACTION_IDS: contextvars.ContextVar[ActionIds | None] = contextvars.ContextVar(
    "command_action_ids", default=None
)
"""Set while a game chat command is handled (and inherited by the timers it arms)."""

GAME_REQUESTER: contextvars.ContextVar[str] = contextvars.ContextVar("game_requester", default="")
"""The user on whose request a game is being opened: the server's sender name of the room command that runs,
set only for room commands that open one game per request (a format's ``new``, ``!resume``); empty for a
league's games, which the league opens for its pairings."""


ANNOUNCING: contextvars.ContextVar[list[Callable[[float], None]] | None] = contextvars.ContextVar(
    "announcing", default=None
)
"""Set while a room command runs: the clocks of the games it opened (:meth:`Bot.note_opened`), each started
(given the loop time) when the command's next answer leaves the chat queue (:meth:`Context.reply`): a game
nobody has heard of yet is not "unjoined" (the room's answers may wait for the chat budget)."""


def asked_by(requester: str) -> str:
    """The words naming who asked for a game in its announcement (", asked by ann"; "" for nobody): when
    two players ask at once, each finds their own game."""
    return f", asked by {requester}" if requester else ""


CANCEL_HINT = "; !cancel closes it now"
"""Said after the refusal of a new game while the sender's own game waits with nobody else in it."""


def refuse_if_waiting(bot: Bot) -> None:
    """Refuse the user asking for a game (:data:`GAME_REQUESTER`) while their earlier game still waits for
    players (the runtime's rule, :meth:`Bot.refuse_if_waiting`), saying that ``!cancel`` takes it back when it
    can (nobody but them sits in it: :func:`cancellable`).

    Raises:
        NotAllowed: which game waits, and how to close it.
    """
    requester = GAME_REQUESTER.get()
    if not requester:
        return
    main = bot.main or bot
    try:
        main.refuse_if_waiting(requester)
    except NotAllowed as exc:
        waiting = [game_id for game_id, _ in main.waiting_games_of(requester)]
        if any(cancellable(main, game_id, requester) == "" for game_id in waiting):
            raise NotAllowed(exc.reason + CANCEL_HINT) from None
        raise


def cancellable(bot: Bot, game_id: int, user: str) -> str:
    """Why ``user`` may not cancel game ``game_id`` (one phrase), or "" when they may: it was opened at their
    request (the server's sender name) and still waits for players with nobody but them seated."""
    main = bot.main or bot
    for session in main.sessions:
        referee = session.games.get(game_id)
        opened = session.opened.get(game_id)
        if referee is None and opened is None:
            continue
        if opened is None or opened.requester != user:
            return f"game #{game_id} was not opened at your request: only who asked for a game may cancel it"
        if referee is None:
            return f"game #{game_id} is still being set up: try again in a moment"
        if not referee.waiting_for_players:
            state = "over" if referee.finished else "under way"
            return f"game #{game_id} is {state}: only a game still waiting for its players can be cancelled"
        if not session.nobody_joined(referee, opened):
            if referee.is_at_table(user):
                return (
                    f"game #{game_id} has players besides you already: leave it, and it closes when they do"
                )
            return f"game #{game_id} has players already: it is theirs now, and it closes when they leave"
        return ""
    return f"the referee has no game #{game_id}"


@dataclass
class OpenedGame:
    """A game opened on a user's request: who asked (the server's name), where, and when (loop time)."""

    requester: str
    room_id: int
    opened_at: float
    heard_at: float | None = None
    """When its announcement left the chat queue (loop time; None: not yet): the unjoined clock starts there
    (:meth:`Bot.note_heard`)."""

    def unjoined_for(self, now: float) -> float:
        """Seconds it has been waiting since players heard of it (0 before they did)."""
        return 0.0 if self.heard_at is None else max(0.0, now - self.heard_at)


ROOM_COMMANDS_PER_WINDOW = 3
"""Room commands of one user (the server's sender name) answered per :data:`ROOM_COMMAND_WINDOW`: every room
answer goes through the room's one chat queue, and the connection's budget (about 1,000 characters per 10 s,
shipped) holds about three long answers, so one user saying ``!help`` every second would otherwise delay
everybody's room answers without bound. It holds only while room answers wait for the budget: in a quiet room
(every answer already sent) nobody is refused, and people asking by hand stay well under it anyway."""

ROOM_COMMAND_WINDOW = 10.0
"""Seconds over which :data:`ROOM_COMMANDS_PER_WINDOW` counts (Servatrice's chat window, shipped)."""


class GameIsOver(NotAllowed, RulesError):
    """An action after the game is over (:attr:`GameReferee.finished`): refused and journaled nowhere. A
    command's refusal ("the game is over") and a rules refusal at once, so that a timer or an event's move
    (which expects the engine's refusals) takes it as one too."""

    def __init__(self) -> None:
        super().__init__("the game is over")
        self.code = "game_over"
        self.details = {}


class CommandAllowance:
    """How many room commands each sender had answered lately: while the room's answers wait for the chat
    budget, a command past the allowance is not answered, and its sender is told so once per window (so the
    notice cannot be repeated into a flood either)."""

    def __init__(
        self, per_window: int = ROOM_COMMANDS_PER_WINDOW, window: float = ROOM_COMMAND_WINDOW
    ) -> None:
        self.per_window = per_window
        self.window = window
        self._answered: dict[str, deque[float]] = {}
        self._told: dict[str, float] = {}

    def verdict(self, sender: str, now: float, *, busy: bool = True) -> str:
        """``"answer"`` (counted), ``"notice"`` (over the allowance: tell the sender, once per window) or
        ``"drop"`` (over it, and already told) for a command of ``sender`` at loop time ``now``; while not
        ``busy`` (no room answer waits) every command is answered, and counted."""
        if self.allows(sender, now, busy=busy):
            self.count(sender, now)
            return "answer"
        return "notice" if self.notice_due(sender, now) else "drop"

    def allows(self, sender: str, now: float, *, busy: bool = True) -> bool:
        """Whether a command of ``sender`` at ``now`` is within the allowance (always, while not ``busy``);
        not counted (:meth:`count`): a game counts only what turned out not to be a move."""
        self._forget_quiet(now)
        return not busy or len(self._answered.get(sender, ())) < self.per_window

    def count(self, sender: str, now: float) -> None:
        """Count one answered command of ``sender`` at ``now``."""
        answered = self._answered.setdefault(sender, deque())
        answered.append(now)
        while len(answered) > self.per_window:
            answered.popleft()

    def notice_due(self, sender: str, now: float) -> bool:
        """Whether ``sender``, past the allowance, is to be told so now (once per window); noted if so."""
        if now - self._told.get(sender, -math.inf) >= self.window:
            self._told[sender] = now
            return True
        return False

    def _forget_quiet(self, now: float) -> None:
        """Forget what lies a window back (so memory holds only the senders of the last window)."""
        for sender in list(self._answered):
            answered = self._answered[sender]
            while answered and now - answered[0] >= self.window:
                answered.popleft()
            if not answered:
                del self._answered[sender]
        for sender, told in list(self._told.items()):
            if now - told >= self.window:
                del self._told[sender]


GAME_COMMANDS_PER_WINDOW = 3
"""Informational answers (help, rules, state, refusals) of one sender answered per :data:`GAME_COMMAND_WINDOW`
in one game while its chat queue waits for the budget: a spectator saying ``!help`` every second delayed a
player's ``!gold`` by 15 s. Moves are never counted nor throttled."""

GAME_COMMAND_WINDOW = 10.0
"""Seconds over which :data:`GAME_COMMANDS_PER_WINDOW` counts."""

CHAT_BUSY_LOAD = 0.5
"""How full a session's chat window (sent and waiting, :meth:`Bot.chat_load`) is when a game's waiting answers
count as waiting for the budget (:meth:`GameReferee.chat_busy`)."""


@dataclass
class Context:
    """Who said a command, where, and how to answer them."""

    bot: Bot
    scope: str  # "game" | "room" | "private"
    sender: str
    player_id: int | None = None
    game_id: int | None = None
    room_id: int | None = None
    reply_hook: Callable[[str], Awaitable[None]] | None = field(default=None, repr=False)
    line_hook: Callable[[Line], Awaitable[None]] | None = field(default=None, repr=False)
    """Like ``reply_hook`` (and before it), for a place whose answers may wait for the chat budget (game
    chat): a renderer is handed over as it is, to be drawn as the answer leaves, not when it is said."""
    page: bool = False
    """Said by a button of the player's web page (which sends back which lists it drew: see the web view's
    ``seen``), not typed in chat."""

    async def reply(self, text: Line) -> None:
        """Answer where the command came from (private messages are answered privately); a callable is
        rendered when the answer leaves (an answer waiting for the chat budget stays true)."""
        starters = ANNOUNCING.get()
        heard = None
        if starters:  # the games this command opened: their clocks start when this answer leaves
            taken = list(starters)
            starters.clear()

            def heard(at: float) -> None:
                for start in taken:
                    start(at)

        if self.line_hook is not None or self.reply_hook is not None:
            if self.line_hook is not None:
                await self.line_hook(text)
            elif self.reply_hook is not None:
                await self.reply_hook(text() if callable(text) else text)
            if heard is not None:
                heard(asyncio.get_running_loop().time())
        elif self.scope == "private":
            await self.bot.tell(self.sender, text, **({"on_sent": heard} if heard else {}))
        elif self.scope == "room" and self.room_id is not None:
            await self.bot.room_say(self.room_id, text, **({"on_sent": heard} if heard else {}))
        elif heard is not None:
            heard(asyncio.get_running_loop().time())


NUMBERS_UNREAD = (
    "your new list is still on its way to you (the chat is busy): say it again by number once it has"
    " arrived, or by name now"
)
"""Why a command by number waits: see :func:`require_lists_read`."""


def require_lists_read(ctx: Context, *refs: object, held: bool = False) -> None:
    """Refuse a command typed in chat whose numbers point into a list that may not have reached its sender
    yet (``refs``: its card references as read, an ``int`` where a number was read as a position, a ``str``
    where a name was typed): while private lines to them still wait for the chat budget, the list
    they read may be an older one (their pack was passed on or refilled, the market moved), and a second
    ``!pick 3`` typed because the first got no answer yet took a card from a pack they had never seen. A
    name means the same card in any list, and a page button says which lists it drew (the web view refuses
    it when they changed), so neither is held up.

    ``held``: the caller still holds lines for the sender back, not queued yet (a league's follow-up waits
    for their first line to leave before it is queued: the pool a ``!swap SHOP POOL`` numbers is in it),
    so the chat queue alone cannot show that a list is owed to them.

    Raises:
        NotAllowed: with :data:`NUMBERS_UNREAD`.
    """
    if ctx.page or not any(isinstance(ref, int) and not isinstance(ref, bool) for ref in refs):
        return
    if held:
        raise NotAllowed(NUMBERS_UNREAD)
    main = ctx.bot.main or ctx.bot  # a game's private lines leave from its own session (--extra-user)
    if any(session.chat.pending(("user", ctx.sender)) for session in main.sessions):
        raise NotAllowed(NUMBERS_UNREAD)


def deck_lists_unshared(bot: Bot) -> str:
    """Why the players' loaded deck lists cannot reach ``bot`` on its server, or "" when they can (see
    :attr:`~cockatrice_ext.client.client.ServerInfo.shares_deck_lists`)."""
    server = bot.client.server
    if server is None or server.shares_deck_lists:
        return ""
    return (
        f"this server (Servatrice {server.version_number}) does not share deck lists (Servatrice 2.11"
        " and later do)"
    )


class Referee:
    """Base of every format adapter: owns its commands and explains the engine's refusals."""

    format_name: ClassVar[str] = ""
    refusals: ClassVar[dict[str, str]] = {}
    """Engine ``RulesError.code`` -> a short sentence (``{detail}`` fields are filled in)."""
    opens_games_on_request: ClassVar[bool] = False
    """Whether this room referee's commands open a game for the user who asks (:data:`GAME_REQUESTER`):
    such games count against that user's waiting games and close when nobody joins them."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.commands = CommandSet(self)

    PLAYER_DETAILS: ClassVar[frozenset[str]] = frozenset(
        {"player", "to_bid", "active", "target", "winner", "expected", "owner"}
    )

    def explain(self, error: RulesError) -> str:
        """One line telling a player why the engine refused (player ids in the details become names)."""
        template = self.refusals.get(error.code)
        if template is None:
            return error.code.replace("_", " ")
        details = {
            key: self.display_player(value) if key in self.PLAYER_DETAILS else value
            for key, value in error.details.items()
        }
        try:
            return template.format(**details)
        except (KeyError, IndexError, ValueError):
            return template

    def display_player(self, player: Any) -> str:
        """How a player id is shown in chat (game referees use the seat's name)."""
        return str(player)

    def refusal(self, error: RulesError, ctx: Context) -> Refusal:
        """The engine's refusal of ``ctx``'s command as :func:`render_refusal` renders it for this format."""
        return render_refusal(
            self.explain(error), error, hidden=self.hidden_card_names(ctx), shown=self.shown_card_name
        )

    def hidden_card_names(self, ctx: Context) -> Collection[str] | None:
        """Override: the cards the sender of ``ctx`` sees and the other players must not (their hand, their
        pack); a refusal naming one goes to the sender alone. None (this default): the format does not say,
        so a refusal suggesting any card (``candidates``, ``closest``) goes to the sender alone."""
        return None

    def shown_card_name(self, name: str) -> str:
        """Override: an engine card name as the players' client shows it (a double-faced card by its front
        face)."""
        return name

    async def tell_refusal(self, ctx: Context, text: str) -> None:
        """A refusal that names hidden cards, to its sender alone (never in a game's or room's chat), and a
        pointer to it where the command was said."""
        if ctx.scope == "private":
            await ctx.reply(text)
            return
        await ctx.bot.tell(ctx.sender, text)
        await ctx.reply(f"{ctx.sender}: refused (the reason was sent to you privately).")

    def deck_lists_unshared(self) -> str:
        """Why the players' loaded deck lists cannot reach the referee on this server, or "" when they
        can (:func:`deck_lists_unshared`)."""
        return deck_lists_unshared(self.bot)

    async def on_room_left(self, room_id: int, user: str) -> None:
        """``user`` left room ``room_id`` (logged off, or went): a room referee forgets what they waited
        for there (a league's lobby)."""

    def waiting_games(self) -> list[str]:
        """Games of this room referee that exist in no server game right now (a league game cut short
        until its player is back), one phrase each, for the room's ``!games``."""
        return []

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """Run ``text`` as a command of this referee if it is one; report refusals to the sender."""
        try:
            invocation = parse_invocation(text)
        except CommandError as exc:
            await ctx.reply(shorten(f"{ctx.sender}: {exc.reason}"))
            return True
        if invocation is None:
            return False
        try:
            return await self.commands.invoke(ctx, invocation, ctx.scope)
        except BadArgument as exc:
            await ctx.reply(shorten(f"{ctx.sender}: {exc.reason}{room_form(ctx, invocation)}"))
        except CommandError as exc:
            sender, render = ctx.sender, exc.render
            if render is not None:  # worded as it leaves: true when read
                await ctx.reply(lambda: shorten(f"{sender}: {render()}"))
            else:
                await ctx.reply(shorten(f"{ctx.sender}: {exc.reason}"))
        except RulesError as exc:
            refusal = self.refusal(exc, ctx)
            if refusal.private:
                await self.tell_refusal(ctx, shorten(f"Refused: {refusal.text}", 900))
            else:
                await ctx.reply(shorten(f"{ctx.sender}: {refusal.text}"))
        except (ClientError, TimeoutError) as exc:  # the server refused (or never answered) what it needed
            if self.left_meanwhile(ctx.sender):  # a card of theirs could not move: it went with them
                LOGGER.info("%s: %s failed on the server after they left: %s", ctx.sender, text, exc)
                return True
            LOGGER.warning("%s: %s failed on the server: %s", ctx.sender, text, exc or "no answer in time")
            why = f"the server refused it: {exc}" if isinstance(exc, ClientError) else "no answer in time"
            await ctx.reply(shorten(f"{ctx.sender}: {self._what_happened(why)}"))
        except JournalWriteError as exc:  # the journal logged why, once; the game is as it was before
            ids = COMMAND_ACTION_IDS.get()
            if ids is not None and ids.recorded:  # an earlier action of the command was recorded
                await ctx.reply(shorten(f"{ctx.sender}: {self._what_happened(exc.public)}"))
            else:
                await ctx.reply(shorten(f"{ctx.sender}: {exc.public}; nothing changed: try again later"))
        except Exception:  # a fault of ours: the player still gets an answer, the operator the traceback
            LOGGER.exception("%s: %r failed", ctx.sender, text)
            why = "a fault of the referee's own, written to its log"
            await ctx.reply(shorten(f"{ctx.sender}: {self._what_happened(why)}"))
        return True

    def help_lines(self, scope: str) -> list[str]:
        return [f"{spec.usage} - {spec.help}" for spec in self.commands.listing(scope)]

    def left_meanwhile(self, sender: str) -> bool:
        """Whether ``sender`` left the game this referee holds while their command ran (a game referee
        says; a room has no seats)."""
        return False

    @staticmethod
    def _what_happened(why: str) -> str:
        """A failed command's answer, ``why`` it failed: whether the rules took it (only showing it failed,
        so it counts) or nothing changed."""
        ids = COMMAND_ACTION_IDS.get()
        if ids is not None and ids.recorded:
            return (
                f"the referee recorded that, but could not show all of it ({why}); the table may lag behind"
            )
        return f"that did not go through ({why}); nothing changed"


class GameReferee(GameBoard, AbsentPlayers, Referee):
    """A referee for one Cockatrice game, backed by one journaled engine table."""

    finished: str = ""
    """Why the game is over ("" while it goes on; set per game in ``__init__``): then no action is applied."""

    takes_private_commands: ClassVar[bool] = False
    """Whether its players may say its ``private`` scope commands by private message to the referee (Vortex:
    a pick by name would tell the table): the runtime finds their game by the server's name for them
    (:meth:`private_seat`) and runs them there (:meth:`on_private_command`)."""

    def __init__(self, bot: Bot, game_id: int, room_id: int, *, table_key: str | None = None) -> None:
        super().__init__(bot)
        self.game_id = game_id
        self.room_id = room_id
        self.table_key = table_key or f"{bot.server_key}:game:{game_id}"
        self.table: Table | None = None
        self.closed = False
        self.finished = ""  # why the game is over ("" while it goes on); the bot leaves it soon after
        self.own_deck = OwnDeck()
        self.seat_names: dict[int, str] = {}  # every player ever seated: names outlive a player leaving
        self._leave_timer: asyncio.TimerHandle | None = None
        self._commands_this_second = (-1, 0)  # (the game's clock, commands seen at that second)
        self._reminded: set[tuple[int, str]] = set()  # (player, text) said once: why no start
        self.stopping = False  # a started game is being stopped for an illegal deck (not a result)
        self.missed = MissedLines()  # game lines players whose connection dropped have not seen
        self._was_started = False  # the server has shown this game started (a stop afterwards is a stop)
        self._before_start: list[tuple[tuple[Any, ...], int | None]] = []  # refused as not started yet
        self._closing_unjoined = False  # its requester is being kicked: their leaving does not end the game
        self.rejoining = False  # the connection dropped; the game's seats are read again once it is back
        self.absent_since: dict[int, float] = {}  # seats whose connection is gone -> since (the loop's clock)
        self._absent_watch: dict[int, asyncio.Task[None]] = {}  # seat -> the task that says it once
        self._absent_told: set[int] = set()  # seats whose absence the game's chat heard (not back since)
        self.dropping: set[int] = set()  # seats taken out by !drop: gone by the rules' word, not the server's
        self.spectator_ids: set[int] = set()  # who joined to watch: their leaving changes nothing
        self.left_empty = False  # the referee left the game with no player seated in it
        self.chat_allowance = CommandAllowance(GAME_COMMANDS_PER_WINDOW, GAME_COMMAND_WINDOW)
        """Each sender's informational answers lately (:meth:`on_chat`): no one sender delays the others'."""
        self.answers_drawn_later: dict[Any, int] = {}
        """The latest answer of each renderer drawn as it leaves (:meth:`answer_drawn_later`)."""
        self.work = SerialWork(f"game {game_id}")
        """This game's events and private commands, handled in order without holding up other games
        (:meth:`Bot.deliver`)."""

    # -- plumbing ----------------------------------------------------------------------------------

    @property
    def mirror(self) -> GameMirror:
        return self.bot.client.games[self.game_id]

    @property
    def me(self) -> int:
        return self.mirror.local_player_id

    def player_name(self, player_id: Any) -> str:
        """The seat's user name, also after that player left (ids are never shown to players)."""
        if not isinstance(player_id, int):
            return str(player_id)
        player = self.mirror.players.get(player_id) if self.game_id in self.bot.client.games else None
        if player is not None and player.name:
            self.seat_names[player_id] = player.name
            return player.name
        seen = self.bot.client.games.get(self.game_id) if self.bot.client is not None else None
        known = self.seat_names.get(player_id) or (seen.names_seen.get(player_id) if seen is not None else "")
        return known or "a player who left"

    @property
    def seats_known(self) -> bool:
        """Whether this game's seats, as the bot sees them, are the server's word: the game is in the client's
        mirror with the full state of its last (re)join (our own seat is in it), and the bot is not between a
        lost connection and being back (:meth:`Bot._on_reconnected`, which reads the seats again once).

        While this is false a seat missing from the mirror says nothing about a player: after a reconnect
        the client starts each game's mirror anew from ``Event_GameJoined`` and fills it with the
        ``Event_GameStateChanged`` that follows, and events queued meanwhile are handled in between. Nobody
        is ever taken for gone (a departure settled, a game abandoned) from such a view."""
        if self.rejoining:
            return False
        mirror = self.bot.client.games.get(self.game_id)
        return mirror is not None and mirror.local_player is not None

    async def until_seats_known(self, timeout: float = 5.0) -> bool:
        """Wait (at most ``timeout`` s) until the game's full state is in the mirror: a game joined again is
        announced before its state arrives (:attr:`seats_known`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.seats_known and loop.time() < deadline and not self.rejoining:
            await asyncio.sleep(0.05)
        return self.seats_known

    def remember_names(self) -> None:
        for player in self.mirror.players.values():
            if player.name:
                self.seat_names[player.player_id] = player.name
            if player.spectator:
                self.spectator_ids.add(player.player_id)

    def display_player(self, player: Any) -> str:
        return self.player_name(player)

    def humans(self) -> list[PlayerState]:
        """Seated players other than the bot, in turn order (player id order)."""
        return [p for p in self.mirror.seated_players if p.player_id != self.me]

    def players_at_start(self) -> list[int]:
        """The seats (not the bot's) the game started with, in player id order, whether or not they are
        still seated: one who left the moment it started is seated by the rules, then leaves as the server
        says (its leave is handled after the start); the seats now if the start was not seen."""
        started = sorted(p for p in self.mirror.started_with if p != self.me)
        return started or [p.player_id for p in self.humans()]

    @property
    def chat_destination(self) -> tuple[str, int]:
        return ("game", self.game_id)

    async def say(self, text: Line) -> None:
        """Queue a short line for the game's chat (the bot's fair chat scheduler sends it; a callable is
        rendered as it leaves); players whose connection is gone are told it when they are back
        (:meth:`tell_missed`)."""
        self.bot.chat.say(self.chat_destination, text)
        if self.game_id in self.bot.client.games:
            away = {p.player_id for p in self.humans() if p.ping_seconds < 0}
            self.missed.said(text() if callable(text) else text, asyncio.get_running_loop().time(), away)

    def set_up(self, *steps: Callable[[], Awaitable[object]]) -> None:
        """Send the game's first commands (the referee's deck, its ready) from the game's own queue, ahead
        of the game's events: Servatrice counts them against the session's game-command budget, and the room
        command that opened the game (and the whole room with it) must not wait for that budget. A step the
        server refuses ends the set-up: the game's chat and the log say so."""

        async def run() -> None:
            try:
                for step in steps:
                    await step()
            except ClientError as exc:
                if self.closed or self.game_id not in self.bot.client.games:
                    return  # gone meanwhile: nothing to set up, nobody to tell
                LOGGER.warning("game %d: not set up: %s", self.game_id, exc)
                await self.say(
                    "The referee could not get this game ready (the server refused: see its log): leave it"
                    " and ask for a new game in the room."
                )

        self.work.submit(run)

    async def tell(self, user_name: str, text: Line, *, raw: bool = False) -> None:
        """Queue a private line about this game, from the session that referees it: it shares that session's
        budget and queue with the game's own lines, so a pack or hand listing leaves before the public prompt
        that points to it (:meth:`ChatScheduler.flush`); kept while the player is offline. Players answer in
        game chat, so they need not write back to this account. To a user who sits in several of the bot's
        games the line says which game it is about (``#12: Your pack ...``)."""
        mark = "" if raw else self.game_mark(user_name)
        if mark and isinstance(text, str):
            text = mark + text
        elif mark and callable(text):
            text = _marked(text, mark)
        self.bot.chat.say(("user", user_name), text, raw=raw)

    def game_mark(self, user_name: str) -> str:
        """``#N: `` when ``user_name`` sits in another of the bot's games too, or is in a league of the bot
        other than this game's own (its private lines share the conversation: a Combat hand was read as the
        AutoBattler one), so a private line says which game it is about; else "". A game that is over
        (still open while its players leave) counts for nothing: seen, a Vortex player's lines marked for
        minutes after their other game had ended."""
        if not self.is_at_table(user_name):
            return ""
        others = (
            r
            for gid, r in self.bot.all_games().items()
            if gid != self.game_id and not (r.finished or r.closed)
        )
        in_league = any(
            callable(is_member := getattr(r, "is_member", None)) and is_member(user_name)
            for r in getattr(self.bot, "private_referees", ())
            if r is not getattr(self, "league", None)  # a league's own game speaks for that league
        )
        return f"#{self.game_id}: " if in_league or any(r.is_at_table(user_name) for r in others) else ""

    async def tell_refusal(self, ctx: Context, text: str) -> None:
        """:meth:`Referee.tell_refusal` from the session that referees this game (:meth:`tell`)."""
        if ctx.scope == "private":
            await ctx.reply(text)
            return
        await self.tell(ctx.sender, text)
        await ctx.reply(f"{ctx.sender}: refused (the reason was sent to you privately).")

    def private_seat(self, user: str) -> int | None:
        """The seat of ``user`` (a name the server gave: a private message's sender) if they sit in this
        game as a player (not a spectator, not the referee), else None: a private ``!pick`` goes to them."""
        if self.closed or self.finished:
            return None
        game = self.bot.client.games.get(self.game_id)
        if game is None:
            return None
        for seat, player in game.players.items():
            if player.name == user and not player.spectator and seat != self.me:
                return int(seat)
        return None

    async def on_private_command(self, sender: str, text: str) -> None:
        """A command ``sender`` wrote to the referee privately (Vortex: ``!pick`` and the pack listings), run
        as if said at their seat (found by the server's name for them, :meth:`private_seat`); every answer and
        refusal goes to them privately, from this game's session; the table sees only the pick's effects."""
        seat = self.private_seat(sender)
        if seat is None:
            await self.tell(sender, f"{sender}: you are not playing in game #{self.game_id}.")
            return

        async def reply(line: str) -> None:
            await self.tell(sender, shorten(line, 900))

        ctx = Context(self.bot, "private", sender, player_id=seat, game_id=self.game_id, room_id=self.room_id)
        ctx.reply_hook = reply
        topic = asked_help(text)
        if topic:  # !help NAME: the command's usage, privately as in game chat; a bare !help lists them
            described = describe_command(topic, "private", [self]) or describe_command(
                topic, "game", [self], room_referees_of(self.bot)
            )
            if described:
                await reply(described)
                return
            text = PREFIX + "help"
        token = COMMAND_ACTION_IDS.set(self.command_ids(seat, f"private:{text}"))
        try:
            if not await self.handle_command(ctx, text):
                await reply_unknown(ctx, text, [self])
        finally:
            COMMAND_ACTION_IDS.reset(token)

    async def flush_chat(self) -> None:
        """Wait until every line queued for this game was sent."""
        await self.bot.chat.flush(self.chat_destination)

    def left_meanwhile(self, sender: str) -> bool:
        """Whether ``sender``, whose command the server refused, is no longer in the game: a player who
        leaves (or drops) as the referee moves their card makes the move fail, and the table needs no word
        about a card that went with them."""
        game = None if self.closed else self.bot.client.games.get(self.game_id)
        return game is not None and not self.is_at_table(sender)

    def is_at_table(self, user: str) -> bool:
        """Whether ``user`` sits in this game (player or spectator) while we referee it."""
        game = None if self.closed else self.bot.client.games.get(self.game_id)
        return game is not None and any(p.name == user for p in game.players.values())

    def is_seated_player(self, user: str) -> bool:
        """Whether ``user`` sits in this game as a player (not a spectator) while we referee it."""
        game = None if self.closed else self.bot.client.games.get(self.game_id)
        return game is not None and any(
            p.name == user and not p.spectator and seat != game.local_player_id
            for seat, p in game.players.items()
        )

    async def remind_once(self, player_id: int, text: str) -> None:
        """Tell a player privately why the game did not start (each reason once)."""
        if (player_id, text) in self._reminded:
            return
        self._reminded.add((player_id, text))
        await self.tell(self.player_name(player_id), shorten(text, 900))

    @staticmethod
    def waiting_line(waiting_for: str) -> str:
        """Why a player's ready was taken back although their own deck is legal."""
        return (
            f"The game starts when both players are ready with legal decks: waiting for {waiting_for}."
            " Press ready again then."
        )

    async def take_back_ready(self, startable: bool, why: Callable[[PlayerState], str]) -> None:
        """Watching as a judge, the server starts the game as soon as every player is ready: while it
        must not start (``startable`` false), take back each player's ready, acting as them, and tell
        them ``why(player)``. Seated, our own ready holds the game back instead, so this does nothing."""
        if startable or not self.watching or not self.is_judge:
            return
        for player in self.humans():
            if player.ready_start:
                await self.judge(player.player_id, [pc.ready_start(False)])
                await self.remind_once(player.player_id, why(player))

    async def stop_started_game(self, player_id: int) -> bool:
        """Watching as a judge, the server starts a game the moment its last player is ready, so two
        players pressing ready at once can start it before the referee holds an illegal deck back. Then
        concede for that player: Cockatrice stops a two-player game at a concession and puts everyone
        back in their seat, unready, with their decks. The concession is no result (``stopping``)."""
        if not (self.watching and self.is_judge and self.mirror.started) or self.stopping:
            return False
        self.stopping = True
        await self.say(
            f"{self.player_name(player_id)}'s deck is not legal, but the game started as both pressed ready:"
            " it stops. Load a legal deck, then both press ready again."
        )
        await self.judge(player_id, [pc.concede()])
        return True

    def stopped(self) -> None:
        """Cockatrice says the game is no longer started: a stop for an illegal deck is done."""
        if not self.mirror.started:
            self.stopping = False

    def apply(self, action: Any) -> list[Effect]:
        """Apply an action through the journaled table.

        Raises:
            RulesError: refused; nothing changed.
        """
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        if self.closed:  # a late timer of a game no longer refereed here: its record may have moved
            raise NotAllowed("this game is no longer refereed here; nothing changed")
        if self.finished:  # over (a concession Cockatrice reported, too): nothing more is journaled
            raise GameIsOver()
        if self.bot.gone_for_good:  # a timer of a session ended for good: another process may record now
            raise NotAllowed("the referee's session has ended; nothing changed")
        fleet = self.bot.fleet
        if fleet is not None and not fleet.may_act(self.table_key):
            raise NotAllowed("this game is being handed to another referee process; nothing changed")
        ids = COMMAND_ACTION_IDS.get()
        try:
            effects = self.table.apply(action, action_id=ids.next() if ids is not None else None)
        except DuplicateAction as exc:
            raise NotAllowed("that command was already applied; nothing changed") from exc
        if ids is not None:
            ids.recorded += 1
        self.views_changed()
        return effects

    def command_ids(self, player_id: int, text: str) -> ActionIds:
        """Action ids for a chat command: the same command, seen again, gets the same ids."""
        elapsed = self.mirror.seconds_elapsed if self.game_id in self.bot.client.games else -1
        second, seen = self._commands_this_second
        rank = seen if second == elapsed else 0
        self._commands_this_second = (elapsed, rank + 1)
        digest = hashlib.sha256(f"{self.game_id}:{player_id}:{elapsed}:{rank}:{text}".encode()).hexdigest()
        return ActionIds(f"cmd:{digest[:32]}")

    def views_changed(self) -> None:
        """Tell the bot's view listeners (the web view) that what this game shows may have changed."""
        main = self.bot.main or self.bot
        for listener in main.view_listeners:
            listener(self)

    # -- events ------------------------------------------------------------------------------------

    async def on_event(self, event: ClientEvent) -> None:
        """Route one game event: chat to commands, the rest to :meth:`on_game_event`."""
        if self.game_id in self.bot.client.games:
            self.remember_names()
            if self.mirror.started and not self._was_started:
                self._was_started = True
                if self._before_start:
                    await self.send_held()
        if event.name == "Event_GameSay":
            if event.is_own:
                return
            await self.on_chat(event.player_id, str(getattr(event.message, "message", "")))
            return
        if event.name == "Event_Join":
            props = getattr(event.message, "player_properties", None)
            if props is not None and props.spectator:  # the mirror may have seen them leave already
                self.spectator_ids.add(int(props.player_id))
        over_before = bool(self.finished)
        departure = (  # read before the format's reaction, which may finish and leave the game
            event.name == "Event_Leave"
            and not self.closed
            and not self._closing_unjoined
            and self.seats_known
            and event.player_id not in self.spectator_ids
        )
        if departure and self.dropped_with_connection(event) and self.drop_pauses(event.player_id):
            await self.pause_for_drop(event.player_id)
            return
        await self.on_game_event(event)
        if event.name in ("Event_Join", "Event_Leave", "Event_GameStateChanged"):
            self.views_changed()
        if event.name == "Event_Leave":
            self.missed.forget(event.player_id)
        elif (
            event.name == "Event_PlayerPropertiesChanged"
            and event.context is not None
            and event.context.DESCRIPTOR.name == "Context_ConnectionStateChanged"
            and self.game_id in self.bot.client.games
        ):
            await self.on_connection_changed(event)
        if departure and not self.closed and self.seats_known and not self.humans():
            await self.on_emptied(event.player_id, over_before=over_before)
        elif departure and self.closed and self.left_empty and self.finished and not over_before:
            await self.announce_emptied(
                self.finished, started=True
            )  # the rules ended it as the last one left
        if (
            self.game_id in self.bot.client.games
        ):  # the seats may say so after a rejoin or a leave: who is away
            await self.follow_absent()

    def dropped_with_connection(self, event: ClientEvent) -> bool:
        """Whether ``Event_Leave`` is the server taking a seat away with its player's connection, in a game
        that had started. Servatrice keeps a registered player's seat when the connection drops (they
        come back to it); it gives an unregistered player's seat away at once, with this reason."""
        reason = int(getattr(event.message, "reason", 0) or 0)
        return reason == LeaveReason.USER_DISCONNECTED and self._was_started

    def drop_pauses(self, seat: int) -> bool:
        """Override: whether the connection that took ``seat`` away pauses the game rather than taking its
        player out by the rules (formats whose seats are named: ``SeatsByName.drop_pauses``)."""
        return False

    async def pause_for_drop(self, seat: int) -> None:
        """An unregistered player's connection dropped and the server gave their seat away, in a game the
        rules would end for it: a blip of a phone's network is no loss. Nothing is applied to the engine;
        the game and the player hear that it is paused and how to go on (``!resume``: the journal's record
        continues in a new game, every card where it was, as for a game the referee lost), the room hears it
        once, and the referee leaves this game, which can no longer seat its player."""
        name = self.seat_names.get(seat) or "a player"
        LOGGER.warning(
            "game %d: %s's unregistered seat went with their connection; the game is paused (record %s kept)",
            self.game_id,
            name,
            self.table_key,
        )
        await self.say(
            shorten(
                f"{name}'s connection dropped and the server gave their seat away (it keeps only a registered"
                f" account's seat), so game #{self.game_id} is paused, not over. When {name} is back, say"
                f" !resume {self.game_id} in the room: it goes on in a new game, every card and point as it"
                " was."
            )
        )
        await self.tell(
            name,
            shorten(
                f"Your connection dropped in {self.format_name} game #{self.game_id} and the server gave your"
                f" seat away (a registered account keeps its seat). The game is paused: say !resume"
                f" {self.game_id} in the room to go on in a new game with the others, as it was.",
                900,
            ),
        )
        await self.leave()  # its lines go out first; then the game is no longer refereed here
        await self.bot.game_paused(self, name)

    async def on_emptied(self, leaver: int, *, over_before: bool) -> None:
        """Nobody is seated any more, since ``leaver`` left (``over_before``: the game was over before).

        A spectator's leaving changes nothing (a spectator never made the game anyone's). A game over
        before is left at once. Before the start, a game its players left (one who leaves to choose another
        deck, too) waits for players again: the unjoined clock closes it in time and tells the room
        (:meth:`Bot.unjoined_again`). A started game every player left is over: its journal says why, the
        room hears it (as it hears of a game cancelled) and so does the operator's log."""
        if leaver in self.spectator_ids or leaver == self.seat_of_mine():
            return
        if over_before:
            await self.finish(self.finished, linger=0.0)
            return
        started = self._was_started or (self.game_id in self.bot.client.games and self.mirror.started)
        if not started and self.bot.unjoined_again(self.game_id):
            LOGGER.info(
                "game %d: its players left before it started; it waits for players again (closed if"
                " nobody sits down in time)",
                self.game_id,
            )
            return
        reason = self.finished or ABANDONED
        await self.finish(reason, linger=0.0)
        if self.finished:  # else the format keeps it open (a league game waits for its pairing)
            await self.announce_emptied(reason, started=started)

    async def announce_emptied(self, reason: str, *, started: bool) -> None:
        """Tell the room (and the operator's log, at INFO) that this game closed because every player left
        (``reason``, the journal's), as the room hears of a game cancelled: nobody else would know."""
        names = self.player_names()
        what = f"{self.format_name} game #{self.game_id}" + (f" ({', '.join(names)})" if names else "")
        if reason == ABANDONED:
            line = f"{what} is closed: every player left{'' if started else ' before it started'}."
        else:
            line = f"{what} is closed: every player left ({reason.removeprefix('game over').strip(' :()')})."
        LOGGER.info(
            "%s (%s)", line.rstrip("."), "its record is closed" if self.table is not None else "nothing kept"
        )
        await (self.bot.main or self.bot).room_say(self.room_id, shorten(line))

    def player_names(self) -> list[str]:
        """The names of everyone who sat in this game as a player (not spectators, not the referee)."""
        me, own = self.seat_of_mine(), self.bot.client.user_name
        return [
            name
            for seat, name in sorted(self.seat_names.items())
            if seat not in self.spectator_ids and seat != me and name and name != own
        ]

    def seat_of_mine(self) -> int | None:
        """The referee's own player id here, while the client has the game (None once it is gone)."""
        game = self.bot.client.games.get(self.game_id)
        return game.local_player_id if game is not None else None

    # -- lifecycle ---------------------------------------------------------------------------------

    LINGER_SECONDS: ClassVar[float] = 300.0
    """How long the bot stays in a finished game so players can look at the board (unless the room
    needs the game slot, see :meth:`Bot.open_game`)."""

    async def finish(self, reason: str, *, linger: float | None = None) -> None:
        """The game is over (or abandoned): close its journal table with ``reason``, then leave.

        The bot stays ``linger`` seconds (its cards stay on the players' tables meanwhile), leaves at
        once when every player has gone, and earlier when the room needs a new game.
        """
        if self.table is not None and self.bot.journal.closed_reason(self.table_key) is None:
            self.bot.journal.close_table(self.table_key, reason)
        self.finished = self.finished or reason
        self.views_changed()
        delay = self.LINGER_SECONDS if linger is None else linger
        if delay <= 0 or (self.seats_known and not self.humans()):
            await self.leave()
        elif self._leave_timer is None:
            loop = asyncio.get_running_loop()
            self._leave_timer = loop.call_later(delay, lambda: loop.create_task(self.leave()))

    async def leave(self) -> None:
        """Leave the Cockatrice game (after the last chat line went out) and stop refereeing it."""
        if self.closed:
            return
        self.left_empty = self.game_id in self.bot.client.games and self.seats_known and not self.humans()
        self.closed = True
        if self._leave_timer is not None:
            self._leave_timer.cancel()
        for task in self._absent_watch.values():
            if task is not asyncio.current_task():
                task.cancel()
        self._absent_watch.clear()
        await self.flush_chat()
        self.bot.forget_game(self.game_id)
        if self.game_id in self.bot.client.games:
            try:
                await self.bot.client.leave_game(self.game_id)
            except Exception as exc:  # the game may be gone already
                LOGGER.info("game %d: leaving failed: %s", self.game_id, exc)
        self.bot.chat.drop(self.chat_destination)

    @property
    def waiting_for_players(self) -> bool:
        """Whether the game still waits for its players: refereed here, never started, not over."""
        return self.not_started_yet and not self.finished

    async def close_unjoined(self, why: str) -> None:
        """Nobody joined this game (``why``): kick whoever sits in it (only the user who asked for it may),
        then leave it, so the server closes it and its slot is free (it keeps a game with players in it, and
        counts it against the referee's account).

        A new game has no record yet; one continuing a lost game (``!resume``) keeps its record open, so it
        can be resumed again: closing it would end the players' game for them."""
        self.finished = self.finished or why
        seated = self.humans() if self.game_id in self.bot.client.games else []
        if seated:
            self._closing_unjoined = True  # a continued game's record stays open (see give_up_unjoined)
            kicks = [pc.kick_from_game(player.player_id) for player in seated]
            with contextlib.suppress(
                ClientError, ConnectionError, TimeoutError
            ):  # refused, or gone meanwhile
                await self.bot.client.game_commands(self.game_id, kicks)
        await self.leave()

    def status(self) -> str:
        """A few words for ``!games``: what state the game is in."""
        if self.finished:  # "game over (conceded)" read "over (game over (conceded))"
            reason = self.finished.removeprefix("game over").strip(" :")
            if reason.startswith("(") and reason.endswith(")"):
                reason = reason[1:-1]
            return f"over ({reason})" if reason else "over"
        if self.table is None:
            return f"waiting for players ({len(self.humans())} seated)"
        if not self._was_started and self.game_id in self.bot.client.games and not self.mirror.started:
            # a game continued by !resume (its record restored) that its players have not started yet
            players = getattr(self.table.engine, "players", None)
            total = f" of {len(players)}" if isinstance(players, (list, tuple, dict)) and players else ""
            return f"waiting for its players ({len(self.humans())}{total} seated)"
        return "in progress"

    STOPPING: ClassVar[str] = "The referee is stopping (the operator's choice);"

    def stopping_line(self) -> tuple[str, bool]:
        """What players hear when the operator stops the referee, true for how it sits here, and whether the
        journal keeps this game (a restart takes it up again)."""
        stop = self.STOPPING
        if self.table is None or not self.bot.journal.has_table(self.table_key):
            return f"{stop} this game had not started, so nothing is kept: ask for a new game later.", False
        fleet = self.bot.fleet
        if fleet is not None and len(fleet.load(self.room_id)) > 1:  # a live member besides this process
            return f"{stop} this game is kept: another referee process of the fleet takes it over.", True
        if self.watching:
            return f"{stop} this game is kept: when it is back it watches it again and resumes here.", True
        if self.bot.registered:
            return f"{stop} this game is kept: it keeps its seat and resumes here when it is back.", True
        return (
            f"{stop} this game is kept: when it is back, say !resume {self.game_id} in the room to continue"
            " it in a new game (an unregistered account loses its seat).",
            True,
        )

    async def on_chat(self, player_id: int, text: str) -> None:
        """A line said in the game's chat: a command is run and answered.

        The game's answers share one chat queue, so each sender (player or spectator) has an allowance of
        informational answers (help, rules, state, a refusal...) while that queue waits for the chat budget
        (a spectator's always; :data:`GAME_COMMANDS_PER_WINDOW`): past it, such an answer is dropped and the
        sender told once per window. A move (a command that recorded an action) is never throttled; an answer
        the same as one still waiting is not queued twice; a spectator's answers are short (:func:`brief`).
        Once the game is over, a state command says so first. An answer given as a renderer (``!state``) is
        drawn as it leaves the queue (``Context.line_hook``), true when it is read."""
        player = self.mirror.players.get(player_id)
        name = player.name if player is not None else f"player {player_id}"
        spectator = player is None or player.spectator
        ctx = Context(self.bot, "game", name, player_id=player_id, game_id=self.game_id, room_id=self.room_id)
        now = asyncio.get_running_loop().time()
        # a spectator's questions always count (watchers are many, the budget is the players'); a player's
        # only while the game's answers wait for the budget
        within = self.chat_allowance.allows(name, now, busy=spectator or self.chat_busy())
        held: list[Line] = []
        state_asked = self.asks_state(text)

        async def answer(line: Line) -> None:
            """Game chat's answer: within the sender's allowance, else held (said after a move); not queued
            when the same answer still waits. A renderer (an answer about what changes: a format's
            ``!state``) is drawn as it leaves the chat queue, so the sender reads the game as it is then,
            not as it was when they asked (a fight may score while the answer waits for the budget); of the
            same renderer's answers still waiting only the latest says it (all would read the same)."""
            nonlocal state_asked
            about_state, state_asked = state_asked, False

            def worded(said: str) -> str:
                over = self.finished  # the engine may not know (a concession Cockatrice reported)
                if about_state and over and not re.search(r"\bover\b", said, re.IGNORECASE):
                    said = shorten(f"{over_words(over)} {said}")
                return brief(said) if spectator else said

            key = None  # a renderer that is a bound method: the same question each time it is asked
            if callable(line):
                render = line

                def drawn() -> str | None:
                    said = render()
                    return worded(said) if said else None

                now_reads = drawn()
                if not now_reads:  # nothing to say (a renderer's line that is no longer true)
                    return
                line = drawn
                if inspect.ismethod(render):
                    key = (render, spectator)
            else:
                line = now_reads = worded(line)
            if not within:
                held.append(line)
            elif not self.bot.chat.queued(self.chat_destination, now_reads):  # the same answer still waits
                await self.say(self.answer_drawn_later(key, line) if callable(line) else line)

        ctx.line_hook = answer
        topic = asked_help(text)
        if topic is not None:
            if within:
                self.chat_allowance.count(name, now)
                await self.say_help(topic, short=spectator)
            else:
                await self.over_allowance(name, now)
            return
        ids = self.command_ids(player_id, text)
        token = COMMAND_ACTION_IDS.set(ids)
        try:
            if not await self.handle_command(ctx, text):
                await reply_unknown(ctx, text, [self])
        finally:
            COMMAND_ACTION_IDS.reset(token)
        if ids.recorded:  # a move: answered whatever the allowance, and not counted against it
            for line in held:
                await self.say(line)
        elif within:
            if looks_like_command(text):
                self.chat_allowance.count(name, now)
        else:
            await self.over_allowance(name, now)

    def answer_drawn_later(
        self, key: tuple[Any, ...] | None, draw: Callable[[], str | None]
    ) -> Callable[[], str | None]:
        """:meth:`on_chat`'s answer ``draw``, queued now to be drawn as it leaves. An answer of the same
        ``key`` (the same renderer, a bound method: the same question) queued later, while this one still
        waits, supersedes it: this one then says nothing, so a question asked twice while the chat is busy
        is answered once, as things are when the answer leaves. ``key`` None: nothing supersedes it."""
        if key is None:
            return draw
        serial = self.answers_drawn_later[key] = self.answers_drawn_later.get(key, 0) + 1

        def latest() -> str | None:
            if self.answers_drawn_later.get(key) != serial:
                return None  # asked again meanwhile: the later answer says it
            return draw()

        return latest

    def chat_busy(self) -> bool:
        """Whether the game's answers wait for the chat budget: lines wait in its queue and the session's chat
        window is at least :data:`CHAT_BUSY_LOAD` full (:meth:`Bot.chat_load`). Where the budget is no
        constraint, a burst of questions (a player reading the help) is answered in full."""
        return self.bot.chat.pending(self.chat_destination) > 0 and self.bot.chat_load() >= CHAT_BUSY_LOAD

    def asks_state(self, text: str) -> bool:
        """Whether ``text`` is this game's state command (``!state``, or the command it is an alias of)."""
        try:
            invocation = parse_invocation(text)
        except CommandError:
            return False
        if invocation is None:
            return False
        spec = self.commands.find(invocation.name, "game")
        return spec is not None and "state" in (spec.name, *spec.aliases)

    async def over_allowance(self, sender: str, now: float) -> None:
        """``sender`` asked more than their allowance while the game's answers wait: told once per window."""
        if self.chat_allowance.notice_due(sender, now):
            await self.say(f"{sender}: too many questions; the referee answers you again in a few seconds.")

    async def say_once(self, line: str) -> None:
        """:meth:`say` ``line`` unless the same line still waits in the game's chat queue."""
        if not self.bot.chat.queued(self.chat_destination, line):
            await self.say(line)

    async def say_help(self, topic: str, *, short: bool = False) -> None:
        """Game chat's ``!help``: ``!help NAME`` that command's usage and line (:func:`describe_command`, as
        the room answers it), else every game command's usage, and how to ask about one. ``short`` (a
        spectator asks): one :func:`brief` line, so watchers' questions do not hold the players' answers."""
        described = describe_command(topic, "game", [self], room_referees_of(self.bot))
        if described:
            await self.say_once(shorten(described, SPECTATOR_LINE if short else MAX_CHAT_LINE))
            return
        if short:
            usages = " | ".join(spec.usage for spec in self.commands.listing("game"))
            await self.say_once(shorten(f"Commands: {usages}", SPECTATOR_LINE))  # not brief: "CARD..."
            return
        line = "Commands:"
        usages = [spec.usage for spec in self.commands.listing("game")]
        for usage in [*usages, "!help NAME: what one does"]:  # several lines when the list is long
            if len(line) + 3 + len(usage) > MAX_CHAT_LINE:
                await self.say_once(line)
                line = "Commands (more):"
            line += (" " if line.endswith(":") else " | ") + usage
        await self.say_once(line)

    async def on_game_event(self, event: ClientEvent) -> None:
        """Override: react to moves, turns, phases, joins..."""

    async def on_reconnected(self) -> None:
        """Override: re-read the game after the client was re-seated."""

    async def on_seat_lost(self, *, renumbered: bool = False) -> None:
        """The bot came back without its seat here (a server restart, or an unregistered account's seat
        dropped while it was away): by default, tell the room how to continue the game (``!resume``),
        unless ``renumbered``: the server gave the number to a new game, and the room hears of the old one
        under its moved record's handle (:meth:`Bot.number_given_again`)."""
        if not self.bot.journal.has_table(self.table_key):  # it had not started: nothing to continue
            LOGGER.warning("lost the seat in game %d before it started", self.game_id)
            await self.bot.room_say(
                self.room_id,
                f"The referee lost its seat in {self.format_name} game #{self.game_id} before the game"
                " started (its connection dropped, or it or the server restarted): ask for a new game.",
            )
            return
        if renumbered:  # the record moved aside is announced under its new handle (number_given_again)
            LOGGER.warning("lost the seat in game %d; its record %s is kept", self.game_id, self.table_key)
            return
        if not self.bot.in_room(self.room_id):  # a line there is refused (RespNotInRoom)
            LOGGER.warning(
                "lost the seat in game %d; its record %s is kept: its players can say !resume %d in the room"
                " to continue it in a new game (its room #%d is not joined now, so it is not told; !games"
                " lists the game and a restart announces it)",
                self.game_id,
                self.table_key,
                self.game_id,
                self.room_id,
            )
            return
        line = self.bot.lost_line(self.game_id, self.table_key)
        LOGGER.warning(
            "lost the seat in game %d; its record %s is kept: its players can say !resume %d in the room to"
            " continue it in a new game (%s)",
            self.game_id,
            self.table_key,
            self.game_id,
            "a line to its room is queued" if line else "its room was told before",
        )
        await self.bot.room_say(self.room_id, line)

    async def on_helper_closed(self, closed: str) -> None:
        """The server closed the helper account that refereed this game (``closed``: its name, "for good"
        and why): the room hears how to continue it from the main session, unless it is over."""
        if self.finished:
            return
        main = self.bot.main or self.bot
        kept = main.journal.has_table(self.table_key)
        await main.room_say(
            self.room_id,
            f"The server closed the referee's helper account {closed}: it no longer referees"
            f" {self.format_name} game #{self.game_id}."
            + (
                f" Its record is kept: say !resume {self.game_id} to continue it in a new game."
                if kept
                else " It had not started: ask for a new game."
            ),
        )

    # -- identity checks used by commands -----------------------------------------------------------

    def require_player(self, ctx: Context) -> int:
        """The sender's seat, or a refusal for spectators, judges-only seats and outsiders.

        Raises:
            NotAllowed: the sender is not a seated player of this game.
        """
        if ctx.player_id is None or ctx.game_id != self.game_id:
            raise NotAllowed("only players seated in this game can do that")
        player = self.mirror.players.get(ctx.player_id)
        if player is None or player.spectator or ctx.player_id == self.me:
            raise NotAllowed("spectators can watch but not play")
        if self.table is not None and not self.is_engine_player(ctx.player_id):
            raise NotAllowed("you are not a player of this game")
        return ctx.player_id

    def is_engine_player(self, player_id: int) -> bool:
        """Override: whether ``player_id`` takes part in the engine."""
        return True


def owner_note(name: str) -> str:
    """The first line of the note on a card the referee hands to player ``name``: ``Owner: NAME (from the
    referee)``, the card theirs to keep in play.

    Servatrice writes ``Owner: <giver>`` on a card that changes player unless its note says ``Owner:``
    already, and when a player concedes it moves every card of their table to the player that line names
    (``Server_Game::returnCardsFromPlayer``): so our own line, or a bought card would go back to the
    referee. The words after the name matter as much: that line must name no player as a whole. The
    server walks the conceder's table while it moves those cards, and a card moved to the table it lies
    on (a note naming its holder) crashes it: seen on 3.1.0 and master, the whole server down at one
    player's concession. Named by nobody, the card stays with its holder, who owns it."""
    return f"Owner: {name} (from the referee)"


class PileReferee(GameReferee):
    """A game referee whose shared pile (an auction block, a Vortex shoe) is its own deck.

    Its options (a frozen dataclass with at least ``seats``, ``block``, ``password``, ``judge``) are
    journaled with the table, together with how Cockatrice spells each pile card, so a restarted bot
    rebuilds the referee from the journal alone.
    """

    game_title: ClassVar[str] = ""
    options_type: ClassVar[type[Any]]
    spares: ClassVar[bool] = False
    """Whether the pile's ``.cod`` holds a second copy of the pile in the sideboard (:func:`pile_cod`)."""

    def __init__(self, bot: Bot, game_id: int, room_id: int, options: Any, block: Any) -> None:
        super().__init__(bot, game_id, room_id)
        self.options = options
        self.block = block

    @classmethod
    async def create(
        cls,
        bot: Bot,
        room_id: int,
        options: Any,
        block: Any,
        *,
        requested_by: str = "",
        starting_life: int = 20,
    ) -> Any:
        """Create the Cockatrice game on the least busy session, sit with the pile as deck, get ready.

        The pile is ``block.pile_names`` (:class:`~cockatrice_ext.bot.blocks.LoadedBlock`: the whole block,
        or what a rebuilt game's journal still places), in a secret order, with its spares if the format
        keeps them."""
        refuse_if_waiting(bot)
        bot = bot.least_loaded()
        description = f"{cls.game_title}, {options.seats} players, refereed"
        if requested_by:
            description += f" (asked by {requested_by})"
        game_id = await bot.open_game(
            room_id,
            description=description,
            seats=options.seats,
            type_hint=cls.format_name,
            password=options.password,
            judge=options.judge,
            starting_life=starting_life,
        )
        referee = cls(bot, game_id, room_id, options, block)
        bot.adopt_game(referee)
        pile = pile_cod(block.name, block.pile_names, spares=cls.spares)  # its ids name nothing
        referee.set_up(
            lambda: bot.client.select_deck(game_id, pile), lambda: bot.client.ready_start(game_id, True)
        )
        return referee

    @classmethod
    async def resume(cls, bot: Bot, game_id: int, room_id: int, key: str) -> Any:
        """Rebuild a referee from the journal (the bot was restarted and re-seated)."""
        from cockatrice_ext.bot.blocks import LoadedBlock

        meta = bot.journal.table_meta(key)
        options = cls.options_type(**meta["options"])
        table = Table.restore(bot.journal, key)
        facts = tuple(table.engine.config.cards)
        block = LoadedBlock(name=options.block, facts=facts, game_names=tuple(meta["game_names"]), cod="")
        referee = cls(bot, game_id, room_id, options, block)
        referee.table = table
        return referee

    def open_table(self, engine: Any, players: Iterable[int]) -> None:
        """Journal a new table for ``engine``, with what :meth:`resume` needs."""
        from dataclasses import asdict

        meta = {
            "format": self.format_name,
            "options": asdict(self.options),
            "game_names": list(self.block.game_names),
            "room_id": self.room_id,
            "game_id": self.game_id,
            "names": {str(p): self.player_name(p) for p in players},
            "referee": self.bot.client.user_name,  # the account seated as referee (fleet take-over)
        }
        self.table = Table.create(self.bot.journal, self.table_key, engine, meta=meta)
        self.views_changed()

    def is_engine_player(self, player_id: int) -> bool:
        return self.table is not None and player_id in self.table.engine.players  # type: ignore[attr-defined]

    @command(final=True)
    async def drop(self, ctx: Context, name: Rest) -> None:
        """!drop NAME: take out a player whose connection has been gone a while, as one who leaves."""
        self.require_player(ctx)
        if self.finished:
            raise NotAllowed("this game is over")
        if self.table is None or not self.board_open:
            raise NotAllowed("the game has not started yet")
        await self.drop_absent(ctx.sender, name)

    async def drop_out(self, player_id: int) -> None:
        """Override: take seat ``player_id`` out as the format's rules take out a player who leaves (add it
        to :attr:`dropping`, settle it), then :meth:`remove_dropped`."""
        raise NotAllowed("this format has no way to take a player out")


class FormatRoom(Referee):
    """Room commands of one format, with the operator's default table options (``options_type``)."""

    options_type: ClassVar[type[Any]]
    opens_games_on_request = True

    def __init__(self, bot: Bot, defaults: Any = None) -> None:
        super().__init__(bot)
        self.defaults = defaults if isinstance(defaults, self.options_type) else self.options_type()

    @classmethod
    async def install(cls, bot: Bot) -> None:
        """The format's ``INSTALLERS`` entry: add these room commands with the operator's defaults."""
        bot.room_referees.append(cls(bot, bot.options.format_options.get(cls.format_name)))


RoomCommandFactory = Callable[["Bot"], Referee]


class LobbyReferee(Referee):
    """Room-level commands shared by every format: ``!help`` and ``!games`` (and ``!resume``, which opens a
    game for the player who asks)."""

    opens_games_on_request = True
    GAMES_ANSWER_HELD: ClassVar[float] = 60.0
    """Seconds a queued ``!games`` answer stands for a later ask in its room (a line the chat drops, at a
    stop, is never rendered: the room is answered again after this)."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self._games_queued: dict[int | None, float] = {}  # room -> when its !games answer was queued

    @command(scopes=("room",))
    async def help(self, ctx: Context, topic: Rest | None = None) -> None:
        """List the room commands; !help COMMAND: that command's usage.

        Words that name no room command get the list too (``!help me with my deck``)."""
        asked = help_topic(topic or "")
        described = describe_command(asked, "room", self.bot.room_referees)
        if described:
            what_it_is = game_options.pitch(asked)  # a format's command: what the format is, then its usage
            await ctx.reply(shorten(f"{what_it_is} {described}" if what_it_is else described))
            return
        usages = [spec.usage for r in self.bot.room_referees for spec in r.commands.listing("room")]
        line = room_help(usages)
        if getattr(self.bot.options, "room_commands", "all") == "addressed":
            own = self.bot.client.user_name if self.bot.client is not None else self.bot.options.user
            line = f"Start room commands here with my name, as in {own}: !games. {line}"
        await ctx.reply(shorten(line))

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """As every referee's, and ``!<format> rules`` typed as the help writes it (``parse_invocation`` takes
        no ``<``) answered with each installed format's options command."""
        if FORMAT_PLACEHOLDER.fullmatch(text):
            said = rules_commands(self.bot.room_referees)
            if said:
                line = f"{FORMAT_RULES_SAID} means one of: {', '.join(said)} (each lists its options)."
                await ctx.reply(shorten(f"{ctx.sender}: {line}"))
                return True
        return await super().handle_command(ctx, text)

    @command(scopes=("room",))
    async def games(self, ctx: Context) -> None:
        """List the games and leagues this bot referees, and the games it lost and can resume.

        Worded as the answer leaves the chat queue (a busy room's answer can wait tens of seconds, while
        the games it lists start and end), and asked again while one waits, answered once."""
        now = asyncio.get_running_loop().time()
        queued = self._games_queued.get(ctx.room_id)
        if queued is not None and now - queued < self.GAMES_ANSWER_HELD:
            return
        self._games_queued[ctx.room_id] = now

        def render() -> str:
            self._games_queued.pop(ctx.room_id, None)
            return shorten(self.games_line())

        await ctx.reply(render)

    def games_line(self) -> str:
        """``!games``'s answer as things are now."""
        from cockatrice_ext.bot.lost_games import PAUSED, REMOVED  # it imports this module

        same: dict[str, list[int]] = {}  # games in the same state share one entry, so many still fit a line
        for gid, ref in sorted(self.bot.all_games().items()):
            same.setdefault(f"{ref.format_name}: {ref.status()}", []).append(gid)
        parts = [f"{', '.join(f'#{gid}' for gid in ids)} {state}" for state, ids in same.items()]
        lost_games = self.bot.lost_games()
        handles = sorted(lost_games, key=handle_order)
        how = {handle: self.bot.lost_how(lost_games[handle]) for handle in handles}
        removed = [f"#{handle}" for handle in handles if how[handle] == REMOVED]
        paused = [f"#{handle}" for handle in handles if how[handle] == PAUSED]
        lost = [f"#{handle}" for handle in handles if not how[handle]]
        elsewhere = [f"#{gid}" for gid in self.bot.fleet.games_elsewhere()] if self.bot.fleet else []
        waiting = [line for referee in self.bot.room_referees for line in referee.waiting_games()]
        leagues = self.open_leagues()
        unreplayable = [f"#{handle}" for handle in self.bot.unreplayable_games()]
        if not (parts or lost or removed or paused or elsewhere or waiting or leagues or unreplayable):
            return "No refereed games right now."
        sentences = ["Refereeing: " + "; ".join(parts) if parts else "Refereeing no game right now"]
        if leagues:
            sentences.append("Open leagues: " + "; ".join(leagues))
        if waiting:
            sentences.append("Waiting: " + "; ".join(waiting))
        if elsewhere:
            sentences.append("Other referee processes: " + ", ".join(elsewhere))
        if lost:
            sentences.append("Lost in a restart (say !resume GAME): " + ", ".join(lost))
        if paused:
            sentences.append(
                "Paused, a player's connection dropped (say !resume GAME when they are back): "
                + ", ".join(paused)
            )
        if removed:
            sentences.append("Removed by a moderator (say !resume GAME): " + ", ".join(removed))
        if unreplayable:
            sentences.append("Cannot be replayed by this version: " + ", ".join(unreplayable))
        return " ".join(sentence.rstrip(".") + "." for sentence in sentences)

    def open_leagues(self) -> list[str]:
        """Each league the bot runs that is not over: its name, where it is, and whose move it waits for
        ("Market Draft league #1 (the draft before round 1; waits for alice_p)"). League rooms keep their
        leagues in ``leagues`` (``bot/league_rooms.py``, which imports this module)."""
        lines = []
        for room in self.bot.room_referees:
            for league in getattr(room, "leagues", ()):
                if league.over:
                    continue
                lines.append(f"{league.room_title()} ({league.stage_and_waits()})")
        return lines

    @command(scopes=("room",))
    async def resume(self, ctx: Context, game: str) -> None:
        """Continue a game the referee lost in a restart, in a new game (its players only)."""
        if ctx.room_id is None:
            raise NotAllowed("say this in the room where the game was played")
        game = game.removeprefix("#")
        if not LOST_HANDLE.fullmatch(game):
            raise BadArgument("usage: !resume GAME, the number !games lists as lost (e.g. 12, or 12@1)")
        referee = await self.bot.rebuild_game(ctx.room_id, game, ctx.sender)
        await ctx.reply(
            shorten(
                f"Game #{game} continues as game #{referee.game_id}{asked_by(ctx.sender)}: its players, join"
                " it and load any deck."
            )
        )

    @command(scopes=("room",))
    async def cancel(self, ctx: Context, game: str | None = None) -> None:
        """Close your game that still waits for players (nobody else seated), e.g. !cancel or !cancel 12."""
        main = self.bot.main or self.bot
        sender = ctx.sender  # the server's name for who said it: a game is cancelled only by who asked for it
        if game is None:
            waiting = [game_id for game_id, _ in main.waiting_games_of(sender)]
            if not waiting:
                raise NotAllowed("you have no game waiting for players")
            if len(waiting) > 1:
                raise BadArgument(f"which one: {either([f'#{gid}' for gid in waiting])}? Say !cancel GAME")
            game_id = waiting[0]
        else:
            number = game.removeprefix("#")
            if not number.isdecimal() or len(number) > 9:
                raise BadArgument("usage: !cancel [GAME], the number of your game that waits for players")
            game_id = int(number)
        why = cancellable(main, game_id, sender)
        if why:
            raise NotAllowed(why)
        session = next(s for s in main.sessions if game_id in s.games)
        referee = session.games[game_id]
        await session.give_up_unjoined(referee, f"game #{game_id} closed: {sender} cancelled it")
        if ctx.room_id != referee.room_id:
            await ctx.reply(shorten(f"{sender}: game #{game_id} is closed."))


def room_help(usages: list[str]) -> str:
    """The room's ``!help`` line: every room command's usage, and where each format's options are; one chat
    line (``;`` between commands, as usages have ``|`` in them; ``!help`` itself left out when every format
    is installed and it would not fit). ``!<format> rules``, typed as it reads, is answered too
    (:data:`FORMAT_PLACEHOLDER`)."""
    parts = ["!help" if usage.startswith("!help ") else usage for usage in usages]  # its topic: !help NAME
    parts.append(f"{FORMAT_RULES_SAID}: its options")
    line = "Room commands: " + "; ".join(parts)
    if len(line) > MAX_CHAT_LINE and "!help" in parts:
        parts.remove("!help")
        line = "Room commands: " + "; ".join(parts)
    return line


FORMAT_RULES_SAID = "!<format> rules"
"""How the room's help (and the README) name every format's options command in one phrase."""
FORMAT_PLACEHOLDER = re.compile(r"\s*!\s*<\s*format\s*>(?:\s+(\S.*))?", re.IGNORECASE | re.DOTALL)
"""``!<format> rules`` as a player copies it from the help: answered with the real commands."""

FORMAT_RULES = ("auction", "vortex", "combat", "market", "autobattler")
"""The room commands whose ``rules`` sub-command lists a format's options, in the order help names them."""


def rules_commands(referees: Iterable[Referee]) -> list[str]:
    """``!auction rules``, ``!vortex rules``...: the room commands of ``referees`` that take ``rules``."""
    found = [
        f"{PREFIX}{spec.name} rules"
        for referee in referees
        for spec in referee.commands.listing("room")
        if "rules" in spec.subcommands
    ]
    order = {f"{PREFIX}{name} rules": index for index, name in enumerate(FORMAT_RULES)}
    return sorted(found, key=lambda said: order.get(said, len(order)))


def describe_command(
    name: str, scope: str, referees: Iterable[Referee], room: Iterable[Referee] = ()
) -> str | None:
    """``!help NAME``'s answer in ``scope``, the same in every scope: the command's usage and its one line
    (:attr:`CommandSpec.described`) from ``referees``, else a ``room`` command's, saying where it is said;
    None when ``name`` is no command there (the caller lists the commands)."""
    if not name or name in HELP_NAMES:
        return None
    for referee in referees:
        described = referee.commands.described(name, scope)
        if described:
            return described
    for referee in room:
        described = referee.commands.described(name, "room")
        if described:
            return f"{described} ({elsewhere_reason(name, 'room')})"
    return None


def room_form(ctx: Context, invocation: Invocation) -> str:
    """What a command refused for its words adds when those words are a room command's (``!auction new 2``
    in a game: `` (!auction new is a room command: say it in the room)``), else ""."""
    words = invocation.args.split()
    first = words[0].lower() if words else ""
    if ctx.scope == "room" or not first:
        return ""
    for referee in room_referees_of(ctx.bot):
        spec = referee.commands.find(invocation.name, "room")
        if spec is not None and first in spec.subcommands:
            return f" ({elsewhere_reason(f'{invocation.name} {first}', 'room')})"
    return ""


def room_referees_of(bot: Bot) -> list[Referee]:
    """The room commands' referees, held by the main session (a helper session's game asks it)."""
    main = getattr(bot, "main", None) or bot
    return list(getattr(main, "room_referees", ()))


LOST_HANDLE = re.compile(r"(\d{1,9})(?:@(\d{1,6}))?")
"""How a lost game is named: its game number, and ``@N`` for a record moved aside when the server gave
that number to a new game (a server without a database numbers its games from 1 again after a restart)."""


def handle_order(handle: str) -> tuple[int, int]:
    """Lost games' handles in number order (``12`` before ``12@1`` before ``13``)."""
    match = LOST_HANDLE.fullmatch(handle)
    return (int(match.group(1)), int(match.group(2) or 0)) if match else (0, 0)


def unreplayable_line(what: str, error: Exception) -> str:
    """What players are told of a game or league whose journal cannot be replayed (nothing is guessed)."""
    said = getattr(error, "public", None) or str(error)  # a journal error's words without its table key
    line = f"{what}'s record cannot be replayed (); it is kept, and nothing was changed"
    said = shorten(said, max(60, MAX_CHAT_LINE - len(line)))  # the words cut, never what players must hear
    return f"{what}'s record cannot be replayed ({said}); it is kept, and nothing was changed"


def _marked(render: Callable[[], str | None], mark: str) -> Callable[[], str | None]:
    """A line rendered when it leaves (:data:`~cockatrice_ext.bot.chat.Line`), with ``mark`` before it."""

    def marked() -> str | None:
        said = render()
        return mark + said if said else said

    return marked


HELP_NAMES = frozenset({"help", "commands"})


def asked_help(text: str) -> str | None:
    """What a game's or a private chat line asks ``!help`` (or ``!commands``) about, however typed
    (``! help``, ``！help``): the command named (``!help bid`` -> ``bid``), "" for a bare ``!help``, None when
    the line is no ``!help``."""
    try:
        invocation = parse_invocation(text)
    except CommandError:
        return None
    if invocation is None or invocation.name not in HELP_NAMES:
        return None
    return help_topic(invocation.args)


async def reply_unknown(ctx: Context, text: str, referees: Iterable[Referee]) -> None:
    """Answer a ``!word`` nobody here knows: a room command said in a game's chat or privately is told where
    it goes; else the closest command of this scope is suggested, never an alias (listed in no help) nor a
    command that cannot be undone (:meth:`CommandSet.suggestable`)."""
    try:
        invocation = parse_invocation(text)
    except BadArgument:
        return  # already answered by handle_command
    if invocation is None:
        return
    rooms = room_referees_of(ctx.bot)
    in_room = any(referee.commands.find(invocation.name, "room") for referee in rooms)
    if ctx.scope != "room" and in_room and invocation.name not in HELP_NAMES:
        await ctx.reply(shorten(f"{ctx.sender}: {elsewhere_reason(invocation.name, 'room')}."))
        return
    known = sorted({name for r in referees for name in r.commands.suggestable(ctx.scope)} | {"help"})
    reason = unknown_reply(invocation.name, known, ctx.scope)
    if reason is None:  # room chat: "!lfg" and "!roll 1d20" are for other people
        LOGGER.debug("%s: %r is no command here; not answered in %s chat", ctx.sender, text, ctx.scope)
        return
    await ctx.reply(shorten(f"{ctx.sender}: {reason}"))
