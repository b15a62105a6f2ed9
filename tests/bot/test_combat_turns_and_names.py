"""Magic Combat Rules as the field met it on a real Servatrice (the referee seated: no judge rights).

Seen in the field: every Command_NextTurn by the player whose turn it is not made the referee say "It is
still X's turn" and pass the turn back, each press counted as the first (six lines for eight presses); a
concession by the player whose turn it was (Servatrice passes their turn before it tells of the
concession) drew the same wrong line before "Game over"; and a flip card was listed in the opening hand
and the draws by both halves ("Akki Lavarunner // Tok-Tok, Volcano Born") while the player's own card
in Cockatrice reads "Akki Lavarunner".
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from servatrice import ServatriceServer
from test_combat_bot import both_seated, combat_game

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import CombatOptions, CombatReferee, check_cod
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.client import ClientEvent
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.protocol import commands

pytestmark = pytest.mark.servatrice

FLIP = "Akki Lavarunner // Tok-Tok, Volcano Born"
"""A flip card: the engine's name for it (both halves)."""
ON_CARD = "Akki Lavarunner"
"""Its name in the deck file and on the card in Cockatrice."""


def reminders_waiting(referee: CombatReferee) -> bool:
    """Whether a "still X's turn" line waits to be said (a referee that says it at once has none)."""
    return bool(getattr(referee, "_reminders", ()))


def run(coroutine: Any, timeout: float = 180.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


def flip_deck() -> tuple[str, tuple[Any, ...]]:
    """The bundled 40-card deck with its first card swapped for the flip card: (.cod text, card facts)."""
    cod = load_block("combat-deck", sections=None).cod
    first = check_cod(cod).facts[0].name  # type: ignore[index]
    cod = cod.replace(f'name="{first}"', f'name="{ON_CARD}"', 1)
    verdict = check_cod(cod)
    assert verdict.facts is not None and FLIP in {f.name for f in verdict.facts}, verdict.reason
    return cod, verdict.facts


def setup_choice(engine: rules.CombatEngine, seat: int) -> int | None:
    """The hand number (from 1) of the first cheap creature that is not the flip card."""
    hand = [engine.config.cards[i] for i in engine.seats[seat].hand]
    return next(
        (n for n, c in enumerate(hand, start=1) if c.is_creature and c.mana_value <= 3 and c.name != FLIP),
        None,
    )


def seed_for_flip(facts: tuple[Any, ...]) -> int:
    """A seed dealing the second player the flip card in their opening hand, and the first player (whose
    turn round 1 is) drawing theirs in round 1, once each has placed a creature by :func:`setup_choice`."""
    for seed in range(20000):
        engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=seed)
        engine.apply(rules.StartGame(player=None))
        if not any(engine.config.cards[i].name == FLIP for i in engine.seats[1].hand):
            continue
        numbers = [setup_choice(engine, seat) for seat in (0, 1)]
        if None in numbers:
            continue
        for seat, number in enumerate(numbers):
            card = engine.seats[seat].hand[number - 1]  # type: ignore[operator]
            engine.apply(rules.PlaceFaceDown(player=seat + 1, card=card, slot=seat))
        engine.apply(rules.SetupDone(player=1))
        engine.apply(rules.SetupDone(player=2))
        hand = engine.seats[0].hand
        drawn = [engine.config.cards[i].name for i in hand[-engine.config.draws_per_turn :]]
        if engine.whose_turn == 1 and FLIP in drawn:
            return seed
    raise AssertionError("no suitable seed")


async def in_round_one(
    servatrice: ServatriceServer, tmp_path: Path, user: str, names: tuple[str, str]
) -> tuple[Bot, Player, Player, int, CombatReferee, dict[str, int]]:
    """A seated referee (no judge rights, as under auth none), both players with the flip deck, setup
    done: round 1, the first player's turn (bot, alice, bob, game id, referee, seat ids by name)."""
    cod, facts = flip_deck()
    options = CombatOptions(seed=seed_for_flip(facts), judge=False)
    bot, players, room_id, game_id, referee = await combat_game(
        servatrice, tmp_path / "journal.sqlite3", user, options, names
    )
    alice, bob = players
    alice_pid, bob_pid = await both_seated(alice, bob, room_id, game_id, cod)
    assert not referee.watching and not referee.is_judge
    engine = referee.engine
    assert engine.config.players == (alice_pid, bob_pid)
    for seat, player in enumerate((alice, bob)):
        await player.say(game_id, f"!place {setup_choice(engine, seat)} {seat + 1}")
    for player in (alice, bob):
        await player.say(game_id, "!ready")
    await wait_until(lambda: engine.phase == "play", what="round 1")
    assert engine.whose_turn == alice_pid
    await wait_until(
        lambda: alice.client.games[game_id].active_player_id == alice_pid, what="alice's Cockatrice turn"
    )
    return bot, alice, bob, game_id, referee, {alice.name: alice_pid, bob.name: bob_pid}


def test_a_flip_card_is_named_as_on_the_card_and_presses_out_of_turn_are_put_back_with_one_line(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    async def scenario() -> None:
        bot, alice, bob, game_id, referee, pids = await in_round_one(
            servatrice, tmp_path, "combat_tp", ("alice_tp", "bob_tp")
        )
        try:
            # The flip card by the name on the card: bob's opening hand and !hand, alice's draw.
            opening = await bob.wait_private(lambda t: t.startswith("Your opening hand:"))
            assert re.search(rf"\d\. {ON_CARD}(;|\.)", opening) and "Tok-Tok" not in opening, opening
            drawn = await alice.wait_private(lambda t: "You draw:" in t)
            assert ON_CARD in drawn and "Tok-Tok" not in drawn, drawn
            await bob.say(game_id, "!hand")
            listing = await bob.wait_private(lambda t: t.startswith("Your hand:"))
            assert ON_CARD in listing and "Tok-Tok" not in listing, listing

            # bob presses "next turn" four times on alice's turn: each time the turn comes back to her,
            # and the table hears "It is still alice_tp's turn" once.
            changes: list[int] = []

            async def on_event(event: Any) -> None:
                if isinstance(event, ClientEvent) and event.name == "Event_SetActivePlayer":
                    changes.append(int(event.message.active_player_id))  # type: ignore[attr-defined]

            alice.client.add_listener(on_event)
            mark = alice.mark()
            for _ in range(4):
                before = len(changes)
                await bob.next_turn(game_id)
                await wait_until(
                    lambda n=before: len(changes) >= n + 2 and changes[-1] == pids["alice_tp"],
                    what="the turn back with alice",
                )
            await wait_until(lambda: not reminders_waiting(referee), what="the reminder said or dropped")
            await alice.say(game_id, "!score")
            await bot_line(alice, r"Round 1/10, .*alice_tp's turn", mark)
            told = [t for _, t in alice.heard[mark:] if "It is still" in t]
            main = "It is still alice_tp's turn (main step): alice_tp, !summon CARD SLOT, then !combat;"
            assert len(told) == 1 and told[0].startswith(main), told  # a message of its own
            engine = referee.engine
            assert engine.round == 1 and engine.whose_turn == pids["alice_tp"]
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario())


async def play_the_turn(game_id: int, engine: rules.CombatEngine, active: Player, other: Player) -> None:
    """``active``'s turn played through: combat, both ready, no fight, pass, cleanup by hand numbers; until
    Cockatrice gives ``other`` the turn."""
    mark = active.mark()
    await active.say(game_id, "!combat")
    await bot_line(active, r"Combat: set up to 3 spells", mark)
    await active.say(game_id, "!ready")
    await other.say(game_id, "!ready")
    await bot_line(active, rf"Fights: {active.name}", mark)
    await active.say(game_id, "!pass")
    await bot_line(active, rf"{active.name} scores", mark)
    seat = engine.seats[engine.active]
    while engine.step == "cleanup":
        size = len(seat.hand)
        await active.say(game_id, f"!discard {size}")
        await wait_until(lambda n=size: len(seat.hand) < n or engine.step != "cleanup", what="a discard")
    await bot_line(active, rf"{other.name}'s turn", mark)


def test_a_concession_on_one_s_own_turn_draws_no_still_your_turn_line(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """alice concedes on her own turn (round 2's first): Servatrice passes her turn to bob, then tells of the
    concession. The table hears "Game over", and no "It is still alice_tc's turn"."""

    async def scenario() -> None:
        bot, alice, bob, game_id, referee, pids = await in_round_one(
            servatrice, tmp_path, "combat_tc", ("alice_tc", "bob_tc")
        )
        try:
            engine = referee.engine
            await play_the_turn(game_id, engine, alice, bob)
            await play_the_turn(game_id, engine, bob, alice)
            assert engine.round == 2 and engine.whose_turn == pids["alice_tc"]
            await wait_until(
                lambda: alice.client.games[game_id].active_player_id == pids["alice_tc"], what="alice's turn"
            )
            mark = bob.mark()
            await alice.client.game_command(game_id, commands.concede())
            await bot_line(bob, r"Game over: alice_tc conceded; bob_tc wins", mark)
            assert engine.is_over() and engine.out == pids["alice_tc"] and engine.winner == pids["bob_tc"]
            await wait_until(lambda: not reminders_waiting(referee), what="no reminder waiting")
            assert not any("It is still" in t for _, t in bob.heard[mark:]), bob.heard[mark:]
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario())
