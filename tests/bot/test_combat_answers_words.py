"""What a newcomer to Magic Combat Rules reads in chat (no server), as a tester who had never read the rules
met it on a real Servatrice:

* the defender never got to answer a fight: the attacker's ``!resolve`` settled it at once, and the fight
  line named nobody but the attacker;
* natural verbs were answered wrongly: ``!cast Gray Ogre`` with "spell slot must be a whole number, not
  'Gray'", ``!play Gray Ogre`` with "did you mean !place?", ``!summon Gray Ogre`` with "name the card (or its
  number in !hand), then the slot number(s)" although the card was named; the turn line said "Summon" and
  never how;
* an ordinary 60-card deck was refused without a word about the legal deck the project ships.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from test_combat_fights_render import take
from test_combat_wording import answers, refusal

from cockatrice_ext.bot import combat as bot_combat
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import (
    DECK_OFFER,
    CombatReferee,
    DeckVerdict,
    check_cod,
    render_effects,
)
from cockatrice_ext.bot.commands import CommandSet
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.formats import combat as rules

ALICE, ZOE = 1, 2
NAMES = {ALICE: "alice", ZOE: "zoe"}


def set_up(verdict: DeckVerdict) -> rules.CombatEngine:
    """The bundled deck for both; alice's Centaur Courser against zoe's Elvish Warrior in slot 1, set up:
    alice's main step of round 1."""
    assert verdict.facts is not None
    config = rules.CombatConfig.from_decks(
        (ALICE, ZOE), (verdict.facts, verdict.facts), texts=(verdict.texts, verdict.texts)
    )
    engine = rules.CombatEngine(config, seed=1)
    engine.apply(rules.StartGame(player=None))
    for player, name in ((ALICE, "Centaur Courser"), (ZOE, "Elvish Warrior")):
        take(engine, player, name)
        engine.apply(rules.PlaceFaceDown(player=player, card=name, slot=0))
    engine.apply(rules.SetupDone(player=ALICE))
    engine.apply(rules.SetupDone(player=ZOE))
    return engine


def engine_for(verdict: DeckVerdict, zoe_sets: str | None = None) -> rules.CombatEngine:
    """:func:`set_up`, then in round 1's combat zoe sets ``zoe_sets`` face down (if any); both ready,
    alice's turn to fight."""
    engine = set_up(verdict)
    engine.apply(rules.BeginCombat(player=ALICE))
    if zoe_sets is not None:
        take(engine, ZOE, zoe_sets)
        engine.apply(rules.PlaceSpell(player=ZOE, card=zoe_sets, slot=0))
    engine.apply(rules.CombatReady(player=ALICE))
    engine.apply(rules.CombatReady(player=ZOE))
    return engine


def referee_for(engine: rules.CombatEngine | None) -> CombatReferee:
    """A referee without a server (``engine`` None: the game has not started)."""
    referee = CombatReferee.__new__(CombatReferee)
    referee.engine_names = dict(NAMES)
    referee.shown_names = {}
    referee.table = None if engine is None else SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.commands = CommandSet(referee)
    return referee


def said(engine: rules.CombatEngine, action: Any) -> list[str]:
    return render_effects(engine.apply(action), engine, NAMES.__getitem__)


# -- the defender's answer -----------------------------------------------------------------------


def test_the_fight_line_names_the_defender_who_may_answer(verdict: DeckVerdict) -> None:
    """zoe has a card face down in a spell slot (public): the fight line tells alice what to say and that
    zoe may answer; alice's !resolve then asks zoe, by name, and says the fight does not wait forever."""
    engine = engine_for(verdict, zoe_sets="Giant Growth")
    assert said(engine, rules.DeclareFight(player=ALICE, slot=0)) == [
        "alice's Centaur Courser fights Elvish Warrior in slot 1. alice: !cast SPELL-SLOT, then !resolve;"
        " zoe may answer with instants."
    ]
    (asked,) = said(engine, rules.ResolveFight(player=ALICE))
    assert asked.startswith("zoe: !cast an instant (SPELL-SLOT) or !resolve; without an answer the fight in")
    assert f"resolves in {bot_combat.ANSWER_SECONDS:g} s." in asked
    assert "Giant Growth" not in asked
    referee = referee_for(engine)
    assert answers(referee, "!score")[0].startswith(
        "Round 1/10, spells up to 1, alice's turn (fights), zoe to answer the fight in slot 1."
    )
    assert refusal(engine, rules.ResolveFight(player=ALICE)).startswith(
        "the fight waits for zoe to answer (!cast an instant, then !resolve)"
    )
    assert (
        refusal(engine, rules.EndCombat(player=ALICE)) == "the fight in slot 1 waits for zoe's answer first"
    )
    lines = said(engine, rules.ResolveFight(player=ZOE))
    assert lines[-1].startswith("Fight in slot 1 done")


def test_no_defender_is_named_when_nothing_of_theirs_is_face_down(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict)
    assert said(engine, rules.DeclareFight(player=ALICE, slot=0)) == [
        "alice's Centaur Courser fights Elvish Warrior in slot 1. alice: !cast SPELL-SLOT, then !resolve."
    ]
    (line,) = said(engine, rules.ResolveFight(player=ALICE))
    assert line.startswith("Fight in slot 1 done")


def test_the_defender_who_resolves_too_early_is_told_who_goes_first(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict, zoe_sets="Giant Growth")
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    assert refusal(engine, rules.ResolveFight(player=ZOE)) == (
        "alice reveals first and says !resolve; then you may answer with instants (!cast SPELL-SLOT, then"
        " !resolve)"
    )


class Acting(CombatReferee):
    """The referee whose command handlers build their action for a chosen sender, and keep it."""

    acted: list[Any]
    sender: int

    async def act(self, ctx: Context, make: Any) -> None:
        self.acted.append(make(self.sender))


def test_a_defender_s_pass_while_asked_passes_on_the_fight(verdict: DeckVerdict) -> None:
    """For the defender "!pass" can mean only "no answer": it resolves the fight; the attacker's still ends
    combat (the engine refuses it while the fight waits)."""
    engine = engine_for(verdict, zoe_sets="Giant Growth")
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    engine.apply(rules.ResolveFight(player=ALICE))
    referee = Acting.__new__(Acting)
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.acted = []
    ctx = Context(bot=None, scope="game", sender="x")  # type: ignore[arg-type]
    for sender in (ZOE, ALICE):
        referee.sender = sender
        asyncio.run(referee.pass_(ctx))
    assert referee.acted == [rules.ResolveFight(player=ZOE), rules.EndCombat(player=ALICE)]


# -- natural verbs ---------------------------------------------------------------------------------


def test_cast_with_a_creature_s_name_points_to_summon(verdict: DeckVerdict) -> None:
    """Seen: `!cast Gray Ogre` -> "spell slot must be a whole number, not 'Gray'"."""
    referee = referee_for(engine_for(verdict))
    (line,) = answers(referee, "!cast Gray Ogre")
    assert line.startswith("alice: Gray Ogre is a creature: summon it in your main phase, e.g. !summon Gray")
    assert "!summon Gray Ogre 2 (slots 1-5)" in line and "!cast SPELL-SLOT reveals a spell" in line
    (other,) = answers(referee, "!cast Giant Growth")  # not a creature: what !cast takes
    assert other.startswith(
        "alice: !cast SPELL-SLOT reveals a spell you set face down in combat (!set N SLOT)"
    )
    assert "e.g. !cast 1" in other
    assert answers(referee, "!cast 9") == ["alice: spell slot must be between 1 and 5"]  # numbers: as before


def test_play_says_which_command_plays_the_card_now(verdict: DeckVerdict) -> None:
    """Seen: `!play Gray Ogre` -> "did you mean !place?" (in the main phase, where !place is refused)."""
    referee = referee_for(engine_for(verdict))
    assert answers(referee, "!play Gray Ogre") == [
        "alice: There is no !play; creatures: !summon Gray Ogre SLOT in your main phase (slots 1-5)."
    ]
    (spell,) = answers(referee, "!play Giant Growth")
    assert "spells: !set N SLOT in combat (face down, N from !hand), then !cast SPELL-SLOT" in spell
    (before,) = answers(referee_for(None), "!play 3")
    assert before.startswith("alice: There is no !play: at setup: !place N SLOT (N from !hand")


def test_summon_and_place_without_a_slot_say_which_part_is_missing(verdict: DeckVerdict) -> None:
    """Seen: `!summon Gray Ogre` and `!place Centaur Courser` -> "name the card (or its number in !hand),
    then the slot number(s)" although the card was named."""
    referee = referee_for(engine_for(verdict))
    assert answers(referee, "!summon Gray Ogre") == [
        "alice: which slot? e.g. !summon Gray Ogre 2 (slots 1-5)"
    ]
    (place,) = answers(referee, "!place Centaur Courser")
    assert place.startswith("alice: which slot, and which number in your !hand")
    assert "e.g. !place 3 2 (card 3 of your !hand into slot 2; slots 1-5)" in place
    assert "Centaur Courser" not in place  # a face-down card is never named back
    (spell,) = answers(referee, "!set 4")
    assert (
        spell == "alice: which spell slot? e.g. !set 3 2 (card 3 of your !hand into spell slot 2; slots 1-5)"
    )


def test_the_turn_line_shows_how_to_summon(verdict: DeckVerdict) -> None:
    engine = engine_for(verdict)
    line = next(
        text
        for text in render_effects([rules.TurnStarted(ALICE, 2, 2)], engine, NAMES.__getitem__)
        if text.startswith("Round 2")
    )
    assert line == "Round 2, alice's turn: spells up to mana value 2. !summon CARD SLOT, then !combat."


# -- a legal deck ----------------------------------------------------------------------------------


def test_an_illegal_deck_s_refusal_says_where_a_legal_one_is(verdict: DeckVerdict) -> None:
    """A 60-card deck is refused with the offer of the bundled legal deck, which `!deck` sends privately as
    lines Cockatrice's "Load deck from clipboard" reads: 40 cards, legal."""

    class Watching(CombatReferee):
        watching = True  # type: ignore[assignment]  # a judge's spectator seat

    referee = Watching.__new__(Watching)
    referee.engine_names, referee.shown_names, referee.table = dict(NAMES), {}, None
    referee.commands = CommandSet(referee)
    text = referee.illegal_deck_text(DeckVerdict(None, "illegal deck: 60 cards (must be exactly 40)"))
    assert text.endswith(DECK_OFFER) and "!deck" in DECK_OFFER
    told: list[tuple[str, str, bool]] = []

    async def tell(user: str, line: str, *, raw: bool = False) -> None:
        told.append((user, line, raw))

    referee.tell = tell  # type: ignore[method-assign]
    (howto,) = answers(referee, "!deck", sender="zoe")
    assert howto.startswith("zoe: a legal deck (40 cards) was sent to you privately: copy it")
    assert "Load deck from clipboard" in howto
    ((user, listing, raw),) = told
    assert user == "zoe" and raw
    lines = listing.splitlines()
    assert len(lines) == 40 and all(line.startswith("1 ") for line in lines)
    names = [line[2:] for line in lines]
    assert sorted(names) == sorted(f.name for f in verdict.facts or ())
    cod = load_block("combat-deck", sections=None).cod
    assert check_cod(cod).legal
