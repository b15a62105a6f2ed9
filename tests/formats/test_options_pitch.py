"""``!rules`` explains the format before its options. Found by a tester who learned each format from the chat
alone: ``!rules`` answered only option values ("boards=on|off[off] timer=..."), which explain no rules."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.combat import CombatOptions, CombatReferee
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.bot.words import MAX_CHAT_LINE
from cockatrice_ext.formats import FORMAT_TITLES
from cockatrice_ext.formats import options as opts

TABLE_OPTIONS: dict[str, Any] = {
    "auction": AuctionOptions(),
    "vortex": VortexOptions(),
    "combat": CombatOptions(),
    "market": LeagueOptions(format="market"),
    "autobattler": LeagueOptions(format="autobattler"),
}
BLOCKS = Path(__file__).resolve().parents[2] / "blocks"
LONGEST_BLOCK = max((path.stem for path in BLOCKS.glob("*.txt")), key=len)


def test_every_format_has_one_pitch_with_its_title_within_the_limit() -> None:
    assert set(opts.FORMAT_PITCH) == set(FORMAT_TITLES) == set(opts.OPTIONS)
    for name, title in FORMAT_TITLES.items():
        pitch = opts.pitch(name)
        assert pitch == f"{title}: {opts.FORMAT_PITCH[name]}"
        assert len(pitch) <= opts.PITCH_LIMIT == 120, pitch
        assert pitch.endswith(".") and "\n" not in pitch
    assert opts.pitch("chess") is None


@pytest.mark.parametrize("fmt", sorted(TABLE_OPTIONS))
def test_rules_start_with_the_format_in_plain_words_then_the_options(fmt: str) -> None:
    line = opts.describe_in_force(fmt, TABLE_OPTIONS[fmt])
    assert line.startswith(f"{opts.FORMAT_PITCH[fmt]} Options: defaults: ")
    first = opts.options_of(fmt)[0]
    assert f" {first.name}={first.show(first.default)}" in line


def test_a_format_without_a_pitch_or_options_reads_as_before() -> None:
    assert opts.describe_in_force("chess", object()) == "no options"


def longest_values(fmt: str) -> dict[str, Any]:
    """Every option of ``fmt`` changed, to its longest value as shown."""
    values: dict[str, Any] = {}
    for option in opts.options_of(fmt):
        if option.kind == "bool":
            values[option.name] = not option.default
        elif option.kind == "choice":
            values[option.name] = max((c for c in option.choices if c != option.default), key=len)
        else:
            values[option.name] = option.high
    return values


def rules_answer(referee: Any) -> str:
    """What the referee's own ``!rules`` says (only its options are read)."""
    heard: list[str] = []

    async def reply(text: str) -> None:
        heard.append(text)

    asyncio.run(referee.rules(SimpleNamespace(reply=reply, sender="ann")))
    (line,) = heard
    return line


@pytest.mark.parametrize(
    ("fmt", "cls", "extra", "title"),
    [
        ("auction", AuctionReferee, {"commander": True}, "Commander Auction"),
        ("vortex", VortexReferee, {}, "Vortex"),
        ("combat", CombatReferee, {}, "Magic Combat Rules"),
    ],
)
def test_every_game_rules_answer_fits_its_chat_line_whole(
    fmt: str, cls: type[Any], extra: dict[str, Any], title: str
) -> None:
    """With the longest bundled block name and every option at its longest value, nothing is cut."""
    options = opts.apply(fmt, TABLE_OPTIONS[fmt], longest_values(fmt))
    if hasattr(options, "block"):
        options = dataclasses.replace(options, block=LONGEST_BLOCK)
    referee = object.__new__(cls)
    referee.options = dataclasses.replace(options, **extra)
    line = rules_answer(referee)
    assert line.startswith(title) and opts.FORMAT_PITCH[fmt] in line
    assert len(line) <= MAX_CHAT_LINE and not line.endswith("…"), line
    last = opts.options_of(fmt)[-1]
    assert f"{last.name}={last.show(longest_values(fmt)[last.name])}." in line


@pytest.mark.parametrize("fmt", ["market", "autobattler"])
def test_every_league_rules_answer_is_whole(fmt: str) -> None:
    referee = object.__new__(LeagueReferee)
    referee.format_name = fmt
    referee.options = opts.apply(fmt, TABLE_OPTIONS[fmt], longest_values(fmt))
    referee.block = SimpleNamespace(name=LONGEST_BLOCK)
    line = rules_answer(referee)
    assert line.startswith(f"{FORMAT_TITLES[fmt]} league, block {LONGEST_BLOCK}: {opts.FORMAT_PITCH[fmt]}")
    assert not line.endswith("…") and line.endswith(".")


@pytest.mark.parametrize(
    ("fmt", "defaults"),
    [("auction", AuctionOptions()), ("combat", CombatOptions()), ("vortex", VortexOptions())]
    + [(fmt, LeagueOptions()) for fmt in ("market", "autobattler")],
)
def test_the_rooms_rules_answer_says_what_the_format_is_then_its_options(fmt: str, defaults: Any) -> None:
    """Seen: a newcomer's `!auction rules` in the room read "boards=on|off[off] timer=..." and nothing else.
    The room's answer starts with the pitch and still names every option, in whole chat lines."""
    lines = opts.room_rules(fmt, defaults)
    said = " ".join(lines)
    assert said.startswith(f"{opts.pitch(fmt)} Options: "), lines
    assert all(f"{o.name}=" in said for o in opts.options_of(fmt)), lines
    assert all(len(line) <= MAX_CHAT_LINE for line in lines), lines
    assert len(lines) == 1 or len(said) > MAX_CHAT_LINE, lines  # two lines only when one would not do
