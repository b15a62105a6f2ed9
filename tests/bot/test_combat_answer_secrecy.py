"""The defender's answer keeps their face-down cards secret, and its clock is honest (no server).

Seen: a defender whose only face-down card was a sorcery, or an instant above the round's cap, was asked to
"!cast an instant" and waited out the clock, not knowing that nothing could be cast; after a defender's
cast, the table read "more instants with !cast" when another face-down card of theirs was a castable
instant and "!resolve when done" when none was, which told the attacker what the hidden cards were; and the
90 s clock ran from the first ask, so a defender who cast an instant late had seconds left to ``!resolve``.

The write-up keeps face-down cards hidden (the defender casts only instants, and which cards are instants is
what the face-down placement hides), so the defender is still asked whenever something of theirs is face
down: the table's lines and the clock are the same whatever they hold, and the defender alone is told,
privately, what they can cast now or that nothing can be (one message either way).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from test_combat_answers_words import ALICE, NAMES, ZOE, engine_for
from test_combat_fights_render import take
from test_combat_recheck_words import Timed

from cockatrice_ext.bot import combat as bot_combat
from cockatrice_ext.bot.combat import DeckVerdict, render_effects
from cockatrice_ext.bot.combat_view import private_messages
from cockatrice_ext.formats import combat as rules

CASTABLE = "Shock"
"""An instant of mana value 1: the defender may cast it in round 1."""
NOT_CASTABLE = {
    "Flame Slash": "Flame Slash (spell slot 2): not an instant (the defender casts only instants)",
    "Titanic Growth": "Titanic Growth (spell slot 2): mana value 2, above this round's cap of 1",
}
"""Cards the defender cannot cast in round 1, and what the private note says of each, set in spell slot 2."""

Said = tuple[list[str], list[tuple[Any, str]]]


def set_face_down(verdict: DeckVerdict, *names: str) -> rules.CombatEngine:
    """Round 1: alice's fight in slot 1 is next; zoe has ``names`` face down in spell slots 1, 2, ..."""
    engine = engine_for(verdict, zoe_sets=names[0])
    seat = engine.seats[engine.config.players.index(ZOE)]
    for slot, name in enumerate(names[1:], start=1):  # set before the fights: put into the spell slot
        take(engine, ZOE, name)
        card = next(c for c in seat.hand if engine.config.cards[c].name == name)
        seat.hand.remove(card)
        seat.spells[slot] = card
    return engine


def notes(private: list[tuple[Any, str]]) -> list[tuple[Any, str]]:
    """The private notes about answering the fight (not hand lists): (to whom, text)."""
    return [(player, text) for player, text in private if "the fight resolves by itself" in text]


def run(engine: rules.CombatEngine, *actions: Any) -> Said:
    """What the table reads and what is told privately, to whom, as ``actions`` are applied."""
    public: list[str] = []
    private: list[tuple[Any, str]] = []
    for action in actions:
        effects = engine.apply(action)
        public += render_effects(effects, engine, NAMES.__getitem__)
        private += private_messages(effects, engine)
    return public, private


def asked(engine: rules.CombatEngine) -> Said:
    """alice declares the fight in slot 1 and resolves: zoe is asked."""
    said = run(engine, rules.DeclareFight(player=ALICE, slot=0), rules.ResolveFight(player=ALICE))
    assert engine.answering_player() == ZOE
    return said


# -- 1. what the table reads does not depend on the face-down cards --------------------------------------


@pytest.mark.parametrize("held", [CASTABLE, *NOT_CASTABLE])
def test_a_defender_is_asked_alike_whatever_is_face_down(verdict: DeckVerdict, held: str) -> None:
    """Asking only a defender with a castable instant would tell the attacker they hold one: the defender is
    asked, in the same words, with a sorcery or an instant above the cap face down too."""
    reference, _ = asked(set_face_down(verdict, CASTABLE))
    public, _ = asked(set_face_down(verdict, held))
    assert public == reference
    assert public[-1].startswith(
        "zoe: !cast an instant (SPELL-SLOT) or !resolve; without an answer the fight"
    )
    assert held not in " ".join(public)


@pytest.mark.parametrize("other", [CASTABLE, *NOT_CASTABLE])
def test_the_line_after_a_defender_s_cast_does_not_tell_what_else_is_face_down(
    verdict: DeckVerdict, other: str
) -> None:
    """Seen: "zoe: more instants with !cast, or !resolve." when zoe's other face-down card was a castable
    instant, "zoe: !resolve when done." when it was not: the attacker read which it was."""
    engine = set_face_down(verdict, "Giant Growth", other)
    asked(engine)
    public, _ = run(engine, rules.CastSpell(player=ZOE, spell_slot=0))
    assert public == [
        "zoe casts Giant Growth. zoe: !cast another instant (SPELL-SLOT) or !resolve; the fight resolves by"
        f" itself in {bot_combat.ANSWER_SECONDS:g} s."
    ]
    assert engine.answering_player() == ZOE


def test_after_the_last_face_down_card_is_cast_the_fight_resolves_at_once(verdict: DeckVerdict) -> None:
    """Seen: a defender who had cast every card they had face down still waited for !resolve or the 90 s
    clock. Nothing of zoe's left face down is public, so her cast resolves the fight as her !resolve would:
    the cast line asks nothing more, the fight's lines follow, and nothing is told to her privately."""
    engine = set_face_down(verdict, "Giant Growth")
    asked(engine)
    public, private = run(engine, rules.CastSpell(player=ZOE, spell_slot=0))
    assert public[:2] == ["zoe casts Giant Growth.", "Resolving: Giant Growth."]
    assert len(public) == 3 and public[2].startswith("Fight in slot 1 done"), public
    assert not any("!resolve" in line or "resolves by itself" in line for line in public)
    assert engine.answering_player() is None and engine.fight_slot is None and engine.fought == [0]
    assert notes(private) == []  # nothing of zoe's is face down now (public): nothing to tell her


def test_a_game_journaled_before_it_still_waits_for_the_defender_s_resolve(verdict: DeckVerdict) -> None:
    """A game whose journaled config lacks ``answer_ends_with_last_spell`` replays as it was played: the
    defender's last cast left the fight waiting for their !resolve (or the clock)."""
    engine = set_face_down(verdict, "Giant Growth")
    engine.config = replace(engine.config, answer_ends_with_last_spell=False)  # type: ignore[misc]
    asked(engine)
    public, _ = run(engine, rules.CastSpell(player=ZOE, spell_slot=0))
    assert public == [
        f"zoe casts Giant Growth. zoe: !resolve when done; the fight resolves by itself in"
        f" {bot_combat.ANSWER_SECONDS:g} s."
    ]
    assert engine.answering_player() == ZOE


# -- 1. the defender alone hears that nothing can be cast -----------------------------------------------


@pytest.mark.parametrize("held", list(NOT_CASTABLE))
def test_a_defender_who_can_cast_nothing_is_told_so_privately(verdict: DeckVerdict, held: str) -> None:
    """zoe's Giant Growth was cast on an earlier turn's fight; now only ``held`` is face down (slot 2): the
    table reads the usual ask; zoe alone hears why nothing can be cast and that !resolve is left."""
    engine = set_face_down(verdict, CASTABLE, held)
    seat = engine.seats[engine.config.players.index(ZOE)]
    first = seat.spells[0]
    seat.spells[0] = None  # as if cast earlier: only ``held`` is face down
    assert first is not None
    seat.used.append(first)
    _, private = asked(engine)
    ((player, note),) = notes(private)
    assert player == ZOE
    assert note.startswith(f"None of your face-down spells can be cast in this fight: {NOT_CASTABLE[held]}.")
    assert (
        f"Say !resolve (or !pass), else the fight resolves by itself in {bot_combat.ANSWER_SECONDS:g} s."
        in note
    )


def test_a_defender_who_can_cast_hears_what_and_is_told_as_often(verdict: DeckVerdict) -> None:
    """A defender who can cast hears what, privately, as one who cannot hears why not: one message either
    way. The clock starts when the defender's private lines have left the chat queue too, so a note sent
    only when nothing can be cast would start the clock later, and the attacker could time the difference."""
    _, private = asked(set_face_down(verdict, CASTABLE, "Flame Slash"))
    ((player, note),) = notes(private)
    assert player == ZOE
    assert note.startswith(f"You can cast {CASTABLE} (spell slot 1): !cast SLOT, then !resolve")
    assert "Flame Slash" not in note


def test_after_a_cast_the_defender_hears_when_nothing_else_can_be_cast(verdict: DeckVerdict) -> None:
    engine = set_face_down(verdict, "Giant Growth", "Titanic Growth")
    asked(engine)
    _, private = run(engine, rules.CastSpell(player=ZOE, spell_slot=0))
    ((player, note),) = notes(private)
    assert player == ZOE
    assert note.startswith(
        f"None of your other face-down spells can be cast in this fight: {NOT_CASTABLE['Titanic Growth']}."
    )
    engine = set_face_down(verdict, "Giant Growth", CASTABLE)
    asked(engine)
    _, private = run(engine, rules.CastSpell(player=ZOE, spell_slot=0))
    assert [text for _, text in notes(private)] == [
        f"You can still cast {CASTABLE} (spell slot 2): !cast SLOT, then !resolve (or !resolve alone);"
        f" without a word, the fight resolves by itself in {bot_combat.ANSWER_SECONDS:g} s."
    ]


def test_the_engine_names_what_the_defender_could_cast_now(verdict: DeckVerdict) -> None:
    engine = set_face_down(verdict, "Flame Slash", CASTABLE, "Titanic Growth")
    asked(engine)
    assert engine.castable_spells(ZOE) == [1]


# -- 2. the answer clock starts again after each instant cast ------------------------------------------


def test_the_answer_clock_starts_again_after_the_defender_casts(
    verdict: DeckVerdict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen: the clock ran from the first ask; a defender who cast an instant late had the rest of it to
    !resolve, although the cast line told them the clock anew. Each clock here starts when its lines are read
    (``told``, held until the test lets it go) and runs out at once: the clock armed by the ask, let go only
    after zoe's cast, must not resolve the fight; the one armed by the cast does."""
    engine = set_face_down(verdict, "Giant Growth", CASTABLE)
    asked(engine)
    started: list[tuple[int, asyncio.Event]] = []  # (spells cast when the clock started, its "lines read")

    async def told(*_: Any) -> None:
        read = asyncio.Event()
        started.append((len(engine.stack), read))
        await read.wait()

    async def heard(*_: Any) -> bool:
        return True

    monkeypatch.setattr(bot_combat, "ANSWER_SECONDS", 0.0)
    monkeypatch.setattr(bot_combat, "told", told)
    monkeypatch.setattr(bot_combat, "silence_is_heard", heard)
    referee = Timed.__new__(Timed)
    referee.engine_names, referee.shown_names, referee.public = dict(NAMES), {}, []
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.closed = referee.finished = False
    referee.game_id, referee._answer_key, referee._answer_timer = 1, None, None

    async def scenario() -> None:
        referee._lock = asyncio.Lock()
        referee.arm_answer_timer()  # zoe asked
        await asyncio.sleep(0)
        referee.public += render_effects(engine.apply(rules.CastSpell(player=ZOE, spell_slot=0)), engine, str)
        referee.arm_answer_timer()  # as ``perform`` does after every action
        for _ in range(3):
            await asyncio.sleep(0)
        started[0][1].set()  # the ask's clock would run out now
        for _ in range(10):
            await asyncio.sleep(0)
        assert engine.answering_player() == ZOE, "the clock from the ask resolved the fight after a cast"
        assert [cast for cast, _ in started] == [0, 1]
        started[1][1].set()
        timer = referee._answer_timer
        assert timer is not None
        await timer

    asyncio.run(scenario())
    assert engine.answering_player() is None and engine.fought == [0]
    timed_out = "zoe did not !resolve in 0 s: the referee resolves the fight in slot 1."
    assert referee.public.count(timed_out) == 1
    assert referee.public[referee.public.index(timed_out) + 1] == "Resolving: Giant Growth."
