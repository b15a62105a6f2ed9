"""What a player missed of a game's chat while away: kept per player, rendered as one short message."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.bot.missed import KEPT_LINES, RECAP_CHARACTERS, RECENT_SECONDS, MissedLines, recap


def test_lines_said_while_away_are_told_once_on_return() -> None:
    missed = MissedLines()
    missed.said("Auction 1: Serra Angel", 10.0, away=set())
    missed.dropped(2, silent_seconds=0, now=20.0)
    missed.said("Sold: Serra Angel to alice for 3", 21.0, away={2})
    missed.said("alice: !cast or !keep Serra Angel", 21.5, away={2})
    missed.said("said after her return", 22.0, away=set())
    assert missed.back(2) == ["Sold: Serra Angel to alice for 3", "alice: !cast or !keep Serra Angel"]
    assert missed.back(2) == []


def test_lines_from_the_silence_before_the_drop_are_repeated() -> None:
    """A connection that died silently is noticed only after the server's timeout: the lines said since
    the server last heard from the player may not have reached them."""
    missed = MissedLines()
    missed.said("old line", 0.0, away=set())
    missed.said("said 12 s before the drop", 8.0, away=set())
    missed.said("said 3 s before the drop", 17.0, away=set())
    missed.dropped(1, silent_seconds=14, now=20.0)
    missed.said("after the drop", 21.0, away={1})
    assert missed.back(1) == ["said 12 s before the drop", "said 3 s before the drop", "after the drop"]

    missed.dropped(3, silent_seconds=1, now=30.0)  # a clean close: only the last moments are repeated
    assert missed.back(3) == []


def test_a_player_who_left_is_forgotten_and_old_lines_age_out() -> None:
    missed = MissedLines()
    missed.said("to the table", 0.0, away={4})
    missed.forget(4)
    assert missed.back(4) == []
    missed.said("long ago", 0.0, away=set())
    missed.said("now", RECENT_SECONDS + 5, away=set())
    missed.dropped(5, silent_seconds=10_000, now=RECENT_SECONDS + 6)
    assert missed.back(5) == ["now"]


def test_only_the_latest_lines_are_kept() -> None:
    missed = MissedLines()
    missed.dropped(1, 0, 0.0)
    for n in range(KEPT_LINES + 5):
        missed.said(f"line {n}", 1.0, away={1})
    assert missed.back(1) == [f"line {n}" for n in range(5, KEPT_LINES + 5)]


def test_recap_says_how_many_earlier_lines_are_left_out() -> None:
    assert recap(7, []) == ""
    assert recap(7, ["Sold: Shock to amy for 2"]) == "Game #7 while you were away: Sold: Shock to amy for 2"
    lines = [f"Auction {n}: a card with a long name, high bid {n} by somebody" for n in range(12)]
    text = recap(7, lines)
    assert len(text) <= RECAP_CHARACTERS
    assert text.endswith(lines[-1])
    kept = text.count("Auction ")
    assert f"({12 - kept} earlier lines not repeated)" in text


@given(st.lists(st.text(min_size=1, max_size=400), max_size=20), st.integers(60, 1000))
def test_recap_fits_and_ends_with_the_newest_line(lines: list[str], limit: int) -> None:
    text = recap(3, lines, limit)
    assert len(text) <= limit
    if lines:
        newest = lines[-1]
        assert text.endswith(newest) or text.endswith("…")
        if text.endswith(newest):
            assert newest in text
    else:
        assert text == ""
