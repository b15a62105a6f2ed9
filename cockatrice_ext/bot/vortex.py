"""Vortex in a real Cockatrice game: the bot holds the shoe and every pack, and turns draws into picks.

Theory of operation
-------------------
The rules live in :mod:`cockatrice_ext.formats.vortex`; this module only adapts them.

* **Seat.** The bot sits as a player whose deck is the pool (``blocks/vortex-pool.txt`` or the block
  named in ``!vortex new N POOL``). Every card of the shoe, of the packs and of the passed pack stays
  face down in that deck: the engine knows which card is in which zone, so nothing hidden is ever shown
  on the table. The bot asks to sit as a judge; when the server grants it, a picked card is dealt face
  down onto the picker's table and moved into their hand *acting as that player* (``Command_Judge``),
  because the server names a card moved into a hand only to the player who moved it; basic lands are
  created in the hand the same way and life is adjusted for the player. Without judge rights a pick
  goes face down onto the bot's table, gets its note (``Owner: NAME`` and "drag it into your hand": an
  annotation costs no chat), then onto the picker's table in a column of its own; the private message
  names it. Basics are left on the player's table the same way; the player adjusts their own life.
* **Players going.** A seated player who concedes or leaves a started game (Event_PlayerPropertiesChanged
  with ``conceded``, Event_Leave) is out: the referee journals ``RemovePlayer`` (their pack to the bottom
  of the shoe, out of the turn order), says one line, and the last player left wins (the game is
  finished). Cockatrice skips a conceded seat when it passes the turn and passes it itself when the active
  player goes, so the bot never passes for a seat that is gone or conceded. A conceded player's turn change
  reaches us before the concession does: before ending a turn the referee makes one game round trip (the
  server answers it only after the concession's events), so a turn of a player who conceded ends as their
  leaving, without a pass step. A player who unconcedes stays out of the Vortex game (the shoe has their
  pack back): they are told so, and the bot passes their Cockatrice turns. A dropped connection is not
  leaving (the seat stays; nothing happens), nor is the referee's own: a player is out only on the server's
  word (Event_Leave, a seat missing from the full game state the bot has), never from the bot's view while
  it rejoins (:attr:`~cockatrice_ext.bot.referee.GameReferee.seats_known`); players who went while it was
  away are settled once when it is back, after a line saying so. A registered player whose connection stays
  gone (banned, or never back) would stall the game: once it has been gone
  :data:`~cockatrice_ext.bot.referee.ABSENT_SECONDS` the game hears so, and another player may say
  ``!drop NAME``: they are out as a player who leaves (``RemovePlayer``, reason ``dropped``), their seat is
  taken away (the referee hosts the game) and they are told privately what happened.
* **Limits.** Winning and losing otherwise stay with Cockatrice; card effects that move cards from hands
  or graveyards back into the shoe or a pack (``PutInShoe``, ``PutInPack``) have no chat command yet.
* **Hidden information.** A pack's contents reach only its owner, in a private message with a numbered
  list (and their web page), never as a Command_RevealCards: a reveal hands its reader each card's id, and
  Servatrice shows that id to everyone when the card is later dealt face down onto a table, so the reader
  would learn which card another player picked. The listing goes out before the public
  prompt to pick (the prompt waits for the listing to leave the chat queue), so nobody can pick
  blind. Anyone may count packs with ``!packs``. A listing is not queued twice: ``!pack`` says nothing
  while the same listing still waits in the chat queue, and the automatic listing is left out when the
  player was given that same text by ``!pack`` since their last pick (chat budget is scarce). A card a
  pack loses to the shoe (``overflow_to=shoe_bottom``) is counted, never named (:func:`overflow_line`).
* **Turns.** The opening draft (four picks each, then ``!basics``) needs no Cockatrice turns. In normal
  play the bot keeps the Cockatrice active player equal to the engine's: it passes its own turns, the
  draw step of the active player is a pick, and the turn changing is the end of turn (the pass step).
  A failed pick (empty pack) ends the turn in the engine and the bot passes the Cockatrice turn too.
* **Chat.** ``!pick N`` / ``!pick NAME`` (numbers are 1-based for players), ``!basics``, ``!mulligan``,
  ``!draw [N]``, ``!pack``, ``!packs``, ``!state``; ``!life`` only says that life is on the player's
  Cockatrice counter and to concede there on losing; every refusal is one line; identity is the server's
  player id of the chat event.
* **Picking privately.** A pick by name said in game chat tells the table the card the referee then hides
  ("picks a card"), so ``!pick``, ``!pack``, ``!packs`` and ``!help`` also work by private message to the
  referee (:meth:`~cockatrice_ext.bot.referee.GameReferee.on_private_command`): the runtime finds the game by
  the server's ``sender_name`` among the seats (never from text), and a player of two Vortex games adds the
  game's number (``!pick 3 #12``). The pack listing says so. A name said in game chat is still taken (it is
  out already), but a refusal naming cards of the pack (``which one: A or B?``, ``did you mean A?``) goes to
  the picker alone (:meth:`VortexReferee.hidden_card_names`).
* **Pick timer.** With the game option ``picktimer=N`` each pending pick gets N seconds (a warning at half
  time); then the referee journals ``AutoPick``, a random card of that pack. The turn passing in Cockatrice
  waits only for the active player's own pick; another player's pick goes on into the next turn.
* **End and restarts.** A game Cockatrice stops (one player left standing) or every player left is
  finished with its reason journaled; whoever sits down in it is told to say ``!vortex new``. A
  registered account keeps its seat and resumes in place; one that lost its seat rebuilds the game on
  ``!resume`` (:meth:`VortexReferee.rebuild`): engine players keep their journaled ids and are mapped
  to the new seats by user name (:class:`~cockatrice_ext.bot.formats.SeatsByName`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar, Literal

from cockatrice_ext.bot.blocks import LoadedBlock, chat_block_name, load_block
from cockatrice_ext.bot.chat import bidi_isolated
from cockatrice_ext.bot.commands import BadArgument, NotAllowed, Range, Rest, command
from cockatrice_ext.bot.formats import SeatsByName, finish_if_one_stands
from cockatrice_ext.bot.referee import (
    Context,
    FormatRoom,
    PileReferee,
    Referee,
    asked_by,
    owner_note,
    require_lists_read,
)
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.silence import silence_is_heard, told
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.client.errors import ClientError
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.formats import vortex as rules
from cockatrice_ext.formats.base import Effect, RulesError
from cockatrice_ext.journal import JournalError
from cockatrice_ext.protocol import commands as pc
from cockatrice_ext.protocol.codes import CardAttribute

LOGGER = logging.getLogger(__name__)

DRAW_PHASE = 2
END_PHASE = 10
LIFE_COUNTER = 0
COLOR_BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
EMPTY_DECK_NAME = "none"
PACK_PREFIX = "Your pack:"
ABANDONED = "abandoned: every player left"
PROMPT_HOW = ": !pick N (or privately to the referee: !pick N or !pick NAME)."
"""How to pick, said publicly with a player's first prompt: a name only privately (the table reads chat)."""
LISTING_HOW = (
    " In game chat: !pick N (a name there tells the table your card); here, privately: !pick N or !pick NAME"
    " (with two Vortex games add the game's number: !pick N #GAME)."
)
"""How to pick, in the first pack listing (a private message the player may answer)."""
PACK_FIRST_SECONDS = 15.0
"""How long the public pick prompt may wait for the picker's pack listing to leave (a bound, not a
delay: the listing normally leaves at the next chat slot)."""


@dataclass(frozen=True)
class VortexOptions:
    """Table options chosen when the game is created (journaled with the table)."""

    seats: int = 2
    block: str = "vortex-pool"
    judge: bool = True  # ask to sit as judge; used only when the server grants it
    skip_first_draw: bool = True  # two players: the starting player skips their first draw (Magic 103.8)
    overflow_to: str = "graveyard"
    basics_per_player: bool = True  # game option basics: one of each basic land per player in the shoe
    pick_timeout: int = 0  # game option picktimer: seconds per pick before the referee picks; 0 = no timer
    password: str = ""
    seed: int | None = None  # fixed shuffle for reproducible games; None = a fresh random seed


REFUSALS: dict[str, str] = {
    "not_started": "the draft has not started yet",
    "already_started": "the game has already started",
    "bad_player_count": "Vortex needs 2 to 5 players",
    "not_a_player": "you are not a player of this game",
    "not_your_turn": "it is {active_player}'s turn",
    "wrong_phase": "not now (the game is in its {phase} phase)",
    "wrong_phase/over": "the game is over ({winner} won)",
    "pick_pending": "{player} must pick first",
    "no_pick_pending": "you have no pick to make now",
    "no_such_card": "your pack has no such card",
    "card_not_available": "that card is not available",
    "bad_count": "that number is out of range",
    "bad_basics": "name exactly {count} basic lands ({why})",
    "already_chose": "you already chose your basic lands",
    "not_enough_basics": "a pack mulligan needs {needed} basic lands in your pack",  # its count is hidden
    "mulligan_too_late": "too late: the pack mulligan is at upkeep, before your first draw",
    "already_mulliganed": "you already did a pack mulligan this turn",
    "bad_arrangement": "that is not an arrangement of the top cards",
    "bad_position": "top or bottom?",
    "player_out": "you are out of this game (you conceded or left); you may watch",
}
OUT_REASONS = {
    "conceded": "conceded",
    "left": "left the game",
    "dropped": "dropped: their connection was gone",
}
LIFE_IS_YOURS = (
    "life is on your Cockatrice life counter (set it there; the referee keeps no total). Losing is yours to"
    " say: when you lose, concede in Cockatrice (the Game menu's Concede) and you are out; the last player in"
    " wins."
)
"""``!life``'s answer: winning and losing stay with Cockatrice and the players (the README's Vortex part)."""


# ---------------------------------------------------------------------------------------------
# Rendering (pure): effects -> public lines and private messages
# ---------------------------------------------------------------------------------------------


def pack_listing(cards: Iterable[rules.CardRef]) -> str:
    """``1. Forest; 2. Shock`` - the numbers players use with ``!pick``."""
    return "; ".join(f"{n}. {ref.name}" for n, ref in enumerate(cards, start=1))


def render_effects(
    effects: Iterable[Effect], engine: rules.VortexEngine, name_of: Callable[[Any], str]
) -> list[str]:
    """Public chat lines for ``effects``. Pack contents and picked cards (private) are left out."""
    lines: list[str] = []
    effects = list(effects)
    for effect in effects:
        if isinstance(effect, rules.GameStarted):
            order = ", ".join(name_of(p) for p in effect.players)
            lines.append(
                f"Vortex: the shoe is shuffled ({effect.shoe_size} cards left after dealing a pack of"
                f" {engine.config.pack_size} to each player and the passed pack). Opening draft,"
                f" {engine.config.opening_draft_turns} picks each in turn order {order}."
            )
        elif isinstance(effect, rules.TurnStarted):
            if effect.phase == "opening":
                lines.append(f"Opening turn {effect.turn}: {name_of(effect.player)} drafts.")
            else:
                lines.append(f"Turn {effect.turn}: {name_of(effect.player)}.")
        elif isinstance(effect, rules.FirstDrawSkipped):
            lines.append(f"{name_of(effect.player)} starts and skips the first draw.")
        elif isinstance(effect, rules.PackReplenished):
            lines.append(
                f"{name_of(effect.player)} replenishes {effect.added} from the shoe"
                f" (pack {effect.pack_size}, shoe {effect.shoe_size})."
            )
        elif isinstance(effect, rules.PickRequired):
            how = PROMPT_HOW if first_pick(engine, effect.player) else "."
            lines.append(f"{name_of(effect.player)} to pick from {effect.pack_size}{how}")
        elif isinstance(effect, rules.PickTimedOut):
            lines.append(
                f"{name_of(effect.player)} ran out of time: the referee picks one of their {effect.pack_size}"
                " pack cards at random."
            )
        elif isinstance(effect, rules.CardPicked):
            lines.append(f"{name_of(effect.player)} picks a card.")
        elif isinstance(effect, rules.StackCountered):
            lines.append(
                f"{name_of(effect.player)} has nothing to pick: the stack is countered and the turn ends."
            )
        elif isinstance(effect, rules.LifeLost):
            lines.append(f"{name_of(effect.player)} loses {effect.amount} life.")
        elif isinstance(effect, rules.PacksPassed):
            lines.append(
                f"{name_of(effect.player)} passes: takes the passed pack ({effect.pack_size}),"
                f" leaves {effect.passed_size}."
            )
        elif isinstance(effect, rules.BasicsNeeded):
            choices = ", ".join(effect.choices)
            lines.append(
                f"Opening draft done. Everyone: !basics with {effect.count} of {choices}"
                " (or !basics alone to take the referee's choice for your colours)."
            )
        elif isinstance(effect, rules.BasicsAdded):
            lines.append(f"{name_of(effect.player)} takes {', '.join(effect.names)} as basic lands.")
        elif isinstance(effect, rules.PackRevealed):
            names = ", ".join(ref.name for ref in effect.cards)
            lines.append(f"{name_of(effect.player)} mulligans their pack: {names}. It is exiled.")
        elif isinstance(effect, rules.ReplenishLimitChanged):
            lines.append(f"{name_of(effect.player)} replenishes to {effect.limit} this turn.")
        elif isinstance(effect, rules.PackOverflow):
            lines.append(overflow_line(effect, name_of))
        elif isinstance(effect, rules.ShoeShuffled):
            lines.append(f"The shoe is shuffled ({effect.shoe_size} cards).")
        elif isinstance(effect, rules.ShoeTopRevealed):
            lines.append(f"{name_of(effect.visible_to)} looks at the top {len(effect.cards)} of the shoe.")
        elif isinstance(effect, rules.PlayerOut):
            why = OUT_REASONS.get(effect.reason, effect.reason)
            still = ", ".join(name_of(p) for p in effect.remaining)
            lines.append(
                f"{name_of(effect.player)} is out ({why}): their pack of {effect.pack_to_shoe} goes to the"
                f" bottom of the shoe (shoe {effect.shoe_size}); still in: {still}."
            )
        elif isinstance(effect, rules.GameOver):
            lines.append(f"Game over: {name_of(effect.winner)} wins, the last player in.")
    return lines


def overflow_line(effect: rules.PackOverflow, name_of: Callable[[Any], str]) -> str:
    """A pack over the limit lost a random card: named when it goes where everyone sees it (a graveyard,
    exile), counted only when it goes into the hidden shoe (``overflow_to=shoe_bottom``): the card was
    hidden in its owner's pack, and naming it would tell the table a card of the shoe."""
    player = name_of(effect.player)
    if effect.destination == "graveyard":
        return f"{player}'s pack is too big: {effect.card.name} goes to their graveyard."
    if effect.destination == "exile":
        return f"{player}'s pack is too big: {effect.card.name} goes into exile."
    return f"{player}'s pack is too big: 1 card of it, at random, goes to the bottom of the shoe."


def first_pick(engine: rules.VortexEngine, player: Any) -> bool:
    """Whether ``player`` has yet to make their first pick: how to pick is said with that one only (a
    game asks for a pick every draw; the instruction each time would cost chat and say nothing new)."""
    return engine.players[player].picks == 0


def private_messages(
    effects: Iterable[Effect], engine: rules.VortexEngine, *, judge: bool = False
) -> list[tuple[Any, str]]:
    """(player, text) for what only that player may see: their pack when they must pick (with how to
    pick, before their first pick), their pick (only without judge rights: a judge puts it into their
    hand, where they read it)."""
    effects = list(effects)
    out: list[tuple[Any, str]] = []
    for position, effect in enumerate(effects):
        if isinstance(effect, rules.PackContents) and effect.visible_to is not None:
            asked = any(
                isinstance(later, rules.PickRequired) and later.player == effect.owner
                for later in effects[position + 1 : position + 3]
            )
            if asked:
                how = LISTING_HOW if first_pick(engine, effect.owner) else ""
                out.append((effect.owner, f"{PACK_PREFIX} {pack_listing(effect.cards)}.{how}"))
        elif isinstance(effect, rules.CardPicked) and effect.visible_to is not None and not judge:
            out.append((effect.player, f"You picked {effect.card.name}."))
        elif isinstance(effect, rules.ShoeTopRevealed) and effect.visible_to is not None:
            out.append((effect.visible_to, f"Top of the shoe: {pack_listing(effect.cards)}."))
    return out


def default_basics(engine: rules.VortexEngine, player: Any) -> tuple[str, ...]:
    """The referee's choice: basics for the colours ``player`` picked most (Forest when colourless)."""
    counts: Counter[str] = Counter()
    for index in engine.players[player].owned:
        for color in engine.config.cards[index].colors:
            if color in COLOR_BASICS:
                counts[color] += 1
    ranked = [color for color, _ in counts.most_common(2)]
    allowed = set(engine.config.basic_land_names)
    names = [COLOR_BASICS[c] for c in ranked if COLOR_BASICS[c] in allowed]
    if not names:
        names = [engine.config.basic_land_names[-1]]
    count = engine.config.opening_basics
    if len(names) == 1:
        return tuple(names * count)
    return tuple(names[i % 2] if i < count - 1 else names[0] for i in range(count))


def not_yet(error: RulesError) -> str:
    """When a command refused for the game's phase works, said as players know the game (the opening draft,
    the basic lands, play), or "" for another refusal: "in its opening phase" told nobody when."""
    if error.code != "wrong_phase":
        return ""
    phase, needed = error.details.get("phase"), list(error.details.get("needed") or ())
    if phase == "opening" and needed == ["basics"]:
        return "not yet: !basics works after the opening draft (the referee says when)"
    if phase in ("opening", "basics") and needed == ["play"]:
        when = "after the basic lands" if phase == "basics" else "after the opening draft and the basic lands"
        return f"not yet: that works once play begins, {when} (the referee says when)"
    if phase == "play" and needed == ["basics"]:
        return "the basic lands were chosen before play began"
    return ""


def no_such_pick(pack_size: int, position: object = None) -> str:
    """Why a ``!pick`` found nothing, and what may be picked: the pack's numbers (its size is public, as
    ``!packs`` shows) or a name from it; no card of the pack is named (the answer goes to game chat)."""
    if pack_size < 1:
        return "your pack is empty"
    numbers = "1" if pack_size == 1 else f"1-{pack_size}"
    missing = f"no card {position + 1}" if isinstance(position, int) and position >= 0 else "no such card"
    return (
        f"your pack has {missing}: pick {numbers}, or a card's name from your pack, best privately to the"
        " referee (!pack lists it)"
    )


def parse_pick(choice: str) -> int | str:
    """``"3"`` (or ``"#3"``) -> engine position 2 (players count from 1); anything else is a card name.

    Raises:
        BadArgument: a number below 1.
    """
    text = choice.strip()
    if re.fullmatch(r"#?[0-9]{1,3}", text):
        number = int(text.lstrip("#"))
        if number < 1:
            raise BadArgument("pack numbers start at 1")
        return number - 1
    if len(text) > 150:
        raise BadArgument("that card name is too long")
    return text


# ---------------------------------------------------------------------------------------------
# Room command
# ---------------------------------------------------------------------------------------------


class VortexRoom(FormatRoom):
    """``!vortex new N [POOL]`` in room chat creates a refereed Vortex game."""

    format_name = "vortex"
    options_type = VortexOptions
    defaults: VortexOptions

    @command(scopes=("room",))
    async def vortex(self, ctx: Context, what: Literal["new", "rules"], args: Rest | None = None) -> None:
        """!vortex new [PLAYERS] [POOL] [OPTS]: create a Vortex game (2-5 players) refereed by the bot, e.g.
        !vortex new 3 overflow=exile; !vortex rules lists the options."""
        if what == "rules":
            for line in game_options.room_rules("vortex", self.defaults):
                await ctx.reply(shorten(line))
            return
        assert ctx.room_id is not None
        try:
            words, chosen = game_options.split_words("vortex", (args or "").split())
        except game_options.OptionError as exc:
            raise BadArgument(str(exc)) from None
        players = int(words.pop(0)) if words and words[0].isdecimal() else None
        if players is not None and not rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS:
            raise BadArgument(f"PLAYERS must be between {rules.MIN_PLAYERS} and {rules.MAX_PLAYERS}")
        if len(words) > 1:
            raise BadArgument(f"unexpected '{words[1][:40]}'{game_options.suggestion('vortex', words[1])}")
        options = replace(
            game_options.apply("vortex", self.defaults, chosen),
            seats=players or self.defaults.seats,
            block=words[0] if words else self.defaults.block,
        )
        if words:
            try:
                chat_block_name(words[0], self.defaults.block)
            except ValueError as exc:
                raise BadArgument(game_options.misspelt("vortex", words[0]) or str(exc)) from None
        try:
            loaded = load_block(options.block, sections=None)
        except KeyError:
            raise BadArgument(f"no block called {options.block!r}") from None
        except (LookupError, ValueError, OSError) as exc:
            raise BadArgument(f"block {options.block!r} does not load: {str(exc)[:120]}") from None
        short: list[str] = []
        if options.basics_per_player:  # said by the game's !rules (basics=players), not here
            loaded = loaded.only(rules.pool_for_players(loaded.facts, options.seats))
            short = list(rules.basics_short(loaded.facts, options.seats))
        pool = f"pool {loaded.name}, {len(loaded)} cards" + (f", too few {', '.join(short)}" if short else "")
        referee = await VortexReferee.create(self.bot, ctx.room_id, options, loaded, requested_by=ctx.sender)
        await ctx.reply(  # short: every room line takes a share of the connection's chat budget
            shorten(
                f"Vortex game #{referee.game_id} is open for {options.seats} players{asked_by(ctx.sender)}"
                f" ({pool}): join with any deck (even empty), press ready."
            )
        )


# ---------------------------------------------------------------------------------------------
# The game referee
# ---------------------------------------------------------------------------------------------


class VortexReferee(SeatsByName, PileReferee):
    """One Vortex game."""

    format_name = "vortex"
    game_title = "Vortex"
    takes_private_commands = True  # a pick by name in game chat would tell the table the card
    options_type = VortexOptions
    refusals: ClassVar[dict[str, str]] = REFUSALS
    PLAYER_DETAILS: ClassVar[frozenset[str]] = Referee.PLAYER_DETAILS | {"active_player"}

    def __init__(
        self, bot: Bot, game_id: int, room_id: int, options: VortexOptions, block: LoadedBlock
    ) -> None:
        super().__init__(bot, game_id, room_id, options, block)
        self.options: VortexOptions = options
        self.block: LoadedBlock = block
        self._lock = asyncio.Lock()
        self._live: int | None = None  # the engine turn the Cockatrice active player currently plays
        self._drew: bool = False  # the live turn's draw step happened
        self._end_after_pick = False  # the turn passed in Cockatrice while a pick was pending
        self._passes = 0  # turns the bot passed to bring Cockatrice in line with the engine
        self._pick_timers: dict[Any, tuple[int, asyncio.Task[None]]] = {}  # player -> (their picks, timer)
        self.engine_names: dict[Any, str] = {}  # engine player -> user name (seats are found by name)
        self.live = False  # the engine is bound to the seated players (started, resumed or rebuilt)
        self.continues: int | None = None  # the lost game this one rebuilds
        self._listed: dict[Any, tuple[str, int]] = {}  # player -> (pack text !pack gave, their picks then)
        self._told_out: set[Any] = set()  # players out of the engine told so after they unconceded

    def explain(self, error: RulesError) -> str:
        """As every referee's; a pick that found no card says the numbers that may be picked (the shared
        refusal rendering adds "did you mean A?" or "which one: A or B?", to the picker alone:
        :meth:`hidden_card_names`)."""
        if error.code == "no_such_card" and isinstance(error.details.get("pack_size"), int):
            return no_such_pick(error.details["pack_size"], error.details.get("position"))
        early = not_yet(error)
        if early:
            return early
        over = error.code == "wrong_phase" and error.details.get("phase") == "over"
        if over and self.table is not None and self.engine.winner is not None:  # who won, not "over phase"
            error = RulesError("wrong_phase/over", winner=self.engine.winner)
        if error.code == "no_pick_pending" and self.table is not None:
            return super().explain(error) + self.whose_pick()
        return super().explain(error)

    def whose_pick(self) -> str:
        """Whose pick (or turn) it is now, for a player told they have no pick to make (a newcomer read "you
        have no pick to make now" and waited for nothing): ``": it is ann's pick"``."""
        engine = self.engine
        pickers = [p for p in engine.in_game if engine.pending_pick(p)]
        if pickers:
            names = " and ".join(self.display_player(p) for p in pickers)
            return f": it is {names}'s pick"
        if engine.whose_turn is not None:
            turn = self.display_player(engine.whose_turn)
            return f"; nobody picks now ({turn}'s turn): a pick comes with a draw"
        return ""

    def hidden_card_names(self, ctx: Context) -> Collection[str] | None:
        """The cards of the sender's pack (as the engine and as the game name them): hidden from everyone
        else, so a refusal naming one (``which one: A or B?``) goes to the picker alone. None (every
        suggestion private) when the sender has no pack here: not a player, or out of the game (conceded or
        left: the engine keeps no pack for them, and asking for one is refused)."""
        if self.table is None or ctx.player_id is None or ctx.game_id != self.game_id:
            return None
        player = self.engine_player(ctx.player_id)
        if player not in self.engine.in_game:
            return None
        pack = self.engine.pack(player)
        return {ref.name for ref in pack} | {self.block.game_names[ref.index] for ref in pack}

    def shown_card_name(self, name: str) -> str:
        """A pool card's name as the players' Cockatrice shows it (a double-faced card by its front face)."""
        for facts, shown in zip(self.block.facts, self.block.game_names, strict=False):
            if facts.name == name:
                return shown
        return name

    @property
    def engine(self) -> rules.VortexEngine:
        assert self.table is not None
        engine: rules.VortexEngine = self.table.engine  # type: ignore[assignment]
        return engine

    # -- starting --------------------------------------------------------------------------------

    async def start_engine(self) -> None:
        """The Cockatrice game started: seat the engine players (player id order) and deal."""
        humans = self.players_at_start()
        if not rules.MIN_PLAYERS <= len(humans) <= rules.MAX_PLAYERS:
            await self.say("Vortex needs 2 to 5 players; this game cannot be refereed.")
            return
        config = rules.VortexConfig(
            players=tuple(humans),
            cards=self.block.facts,
            overflow_to=self.options.overflow_to,
            skip_first_draw=self.options.skip_first_draw,
            number_opening_turns_given=True,
        )
        seed = self.options.seed if self.options.seed is not None else secrets.randbits(48)
        engine = rules.VortexEngine(config, seed=seed)
        if not await self.read_own_deck():  # the game stopped or went as it started: nothing to referee
            return
        self.bind_seats(humans)
        self.open_table(engine, humans)
        await self.perform(self.apply(rules.StartGame(player=None)))

    # -- restarts ----------------------------------------------------------------------------------

    @classmethod
    async def rebuild(cls, bot: Bot, room_id: int, key: str, requested_by: str) -> VortexReferee:
        """``!resume``: a new Cockatrice game continuing the journaled game ``key`` whose seat was lost.

        The bot's deck is every card of the pool the journal places: the shoe (its order stays in the
        engine), the packs, the passed pack, exiled cards, and each player's picks and graveyard, which
        go back to them when the game starts (seats found by name); a player who left the game took their
        picks and graveyard out of it (``RemovePlayer``): not dealt again.

        Raises:
            JournalError: the journal cannot be replayed, or lacks what a rebuild needs.
            NotAllowed: the game never started its draft, or it is over.
        """
        meta, options, engine, engine_names = cls.journaled_game(
            bot, key, VortexOptions, rules.VortexEngine, requested_by
        )
        if engine.phase == "new":
            raise NotAllowed("that game never started; open a new one with !vortex new")
        game_names = [str(n) for n in meta.get("game_names", [])]
        if len(game_names) != len(engine.config.cards):
            raise JournalError("the journaled pool does not match its cards")
        gone = {f"{zone}:{player}" for player in engine.out for zone in ("owned", "graveyard")}
        placed = {index for index, where in engine.card_locations().items() if where not in gone}
        block = LoadedBlock(
            name=options.block,
            facts=tuple(engine.config.cards),
            game_names=tuple(game_names),
            pile=tuple(game_names[i] for i in sorted(placed)),  # the deck (create)
        )
        options = replace(options, seats=len(engine.in_game))  # a player who left has no seat
        referee: VortexReferee = await cls.create(bot, room_id, options, block, requested_by=requested_by)
        referee.continue_table(key, meta, engine_names)
        return referee

    async def restore_board(self) -> None:
        """The rebuilt game started: every player's picks, graveyard, basics and life back with them, the
        exiled cards in our exile, and a pending pick asked again (its pack first)."""
        engine = self.engine
        if not await self.read_own_deck():  # stopped as it started: put back when it starts again
            return
        self.live = True
        for index in engine.exile:
            await self.deck_to_my_zone(index, "rfg")
        for player in engine.in_game:  # a player who left took their picks and graveyard out of the game
            state = engine.players[player]
            for index in state.owned:
                await self.deliver(index, player, "hand")
            for index in state.graveyard:
                await self.deliver(index, player, "grave")
            if state.basics:
                await self.create_basics(player, state.basics)
            if state.life_lost:
                await self.lose_life(player, state.life_lost)
        continued = f"Game #{self.continues}" if self.continues else "The game"
        where = "in your hand" if self.is_judge else "face down on your table (drag them into your hand)"
        await self.say(
            shorten(
                f"{continued} continues here: {self.status_line()} Your picks are back {where}; put back"
                " on the battlefield what was there."
            )
        )
        await self.ask_pending_picks()
        self.arm_pick_timers()

    async def ask_pending_picks(self) -> None:
        """Each pending pick asked again: the picker's pack listed privately, then the table told who picks.
        For a game taken up in a new process (rebuilt, or a restart in place): the old process may have died
        with the listing and the prompt still waiting for the chat budget."""
        engine = self.engine
        for player in engine.in_game:  # a player out has no pack (the engine refuses to show one)
            if engine.pending_pick(player):
                await self.tell_private(player, f"{PACK_PREFIX} {pack_listing(engine.pack(player))}.")
                await self.say(f"{self.player_name(player)} to pick from {engine.pack_size(player)}.")

    # -- events ----------------------------------------------------------------------------------

    async def on_game_event(self, event: ClientEvent) -> None:
        name = event.name
        async with self._lock:
            if name in ("Event_Leave", "Event_PlayerPropertiesChanged") and await self.settle_departures():
                return
            if name == "Event_PlayerPropertiesChanged" and await finish_if_one_stands(self):
                return
            stopped = name == "Event_GameStateChanged" and self.live and not self.mirror.started
            if self.finished or stopped:
                await self.after_the_game(event)
                return
            if await self.before_play(event):
                return
            if name == "Event_SetActivePlayer":
                await self.on_active_player(int(event.message.active_player_id))  # type: ignore[attr-defined]
            elif name == "Event_SetActivePhase":
                await self.on_phase(int(event.message.phase))  # type: ignore[attr-defined]

    async def after_the_game(self, event: ClientEvent) -> None:
        """The game is over (Cockatrice stopped it, or the referee finished it): close it, and tell anyone
        who sits down in it that this game will not start again and how to get a new one."""
        if not self.finished:
            await self.finish("game over (one player left standing)" if self.humans() else ABANDONED)
        if event.name == "Event_Join":
            props = event.message.player_properties  # type: ignore[attr-defined]
            if not props.spectator and props.player_id != self.me:
                await self.tell(
                    props.user_info.name,
                    f"Vortex game #{self.game_id} is over and will not start again. For a new game say"
                    " !vortex new in the room.",
                )

    async def on_active_player(self, active: int) -> None:
        """Cockatrice's active seat changed: the engine's turn ended if it moved on from the live player."""
        engine = self.engine
        if engine.phase != "play":
            if active == self.me:
                await self.pass_turn()
            return
        ended = self._live
        self._live = None
        if ended is not None and ended != self.engine_player(active) and engine.whose_turn == ended:
            # A concession passes the turn before the server says who conceded: ask the server once
            # (it answers after the concession's events) so a player who went is not given a pass step.
            with contextlib.suppress(ClientError):
                await self.run(pc.dump_zone(self.me, "grave"))
            if await self.settle_departures():
                return
            if engine.whose_turn == ended:
                await self.end_turn(ended)
        await self.follow_engine_turn()

    async def settle_departures(self) -> bool:
        """Players who conceded or left the started game are out of the engine (``RemovePlayer``), one line
        each; the Cockatrice turn and the engine's are brought in line. True if the game is over (finished).

        A player who unconcedes stays out (their pack went to the shoe): told once each time.
        """
        if (
            self.table is None
            or not self.live
            or self.finished
            or not self.seats_known
            or not self.mirror.started
            or self.engine.phase not in ("opening", "basics", "play")
        ):
            return False
        engine = self.engine
        for player in [p for p in engine.out if self.seat_of(p) is not None]:
            seat = self.seat_of(player)
            back = not self.mirror.players[seat].conceded  # type: ignore[index]
            if back and player not in self._told_out and seat not in self.dropping:
                await self.say(
                    f"{self.player_name(player)}: you stay out of this Vortex game (your pack went back to"
                    " the shoe); you may watch, and the referee passes your turns."
                )
            self._told_out = (self._told_out | {player}) if back else (self._told_out - {player})
        gone = [(p, why) for p in engine.in_game if (why := self.departed(p)) is not None]
        for player, why in gone:
            if engine.phase == "over":
                break
            if engine.whose_turn == player:  # their turn ends with them: no pick owed, no pass step
                self._end_after_pick = False
                self._live = None
            await self.perform(self.apply(rules.RemovePlayer(player=None, target=player, reason=why)))
        if engine.phase == "over" and engine.winner is not None:
            outs = ", ".join(self.player_name(p) for p in engine.out)
            await self.finish(f"game over: {outs} out; {self.player_name(engine.winner)} wins")
            return True
        if gone:
            await self.follow_engine_turn()
        return False

    def plays_on(self, player_id: int) -> bool:
        """Whether seat ``player_id`` is still in the Vortex game (not out, the game under way)."""
        if self.table is None or not self.live or self.engine.phase not in ("opening", "basics", "play"):
            return False
        return self.engine_player(player_id) in self.engine.in_game

    def absent_choices(self, name: str) -> str:
        """The way on: ``!drop NAME`` (out, their pack to the shoe)."""
        return (
            f"If they are not back, another player may say !drop {name}: they are out (their pack goes to the"
            " bottom of the shoe) and the game goes on."
        )

    async def end_turn(self, player: int) -> None:
        """The Cockatrice turn of ``player`` ended: the engine's pass step, after their own pending pick (the
        pass step swaps that pack; another player's pick goes on into the next turn)."""
        if self.engine.pending_pick(player):
            self._end_after_pick = True
            timer = self.options.pick_timeout
            later = f" (or the referee picks for you after {timer} s)" if timer else ""
            await self.say(f"{self.player_name(player)}: pick first (!pick N); then your turn ends{later}.")
            return
        await self.perform(self.apply(rules.EndTurn(player=None)))

    async def follow_engine_turn(self) -> None:
        """Bring the Cockatrice active player in line with the engine's (the bot passes turns)."""
        engine = self.engine
        target = engine.whose_turn
        if engine.phase != "play" or target is None or self._end_after_pick:
            return
        seat = self.mirror.players.get(self.mirror.active_player_id)
        if seat is None or seat.conceded:
            return  # the active seat went: Cockatrice passes that turn itself
        if self.mirror.active_player_id == self.seat_of(target):
            if self._live != target:
                self._live = target
                self._drew = False
                self._passes = 0
                # a draw step the player reached while the last turn still waited for its pick
                await self.on_phase(self.mirror.active_phase)
            return
        self._passes += 1
        if self._passes > 2 * (len(engine.players) + 1):
            await self.say(f"Turn order is out of step: it is {self.player_name(target)}'s turn in Vortex.")
            return
        await self.pass_turn()

    async def on_phase(self, phase: int) -> None:
        engine = self.engine
        active = self.engine_player(self.mirror.active_player_id)
        if (
            engine.phase != "play"
            or active is None
            or self._live != active
            or self._drew
            or not DRAW_PHASE <= phase <= END_PHASE
        ):
            return
        self._drew = True
        await self.try_apply(rules.DrawStep(player=None))

    taken_up = False
    """Resumed in place by a new process (:meth:`resume`): the first :meth:`on_reconnected` asks every
    pending pick again (:meth:`ask_pending_picks`)."""

    @classmethod
    async def resume(cls, bot: Bot, game_id: int, room_id: int, key: str) -> VortexReferee:
        """Seated again in the same game by a new process (a registered account keeps its seat)."""
        referee: VortexReferee = await super().resume(bot, game_id, room_id, key)
        referee.taken_up = True
        return referee

    async def on_reconnected(self) -> None:
        """Back in the game (a dropped connection, or a restart with the seat kept): re-read our deck, settle
        once the players who went while the referee was away (said as such), then go on; after a restart,
        a pending pick is asked again (its pack listed first: the old process may have died before they
        left)."""
        async with self._lock:
            if self.table is None or not self.live or not await self.until_seats_known():
                return  # nothing to re-read yet (a rebuilt game waits for its players)
            await self.read_own_deck()
            self._live = None
            if await self.settle_away():
                return
            await self.say("Referee back. " + self.status_line())
            if self.taken_up:  # a new process: what the old one still had to say may never have left
                self.taken_up = False
                await self.ask_pending_picks()
            await self.follow_engine_turn()
            self.arm_pick_timers()

    async def settle_away(self) -> bool:
        """Players who left or conceded while the referee was away are out now, after one line saying so
        (the game's state read after the rejoin is the server's word). True if that ended the game."""
        if self.finished or self.engine.phase not in ("opening", "basics", "play"):
            return False
        gone = [(p, why) for p in self.engine.in_game if (why := self.departed(p)) is not None]
        if not gone:
            return False
        said = "; ".join(f"{self.player_name(p)} {OUT_REASONS.get(why, why)}" for p, why in gone)
        await self.say(f"While the referee was away: {said}.")
        return await self.settle_departures()

    # -- performing effects ------------------------------------------------------------------------

    async def try_apply(self, action: Any) -> None:
        try:
            await self.perform(self.apply(action))
        except RulesError as exc:
            LOGGER.info("game %d: %r refused: %s", self.game_id, action, exc)

    async def perform(self, effects: list[Effect]) -> None:
        """Show ``effects``: private packs first, then card moves, then the public lines.

        A player may pick as soon as the engine asks, so their pack reaches them before anything else:
        revealed to them (a game command, not chat) and listed by private message; the public prompt
        waits until that message is sent (the chat scheduler serves destinations fairly, not in order).
        """
        private = private_messages(effects, self.engine, judge=self.is_judge)
        for player, text in private:
            await self.tell_private(player, text)
        turn_over = False
        for effect in effects:
            if isinstance(effect, rules.CardPicked):
                await self.deliver(effect.card.index, effect.player, "hand")
            elif isinstance(effect, rules.BasicsAdded):
                await self.create_basics(effect.player, effect.names)
            elif isinstance(effect, rules.LifeLost):
                await self.lose_life(effect.player, effect.amount)
            elif isinstance(effect, rules.CardsExiled):
                for ref in effect.cards:
                    await self.deck_to_my_zone(ref.index, "rfg")
            elif isinstance(effect, rules.PackOverflow):
                if effect.destination == "graveyard":
                    await self.deliver(effect.card.index, effect.player, "grave")
                elif effect.destination == "exile":
                    await self.deck_to_my_zone(effect.card.index, "rfg")
            elif isinstance(effect, rules.TurnEnded) and effect.reason == "failed_pick":
                turn_over = self.engine.phase == "play"
        for player, text in private:
            if text.startswith(PACK_PREFIX):
                await self.bot.chat.flush(("user", self.player_name(player)), timeout=PACK_FIRST_SECONDS)
        for line in render_effects(effects, self.engine, self.player_name):
            await self.say(line)  # queued lines are merged into as few chat messages as fit
        active = self.engine.whose_turn
        if turn_over:
            self._live = None
            self._end_after_pick = False
            await self.follow_engine_turn()
        elif self._end_after_pick and (active is None or not self.engine.pending_pick(active)):
            self._end_after_pick = False
            if self.engine.phase == "play" and self.engine.whose_turn != self.engine_player(
                self.mirror.active_player_id
            ):
                await self.perform(self.apply(rules.EndTurn(player=None)))
                await self.follow_engine_turn()
        self.arm_pick_timers()

    # -- the pick timer (game option picktimer) -----------------------------------------------------

    def arm_pick_timers(self) -> None:
        """One timer per pending pick (known by the picker's pick count); none for a pick that was made."""
        if self.options.pick_timeout <= 0 or self.table is None:
            return
        for player, state in self.engine.players.items():
            armed = self._pick_timers.get(player)
            if armed is not None and (not state.pick_pending or armed[0] != state.picks):
                armed[1].cancel()
                del self._pick_timers[player]
            if state.pick_pending and player not in self._pick_timers and not self.finished:
                task = asyncio.create_task(self._expire_pick(player, state.picks))
                self._pick_timers[player] = (state.picks, task)

    def _same_pick(self, player: Any, picks: int) -> bool:
        """Whether ``player`` still has the pick the timer was armed for."""
        state = self.engine.players[player]
        return not self.finished and state.pick_pending and state.picks == picks

    async def _expire_pick(self, player: Any, picks: int) -> None:
        """Warn at half time; at the end the referee picks at random for the idle player (``AutoPick``), once
        what they said in time is heard (``silence_is_heard``; a link down or stalled meanwhile gives them
        their whole time again)."""
        timeout = self.options.pick_timeout
        await told(self, self.player_name(player))  # the clock runs once the picker can read it is their turn
        await asyncio.sleep(timeout / 2)
        if self._same_pick(player, picks) and await silence_is_heard(self):  # not stale after a stalled link
            await self.say(f"{self.player_name(player)}: {timeout / 2:g} s left to pick.")
        await asyncio.sleep(timeout / 2)
        heard = await silence_is_heard(self)
        async with self._lock:
            if not self.closed and self._same_pick(player, picks):
                self._pick_timers.pop(player, None)
                if not heard:
                    self.arm_pick_timers()
                    return
                await self.perform(self.apply(rules.AutoPick(player=None, target=player)))

    async def tell_private(self, player: Any, text: str) -> None:
        """Private: the message (a pack is listed by name, never revealed as cards: see the module's
        "Hidden information")."""
        text = shorten(text, 900)
        if text.startswith(PACK_PREFIX) and self._listed.get(player) == (
            text,
            self.engine.players[player].picks,
        ):
            return  # !pack gave them this very listing since their last pick
        await self.tell(self.player_name(player), text)

    async def deliver(self, index: int, player: Any, zone: str) -> None:
        """Give card ``index`` from our deck to ``player``, face down (nobody else learns it).

        As a judge: onto their table, then into their ``zone`` acting as them (the server names a card
        moved into a hand only to whoever moved it). Without judge rights: onto our table, annotated
        with its owner and what to do (an annotation costs no chat), then onto theirs, in a column of
        its own.
        """
        seat = self.seat_of(player)
        if seat is None:
            LOGGER.info("game %d: %s is not seated; card %d stays in the deck", self.game_id, player, index)
            return
        name = self.block.game_names[index]
        if self.is_judge:
            card_id = await self.deal_from_deck(name, seat, face_down=True)
            if card_id is None:
                LOGGER.warning("game %d: did not see card %d arrive on %s's table", self.game_id, index, seat)
                return
            await self.into_hand(seat, card_id, zone)
            return
        card_id = await self.deal_from_deck(name, self.me, face_down=True)
        if card_id is None:
            return
        where = "your hand" if zone == "hand" else "your graveyard"
        await self.hand_over(
            card_id, player, f"Face down: drag it into {where} (its name came to you).", face_down=True
        )

    async def hand_over(
        self, card_id: int, player: Any, instruction: str, *, row: int = 0, face_down: bool = False
    ) -> None:
        """Move a card from our table onto ``player``'s, in a free column of ``row`` (a move states whether
        the card lies face down), noted with its owner (:func:`owner_note`, which says why
        Servatrice reads it) and ``instruction``."""
        seat = self.seat_of(player)
        if seat is None:
            return
        note = bidi_isolated(f"{owner_note(self.player_name(player))}\n{instruction}")
        x = self.free_x(seat)
        move = pc.move_card(
            "table", [card_id], target_player_id=seat, target_zone="table", x=x, y=row, face_down=face_down
        )
        await self.run(pc.set_card_attr("table", card_id, CardAttribute.AttrAnnotation, note), move)

    async def deck_to_my_zone(self, index: int, zone: str) -> None:
        position = self.own_deck.position(self.block.game_names[index])
        if position is None:
            return
        self.own_deck.take(position)
        await self.run(pc.move_card("deck", [position], target_player_id=self.me, target_zone=zone, x=0, y=0))

    async def create_basics(self, player: Any, names: Iterable[str]) -> None:
        """Basic lands from outside the game: made in the player's hand (judge) or given on their table."""
        names = list(names)
        seat = self.seat_of(player)
        if seat is None:
            return
        if self.is_judge:
            made = [pc.create_token(n, zone="hand", destroy_on_zone_change=False) for n in names]
            await self.judge(seat, made)
            return
        for name in names:
            before = {c.id for c in self.mirror.players[self.me].zone("table").cards}
            await self.run(pc.create_token(name, zone="table", destroy_on_zone_change=False, x=0, y=0))
            card_id = next(
                (c.id for c in self.mirror.players[self.me].zone("table").cards if c.id not in before), None
            )
            if card_id is not None:
                await self.hand_over(card_id, player, "Drag it into your hand.", row=1)
        await self.say(
            f"{self.player_name(player)}: your basic lands are on your table; take them into your hand."
        )

    async def lose_life(self, player: Any, amount: int) -> None:
        seat = self.seat_of(player)
        if self.is_judge and seat is not None:
            await self.judge(seat, [pc.inc_counter(LIFE_COUNTER, -amount)])
        else:
            await self.say(f"{self.player_name(player)}: lower your life by {amount}.")

    # -- status ----------------------------------------------------------------------------------

    def status_line(self) -> str:
        engine = self.engine
        if engine.winner is not None:
            parts = [f"Game over: {self.player_name(engine.winner)} won, the last player in"]
        else:
            parts = [f"Phase {engine.phase}"]
        if engine.whose_turn is not None:
            parts.append(f"{self.player_name(engine.whose_turn)}'s turn")
        parts.append(self.packs_line())
        return "; ".join(parts) + "."

    def packs_line(self) -> str:
        engine = self.engine
        packs = ", ".join(f"{self.player_name(p)} {engine.pack_size(p)}" for p in engine.in_game)
        line = f"packs {packs}; passed {engine.passed_size()}; shoe {engine.shoe_size()}"
        if engine.out:
            line += f"; out: {', '.join(self.player_name(p) for p in engine.out)}"
        return line

    def status(self) -> str:
        """For ``!games``: as any game's, naming the players who are out of a game still in progress."""
        text = super().status()
        if not self.finished and self.table is not None and self.engine.out:
            text += f" ({', '.join(self.player_name(p) for p in self.engine.out)} out)"
        return text

    # -- commands --------------------------------------------------------------------------------

    def sender(self, ctx: Context) -> Any:
        """The engine player who said the command (refused for spectators and outsiders)."""
        return self.engine_player(self.require_player(ctx))

    async def act(self, ctx: Context, make: Callable[[Any], Any]) -> None:
        """Check the sender, apply the action built for their engine player, and perform its effects."""
        player = self.sender(ctx)
        async with self._lock:
            await self.perform(self.apply(make(player)))

    def require_started(self) -> None:
        if self.table is None:
            raise NotAllowed("the game has not started yet")

    @command(aliases=("p",), scopes=("game", "private"))
    async def pick(self, ctx: Context, card: Rest) -> None:
        """!pick N|NAME: card N of your pack, or by NAME privately to the referee (game chat shows a name).

        With two Vortex games, privately: !pick N #GAME (the private help says so).

        A name said in game chat is read by the table, so the listing says to name cards privately."""
        choice = parse_pick(card)
        player = self.sender(ctx)
        owed = self.table is not None and player in self.engine.players and self.engine.pending_pick(player)
        if owed:  # no pick owed: the rules' refusal says whose pick it is (seen: "your new list is still on
            require_lists_read(ctx, choice)  # its way" to a player typing out of turn), not the chat's
        await self.act(ctx, lambda p: rules.Pick(player=p, choice=choice))

    @command()
    async def basics(self, ctx: Context, names: Rest | None = None) -> None:
        """Choose your three basic lands: !basics Forest Forest Mountain (alone: the referee chooses)."""
        player = self.sender(ctx)
        self.require_started()
        if names:
            chosen = tuple(n for n in names.replace(",", " ").split() if n)
        else:
            chosen = default_basics(self.engine, player)
        async with self._lock:
            await self.perform(self.apply(rules.ChooseBasics(player=player, names=chosen)))
            await self.follow_engine_turn()  # normal play may begin now

    @command(final=True)  # exiles a pack: never offered as a typo's correction
    async def mulligan(self, ctx: Context) -> None:
        """At your upkeep: exile a pack holding five or more basic lands; replenish to five this turn."""
        await self.act(ctx, lambda p: rules.PackMulligan(player=p))

    @command()
    async def draw(self, ctx: Context, count: Annotated[int, Range(1, 20)] | None = None) -> None:
        """Draw COUNT cards for a card effect (1 if no COUNT; each draw is a pick)."""
        await self.act(ctx, lambda p: rules.Draw(player=p, count=count or 1))

    @command(scopes=("game", "private"))
    async def pack(self, ctx: Context) -> None:
        """See your own pack again (private message)."""
        player = self.sender(ctx)
        self.require_started()
        cards = self.engine.pack(player)
        listing = pack_listing(cards) if cards else "empty"
        text = shorten(f"{PACK_PREFIX} {listing}.", 900)
        if self.bot.conversation_with(ctx.sender).chat.queued(("user", ctx.sender), text):
            return  # the same listing is still on its way: sending it twice spends the chat budget twice
        self._listed[player] = (text, self.engine.players[player].picks)
        await self.tell(ctx.sender, text)

    @command(scopes=("game", "private"))
    async def packs(self, ctx: Context) -> None:
        """Count everyone's pack, the passed pack and the shoe."""
        self.require_started()
        line = self.packs_line()
        await ctx.reply(shorten(line[:1].upper() + line[1:] + "."))  # names keep their spelling

    @command(name="help", scopes=("private",))
    async def private_help(self, ctx: Context) -> None:
        """What a Vortex player may say to the referee by private message."""
        usages = " | ".join(spec.usage for spec in self.commands.listing("private"))
        await ctx.reply(
            shorten(
                f"Vortex game #{self.game_id}, by private message: {usages}. With two Vortex games add the"
                " game's number: !pick N #GAME. Everything else in the game's chat (!help there).",
                900,
            )
        )

    @command()
    async def look(self, ctx: Context, count: Annotated[int, Range(1, 20)]) -> None:
        """Look at the top COUNT cards of the shoe for a card effect (shown to you only)."""
        await self.act(ctx, lambda p: rules.LookAtShoe(player=p, count=count))

    @command()
    async def shuffle(self, ctx: Context) -> None:
        """Shuffle the shoe for a card effect ("shuffle your library")."""
        await self.act(ctx, lambda p: rules.ShuffleShoe(player=p))

    @command()
    async def rules(self, ctx: Context) -> None:
        """The options this game is played with."""
        text = game_options.describe_in_force("vortex", self.options)
        await ctx.reply(shorten(f"Vortex, pool {self.options.block}: {text}."))

    @command()
    async def life(self, ctx: Context, change: Rest | None = None) -> None:
        """!life: where life is kept in Vortex (your Cockatrice counter) and what to do when you lose."""
        await ctx.reply(f"{ctx.sender}: {LIFE_IS_YOURS}")

    @command()
    async def state(self, ctx: Context) -> None:
        """Where the game stands: phase, whose turn, pack and shoe sizes."""
        self.require_started()
        await ctx.reply(shorten(self.status_line()))


INSTALLERS = {"vortex": VortexRoom.install}
RESUMERS = {"vortex": VortexReferee.resume}
REBUILDERS = {"vortex": VortexReferee.rebuild}
