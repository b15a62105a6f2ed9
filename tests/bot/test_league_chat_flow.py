"""League chat under the shipped chat budget: answers never wait behind pool listings, lines stating the
league's state are true when they leave, and a player back from offline hears what is true now.

Seen in the smoke test of two leagues on one connection (a 4-player Market Draft and a 4-player
AutoBattler): every player's whole pool (45-53 lines) went to chat at every draft end and market close,
web-page players too, and a player's answers queued behind their own listing: ``!standings`` took 93 s,
``!buy`` 60 s; ``Noted: ann won. Waiting for cat to confirm.`` arrived after the room said "ann beats cat",
and bob was asked to confirm a draw 11 s after "League over!". fay, back from a dropped connection, was told
to join a game she had already lost by forfeit, and dan's replay listed packs already picked from.

These tests run the league's referee on a simulated clock (:mod:`tests.bot.test_chat_budget`), its chat
through :func:`client_scheduler` with the shipped limits, as the bot builds it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from league_game_stand_in import games_open_at_once as open_at_once

from cockatrice_ext.bot.chat import ChatScheduler, Tagged, client_scheduler
from cockatrice_ext.bot.league_away import FORFEIT_GRACE
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_views import render_effects
from cockatrice_ext.bot.referee import Context
from cockatrice_ext.cards.model import CardFacts
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import market as mk
from cockatrice_ext.journal import Journal, Table
from tests.bot.test_chat_budget import ROUND_TRIP, WINDOW, FakeClient, now, run_simulated
from tests.bot.test_league_bot import (
    COLORS,
    _ChattyBot,
    _FakeBot,
    _Pages,
    autobattler_engine,
    block_of,
    say,
)
from tests.bot.test_league_stand_in import market_referee

PLAYERS = ("ann", "bob", "cat", "dan")
STANDINGS = "Round 1 of 2: "
"""How the answer to ``!standings`` begins while round 1 is played."""


def long_named_cards(players: int, rounds: int) -> tuple[CardFacts, ...]:
    """A Market Draft block whose names are as long as real cards' (a pool listing of 45 is ~1,200
    characters, like the field's)."""
    need = mk.required_counts(players, rounds)
    return tuple(
        CardFacts(
            name=f"{tier.title()} Sporeweb Weaver {i}",
            mana_value=1,
            colors=(COLORS[i % 5],),
            types=("Creature",),
            rarity=tier,
        )
        for tier in ("common", "uncommon", "rare")
        for i in range(need[tier] + 3)
    )


@pytest.fixture(autouse=True)
def games_open_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    open_at_once(monkeypatch)


class _ScheduledBot(_FakeBot):
    """A fake bot whose chat goes through a real :class:`ChatScheduler` (the shipped limits) to a fake
    server that records when each message was handed to it."""

    def __init__(self, journal: Journal, client: FakeClient) -> None:
        super().__init__(journal)
        self.server = client
        self.chat: ChatScheduler = client_scheduler(client)  # type: ignore[assignment]

    async def room_say(self, room_id: int, text: Any) -> None:
        self.chat.say(("room", room_id), text)

    async def tell(self, user: str, text: Any, *, raw: bool = False) -> None:
        self.chat.say(("user", user), text, raw=raw)


def market_league(bot: Any, players: tuple[str, ...] = PLAYERS, rounds: int = 2) -> LeagueReferee:
    engine = mk.MarketDraftEngine(
        mk.MarketConfig(players=players, rounds=rounds, cards=long_named_cards(len(players), rounds)), seed=5
    )
    return market_referee(bot, engine, LeagueOptions(format="market", rounds=rounds))


def draft_to_the_last_pick(league: LeagueReferee) -> list[Any]:
    """The league starts and everyone picks each pack's first card until one pick is left; the league
    performs none of it (the chat stays empty). Returns the last pick's action."""
    engine = league.engine
    if engine.phase == "setup":
        league.table.apply(core.Start(player=None))
    members = engine.league.members
    picks = 45 * len(members)  # three packs of 15 each
    while True:
        for player in members:
            if not engine.pack(player):
                continue
            if picks - sum(len(engine.pool(p)) for p in members) == 1:
                return [core.Pick(player=player, card=engine.pack(player)[0])]
            league.table.apply(core.Pick(player=player, card=engine.pack(player)[0]))


async def chat_command(league: LeagueReferee, bot: Any, sender: str, text: str) -> None:
    """``sender``'s private ``text`` as typed in chat (no page's reply hook)."""
    ctx = Context(bot=bot, scope="private", sender=sender)
    assert await league.handle_command(ctx, text)


def sent_to(client: FakeClient, user: str) -> list[tuple[float, str]]:
    return [(at, message) for at, d, message in client.sent if d == ("user", user)]


def test_answers_leave_within_a_window_while_every_pool_listing_waits() -> None:
    """Field: ``!standings`` 93 s, ``!buy`` 60 s, answers queued behind the player's own pool listing."""

    async def scenario() -> tuple[list[float], list[int]]:
        client = FakeClient()
        bot = _ScheduledBot(Journal(":memory:"), client)
        league = market_league(bot)
        league.chat_players.update(PLAYERS)  # chat-only players: their pools come listed in chat
        last = draft_to_the_last_pick(league)
        await league.perform(league.table.apply(last[0]))  # the draft ends: four pools listed
        waits, listings_waiting = [], []
        for n, when in enumerate((25.0, 40.0, 55.0)):
            await asyncio.sleep(max(0.0, when - now()))
            player, asked = PLAYERS[n], now()
            listings_waiting.append(sum(bot.chat.pending(("user", p)) for p in PLAYERS))
            await chat_command(league, bot, player, "!standings")
            answers: list[float] = []
            while not answers and now() < asked + 300:
                await asyncio.sleep(0.5)
                answers = [at for at, m in sent_to(client, player) if m.startswith(STANDINGS) and at >= asked]
            waits.append(answers[0] - asked if answers else float("inf"))
        await bot.chat.flush(timeout=600)
        bot.chat.close()
        return waits, listings_waiting

    waits, listings_waiting = run_simulated(scenario)
    assert max(waits) <= WINDOW + ROUND_TRIP, waits
    assert all(listings_waiting), listings_waiting  # the pools were still being listed when they asked


def test_a_result_decided_before_its_lines_leave_is_not_told_as_waiting() -> None:
    """Field: "Noted: ann won. Waiting for cat to confirm." after the room said "ann beats cat"; bob asked
    to confirm a draw after "League over!"."""

    async def scenario() -> tuple[list[str], list[str], str]:
        client = FakeClient()
        bot = _ScheduledBot(Journal(":memory:"), client)
        league = market_league(bot)
        league.chat_players.update(PLAYERS)
        await league.perform(league.table.apply(draft_to_the_last_pick(league)[0]))
        opponent = league.engine.league.match_of("ann").opponent("ann")
        await chat_command(league, bot, "ann", "!result win")  # queued behind the room's and others' lines
        await chat_command(league, bot, opponent, "!result loss")  # decided before they leave
        await bot.chat.flush(timeout=600)
        bot.chat.close()
        return [m for _, m in sent_to(client, "ann")], [m for _, m in sent_to(client, opponent)], opponent

    to_ann, to_opponent, opponent = run_simulated(scenario)
    assert not any("Confirm with !result" in m for m in to_opponent), to_opponent
    assert not any("Waiting for" in m for m in to_ann), to_ann
    assert any(f"Noted: ann won. The result is in: ann beats {opponent}." in m for m in to_ann), to_ann


def test_pools_go_whole_once_to_chat_players_and_never_to_page_players() -> None:
    """Field: every pool listed in chat at every draft end and market close, web-page players too."""
    bot = _ChattyBot(Journal(":memory:"))
    bot.league_pages = _Pages()  # type: ignore[assignment]
    league = market_league(bot, players=("al", "bo"))
    engine = league.engine
    league.page_players.add("al")  # al's page is open
    league.chat_players.add("bo")  # bo plays from chat
    asyncio.run(league.perform(league.table.apply(draft_to_the_last_pick(league)[0])))
    listed = [line for line in bot.said if "to paste into the deck editor" in line]
    assert listed == ["bo: Your pool (45 cards), to paste into the deck editor:"], listed
    assert not any(line.startswith("al: 1 ") for line in bot.said)  # no deck list to al
    asyncio.run(league.perform(league.table.apply(core.ReportResult(player=None, winner="al"))))
    buyer = engine.whose_turn()
    cards = engine.config.cards
    uncommon = next(c for c in engine.market if cards[c].rarity == "uncommon")
    pay: list[int] = []
    for paid in engine.pool(buyer):  # trade in cards until their worth meets the cost, no more
        if sum(engine.worth(c, uncommon) for c in pay) >= engine.cost(uncommon):
            break
        pay.append(paid)
    action = mk.Buy(player=buyer, card=uncommon, pay=tuple(pay))
    bot.said.clear()
    effects = league.table.apply(action)
    while engine.phase == "market":
        effects += league.table.apply(mk.Pass(player=engine.whose_turn()))
    asyncio.run(league.perform(effects))  # the market closes: bo's pool changed if bo bought
    assert not any("to paste into the deck editor" in line for line in bot.said), bot.said
    changed = [line for line in bot.said if line.startswith("bo: Your pool: ")]
    assert len(changed) == 1 and "!pool lists them all. New: " in changed[0], bot.said  # the booster
    if buyer == "bo":
        assert cards[uncommon].name in changed[0] and "; gone: " in changed[0]
    assert not any(line.startswith("al: Your pool") for line in bot.said)


async def bo_gone_from_a_started_league() -> tuple[FakeClient, _ScheduledBot, LeagueReferee]:
    """A one-round Market Draft of al and bo on chat, started, its first lines sent, and bo's connection
    just dropped."""
    client = FakeClient()
    bot = _ScheduledBot(Journal(":memory:"), client)
    league = market_league(bot, players=("al", "bo"), rounds=1)
    league.chat_players.update(("al", "bo"))
    await league.perform(league.table.apply(core.Start(player=None)))
    await bot.chat.flush(timeout=600)
    bot.chat.user_left("bo")
    return client, bot, league


def test_a_player_back_from_offline_hears_what_was_decided_and_what_is_true_now() -> None:
    """Field: fay, dropped during a draft, came back to "Round 4: your game vs hal is #9 in this room. Join
    it..." and her deck list, not that she had lost that game by forfeit; dan's replay listed old packs."""

    async def scenario() -> list[str]:
        client, bot, league = await bo_gone_from_a_started_league()
        engine = league.engine  # bo's connection dropped
        for _ in range(3):  # the referee picks for bo; al picks on
            await league.stand_in("bo", "away")
            await league.perform(league.table.apply(core.Pick(player="al", card=engine.pack("al")[0])))
        while engine.phase == "draft":
            if engine.pack("al"):
                await league.perform(league.table.apply(core.Pick(player="al", card=engine.pack("al")[0])))
            if engine.pack("bo"):
                await league.stand_in("bo", "away")
        league.out_of_room.add("bo")
        league.seen["bo"] = 0.0
        await league.forfeit_due(FORFEIT_GRACE + 1)  # al wins by forfeit: the league is over
        client.sent.clear()
        bot.chat.user_back("bo")
        await bot.chat.flush(timeout=600)
        bot.chat.close()
        return [m for _, m in sent_to(client, "bo")]

    told = run_simulated(scenario)
    assert len(told) == 1, told
    (recap,) = told
    assert recap.startswith("Market Draft league #1, while you were away: the referee picked 45 cards at")
    assert "you lost your round 1 game to al by forfeit" in recap
    assert "the league is over: al wins the league" in recap
    assert "Join it" not in recap and "Your pack" not in recap  # nothing stale


def test_a_player_back_in_time_hears_their_pack_as_it_is_now() -> None:
    """Lines held for a member who is offline give way to one recap: the pack waiting now, not the packs
    listed (and picked from by the referee) meanwhile."""

    async def scenario() -> tuple[list[str], list[str]]:
        client, bot, league = await bo_gone_from_a_started_league()
        engine = league.engine
        for _ in range(2):
            await league.stand_in("bo", "away")
            await league.perform(league.table.apply(core.Pick(player="al", card=engine.pack("al")[0])))
        pack = [league.card_name(c) for c in engine.pack("bo")]
        client.sent.clear()
        bot.chat.user_back("bo")
        await bot.chat.flush(timeout=600)
        bot.chat.close()
        return [m for _, m in sent_to(client, "bo")], pack

    told, pack = run_simulated(scenario)
    assert len(told) == 1, told
    assert told[0].startswith("Market Draft league #1, while you were away: the referee picked 2 cards at")
    assert f"your pack ({len(pack)}): 1. {pack[0]};" in told[0]
    assert told[0].count("pack (") == 1  # no pack listed meanwhile


def test_a_pages_buy_and_pass_buttons_get_an_answer() -> None:
    """Field: the page's Buy and Pass answered ``[]`` though the room announced them."""
    bot = _ChattyBot(Journal(":memory:"))
    league = market_league(bot, players=("al", "bo"))
    engine = league.engine
    draft_to_the_last_pick(league)
    while engine.phase == "draft":
        player = next(p for p in ("al", "bo") if engine.pack(p))
        league.table.apply(core.Pick(player=player, card=engine.pack(player)[0]))
    league.table.apply(core.ReportResult(player=None, winner="al"))
    buyer = engine.whose_turn()
    answer = say(league, bot, buyer, "!pass")  # the page's button: its reply hook
    assert answer[0] == "You passed your market turn.", answer


def test_a_game_opened_again_for_a_pairing_starts_with_its_setup() -> None:
    """Field: game #5, opened after #4 was cut short, started without "fay plays first (decided at random).
    Hand 3, life 10, no library."."""
    engine = autobattler_engine()
    bot = _ChattyBot(Journal(":memory:"))
    table = Table.create(bot.journal, "ws://test:league:0:autobattler:1", engine, meta={"games": {}})
    league = LeagueReferee(bot, 0, LeagueOptions(format="autobattler"), block_of(engine), table)  # type: ignore[arg-type]
    effects: list[Any] = []
    for player in ("a", "b", "c", "d"):
        effects += table.apply(ab.EndDraft(player=player))
    asyncio.run(league.perform(effects))
    setup = next(e for e in effects if isinstance(e, ab.MatchSetup))
    (first,) = [g for g in league.games.values() if set(g.players) == set(setup.players)]
    assert first.setup_note.endswith(
        "Hand 3, life 10, no library; your basic lands and treasures start on the battlefield."
    )
    asyncio.run(league.open_game(setup.round, tuple(setup.players), instead_of=first.game_id))
    (again,) = [g for g in league.games.values() if g is not first and set(g.players) == set(setup.players)]
    assert again.setup_note == first.setup_note


def test_disagreeing_autobattler_reports_are_not_told_a_concession_decides() -> None:
    engine = autobattler_engine()
    for player in ("a", "b", "c", "d"):
        engine.apply(ab.EndDraft(player=player))
    match = engine.league.match_of("a")
    opponent = match.opponent("a")
    render_effects(engine.apply(core.ReportResult(player="a", winner="a")), engine)
    out = render_effects(engine.apply(core.ReportResult(player=opponent, winner=opponent)), engine)
    for line in (out.private["a"][0], out.private[opponent][0]):
        assert "your reports disagree" in line and "a life total at 0" in line
        assert "a concession)" not in line and "concessions decide nothing" in line


def test_the_rooms_purchase_line_keeps_who_what_and_the_price() -> None:
    """Field: "dan buys Wingspan Mentor, trading in Savannah Sage, … Blink …": the price was cut off."""
    names = tuple(f"Savannah Sage of the Long Name {n}" for n in range(12))
    effect = mk.CardBought(
        player="dan",
        card=7,
        name="Wingspan Mentor",
        paid=tuple(range(12)),
        paid_names=names,
        worth=12,
        cost=10,
    )
    engine = autobattler_engine()  # only for the renderer's signature: a purchase line reads no state
    (line,) = render_effects([effect], engine).public
    assert line.startswith("dan buys Wingspan Mentor (worth 12, cost 10), trading in Savannah Sage")
    assert line.endswith(" more.") and len(line) <= 250, line


# -- the scheduler's side: bulk lines, topics held and given back as a recap ------------------------------


def test_a_short_line_passes_a_listing_queued_for_the_same_player() -> None:
    async def scenario() -> list[str]:
        client = FakeClient()
        chat = client_scheduler(client)
        chat.say(("user", "ann"), Tagged("Your pool (60 cards), to paste into the deck editor:", bulk=True))
        for part in range(3):  # as the league cuts a listing: pieces under the private limit
            piece = "\n".join(
                f"1 Sporeweb Weaver of the Long Name {n}" for n in range(part * 20, part * 20 + 20)
            )
            chat.say(("user", "ann"), Tagged(piece, bulk=True), raw=True)
        chat.say(("user", "ann"), "Round 1/2: ann 0, bob 0.")  # an answer said after the listing
        await chat.flush(timeout=600)
        chat.close()
        return client.to(("user", "ann"))

    messages = run_simulated(scenario)
    assert messages[0] == "Round 1/2: ann 0, bob 0."
    assert messages[1] == "Your pool (60 cards), to paste into the deck editor:"
    assert "\n".join(messages[2:]).split("\n") == [
        f"1 Sporeweb Weaver of the Long Name {n}" for n in range(60)
    ]


def test_a_renderer_that_returns_none_is_dropped_quietly(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> list[str]:
        client = FakeClient()
        chat = client_scheduler(client)
        chat.say(("user", "ann"), lambda: None)
        chat.say(("user", "ann"), "Noted.")
        await chat.flush(timeout=60)
        chat.close()
        return client.to(("user", "ann"))

    assert run_simulated(scenario) == ["Noted."]
    assert "could not be rendered" not in caplog.text


async def unused_sender(destination: Any, message: str) -> None:
    raise AssertionError(f"sent to {destination}: {message!r}")


def test_a_topics_lines_held_for_an_offline_user_become_one_recap_even_after_a_restart() -> None:
    recorded: dict[str, list[tuple[str, bool]]] = {}
    states = iter(["League #1 now: your pack (3): 1. Opt.", "League #1 now: the league is over."])

    def recap(user: str) -> str | None:
        return next(states) if user == "bo" else None

    async def first_run() -> None:
        chat = ChatScheduler(
            unused_sender,  # never called: bo is known to be offline
            lambda d, m: 0.0,
            on_held=lambda user, messages: recorded.__setitem__(user, messages),
        )
        chat.user_left("bo")
        chat.say(("user", "bo"), Tagged("Your pack (5): 1. Shock; 2. Opt.", topic="league:1", recap=recap))
        chat.say(("user", "bo"), "Game #4: your deck is legal.")  # not the league's: kept as it is
        chat.say(("user", "bo"), Tagged("Your pack (4): 1. Opt.", topic="league:1", recap=recap))
        chat.close()

    async def second_run() -> list[str]:
        client = FakeClient()
        chat = client_scheduler(client)
        chat.recaps["league:1"] = recap  # the restored league registers its recap
        chat.keep("bo", recorded["bo"])
        chat.user_back("bo")
        await chat.flush(timeout=60)
        chat.close()
        return client.to(("user", "bo"))

    asyncio.run(first_run())
    assert recorded["bo"][0][0] == "Game #4: your deck is legal."
    assert len(recorded["bo"]) == 2  # the other message and the league's topic
    assert run_simulated(second_run) == [
        "While you were away: Game #4: your deck is legal.",
        "League #1 now: your pack (3): 1. Opt.",
    ]
