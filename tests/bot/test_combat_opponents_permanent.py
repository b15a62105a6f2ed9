"""``!dies`` and ``!bounce`` can name the opponent's permanent. Both decks may hold the same card, and a bare
``!bounce NAME`` takes the sender's own copy (the fight line asks each owner to confirm their own); a bounce
spell on the opponent's creature of the same name had no way to be reported. Now ``PLAYER SLOT`` names the
creature in that player's slot, as ``!cast``'s aura target does, and ``PLAYER CARD`` their permanent by name.
"""

from __future__ import annotations

import asyncio
from typing import Any

from test_combat_wording import ALICE, ZOE, game, referee_for
from test_typed_names_combat import index_of

from cockatrice_ext.bot.combat import CombatReferee, DeckVerdict
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.formats import combat as rules

SEATS = {"alice": ALICE, "zoe": ZOE}


def playing(engine: rules.CombatEngine) -> tuple[CombatReferee, list[Any]]:
    """A referee of ``engine`` that applies each command's action to it (no journal, no server) and keeps
    the effects; a sender is the engine player of their name."""
    referee = referee_for(engine)
    performed: list[Any] = []

    async def perform(effects: list[Any]) -> None:
        performed.extend(effects)

    referee._lock = asyncio.Lock()
    referee.apply = engine.apply  # type: ignore[method-assign]
    referee.perform = perform  # type: ignore[method-assign]
    referee.require_player = lambda ctx: SEATS[ctx.sender]  # type: ignore[method-assign]
    referee.engine_player = lambda seat: seat  # type: ignore[method-assign]
    return referee, performed


def said(referee: CombatReferee, text: str, sender: str = "alice") -> list[str]:
    replies: list[str] = []

    async def reply(line: str) -> None:
        replies.append(line)

    ctx = Context(bot=None, scope="game", sender=sender, reply_hook=reply)  # type: ignore[arg-type]
    assert asyncio.run(referee.handle_command(ctx, text))
    return replies


def mirror_match(verdict: DeckVerdict) -> rules.CombatEngine:
    """alice's and zoe's Centaur Courser face each other in slot 1."""
    return game(verdict, "Centaur Courser", "Centaur Courser")


def test_bounce_by_player_and_slot_takes_the_opponent_s_copy(verdict: DeckVerdict) -> None:
    engine = mirror_match(verdict)
    referee, performed = playing(engine)
    assert said(referee, "!bounce zoe 1") == []
    left = [effect for effect in performed if isinstance(effect, rules.CardLeftPlay)]
    assert [(e.owner, e.card.index, e.to) for e in left] == [
        (ZOE, index_of(engine, "Centaur Courser", 1), "hand")
    ]
    assert engine.seats[0].creatures[0] == index_of(engine, "Centaur Courser", 0)  # alice's stays


def test_dies_by_player_and_name_takes_that_player_s_copy(verdict: DeckVerdict) -> None:
    engine = mirror_match(verdict)
    referee, _ = playing(engine)
    assert said(referee, "!dies Zoe centaur", sender="alice") == []
    assert engine.seats[1].creatures[0] is None and engine.seats[0].creatures[0] is not None
    assert index_of(engine, "Centaur Courser", 1) in engine.seats[1].used


def test_the_bare_name_is_still_the_sender_s_own(verdict: DeckVerdict) -> None:
    engine = mirror_match(verdict)
    referee, _ = playing(engine)
    said(referee, "!dies Centaur Courser", sender="zoe")
    assert engine.seats[1].creatures[0] is None and engine.seats[0].creatures[0] is not None


def test_an_empty_slot_or_a_missing_permanent_is_refused_in_one_line(verdict: DeckVerdict) -> None:
    engine = mirror_match(verdict)
    referee, performed = playing(engine)
    assert said(referee, "!bounce zoe 3") == ["alice: zoe has no creature in slot 3"]
    assert said(referee, "!bounce zoe 6") == ["alice: slots are numbered 1 to 5"]
    assert said(referee, "!dies zoe Serra Angel") == [
        "alice: zoe has no Serra Angel in play (!dies CARD (yours), !dies PLAYER SLOT (their creature in that"
        " slot) or !dies PLAYER CARD)"
    ]
    assert performed == []


def test_help_names_the_forms(verdict: DeckVerdict) -> None:
    referee = referee_for(mirror_match(verdict))
    for verb in ("dies", "bounce"):
        spec = referee.commands.find(verb, "game")
        assert spec is not None
        assert spec.described.startswith(f"!{verb} CARD...: A permanent "), spec.described
        assert spec.described.endswith(
            f": !{verb} CARD is yours; !{verb} PLAYER SLOT (their creature in that slot) or"
            f" !{verb} PLAYER CARD names another's."
        ), spec.described


def test_a_bare_name_only_the_opponent_holds_is_refused_with_the_form_that_names_it(
    verdict: DeckVerdict,
) -> None:
    """Seen in the field: zoe typed ``!dies Elite Vanguard`` (alice's creature, as the fight line named it)
    and alice's creature left play."""
    engine = game(verdict, "Centaur Courser", "Grizzly Bears")
    referee, performed = playing(engine)
    assert said(referee, "!dies Centaur Courser", sender="zoe") == [
        "zoe: you have no Centaur Courser in play; it is alice's: say !dies alice Centaur Courser"
    ]
    assert said(referee, "!bounce centaur", sender="zoe") == [
        "zoe: you have no centaur in play; it is alice's: say !bounce alice centaur"
    ]
    assert performed == [] and engine.seats[0].creatures[0] == index_of(engine, "Centaur Courser", 0)
    assert said(referee, "!bounce zoe Serra Angel")[0].endswith(
        "(!bounce CARD (yours), !bounce PLAYER SLOT (their creature in that slot) or !bounce PLAYER CARD)"
    )


def test_before_play_a_named_face_down_creature_gets_the_answer_an_absent_one_gets(
    verdict: DeckVerdict,
) -> None:
    """Set-up creatures lie face down: naming the opponent's (by name or slot) must not tell whether they hold
    it."""
    assert verdict.facts is not None
    config = rules.CombatConfig.from_decks(
        (ALICE, ZOE), (verdict.facts, verdict.facts), texts=(verdict.texts, verdict.texts)
    )
    engine = rules.CombatEngine(config, seed=1)
    engine.apply(rules.StartGame(player=None))
    zoe_hand = [engine.config.cards[card].name for card in engine.seats[1].hand]
    held = ""
    for name in zoe_hand:
        try:
            engine.apply(rules.PlaceFaceDown(player=ZOE, card=name, slot=0))
        except rules.RulesError:
            continue
        held = name
        break
    absent = next(
        engine.config.cards[card].name
        for card in range(len(engine.config.cards))
        if engine.config.owners[card] == 1 and engine.config.cards[card].name not in zoe_hand
    )
    assert held and engine.phase == "setup"
    referee, performed = playing(engine)
    answers = {said(referee, f"!dies zoe {name}")[0].replace(name, "CARD") for name in (held, absent)}
    answers |= {said(referee, "!dies zoe 1")[0], said(referee, "!dies zoe 2")[0]}
    assert len(answers) == 1, answers
    assert performed == []
