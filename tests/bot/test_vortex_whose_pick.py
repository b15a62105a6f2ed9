"""A newcomer's `!pick` out of turn heard "you have no pick to make now" and waited for nothing: the refusal
says whose pick it is (or that nobody picks now, and when a pick comes)."""

from __future__ import annotations

from cockatrice_ext.formats import vortex as rules
from tests.bot.test_vortex_wording import engine_of, refusal


def test_no_pick_names_whose_pick_it_is() -> None:
    engine = engine_of()
    picker = next(p for p in engine.in_game if engine.pending_pick(p))
    other = next(p for p in engine.in_game if p != picker)
    names = {1: "vera", 2: "walt", 3: "xena"}
    said = refusal(engine, rules.Pick(player=other, choice=0))
    assert said == f"you have no pick to make now: it is {names[picker]}'s pick", said
