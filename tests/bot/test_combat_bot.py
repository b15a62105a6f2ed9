"""Magic Combat Rules end to end: deck checks, setup, ten scored rounds and the winner, on a real Servatrice.

Bob first loads a deck with an unknown card, then an illegal one (a land, a duplicate, 42 cards): each
gets one line naming the offending cards and the game does not start (the bot stays unready). With a
legal deck the game starts; both players place creatures face down, the reveal follows, and ten rounds
are played quickly (combat, ready, pass), with one fight and a few refusals on the way. The bot's
score cards (round, points) and the final winner line are what the players see.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

import pytest
from bot_players import Player, bot_line, wait_until
from servatrice import ServatriceServer

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import CombatOptions, CombatReferee, board_of, check_cod
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client import FloodLimits
from cockatrice_ext.client.errors import SpectatorsNotAllowed
from cockatrice_ext.formats import combat as rules

pytestmark = pytest.mark.servatrice


def cod(cards: list[tuple[int, str]]) -> str:
    """A minimal .cod deck."""
    body = "".join(f"<card number={quoteattr(str(n))} name={quoteattr(name)}/>" for n, name in cards)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>t</deckname>'
        f'<comments/><zone name="main">{body}</zone></cockatrice_deck>'
    )


def run(coroutine: Any, timeout: float = 120.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


def cheap_creatures(engine: rules.CombatEngine, seat: int) -> list[str]:
    cards = [engine.config.cards[i] for i in engine.seats[seat].hand]
    return [c.name for c in cards if c.is_creature and c.mana_value <= 3]


def seed_for_setup(facts: tuple[Any, ...]) -> int:
    """A seed dealing the first player two cheap creatures and a spell, the second one cheap creature."""
    for seed in range(500):
        config = rules.CombatConfig.from_decks((1, 2), (facts, facts))
        engine = rules.CombatEngine(config, seed=seed)
        engine.apply(rules.StartGame(player=None))
        spells = [i for i in engine.seats[0].hand if not engine.config.cards[i].is_creature]
        if len(cheap_creatures(engine, 0)) >= 2 and cheap_creatures(engine, 1) and spells:
            return seed
    raise AssertionError("no suitable seed")


def physical_board(player: Player, game_id: int) -> dict[str, list[str]]:
    """The player's own hand (left to right), table (face up, by name; face-down cards counted) and
    graveyard, as their client shows them."""
    mirror = player.client.games[game_id]
    own = mirror.players[mirror.local_player_id]
    table = own.zone("table").cards
    return {
        "hand": [card.name for card in own.zone("hand").cards],  # left to right
        "table": sorted(card.name for card in table if not card.face_down),
        "face down": ["?"] * sum(card.face_down for card in table),
        "grave": sorted(card.name for card in own.zone("grave").cards),
    }


def expected_board(engine: rules.CombatEngine, player: int, judge: bool) -> dict[str, list[str]]:
    """With judge rights the table the engine describes; without, nothing moved for the player (their
    library holds every card: these scripted players never move their own)."""
    if not judge:
        return {"hand": [], "table": [], "face down": [], "grave": []}
    board = board_of(engine, player)
    unordered = {zone: sorted(cards) for zone, cards in board.items()}
    # The hand in the order of the numbered list players are sent; face-down cards only counted.
    return unordered | {"face down": ["?"] * len(board["face down"]), "hand": board["hand"]}


async def combat_game(
    servatrice: ServatriceServer, journal: Path, user: str, options: CombatOptions, names: tuple[str, ...]
) -> tuple[Bot, list[Player], int, int, CombatReferee]:
    """A Combat referee (``user``, relaxed limits) and the players ``names`` in the bot's room; the first
    one says ``!combat new``: (bot, players, room id, game id, the game's referee)."""
    bot = Bot(
        BotOptions(
            url=servatrice.ws_url,
            user=user,
            rooms=("Bot room",),
            journal_path=journal,
            formats=("combat",),
            format_options={"combat": options},
            client_options={"reconnect": False, "flood_limits": FloodLimits.unlimited()},
        )
    )
    await bot.start()
    players = [await Player.connect(servatrice.ws_url, name) for name in names]
    room_id = await players[0].client.room_id_by_name("Bot room")
    for player in players:
        await player.client.join_room(room_id)
    await players[0].client.room_say(room_id, "!combat new")
    line = await players[0].wait_line(lambda t: "Magic Combat Rules game #" in t)
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    # Seen in the field: the game shares deck lists (the referee checks them) and nobody was told.
    assert "deck lists are open (the referee checks them, your opponent sees yours)" in line
    referee = bot.games[game_id]
    assert isinstance(referee, CombatReferee)
    assert "refereed, open deck lists" in bot.client.games[game_id].description
    return bot, players, room_id, game_id, referee


async def both_seated(alice: Player, bob: Player, room_id: int, game_id: int, deck: str) -> tuple[int, int]:
    """Both players sit with ``deck`` (and press ready), until the referee's opening line: their ids."""
    alice_pid = await alice.sit(room_id, game_id, deck=deck)
    mark = alice.mark()
    bob_pid = await bob.sit(room_id, game_id, deck=deck)
    await bot_line(alice, rf"Magic Combat Rules, 10 rounds: {alice.name} vs {bob.name}", mark)
    return alice_pid, bob_pid


def number_in_hand(engine: rules.CombatEngine, seat: int, name: str) -> int:
    """The card's number in the player's ``!hand`` list (what ``!place`` and ``!set`` take)."""
    return [engine.config.cards[i].name for i in engine.seats[seat].hand].index(name) + 1


@pytest.mark.parametrize("judge", [False, True], ids=["players-move", "judge-moves"])
def test_combat_game_end_to_end(servatrice: ServatriceServer, tmp_path: Path, judge: bool) -> None:
    legal = load_block("combat-deck", sections=None).cod
    verdict = check_cod(legal)
    assert verdict.legal, verdict.reason
    assert verdict.facts is not None
    seed = seed_for_setup(verdict.facts)
    names = [f.name for f in verdict.facts]
    unknown_deck = cod([(1, n) for n in names[:39]] + [(1, "Blorp the Unreal")])
    illegal_deck = cod([(1, n) for n in names] + [(1, "Forest"), (1, "Shock")])

    async def scenario() -> None:
        names = ("alice_c", "bob_c", "carol_c")
        options = CombatOptions(seed=seed, judge=judge)
        bot, players, room_id, game_id, referee = await combat_game(
            servatrice, tmp_path / "journal.sqlite3", "combat_ref", options, names
        )
        alice, bob, carol = players
        try:
            alice_pid = await alice.sit(room_id, game_id, deck=legal)
            await bot_line(alice, r"alice_c: deck legal \(40 cards\)", 0)
            mark = alice.mark()
            bob_pid = await bob.sit(room_id, game_id, deck=unknown_deck)  # loads the deck, presses ready
            await bot_line(alice, r"bob_c: unknown cards: Blorp the Unreal", mark)
            # Ready with a deck that cannot start the game: Bob is told why, privately, once.
            reminder = await bob.wait_private(lambda t: t.startswith("The game cannot start yet"))
            assert "Blorp the Unreal" in reminder
            await bob.client.select_deck(game_id, illegal_deck)
            await bot_line(
                alice,
                r"bob_c: illegal deck: 42 cards \(must be exactly 40\); lands: Forest; more than one copy:"
                r" Shock x2",
                mark,
            )
            # No spectators (the account is no judge): a spectator receives both shared deck lists, and
            # Servatrice shows a card's number as it goes face down: they could name face-down cards.
            with pytest.raises(SpectatorsNotAllowed):
                await carol.sit(room_id, game_id, spectator=True)
            assert not alice.client.games[game_id].started and not referee.is_ready and referee.table is None

            mark = alice.mark()
            await bob.client.select_deck(game_id, legal)
            await bot_line(alice, r"bob_c: deck legal", mark)
            await bot_line(alice, r"Magic Combat Rules, 10 rounds: alice_c vs bob_c", mark)
            engine = referee.engine
            assert engine.config.players == (alice_pid, bob_pid)
            hand = await alice.wait_private(lambda t: t.startswith("Your opening hand:"))
            for index in engine.seats[0].hand:
                assert engine.config.cards[index].name in hand

            mark = alice.mark()
            await alice.say(game_id, "!help")  # a player: a long list comes as more than one line
            await bot_line(alice, r"Commands: !ability SLOT COST \| ", mark)
            await bot_line(alice, r"Commands \(more\): .*!summon N\|CARD SLOT \[SACRIFICE_SLOT\.\.\.\]", mark)

            # Setup, with refusals: a non-creature, a bad slot. Nothing changes.
            a_creatures, b_creatures = cheap_creatures(engine, 0), cheap_creatures(engine, 1)
            spell = next(
                engine.config.cards[i].name
                for i in engine.seats[0].hand
                if not engine.config.cards[i].is_creature
            )
            before = engine.snapshot()
            mark = alice.mark()

            def number_of(seat: int, name: str) -> int:
                return number_in_hand(engine, seat, name)

            # Refusals about a hidden card reach only its owner: the table reads no card name.
            heard_by_bob = bob.mark()
            await alice.say(game_id, f"!place {number_of(0, spell)} 3")
            await alice.wait_private(lambda t: f"{spell} is not a creature" in t)
            await bot_line(alice, r"alice_c: refused \(the reason was sent to you privately\)", mark)
            await alice.say(game_id, f"!place {number_of(0, a_creatures[0])} 9")
            # Seen in the field: a refusal that names no card went privately plus a public "refused" line,
            # twice the chat budget for a reason that needs no hiding: it is said once, in the game.
            await bot_line(alice, r"^alice_c: slots are numbered 1 to 5", mark)
            assert not any("slots are numbered" in t for _, t in alice.private)
            await alice.say(game_id, f"!place {a_creatures[0]} 1")  # a name: refused, never used
            await bot_line(alice, r"^alice_c: face-down cards are named by their number from !hand", mark)
            assert engine.snapshot() == before
            assert not any(spell in text for _, text in bob.heard[heard_by_bob:]), bob.heard[heard_by_bob:]

            await alice.say(game_id, f"!place {number_of(0, a_creatures[0])} 1")
            await bot_line(alice, r"alice_c places a card face down in creature slot 1", mark)
            await alice.say(game_id, f"!place {number_of(0, a_creatures[1])} 2")
            await bot_line(alice, r"alice_c places a card face down in creature slot 2", mark)
            # Bob places his by its number in his private hand list: the name stays hidden.
            bob_hand = await bob.wait_private(lambda t: t.startswith("Your opening hand: 1. "))
            number = [engine.config.cards[i].name for i in engine.seats[1].hand].index(b_creatures[0]) + 1
            assert f"{number}. {b_creatures[0]}" in bob_hand
            await bob.say(game_id, f"!place {number} 1")
            await bot_line(alice, r"bob_c places a card face down in creature slot 1", mark)
            await alice.say(game_id, "!ready")
            await bob.say(game_id, "!ready")
            await bot_line(  # one line for both players' creatures
                alice,
                rf"Creatures revealed: alice_c: {re.escape(a_creatures[0])} \(1\),"
                rf" {re.escape(a_creatures[1])} \(2\); bob_c: {re.escape(b_creatures[0])} \(1\)\.",
                mark,
            )
            await bot_line(alice, r"Round 1, alice_c's turn: spells up to mana value 1", mark)
            await wait_until(
                lambda: alice.client.games[game_id].active_player_id == alice_pid, what="alice active"
            )

            # Ten rounds. Alice's creature in slot 2 is unblocked: one point per turn. Bob's is blocked.
            by_id = {alice_pid: alice, bob_pid: bob}
            for turn in range(20):
                active = by_id[int(engine.whose_turn)]  # type: ignore[arg-type]
                other = bob if active is alice else alice
                mark = alice.mark()
                if turn == 0:
                    await other.say(game_id, "!combat")
                    await bot_line(alice, r"bob_c: it is alice_c's turn", mark)
                if turn == 0:
                    await alice.say(game_id, "!resolve")
                    await bot_line(alice, r"alice_c: not now \(it is the main step\)", mark)
                await active.say(game_id, "!combat")
                await bot_line(alice, r"Combat: set up to 3 spells", mark)
                await active.say(game_id, "!ready")
                await other.say(game_id, "!ready")
                await bot_line(alice, rf"Fights: {active.name}", mark)
                if turn == 0:
                    await alice.say(game_id, "!fight 1")
                    await bot_line(alice, rf"alice_c's {re.escape(a_creatures[0])} fights", mark)
                    await alice.say(game_id, "!pass")
                    await bot_line(alice, r"alice_c: resolve the declared fight first", mark)
                    await alice.say(game_id, "!resolve")
                    await bot_line(alice, r"Fight in slot 1 done", mark)
                await active.say(game_id, "!pass")
                expected = (turn // 2 + 1) if active is alice else 0
                await bot_line(alice, rf"{active.name} scores \d+.*, {expected} in all", mark)
                if engine.step == "cleanup":  # cleanup: discard down to seven, by name
                    await bot_line(alice, rf"Cleanup: {active.name} discards", mark)
                    seat = engine.seats[engine.active]
                    for card in [engine.config.cards[i].name for i in seat.hand[7:]]:
                        await active.say(game_id, f"!discard {card}")
                        await bot_line(alice, rf"{active.name} discards {re.escape(card)}", mark)
                if turn < 19:
                    nxt = other.name
                    await bot_line(alice, rf"Round {(turn + 1) // 2 + 1}, {nxt}'s turn", mark)
                    await wait_until(
                        lambda o=other: (
                            alice.client.games[game_id].active_player_id
                            == next(pid for pid, p in by_id.items() if p is o)
                        ),
                        what="the Cockatrice turn follows the engine",
                    )

            await bot_line(alice, r"Game over after round 10: alice_c wins, 10-0", 0)
            assert engine.is_over() and engine.winner == alice_pid
            bot_pid = referee.me
            final = "Round 10/10. Points: alice_c 10, bob_c 0"
            await wait_until(
                lambda: (
                    {
                        (c.name, c.pt, c.annotation)
                        for c in bob.client.games[game_id].players[bot_pid].zones["table"].cards
                        if c.name.startswith("Score")
                    }
                    == {("Score: alice_c", "10", final), ("Score: bob_c", "0", final)}
                ),
                what="the score cards on the referee's table",
            )
            for pid, player in by_id.items():
                await wait_until(
                    lambda p=player, pid=pid: (
                        physical_board(p, game_id) == expected_board(engine, pid, judge)
                    ),
                    what=f"{player.name}'s cards where the engine says",
                )
            mark = alice.mark()
            await alice.say(game_id, "!pass")
            await bot_line(alice, r"alice_c: the game is over", mark)
        finally:
            for p in (alice, bob, carol):
                await p.close()
            await bot.close()

    run(scenario(), timeout=240)


AURAS = ("Rancor", "Holy Strength", "Unholy Strength")
"""Auras of mana value 1 in the bundled deck: castable in round 1."""


def seed_for_an_aura(facts: tuple[Any, ...], second_creatures: int = 1) -> int:
    """A seed dealing the first player two cheap creatures and an aura of mana value 1, the second one
    ``second_creatures`` cheap creatures, with the first player's turn first."""
    for seed in range(2000):
        engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=seed)
        engine.apply(rules.StartGame(player=None))
        if len(cheap_creatures(engine, 0)) < 2 or len(cheap_creatures(engine, 1)) < second_creatures:
            continue
        if not any(engine.config.cards[i].name in AURAS for i in engine.seats[0].hand):
            continue
        for player, seat, slots in ((1, 0, 2), (2, 1, second_creatures)):
            for slot, name in enumerate(cheap_creatures(engine, seat)[:slots]):
                card = next(i for i in engine.seats[seat].hand if engine.config.cards[i].name == name)
                engine.apply(rules.PlaceFaceDown(player=player, card=card, slot=slot))
        engine.apply(rules.SetupDone(player=1))
        engine.apply(rules.SetupDone(player=2))
        if engine.whose_turn == 1:
            return seed
    raise AssertionError("no suitable seed")


@pytest.mark.parametrize("on_opponent", [False, True], ids=["her-creature", "the-opponent-s-creature"])
def test_a_judge_attaches_a_cast_aura_to_its_creature(
    servatrice: ServatriceServer, tmp_path: Path, on_opponent: bool
) -> None:
    """With judge rights the referee lays out an aura as the engine resolves it: alice casts her aura on
    the creature in slot 2 (hers, or bob's, who is not fighting) during round 1's fight in slot 1; in her
    client and in bob's, the aura lies face up on her table attached to that creature (on bob's table when
    it is his: a card attached across players stays in its owner's zone)."""
    legal = load_block("combat-deck", sections=None).cod
    facts = check_cod(legal).facts
    assert facts is not None
    seed = seed_for_an_aura(facts, second_creatures=2 if on_opponent else 1)

    async def scenario() -> None:
        options = CombatOptions(seed=seed, judge=True)
        bot, players, room_id, game_id, referee = await combat_game(
            servatrice, tmp_path / "journal.sqlite3", "combat_aura_ref", options, ("alice_au", "bob_au")
        )
        alice, bob = players
        try:
            alice_pid, bob_pid = await both_seated(alice, bob, room_id, game_id, legal)
            engine = referee.engine

            def number_of(seat: int, name: str) -> int:
                return number_in_hand(engine, seat, name)

            a_creatures, b_creatures = cheap_creatures(engine, 0), cheap_creatures(engine, 1)
            holder, holder_pid = (bob, bob_pid) if on_opponent else (alice, alice_pid)
            creature = b_creatures[1] if on_opponent else a_creatures[1]
            aura = next(
                engine.config.cards[i].name
                for i in engine.seats[0].hand
                if engine.config.cards[i].name in AURAS
            )
            # Setup, round 1's combat with the aura set face down, a fight, the aura cast on slot 2 and
            # resolved: each command with the line that answers it (the hand numbers as they are then).
            steps: list[tuple[Player, Callable[[], str], str]] = [
                (alice, lambda: f"!place {number_of(0, a_creatures[0])} 1", "face down in creature slot 1"),
                (alice, lambda: f"!place {number_of(0, a_creatures[1])} 2", "face down in creature slot 2"),
                (bob, lambda: f"!place {number_of(1, b_creatures[0])} 1", "bob_au places a card face down"),
                *([(bob, lambda: f"!place {number_of(1, b_creatures[1])} 2", "bob_au places")] * on_opponent),
                (alice, lambda: "!ready", "alice_au is ready"),
                (bob, lambda: "!ready", "Round 1, alice_au's turn"),
                (alice, lambda: "!combat", "Combat: set up to"),
                (alice, lambda: f"!set {number_of(0, aura)} 1", "face down in spell slot 1"),
                (alice, lambda: "!ready", "alice_au is ready"),
                (bob, lambda: "!ready", "Fights: alice_au"),
                (alice, lambda: "!fight 1", "alice_au's .* fights"),
                (alice, lambda: f"!cast 1 {holder.name} 2", "alice_au casts"),
                (alice, lambda: "!resolve", "Fight in slot 1 done"),
            ]
            seen: list[str] = []  # what bob's client was told, in order: the aura's words, its attachment

            async def record(event: Any) -> None:
                if getattr(event, "name", "") == "Event_AttachCard":
                    seen.append("attached")
                elif (
                    getattr(event, "name", "") == "Event_GameSay" and "enters (aura)" in event.message.message
                ):
                    seen.append("words")

            bob.client.add_listener(record)
            for player, command, answer in steps:
                mark = alice.mark()
                await player.say(game_id, command())
                await bot_line(alice, answer, mark)
            assert engine.seats[0].auras, "the aura did not resolve"

            def attached_in(player: Player) -> bool:
                seats = player.client.games[game_id].players
                table = seats[alice_pid].zone("table").cards
                theirs = seats[holder_pid].zone("table").cards
                enchanted = [c for c in theirs if c.name == creature and not c.face_down]
                on_it = [c for c in table if c.name == aura and not c.face_down]
                return len(enchanted) == len(on_it) == 1 and (
                    on_it[0].attach_player_id,
                    on_it[0].attach_zone,
                    on_it[0].attach_card_id,
                ) == (holder_pid, "table", enchanted[0].id)

            for player in (alice, bob):
                await wait_until(
                    lambda p=player: attached_in(p), what=f"the aura attached, as {player.name} sees it"
                )
            await wait_until(lambda: "attached" in seen, what="bob's client told of the attachment")
            assert seen == ["words", "attached"], seen  # the line that resolves it, then the card
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_a_judge_s_layout_waiting_for_the_game_s_words_does_not_hold_the_next_command(
    servatrice: ServatriceServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The judge lays a placed card out only after the game's words are out, which under a spent chat
    budget takes seconds. Meanwhile the game's next command goes on: here the words are held (the wait
    for them does not end) after alice's ``!place``, bob's ``!place`` is answered all the same, and once
    the words are out both cards lie face down on their tables."""
    legal = load_block("combat-deck", sections=None).cod
    facts = check_cod(legal).facts
    assert facts is not None
    seed = seed_for_setup(facts)

    async def scenario() -> None:
        options = CombatOptions(seed=seed, judge=True)
        bot, players, room_id, game_id, referee = await combat_game(
            servatrice, tmp_path / "journal.sqlite3", "combat_lay_ref", options, ("alice_ly", "bob_ly")
        )
        alice, bob = players
        words_out = asyncio.Event()
        waits: list[str] = []

        async def held_flush() -> None:  # the game's words "wait for the budget" until released
            waits.append("flush")
            await words_out.wait()

        try:
            alice_pid, bob_pid = await both_seated(alice, bob, room_id, game_id, legal)
            engine = referee.engine
            monkeypatch.setattr(referee, "flush_chat", held_flush)

            def face_down(player: Player, pid: int) -> int:
                cards = player.client.games[game_id].players[pid].zone("table").cards
                return sum(card.face_down for card in cards)

            mark = alice.mark()
            await alice.say(game_id, f"!place {number_in_hand(engine, 0, cheap_creatures(engine, 0)[0])} 1")
            await bot_line(alice, "face down in creature slot 1", mark)
            await wait_until(lambda: bool(waits), what="the layout waiting for the game's words")
            await bob.say(game_id, f"!place {number_in_hand(engine, 1, cheap_creatures(engine, 1)[0])} 1")
            await bot_line(alice, "bob_ly places a card face down", mark)  # not held behind the layout
            assert face_down(alice, alice_pid) == face_down(bob, bob_pid) == 0  # the words are not out yet
            words_out.set()
            for player, pid in ((alice, alice_pid), (bob, bob_pid)):
                await wait_until(
                    lambda p=player, i=pid: face_down(p, i) == 1, what=f"{player.name}'s card laid out"
                )
        finally:
            words_out.set()
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)


def test_a_refused_discard_says_what_is_wrong_and_names_no_card(
    servatrice: ServatriceServer, tmp_path: Path
) -> None:
    """Field test: bob's ``!discard`` while alice discarded down to seven was answered "no such card there".
    At cleanup only the active player discards: bob hears that, in one line, whether he names a card of
    his hand, one of alice's or a hand number, and nothing changes. A card not in the discarding player's
    hand is refused as such, a hand number is a card of the ``!hand`` list; no refusal names a card."""
    legal = load_block("combat-deck", sections=None).cod
    facts = check_cod(legal).facts
    assert facts is not None
    seed = seed_for_setup(facts)

    async def scenario() -> None:
        options = CombatOptions(seed=seed)
        bot, players, room_id, game_id, referee = await combat_game(
            servatrice, tmp_path / "journal.sqlite3", "combat_discard_ref", options, ("alice_dc", "bob_dc")
        )
        alice, bob = players
        try:
            await both_seated(alice, bob, room_id, game_id, legal)
            engine = referee.engine
            a_creatures, b_creatures = cheap_creatures(engine, 0), cheap_creatures(engine, 1)
            for player, command, answer in (
                (alice, lambda: f"!place {number_in_hand(engine, 0, a_creatures[0])} 1", "slot 1"),
                (alice, lambda: f"!place {number_in_hand(engine, 0, a_creatures[1])} 2", "slot 2"),
                (bob, lambda: f"!place {number_in_hand(engine, 1, b_creatures[0])} 1", "bob_dc places"),
                (alice, lambda: "!ready", "alice_dc is ready"),
                (bob, lambda: "!ready", "Round 1, alice_dc's turn"),
                (alice, lambda: "!combat", "Combat: set up to"),
                (alice, lambda: "!ready", "alice_dc is ready"),
                (bob, lambda: "!ready", "Fights: alice_dc"),
                (alice, lambda: "!pass", r"Cleanup: alice_dc discards 1 \(!discard N, by the hand list"),
            ):
                mark = alice.mark()
                await player.say(game_id, command())
                await bot_line(alice, answer, mark)
            assert engine.step == "cleanup" and engine.hand_size(alice_pid := engine.config.players[0]) == 8

            def names(seat: int) -> list[str]:
                return [engine.config.cards[i].name for i in engine.seats[seat].hand]

            before = engine.snapshot()
            alices = next(name for name in names(0) if name not in names(1))  # the decks are the same list
            not_bobs = "it is alice_dc's cleanup: only alice_dc discards now (down to 7 cards)"
            for card in (alices, names(1)[0], "1"):
                mark = alice.mark()
                await bob.say(game_id, f"!discard {card}")
                line = await bot_line(alice, r"^bob_dc: ", mark)
                assert line == f"bob_dc: {not_bobs}", line
            assert engine.snapshot() == before

            not_in_hand = "that card is not in your hand (!hand lists yours)"
            for card in ("Blorp the Unreal", "9"):  # a name that is no card of hers; past her 8 cards
                mark = bob.mark()
                await alice.say(game_id, f"!discard {card}")
                line = await bot_line(bob, r"^alice_dc: ", mark)
                assert line == f"alice_dc: {not_in_hand}", line
            assert engine.snapshot() == before

            # Seen in the field: each discard renumbered the hand and no new list came, so "!discard 3 then 5"
            # threw away the wrong card. The cleanup sends the numbered hand privately at each step.
            listing = "Your hand: " + "; ".join(f"{i}. {n}" for i, n in enumerate(names(0), start=1))
            await alice.wait_private(lambda t: listing in t)
            first = names(0)[0]
            mark = bob.mark()
            await alice.say(game_id, "!discard 1")  # the first card of her !hand list
            await bot_line(bob, rf"^alice_dc discards {re.escape(first)}\.", mark)
            await bot_line(bob, "Round 1, bob_dc's turn", mark)
            assert engine.hand_size(alice_pid) == 7

            mark = bob.mark()  # bob's turn: a card effect may make alice discard, from her own hand only
            await alice.say(game_id, f"!discard {next(n for n in names(1) if n not in names(0))}")
            assert await bot_line(bob, r"^alice_dc: ", mark) == f"alice_dc: {not_in_hand}"
        finally:
            for p in (alice, bob):
                await p.close()
            await bot.close()

    run(scenario(), timeout=120)
