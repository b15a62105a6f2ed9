"""Pure parts of the Vortex referee: rendering, private messages, pick parsing, default basics."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.bot.commands import BadArgument
from cockatrice_ext.bot.vortex import (
    default_basics,
    pack_listing,
    parse_pick,
    private_messages,
    render_effects,
)
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import vortex as rules

FOREST = CardFacts("Forest", supertypes=("Basic",), types=("Land",))
MOUNTAIN = CardFacts("Mountain", supertypes=("Basic",), types=("Land",))
BOLT = CardFacts("Lightning Bolt", mana_value=1, colors=("R",), types=("Instant",))
BEARS = CardFacts("Grizzly Bears", mana_value=2, colors=("G",), types=("Creature",), power="2", toughness="2")
OWL = CardFacts("Augury Owl", mana_value=2, colors=("U",), types=("Creature",), power="1", toughness="1")


def started_engine(cards: tuple[CardFacts, ...], seed: int = 3) -> tuple[rules.VortexEngine, list]:
    engine = rules.VortexEngine(rules.VortexConfig(players=(1, 2), cards=cards), seed=seed)
    return engine, engine.apply(rules.StartGame(player=None))


def names(player: object) -> str:
    return {1: "alice", 2: "bob"}.get(player, f"p{player}")  # type: ignore[call-overload]


def test_start_lines_are_public_and_hide_packs() -> None:
    engine, effects = started_engine((FOREST, MOUNTAIN, BOLT, BEARS, OWL) * 5)
    lines = render_effects(effects, engine, names)
    text = " ".join(lines)
    assert "Opening draft, 4 picks each in turn order alice, bob" in text
    assert "Opening turn 1: alice drafts." in text
    assert "alice to pick from 7" in text
    for ref in engine.pack(1):  # a pack's contents never reach the public lines
        assert ref.name not in text


def test_pack_goes_privately_to_the_player_who_must_pick() -> None:
    engine, effects = started_engine((FOREST, MOUNTAIN, BOLT, BEARS, OWL) * 5)
    private = private_messages(effects, engine)
    assert [player for player, _ in private] == [1]
    assert private[0][1].startswith("Your pack: 1. " + engine.pack(1)[0].name)
    pick = engine.apply(rules.Pick(player=1, choice=0))
    private = private_messages(pick, engine)
    assert private[0][0] == 1 and private[0][1].startswith("You picked ")
    assert private[1][0] == 2 and private[1][1].startswith("Your pack: ")
    assert "alice picks a card." in render_effects(pick, engine, names)
    judged = private_messages(pick, engine, judge=True)  # a judge puts the pick into the hand: no word needed
    assert [player for player, _ in judged] == [2] and judged[0][1].startswith("Your pack: ")


def test_how_to_pick_is_said_with_a_players_first_pick_only() -> None:
    """Every draw is a pick: the instruction with each would repeat itself all game long (chat budget)."""
    engine, effects = started_engine((FOREST, MOUNTAIN, BOLT, BEARS, OWL) * 5)
    seen: list[tuple[str, list[str]]] = []
    for _ in range(4):  # alice, bob, alice, bob
        player = engine.whose_turn
        public = [line for line in render_effects(effects, engine, names) if "to pick from" in line]
        private = [text for who, text in private_messages(effects, engine) if who == player]
        seen.append((names(player), public + private))
        effects = engine.apply(rules.Pick(player=player, choice=0))
    for who, lines in seen[:2]:
        assert (
            lines[0] == f"{who} to pick from 7: !pick N (or privately to the referee: !pick N or !pick NAME)."
        ), lines
        assert lines[1].endswith(
            ". In game chat: !pick N (a name there tells the table your card); here, privately: !pick N or"
            " !pick NAME (with two Vortex games add the game's number: !pick N #GAME)."
        ), lines
    for who, lines in seen[2:]:
        assert re.fullmatch(rf"{who} to pick from \d+\.", lines[0]), lines
        assert lines[1].startswith("Your pack: 1. ") and "!pick" not in lines[1], lines


def test_failed_pick_and_mulligan_lines() -> None:
    engine, _ = started_engine((FOREST,) * 21)
    while engine.phase == "opening":
        engine.apply(rules.Pick(player=engine.whose_turn, choice=0))
    engine.apply(rules.ChooseBasics(player=1, names=("Forest",) * 3))
    engine.apply(rules.ChooseBasics(player=2, names=("Forest",) * 3))
    mulligan = engine.apply(rules.PackMulligan(player=1))
    lines = " ".join(render_effects(mulligan, engine, names))
    assert "alice mulligans their pack: Forest, Forest" in lines and "replenishes to 5" in lines
    failed = engine.apply(rules.Draw(player=1))
    lines = " ".join(render_effects(failed, engine, names))
    assert "alice has nothing to pick: the stack is countered and the turn ends." in lines
    assert "alice loses 1 life." in lines
    assert "Turn 2: bob." in lines


def test_parse_pick_counts_from_one() -> None:
    assert parse_pick("1") == 0
    assert parse_pick(" 7 ") == 6
    assert parse_pick("Fire // Ice") == "Fire // Ice"
    with pytest.raises(BadArgument):
        parse_pick("0")


def test_a_bad_pick_says_what_may_be_picked_without_naming_the_pack() -> None:
    """Smoke test: "!pick 9" with a pack of 7 answered "your pack has no such card". The answer goes to
    game chat, so it gives the pack's numbers (its size is public) and names none of its cards."""
    from cockatrice_ext.bot.vortex import VortexReferee
    from cockatrice_ext.formats.base import RulesError

    engine, _ = started_engine((FOREST, MOUNTAIN, BOLT, BEARS, OWL) * 5)
    referee = object.__new__(VortexReferee)  # explain reads only the refusal: nothing runs
    pack = {ref.name for ref in engine.pack(1)}
    for choice, said in ((parse_pick("9"), "no card 9"), (parse_pick("Black Lotus"), "no such card")):
        with pytest.raises(RulesError) as refused:
            engine.apply(rules.Pick(player=1, choice=choice))
        answer = referee.explain(refused.value)
        assert answer == (
            f"your pack has {said}: pick 1-7, or a card's name from your pack, best privately to the referee"
            " (!pack lists it)"
        )
        assert not any(name in answer for name in pack)
    other = RulesError("no_such_card", card="Forest")  # a card effect's reference: no pack involved
    assert referee.explain(other) == "your pack has no such card"


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_parse_pick_never_crashes(text: str) -> None:
    try:
        result = parse_pick(text)
    except BadArgument:
        return
    assert (isinstance(result, int) and result >= 0) or isinstance(result, str)


def test_default_basics_follow_the_picked_colours() -> None:
    engine, _ = started_engine((BOLT, BEARS, BEARS, BEARS, FOREST, MOUNTAIN, OWL) * 3)
    engine.players[1].owned = [i for i, c in enumerate(engine.config.cards) if c.name == "Grizzly Bears"][:2]
    engine.players[1].owned.append(
        next(i for i, c in enumerate(engine.config.cards) if c.name == "Lightning Bolt")
    )
    assert default_basics(engine, 1) == ("Forest", "Mountain", "Forest")
    assert default_basics(engine, 2) == ("Forest", "Forest", "Forest")  # nothing coloured picked


def test_pack_listing_numbers() -> None:
    refs = (rules.CardRef(4, "Shock"), rules.CardRef(9, "Forest"))
    assert pack_listing(refs) == "1. Shock; 2. Forest"


def test_resume_rebuilds_the_table_from_the_journal(tmp_path: Path) -> None:
    import asyncio
    from dataclasses import asdict

    from cockatrice_ext.bot import formats
    from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
    from cockatrice_ext.journal import Journal, Table

    cards = (FOREST, MOUNTAIN, BOLT, BEARS, OWL) * 5
    journal = Journal(tmp_path / "j.sqlite3")
    key = "ws://x:game:7"
    engine = rules.VortexEngine(rules.VortexConfig(players=(1, 2), cards=cards), seed=5)
    meta = {
        "format": "vortex",
        "options": asdict(VortexOptions(seed=5)),
        "game_names": [c.name for c in cards],
        "names": {"1": "alice", "2": "bob"},
    }
    table = Table.create(journal, key, engine, meta=meta)
    table.apply(rules.StartGame(player=None))
    table.apply(rules.Pick(player=1, choice=2))
    bot = SimpleNamespace(journal=journal, server_key="ws://x", client=None)
    referee = asyncio.run(formats.RESUMERS.get("vortex")(bot, 7, 0, key))  # type: ignore[arg-type]
    assert isinstance(referee, VortexReferee)
    assert referee.engine.snapshot() == engine.snapshot()
    assert referee.block.game_names[0] == "Forest"
    assert referee.engine_names == {1: "alice", 2: "bob"} and referee.live
    journal.close()


@pytest.mark.parametrize(
    ("names", "start", "refusal"),
    [
        ({"1": "alice"}, True, "no name journaled for player(s) 2"),
        ({"1": "alice", "2": "bob"}, False, "never started"),
    ],
)
def test_a_rebuild_reports_what_the_journal_cannot_say(
    tmp_path: Path, names: dict[str, str], start: bool, refusal: str
) -> None:
    """``!resume`` never guesses: a journal without every player's name, or a game that never began, is
    refused with the reason before any game is opened (the stub bot has no server to open one on)."""
    import asyncio
    from dataclasses import asdict

    from cockatrice_ext.bot.commands import NotAllowed
    from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
    from cockatrice_ext.journal import Journal, JournalError, Table

    cards = (FOREST, MOUNTAIN, BOLT, BEARS, OWL) * 5
    journal = Journal(tmp_path / "j.sqlite3")
    engine = rules.VortexEngine(rules.VortexConfig(players=(1, 2), cards=cards), seed=5)
    meta = {"format": "vortex", "options": asdict(VortexOptions()), "game_names": [c.name for c in cards]}
    table = Table.create(journal, "k", engine, meta={**meta, "names": names})
    if start:
        table.apply(rules.StartGame(player=None))
    bot = SimpleNamespace(journal=journal)
    with pytest.raises((JournalError, NotAllowed), match=re.escape(refusal)):
        asyncio.run(VortexReferee.rebuild(bot, 0, "k", "alice"))  # type: ignore[arg-type]
    journal.close()


@pytest.mark.parametrize("destination", ["shoe_bottom", "graveyard", "exile"])
def test_no_public_line_names_a_hidden_card_when_a_pack_overflows(destination: str) -> None:
    """Seed 001: the shoe and the packs are hidden zones. A pack over seven loses a random card; with the
    ``overflow_to=shoe_bottom`` house rule the line named that card going into the hidden shoe (the table
    learned a card of the shoe, and one of that player's pack). Every card of a hidden zone (the shoe, a pack,
    the passed pack, a hand) stays unnamed in the public lines; one going to a graveyard or exile is named."""
    pool = tuple(CardFacts(f"Card {n:02d}", types=("Creature",), power="1", toughness="1") for n in range(40))
    engine = rules.VortexEngine(
        rules.VortexConfig(players=(1, 2), cards=pool, overflow_to=destination), seed=5
    )
    said: list[str] = []
    effects = engine.apply(rules.StartGame(player=None))
    while engine.phase == "opening":
        said += render_effects(effects, engine, names)
        effects = engine.apply(rules.Pick(player=engine.whose_turn, choice=0))
    said += render_effects(effects, engine, names)
    for player in (1, 2):
        said += render_effects(
            engine.apply(rules.ChooseBasics(player=player, names=("Forest",) * 3)), engine, names
        )
    overflowed: list[rules.PackOverflow] = []
    for owned in list(engine.players[1].owned)[:3]:  # back into a full pack: one card over seven each time
        effects = engine.apply(rules.PutInPack(player=1, card=owned))
        overflowed += [e for e in effects if isinstance(e, rules.PackOverflow)]
        said += render_effects(effects, engine, names)
    assert overflowed and all(e.destination == destination for e in overflowed)
    text = " ".join(said)
    public = set(engine.exile) | {card for state in engine.players.values() for card in state.graveyard}
    hidden = {pool[card].name for card in range(len(pool)) if card not in public}
    assert not [name for name in hidden if name in text], text
    if destination == "shoe_bottom":
        assert "alice's pack is too big: 1 card of it, at random, goes to the bottom of the shoe." in text
    else:
        assert all(e.card.name in text for e in overflowed), text
