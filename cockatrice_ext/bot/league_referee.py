"""One running league (:class:`LeagueReferee`): its journaled table, how it is created and begun, which
league answers a member's command, and how the engine's effects are announced (:meth:`LeagueReferee.perform`).

Where each part lives: :class:`LeagueReferee` is put together from mixins, one per set of rules, so that
each can be read in a module of its own (what they share: :mod:`~cockatrice_ext.bot.league_parts`):

* ``league_chat``: how its lines reach chat within the budget (private lines packed, pool listings, page
  links);
* ``league_recap``: what a member who was away hears (the recap, welcome back, what the league waits for);
* ``league_away``: away and idle members (the referee's moves for them, forfeits of members gone long);
* ``league_leaving``: a member leaving for good (``!leave confirm``);
* ``league_pairings``: each pairing's game (opened, waiting for a free slot, cut short, lost);
* ``league_restart``: the league rebuilt from its journal after a restart;
* ``league_private_commands``: the private commands.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, ClassVar

from cockatrice_ext.bot.blocks import LoadedBlock
from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.commands import (
    BadArgument,
    NotAllowed,
    parse_invocation,
    unknown_command_reason,
)
from cockatrice_ext.bot.league_away import Decision, LeagueAway
from cockatrice_ext.bot.league_cards import default_augments
from cockatrice_ext.bot.league_chat import LeagueChat, _pack_lines, _prefixed
from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.league_leaving import LeagueLeaving
from cockatrice_ext.bot.league_options import TITLES, LeagueOptions
from cockatrice_ext.bot.league_pairings import LeaguePairings, WaitingGame
from cockatrice_ext.bot.league_private_commands import LeaguePrivateCommands
from cockatrice_ext.bot.league_recap import LeagueRecap
from cockatrice_ext.bot.league_restart import LeagueRestart
from cockatrice_ext.bot.league_views import (
    REFUSALS,
    market_winners,
    places_words,
    points_table,
    render_effects,
    result_rule,
    setup_words,
)
from cockatrice_ext.bot.referee import Context, Referee
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.formats.base import Action, Effect, Engine, RulesError
from cockatrice_ext.journal import Table

if TYPE_CHECKING:
    from cockatrice_ext.bot.league_rooms import Lobby


AFTER_THE_END = frozenset({"standings", "pool", "status"})
"""Private commands an ended league still answers, for its members (who are in no league then); a running
league answers them for a member who left it (:meth:`LeagueReferee.leave`)."""
OPTION_OF_COMMAND = {"augment": "augments", "item": "items", "basic": "permbasic", "pick": "carousel"}
"""AutoBattler commands that only a league started with that option offers (``!autobattler start items``)."""


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


class LeagueReferee(
    LeaguePrivateCommands,
    LeagueLeaving,
    LeagueAway,
    LeaguePairings,
    LeagueRestart,
    LeagueRecap,
    LeagueChat,
    Referee,
):
    """One running league: its journaled table, its private commands and its games (the core here, and a
    mixin before :class:`Referee` for each set of rules: the module's "Where each part lives")."""

    refusals: ClassVar[dict[str, str]] = {
        **REFUSALS,
        "cube_empty": "the cube has no cards left to open a new shop from: nothing rolled, no treasure spent",
    }

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
        self.packs_listed: dict[str, tuple[int, ...]] = {}
        """The pack each Market member's chat last listed (its line drawn: on its way to them) since they came
        back, seen in the room or by a command: a welcome-back does not list it again
        (:meth:`pack_listed`)."""
        self.heard_while_out: set[str] = set()
        """Members out of the room who wrote to us since (back by a command before the room sees them)."""
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

    # -- creation ------------------------------------------------------------------------------------

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

    def stage_and_waits(self) -> str:
        """Where the league is and whose move it waits for, in the words of the room's ``!games`` ("the draft
        before round 1; waits for olim"): the room's ``status`` says it the same way (it said only the stage,
        while ``!games`` named whom the league waited for)."""
        waits = list(self.engine.waiting_for())
        return self.stage() + (f"; waits for {', '.join(waits)}" if waits else "")

    def room_status_line(self) -> str:
        """The room's ``status``: the league's stage and whose move it waits for (:meth:`stage_and_waits`),
        who is away (the referee moves for them) and who is out of the room for now (their game cut short, or
        their move waiting)."""
        if self.over:
            return self.status_line()
        line = f"{TITLES[self.format_name]} league ({', '.join(self.engine.league.members)}): "
        line += self.stage_and_waits()
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
        if ctx.sender in self.out_of_room:
            self.heard_while_out.add(ctx.sender)  # what their chat lists from now on reaches them
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
        rendered = render_effects(
            effects, engine, pages=watching if pages is not None else False, shown=self.pack_listed
        )
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
