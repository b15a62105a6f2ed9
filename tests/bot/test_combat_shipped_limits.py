"""Magic Combat Rules as players meet it: Servatrice's shipped flood limits, auth none, players pacing
themselves, each loading their own 40-card deck.

What issue 12 saw: every draw made players search their own library for named cards. With judge rights
the referee moves the drawn cards into their hands itself; without, it says once how to take them, then
only names the draws, privately. And ``!resume`` after ``kill -9`` rebuilds the game by name.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from killable_bot import CHAT_BOUND, BotProcess
from servatrice import ServatriceServer
from test_auction_e2e import connect_default
from test_combat_bot import seed_for_setup

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import CombatOptions, CombatReferee, check_cod
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.formats import combat as rules

pytestmark = pytest.mark.servatrice

HOWTO = "View library"


def run(coroutine: Any, timeout: float = 240.0) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


def legal_deck() -> tuple[str, tuple[Any, ...]]:
    cod = load_block("combat-deck", sections=None).cod
    facts = check_cod(cod).facts
    assert facts is not None
    return cod, facts


def own_zone(player: Player, game_id: int, zone: str) -> Any:
    mirror = player.client.games[game_id]
    return mirror.players[mirror.local_player_id].zone(zone)


def score_notes(mirror: Any, seat: int) -> set[str]:
    """The notes of the score cards on ``seat``'s table (the referee's, when it sits in the game)."""
    player = mirror.players.get(seat)
    table = player.zones.get("table") if player is not None else None
    return {card.annotation for card in (table.cards if table else []) if card.name.startswith("Score")}


def hand_in_order(engine: rules.CombatEngine, player: Any) -> list[str]:
    """The engine's hand list: what ``!hand`` numbers."""
    return [engine.config.cards[i].name for i in engine.seats[engine.config.players.index(player)].hand]


def hand_of(engine: rules.CombatEngine, player: Any) -> list[str]:
    return sorted(engine.config.cards[i].name for i in engine.seats[engine.config.players.index(player)].hand)


async def play_setup(engine: rules.CombatEngine, by_id: dict[int, Player], game_id: int) -> None:
    """Each player places one cheap creature by its number in their hand list, then says !ready."""
    for pid, player in by_id.items():
        seat = engine.config.players.index(pid)
        hand = [engine.config.cards[i] for i in engine.seats[seat].hand]
        number = next(n for n, c in enumerate(hand, start=1) if c.is_creature and c.mana_value <= 3)
        await player.say(game_id, f"!place {number} {seat + 1}")
    for player in by_id.values():
        await player.say(game_id, "!ready")


async def strict_combat_game(
    url: str, tmp_path: Path, user: str, names: list[str], *, judge: bool
) -> tuple[Bot, CombatReferee, int, dict[int, Player]]:
    cod, facts = legal_deck()
    options = BotOptions(
        url=url,
        user=user,
        rooms=("Bot room",),
        journal_path=tmp_path / "journal.sqlite3",
        formats=("combat",),
        format_options={"combat": CombatOptions(seed=seed_for_setup(facts), judge=judge)},
        client_options={"reconnect": False},
    )
    bot = Bot(options)
    await bot.start()
    players = [Player(await connect_default(url, name)) for name in names]
    room_id = await players[0].client.room_id_by_name("Bot room")
    for player in players:
        await player.client.join_room(room_id)
    mark = players[0].mark()
    await players[0].client.room_say(room_id, "!combat new")
    line = await bot_line(players[0], r"Magic Combat Rules game #\d+", mark, timeout=CHAT_BOUND)
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    by_id = {await p.sit(room_id, game_id, deck=cod): p for p in players}
    referee = bot.games[game_id]
    assert isinstance(referee, CombatReferee)
    await wait_until(lambda: referee.table is not None, timeout=CHAT_BOUND, what="the game started")
    return bot, referee, game_id, by_id


def test_a_judge_moves_every_draw_and_puts_a_rebuilt_board_back(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """With judge rights: the opening hands and the first round's draws arrive in each player's hand
    (as their own client shows it, taken from their own library); nobody is told to search; each placed
    creature goes from its owner's hand onto their table and is turned face up at the reveal. The bot
    then loses its seat (auth none) and a new bot on the same journal rebuilds the game on ``!resume``:
    hands, the revealed creatures on the battlefield, life and the round (score cards) are back, by name."""

    async def scenario() -> None:
        bot, referee, game_id, by_id = await strict_combat_game(
            servatrice_strict.ws_url, tmp_path, "combat_j", ["ann_cj", "bo_cj"], judge=True
        )
        try:
            assert referee.is_judge
            engine = referee.engine
            for pid, player in by_id.items():
                await wait_until(
                    lambda p=player, pid=pid: (
                        [c.name for c in own_zone(p, game_id, "hand").cards] == hand_in_order(engine, pid)
                    ),
                    timeout=15,
                    what=f"{player.name}'s opening hand in hand, left to right as numbered",
                )
                await wait_until(
                    lambda p=player: own_zone(p, game_id, "deck").card_count == 40 - 7,
                    what="seven cards out of the library",
                )
                told = await player.wait_private(
                    lambda t: t.startswith("Your opening hand:"), timeout=CHAT_BOUND
                )
                assert "It is in your hand." in told and HOWTO not in told
            await play_setup(engine, by_id, game_id)
            await wait_until(lambda: engine.phase == "play", timeout=CHAT_BOUND, what="round 1")
            for pid, player in by_id.items():  # each placed creature on its owner's table, revealed
                slot, creature = next(
                    (slot, engine.config.cards[card].name)
                    for slot, card in enumerate(engine.seats[engine.config.players.index(pid)].creatures)
                    if card is not None
                )
                await wait_until(
                    lambda p=player, slot=slot, creature=creature: any(
                        (card.name, card.face_down, card.x, card.y) == (creature, False, 3 * slot, 0)
                        for card in own_zone(p, game_id, "table").cards
                    ),
                    timeout=15,
                    what=f"{player.name}'s {creature} face up in slot {slot + 1}'s column",
                )
            active = int(engine.whose_turn)  # type: ignore[arg-type]
            drawer = by_id[active]
            seat = engine.seats[engine.config.players.index(active)]
            drawn = [engine.config.cards[i].name for i in seat.hand[-engine.config.draws_per_turn :]]
            await wait_until(
                lambda: own_zone(drawer, game_id, "deck").card_count == 40 - 7 - len(drawn),
                timeout=15,
                what="the round's draws out of the active player's library",
            )
            in_hand = [c.name for c in own_zone(drawer, game_id, "hand").cards]
            assert in_hand == hand_in_order(engine, active), "the draws join the hand's right end"
            assert not any("You draw" in t or HOWTO in t for p in by_id.values() for _, t in p.private)

            # The seat goes with the connection; a new bot on the same journal rebuilds the game.
            await bot.close()
            watcher = by_id[active]
            mirror = watcher.client.games[game_id]
            await wait_until(lambda: referee.me not in mirror.players, timeout=30, what="the bot's seat gone")
            mark = watcher.mark()
            bot = Bot(bot.options)
            await bot.start()
            await bot_line(watcher, rf"lost its seat .*!resume {game_id}", mark, timeout=CHAT_BOUND)
            await watcher.client.room_say(referee.room_id, f"!resume {game_id}")
            line = await bot_line(
                watcher, rf"Game #{game_id} continues as game #\d+", mark, timeout=CHAT_BOUND
            )
            new_game = int(re.search(r"as game #(\d+)", line).group(1))  # type: ignore[union-attr]
            cod, _ = legal_deck()
            for player in reversed(list(by_id.values())):  # the other order: new seat ids
                await player.sit(referee.room_id, new_game, deck=cod)
            await bot_line(
                watcher, rf"Game #{game_id} continues here, every card back", mark, timeout=CHAT_BOUND
            )
            for pid, player in by_id.items():
                await wait_until(
                    lambda p=player, pid=pid: (
                        sorted(c.name for c in own_zone(p, new_game, "hand").cards) == hand_of(engine, pid)
                    ),
                    timeout=15,
                    what=f"{player.name}'s hand rebuilt",
                )
                seat = engine.seats[engine.config.players.index(pid)]
                creatures = sorted(engine.config.cards[i].name for i in seat.creatures if i is not None)
                on_table = sorted(c.name for c in own_zone(player, new_game, "table").cards)
                assert on_table == creatures, (on_table, creatures)
                own = player.client.games[new_game]
                assert own.players[own.local_player_id].counter_value("life") == seat.life
            rebuilt = bot.games[new_game]
            mirror = watcher.client.games[new_game]
            await wait_until(
                lambda: (
                    len(notes := score_notes(mirror, rebuilt.me)) == 1
                    and next(iter(notes)).startswith(f"Round {engine.round}/10.")
                ),
                what="the round on the score cards",
            )
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())


def test_without_judge_rights_the_library_is_explained_once(
    servatrice_strict: ServatriceServer, tmp_path: Path
) -> None:
    """Without judge rights: the opening hand's message says how to take cards from the library; the
    round's draws are named privately, without repeating it, and never in public; a refused summon of a
    hand card given by its number is explained privately (the table never reads its name)."""

    async def scenario() -> None:
        bot, referee, game_id, by_id = await strict_combat_game(
            servatrice_strict.ws_url, tmp_path, "combat_n", ["ann_cn", "bo_cn"], judge=False
        )
        try:
            assert not referee.is_judge
            engine = referee.engine
            for player in by_id.values():
                told = await player.wait_private(
                    lambda t: t.startswith("Your opening hand:"), timeout=CHAT_BOUND
                )
                assert HOWTO in told
            await play_setup(engine, by_id, game_id)
            await wait_until(lambda: engine.phase == "play", timeout=CHAT_BOUND, what="round 1")
            active = int(engine.whose_turn)  # type: ignore[arg-type]
            drawer = by_id[active]
            # No judge rights: the bot never acts for a player, so nothing of theirs moved by itself.
            assert all(not own_zone(p, game_id, "table").cards for p in by_id.values())
            drawn = await drawer.wait_private(lambda t: "You draw:" in t, timeout=CHAT_BOUND)
            seat = engine.seats[engine.config.players.index(active)]
            for index in seat.hand[-engine.config.draws_per_turn :]:
                assert engine.config.cards[index].name in drawn
            assert sum(HOWTO in t for _, t in drawer.private) == 1, drawer.private
            other = next(p for pid, p in by_id.items() if pid != active)
            # Summoning a hand card that is no creature, by its number: the refusal names it privately.
            cards = [engine.config.cards[i] for i in seat.hand]
            number, spell = next((n, c.name) for n, c in enumerate(cards, start=1) if not c.is_creature)
            mark = other.mark()
            await drawer.say(game_id, f"!summon {number} 3")
            await drawer.wait_private(lambda t: f"{spell} is not a creature" in t, timeout=CHAT_BOUND)
            await bot_line(other, rf"{drawer.name}: refused \(the reason was sent to you privately\)", mark)
            await asyncio.sleep(1.0)
            hidden = [engine.config.cards[i].name for i in seat.hand]
            public = [t for _, t in other.heard]
            assert not any(name in line for name in hidden for line in public), public
        finally:
            for player in by_id.values():
                await player.close()
            await bot.close()

    run(scenario())


def test_resume_after_kill_rebuilds_the_game(servatrice_strict: ServatriceServer, tmp_path: Path) -> None:
    """``kill -9`` in round 1 under auth none, the bot started as the README says: the room hears of
    the lost game within 5 s; ``!resume`` opens a new game the two players join in the other order (new
    seat ids) with their decks; each is told privately where every card goes (hand, battlefield), the
    round and the score (score cards) are back, and the game goes on by name."""
    cod, facts = legal_deck()
    by_name = {f.name: f for f in facts}
    url = servatrice_strict.ws_url

    async def scenario() -> None:
        bot = BotProcess(url, "referee_ck", tmp_path / "journal.sqlite3", "combat")
        alice = Player(await connect_default(url, "alice_ck"))
        bob = Player(await connect_default(url, "bob_ck"))
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for player in (alice, bob):
                await player.client.join_room(room_id)
            mark = alice.mark()
            old_game = await bot.open_game(alice, room_id, "!combat new", "Magic Combat Rules")
            for player in (alice, bob):
                await player.sit(room_id, old_game, deck=cod)
            placed: dict[str, str] = {}
            hands: dict[str, list[str]] = {}
            for player in (alice, bob):
                told = await player.wait_private(
                    lambda t: t.startswith("Your opening hand:"), timeout=CHAT_BOUND
                )
                hand = re.findall(r"\d+\. ([^;]+?)(?=;|\. )", told.split(": ", 1)[1])[:7]
                cheap = [
                    (n, c)
                    for n, c in enumerate(hand, start=1)
                    if by_name[c].is_creature and by_name[c].mana_value <= 3
                ]
                hands[player.name] = list(hand)
                if cheap:  # the random shuffle may deal none: setup then places nothing
                    number, name = cheap[0]
                    placed[player.name] = name
                    hands[player.name].remove(name)
                    await player.say(old_game, f"!place {number} 1")
            for player in (alice, bob):
                await player.say(old_game, "!ready")
            line = await bot_line(alice, r"Round 1, \w+'s turn", mark, timeout=CHAT_BOUND)
            active = alice if "alice_ck's turn" in line else bob
            drawn = await active.wait_private(lambda t: "You draw:" in t, timeout=CHAT_BOUND)
            hands[active.name] += re.search(r"You draw: ([^|]+?)\.(?: \||$)", drawn).group(1).split(", ")  # type: ignore[union-attr]

            await bot.kill_and_restart(alice, old_game)
            mark = alice.mark()
            told_before = {p.name: len(p.private) for p in (alice, bob)}
            new_game = await bot.resume(bob, room_id, old_game)
            seats = {
                await bob.sit(room_id, new_game, deck=cod): bob,
                await alice.sit(room_id, new_game, deck=cod): alice,
            }
            assert [p.name for p in seats.values()] == ["bob_ck", "alice_ck"]
            await bot_line(alice, rf"Game #{old_game} continues here, .*Round 1/10", mark, timeout=CHAT_BOUND)
            for player in (alice, bob):
                told = await player.wait_private(
                    lambda t, p=player: (
                        f"Game #{old_game} continues here." in t and len(p.private) > told_before[p.name]
                    ),
                    timeout=CHAT_BOUND,
                )
                into_hand = re.search(r"into your hand: ([^;.]+)", told).group(1).split(", ")  # type: ignore[union-attr]
                assert sorted(into_hand) == sorted(hands[player.name]), (into_hand, hands[player.name])
                if player.name in placed:
                    assert f"onto the battlefield: {placed[player.name]}" in told
            new_mirror = alice.client.games[new_game]
            bot_seat = next(pid for pid, p in new_mirror.players.items() if p.name == "referee_ck")
            await wait_until(
                lambda: any(note.startswith("Round 1/10.") for note in score_notes(new_mirror, bot_seat)),
                what="the round on the score cards",
            )
            mark = alice.mark()
            await active.say(new_game, "!combat")
            await bot_line(alice, r"Combat: set up to 3 spells", mark, timeout=CHAT_BOUND)
        finally:
            for player in (alice, bob):
                await player.close()
            bot.stop()

    run(scenario(), timeout=300)
