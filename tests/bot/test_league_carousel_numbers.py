"""The carousel's numbers are the carousel's as it is when a player picks: each pick takes a card out (a
put-back adds one at the end), so the numbers of the opening list shift, and the prompt that told the next
picker "Your carousel pick: !pick N." listed nothing: a ``!pick 3`` read off the opening list took another
card. The prompt lists the carousel as it is now, and ``!pick N`` counts in that list."""

from __future__ import annotations

import re

import pytest

from cockatrice_ext.bot.league_commands import pick_action
from cockatrice_ext.bot.league_views import render_effects
from cockatrice_ext.formats.autobattler import CarouselPick
from tests.formats import test_autobattler as ab_tests


@pytest.mark.parametrize("put_back", [False, True])
def test_the_next_picker_reads_the_carousel_as_it_is_and_picks_in_it(put_back: bool) -> None:
    engine = ab_tests.make_engine(carousel=True, carousel_put_back=put_back)
    engine.apply(ab_tests.Start(None))
    for _ in range(3):
        ab_tests.end_draft(engine)
        ab_tests.play_round(engine)
    assert engine.phase == "carousel"
    first = engine.whose_carousel_pick()
    assert first is not None
    opening = list(engine.carousel)
    given = engine.pool(first)[0] if put_back else None
    effects = engine.apply(CarouselPick(first, opening[0], put_back=given))
    following = engine.whose_carousel_pick()
    assert following is not None and following != first

    prompt = " ".join(str(line) for line in render_effects(effects, engine).private[following])
    listed = dict(re.findall(r"(\d+)\. ([^;:]+?)(?=; \d+\. |: !pick)", prompt))
    cards = engine.config.cards
    assert listed == {str(n): cards[c].name for n, c in enumerate(engine.carousel, start=1)}, prompt

    pool = engine.pool(following) if put_back else None
    typed = "3 for 1" if put_back else "3"
    action = pick_action(following, typed, engine.carousel, carousel=True, put_back_from=pool)
    engine.apply(action)
    assert cards[engine.pool(following)[-1]].name == listed["3"]  # the card the prompt numbered 3


def test_a_carousel_pick_by_number_waits_for_the_list_on_its_way() -> None:
    """The picker's prompt (the carousel as it is now) still waits for the chat budget: a ``!pick 1`` is
    refused with why, as a draft pick is; by name it goes through."""
    from cockatrice_ext.bot.referee import NUMBERS_UNREAD, Context
    from cockatrice_ext.journal import Journal
    from tests.bot.test_chat_budget import run_simulated
    from tests.bot.test_league_stale_views import _SlowChat, chat_league, drained

    async def scenario() -> tuple[list[str], int, int]:
        bot = _SlowChat(Journal(":memory:"))
        engine = ab_tests.make_engine(carousel=True)
        engine.apply(ab_tests.Start(None))
        for _ in range(3):
            ab_tests.end_draft(engine)
            ab_tests.play_round(engine)
        league = chat_league(bot, engine, "autobattler")
        picker = engine.whose_carousel_pick()
        assert picker is not None
        bot.chat.say(("user", picker), "Your carousel pick, from ...")  # the prompt, still waiting
        answers: list[str] = []

        async def answer(line: str) -> None:
            answers.append(str(line))

        ctx = Context(bot, "private", picker, reply_hook=answer)  # type: ignore[arg-type]
        assert await league.handle_command(ctx, "!pick 1")
        by_number = len(engine.carousel)
        name = engine.config.cards[engine.carousel[0]].name
        assert await league.handle_command(ctx, f"!pick {name}")
        by_name = len(engine.carousel)
        await drained(bot, league)
        return answers, by_number, by_name

    answers, by_number, by_name = run_simulated(scenario)
    assert by_number == 12 and by_name == 11, (by_number, by_name, answers)
    assert any(NUMBERS_UNREAD in line for line in answers), answers
