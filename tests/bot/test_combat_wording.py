"""Magic Combat Rules in words (no server), as smoke test 2 found them wrong: `!state` unknown in Combat
though Auction and Vortex use it, `!score` after the end not saying the game was over, and `!dies` on a
creature the referee itself had put in the used pile answered "that card is not in play"."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from test_combat_fights_render import take

from cockatrice_ext.bot.combat import CombatReferee, DeckVerdict, render_effects
from cockatrice_ext.bot.combat_commands import own_permanent
from cockatrice_ext.bot.commands import CommandSet
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import RulesError

ALICE, ZOE = 1, 2
NAMES = {ALICE: "alice", ZOE: "zoe"}


def game(verdict: DeckVerdict, alice: str, zoe: str, **options: Any) -> rules.CombatEngine:
    """Both players with the bundled deck and its judged card kinds; ``alice``'s creature in slot 1 against
    ``zoe``'s, round 1, alice's turn, both ready for the fights."""
    assert verdict.facts is not None
    config = rules.CombatConfig.from_decks(
        (ALICE, ZOE), (verdict.facts, verdict.facts), texts=(verdict.texts, verdict.texts), **options
    )
    engine = rules.CombatEngine(config, seed=1)
    engine.apply(rules.StartGame(player=None))
    for player, name in ((ALICE, alice), (ZOE, zoe)):
        take(engine, player, name)
        engine.apply(rules.PlaceFaceDown(player=player, card=name, slot=0))
    engine.apply(rules.SetupDone(player=ALICE))
    engine.apply(rules.SetupDone(player=ZOE))
    for action in (rules.BeginCombat(ALICE), rules.CombatReady(ALICE), rules.CombatReady(ZOE)):
        engine.apply(action)
    return engine


def settled_fight(engine: rules.CombatEngine) -> list[Any]:
    engine.apply(rules.DeclareFight(player=ALICE, slot=0))
    return engine.apply(rules.ResolveFight(player=ALICE))


def referee_for(engine: rules.CombatEngine) -> CombatReferee:
    """A referee of ``engine`` without a server: enough for its refusals, commands and score line."""
    referee = CombatReferee.__new__(CombatReferee)
    referee.engine_names = dict(NAMES)
    referee.shown_names = {}
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.commands = CommandSet(referee)
    return referee


def answers(referee: CombatReferee, text: str, sender: str = "alice") -> list[str]:
    """What the referee answers ``sender``'s game-chat line with (a line it does not take: none)."""
    replies: list[str] = []

    async def reply(line: str) -> None:
        replies.append(line)

    ctx = Context(bot=None, scope="game", sender=sender, reply_hook=reply)  # type: ignore[arg-type]
    handled = asyncio.run(referee.handle_command(ctx, text))
    return replies if handled else []


def refusal(engine: rules.CombatEngine, action: Any) -> str:
    with pytest.raises(RulesError) as info:
        engine.apply(action)
    return referee_for(engine).explain(info.value)


def to_the_end(engine: rules.CombatEngine) -> list[Any]:
    """Play the fights' end and every later turn with no fight (cleanups discard the first card)."""
    effects: list[Any] = []
    while not engine.is_over():
        active = engine.whose_turn
        assert active is not None
        if engine.step == "cleanup":
            effects += engine.apply(rules.Discard(player=active, card=engine.seats[engine.active].hand[0]))
        elif engine.step == "main":
            effects += engine.apply(rules.BeginCombat(player=active))
        elif engine.step == "combat":
            for player in (ALICE, ZOE):
                effects += engine.apply(rules.CombatReady(player=player))
        else:
            effects += engine.apply(rules.EndCombat(player=active))
    return effects


def test_state_is_the_score_as_in_auction_and_vortex(verdict: DeckVerdict) -> None:
    """Seen: "quinn: unknown command !state; !help lists the commands" (no suggestion: !score is far)."""
    referee = referee_for(game(verdict, "Centaur Courser", "Elvish Warrior"))
    score = answers(referee, "!score")
    assert score == [
        "Round 1/10, spells up to 1, alice's turn (fights). Points: alice 0, zoe 0. Life: alice 20, zoe 20."
    ]
    assert answers(referee, "!state", sender="zoe") == score
    assert referee.commands.find("state", "game") is referee.commands.find("score", "game")


def test_score_after_the_end_says_the_game_is_over_and_the_result(verdict: DeckVerdict) -> None:
    """Seen: after round 10 `!score` said "Round 10/10, spells up to 10. Points: quinn 2, zoe 32. ...", not
    that the game was over nor who won."""
    engine = game(verdict, "Centaur Courser", "Elvish Warrior", rounds=2)
    settled_fight(engine)  # zoe's Elvish Warrior dies: alice's Courser scores in every later combat
    ending = to_the_end(engine)
    referee = referee_for(engine)
    over = [
        line for line in render_effects(ending, engine, referee.player_name) if line.startswith("Game over")
    ]
    assert over == ["Game over after round 2: alice wins, 2-0."]
    expected = "Game over after round 2: alice wins, 2-0. Points: alice 2, zoe 0. Life: alice 20, zoe 20."
    assert answers(referee, "!score") == answers(referee, "!state") == [expected]
    assert refusal(engine, rules.EndCombat(player=ALICE)) == (
        "the game is over after round 2: alice wins, 2-0"
    )
    assert referee.explain(RulesError("game_over")) == "the game is over after round 2: alice wins, 2-0"


def test_dies_on_a_creature_the_referee_put_in_the_used_pile_says_so(verdict: DeckVerdict) -> None:
    """Seen: after a fight the referee settled, `!dies Savannah Lions` got "that card is not in play"."""
    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    settled_fight(engine)  # "Elvish Warrior dies (to zoe's used pile)"
    card = own_permanent(engine, ZOE, "Elvish Warrior")
    assert refusal(engine, rules.LeavePlay(player=ZOE, card=card)) == (
        "the referee already put Elvish Warrior in your used pile after the fight in slot 1"
    )
    assert refusal(engine, rules.LeavePlay(player=ALICE, card="elvish warrior")) == (
        "the referee already put Elvish Warrior in zoe's used pile after the fight in slot 1"
    )
    assert refusal(engine, rules.LeavePlay(player=ZOE, card="Serra Angel", to="hand")) == (
        "that card is not in play"  # a card no fight settled: as before
    )


def test_dies_on_a_settled_death_leaves_the_opponent_s_copy_in_play(verdict: DeckVerdict) -> None:
    """Both decks hold the card: zoe's Warrior died in the fight, alice's is in play in slot 2. zoe's
    `!dies Elvish Warrior` means her own, and must not take alice's."""
    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    alices = next(
        i
        for i, c in enumerate(engine.config.cards)
        if c.name == "Elvish Warrior" and engine.config.owners[i] == 0
    )
    settled_fight(engine)
    engine.seats[0].creatures[1] = alices  # test setup: alice's copy in play
    for zone in (engine.seats[0].draw_pile, engine.seats[0].hand, engine.seats[0].used):
        if alices in zone:
            zone.remove(alices)
    before = engine.snapshot()
    said = refusal(engine, rules.LeavePlay(player=ZOE, card=own_permanent(engine, ZOE, "Elvish Warrior")))
    assert said == "the referee already put Elvish Warrior in your used pile after the fight in slot 1"
    assert engine.snapshot() == before and engine.seats[0].creatures[1] == alices


def test_a_settled_death_is_forgotten_once_the_card_leaves_the_used_pile(verdict: DeckVerdict) -> None:
    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    settled_fight(engine)
    assert engine.snapshot()["settled_deaths"] != []
    warrior = engine.settled_death_of(ZOE, "Elvish Warrior")
    assert warrior is not None and engine.settled_death_of(ALICE, "Elvish Warrior") is None
    engine.seats[1].draw_pile.clear()  # the next draw reshuffles the used piles into the draw piles
    engine.apply(rules.Draw(player=ZOE, count=1))
    assert (
        engine.settled_death_of(ZOE, "Elvish Warrior") is None and engine.snapshot()["settled_deaths"] == []
    )


class Heard(CombatReferee):
    """The referee with its game chat and private messages kept; its rules act at once (no seats)."""

    public: list[str]
    private: list[tuple[str, str]]

    async def act(self, ctx: Context, make: Any) -> None:
        self.apply(make(ALICE))

    def apply(self, action: Any) -> list[Any]:
        return self.engine.apply(action)

    async def say(self, text: Any, **_: Any) -> None:
        self.public.append(str(text))

    async def tell(self, user: str, text: Any, **_: Any) -> None:
        self.private.append((user, str(text)))


def test_a_sacrifice_refusal_telling_a_hand_cards_mana_value_goes_to_the_player_alone(
    verdict: DeckVerdict,
) -> None:
    """Seen: "ivy: a creature of mana value 4 needs 1 sacrifice(s)" in the game's chat; with open deck lists
    Hill Giant was the bundled deck's only mana-value-4 creature: the table learned the hand card."""
    engine = game(verdict, "Centaur Courser", "Elvish Warrior")
    referee = Heard.__new__(Heard)
    referee.engine_names = dict(NAMES)
    referee.shown_names = {}
    referee.table = SimpleNamespace(engine=engine)  # type: ignore[assignment]
    referee.public, referee.private = [], []
    ctx = Context(bot=None, scope="game", sender="alice")  # type: ignore[arg-type]

    def summon(_player: Any) -> Any:
        raise RulesError("wrong_sacrifices", mana_value=4, needed=1)

    asyncio.run(referee.act_privately(ctx, summon))
    assert referee.public == ["alice: refused (the reason was sent to you privately)."]
    assert referee.private == [("alice", "Refused: a creature of mana value 4 needs 1 sacrifice(s)")]


def test_the_game_over_score_puts_the_winners_points_first(verdict: DeckVerdict) -> None:
    """Seen: "Game over after round 3: jack wins, 3-9" (seat order: jack had 9)."""
    from cockatrice_ext.bot.combat import game_result

    assert game_result(ZOE, [3, 9], 3, NAMES.__getitem__) == "after round 3: zoe wins, 9-3"
    assert game_result(None, [4, 4], 10, NAMES.__getitem__) == "after round 10: a draw, 4-4"
