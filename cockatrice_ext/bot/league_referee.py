"""One running league (:class:`LeagueReferee`): its journaled table, its private commands, its away and
idle members, and the games of its pairings."""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from cockatrice_ext.bot.blocks import LoadedBlock
from cockatrice_ext.bot.chat import ChatScheduler, Tagged
from cockatrice_ext.bot.commands import (
    BadArgument,
    NotAllowed,
    Rest,
    command,
    parse_invocation,
    unknown_command_reason,
)
from cockatrice_ext.bot.league_cards import default_augments, pool_cod, pool_list
from cockatrice_ext.bot.league_commands import (
    buy_action,
    by_position,
    pick_action,
    result_action,
    swap_action,
)
from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.league_options import TITLES, LeagueOptions
from cockatrice_ext.bot.league_views import (
    REFUSALS,
    STAND_IN_WORDS,
    Line,
    Live,
    Rendered,
    carousel_prompt,
    counted,
    decision_name,
    departure,
    led,
    marked,
    market_listing,
    market_prompt,
    market_winners,
    numbered,
    places_words,
    points_table,
    pool_with_worths,
    render_effects,
    result_rule,
    setup_words,
    standings_rows,
    worth_rule,
)
from cockatrice_ext.bot.referee import Context, Referee, require_lists_read
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.silence import link_heard
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.formats.base import Action, Effect, Engine, RulesError
from cockatrice_ext.journal import JournalWriteError, Table

if TYPE_CHECKING:
    from cockatrice_ext.bot.league_rooms import Lobby

LOGGER = logging.getLogger(__name__)


PRIVATE_LIMIT = 900
"""Private messages are cut into pieces of at most this many characters (the server's chat budget)."""
PAGE_CONTENTS = {"market": "pack, market and pool", "autobattler": "shop and pool"}
"""What a league player's private web page shows, as its link's message says it."""


AFTER_THE_END = frozenset({"standings", "pool", "status"})
"""Private commands an ended league still answers, for its members (who are in no league then); a running
league answers them for a member who left it (:meth:`LeagueReferee.leave`)."""
LOBBY_GRACE = 120.0
"""Seconds a lobby member may be out of the room (a dropped connection, a client restarted) before the lobby
lets them go."""
OPTION_OF_COMMAND = {"augment": "augments", "item": "items", "basic": "permbasic", "pick": "carousel"}
"""AutoBattler commands that only a league started with that option offers (``!autobattler start items``)."""
STAND_IN_TICK = 5.0
"""Seconds between a running league's checks of whose move it waits for: a member out of the room
:data:`LOBBY_GRACE` seconds, or past the league's ``timer``, gets the referee's move (``core.StandIn``)."""
FORFEIT_GRACE = 300.0
"""Seconds a paired member may be gone (out of the room and not connected in their game) before their
opponent wins the match by forfeit: a game is worth longer than a pick (a client restarted comes back)."""
BURST_SECONDS = 30.0
"""A leftover command repeated within this many seconds of its answer is not answered again."""
WAIT_RETRY = 20.0
"""Seconds between tries to open the game of a pairing the server refused a game (its limit of games per
account): the league's check (:meth:`LeagueReferee.stand_in_due`) tries again no more often than this."""


def league_pages(bot: Bot) -> Any:
    """The web view's league pages (``link``, ``changed``, ``revoke``, ``number``), or None when the bot
    serves none."""
    return (bot.main or bot).league_pages


@dataclass
class WaitingGame:
    """A pairing whose game the server would not open yet: why, when it was last tried (``time.monotonic``),
    and what the game replaces (``open_game``'s ``instead_of``, ``why``, ``whys``)."""

    reason: str
    tried: float
    instead_of: int | None = None
    why: str = ""
    whys: dict[str, str] = field(default_factory=dict)


@dataclass
class Decision:
    """A move a running league waits for from one member: the engine's token for it, since when (the
    ``timer``'s clock: None until the lines that show it to them have left the chat queue), and whether the
    half-time warning went out."""

    token: tuple[Any, ...]
    since: float | None
    warned: bool = False


def misplaced_command(bot: Bot, ctx: Context, text: str, here: Iterable[Referee]) -> str:
    """The answer to a league member's private league command said in room or game chat, where nobody
    ``here`` knows it: where to send it, or why it would not work there either now and where it would
    (:func:`not_now`) ("" when it is no such command)."""
    try:
        invocation = parse_invocation(text)
    except BadArgument:
        return ""
    if invocation is None or any(r.commands.find(invocation.name, ctx.scope) is not None for r in here):
        return ""
    name = invocation.name
    unavailable = ""
    for league in reversed(bot.private_referees):
        if not isinstance(league, LeagueReferee) or not league.is_member(ctx.sender):
            continue
        if (league.over or ctx.sender in league.left) and name not in AFTER_THE_END:
            continue
        spec = league.commands.find(name, "private")
        if spec is None:
            continue
        why = not_now(league, name, spec.name)
        if league._offers(spec.name) and not why:
            return (
                f"{ctx.sender}: send !{name} to me by private message (league commands go there, not here)."
            )
        unavailable = unavailable or why  # another league of theirs may offer it
    return f"{ctx.sender}: {unavailable}" if unavailable else ""


def not_now(league: LeagueReferee, name: str, command_name: str) -> str:
    """Why an AutoBattler member's ``!name`` (its command ``command_name``) would be refused by private
    message too, and where it works: a command of an option the league was started without, or ``!pick``
    outside the carousel ("" when neither)."""
    if league.format_name != "autobattler":
        return ""
    option = OPTION_OF_COMMAND.get(command_name)
    if option and not league._offers(command_name):
        where = ", at its carousel" if command_name == "pick" else ""
        swap = (
            "; !swap SHOP POOL takes a shop card, by private message to me" if command_name == "pick" else ""
        )
        return (
            f"this league was started without {option}, so no !{name} (a league started with {option} takes"
            f" it by private message{where}){swap}."
        )
    phase = league.engine.phase
    if command_name == "pick" and phase != "carousel":
        swap = "; !swap SHOP POOL takes a shop card, by private message" if phase == "draft" else ""
        return (
            f"!{name} is for the carousel, not now (the league is in its {phase} phase): send it to me by"
            f" private message when the carousel opens{swap}."
        )
    return ""


class LeagueReferee(Referee):
    """One running league: its journaled table, its private commands and its games."""

    refusals: ClassVar[dict[str, str]] = {
        **REFUSALS,
        "cube_empty": "the cube has no cards left to open a new shop from: nothing rolled, no treasure spent",
    }
    MARKET_ONLY: ClassVar[frozenset[str]] = frozenset({"pack", "market", "buy", "pass"})
    AUTOBATTLER_ONLY: ClassVar[frozenset[str]] = frozenset(
        {"shop", "swap", "roll", "done", "treasures", "basic", "augment", "item"}
    )
    EQUIVALENT: ClassVar[dict[str, str]] = {
        "buy": "swap",
        "market": "shop",
        "pack": "shop",
        "swap": "buy",
        "shop": "market",
    }
    """The other format's command a player types out of habit -> this one's nearest (each format offers
    only its own: a name in the other's list is never this league's)."""

    def __init__(
        self,
        bot: Bot,
        room_id: int,
        options: LeagueOptions,
        block: LoadedBlock,
        table: Table,
        page_key: str = "",
    ):
        super().__init__(bot)
        self.page_key = page_key or table.key
        """The web view's key for the league's pages: its lobby's (the joiners' links go on), else its own."""
        self.room_id = room_id
        self.options = options
        self.format_name = options.format
        self.block = block
        self.table = table
        self.games: dict[int, LeagueGame] = {}
        self.over = table.engine.is_over()
        self.overpay_warned: dict[str, mk.Buy] = {}  # the buy each player was warned about, once
        self.page_players: set[str] = set()
        """Who watches their private page (the web view adds them when its live stream opens and takes them
        out when their last one closes): they get no chat copy of what the page shows. A chat command takes
        them out too (they play from chat now)."""
        self.chat_players: set[str] = set()
        """Members who play from chat (an action typed in chat since their page last showed): their packs,
        shops and markets come listed in chat. Until then, with a web view, chat points to their page
        (their first message holds its link), so eight players' first lines fit one chat budget."""
        self._follow_ups: set[asyncio.Task[None]] = set()
        self.follow_ups_owed: Counter[str] = Counter()
        """Members with a follow-up still held back (not queued yet: :meth:`_follow_up`), counted from when
        it is made, in the same turn as its first line: a list it holds is owed to them
        (:meth:`lists_owed`)."""
        self.seen: dict[str, float] = {}
        """When each member was last seen: in the league's room, or writing to us (``time.monotonic``)."""
        self.decisions: dict[str, Decision] = {}
        """The move the league waits for from each member, and since when (the ``timer``'s clock)."""
        self.out_of_room: set[str] = set()
        """Members out of the room (and not connected in a game) at the last check."""
        self.standing_in: set[str] = set()
        """Away members the referee moves for (the room was told once; told again when they are back)."""
        self.cut: dict[int, tuple[int, tuple[str, ...], str, bool]] = {}
        """Games cut short by a player who is gone (game id -> round, pairing, that player, whether their
        connection dropped rather than they left): Servatrice does
        not seat anyone in a started game again, so the pairing gets a new game once that player is back
        (see :meth:`reopen_cut_games`), or the other player wins by forfeit after :data:`FORFEIT_GRACE`."""
        self.waiting: dict[tuple[int, tuple[str, ...]], WaitingGame] = {}
        """Pairings whose game the server would not open yet (its limit of games per account): the league's
        check tries again every :data:`WAIT_RETRY` seconds (:meth:`open_waiting_games`); journaled in the
        meta's ``waiting`` so a restart opens them."""
        self.room_told_waiting = (
            False  # the room heard that games wait for a free slot (once, till none wait)
        )
        self._watcher: asyncio.Task[None] | None = None
        self.listed_pools: dict[str, list[int]] = {}
        """Each chat player's pool as chat last listed it whole or told its changes (a page player's page
        shows it): a later change is told as what is new, not as the whole list again."""
        self.setup_notes: dict[tuple[int, frozenset[str]], str] = {}
        """Each AutoBattler pairing's setup (who plays first, hand, life), by round: a game opened again
        for the pairing starts with it too."""
        self.missed: dict[str, list[str]] = {}
        """What the referee decided for a member while they were away (its moves, a forfeit), as their recap
        says it (:meth:`recap`); told once."""
        self.missed_moves: dict[str, Counter[str]] = {}
        self.answered: dict[tuple[str, str], float] = {}
        """When each member last heard the answer to a command said again and again
        (:meth:`first_in_burst`)."""
        left = bot.journal.table_meta(table.key).get("left", [])
        self.left: set[str] = {m for m in left if isinstance(m, str) and self.is_member(m)}
        """Members who left the league for good (``!leave confirm``, journaled in the meta's ``left``): the
        referee makes their every move at once and their games are lost by forfeit; they hear no more of
        it, and may join another league."""
        for session in getattr(bot.main or bot, "sessions", ()):  # a restart's kept topics find their recap
            chat = getattr(session, "chat", None)
            if isinstance(chat, ChatScheduler):
                chat.recaps[self.key] = self.recap

    # -- creation and restore ------------------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        bot: Bot,
        room_id: int,
        options: LeagueOptions,
        block: LoadedBlock,
        members: list[str],
        lobby: Lobby | None = None,
    ) -> LeagueReferee:
        """Build the engine and journal it (:meth:`begin` starts it); from ``lobby``, it takes the lobby's
        pages (their key and who watches them)."""
        seed = options.seed if options.seed is not None else secrets.randbits(48)
        if options.format == "market":  # round-robin byes follow the seat order; journaled in the config
            members = core.seat_order(members, seed)
        engine: Engine[Any]
        try:
            if options.format == "market":
                settings = game_options.config_settings(mk.MarketConfig, options)
                engine = mk.MarketDraftEngine(
                    mk.MarketConfig(players=tuple(members), cards=block.facts, **settings), seed=seed
                )
            else:
                settings = game_options.config_settings(ab.AutoBattlerConfig, options)
                augments = default_augments() if options.augment_packs else ()
                engine = ab.AutoBattlerEngine(
                    ab.AutoBattlerConfig(
                        players=tuple(members),
                        cards=block.facts,
                        augment_cards=augments,
                        dead_take_no_poison=True,  # the rule for new leagues; journaled ones keep theirs
                        **settings,
                    ),
                    seed=seed,
                )
        except RulesError as exc:
            if exc.code == "not_enough_cards":
                short = exc.details.get("shortfall", {})
                need = ", ".join(f"{t} {v['have']}/{v['needed']}" for t, v in short.items())
                raise NotAllowed(f"block {block.name} is too small for this league ({need})") from None
            raise
        except ValueError as exc:
            raise NotAllowed(str(exc)) from None
        number = 1
        prefix = f"{bot.server_key}:league:{room_id}:{options.format}"
        while bot.journal.has_table(f"{prefix}:{number}"):
            number += 1
        meta = {
            "kind": "league",
            "format": options.format,
            "options": asdict(options),
            "room_id": room_id,
            "block": block.name,
            "game_names": list(block.game_names),
            "games": {},
            "page_key": lobby.page_key if lobby else "",
        }
        if bot.fleet is not None and not bot.fleet.acquire(f"{prefix}:{number}"):
            raise NotAllowed("another referee of this room is opening that league: try again")
        table = Table.create(bot.journal, f"{prefix}:{number}", engine, meta=meta)
        league = cls(bot, room_id, options, block, table, page_key=lobby.page_key if lobby else "")
        if lobby is not None:
            league.page_players |= lobby.page_players
        bot.private_referees.append(league)
        return league

    def byes_line(self) -> str:
        """ " Byes: ..." when a Market league's rounds cannot give every member as many byes (an odd count
        of members and rounds not a multiple of a full cycle); "" otherwise."""
        if not isinstance(self.engine, mk.MarketDraftEngine):
            return ""
        counts = core.bye_counts(self.engine.league.members, self.engine.config.rounds)
        if len(set(counts.values())) < 2:
            return ""
        given = ", ".join(f"{m} {n}" for m, n in counts.items())
        rounds = self.engine.config.rounds
        over = f"{rounds} round" if rounds == 1 else f"{rounds} rounds"
        return f" Byes ({self.bye_kind()}) cannot be shared evenly over {over}: {given}."

    def bye_kind(self) -> str:
        """What a bye counts as in this league's standings, in words."""
        result = getattr(self.engine.config, "bye_result", "win")
        return {"win": "a win", "draw": "a draw", "loss": "a loss"}.get(result, str(result))

    async def begin(self) -> None:
        """Announce the league in its room and deal the first cards (the referee's ``Start``)."""
        options, block, bot, room_id = self.options, self.block, self.bot, self.room_id
        members = self.engine.league.members
        number = self.number  # the web view's number for it when there is one (its page is /league/N)
        title = TITLES[options.format]
        rounds = "1 round" if options.rounds == 1 else f"{options.rounds} rounds"
        markets = {1: "no market", 2: "a market after round 1"}.get(options.rounds, "a market between rounds")
        extra = f", {rounds}, {markets}" if options.format == "market" else ""  # markets: between games
        seating = "seated at random; " if options.format == "market" else ""  # see create
        effects = self.table.apply(core.Start(player=None))
        await bot.room_say(
            room_id,
            f"{title} league #{number} starts: {', '.join(members)}"
            f" ({seating}{block.name}, {len(block)} cards{extra}).{self.byes_line()}"
            " Everything else by private message to me: !help.",
        )
        await self.perform(effects)
        self.watch()

    @classmethod
    async def restore(cls, bot: Bot, key: str) -> LeagueReferee:
        """Rebuild an open league from the journal and take its games back: in place where the account kept
        its seat or, with judge rights, watches the game again; a game that is gone is opened anew."""
        meta = bot.journal.table_meta(key)
        options = LeagueOptions(**meta["options"])
        table = Table.restore(bot.journal, key)
        facts = tuple(table.engine.config.cards)
        block = LoadedBlock(
            name=str(meta.get("block", "")), facts=facts, game_names=tuple(meta["game_names"]), cod=""
        )
        page_key = meta.get("page_key")
        league = cls(bot, int(meta["room_id"]), options, block, table, page_key=str(page_key or ""))
        bot.private_referees.append(league)
        if (pages := league_pages(bot)) is not None:
            pages.changed(league)  # its pages' links, kept by the web view, open it again
        newest: dict[tuple[int, tuple[str, ...]], int] = {}
        for game_key, (round_no, *players) in meta.get("games", {}).items():
            pairing = (int(round_no), tuple(players))
            newest[pairing] = max(newest.get(pairing, -1), int(game_key))
        stale = {
            k for k, v in meta.get("games", {}).items() if newest.get((int(v[0]), tuple(v[1:]))) != int(k)
        }
        reopen: list[tuple[int, tuple[str, ...], int]] = []
        for (round_no, players), game_id in sorted(newest.items()):
            match = league.engine.league.match_of(players[0], round_no)
            if match is None or match.decided:
                stale.add(str(game_id))
                continue
            watched_again = (
                game_id not in bot.client.games  # a seat is kept by a registered account, not a spectator's
                and bot.judge_level
                and league.room_id in bot.room_ids
                and await bot.watch_game_again(league.room_id, game_id)
            )
            if game_id in bot.client.games or watched_again:
                game = LeagueGame(bot, league, game_id, round_no, players)
                if bot.client.games[game_id].started:
                    game.take_over_under_way()
                league.games[game_id] = game
                bot.adopt_game(game)
            else:
                stale.add(str(game_id))
                reopen.append((round_no, players, game_id))
        for game_key, (round_no, *players) in meta.get("cut", {}).items():  # cut short: a new game now
            match = league.engine.league.match_of(players[0], int(round_no))
            if match is not None and not match.decided:
                reopen.append((int(round_no), tuple(players), int(game_key)))
        waiting = [
            (int(round_no), tuple(players))
            for round_no, *players in meta.get("waiting", [])
            if (m := league.engine.league.match_of(players[0], int(round_no))) is not None and not m.decided
        ]
        if stale or meta.get("cut") or meta.get("waiting"):  # before any new game: the server may give a new
            meta = bot.journal.table_meta(key)  # one the number of a stale one
            meta["games"] = {k: v for k, v in meta.get("games", {}).items() if k not in stale}
            meta["cut"], meta["waiting"] = {}, []
            bot.journal.set_table_meta(key, meta)
        for round_no, players, lost in reopen:
            if not league.forfeit_certain(players):  # a member who left loses it at the first check instead
                await league.open_game(round_no, players, instead_of=lost)
        for round_no, players in waiting:
            if league.forfeit_certain(players):
                continue
            if not any(set(g.players) == set(players) for g in league.games.values()):
                await league.open_game(round_no, players)
        told: list[Effect] = []
        for member in sorted(league.left):  # left before the engine was told (a journal of an older version)
            told += await league.tell_engine_left(member)
        if told:
            await league.perform(told)
        league.watch()
        return league

    # -- away and idle members ------------------------------------------------------------------------

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
                continue
            self.seen[member] = now
            if member in self.out_of_room:
                self.out_of_room.discard(member)
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
                heard = True
                continue  # what was heard may be that very move
            await self.stand_in(due, reason)
        await self.forfeit_due(now)
        await self.reopen_cut_games()
        await self.open_waiting_games(time.monotonic())

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
            left = max(0.0, FORFEIT_GRACE - (now - self.seen.get(gone, now)))
            lines.append(
                f"#{game_id} {title} round {round_no} {' vs '.join(players)} was cut short: a new game when"
                f" {gone} is back in the room (forfeit in {max(1, math.ceil(left / 60))} min)"
            )
        return lines

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

    def kept_for(self, member: str) -> bool:
        """Whether the chat keeps lines for ``member`` (offline): their recap tells what was missed."""
        holds = getattr(self.bot.conversation_with(member).chat, "holds", None)
        return bool(holds(member)) if callable(holds) else False

    async def welcome_back(self, member: str) -> None:
        """Tell a member back in the room what the league waits for from them (their pack again...), unless
        they have just been given what was kept for them while they were offline (it said so already)."""
        if self.bot.conversation_with(member).chat.got_back_lately(member):
            return  # their recap said what was decided for them and what is true now
        self.missed.pop(member, None)  # told as it happened: they were online
        self.missed_moves.pop(member, None)
        if line := self.waiting_line(member):
            await self.tell(member, shorten(led("Welcome back", line), PRIVATE_LIMIT))

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

    # -- state ----------------------------------------------------------------------------------------

    @property
    def engine(self) -> Any:
        return self.table.engine

    @property
    def key(self) -> str:
        return self.table.key

    def is_member(self, name: str) -> bool:
        return name in self.engine.league.members

    @property
    def number(self) -> int:
        """The league's number as players see it: its web pages' (``/league/N``) when the bot serves a web
        view, else its journal key's (per room and format)."""
        number_of = getattr(self.pages, "number", None)  # the web view's numbering (WebView.number)
        return int(number_of(self)) if callable(number_of) else int(self.key.rsplit(":", 1)[-1])

    def room_title(self) -> str:
        """How room lines name this league ("Market Draft league #2")."""
        return f"{TITLES[self.format_name]} league #{self.number}"

    def room_prefix(self) -> str:
        """How the league's room lines begin: its name ("Market Draft #1: ") while another league runs in the
        same room (their lines would read as one league's), else nothing."""
        others = [
            r
            for r in self.bot.private_referees
            if isinstance(r, LeagueReferee) and r is not self and r.room_id == self.room_id and not r.over
        ]
        return f"{TITLES[self.format_name]} #{self.number}: " if others else ""

    async def room_say(self, line: str) -> None:
        """A line to the league's room, named by :meth:`room_prefix`."""
        await self.bot.room_say(self.room_id, shorten(self.room_prefix() + line))

    def _latest_for(self, user: str) -> LeagueReferee | None:
        """The league ``user`` joined last (running or ended)."""
        mine = [r for r in self.bot.private_referees if isinstance(r, LeagueReferee) and r.is_member(user)]
        return mine[-1] if mine else None

    def is_out(self, member: str) -> bool:
        """An AutoBattler member eliminated (not the Ghost, who plays on)."""
        engine = self.engine
        if not isinstance(engine, ab.AutoBattlerEngine):
            return False
        return member in engine.dead and not engine.is_ghost(member)

    def final_line(self) -> str:
        """Who won the ended league, and the standings, in words."""
        engine = self.engine
        if isinstance(engine, ab.AutoBattlerEngine):
            rows = places_words(engine.standings(), numbered=False, poison=True)  # ties marked
            winner = engine.champion or ", ".join(engine.group_winners.values())
            return (f"{winner} is the champion; " if winner else "") + f"standings: {rows}"
        table = tuple((r["player"], r["points"]) for r in engine.league.standings())
        return f"{market_winners(table)}; standings (points): {points_table(table)}"

    def card_name(self, index: int) -> str:
        return self.block.facts[index].name

    def game_name(self, index: int) -> str:
        return self.block.game_names[index] if index < len(self.block.game_names) else self.card_name(index)

    def status_line(self) -> str:
        engine = self.engine
        title = TITLES[self.format_name]
        members = ", ".join(engine.league.members)
        if self.over:
            return f"{title} league ({members}) is over: {self.final_line()}"
        return f"{title} league ({members}): {self.stage()}"

    def stage(self) -> str:
        """Where the league is, in words ("the draft before round 1" read better than "draft, round 0")."""
        engine = self.engine
        round_no = engine.league.round
        if engine.phase == "play":
            return f"round {round_no} is being played"
        what = {"draft": "the draft", "market": "the market", "setup": "setting up"}.get(
            engine.phase, "the carousel"
        )
        return f"{what} before round {round_no + 1}"

    def room_status_line(self) -> str:
        """The room's ``status``: the league's stage, who is away (the referee moves for them) and who is out
        of the room for now (their game cut short, or their move waiting)."""
        line = self.status_line()
        if self.over:
            return line
        if self.standing_in:
            line += f"; away (the referee moves for them): {', '.join(sorted(self.standing_in))}"
        if out := sorted(self.out_of_room - self.standing_in - self.left):
            line += f"; out of the room: {', '.join(out)}"
        if self.left:
            line += f"; left (the referee moves for them): {', '.join(sorted(self.left))}"
        return line

    def explain(self, error: RulesError) -> str:
        details = dict(error.details)
        card = details.get("card")
        if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(self.block.facts):
            details["card"] = self.card_name(card)
        return super().explain(RulesError(error.code, **details))

    # -- private command routing ------------------------------------------------------------------------

    def misplaced_line(self, ctx: Context, text: str, here: Iterable[Referee]) -> str:
        """:func:`misplaced_command` for this league's games (their module cannot import this one)."""
        return misplaced_command(self.bot, ctx, text, here)

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """Only members are served here; other leagues (or the bot's default line) answer the rest."""
        if ctx.scope != "private" or not self.is_member(ctx.sender):
            return False
        self.seen[ctx.sender] = time.monotonic()  # writing to us: not away, wherever they are
        try:
            invocation = parse_invocation(text)
        except BadArgument as exc:
            if self.over:
                return False
            await ctx.reply(f"{ctx.sender}: {exc.reason}")
            return True
        if invocation is None:
            return False
        name = invocation.name
        if self.over and (name not in AFTER_THE_END or self is not self._latest_for(ctx.sender)):
            return False  # an ended league still shows its table and your pool, from your latest league
        if ctx.sender in self.left and name not in AFTER_THE_END:
            if self is not self._latest_for(ctx.sender) or self.in_a_lobby(ctx.sender):
                return False  # their league now (or their lobby) answers
            await ctx.reply(self.left_line())
            return True
        if self.commands.find(name, "private") is None or not self._offers(name):
            others = [
                r
                for r in self.bot.private_referees
                if isinstance(r, LeagueReferee) and r is not self and r.is_member(ctx.sender) and not r.over
            ]
            if any(r.commands.find(name, "private") is not None and r._offers(name) for r in others):
                return False
            option = OPTION_OF_COMMAND.get(name)
            if option and self.format_name == "autobattler":  # the format's command, not this league's
                instead = "; !swap SHOP POOL takes a shop card" if name == "pick" else ""
                await ctx.reply(
                    f"{ctx.sender}: this league was started without {option}, so no !{name}{instead}"
                )
                return True
            spec = self.commands.find  # an alias (augments) goes with its command
            offered = [n for n in self.commands.names("private") if self._offers(spec(n, "private").name)]
            other = "market" if self.format_name == "autobattler" else "autobattler"
            theirs = self.MARKET_ONLY if other == "market" else self.AUTOBATTLER_ONLY
            whose = ""
            if name in theirs:  # and this format's nearest command, when it has one
                here = f"; here: !{self.EQUIVALENT[name]}" if name in self.EQUIVALENT else ""
                whose = f" (!{name} is for {TITLES[other]} leagues{here})"
            await ctx.reply(f"{ctx.sender}: {unknown_command_reason(name, offered)}{whose}")
            return True
        return await super().handle_command(ctx, text)

    async def act(self, ctx: Context, action: Action) -> None:
        """Apply a player's action through the journal and perform its effects."""
        if self.bot.fleet is not None and not self.bot.fleet.may_act(self.key):
            raise NotAllowed("this league is refereed by another process of the fleet now: try again")
        from_page = ctx.scope == "private" and ctx.reply_hook is not None  # a button of the private page
        if not from_page:
            self.page_players.discard(ctx.sender)
            self.chat_players.add(ctx.sender)
        await self.perform(self.table.apply(action), answer=ctx if from_page else None)

    @property
    def pages(self) -> Any:
        """The web view's league pages (``link``, ``changed``), or None when the bot serves no web view."""
        return league_pages(self.bot)

    def link_line(self, player: str) -> str | None:
        """A new link to ``player``'s private page, as its message says it; None without a web view or when
        they have a link that works."""
        pages = self.pages
        link = pages.link(self, player) if pages is not None else None
        if link is None:
            return None
        command = "!shop" if self.format_name == "autobattler" else "!pack"
        return f"Your {PAGE_CONTENTS[self.format_name]}: {link} or {command}"

    async def tell_members_again(self, line: str = "") -> None:
        """After a restore: ``line`` (when given) to each member, with a new link to their page for those
        whose link died (the pages are served at another address now, or by another process), and to each
        member the league waits for, what it waits for (:meth:`waiting_line`: the lines queued for them
        before the restart went with the old process)."""
        present = getattr(self.bot.client, "room_users", {}).get(self.room_id)
        for member in (m for m in self.engine.league.members if m not in self.left):
            link = self.link_line(member)  # their page shows what the league waits for
            here = present is None or member in present  # one away is welcomed back when they return
            waiting = "" if link or not here else self.waiting_line(member) or self.waited_line(member)
            back = led("The referee is back", waiting) if waiting and not line else waiting
            text = " ".join(part for part in (line, link, back) if part)
            if text:
                await self.tell(member, shorten(text, PRIVATE_LIMIT))

    def waited_line(self, member: str) -> str:
        """What ``member``, whose move the league does not wait for, last did and whom the league waits for
        now (a restart lost the lines that said so: a pick recorded just before it was told to nobody), as one
        line ("" when there is nothing to tell: no draft, market or carousel under way, or they left)."""
        engine = self.engine
        if self.over or member in self.left or self.is_out(member):
            return ""
        others = [p for p in engine.waiting_for() if p != member]
        if not others:
            return ""
        names = " and ".join(others) if len(others) <= 2 else ", ".join(others[:-1]) + f" and {others[-1]}"
        if isinstance(engine, ab.AutoBattlerEngine):
            if engine.phase == "carousel":
                return f"Waiting for {names}'s carousel pick."
            done = "You are done drafting this phase; w" if member in engine.done else "W"
            return f"{done}aiting for {names} to finish drafting."
        if engine.phase == "market":
            return f"Waiting for {names} to buy (or pass)."
        pool = engine.pool(member)
        picked = f"You picked {self.card_name(pool[-1])}; w" if engine.phase == "draft" and pool else "W"
        if picked != "W":
            return f"{picked[:-3]}; your next pack is not here yet (waiting for {names} to pick)."
        return f"Waiting for {names} to pick."

    def waiting_line(self, member: str) -> str:
        """What the league waits for from ``member`` now, as one line with its command ("" for nothing)."""
        engine = self.engine
        kind = (engine.waiting_for().get(member) or ("",))[0]
        if kind == "pick":
            pack = engine.pack(member)
            return f"Your pack ({len(pack)}): {numbered([self.card_name(c) for c in pack])}. !pick N."
        if kind == "buy":
            return market_prompt(engine)
        if kind == "done":
            return "Your shop is open: !shop lists it; !swap SHOP POOL, !roll, !done."
        if kind == "carousel":
            return carousel_prompt(engine)
        return ""

    async def perform(self, effects: list[Effect], answer: Context | None = None) -> None:
        """Announce ``effects`` (room and private), open games for new pairings, close decided ones.

        ``answer``: the private page whose button caused them. Lines a page shows by itself are not sent to
        the chat of players who watch their page (the chat budget is the scarcest sink: a web draft's pick
        confirmations would delay every other line by minutes); the button's player gets them as its
        answer.
        """
        engine = self.engine
        pages = self.pages
        pointed = {m for m in self.engine.league.members if m not in self.chat_players} | self.page_players
        watching = pointed | ({answer.sender} if answer is not None else set())
        rendered = render_effects(effects, engine, pages=watching if pages is not None else False)
        for player, lines in rendered.private.items():  # players first: the room's line can wait
            if player in self.left:  # they left: the referee's moves for them are nobody's news
                continue
            link_line = self.link_line(player)
            answering = answer is not None and answer.sender == player
            if link_line is not None:  # the first private message: the link, and what the page does not show
                lines = [link_line, *(line for line in lines if (player, line) not in rendered.on_page)]
            elif player in self.page_players or answering:
                shown = [line for line in lines if (player, line) in rendered.on_page]
                lines = [line for line in lines if (player, line) not in rendered.on_page]
                if answering:
                    assert answer is not None
                    for line in shown:
                        if text := (line() if callable(line) else line):
                            await answer.reply(text)
            await self.tell_lines(player, lines)
        if answer is not None:  # what only the room's line says in chat (a buy, a pass): the page's answer
            for line in rendered.answers.get(answer.sender, ()):
                await answer.reply(line)
        for player, later in rendered.follow_up.items():
            if player in self.left:  # they left: their draft view is nobody's news (it cost half a window)
                continue
            self.follow_ups_owed[player] += 1  # owed from now on, before the task first runs
            task = asyncio.get_running_loop().create_task(self._follow_up(player, later, rendered))
            self._follow_ups.add(task)
            task.add_done_callback(self._follow_ups.discard)
            task.add_done_callback(lambda _task, p=player: self._follow_up_ended(p))
        prefix = self.room_prefix()
        for line in _pack_lines(rendered.public, limit=280 - len(prefix)):
            await self.bot.room_say(self.room_id, _prefixed(prefix, line))
        forfeits = False
        for effect in effects:
            if isinstance(effect, core.RoundStarted):
                for pair in effect.pairings:
                    if len(pair) == 2 and self.forfeit_certain(pair):
                        forfeits = True  # no game to announce: the other player wins it at once
                    elif len(pair) == 2:
                        await self.open_game(effect.round, tuple(pair))
            elif isinstance(effect, ab.MatchSetup):
                note = (
                    f"{effect.chooser} (more poison) chooses to play or draw."
                    if effect.chooser
                    else f"{effect.first} plays first (decided at random)."
                ) + f" {result_rule(self.format_name)} {setup_words(effect)}"
                self.setup_notes[(effect.round, frozenset(effect.players))] = note  # for a game opened later
                for game in self.games.values():
                    if game.round_no == effect.round and set(game.players) == set(effect.players):
                        game.setup_note = note
            elif isinstance(effect, core.ResultRecorded):
                for pairing in [
                    w for w in self.waiting if w[0] == effect.round and set(w[1]) == set(effect.players)
                ]:
                    self.drop_waiting(pairing)  # decided by both players' !result: no game needed now
                for game in list(self.games.values()):
                    if game.round_no == effect.round and set(game.players) == set(effect.players):
                        await game.result_recorded(effect)
        if any(isinstance(e, (core.DraftFinished, ab.DraftEnded, mk.MarketClosed)) for e in effects):
            # After the round's game announcements: a pool list is long, and the game is what to do next.
            playing = engine.active() if isinstance(engine, ab.AutoBattlerEngine) else engine.league.members
            for player in (p for p in playing if p not in self.left):
                if pages is None or player not in pointed:  # a page player's page shows the pool
                    await self.share_pool(player)
        if forfeits:
            await self.forfeit_due(time.monotonic())
        if engine.is_over() and not self.over:
            self.over = True
            self.bot.journal.close_table(self.key)
            for game in list(self.games.values()):
                await game.close()
        if pages is not None:
            pages.changed(self)

    async def _follow_up(self, player: str, lines: list[Line], rendered: Rendered | None = None) -> None:
        """Send ``lines`` once the player's earlier lines have gone out (so those go out short, and first),
        from the session that writes to them (a helper's: the main session's chat holds none of their
        lines). A first line of ``rendered`` still waiting then (the wait timed out) says nothing: the
        follow-up says it all (:meth:`Rendered.until_followed`). Owed to the player until queued
        (:attr:`follow_ups_owed`): a ``!swap 1 1`` typed as the first line arrives numbers a pool listed only
        here."""
        await self.bot.conversation_with(player).chat.flush(("user", player), timeout=120)
        if rendered is not None:
            rendered.followed.add(player)
        await self.tell_lines(player, lines)

    def _follow_up_ended(self, player: str) -> None:
        """One follow-up for ``player`` is queued, or will never be (cancelled, failed): no longer owed."""
        self.follow_ups_owed[player] -= 1
        if self.follow_ups_owed[player] <= 0:
            del self.follow_ups_owed[player]

    def lists_owed(self, player: str) -> bool:
        """Whether lines for ``player`` are still held back here, not yet in the chat queue (a follow-up
        waiting for their first line to leave): a command by number may point into a list it holds."""
        return self.follow_ups_owed[player] > 0

    async def tell(self, player: str, line: Line, *, raw: bool = False, bulk: bool = False) -> None:
        """A private line to a member, tagged as this league's (:class:`Tagged`): held while they are
        offline, the league's lines give way to one recap of what is true when they are back
        (:meth:`recap`); a ``bulk`` line (a pool listing) waits behind their short lines."""
        await self.bot.tell(player, Tagged(line, bulk=bulk, topic=self.key, recap=self.recap), raw=raw)

    async def tell_lines(self, player: str, lines: Sequence[Line]) -> None:
        """Private lines to ``player``, joined into as few messages as the budget allows."""
        for chunk in _pack_lines(list(lines), limit=PRIVATE_LIMIT, separator=" | "):
            await self.tell(player, chunk)

    async def share_pool(self, player: str) -> None:
        """A chat player's pool when they build a deck: whole (to paste) the first time, afterwards what
        changed since chat last listed it (``!pool`` lists it whole again)."""
        pool = list(self.engine.pool(player))
        before = self.listed_pools.get(player)
        if before is None:
            await self.send_pool(player)
            return
        self.listed_pools[player] = pool
        new, gone = Counter(pool) - Counter(before), Counter(before) - Counter(pool)
        if not new and not gone:
            return
        counts = ", ".join(f"{sum(c.values())} {w}" for w, c in (("new", new), ("gone", gone)) if c)
        names = "; ".join(
            f"{what}: {', '.join(self.card_name(c) for c in cards.elements())}"
            for what, cards in (("new", new), ("gone", gone))
            if cards
        )
        names = names[:1].upper() + names[1:]
        await self.tell(
            player,
            shorten(
                f"Your pool: {len(pool)} cards now ({counts}); !pool lists them all. {names}.",
                PRIVATE_LIMIT,
            ),
        )

    async def send_pool(self, player: str) -> None:
        """The player's pool as a deck list to paste into Cockatrice's deck editor (a listing: the player's
        short answers go before it). Rendered when it leaves, not when it is queued: a listing the chat
        budget holds back would otherwise miss what the pool got meanwhile (a booster, a buy); its heading
        and its pieces come from one rendering (:class:`PoolListing`)."""
        pool = list(self.engine.pool(player))
        if not pool:
            return
        self.listed_pools[player] = pool  # a second share_pool meanwhile: no second whole listing
        listing = PoolListing(self, player)
        await self.tell(player, listing.heading, bulk=True)
        for n in range(listing.slots):
            await self.tell(player, listing.piece(n), raw=True, bulk=True)

    async def tell_raw(self, player: str, text: str) -> None:
        """A multi-line private text (deck lists keep their line breaks), in pieces under the budget,
        queued as a listing (after the player's short lines)."""
        for piece in raw_pieces(text):
            await self.tell(player, piece, raw=True, bulk=True)

    def pool_heading(self, player: str) -> tuple[str, list[str]] | None:
        """The pool listing's heading and its pieces (deck-list lines, each piece within the private limit)
        as the pool is now; remembered as what chat last listed (:meth:`share_pool`). None: the pool is
        empty."""
        pool = list(self.engine.pool(player))
        names = [self.game_name(c) for c in pool]
        if not names:
            return None
        self.listed_pools[player] = pool
        return f"Your pool ({len(names)} cards), to paste into the deck editor:", raw_pieces(pool_list(names))

    def recap(self, member: str) -> str | None:
        """What a member back from offline is told instead of this league's lines kept for them: what the
        referee decided for them meanwhile (told once), and what is true now (None: not a member)."""
        if not self.is_member(member):
            return None
        decided = []
        for move, count in sorted(self.missed_moves.pop(member, Counter()).items()):
            if move == "pick":
                decided.append(f"the referee picked {counted(count, 'card')} at random for you")
            else:
                times = "" if count == 1 else f" ({count} times)"
                decided.append(f"the referee {STAND_IN_WORDS.get(move, 'moved for you')}{times}")
        decided += self.missed.pop(member, [])
        now = self.now_parts(member)
        title = self.room_title()
        lead = f"{title}, while you were away: {'; '.join(decided)}. Now: " if decided else f"{title} now: "
        return shorten(lead + "; ".join(now) + ".", PRIVATE_LIMIT)

    def now_parts(self, member: str) -> list[str]:
        """What is true now for ``member``: the league's stage or result, what it waits for from them, their
        game, their pool."""
        engine = self.engine
        if self.over:
            return [f"the league is over: {self.final_line()}"]
        parts = [self.stage()]
        if self.is_out(member):
            return [*parts, "you are out of the league (eliminated); you may watch its games"]
        if line := self.waiting_line(member) or self.waited_line(member):
            parts.append(line[:1].lower() + line[1:].rstrip("."))
        match = engine.league.match_of(member)
        if match is not None and len(match.players) == 2 and not match.decided:
            opponent = match.opponent(member)
            game = next(
                (g for g in self.games.values() if member in g.players and g.round_no == match.round), None
            )
            cut = next(((n, c) for n, c in self.cut.items() if c[0] == match.round and member in c[1]), None)
            if cut is not None and cut[1][2] == member:
                parts.append(
                    f"your round {match.round} game vs {opponent} (#{cut[0]}) was cut short when"
                    f" {departure(member, cut[1][3], to_them=True)}: back in the room, you get a new game"
                    f" (gone {FORFEIT_GRACE / 60:g} minutes, {opponent} wins by forfeit)"
                )
            elif game is not None:
                parts.append(
                    f"your round {match.round} game vs {opponent} is #{game.game_id} in this room: join it,"
                    " load your deck from !pool and press ready"
                )
            else:
                parts.append(f"your round {match.round} game vs {opponent} opens soon")
        if isinstance(engine, ab.AutoBattlerEngine):
            parts.append(
                f"you have {engine.poison[member]} poison, {counted(engine.treasures[member], 'treasure')}"
            )
        parts.append(f"your pool: {len(engine.pool(member))} cards (!pool lists it)")
        return parts

    # -- games ----------------------------------------------------------------------------------------

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

    def mark_cut(self, game_id: int) -> None:
        """Move ``game_id``'s record among the games cut short: a restart opens its pairing a new game (the
        cut game, finished, is not taken back)."""
        meta = self.bot.journal.table_meta(self.key)
        record = meta.get("games", {}).pop(str(game_id), None)
        if record is not None:
            meta.setdefault("cut", {})[str(game_id)] = record
            self.bot.journal.set_table_meta(self.key, meta)

    async def cut_short(self, game: LeagueGame, gone: str, dropped: bool) -> None:
        """``gone`` left the started ``game`` (their connection ``dropped``, or, in an AutoBattler league,
        on purpose: its concessions decide nothing) and Cockatrice will not seat them in it again. The
        referee leaves it; once ``gone`` is back in the room the pairing gets a new game, and if they stay
        away :data:`FORFEIT_GRACE` seconds the other player wins by forfeit. The game's record stays in
        the journal until then: a restart opens the pairing's game again."""
        other = game.opponent(gone)
        minutes = f"{FORFEIT_GRACE / 60:g} minutes"
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

    async def game_lost(self, game: LeagueGame) -> None:
        """The bot came back without ``game`` (the server restarted, or dropped the seat): forget its
        number (a restarted server may give it to another game) and, while its match is undecided, open
        the pairing's game again and tell both players the new number."""
        self.forget(game)
        self.forget_game_record(game.game_id)
        match = self.engine.league.match_of(game.players[0], game.round_no)
        if match is not None and not match.decided and not self.over:
            await self.open_game(game.round_no, game.players, instead_of=game.game_id)

    # -- private commands --------------------------------------------------------------------------------

    @command(scopes=("private",), aliases=("commands",))
    async def help(self, ctx: Context, topic: Rest | None = None) -> None:
        """List the league commands; !help COMMAND: that command's usage."""
        words = (topic or "").split()
        name = words[0].lstrip("!").casefold() if words else ""
        spec = self.commands.find(name, "private") if name else None
        if spec is not None and self._offers(spec.name):
            line = spec.described
            if spec.name in ("buy", "market") and isinstance(self.engine, mk.MarketDraftEngine):
                line = f"{line} {worth_rule(self.engine)}"  # the numbers in force (league options)
            await ctx.reply(shorten(line, 900))
            return
        if name == "worth" and isinstance(self.engine, mk.MarketDraftEngine):
            await ctx.reply(shorten(worth_rule(self.engine), 900))
            return
        usages = [spec.usage for spec in self.commands.listing("private") if self._offers(spec.name)]
        await ctx.reply(shorten(f"{TITLES[self.format_name]} league commands: " + " | ".join(usages), 900))

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

    @command(scopes=("private",))
    async def rules(self, ctx: Context) -> None:
        """The options this league is played with."""
        text = game_options.describe_in_force(self.format_name, self.options)
        await ctx.reply(shorten(f"{TITLES[self.format_name]} league, block {self.block.name}: {text}.", 900))

    def _offers(self, name: str) -> bool:
        if self.format_name == "market":
            return name not in self.AUTOBATTLER_ONLY
        if name == "augment":
            return self.options.augment_packs
        if name == "item":
            return self.options.item_drafting
        if name == "basic":
            return self.engine.config.permanent_basic_cost > 0
        if name == "pick":
            return bool(self.engine.config.carousel)
        return name not in self.MARKET_ONLY

    @command(scopes=("private",))
    async def pick(self, ctx: Context, card: Rest) -> None:
        """Pick a card from your pack (or the carousel) by number or name."""
        engine = self.engine
        if isinstance(engine, ab.AutoBattlerEngine):
            if engine.phase == "draft":  # "not now (the league is in its draft phase)" read as a paradox
                raise NotAllowed(
                    "!pick is for the carousel; in a draft phase !swap SHOP POOL takes a shop card"
                )
            require_phase(engine, "carousel")
            pool = engine.pool(ctx.sender) if engine.config.carousel_put_back else None
            action = pick_action(
                ctx.sender, card, engine.carousel, carousel=True, put_back_from=pool, name_of=self.card_name
            )
            given = getattr(action, "put_back", None)  # a number of their pool, with the put-back carousel
            require_lists_read(ctx, action.card, given, held=self.lists_owed(ctx.sender))  # type: ignore[attr-defined]
            await self.act(ctx, action)
        else:
            if engine.phase in ("play", "market", "over"):  # a leftover !pick, often several at once
                if self.first_in_burst(ctx.sender, "pick"):
                    raise NotAllowed(self.after_draft_line(ctx.sender))
                return  # answered a moment ago: the same line again would only take the chat's budget
            require_phase(engine, "draft")
            if not engine.pack(ctx.sender):
                raise RulesError("no_pack", player=ctx.sender)
            action = pick_action(ctx.sender, card, engine.pack(ctx.sender))
            require_lists_read(ctx, action.card, held=self.lists_owed(ctx.sender))  # type: ignore[attr-defined]
            await self.act(ctx, action)

    def first_in_burst(self, member: str, what: str, now: float | None = None) -> bool:
        """Whether ``member``'s ``what`` (a leftover command said again and again) gets its answer now: once
        per :data:`BURST_SECONDS` (a newcomer's five !pick after the draft heard the same refusal five
        times)."""
        now = time.monotonic() if now is None else now
        last = self.answered.get((member, what))
        if last is not None and now - last < BURST_SECONDS:
            return False
        self.answered[(member, what)] = now
        return True

    def after_draft_line(self, member: str) -> str:
        """The answer to a Market member's ``!pick`` once the draft is over: what to do now (their game, the
        market, or the result)."""
        engine = self.engine
        if self.over:
            return f"the draft is over, and so is the league: {self.final_line()}"
        if engine.phase == "market":
            return f"the draft is over; the market is open: {engine.whose_turn()} to buy (!market shows it)"
        match = engine.league.match_of(member)
        if match is None or match.decided or len(match.players) != 2:
            return f"the draft is over; {self.stage()} (!status says where you stand)"
        opponent = match.opponent(member)
        game = next(
            (g for g in self.games.values() if member in g.players and g.round_no == match.round), None
        )
        where = f"is #{game.game_id} in this room" if game is not None else "opens soon"
        return f"the draft is over; your round {match.round} game vs {opponent} {where} (deck: !pool)"

    @command(scopes=("private",))
    async def pack(self, ctx: Context) -> None:
        """Show the pack you pick from now."""
        if not self.engine.pack(ctx.sender):
            raise NotAllowed("no pack is waiting for you")
        await ctx.reply(lambda: self.pack_answer(ctx.sender))  # drawn as it leaves: a pick may come first

    def pack_answer(self, player: str) -> str:
        """``!pack``'s answer as it leaves: the pack ``player`` picks from then (a listing waiting for the
        chat budget never shows a pack already picked from, nor one of a draft that is over)."""
        pack = self.engine.pack(player)
        if not pack:
            return "No pack is waiting for you now."
        return shorten(f"Your pack ({len(pack)}): {numbered([self.card_name(c) for c in pack])}.", 900)

    @command(scopes=("private",))
    async def market(self, ctx: Context) -> None:
        """Show the market (with costs) and your pool numbers."""
        engine: mk.MarketDraftEngine = self.engine
        if engine.phase != "market":
            raise NotAllowed(market_closed(engine))
        listing = market_listing(engine, self.card_name)
        turn = engine.whose_turn()
        await self.tell_lines(
            ctx.sender,
            [
                f"Market: {listing}.",
                f"{turn} to buy.",
                worth_rule(engine),
                f"Your pool: {pool_with_worths(engine, engine.pool(ctx.sender), self.card_name)}.",
            ],
        )

    @command(scopes=("private",))
    async def buy(self, ctx: Context, what: Rest) -> None:
        """Buy from the market: !buy N with A, B... (N from !market, A, B... pool numbers or names); the
        cards you trade in must be worth the card's cost together (!market says what each is worth)."""
        engine: mk.MarketDraftEngine = self.engine
        require_phase(engine, "market")
        action = buy_action(ctx.sender, what, engine.market, engine.pool(ctx.sender), name_of=self.card_name)
        require_lists_read(ctx, action.card, *action.pay, held=self.lists_owed(ctx.sender))
        spare = engine.unneeded(action)
        if spare and self.overpay_warned.get(ctx.sender) != action:
            self.overpay_warned[ctx.sender] = action
            names = ", ".join(self.card_name(c) for c in spare)
            wanted = action.card if isinstance(action.card, str) else self.card_name(action.card)
            await ctx.reply(
                shorten(
                    f"That overpays for {wanted}: the cost is met even without any one of {names}. Say the"
                    " same !buy again to pay it all.",
                    900,
                )
            )
            return
        self.overpay_warned.pop(ctx.sender, None)
        await self.act(ctx, action)

    @command(name="pass", scopes=("private",))
    async def pass_(self, ctx: Context) -> None:
        """Pass your market turn."""
        await self.act(ctx, mk.Pass(player=ctx.sender))

    @command(scopes=("private",))
    async def shop(self, ctx: Context) -> None:
        """Show your shop, your pool and your treasures."""
        engine: ab.AutoBattlerEngine = self.engine
        if not engine.shop(ctx.sender):
            if self.is_out(ctx.sender):
                raise NotAllowed("you are out of the league (eliminated): no more shops; !standings shows it")
            raise NotAllowed(self.no_shop(ctx.sender))
        await ctx.reply(lambda: self.shop_answer(ctx.sender))  # drawn as it leaves: the phase may end first

    def no_shop(self, player: str) -> str:
        """Why ``player`` has no shop to list (their pool instead), as a refusal says it."""
        pool = [self.card_name(c) for c in self.engine.pool(player)]
        return f"no shop is open for you (phase {self.engine.phase}); your pool: {numbered(pool)}"

    def shop_answer(self, player: str) -> str:
        """``!shop``'s answer as it leaves: the shop, pool and treasures then (a listing waiting for the chat
        budget never shows a shop of a draft phase that is over)."""
        engine: ab.AutoBattlerEngine = self.engine
        shop = engine.shop(player)
        if not shop:
            return shorten(f"Now {self.no_shop(player)}.", 900)
        pool = [self.card_name(c) for c in engine.pool(player)]
        return shorten(
            f"Shop: {numbered([self.card_name(c) for c in shop])}. Pool: {numbered(pool)}."
            f" Treasures {engine.treasures[player]}, energy {engine.energy}.",
            900,
        )

    @command(scopes=("private",))
    async def swap(self, ctx: Context, cards: Rest) -> None:
        """Swap a shop card for a pool card: !swap SHOP POOL (numbers from !shop, or names)."""
        await self._draft(ctx, cards, item=False)

    async def _draft(self, ctx: Context, cards: str, *, item: bool) -> None:
        """``!swap`` or ``!item``: the shop and pool cards read against the sender's lists, then applied."""
        engine: ab.AutoBattlerEngine = self.engine
        require_phase(engine, "draft")
        if ctx.sender in engine.done:
            raise RulesError("already_done", player=ctx.sender)
        shop, pool = engine.shop(ctx.sender), engine.pool(ctx.sender)
        action = swap_action(ctx.sender, cards, shop, pool, item=item, name_of=self.card_name)
        require_lists_read(ctx, action.shop_card, action.pool_card, held=self.lists_owed(ctx.sender))
        await self.act(ctx, action)

    @command(scopes=("private",))
    async def item(self, ctx: Context, cards: Rest) -> None:
        """Take an Aura or Equipment from your shop as an item for treasures equal to its mana value:
        !item SHOP POOL (POOL goes to the shop; the item to your command zone)."""
        await self._draft(ctx, cards, item=True)

    @command(scopes=("private",))
    async def roll(self, ctx: Context) -> None:
        """Spend a treasure for a new shop."""
        await self.act(ctx, ab.Roll(player=ctx.sender))

    @command(scopes=("private",))
    async def basic(self, ctx: Context) -> None:
        """Pay treasures for one more basic land in every later mini-game (when the league offers it)."""
        await self.act(ctx, ab.BuyPermanentBasic(player=ctx.sender))

    @command(scopes=("private",), aliases=("augments",))
    async def augment(self, ctx: Context, card: Rest | None = None) -> None:
        """Keep one augment of your pack: !augment N (or the name); !augment alone shows your pack and
        your augments."""
        engine: ab.AutoBattlerEngine = self.engine
        pack = engine.augment_packs.get(ctx.sender, [])
        if card is None:
            names = engine.config.augment_cards
            kept = ", ".join(engine.command_zone(ctx.sender)) or "none"
            waiting = f"Your augment pack: {numbered([names[c].name for c in pack])}. " if pack else ""
            rarity = engine.augment_rarity or "not rolled yet"
            await ctx.reply(shorten(f"{waiting}Your augments: {kept}. This game's rarity: {rarity}.", 900))
            return
        if not pack:
            raise RulesError("no_augment_pack", player=ctx.sender)
        choice = by_position(pack, card, "augment pack")
        require_lists_read(ctx, choice, held=self.lists_owed(ctx.sender))  # a number read off the listing
        await self.act(ctx, ab.ChooseAugment(player=ctx.sender, card=choice))

    @command(scopes=("private",), aliases=("enddraft",))
    async def done(self, ctx: Context) -> None:
        """Finish drafting for this phase."""
        await self.act(ctx, ab.EndDraft(player=ctx.sender))

    @command(scopes=("private",))
    async def treasures(self, ctx: Context) -> None:
        """Show everyone's treasures and poison."""
        engine: ab.AutoBattlerEngine = self.engine
        rows = [f"{p} {engine.treasures[p]}T/{engine.poison[p]}P" for p in engine.league.members]
        await ctx.reply(shorten(f"Energy {engine.energy}. " + ", ".join(rows)))

    @command(scopes=("private",))
    async def pool(self, ctx: Context, form: str | None = None) -> None:
        """Your pool: a deck list to paste into the deck editor (!pool cod: a .cod file's text)."""
        names = [self.game_name(c) for c in self.engine.pool(ctx.sender)]
        if not names:
            raise NotAllowed("your pool is empty")
        form = (form or "list").lower()
        if form == "cod":
            try:
                text = pool_cod(f"{ctx.sender} pool", names)
            except (LookupError, ValueError) as exc:
                raise NotAllowed(f"cannot write a .cod for this pool ({str(exc)[:80]}); use !pool") from None
            await self.tell_raw(ctx.sender, text)
        elif form in ("list", "text"):
            await self.send_pool(ctx.sender)
        elif form in ("numbers", "n"):
            await self.tell_lines(
                ctx.sender,
                [f"Your pool: {numbered([self.card_name(c) for c in self.engine.pool(ctx.sender)])}."],
            )
        else:
            raise BadArgument("usage: !pool [list|cod|numbers]")

    @command(scopes=("private",))
    async def standings(self, ctx: Context) -> None:
        """The league table."""
        await ctx.reply(self.standings_line)  # rendered as it leaves: results may come in meanwhile

    def standings_line(self) -> str:
        """The league table in one line."""
        engine = self.engine
        table = standings_rows(engine, self.left)  # the web page's table too: the same places and marks
        if isinstance(engine, ab.AutoBattlerEngine):
            rows = [f"{r['rank']}. {r['player']} {r['poison']} poison" + marked(r) for r in table]
            text = f"Energy {engine.energy}, {self.games_so_far()}: " + ", ".join(rows)
        else:
            rows = [
                f"{r['rank']}. {r['player']} {r['points']} ({r['wins']}-{r['draws']}-{r['losses']})"
                + marked(r)
                for r in table
            ]
            text = f"Round {engine.league.round} of {engine.config.rounds}: " + ", ".join(rows)
        return shorten(text, 900)

    def games_so_far(self) -> str:
        """How far an AutoBattler league's mini-games are, in words: ``games N`` counts finished rounds
        (the engine counts one once all its games are decided), so while one is played the poison of its
        decided games is in the table already and the words say so ("games 0, round 1 under way: 2 of 4
        games decided"), not "games 0" alone."""
        engine = self.engine
        played = f"games {engine.games_played}"
        games = [m for m in engine.league.current_matches() if len(m.players) == 2]
        if engine.phase != "play" or not games:
            return played
        decided = sum(1 for m in games if m.decided)
        under_way = f"round {engine.league.round} under way"
        return f"{played}, {under_way}: {decided} of {counted(len(games), 'game')} decided"

    @command(scopes=("private",))
    async def result(self, ctx: Context, outcome: str) -> None:
        """Report your game's result: !result win|loss|draw (counts when your opponent agrees)."""
        engine = self.engine
        match = engine.league.match_of(ctx.sender)
        if match is None or len(match.players) < 2:
            raise NotAllowed("you have no game this round")
        action = result_action(ctx.sender, outcome, match.opponent(ctx.sender))
        if isinstance(engine, ab.AutoBattlerEngine) and not match.decided:
            game = next(
                (g for g in self.games.values() if ctx.sender in g.players and g.round_no == match.round),
                None,
            )
            opponent_claim = match.claims.get(match.opponent(ctx.sender))
            if game is not None and opponent_claim is not None and opponent_claim == (action.winner or ""):
                await game.report_treasures()
        await self.act(ctx, action)

    @command(scopes=("private",))
    async def status(self, ctx: Context) -> None:
        """Where the league stands and what you can do now."""
        sender = ctx.sender
        await ctx.reply(lambda: self.status_answer(sender))  # rendered as it leaves: true when it arrives

    def status_answer(self, sender: str) -> str:
        """The answer to ``sender``'s ``!status``."""
        engine = self.engine
        parts = [self.status_line()]
        if sender in self.left and not self.over:
            parts.append("you left it: the referee makes your moves, your games are lost by forfeit")
        elif self.is_out(sender) and not self.over:
            parts.append("you are out of the league (eliminated); you may watch its games")
        waiting_for = engine.waiting_for()
        if isinstance(engine, mk.MarketDraftEngine):
            if engine.pack(sender):
                parts.append("you have a pack: !pack")
            if engine.whose_turn():
                parts.append(f"{engine.whose_turn()} to buy")
        else:
            if engine.phase == "draft" and sender in waiting_for:
                parts.append("you are drafting: !shop")
            if sender in engine.augment_packs:
                parts.append("keep one augment of your pack: !augment")
        waiting = [p for p in waiting_for if p != sender] if engine.phase == "draft" else []
        if waiting:  # a player gone quiet (or offline) holds the draft: say who
            parts.append("the draft waits for " + ", ".join(waiting))
        now = time.monotonic()
        for member in (p for p in waiting_for if p != sender):
            if member in self.left:
                parts.append(f"{member} left the league: the referee moves for them")
            elif member in self.standing_in:
                parts.append(f"{member} is away: the referee moves for them")
            elif member in self.out_of_room:
                left = max(1, round(LOBBY_GRACE - (now - self.seen.get(member, now))))
                parts.append(f"{member} is out of the room: the referee moves for them in {left} s")
        match = engine.league.match_of(sender)
        if match is not None and len(match.players) == 2 and not match.decided:
            game = next(
                (g for g in self.games.values() if sender in g.players and g.round_no == match.round),
                None,
            )
            opponent = match.opponent(sender)
            if game is None and self.waiting_for_slot(sender) is not None:
                parts.append(
                    f"your game vs {opponent} waits for a free game slot on the server: the referee opens it"
                    " as soon as it can (or play elsewhere and both send !result)"
                )
            else:
                parts.append(f"your game vs {opponent}" + (f" is #{game.game_id}" if game else ""))
            if opponent in self.out_of_room:
                left = max(1, round(FORFEIT_GRACE - (now - self.seen.get(opponent, now))))
                parts.append(
                    f"{opponent} is out of the room: you win by forfeit in {left} s unless they are back"
                )
        return shorten("; ".join(parts) + ".")


def market_closed(engine: mk.MarketDraftEngine) -> str:
    """Why ``!market`` shows no market now, and when one opens: after each round's games but the last's
    (a newcomer asked during the draft and heard only "the market is closed")."""
    rounds, round_no = engine.config.rounds, engine.league.round
    if rounds <= 1:
        return "this league has no market (one round: the market opens between rounds)"
    if engine.phase == "over":
        return "the market is closed: the league is over"
    if engine.phase == "play" and round_no >= rounds:
        return f"the market is closed: round {round_no} is the last, and no market follows it"
    after = round_no if engine.phase == "play" else round_no + 1
    return f"the market is closed: it opens when round {after}'s games are over"


def require_phase(engine: Any, phase: str) -> None:
    """Refuse with the engine's own ``wrong_phase`` before numbers are read against empty lists."""
    if engine.phase != phase:
        raise RulesError("wrong_phase", phase=engine.phase)


def _split_long(line: str, limit: int) -> list[str]:
    """Cut a line longer than ``limit`` at "; " boundaries (a long listing becomes several messages)."""
    if len(line) <= limit:
        return [line]
    pieces: list[str] = []
    current = ""
    for part in line.split("; "):
        candidate = f"{current}; {part}" if current else part
        if current and len(candidate) + 1 > limit:  # room for the ";" that ends a piece
            pieces.append(current + ";")
            current = part
        else:
            current = candidate
    if current:
        pieces.append(current)
    return [p if len(p) <= limit else p[: limit - 1] + "…" for p in pieces]


def _pack_lines(lines: Sequence[Line], limit: int = 280, separator: str = " ") -> list[Line]:
    """Join lines into as few messages as fit ``limit`` characters each (long lines are cut up). A line
    rendered when it leaves (a callable: measured as it reads now) makes its message one too, which drops
    what is no longer true."""
    out: list[Line] = []
    current: list[Line] = []
    size = 0
    for line in (piece for raw in lines for piece in _pieces(raw, limit)):
        length = len(_now(line))
        if current and size + len(separator) + length > limit:
            out.append(_joined(current, separator))
            current, size = [], 0
        size += (len(separator) if current else 0) + length
        current.append(line)
    if current:
        out.append(_joined(current, separator))
    return out


def raw_pieces(text: str, limit: int = PRIVATE_LIMIT) -> list[str]:
    """A multi-line text in pieces of whole lines within ``limit`` characters (a longer line is cut)."""
    pieces: list[str] = []
    piece = ""
    for line in text.splitlines():
        if piece and len(piece) + 1 + len(line) > limit:
            pieces.append(piece)
            piece = ""
        piece = f"{piece}\n{line}" if piece else line[:limit]
    if piece:
        pieces.append(piece)
    return pieces


class PoolListing:
    """One pool listing on its way: the heading renders the pool as it is when it leaves (and keeps that
    rendering), the raw pieces queued after it come from that same rendering. Pieces are queued for the
    pool as it was plus :data:`SPARE_PIECES` (a pool grows while a listing waits: a booster, buys); a piece
    the rendering does not need says nothing, and a rendering that needs more than were queued ends its last
    piece with where the rest is."""

    SPARE_PIECES = 1

    def __init__(self, league: LeagueReferee, player: str) -> None:
        self.league, self.player = league, player
        self.pieces: list[str] | None = None
        self.slots = len(raw_pieces(pool_list([league.game_name(c) for c in league.engine.pool(player)])))
        self.slots += self.SPARE_PIECES

    def heading(self) -> str | None:
        """The heading, rendering the pool now (a listing rendered again, a message sent again, renders it
        afresh: the pieces follow their heading)."""
        rendered = self.league.pool_heading(self.player)
        if rendered is None:
            self.pieces = []
            return None
        heading, self.pieces = rendered
        return heading

    def piece(self, n: int) -> Callable[[], str | None]:
        """The ``n``-th piece of the heading's rendering (None: not needed, or no heading rendered)."""

        def render() -> str | None:
            pieces = self.pieces
            if pieces is None:  # measured before its heading rendered (never in queue order)
                return None
            if n == self.slots - 1 and len(pieces) > self.slots:
                tail = "(and {} more lines: !pool lists them)"
                kept = raw_pieces(pieces[n], PRIVATE_LIMIT - len(tail) - 8)[0]
                more = sum(len(p.splitlines()) for p in pieces[n:]) - len(kept.splitlines())
                return f"{kept}\n{tail.format(more)}"
            return pieces[n] if n < len(pieces) else None

        return render


def _now(line: Line) -> str:
    return (line() if callable(line) else line) or ""


def _pieces(line: Line, limit: int) -> list[Line]:
    """A plain line cut up by :func:`_split_long`; a rendered one as it is (cut when it leaves)."""
    return [line] if callable(line) else list(_split_long(line, limit))


def _joined(lines: list[Line], separator: str) -> Line:
    """One message of ``lines``: plain text, or a renderer when one of them is rendered as it leaves."""
    if all(isinstance(line, str) for line in lines):
        return separator.join(lines)  # type: ignore[arg-type]
    if len(lines) == 1:
        return lines[0]

    def render() -> str | None:
        return separator.join(text for line in lines if (text := _now(line))) or None

    return Live(render)


def _prefixed(prefix: str, line: Line) -> Line:
    """``line`` led by ``prefix`` (a renderer's text when it leaves; nothing when it says nothing)."""
    if not callable(line):
        return prefix + line
    return Live(lambda: (prefix + text) if (text := line()) else None)
