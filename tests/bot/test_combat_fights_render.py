"""What the Combat referee says after a fight (the deaths it settled, or who must confirm) and to a player
who set a spell that cannot be cast this turn: pure rendering, with the bundled deck's real card data."""

from __future__ import annotations

from typing import Any

from cockatrice_ext.bot.combat import DeckVerdict, board_of, render_effects
from cockatrice_ext.bot.combat_commands import own_permanent
from cockatrice_ext.bot.combat_view import private_messages
from cockatrice_ext.formats import combat as rules

ALICE, ZOE = 1, 2
NAMES = {ALICE: "alice", ZOE: "zoe"}


def game(
    verdict: DeckVerdict, alice: str, zoe: str, *, texts: bool = True, **options: Any
) -> rules.CombatEngine:
    """Both players with the bundled deck, the card kinds the deck check judged (as the referee builds its
    engine), in play: ``alice``'s creature in slot 1 against ``zoe``'s; round 1, alice's turn, in combat."""
    assert verdict.facts is not None
    kinds = (verdict.texts, verdict.texts) if texts else None
    config = rules.CombatConfig.from_decks(
        (ALICE, ZOE), (verdict.facts, verdict.facts), texts=kinds, **options
    )
    engine = rules.CombatEngine(config, seed=1)
    engine.apply(rules.StartGame(player=None))
    for player, name in ((ALICE, alice), (ZOE, zoe)):
        take(engine, player, name)
        engine.apply(rules.PlaceFaceDown(player=player, card=name, slot=0))
    engine.apply(rules.SetupDone(player=ALICE))
    engine.apply(rules.SetupDone(player=ZOE))
    engine.apply(rules.BeginCombat(player=ALICE))
    return engine


def take(engine: rules.CombatEngine, player: int, name: str) -> None:
    """Put the player's copy of ``name`` into their hand (test setup)."""
    seat = engine.seats[engine.config.players.index(player)]
    card = next(
        i
        for i, c in enumerate(engine.config.cards)
        if c.name == name and engine.config.owners[i] == engine.config.players.index(player)
    )
    for zone in (seat.draw_pile, seat.used):
        if card in zone:
            zone.remove(card)
            seat.hand.append(card)


def fight(engine: rules.CombatEngine) -> list[Any]:
    engine.apply(rules.CombatReady(player=ALICE))
    engine.apply(rules.CombatReady(player=ZOE))
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    return engine.apply(rules.ResolveFight(player=ALICE))


def test_the_deck_check_judges_each_card_s_text(verdict: DeckVerdict) -> None:
    assert verdict.facts is not None and len(verdict.texts) == len(verdict.facts) == 40
    kinds = {card.name: kind for card, kind in zip(verdict.facts, verdict.texts, strict=True)}
    assert kinds["Centaur Courser"] == kinds["Elvish Warrior"] == kinds["Serra Angel"] == rules.PLAIN
    assert kinds["Youthful Knight"] == rules.QUIET  # first strike: not settled, touches nothing else
    assert kinds["Shivan Dragon"] == kinds["Giant Growth"] == kinds["Rancor"] == rules.OPEN
    assert kinds["Holy Strength"] == kinds["Ancestral Mask"] == rules.ATTACHED


def test_the_smoke_test_s_fight_is_settled_in_one_line(verdict: DeckVerdict) -> None:
    """Seen in the smoke test: "Fight in slot 1 done; a creature that died: !dies CARD." after Centaur
    Courser (3/3) fought Elvish Warrior (2/3); nobody typed it and the dead Warrior stayed in play. Now the
    referee says who died and moves it to the used pile (a judge lays the graveyard out from there)."""
    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    lines = render_effects(fight(engine), engine, NAMES.__getitem__)
    assert lines == [
        "Fight in slot 1 done: Centaur Courser 3/3 against Elvish Warrior 2/3; Elvish Warrior dies"
        " (to zoe's used pile)."
    ]
    assert (
        board_of(engine, ZOE)["grave"] == ["Elvish Warrior"]
        and "Elvish Warrior" not in board_of(engine, ZOE)["table"]
    )


def test_a_fight_the_referee_cannot_judge_names_the_printed_death_and_who_confirms(
    verdict: DeckVerdict,
) -> None:
    engine = game(verdict, "Youthful Knight", "Elvish Warrior")
    lines = render_effects(fight(engine), engine, NAMES.__getitem__)
    assert lines == [
        "Fight in slot 1 done; the referee cannot judge the rules text of alice's Youthful Knight. By printed"
        " power/toughness alice's Youthful Knight would die; each creature that really died, its owner says"
        " !dies CARD (alice: !dies Youthful Knight)."
    ]
    assert board_of(engine, ALICE)["table"] == ["Youthful Knight"]  # nothing moved


def test_a_game_begun_before_card_texts_were_read_says_so(verdict: DeckVerdict) -> None:
    engine = game(verdict, "Grizzly Bears", "Silvercoat Lion", texts=False)
    (line,) = render_effects(fight(engine), engine, NAMES.__getitem__)
    assert line == (
        "Fight in slot 1 done; the referee cannot judge the cards' rules text (this game began before the"
        " referee read it). By printed power/toughness alice's Grizzly Bears and zoe's Silvercoat Lion would"
        " die; each creature that really died, its owner says !dies CARD (alice: !dies Grizzly Bears)."
    )


def test_a_spell_resolved_in_the_fight_is_named_as_the_reason(verdict: DeckVerdict) -> None:
    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    take(engine, ZOE, "Giant Growth")
    engine.apply(rules.PlaceSpell(player=ZOE, card="Giant Growth", slot=0))
    engine.apply(rules.CombatReady(player=ALICE))
    engine.apply(rules.CombatReady(player=ZOE))
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    engine.apply(rules.CastSpell(player=ZOE, spell_slot=0))
    lines = render_effects(engine.apply(rules.ResolveFight(player=ALICE)), engine, NAMES.__getitem__)
    assert lines[-1] == (
        "Fight in slot 1 done; the referee cannot judge what zoe's Giant Growth may have done to alice's"
        " Centaur Courser. By printed power/toughness zoe's Elvish Warrior would die; each creature that"
        " really died, its owner says !dies CARD (zoe: !dies Elvish Warrior)."
    )


def test_the_spell_named_is_the_last_that_touched_the_creature(verdict: DeckVerdict) -> None:
    """Seen in the second smoke test: a fight after Lightning Bolt named Doom Blade, cast the round before,
    as what the referee could not judge: the first cause was kept for good. Two spells resolve here, last in
    first out: the one resolved last is named."""
    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    take(engine, ZOE, "Giant Growth")
    take(engine, ZOE, "Lightning Bolt")
    engine.apply(rules.PlaceSpell(player=ZOE, card="Giant Growth", slot=0))
    engine.apply(rules.PlaceSpell(player=ZOE, card="Lightning Bolt", slot=1))
    engine.apply(rules.CombatReady(player=ALICE))
    engine.apply(rules.CombatReady(player=ZOE))
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    engine.apply(rules.CastSpell(player=ZOE, spell_slot=1))  # Lightning Bolt: resolves second
    engine.apply(rules.CastSpell(player=ZOE, spell_slot=0))  # Giant Growth: last in, resolves first
    effects = engine.apply(rules.ResolveFight(player=ALICE))
    resolved = next(e for e in effects if isinstance(e, rules.SpellsResolved))
    assert [ref.name for ref in resolved.cards] == ["Giant Growth", "Lightning Bolt"]
    line = render_effects(effects, engine, NAMES.__getitem__)[-1]
    assert "cannot judge what zoe's Lightning Bolt may have done to alice's Centaur Courser" in line


def test_a_spell_set_that_cannot_be_cast_this_turn_is_told_privately(verdict: DeckVerdict) -> None:
    """Seen in the smoke test: zoe set Ancestral Mask (mana value 3) in round 1 as the defender; only at
    the fights was she refused, and the slot stayed taken for rounds. Now she reads why at !set, privately;
    the table reads no card name."""
    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    take(engine, ZOE, "Ancestral Mask")
    effects = engine.apply(rules.PlaceSpell(player=ZOE, card="Ancestral Mask", slot=1))
    public = render_effects(effects, engine, NAMES.__getitem__)
    assert public == ["zoe places a card face down in spell slot 2."]
    ((player, text),) = private_messages(effects, engine)
    assert player == ZOE
    assert text.startswith(
        "Note: Ancestral Mask in spell slot 2 cannot be cast this turn: its mana value 3 is above this"
        " round's cap of 1 (castable from round 3 on); you defend this turn, and the defender casts only"
        " instants (cast it on your turn). It stays there, face down, until you cast it. Your hand: 1. "
    )
    take(engine, ALICE, "Giant Growth")  # castable now: the hand list alone
    ((_, alone),) = private_messages(engine.apply(rules.PlaceSpell(ALICE, "Giant Growth", 0)), engine)
    assert alone.startswith("Your hand: ")


def test_a_spell_above_the_last_round_is_said_never_castable(verdict: DeckVerdict) -> None:
    engine = game(verdict, "Centaur Courser", "Elvish Warrior", rounds=3)
    take(engine, ALICE, "Overrun")  # mana value 5
    ((_, text),) = private_messages(engine.apply(rules.PlaceSpell(ALICE, "Overrun", 0)), engine)
    assert text.startswith(
        "Note: Overrun in spell slot 1 cannot be cast this turn: its mana value 5 is above this round's cap"
        " of 1 (no round of this 3-round game allows it). It stays there"
    )


def test_dies_names_the_sender_s_own_creature_when_both_have_one(verdict: DeckVerdict) -> None:
    """Both decks may hold the same card, and the fight line asks each owner to confirm by name: zoe's
    "!dies Youthful Knight" must take her knight, not alice's (the first one in play)."""
    engine = game(verdict, "Youthful Knight", "Youthful Knight")
    alices, zoes = engine.seats[0].creatures[0], engine.seats[1].creatures[0]
    assert own_permanent(engine, ZOE, " youthful KNIGHT ") == zoes
    assert own_permanent(engine, ALICE, "Youthful Knight") == alices
    assert own_permanent(engine, ALICE, "Elvish Warrior") == "Elvish Warrior"  # none of hers: as typed
    (left,) = engine.apply(rules.LeavePlay(player=ZOE, card=own_permanent(engine, ZOE, "Youthful Knight")))
    assert left == rules.CardLeftPlay(ZOE, left.card, "used") and left.card.index == zoes
    assert engine.seats[0].creatures[0] == alices
