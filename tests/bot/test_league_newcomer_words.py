"""A newcomer's re-check of the league chat (real Servatrice, shipped limits).

1. Market: nothing said what a card traded in is worth: ``!market`` and ``!help buy`` now do, from the
   league's options (``cworth`` ... and the colour bonus of ``MarketDraftEngine.worth``).
2. Market: the draft-end pool listing, held by the chat budget, arrived after a booster and still listed the
   pool as it was when queued: it is rendered when it leaves, its pieces from its heading's rendering.
3. AutoBattler: a winner read "Treasures: 0 (-1, lost in the game)" as a loss: the line says that no Treasure
   token was on their battlefield at the game's end; the game's start line says how a result is reported.
4. AutoBattler: ``!buy`` names this format's nearest command.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections import Counter
from typing import Any

from cockatrice_ext.bot.chat import client_scheduler
from cockatrice_ext.bot.league_chat import PRIVATE_LIMIT, PoolListing
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_views import render_effects
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Journal, Table
from tests.bot.test_chat_budget import FakeClient, run_simulated
from tests.bot.test_league_bot import _ChattyBot, autobattler_engine, block_of, league_desk, say
from tests.bot.test_market_numbers import desk, paying


class _QueueBot(_ChattyBot):
    """Keeps private lines as queued (a renderer stays unrendered), as the chat scheduler holds them."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal)
        self.queued: list[tuple[str, Any, bool]] = []

    async def tell(self, user: str, text: Any, *, raw: bool = False) -> None:
        self.queued.append((user, text, raw))


def _rendered(line: Any) -> str | None:
    return line() if callable(line) else line


def _buy_first_card(engine: mk.MarketDraftEngine) -> tuple[str, int]:
    """The buyer in turn buys the market's first card, paying just enough; who bought what."""
    buyer = engine.whose_turn()
    assert buyer is not None
    card = engine.market[0]
    pool = engine.pool(buyer)
    engine.apply(mk.Buy(player=buyer, card=card, pay=tuple(pool[n - 1] for n in paying(engine, buyer, card))))
    assert card in engine.pool(buyer)
    return buyer, card


# -- 1. worth ---------------------------------------------------------------------------------------------


def test_the_market_answer_says_what_a_card_traded_in_is_worth_from_the_options() -> None:
    league, bot, engine = desk()
    engine.config = dataclasses.replace(engine.config, uncommon_worth=7)  # an option (uworth=7) in force
    buyer, card = _buy_first_card(engine)
    said = say(league, bot, buyer, "!market")
    text = " ".join(said)
    assert "Worth of a card you trade in: commons 1, uncommons 7, rares 14;" in text, text
    assert "+1/+2/+4 (common/uncommon/rare) for each colour it shares with the card you buy" in text
    name = engine.config.cards[card].name
    assert f"{engine.pool(buyer).index(card) + 1}. {name} (uncommon, worth 7)" in text, text
    assert all(len(line) - len(f"{buyer}: ") <= PRIVATE_LIMIT for line in said)


def test_help_buy_and_help_market_say_what_worth_means() -> None:
    league, bot, _engine = desk()
    for topic in ("buy", "market", "!buy"):
        (answer,) = say(league, bot, "al", f"!help {topic}")
        assert "Worth of a card you trade in: commons 1, uncommons 8, rares 14;" in answer, answer
        assert len(answer) <= PRIVATE_LIMIT
    (buy,) = say(league, bot, "al", "!help buy")
    assert buy.startswith("!buy") and "worth the card's cost together" in buy, buy
    (listing,) = say(league, bot, "al", "!help")
    assert "league commands:" in listing  # a bare !help still lists them


def test_the_worth_rule_names_a_mythic_and_a_missing_bonus() -> None:
    from cockatrice_ext.bot.league_views import worth_rule

    _league, _bot, engine = desk()
    engine.config = dataclasses.replace(
        engine.config, mythic_worth=20, common_color_bonus=0, uncommon_color_bonus=3, rare_color_bonus=3
    )
    rule = worth_rule(engine)
    assert "commons 1, uncommons 8, rares 14, mythics 20;" in rule, rule
    assert "+3/+3/+4 (uncommon/rare/mythic) for each colour" in rule, rule


# -- 2. the pool listing ------------------------------------------------------------------------------------


def _queue_desk() -> tuple[LeagueReferee, _QueueBot, mk.MarketDraftEngine]:
    _, _, engine = desk()
    bot = _QueueBot(Journal(":memory:"))
    table = Table.create(bot.journal, "ws://test:league:0:market:2", engine)
    league = LeagueReferee(bot, 0, LeagueOptions(format="market"), block_of(engine), table)  # type: ignore[arg-type]
    return league, bot, engine


def _listing_lines(pieces: list[str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for piece in pieces:
        for line in piece.splitlines():
            number, name = line.split(" ", 1)
            counts[name] += int(number)
    return counts


def test_a_pool_listing_held_by_the_budget_lists_the_pool_as_it_is_when_it_leaves() -> None:
    league, bot, engine = _queue_desk()
    buyer = engine.whose_turn()
    assert buyer is not None
    asyncio.run(league.send_pool(buyer))
    before = len(engine.pool(buyer))
    _buy_first_card(engine)  # the pool changes while the listing waits for the budget
    after = list(engine.pool(buyer))
    assert len(after) != before
    texts = [_rendered(line) for _, line, _ in bot.queued]
    heading, pieces = texts[0], [t for t in texts[1:] if t]
    assert heading == f"Your pool ({len(after)} cards), to paste into the deck editor:", heading
    assert [raw for _, _, raw in bot.queued] == [False] + [True] * (len(texts) - 1)
    assert _listing_lines(pieces) == Counter(league.game_name(c) for c in after)
    assert league.listed_pools[buyer] == after  # what !pool's "what changed" is counted from


def test_through_the_chat_scheduler_the_listing_sent_is_the_pool_when_it_leaves() -> None:
    """The scheduler renders the heading and the raw pieces as they leave; a spare piece says nothing."""
    league, bot, engine = _queue_desk()
    buyer = engine.whose_turn()
    assert buyer is not None

    async def scenario() -> list[str]:
        client = FakeClient()
        chat = client_scheduler(client)
        bot.tell = lambda user, text, *, raw=False: _say(chat, user, text, raw)  # type: ignore[method-assign]
        await league.send_pool(buyer)
        _buy_first_card(engine)  # a buy (or a booster) while the listing waits
        await chat.flush(timeout=600)
        chat.close()
        return client.to(("user", buyer))

    messages = run_simulated(scenario)
    after = engine.pool(buyer)
    assert messages[0] == f"Your pool ({len(after)} cards), to paste into the deck editor:", messages
    assert _listing_lines(messages[1:]) == Counter(league.game_name(c) for c in after)


async def _say(chat: Any, user: str, text: Any, raw: bool) -> None:
    chat.say(("user", user), text, raw=raw)


def test_a_listing_in_several_pieces_comes_from_its_headings_rendering() -> None:
    league, bot, engine = _queue_desk()
    league.game_name = lambda c: f"A card with a long name for the test number {c:04d}"  # type: ignore[method-assign]
    buyer = engine.whose_turn()
    assert buyer is not None
    asyncio.run(league.send_pool(buyer))
    heading = _rendered(bot.queued[0][1])  # the heading leaves first
    shown = int(re.search(r"\((\d+) cards\)", heading or "").group(1))  # type: ignore[union-attr]
    _buy_first_card(engine)  # then the pool changes before the pieces leave
    pieces = [t for t in (_rendered(line) for _, line, _ in bot.queued[1:]) if t]
    assert len(pieces) >= 2 and all(len(p) <= PRIVATE_LIMIT for p in pieces)
    assert sum(_listing_lines(pieces).values()) == shown  # the pieces agree with the heading sent


def test_a_listing_that_outgrew_its_pieces_says_where_the_rest_is() -> None:
    league, _bot, engine = _queue_desk()
    league.game_name = lambda c: f"A card with a long name for the test number {c:04d}"  # type: ignore[method-assign]
    listing = PoolListing(league, "al")
    listing.slots = 1
    assert listing.heading() is not None
    last = listing.piece(0)()
    assert last is not None and len(last) <= PRIVATE_LIMIT
    assert re.search(r"\(and \d+ more lines: !pool lists them\)$", last), last[-80:]
    listed = len(last.splitlines()) - 1
    more = int(re.search(r"and (\d+) more", last).group(1))  # type: ignore[union-attr]
    assert listed + more == len(set(engine.pool("al")))


# -- 3. AutoBattler words -----------------------------------------------------------------------------------


def test_treasures_gone_at_a_games_end_are_said_as_tokens_not_a_loss() -> None:
    engine = autobattler_engine()
    out = render_effects([ab.TreasuresChanged("a", 0, -1, "kept")], engine)
    (line,) = [str(line) for line in out.private["a"]]
    assert line == "Treasures: 0 (-1: no Treasure token on your battlefield at the game's end).", line
    out = render_effects([ab.TreasuresChanged("a", 2, -1, "kept")], engine)
    assert [str(x) for x in out.private["a"]] == [
        "Treasures: 2 (-1: 2 Treasure tokens on your battlefield at the game's end)."
    ]
    out = render_effects([ab.TreasuresChanged("a", 3, 1, "kept")], engine)
    assert [str(x) for x in out.private["a"]] == ["Treasures: 3 (+1, kept from the game)."]


def test_the_mini_games_start_line_says_how_its_result_is_reported() -> None:
    engine = autobattler_engine()
    effects: list[Any] = []
    for player in ("a", "b", "c", "d"):
        effects += engine.apply(ab.EndDraft(player=player))
    setup = next(e for e in effects if isinstance(e, ab.MatchSetup))
    league, _bot = league_desk(LeagueOptions(format="autobattler"), autobattler_engine())
    asyncio.run(league.perform([setup]))
    note = league.setup_notes[(setup.round, frozenset(setup.players))]
    assert "Result: a life at 0 (both at 0: a draw), or both tell me !result win|loss|draw privately." in note
    long_names = "x" * 20 + " " + note.split(" ", 1)[1]  # a 20-letter name chooses or plays first
    assert len(f"Both decks are legal: starting. {long_names} Good luck!") <= 300  # a game line's budget


# -- 4. the other format's command ---------------------------------------------------------------------------


def test_buy_in_an_autobattler_league_names_swap() -> None:
    league, bot = league_desk(LeagueOptions(format="autobattler"), autobattler_engine())
    (answer,) = say(league, bot, "a", "!buy 1 with 2")
    assert "(!buy is for Market Draft leagues; here: !swap)" in answer, answer
    (answer,) = say(league, bot, "a", "!market")
    assert "; here: !shop)" in answer, answer
