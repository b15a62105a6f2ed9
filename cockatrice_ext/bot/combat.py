"""Magic Combat Rules in a real Cockatrice game: deck checks, the round clock, fights and the score.

Theory of operation
-------------------
The rules live in :mod:`cockatrice_ext.formats.combat`; this module only adapts them: the room command
(:class:`CombatRoom`) and the game's referee (:class:`CombatReferee`). Its pure parts are modules of their
own: the deck checks (:mod:`~cockatrice_ext.bot.combat_decks`), how commands read cards and slots and the
refusals' words (:mod:`~cockatrice_ext.bot.combat_commands`), what players read, public and private
(:mod:`~cockatrice_ext.bot.combat_view`), and where cards lie on the Cockatrice table
(:mod:`~cockatrice_ext.bot.combat_table`). Their names are importable from here too.

* **Decks.** The game is created with shared decklists, so the server shows the bot every deck a
  player loads. The bot checks it at once (every name known; exactly 40 cards, singleton, no lands, no
  planeswalkers) and answers with one line: legal, or every offending card. Seated, the bot withholds its
  own ready until both players hold legal decks, so an illegal deck never starts a game.
* **Seat.** The bot needs no zone of its own, so an account with the server's judge level watches from a
  judge's spectator seat: Servatrice does not count such games against its per-user limit, and the bot
  does not look like an opponent. The server then starts the game when both players are ready, so the
  bot takes back, acting as the player, every ready given while the game cannot start, and says why.
  Each player's score card is on their own table; turns are passed for the active player.
  A restarted bot takes its spectator seat again and resumes in place.
* **Cards.** Each player plays with their own deck. The engine shuffles each deck list and deals the
  draws. Where the bot holds judge rights it moves each drawn card itself: acting as the player
  (``Command_Judge``) it reads their library (``Command_DumpZone``) and moves the cards into their hand,
  where only they read them. Without judge rights it tells each player privately which cards they
  drew; the first message (the opening hand) says once how to take them from the library. Face-down
  cards are named by their number in the private hand list (``!place 3 2``, ``!set 5 1``, ``!hand``),
  so public chat never gives them away. As a judge the bot also lays out each player's table after
  every action, from what its game mirror shows (a judge sees every card): creatures and face-down
  spells under their slot's column, flipped at the reveal, used cards in the graveyard
  (:func:`table_moves`). Without judge rights players move their own cards, and report deaths and
  bounces (``!dies``, ``!bounce``).
* **Answers.** After the attacker's ``!resolve`` a defender with a face-down spell (a public fact) gets their
  turn: ``!cast`` instants, then ``!resolve`` (the fight line names them; a defender's ``!pass`` then means
  the same). They are asked even when nothing they have face down can be cast now (no instant, or none within
  the round's cap): which cards are face down stays hidden, so the table's lines, and the clock, are the same
  whatever they hold; the defender alone is told privately what they can cast, or that only ``!resolve`` is
  left (:func:`answer_note`). A defender who casts the last card they had face down has nothing left to
  answer with (public: their spell slots are empty), so the fight resolves with that cast, its clock gone.
  A defender who says nothing for :data:`ANSWER_SECONDS` (counted once the lines
  asking them have left the chat queue, again after each instant they cast, and only while the referee's link
  is sound) is answered for: the referee resolves the fight, so a defender who is away never holds the game.
* **Fights.** When the deck check read the cards' rules text and the engine knows both fighters' power and
  toughness (see :mod:`cockatrice_ext.formats.combat`), ``!resolve`` applies the deaths itself and says so
  in one line; otherwise that line names who dies by printed power and toughness, why the referee cannot
  judge, and asks each owner to confirm with ``!dies`` (:func:`fight_line`). When the game moves on (the next
  fight, the combat's end, a new turn) with such a death unconfirmed and the creature still in play, the
  table hears once which creature, whose, and the ``!dies`` that confirms it
  (:meth:`CombatReferee.unconfirmed_reminder`). ``!dies``/``!bounce`` take the sender's own permanent by
  name; another's by ``PLAYER SLOT`` or ``PLAYER CARD`` (:func:`named_permanent`): both decks may hold the
  same card.
* **Spells set.** ``!set`` takes any non-creature card (the write-up limits casting, not setting); one
  that cannot be cast in this turn's fights is named, with why, in the private hand list
  (:func:`cannot_cast_note`).
* **Turns.** The engine runs the round clock: setup (``!place N SLOT`` then ``!ready``: the creatures
  are revealed together, in one line: :func:`revealed_lines`), then ten rounds of one turn each. The bot
  keeps the Cockatrice active player in step with the engine (it passes its own turns and the turns the
  engine ended). Going to the combat phase in Cockatrice starts combat. Passing the turn in Cockatrice
  ends nothing: Servatrice lets any player press it and does not say who did (a defender's press ended
  the attacker's combat), so the referee passes the turn back and says once per wait what the turn or its
  fight waits for, ``!pass`` to end a combat (:func:`turn_kept_line`): drawn as it leaves, in a message of
  its own, and dropped if the wait it is about is over by then (the chat budget may hold it while the game
  goes on).
* **Players going.** Two play, so a player who concedes or leaves the started game ends it: the engine
  records who and why (``RemovePlayer``; :meth:`CombatReferee.settle_departure`), so the game-over line,
  ``!score``, ``!games`` and the journal agree. Watching, Cockatrice stops the game at a concession before
  it says who conceded: the referee hears the server out first. A player whose connection drops (their
  seat kept) is waited for, and the table hears at once for how long: once it has been gone
  :data:`~cockatrice_ext.bot.referee.ABSENT_SECONDS`, the other player may claim the game with ``!drop
  NAME``, read by the rules as the away player leaving (:meth:`CombatReferee.away_line`); once the game is
  over, ``!drop`` takes nobody out (nor their seat) and says the game is over (:meth:`CombatReferee.drop`).
* **Score.** A "Score" token per player shows their points as its power and the round and every
  player's points in its note (on the bot's table, or watching, on that player's own): the real client
  prints both on the table, while extra counters stack unlabelled past the player's area. Every round
  begins with its spell cap; the winner is declared after round ten.
* **Chat.** Every refusal is one line; identity is the server's player id of the chat event. Slots are
  numbered 1-5 for players (the engine counts from 0). What one command does to several cards reads as one
  line (:func:`render_effects`: ``!discard 3 4 6``, a summon's sacrifices, a creature with its auras). A
  private hand list or answer note is drawn as it leaves; a hand list overtaken by a newer one is not sent
  (its numbers would point at other cards). Kept for a player whose connection is gone, they are kept as the
  game's chat topic alone: back, the player gets their hand as it is then (:meth:`CombatReferee.recap`),
  never a list the game changed meanwhile; a player's dropped connection queues their hand list, so
  that back they get one even when nothing about their hand was told meanwhile (a draw, a bounce:
  :meth:`CombatReferee.on_connection_changed`). ``!score`` (``!state``) is drawn as it leaves too; a
  spectator, whose answer is its first sentence, is told the points in it.
* **Restarts.** A registered account keeps its seat and resumes in place. One that lost its seat
  rebuilds the game on ``!resume`` (:meth:`CombatReferee.rebuild`): a new game the same two players join
  with the same decks; the engine (round, points, caps, life, every card's place) comes from the
  journal, engine players are mapped to the new seats by name, and the cards are put back where the
  journal says (by the bot as a judge, else by the players, told privately what goes where).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import asdict, dataclass, replace
from typing import Annotated, Any, ClassVar, Literal

from cockatrice_ext.bot.absent import ABSENT_SECONDS
from cockatrice_ext.bot.board import GRID_POINTS_PER_CARD, OwnDeck
from cockatrice_ext.bot.chat import Line, Tagged

# The names marked F401 are imported from here by the web view, tests and scripts (kept since the split).
from cockatrice_ext.bot.combat_commands import (
    _NUMBER,
    HAND_DETAILS,
    NOT_THERE,
    REFUSALS,
    cast_hint,
    named_permanent,
    play_hint,
    renumbered,
    slot_index,
    split_card_and_numbers,
)
from cockatrice_ext.bot.combat_decks import (
    DECK_HOWTO,
    DECK_OFFER,
    DeckVerdict,
    bundled_deck_listing,
    card_database,
    check_cod,
)
from cockatrice_ext.bot.combat_table import (
    HAND_END,
    attach_moves,
    attachments,
    board_instructions,
    board_of,
    card_places,
    table_moves,
)
from cockatrice_ext.bot.combat_view import (
    ANSWER_SECONDS,
    PrivateLine,
    answer_key,
    answer_note,
    fight_wait,
    game_result,
    hand_message,
    private_lines,
    render_effects,
    turn_kept_line,
    unconfirmed_line,
    went_result,
)
from cockatrice_ext.bot.commands import (
    BadArgument,
    CommandError,
    NotAllowed,
    Range,
    Rest,
    command,
    parse_invocation,
)
from cockatrice_ext.bot.formats import SeatsByName, finish_if_one_stands
from cockatrice_ext.bot.referee import (
    Context,
    FormatRoom,
    GameReferee,
    Referee,
    asked_by,
    deck_lists_unshared,
    refuse_if_waiting,
)
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.silence import silence_is_heard, told
from cockatrice_ext.bot.words import MAX_CHAT_LINE, Refusal, duration_words, players_named, shorten
from cockatrice_ext.cards.model import CardDatabase
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.client.errors import ClientError
from cockatrice_ext.client.mirror import PlayerState
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats import options as game_options
from cockatrice_ext.formats.base import Effect, RulesError
from cockatrice_ext.journal import Table
from cockatrice_ext.protocol import commands as pc

LOGGER = logging.getLogger(__name__)

COMBAT_PHASE = 4
LIFE_COUNTER = 0
SCORE_CARD = "Score"  # a token on each player's table (watching) or ours, one per player (seated)
GONE = ("conceded", "left")
"""How a player goes from a started game (:meth:`CombatReferee.departed`): either ends it (two play)."""
EMPTY_DECK = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>referee</deckname>'
    '<comments/><zone name="main"/></cockatrice_deck>'
)


@dataclass(frozen=True)
class CombatOptions:
    """Table options chosen when the game is created (journaled with the table)."""

    rounds: int = 10
    both_players_draw: bool = rules.CombatConfig.both_players_draw  # game option draw (formats/options.py)
    max_hand_size: int = rules.CombatConfig.max_hand_size  # game option hand: cleanup discards down to it
    judge: bool = False  # the bot needs no judge rights: players move their own cards
    card_source: str = ""  # card data for deck checks ("" = $COCKATRICE_EXT_CARDS, else every real card)
    password: str = ""
    seed: int | None = None  # fixed shuffle for reproducible games; None = a fresh random seed


LATE_ANSWER_SECONDS = 60.0
"""How long after the answer clock resolved a fight a defender's late ``!cast`` or ``!resolve`` is answered
with why there is no fight to answer any more."""


def answer_timeout_line(
    engine: rules.CombatEngine, defender: Any, slot: int, name_of: Callable[[Any], str]
) -> str:
    """What the table reads when the answer clock resolves the fight in ``slot`` (0-based) for ``defender``:
    "did not answer" only when they cast nothing for it; a defender who cast an instant did answer and only
    did not ``!resolve``."""
    players = engine.config.players
    seat = players.index(defender) if defender in players else None
    cast = seat is not None and any(caster == seat for caster, *_ in engine.stack)
    verb = "!resolve" if cast else "answer"
    return (
        f"{name_of(defender)} did not {verb} in {ANSWER_SECONDS:g} s: the referee resolves the fight in slot"
        f" {slot + 1}."
    )


# ---------------------------------------------------------------------------------------------
# Room command
# ---------------------------------------------------------------------------------------------


COMBAT_NEEDS_DECK_LISTS = (
    "Magic Combat Rules cannot be refereed here: the referee deals from the players' own decks and must read"
    " their lists"
)
"""The refusal of a Combat game on a server whose games cannot share deck lists."""


class CombatRoom(FormatRoom):
    """``!combat new`` in room chat creates a refereed Magic Combat Rules game."""

    format_name = "combat"
    options_type = CombatOptions
    defaults: CombatOptions

    @command(scopes=("room",))
    async def combat(self, ctx: Context, what: Literal["new", "rules"], args: Rest | None = None) -> None:
        """!combat new [OPTS]: create a two-player Magic Combat Rules game refereed by the bot, e.g.
        !combat new draw=both hand=7; !combat rules lists the options; !deck sends a legal deck."""
        if what == "rules":
            for line in game_options.room_rules("combat", self.defaults):
                await ctx.reply(shorten(line))
            return
        assert ctx.room_id is not None
        if unshared := self.deck_lists_unshared():
            raise BadArgument(f"{COMBAT_NEEDS_DECK_LISTS}: {unshared}")
        try:
            chosen = game_options.parse("combat", (args or "").split())
            options = game_options.apply("combat", self.defaults, chosen)
        except game_options.OptionError as exc:
            raise BadArgument(str(exc)) from None
        from cockatrice_ext.cards.errors import CardDataError

        try:
            cards = await asyncio.to_thread(card_database, self.defaults.card_source)
        except CardDataError as exc:
            raise BadArgument(f"the referee's card database does not load: {str(exc)[:120]}") from None
        referee = await CombatReferee.create(
            self.bot, ctx.room_id, options, requested_by=ctx.sender, cards=cards
        )
        await ctx.reply(  # short: every room line takes a share of the connection's chat budget
            shorten(  # the open deck lists are said before anyone joins (seen: nobody was told)
                f"Magic Combat Rules game #{referee.game_id} is open for 2 players{asked_by(ctx.sender)}:"
                " 40-card singleton deck, no lands; deck lists are open (the referee checks them, your"
                " opponent sees yours)."
            )
        )

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """As every room referee's, and ``!deck`` (a Combat game's command, seen said in the room and
        ignored) sends the bundled deck here too. Not a listed room command: the room's ``!help`` line
        (``referee.room_help``) has no room for it (with every format installed it is 297 of 300 characters
        already); ``!help combat`` names it, as does a refused deck's line (:data:`DECK_OFFER`)."""
        try:
            invocation = parse_invocation(text)
        except CommandError:
            invocation = None
        if invocation is not None and invocation.name == "deck" and ctx.scope == "room":
            try:
                await self.send_deck(ctx)
            except CommandError as exc:
                await ctx.reply(shorten(f"{ctx.sender}: {exc.reason}"))
            return True
        return await super().handle_command(ctx, text)

    async def send_deck(self, ctx: Context) -> None:
        """The bundled legal 40-card deck to ``ctx``'s sender, privately, and how to load it, in the room."""
        listing = await bundled_deck_listing()
        await self.bot.tell(ctx.sender, listing, raw=True)  # the list alone: it is copied as it stands
        await ctx.reply(f"{ctx.sender}: {DECK_HOWTO}")


# ---------------------------------------------------------------------------------------------
# The game referee
# ---------------------------------------------------------------------------------------------


class CombatReferee(SeatsByName, GameReferee):
    """One Magic Combat Rules game."""

    format_name = "combat"
    refusals: ClassVar[dict[str, str]] = REFUSALS
    PLAYER_DETAILS: ClassVar[frozenset[str]] = Referee.PLAYER_DETAILS | {"active_player", "defender"}

    def __init__(self, bot: Bot, game_id: int, room_id: int, options: CombatOptions) -> None:
        super().__init__(bot, game_id, room_id)
        self.options = options
        self.decks: dict[int, DeckVerdict] = {}
        self.cards: CardDatabase | None = None
        self.is_ready = False
        self._lock = asyncio.Lock()
        self._layout: asyncio.Task[None] | None = None
        self._layout_wanted = False
        self._passes = 0
        self._turn_told: set[tuple[Any, ...]] = set()  # (round, player, fight_wait): "still X's turn" said
        self._reminders: set[asyncio.Task[None]] = set()
        self._hand_lists: dict[Any, int] = {}  # player -> the latest hand list queued for them
        self._answer_timer: asyncio.Task[None] | None = None  # resolves a fight its defender does not answer
        self._answer_key: tuple[int, int, int] | None = None  # the wait the timer runs for: answer_key
        self.engine_names: dict[Any, str] = {}  # engine player -> user name (seats are found by name)
        self.shown_names: dict[str, str] = {}  # engine card name -> the name on the card in Cockatrice
        self.live = False  # the engine is bound to the seated players (started, resumed or rebuilt)
        self.continues: int | None = None  # the lost game this one rebuilds
        self._unconfirmed: dict[int, tuple[int, bool]] = {}  # unconfirmed_deaths: card -> (slot, reminded)
        self._waiting_for: set[Any] = set()  # players the table was told the game waits for

    # -- creation and resumption ---------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        bot: Bot,
        room_id: int,
        options: CombatOptions,
        *,
        requested_by: str = "",
        cards: CardDatabase | None = None,
    ) -> CombatReferee:
        """Create the game with shared decklists: from a judge's spectator seat when the account is a
        judge (the per-user game limit does not count it), else seated, not ready until both decks are
        legal."""
        refuse_if_waiting(bot)
        description = "Magic Combat Rules, 2 players, refereed, open deck lists"
        if requested_by:
            description += f" (asked by {requested_by})"
        game_id = await bot.open_game(
            room_id,
            description=description,
            seats=2,
            type_hint="combat",
            password=options.password,
            judge=options.judge,
            share_decklists=True,
            # every spectator receives both shared deck lists, and Servatrice numbers cards in deck-list
            # order and shows a card's number as it goes face down: a spectator could name the face-down
            # cards. None, unless the referee itself watches from a judge's spectator seat.
            spectators_allowed=bot.judge_level,
            watch=True,
        )
        referee = cls(bot, game_id, room_id, options)
        referee.cards = cards
        bot.adopt_game(referee)
        if not referee.watching:
            referee.set_up(lambda: bot.client.select_deck(game_id, EMPTY_DECK))
        return referee

    @classmethod
    async def resume(cls, bot: Bot, game_id: int, room_id: int, key: str) -> CombatReferee:
        """Rebuild a referee from the journal (the bot was restarted and re-seated)."""
        meta = bot.journal.table_meta(key)
        referee = cls(bot, game_id, room_id, CombatOptions(**meta["options"]))
        referee.table = Table.restore(bot.journal, key)
        referee.engine_names = cls.journaled_names(meta, referee.engine.config.players)
        referee.shown_names = dict(meta.get("shown_names", {}))
        referee.live = True
        referee.is_ready = True
        referee.arm_answer_timer()  # a defender asked before the restart gets their whole time again
        bot.chat.recaps[referee.recap_topic] = referee.recap  # for its lines kept (journaled) before the stop
        return referee

    @classmethod
    async def rebuild(cls, bot: Bot, room_id: int, key: str, requested_by: str) -> CombatReferee:
        """``!resume``: a new game continuing the journaled game ``key`` whose seat was lost.

        The same two players join it and load the decks they played with (checked card by card); when
        it starts, every card goes back where the journal says, with round, points and life.

        Raises:
            JournalError: the journal cannot be replayed, or lacks the players' names.
            NotAllowed: the game is over.
        """
        meta, options, _engine, engine_names = cls.journaled_game(
            bot, key, CombatOptions, rules.CombatEngine, requested_by
        )
        from cockatrice_ext.cards.errors import CardDataError

        try:
            cards = await asyncio.to_thread(card_database, options.card_source)
        except CardDataError as exc:
            raise NotAllowed(f"the referee's card database does not load: {str(exc)[:120]}") from None
        if unshared := deck_lists_unshared(bot):
            raise NotAllowed(f"{COMBAT_NEEDS_DECK_LISTS}: {unshared}")
        referee = await cls.create(bot, room_id, options, requested_by=requested_by, cards=cards)
        referee.continue_table(key, meta, engine_names)
        referee.shown_names = dict(meta.get("shown_names", {}))
        return referee

    def journaled_deck(self, player: Any) -> Counter[str]:
        """The names of the deck ``player`` played with (a rebuilt game needs the same cards)."""
        config = self.engine.config
        seat = config.players.index(player)
        return Counter(
            card.name for card, owner in zip(config.cards, config.owners, strict=True) if owner == seat
        )

    @property
    def engine(self) -> rules.CombatEngine:
        assert self.table is not None
        engine: rules.CombatEngine = self.table.engine  # type: ignore[assignment]
        return engine

    def shown_card_name(self, name: str) -> str:
        """An engine card name as the players' Cockatrice shows it (a flip card by its front face: the name
        the deck file and the player's library give it), from the decks the game started with."""
        return self.shown_names.get(name, name)

    _answered_for: tuple[Any, int, float] | None = None
    """The fight the answer clock last resolved: (defender, slot, loop time)."""

    def refusal(self, error: RulesError, ctx: Context) -> Refusal:
        """A defender's ``!cast`` or ``!resolve`` arriving just after the answer clock resolved their fight
        says so (it read "no fight is declared", which left them wondering what happened)."""
        late = self._answered_for
        if error.code == "no_fight_pending" and late is not None:
            defender, slot, at = late
            recent = asyncio.get_running_loop().time() - at < LATE_ANSWER_SECONDS
            if recent and self.player_name(defender) == ctx.sender:
                return Refusal(
                    f"too late: the fight in slot {slot + 1} was resolved when your {ANSWER_SECONDS:g} s to"
                    " answer ran out"
                )
        return super().refusal(error, ctx)

    def explain(self, error: RulesError) -> str:
        if isinstance(card := error.details.get("card"), str):  # a flip card as Cockatrice names it
            error = RulesError(error.code, **{**error.details, "card": self.shown_card_name(card)})
        if error.code == "game_over" and self.table is not None and self.engine.is_over():
            error = RulesError("game_over/result", result=self.result())
        if error.code == "settled_death":  # the slot as players number it; "your" for the owner's own
            own = error.details.get("owner") == error.details.get("player")
            details = {**error.details, "slot": int(error.details.get("slot", 0)) + 1}
            error = RulesError("settled_death/own" if own else "settled_death", **details)
        answering = self.engine.answering_player() if self.table is not None else None
        if error.code == "fight_pending" and answering is not None:  # the attacker cannot resolve it now
            slot = (self.engine.fight_slot or 0) + 1
            error = RulesError("fight_pending/answer", slot=slot, defender=answering)
        if error.code == "wrong_step":  # details name either the step or the phase
            where = error.details.get("step") or error.details.get("phase") or ""
            return f"not now (it is the {where} step)" if where else "not now"
        if error.code in ("no_such_card", "card_not_available"):
            return NOT_THERE.get(error.details.get("where", ""), self.refusals[error.code])
        return super().explain(error)

    # -- deck checks (before the game starts) ---------------------------------------------------

    async def check_deck_of(self, player_id: int) -> None:
        """A player loaded a deck: check it, say so, and ready or unready the bot."""
        player = self.mirror.players.get(player_id)
        if player is None or player.spectator or player_id == self.me:
            return
        verdict = check_cod(player.deck_list, db=self.cards)
        if verdict.facts is not None and self.table is not None:  # a rebuilt game: the same deck again
            engine_player = self.engine_player(player_id)
            if engine_player is None or Counter(f.name for f in verdict.facts) != self.journaled_deck(
                engine_player
            ):
                verdict = DeckVerdict(None, f"load the deck you played game #{self.continues} with")
        self.decks[player_id] = verdict
        said = f"{self.player_name(player_id)}: {verdict.reason}."
        if not verdict.legal and self.table is None:  # a rebuilt game needs the deck it was played with
            said = f"{shorten(said, MAX_CHAT_LINE - len(DECK_OFFER) - 1)} {DECK_OFFER}"  # the offer is kept
        await self.say(said)
        await self.update_ready()

    async def remind_illegal_deck(self, player_id: int) -> None:
        """A player pressed ready with a deck that cannot start the game: say why, privately, once."""
        verdict = self.decks.get(player_id)
        if (verdict is not None and verdict.legal) or player_id == self.me:
            return
        await self.remind_once(player_id, self.illegal_deck_text(verdict))

    def illegal_deck_text(self, verdict: DeckVerdict | None) -> str:
        reason = verdict.reason if verdict is not None else "no deck list reached the referee"
        then = "then press ready again" if self.watching else "the referee readies itself when both are legal"
        offer = f" {DECK_OFFER}" if self.table is None else ""  # a rebuilt game needs the deck it played
        return (
            f"The game cannot start yet: {reason}. Load a legal deck (exactly 40 cards, singleton,"
            f" no lands, no planeswalkers); {then}.{offer}"
        )

    def startable(self) -> bool:
        """Two players sit and both hold legal decks."""
        humans = self.humans()
        return len(humans) == 2 and all(
            self.decks.get(p.player_id) is not None and self.decks[p.player_id].legal for p in humans
        )

    async def hold_back(self) -> None:
        """Watching: take back every ready given while the game cannot start, and say why."""
        await self.take_back_ready(self.startable(), self.why_not_started)

    def why_not_started(self, player: PlayerState) -> str:
        verdict = self.decks.get(player.player_id)
        if verdict is None or not verdict.legal:
            return self.illegal_deck_text(verdict)
        others = [p for p in self.humans() if p.player_id != player.player_id]
        waiting = f"{self.player_name(others[0].player_id)}'s legal deck" if others else "a second player"
        return self.waiting_line(waiting)

    async def update_ready(self) -> None:
        """Seated: ready exactly when two players sit and both decks are legal (the game cannot start
        otherwise). Watching: hold back the players' own ready until then."""
        if self.watching:
            await self.hold_back()
            return
        wanted = self.startable()
        if wanted != self.is_ready:
            self.is_ready = wanted
            try:
                await self.bot.client.ready_start(self.game_id, wanted)
            except ClientError as exc:
                LOGGER.info("game %d: ready %s refused: %s", self.game_id, wanted, exc)

    # -- starting --------------------------------------------------------------------------------

    async def start_engine(self) -> None:
        humans = [p.player_id for p in self.humans()]
        verdicts = [self.decks.get(p) for p in humans]
        if len(humans) != 2 or any(v is None or v.facts is None for v in verdicts):
            illegal = next(
                (p for p, v in zip(humans, verdicts, strict=True) if v is None or not v.legal), None
            )
            if illegal is not None and await self.stop_started_game(illegal):
                return
            await self.say(
                "Magic Combat Rules needs two players with legal decks; this game cannot be refereed."
            )
            return
        decks = (verdicts[0].facts, verdicts[1].facts)  # type: ignore[union-attr]
        texts = (verdicts[0].texts, verdicts[1].texts)  # type: ignore[union-attr]
        known = all(len(kinds) == len(deck) for kinds, deck in zip(texts, decks, strict=True))  # type: ignore[arg-type]
        settings = game_options.config_settings(rules.CombatConfig, self.options)
        config = rules.CombatConfig.from_decks(
            (humans[0], humans[1]),
            decks,  # type: ignore[arg-type]
            texts=texts if known else None,  # without every card's kind the referee settles no fight
            **settings,
        )
        seed = self.options.seed if self.options.seed is not None else secrets.randbits(48)
        engine = rules.CombatEngine(config, seed=seed)
        self.bind_seats(humans)
        self.shown_names = {**verdicts[0].shown, **verdicts[1].shown}  # type: ignore[union-attr]
        meta = {
            "format": "combat",
            "options": asdict(self.options),
            "room_id": self.room_id,
            "game_id": self.game_id,
            "names": {str(p): self.player_name(p) for p in humans},
            "watching": self.watching,  # a judge's spectator seat is taken again after a restart
            "shown_names": self.shown_names,  # a flip card's hand and draw lines after a restart too
        }
        self.table = Table.create(self.bot.journal, self.table_key, engine, meta=meta)
        await self.show_score()
        await self.perform(self.apply(rules.StartGame(player=None)))

    async def show_score(self) -> None:
        """The round and the points on a score card per player: watching, on that player's own table;
        seated, on ours. Its number is that player's points; its note the round and the whole score."""
        engine = self.engine
        board = engine.scoreboard()
        points = self.by_player(board["points"])
        rounds = board["rounds"]
        when = f"Round {board['round']}/{rounds}" if board["round"] else f"Setup, then {rounds} rounds"
        note = f"{when}. Points: {points}"
        for player, value in board["points"]:
            seat = self.seat_of(player) if self.watching else self.me
            name = SCORE_CARD if self.watching else f"{SCORE_CARD}: {self.player_name(player)}"
            if seat is not None:
                await self.show_note_card(seat, name, note, str(value))

    async def restore_board(self) -> None:
        """The rebuilt game started: round and points on the score cards, and every card where the journal
        says, moved from each player's library by us as a judge, else told to that player privately."""
        engine = self.engine
        self.live = True
        await self.show_score()
        without_help: list[Any] = []
        for player in engine.config.players:
            board = board_of(engine, player, self.shown_card_name)
            face_down = {"table": board.pop("face down")}
            moved = await self.from_library(player, board) and await self.from_library(
                player, face_down, face_down=True
            )
            board["face down"] = face_down["table"]
            seat = self.seat_of(player)
            life = engine.life(player)
            if moved and seat is not None:
                await self.judge(seat, [pc.set_counter(LIFE_COUNTER, life)])
                continue
            without_help.append(player)
            text = f"Game #{self.continues} continues here. {board_instructions(board)} Your life: {life}."
            await self.tell(self.player_name(player), shorten(text, 900))
        continued = f"Game #{self.continues}" if self.continues else "The game"
        where = "back where they were" if not without_help else "listed to each of you privately"
        await self.say(shorten(f"{continued} continues here, every card {where}: {self.score_line()}"))
        self.arm_answer_timer()

    # -- events ----------------------------------------------------------------------------------

    async def on_game_event(self, event: ClientEvent) -> None:
        name = event.name
        async with self._lock:
            if name in ("Event_PlayerPropertiesChanged", "Event_Leave") and await self.settle_departure():
                return
            if name == "Event_PlayerPropertiesChanged" and await finish_if_one_stands(self):
                return
            if self.table is None or not self.live:
                if name == "Event_GameStateChanged":
                    self.stopped()
                if name == "Event_Join" and self.table is not None:
                    await self.turn_away(event)  # a rebuilt game: only its own players sit
                if name == "Event_PlayerPropertiesChanged" and event.context_name == "Context_DeckSelect":
                    props = event.message.player_properties  # type: ignore[attr-defined]
                    pid = props.player_id if props.HasField("player_id") else event.player_id
                    await self.check_deck_of(int(pid))
                elif name == "Event_PlayerPropertiesChanged" and event.context_name == "Context_ReadyStart":
                    props = event.message.player_properties  # type: ignore[attr-defined]
                    pid = int(props.player_id if props.HasField("player_id") else event.player_id)
                    if props.HasField("ready_start") and props.ready_start:
                        if self.watching:
                            await self.hold_back()
                        else:
                            await self.remind_illegal_deck(pid)
                elif name in ("Event_Join", "Event_Leave") and not self.mirror.started:
                    if name == "Event_Leave":
                        self.decks.pop(event.player_id, None)
                    await self.update_ready()
                elif self.mirror.started and name == "Event_SetActivePlayer":
                    if self.table is None:
                        await self.start_engine()
                    else:
                        await self.restore_board()
                    if self.table is not None:
                        await self.follow_engine_turn()
                return
            if name == "Event_GameStateChanged" and not self.mirror.started and not self.finished:
                # Servatrice stops the game at a concession before it says who conceded: hear that first
                with contextlib.suppress(ClientError, TimeoutError):
                    await self.bot.client.caught_up(handed_out=False)  # the mirror, not the queue
                if not await self.settle_departure(stopped=True):
                    await self.finish("game over (one player left standing)")
                return
            if self.engine.is_over():
                return
            if name == "Event_SetActivePlayer":
                await self.on_active_player(int(event.message.active_player_id))  # type: ignore[attr-defined]
            elif name == "Event_SetActivePhase":
                phase = int(event.message.phase)  # type: ignore[attr-defined]
                active = self.engine.whose_turn
                if (
                    phase >= COMBAT_PHASE
                    and self.seat_of(active) == self.mirror.active_player_id
                    and self.engine.step == "main"
                ):
                    await self.try_apply(rules.BeginCombat(player=active))

    async def settle_departure(self, *, stopped: bool = False) -> bool:
        """A player of the started game conceded or left (the server's word: :meth:`departed`): two play, so
        the game is over and the other wins. The engine records who went and why (``RemovePlayer``, so the
        journal, ``!games`` and ``!score`` agree), the table hears it once, and the game is finished. True
        if so. ``stopped``: Cockatrice stopped the game (it does so at a concession when the referee only
        watches); its players' seats are still there, so only a concession or a leave counts."""
        if self.table is None or not self.live or self.finished or self.engine.is_over():
            return False
        if not stopped and not self.mirror.started:
            return False
        engine = self.engine
        for player in engine.config.players:
            why = self.departed(player)
            if why == "dropped":  # taken out by the other player (``!drop``): the rules' departure
                why = "left"
            if why in GONE:
                await self.perform(self.apply(rules.RemovePlayer(player=None, target=player, reason=why)))
                return True
        return False

    async def on_active_player(self, active: int) -> None:
        """Cockatrice's active player changed. A press of "next turn" that is not the engine's never ends
        anything: Servatrice lets any player press it and does not say who did, so a defender's press ended
        the attacker's combat (a field tester, four times in ten games). The turn goes back and the table
        reads once what it waits for (:func:`turn_kept_line`: ``!pass`` ends a combat). A press that gives
        the turn to our own seat (the player seated before us pressed) counts too; our own passes do not."""
        engine = self.engine
        target = engine.whose_turn
        if (
            engine.phase == "play"
            and target is not None
            and self.engine_player(active) != target
            and self._passes == 0
        ):
            self.remind_turn_later(target)
        await self.follow_engine_turn()  # the turn goes back at once; the line (if any) follows

    def remind_turn_later(self, target: Any) -> None:
        """Say "It is still X's turn" once per turn and step (every player's press puts the turn back, quietly
        after the first: the chat is one budget shared by every game; a press in the main step used up the
        fights step's line, the one that says ``!pass`` ends combat), and once more for each fight the turn
        is put back during (:func:`turn_kept_line` says what it waits for), and only once the server's words
        sent with the turn change are heard: Servatrice passes the turn of a player who concedes before it
        tells of the concession, and of one who leaves; neither needs the line."""
        key = (self.engine.round, target, self.engine.step, *fight_wait(self.engine))
        if key in self._turn_told:
            return
        self._turn_told.add(key)
        task = asyncio.get_running_loop().create_task(self._remind_turn(key))
        self._reminders.add(task)
        task.add_done_callback(self._reminders.discard)

    async def _remind_turn(self, key: tuple[Any, ...]) -> None:
        try:
            await self.bot.client.caught_up()
        except (ClientError, TimeoutError) as exc:  # not connected or stalled: nobody would hear it in time
            LOGGER.info("game %d: no turn reminder (%s)", self.game_id, exc)
            return
        try:
            async with self._lock:
                if self.reminder(key) is None:
                    return
                # Drawn as it leaves, and dropped if the wait it is about is over by then (the chat budget
                # may hold it while the game goes on); a message of its own: merged with the next lines, it
                # read as one sentence with them.
                self.bot.chat.say(self.chat_destination, lambda: self.reminder(key), raw=True)
        except Exception:  # a task of its own: nobody else would hear of it
            LOGGER.exception("game %d: the turn reminder failed", self.game_id)

    def reminder(self, key: tuple[Any, ...]) -> str | None:
        """The "It is still X's turn" line for the wait ``key`` (:meth:`remind_turn_later`) as things are now,
        None when it is no longer true: the turn, its step or its fight moved on, the game ended, or the
        player whose turn it was conceded or left (the server moved the turn)."""
        if self.closed or self.finished or self.table is None or self.engine.is_over():
            return None
        engine = self.engine
        target = key[1]
        now = (engine.round, engine.whose_turn, engine.step, *fight_wait(engine))
        if now != key or engine.phase != "play":
            return None
        seat = self.seat_of(target)
        state = self.mirror.players.get(seat) if seat is not None else None
        if state is None or state.conceded:
            return None
        return turn_kept_line(engine, target, self.player_name)

    async def follow_engine_turn(self) -> None:
        """Make the Cockatrice active player the engine's (the bot passes turns, a bounded number)."""
        engine = self.engine
        target = engine.whose_turn if engine.phase == "play" else None
        if target is None:
            if self.mirror.active_player_id == self.me and not engine.is_over():
                await self.pass_turn()
            return
        if self.mirror.active_player_id == self.seat_of(target):
            self._passes = 0
            return
        self._passes += 1
        if self._passes > 6:
            self._passes = 0
            return
        await self.pass_turn()

    async def on_reconnected(self) -> None:
        async with self._lock:
            if self.table is None or not self.live or self.game_id not in self.bot.client.games:
                return  # nothing to re-read yet (a rebuilt game waits for its players)
            if self.engine.is_over():
                return
            went = [(p, why) for p in self.engine.config.players if (why := self.departed(p)) in GONE]
            if went:  # the game's state read after the rejoin is the server's word
                said = "; ".join(f"{self.player_name(p)} {why}" for p, why in went)
                await self.say(f"While the referee was away: {said}.")
                if await self.settle_departure(stopped=True):
                    return
            await self.say(lambda: "Referee back. " + self.score_line())  # as it is when the line leaves
            self._answer_key = None  # a defender asked before the link went gets their whole time again
            self.arm_answer_timer()
            await self.follow_engine_turn()

    # -- performing effects ----------------------------------------------------------------------

    async def try_apply(self, action: Any) -> None:
        try:
            await self.perform(self.apply(action))
        except RulesError as exc:
            LOGGER.info("game %d: %r refused: %s", self.game_id, action, exc)

    async def perform(self, effects: list[Effect]) -> None:
        """Update the score cards, move or name the draws, announce, and keep the turn in step."""
        engine = self.engine
        new_turn = score_changed = False
        moved: set[int] = set()
        for position, effect in enumerate(effects):
            if isinstance(effect, rules.TurnStarted | rules.PointsScored):
                score_changed = True
                new_turn = new_turn or isinstance(effect, rules.TurnStarted)
            elif (
                isinstance(effect, rules.CardsDrawn)
                and effect.cards
                and await self.from_library(effect.player, {"hand": [ref.name for ref in effect.cards]})
            ):
                moved.add(position)
        if score_changed:
            await self.show_score()
        if reminder := self.unconfirmed_reminder(effects):
            await self.say(shorten(reminder))
        for line in render_effects(effects, engine, self.player_name, self.shown_card_name):
            await self.say(line)
        self.note_unconfirmed(effects)
        for line in private_lines(effects, engine, moved=moved, shown=self.shown_card_name):
            await self.tell(self.player_name(line.player), self.private_line(line))
        if engine.is_over():
            if engine.out is None:  # (one who went: Cockatrice may have stopped the game already)
                await self.keep_table_in_step()  # the last board is laid out before the bot may leave
                await self.finish(f"game over after round {engine.round}")
            else:
                went = went_result(engine.out, engine.out_reason, engine.winner, self.player_name)
                await self.finish(f"game over: {went}")
            self.arm_answer_timer()  # none runs once the game is over
            return
        self.lay_out_later()
        self.arm_answer_timer()
        if new_turn:
            self._passes = 0
            await self.follow_engine_turn()

    MOVING_ON = (rules.FightDeclared, rules.PointsScored, rules.TurnStarted)
    """Effects after which a fight's unconfirmed deaths are said once more (:meth:`unconfirmed_reminder`):
    the next fight, the combat's end (its score counts the creatures in play) and a new turn."""

    def unconfirmed_deaths(self) -> dict[int, tuple[int, bool]]:
        """Creature (card index) -> (its fight's slot, reminded): the creatures a fight the referee could not
        settle would have killed by printed power and toughness, whose owners have not confirmed it
        (``!dies``) while they are in play. In memory only: a restarted referee does not remind."""
        return self._unconfirmed

    def note_unconfirmed(self, effects: list[Effect]) -> None:
        """Remember the deaths an unsettled fight among ``effects`` asks the owners to confirm."""
        waiting = self.unconfirmed_deaths()
        in_play = set(self.engine.permanents_in_play())
        for effect in effects:
            if isinstance(effect, rules.FightResolved) and not effect.settled:
                for ref in effect.dies:
                    if ref.index in in_play:
                        waiting[ref.index] = (effect.slot, False)

    def unconfirmed_reminder(self, effects: list[Effect]) -> str:
        """The line (:func:`unconfirmed_line`) saying, once per fight, which deaths are still unconfirmed
        when ``effects`` move the game on (:data:`MOVING_ON`), else ``""``; creatures no longer in play
        (confirmed, bounced, sacrificed) are forgotten."""
        waiting = self.unconfirmed_deaths()
        in_play = set(self.engine.permanents_in_play())
        for card in [card for card in waiting if card not in in_play]:
            del waiting[card]
        if self.engine.is_over() or not any(isinstance(effect, self.MOVING_ON) for effect in effects):
            return ""
        due = [(card, slot) for card, (slot, reminded) in waiting.items() if not reminded]
        for card, slot in due:
            waiting[card] = (slot, True)
        return unconfirmed_line(due, self.engine, self.player_name, self.shown_card_name)

    def private_line(self, line: PrivateLine) -> Line:
        """What :meth:`tell` queues for ``line``: a hand list or an answer note drawn as it leaves (the chat
        budget may hold it while the game goes on) and, kept for a player who is away, told as things are
        when they are back (:meth:`kept_as_recap`); other lines as they are."""
        if line.kind == "hand":
            return self.kept_as_recap(self.hand_list_later(line.player, line.note))
        if line.kind == "answer":
            return self.kept_as_recap(self.answer_note_later(line.player, cast=line.cast))
        return shorten(line.text, 900)

    @property
    def recap_topic(self) -> str:
        """The chat topic of this game's private lines that say what is true now (hand lists, answer notes):
        by game number, which the player reads too (a number the server gives again is another game, whose
        recap tells them only what is true there)."""
        return f"combat:{self.game_id}"

    def kept_as_recap(self, render: Callable[[], str | None]) -> Tagged:
        """``render`` (a hand list or an answer note) tagged with this game's :attr:`recap_topic`: sent as it
        is drawn when it leaves, but kept for a player who is offline (their connection gone) as the topic
        alone, so that when they are back they get :meth:`recap`, their hand as it is then, never a list whose
        numbers the game has changed meanwhile (a draw, a card back to their hand)."""
        return Tagged(render, topic=self.recap_topic, recap=self.recap)

    def recap(self, user: str) -> str | None:
        """What ``user``, back after their connection was gone, is told instead of the hand lists and answer
        notes kept for them: their hand as it is now and, when a fight waits for their answer, what they can
        cast; None when it is no longer theirs to read (the game is over or closed, or they are no player)."""
        if self.closed or self.finished or self.table is None or self.engine.is_over():
            return None
        engine = self.engine
        player = next((p for p, name in self.engine_names.items() if name == user), None)
        if player is None or player not in engine.config.players:
            return None
        answer = answer_note(engine, player, self.shown_card_name)
        text = f"Game #{self.game_id}: {hand_message(engine, player, self.shown_card_name)} {answer}"
        return shorten(text.rstrip(), 900)

    async def on_connection_changed(self, event: ClientEvent) -> None:
        """:meth:`GameReferee.on_connection_changed`, and a player's hand list kept for them while they are
        away: when a player's connection drops, their hand list is queued as this game's recap topic
        (:meth:`kept_as_recap`), which the chat keeps alone for a user who is offline. Whatever changes
        their hand meanwhile (their turn's draw, a creature bounced back to it), back they get exactly one
        list, their hand as it is then (:meth:`recap`); a player whose hand changed with no list told to them
        (a draw a judge put into their hand, a bounce) came back to none. The server's word that their
        connection is back says they are online: what the chat kept for them goes out then, if their login
        was not heard. The table hears at once that the game waits for them, and how long before the other
        player may claim it (:meth:`away_line`), and that they are back."""
        seat = self.mirror.players.get(event.player_id)
        player = self.engine_player(event.player_id)  # by name: a rebuilt game's seats are new
        if seat is None or player is None:
            await super().on_connection_changed(event)
            return
        if seat.ping_seconds >= 0:
            self.bot.chat.user_back(seat.name)
        back_said = event.player_id in self._absent_told  # the runtime says they are back
        await super().on_connection_changed(event)
        if self.closed or self.finished or self.engine.is_over():
            return
        waiting = self._waiting_for  # players the game was told it waits for
        if seat.ping_seconds >= 0:
            if player in waiting:
                waiting.discard(player)
                if not back_said:
                    await self.say(f"{seat.name} is back; the game goes on.")
            return
        if player not in waiting and self.live and self.mirror.started:
            waiting.add(player)
            await self.say(shorten(self.away_line(seat.name)))
        await self.tell(seat.name, self.kept_as_recap(self.hand_list_later(player)))

    def other_name(self, name: str) -> str:
        """The user name of the player who is not ``name`` (two play), or "the other player"."""
        others = [other for other in self.engine_names.values() if other != name]
        return others[0] if len(others) == 1 else "the other player"

    def away_line(self, name: str) -> str:
        """Said when ``name``'s connection drops mid-game: the game waits for them, for how long before the
        other player may claim it, and how (Servatrice keeps the seat and tells nobody; seen: combat stalled
        with no word of what the present player could do)."""
        other = self.other_name(name)
        return (
            f"{name}'s connection dropped; the game waits for them (their seat is kept). If it stays gone"
            f" {duration_words(ABSENT_SECONDS)}, {other} may say !drop {name}: {name} leaves the game and"
            f" {other} wins it."
        )

    def absent_choices(self, name: str) -> str:
        """The way on without ``name`` (two play): the other player may claim the game with ``!drop NAME``,
        which the rules read as ``name`` leaving (``RemovePlayer``: the one who leaves loses, whatever the
        points), or wait."""
        other = self.other_name(name)
        return (
            f"If they are not back, {other} may say !drop {name}: {name} leaves the game and {other} wins it."
        )

    def is_over(self) -> bool:
        """Whether the game is over: finished here, or ended by the rules (a departure, round ten)."""
        return bool(self.finished) or (self.table is not None and self.engine.is_over())

    @command(final=True)  # takes a player out: never offered as a typo's correction
    async def drop(self, ctx: Context, name: Rest) -> None:
        """!drop NAME: claim the game from the other player, whose connection has been gone a while: they
        leave the game and you win it. Once the game is over nobody is taken out: the refusal says so and
        gives the result, as every action's does then."""
        self.require_player(ctx)
        if self.is_over():
            raise RulesError("game_over")
        if self.table is None or not self.live or not self.mirror.started:
            raise NotAllowed("the game has not started yet")
        await self.drop_absent(ctx.sender, name)

    async def drop_out(self, player_id: int) -> None:
        """:meth:`SeatsByName.drop_out`, checked again under the lock: once the game is over (it may have
        ended while ``!drop`` waited) the rules take nobody out, so nobody is kicked either."""
        async with self._lock:
            if self.is_over():
                raise RulesError("game_over")
            self.dropping.add(player_id)
            await self.settle_departures()
            await self.remove_dropped(player_id)

    async def settle_departures(self) -> bool:
        """``!drop`` (:meth:`drop_out`): the seat taken out goes as a player who leaves."""
        return await self.settle_departure()

    async def leave(self) -> None:
        """:meth:`GameReferee.leave`, and this game's :meth:`recap` let go: a player back later hears nothing
        of a game that is gone (and the chat holds no closed game's referee)."""
        await super().leave()
        if self.bot.chat.recaps.get(self.recap_topic) == self.recap:
            del self.bot.chat.recaps[self.recap_topic]

    async def tell(self, user_name: str, text: Line, *, raw: bool = False) -> None:
        """:meth:`GameReferee.tell`; a :class:`Tagged` line (:meth:`kept_as_recap`) keeps its topic, the
        game's mark (``#12: ``, for a player in several games) going inside it."""
        if not isinstance(text, Tagged):
            await super().tell(user_name, text, raw=raw)
            return
        mark = "" if raw else self.game_mark(user_name)
        if mark:
            render = text.text

            def marked() -> str | None:
                said = render() if callable(render) else render
                return mark + said if said else said

            text = replace(text, text=marked)
        self.bot.chat.say(("user", user_name), text, raw=raw)

    def hand_list_later(self, player: Any, note: str = "") -> Callable[[], str | None]:
        """``player``'s hand list (after ``note``, if any), drawn as it leaves; only its ``note`` (or
        nothing) when a newer list was queued for them meanwhile: a list queued behind the chat budget read
        after the next command had renumbered the hand pointed its numbers at other cards."""
        lists = self._hand_lists
        serial = lists[player] = lists.get(player, 0) + 1

        def render() -> str | None:
            if self.table is None or self._hand_lists.get(player) != serial:
                return shorten(note, 900) or None  # a newer list follows
            return shorten(f"{note} {hand_message(self.engine, player, self.shown_card_name)}".lstrip(), 900)

        return render

    def answer_note_later(self, player: Any, *, cast: bool) -> Callable[[], str | None]:
        """:func:`answer_note` for the defender, drawn as it leaves; nothing once the wait it is about is
        over (they answered or cast again, or the fight resolved): the public lines said so already."""
        key = answer_key(self.engine)

        def render() -> str | None:
            if self.table is None:
                return None
            engine = self.engine
            if engine.answering_player() != player or answer_key(engine) != key:
                return None
            return shorten(answer_note(engine, player, self.shown_card_name, cast=cast), 900) or None

        return render

    # -- a defender's answer -----------------------------------------------------------------------

    def arm_answer_timer(self) -> None:
        """Keep the answer timer in step with the engine: running while a fight waits for its defender
        (:data:`ANSWER_SECONDS` from when they can read it), none otherwise. The same wait keeps its timer; a
        new one (another fight, another turn, an instant the defender just cast: :func:`answer_key`) gets a
        new timer."""
        answering = None
        if self.table is not None and not self.closed and not self.finished:
            answering = self.engine.answering_player()
        key = answer_key(self.engine) if answering is not None else None
        running = self._answer_timer is not None and not self._answer_timer.done()
        if key is not None and key == self._answer_key and running:
            return
        if self._answer_timer is not None and self._answer_timer is not asyncio.current_task():
            self._answer_timer.cancel()
        self._answer_timer, self._answer_key = None, key
        if key is not None:
            self._answer_timer = asyncio.get_running_loop().create_task(self._answer_for(answering, key))

    async def _answer_for(self, defender: Any, key: tuple[int, int, int]) -> None:
        """After :data:`ANSWER_SECONDS` of the defender's silence, resolve the fight for them (the referee's
        ``ResolveFight``): an away or silent defender never holds the game. The clock runs once the line
        asking them has left the chat queue, and starts again when the referee's own link was not sound
        (what the defender said in time may still be on its way)."""
        try:
            await told(self, self.player_name(defender))
            await asyncio.sleep(ANSWER_SECONDS)
            heard = await silence_is_heard(self)
            async with self._lock:
                if self.closed or self.finished or self.table is None or self.engine.is_over():
                    return
                engine = self.engine
                if engine.answering_player() != defender or answer_key(engine) != key:
                    return  # answered, cast again (a new clock runs), or the game moved on meanwhile
                self._answer_key = None
                if not heard:
                    self.arm_answer_timer()
                    return
                await self.say(answer_timeout_line(engine, defender, key[1], self.player_name))
                self._answered_for = (defender, key[1], asyncio.get_running_loop().time())
                await self.perform(self.apply(rules.ResolveFight(player=None)))
        except asyncio.CancelledError:
            raise
        except Exception:  # a task of its own: nobody else would hear of it
            LOGGER.exception("game %d: the answer timer failed", self.game_id)

    async def from_library(
        self, player: Any, wanted: dict[str, list[str]], *, face_down: bool = False
    ) -> bool:
        """As a judge, acting as ``player``: find the named cards in their library and move them to the
        given zones (``hand``, ``table``, ``grave``); the server names a card moved into a hand only to
        whoever moved it, so the player reads it and nobody else does. Cards join the hand at its right
        end in the order given, so the hand reads left to right as the numbered list the player is sent.
        False (nothing moved) without judge rights or when a card is not in their library."""
        seat = self.seat_of(player)
        if not self.is_judge or seat is None:
            return False
        response = await self.judge(seat, [pc.dump_zone(seat, "deck")])
        zone = getattr(getattr(response, "payload", None), "zone_info", None)
        library = OwnDeck([card.name for card in zone.card_list] if zone is not None else [])
        names = [self.shown_card_name(name) for zone_names in wanted.values() for name in zone_names]
        positions = library.positions(names)
        if len(positions) != len(names):
            LOGGER.warning("game %d: %s's library lacks some of %s", self.game_id, player, names)
            return False
        targets = [zone for zone, zone_names in wanted.items() for _ in zone_names]
        moves: list[Any] = []
        moved: list[int] = []
        column = 0
        for position, target in zip(positions, targets, strict=True):
            on_table = target == "table"
            moves.append(
                pc.move_card(
                    "deck",
                    [position - sum(earlier < position for earlier in moved)],  # where it is by now
                    target_player_id=seat,
                    target_zone=target,
                    x=GRID_POINTS_PER_CARD * column if on_table else HAND_END if target == "hand" else 0,
                    y=0,
                    face_down=face_down if on_table else None,
                )
            )
            moved.append(position)
            column += on_table
        await self.judge(seat, moves)
        return True

    def lay_out_later(self) -> None:
        """As a judge: bring the table in step (:meth:`keep_table_in_step`) once the game's words are out,
        in a task of its own. Waiting for the chat budget must not hold the game's lock: the next command
        (a draw moved into a hand, a score card) would wait seconds behind the layout's words."""
        if not self.is_judge or self.table is None or self.closed:
            return
        self._layout_wanted = True
        if self._layout is None or self._layout.done():
            self._layout = asyncio.get_running_loop().create_task(self._lay_out())

    async def _lay_out(self) -> None:
        """Wait for the game's queued lines, then lay out under the lock; if a newer line was queued
        meanwhile, wait for it too (a card turns face up after the line that reveals it)."""
        while self._layout_wanted and not self.closed:
            await self.flush_chat()
            async with self._lock:
                if self.closed or self.bot.chat.pending(self.chat_destination):
                    continue
                self._layout_wanted = False
                try:
                    await self.keep_table_in_step()
                except ClientError as exc:  # the game closed or the connection dropped meanwhile
                    LOGGER.info("game %d: laying out the table failed: %s", self.game_id, exc)
                except Exception:  # a task has no caller to raise to: never let a fault pass unseen
                    LOGGER.exception("game %d: laying out the table failed", self.game_id)

    async def keep_table_in_step(self) -> None:
        """As a judge, acting as each player: lay their cards out where the engine says (a placed creature
        face down in its slot, flipped at the reveal, a summon onto the table, a death into the graveyard),
        one ``Command_Judge`` per player whose table is out of step; then attach each aura and equipment
        to its creature (one more where an attachment changed: the moves gave the cards new ids). The
        game's words go first (the chat is flushed): a card turns face up on the table after the line that
        reveals it, never before. Without judge rights players move their own cards."""
        if not self.is_judge or self.table is None:
            return
        wanted: list[tuple[int, list[Any]]] = []
        for player in self.engine.config.players:
            seat = self.seat_of(player)
            state = self.mirror.players.get(seat) if seat is not None else None
            places = card_places(self.engine, player, self.shown_card_name)
            if state is not None and (moves := table_moves(places, state)):
                wanted.append((state.player_id, moves))
        if wanted:
            await self.flush_chat()
        for seat, moves in wanted:
            await self.judge(seat, moves)
        tables = {
            player: state
            for player in self.engine.config.players
            if (seat := self.seat_of(player)) is not None
            and (state := self.mirror.players.get(seat)) is not None
        }
        attach = attach_moves(attachments(self.engine, self.shown_card_name), tables)
        if attach and not wanted:  # an aura cast face up already: its words go first all the same
            await self.flush_chat()
        for seat, commands in attach.items():
            await self.judge(seat, commands)

    # -- status ----------------------------------------------------------------------------------

    def by_player(self, values: Iterable[tuple[Any, int]]) -> str:
        """``alice 3, bob 1``: a number per player, by name."""
        return ", ".join(f"{self.player_name(p)} {n}" for p, n in values)

    def result(self) -> str:
        """What follows "Game over" (the game must be over): `` after round 10: zoe wins, 2-32``, or when a
        player went, ``: bob conceded; zoe wins`` (:func:`went_result`)."""
        engine = self.engine
        points = [engine.points(player) for player in engine.config.players]
        if engine.out is not None:
            return f": {went_result(engine.out, engine.out_reason, engine.winner, self.player_name)}"
        return " " + game_result(engine.winner, points, engine.config.rounds, self.player_name)

    def score_line(self) -> str:
        """Round, spell cap, whose turn, points and life; once the game is over, the result first."""
        engine = self.engine
        board = engine.scoreboard()
        points, life = self.by_player(board["points"]), self.by_player(board["life"])
        if engine.is_over():
            if engine.out is not None:  # as a finished game's state answer reads (``over_words``)
                return f"The game is over{self.result()}. Points: {points}. Life: {life}."
            return f"Game over{self.result()}. Points: {points}. Life: {life}."
        head = f"Round {board['round']}/{board['rounds']}, spells up to {board['spell_cap']}"
        if board["active_player"] is not None:
            head += f", {self.player_name(board['active_player'])}'s turn ({engine.step})"
        if (answering := engine.answering_player()) is not None:
            head += (
                f", {self.player_name(answering)} to answer the fight in slot {(engine.fight_slot or 0) + 1}"
            )
        return f"{head}. Points: {points}. Life: {life}."

    # -- commands --------------------------------------------------------------------------------

    async def act(self, ctx: Context, make: Callable[[Any], Any]) -> None:
        """Check the sender, apply the action built for their engine player, and perform its effects."""
        player = self.engine_player(self.require_player(ctx))
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        async with self._lock:
            await self.perform(self.apply(make(player)))

    async def act_hidden(self, ctx: Context, card: str | int, make: Callable[[Any], Any]) -> None:
        """:meth:`act_privately` for a card that goes face down: it is referred to by its number (from
        ``!hand``), never by its name, so the opponent never reads which card it was."""

        def by_number(player: Any) -> Any:
            if isinstance(card, str):
                raise BadArgument(
                    "face-down cards are named by their number from !hand (e.g. !set 3 1), so your"
                    " opponent cannot read them; !hand lists yours privately"
                )
            return make(player)

        await self.act_privately(ctx, by_number)

    async def act_privately(self, ctx: Context, make: Callable[[Any], Any]) -> None:
        """:meth:`act` whose refusal goes by private message when it names a card (one in hand, or face
        down in a slot, may be one the opponent must not read); the table only reads that it was refused.
        A refusal that names no card ("slots are numbered 1 to 5") is said once, in the game: two messages
        for it spent the chat budget twice and hid a reason that needs no hiding."""
        try:
            await self.act(ctx, make)
        except (CommandError, RulesError) as exc:
            refusal = self.refusal(exc, ctx) if isinstance(exc, RulesError) else None
            reason = exc.reason if isinstance(exc, CommandError) else refusal.text  # type: ignore[union-attr]
            hiding = isinstance(exc, RulesError) and exc.code in HAND_DETAILS
            if not hiding and not (refusal is not None and refusal.private) and not self.names_a_card(reason):
                await self.say(f"{ctx.sender}: {reason}")
                return
            await self.tell(ctx.sender, shorten(f"Refused: {reason}", 900))
            await self.say(f"{ctx.sender}: refused (the reason was sent to you privately).")

    def hidden_card_names(self, ctx: Context) -> Collection[str]:
        """The sender's hand and their face-down cards (spells set, creatures placed at setup)."""
        if self.table is None:
            return ()
        player = next((p for p, name in self.engine_names.items() if name == ctx.sender), None)
        if player not in self.engine.config.players:
            return ()
        seat = self.engine.seats[self.engine.config.players.index(player)]
        cards = [*seat.hand, *seat.spells]
        if self.engine.phase == "setup":
            cards += seat.creatures
        return {self.engine.config.cards[card].name for card in cards if card is not None}

    def names_a_card(self, text: str) -> bool:
        """Whether ``text`` names any card of the game (or might: before the game starts, any text)."""
        if self.table is None:
            return True
        folded = text.casefold()
        return any(card.name.casefold() in folded for card in self.engine.config.cards)

    def hand_card(self, player: int, card: str | int) -> str | int:
        """A card name as given, or hand number ``card`` (1-based, as ``!hand`` lists) as the engine's index.

        Raises:
            BadArgument: no such number in the player's hand.
        """
        if isinstance(card, str):
            return card
        hand = self.engine.seats[self.engine.config.players.index(player)].hand
        if not 1 <= card <= len(hand):
            raise BadArgument(renumbered(len(hand)))
        return hand[card - 1]

    @command()
    async def hand(self, ctx: Context) -> None:
        """Your hand as the referee knows it, numbered (private message)."""
        player = self.engine_player(self.require_player(ctx))
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        # drawn as it leaves: a move may come first
        await self.tell(ctx.sender, self.kept_as_recap(self.hand_list_later(player)))

    @command()
    async def place(self, ctx: Context, card_slot: Rest) -> None:
        """!place N SLOT: at setup, your creature N (from !hand) face down in creature slot 1-5."""
        card, numbers = split_card_and_numbers(card_slot, "place")
        if len(numbers) != 1:
            raise BadArgument("usage: !place N SLOT (N from !hand)")
        await self.act_hidden(
            ctx,
            card,
            lambda p: rules.PlaceFaceDown(
                player=p, card=self.hand_card(p, card), slot=slot_index(numbers[0])
            ),
        )

    @command()
    async def ready(self, ctx: Context) -> None:
        """Setup: done placing creatures. Combat: done setting spells and abilities."""
        self.require_player(ctx)
        if self.table is not None and self.engine.phase == "play":
            await self.act(ctx, lambda p: rules.CombatReady(player=p))
        else:
            await self.act(ctx, lambda p: rules.SetupDone(player=p))

    @command()
    async def summon(self, ctx: Context, card_slots: Rest) -> None:
        """!summon N|CARD SLOT [SACRIFICE_SLOT...]: main phase; mana value 4-7 sacrifices one, 8+ two.

        N: the creature's number from !hand (or its name)."""
        card, numbers = split_card_and_numbers(card_slots, "summon")
        slot, sacrifices = slot_index(numbers[0]), tuple(slot_index(n) for n in numbers[1:])
        await self.act_privately(  # "N is not a creature" must not name hand card N in public
            ctx,
            lambda p: rules.Summon(player=p, card=self.hand_card(p, card), slot=slot, sacrifices=sacrifices),
        )

    @command()
    async def equip(
        self, ctx: Context, slot: Annotated[int, Range(1, 5)], cost: Annotated[int, Range(0, 99)]
    ) -> None:
        """Attach your equipment to your creature in SLOT, paying its equip COST."""
        await self.act(ctx, lambda p: rules.Equip(player=p, slot=slot - 1, cost=cost))

    @command(name="combat")
    async def begin_combat(self, ctx: Context) -> None:
        """End your main phase: both players set spells for combat."""
        await self.act(ctx, lambda p: rules.BeginCombat(player=p))

    @command(name="set")
    async def set_spell(self, ctx: Context, card_slot: Rest) -> None:
        """!set N SLOT: in combat, your spell N (from !hand) face down in spell slot 1-5."""
        card, numbers = split_card_and_numbers(card_slot, "set")
        if len(numbers) != 1:
            raise BadArgument("usage: !set N SLOT (N from !hand)")
        await self.act_hidden(
            ctx,
            card,
            lambda p: rules.PlaceSpell(player=p, card=self.hand_card(p, card), slot=slot_index(numbers[0])),
        )

    @command()
    async def ability(
        self, ctx: Context, slot: Annotated[int, Range(1, 5)], cost: Annotated[int, Range(0, 99)]
    ) -> None:
        """Combat: use one activated ability of your creature in SLOT costing COST (at most the round)."""
        await self.act(ctx, lambda p: rules.ActivateAbility(player=p, slot=slot - 1, cost=cost))

    @command()
    async def fight(self, ctx: Context, slot: Annotated[int, Range(1, 5)]) -> None:
        """Fights: your creature in SLOT fights the creature across."""
        await self.act(ctx, lambda p: rules.DeclareFight(player=p, slot=slot - 1))

    @command()
    async def cast(
        self,
        ctx: Context,
        spell_slot: Annotated[int, Range(1, 5)],
        target_player: str | None = None,
        target_slot: Annotated[int, Range(1, 5)] | None = None,
    ) -> None:
        """!cast SLOT [PLAYER CREATURE_SLOT]: before a fight, reveal your spell in SLOT (auras: their target).

        An aura names the PLAYER and the CREATURE_SLOT it enchants."""
        target: int | None = None
        if target_player is not None:
            players = list(self.engine.config.players) if self.table is not None else []
            named = players_named(target_player, players, self.player_name)
            target = named[0] if len(named) == 1 else None
            if target is None:
                names = " or ".join(sorted(self.player_name(p) for p in players)) or "nobody yet"
                raise BadArgument(f"no player called {target_player[:40]!r} in this game ({names})")
            if target_slot is None:
                raise BadArgument("name the target creature's slot too")
        slot = None if target_slot is None else target_slot - 1
        await self.act_privately(  # a refusal may name the face-down spell
            ctx,
            lambda p: rules.CastSpell(
                player=p, spell_slot=spell_slot - 1, target_player=target, target_slot=slot
            ),
        )

    @command()
    async def resolve(self, ctx: Context) -> None:
        """Done revealing for the fight (the attacker, then a defender with face-down spells): the spells
        resolve last in, first out, then the fight."""
        await self.act(ctx, lambda p: rules.ResolveFight(player=p))

    @command(name="pass", final=True)  # ends the turn: never offered as a typo's correction
    async def pass_(self, ctx: Context) -> None:
        """End combat: your unblocked creatures score, and the turn ends.

        A defender asked to answer a fight passes on it instead (as ``!resolve``): for them the word has no
        other meaning (it is never their combat to end), and it is what a Magic player says."""
        await self.act(
            ctx,
            lambda p: (
                rules.ResolveFight(player=p)
                if p == self.engine.answering_player()
                else rules.EndCombat(player=p)
            ),
        )

    @command()
    async def play(self, ctx: Context, card: Rest | None = None) -> None:
        """!play CARD: which command plays CARD now (!place, !summon, !set or !cast)."""
        engine = self.engine if self.table is not None else None
        await ctx.reply(shorten(f"{ctx.sender}: {play_hint(engine, card or '')}"))

    @command()
    async def deck(self, ctx: Context) -> None:
        """A legal 40-card deck, sent to you privately to paste into Cockatrice's deck editor."""
        listing = await bundled_deck_listing()
        await self.tell(ctx.sender, listing, raw=True)  # the list alone: it is copied as it stands
        await ctx.reply(f"{ctx.sender}: {DECK_HOWTO}")

    async def handle_command(self, ctx: Context, text: str) -> bool:
        """As every referee's, but ``!cast`` followed by a card name (``!cast Gray Ogre``) is answered with
        what casting means here (a spell set face down, by its slot) and, for a creature, ``!summon``."""
        try:
            invocation = parse_invocation(text)
        except CommandError:
            invocation = None
        if invocation is not None and invocation.name == "cast":
            hint = cast_hint(self.engine if self.table is not None else None, invocation.args)
            if hint:
                await ctx.reply(shorten(f"{ctx.sender}: {hint}"))
                return True
        return await super().handle_command(ctx, text)

    @command()
    async def dies(self, ctx: Context, card: Rest) -> None:
        """A permanent leaves play to its owner's used pile (died, sacrificed, destroyed): !dies CARD is
        yours; !dies PLAYER SLOT (their creature in that slot) or !dies PLAYER CARD names another's."""
        await self.leave_play(ctx, card, "used")

    @command()
    async def bounce(self, ctx: Context, card: Rest) -> None:
        """A permanent returns to its owner's hand: !bounce CARD is yours; !bounce PLAYER SLOT (their creature
        in that slot) or !bounce PLAYER CARD names another's."""
        await self.leave_play(ctx, card, "hand")

    async def leave_play(self, ctx: Context, card: str, to: str) -> None:
        """``!dies``, ``!bounce``: the permanent ``card`` names (:func:`named_permanent`) leaves play."""
        await self.act(
            ctx,
            lambda p: rules.LeavePlay(
                player=p,
                card=named_permanent(
                    self.engine, p, card, self.player_name, "dies" if to == "used" else "bounce"
                ),
                to=to,
            ),
        )

    @command()
    async def discard(self, ctx: Context, card: Rest) -> None:
        """!discard N|CARD [N...]: discard from your hand: numbers from !hand (several at once), or a name."""
        words = card.split()
        if len(words) > 1 and all(_NUMBER.fullmatch(word) for word in words):
            await self.discard_several(ctx, [int(word) for word in words])
            return
        await self.act(ctx, lambda p: rules.Discard(player=p, card=self.discarded(p, card)))

    async def discard_several(self, ctx: Context, numbers: list[int]) -> None:
        """``!discard 3 4 6``: hand cards 3, 4 and 6 as the hand was numbered before the command (seen read as
        one card's name). Every number is checked first, and at a cleanup no more than it asks for (a card
        past it would be discarded in the next player's turn); then one engine action per card."""
        player = self.engine_player(self.require_player(ctx))
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        async with self._lock:
            engine = self.engine
            seat = engine.config.players.index(player)
            hand = list(engine.seats[seat].hand)
            if len(set(numbers)) != len(numbers):
                raise BadArgument("name each card once, e.g. !discard 3 4")
            if any(not 1 <= number <= len(hand) for number in numbers):
                raise BadArgument(renumbered(len(hand)))
            if engine.phase == "play" and engine.step == "cleanup" and seat == engine.active:
                excess = len(hand) - engine.config.max_hand_size
                if len(numbers) > excess:
                    raise BadArgument(
                        f"discard {excess} to get down to {engine.config.max_hand_size} cards, e.g. !discard"
                        f" {' '.join(str(n) for n in numbers[:excess])}"
                    )
            effects: list[Effect] = []
            try:
                for number in numbers:
                    effects += self.apply(rules.Discard(player=player, card=hand[number - 1]))
            except Exception:
                if effects:  # the discards before the refusal stand: the table hears of them
                    await self.perform(effects)
                raise
            await self.perform(effects)

    def discarded(self, player: int, card: str) -> str | int:
        """``!discard``'s card as the engine takes it: hand number N (from ``!hand``) as the card's index,
        else the text as a name. A number past the hand stays text, so the engine answers as for any card
        not in the hand, after its own checks (at another player's cleanup: not yours to discard)."""
        text = card.strip()
        hand = self.engine.seats[self.engine.config.players.index(player)].hand
        if _NUMBER.fullmatch(text) and 1 <= int(text) <= len(hand):
            return hand[int(text) - 1]
        return text

    @command()
    async def draw(self, ctx: Context, count: Annotated[int, Range(1, 20)] | None = None) -> None:
        """Draw COUNT cards for a card effect (1 if no COUNT)."""
        await self.act(ctx, lambda p: rules.Draw(player=p, count=count or 1))

    @command()
    async def life(self, ctx: Context, delta: str) -> None:
        """Your life changes by DELTA (e.g. !life -3); life never ends the game."""
        try:
            amount = int(delta)
        except ValueError:
            raise BadArgument("usage: !life -3 or !life +2") from None
        await self.act(ctx, lambda p: rules.AdjustLife(player=p, target=p, delta=amount))

    @command()
    async def rules(self, ctx: Context) -> None:
        """The options this game is played with."""
        text = game_options.describe_in_force("combat", self.options)
        await ctx.reply(shorten(f"Magic Combat Rules: {text}."))

    @command(aliases=("state",))  # !state, as in Auction and Vortex
    async def score(self, ctx: Context) -> None:
        """Round, spell cap, whose turn, points and life (also !state); the result once the game is over."""
        if self.table is None:
            raise NotAllowed("the game has not started yet")
        seat = self.mirror.players.get(ctx.player_id) if ctx.player_id is not None else None
        if ctx.scope == "game" and seat is not None and seat.spectator:
            await ctx.reply(self.spectator_score_answer)  # a spectator's answer is its first sentence
            return
        await ctx.reply(self.score_answer)  # drawn as it leaves: a fight may score while it waits

    def score_answer(self) -> str | None:
        """``!score``'s answer as things are now: rendered when it leaves the chat queue, where the chat
        budget may hold it for seconds while the game goes on (a fight scores, the turn passes)."""
        return shorten(self.score_line()) if self.table is not None else None

    def spectator_score_answer(self) -> str | None:
        """:meth:`score_answer` for a spectator, whose game-chat answer is cut to its first sentence
        (``brief``): the points, with the round and whose turn, in that sentence. :meth:`score_line`'s first
        sentence is the round and the spell cap, so a spectator asking ``!score`` was told no score. Once the
        game is over its result comes first anyway."""
        if self.table is None:
            return None
        engine = self.engine
        if engine.is_over():
            return self.score_answer()
        board = engine.scoreboard()
        when = f"round {board['round']}/{board['rounds']}" if board["round"] else "setup"
        if board["active_player"] is not None:
            when += f", {self.player_name(board['active_player'])}'s turn"
        return shorten(f"Points: {self.by_player(board['points'])} ({when}).")


INSTALLERS = {"combat": CombatRoom.install}
RESUMERS = {"combat": CombatReferee.resume}
REBUILDERS = {"combat": CombatReferee.rebuild}
