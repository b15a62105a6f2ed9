"""Pure parts of the Combat Rules referee: deck checks of loaded .cod text, parsing, rendering."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any
from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import (
    GRID_POINTS_PER_CARD,
    attach_moves,
    attachments,
    board_of,
    card_places,
    check_cod,
    hand_message,
    render_effects,
    split_card_and_numbers,
    table_moves,
)
from cockatrice_ext.bot.combat_decks import describe_problems
from cockatrice_ext.bot.combat_table import CREATURE_ROW
from cockatrice_ext.bot.combat_view import hand_listing, private_messages
from cockatrice_ext.bot.commands import BadArgument
from cockatrice_ext.cards.model import Card, CardDatabase, CardFacts, Face
from cockatrice_ext.client.mirror import CardState, PlayerState
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.protocol import messages as pb


def cod(cards: list[tuple[int, str]], zone: str = "main") -> str:
    body = "".join(f"<card number={quoteattr(str(n))} name={quoteattr(name)}/>" for n, name in cards)
    return f'<cockatrice_deck version="1"><deckname/><zone name="{zone}">{body}</zone></cockatrice_deck>'


@pytest.fixture(scope="module")
def legal() -> str:
    return load_block("combat-deck", sections=None).cod


def test_bundled_deck_is_legal(legal: str) -> None:
    verdict = check_cod(legal)
    assert verdict.legal and verdict.reason == "deck legal (40 cards)"
    assert verdict.facts is not None and len(verdict.facts) == 40


def test_unknown_cards_are_named(legal: str) -> None:
    verdict = check_cod(cod([(1, "Blorp the Unreal"), (1, "Shock")]))
    assert not verdict.legal and verdict.reason == "unknown cards: Blorp the Unreal"


def test_every_offending_card_is_listed() -> None:
    verdict = check_cod(cod([(2, "Shock"), (1, "Forest"), (1, "Island"), (1, "Grizzly Bears")]))
    assert not verdict.legal
    assert verdict.reason == (
        "illegal deck: 5 cards (must be exactly 40); lands: Forest, Island; more than one copy: Shock x2"
    )


def test_planeswalkers_are_named() -> None:
    walker = CardFacts("Jace Beleren", mana_value=3, colors=("U",), types=("Planeswalker",))
    db = CardDatabase()
    db.add(Card(name=walker.name, faces=(Face(name=walker.name, types=walker.types),)))
    verdict = check_cod(cod([(1, "Jace Beleren")]), db=db, deck_size=1)
    assert verdict.reason == "illegal deck: planeswalkers: Jace Beleren"


def test_sideboard_does_not_count(legal: str) -> None:
    with_side = legal.replace(
        "</cockatrice_deck>", '<zone name="side"><card number="4" name="Forest"/></zone></cockatrice_deck>'
    )
    assert check_cod(with_side).legal


def test_unreadable_and_hostile_decks_are_refused() -> None:
    assert "does not read" in check_cod("<cockatrice_deck").reason
    assert "no deck list" in check_cod("").reason
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "Shock">]>'
        '<cockatrice_deck version="1"><zone name="main"><card number="1" name="&a;"/></zone>'
        "</cockatrice_deck>"
    )
    assert not check_cod(bomb).legal


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_check_cod_never_raises(text: str) -> None:
    verdict = check_cod(text)
    assert verdict.legal is False and verdict.reason


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 5), st.text(max_size=30)), max_size=6))
def test_check_cod_never_raises_on_decks(cards: list[tuple[int, str]]) -> None:
    verdict = check_cod(cod(cards))
    assert verdict.reason


def test_describe_problems_groups_by_kind() -> None:
    problems = [rules.DeckProblem("land", "Forest", 1), rules.DeckProblem("land", "Island", 2)]
    assert describe_problems(problems) == "illegal deck: lands: Forest, Island"


def test_split_card_and_numbers() -> None:
    assert split_card_and_numbers("Shivan Dragon 3 1 2") == ("Shivan Dragon", [3, 1, 2])
    assert split_card_and_numbers("Serra Angel 1") == ("Serra Angel", [1])
    assert split_card_and_numbers("4 2") == (4, [2])
    for bad in ("", "Serra Angel", "3", "Serra Angel 1 x"):
        with pytest.raises(BadArgument):
            split_card_and_numbers(bad)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_split_never_crashes(text: str) -> None:
    try:
        name, numbers = split_card_and_numbers(text)
    except BadArgument:
        return
    assert name and numbers


def test_the_opening_hand_says_which_numbers_may_be_placed(legal: str) -> None:
    """Each player's opening hand names the hand numbers that are creatures of mana value 3 or less; a hand
    without one says so and asks only for !ready, so nobody tries card after card and reads a refusal
    each time."""
    facts = check_cod(legal).facts
    assert facts is not None
    seen = set()
    for seed in range(60):
        engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=seed)
        for player, text in private_messages(engine.apply(rules.StartGame(player=None)), engine):
            kind, words = placeable_words(engine, player)
            assert words in text, text
            seen.add(kind)
    assert seen == {"none", "one", "several"}


def placeable_words(engine: rules.CombatEngine, player: int) -> tuple[str, str]:
    """How many of ``player``'s hand cards are creatures of mana value 3 or less (none, one, several),
    and the words that must say which, by hand number."""
    hand = [engine.config.cards[i] for i in engine.seats[player - 1].hand]
    cheap = [str(n) for n, card in enumerate(hand, 1) if card.is_creature and card.mana_value <= 3]
    if not cheap:
        return "none", "None of them is a creature of mana value 3 or less to place: say !ready."
    if len(cheap) == 1:
        return "one", f"(number {cheap[0]} is a creature of mana value 3 or less), then !ready."
    return "several", f"(numbers {', '.join(cheap)} are creatures of mana value 3 or less), then !ready."


def test_rendering_a_whole_game(legal: str) -> None:
    facts = check_cod(legal).facts
    assert facts is not None
    engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts), rounds=1), seed=1)
    start = engine.apply(rules.StartGame(player=None))
    names = {1: "alice", 2: "bob"}.get
    opening = private_messages(start, engine)
    assert [p for p, _ in opening] == [1, 2] and opening[0][1].startswith("Your opening hand: ")
    assert not any("draws" in line for line in render_effects(start, engine, names))
    cheap = next(i for i in engine.seats[0].hand if facts[i].is_creature and facts[i].mana_value <= 3)
    placed = engine.apply(rules.PlaceFaceDown(player=1, card=cheap, slot=1))
    # The hand renumbered, with what may still be placed by the new numbers.
    [(player, listing)] = private_messages(placed, engine)
    assert player == 1 and listing.startswith(f"Your hand: {hand_listing(engine, 1)}. ")
    assert placeable_words(engine, 1)[1] in listing, listing
    assert facts[cheap].name not in " ".join(render_effects(placed, engine, names))
    # Seen in the field: a discard at setup renumbered the hand and no new list came, so the opening hand's
    # numbers pointed at other cards. Any card leaving the hand sends the new list, once.
    discarded = engine.apply(rules.Discard(player=2, card=engine.seats[1].hand[0]))
    assert private_messages(discarded, engine) == [(2, hand_message(engine, 2))]
    engine.apply(rules.SetupDone(player=1))
    setup = engine.apply(rules.SetupDone(player=2))
    text = " ".join(render_effects(setup, engine, names))
    assert f"Creatures revealed: alice: {facts[cheap].name} (2); bob: no creatures." in text  # one line
    assert "Round 1, alice's turn: spells up to mana value 1." in text
    assert "alice draws 3." in text and "bob draws" not in text  # the active player draws
    engine.apply(rules.BeginCombat(player=1))
    engine.apply(rules.CombatReady(player=1))
    engine.apply(rules.CombatReady(player=2))
    end = engine.apply(rules.EndCombat(player=1))
    text = " ".join(render_effects(end, engine, names))
    assert "alice scores 1 (unblocked: slot 2), 1 in all." in text
    excess = engine.hand_size(1) - 7
    cleanup = (
        f"Cleanup: alice discards {excess} (!discard N, by the hand list sent privately) down to 7 cards"
    )
    assert excess > 0 and cleanup in text
    for _ in range(excess):
        engine.apply(rules.Discard(player=1, card=engine.seats[0].hand[0]))
    for step in (rules.BeginCombat(player=2), rules.CombatReady(player=1), rules.CombatReady(player=2)):
        engine.apply(step)
    final = engine.apply(rules.EndCombat(player=2))
    assert "Game over after round 1: alice wins, 1-0." in render_effects(final, engine, names)


def test_resume_rebuilds_the_table_from_the_journal(tmp_path: Path, legal: str) -> None:
    import asyncio
    from dataclasses import asdict

    from cockatrice_ext.bot import formats
    from cockatrice_ext.bot.combat import CombatOptions, CombatReferee
    from cockatrice_ext.journal import Journal, Table

    facts = check_cod(legal).facts
    assert facts is not None
    journal = Journal(tmp_path / "j.sqlite3")
    key = "ws://x:game:3"
    engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=2)
    meta = {"format": "combat", "options": asdict(CombatOptions()), "names": {"1": "ann", "2": "bo"}}
    table = Table.create(journal, key, engine, meta=meta)
    table.apply(rules.StartGame(player=None))
    table.apply(rules.SetupDone(player=1))
    bot = SimpleNamespace(journal=journal, server_key="ws://x", client=None, chat=SimpleNamespace(recaps={}))
    referee = asyncio.run(formats.RESUMERS.get("combat")(bot, 3, 0, key))  # type: ignore[arg-type]
    assert isinstance(referee, CombatReferee)
    assert referee.engine.snapshot() == engine.snapshot() and referee.ready
    assert referee.engine_names == {1: "ann", 2: "bo"} and referee.live
    # hand lists kept (journaled) for a player who was away before the stop: told as things are now
    assert bot.chat.recaps[referee.recap_topic] == referee.recap
    journal.close()


def test_draws_moved_by_a_judge_need_no_words_and_the_library_is_explained_once(legal: str) -> None:
    facts = check_cod(legal).facts
    assert facts is not None
    engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=1)
    start = engine.apply(rules.StartGame(player=None))
    told = dict(private_messages(start, engine))
    assert "View library" in told[1] and "View library" in told[2]
    drawn_at = {i for i, effect in enumerate(start) if isinstance(effect, rules.CardsDrawn)}
    moved = dict(private_messages(start, engine, moved=drawn_at))
    assert all("It is in your hand." in text and "library" not in text for text in moved.values())
    for player in (1, 2):
        engine.apply(rules.SetupDone(player=player))
    draw = engine.apply(rules.Draw(player=1, count=2))
    drawn = next(e for e in draw if isinstance(e, rules.CardsDrawn))
    assert private_messages(draw, engine) == [(1, f"You draw: {', '.join(r.name for r in drawn.cards)}.")]
    assert private_messages(draw, engine, moved={draw.index(drawn)}) == []


def test_a_rebuilt_board_lists_every_card_where_it_lies(legal: str) -> None:
    from cockatrice_ext.bot.combat import board_instructions

    facts = check_cod(legal).facts
    assert facts is not None
    engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=1)
    engine.apply(rules.StartGame(player=None))
    cheap = next(i for i in engine.seats[0].hand if facts[i].is_creature and facts[i].mana_value <= 3)
    engine.apply(rules.PlaceFaceDown(player=1, card=cheap, slot=0))
    name = engine.config.cards[cheap].name
    board = board_of(engine, 1)
    assert board["face down"] == [name] and board["table"] == [] and len(board["hand"]) == 6
    assert f"face down onto the battlefield: {name}" in board_instructions(board)
    for player in (1, 2):
        engine.apply(rules.SetupDone(player=player))
    board = board_of(engine, 1)  # revealed: face up now
    assert board["table"] == [name] and board["face down"] == []
    text = board_instructions(board)
    assert text.startswith("From your library put into your hand: ") and "graveyard" not in text
    assert board_instructions({"hand": [], "table": []}) == "Your library holds every card."


def test_a_rebuild_reports_what_the_journal_cannot_say(tmp_path: Path, legal: str) -> None:
    """``!resume`` never guesses: a journal without the players' names is refused with the reason
    before any game is opened (the stub bot has no server to open one on)."""
    import asyncio
    from dataclasses import asdict

    from cockatrice_ext.bot.combat import CombatOptions, CombatReferee
    from cockatrice_ext.journal import Journal, JournalError, Table

    facts = check_cod(legal).facts
    assert facts is not None
    journal = Journal(tmp_path / "j.sqlite3")
    engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=2)
    table = Table.create(journal, "k", engine, meta={"format": "combat", "options": asdict(CombatOptions())})
    table.apply(rules.StartGame(player=None))
    bot = SimpleNamespace(journal=journal)
    with pytest.raises(JournalError, match=r"no name journaled for player\(s\) 1, 2"):
        asyncio.run(CombatReferee.rebuild(bot, 0, "k", "ann"))  # type: ignore[arg-type]
    journal.close()


def described(commands: list[Any]) -> list[tuple[Any, ...]]:
    """The judge's commands as (kind, zone, card id, target zone or face, x, y, face down)."""
    out: list[tuple[Any, ...]] = []
    for wrapper in commands:
        if wrapper.HasExtension(pb.Command_MoveCard.ext):
            move = wrapper.Extensions[pb.Command_MoveCard.ext]
            (card,) = move.cards_to_move.card
            where = (move.target_zone, move.x, move.y, card.face_down)
            out.append(("move", move.start_zone, card.card_id, *where))
        else:
            flip = wrapper.Extensions[pb.Command_FlipCard.ext]
            out.append(("flip", flip.zone, flip.card_id, flip.face_down))
    return out


def mirrored(engine: rules.CombatEngine, zones: dict[str, list[tuple[int, bool]]]) -> PlayerState:
    """A game mirror's view of a player's zones: engine card index -> (card id, face down) per zone;
    card ids are the index + 100, so a test can tell them apart."""
    state = PlayerState(player_id=7)
    for zone, cards in zones.items():
        found = state.zone(zone)
        for index, face_down in cards:
            found.put(CardState(index + 100, name=engine.config.cards[index].name, face_down=face_down), -1)
    return state


def test_a_judge_lays_out_the_table_the_engine_describes(legal: str) -> None:
    """Placed face down in its slot's column, flipped at the reveal, into the graveyard when used (before
    a new card takes its slot); cards already in place, still in the library or unnamed in the mirror get
    no command."""
    facts = check_cod(legal).facts
    assert facts is not None
    engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=1)
    engine.apply(rules.StartGame(player=None))
    hand = list(engine.seats[0].hand)
    cheap = next(i for i in hand if facts[i].is_creature and facts[i].mana_value <= 3)
    engine.apply(rules.PlaceFaceDown(player=1, card=cheap, slot=2))

    in_hand = mirrored(engine, {"hand": [(i, False) for i in hand]})
    assert described(table_moves(card_places(engine, 1), in_hand)) == [
        ("move", "hand", cheap + 100, "table", 6, 0, True)
    ]
    placed = mirrored(engine, {"hand": [(i, False) for i in hand if i != cheap], "table": [(cheap, True)]})
    assert table_moves(card_places(engine, 1), placed) == []
    assert table_moves(card_places(engine, 1), PlayerState(player_id=7)) == []  # all in the library
    unnamed = mirrored(engine, {"hand": [(i, False) for i in hand]})
    for card in unnamed.zone("hand").cards:
        card.name = ""
    assert table_moves(card_places(engine, 1), unnamed) == []

    for player in (1, 2):
        engine.apply(rules.SetupDone(player=player))
    assert described(table_moves(card_places(engine, 1), placed)) == [("flip", "table", cheap + 100, False)]

    revealed = mirrored(engine, {"hand": [(i, False) for i in hand if i != cheap], "table": [(cheap, False)]})
    # As if a summon sacrificed it: the new creature takes its slot, the old one goes to the used pile.
    seat = engine.seats[0]
    big = next(i for i in seat.hand if facts[i].is_creature)
    seat.hand.remove(big)
    seat.creatures[2] = big
    seat.used.append(cheap)
    assert described(table_moves(card_places(engine, 1), revealed)) == [
        ("move", "table", cheap + 100, "grave", 0, 0, False),  # first: its slot is free for the new one
        ("move", "hand", big + 100, "table", 6, 0, False),
    ]


def test_board_of_and_card_places_agree(legal: str) -> None:
    """The rebuilt game's instructions and the judge's layout come from one description."""
    facts = check_cod(legal).facts
    assert facts is not None
    engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=3)
    engine.apply(rules.StartGame(player=None))
    cards = engine.config.cards
    cheap = next(i for i in engine.seats[1].hand if cards[i].is_creature and cards[i].mana_value <= 3)
    engine.apply(rules.PlaceFaceDown(player=2, card=cheap, slot=0))
    places = card_places(engine, 2)
    board = board_of(engine, 2)
    assert sorted(name for zone in board.values() for name in zone) == sorted(name for name, _ in places)
    where = {("face down" if place.face_down else place.zone, name) for name, place in places}
    assert ("face down", cards[cheap].name) in where


def test_a_judge_attaches_each_aura_and_equipment_to_its_creature() -> None:
    """An aura on the opponent's creature in slot 2 and an equipment on the owner's creature in slot 1 are
    each attached (acting as their owner) to the face-up card under that slot's column; an attachment
    already in place, a creature not laid out yet and a second copy's card are left alone."""
    ours, theirs = PlayerState(player_id=3), PlayerState(player_id=4)
    ours.zone("table").put(CardState(10, name="Grizzly Bears", x=0, y=CREATURE_ROW), -1)
    ours.zone("table").put(CardState(11, name="Pacifism", x=2 * 3, y=2), -1)
    ours.zone("table").put(CardState(12, name="Bonesplitter", x=3 * 3, y=2), -1)
    theirs.zone("table").put(CardState(20, name="Hill Giant", x=0, y=CREATURE_ROW), -1)
    theirs.zone("table").put(CardState(21, name="Gray Ogre", x=GRID_POINTS_PER_CARD * 2, y=CREATURE_ROW), -1)
    tables = {"ann": ours, "bob": theirs}
    wanted = [("ann", "Pacifism", "bob", 2), ("ann", "Bonesplitter", "ann", 0)]

    def attached(commands: dict[int, list[Any]]) -> dict[int, list[tuple[Any, ...]]]:
        out: dict[int, list[tuple[Any, ...]]] = {}
        for seat, wrappers in commands.items():
            for wrapper in wrappers:
                a = wrapper.Extensions[pb.Command_AttachCard.ext]
                out.setdefault(seat, []).append(
                    (a.start_zone, a.card_id, a.target_player_id, a.target_zone, a.target_card_id)
                )
        return out

    assert attached(attach_moves(wanted, tables)) == {
        3: [("table", 11, 4, "table", 21), ("table", 12, 3, "table", 10)]
    }
    pacifism = ours.zone("table").cards[1]
    pacifism.attach_player_id, pacifism.attach_zone, pacifism.attach_card_id = 4, "table", 21
    assert attached(attach_moves(wanted, tables)) == {3: [("table", 12, 3, "table", 10)]}
    # Two copies enchanting two creatures: the one already on its creature stays, the other one moves.
    ours.zone("table").put(CardState(13, name="Pacifism", x=4 * 3, y=2), -1)
    twice = [("ann", "Pacifism", "bob", 0), ("ann", "Pacifism", "bob", 2)]
    assert attached(attach_moves(twice, tables)) == {3: [("table", 13, 4, "table", 20)]}
    theirs.zone("table").cards[0].face_down = True  # not revealed yet: nothing to attach to
    assert attached(attach_moves(twice, tables)) == {}
    assert attach_moves(wanted[:1], {"ann": ours}) == {}  # the enchanted creature's table unknown


def test_attachments_are_the_engine_s_auras_and_equipment(legal: str) -> None:
    facts = check_cod(legal).facts
    assert facts is not None
    engine = rules.CombatEngine(rules.CombatConfig.from_decks((1, 2), (facts, facts)), seed=1)
    engine.apply(rules.StartGame(player=None))
    names = [card.name for card in engine.config.cards]
    aura = names.index("Pacifism")
    engine.seats[0].auras.append((aura, 1, 3))
    assert attachments(engine) == [(1, "Pacifism", 2, 3)]
