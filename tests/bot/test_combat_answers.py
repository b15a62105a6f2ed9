"""Magic Combat Rules on a real Servatrice: the defender answers a fight. Seen in the field: after the
attacker's ``!resolve`` the fight was settled at once, so a defender holding an instant face down never got
to cast it. Now the defender with a face-down spell is asked by name, casts an instant and resolves; one
who stays silent is answered for by the referee after its wait (shortened here), so the game never hangs."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_players import bot_line
from servatrice import ServatriceServer
from test_combat_bot import both_seated, cheap_creatures, combat_game, number_in_hand, run

from cockatrice_ext.bot import combat as bot_combat
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import CombatOptions, check_cod
from cockatrice_ext.formats import combat as rules

pytestmark = pytest.mark.servatrice

INSTANTS = ("Giant Growth", "Shock", "Lightning Bolt", "Righteousness")
"""Instants of mana value 1 in the bundled deck: castable by the defender in round 1."""
SORCERIES = ("Flame Slash", "Prey Upon")
"""Sorceries of mana value 1 in the bundled deck: never castable by the defender."""


def seed_for_an_answer(
    facts: tuple[object, ...], spells: tuple[str, ...] = INSTANTS
) -> tuple[int, str, str, str]:
    """A seed dealing alice (first to play) a creature of mana value 3 or less, and bob one and one of
    ``spells``: (seed, her creature, his creature, his spell)."""
    for seed in range(3000):
        engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=seed)  # type: ignore[arg-type]
        engine.apply(rules.StartGame(player=None))
        held = [engine.config.cards[i].name for i in engine.seats[1].hand]
        held = [name for name in held if name in spells]
        hers, his = cheap_creatures(engine, 0), cheap_creatures(engine, 1)
        if hers and his and held:
            return seed, hers[0], his[0], held[0]
    raise AssertionError("no suitable seed")


@pytest.mark.parametrize(
    "answer", ["answers", "silent", "sorcery"], ids=["bob-answers", "bob-is-silent", "bob-holds-a-sorcery"]
)
def test_the_defender_answers_a_fight_or_the_referee_answers_for_him(
    servatrice: ServatriceServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str
) -> None:
    """``sorcery``: bob's only face-down card cannot be cast by a defender; he is asked all the same (the
    table cannot tell what he holds), hears privately that only !resolve is left, and resolves."""
    legal = load_block("combat-deck", sections=None).cod
    facts = check_cod(legal).facts
    assert facts is not None
    seed, hers, his, instant = seed_for_an_answer(facts, SORCERIES if answer == "sorcery" else INSTANTS)
    if answer == "silent":
        monkeypatch.setattr(bot_combat, "ANSWER_SECONDS", 3.0)

    async def scenario() -> None:
        names = {"answers": ("alice_an", "bob_an"), "silent": ("alice_si", "bob_si")}.get(
            answer, ("alice_so", "bob_so")
        )
        bot, players, room_id, game_id, referee = await combat_game(
            servatrice,
            tmp_path / "journal.sqlite3",
            f"combat_{names[0][-2:]}_ref",
            CombatOptions(seed=seed),
            names,
        )
        alice, bob = players
        try:
            await both_seated(alice, bob, room_id, game_id, legal)
            engine = referee.engine
            for player, command, line in (
                (alice, lambda: f"!place {number_in_hand(engine, 0, hers)} 1", f"{alice.name} places a card"),
                (bob, lambda: f"!place {number_in_hand(engine, 1, his)} 1", f"{bob.name} places a card"),
                (alice, lambda: "!ready", f"{alice.name} is ready"),
                (
                    bob,
                    lambda: "!ready",
                    rf"Round 1, {alice.name}'s turn: .* !summon CARD SLOT, then !combat\.",
                ),
                (alice, lambda: "!combat", "Combat: set up to"),
                (bob, lambda: f"!set {number_in_hand(engine, 1, instant)} 1", "face down in spell slot 1"),
                (alice, lambda: "!ready", f"{alice.name} is ready"),
                (bob, lambda: "!ready", f"Fights: {alice.name}"),
                (
                    alice,
                    lambda: "!fight 1",
                    rf"{alice.name}: !cast SPELL-SLOT, then !resolve; {bob.name} may answer with instants\.",
                ),
                (bob, lambda: "!resolve", rf"{bob.name}: {alice.name} reveals first and says !resolve"),
                (alice, lambda: "!resolve", rf"{bob.name}: !cast an instant \(SPELL-SLOT\) or !resolve"),
            ):
                mark = alice.mark()
                await player.say(game_id, command())
                await bot_line(alice, line, mark)
            mark = alice.mark()
            if answer == "sorcery":
                note = await bob.wait_private(
                    lambda t: t.startswith("None of your face-down spells"), timeout=15
                )
                assert f"{instant} (spell slot 1): not an instant" in note
                await bob.say(game_id, "!resolve")
            elif answer == "answers":  # (silent: the short wait may be over before a line is answered)
                assert engine.answering_player() == engine.config.players[1] and engine.fight_slot == 0
                note = await bob.wait_private(lambda t: t.startswith("You can cast"), timeout=15)
                assert note.startswith(f"You can cast {instant} (spell slot 1): !cast SLOT, then !resolve")
                await alice.say(game_id, "!resolve")
                await bot_line(alice, rf"{alice.name}: the fight waits for {bob.name} to answer", mark)
                await bob.say(game_id, "!cast 1")  # his last face-down card: the fight resolves with it
                await bot_line(alice, rf"{bob.name} casts {instant}\.", mark)
                await bot_line(alice, rf"Resolving: {instant}\.", mark)
                assert not any("!resolve when done" in text for _, text in alice.heard[mark:])
            else:
                await bot_line(
                    alice,
                    rf"{bob.name} did not answer in 3 s: the referee resolves the fight in slot 1\.",
                    mark,
                )
            await bot_line(alice, r"Fight in slot 1 done", mark)
            assert engine.answering_player() is None and engine.fought == [0]
            assert (engine.seats[1].spells[0] is None) == (answer == "answers")  # else his card stays set
            if answer != "answers":  # never cast: never named to alice
                assert not [text for _, text in alice.heard if instant in text]
            await alice.say(game_id, "!pass")
            await bot_line(alice, rf"{alice.name} scores", mark)
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)
