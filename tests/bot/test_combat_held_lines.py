"""What a Combat table reads when one command touches several cards, and when lines wait for the chat budget
(no server; a real :class:`~cockatrice_ext.bot.chat.ChatScheduler` whose budget the test holds and lets go).

* ``!discard a b c`` printed a discard line and a countdown line ("Cleanup: ... discards 2 ...") for each
  card; a summon's sacrifice, a creature that died with its auras, and the auras one resolution put in play
  were one line per card too. One line per command now.
* A "still X's turn" reminder held by the budget left in the same message as the next lines, and after the
  wait it was about had moved on: it is dropped then, and when still true it is a message of its own.
* A private hand list held by the budget arrived after the next command had renumbered the hand: only the
  latest list is sent, as the hand is when it leaves.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from test_combat_answers_words import ALICE, NAMES, ZOE, engine_for, set_up
from test_combat_fights_render import take
from test_combat_recheck_words import at_cleanup
from test_combat_wording import answers

from cockatrice_ext.bot import combat as bot_combat
from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.combat import CombatOptions, CombatReferee, DeckVerdict, hand_message, render_effects
from cockatrice_ext.bot.combat_view import discarded_line
from cockatrice_ext.bot.words import MAX_CHAT_LINE
from cockatrice_ext.client.mirror import GameMirror, PlayerState
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import CardRef

GAME = 1
SEATS = {ALICE: 11, ZOE: 12}


def public(engine: rules.CombatEngine, effects: list[Any]) -> list[str]:
    return render_effects(effects, engine, NAMES.__getitem__)


def names(engine: rules.CombatEngine, cards: list[int]) -> list[str]:
    return [engine.config.cards[card].name for card in cards]


# -- one command, one line ---------------------------------------------------------------------------------


def test_discarding_several_at_cleanup_is_one_line(verdict: DeckVerdict) -> None:
    """Seen: ``!discard 3 4 6`` -> three "alice discards X." lines with a countdown line between each."""
    engine, referee = at_cleanup(verdict, excess=3)
    hand = list(engine.seats[0].hand)
    assert answers(referee, "!discard 3 4 6") == []
    lines = public(engine, referee.performed)
    a, b, c = names(engine, [hand[2], hand[3], hand[5]])
    assert lines[0] == f"alice discards {a}, {b} and {c}."
    assert not any(line.startswith("Cleanup:") or "discards" in line for line in lines[1:]), lines
    assert lines[1].startswith("Round 1, zoe's turn")  # the cleanup is over: the turn passed


def test_discarding_fewer_than_the_cleanup_asks_says_how_many_are_left_in_the_same_line(
    verdict: DeckVerdict,
) -> None:
    engine, referee = at_cleanup(verdict, excess=3)
    hand = list(engine.seats[0].hand)
    assert answers(referee, "!discard 1 2") == []
    a, b = names(engine, hand[:2])
    assert public(engine, referee.performed) == [
        f"alice discards {a} and {b}; 1 more to discard (!discard N, by the hand list sent privately) down"
        " to 7 cards, then the turn passes."
    ]
    referee.performed = []
    assert answers(referee, "!discard 1") == []  # one card: one line too
    (line, *rest) = public(engine, referee.performed)
    assert line == f"alice discards {names(engine, [hand[2]])[0]}." and rest[0].startswith("Round 1, zoe's")


def test_a_long_discard_line_keeps_what_is_left_to_discard() -> None:
    """Many long names: the line fits one chat line and still ends with the count left (names are cut)."""
    cards = [CardRef(n, f"A Very Long Card Name Number {n}") for n in range(12)]
    still = rules.DiscardToHandSize(ALICE, 2, 7)
    line = discarded_line(ALICE, cards, still, NAMES.__getitem__)
    assert len(line) <= MAX_CHAT_LINE and line.startswith("alice discards A Very Long Card Name Number 0, ")
    assert line.endswith(
        " more; 2 more to discard (!discard N, by the hand list sent privately) down to 7 cards, then the"
        " turn passes."
    )


def aura_on(engine: rules.CombatEngine, owner: int, name: str, holder: int, slot: int) -> None:
    """``owner``'s aura ``name`` enchanting ``holder``'s creature in ``slot`` (test setup)."""
    take(engine, owner, name)
    seat = engine.seats[engine.config.players.index(owner)]
    card = next(c for c in seat.hand if engine.config.cards[c].name == name)
    seat.hand.remove(card)
    seat.auras.append((card, engine.config.players.index(holder), slot))


def in_main(verdict: DeckVerdict) -> rules.CombatEngine:
    """alice's Centaur Courser (slot 1) against zoe's Elvish Warrior, alice's main step of round 1; alice's
    Holy Strength and zoe's Rancor on the Courser."""
    engine = set_up(verdict)
    assert engine.step == "main" and engine.whose_turn == ALICE
    aura_on(engine, ALICE, "Holy Strength", ALICE, 0)
    aura_on(engine, ZOE, "Rancor", ALICE, 0)
    return engine


def test_a_summon_s_sacrifice_and_what_went_with_it_is_the_summon_s_line(verdict: DeckVerdict) -> None:
    """Seen: "Gray Ogre leaves play to zoe's used pile." "Rancor leaves play to zoe's used pile." "zoe summons
    Serra Angel in slot 2, sacrificing Gray Ogre.": the sacrifice said twice, a line per card."""
    engine = in_main(verdict)
    take(engine, ALICE, "Serra Angel")
    effects = engine.apply(rules.Summon(player=ALICE, card="Serra Angel", slot=0, sacrifices=(0,)))
    assert public(engine, effects) == [
        "alice summons Serra Angel in slot 1, sacrificing Centaur Courser; Holy Strength leaves play to"
        " alice's used pile, Rancor to zoe's used pile."
    ]


def test_a_creature_that_dies_with_its_auras_is_one_line(verdict: DeckVerdict) -> None:
    engine = in_main(verdict)
    courser = engine.seats[0].creatures[0]
    effects = engine.apply(rules.LeavePlay(player=ALICE, card=courser, to="used"))
    assert public(engine, effects) == [
        "Centaur Courser and Holy Strength leave play to alice's used pile, Rancor to zoe's used pile."
    ]
    assert public(engine, engine.apply(rules.LeavePlay(player=ZOE, card="Elvish Warrior", to="hand"))) == [
        "Elvish Warrior leaves play to zoe's hand."  # one card: as it always read
    ]


def test_the_auras_one_resolution_puts_in_play_are_one_line(verdict: DeckVerdict) -> None:
    """Seen: "zoe's Ancestral Mask enters (aura)." "zoe's Unholy Strength enters (aura)." "zoe's Spectral
    Flight enters (aura).", after "Resolving: ..." named them all."""
    engine = engine_for(verdict)
    ref = {
        name: CardRef(engine.config.cards.index(next(c for c in engine.config.cards if c.name == name)), name)
        for name in ("Rancor", "Holy Strength", "Spectral Flight")
    }
    effects = [
        rules.SpellsResolved(tuple(ref.values())),
        *(rules.PermanentEntered(ZOE, card, "aura", (ALICE, 0)) for card in ref.values()),
    ]
    assert public(engine, effects) == [
        "Resolving: Rancor, Holy Strength, Spectral Flight.",
        "zoe's Rancor, Holy Strength and Spectral Flight enter (auras).",
    ]
    alone = [rules.PermanentEntered(ALICE, ref["Rancor"], "aura", (ALICE, 0))]
    assert public(engine, alone) == ["alice's Rancor enters (aura)."]


# -- lines held by the chat budget ---------------------------------------------------------------------------


class Held(CombatReferee):
    """A referee of ``engine`` without a server: a game mirror, and a chat whose budget the test holds."""

    seats_known = True  # type: ignore[assignment]

    def apply(self, action: Any) -> list[Any]:
        return self.engine.apply(action)

    async def show_score(self) -> None:
        return None

    def lay_out_later(self) -> None:
        return None

    def arm_answer_timer(self) -> None:
        return None

    async def follow_engine_turn(self) -> None:
        return None

    async def tell(self, user_name: str, text: Any, *, raw: bool = False) -> None:
        self.bot.chat.say(("user", user_name), text, raw=raw)


def held_referee(engine: rules.CombatEngine) -> tuple[Held, list[tuple[Any, str]], dict[str, bool]]:
    """The referee, what its chat sent ((destination, message)), and the switch holding the budget."""
    sent: list[tuple[Any, str]] = []
    budget = {"held": True}

    async def send(destination: Any, message: str) -> None:
        sent.append((destination, message))

    def delay(destination: Any, message: str) -> float:
        return 3600.0 if budget["held"] else 0.0

    async def caught_up() -> None:
        return None

    mirror = GameMirror(game_id=GAME, room_id=1, local_player_id=99, started=True)
    mirror.players = {seat: PlayerState(seat, name=NAMES[p]) for p, seat in SEATS.items()}
    bot = SimpleNamespace(
        server_key="test",
        chat=ChatScheduler(send, delay),
        client=SimpleNamespace(games={GAME: mirror}, caught_up=caught_up),
    )
    referee = Held(bot, GAME, 1, CombatOptions())  # type: ignore[arg-type]
    referee.missed = SimpleNamespace(said=lambda *_: None)  # type: ignore[assignment]
    referee.engine_names = dict(NAMES)
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.live = True
    return referee, sent, budget


async def let_go(referee: Held, budget: dict[str, bool], *destinations: Any) -> None:
    """The budget has room again: everything waiting leaves."""
    budget["held"] = False
    referee.bot.chat.say(("user", "nobody"), "wake")  # a line said: the scheduler looks again
    for destination in destinations:
        await referee.bot.chat.flush(destination, timeout=5)


def game_messages(sent: list[tuple[Any, str]]) -> list[str]:
    return [message for destination, message in sent if destination == ("game", GAME)]


def test_a_reminder_stale_when_it_would_leave_is_dropped(verdict: DeckVerdict) -> None:
    """zoe presses next turn in alice's fights; the reminder waits for the budget while alice declares a
    fight: "It is still alice's turn: alice, !fight SLOT, or !pass to end combat ..." is no longer what
    the turn waits for, and left merged with the fight's line as one confusing message."""
    engine = engine_for(verdict)
    referee, sent, budget = held_referee(engine)

    async def scenario() -> None:
        referee.remind_turn_later(ALICE)
        await asyncio.gather(*list(referee._reminders))
        for line in public(engine, engine.apply(rules.DeclareFight(player=ALICE, slot=0))):
            await referee.say(line)
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    assert game_messages(sent) == [
        "alice's Centaur Courser fights Elvish Warrior in slot 1. alice: !cast SPELL-SLOT, then !resolve."
    ]


def test_a_reminder_still_true_is_a_message_of_its_own(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict)
    referee, sent, budget = held_referee(engine)
    kept = bot_combat.turn_kept_line(engine, ALICE, NAMES.__getitem__)

    async def scenario() -> None:
        await referee.say("zoe: it is alice's turn")  # a line before it and one after, the turn unchanged
        referee.remind_turn_later(ALICE)
        await asyncio.gather(*list(referee._reminders))
        await referee.say("zoe: it is alice's turn (2)")
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    assert game_messages(sent) == ["zoe: it is alice's turn", kept, "zoe: it is alice's turn (2)"]
    assert kept.startswith("It is still alice's turn: alice, !fight SLOT, or !pass to end combat")


def test_the_reminder_in_the_main_step_does_not_offer_pass(verdict: DeckVerdict) -> None:
    """Seen: "It is still alice's turn (step main): !pass ends it." ``!pass`` in the main step is refused
    ("not now (it is the main step)"): only the fights end a turn."""
    engine = in_main(verdict)
    line = bot_combat.turn_kept_line(engine, ALICE, NAMES.__getitem__)
    assert line.startswith("It is still alice's turn (main step): alice, !summon CARD SLOT, then !combat;")
    assert "in the fights !pass ends the turn" in line
    engine.apply(rules.BeginCombat(player=ALICE))
    line = bot_combat.turn_kept_line(engine, ALICE, NAMES.__getitem__)
    assert line.startswith("It is still alice's turn (combat step): set spells (!set N SLOT), then both")


def test_a_hand_list_held_by_the_budget_is_the_hand_as_it_is_when_it_leaves(verdict: DeckVerdict) -> None:
    """Two discards while alice's private lines wait: the first hand list's numbers are wrong by the time she
    reads it. One list arrives, the latest, and it lists the hand as it is."""
    engine = in_main(verdict)
    referee, sent, budget = held_referee(engine)
    hand = engine.seats[0].hand

    async def scenario() -> None:
        for _ in range(2):
            await referee.perform(engine.apply(rules.Discard(player=ALICE, card=hand[0])))
        await let_go(referee, budget, ("user", "alice"), ("game", GAME))

    asyncio.run(scenario())
    lists = [
        part
        for destination, message in sent
        if destination == ("user", "alice")
        for part in message.split(" | ")
        if part.startswith("Your hand:")
    ]
    assert lists == [hand_message(engine, ALICE)]


def test_an_answer_note_held_until_the_fight_resolved_is_not_sent(verdict: DeckVerdict) -> None:
    """zoe is asked to answer and resolves at once (the table's line asked her): her private note ("You can
    cast ...; without a word, the fight resolves by itself in 90 s") would arrive about a fight already
    over."""
    engine = engine_for(verdict, zoe_sets="Giant Growth")
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    referee, sent, budget = held_referee(engine)

    async def scenario() -> None:
        await referee.perform(engine.apply(rules.ResolveFight(player=ALICE)))  # zoe asked: her note queued
        assert engine.answering_player() == ZOE
        await referee.perform(engine.apply(rules.ResolveFight(player=ZOE)))
        await let_go(referee, budget, ("user", "zoe"), ("game", GAME))

    asyncio.run(scenario())
    assert not any(
        "resolves by itself" in message for destination, message in sent if destination[0] == "user"
    )
    assert any("Fight in slot 1 done" in message for message in game_messages(sent))


def test_referee_back_says_the_score_as_it_is_when_the_line_leaves(verdict: DeckVerdict) -> None:
    engine = in_main(verdict)
    referee, sent, budget = held_referee(engine)

    async def scenario() -> None:
        await referee.on_reconnected()
        await referee.perform(engine.apply(rules.BeginCombat(player=ALICE)))
        await let_go(referee, budget, ("game", GAME))

    asyncio.run(scenario())
    (back,) = [
        part for m in game_messages(sent) for part in m.split(" | ") if part.startswith("Referee back.")
    ]
    assert "alice's turn (combat)" in back, back
