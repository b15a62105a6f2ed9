"""A newcomer's re-check of Magic Combat Rules on a real Servatrice (no server here), after the defender was
let answer fights:

* the defender who cast an instant heard nothing telling them to ``!resolve``, and 90 s later read that they
  "did not answer";
* a refused 60-card deck's line was cut before "lands: Mountain" by the long list of extra copies;
* ``!discard 3 4 6`` at cleanup was read as one card's name; a hand number past a hand just renumbered was
  refused with a bare "your hand has 6 cards";
* ``!deck`` said in the room was ignored.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from test_combat_answers_words import ALICE, NAMES, ZOE, engine_for, said
from test_combat_fights_render import take
from test_combat_render import cod
from test_combat_wording import answers

from cockatrice_ext.bot import combat as bot_combat
from cockatrice_ext.bot.combat import DECK_OFFER, CombatReferee, CombatRoom, DeckVerdict
from cockatrice_ext.bot.combat_decks import describe_problems
from cockatrice_ext.bot.commands import BadArgument, CommandSet
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.bot.words import MAX_CHAT_LINE
from cockatrice_ext.formats import combat as rules


def asked_to_answer(verdict: DeckVerdict, *instants: str) -> rules.CombatEngine:
    """alice's fight in slot 1 waits for zoe, who set ``instants`` face down (spell slots 1, 2, ...)."""
    engine = engine_for(verdict, zoe_sets=instants[0])
    for slot, name in enumerate(instants[1:], start=1):  # set before the fights: put back in the spell slot
        take(engine, ZOE, name)
        seat = engine.seats[engine.config.players.index(ZOE)]
        card = next(c for c in seat.hand if engine.config.cards[c].name == name)
        seat.hand.remove(card)
        seat.spells[slot] = card
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    engine.apply(rules.ResolveFight(player=ALICE))
    assert engine.answering_player() == ZOE
    return engine


# -- 1. the defender who answered -------------------------------------------------------------------


def test_the_defender_s_cast_line_says_how_to_finish(verdict: DeckVerdict) -> None:
    """Seen: "carol casts Giant Growth." and nothing more until the clock resolved the fight. The line says
    the clock anew (it starts again with each cast), and depends only on whether something of theirs is still
    face down (public), never on what (``test_combat_answer_secrecy``)."""
    engine = asked_to_answer(verdict, "Giant Growth", "Shock")
    clock = f"the fight resolves by itself in {bot_combat.ANSWER_SECONDS:g} s."
    assert said(engine, rules.CastSpell(player=ZOE, spell_slot=0)) == [
        f"zoe casts Giant Growth. zoe: !cast another instant (SPELL-SLOT) or !resolve; {clock}"
    ]
    last, resolving, fought = said(
        engine, rules.CastSpell(player=ZOE, spell_slot=1, target_player=ALICE, target_slot=0)
    )  # nothing of zoe's is face down any more (public): her last cast resolves the fight at once
    assert last == "zoe casts Shock." and resolving == "Resolving: Shock, Giant Growth."
    assert fought.startswith("Fight in slot 1 done")


def test_the_attacker_s_cast_line_is_unchanged(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict, zoe_sets="Giant Growth")
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    assert engine.answering_player() is None
    alice = engine.seats[engine.config.players.index(ALICE)]
    take(engine, ALICE, "Giant Growth")
    card = next(c for c in alice.hand if engine.config.cards[c].name == "Giant Growth")
    alice.hand.remove(card)
    alice.spells[0] = card
    assert said(engine, rules.CastSpell(player=ALICE, spell_slot=0)) == ["alice casts Giant Growth."]


class Timed(CombatReferee):
    """The referee whose answer clock runs at once, its chat and performed effects kept."""

    public: list[str]

    def apply(self, action: Any) -> list[Any]:
        return self.engine.apply(action)

    async def say(self, text: Any, **_: Any) -> None:
        self.public.append(str(text))

    async def perform(self, effects: list[Any]) -> None:
        self.public += bot_combat.render_effects(effects, self.engine, self.player_name)


def clock_runs_out(engine: rules.CombatEngine, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    async def heard(*_: Any) -> bool:
        return True

    async def nothing(*_: Any) -> None:
        return None

    monkeypatch.setattr(bot_combat, "ANSWER_SECONDS", 0.0)
    monkeypatch.setattr(bot_combat, "told", nothing)
    monkeypatch.setattr(bot_combat, "silence_is_heard", heard)
    referee = Timed.__new__(Timed)
    referee.engine_names, referee.shown_names, referee.public = dict(NAMES), {}, []
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.closed = referee.finished = False
    referee.game_id, referee._answer_key = 1, None

    async def run() -> None:
        referee._lock = asyncio.Lock()
        await referee._answer_for(ZOE, bot_combat.answer_key(engine))

    asyncio.run(run())
    assert engine.answering_player() is None  # resolved for zoe
    return referee.public


def test_the_clock_says_did_not_resolve_to_a_defender_who_cast(
    verdict: DeckVerdict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen: "carol did not answer in 90 s" after carol's Giant Growth (her Shock still face down)."""
    engine = asked_to_answer(verdict, "Giant Growth", "Shock")
    engine.apply(rules.CastSpell(player=ZOE, spell_slot=0))
    lines = clock_runs_out(engine, monkeypatch)
    assert lines[0] == "zoe did not !resolve in 0 s: the referee resolves the fight in slot 1."
    assert lines[1] == "Resolving: Giant Growth."


def test_the_clock_says_did_not_answer_to_a_silent_defender(
    verdict: DeckVerdict, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = asked_to_answer(verdict, "Giant Growth")
    lines = clock_runs_out(engine, monkeypatch)
    assert lines[0] == "zoe did not answer in 0 s: the referee resolves the fight in slot 1."


# -- 2. a refused deck's line keeps every reason ----------------------------------------------------

RED_60 = [
    (4, "Monastery Swiftspear"),
    (4, "Lightning Bolt"),
    (4, "Goblin Guide"),
    (4, "Shock"),
    (4, "Lava Spike"),
    (4, "Rift Bolt"),
    (4, "Skewer the Critics"),
    (4, "Searing Spear"),
    (4, "Light Up the Stage"),
    (24, "Mountain"),
]


def test_describe_problems_puts_the_copies_last_and_short() -> None:
    problems = [
        rules.DeckProblem("deck_size", None, 60),
        *(rules.DeckProblem("not_singleton", name, n) for n, name in RED_60),
        rules.DeckProblem("land", "Mountain", 24),
    ]
    assert describe_problems(problems) == (
        "illegal deck: 60 cards (must be exactly 40); lands: Mountain; more than one copy: Monastery"
        " Swiftspear x4, Lightning Bolt x4 and 8 more"
    )
    few = [rules.DeckProblem("not_singleton", "Shock", 2), rules.DeckProblem("land", "Forest", 1)]
    assert describe_problems(few) == "illegal deck: lands: Forest; more than one copy: Shock x2"


class Checking(CombatReferee):
    """The referee before the game starts, one player seated (id 5, carol), its game chat kept."""

    public: list[str]
    me = 9  # type: ignore[assignment]  # the referee's own seat
    mirror = SimpleNamespace(  # type: ignore[assignment]
        players={5: SimpleNamespace(spectator=False, deck_list=cod(RED_60), name="carol")}
    )

    async def say(self, text: Any, **_: Any) -> None:
        self.public.append(str(text))

    async def update_ready(self) -> None:
        return None


def test_the_refused_deck_line_keeps_the_lands_and_the_offer() -> None:
    """Seen: "…Monastery Swiftspear x4, Mountain x24, Ri… No legal deck? !deck …": "lands: Mountain" lost."""
    referee = Checking.__new__(Checking)
    referee.public, referee.decks, referee.table = [], {}, None
    referee.engine_names, referee.shown_names = {5: "carol"}, {}
    referee.cards = bot_combat.card_database()
    asyncio.run(referee.check_deck_of(5))
    (line,) = referee.public
    assert len(line) <= MAX_CHAT_LINE and line.endswith(DECK_OFFER)
    assert line.startswith("carol: illegal deck: 60 cards (must be exactly 40); lands: Mountain; more than")
    assert " more. No legal deck?" in line and "…" not in line


# -- 3. several discards, renumbered hands ---------------------------------------------------------


class Discarding(CombatReferee):
    """alice's commands act on the engine at once; what they perform is kept."""

    performed: list[Any]

    def require_player(self, ctx: Context) -> int:
        return 11

    def engine_player(self, seat_id: int | None) -> Any:
        return ALICE

    def apply(self, action: Any) -> list[Any]:
        return self.engine.apply(action)

    async def perform(self, effects: list[Any]) -> None:
        self.performed += effects


def at_cleanup(verdict: DeckVerdict, excess: int) -> tuple[rules.CombatEngine, Discarding]:
    """alice ends combat holding ``excess`` cards more than the maximum: her cleanup waits for discards."""
    engine = engine_for(verdict)
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    engine.apply(rules.ResolveFight(player=ALICE))
    hand = engine.seats[engine.config.players.index(ALICE)].hand
    wanted = engine.config.max_hand_size + excess
    if len(hand) < wanted:
        engine.apply(rules.Draw(player=ALICE, count=wanted - len(hand)))
    while len(hand) > wanted:  # a card effect's discard (not the cleanup's)
        engine.apply(rules.Discard(player=ALICE, card=hand[-1]))
    engine.apply(rules.EndCombat(player=ALICE))
    assert engine.step == "cleanup" and engine.whose_turn == ALICE
    referee = Discarding.__new__(Discarding)
    referee.engine_names, referee.shown_names, referee.performed = dict(NAMES), {}, []
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.commands = CommandSet(referee)
    referee._lock = asyncio.Lock()
    return engine, referee


def test_discard_takes_several_numbers_from_the_hand_as_listed(verdict: DeckVerdict) -> None:
    """Seen: `!discard 3 4 6` -> "that card is not in your hand (!hand lists yours)"."""
    engine, referee = at_cleanup(verdict, excess=3)
    before = list(engine.seats[engine.config.players.index(ALICE)].hand)
    assert answers(referee, "!discard 3 4 6") == []  # no refusal
    gone = [e.card.index for e in referee.performed if isinstance(e, rules.CardDiscarded)]
    assert gone == [before[2], before[3], before[5]]
    assert engine.whose_turn == ZOE  # the cleanup is over: the turn passed


def test_discard_refuses_more_cards_than_the_cleanup_asks(verdict: DeckVerdict) -> None:
    engine, referee = at_cleanup(verdict, excess=2)
    before = list(engine.seats[engine.config.players.index(ALICE)].hand)
    (line,) = answers(referee, "!discard 3 4 6")
    assert line == "alice: discard 2 to get down to 7 cards, e.g. !discard 3 4"
    assert engine.seats[engine.config.players.index(ALICE)].hand == before and not referee.performed
    (again,) = answers(referee, "!discard 3 3")
    assert again == "alice: name each card once, e.g. !discard 3 4"
    (past,) = answers(referee, "!discard 3 40")
    assert past.startswith(f"alice: your hand has {len(before)} cards now (numbers shift")


def test_a_number_past_a_renumbered_hand_says_the_numbers_shift(verdict: DeckVerdict) -> None:
    """Seen: `!place 1 1` then `!place 7 2` -> "your hand has 6 cards"."""
    engine = rules.CombatEngine(
        rules.CombatConfig.from_decks(
            (ALICE, ZOE), (verdict.facts or (), verdict.facts or ()), texts=(verdict.texts, verdict.texts)
        ),
        seed=1,
    )
    engine.apply(rules.StartGame(player=None))
    referee = Discarding.__new__(Discarding)
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    size = len(engine.seats[0].hand)
    with pytest.raises(BadArgument) as info:
        referee.hand_card(ALICE, size + 1)
    assert info.value.reason == (
        f"your hand has {size} cards now (numbers shift after each card that leaves it): !hand"
    )


# -- 4. !deck in the room ---------------------------------------------------------------------------


def test_deck_said_in_the_room_sends_the_bundled_deck(verdict: DeckVerdict) -> None:
    """Seen: `!deck` in the room was silently ignored."""
    told: list[tuple[str, str, bool]] = []
    replies: list[str] = []

    async def tell(user: str, text: str, *, raw: bool = False) -> None:
        told.append((user, text, raw))

    async def reply(line: str) -> None:
        replies.append(line)

    room = CombatRoom.__new__(CombatRoom)
    room.bot = SimpleNamespace(tell=tell)  # type: ignore[assignment]
    room.commands = CommandSet(room)
    ctx = Context(bot=room.bot, scope="room", sender="dave", room_id=1, reply_hook=reply)  # type: ignore[arg-type]
    assert asyncio.run(room.handle_command(ctx, "!deck"))
    ((user, listing, raw),) = told
    assert user == "dave" and raw
    assert Counter(line[2:] for line in listing.splitlines()) == Counter(f.name for f in verdict.facts or ())
    assert replies == [f"dave: {bot_combat.DECK_HOWTO}"]


def test_the_room_s_help_for_combat_names_deck() -> None:
    """Room `!deck` works but the room's command list has no room for it (with every format installed it
    is nearly 300 characters: ``referee.room_help``); `!help combat`, where a newcomer to the format looks,
    names it, and still fits one chat line after the format's pitch."""
    from test_help_topics import bot_with_rooms, handled

    from cockatrice_ext.bot.referee import LobbyReferee

    bot = bot_with_rooms()
    lobby = next(room for room in bot.room_referees if isinstance(room, LobbyReferee))
    (line,) = handled(lobby, bot, "room", "!help combat")
    assert line.startswith("Magic Combat Rules: no mana;")
    assert line.endswith("!combat rules lists the options; !deck sends a legal deck.")
    assert len(line) <= MAX_CHAT_LINE
