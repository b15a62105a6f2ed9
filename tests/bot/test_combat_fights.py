"""Magic Combat Rules on a real Servatrice: the referee settles a fight of creatures without rules text
itself (the dead one goes to the graveyard, the survivor is unblocked and scores), and a spell set that
cannot be cast this turn is explained privately at ``!set``, never named to the opponent."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_combat_bot import both_seated, combat_game, number_in_hand, physical_board, run

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import CombatOptions, DeckVerdict, card_database, check_cod
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import combat as rules

pytestmark = pytest.mark.servatrice


def vanilla_creatures(engine: rules.CombatEngine, seat: int) -> list[CardFacts]:
    """The creatures of mana value 3 or less in the player's hand whose card has no rules text at all."""
    cards = [engine.config.cards[i] for i in engine.seats[seat].hand]
    texts = card_database().cards
    return [c for c in cards if c.is_creature and c.mana_value <= 3 and not texts[c.name].front.oracle_text]


def seed_for_a_settled_fight(verdict: DeckVerdict) -> tuple[int, str, str, str]:
    """A seed dealing alice a creature without rules text that kills bob's and survives, and a spell of
    mana value 2 or more (not castable in round 1): (seed, her creature, his creature, her spell)."""
    assert verdict.facts is not None
    for seed in range(3000):
        config = rules.CombatConfig.from_decks((1, 2), (verdict.facts, verdict.facts))
        engine = rules.CombatEngine(config, seed=seed)
        engine.apply(rules.StartGame(player=None))
        spells = [
            engine.config.cards[i].name
            for i in engine.seats[0].hand
            if not engine.config.cards[i].is_creature and engine.config.cards[i].mana_value >= 2
        ]
        for hers in vanilla_creatures(engine, 0):
            for his in vanilla_creatures(engine, 1):
                if spells and his.name != hers.name and kills(hers, his):
                    return seed, hers.name, his.name, spells[0]
    raise AssertionError("no suitable seed")


def kills(hers: CardFacts, his: CardFacts) -> bool:
    """Whether ``hers`` kills ``his`` in a fight and survives it (printed numbers: plain creatures)."""
    power, toughness = int(hers.power or 0), int(hers.toughness or 0)
    return int(his.toughness or 0) <= power and toughness > int(his.power or 0)


def test_a_settled_fight_and_a_spell_set_too_early(servatrice: ServatriceServer, tmp_path: Path) -> None:
    legal = load_block("combat-deck", sections=None).cod
    verdict = check_cod(legal)
    seed, hers, his, spell = seed_for_a_settled_fight(verdict)

    async def scenario() -> None:
        options = CombatOptions(seed=seed, judge=True)
        bot, players, room_id, game_id, referee = await combat_game(
            servatrice, tmp_path / "journal.sqlite3", "combat_fight_ref", options, ("alice_f", "bob_f")
        )
        alice, bob = players
        try:
            alice_pid, bob_pid = await both_seated(alice, bob, room_id, game_id, legal)
            engine = referee.engine
            heard_by_bob = bob.mark()
            for player, command, answer in (
                (alice, lambda: f"!place {number_in_hand(engine, 0, hers)} 1", "alice_f places a card"),
                (bob, lambda: f"!place {number_in_hand(engine, 1, his)} 1", "bob_f places a card"),
                (alice, lambda: "!ready", "alice_f is ready"),
                (bob, lambda: "!ready", "Round 1, alice_f's turn"),
                (alice, lambda: "!combat", "Combat: set up to"),
                (alice, lambda: f"!set {number_in_hand(engine, 0, spell)} 1", "face down in spell slot 1"),
            ):
                mark = alice.mark()
                await player.say(game_id, command())
                await bot_line(alice, answer, mark)
            # Seen in the smoke test: a spell above the round's cap was set without a word and refused only
            # at the fights. Its player reads why at once, privately.
            note = await alice.wait_private(lambda t: t.startswith("Note: "))
            assert note.startswith(f"Note: {spell} in spell slot 1 cannot be cast this turn: its mana value")

            mark = alice.mark()
            await alice.say(game_id, "!ready")
            await bob.say(game_id, "!ready")
            await bot_line(alice, "Fights: alice_f", mark)
            await alice.say(game_id, "!fight 1")
            await bot_line(alice, "alice_f's .* fights", mark)
            # Seen in the smoke test: "a creature that died: !dies CARD", nobody typed it, and the dead
            # creature stayed on the referee's board. The referee settles this fight itself.
            await alice.say(game_id, "!resolve")
            line = await bot_line(alice, "Fight in slot 1 done", mark)
            assert line.endswith(f"; {his} dies (to bob_f's used pile).") and "!dies" not in line, line
            assert engine.seats[1].creatures[0] is None
            await wait_until(
                lambda: physical_board(bob, game_id)["grave"] == [his], what="bob's dead creature laid out"
            )
            await alice.say(game_id, "!pass")
            await bot_line(alice, r"alice_f scores 1 \(unblocked: slot 1\), 1 in all", mark)
            assert not any(spell in text for _, text in bob.heard[heard_by_bob:]), bob.heard[heard_by_bob:]
            assert not any(spell in text for _, text in bob.private)
            assert (alice_pid, bob_pid) == engine.config.players
            assert len(engine.config.fight_texts) == 80  # the deck check's text kinds reached the engine
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)
