"""Game options: the one grammar, the one list, and how each option reaches its engine's config."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.bot.auction import AuctionOptions
from cockatrice_ext.bot.combat import CombatOptions
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.vortex import VortexOptions
from cockatrice_ext.formats import options as opts
from cockatrice_ext.formats.auction import AuctionConfig
from cockatrice_ext.formats.autobattler import AutoBattlerConfig
from cockatrice_ext.formats.combat import CombatConfig
from cockatrice_ext.formats.market import MarketConfig
from cockatrice_ext.formats.vortex import VortexConfig

TABLE_OPTIONS: dict[str, Any] = {
    "auction": AuctionOptions(),
    "vortex": VortexOptions(),
    "combat": CombatOptions(),
    "market": LeagueOptions(format="market"),
    "autobattler": LeagueOptions(format="autobattler"),
}
CONFIGS: dict[str, type[Any]] = {
    "auction": AuctionConfig,
    "vortex": VortexConfig,
    "combat": CombatConfig,
    "market": MarketConfig,
    "autobattler": AutoBattlerConfig,
}
# the referee's own settings, not the engine's (basics: which of the pool's cards the referee shuffles in)
BOT_ONLY = {"bid_timeout", "auction_at", "pick_timeout", "basics_per_player"}


def test_the_issue_examples_parse() -> None:
    assert opts.split_words("auction", ["2", "boards", "timer=45", "empty=draw"]) == (
        ["2"],
        {"boards": True, "timer": 45, "empty": "draw"},
    )
    assert opts.parse("autobattler", ["poison=flat2", "interest=5", "carousel"]) == {
        "poison": "flat2",
        "interest": 5,
        "carousel": "drop",
    }
    assert opts.parse("auction", ["boards=off", "timer=off", "EMPTY=Life"]) == {
        "boards": False,
        "timer": 0,
        "empty": "life",
    }


@pytest.mark.parametrize(
    ("fmt", "words", "message"),
    [
        ("auction", ["timr=45"], "unknown option 'timr' (did you mean timer?)"),
        ("autobattler", ["carosel"], None),  # a bare unknown word is not an option (the room reads it)
        ("autobattler", ["carosel=drop"], "unknown option 'carosel' (did you mean carousel?)"),
        ("auction", ["zzz=1"], "unknown option 'zzz' (options: boards, timer, empty, noncreature, gold,"),
        ("auction", ["timer=5"], "timer=5: expected a whole number from 10 to 3600, or off"),
        ("auction", ["timer=-3"], "timer=-3: expected a whole number"),
        ("auction", ["empty=maybe"], "empty=maybe: expected one of lose, draw, life"),
        ("auction", ["boards=perhaps"], "boards=perhaps: say boards=on or boards=off"),
        ("auction", ["boards", "boards=off"], "option 'boards' given twice"),
        ("combat", ["hand"], "option 'hand' needs a value: hand=1-40"),
    ],
)
def test_refusals_are_one_clear_line(fmt: str, words: list[str], message: str | None) -> None:
    if message is None:
        assert opts.split_words(fmt, words) == (words, {})
        return
    with pytest.raises(opts.OptionError) as refused:
        opts.parse(fmt, words)  # every word meant as an option (as !combat new reads its words)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)


OFF_OPTIONS = [(fmt, o) for fmt, options in opts.OPTIONS.items() for o in options if o.off is not None]


@pytest.mark.parametrize(("fmt", "option"), OFF_OPTIONS, ids=[f"{f}.{o.name}" for f, o in OFF_OPTIONS])
def test_an_option_with_off_says_off_as_a_word(fmt: str, option: opts.Option) -> None:
    """Smoke test: "picktimer=5: expected a whole number from 10 to 600 (or off = 0)" read as if 0 were in
    the range. Every option with an off value says "off"; each value the refusal names is accepted."""
    below = option.low - 1
    with pytest.raises(opts.OptionError) as refused:
        opts.parse(fmt, [f"{option.name}={below if below > option.off else option.high + 1}"])
    assert str(refused.value).endswith(
        f": expected a whole number from {option.low} to {option.high}, or off"
    )
    assert "=" not in str(refused.value).split(": ", 1)[1]
    assert opts.parse(fmt, [f"{option.name}=off"]) == {option.name: option.off}
    for value in (option.low, option.high):
        assert opts.parse(fmt, [f"{option.name}={value}"]) == {option.name: value}


@settings(max_examples=300, deadline=None)
@given(
    fmt=st.sampled_from(sorted(opts.OPTIONS)),
    words=st.lists(
        st.one_of(
            st.text(max_size=20),
            st.builds(
                lambda k, v: f"{k}={v}",
                st.sampled_from([o.name for f in opts.OPTIONS.values() for o in f] + ["x"]),
                st.one_of(st.text(max_size=8), st.integers(-5, 10**7).map(str)),
            ),
        ),
        max_size=6,
    ),
)
def test_any_words_parse_or_fail_with_an_option_error(fmt: str, words: list[str]) -> None:
    """Fuzz: room chat is untrusted; only OptionError comes out, and what parses is a valid value."""
    try:
        _, values = opts.split_words(fmt, words)
    except opts.OptionError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    table = opts.apply(fmt, TABLE_OPTIONS[fmt], values)
    in_force = opts.in_force(fmt, table)
    assert all(in_force[name] == value for name, value in values.items())


def every_value(option: opts.Option) -> list[Any]:
    if option.kind == "bool":
        return [False, True]
    if option.kind == "choice":
        return list(option.choices)
    return sorted(
        {option.low, option.high, option.default} | ({option.off} if option.off is not None else set())
    )


@pytest.mark.parametrize("fmt", sorted(opts.OPTIONS))
def test_every_option_reaches_the_engine_config_and_reads_back(fmt: str) -> None:
    """Each value sets fields of the table options; the engine config takes them by name (no copy of the
    rule), and !rules reads the same value back from the journaled table options."""
    defaults = TABLE_OPTIONS[fmt]
    assert opts.in_force(fmt, defaults) == {o.name: o.default for o in opts.options_of(fmt)}
    config_fields = {f.name for f in dataclasses.fields(CONFIGS[fmt])}
    for option in opts.options_of(fmt):
        assert option.help and option.fields() <= {f.name for f in dataclasses.fields(defaults)}
        assert option.fields() - BOT_ONLY <= config_fields, option.name
        for value in every_value(option):
            table = opts.apply(fmt, defaults, {option.name: value})
            assert opts.in_force(fmt, table)[option.name] == value
            restored = type(table)(**dataclasses.asdict(table))  # as a restart reads the journal
            assert opts.in_force(fmt, restored)[option.name] == value
            config = CONFIGS[fmt](**opts.config_settings(CONFIGS[fmt], table))
            for name, expected in option.settings(value).items():
                if name not in BOT_ONLY:
                    assert getattr(config, name) == expected


def test_rules_lines_show_chosen_options_first() -> None:
    table = opts.apply("auction", AuctionOptions(), {"boards": True, "timer": 45, "empty": "draw"})
    line = opts.describe_in_force("auction", table)
    assert line.startswith(opts.FORMAT_PITCH["auction"] + " Options: chosen: boards=on timer=45 empty=draw;")
    assert "; defaults: noncreature=auction gold=10" in line
    assert opts.brief("autobattler", LeagueOptions(format="autobattler", interest_threshold=3)).startswith(
        "poison=fib|flat2[fib] interest=1-5|off[3]"
    )
    assert all(line.count(":") >= 1 for line in opts.help_lines("market"))


def test_operator_option_names_its_format() -> None:
    assert opts.parse_operator_option("auction.timer=60") == ("auction", "timer=60")
    assert opts.parse_operator_option("autobattler.carousel") == ("autobattler", "carousel")
    for bad in ("timer=60", "chess.timer=1", "auction."):
        with pytest.raises(opts.OptionError):
            opts.parse_operator_option(bad)


def test_a_misspelt_option_among_block_names_is_named() -> None:
    assert opts.misspelt("auction", "bords") == "no option or block called 'bords' (did you mean boards?)"
    assert opts.misspelt("auction", "auction-sample") == ""
