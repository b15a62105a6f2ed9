"""Magic Combat Rules on a real Servatrice (the referee seated, no judge rights): Cockatrice's "next turn"
during the fights.

Seen: a press during a declared fight put the turn back with "It is still alice's turn (step fights)." (or
nothing, when that line had been said earlier in the turn), and a press with no fight pending ended combat
without saying why, whoever pressed (the defender too: Servatrice does not say who). Now a press ends
nothing: the turn goes back and the table reads once what the fight, or the combat, waits for; ``!pass``
ends a combat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_combat_bot import both_seated, cheap_creatures, combat_game, number_in_hand, run

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import CombatOptions, check_cod
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice


def seed_for_a_fight(facts: tuple[Any, ...]) -> tuple[int, str, str]:
    """A seed dealing each player a creature of mana value 3 or less: (seed, alice's, bob's)."""
    for seed in range(500):
        engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=seed)
        engine.apply(rules.StartGame(player=None))
        hers, his = cheap_creatures(engine, 0), cheap_creatures(engine, 1)
        if hers and his:
            return seed, hers[0], his[0]
    raise AssertionError("no suitable seed")


def bundled_deck_and_seed() -> tuple[str, int, str, str]:
    """The bundled legal deck (``.cod``) and a seed dealing both players a fight: (deck, seed, alice's
    creature, bob's)."""
    legal = load_block("combat-deck", sections=None).cod
    facts = check_cod(legal).facts
    assert facts is not None
    return (legal, *seed_for_a_fight(facts))


def test_next_turn_during_a_fight_keeps_it_and_says_what_it_waits_for(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    legal, seed, hers, his = bundled_deck_and_seed()

    async def scenario() -> None:
        bot, players, room_id, game_id, referee = await combat_game(
            servatrice,
            tmp_path / "journal.sqlite3",
            "combat_nt_ref",
            CombatOptions(seed=seed, judge=False),
            ("alice_nt", "bob_nt"),
        )
        alice, bob = players
        try:
            alice_pid, _ = await both_seated(alice, bob, room_id, game_id, legal)
            engine = referee.engine
            for player, command, line in (
                (alice, lambda: f"!place {number_in_hand(engine, 0, hers)} 1", "alice_nt places a card"),
                (bob, lambda: f"!place {number_in_hand(engine, 1, his)} 1", "bob_nt places a card"),
                (alice, lambda: "!ready", "alice_nt is ready"),
                (bob, lambda: "!ready", r"Round 1, alice_nt's turn"),
                (alice, lambda: "!combat", "Combat: set up to"),
                (alice, lambda: "!ready", "alice_nt is ready"),
                (bob, lambda: "!ready", "Fights: alice_nt"),
                (alice, lambda: "!fight 1", r"alice_nt's .* fights .* in slot 1\."),
            ):
                mark = alice.mark()
                await player.say(game_id, command())
                await bot_line(alice, line, mark)
            assert engine.fight_slot == 0
            await wait_until(
                lambda: alice.client.games[game_id].active_player_id == alice_pid,
                what="alice's Cockatrice turn",
            )
            changes: list[int] = []

            async def on_event(event: Any) -> None:
                if isinstance(event, ClientEvent) and event.name == "Event_SetActivePlayer":
                    changes.append(int(event.message.active_player_id))  # type: ignore[attr-defined]

            alice.client.add_listener(on_event)
            mark = alice.mark()
            for _ in range(2):  # twice: the line is said once
                before = len(changes)
                await bob.next_turn(game_id)
                await wait_until(
                    lambda n=before: len(changes) >= n + 2 and changes[-1] == alice_pid,
                    what="the turn back with alice",
                )
            await bot_line(
                alice,
                r"It is still alice_nt's turn: the fight in slot 1 waits for alice_nt's !cast or !resolve\.",
                mark,
            )
            assert engine.fight_slot == 0 and engine.step == "fights" and engine.whose_turn == alice_pid
            await alice.say(game_id, "!resolve")
            await bot_line(alice, r"Fight in slot 1 done", mark)
            told = [t for _, t in alice.heard[mark:] if "It is still" in t]
            assert len(told) == 1, told

            # No fight pending: the defender's press ends nothing; alice's !pass ends her combat.
            await bob.next_turn(game_id)
            await bot_line(
                alice, r"It is still alice_nt's turn: alice_nt, !fight SLOT, or !pass to end combat", mark
            )
            assert engine.step == "fights" and engine.whose_turn == alice_pid
            await alice.say(game_id, "!pass")
            await bot_line(alice, r"alice_nt scores", mark)
            await wait_until(
                lambda: engine.whose_turn != alice_pid or engine.step == "cleanup", what="the end"
            )
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=150)


@pytest.mark.parametrize("how", ["conceded", "left"])
def test_a_concession_is_recorded_by_the_engine_and_the_journal(
    servatrice: ServatriceServer, tmp_path: Path, how: str
) -> None:
    """bob concedes (or leaves the game) in round 1: the table reads who went and who wins; the engine is
    over with bob out, and the journal's table is closed with the same words."""
    legal, seed, _, _ = bundled_deck_and_seed()

    async def scenario() -> None:
        bot, players, room_id, game_id, referee = await combat_game(
            servatrice,
            tmp_path / "journal.sqlite3",
            f"combat_{how[0]}c_ref",
            CombatOptions(seed=seed, judge=False),
            (f"alice_{how[0]}c", f"bob_{how[0]}c"),
        )
        alice, bob = players
        try:
            alice_pid, bob_pid = await both_seated(alice, bob, room_id, game_id, legal)
            engine = referee.engine
            for player in (alice, bob):
                await player.say(game_id, "!ready")
            await wait_until(lambda: engine.phase == "play", what="round 1")
            mark = alice.mark()
            if how == "conceded":
                await bob.client.game_command(game_id, commands.concede())
            else:
                await bob.client.leave_game(game_id)
            words = f"{bob.name} {how}; {alice.name} wins"
            await bot_line(alice, rf"Game over: {words}\.", mark)
            assert engine.is_over() and engine.out == bob_pid and engine.winner == alice_pid
            key = referee.table_key
            assert bot.journal.closed_reason(key) == f"game over: {words}"
            restored = bot.journal.restore(key)
            assert isinstance(restored, rules.CombatEngine)
            assert restored.is_over() and restored.out == bob_pid and restored.out_reason == how
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=150)
